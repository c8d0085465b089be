"""A small catalogue and an account with a token of every scope, for the contract tests."""

from dataclasses import dataclass

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from accounts.models import Plan, Scope
from directory.catalogue.models import Logo
from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    PaletteFactory,
    SectorFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
    token_for,
)


@dataclass(frozen=True)
class Catalogue:
    logos: list[Logo]


@pytest.fixture
def catalogue() -> Catalogue:
    """Companies with a current logo in SVG, PNG and PDF, so positive cases meet real rows."""
    sector = SectorFactory(slug="banking", name="Banking")
    logos = []
    for name in ("Acme", "Banco Ñandú", "Café Sol"):
        company = CompanyFactory(name=name, sector=sector, website=f"https://{name[:4]}.example")
        DomainFactory(company=company)
        logo = LogoFactory(company=company)
        add_file(logo, svg_bytes())
        add_file(logo, png_bytes())
        add_file(logo, PDF_BYTES)
        logos.append(make_current(logo))
    return Catalogue(logos=logos)


@pytest.fixture
def pro_user():
    # Unlimited downloads: the download quota is tested elsewhere and would only stand
    # in the way of every positive download the fuzzer sends.
    return UserFactory(plan=Plan.PRO)


@pytest.fixture
def every_scope_token(pro_user) -> str:
    PaletteFactory(owner=pro_user, name="Brand")
    return token_for(pro_user, scopes=Scope.values, name="Contract")


@pytest.fixture
def wsgi_in_test_transaction(db):
    """Lets requests sent straight to the WSGI app run inside the test's transaction.

    Django closes the database connection around each request, which inside a test's
    transaction would close the connection the test itself holds. Django's own test
    client disconnects the same two receivers for the same reason.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
