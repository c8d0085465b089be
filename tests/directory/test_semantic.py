import json
import logging

import numpy as np
import pytest
from django.core.management import call_command

from directory import semantic
from directory.importer import catalogue_import
from directory.models import Company, CompanyEmbedding, Sector
from tests.directory.relevance import COMPANIES, QUERIES, SECTORS
from tests.directory.test_admin import change_url, unchanged_form_data
from tests.factories import CompanyFactory

pytestmark = pytest.mark.django_db

URL = "/v1/public/companies"


@pytest.fixture(autouse=True)
def _many_requests(settings):
    # A relevance run asks more than the anonymous 20 a minute.
    settings.API_RATE_ANONYMOUS = "100000/m"


@pytest.fixture
def relevance_set() -> dict[str, str]:
    """The relevance companies, embedded; their group by slug."""
    sectors = {slug: Sector.objects.create(slug=slug, name=name) for slug, name in SECTORS.items()}
    for slug, (name, sector, province, about, _) in COMPANIES.items():
        Company.objects.create(
            slug=slug, name=name, sector=sectors.get(sector), province=province, about=about
        )
    semantic.company_embedding_refresh()
    return {slug: entry[4] for slug, entry in COMPANIES.items()}


def related(api, **params) -> list[str]:
    body = api.get(URL, {"related": "true", **params}).json()
    return [item["slug"] for item in body["related"]]


def test_it_finds_companies_by_meaning_in_spanish_and_english(api, relevance_set):
    hits, listed, relevant = 0, 0, 0
    misses = []
    for query in QUERIES:
        slugs = related(api, q=query.text)
        groups = [relevance_set[slug] for slug in slugs]
        if any(group in query.expected for group in groups[:3]):
            hits += 1
        else:
            misses.append(query.text)
        listed += len(groups)
        relevant += sum(group in query.expected | query.acceptable for group in groups)

    assert len(QUERIES) >= 25
    assert len(COMPANIES) >= 40
    assert hits / len(QUERIES) >= 0.9, misses
    assert relevant / listed >= 0.8


@pytest.mark.parametrize(
    ("term", "group"),
    [
        ("banco", "bank"),
        ("bank", "bank"),
        ("café", "coffee"),
        ("seguros", "insurer"),
        ("telefonía", "telecom"),
        ("supermercado", "grocery"),
    ],
)
def test_it_answers_the_issues_words_with_the_whole_group_first(api, relevance_set, term, group):
    body = api.get(URL, {"q": term, "related": "true"}).json()
    slugs = [item["slug"] for item in body["related"]]
    found = [item["slug"] for item in body["data"]] + slugs  # "bank" finds Bankinter by name
    size = sum(each == group for each in relevance_set.values())

    assert {relevance_set[slug] for slug in slugs[:3]} == {group}
    assert len(slugs) <= 10
    assert sum(relevance_set[slug] == group for slug in found) >= size - 1


def test_it_never_lists_a_company_already_in_data(api, relevance_set):
    CompanyFactory(slug="banco-sur", name="Banco Sur", about="Banco de Andalucía: hipotecas.")
    semantic.company_embedding_refresh()

    body = api.get(URL, {"q": "banco", "related": "1"}).json()

    assert [item["slug"] for item in body["data"]] == ["banco-sur"]
    assert "banco-sur" not in [item["slug"] for item in body["related"]]
    assert body["related"]  # the other banks


def test_it_shows_related_companies_as_the_same_summaries_as_data(api, relevance_set):
    body = api.get(URL, {"q": "cerveza", "related": "true", "pageSize": 1}).json()
    first = body["related"][0]

    listed = api.get(URL, {"q": first["name"]}).json()["data"][0]

    assert first == listed


def test_it_lists_related_companies_only_on_the_first_page_and_with_a_term(api, relevance_set):
    assert related(api, q="banco") != []
    assert related(api, q="banco", page=2) == []
    assert related(api) == []
    assert related(api, q="   ") == []
    assert "related" not in api.get(URL, {"q": "banco"}).json()
    assert "related" not in api.get(URL, {"q": "banco", "related": "false"}).json()


def test_it_honours_the_sector_and_province_filters(api, relevance_set):
    by_sector = related(api, q="hipoteca", sector="seguros")
    by_name = related(api, q="seguro de coche", sector="SEGUROS")
    by_province = related(api, q="banco", province="malaga")
    both = related(api, q="cafe", sector="hosteleria", province="Barcelona")

    assert by_sector == [] or {relevance_set[slug] for slug in by_sector} == {"insurer"}
    assert {relevance_set[slug] for slug in by_name} == {"insurer"}
    assert by_province == ["unicaja"]
    assert both == ["costa-coffee"]
    assert related(api, q="banco", province="Atlantis") == []
    assert related(api, q="banco", sector="no-such-sector") == []


def test_it_lists_nothing_unrelated_for_a_word_far_from_every_company(api, relevance_set):
    assert related(api, q="astronomía") == []


def test_it_uses_the_new_text_after_the_commit_of_an_import(
    api, tmp_path, django_capture_on_commit_callbacks
):
    entry = {"slug": "grupo-norte", "name": "Grupo Norte", "about": "Despacho de abogados."}
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps({"companies": [entry]}))
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_import(path)
    assert related(api, q="cerveza") == []
    assert related(api, q="abogado") == ["grupo-norte"]
    before = CompanyEmbedding.objects.get(company__slug="grupo-norte")

    path.write_text(json.dumps({"companies": [{**entry, "about": "Fábrica de cerveza."}]}))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        catalogue_import(path)

    after = CompanyEmbedding.objects.get(company__slug="grupo-norte")
    assert len(callbacks) >= 1
    assert after.text_hash != before.text_hash
    assert after.updated_at > before.updated_at
    assert related(api, q="cerveza") == ["grupo-norte"]  # this worker reloaded its vectors


def test_it_embeds_nothing_until_the_commit_and_nothing_when_no_text_changed(
    django_capture_on_commit_callbacks,
):
    company = CompanyFactory(about="Seguros de hogar.")
    with django_capture_on_commit_callbacks() as callbacks:
        semantic.company_embedding_stale(company_ids=[company.id])
        assert not CompanyEmbedding.objects.exists()
    for callback in callbacks:
        callback()

    assert CompanyEmbedding.objects.filter(company=company).count() == 1
    assert semantic.company_embedding_refresh().embedded == 0


def test_it_embeds_incrementally_from_the_command(capsys, relevance_set, settings, tmp_path):
    settings.EMBEDDING_INDEX_DIR = tmp_path
    Company.objects.filter(slug="mahou").update(about="Cervecera madrileña.")

    call_command("embed_companies")

    out = capsys.readouterr().out
    assert "1 companies embedded, 48 unchanged" in out
    assert "no index" in out


def test_it_stores_one_unit_vector_per_company(relevance_set):
    embedding = CompanyEmbedding.objects.get(company__slug="mapfre")
    vector = np.frombuffer(bytes(embedding.vector), "<f4")

    assert CompanyEmbedding.objects.count() == len(COMPANIES)
    assert embedding.model == semantic.UniversalSentenceEncoder.name
    assert vector.shape == (semantic.UniversalSentenceEncoder.dimension,)
    assert abs(float(np.linalg.norm(vector)) - 1) < 1e-3


def test_it_builds_the_text_from_names_sector_province_and_about():
    text = semantic.company_text(
        name="Mapfre",
        alternative_names=["Mapfre Seguros", "MAPFRE"],
        sector="Seguros",
        province="Madrid",
        about="  Aseguradora\nde coche. ",
    )

    assert text == "Mapfre. Mapfre Seguros, MAPFRE. Seguros. Madrid. Aseguradora de coche."


def test_it_searches_the_approximate_index_and_the_rows_changed_since(
    api, relevance_set, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.EMBEDDING_INDEX_DIR = tmp_path
    settings.EMBEDDING_INDEX_MIN_COMPANIES = 10
    call_command("embed_companies")
    assert semantic.index_path(semantic.backend().name).exists()

    assert set(related(api, q="banco")[:3]) <= {
        slug for slug, group in relevance_set.items() if group == "bank"
    }
    assert semantic._vectors.index is not None and semantic._vectors.matrix is None
    company = Company.objects.get(slug="pescanova")
    company.about = "Compañía aérea de vuelos regionales."
    company.save()
    with django_capture_on_commit_callbacks(execute=True):
        semantic.company_embedding_stale(company_ids=[company.id])

    assert "pescanova" in related(api, q="aerolinea")
    assert list(semantic._vectors.delta_keys) == [company.embedding.id]
    assert related(api, q="cafe", sector="hosteleria", province="Barcelona") == ["costa-coffee"]


def test_it_keeps_plain_search_when_the_backend_cannot_load(api, relevance_set, settings, caplog):
    settings.EMBEDDING_BACKEND = "sentence-transformers"
    settings.EMBEDDING_MODEL_PATH = "/no/such/model"

    with caplog.at_level(logging.WARNING, logger="directory.semantic"):
        first = api.get(URL, {"q": "mapfre", "related": "true"})
        second = api.get(URL, {"q": "banco", "related": "true"})

    assert first.status_code == 200
    assert [item["slug"] for item in first.json()["data"]] == ["mapfre"]
    assert first.json()["related"] == []
    assert second.json()["related"] == []
    warnings = [r for r in caplog.records if "embedding backend unavailable" in r.getMessage()]
    assert len(warnings) == 1


def test_it_uses_the_new_text_after_the_commit_of_an_admin_edit(
    api, admin_client, django_capture_on_commit_callbacks
):
    company = CompanyFactory(name="Grupo Sur", about="Despacho de abogados.")
    semantic.company_embedding_refresh()
    assert related(api, q="cerveza") == []
    url = change_url("company", company.pk)
    data = unchanged_form_data(admin_client.get(url)) | {"about": "Fábrica de cerveza."}

    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.post(url, data).status_code == 302

    assert related(api, q="cerveza") == [company.slug]
