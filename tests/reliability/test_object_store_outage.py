"""The object store down while a download link is asked for: 503, and nothing counted.

Presigning is offline in boto3, so only a look at the store tells a link that works
from one that will fail; these tests make the store unreachable in two ways, refusing
connections and accepting them without ever answering.
"""

import http.server
import logging
import socket
import threading

import pytest

from directory.downloads.models import Download
from tests.conftest import use_s3_storage
from tests.factories import LogoFactory, add_file, svg_bytes
from tests.network import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.fault]


class _SilentStore:
    """A listener that accepts connections and never answers, counting them."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.accepted.append(connection)

    def close(self) -> None:
        self.socket.close()
        for connection in self.accepted:
            connection.close()


@pytest.fixture
def silent_store():
    store = _SilentStore()
    yield store
    store.close()


class _FailingHandler(http.server.BaseHTTPRequestHandler):
    """An S3 endpoint that answers every request 503 (S3's SlowDown)."""

    def do_HEAD(self) -> None:
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args) -> None:
        pass


@pytest.fixture
def failing_store():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FailingHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def _download(api, logo):
    return api.post(f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json")


def test_it_answers_503_and_counts_nothing_when_the_store_refuses_connections(
    api, settings, s3_storage, caplog
):
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    use_s3_storage(settings, endpoint=f"http://127.0.0.1:{free_port()}", bucket=s3_storage)

    with caplog.at_level(logging.WARNING, logger="api.errors"):
        response = _download(api, logo)

    assert response.status_code == 503
    assert response.json() == {
        "error": "SERVICE_UNAVAILABLE",
        "message": "A backing service is unavailable; retry shortly.",
    }
    assert int(response["Retry-After"]) >= 1
    assert Download.objects.count() == 0
    logo.refresh_from_db()
    assert logo.download_count == 0
    assert "object store unavailable" in caplog.text


def test_it_gives_up_on_a_silent_store_after_one_attempt(api, settings, s3_storage, silent_store):
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    use_s3_storage(settings, endpoint=f"http://127.0.0.1:{silent_store.port}", bucket=s3_storage)

    response = _download(api, logo)

    assert response.status_code == 503
    assert response.json()["error"] == "SERVICE_UNAVAILABLE"
    assert len(silent_store.accepted) == 1  # no retries piled onto a struggling store
    assert Download.objects.count() == 0


def test_it_grants_again_once_the_store_is_back_with_the_quota_untouched(api, settings, s3_storage):
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    reachable = settings.STORAGES["default"]["OPTIONS"]["endpoint_url"]
    use_s3_storage(settings, endpoint=f"http://127.0.0.1:{free_port()}", bucket=s3_storage)
    assert _download(api, logo).status_code == 503

    use_s3_storage(settings, endpoint=reachable, bucket=s3_storage)
    response = _download(api, logo)

    assert response.status_code == 200
    quota = response.json()["quota"]
    assert (quota["used"], quota["remaining"]) == (1, 2)


def test_it_answers_503_and_counts_nothing_when_the_store_fails(
    api, settings, s3_storage, failing_store
):
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    port = failing_store.server_address[1]
    use_s3_storage(settings, endpoint=f"http://127.0.0.1:{port}", bucket=s3_storage)

    response = _download(api, logo)

    assert response.status_code == 503
    assert response.json()["error"] == "SERVICE_UNAVAILABLE"
    assert Download.objects.count() == 0
