"""Search quality on the evaluation sets (tests/directory/evaluation): the bars of
docs/search.md, held on the half tuned on (DEV) and the half that was not (TEST)."""

import pytest

from directory import embeddings
from tests.directory.evaluation import findability, related, related_tuning
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


# The related sets and the hit@3 each holds. TEST is the half never tuned on: its bar is
# the target. TUNE, a third set written later without seeing DEV, TEST or the
# code, scored 0.839 when first measured; the rules were then tuned on it and DEV, and it
# holds 0.929 (its misses are phrases such as "datafono para mi bar" whose meaning no
# word of the thesaurus or the model carries), so its bar is below the target.
RELATED_SETS = {
    "DEV": (related.DEV, 0.95),
    "TUNE": (related_tuning.TUNE, 0.92),
    "TEST": (related.TEST, 0.95),
}


@pytest.mark.parametrize("half", RELATED_SETS)
def test_it_lists_companies_related_in_meaning(api, half):
    load_related_catalogue()
    embeddings.company_embedding_refresh()
    queries, bar = RELATED_SETS[half]

    measured = measure_related(api, queries)

    print(report(f"related {half}", measured))
    assert measured.hit_at_3.rate >= bar
    assert measured.precision >= 0.8
