"""SIGTERM to gunicorn while downloads, palette writes and uploads are under way: what
was being served finishes, nothing half-written is left, and what the database holds
afterwards matches the successful answers exactly.

Clients keep sending until the server is gone; one upload is held open halfway
through its body when the signal arrives, and completed after it: that request must
still be answered, and its proposal and file kept.
"""

import contextlib
import socket
import threading
import time
import uuid
from pathlib import Path

import pytest

from directory.downloads.models import Download
from palettes.models import Palette
from proposals.models import Proposal
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.reliability.servers import AppServer, send, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]

UPLOAD_BYTES = 2 * 1024 * 1024


@pytest.fixture
def app(local_app):
    return local_app(WEB_CONCURRENCY="3")


def _multipart(data: bytes, name: str) -> tuple[str, bytes]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="companyName"\r\n\r\n{name}\r\n'
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="logo.svg"\r\n'
            "Content-Type: image/svg+xml\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return f"multipart/form-data; boundary={boundary}", body


def _padded_svg(size: int) -> bytes:
    # A comment pads the SVG to `size` bytes: a big upload that is still accepted.
    start = svg_bytes()[:-6] + b"<!--"
    return start + b"x" * (size - len(start) - 9) + b"--></svg>"


class Client(threading.Thread):
    """Sends one kind of request again and again until the server stops answering."""

    def __init__(self, app: AppServer, kind: str, secrets: list[str], logo: str) -> None:
        super().__init__(daemon=True)
        self.app, self.kind, self.secrets, self.logo = app, kind, secrets, logo
        self.answers: list[tuple[str, int]] = []
        self.refused = 0

    def _request(self, number: int) -> tuple[str, str, dict[str, str], bytes]:
        token = {"Authorization": f"Bearer {self.secrets[number % len(self.secrets)]}"}
        if self.kind == "download":
            body = b'{"format": "PNG"}'
            path = f"/v1/public/logos/{self.logo}/download"
            return "POST", path, {**token, "Content-Type": "application/json"}, body
        if self.kind == "palette":
            body = b'{"type": "PALETTE", "name": "P", "colors": ["#112233", "#445566"]}'
            return (
                "POST",
                "/v1/public/palettes",
                {**token, "Content-Type": "application/json"},
                body,
            )
        content_type, body = _multipart(_padded_svg(200_000), f"Upload {number}")
        return "POST", "/v1/public/proposals", {**token, "Content-Type": content_type}, body

    def run(self) -> None:
        number = 0
        while self.refused < 3:
            method, path, headers, body = self._request(number)
            try:
                # Longer than the server's graceful timeout (30 s): a request in flight is
                # answered or cut off by the server, never given up on by the client while
                # the server may still commit it.
                status = send(method, self.app.url + path, headers=headers, body=body, timeout=60)[
                    0
                ]
            except OSError:  # refused, or reset before an answer: nothing was served
                self.refused += 1
                time.sleep(0.05)
                continue
            self.answers.append((self.kind, status))
            number += 1


def _largest_file(folder: Path) -> int:
    sizes = [0]
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):  # another upload's file, gone meanwhile
            sizes.append(path.stat().st_size)
    return max(sizes)


def _files_in(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}


def test_it_finishes_what_it_serves_and_keeps_exactly_what_it_answered(app, folders):
    temporary, media = folders
    logo = make_current(LogoFactory(company=CompanyFactory(slug="acme")))
    add_file(logo, png_bytes())
    files_before = _files_in(media)
    secrets = [token_for(UserFactory(plan="PRO")) for _ in range(30)]
    clients = [
        Client(app, kind, secrets[n::3], str(logo.id))
        for n, kind in enumerate(["download", "palette", "upload"])
    ]
    slow_secret = token_for(UserFactory())
    content_type, slow_body = _multipart(_padded_svg(UPLOAD_BYTES), "Slow upload")
    head = (
        "POST /v1/public/proposals HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {slow_secret}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(slow_body)}\r\nConnection: close\r\n\r\n"
    ).encode()

    for client in clients:
        client.start()
    wait_until(
        lambda: all(len(client.answers) >= 3 for client in clients), timeout=60, what="answers"
    )
    with socket.create_connection(("127.0.0.1", app.port)) as slow:
        slow.sendall(head + slow_body[: len(slow_body) // 2])
        # A worker streams it to a temporary file: it is being served, not queued.
        wait_until(lambda: _largest_file(temporary) > UPLOAD_BYTES // 4, what="the upload")
        app.process.send_signal(15)  # SIGTERM, as docker stop sends it
        time.sleep(0.5)
        slow.sendall(slow_body[len(slow_body) // 2 :])
        slow_answer = slow.makefile("rb").readline()
    for client in clients:
        client.join(timeout=60)
    exit_code = app.process.wait(timeout=60)
    log = app.stop()

    answered = [answer for client in clients for answer in client.answers]
    statuses = {(kind, status) for kind, status in answered}
    assert exit_code == 0
    assert slow_answer.startswith(b"HTTP/1.1 201")
    assert statuses <= {("download", 200), ("palette", 201), ("upload", 201)}
    assert Download.objects.count() == answered.count(("download", 200))
    assert Palette.objects.count() == answered.count(("palette", 201))
    assert Proposal.objects.count() == answered.count(("upload", 201)) + 1
    stored = {f"files/{name}" for name in Proposal.objects.values_list("file", flat=True)}
    assert _files_in(media) - files_before == stored  # no file without its row, and none lost
    assert _files_in(temporary) == set()
    assert "Traceback" not in log
