"""The hand-written reads against the ORM in one run, each as a share of the whole request:
the detail reads (a written-out statement that has PostgreSQL build the answer as JSON,
shown by api/rows.py, against the ORM's prefetches shown by DRF), and the
download's lookup of a logo and its main file (one written-out statement against the ORM).

Usage (from the project root, with the project venv):

    .venv/bin/python bench/details.py [--rounds 5] [--per-round 200]

It starts the project-local PostgreSQL (BENCH_POSTGRES_PORT, its own database
`logodir_bench_details`) and the benchmark Redis through scripts/lib.sh, and fills it
(unless it holds that many already) with --per-round companies of two logos each, each
logo with two files and a variant with a file of its own, as an import leaves them.
Then, in this process (no server: DJANGO_SETTINGS_MODULE=bench.settings, rate limits
off), for the same companies and logos in rounds that alternate the ways:

  * request: GET /v1/public/companies/{slug} and /v1/public/logos/{id} through
    Django's test client, every middleware and the view (the statement's way);
  * statement: company_detail_row / logo_detail_row and the output serializer;
  * ORM: company_find / logo_find and the detail serializer, as DRF shows instances;

and for the download, POST /v1/public/logos/{id}/download {"format": "svg"} with a PRO
account's token (request), logo_main_file (statement), and logo_for_download then
download_asset, the view's way for any other choice (ORM).

A request served by gunicorn costs more than the in-process request here (the socket,
the worker): the share printed is an upper bound of the share of a served request.
Output: a table on stdout and bench/results/details-<date>.json.
"""

import argparse
import io
import logging
import os
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_env, manage, start_servers, write_results

DATABASE = "logodir_bench_details"
SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">'
    b'<rect width="100" height="50" fill="#C8102E"/></svg>'
)


def prepare(companies: int) -> None:
    """`companies` companies with two logos each, the current one first; every logo with
    two files and a variant with a file of its own, as an import leaves them. Through
    the app's services, as bench/downloads.py fills its database."""
    from directory.catalogue.models import Company, Logo, Variant, VariantKind
    from directory.editing.services import (
        asset_attach,
        derived_deferred,
        file_store,
        logo_make_current,
    )

    if Company.objects.filter(slug__startswith="details-").count() == companies:
        return
    Company.objects.filter(slug__startswith="details-").delete()
    picture = io.BytesIO()
    Image.new("RGBA", (64, 32), (200, 16, 46, 255)).save(picture, format="PNG")
    svg, png = file_store(data=SVG), file_store(data=picture.getvalue())
    with derived_deferred():  # no previews or colours: the reads do not need them
        for n in range(companies):
            company = Company.objects.create(slug=f"details-{n}", name=f"Details {n}")
            for era in (1990, 2020):
                logo = Logo.objects.create(
                    company=company, slug=f"details-{n}-{era}", title=f"Details {era}", era_from=era
                )
                variant = Variant.objects.create(
                    logo=logo, key="h", kind=VariantKind.TYPE, name="Horizontal"
                )
                for stored, variant_of in ((svg, None), (png, None), (svg, variant)):
                    asset_attach(logo=logo, variant=variant_of, stored=stored)
            logo_make_current(logo=logo)


def pro_token() -> str:
    """A read:logos token of a PRO account, whose downloads are not limited."""
    from accounts.models import ApiToken, Plan, Scope
    from accounts.services import token_issue, user_ensure

    user = user_ensure(email="details@bench.invalid", plan=Plan.PRO)
    ApiToken.objects.filter(user=user).delete()
    return token_issue(user=user, name="details", scopes=[Scope.READ_LOGOS]).secret


def timed(call, items) -> float:
    """Milliseconds per item of `call(item)`."""
    started = time.perf_counter()
    for item in items:
        call(item)
    return (time.perf_counter() - started) * 1000 / len(items)


def measure(rounds: int, per_round: int) -> dict[str, dict[str, float]]:
    from django.test import Client

    from directory.catalogue.models import Company, Logo
    from directory.catalogue.selectors import (
        company_detail_row,
        company_find,
        download_asset,
        logo_detail_row,
        logo_find,
        logo_for_download,
        logo_main_file,
    )
    from directory.catalogue.serializers import (
        CompanyDetailOutputSerializer,
        LogoDetailOutputSerializer,
    )
    from directory.catalogue.shapes import CompanyDetailSerializer, LogoDetailSerializer

    companies = list(
        Company.objects.filter(slug__startswith="details-").values_list("slug", flat=True)
    )[:per_round]
    logo_ids = [
        str(pk)
        for pk in Logo.objects.filter(company__slug__in=companies).values_list("pk", flat=True)
    ][:per_round]
    client = Client(HTTP_HOST="127.0.0.1")
    logging.getLogger("config.request").setLevel(logging.WARNING)  # a line per request

    def request(path: str) -> None:
        response = client.get(path)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path} answered {response.status_code}")

    shapes = {
        "company": (
            "/v1/public/companies/{}",
            companies,
            lambda slug: company_detail_row(slug=slug),
            CompanyDetailOutputSerializer,
            lambda slug: company_find(slug=slug),
            CompanyDetailSerializer,
        ),
        "logo": (
            "/v1/public/logos/{}",
            logo_ids,
            lambda logo_id: logo_detail_row(id_or_slug=logo_id),
            LogoDetailOutputSerializer,
            lambda logo_id: logo_find(id_or_slug=logo_id),
            LogoDetailSerializer,
        ),
    }
    ways = {}
    for shape, (path, keys, row, output, find, detail) in shapes.items():

        def statement(key, row=row, output=output):
            return output({"data": row(key)}).data["data"]

        def orm(key, find=find, detail=detail):
            return detail(find(key)).data

        # Both ways give the same answer (tests/directory/catalogue/test_rows.py holds it in
        # general).
        for key in keys[:20]:
            assert statement(key) == orm(key), key
        ways[shape] = {
            "request": (lambda key, path=path: request(path.format(key)), keys),
            "statement": (statement, keys),
            "orm": (orm, keys),
        }
    authorization = f"Bearer {pro_token()}"

    def download(logo_id: str) -> None:
        response = client.post(
            f"/v1/public/logos/{logo_id}/download",
            {"format": "svg"},
            content_type="application/json",
            HTTP_AUTHORIZATION=authorization,
        )
        if response.status_code != 200:
            raise RuntimeError(f"download of {logo_id} answered {response.status_code}")

    def main_file_statement(logo_id: str) -> tuple:
        logo, asset = logo_main_file(id_or_slug=logo_id, file_format="SVG")
        return logo.pk, logo.company.slug, asset.pk, asset.file.name

    def main_file_orm(logo_id: str) -> tuple:
        logo = logo_for_download(id_or_slug=logo_id)
        asset = download_asset(logo=logo, file_format="SVG", variant=None)
        return logo.pk, logo.company.slug, asset.pk, asset.file.name

    for key in logo_ids[:20]:
        assert main_file_statement(key) == main_file_orm(key), key
    ways["download"] = {
        "request": (download, logo_ids),
        "statement": (main_file_statement, logo_ids),
        "orm": (main_file_orm, logo_ids),
    }
    for by_way in ways.values():  # warm-up
        for call, items in by_way.values():
            timed(call, items[:20])
    times = {shape: {way: [] for way in by_way} for shape, by_way in ways.items()}
    for _ in range(rounds):
        for shape, by_way in ways.items():
            for way, (call, items) in by_way.items():
                times[shape][way].append(timed(call, items))
    return {
        shape: {way: sorted(values)[len(values) // 2] for way, values in by_way.items()}
        for shape, by_way in times.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-round", type=int, default=200)
    args = parser.parse_args()

    database_url = start_servers(DATABASE)
    env = django_env(database_url=database_url, redis_db=3, port=8000)
    manage(env, "migrate", "--noinput", "-v", "0")
    os.environ.update(env)
    import django

    django.setup()
    prepare(args.per_round)

    medians = measure(args.rounds, args.per_round)
    print(f"\n{'detail':<8} {'request ms':>11} {'statement':>10} {'ORM':>8} {'ORM - stmt':>11}")
    shares = {}
    for shape, figures in medians.items():
        added = figures["orm"] - figures["statement"]
        shares[shape] = added / figures["request"]
        print(
            f"{shape:<8} {figures['request']:>11.3f} {figures['statement']:>10.3f} "
            f"{figures['orm']:>8.3f} {added:>+11.3f}  ({shares[shape]:+.0%} of the request)"
        )
    write_results("details", {"args": vars(args), "median_ms": medians, "orm_added": shares})
    return 0


if __name__ == "__main__":
    sys.exit(main())
