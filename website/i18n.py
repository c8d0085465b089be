"""The website in Spanish or English; everything else in English.

A page is in the language the visitor chose with the switch on every page (Django's
set_language view keeps it in a cookie), else the first of LANGUAGES that their
browser's Accept-Language asks for, else the first of LANGUAGES: Spanish. The public
API (its error messages too), the staff admin, the developers' example pages and the
commands stay in English, LANGUAGE_CODE, whatever the browser asks.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from api.http import weighted_values
from api.middleware import PUBLIC_PREFIX

ENGLISH_ONLY = (PUBLIC_PREFIX, "/admin/", "/examples/")


def website_language(request: HttpRequest) -> str:
    """The language code (one of LANGUAGES) to show a website page in."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    asked = weighted_values(request.headers.get("Accept-Language", ""))
    for tag in ([chosen] if chosen else []) + [tag for tag in asked if tag != "*"]:
        try:
            return translation.get_supported_language_variant(tag)
        except LookupError:
            continue
    return settings.LANGUAGES[0][0]


class LanguageMiddleware:
    """Activates the request's language; in Django's LocaleMiddleware's place."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        website = not request.path.startswith(ENGLISH_ONLY)
        language = website_language(request) if website else settings.LANGUAGE_CODE
        # Always activated: the thread may still hold the last request's language.
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if website:
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", language)
        return response
