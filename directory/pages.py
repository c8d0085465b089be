"""The website's catalogue pages: where the API's `url` fields point."""

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from directory import search
from directory.selectors import company_find, logo_find, logo_link_examples, with_summary_fields
from directory.shapes import sorted_formats

PAGE_SIZE = 24


def home(request):
    term = search.clean_term(request.GET.get("q", ""))[:100]
    companies = with_summary_fields(search.company_search(term=term))
    page = Paginator(companies, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "directory/home.html", {"term": term, "page": page})


def company_page(request, slug: str):
    company = company_find(slug=slug)
    if company is None:
        raise Http404
    logos = [(logo, sorted_formats(logo.assets.all())) for logo in company.logos.all()]
    return render(request, "directory/company.html", {"company": company, "logos": logos})


def logo_page(request, slug: str):
    logo = logo_find(id_or_slug=slug)
    if logo is None:
        raise Http404
    formats = sorted_formats(logo.assets.all())
    return render(request, "directory/logo.html", {"logo": logo, "formats": formats})


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
