"""The database backend's connection health check: free for a quiet connection, and
still catches a connection the server has closed."""

import select
import tempfile
from pathlib import Path

import pytest
from django.db import connection, connections

pytestmark = pytest.mark.django_db


def _open_connection():
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    return wrapper


@pytest.fixture
def own_connection():
    wrapper = _open_connection()
    yield wrapper
    wrapper.close()


def _traced(wrapper, action):
    """What `action` returns, and the protocol traffic it caused as libpq traces it."""
    with tempfile.TemporaryDirectory() as directory:
        trace = Path(directory) / "trace"
        with trace.open("w") as stream:
            wrapper.connection.pgconn.trace(stream.fileno())
            try:
                result = action()
            finally:
                wrapper.connection.pgconn.untrace()
        return result, trace.read_text()


def _wait_until_readable(wrapper) -> None:
    poller = select.poll()
    poller.register(wrapper.connection.fileno(), select.POLLIN)
    assert poller.poll(5000), "the server wrote nothing to the connection"


def test_it_takes_a_quiet_connection_as_usable_without_asking_the_server(own_connection):
    usable, traffic = _traced(own_connection, own_connection.is_usable)

    assert usable is True
    assert traffic == ""


def test_it_finds_a_connection_the_server_has_closed_unusable(own_connection):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(%s)", [own_connection.connection.info.backend_pid]
        )
    _wait_until_readable(own_connection)

    assert own_connection.is_usable() is False


def test_it_asks_the_server_when_something_else_is_waiting_to_be_read(own_connection):
    own_connection.connection.execute("LISTEN health_check_probe")
    own_connection.connection.commit()
    notifier = _open_connection()
    try:
        notifier.connection.execute("NOTIFY health_check_probe")
        notifier.connection.commit()
    finally:
        notifier.close()
    _wait_until_readable(own_connection)

    usable, traffic = _traced(own_connection, own_connection.is_usable)

    assert usable is True
    assert "SELECT 1" in traffic


def test_it_finds_a_connection_closed_on_our_side_unusable(own_connection):
    own_connection.connection.close()

    assert own_connection.is_usable() is False


def test_it_is_the_backend_every_database_uses():
    assert {type(connections[alias]).__module__ for alias in connections} == {
        "config.postgres.base"
    }
