"""A browser that checks CSRF tokens as a real one does, for the tests of forms refused
by the check (website/csrf.py): no token, a forged one, in English and in Spanish."""

import re

from django.test import Client

FORGED = "Forged0Token1Forged2Token3Forged4Token5Forged6Token7Forged8Token9"
REFUSED = {
    "en": "This form has expired or was sent from another site, so nothing was done.",
    "es": "Este formulario ha caducado o se envió desde otro sitio, así que no se hizo nada.",
}


# How a form is refused (no token, a forged one) and the visitor's language.
REFUSALS = [(None, "en"), (None, "es"), (FORGED, "en"), (FORGED, "es")]


def visitor_of(language: str, user=None) -> Client:
    """A browser that checks CSRF as a real one does, with the cookie of a page it saw."""
    visitor = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        visitor.force_login(user)
    visitor.get("/")
    return visitor


def post_with(visitor: Client, path: str, data: dict, token: str | None):
    if token is not None:
        data = {**data, "csrfmiddlewaretoken": token}
    return visitor.post(path, data)


def refusal_page(response, language: str) -> str:
    assert response.status_code == 403
    page = response.content.decode()
    assert REFUSED[language] in page
    return page


def token_of(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
