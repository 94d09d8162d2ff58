"""The map's actions sent as socket commands: the same command, checks and answers as the API
(vtt/maps/commands.py), within the socket's own campaign."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.sockets import command, connect, hello, next_of
from vtt.campaigns import services as campaign_services
from vtt.maps import services
from vtt.maps.models import MapNote, Token
from vtt.table.models import TableEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _api(user, method: str, url: str, body=None):
    """The same action over HTTP, for comparing answers."""
    client = APIClient()
    client.force_authenticate(user)
    response = getattr(client, method)(url, body, format="json")
    return response.status_code, response.json() if response.content else None


def _url(scene, suffix: str) -> str:
    return f"/api/campaigns/{scene.map.campaign_id}/maps/{scene.map.pk}/{suffix}"


async def test_a_token_move_is_acked_and_reaches_the_table(table, scene):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    args = {"map_id": scene.map.pk, "token_id": scene.pc_token.pk}
    ack = await command(pc, "token.move", "m-1", {"col": 2, "row": 2}, args)
    assert ack["type"] == "ack" and ack["status"] == 200 and not ack["replayed"]
    assert ack["result"]["token"]["col"] == 2 and ack["result"]["distance"] == 1
    event = (await next_of(gm, "event"))["event"]
    assert event["kind"] == "map.token"
    assert event["payload"]["token"]["id"] == scene.pc_token.pk
    assert (event["payload"]["token"]["col"], event["payload"]["token"]["row"]) == (2, 2)
    await gm.disconnect()
    await pc.disconnect()


async def test_the_same_key_moves_once(table, scene):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    args = {"map_id": scene.map.pk, "token_id": scene.pc_token.pk}
    first = await command(pc, "token.move", "m-2", {"col": 2, "row": 2}, args)
    events = await sync_to_async(TableEvent.objects.count)()
    again = await command(pc, "token.move", "m-2", {"col": 2, "row": 2}, args)
    assert again["type"] == "ack" and again["replayed"] and again["status"] == 200
    assert again["result"] == first["result"]
    token = await sync_to_async(Token.objects.get)(pk=scene.pc_token.pk)
    assert token.moved == 1  # one move's distance, not two
    assert await sync_to_async(TableEvent.objects.count)() == events  # nothing published again
    # the same key sent later by HTTP (a lost answer retried) is the first answer too
    client = APIClient()
    client.force_authenticate(table.player)
    url = _url(scene, f"tokens/{scene.pc_token.pk}/move/")
    response = await sync_to_async(client.post)(
        url, {"col": 2, "row": 2}, format="json", HTTP_IDEMPOTENCY_KEY="m-2"
    )
    assert response.status_code == 200 and response["Idempotent-Replayed"] == "true"
    assert (await sync_to_async(Token.objects.get)(pk=scene.pc_token.pk)).moved == 1
    assert await sync_to_async(TableEvent.objects.count)() == events
    await pc.disconnect()


async def test_refusals_answer_as_the_api_does(table, scene):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    cases = [
        # another player's token: 403 not_owner
        (
            "token.move",
            {"token_id": scene.other_token.pk},
            {"col": 2, "row": 3},
            "post",
            f"tokens/{scene.other_token.pk}/move/",
        ),
        # a hidden token does not exist for a player: 404
        (
            "token.move",
            {"token_id": scene.hidden_token.pk},
            {"col": 2, "row": 3},
            "post",
            f"tokens/{scene.hidden_token.pk}/move/",
        ),
        # no row: 400 with the field
        (
            "token.move",
            {"token_id": scene.pc_token.pk},
            {"col": 2},
            "post",
            f"tokens/{scene.pc_token.pk}/move/",
        ),
        # referee-only commands: 403 before the body is read
        ("map.fog", {}, {"mode": "nonsense"}, "post", "fog/"),
        ("token.add", {}, {"name": "x" * 500}, "post", "tokens/"),
        (
            "note.delete",
            {"note_id": scene.public_note.pk},
            None,
            "delete",
            f"notes/{scene.public_note.pk}/",
        ),
        ("map.round", {}, None, "post", "round/"),
        ("combat", {"step": "start"}, {}, "post", "combat/start/"),
        # an unknown step is 404, as its URL is
        ("travel", {"step": "fly"}, {}, "post", "travel/fly/"),
    ]
    for n, (name, extra, params, method, suffix) in enumerate(cases):
        args = {"map_id": scene.map.pk, **extra}
        frame = await command(pc, name, f"r-{n}", params, args)
        code, body = await sync_to_async(_api)(table.player, method, _url(scene, suffix), params)
        assert frame["type"] == "error", (name, frame)
        assert frame["status"] == code, (name, frame, code, body)
        if isinstance(body, dict) and body.get("code"):
            assert frame["code"] == body["code"], (name, frame, body)
    token = await sync_to_async(Token.objects.get)(pk=scene.other_token.pk)
    assert (token.col, token.row) == (2, 1)
    await pc.disconnect()


async def test_another_campaigns_map_does_not_exist_on_this_socket(table, scene):
    other = await sync_to_async(campaign_services.campaign_create)(
        user=table.referee, name="Другая", ruleset="dungeon_world"
    )
    far = await sync_to_async(services.map_create)(
        campaign=other, actor=table.referee, name="Чужая", width=5, height=5
    )
    far_token = await sync_to_async(services.token_create)(
        map=far, actor=table.referee, name="Чужой", col=1, row=1
    )
    gm = await connect(table.referee, table.campaign.pk)
    await hello(gm)
    moved = await command(
        gm, "token.move", "x-1", {"col": 2, "row": 2}, {"map_id": far.pk, "token_id": far_token.pk}
    )
    assert moved["type"] == "error" and moved["status"] == 404
    added = await command(gm, "token.add", "x-2", {"name": "Чужак"}, {"map_id": far.pk})
    assert added["status"] == 404
    fog = await command(gm, "map.fog", "x-3", {"mode": "reveal", "all": True}, {"map_id": far.pk})
    assert fog["status"] == 404
    token = await sync_to_async(Token.objects.get)(pk=far_token.pk)
    assert (token.col, token.row) == (1, 1)
    assert not await sync_to_async(Token.objects.filter(map=far, name="Чужак").exists)()
    # the API answers the same: the map is looked up within the path's campaign
    code, _body = await sync_to_async(_api)(
        table.referee,
        "post",
        f"/api/campaigns/{table.campaign.pk}/maps/{far.pk}/tokens/{far_token.pk}/move/",
        {"col": 2, "row": 2},
    )
    assert code == 404
    await gm.disconnect()


async def test_the_referees_map_commands(table, scene):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    on_map = {"map_id": scene.map.pk}
    added = await command(gm, "token.add", "g-1", {"name": "Волк", "col": 0, "row": 3}, on_map)
    assert added["status"] == 201 and added["result"]["name"] == "Волк"
    seen = (await next_of(pc, "event"))["event"]
    assert seen["kind"] == "map.token" and seen["payload"]["token"]["name"] == "Волк"
    note = await command(gm, "note.add", "g-2", {"col": 1, "row": 3, "text": "Лаз"}, on_map)
    assert note["status"] == 201 and note["result"]["secret"] is True
    assert await sync_to_async(MapNote.objects.filter(text="Лаз").exists)()
    fog = await command(gm, "map.fog", "g-3", {"mode": "reveal", "cells": [[5, 0]]}, on_map)
    assert fog["type"] == "ack"
    gone = await command(
        gm, "token.delete", "g-4", None, {**on_map, "token_id": added["result"]["id"]}
    )
    assert gone["status"] == 204 and gone["result"] is None
    assert not await sync_to_async(Token.objects.filter(name="Волк").exists)()
    round_ = await command(gm, "map.round", "g-5", None, on_map)
    assert round_["status"] == 200 and "reset" in round_["result"]
    bad = await command(gm, "map.fog", "g-6", {"mode": "reveal"}, on_map)
    assert bad["status"] == 400 and bad["code"] == "no_cells"
    await gm.disconnect()
    await pc.disconnect()
