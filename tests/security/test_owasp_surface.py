"""The OWASP API Security Top 10 (2023) against this API: what it reaches and shows.
API7 (server side request forgery), API8 (security misconfiguration), API9 (inventory)
and API10 (unsafe consumption of APIs).

One section per item (owasp.org/API-Security/editions/2023/en/0x11-t10), each with tests
of its own; the other items are in test_owasp_access.py and test_owasp_consumption.py.
Where another module already covers a case in depth, the test here takes another angle
and says where the rest is.
"""

import http.server
import io
import re
import socket
import threading

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from PIL import Image

from accounts.models import Source
from api.views import OpenApiDocumentApi, UnknownPathApi
from common.svg import sanitize_svg
from directory.downloads.models import Download
from directory.files.previews import render_preview
from proposals.models import Proposal, ProposalFormat
from proposals.services import ProposalDraft, proposal_approve, proposal_submit
from tests.conftest import use_s3_storage
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.openapi import served_document
from tests.security.uploads import SVG_NS, propose

pytestmark = pytest.mark.django_db

# API7:2023 Server Side Request Forgery
# The sanitiser's allow-lists in depth: tests/common/test_svg.py.


class _Listener:
    """A loopback port that records every connection made to it."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.05)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            connection.close()

    def close(self) -> int:
        """Stops listening and returns how many connections came in."""
        self._stop.set()
        self._thread.join()
        self.socket.close()
        return self.connections


@pytest.fixture
def listener():
    listening = _Listener()
    yield listening
    listening.close()


def _hostile_references(port: int) -> dict[str, bytes]:
    outside = f"http://127.0.0.1:{port}"
    xlink = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
    bodies = {
        "image href": f'<image href="{outside}/a.png" width="9" height="9"/>',
        "image xlink:href": f'<image xlink:href="{outside}/b.png" width="9" height="9"/>',
        "use href": f'<use href="{outside}/c.svg#shape"/>',
        "css url() in style": f'<rect width="9" height="9" style="fill:url({outside}/d#p)"/>',
        "css url() in <style>": f"<style>rect{{fill:url({outside}/e#p)}}</style><rect/>",
        "css @import": f"<style>@import url({outside}/f.css);</style><rect/>",
        "feImage": f'<filter id="f"><feImage href="{outside}/g.png"/></filter>',
        "file: URL": '<image href="file:///etc/passwd" width="9" height="9"/>',
        "metadata host": '<image href="http://169.254.169.254/latest/meta-data/"/>',
    }
    return {
        name: f'<svg xmlns="{SVG_NS}" {xlink} viewBox="0 0 9 9">{body}</svg>'.encode()
        for name, body in bodies.items()
    }


def test_it_refuses_svg_uploads_that_refer_outside_the_file_without_fetching_them(api, listener):
    secret = token_for()

    answers = {
        name: propose(api, secret, data).status_code
        for name, data in _hostile_references(listener.port).items()
    }

    assert answers == dict.fromkeys(answers, 415)
    assert Proposal.objects.count() == 0
    assert listener.close() == 0


def test_it_strips_every_outside_reference_from_the_public_copy(listener):
    for name, data in _hostile_references(listener.port).items():
        public = sanitize_svg(data)

        assert b"127.0.0.1" not in public, name
        assert b"169.254" not in public, name
        assert b"file:" not in public, name
        assert b"@import" not in public, name
    assert listener.close() == 0


def test_it_approves_and_previews_a_hostile_svg_that_got_stored_without_a_request(
    listener, django_capture_on_commit_callbacks
):
    # As if stored before the upload checks existed: approval must not trust the file.
    data = _hostile_references(listener.port)["image href"]
    draft = ProposalDraft(
        company_name="Sol",
        company=None,
        logo=None,
        website=None,
        source_url=None,
        notes=None,
        file_name="logo.svg",
        file_format=ProposalFormat.SVG,
        source=Source.API,
    )
    proposal = proposal_submit(submitter=UserFactory(), draft=draft, data=data)

    with django_capture_on_commit_callbacks(execute=True):
        approved = proposal_approve(proposal=proposal, reviewer=UserFactory(is_staff=True))

    asset = approved.logo.assets.get()
    with asset.file.open("rb") as public:
        assert b"127.0.0.1" not in public.read()
    approved.logo.refresh_from_db()
    assert approved.logo.preview  # drawn after commit, from the sanitised copy
    assert listener.close() == 0


def test_it_never_draws_a_local_file_into_a_preview(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(png_bytes(color=(200, 16, 46, 255), size=(9, 9)))
    data = (
        f'<svg xmlns="{SVG_NS}" width="9" height="9">'
        f'<image href="{secret}" width="9" height="9"/></svg>'
    ).encode()

    preview = Image.open(io.BytesIO(render_preview(data, "SVG"))).convert("RGBA")

    assert preview.getpixel((4, 4)) != (200, 16, 46, 255)


# API8:2023 Security Misconfiguration
# Production settings refuse to start without their secrets: tests/config/test_settings.py.


def test_it_allows_any_origin_without_credentials_on_the_api_only(api, client):
    user = UserFactory()
    client.force_login(user)
    origin = {"HTTP_ORIGIN": "https://evil.example"}

    public = api.get("/v1/public/companies", **origin)
    pages = [client.get(path, **origin) for path in ["/account/tokens", "/device", "/"]]

    assert public["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in public
    for page in pages:
        assert "Access-Control-Allow-Origin" not in page
        assert "Access-Control-Allow-Credentials" not in page


def test_it_sends_nosniff_and_refuses_framing_of_pages(api, client):
    client.force_login(UserFactory())

    public = api.get("/v1/public/companies")
    tokens = client.get("/account/tokens")

    assert public["X-Content-Type-Options"] == "nosniff"
    assert tokens["X-Content-Type-Options"] == "nosniff"
    assert tokens["X-Frame-Options"] == "DENY"


def test_it_shows_no_stack_trace_even_with_debug_on(api, settings):
    settings.ROOT_URLCONF = "tests.config.urls_with_failures"
    settings.DEBUG = True

    response = api.get("/v1/public/_test/broken")

    assert response.status_code == 500
    assert response.json() == {
        "error": "INTERNAL_ERROR",
        "message": "Something went wrong on our side; it has been logged.",
    }
    assert b"Traceback" not in response.content
    assert b"secret internals" not in response.content


# API9:2023 Improper Inventory Management
# Served under /v1/public beyond the document: the document itself (openapi.json), its
# browsable page (docs) and the catch-all that answers unknown paths with NOT_FOUND.

_NOT_IN_THE_DOCUMENT = {"/v1/public/openapi.json", "/v1/public/docs"}


def _routes(resolver: URLResolver, prefix: str = ""):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield "/" + route, pattern.callback


def _public_routes() -> dict[str, type]:
    routes = {}
    for route, callback in _routes(get_resolver()):
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if not route.startswith("/v1/public/") or view is UnknownPathApi:
            continue
        routes[re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)] = view
    return routes


def test_it_documents_exactly_the_routes_it_serves_under_the_public_api():
    served = set(_public_routes()) - _NOT_IN_THE_DOCUMENT

    assert served == set(served_document().document["paths"])


def test_it_documents_exactly_the_methods_each_route_answers():
    methods = ("get", "post", "put", "patch", "delete")
    document = served_document().document["paths"]

    answered = {
        route: {method for method in methods if hasattr(view, method)}
        for route, view in _public_routes().items()
        if route not in _NOT_IN_THE_DOCUMENT
    }

    assert answered == {
        path: {method for method in operations if method in methods}
        for path, operations in document.items()
    }


def test_it_answers_everything_else_under_the_public_api_with_not_found(api):
    assert _public_routes()["/v1/public/openapi.json"] is OpenApiDocumentApi

    for path in ["/v1/public/v2/companies", "/v1/public/admin/", "/v1/public/internal/users"]:
        response = api.get(path)
        assert response.status_code == 404
        assert response.json()["error"] == "NOT_FOUND"


# API10:2023 Unsafe Consumption of APIs
# The object store refusing connections or never answering: tests/reliability.


class _FailingStore(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(500)
        self.send_header("Content-Type", "application/xml")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def failing_store():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FailingStore)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_it_answers_a_failing_object_store_with_a_generic_503(
    api, settings, s3_storage, failing_store
):
    logo = LogoFactory(company=CompanyFactory())
    add_file(logo, svg_bytes())
    use_s3_storage(settings, endpoint=failing_store, bucket=s3_storage)

    response = api.post(f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json")

    assert response.status_code == 503
    assert response.json() == {
        "error": "SERVICE_UNAVAILABLE",
        "message": "A backing service is unavailable; retry shortly.",
    }
    assert Download.objects.count() == 0
