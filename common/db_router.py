"""Catalogue reads to a read replica, everything else to the primary.

Only the catalogue is read from the replica: it is what anonymous traffic reads, it
changes by imports and staff edits, and a few seconds of replication lag there costs
nothing. Accounts, tokens, download quotas, palettes and proposals stay on the
primary: they need to read their own writes and take row locks.

Inside a transaction every read goes to the primary too: a service that writes a
company and reads it back, or locks a row, must see its own transaction, which the
replica cannot.
"""

from django.conf import settings
from django.db import connections

REPLICA = "replica"

# Which directory models are the catalogue (Download is a quota record, not catalogue).
CATALOGUE_MODELS = frozenset(
    {"sector", "company", "logo", "variant", "asset", "domain", "companyembedding"}
)


def is_catalogue(model) -> bool:
    meta = model._meta
    return meta.app_label == "directory" and meta.model_name in CATALOGUE_MODELS


def catalogue_alias() -> str:
    """Where a catalogue read goes now: the replica, unless there is none or the
    primary is inside a transaction."""
    if REPLICA not in settings.DATABASES or connections["default"].in_atomic_block:
        return "default"
    return REPLICA


def catalogue_connection():
    """The connection for a written-out catalogue read: raw SQL bypasses the router."""
    return connections[catalogue_alias()]


class CatalogueReplicaRouter:
    """Active only when DATABASE_REPLICA_URL adds the replica alias (config/settings.py)."""

    def db_for_read(self, model, **hints):
        if not is_catalogue(model):
            return "default"
        instance = hints.get("instance")
        if instance is not None and instance._state.db is not None:
            # A relation followed from a row read on the primary stays there.
            return instance._state.db
        return catalogue_alias()

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        # Both aliases hold the same rows (the replica lags, it never differs).
        return {obj1._state.db, obj2._state.db} <= {"default", REPLICA}

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"
