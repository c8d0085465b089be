"""bench/load.py's data: its database (a copy of bench/search.py's catalogue), the
accounts, tokens, palettes and files it prepares through the app's services, the plan of
what the load sends, and the audit of the database after the run."""

import os
import random
import time

import psycopg

from bench import catalogue
from bench.common import POSTGRES_PORT, django_env, manage, start_servers
from bench.downloads import AUDIT_SQL
from bench.mix import MixBuilder
from bench.search_db import prewarm, read_sample

SOURCE_DATABASE = "logodir_bench"
DATABASE = "logodir_load"
REDIS_PORT = int(os.environ.get("BENCH_LOAD_REDIS_PORT", "56383"))
COMPANIES = 100_000
SEED = 1
EMAIL_DOMAIN = "load.bench.invalid"
FREE_ACCOUNTS = PRO_ACCOUNTS = 100
PALETTE_ACCOUNTS = 10
PREFILLED_PALETTES = 97
READ_ADDRESSES = 5000
# Few enough that most of them reach their quota within a minute: refusals are part of the mix.
DOWNLOAD_ADDRESSES = 10
DOWNLOAD_FREE_ACCOUNTS = 10
WARM_UP_REQUESTS = 40  # per app process, before the measured run
PALETTE_AUDIT_SQL = """
    SELECT count(*) FROM (
      SELECT owner_id FROM palettes_palette GROUP BY owner_id HAVING count(*) > 100) over_limit"""
SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
    b'<rect width="120" height="60" fill="#0057B8"/><circle cx="60" cy="30" r="20" fill="#FFD700"/>'
    b"</svg>"
)


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:{POSTGRES_PORT}/{name}"


def ensure_database() -> str:
    """logodir_load, copied from logodir_bench (built first if needed) unless it exists."""
    start_servers(SOURCE_DATABASE, redis_port=REDIS_PORT)
    with psycopg.connect(database_url("postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone()
    if exists:
        with psycopg.connect(database_url(DATABASE)) as conn:
            if catalogue.company_count(conn) == COMPANIES:
                return database_url(DATABASE)
    print(f"==> copying {SOURCE_DATABASE} to {DATABASE}")
    source_env = django_env(
        database_url=database_url(SOURCE_DATABASE), redis_db=0, port=8000, redis_port=REDIS_PORT
    )
    manage(source_env, "migrate", "--noinput")
    with psycopg.connect(database_url(SOURCE_DATABASE), autocommit=True) as conn:
        if catalogue.company_count(conn) != COMPANIES:
            print(f"==> building the {COMPANIES:,}-company catalogue (bench/catalogue.py)")
            catalogue.load(conn, COMPANIES, SEED)
    with psycopg.connect(database_url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}"')
        # Fails while another session is connected to the source: nothing is half-copied.
        conn.execute(f'CREATE DATABASE "{DATABASE}" TEMPLATE "{SOURCE_DATABASE}"')
    return database_url(DATABASE)


def prepare(env: dict[str, str], download_logos: int) -> dict:
    """Files, accounts, tokens and palettes through the app's services; what the plan needs."""
    os.environ.update(env)
    import django

    django.setup()
    from django.db import connection

    from accounts.models import ApiToken, Plan, Scope
    from accounts.services import token_issue, user_ensure
    from directory.catalogue.models import Asset, Company, Logo
    from directory.downloads.models import Download
    from directory.editing.services import asset_attach, file_store
    from palettes.models import Palette

    Download.objects.all().delete()
    Logo.objects.filter(download_count__gt=0).update(download_count=0)

    wanted = list(
        Company.objects.filter(current_logo__isnull=False)
        .order_by("slug")
        .values_list("current_logo_id", flat=True)[:download_logos]
    )
    with_file = set(Asset.objects.filter(logo_id__in=wanted).values_list("logo_id", flat=True))
    missing = [pk for pk in wanted if pk not in with_file]
    if missing:
        print(f"==> attaching an SVG file to {len(missing):,} logos (kept for later runs)")
        stored = file_store(data=SVG)
        started = time.monotonic()
        for logo in Logo.objects.filter(pk__in=missing):
            asset_attach(logo=logo, variant=None, stored=stored)
        print(f"    {time.monotonic() - started:.1f} s")

    users = f"@{EMAIL_DOMAIN}"
    Palette.objects.filter(owner__email__endswith=users).delete()
    ApiToken.objects.filter(user__email__endswith=users).delete()

    def tokens(prefix: str, count: int, plan: str, scopes: list[str]) -> list[tuple]:
        issued = []
        for n in range(count):
            user = user_ensure(email=f"{prefix}{n}{users}", plan=plan)
            issued.append((user, token_issue(user=user, name="load", scopes=scopes).secret))
        return issued

    free = tokens("free", FREE_ACCOUNTS, Plan.FREE, [Scope.READ_LOGOS])
    pro = tokens("pro", PRO_ACCOUNTS, Plan.PRO, [Scope.READ_LOGOS])
    palette_accounts = tokens(
        "palettes", PALETTE_ACCOUNTS, Plan.FREE, [Scope.READ_PALETTES, Scope.WRITE_PALETTES]
    )
    rng = random.Random(SEED)
    palettes: dict[str, list[str]] = {}
    for n, (user, secret) in enumerate(palette_accounts):
        # Half start near the limit: the run's creates reach it, several at a time.
        count = PREFILLED_PALETTES if n % 2 == 0 else 0
        made = Palette.objects.bulk_create(
            Palette(
                owner=user,
                name=f"Prefilled {index}",
                type="PALETTE",
                colors=[f"#{rng.randrange(16**6):06X}" for _ in range(3)],
            )
            for index in range(count)
        )
        palettes[secret] = [str(palette.id) for palette in made]
    download_ids = [str(pk) for pk in wanted]
    connection.close()
    print(
        f"==> {len(download_ids):,} logos with a file; {len(free)} FREE, {len(pro)} PRO and"
        f" {len(palette_accounts)} palette accounts with a token each"
    )
    return {
        "free_tokens": [secret for _, secret in free],
        "pro_tokens": [secret for _, secret in pro],
        "palettes": palettes,
        "download_logos": download_ids,
    }


def build_plan(url: str, prepared: dict, searches: int) -> dict:
    """Everything the load sends: lists of strings, and palette ids by token."""
    rng = random.Random(SEED)
    with psycopg.connect(url, autocommit=True) as conn:
        prewarm(conn)
        sample = read_sample(conn)
        slugs = [row[0] for row in conn.execute("SELECT slug FROM directory_company")]
        logos = list(conn.execute("SELECT id::text, slug FROM directory_logo"))
    print(f"==> building {searches:,} distinct company and {searches:,} logo searches")
    builder = MixBuilder(sample, rng)
    company = [
        query.path for query in builder.company_pool(searches + 2 * WARM_UP_REQUESTS).queries
    ]
    logo = [query.path for query in builder.logo_pool(searches + 2 * WARM_UP_REQUESTS).queries]
    return {
        "warm_up": company[: 2 * WARM_UP_REQUESTS] + logo[: 2 * WARM_UP_REQUESTS],
        "company_searches": company[2 * WARM_UP_REQUESTS :],
        "logo_searches": logo[2 * WARM_UP_REQUESTS :],
        "company_slugs": rng.sample(slugs, 20_000),
        "logo_refs": [rng.choice(pair) for pair in rng.sample(logos, 20_000)],
        "addresses": [
            f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
            for n in range(1, READ_ADDRESSES + 1)
        ],
        "download_addresses": [
            f"172.16.{n // 256}.{n % 256}" for n in range(1, DOWNLOAD_ADDRESSES + 1)
        ],
        "read_tokens": prepared["free_tokens"] + prepared["pro_tokens"],
        "download_free_tokens": prepared["free_tokens"][:DOWNLOAD_FREE_ACCOUNTS],
        **prepared,
    }


def audit(url: str) -> dict[str, int]:
    with psycopg.connect(url, autocommit=True) as conn:
        checks = {name: int(conn.execute(sql).fetchone()[0]) for name, sql in AUDIT_SQL.items()}
        checks["accounts_over_100_palettes"] = int(conn.execute(PALETTE_AUDIT_SQL).fetchone()[0])
        checks["downloads_counted"] = int(
            conn.execute("SELECT count(*) FROM directory_download WHERE counted").fetchone()[0]
        )
        checks["palette_accounts_at_100"] = int(
            conn.execute(
                "SELECT count(*) FROM (SELECT owner_id FROM palettes_palette"
                " GROUP BY owner_id HAVING count(*) = 100) full_accounts"
            ).fetchone()[0]
        )
    return checks
