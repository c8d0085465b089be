"""The Logo Link: GET /v1/public/img/{identifier}, with local storage (S3: test_logo_link_s3)."""

import io
import logging
import time
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.files.storage import default_storage
from PIL import Image

from directory.catalogue.models import VariantKind, normalise_domain
from directory.downloads.models import Download
from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    VariantFactory,
    add_file,
    bearer,
    make_current,
    png_bytes,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

RED = (200, 16, 46)  # reads on dark (3.2:1 against #121212)
NAVY = (0, 56, 101)  # does not (1.6:1)
YELLOW = (255, 209, 0)
GREEN = (120, 190, 32)
CLEAR = (0, 0, 0, 0)


def hex_of(rgb) -> str:
    return "#{:02X}{:02X}{:02X}".format(*rgb)


def logo_of(company, *files, current=True, **fields):
    logo = LogoFactory(company=company, **fields)
    for data in files:
        add_file(logo, data)
    return make_current(logo) if current else logo


@pytest.fixture
def acme():
    """Acme, acme.es, with a red 200 x 100 SVG as its current logo."""
    company = CompanyFactory(slug="acme", name="Acme Ibérica", website="https://www.acme.es")
    logo_of(company, svg_bytes(hex_of(RED), width=200, height=100), slug="acme-2024")
    return company


def image(response) -> Image.Image:
    picture = Image.open(io.BytesIO(response.content))
    picture.load()
    return picture


def rgba(picture: Image.Image, xy) -> tuple:
    return picture.convert("RGBA").getpixel(xy)


def renditions() -> list[Path]:
    return sorted(
        p for p in (Path(settings.MEDIA_ROOT) / "previews" / "img").rglob("*") if p.is_file()
    )


# -- the image ----------------------------------------------------------------------------


def test_it_draws_the_current_logo_of_a_domain_as_a_png_square(api, acme):
    response = api.get("/v1/public/img/acme.es")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=86400"
    assert response["ETag"].startswith('"') and len(response["ETag"]) == 34
    assert response["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert "X-Logo-Fallback" not in response
    assert "Vary" not in response  # the same image for every caller
    picture = image(response)
    assert (picture.format, picture.size) == ("PNG", (128, 128))
    # 200 x 100 drawn 128 x 64, centred: transparent above and below, red inside.
    assert rgba(picture, (64, 64)) == (*RED, 255)
    assert rgba(picture, (64, 10)) == CLEAR
    assert rgba(picture, (64, 120)) == CLEAR


@pytest.mark.parametrize("size", [16, 64, 200, 512])
@pytest.mark.parametrize("image_format", ["png", "webp"])
def test_it_draws_the_asked_size_and_format(api, acme, size, image_format):
    response = api.get(f"/v1/public/img/acme?size={size}&format={image_format}")

    assert response.status_code == 200
    assert response["Content-Type"] == f"image/{image_format}"
    picture = image(response)
    assert (picture.format, picture.size) == (image_format.upper(), (size, size))
    assert rgba(picture, (size // 2, size // 2)) == (*RED, 255)


def test_it_keeps_the_logos_proportions_with_shape_original(api, acme):
    tall = CompanyFactory(slug="tall")
    logo_of(tall, svg_bytes(width=50, height=200))

    wide = image(api.get("/v1/public/img/acme?shape=original&size=100"))
    high = image(api.get("/v1/public/img/tall?shape=original&size=100"))

    assert (wide.size, high.size) == ((100, 50), (25, 100))
    assert rgba(wide, (0, 0)) == (*RED, 255)


def test_it_draws_in_greyscale(api, acme):
    picture = image(api.get("/v1/public/img/acme?greyscale=true"))

    red, green, blue, alpha = rgba(picture, (64, 64))
    assert red == green == blue and alpha == 255
    assert rgba(picture, (64, 5))[3] == 0  # transparency kept


def test_it_draws_a_png_original_too(api):
    company = CompanyFactory(slug="raster")
    logo_of(company, png_bytes(color=(*GREEN, 255), size=(40, 20)))

    picture = image(api.get("/v1/public/img/raster?size=80&shape=original"))

    assert picture.size == (80, 40)
    assert rgba(picture, (40, 20)) == (*GREEN, 255)


def test_it_draws_an_svg_from_its_sanitised_copy_only(api, tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(png_bytes(color=(*RED, 255), size=(9, 9)))
    hostile = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">'
        f'<rect width="9" height="3" fill="{hex_of(GREEN)}"/>'
        f'<image href="{secret}" y="3" width="9" height="6"/></svg>'
    ).encode()
    logo_of(CompanyFactory(slug="hostile"), hostile)

    picture = image(api.get("/v1/public/img/hostile?size=90"))

    assert rgba(picture, (45, 10)) == (*GREEN, 255)
    assert rgba(picture, (45, 60)) == CLEAR  # the local file was never read


def test_it_never_serves_an_original_file(api, acme):
    response = api.get("/v1/public/img/acme?format=svg")

    assert response.status_code == 400
    assert response.json() == {
        "error": "INVALID_REQUEST",
        "message": "The request is not valid; see details.",
        "details": {"format": ['"svg" is not a valid choice.']},
    }


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("size=15", "size"),
        ("size=513", "size"),
        ("size=big", "size"),
        ("size=", "size"),
        ("format=gif", "format"),
        ("theme=blue", "theme"),
        ("greyscale=yes", "greyscale"),
        ("fallback=none", "fallback"),
        ("shape=circle", "shape"),
    ],
)
def test_it_refuses_bad_options_with_invalid_request(api, acme, query, field):
    response = api.get(f"/v1/public/img/acme?{query}")

    assert response.status_code == 400
    body = response.json()
    assert (body["error"], list(body["details"])) == ("INVALID_REQUEST", [field])


def test_it_refuses_an_identifier_longer_than_any_it_knows(api):
    response = api.get(f"/v1/public/img/{'a' * 256}")

    assert response.status_code == 400
    assert response.json()["details"] == {"identifier": ["At most 255 characters."]}


# -- identifiers --------------------------------------------------------------------------


@pytest.fixture
def named():
    """A company known by its website and a staff-kept domain, a current logo and an old one."""
    company = CompanyFactory(slug="bravo", name="Bravo", website="https://www.bravo.es/inicio")
    DomainFactory(company=company, domain=normalise_domain("bravoñ.es"))
    old = logo_of(company, svg_bytes(hex_of(NAVY)), slug="bravo-1990", current=False)
    current = logo_of(company, svg_bytes(hex_of(YELLOW)), slug="bravo-2020")
    return old, current


@pytest.mark.parametrize(
    "identifier",
    [
        "bravo.es",
        "BRAVO.ES",
        "www.bravo.es",
        "bravo.es.",
        "tienda.bravo.es",
        "bravoñ.es",
        "xn--bravo-sta.es",
        "bravo",
        "bravo-2020",
    ],
)
def test_it_draws_the_current_logo_for_every_kind_of_identifier(api, named, identifier):
    picture = image(api.get(f"/v1/public/img/{identifier}?size=32"))

    assert rgba(picture, (16, 16)) == (*YELLOW, 255)


def test_it_draws_a_logo_named_by_id_or_slug_itself(api, named):
    old, _ = named

    for identifier in (old.slug, str(old.id)):
        assert rgba(image(api.get(f"/v1/public/img/{identifier}?size=32")), (16, 16)) == (
            *NAVY,
            255,
        )


def test_it_tries_a_domain_then_a_company_slug_then_a_logo(api, named):
    # A company whose slug is the slug of Bravo's old logo: the company wins.
    logo_of(CompanyFactory(slug="bravo-1990"), svg_bytes(hex_of(GREEN)))

    picture = image(api.get("/v1/public/img/bravo-1990?size=32"))

    assert rgba(picture, (16, 16)) == (*GREEN, 255)


def test_it_changes_the_etag_at_once_when_another_logo_becomes_current(
    api, named, django_capture_on_commit_callbacks
):
    old, _ = named
    before = api.get("/v1/public/img/bravo.es")

    with django_capture_on_commit_callbacks(execute=True):
        make_current(old)
    after = api.get("/v1/public/img/bravo.es", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert rgba(image(after), (64, 64)) == (*NAVY, 255)


def test_it_answers_a_known_address_without_a_database_query(api, acme, django_assert_num_queries):
    first = api.get("/v1/public/img/acme.es?size=40")

    with django_assert_num_queries(0):
        again = api.get("/v1/public/img/acme.es?size=40")

    assert again.content == first.content


def test_it_draws_a_new_file_as_soon_as_it_is_committed(
    api, acme, django_capture_on_commit_callbacks
):
    before = api.get("/v1/public/img/acme")

    with django_capture_on_commit_callbacks(execute=True):
        add_file(acme.current_logo, svg_bytes(hex_of(GREEN)))
    after = api.get("/v1/public/img/acme")

    assert after["ETag"] != before["ETag"]
    assert rgba(image(after), (64, 64)) == (*GREEN, 255)


def test_it_finds_a_company_by_a_domain_as_soon_as_it_is_committed(
    api, acme, django_capture_on_commit_callbacks
):
    assert api.get("/v1/public/img/acme.com")["X-Logo-Fallback"] == "monogram"

    with django_capture_on_commit_callbacks(execute=True):
        DomainFactory(company=acme, domain="acme.com")
    response = api.get("/v1/public/img/acme.com")

    assert "X-Logo-Fallback" not in response
    assert rgba(image(response), (64, 64)) == (*RED, 255)


def test_it_falls_back_as_soon_as_the_logo_is_gone(api, acme, django_capture_on_commit_callbacks):
    assert "X-Logo-Fallback" not in api.get("/v1/public/img/acme")

    with django_capture_on_commit_callbacks(execute=True):
        acme.current_logo.delete()

    assert api.get("/v1/public/img/acme")["X-Logo-Fallback"] == "monogram"


# -- the dark theme -----------------------------------------------------------------------


def test_it_keeps_a_logo_that_reads_on_dark_as_it_is(api, acme):
    picture = image(api.get("/v1/public/img/acme?theme=dark"))

    assert rgba(picture, (64, 64)) == (*RED, 255)


def _with_variants(slug: str, main, *variants):
    logo = logo_of(CompanyFactory(slug=slug), main)
    for kind, name, data in variants:
        add_file(logo, data, variant=VariantFactory(logo=logo, kind=kind, name=name))
    return logo


def test_it_picks_the_variant_that_reads_best_on_dark(api):
    _with_variants(
        "navy",
        svg_bytes(hex_of(NAVY)),
        (VariantKind.VERSION, "Monocromo", svg_bytes(hex_of(NAVY))),
        (VariantKind.VERSION, "Negativo", svg_bytes(hex_of(YELLOW))),
    )

    light = image(api.get("/v1/public/img/navy"))
    dark = image(api.get("/v1/public/img/navy?theme=dark"))

    assert rgba(light, (64, 64)) == (*NAVY, 255)
    assert rgba(dark, (64, 64)) == (*YELLOW, 255)


def test_it_prefers_a_colour_version_to_another_type_when_both_read(api):
    _with_variants(
        "versions",
        svg_bytes(hex_of(NAVY)),
        (VariantKind.TYPE, "Horizontal", svg_bytes(hex_of(GREEN))),
        (VariantKind.VERSION, "Negativo", svg_bytes(hex_of(YELLOW))),
    )

    assert rgba(image(api.get("/v1/public/img/versions?theme=dark")), (64, 64)) == (
        *YELLOW,
        255,
    )


def test_it_picks_a_negative_on_its_own_dark_backdrop(api):
    night = (18, 20, 23)
    negative = Image.new("RGBA", (60, 30), (*night, 255))
    negative.paste((*YELLOW, 255), (10, 5, 50, 25))
    out = io.BytesIO()
    negative.save(out, format="PNG")
    _with_variants(
        "backdrop",
        svg_bytes(hex_of(NAVY), width=60, height=30),
        (VariantKind.VERSION, "Negativo", out.getvalue()),
    )

    picture = image(api.get("/v1/public/img/backdrop?theme=dark&size=60&shape=original"))

    assert rgba(picture, (2, 2)) == (*night, 255)
    assert rgba(picture, (30, 15)) == (*YELLOW, 255)


def test_it_draws_the_logo_in_white_when_nothing_reads_on_dark(api):
    _with_variants(
        "nothing-reads",
        svg_bytes(hex_of(NAVY)),
        (VariantKind.VERSION, "Monocromo", svg_bytes("#000000")),
    )

    picture = image(api.get("/v1/public/img/nothing-reads?theme=dark"))

    assert rgba(picture, (64, 64)) == (255, 255, 255, 255)
    assert rgba(picture, (64, 5))[3] == 0  # the shape kept


def test_it_leaves_a_logo_on_its_own_light_backdrop_as_it_is_on_dark(api):
    boxed = Image.new("RGBA", (40, 40), (255, 255, 255, 255))
    boxed.paste((*NAVY, 255), (10, 10, 30, 30))
    out = io.BytesIO()
    boxed.save(out, format="PNG")
    logo_of(CompanyFactory(slug="boxed"), out.getvalue())

    picture = image(api.get("/v1/public/img/boxed?theme=dark&size=40"))

    assert rgba(picture, (2, 2)) == (255, 255, 255, 255)
    assert rgba(picture, (20, 20)) == (*NAVY, 255)


# -- fallbacks ----------------------------------------------------------------------------


def test_it_draws_a_monogram_of_the_domains_first_letter_for_an_unknown_domain(api):
    response = api.get("/v1/public/img/www.zeta.es?size=64")

    assert response.status_code == 200
    assert response["X-Logo-Fallback"] == "monogram"
    assert response["Cache-Control"] == "public, max-age=86400"
    picture = image(response)
    assert picture.size == (64, 64)
    corner = rgba(picture, (1, 1))
    assert corner[3] == 255 and corner == rgba(picture, (62, 62))  # a full square
    assert len(picture.convert("RGB").getcolors()) > 2  # and a letter on it
    # The same letter on the same colour, whatever the domain's spelling.
    assert api.get("/v1/public/img/ZETA.es?size=64").content == response.content


def test_it_draws_a_monogram_of_a_company_without_a_logo_on_its_brand_colour(api):
    company = CompanyFactory(slug="sin-logo", name="Banco Ñandú")
    logo = logo_of(company, PDF_BYTES)  # nothing drawable
    logo.color_palette = ["#00843D", "#FFFFFF"]
    logo.colors_computed_at = logo.created_at
    logo.save()

    response = api.get("/v1/public/img/sin-logo?size=64")

    assert response["X-Logo-Fallback"] == "monogram"
    assert rgba(image(response), (1, 1)) == (0, 132, 61, 255)


def test_it_draws_a_transparent_square_when_asked(api):
    response = api.get("/v1/public/img/nadie.es?fallback=transparent&size=48")

    assert response.status_code == 200
    assert response["X-Logo-Fallback"] == "transparent"
    picture = image(response)
    assert picture.size == (48, 48)
    assert picture.convert("RGBA").getextrema()[3] == (0, 0)


def test_it_answers_company_not_found_with_fallback_404(api):
    response = api.get("/v1/public/img/nadie.es?fallback=404")

    assert response.status_code == 404
    assert response.json() == {
        "error": "COMPANY_NOT_FOUND",
        "message": "No domain, company or logo is known as 'nadie.es'.",
    }


def test_it_answers_logo_not_found_for_a_known_company_with_nothing_to_draw(api):
    CompanyFactory(slug="sin-logo", name="Sin Logo")

    response = api.get("/v1/public/img/sin-logo?fallback=404")

    assert response.status_code == 404
    assert response.json() == {
        "error": "LOGO_NOT_FOUND",
        "message": "Sin Logo has no logo that can be drawn.",
    }


def test_it_falls_back_on_a_file_that_cannot_be_drawn_and_logs_it_once(api, caplog):
    broken = b"\x89PNG\r\n\x1a\n" + b"not really a png" * 4
    logo_of(CompanyFactory(slug="roto", name="Roto"), broken)

    with caplog.at_level(logging.WARNING, logger="directory.images.logolink"):
        first = api.get("/v1/public/img/roto")
        again = api.get("/v1/public/img/roto")
        refused = api.get("/v1/public/img/roto?fallback=404")

    assert [r["X-Logo-Fallback"] for r in (first, again)] == ["monogram", "monogram"]
    assert first.content == again.content
    assert refused.json()["error"] == "LOGO_NOT_FOUND"
    warnings = [r for r in caplog.records if r.name == "directory.images.logolink"]
    assert len(warnings) == 1
    assert "cannot draw the PNG file" in warnings[0].getMessage()


# -- cached everywhere --------------------------------------------------------------------


def test_it_answers_304_to_its_etag(api, acme):
    first = api.get("/v1/public/img/acme.es")

    for tag in (first["ETag"], f"W/{first['ETag']}", f'"other", {first["ETag"]}', "*"):
        again = api.get("/v1/public/img/acme.es", HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304
        assert again.content == b""
        assert again["ETag"] == first["ETag"]
        assert again["Cache-Control"] == "public, max-age=86400"


def test_it_draws_each_rendition_once_and_serves_it_from_storage(api, acme, caplog):
    asset = acme.current_logo.assets.get()

    with caplog.at_level(logging.DEBUG, logger="directory.images.logolink"):
        first = api.get("/v1/public/img/acme.es?size=96")
        # Without the original, only the stored rendition can answer.
        default_storage.delete(asset.file.name)
        again = api.get("/v1/public/img/acme.es?size=96")

    assert again.status_code == 200
    assert again.content == first.content
    drawn = [r for r in caplog.records if r.getMessage().startswith("drew rendition")]
    assert len(drawn) == 1


def test_it_keeps_one_file_per_rendition(api, acme):
    queries = ["", "size=64", "format=webp", "theme=dark", "size=64&greyscale=true"]

    for _ in range(2):
        for query in queries:
            assert api.get(f"/v1/public/img/acme.es?{query}").status_code == 200
        api.get("/v1/public/img/acme?size=64")  # another identifier, the same rendition
        api.get("/v1/public/img/unknown.es")

    files = renditions()
    assert len(files) == len(queries) + 1  # and one monogram
    assert {f.suffix for f in files} == {".png", ".webp"}


# -- limits -------------------------------------------------------------------------------


@pytest.fixture
def window_start():
    """Frozen at the start of a rate-limit window, so that no test straddles two."""
    now = int(time.time())
    with time_machine.travel(now - now % 60 + 60, tick=False):
        yield


def test_it_has_a_rate_limit_of_its_own_for_anonymous_callers(api, acme, window_start):
    images = [api.get("/v1/public/img/acme.es") for _ in range(3)]
    revalidated = api.get("/v1/public/img/acme.es", HTTP_IF_NONE_MATCH=images[0]["ETag"])
    listing = api.get("/v1/public/companies")

    assert [r["X-RateLimit-Limit"] for r in images] == ["600"] * 3
    assert [r["X-RateLimit-Remaining"] for r in images] == ["599", "598", "597"]
    assert revalidated.status_code == 304
    assert revalidated["X-RateLimit-Remaining"] == "596"  # a 304 counts too
    # The JSON endpoints keep their own 20 a minute, untouched by the images.
    assert (listing["X-RateLimit-Limit"], listing["X-RateLimit-Remaining"]) == ("20", "19")


def test_it_refuses_an_address_over_its_image_limit(api, acme, settings, window_start):
    settings.API_RATE_IMAGES_ANONYMOUS = "3/m"

    statuses = [api.get("/v1/public/img/acme.es").status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]


def test_it_keeps_a_tokens_limit_as_it_is(api, acme):
    response = api.get("/v1/public/img/acme.es", **bearer(token_for(scopes=["read:logos"])))

    assert response.status_code == 200
    assert response["X-RateLimit-Limit"] == "60"


def test_it_counts_no_download(api, acme):
    for query in ("", "size=32", "format=webp"):
        api.get(f"/v1/public/img/acme.es?{query}")

    acme.current_logo.refresh_from_db()
    assert Download.objects.count() == 0
    assert acme.current_logo.download_count == 0
