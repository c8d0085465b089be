"""The API's fast page functions rank exactly as the search querysets do."""

import random

import pytest

from directory import search
from directory.models import Company, Logo
from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db

WORDS = [
    "Banco",
    "Banca",
    "banco",
    "Bancos",
    "Abanico",
    "Caja",
    "Sur",
    "Norte",
    "de",
    "la",
    "Ñandú",
]


@pytest.fixture
def catalogue():
    rng = random.Random(7)
    sectors = [SectorFactory(slug="banca", name="Banca"), SectorFactory(slug="otros", name="Otros")]
    companies = []
    for n in range(80):
        name = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        alternative = [rng.choice(WORDS)] if rng.random() < 0.3 else []
        companies.append(
            CompanyFactory(
                name=name,
                alternative_names=alternative,
                sector=rng.choice(sectors),
                province=rng.choice(["Málaga", "Cádiz"]),
            )
        )
        logo = LogoFactory(company=companies[-1], title=f"{name} {n % 3}")
        if rng.random() < 0.5:
            make_current(logo)
    return companies


TERMS = ["banco", "ban", "BANCA", "an", "a", "o", "de la", "nandu", "sur", "zzz", "%"]


@pytest.mark.parametrize("term", TERMS)
def test_company_pages_follow_the_ranking_of_company_search(catalogue, term):
    # Pages carry ids as strings, as their JSON gives them.
    expected = [str(pk) for pk in search.company_search(term=term).values_list("pk", flat=True)]

    for offset, limit in [(0, 20), (0, 1), (3, 7), (14, 50), (40, 20)]:
        rows, total = search.company_page(
            term=term, sector=None, province=None, offset=offset, limit=limit
        )
        assert total == len(expected)
        assert [row["id"] for row in rows] == expected[offset : offset + limit], (offset, limit)


@pytest.mark.parametrize("term", ["banco", "a", "sur"])
def test_company_pages_follow_the_ranking_with_filters(catalogue, term):
    expected = [
        str(pk)
        for pk in search.company_search(term=term, sector="BANCA", province="malaga").values_list(
            "pk", flat=True
        )
    ]

    rows, total = search.company_page(
        term=term, sector="BANCA", province="malaga", offset=0, limit=50
    )

    assert ([row["id"] for row in rows], total) == (expected[:50], len(expected))


@pytest.mark.parametrize("term", TERMS)
def test_logo_pages_follow_the_ranking_of_logo_search(catalogue, term):
    expected = [str(pk) for pk in search.logo_search(term=term).values_list("pk", flat=True)]

    for offset, limit in [(0, 20), (0, 3), (5, 9), (60, 50)]:
        rows, total = search.logo_page(term=term, offset=offset, limit=limit)
        assert total == len(expected)
        assert [row["id"] for row in rows] == expected[offset : offset + limit], (offset, limit)


def test_it_counts_past_the_last_page(catalogue):
    total = Company.objects.count()

    assert search.company_page(term="", sector=None, province=None, offset=500, limit=20) == (
        [],
        total,
    )
    assert search.logo_page(term="a", offset=10_000, limit=20) == (
        [],
        search.logo_search(term="a").count(),
    )
    assert Logo.objects.exists()
