"""The import's derived pass (directory/importing/derived.py) over files met more than once."""

import pytest
from django.core.files.storage import storages

from directory.catalogue.models import Logo, Variant
from directory.colors.extraction import extract_colors
from directory.files.previews import render_preview
from tests.directory.importing.test_import_directory import (  # noqa: F401
    catalogue,
    company_entry,
    run,
    write,
)
from tests.factories import svg_bytes

pytestmark = pytest.mark.django_db


def preview_bytes(name: str) -> bytes:
    with storages["previews"].open(name, "rb") as handle:
        return handle.read()


def test_it_gives_every_logo_and_variant_sharing_a_file_the_preview_and_colours_of_that_file(
    catalogue,  # noqa: F811
):
    logo = company_entry()["logos"][0]
    shared = [{"path": "files/be.svg", "variant": None}, {"path": "files/be.svg", "variant": "h"}]
    second = {
        **logo,
        "slug": "banco-ejemplo-2010",
        "title": "Banco Ejemplo (2010)",
        "isCurrent": False,
    }
    write(
        catalogue, [company_entry(logos=[{**logo, "files": shared}, {**second, "files": shared}])]
    )

    assert run(catalogue) == "created 1, updated 0, unchanged 0, failed 0"

    expected_png = render_preview(svg_bytes(), "SVG")
    expected_colours = extract_colors(svg_bytes(), "SVG")
    assert expected_colours
    rows = [*Logo.objects.all(), *Variant.objects.filter(key="h")]
    assert len(rows) == 4
    for row in rows:
        assert not row.preview_pending
        assert preview_bytes(row.preview.name) == expected_png
    for row in Logo.objects.all():
        assert row.colors_computed_at is not None
        assert row.color_palette == expected_colours
