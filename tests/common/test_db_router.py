"""With DATABASE_REPLICA_URL, catalogue reads go to the replica and everything else to the
primary; without it there is one database and no router."""

import json
import os
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext
from psycopg import sql

from accounts.models import ApiToken, DeviceCode, User
from common.db_router import CatalogueReplicaRouter
from directory.catalogue.models import Asset, Company, Domain, Logo, Sector, Variant
from directory.downloads.models import Download
from palettes.models import Palette
from proposals.models import Proposal
from tests.config.test_deployment import (
    ROOT,
    database_url,
    get,
    production_env,
    serve,
)
from tests.factories import CompanyFactory, LogoFactory, UserFactory, bearer, token_for
from tests.network import free_port

router = CatalogueReplicaRouter()


@pytest.mark.parametrize("model", [User, ApiToken, DeviceCode, Download, Palette, Proposal])
def test_it_reads_what_needs_its_own_writes_and_locks_from_the_primary(model):
    assert router.db_for_read(model) == "default"


@pytest.mark.parametrize("model", [Sector, Company, Logo, Variant, Asset, Domain, User, Download])
def test_it_writes_everything_to_the_primary(model):
    assert router.db_for_write(model) == "default"


def test_it_migrates_the_primary_only():
    assert router.allow_migrate("default", "directory", "company") is True
    assert router.allow_migrate("replica", "directory", "company") is False


def test_it_has_no_router_without_a_replica_url():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings as s; "
            "print(sorted(s.DATABASES), s.DATABASE_ROUTERS)",
        ],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stdout.strip() == "['default'] []", result.stderr


def _manage(database: str, *args: str) -> None:
    env = {
        "PATH": os.environ["PATH"],
        "DEBUG": "1",
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def replica_url(django_db_setup):
    """A second real database with the schema and rows of its own: a replica that
    differs from the primary shows which one a read went to."""
    db = connections["default"].settings_dict
    name = f"{db['NAME']}_replica"
    server = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"], "dbname": "postgres"}
    with psycopg.connect(**server, password=db["PASSWORD"], autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = database_url().rsplit("/", 1)[0] + "/" + name
    try:
        _manage(url, "migrate", "--noinput")
        _manage(
            url,
            "shell",
            "-c",
            "from tests.factories import CompanyFactory; "
            "CompanyFactory(slug='only-on-the-replica', name='Only on the replica')",
        )
        yield url
    finally:
        with psycopg.connect(**server, password=db["PASSWORD"], autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def test_it_serves_the_catalogue_from_the_replica_and_accounts_from_the_primary(
    transactional_db, replica_url, tmp_path
):
    CompanyFactory(slug="only-on-the-primary", name="Only on the primary")
    secret = token_for(UserFactory(email="reader@example.com"), scopes=["read:logos"])
    port = free_port()
    env = production_env(port, DATABASE_REPLICA_URL=replica_url, STATIC_ROOT=str(tmp_path))

    with serve(env, tmp_path / "app.log") as base:
        on_replica = get(base + "/v1/public/companies/only-on-the-replica", bearer(secret))
        on_primary = get(base + "/v1/public/companies/only-on-the-primary", bearer(secret))
        searched = get(base + "/v1/public/companies?q=only+on+the", bearer(secret))

    # The token was found: it exists on the primary only.
    status, _, body = on_replica
    assert status == 200, body
    assert b'"name":"Only on the replica"' in body
    assert on_primary[0] == 404
    # Search is written-out SQL, which the router never sees: it asks for the replica itself.
    status, _, body = searched
    assert status == 200, body
    assert [company["slug"] for company in json.loads(body)["data"]] == ["only-on-the-replica"]


needs_replica = pytest.mark.skipif(
    "replica" not in settings.DATABASES,
    reason="needs DATABASE_REPLICA_URL (scripts/test.sh sets it)",
)


@needs_replica
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_it_reads_the_catalogue_over_the_replica_connection():
    CompanyFactory(slug="acme")

    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        Company.objects.get(slug="acme")
        User.objects.count()

    assert ['"directory_company"' in query["sql"] for query in replica] == [True]
    assert ['"accounts_user"' in query["sql"] for query in primary] == [True]


@needs_replica
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_it_reads_the_catalogue_from_the_primary_inside_a_transaction():
    with CaptureQueriesContext(connections["replica"]) as replica, transaction.atomic():
        LogoFactory(company__slug="fresh")
        # Not committed: only the primary's own transaction can see it.
        assert Company.objects.get(slug="fresh").logos.count() == 1

    assert list(replica) == []


@needs_replica
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_it_lets_rows_read_from_either_side_relate():
    company = CompanyFactory(slug="acme")
    from_replica = Company.objects.get(slug="acme")

    logo = LogoFactory(company=from_replica)

    assert from_replica._state.db == "replica"
    assert logo.company_id == company.id
    assert logo._state.db == "default"
