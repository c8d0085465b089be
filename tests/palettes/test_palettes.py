"""Palettes and gradients: a person's own, public ones readable by others, 100 at most."""

import threading
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.db import close_old_connections
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Scope
from api.times import timestamp
from palettes.models import Palette, PaletteType
from tests.factories import CompanyFactory, PaletteFactory, UserFactory, bearer, token_for

pytestmark = pytest.mark.django_db

GRADIENT = {
    "kind": "linear",
    "angle": 90,
    "stops": [{"hex": "#ff0000", "position": 0}, {"hex": "#0000FF", "position": 100}],
}


@pytest.fixture
def owner():
    return UserFactory()


@pytest.fixture
def auth(owner):
    return bearer(token_for(owner))


def _create(api, auth, **body):
    payload = {"type": "PALETTE", "name": "Marca", "colors": ["#c8102e", "#FFFFFF"], **body}
    return api.post("/v1/public/palettes", payload, format="json", **auth)


def _invalid(response) -> set[str]:
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "INVALID_REQUEST"
    return set(body["details"])


# Creating


def test_it_saves_a_palette_with_its_colours_in_upper_case(api, auth, owner):
    response = _create(api, auth, source="LOGO", isPublic=True)

    assert response.status_code == 201
    palette = Palette.objects.get()
    stamp = timestamp(palette.created_at)
    assert response.json() == {
        "data": {
            "id": str(palette.id),
            "name": "Marca",
            "type": "PALETTE",
            "colors": ["#C8102E", "#FFFFFF"],
            "source": "LOGO",
            "isPublic": True,
            "isMine": True,
            "company": None,
            "createdAt": stamp,
            "updatedAt": stamp,
        }
    }
    assert (palette.owner, palette.colors) == (owner, ["#C8102E", "#FFFFFF"])


def test_it_saves_a_gradient_as_sent_but_upper_case(api, auth):
    response = _create(api, auth, type="GRADIENT", colors=GRADIENT)

    assert response.status_code == 201
    assert response.json()["data"]["colors"] == {
        "kind": "linear",
        "angle": 90,
        "stops": [{"hex": "#FF0000", "position": 0}, {"hex": "#0000FF", "position": 100}],
    }


def test_it_keeps_fractional_angles_and_positions(api, auth):
    gradient = {**GRADIENT, "angle": 22.5, "stops": [{"hex": "#000000", "position": 12.5}] * 2}

    response = _create(api, auth, type="GRADIENT", colors=gradient)

    assert response.json()["data"]["colors"]["angle"] == 22.5
    assert response.json()["data"]["colors"]["stops"][0]["position"] == 12.5


def test_it_defaults_to_a_private_manual_palette(api, auth):
    data = _create(api, auth).json()["data"]

    assert (data["source"], data["isPublic"], data["company"]) == ("MANUAL", False, None)


def test_it_links_a_company_by_id(api, auth):
    company = CompanyFactory(slug="iberia", name="Iberia")

    data = _create(api, auth, companyId=str(company.id)).json()["data"]

    assert data["company"] == {"slug": "iberia", "name": "Iberia"}


def test_it_refuses_an_unknown_company_and_saves_nothing(api, auth):
    response = _create(api, auth, companyId=str(uuid.uuid4()))

    assert response.status_code == 404
    assert response.json()["error"] == "COMPANY_NOT_FOUND"
    assert not Palette.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": None}, "type"),
        ({"type": "SWATCH"}, "type"),
        ({"colors": ["#FFFFFF"]}, "colors"),
        ({"colors": ["#FFFFFF"] * 11}, "colors"),
        ({"colors": ["#FFF", "#000000"]}, "colors[0]"),
        ({"colors": ["#GGGGGG", "#000000"]}, "colors[0]"),
        ({"colors": ["#000000", 123]}, "colors[1]"),
        ({"colors": ["#000000 ", "#000000"]}, "colors[0]"),
        ({"colors": "#000000"}, "colors"),
        ({"colors": GRADIENT}, "colors"),
        ({"type": "GRADIENT"}, "colors"),
        ({"type": "GRADIENT", "colors": {**GRADIENT, "kind": "conic"}}, "colors.kind"),
        ({"type": "GRADIENT", "colors": {**GRADIENT, "angle": 361}}, "colors.angle"),
        ({"type": "GRADIENT", "colors": {**GRADIENT, "angle": -1}}, "colors.angle"),
        ({"type": "GRADIENT", "colors": {**GRADIENT, "angle": "90"}}, "colors.angle"),
        ({"type": "GRADIENT", "colors": {**GRADIENT, "angle": True}}, "colors.angle"),
        ({"type": "GRADIENT", "colors": {"kind": "linear", "angle": 0}}, "colors.stops"),
        (
            {"type": "GRADIENT", "colors": {**GRADIENT, "stops": GRADIENT["stops"][:1]}},
            "colors.stops",
        ),
        (
            {"type": "GRADIENT", "colors": {**GRADIENT, "stops": GRADIENT["stops"] * 6}},
            "colors.stops",
        ),
        (
            {
                "type": "GRADIENT",
                "colors": {**GRADIENT, "stops": [{"hex": "#000000"}, GRADIENT["stops"][1]]},
            },
            "colors.stops[0].position",
        ),
        (
            {
                "type": "GRADIENT",
                "colors": {
                    **GRADIENT,
                    "stops": [{"hex": "#000000", "position": 101}, GRADIENT["stops"][1]],
                },
            },
            "colors.stops[0].position",
        ),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": 12}, "name"),
        ({"source": "SCAN"}, "source"),
        ({"isPublic": "true"}, "isPublic"),
        ({"isPublic": 1}, "isPublic"),
        ({"companyId": "iberia"}, "companyId"),
        ({"companyId": 7}, "companyId"),
    ],
)
def test_it_refuses_what_the_contract_does_not_allow_and_saves_nothing(api, auth, body, field):
    assert _invalid(_create(api, auth, **body)) == {field}
    assert not Palette.objects.exists()


def test_it_accepts_the_bounds(api, auth):
    stops = [{"hex": "#000000", "position": 0}] * 9 + [{"hex": "#FFFFFF", "position": 100}]

    assert _create(api, auth, name="x" * 60, colors=["#000000"] * 10).status_code == 201
    assert _create(api, auth, name="x", colors=["#000000"] * 2).status_code == 201
    gradient = {"kind": "radial", "angle": 360, "stops": stops}
    assert _create(api, auth, type="GRADIENT", colors=gradient).status_code == 201


def test_it_refuses_a_body_that_is_not_an_object(api, auth):
    response = api.post("/v1/public/palettes", ["#000000"], format="json", **auth)

    assert _invalid(response) == {"body"}


# Listing


def test_it_lists_only_the_callers_palettes_newest_first_with_the_quota(
    api, auth, owner, django_assert_num_queries
):
    start = timezone.now()
    for n in range(3):
        with time_machine.travel(start + timedelta(minutes=n)):
            PaletteFactory(owner=owner, name=f"mine {n}", company=CompanyFactory())
    PaletteFactory(name="someone else's", is_public=True)

    # The token, its lastUsedAt, the count, the page with the companies.
    with django_assert_num_queries(4):
        response = api.get("/v1/public/palettes?pageSize=2", **auth)

    body = response.json()
    assert [item["name"] for item in body["data"]] == ["mine 2", "mine 1"]
    assert {key: body[key] for key in ("page", "pageSize", "total", "totalPages", "quota")} == {
        "page": 1,
        "pageSize": 2,
        "total": 3,
        "totalPages": 2,
        "quota": {"used": 3, "max": 100},
    }
    assert all(item["isMine"] for item in body["data"])


def test_it_filters_by_type_and_still_counts_every_palette_in_the_quota(api, auth, owner):
    PaletteFactory(owner=owner, name="flat")
    PaletteFactory(owner=owner, name="fade", type=PaletteType.GRADIENT, colors=GRADIENT)

    body = api.get("/v1/public/palettes?type=GRADIENT", **auth).json()

    assert [item["name"] for item in body["data"]] == ["fade"]
    assert (body["total"], body["quota"]) == (1, {"used": 2, "max": 100})


def test_it_answers_a_page_past_the_last_with_the_true_totals(api, auth, owner):
    PaletteFactory(owner=owner)

    body = api.get("/v1/public/palettes?page=3", **auth).json()

    assert (body["data"], body["total"], body["totalPages"]) == ([], 1, 1)


@pytest.mark.parametrize(
    "query", ["type=palette", "type=", "page=0", "page=501", "pageSize=51", "pageSize=x"]
)
def test_it_refuses_bad_list_parameters(api, auth, query):
    assert _invalid(api.get(f"/v1/public/palettes?{query}", **auth))


# Reading one


def test_it_shows_the_callers_private_palette(api, auth, owner):
    palette = PaletteFactory(owner=owner)

    data = api.get(f"/v1/public/palettes/{palette.id}", **auth).json()["data"]

    assert (data["id"], data["isMine"], data["isPublic"]) == (str(palette.id), True, False)


def test_it_shows_someone_elses_public_palette_as_not_mine(api, auth):
    palette = PaletteFactory(is_public=True)

    data = api.get(f"/v1/public/palettes/{palette.id}", **auth).json()["data"]

    assert (data["isMine"], data["isPublic"]) == (False, True)


@pytest.mark.parametrize("palette_id", ["private", "unknown", "not-a-uuid", "1"])
def test_it_hides_what_the_caller_may_not_read(api, auth, palette_id):
    private = PaletteFactory()
    path_id = {"private": str(private.id), "unknown": str(uuid.uuid4())}.get(palette_id, palette_id)

    response = api.get(f"/v1/public/palettes/{path_id}", **auth)

    assert response.status_code == 404
    assert response.json() == {"error": "PALETTE_NOT_FOUND", "message": "No such palette."}


# Changing and deleting


def test_it_changes_the_fields_it_is_sent(api, auth, owner):
    palette = PaletteFactory(owner=owner, name="old", company=CompanyFactory())
    later = timezone.now() + timedelta(minutes=5)

    with time_machine.travel(later):
        response = api.patch(
            f"/v1/public/palettes/{palette.id}",
            {"name": "new", "colors": ["#00ff00", "#000000", "#ffffff"], "companyId": None},
            format="json",
            **auth,
        )

    data = response.json()["data"]
    assert response.status_code == 200
    assert (data["name"], data["colors"], data["company"]) == (
        "new",
        ["#00FF00", "#000000", "#FFFFFF"],
        None,
    )
    assert data["isPublic"] is False
    palette.refresh_from_db()
    assert palette.updated_at == later.replace(microsecond=palette.updated_at.microsecond)
    assert palette.created_at < palette.updated_at


def test_it_makes_a_palette_public(api, auth, owner):
    palette = PaletteFactory(owner=owner)

    api.patch(f"/v1/public/palettes/{palette.id}", {"isPublic": True}, format="json", **auth)

    palette.refresh_from_db()
    assert palette.is_public is True


@pytest.mark.parametrize(
    ("type", "colors", "new_colors"),
    [
        (PaletteType.PALETTE, ["#000000", "#FFFFFF"], GRADIENT),
        (PaletteType.GRADIENT, GRADIENT, ["#000000", "#FFFFFF"]),
    ],
)
def test_it_keeps_the_shape_of_a_palettes_colours(api, auth, owner, type, colors, new_colors):
    palette = PaletteFactory(owner=owner, type=type, colors=colors)

    response = api.patch(
        f"/v1/public/palettes/{palette.id}", {"colors": new_colors}, format="json", **auth
    )

    assert _invalid(response) == {"colors"}
    palette.refresh_from_db()
    assert (palette.type, palette.colors) == (type, colors)


def test_it_refuses_a_bad_change_and_changes_nothing(api, auth, owner):
    palette = PaletteFactory(owner=owner, name="kept")

    response = api.patch(
        f"/v1/public/palettes/{palette.id}",
        {"name": "new", "isPublic": "yes"},
        format="json",
        **auth,
    )

    assert _invalid(response) == {"isPublic"}
    palette.refresh_from_db()
    assert palette.name == "kept"


@pytest.mark.parametrize("is_public", [True, False])
def test_it_never_lets_others_change_or_delete_a_palette(api, auth, is_public):
    palette = PaletteFactory(name="theirs", is_public=is_public)

    patched = api.patch(
        f"/v1/public/palettes/{palette.id}", {"name": "mine"}, format="json", **auth
    )
    deleted = api.delete(f"/v1/public/palettes/{palette.id}", **auth)

    assert (patched.status_code, deleted.status_code) == (404, 404)
    assert patched.json()["error"] == deleted.json()["error"] == "PALETTE_NOT_FOUND"
    assert Palette.objects.get().name == "theirs"


def test_it_deletes_the_callers_palette(api, auth, owner):
    palette = PaletteFactory(owner=owner)

    response = api.delete(f"/v1/public/palettes/{palette.id}", **auth)

    assert (response.status_code, response.content) == (204, b"")
    assert not Palette.objects.exists()


# Tokens and scopes


@pytest.mark.parametrize(
    ("method", "path", "scope"),
    [
        ("get", "/v1/public/palettes", "read:palettes"),
        ("post", "/v1/public/palettes", "write:palettes"),
        ("get", "/v1/public/palettes/{id}", "read:palettes"),
        ("patch", "/v1/public/palettes/{id}", "write:palettes"),
        ("delete", "/v1/public/palettes/{id}", "write:palettes"),
    ],
)
def test_it_needs_a_token_with_the_right_scope(api, owner, method, path, scope):
    palette = PaletteFactory(owner=owner)
    path = path.format(id=palette.id)
    others = [s for s in Scope.values if s != scope]

    anonymous = getattr(api, method)(path, {}, format="json")
    lacking = getattr(api, method)(
        path, {}, format="json", **bearer(token_for(owner, scopes=others))
    )

    assert (anonymous.status_code, anonymous.json()["error"]) == (401, "INVALID_TOKEN")
    assert (lacking.status_code, lacking.json()["error"]) == (403, "INSUFFICIENT_SCOPE")
    assert Palette.objects.filter(pk=palette.pk).exists()


# The limit


def test_it_refuses_the_hundred_and_first_palette(api, auth, owner):
    PaletteFactory.create_batch(100, owner=owner)

    response = _create(api, auth)

    assert response.status_code == 409
    assert response.json() == {
        "error": "PALETTE_LIMIT",
        "message": "The account already has 100 palettes; delete one first.",
    }
    assert Palette.objects.filter(owner=owner).count() == 100


@pytest.mark.django_db(transaction=True)
def test_it_lets_exactly_one_of_two_simultaneous_creates_take_the_last_place():
    owner = UserFactory()
    PaletteFactory.create_batch(99, owner=owner)
    auth = bearer(token_for(owner))
    barrier = threading.Barrier(2)
    statuses = []

    def create():
        try:
            client = APIClient()
            barrier.wait()
            statuses.append(_create(client, auth).status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=create) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [201, 409]
    assert Palette.objects.filter(owner=owner).count() == 100
