"""The evaluation sets (tests/directory/search/evaluation/*.json): the shape their modules read,
and every query's answer among the companies of its catalogue."""

import json
from pathlib import Path

from tests.directory.search.evaluation import (
    findability,
    findability_catalogue,
    related,
    related_catalogue,
    related_tuning,
)

FOLDER = Path(findability_catalogue.__file__).parent


def read(name: str) -> dict:
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


def is_text(value) -> bool:
    return isinstance(value, str) and value.strip() == value != ""


def test_it_reads_the_findability_companies_cluster_by_cluster():
    data = read("findability_catalogue.json")

    assert set(data) == {"about", "clusters"}
    for cluster in data["clusters"]:
        assert set(cluster) == {"cluster", "companies"} and is_text(cluster["cluster"])
        assert cluster["companies"]
        for row in cluster["companies"]:
            assert {"slug", "name"} <= set(row) <= {"slug", "name", "alternative_names"}
            assert is_text(row["slug"]) and is_text(row["name"])
            assert all(is_text(name) for name in row.get("alternative_names", ["-"]))
    slugs = [company.slug for company in findability_catalogue.COMPANIES]
    assert len(slugs) == len(set(slugs)) == sum(len(c["companies"]) for c in data["clusters"])


def test_it_reads_the_related_companies_with_their_sectors():
    data = read("related_catalogue.json")

    assert set(data) == {"about", "sectors", "companies"}
    assert all(is_text(slug) and is_text(name) for slug, name in data["sectors"].items())
    for row in data["companies"]:
        assert set(row) == {"slug", "name", "sector", "province", "about", "group"}
        assert row["sector"] is None or row["sector"] in data["sectors"]
        assert all(is_text(row[key]) for key in ("slug", "name", "about", "group"))
    slugs = [company.slug for company in related_catalogue.COMPANIES]
    assert len(slugs) == len(set(slugs)) == len(data["companies"])


def test_it_answers_every_findability_query_with_a_company_of_the_catalogue():
    slugs = {company.slug for company in findability_catalogue.COMPANIES}

    for query in findability.DEV + findability.TEST:
        assert query.expected is None or query.expected in slugs, query


def test_it_answers_every_related_query_with_groups_of_the_catalogue():
    groups = {company.group for company in related_catalogue.COMPANIES}

    for query in related.DEV + related.TEST + related_tuning.TUNE:
        assert query.expected | query.acceptable <= groups, query


def test_it_reads_every_query_with_its_text_answer_and_a_known_kind():
    shapes = {
        "findability.json": ({"text", "expected", "kind"}, set()),
        "related.json": ({"text", "expected", "kind"}, {"acceptable"}),
        "related_tuning.json": ({"text", "expected", "kind"}, {"acceptable"}),
    }
    kinds = {"findability.json": findability.KINDS, "related_tuning.json": related.KINDS}

    for name, (required, optional) in shapes.items():
        data = read(name)
        halves = [key for key in data if key not in ("about", "kinds")]
        assert halves and all(data[half] for half in halves), name
        for row in (row for half in halves for row in data[half]):
            assert required <= set(row) <= required | optional, row
            assert is_text(row["text"]) and row["kind"] in kinds.get(name, data.get("kinds"))
