"""Issue 18, item 12: a player's own token stays in their view under the fog (and nobody
else's), and the referee picks a new map's starting fog in its form (revealed by default)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.vtt.maps.conftest import FOGGED_TOKEN
from vtt.campaigns.models import Role
from vtt.maps import selectors, services
from vtt.maps.fog import Fog
from vtt.maps.models import Map
from vtt.table.events import visible_events

pytestmark = pytest.mark.django_db


def _names(state) -> set[str]:
    return {t["name"] for t in state["tokens"]}


def _last_map_event(table, user, role: str):
    events = visible_events(table.campaign.pk, user_id=user.pk, role=role)
    return events.filter(kind__startswith="map.").exclude(payload__audience="referee").last()


def _into_the_fog(table, scene) -> None:
    pc_token = scene.pc_token.pk
    services.token_update(map=scene.map, actor=table.referee, token_id=pc_token, col=8, row=1)


def test_own_token_in_the_fog_stays_with_its_owner_only(table, scene, api_for):
    _into_the_fog(table, scene)
    m = Map.objects.get(pk=scene.map.pk)
    assert not Fog.for_map(m).is_revealed(8, 1)
    mine = selectors.map_state(m, referee=False, viewer_id=table.player.pk)
    theirs = selectors.map_state(m, referee=False, viewer_id=table.other_player.pk)
    assert "Ава" in _names(mine) and FOGGED_TOKEN not in _names(mine)
    assert "Ава" not in _names(theirs)
    # the page's API gives the same
    url = reverse("api-map", args=[table.campaign.pk, m.pk])
    assert "Ава" in _names(api_for(table.player).get(url).json())
    assert "Ава" not in _names(api_for(table.other_player).get(url).json())
    assert "Ава" not in _names(api_for(table.observer).get(url).json())


def test_moving_into_the_fog_the_owner_keeps_the_token_the_others_lose_it(table, scene):
    _into_the_fog(table, scene)
    own = _last_map_event(table, table.player, Role.PLAYER)
    assert own.kind == "map.token" and own.payload["token"]["id"] == scene.pc_token.pk
    assert own.target_id == table.player.pk
    other = _last_map_event(table, table.other_player, Role.PLAYER)
    assert other.kind == "map.token.gone" and other.payload["token_id"] == scene.pc_token.pk


def test_hiding_the_cells_under_a_players_token_keeps_it_for_the_owner(table, scene):
    services.fog_change(map=scene.map, actor=table.referee, reveal=False, rect=[0, 0, 1, 2])
    fog_event = visible_events(table.campaign.pk, user_id=table.other_player.pk, role=Role.PLAYER)
    fog_event = fog_event.filter(kind="map.fog").last()
    assert scene.pc_token.pk in fog_event.payload["gone"]
    own = _last_map_event(table, table.player, Role.PLAYER)
    assert own.kind == "map.token" and own.payload["token"]["name"] == "Ава"
    assert own.seq > fog_event.seq  # after the fog event that removed it
    assert _last_map_event(table, table.other_player, Role.PLAYER).kind == "map.fog"


def test_new_map_form_offers_the_starting_fog_revealed_by_default(table, client_for):
    client = client_for(table.referee)
    url = reverse("maps_page", args=[table.campaign.pk])
    html = client.get(url).content.decode()
    assert 'name="fogged" value="revealed" required id="id_fogged_0" checked>' in html
    assert 'name="fogged" value="hidden" required id="id_fogged_1">' in html
    base = {"kind": "square", "orientation": "flat", "width": 6, "height": 4, "cell_px": 50}
    base["metric"] = "chebyshev"
    client.post(url, {**base, "name": "Поле", "fogged": "revealed"})
    client.post(url, {**base, "name": "Склеп", "fogged": "hidden"})
    open_map, dark_map = Map.objects.get(name="Поле"), Map.objects.get(name="Склеп")
    assert Fog.for_map(open_map).count() == 24 and not open_map.fogged
    assert Fog.for_map(dark_map).count() == 0 and dark_map.fogged
    bad = client.post(url, {**base, "name": "Ошибка", "fogged": "maybe"})
    assert bad.status_code == 400 and not Map.objects.filter(name="Ошибка").exists()


def test_editor_counts_tokens_in_a_node_map_js_updates(table, scene, client_for):
    url = reverse("map_editor", args=[table.campaign.pk, scene.map.pk])
    html = client_for(table.referee).get(url).content.decode()
    assert "(<span data-token-count>6</span>)" in html


def test_leak_scan_lets_the_owner_see_their_token_in_the_fog_and_nobody_else():
    import json

    from tests.e2e.leakscan import Item, scan

    state = {
        "head": 5,
        "audience": "players",
        "map": {"id": 1, "kind": "square", "width": 4, "height": 1, "cell_px": 50},
        "fog": {"version": 2, "runs": [[0, 1]]},  # only cell 0 revealed
        "tokens": [{"id": 9, "name": "Ава", "col": 3, "row": 0, "cells": 1, "owner_id": 7}],
        "notes": [],
        "terrain": {},
        "features": {},
    }

    def leaks_for(user_id: int) -> list:
        item = Item(1, 0.0, "api", "/api/map", "pc", user_id, content_type="application/json")
        item.text = json.dumps(state)
        return [leak for leak in scan([item]).leaks if "fog" in leak.rule]

    assert leaks_for(7) == []
    assert len(leaks_for(8)) == 1


def test_the_owner_is_told_when_their_token_in_the_fog_is_deleted(table, scene):
    _into_the_fog(table, scene)
    token_id = scene.pc_token.pk
    services.token_delete(map=scene.map, actor=table.referee, token_id=token_id)
    own = _last_map_event(table, table.player, Role.PLAYER)
    assert own.kind == "map.token.gone" and own.payload["token_id"] == token_id
    assert own.target_id == table.player.pk
    m = Map.objects.get(pk=scene.map.pk)
    assert "Ава" not in _names(selectors.map_state(m, referee=False, viewer_id=table.player.pk))


@pytest.mark.parametrize("fogged", [False, True])
def test_the_owner_keeps_their_token_when_the_referee_hides_it(table, scene, api_for, fogged):
    """Issue 18 review: the referee's hidden flag hides a token from everyone but the player
    whose character it stands for (they know where their character is); the flag itself never
    reaches them, in the snapshot, the API or the event."""
    if fogged:
        _into_the_fog(table, scene)
    token_id = scene.pc_token.pk
    services.token_update(map=scene.map, actor=table.referee, token_id=token_id, hidden=True)
    own = _last_map_event(table, table.player, Role.PLAYER)
    assert own.kind == "map.token" and own.target_id == table.player.pk
    assert own.payload["token"]["id"] == token_id and "hidden" not in own.payload["token"]
    other = _last_map_event(table, table.other_player, Role.PLAYER)
    if fogged:  # the others had lost it already
        assert other.kind == "map.token.gone" and other.seq < own.seq
    else:
        assert other.kind == "map.token.gone" and other.payload["token_id"] == token_id
    m = Map.objects.get(pk=scene.map.pk)
    mine = selectors.map_state(m, referee=False, viewer_id=table.player.pk)
    (token,) = [t for t in mine["tokens"] if t["id"] == token_id]
    assert "hidden" not in token
    assert "Ава" not in _names(selectors.map_state(m, referee=False, viewer_id=table.observer.pk))
    url = reverse("api-map", args=[table.campaign.pk, m.pk])
    detail = f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/tokens/{token_id}/"
    assert "Ава" in _names(api_for(table.player).get(url).json())
    assert api_for(table.player).get(detail).status_code == 200
    assert "hidden" not in api_for(table.player).get(detail).json()
    assert "Ава" not in _names(api_for(table.other_player).get(url).json())
    assert api_for(table.other_player).get(detail).status_code == 404


def test_the_owner_moves_their_own_token_out_of_the_fog(table, scene):
    """The owner sees their token under the fog, so the server must let them move it (to a
    revealed square); another player still gets "no such token"."""
    from vtt.core.errors import Invalid

    _into_the_fog(table, scene)
    token, _distance = services.token_move(
        map=scene.map, actor=table.player, role=Role.PLAYER, token_id=scene.pc_token.pk,
        col=0, row=0,
    )  # fmt: skip
    assert (token.col, token.row) == (0, 0)
    services.token_update(map=scene.map, actor=table.referee, token_id=token.pk, col=8, row=1)
    with pytest.raises(Invalid):
        services.token_move(
            map=scene.map, actor=table.other_player, role=Role.PLAYER,
            token_id=scene.pc_token.pk, col=0, row=0,
        )  # fmt: skip
