"""`related=true`: companies close to the term in meaning (directory/search/related.py), over the
related evaluation catalogue (tests/directory/search/evaluation/related_catalogue.py)."""

import json
import logging
import os

import pytest
from django.core.management import call_command
from django.db import connection

from directory.catalogue.models import Company
from directory.importing.importer import catalogue_import
from directory.search import embeddings, related
from tests.directory.editing.test_admin import change_url, unchanged_form_data
from tests.directory.search.evaluation.measure import load_related_catalogue
from tests.directory.search.evaluation.related_catalogue import COMPANIES
from tests.factories import CompanyFactory

pytestmark = pytest.mark.django_db

URL = "/v1/public/companies"
GROUP = {company.slug: company.group for company in COMPANIES}


@pytest.fixture(autouse=True)
def _many_requests(settings):
    settings.API_RATE_ANONYMOUS = "100000/m"


@pytest.fixture
def catalogue():
    load_related_catalogue()
    embeddings.company_embedding_refresh()


def listed(api, **params) -> list[str]:
    body = api.get(URL, {"related": "true", **params}).json()
    return [item["slug"] for item in body["related"]]


def groups(api, **params) -> list[str]:
    return [GROUP.get(slug, slug) for slug in listed(api, **params)]


@pytest.mark.parametrize(
    ("term", "group"),
    [
        # One word, and misspellings: they score low with every company, so the absolute
        # similarity floor must stay low (docs/search.md).
        ("hotel", "hotel"),
        ("car manufacturer", "car-maker"),
        ("univercidad", "university"),
        ("supermecado", "supermarket"),
        ("aseguradra", "insurer"),
    ],
)
def test_it_answers_one_word_terms_and_misspellings(api, catalogue, term, group):
    assert groups(api, q=term)[:1] == [group]


def test_it_reads_a_rare_name_of_a_kind_of_business_as_the_plain_one(api, catalogue):
    assert related.query_text("fonda en Sevilla", "fonda en sevilla") == (
        "fonda en Sevilla hotel hostal posada fonda parador hospedería pensión"
        " casa de huéspedes inn"
    )
    assert groups(api, q="fonda")[:1] == ["hotel"]


def test_it_embeds_the_corrections_beside_the_typed_words():
    assert related.query_text("restaurnte", "restaurante").startswith(
        "restaurnte restaurante restaurante restaurant"
    )


def test_it_reads_a_plural_name_of_a_kind_as_the_singular_one():
    assert related.query_text("hoteles", "hoteles").startswith("hoteles hotel hostal")
    # Only a word that names nothing as written is read in the singular: "new" is not
    # "news" (a newspaper).
    assert related.query_text("buy a new dress", "buy a new dress") == "buy a new dress"


def corrected(term: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT directory_search_corrected(%s)", [term])
        return cursor.fetchone()[0]


def test_it_embeds_a_correction_only_when_it_is_as_near_as_spelt_as_by_sound(catalogue):
    # Nearest by sound and then as spelt: "hotel" is a swap away, "bottle" sounds as near.
    assert corrected("hotle") == "hotel"
    assert corrected("segruos") == "seguros"
    # "send" sounds one edit from "seeds", "new" like "news": words of their own, kept.
    assert corrected("send money abroad") == "send money abroad"
    assert corrected("buy a new dress") == "buy a new dress"


def test_it_never_lists_a_company_already_in_data(api, catalogue):
    CompanyFactory(slug="hotel-sol", name="Hotel Sol", about="Habitaciones junto al mar.")
    embeddings.company_embedding_refresh()

    body = api.get(URL, {"q": "hotel", "related": "1"}).json()

    assert [item["slug"] for item in body["data"]] == ["hotel-sol"]
    assert "hotel-sol" not in [item["slug"] for item in body["related"]]
    assert body["related"]


def test_it_shows_related_companies_as_the_same_summaries_as_data(api, catalogue):
    body = api.get(URL, {"q": "cerveza", "related": "true", "pageSize": 1}).json()
    first = body["related"][0]

    shown = api.get(URL, {"q": first["name"]}).json()["data"][0]

    assert first == shown


def test_it_lists_at_most_ten_and_only_on_the_first_page_with_a_term(api, catalogue):
    assert 0 < len(listed(api, q="banco")) <= 10
    assert listed(api, q="banco", page=2) == []
    assert listed(api) == []
    assert listed(api, q="   ") == []
    assert "related" not in api.get(URL, {"q": "banco"}).json()
    assert "related" not in api.get(URL, {"q": "banco", "related": "false"}).json()


def test_it_honours_the_sector_and_province_filters(api, catalogue):
    in_sector = listed(api, q="hipoteca", sector="finanzas")
    by_name = listed(api, q="hipoteca", sector="SERVICIOS FINANCIEROS")
    in_province = listed(api, q="banco", province="malaga")

    assert in_sector and {company.sector for company in COMPANIES if company.slug in in_sector} == {
        "finanzas"
    }
    assert by_name == in_sector
    assert in_province == ["orbenia"]
    assert listed(api, q="banco", province="Atlantis") == []
    assert listed(api, q="banco", sector="no-such-sector") == []


def test_it_uses_the_new_text_after_the_commit_of_an_import(
    api, catalogue, tmp_path, django_capture_on_commit_callbacks
):
    entry = {"slug": "grupo-norte", "name": "Grupo Norte", "about": "Despacho de abogados."}
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps({"companies": [entry]}))
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_import(path)
    assert "grupo-norte" in listed(api, q="abogado")[:3]

    path.write_text(json.dumps({"companies": [{**entry, "about": "Fábrica de cerveza."}]}))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        catalogue_import(path)

    assert len(callbacks) >= 1
    assert "grupo-norte" in listed(api, q="cerveza")[:3]  # this worker reloaded its vectors
    assert "grupo-norte" not in listed(api, q="abogado")


def test_it_searches_the_approximate_index_and_the_rows_changed_since(
    api, catalogue, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.EMBEDDING_INDEX_DIR = tmp_path
    settings.EMBEDDING_INDEX_MIN_COMPANIES = 10
    call_command("embed_companies")
    assert embeddings.index_path(embeddings.backend().name).exists()

    assert set(groups(api, q="banco")[:3]) == {"bank"}
    assert related._vectors.index is not None and related._vectors.matrix is None
    company = Company.objects.get(slug="almenara")
    company.about = "Compañía aérea de vuelos regionales."
    company.save()
    with django_capture_on_commit_callbacks(execute=True):
        embeddings.company_embedding_stale(company_ids=[company.id])

    assert "almenara" in listed(api, q="aerolinea")
    assert list(related._vectors.delta_keys) == [company.embedding.id]
    assert listed(api, q="banco", province="malaga") == ["orbenia"]


def test_it_keeps_plain_search_when_the_backend_cannot_load(api, catalogue, settings, caplog):
    settings.EMBEDDING_BACKEND = "sentence-transformers"
    settings.EMBEDDING_MODEL_PATH = "/no/such/model"

    with caplog.at_level(logging.WARNING, logger="directory.search.embeddings"):
        first = api.get(URL, {"q": "almenara", "related": "true"})
        second = api.get(URL, {"q": "banco", "related": "true"})

    assert first.status_code == 200
    # Plain search as ever: the name itself first, then a word two edits from it.
    assert [item["slug"] for item in first.json()["data"]] == ["almenara", "almena"]
    assert first.json()["related"] == []
    assert second.json()["related"] == []
    warnings = [r for r in caplog.records if "embedding backend unavailable" in r.getMessage()]
    assert len(warnings) == 1


def test_it_uses_the_new_text_after_the_commit_of_an_admin_edit(
    api, catalogue, admin_client, django_capture_on_commit_callbacks
):
    company = CompanyFactory(slug="grupo-sur", name="Grupo Sur", about="Despacho de abogados.")
    embeddings.company_embedding_refresh()
    assert "grupo-sur" not in listed(api, q="cerveza")
    url = change_url("company", company.pk)
    about = "Fábrica de cerveza artesana: cervezas de trigo y tostadas."
    data = unchanged_form_data(admin_client.get(url)) | {"about": about}

    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.post(url, data).status_code == 302

    assert "grupo-sur" in listed(api, q="cerveza")


def test_it_loads_the_model_and_the_vectors_before_the_first_request(catalogue, caplog):
    related._vectors = None

    with caplog.at_level(logging.INFO, logger="directory.search.related"):
        related.warm_up()

    assert related._vectors is not None
    assert len(related._vectors.keys) == len(COMPANIES)
    assert [r.getMessage().split(" in ")[0] for r in caplog.records] == ["search warmed up"]


def test_it_runs_the_search_by_meaning_in_a_process_forked_after_one(api, catalogue):
    # The threads that run it are kept for the process; a child forked from a process that
    # used them (an import's workers) has none of them, and must start its own.
    assert set(groups(api, q="banco")[:3]) == {"bank"}

    child = os.fork()
    if child == 0:  # no database here: the child shares the parent's connection
        try:
            os._exit(0 if related._pool.submit(lambda: 42).result(timeout=10) == 42 else 1)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(child, 0)

    assert os.waitstatus_to_exitcode(status) == 0
