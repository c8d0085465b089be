"""A synthetic Spanish catalogue for the benchmark, loaded with COPY.

Run alone, it loads a migrated database and says where the time went, step by step and
SQL function by SQL function (their own time, per step):

    .venv/bin/python bench/catalogue.py --companies 20000 --database-url URL

URL: a loopback database of its own that bench/search.py or bench/findability.py has
migrated (its catalogue is replaced).

`load(conn, companies, seed)` fills directory_sector, directory_company and
directory_logo of the benchmark database with deterministic data (same seed,
same rows):

* 31 sectors; each business type belongs to one (80%) or a random one (20%);
  5% of companies have no sector.
* Company names built from ~170 business types, ~140 surnames, ~160 provinces and
  towns, regional nicknames, legal suffixes and random syllable brands (with
  accents and ñ), plus institutions (Ayuntamiento, Fundación, Club Deportivo...);
  the words are in bench/data/catalogue.toml.
  About 35% of companies have 1 or 2 alternative names (acronym, commercial
  brand, short form, co-official language form).
* The province (52, weighted roughly by population; 8% NULL).
* About 1.5 logos per company: exactly one current logo, whose id is the
  company's current_logo_id, plus historical logos and a few product logos.

Columns the database computes (generated *_fold and search_doc columns, the logo
search_doc trigger) and the tables its triggers keep (directory/sql/) are left to it.
Files, variants and domains are not generated: search does not read them.
"""

import argparse
import itertools
import os
import random
import re
import sys
import threading
import time
import tomllib
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import psycopg

DATA = Path(__file__).parent / "data" / "catalogue.toml"
_DATA = tomllib.loads(DATA.read_text(encoding="utf-8"))

SECTORS: list[tuple[str, str]] = list(_DATA["sectors"].items())
# Business type -> sector slug.
TYPES: dict[str, str] = {kind: slug for slug, kinds in _DATA["types"].items() for kind in kinds}
SURNAMES: list[str] = _DATA["surnames"]
# Province and a rough weight (population in hundreds of thousands).
PROVINCES: list[tuple[str, int]] = list(_DATA["provinces"].items())
TOWNS: list[str] = _DATA["towns"]
PLACES = [name for name, _ in PROVINCES] + TOWNS
REGIONAL: list[str] = _DATA["regional"]
SUFFIXES: list[str] = _DATA["suffixes"]
SYLLABLES: list[str] = _DATA["syllables"]
FIRST_SYLLABLES = [syllable for syllable in SYLLABLES if syllable[0] not in "aeiouáéíóú"]
SAINTS_LIST: list[str] = _DATA["saints"]
PARTY_LIST: list[str] = _DATA["party_words"]

LEGAL_SUFFIX = re.compile(r"\s+(S\.L\.U\.|S\.L\.|S\.A\.|S\.Coop\.)$")


def strip_accents(text: str) -> str:
    """'Núñez Ávila' -> 'Nunez Avila' (the API folds the same way, plus lower case)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", strip_accents(text).lower()).strip("-") or "x"


@dataclass
class Generated:
    sectors: int
    companies: int
    logos: int
    alternative_names: int
    seconds: float
    steps: dict[str, float]
    # Per step, the CPU seconds of the connection's server process (backend_cpu).
    cpu: dict[str, float]
    # With load(functions=True): per step, the SQL functions that took longest, their own
    # seconds (not those of the functions they called) and calls.
    functions: dict[str, dict[str, tuple[float, int]]] = field(default_factory=dict)


class NameMaker:
    """Company names, alternative names and logo titles from one seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.types = list(TYPES)
        self.province_names = [name for name, _ in PROVINCES]
        self.province_weights = [weight for _, weight in PROVINCES]

    def brand(self) -> str:
        """A made-up brand such as 'Ñotaveli' or 'Zurráxo': a consonant first, then anything."""
        rest = "".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(1, 3)))
        word = self.rng.choice(FIRST_SYLLABLES) + rest
        return word[0].upper() + word[1:]

    def surname(self) -> str:
        return self.rng.choice(SURNAMES)

    def province(self) -> str:
        return self.rng.choices(self.province_names, self.province_weights)[0]

    def company(self) -> tuple[str, str, str | None]:
        """A company's name, entity type and business type (None for institutions)."""
        r = self.rng.random()
        kind = self.rng.choice(self.types)
        suffix = self.rng.choice(SUFFIXES)
        if r < 0.30:
            name = f"{kind} {self.surname()}"
            if self.rng.random() < 0.4:
                name += f" {self.surname()}"
        elif r < 0.48:
            name = f"{kind} {self.rng.choice(PLACES)}"
        elif r < 0.62:
            name = f"{self.brand()} {kind}" if self.rng.random() < 0.5 else f"{kind} {self.brand()}"
        elif r < 0.71:
            name = f"{self.surname()} y {self.surname()}"
            suffix = self.rng.choice(["Asociados", "Abogados", "S.L.", "S.C."])
        elif r < 0.81:
            name = f"{kind} {self.rng.choice(REGIONAL)}"
        elif r < 0.89:
            name = self.brand()
            suffix = self.rng.choice(["S.L.", "S.A.", "", "Group", "Grupo"])
        elif r < 0.94:
            letters = "".join(self.rng.choice("ABCDEFGHIJKLMNOPRSTUVZ") for _ in range(3))
            name = f"{letters} {kind}"
        else:
            return self.institution()
        return f"{name} {suffix}".strip(), "COMPANY", kind

    def institution(self) -> tuple[str, str, str | None]:
        place = self.rng.choice(PLACES)
        r = self.rng.random()
        if r < 0.30:
            return f"Ayuntamiento de {place}", "PUBLIC_BODY", None
        if r < 0.45:
            return f"Fundación {self.surname()} {self.surname()}", "NONPROFIT", None
        if r < 0.55:
            return f"Asociación de Vecinos de {place}", "NONPROFIT", None
        if r < 0.70:
            club = self.rng.choice(["Club Deportivo", "Club de Fútbol", "Club Baloncesto"])
            return f"{club} {place}", "SPORTS_CLUB", None
        if r < 0.80:
            return f"Colegio {self.rng.choice(SAINTS_LIST)} de {place}", "EDUCATION", None
        if r < 0.90:
            outlet = self.rng.choice(["Diario de", "Radio", "Televisión de", "El Correo de"])
            return f"{outlet} {place}", "MEDIA", None
        return f"{self.rng.choice(PARTY_LIST)} por {place}", "POLITICAL_PARTY", None

    def alternative_names(self, name: str) -> list[str]:
        count = 0 if self.rng.random() >= 0.35 else self.rng.choice([1, 1, 2])
        names: list[str] = []
        while len(names) < count:
            r = self.rng.random()
            words = [
                word
                for word in LEGAL_SUFFIX.sub("", name).split()
                if len(word) > 2 and "." not in word
            ]
            if r < 0.35 and len(words) >= 3:
                candidate = "".join(word[0] for word in words).upper()
            elif r < 0.60:
                candidate = self.brand()
            elif r < 0.85 and LEGAL_SUFFIX.search(name):
                candidate = LEGAL_SUFFIX.sub("", name)
            elif name.startswith("Ayuntamiento de "):
                candidate = "Ajuntament de " + name.removeprefix("Ayuntamiento de ")
            else:
                candidate = f"{self.brand()} {self.rng.choice(REGIONAL)}"
            if candidate != name and candidate not in names:
                names.append(candidate)
        return names


def _uuid(rng: random.Random) -> uuid.UUID:
    return uuid.UUID(int=rng.getrandbits(128), version=4)


def company_count(conn: psycopg.Connection) -> int:
    return conn.execute("SELECT count(*) FROM directory_company").fetchone()[0]


@dataclass
class Rows:
    companies: list[tuple]
    logos: list[tuple]
    alternative_names: int


def generate(companies: int, seed: int) -> Rows:
    """The rows of `companies` synthetic companies and their logos, in COPY column order."""
    rows = Rows(companies=[], logos=[], alternative_names=0)
    for _ in company_rows(companies, seed, rows):
        pass
    return rows


def company_rows(companies: int, seed: int, rows: Rows) -> Iterator[tuple]:
    """generate()'s company rows one at a time, each added to `rows` with its logos as it
    is made: COPY takes each as it comes, so PostgreSQL works on one core while Python
    makes the next rows on the other."""
    rng = random.Random(seed)
    names = NameMaker(rng)
    now = datetime.now(UTC)
    sector_ids = {slug: index for index, (slug, _) in enumerate(SECTORS, start=1)}
    type_sector = {kind: sector_ids[slug] for kind, slug in TYPES.items()}
    institution_sector = {
        "PUBLIC_BODY": sector_ids["administracion-publica"],
        "NONPROFIT": sector_ids["ong-fundaciones"],
        "SPORTS_CLUB": sector_ids["deportes"],
        "EDUCATION": sector_ids["educacion"],
        "MEDIA": sector_ids["medios"],
        "POLITICAL_PARTY": sector_ids["partidos-politicos"],
    }
    slugs: dict[str, int] = {}
    for _ in range(companies):
        name, entity_type, kind = names.company()
        alternative = names.alternative_names(name)
        rows.alternative_names += len(alternative)
        if rng.random() < 0.05:
            sector = None
        elif kind is None:
            sector = institution_sector[entity_type]
        elif rng.random() < 0.8:
            sector = type_sector[kind]
        else:
            sector = rng.randint(1, len(SECTORS))
        base = slugify(name)
        slugs[base] = slugs.get(base, 0) + 1
        slug = base if slugs[base] == 1 else f"{base}-{slugs[base]}"
        company_id = _uuid(rng)
        short_name = LEGAL_SUFFIX.sub("", name)
        # Logos: the current one first, then 0-2 historical ones, sometimes a product logo.
        extra = rng.choices([0, 1, 2], [0.58, 0.34, 0.08])[0]
        current_id = _uuid(rng)
        logos: list[tuple] = [(current_id, short_name, True, False, None, None, None)]
        era_to = rng.randint(2005, 2022)
        for _ in range(extra):
            era_from = era_to - rng.randint(4, 25)
            label = f"{era_from}-{era_to}"
            title = f"{short_name} ({label})"
            logos.append((_uuid(rng), title, False, False, era_from, era_to, label))
            era_to = era_from - 1
        if rng.random() < 0.04:
            logos.append((_uuid(rng), f"{names.brand()} de {short_name}", False, True, *[None] * 3))
        for index, (logo_id, title, current, product, era_from, era_to, label) in enumerate(logos):
            palette = [f"#{rng.getrandbits(24):06x}" for _ in range(rng.randint(1, 4))]
            rows.logos.append(
                (
                    *(logo_id, f"{slug}-{index + 1}", title, company_id, current, product),
                    *(
                        era_from,
                        era_to,
                        label,
                        None,
                        palette,
                        rng.randint(0, 5000),
                        None,
                        now,
                        now,
                        False,
                    ),
                )
            )
        website = f"https://www.{base[:40]}.es" if rng.random() < 0.4 else None
        founded = str(rng.randint(1880, 2024)) if rng.random() < 0.6 else None
        province = names.province() if rng.random() < 0.92 else None
        location = rng.choice(PLACES) if rng.random() < 0.5 else None
        row = (
            *(company_id, slug, name, alternative, entity_type, rng.random() < 0.1, sector),
            *(province, None, website, location, founded, current_id, now, now),
        )
        rows.companies.append(row)
        yield row


COMPANY_COLUMNS = (
    "id, slug, name, alternative_names, entity_type, is_verified, sector_id, province,"
    " about, website, location, founded_year, current_logo_id, created_at, updated_at"
)
COMPANY_TYPES = [
    *("uuid", "text", "text", "text[]", "text", "bool", "int8", "text"),
    *("text", "text", "text", "text", "uuid", "timestamptz", "timestamptz"),
]
LOGO_COLUMNS = (
    "id, slug, title, company_id, is_current, is_product, era_from, era_to, era_label,"
    " description, color_palette, download_count, preview, created_at, updated_at,"
    " preview_pending"
)
LOGO_TYPES = [
    *("uuid", "text", "text", "uuid", "bool", "bool", "int2", "int2", "text"),
    *("text", "text[]", "int4", "text", "timestamptz", "timestamptz", "bool"),
]
# Chunks of the companies, two connections copying them: enough for both to stay busy.
COPY_CHUNKS = 8
TABLES = ("directory_sector", "directory_company", "directory_logo")
# The lexicon, which the catalogue's triggers only ever add to: emptied with the catalogue,
# so that a load learns every word as it would into a fresh database.
LEXICON = (
    "directory_search_word",
    "directory_search_variant",
    "directory_search_near",
    "directory_search_reach",
)
# Kept by triggers on the catalogue (directory/sql/).
SEARCH_TABLES = (
    "directory_company_tally",
    "directory_company_summary",
    "directory_company_fulltext",
    "directory_search_gram",
    "directory_search_gram_total",
    "directory_search_posting",
    "directory_search_word",
    "directory_search_variant",
    "directory_search_near",
    "directory_search_reach",
)


def vacuum_analyze(
    conn: psycopg.Connection, tables: Iterable[str] = TABLES + SEARCH_TABLES
) -> None:
    """Fresh statistics, visibility maps and flushed GIN pending lists."""
    previous_autocommit = conn.autocommit
    conn.autocommit = True
    try:
        for table in tables:
            conn.execute(f"VACUUM (ANALYZE) {table}")
    finally:
        conn.autocommit = previous_autocommit


def _copy(conn: psycopg.Connection, table: str, columns: str, types: list[str], rows) -> None:
    with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


FUNCTION_TIMES = "SELECT funcname, self_time, calls FROM pg_stat_xact_user_functions"

# The statement triggers a load fills in bulk instead, after the rows are in: the tables
# they keep are independent of each other, so two connections fill them at once, each
# calling what the triggers call. The lexicon learns names and logo titles in one call,
# then "about" texts: the same words, variants and lists as the triggers' order (names,
# "about", titles), since a word named anywhere is named and every word's list is whole,
# but the titles' few new words join the lexicon's one bulk computation of lists instead
# of a second, per-word one.
BULK_TRIGGERS = {
    "directory_company": (
        "directory_company_fulltext_insert",
        "directory_company_search_insert",
        "directory_company_summary_insert",
    ),
    "directory_logo": (
        "directory_company_summary_logo_insert",
        "directory_logo_search_insert",
    ),
}
BULK_LEXICON = [
    "SELECT directory_search_learn(ARRAY(SELECT t.text FROM directory_company n,"
    " unnest(ARRAY[n.name] || n.alternative_names) AS t(text)) || ARRAY(SELECT n.title"
    " FROM directory_logo n), true)",
    "SELECT directory_search_learn(ARRAY(SELECT n.about FROM directory_company n), false)",
]
# What each row gives apart from the lexicon, which takes longer.
BULK_ROWS = [
    # Given ids, grams_add also fills the postings: the documents read once a kind.
    "SELECT directory_search_grams_add('company', array_agg(search_doc), array_agg(true),"
    " array_agg(1), array_agg(id)) FROM directory_company",
    "SELECT directory_company_tally_add(array_agg(sector_id), array_agg(province_fold),"
    " array_agg(1)) FROM directory_company",
    "SELECT directory_search_grams_add('logo', array_agg(search_doc), array_agg(is_current),"
    " array_agg(1), array_agg(id)) FROM directory_logo",
    "SELECT directory_company_fulltext_refresh(ARRAY(SELECT c.id FROM directory_company c))",
    "SELECT directory_company_summaries_refresh(ARRAY(SELECT c.id FROM directory_company c))",
]


def _bulk_triggers(conn: psycopg.Connection, action: str) -> None:
    for table, triggers in BULK_TRIGGERS.items():
        for trigger in triggers:
            conn.execute(f"ALTER TABLE {table} {action} TRIGGER {trigger}")


def _autovacuum(conn: psycopg.Connection, action: str) -> None:
    """Autovacuum off for the load, on again after its own VACUUM (ANALYZE): each chunk's
    commit would start it on tables still growing, which it scans again and again (at
    1,000,000, workers of minutes beside the load), and the load vacuums them all anyway."""
    for table in TABLES + SEARCH_TABLES:
        conn.execute(f"ALTER TABLE {table} {action}")


def _transaction(work: list[str] | Callable) -> Callable[[psycopg.Connection], list[tuple]]:
    """Runs `work` (statements, or a function of the connection) in one transaction; its
    SQL functions' time (track_functions)."""

    def run(conn: psycopg.Connection) -> list[tuple]:
        with conn.transaction():
            conn.execute("SET LOCAL maintenance_work_mem = '256MB'")
            # Sorts and hashes of a million rows (words' variants, correction
            # candidates): in memory, not in batches on disk.
            conn.execute("SET LOCAL work_mem = '256MB'")
            if callable(work):
                work(conn)
            else:
                for statement in work:
                    conn.execute(statement)
            return conn.execute(FUNCTION_TIMES).fetchall()

    return run


def _at_once(conn: psycopg.Connection, first: Callable, second: Callable) -> list:
    """first(conn) and second() on a connection of its own to the same database, at once.
    The other connection is closed before this returns, so its server process's CPU is
    among the postmaster's reaped children (backend_cpu)."""
    tracking = conn.execute("SHOW track_functions").fetchone()[0]
    with psycopg.connect(conn.info.dsn, autocommit=True) as other, ThreadPoolExecutor(1) as pool:
        other.execute(f"SET track_functions = '{tracking}'")
        process = Path(f"/proc/{other.info.backend_pid}")
        elsewhere = pool.submit(second, other)
        done = [first(conn), elsewhere.result()]
    gone = time.perf_counter() + 5  # until the postmaster has reaped it, its CPU counted
    while process.exists() and time.perf_counter() < gone:
        time.sleep(0.01)
    return done


def backend_cpu(conn: psycopg.Connection) -> float:
    """Seconds of CPU the connection's server process has used (a loopback server, Linux),
    with those of the processes the server has started and reaped since it began, the
    parallel workers of the load's statements among them: on a shared machine the figure
    the wall clock hides. On a cluster of the benchmark's own the others are autovacuum's
    workers, which a load's one transaction leaves nothing to do."""

    def used(pid: int, reaped: bool) -> tuple[float, int]:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = sum(int(value) for value in fields[11 : 15 if reaped else 13])
        return ticks / os.sysconf("SC_CLK_TCK"), int(fields[1])

    own, postmaster = used(conn.info.backend_pid, reaped=False)
    return own + used(postmaster, reaped=True)[0]


def load(
    conn: psycopg.Connection,
    companies: int,
    seed: int,
    rows: Rows | None = None,
    functions: bool = False,
) -> Generated:
    """Replace the catalogue rows with `companies` synthetic companies and their logos.

    `rows`: what generate(companies, seed) returns, when the caller has made it already
    (at 1,000,000 companies making it takes minutes and holds gigabytes); without it the
    companies are made as COPY sends them (company_rows). `functions`: also time the SQL
    functions the triggers and generated columns run, per step (track_functions, which
    needs a superuser; the timing itself costs a little).

    Indexes that no constraint owns (the trigram GIN indexes, the ordering B-trees) and
    the postings' primary key are dropped before COPY and rebuilt from their own
    definitions once the tables are filled: building an index once is much faster than
    growing it row by row.
    """
    started = time.perf_counter()
    steps: dict[str, float] = {}
    cpu: dict[str, float] = {}
    if rows is None:
        rows = Rows(companies=[], logos=[], alternative_names=0)
        company_source: Iterable[tuple] = company_rows(companies, seed, rows)
    else:
        company_source = rows.companies

    spent: dict[str, dict[str, tuple[float, int]]] = {}
    if functions:
        conn.execute("SET track_functions = 'all'")

    cpu_mark = backend_cpu(conn)

    def step(name: str, since: float, times: list | None = None) -> float:
        """Ends a step; `times`: its SQL functions' (name, ms, calls), from _transaction."""
        nonlocal cpu_mark
        steps[name] = time.perf_counter() - since
        used = backend_cpu(conn)
        cpu[name], cpu_mark = used - cpu_mark, used
        totals: dict[str, tuple[float, int]] = {}
        for function, ms, calls in times or []:
            before = totals.get(function, (0.0, 0))
            totals[function] = (before[0] + ms, before[1] + calls)
        top = sorted(totals.items(), key=lambda item: -item[1][0])[:6]
        spent[name] = {f: (round(ms / 1000, 2), n) for f, (ms, n) in top if ms >= 10}
        return time.perf_counter()

    mark = time.perf_counter()
    with conn.transaction():
        # The benchmark database is ours: CASCADE also empties variants, assets, domains.
        conn.execute(f"TRUNCATE {', '.join(TABLES + LEXICON)} CASCADE")
        # Each index's DROP and its CREATE.
        indexes = conn.execute(
            "SELECT 'DROP INDEX ' || i.indexrelid::regclass, pg_get_indexdef(i.indexrelid)"
            " FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid"
            " WHERE t.relname = ANY(%s) AND t.relnamespace = 'public'::regnamespace"
            " AND NOT i.indisunique"  # ON CONFLICT needs them
            " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)"
            # The postings' bulk INSERT has no ON CONFLICT: growing their key row by row
            # cost most of their fill.
            " UNION ALL SELECT format('ALTER TABLE %%s DROP CONSTRAINT %%I', c.conrelid::regclass,"
            " c.conname), format('ALTER TABLE %%s ADD CONSTRAINT %%I %%s', c.conrelid::regclass,"
            " c.conname, pg_get_constraintdef(c.oid)) FROM pg_constraint c"
            " WHERE c.conrelid = 'directory_search_posting'::regclass AND c.contype = 'p'",
            (list(TABLES + SEARCH_TABLES),),
        ).fetchall()
        for drop, _ in indexes:
            conn.execute(drop)
        _bulk_triggers(conn, "DISABLE")
        _autovacuum(conn, "SET (autovacuum_enabled = false)")
        sector_rows = [(i, slug, name) for i, (slug, name) in enumerate(SECTORS, start=1)]
        _copy(conn, "directory_sector", "id, slug, name", ["int8", "text", "text"], sector_rows)
        conn.execute(
            "SELECT setval(pg_get_serial_sequence('directory_sector', 'id'), %s)", (len(SECTORS),)
        )
    source = iter(company_source)
    making = threading.Lock()  # the source and rows.logos are read in company order
    made = 0  # rows.logos before the next chunk's
    drained = False  # a chunk came short: the source has no more companies
    chunk = max(1, -(-companies // COPY_CHUNKS))

    def copy_chunk(connection: psycopg.Connection) -> None:
        """The source's next chunk of companies, then their logos: the two name each other,
        so both are in the chunk's transaction."""
        nonlocal made, drained
        ids: set[uuid.UUID] = set()
        with making:
            part = (ids.add(row[0]) or row for row in itertools.islice(source, chunk))
            _copy(connection, "directory_company", COMPANY_COLUMNS, COMPANY_TYPES, part)
            drained = len(ids) < chunk
            start = made
            while made < len(rows.logos) and rows.logos[made][3] in ids:
                made += 1
        _copy(connection, "directory_logo", LOGO_COLUMNS, LOGO_TYPES, rows.logos[start:made])
        # The deferred foreign keys are checked now, with the constraints' own indexes.
        connection.execute("SET CONSTRAINTS ALL IMMEDIATE")

    def copy_chunks(connection: psycopg.Connection) -> list[tuple]:
        """Chunks until the source is spent, each its own transaction. The generated columns
        and the logos' search_doc trigger work row by row: while one connection copies a
        chunk's logos, the other copies the next chunk's companies as Python makes them, so
        that neither waits long for the other's companies nor works alone at the end."""
        times: list[tuple] = []
        while not drained:
            times += _transaction(copy_chunk)(connection)
        return times

    try:  # autovacuum back on however the load ends, after its own VACUUM when it succeeds
        try:
            times = _at_once(conn, copy_chunks, copy_chunks)
            mark = step("copy companies and logos", mark, times[0] + times[1])
            times = _at_once(conn, _transaction(BULK_LEXICON), _transaction(BULK_ROWS))
            mark = step("derived tables", mark, times[0] + times[1])
        finally:  # a load that fails leaves the tables as they were made, triggers and indexes
            _bulk_triggers(conn, "ENABLE")
            _at_once(conn, *(_transaction([sql for _, sql in indexes[i::2]]) for i in (0, 1)))
        mark = step(f"rebuild {len(indexes)} indexes", mark)
        # The tables largest first, every other one on the other connection.
        tables = conn.execute(
            "SELECT array_agg(t ORDER BY pg_total_relation_size(t::regclass) DESC)"
            " FROM unnest(%s::text[]) t",
            (list(TABLES + SEARCH_TABLES),),
        ).fetchone()[0]
        _at_once(conn, *(partial(vacuum_analyze, tables=tables[i::2]) for i in (0, 1)))
        step("vacuum analyze", mark)
    finally:
        _autovacuum(conn, "RESET (autovacuum_enabled)")
    return Generated(
        sectors=len(SECTORS),
        companies=len(rows.companies),
        logos=len(rows.logos),
        alternative_names=rows.alternative_names,
        seconds=time.perf_counter() - started,
        steps={name: round(seconds, 2) for name, seconds in steps.items()},
        cpu={name: round(seconds, 2) for name, seconds in cpu.items()},
        functions=spent,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="load the catalogue and time its steps")
    parser.add_argument("--companies", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.search_db import require_loopback

    require_loopback(args.database_url)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        generated = load(conn, args.companies, args.seed, functions=True)
    print(
        f"{generated.companies:,} companies, {generated.logos:,} logos in"
        f" {generated.seconds:.1f} s ({sum(generated.cpu.values()):.1f} s of PostgreSQL CPU),"
        f" load average {os.getloadavg()[0]:.2f}"
    )
    print(f"  {'step':<24}{'wall':>10}{'PostgreSQL CPU':>18}")
    for name, seconds in generated.steps.items():
        print(f"  {name:<24}{seconds:>8.1f} s{generated.cpu.get(name, 0.0):>16.1f} s")
        for function, (own, calls) in generated.functions.get(name, {}).items():
            print(f"      {function:<40}{own:>8.1f} s own, {calls:,} calls")


if __name__ == "__main__":
    main()
