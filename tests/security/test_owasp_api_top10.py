"""The OWASP API Security Top 10 (2023), item by item, against this API.

One section per item (owasp.org/API-Security/editions/2023/en/0x11-t10), each with
tests of its own. Where another module already covers a case in depth, the test here
takes another angle and says where the rest is.
"""

import http.server
import io
import re
import socket
import struct
import threading
import time
import zlib
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import close_old_connections
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from PIL import Image
from rest_framework.test import APIClient

from accounts.models import ApiToken, DeviceCode, Plan, Scope, Source
from accounts.services import DeviceCodeNotPending, device_code_decide, device_code_start
from api.views import OpenApiDocumentApi, UnknownPathApi
from common.svg import sanitize_svg
from directory.models import Download, Logo
from directory.previews import render_preview
from palettes.models import Palette
from proposals.models import MAX_FILE_BYTES, Proposal, ProposalFormat, ProposalStatus
from proposals.services import ProposalDraft, proposal_approve, proposal_submit
from tests.conftest import use_s3_storage
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    PaletteFactory,
    UserFactory,
    add_file,
    bearer,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.openapi import served_document

pytestmark = pytest.mark.django_db

SVG_NS = "http://www.w3.org/2000/svg"


@pytest.fixture
def window_start():
    """Frozen at the start of a rate-limit window, so that no test straddles two."""
    now = int(time.time())
    with time_machine.travel(now - now % 60 + 60, tick=False) as traveller:
        yield traveller


def _svg_file(data: bytes, name: str = "logo.svg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/svg+xml")


def _propose(api, secret: str, data: bytes, name: str = "logo.svg"):
    body = {"companyName": "Panadería Sol", "file": _svg_file(data, name)}
    return api.post("/v1/public/proposals", body, format="multipart", **bearer(secret))


# API1:2023 Broken Object Level Authorization


def test_it_keeps_every_object_of_one_account_out_of_reach_of_another(api):
    alice, bob = UserFactory(), UserFactory()
    private = PaletteFactory(owner=alice, is_public=False)
    public = PaletteFactory(owner=alice, is_public=True)
    alice_secret = token_for(alice)
    assert _propose(api, alice_secret, svg_bytes()).status_code == 201
    as_bob = bearer(token_for(bob))

    answers = {
        "list palettes": api.get("/v1/public/palettes", **as_bob).json()["total"],
        "list proposals": api.get("/v1/public/proposals", **as_bob).json()["total"],
        "read private": api.get(f"/v1/public/palettes/{private.id}", **as_bob).status_code,
        "change private": api.patch(
            f"/v1/public/palettes/{private.id}", {"name": "Mine"}, format="json", **as_bob
        ).status_code,
        "delete private": api.delete(f"/v1/public/palettes/{private.id}", **as_bob).status_code,
        "change public": api.patch(
            f"/v1/public/palettes/{public.id}", {"name": "Mine"}, format="json", **as_bob
        ).status_code,
        "delete public": api.delete(f"/v1/public/palettes/{public.id}", **as_bob).status_code,
        # Bob revoking "the token of the request" revokes his own, never Alice's.
        "revoke": api.delete("/v1/public/me/token", **as_bob).status_code,
    }

    assert answers == {
        "list palettes": 0,
        "list proposals": 0,
        "read private": 404,
        "change private": 404,
        "delete private": 404,
        "change public": 404,
        "delete public": 404,
        "revoke": 204,
    }
    assert Palette.objects.filter(owner=alice, name__startswith="Palette").count() == 2
    assert api.get("/v1/public/me", **bearer(alice_secret)).json()["authenticated"] is True


def test_it_answers_another_accounts_private_palette_as_if_it_did_not_exist(api):
    private = PaletteFactory(is_public=False)
    as_bob = bearer(token_for(UserFactory()))

    theirs = api.get(f"/v1/public/palettes/{private.id}", **as_bob)
    nobodys = api.get(f"/v1/public/palettes/{Palette(owner=None).id}", **as_bob)

    assert theirs.status_code == nobodys.status_code == 404
    assert theirs.json()["error"] == nobodys.json()["error"] == "PALETTE_NOT_FOUND"


def test_it_gives_a_device_grant_only_to_the_holder_of_its_device_code(api):
    alice, bob = UserFactory(), UserFactory()
    alices_plugin = device_code_start(source=Source.FIGMA)
    bobs_plugin = device_code_start(source=Source.FIGMA)
    device_code_decide(device_code=alices_plugin.device_code, user=alice, approve=True)

    bobs_poll = api.post(
        "/v1/public/device/token", {"deviceCode": bobs_plugin.secret}, format="json"
    )
    bob_deciding_again = DeviceCode.objects.get(pk=alices_plugin.device_code.pk)
    alices_poll = api.post(
        "/v1/public/device/token", {"deviceCode": alices_plugin.secret}, format="json"
    )

    assert bobs_poll.json()["error"] == "authorization_pending"
    assert alices_poll.status_code == 200
    assert ApiToken.objects.get().user == alice  # bound to the person who approved
    with pytest.raises(DeviceCodeNotPending):
        device_code_decide(device_code=bob_deciding_again, user=bob, approve=True)
    assert DeviceCode.objects.get(pk=alices_plugin.device_code.pk).user == alice


# API2:2023 Broken Authentication
# More in tests/accounts/test_authentication.py (every endpoint, last use, revocation).


def _expired_secret() -> str:
    return token_for(expires_at=timezone.now() - timedelta(seconds=1))


def _revoked_secret() -> str:
    secret = token_for()
    ApiToken.objects.update(revoked_at=timezone.now())
    return secret


def _mistyped_secret() -> str:
    secret = token_for()
    return secret[:-1] + ("0" if secret[-1] != "0" else "1")


@pytest.mark.parametrize(
    ("make_secret", "code"),
    [
        (_revoked_secret, "TOKEN_REVOKED"),
        (_expired_secret, "INVALID_TOKEN"),
        (_mistyped_secret, "INVALID_TOKEN"),
    ],
)
def test_it_refuses_a_dead_token_even_on_an_endpoint_that_allows_anonymous_calls(
    api, make_secret, code
):
    logo = LogoFactory()
    add_file(logo, svg_bytes())

    response = api.post(
        f"/v1/public/logos/{logo.id}/download",
        {"format": "SVG"},
        format="json",
        **bearer(make_secret()),
    )

    # Never downgraded to an anonymous call, which would spend the address's quota.
    assert response.status_code == 401
    assert response.json()["error"] == code
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert Download.objects.count() == 0


def test_it_takes_a_token_only_from_the_authorization_header(api):
    secret = token_for()

    in_query = api.get(f"/v1/public/me?access_token={secret}")
    as_cookie = APIClient()
    as_cookie.cookies["access_token"] = secret
    in_cookie = as_cookie.get("/v1/public/me")
    as_basic = api.get("/v1/public/me", HTTP_AUTHORIZATION=f"Basic {secret}")

    assert in_query.json() == {"authenticated": False}
    assert in_cookie.json() == {"authenticated": False}
    assert as_basic.status_code == 401


def test_it_refuses_the_sixth_wrong_user_code_within_the_window(client):
    client.force_login(UserFactory())
    device_code_start(source=Source.CHROME)

    answers = [
        client.post("/device", {"user_code": code}).status_code
        for code in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG", "HHHH-HHHH"]
    ]

    assert answers == [400] * 5 + [429]


# API3:2023 Broken Object Property Level Authorization


def test_it_ignores_properties_a_client_may_not_set_on_a_palette(api):
    alice, bob = UserFactory(), UserFactory()
    palette = PaletteFactory(owner=alice)
    before = Palette.objects.filter(pk=palette.pk).values().get()

    response = api.patch(
        f"/v1/public/palettes/{palette.id}",
        {"owner": str(bob.id), "user": str(bob.id), "id": "x", "createdAt": "2000-01-01"},
        format="json",
        **bearer(token_for(alice)),
    )

    after = Palette.objects.filter(pk=palette.pk).values().get()
    assert response.status_code == 200  # unknown keys ignored, read-only ones not taken
    assert (response.json()["data"]["id"], response.json()["data"]["isMine"]) == (
        str(palette.id),
        True,
    )
    assert {**after, "updated_at": None} == {**before, "updated_at": None}


def test_it_ignores_a_status_or_reviewer_sent_with_a_proposal(api):
    reviewer = UserFactory(is_staff=True)
    secret = token_for(UserFactory())
    body = {
        "companyName": "Sol",
        "file": _svg_file(svg_bytes()),
        "status": "APPROVED",
        "reviewedBy": str(reviewer.id),
        "reviewNote": "ok",
        "submitter": str(reviewer.id),
    }

    response = api.post("/v1/public/proposals", body, format="multipart", **bearer(secret))

    proposal = Proposal.objects.get()
    assert response.status_code == 201
    assert response.json()["data"]["status"] == "PENDING"
    assert proposal.status == ProposalStatus.PENDING
    assert proposal.reviewed_at is None
    assert proposal.submitter != reviewer


def test_it_never_shows_a_tokens_digest_or_a_password(api):
    user = UserFactory()
    secret = token_for(user)
    token = ApiToken.objects.get()
    palette = PaletteFactory(owner=user)

    bodies = b"".join(
        response.content
        for response in [
            api.get("/v1/public/me", **bearer(secret)),
            api.get("/v1/public/palettes", **bearer(secret)),
            api.get(f"/v1/public/palettes/{palette.id}", **bearer(secret)),
            _propose(api, secret, svg_bytes()),
            api.get("/v1/public/proposals", **bearer(secret)),
        ]
    )

    assert token.digest.encode() not in bodies
    assert user.password.encode() not in bodies
    assert not re.search(rb'"(digest|token_?hash|password|email)"', bodies, re.IGNORECASE)


# API4:2023 Unrestricted Resource Consumption


def _png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header claims width x height pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 1024, 9))
        + chunk(b"IEND", b"")
    )


def test_it_refuses_an_upload_one_byte_over_the_limit(api):
    secret = token_for()
    data = svg_bytes()[:-6] + b"<!--" + b"x" * MAX_FILE_BYTES + b"-->" + b"</svg>"
    data = data[: MAX_FILE_BYTES + 1]

    response = _propose(api, secret, data)

    assert response.status_code == 413
    assert response.json()["error"] == "FILE_TOO_LARGE"
    assert Proposal.objects.count() == 0


def test_it_refuses_a_decompression_bomb_before_decoding_it(api):
    bomb = _png_claiming(50_000, 50_000)  # 2.5 gigapixels in a few hundred bytes
    assert len(bomb) < 1000

    response = _propose(api, token_for(), bomb, name="logo.png")

    assert response.status_code == 415
    assert response.json()["error"] == "UNSUPPORTED_FILE"
    assert Proposal.objects.count() == 0


def test_it_refuses_a_bomb_in_its_own_words_not_pillows(api):
    response = _propose(api, token_for(), _png_claiming(50_000, 50_000), name="logo.png")

    assert response.json()["message"] == (
        "Refused: the PNG image declares more pixels than are accepted."
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">&x;</svg>',
            "Refused: the SVG declares a DTD or entities, which are not accepted.",
        ),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect></svg>',
            "Refused: the SVG is not well-formed XML (line 1, column 67).",
        ),
    ],
)
def test_it_refuses_a_hostile_or_broken_svg_in_its_own_words(api, data, message):
    response = _propose(api, token_for(), data)

    assert (response.status_code, response.json()["message"]) == (415, message)
    assert "DTDForbidden" not in response.json()["message"]


@pytest.mark.parametrize(
    ("markup", "threat"),
    [
        ('<a href="java\tscript:alert(1)"><rect width="1" height="1"/></a>', "outside the file"),
        (
            '<rect width="1" height="1" fill="red" onload="x" data-x="java&#9;script:alert(1)"/>',
            "event handler",
        ),
        ('<rect width="1" height="1" data-x="java&#9;script:alert(1)"/>', "javascript:"),
        (
            '<rect width="1" height="1" style="fill:image-set(\'http://evil.example/x.png\' 1x)"/>',
            "outside the file",
        ),
        ('<rect width="1" height="1" style="fill:u\\72l(http://evil.example/)"/>', "CSS escapes"),
        ("<style>rect{fill:u\\72l(http://evil.example/)}</style>", "CSS escapes"),
        ("<style>rect{fill:image-set('http://evil.example/x.png' 1x)}</style>", "from outside"),
        ('<rect width="1" height="1" fill="url(http://evil.example/#g)"/>', "outside the file"),
    ],
)
def test_it_refuses_disguised_scripts_and_outside_references_at_upload(api, markup, threat):
    data = f'<svg xmlns="{SVG_NS}" viewBox="0 0 1 1">{markup}</svg>'.encode()

    response = _propose(api, token_for(), data)

    assert response.status_code == 415, markup
    assert response.json()["message"].startswith("Refused: the SVG is unsafe: ")
    assert threat in response.json()["message"]


def test_it_refuses_a_png_with_a_page_appended_rather_than_store_it(api):
    polyglot = png_bytes() + b"<html><script>alert(document.domain)</script></html>"

    response = _propose(api, token_for(), polyglot, name="logo.png")

    assert response.status_code == 415
    assert response.json()["message"] == (
        "Refused: the PNG has 52 bytes of other data after its end."
    )
    assert Proposal.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        {"pageSize": "51"},
        {"pageSize": "100000"},
        {"page": "501"},
        {"q": "x" * 101},
    ],
)
def test_it_refuses_oversized_list_requests(api, query):
    response = api.get("/v1/public/logos", query)

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"


def test_it_rate_limits_an_address_with_retry_after(api, window_start):
    answers = [api.get("/v1/public/domains", REMOTE_ADDR="203.0.113.7") for _ in range(21)]

    assert [r.status_code for r in answers] == [200] * 20 + [429]
    assert answers[-1].json()["error"] == "RATE_LIMITED"
    assert int(answers[-1]["Retry-After"]) >= 1


# API5:2023 Broken Function Level Authorization


def test_it_refuses_a_write_to_a_token_without_the_scope(api):
    read_only = bearer(token_for(scopes=[Scope.READ_LOGOS, Scope.READ_PALETTES]))
    body = {"name": "Sol", "colors": ["#C8102E", "#FFFFFF"]}

    palette = api.post("/v1/public/palettes", body, format="json", **read_only)
    proposal = _propose(api, token_for(scopes=[Scope.READ_LOGOS]), svg_bytes())

    assert palette.status_code == proposal.status_code == 403
    assert palette.json()["error"] == proposal.json()["error"] == "INSUFFICIENT_SCOPE"
    assert Palette.objects.count() == Proposal.objects.count() == 0


@pytest.mark.parametrize(
    "path",
    [
        "/admin/",
        "/admin/proposals/proposal/",
        "/admin/accounts/apitoken/",
        "/admin/accounts/user/",
    ],
)
def test_it_keeps_the_review_admin_from_people_who_are_not_staff(client, path):
    client.force_login(UserFactory(is_staff=False))

    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        " https://evil.example/",
        "http://testserver@evil.example/",
    ],
)
def test_it_never_redirects_off_the_site_after_login_or_sign_up(client, target):
    UserFactory(email="ana@example.com")
    login = Client(REMOTE_ADDR="10.0.0.1").post(
        "/accounts/login/",
        {"username": "ana@example.com", "password": PASSWORD, "next": target},
    )
    signup = Client(REMOTE_ADDR="10.0.0.2")
    signup.post(
        f"/accounts/signup/?next={target}",
        {"email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    link = re.search(r"http://testserver(/accounts/signup/confirm/\S+)", mail.outbox[0].body)
    confirmed = signup.post(link.group(1), {"next": target})

    assert (login.status_code, confirmed.status_code) == (302, 302)
    assert login["Location"] == "/account/tokens"
    assert confirmed["Location"] == "/account/tokens"


def test_it_refuses_a_download_link_with_any_part_changed(api, client):
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol")
    logo = LogoFactory(company=company, slug="sol-2020", title="Sol")
    add_file(logo, svg_bytes())
    response = api.post(f"/v1/public/logos/{logo.id}/download", {"format": "svg"}, format="json")
    token = response.json()["data"]["url"].rsplit("/files/", 1)[1]
    assert client.get(f"/files/{token}").status_code == 200
    value, _, signature = token.rpartition(":")

    for tampered in [
        f"{value}:{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}",  # the signature
        f"{value[:-1]}{'A' if value[-1] != 'A' else 'B'}:{signature}",  # the payload
        f"{value}:",  # no signature
        value,  # signature dropped
        f"{value}:{signature}{signature}",
        "not-a-token",
    ]:
        assert client.get(f"/files/{tampered}").status_code == 403, tampered


def test_it_never_takes_a_bearer_token_as_a_login_on_the_website(client):
    staff = UserFactory(is_staff=True, is_superuser=True)
    secret = token_for(staff)

    admin = client.get("/admin/proposals/proposal/", HTTP_AUTHORIZATION=f"Bearer {secret}")
    device = client.get("/device", HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert admin.status_code == device.status_code == 302
    assert "login" in admin["Location"]
    assert device["Location"].startswith("/accounts/login/")


# API6:2023 Unrestricted Access to Sensitive Business Flows
# A FREE account's last unit under ten threads: tests/directory/test_downloads.py.


@pytest.mark.django_db(transaction=True)
def test_it_grants_an_anonymous_address_exactly_its_quota_under_simultaneous_requests():
    logos = [LogoFactory() for _ in range(10)]
    for logo in logos:
        add_file(logo, svg_bytes())
    barrier = threading.Barrier(len(logos))
    statuses = []

    def download(logo: Logo) -> None:
        try:
            client = APIClient(REMOTE_ADDR="198.51.100.20")
            barrier.wait()
            response = client.post(
                f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json"
            )
            statuses.append(response.status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=download, args=(logo,)) for logo in logos]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] * 3 + [429] * 7
    assert Download.objects.filter(ip="198.51.100.20", counted=True).count() == 3


def test_it_does_not_let_a_free_account_spend_its_quota_twice_on_the_same_logo(api):
    user = UserFactory(plan=Plan.FREE)
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    add_file(logo, png_bytes())
    auth = bearer(token_for(user))

    quotas = [
        api.post(
            f"/v1/public/logos/{logo.id}/download", {"format": file_format}, format="json", **auth
        ).json()["quota"]["used"]
        for file_format in ["SVG", "PNG", "SVG"]
    ]

    assert quotas == [1, 1, 1]


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
        name: _propose(api, secret, data).status_code
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
