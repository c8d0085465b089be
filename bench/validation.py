"""What validating a request's input and showing its answer cost in Python, per call.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/validation.py [--calls 20000]

No server and no database: it times api.inputs.parse and the output serializers
in this process, the way the views call them, against what DRF does when a serializer
is made for each request (`Serializer(data=...).is_valid()`, `Serializer(body).data`).
Every input below is valid, as nearly every request's is. It takes a few seconds; run
it under `flock /work/bench.lock` like the other benchmarks.

The end-to-end figures (bench/search.py, bench/downloads.py, bench/img.py) decide; this
one says where the time of the request's Python goes (docs/performance.md, Query
validation).
"""

import argparse
import os
import sys
import timeit
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def cases() -> list[tuple[str, object, object]]:
    """(what, the shared path, DRF's per-request path), each a callable of no arguments."""
    from django.http import QueryDict

    from api.inputs import parse
    from directory.catalogue.models import Asset
    from directory.downloads.serializers import (
        LogoDownloadInputSerializer,
        LogoDownloadOutputSerializer,
        download_body,
    )
    from directory.downloads.services import Quota
    from directory.images.serializers import LogoImageInputSerializer
    from directory.search.serializers import CompanySearchInputSerializer

    def fresh(serializer_class, data):
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    search = QueryDict("q=caf%C3%A9s+sol&sector=banca&page=2&pageSize=20")
    image = QueryDict("size=256&theme=dark&format=webp")
    download = {"format": "svg"}
    asset = Asset(id=uuid.uuid4(), format="SVG", size=1234, content_type="image/svg+xml")
    quota = Quota(unlimited=False, used=1, limit=3, remaining=2, reset_at=datetime.now(UTC))
    now = datetime.now(UTC)
    link = {"url": "http://x/y", "expiresIn": 3600, "expiresAt": now, "filename": "a.svg"}
    body = {"data": {**link, "asset": asset}, "quota": quota}
    return [
        (
            "GET /companies query",
            lambda: parse(CompanySearchInputSerializer, search),
            lambda: fresh(CompanySearchInputSerializer, search),
        ),
        (
            "GET /img options",
            lambda: parse(LogoImageInputSerializer, image),
            lambda: fresh(LogoImageInputSerializer, image),
        ),
        (
            "POST /download body",
            lambda: parse(LogoDownloadInputSerializer, download),
            lambda: fresh(LogoDownloadInputSerializer, download),
        ),
        (
            "POST /download answer",
            lambda: download_body(
                url=link["url"],
                expires_in=3600,
                expires_at=now,
                filename="a.svg",
                asset=asset,
                quota=quota,
            ),
            lambda: LogoDownloadOutputSerializer(body).data,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("SECRET_KEY", "bench")
    import django

    django.setup()
    print(f"{'':24} {'shared µs':>10} {'per request µs':>15} {'ratio':>6}")
    for what, shared, per_request in cases():
        assert shared() == per_request(), what  # the same answer either way
        timings = []
        for call in (shared, per_request):
            best = min(timeit.repeat(call, number=args.calls, repeat=5))
            timings.append(best / args.calls * 1e6)
        print(f"{what:24} {timings[0]:10.1f} {timings[1]:15.1f} {timings[1] / timings[0]:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
