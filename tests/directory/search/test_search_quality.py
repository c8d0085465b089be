"""Search quality on the evaluation sets (tests/directory/search/evaluation): the bars of
docs/search.md, held on the half tuned on (DEV) and the half that was not (TEST)."""

import pytest

from directory.search import embeddings
from tests.directory.search.evaluation import (
    findability,
    related,
    related_catalogue,
    related_kinds,
    related_tuning,
)
from tests.directory.search.evaluation.measure import (
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


# The related sets and the hit@3, precision and recall each holds, alone or in a catalogue
# that also holds the distractors (decoys whose names hold a query's word, and 3,000
# unrelated companies). hit@3 and precision judge what related search adds (measure.py:
# plain search's `data` lists "Hoteles Mirasierra" for "hotel" by its name, as the spec
# asks); recall counts the companies of the kind found in either list. The targets are
# hit@3 0.95 and precision 0.8 on every set, and recall 0.8 on the kinds set, which asks
# for every company of a kind (three or four each); the older sets, with six or seven a
# kind, were written for hit@3 and precision. TUNE, written later without seeing DEV,
# TEST or the code, scored 0.839 when first measured and was then tuned on beside DEV;
# its misses are phrases no word of the thesaurus or the model carries ("organizar la
# luna de miel"). The older TEST holds its target, with no query to spare (67/70 since
# the first search's companies at 0.9 of its best are kept, chosen on DEV); it misses
# "programa de facturación", "cover for my car" and "tostadero" (docs/search.md).
RELATED_SETS = {
    "DEV": (related_catalogue.COMPANIES, related.DEV, False, 0.95, 0.8, 0.0),
    "TUNE": (related_catalogue.COMPANIES, related_tuning.TUNE, False, 0.95, 0.8, 0.0),
    "TEST": (related_catalogue.COMPANIES, related.TEST, False, 0.95, 0.8, 0.0),
    "kinds DEV": (related_kinds.COMPANIES, related_kinds.DEV, False, 0.95, 0.8, 0.8),
    "kinds TEST": (related_kinds.COMPANIES, related_kinds.TEST, False, 0.95, 0.8, 0.8),
    "kinds DEV with distractors": (
        related_kinds.COMPANIES,
        related_kinds.DEV,
        True,
        0.95,
        0.8,
        0.8,
    ),
    "kinds TEST with distractors": (
        related_kinds.COMPANIES,
        related_kinds.TEST,
        True,
        0.95,
        0.8,
        0.8,
    ),
}


@pytest.mark.parametrize("name", RELATED_SETS)
def test_it_lists_companies_related_in_meaning(api, name):
    companies, queries, distractors, hit_at_3, precision, recall = RELATED_SETS[name]
    group = load_related_catalogue(companies, distractors=distractors)
    embeddings.company_embedding_refresh()

    measured = measure_related(api, queries, group)

    print(report(f"related {name}", measured))
    assert measured.hit_at_3.rate >= hit_at_3
    assert measured.precision >= precision
    assert measured.recall >= recall
