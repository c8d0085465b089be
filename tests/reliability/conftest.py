import pytest


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
