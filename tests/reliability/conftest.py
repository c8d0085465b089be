import pytest

from tests.network import free_port
from tests.reliability.servers import AppServer, app_env


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fault: a backing service fails under the test (select with -m fault)"
    )


@pytest.fixture
def folders(tmp_path):
    """The temporary folder and the media folder of an app process, both empty."""
    temporary, media = tmp_path / "tmp", tmp_path / "media"
    temporary.mkdir()
    media.mkdir()
    return temporary, media


@pytest.fixture
def start_app():
    """Starts the app on the test database with the environment given; stops it after
    the test unless the test has."""
    started: list[AppServer] = []

    def start(**env: str) -> AppServer:
        server = AppServer(free_port(), app_env(**env))
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def local_app(start_app, folders):
    """Starts the app without Redis, its temporary and stored files in `folders`."""
    temporary, media = folders

    def start(**env: str) -> AppServer:
        return start_app(
            REDIS_URL="",
            MEDIA_ROOT=str(media),
            TMPDIR=str(temporary),
            STORAGE_BACKEND="local",
            **env,
        )

    return start
