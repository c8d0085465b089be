"""Django's PostgreSQL backend with a connection health check that needs no round trip.

CONN_HEALTH_CHECKS makes Django check a persistent connection before its first query
in each request. The stock check runs `SELECT 1`: a round trip to the server on every
request, a fifth of the database work of a download grant. An idle connection has
nothing to read unless the server wrote to it unprompted, which it does when it closes
the connection (a restart, a terminated backend, an idle timeout). So a socket with
nothing to read is taken as usable, and only one with something to read gets the full
check. A server that vanishes without closing the connection is found by the first
query instead: that request gets 503 and the worker reconnects for the next.
"""

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        poller = select.poll()
        try:
            poller.register(connection.fileno(), select.POLLIN)
            pending = poller.poll(0)
        except (OSError, ValueError, self.Database.Error):
            return False
        # Something to read may be harmless (a parameter report, TLS housekeeping):
        # the full check decides.
        return not pending or super().is_usable()
