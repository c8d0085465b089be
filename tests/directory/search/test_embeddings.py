"""Company vectors (directory/search/embeddings.py): what is embedded, when, and how it is kept."""

import json
import time

import numpy as np
import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import F

from directory.catalogue.models import Company
from directory.importing.importer import catalogue_import
from directory.search import embeddings
from directory.search.models import CompanyEmbedding
from tests.directory.search.evaluation.measure import load_related_catalogue
from tests.directory.search.evaluation.related_catalogue import COMPANIES
from tests.factories import CompanyFactory

pytestmark = pytest.mark.django_db


def test_it_embeds_nothing_until_the_commit_and_nothing_when_no_text_changed(
    django_capture_on_commit_callbacks,
):
    company = CompanyFactory(about="Seguros de hogar.")
    with django_capture_on_commit_callbacks() as callbacks:
        embeddings.company_embedding_stale(company_ids=[company.id])
        assert not CompanyEmbedding.objects.exists()
    for callback in callbacks:
        callback()

    assert CompanyEmbedding.objects.filter(company=company).count() == 1
    assert embeddings.company_embedding_refresh().embedded == 0


def test_it_keeps_a_vector_current_when_its_text_changed_and_came_back():
    company = CompanyFactory(about="Seguros de hogar.")
    embeddings.company_embedding_refresh()
    company.about = "Seguros de coche."
    company.save()
    company.about = "Seguros de hogar."
    company.save()

    def stale():
        return list(Company.objects.filter(updated_at__gt=F("embedding__updated_at")))

    assert stale() == [company]

    summary = embeddings.company_embedding_refresh(company_ids=[company.id])

    assert (summary.embedded, summary.unchanged) == (0, 1)
    assert stale() == []


def test_it_embeds_incrementally_from_the_command(capsys, settings, tmp_path):
    settings.EMBEDDING_INDEX_DIR = tmp_path
    load_related_catalogue()
    embeddings.company_embedding_refresh()
    Company.objects.filter(slug="almenara").update(about="Cervecera madrileña.")

    call_command("embed_companies")

    out = capsys.readouterr().out
    assert f"1 companies embedded, {len(COMPANIES) - 1} unchanged" in out
    assert "no index" in out


def test_it_stores_one_unit_vector_per_company():
    load_related_catalogue()
    embeddings.company_embedding_refresh()

    embedding = CompanyEmbedding.objects.get(company__slug="almenara")
    vector = np.frombuffer(bytes(embedding.vector), "<f4")

    assert CompanyEmbedding.objects.count() == len(COMPANIES)
    assert embedding.model == embeddings.UniversalSentenceEncoder.name
    assert vector.shape == (embeddings.UniversalSentenceEncoder.dimension,)
    assert abs(float(np.linalg.norm(vector)) - 1) < 1e-3


def test_it_embeds_many_batches_on_the_workers_as_it_would_in_one(monkeypatch):
    load_related_catalogue()
    # Batches of 4: the related catalogue is then many batches, embedded by the workers.
    monkeypatch.setattr(embeddings, "EMBED_BATCH", 4)
    assert embeddings.company_embedding_refresh().embedded == len(COMPANIES) > 8
    on_workers = {e.company_id: e for e in CompanyEmbedding.objects.all()}
    CompanyEmbedding.objects.all().delete()
    # One batch: embedded in this process.
    monkeypatch.setattr(embeddings, "EMBED_BATCH", 10_000)
    embeddings.company_embedding_refresh()

    for here in CompanyEmbedding.objects.all():
        there = on_workers[here.company_id]
        assert there.text_hash == here.text_hash
        cosine = np.dot(
            np.frombuffer(bytes(there.vector), "<f4"), np.frombuffer(bytes(here.vector), "<f4")
        )
        assert float(cosine) > 0.9999
    assert len(on_workers) == len(COMPANIES)


def test_it_builds_the_text_from_names_sector_province_and_about():
    text = embeddings.company_text(
        name="Mapfre",
        alternative_names=["Mapfre Seguros", "MAPFRE"],
        sector="Seguros",
        province="Madrid",
        about="  Aseguradora\nde coche. ",
    )

    assert text == "Mapfre. Mapfre Seguros, MAPFRE. Seguros. Madrid. Aseguradora de coche."


@pytest.mark.django_db(transaction=True)
def test_it_embeds_the_companies_of_an_import_together_once_it_ends(tmp_path):
    path = tmp_path / "catalogue.json"
    entries = [{"slug": f"aseguradora-{n}", "name": f"Aseguradora {n}"} for n in range(3)]
    path.write_text(json.dumps({"companies": entries}))

    catalogue_import(path)

    # Each company commits on its own; one batch after the last gives one timestamp.
    stamps = CompanyEmbedding.objects.values_list("updated_at", flat=True)
    assert len(stamps) == 3
    assert len(set(stamps)) == 1


def test_it_embeds_what_was_committed_when_a_deferred_block_raises(
    django_capture_on_commit_callbacks,
):
    company = CompanyFactory(about="Seguros de hogar.")

    with pytest.raises(RuntimeError), embeddings.company_embedding_deferred():
        with django_capture_on_commit_callbacks(execute=True):
            embeddings.company_embedding_stale(company_ids=[company.id])
        assert not CompanyEmbedding.objects.exists()
        raise RuntimeError

    assert CompanyEmbedding.objects.filter(company=company).count() == 1


@pytest.mark.django_db(transaction=True)
def test_it_embeds_each_batch_beside_a_deferred_block_while_the_block_goes_on(monkeypatch):
    monkeypatch.setattr(embeddings, "EMBED_BATCH", 2)
    companies = [CompanyFactory(name=f"Seguros {n}", about="Seguros de hogar.") for n in range(5)]
    CompanyEmbedding.objects.all().delete()

    with embeddings.company_embedding_deferred(beside=True):
        for company in companies:
            # A commit of its own, as each batch of an import.
            with transaction.atomic():
                embeddings.company_embedding_stale(company_ids=[company.id])
        # Two batches of two went to the worker: stored at a later commit, before the
        # block ends, once it has made them.
        deadline = time.monotonic() + 60
        while CompanyEmbedding.objects.count() < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
            with transaction.atomic():
                embeddings.company_embedding_stale(company_ids=[])
        assert CompanyEmbedding.objects.count() == 4

    # Every vector is of its company's text now: a refresh finds nothing to embed.
    refresh = embeddings.company_embedding_refresh(company_ids=[c.id for c in companies])
    assert (refresh.embedded, refresh.unchanged) == (0, 5)
