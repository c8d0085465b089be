"""The brand colours on the company and logo pages: each colour's code, a button that
copies it, and its WCAG contrast as text on white and on black with the level reached,
in the visitor's language."""

import re

import pytest

from tests.factories import CompanyFactory, LogoFactory, add_file, make_current

pytestmark = pytest.mark.django_db

TWO_COLOURS = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
    b'<rect width="120" height="100" fill="#C8102E"/>'
    b'<rect x="120" width="80" height="100" fill="#FFC400"/></svg>'
)
# #C8102E: 5.9:1 on white (AA), 3.6:1 on black (large text only); #FFC400: 1.6:1 on
# white (fails), 13.1:1 on black (AAA).
EXPECTED = {
    "en": [
        ("#C8102E", "On white 5.9:1 AA · on black 3.6:1 AA large text"),
        ("#FFC400", "On white 1.6:1 fails · on black 13.1:1 AAA"),
    ],
    "es": [
        ("#C8102E", "Sobre blanco 5,9:1 AA · sobre negro 3,6:1 AA texto grande"),
        ("#FFC400", "Sobre blanco 1,6:1 no llega · sobre negro 13,1:1 AAA"),
    ],
}


@pytest.fixture
def logo(django_capture_on_commit_callbacks):
    company = CompanyFactory(slug="sol", name="Sol")
    logo = make_current(LogoFactory(company=company, slug="sol-2020", title="Sol 2020"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS)
    return logo


def _swatches(html: str) -> list[tuple[str, str, str]]:
    """(code, the code the copy button copies, the contrast text) of each swatch."""
    found = []
    for item in html.split('<ul class="swatches">', 1)[1].split("</ul>", 1)[0].split("<li>")[1:]:
        code = re.search(r"<code>([^<]+)</code>", item).group(1)
        copies = re.search(r'data-copy="([^"]+)"', item).group(1)
        contrast = item.split('<span class="contrast">', 1)[1].split("</span>", 1)[0]
        text = " ".join(re.sub(r"<[^>]+>", "", contrast).split())
        found.append((code, copies, text))
    return found


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("path", ["/companies/sol", "/logos/sol-2020"])
def test_it_shows_each_colour_with_its_code_and_contrast(client, logo, path, language):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    expected = [(code, code, text) for code, text in EXPECTED[language]]
    assert _swatches(response.content.decode()) == expected
