"""Test data, built in view of each test: factories and file makers, no fixtures files."""

import io

import factory
from django.db import transaction
from PIL import Image

from accounts.models import Scope, Source, User
from accounts.services import token_issue
from directory.catalogue.models import (
    Company,
    Domain,
    EntityType,
    Logo,
    Sector,
    Variant,
    VariantKind,
)
from directory.editing.services import asset_attach, file_store, logo_make_current
from palettes.models import Palette, PaletteType


def svg_bytes(fill: str = "#C8102E", width: int = 200, height: int = 100) -> bytes:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" '
        f'fill="{fill}"/></svg>'
    ).encode()


def png_bytes(color=(200, 16, 46, 255), size=(64, 32)) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, color).save(out, format="PNG")
    return out.getvalue()


def raster_bytes(pillow_format: str, color=(200, 16, 46), size=(64, 32)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=pillow_format)
    return out.getvalue()


PDF_BYTES = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
EPS_BYTES = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n"
ZIP_BYTES = b"PK\x05\x06" + b"\x00" * 18


class SectorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Sector
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"sector-{n}")
    name = factory.Sequence(lambda n: f"Sector {n}")


class CompanyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Company

    slug = factory.Sequence(lambda n: f"company-{n}")
    name = factory.Sequence(lambda n: f"Company {n}")
    entity_type = EntityType.COMPANY
    province = "Madrid"


class LogoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Logo

    company = factory.SubFactory(CompanyFactory)
    slug = factory.Sequence(lambda n: f"logo-{n}")
    title = factory.LazyAttribute(lambda logo: f"{logo.company.name} logo")


class VariantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Variant

    logo = factory.SubFactory(LogoFactory)
    key = factory.Sequence(lambda n: f"variant-{n}")
    kind = VariantKind.TYPE
    name = factory.Sequence(lambda n: f"Variant {n}")


class DomainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Domain

    company = factory.SubFactory(CompanyFactory)
    domain = factory.Sequence(lambda n: f"domain{n}.example")


def add_file(logo: Logo, data: bytes, variant: Variant | None = None):
    """Attaches a file the way the import and the admin do, previews included."""
    stored = file_store(data=data)
    with transaction.atomic():
        asset, _ = asset_attach(logo=logo, variant=variant, stored=stored)
    return asset


def make_current(logo: Logo) -> Logo:
    logo_make_current(logo=logo)
    logo.refresh_from_db()
    return logo


PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    email = factory.Sequence(lambda n: f"person{n}@example.com")
    first_name = factory.Sequence(lambda n: f"Person {n}")
    password = factory.django.Password(PASSWORD)


def token_for(
    user: User | None = None,
    *,
    scopes: list[str] | None = None,
    source: str = Source.API,
    expires_at=None,
    name: str = "Test token",
) -> str:
    """The secret of a new token (all scopes unless told), made the way the app makes them."""
    issued = token_issue(
        user=user or UserFactory(),
        name=name,
        scopes=Scope.values if scopes is None else scopes,
        source=source,
        expires_at=expires_at,
    )
    return issued.secret


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


class PaletteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Palette

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Palette {n}")
    type = PaletteType.PALETTE
    colors = ["#C8102E", "#FFFFFF"]
