"""Search quality on the evaluation sets (tests/directory/evaluation): the bars of
docs/search.md, held on the half tuned on (DEV) and the half that was not (TEST)."""

import pytest

from directory import embeddings
from tests.directory.evaluation import findability, related
from tests.directory.evaluation.measure import (
    load_findability_catalogue,
    load_related_catalogue,
    measure_findability,
    measure_related,
    report,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _unlimited(settings):
    # Hundreds of queries in a row: the rate limits have tests of their own.
    settings.API_RATE_ANONYMOUS = "100000/m"


@pytest.mark.parametrize("half", ["DEV", "TEST"])
def test_it_finds_the_company_people_type_in_the_first_three(api, half):
    load_findability_catalogue()

    measured = measure_findability(api, getattr(findability, half))

    print(report(f"findability {half}", measured))
    assert measured.hit_at_3.rate >= 0.95
    assert measured.exact_first.rate == 1.0
    assert measured.noise_empty.rate == 1.0


@pytest.mark.parametrize("half", ["DEV", "TEST"])
def test_it_lists_companies_related_in_meaning(api, half):
    load_related_catalogue()
    embeddings.company_embedding_refresh()

    measured = measure_related(api, getattr(related, half))

    print(report(f"related {half}", measured))
    assert measured.hit_at_3.rate >= 0.95
    assert measured.precision >= 0.8
