"""The backup and restore of docs/operations.md, run as written there.

A catalogue with logo files and previews, downloads, palettes and proposals is made
through the app; the doc's two command blocks back it up and restore it into a new
PostgreSQL cluster and an empty folder; every row, sequence and file must come back
identical, and a server on each side must answer with the same bodies.
"""

import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from tests.factories import (
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    SectorFactory,
    UserFactory,
    add_file,
    bearer,
    make_current,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.network import free_port
from tests.project import ROOT, database_url
from tests.reliability.servers import AppServer, PostgresCluster, app_env, get, send

pytestmark = pytest.mark.django_db(transaction=True)

OPERATIONS = ROOT / "docs" / "operations.md"


def _commands(heading: str) -> str:
    """The first bash block under a heading of docs/operations.md."""
    text = OPERATIONS.read_text()
    section = text[text.index(f"\n{heading}\n") :]
    return re.search(r"```bash\n(.*?)```", section, re.DOTALL).group(1)


def _run(commands: str, **env: str) -> None:
    subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands],
        env={"PATH": os.environ["PATH"], **env},
        check=True,
        capture_output=True,
        timeout=120,
    )


def _rows(cursor) -> dict[str, tuple]:
    """Each table's row count and a digest of its rows, and each sequence's position."""
    cursor.execute("SET TIME ZONE 'UTC'")  # timestamps as text, the same on both sides
    cursor.execute(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
    )
    tables = sorted(name for (name,) in cursor.fetchall())
    state = {}
    for table in tables:
        cursor.execute(
            f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), ''))"  # noqa: S608 - names from the catalog
            f' FROM "{table}" t'
        )
        state[table] = cursor.fetchone()
    cursor.execute("SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'")
    state.update({f"sequence {name}": (value,) for name, value in cursor.fetchall()})
    return state


def _files(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def catalogue(api) -> dict:
    """Files and previews, downloads, palettes and proposals, made through the app."""
    sector = SectorFactory(slug="alimentacion", name="Alimentación")
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol", sector=sector)
    logo = LogoFactory(company=company, slug="sol-2020", title="Sol")
    add_file(logo, svg_bytes())
    add_file(logo, png_bytes())
    make_current(logo)
    old = LogoFactory(company=company, slug="sol-1990", title="Sol (1990)")
    add_file(old, svg_bytes(fill="#00A651"))
    DomainFactory(company=company, domain="cafessol.es")
    secret = token_for(UserFactory())
    for headers in ({}, bearer(secret)):
        answer = api.post(
            f"/v1/public/logos/{logo.id}/download", {"format": "png"}, format="json", **headers
        )
        assert answer.status_code == 200
    for name in ("Tostado", "Crema"):
        palette = {"type": "PALETTE", "name": name, "colors": ["#6F4E37", "#F5DEB3"]}
        assert (
            api.post("/v1/public/palettes", palette, format="json", **bearer(secret)).status_code
            == 201
        )
    upload = {"companyName": "Panadería Luna", "file": _svg_upload()}
    assert (
        api.post("/v1/public/proposals", upload, format="multipart", **bearer(secret)).status_code
        == 201
    )
    return {"secret": secret, "logo": str(logo.id)}


def _svg_upload():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("luna.svg", svg_bytes(fill="#FFD700"), content_type="image/svg+xml")


@pytest.fixture
def restored_cluster():
    directory = Path(tempfile.mkdtemp(prefix="pg-restore-"))
    directory.chmod(0o755)
    cluster = PostgresCluster(directory, free_port())
    try:
        cluster.create()
        yield cluster
    finally:
        cluster.destroy()


def _server(url: str, media: Path) -> AppServer:
    return AppServer(
        free_port(),
        app_env(
            SECRET_KEY="backup-restore-test",  # the same on both sides: the same links
            DATABASE_URL=url,
            REDIS_URL="",
            MEDIA_ROOT=str(media),
            STORAGE_BACKEND="local",
            EMBEDDING_BACKEND="off",
        ),
    )


def _answers(server: AppServer, secret: str, logo: str) -> dict:
    """The bodies a client sees, and the bytes behind a download link."""
    token = {"Authorization": f"Bearer {secret}"}
    paths = [
        "/v1/public/companies",
        "/v1/public/companies/cafes-sol",
        "/v1/public/companies/cafes-sol/colors",
        "/v1/public/logos?q=sol",
        f"/v1/public/logos/{logo}",
    ]
    answers = {path: json.loads(get(server.url + path)[2]) for path in paths}
    for path in ("/v1/public/me", "/v1/public/palettes", "/v1/public/proposals"):
        answers[path] = json.loads(get(server.url + path, headers=token)[2])
    domains = json.loads(get(server.url + "/v1/public/domains")[2])
    answers["/v1/public/domains data"] = domains["data"]  # generatedAt is the moment of reading
    status, _, body = send(
        "POST",
        f"{server.url}/v1/public/logos/{logo}/download",
        headers={**token, "Content-Type": "application/json"},
        body=b'{"format": "svg"}',
    )
    download = json.loads(body)
    answers["download quota"] = (status, download["quota"], download["data"]["asset"])
    link = download["data"]["url"].replace("http://127.0.0.1", server.url, 1)
    answers["file behind the link"] = hashlib.sha256(get(link)[2]).hexdigest()
    return answers


def test_it_restores_every_row_and_file_and_the_same_answers(catalogue, restored_cluster, tmp_path):
    source_url = database_url()
    source_media = Path(settings.MEDIA_ROOT)
    backup, restored_media = tmp_path / "backup", tmp_path / "restored-media"

    _run(
        _commands("### Back up"),
        DATABASE_URL=source_url,
        MEDIA_ROOT=str(source_media),
        BACKUP=str(backup),
    )
    _run(
        _commands("### Restore"),
        DATABASE_URL=restored_cluster.url,
        MEDIA_ROOT=str(restored_media),
        BACKUP=str(backup),
    )

    with connection.cursor() as cursor:
        before = _rows(cursor)
    with psycopg.connect(restored_cluster.url) as restored, restored.cursor() as cursor:
        after = _rows(cursor)
    assert before["directory_download"][0] == 2
    assert before["palettes_palette"][0] == 2
    assert before["proposals_proposal"][0] == 1
    assert after == before
    files = _files(source_media)
    assert any(name.startswith("previews/") for name in files)
    assert any(name.startswith("files/proposals/") for name in files)
    assert _files(restored_media) == files

    answers = []
    for url, media in ((source_url, source_media), (restored_cluster.url, restored_media)):
        server = _server(url, media)
        server.start()
        try:
            answers.append(_answers(server, catalogue["secret"], catalogue["logo"]))
        finally:
            server.stop()
    assert answers[0]["/v1/public/companies"]["total"] == 1
    assert answers[0]["file behind the link"] == hashlib.sha256(svg_bytes()).hexdigest()
    assert answers[1] == answers[0]
