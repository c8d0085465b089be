"""How well search finds what people type, and what `related=true` lists, measured on the
evaluation sets of this package: the figures docs/search.md reports, and the bars the
tests hold them to (tests/directory/search/test_search_quality.py).

Both measures load their catalogue into the test database and ask the API, as a client
would; `report` prints a table of the figures, which
`./scripts/test.sh -s tests/directory/search/test_search_quality.py` shows for both halves.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from directory.catalogue.models import Company, EntityType, Sector
from directory.search.related import RELATED_LIMIT
from tests.directory.search.evaluation import (
    findability_catalogue,
    related_catalogue,
    related_kinds,
)

COMPANIES_URL = "/v1/public/companies"


@dataclass
class Score:
    """Hits out of queries, overall and per kind."""

    hits: int = 0
    queries: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = field(default_factory=list)

    def add(self, kind: str, hit: bool, miss: str = "") -> None:
        self.hits += hit
        self.queries += 1
        self.by_kind[kind][0] += hit
        self.by_kind[kind][1] += 1
        if not hit:
            self.misses.append(miss)

    @property
    def rate(self) -> float:
        return self.hits / self.queries if self.queries else 1.0


@dataclass
class Findability:
    hit_at_3: Score
    exact_first: Score  # exact-name queries whose company came first
    noise_empty: Score  # noise queries that found nothing


@dataclass
class Related:
    """What `related=true` gives. `data` is plain search, the companies whose names match
    the term (a builder named "Hoteles Mirasierra" is a right answer there for "hotel",
    and the spec keeps it there); `related` is what search by meaning adds, and is judged
    for it. A company of the kind found in either list counts as found."""

    # A company of an expected group among the first three of `related`, or of `data`.
    hit_at_3: Score
    precision: float  # of the companies `related` lists, those of an expected or acceptable group
    listed: int  # companies `related` listed
    # Per query, of the companies of an expected group (at most RELATED_LIMIT), the share
    # listed in `data` or `related`; the mean over queries.
    recall: float = 1.0
    incomplete: list[str] = field(default_factory=list)
    # The same two on the page as a whole, `data` then `related`: the first three of
    # both, and every company listed in either (plain search's decoys counted as misses).
    page_hit_at_3: float = 1.0
    page_precision: float = 1.0


def load_findability_catalogue() -> None:
    Company.objects.bulk_create(
        Company(
            slug=company.slug,
            name=company.name,
            alternative_names=list(company.alternative_names),
            entity_type=EntityType.COMPANY,
        )
        for company in findability_catalogue.COMPANIES
    )


def measure_findability(api, queries) -> Findability:
    result = Findability(Score(), Score(), Score())
    for query in queries:
        body = api.get(COMPANIES_URL, {"q": query.text, "pageSize": 3}).json()
        slugs = [item["slug"] for item in body["data"]]
        if query.expected is None:
            result.noise_empty.add(query.kind, body["total"] == 0, f"{query.text!r}: {slugs}")
            continue
        found = f"{query.text!r} -> {query.expected}: {slugs}"
        result.hit_at_3.add(query.kind, query.expected in slugs, found)
        if query.kind == "exact":
            result.exact_first.add(query.kind, slugs[:1] == [query.expected], found)
    return result


def load_related_catalogue(
    companies=related_catalogue.COMPANIES, *, distractors: bool = False
) -> dict[str, str]:
    """Loads `companies`, with the distractor variant's decoys and unrelated companies when
    asked; returns each company's group by slug."""
    companies = list(companies)
    names = dict(related_catalogue.SECTORS)
    if distractors:
        unrelated, unrelated_sectors = related_kinds.unrelated_companies()
        companies += [*related_kinds.DECOYS, *unrelated]
        names = unrelated_sectors | names
    sectors = {slug: Sector.objects.create(slug=slug, name=name) for slug, name in names.items()}
    Company.objects.bulk_create(
        Company(
            slug=company.slug,
            name=company.name,
            entity_type=EntityType.COMPANY,
            sector=sectors.get(company.sector),
            province=company.province,
            about=company.about,
        )
        for company in companies
    )
    return {company.slug: company.group for company in companies}


def measure_related(api, queries, group: dict[str, str]) -> Related:
    hits = Score()
    good = listed = page_good = page_listed = page_hits = 0
    recalls, incomplete = [], []
    for query in queries:
        body = api.get(COMPANIES_URL, {"q": query.text, "related": "true"}).json()
        data = [group[item["slug"]] for item in body["data"]]
        related = [group[item["slug"]] for item in body["related"]]
        groups = data + related
        wanted = query.expected | query.acceptable
        hits.add(
            query.kind,
            any(g in query.expected for g in data[:3] + related[:3]),
            f"{query.text!r} -> {sorted(query.expected)}: {data} + {related}",
        )
        page_hits += any(g in query.expected for g in groups[:3])
        good += sum(g in wanted for g in related)
        listed += len(related)
        page_good += sum(g in wanted for g in groups)
        page_listed += len(groups)
        expected = sum(g in query.expected for g in group.values())
        want = min(expected, RELATED_LIMIT)
        found = min(sum(g in query.expected for g in groups), want)
        recalls.append(found / want if want else 1.0)
        if found < want:
            incomplete.append(f"{query.text!r} {found}/{want}: {data} + {related}")
    return Related(
        hits,
        good / listed if listed else 1.0,
        listed,
        sum(recalls) / len(recalls) if recalls else 1.0,
        incomplete,
        page_hits / len(queries) if queries else 1.0,
        page_good / page_listed if page_listed else 1.0,
    )


def report(title: str, measure: Findability | Related) -> str:
    lines = [title]
    scores = (
        {
            "hit@3": measure.hit_at_3,
            "exact first": measure.exact_first,
            "noise empty": measure.noise_empty,
        }
        if isinstance(measure, Findability)
        else {"hit@3": measure.hit_at_3}
    )
    for name, score in scores.items():
        lines.append(f"  {name}: {score.hits}/{score.queries} = {score.rate:.3f}")
        if name == "hit@3":
            for kind, (hit, total) in sorted(score.by_kind.items()):
                lines.append(f"    {kind}: {hit}/{total}")
        lines.extend(f"    miss {miss}" for miss in score.misses)
    if isinstance(measure, Related):
        lines.append(f"  precision: {measure.precision:.3f} of {measure.listed} related")
        lines.append(f"  recall: {measure.recall:.3f}")
        lines.append(
            f"  the whole page (data, then related): hit@3 {measure.page_hit_at_3:.3f},"
            f" precision {measure.page_precision:.3f}"
        )
        lines.extend(f"    incomplete {line}" for line in measure.incomplete)
    return "\n".join(lines)
