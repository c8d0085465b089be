"""Companies whose names or "about" changed, imported into a catalogue of 1,000,000
(issue 30): `manage.py import_directory` over the whole catalogue's file, every other
entry unchanged since its last import, to the end of its derived pass.

    .venv/bin/python bench/import_changed.py --database-url URL [--changed 10000]

URL: a loopback database migrated to this commit and loaded by bench/catalogue.py
(`bench/catalogue.py --companies 1000000 --database-url URL`), which this script makes
a catalogue the importer knows, once (the "prepare" steps below, about 20 minutes at load
5-6; a database already prepared is measured at once).
Importing a million companies through the importer takes hours here, so the database is
built this way:

1. The demo generator draws a catalogue of --changed companies with all their files
   (bench/import.py's, kept under .local/bench-import/); as many of the loaded companies
   are deleted (those whose slugs the demo's take first), so that the total stays.
2. The demo catalogue is imported for real (`import_directory --rows-only`): its
   companies, logos, variants, domains and files stored.
3. Every company gets what the derived pass leaves: colours computed (the loaded
   palettes: the column made again with a default, where rewriting 1.5 million rows
   takes most of an hour; migration 0013's partial index on pending logos, which goes
   with the column, made again), previews no longer pending (the demo's are not drawn: minutes
   of CPU the measured runs never read), and a vector whose text hash is its text's (the
   vector one of 256 real ones: a million take hours of CPU, and an import re-embeds only
   the companies it changes).
4. The catalogue's file is written beside the demo's files: the loaded companies (all,
   or --unchanged of them) as entries with their fields and logos, each logo naming a main
   SVG and PNG of the demo's (the digest reads their file system stats), the demo entries
   spread evenly among them; and each loaded company's import digests (its text's, its
   files') set to what the importer computes for its entry, with one COPY into their
   narrow table. The loaded logos have no asset rows: an unchanged entry is skipped on
   its digests, unread, so the measured runs never see that.

Then measured, each a run of the command (bench/import.py's measures: wall, CPU of the
command and of the PostgreSQL cluster, peak memory, load average):
  changed  the file with the demo companies' names (one in two) or "about" (the others)
           changed, as bench/import.py's does;
  back     the original file again: the same companies changed back.
After each, the changed companies' search documents, lexicon and vectors are checked up
to date. Results go to bench/results/import-changed-<date>.json.
"""

import argparse
import importlib
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import BENCH_REDIS_PORT, POSTGRES_PORT, ROOT, VENV_BIN, django_env, write_results

PYTHON = str(VENV_BIN / "python")
POOL_VECTORS = 256


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _prepared(folder: Path) -> bool:
    return (folder / "prepared").exists()


def _make_room(pool: list[dict], total: int) -> None:
    """Deletes loaded companies, those whose slugs the pool takes first, so that the
    catalogue holds `total` companies once the pool is in."""
    from django.db import connection

    slugs = [entry["slug"] for entry in pool]
    logo_slugs = [logo["slug"] for entry in pool for logo in entry["logos"]]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM directory_company")
        extra = cursor.fetchone()[0] + len(pool) - total
        cursor.execute(
            "CREATE TEMP TABLE gone AS SELECT id FROM directory_company"
            " WHERE slug = ANY(%s)"
            " OR id IN (SELECT company_id FROM directory_logo WHERE slug = ANY(%s))",
            [slugs, logo_slugs],
        )
        cursor.execute(
            "INSERT INTO gone SELECT id FROM directory_company WHERE id NOT IN"
            " (SELECT id FROM gone) ORDER BY id DESC"
            " LIMIT greatest(0, %s - (SELECT count(*) FROM gone))",
            [extra],
        )
        cursor.execute(
            "UPDATE directory_company SET current_logo_id = NULL WHERE id IN (SELECT id FROM gone)"
        )
        cursor.execute(
            "DELETE FROM directory_companyembedding WHERE company_id IN (SELECT id FROM gone)"
        )
        cursor.execute("DELETE FROM directory_logo WHERE company_id IN (SELECT id FROM gone)")
        cursor.execute("DELETE FROM directory_company WHERE id IN (SELECT id FROM gone)")
        cursor.execute("DROP TABLE gone")


# The companies whose digests the import has not stored.
UNKNOWN = "NOT EXISTS (SELECT FROM directory_importdigest d WHERE d.company_id = c.id)"


def _loaded_companies(where: str = UNKNOWN, limit: int | None = None, *, logos: bool = True):
    """The companies the import does not know yet (or those `where` says), with their
    sector's name and slug, read through a server-side cursor on a connection of its own
    (the Django connection meanwhile COPYs what is made of them)."""
    with psycopg.connect(os.environ["DATABASE_URL"]) as reading:
        cursor = reading.cursor(name="loaded")
        cursor.execute(
            # `where` is this module's own text.
            "SELECT c.id, c.slug, c.name, c.alternative_names, c.entity_type, c.is_verified,"  # noqa: S608
            " s.slug, s.name, c.province, c.about, c.website, c.location, c.founded_year"
            " FROM directory_company c LEFT JOIN directory_sector s ON s.id = c.sector_id"
            f" WHERE {where} ORDER BY c.slug LIMIT {'ALL' if limit is None else int(limit)}"
        )
        while rows := cursor.fetchmany(5000):
            found = _logos(reading, [row[0] for row in rows]) if logos else {}
            yield from ((row, found.get(row[0], [])) for row in rows)


def _derived_as_imported() -> None:
    """What the derived pass leaves: colours computed, previews drawn, a vector for every
    company (whichever lacks them: the loaded companies, and the demo's imported with
    --rows-only)."""
    from django.db import connection, transaction

    from directory.search import embeddings

    model = embeddings.backend()
    with transaction.atomic(), connection.cursor() as cursor:
        # Colours are no search input and no summary shows them: the triggers would find
        # nothing to do. Rewriting 1.5 million rows takes most of an hour here (every
        # index and generated column); the column made again with a default is the same
        # values at once, and nothing but the derived pass reads it.
        cursor.execute("SELECT count(*) FROM directory_logo WHERE colors_computed_at IS NULL")
        if cursor.fetchone()[0]:
            cursor.execute(
                "ALTER TABLE directory_logo DROP COLUMN colors_computed_at,"
                " ADD COLUMN colors_computed_at timestamptz DEFAULT now()"
            )
            cursor.execute(
                "ALTER TABLE directory_logo ALTER COLUMN colors_computed_at DROP DEFAULT"
            )
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE directory_logo SET preview_pending = false WHERE preview_pending")
        cursor.execute("UPDATE directory_variant SET preview_pending = false WHERE preview_pending")
    texts = []
    with transaction.atomic(), connection.cursor() as reader, connection.cursor() as writer:
        reader.execute(
            "SELECT count(*) FROM directory_company c WHERE NOT EXISTS"
            " (SELECT 1 FROM directory_companyembedding e WHERE e.company_id = c.id)"
        )
        print(f"    vectors for {reader.fetchone()[0]:,} companies")
        writer.execute("CREATE TEMP TABLE hashes (company_id uuid, text_hash text, k int)")
        with writer.copy("COPY hashes FROM STDIN") as copy:
            without = (
                "NOT EXISTS (SELECT FROM directory_companyembedding e WHERE e.company_id = c.id)"
            )
            for number, (row, _) in enumerate(_loaded_companies(without, logos=False)):
                text = embeddings.company_text(
                    name=row[2],
                    alternative_names=row[3],
                    sector=row[7],
                    province=row[8],
                    about=row[9],
                )
                if len(texts) < POOL_VECTORS:
                    texts.append(text)
                digest = embeddings.text_hash(model.name, text)
                copy.write_row((row[0], digest, number % POOL_VECTORS))
        vectors = model.embed(texts).astype("<f4")
        writer.execute("CREATE TEMP TABLE pool (k int, vector bytea)")
        with writer.copy("COPY pool FROM STDIN") as copy:
            for k, vector in enumerate(vectors):
                copy.write_row((k, vector.tobytes()))
        writer.execute(
            "INSERT INTO directory_companyembedding"
            " (company_id, model, text_hash, vector, updated_at)"
            " SELECT h.company_id, %s, h.text_hash, p.vector, now()"
            " FROM hashes h JOIN pool p USING (k)"
            " ON CONFLICT (company_id) DO NOTHING",
            [model.name],
        )
        writer.execute("DROP TABLE hashes; DROP TABLE pool")


def _pending_indexes() -> None:
    """The partial indexes through which the derived pass finds pending logos
    (migration 0013): dropping the column drops the logos' one with it, and without it
    the pass reads every logo by its primary key to find none (23 s at 1,500,000 logos,
    load 8, where the index answers at once)."""
    from django.db import connection

    pending = importlib.import_module("directory.migrations.0013_import_pending").PENDING
    with connection.cursor() as cursor:
        cursor.execute(pending)


def _pool_files(pool: list[dict]) -> list[list[dict]]:
    """The main files (SVG and PNG) of the pool's logos, a logo's at a time."""
    files = []
    for entry in pool:
        for logo in entry["logos"]:
            main = [{"path": file["path"]} for file in logo["files"] if not file.get("variant")]
            if main:
                files.append(main)
    return files


def _logos(reading, company_ids: list) -> dict:
    cursor = reading.execute(
        "SELECT company_id, slug, title, is_current, is_product, era_from, era_to, era_label,"
        " description FROM directory_logo WHERE company_id = ANY(%s) ORDER BY slug",
        [company_ids],
    )
    logos: dict = {}
    for company_id, *logo in cursor.fetchall():
        logos.setdefault(company_id, []).append(logo)
    return logos


def _entry(row, logos: list, files: list[list[dict]]) -> dict:
    """A loaded company as its catalogue entry (docs/catalogue.md)."""
    return {
        "slug": row[1],
        "name": row[2],
        "alternativeNames": row[3],
        "entityType": row[4],
        "isVerified": row[5],
        "sector": row[6],
        "province": row[8],
        "about": row[9],
        "website": row[10],
        "location": row[11],
        "foundedYear": row[12],
        "domains": [],
        "logos": [
            {
                "slug": slug,
                "title": title,
                "isCurrent": current,
                "isProduct": product,
                "era": {"from": era_from, "to": era_to, "label": label},
                "description": description,
                "variants": [],
                "files": files[zlib.crc32(slug.encode()) % len(files)],
            }
            for slug, title, current, product, era_from, era_to, label, description in logos
        ],
    }


def _write_catalogues(folder: Path, pool: list[dict], changed, unchanged: int | None) -> None:
    """The catalogue's file (whole.json) and its copy with the pool's companies changed
    (whole-changed.json), beside the pool's files; the loaded companies' digests set."""
    from django.db import connection, transaction

    from directory.importing.import_batch import files_digest, text_digest

    files = _pool_files(pool)
    with connection.cursor() as cursor:
        cursor.execute("SELECT slug, name FROM directory_sector ORDER BY slug")
        sectors = [{"slug": slug, "name": name} for slug, name in cursor.fetchall()]
        cursor.execute(f"SELECT count(*) FROM directory_company c WHERE {UNKNOWN}")  # noqa: S608
        loaded = min(cursor.fetchone()[0], unchanged or 1 << 62)
    every = max(1, loaded // max(1, len(pool)))
    head = json.dumps({"sectors": sectors}, ensure_ascii=False)[:-1] + ', "companies": [\n'
    with (
        transaction.atomic(),
        connection.cursor() as cursor,
        connection.cursor() as writer,
        (folder / "whole.json.partial").open("w", encoding="utf-8") as original,
        (folder / "whole-changed.json.partial").open("w", encoding="utf-8") as modified,
    ):
        original.write(head)
        modified.write(head)
        first = True
        left = list(pool)

        def put(entry: dict, other: dict) -> str:
            """Writes an entry to both files; its text in the original."""
            nonlocal first
            separator = "" if first else ",\n"
            first = False
            text = json.dumps(entry, ensure_ascii=False)
            original.write(separator + text)
            modified.write(
                separator + (text if other is entry else json.dumps(other, ensure_ascii=False))
            )
            return text

        batch: list = []
        # The digests the import makes of each entry as written (directory/importing/
        # models.py): a narrow table, written in seconds.
        with writer.copy(
            "COPY directory_importdigest (company_id, text, files) FROM STDIN"
        ) as copy:

            def flush() -> None:
                for row, logos in batch:
                    entry = _entry(row, logos, files)
                    text = put(entry, entry)
                    copy.write_row(
                        (row[0], text_digest(text.encode()), files_digest(entry, folder))
                    )

            for number, item in enumerate(_loaded_companies(limit=loaded), start=1):
                batch.append(item)
                if number % every == 0 and left:
                    flush()
                    batch = []
                    entry = left.pop(0)
                    put(entry, changed(entry, len(pool) - len(left) - 1))
            flush()
        for entry in left:
            put(entry, changed(entry, len(pool) - len(left)))
            left = left[1:]
        original.write("\n]}\n")
        modified.write("\n]}\n")
    (folder / "whole.json.partial").replace(folder / "whole.json")
    (folder / "whole-changed.json.partial").replace(folder / "whole-changed.json")


def _check(changed: list[dict]) -> dict:
    """Whether search and related are up to date for the changed companies: no company's
    vector older than its row, each sampled company's vector made from its text now, its
    new words in the lexicon, and a search for its name finding it."""
    from django.db import connection
    from django.db.models import F, Q

    from directory.catalogue.models import Company
    from directory.search import embeddings
    from directory.search.selectors import company_page

    stale = Company.objects.filter(
        Q(embedding__isnull=True) | Q(updated_at__gt=F("embedding__updated_at"))
    ).count()
    model = embeddings.backend()
    found = vectors = 0
    sample = changed[:: max(1, len(changed) // 50)]
    for entry in sample:
        company = Company.objects.select_related("sector", "embedding").get(slug=entry["slug"])
        text = embeddings.company_text(
            name=company.name,
            alternative_names=company.alternative_names,
            sector=company.sector.name if company.sector else None,
            province=company.province,
            about=company.about,
        )
        vectors += company.embedding.text_hash == embeddings.text_hash(model.name, text)
        rows, _ = company_page(term=company.name, sector=None, province=None, offset=0, limit=20)
        found += any(row["slug"] == company.slug for row in rows)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM directory_search_word WHERE word IN ('grupo', 'renovada')"
        )
        words = cursor.fetchone()[0]
    return {
        "stale_vectors": stale,
        "sampled": len(sample),
        "vectors_of_text_now": vectors,
        "found_by_name": found,
        "lexicon_words": words,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--changed", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--unchanged",
        type=int,
        default=None,
        help="Loaded companies the file lists (all by default): the rest of the catalogue "
        "is in the database only.",
    )
    parser.add_argument(
        "--runs",
        default="changed,back",
        help="The runs, in order (a database left changed by a stopped run goes back first: "
        "back,changed).",
    )
    options = parser.parse_args()
    bench_import = importlib.import_module("bench.import")
    database = options.database_url.rsplit("/", 1)[1]
    if f":{POSTGRES_PORT}/" not in options.database_url:
        raise SystemExit(
            "set BENCH_POSTGRES_PORT to the URL's port (PostgreSQL's CPU is read there)"
        )
    subprocess.run(
        [
            "bash",
            "-c",
            "source scripts/lib.sh && ensure_redis_binaries && "
            f"start_redis bench {BENCH_REDIS_PORT}",
        ],
        cwd=ROOT,
        check=True,
    )
    env = django_env(
        database_url=options.database_url,
        redis_db=3,
        port=8000,
        MEDIA_ROOT=str(ROOT / ".local" / "bench-import" / f"media-{database}"),
    )
    path = bench_import._catalogue(options.changed, options.seed, env)
    folder = path.parent
    _django(env)
    pool = json.loads(path.read_text(encoding="utf-8"))["companies"]
    results: dict = {"database": database, "changed": len(pool)}
    marker = folder / f"prepared-{database}.json"
    done = json.loads(marker.read_text()) if marker.exists() else {}
    if "room" not in done:
        print("==> prepare: room for the demo companies")
        _make_room(pool, total=_count())
        done["room"] = _count()
        marker.write_text(json.dumps(done))
    if "pool" not in done:
        print(f"==> prepare: the {len(pool):,} demo companies imported for real, rows only")
        done["pool"] = bench_import._run_import(path, env, len(pool), "--rows-only")
        marker.write_text(json.dumps(done))
    if "derived-all" not in done:
        print("==> prepare: colours, previews and vectors marked made")
        _derived_as_imported()
        done["derived-all"] = True
        marker.write_text(json.dumps(done))
    if "files" not in done:
        print("==> prepare: the catalogue's file, and the loaded companies' digests")
        _write_catalogues(
            folder,
            pool,
            lambda entry, number: bench_import.entry_change(json.loads(json.dumps(entry)), number),
            options.unchanged,
        )
        _vacuum()
        done["files"] = _count()
        marker.write_text(json.dumps(done))
    results["prepared"] = done
    # The preparation's rebuild of the colours' column dropped them (made again before
    # every measurement, so a database prepared earlier gets them too).
    _pending_indexes()
    files = {"changed": "whole-changed.json", "back": "whole.json"}
    for phase in options.runs.split(","):
        name = files[phase]
        print(f"==> {phase}: {name}, {len(pool):,} companies changed among {done['files']:,}")
        results[phase] = bench_import._run_command(
            ["import_directory", str(folder / name)], env, len(pool)
        )
        print(json.dumps(results[phase]))
        results[phase]["check"] = _check(pool)
        print(json.dumps(results[phase]["check"]))
    write_results("import-changed", results)


def _count() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM directory_company")
        return cursor.fetchone()[0]


def _vacuum() -> None:
    """Fresh statistics for the planner (the dead rows of the preparation are left to
    autovacuum: a VACUUM of the 2.6 GB of vectors alone takes minutes here)."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("directory_company", "directory_logo", "directory_companyembedding"):
            cursor.execute(f"ANALYZE {table}")


if __name__ == "__main__":
    main()
