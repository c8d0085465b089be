"""The OWASP API Security Top 10 (2023) against this API: who may reach what.
API1 (object level authorization), API2 (authentication), API3 (object property level
authorization) and API5 (function level authorization).

One section per item (owasp.org/API-Security/editions/2023/en/0x11-t10), each with tests
of its own; the other items are in test_owasp_consumption.py and test_owasp_surface.py.
Where another module already covers a case in depth, the test here takes another angle
and says where the rest is.
"""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken, DeviceCode, Scope, Source
from accounts.services import DeviceCodeNotPending, device_code_decide, device_code_start
from directory.downloads.models import Download
from palettes.models import Palette
from proposals.models import Proposal, ProposalStatus
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    PaletteFactory,
    UserFactory,
    add_file,
    bearer,
    svg_bytes,
    token_for,
)
from tests.security.uploads import propose, svg_file

pytestmark = pytest.mark.django_db

# API1:2023 Broken Object Level Authorization


def test_it_keeps_every_object_of_one_account_out_of_reach_of_another(api):
    alice, bob = UserFactory(), UserFactory()
    private = PaletteFactory(owner=alice, is_public=False)
    public = PaletteFactory(owner=alice, is_public=True)
    alice_secret = token_for(alice)
    assert propose(api, alice_secret, svg_bytes()).status_code == 201
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
        "file": svg_file(svg_bytes()),
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
            propose(api, secret, svg_bytes()),
            api.get("/v1/public/proposals", **bearer(secret)),
        ]
    )

    assert token.digest.encode() not in bodies
    assert user.password.encode() not in bodies
    assert not re.search(rb'"(digest|token_?hash|password|email)"', bodies, re.IGNORECASE)


# API5:2023 Broken Function Level Authorization


def test_it_refuses_a_write_to_a_token_without_the_scope(api):
    read_only = bearer(token_for(scopes=[Scope.READ_LOGOS, Scope.READ_PALETTES]))
    body = {"name": "Sol", "colors": ["#C8102E", "#FFFFFF"]}

    palette = api.post("/v1/public/palettes", body, format="json", **read_only)
    proposal = propose(api, token_for(scopes=[Scope.READ_LOGOS]), svg_bytes())

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
