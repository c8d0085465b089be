"""The website's catalogue pages: where the API's `url` fields point.

Search is the API's (directory.search.selectors.company_page and directory.search.related), and a
download is the API's grant (directory.downloads.services) on the WEB channel: one quota, one
ledger, one de-duplication, one kind of signed link.
"""

import math
from datetime import timedelta

import urllib3
from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.models import Source
from api.client_ip import client_ip
from directory.catalogue.selectors import (
    company_find,
    download_asset,
    logo_find,
    logo_for_download,
    logo_link_examples,
    preview_url,
)
from directory.catalogue.shapes import sorted_formats
from directory.colors.contrast import swatches
from directory.downloads.models import DownloadChannel
from directory.downloads.services import (
    DownloadLimitReached,
    download_filename,
    download_grant,
    download_link,
    download_quota,
    download_subject,
)
from directory.editing.forms import DownloadForm
from directory.search import related
from directory.search import selectors as search
from website.csrf import REFUSAL, csrf_refused, renders_csrf_refusal

PAGE_SIZE = 24
MAX_PAGE = 500  # as the API's page parameter
# The session key of a granted download, shown once by the logo page that follows.
READY_KEY = "download_ready"


def _page_number(text: str | None) -> int:
    try:
        return min(max(int(text or 1), 1), MAX_PAGE)
    except ValueError:
        return 1


def _with_preview(rows: list[dict]) -> list[dict]:
    for row in rows:
        logo = row.get("current_logo")
        row["preview_url"] = preview_url(logo["preview"]) if logo else None
    return rows


def home(request):
    term = search.clean_term(request.GET.get("q", ""))[:100]
    number = _page_number(request.GET.get("page"))
    rows, total, close = related.company_page_related(
        term=term or None,
        sector=None,
        province=None,
        page=number,
        offset=(number - 1) * PAGE_SIZE,
        limit=PAGE_SIZE,
    )
    pages = min(math.ceil(total / PAGE_SIZE), MAX_PAGE)
    context = {
        "term": term,
        "companies": _with_preview(rows),
        "related": _with_preview(close),
        "total": total,
        "number": number,
        "pages": pages,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
    }
    return render(request, "directory/home.html", context)


def company_page(request, slug: str):
    company = company_find(slug=slug)
    if company is None:
        raise Http404
    logos = [(logo, sorted_formats(logo.assets.all())) for logo in company.logos.all()]
    current = next((logo for logo, _ in logos if logo.is_current), None)
    colours = swatches(current.color_palette) if current and current.colors_computed_at else []
    return render(
        request,
        "directory/company.html",
        {"company": company, "logos": logos, "current": current, "swatches": colours},
    )


def _subject(request):
    user = request.user if request.user.is_authenticated else None
    return download_subject(user=user, ip=client_ip(request))


def _logo_page(request, logo, *, status: int = 200, problem: str | None = None):
    reading = download_quota(subject=_subject(request), logo=logo)
    ready = request.session.pop(READY_KEY, None) if status == 200 else None
    if ready is not None and ready.get("logo") != str(logo.pk):
        ready = None
    variants = {variant.pk: variant for variant in logo.variants.all()}
    files = [(asset, variants.get(asset.variant_id)) for asset in logo.assets.all()]
    context = {
        "logo": logo,
        "formats": sorted_formats(logo.assets.all()),
        "files": files,
        "quota": reading.quota,
        "repeat_until": reading.repeat_until,
        "blocked": reading.blocked,
        "ready": ready,
        "problem": problem,
        "swatches": swatches(logo.color_palette) if logo.colors_computed_at else [],
    }
    return render(request, "directory/logo.html", context, status=status)


def logo_page_refused(request, logo):
    """The logo page again for one of its forms that the CSRF check refused."""
    return _logo_page(request, logo, status=403, problem=REFUSAL)


def logo_page(request, slug: str):
    logo = logo_find(id_or_slug=slug)
    if logo is None:
        raise Http404
    return _logo_page(request, logo)


@renders_csrf_refusal
@require_POST
def logo_download(request, slug: str):
    """One file of the logo through the API's grant; then the logo page (POST, redirect,
    GET) shows the link once and starts it. A second click on the same logo within 12
    hours is a free repeat, so a double click counts once."""
    logo = logo_for_download(id_or_slug=slug)
    if logo is None:
        raise Http404
    if csrf_refused(request):
        return logo_page_refused(request, logo_find(id_or_slug=slug))
    form = DownloadForm(request.POST)
    asset = None
    if form.is_valid():
        asset = download_asset(
            logo=logo, file_format=None, variant=None, asset_id=form.cleaned_data["asset"]
        )
    if asset is None:
        problem = gettext("This logo has no such file. Choose one of the buttons below.")
        return _logo_page(request, logo_find(id_or_slug=slug), status=400, problem=problem)
    try:
        grant, _ = download_grant(
            subject=_subject(request),
            logo=logo,
            asset=asset,
            channel=DownloadChannel.WEB,
            source=Source.API,  # the contract's default origin; the channel says WEB
        )
    except DownloadLimitReached:
        problem = gettext("You have no downloads left for now: nothing was downloaded.")
        return _logo_page(request, logo_find(id_or_slug=slug), status=429, problem=problem)
    except (urllib3.exceptions.HTTPError, FileNotFoundError):
        problem = gettext(
            "The file store is not answering. Nothing was counted: try again in a minute."
        )
        return _logo_page(request, logo_find(id_or_slug=slug), status=503, problem=problem)
    expires_at = grant.created_at + timedelta(seconds=settings.DOWNLOAD_LINK_SECONDS)
    filename = download_filename(asset)
    request.session[READY_KEY] = {
        "logo": str(logo.pk),
        "url": download_link(asset=asset, filename=filename, expires_at=expires_at),
        "filename": filename,
        "counted": grant.counted,
    }
    if not grant.counted:
        messages.info(request, gettext("You had downloaded this logo already: it did not count."))
    return redirect("logo-page", slug=logo.slug)


# The example page of the Logo Link: a domain no company uses, to show the monogram.
EXAMPLE_UNKNOWN_DOMAIN = "empresa-desconocida.es"


def logo_link_example(request):
    """A page that embeds a few logos through the Logo Link, following the reader's
    light or dark theme and side by side in both (docs/api.md, Logo Link)."""
    examples = logo_link_examples(limit=6)
    return render(
        request,
        "examples/logo_link.html",
        {"examples": examples, "unknown": EXAMPLE_UNKNOWN_DOMAIN, "first": examples[:1]},
    )
