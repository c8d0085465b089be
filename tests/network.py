"""Loopback ports for the servers the tests start, and for clients pointed at nothing."""

import socket


def free_port() -> int:
    """A loopback port nothing listens on at this moment."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
