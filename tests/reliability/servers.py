"""Backing services and app processes the fault tests start, stop and restart themselves."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.project import ROOT, database_url

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def wait_until(ready, *, timeout: float = 15, what: str = "a server") -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come up within {timeout} s")
        time.sleep(0.05)


def accepts_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class RedisServer:
    """A cache-only redis-server of its own on a loopback port; stop() and start() again."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (scripts/lib.sh installs it)"
        # A cache only: nothing saved, nothing to load after a restart.
        arguments = ["--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
        self.process = subprocess.Popen(
            [binary, *arguments, "--appendonly", "no", "--dir", tempfile.gettempdir()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: accepts_connections(self.port), what="redis-server")

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Unreachable for the block, its data kept: connections hang, as they do when a
        server is overloaded or the network drops packets."""
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # A paused server would not act on the signal to stop.
            os.kill(self.process.pid, signal.SIGCONT)
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


def get(
    url: str, *, timeout: float = 10, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of a GET, whatever the status."""
    return send("GET", url, timeout=timeout, headers=headers)


def send(
    method: str,
    url: str,
    *,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    timeout: float = 10,
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of any request, whatever the status."""
    request = urllib.request.Request(url, data=body, headers=headers or {}, method=method)  # noqa: S310 - loopback
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - loopback
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


# What would point the app at someone else's services: the app gets only what it is given.
_NOT_INHERITED = ("DATABASE_", "REDIS_", "S3_", "STORAGE_", "MEDIA_ROOT")


def _inherited_environment() -> dict[str, str]:
    return {
        name: value for name, value in os.environ.items() if not name.startswith(_NOT_INHERITED)
    }


def app_env(**extra: str) -> dict[str, str]:
    """The environment of an app process on the test database, `extra` on top."""
    return {
        "DEBUG": "1",
        "SITE_URL": "http://127.0.0.1",
        "DATABASE_URL": database_url(),
        **extra,
    }


class AppServer:
    """The app under gunicorn with its deployment settings, one sync worker, and the
    environment given."""

    def __init__(self, port: int, env: dict[str, str]) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env = env
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - read and closed by stop()

    def start(self) -> None:
        gunicorn = str(ROOT / ".venv/bin/gunicorn")
        self.process = subprocess.Popen(
            [gunicorn, "--config", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT,
            env={
                **_inherited_environment(),
                "BIND_HOST": "127.0.0.1",
                "PORT": str(self.port),
                "WEB_CONCURRENCY": "1",
                **self.env,
            },
            stdout=subprocess.DEVNULL,
            # A file, not a pipe: a pipe nobody reads fills up and blocks the server.
            stderr=self.log,
        )
        # The master listens before it forks the worker: a test that reads `workers`
        # right after start() must find it there.
        wait_until(lambda: self._answers() and self.workers, what="gunicorn and its worker")

    def _answers(self) -> bool:
        assert self.process.poll() is None, self.logged()[-3000:]
        return accepts_connections(self.port)

    @property
    def workers(self) -> set[int]:
        """The process ids of gunicorn's workers (Linux)."""
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return {int(child) for child in children}

    def stop(self) -> str:
        """Stops the server and returns what it logged."""
        if self.process is None:
            return ""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        logged = self.logged()
        self.log.close()
        return logged

    def logged(self) -> str:
        """What the server has logged so far: gunicorn's lines and the app's, one per
        request (config/logging.py)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


class PostgresCluster:
    """A throwaway PostgreSQL cluster on a loopback port, owned by the postgres user when
    the tests run as root (initdb refuses root)."""

    def __init__(self, directory: Path, port: int) -> None:
        self.directory = directory
        self.data = directory / "data"
        self.port = port
        self.url = f"postgres://postgres@127.0.0.1:{port}/app"

    def _run(self, *command: str) -> None:
        if os.geteuid() == 0:
            command = ("runuser", "-u", "postgres", "--", *command)
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        self._run(
            str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--locale=C.UTF-8",
        )  # fmt: skip
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
                f"unix_socket_directories = '{self.directory}'\n"
                # Throwaway: durability buys nothing here.
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        self.start()
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "app")

    def _pg_ctl(self, action: str) -> None:
        # -l: the server's output to a file, not to the pipe this waits on.
        log = str(self.directory / "server.log")
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", log, "-m", "fast", "-w", action
        )

    def start(self) -> None:
        self._pg_ctl("start")

    def stop(self) -> None:
        self._pg_ctl("stop")

    def restart(self) -> None:
        self._pg_ctl("restart")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
