"""Map API and pages for every role: anonymous, outsider, observer, player, referee (and the
other player, who may not move someone else's token)."""

from __future__ import annotations

import pytest

from tests.vtt.maps.conftest import png_bytes, upload
from vtt.campaigns import services as campaign_services
from vtt.maps import services
from vtt.maps.models import Map, MapNote, Token

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]


def base(scene) -> str:
    return f"/api/campaigns/{scene.map.campaign_id}/maps/"


def mapurl(scene, tail: str = "") -> str:
    return f"{base(scene)}{scene.map.pk}/{tail}"


@pytest.mark.parametrize(
    ("method", "tail", "data", "expected"),
    [
        ("get", "", None, [401, 404, 200, 200, 200]),
        ("patch", "", {"name": "Новое имя"}, [401, 404, 403, 403, 200]),
        ("post", "activate/", {"active": True}, [401, 404, 403, 403, 200]),
        ("post", "fog/", {"mode": "reveal", "cells": [[5, 5]]}, [401, 404, 403, 403, 200]),
        ("post", "fog/", {"mode": "hide", "rect": [0, 0, 1, 1]}, [401, 404, 403, 403, 200]),
        ("get", "tokens/", None, [401, 404, 200, 200, 200]),
        ("post", "tokens/", {"name": "Волк", "col": 1, "row": 1}, [401, 404, 403, 403, 201]),
        ("post", "round/", {}, [401, 404, 403, 403, 200]),
        ("get", "notes/", None, [401, 404, 200, 200, 200]),
        ("post", "notes/", {"col": 1, "row": 1, "text": "Ловушка"}, [401, 404, 403, 403, 201]),
        ("post", "terrain/", {"terrain": "forest", "cells": [[1, 1]]}, [401, 404, 403, 403, 200]),
        ("post", "party/", {"shown": [1, 1], "true": [2, 2]}, [401, 404, 403, 403, 200]),
    ],
)
def test_map_endpoint_matrix(scene, table, api_for, method, tail, data, expected):
    for role, code in zip(ROLES, expected, strict=True):
        resp = getattr(api_for(table.user(role)), method)(mapurl(scene, tail), data, format="json")
        assert resp.status_code == code, (role, resp.content[:300])


def test_list_and_create(scene, table, api_for):
    hidden_map = services.map_create(campaign=table.campaign, actor=table.referee, name="Логово")
    for role, code in zip(ROLES, [401, 404, 200, 200, 200], strict=True):
        resp = api_for(table.user(role)).get(base(scene))
        assert resp.status_code == code
        if code == 200:
            names = [m["name"] for m in resp.json()]
            assert names == (["Логово", "Склеп"] if role == "referee" else ["Склеп"])
    for role, code in zip(ROLES, [401, 404, 403, 403, 201], strict=True):
        resp = api_for(table.user(role)).post(base(scene), {"name": "Новая"}, format="json")
        assert resp.status_code == code
    # an inactive map does not exist for players
    for role, code in zip(ROLES, [401, 404, 404, 404, 200], strict=True):
        assert api_for(table.user(role)).get(f"{base(scene)}{hidden_map.pk}/").status_code == code
    resp = api_for(table.referee).post(base(scene), {"name": "x", "width": 500}, format="json")
    assert resp.status_code == 400 and "width" in resp.json()["fields"]


def test_move_by_role(scene, table, api_for):
    own = mapurl(scene, f"tokens/{scene.pc_token.pk}/move/")
    for role, code in zip(ROLES, [401, 404, 403, 200, 200], strict=True):
        resp = api_for(table.user(role)).post(own, {"col": 2, "row": 2}, format="json")
        assert resp.status_code == code, (role, resp.content[:200])
    body = api_for(table.player).post(own, {"col": 3, "row": 2}, format="json").json()
    assert body["distance"] == 1 and body["token"]["moved"] == 2  # 1 + 0 (referee) + 1
    other = mapurl(scene, f"tokens/{scene.other_token.pk}/move/")
    assert api_for(table.player).post(other, {"col": 0, "row": 0}, format="json").status_code == 403
    assert (
        api_for(table.other_player).post(other, {"col": 0, "row": 0}, format="json").status_code
        == 200
    )
    for secret in (scene.hidden_token, scene.fogged_token):
        url = mapurl(scene, f"tokens/{secret.pk}/move/")
        assert (
            api_for(table.player).post(url, {"col": 0, "row": 0}, format="json").status_code == 404
        )
        assert api_for(table.player).get(mapurl(scene, f"tokens/{secret.pk}/")).status_code == 404
    resp = api_for(table.player).post(own, {"col": 7, "row": 2}, format="json")
    assert resp.status_code == 400 and resp.json()["code"] == "fogged"
    resp = api_for(table.player).post(own, {"col": 99, "row": 2}, format="json")
    assert resp.status_code == 400


def test_move_bodies_other_than_two_integers_read_as_the_serializer_reads_them(
    scene, table, api_for
):
    """``{"col": int, "row": int}`` skips the serializer; every other body goes through it."""
    own = mapurl(scene, f"tokens/{scene.pc_token.pk}/move/")
    player = api_for(table.player)
    assert player.post(own, {"col": 2, "row": 2}, format="json").status_code == 200
    # unknown keys are ignored
    resp = player.post(own, {"col": 3, "row": 2, "note": "x"}, format="json")
    assert resp.status_code == 200 and resp.json()["token"]["col"] == 3
    for body, field in (
        ({"col": True, "row": 2}, "col"),  # a bool is no integer to DRF
        # strict types (issue 18): numeric strings and whole floats are not integers either
        ({"col": "3", "row": 2}, "col"),
        ({"col": 3, "row": 2.0}, "row"),
        ({"col": "３", "row": 2}, "col"),
        ({"col": "три", "row": 2}, "col"),
        ({"col": 2, "row": None}, "row"),
        ({"col": 2.5, "row": 2}, "col"),
    ):
        resp = player.post(own, body, format="json")
        assert resp.status_code == 400, body
        assert field in resp.json(), (body, resp.json())  # DRF: {field: [message]}
    resp = player.post(own, {"col": 2}, format="json")
    assert resp.status_code == 400 and "col" in resp.json()["fields"]
    resp = player.post(own, [2, 2], format="json")
    assert resp.status_code == 400


def test_token_detail_and_delete(scene, table, api_for):
    url = mapurl(scene, f"tokens/{scene.hidden_token.pk}/")
    assert api_for(table.referee).get(url).json()["hidden"] is True
    assert api_for(table.player).patch(url, {"hidden": False}, format="json").status_code == 403
    assert api_for(table.referee).patch(url, {"hidden": False}, format="json").status_code == 200
    assert "hidden" not in api_for(table.player).get(url).json()
    assert api_for(table.player).delete(url).status_code == 403
    assert api_for(table.referee).delete(url).status_code == 204
    assert not Token.objects.filter(pk=scene.hidden_token.pk).exists()


def test_note_detail(scene, table, api_for):
    url = mapurl(scene, f"notes/{scene.secret_note.pk}/")
    assert api_for(table.player).patch(url, {"secret": False}, format="json").status_code == 403
    resp = api_for(table.referee).patch(url, {"secret": False}, format="json")
    assert resp.status_code == 200 and resp.json()["secret"] is False
    notes = api_for(table.player).get(mapurl(scene, "notes/")).json()
    assert {n["id"] for n in notes} == {scene.secret_note.pk, scene.public_note.pk}
    assert api_for(table.referee).delete(url).status_code == 204
    assert not MapNote.objects.filter(pk=scene.secret_note.pk).exists()


def test_delete_map_matrix(scene, table, api_for):
    for role, code in zip(ROLES, [401, 404, 403, 403, 204], strict=True):
        assert api_for(table.user(role)).delete(mapurl(scene)).status_code == code
    assert not Map.objects.exists()


def test_background_upload_by_role(scene, table, api_for):
    url = mapurl(scene, "background/")
    for role, code in zip(ROLES, [401, 404, 403, 403, 200], strict=True):
        resp = api_for(table.user(role)).put(
            url, {"image": upload(png_bytes())}, format="multipart"
        )
        assert resp.status_code == code, (role, resp.content[:200])
    scene.map.refresh_from_db()
    assert scene.map.background and scene.map.bg_width == 200
    resp = api_for(table.referee).delete(url)
    assert resp.status_code == 200 and resp.json()["background"] is None


def test_archived_campaign_refuses_writes(scene, table, api_for):
    campaign_services.campaign_archive(campaign=table.campaign)
    resp = api_for(table.referee).post(mapurl(scene, "fog/"), {"mode": "reveal", "all": True})
    assert resp.status_code == 409
    own = mapurl(scene, f"tokens/{scene.pc_token.pk}/move/")
    assert api_for(table.player).post(own, {"col": 2, "row": 2}, format="json").status_code == 409
    assert api_for(table.player).get(mapurl(scene)).status_code == 200


# --- pages --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("maps/", [302, 404, 403, 403, 200]),
        ("maps/{map}/", [302, 404, 403, 403, 200]),
        ("maps/panel/", [302, 404, 200, 200, 200]),
        ("table/", [302, 404, 200, 200, 200]),
    ],
)
def test_pages_by_role(scene, table, client_for, path, expected):
    url = f"/campaigns/{table.campaign.pk}/" + path.format(map=scene.map.pk)
    for role, code in zip(ROLES, expected, strict=True):
        assert client_for(table.user(role)).get(url).status_code == code, role


def test_referee_creates_and_edits_a_map_through_the_pages(table, client_for):
    client = client_for(table.referee)
    url = f"/campaigns/{table.campaign.pk}/maps/"
    resp = client.post(
        url,
        {"name": "Башня", "kind": "hex", "orientation": "pointy", "width": 12, "height": 9,
         "cell_px": 60, "metric": "chebyshev", "fogged": "hidden"},
    )  # fmt: skip
    m = Map.objects.get()
    assert resp.status_code == 302 and resp["Location"].endswith(f"/maps/{m.pk}/")
    assert (m.kind, m.orientation, m.width, m.height, m.distance_unit) == (
        "hex",
        "pointy",
        12,
        9,
        "mi",
    )
    editor = client.get(f"{url}{m.pk}/")
    assert editor.status_code == 200 and "Башня" in editor.content.decode()
    resp = client.post(
        f"{url}{m.pk}/",
        {"action": "settings", "map-name": "Башня", "map-kind": "hex", "map-orientation": "flat",
         "map-width": 300, "map-height": 9, "map-cell_px": 60, "map-metric": "chebyshev"},
    )  # fmt: skip
    assert resp.status_code == 400
    resp = client.post(f"{url}{m.pk}/", {"action": "activate"})
    assert resp.status_code == 302
    m.refresh_from_db()
    assert m.active
    resp = client.post(
        f"{url}{m.pk}/upload/", {"image": upload(png_bytes((640, 480))), "fit": "on"}
    )
    assert resp.status_code == 302
    m.refresh_from_db()
    # 10.5 hexes × 60 px = 630 ≤ 640 wide; 8 rows: 60/√3 × (1.5 × 7 + 2) ≈ 433 ≤ 480 high
    assert m.background and (m.width, m.height) == (10, 8)
    resp = client.post(f"{url}{m.pk}/", {"action": "delete"})
    assert resp.status_code == 302 and not Map.objects.exists()
    assert client_for(table.player).post(url, {"name": "x"}).status_code == 403


def test_upload_page_checks_csrf(scene, table):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(table.referee)
    url = f"/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/upload/"
    resp = client.post(url, {"image": upload(png_bytes())})
    assert resp.status_code == 403
    scene.map.refresh_from_db()
    assert not scene.map.background
