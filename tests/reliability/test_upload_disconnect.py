"""A client that goes away halfway through a proposal upload leaves nothing behind:
no proposal, no stored file, no temporary file of the upload.

Against the app under gunicorn, as deployed, over a raw socket: the body is declared
whole (3 MiB) and only half of it is sent. The upload's temporary files go to the
server's TMPDIR, a folder of this test, so they can be seen coming and going.
"""

import socket
import uuid
from pathlib import Path

import pytest

from proposals.models import Proposal
from tests.factories import UserFactory, svg_bytes, token_for
from tests.reliability.servers import get, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]

FILE_BYTES = 3 * 1024 * 1024


@pytest.fixture
def app(local_app):
    return local_app()


def _upload_head(port: int, secret: str) -> tuple[bytes, bytes]:
    """The request head and the part of the body before the file's bytes, for a body
    declared FILE_BYTES long."""
    boundary = uuid.uuid4().hex
    before = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nAcme\r\n'
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="file"; filename="logo.svg"\r\n'
        "Content-Type: image/svg+xml\r\n\r\n"
    ).encode()
    after = f"\r\n--{boundary}--\r\n".encode()
    head = (
        "POST /v1/public/proposals HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {secret}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(before) + FILE_BYTES + len(after)}\r\n\r\n"
    ).encode()
    return head, before


def _files_in(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


def test_it_keeps_nothing_of_an_upload_abandoned_halfway(app, folders):
    temporary, media = folders
    secret = token_for(UserFactory())
    head, before = _upload_head(app.port, secret)
    # An SVG padded with a comment: a file that would be accepted had it arrived whole.
    file_start = svg_bytes()[:-6] + b"<!--" + b"x" * FILE_BYTES

    with socket.create_connection(("127.0.0.1", app.port)) as client:
        client.sendall(head + before + file_start[: FILE_BYTES // 2])
        # The server streams the file to a temporary file as it arrives.
        wait_until(lambda: _files_in(temporary), what="the upload's temporary file")
    # One sync worker: this is answered once the abandoned request is done with.
    status, _, _ = get(f"http://127.0.0.1:{app.port}/v1/public/companies")
    log = app.stop()

    assert status == 200
    assert Proposal.objects.count() == 0
    assert _files_in(temporary) == []
    assert _files_in(media) == []
    assert "Traceback" not in log
