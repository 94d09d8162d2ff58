"""The prep API for every role (anonymous 401, outsider 404, observer and player 403, referee
2xx), table validation over HTTP with exact codes, and table rolls seen through the events API."""

from __future__ import annotations

import pytest

from tests.vtt.prep.conftest import simple_table
from vtt.prep import services
from vtt.prep.models import RandomTable, RoomMonster, TableResult
from vtt.table.models import InitiativeEntry

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]
DENIED = {"anonymous": 401, "outsider": 404, "observer": 403, "player": 403}


@pytest.fixture
def prepared(table):
    dungeon = services.dungeon_create(campaign=table.campaign, name="Склеп")
    room = services.room_create(dungeon=dungeon, key="12", name="Склеп")
    (npc,) = services.npc_place(
        campaign=table.campaign, actor=table.referee, block_key="goblin", room=room
    )
    loot = services.table_create(campaign=table.campaign, data=simple_table())
    monster = RoomMonster.objects.get(room=room)
    return {"dungeon": dungeon, "room": room, "npc": npc, "table": loot, "monster": monster}


def endpoints(t, p):
    base = f"/api/campaigns/{t.campaign.pk}/prep"
    tid, did, rid, mid = p["table"].pk, p["dungeon"].pk, p["room"].pk, p["monster"].pk
    return [
        ("get", f"{base}/tables/", None, 200),
        ("post", f"{base}/tables/", simple_table("new"), 201),
        ("get", f"{base}/tables/{tid}/", None, 200),
        ("put", f"{base}/tables/{tid}/", simple_table(name="Добыча"), 200),
        ("post", f"{base}/tables/{tid}/roll/", {"visibility": "blind"}, 201),
        ("get", f"{base}/tables/{tid}/export/?format=csv", None, 200),
        ("get", f"{base}/tables/export/?format=json", None, 200),
        ("post", f"{base}/tables/import/", {"tables": [simple_table("imp")]}, 201),
        ("get", f"{base}/results/", None, 200),
        ("get", f"{base}/library/", None, 200),
        ("post", f"{base}/library/tables/copy/", {}, 201),
        ("post", f"{base}/library/npcs/orc/place/", {"count": 1}, 201),
        ("get", f"{base}/dungeons/", None, 200),
        ("post", f"{base}/dungeons/", {"name": "Башня"}, 201),
        ("get", f"{base}/dungeons/{did}/", None, 200),
        ("put", f"{base}/dungeons/{did}/", {"description": "Сыро"}, 200),
        ("get", f"{base}/dungeons/{did}/rooms/", None, 200),
        ("post", f"{base}/dungeons/{did}/rooms/", {"key": "13", "cells": [[1, 2]]}, 201),
        ("get", f"{base}/rooms/{rid}/", None, 200),
        ("patch", f"{base}/rooms/{rid}/", {"treasure": ["Кубок"]}, 200),
        ("post", f"{base}/rooms/{rid}/monsters/", {"character_id": p["npc"].pk, "count": 2}, 201),
        ("post", f"{base}/rooms/{rid}/monsters/{mid}/initiative/", {"value": 5}, 201),
        ("delete", f"{base}/rooms/{rid}/monsters/{mid}/", None, 204),
        ("delete", f"{base}/rooms/{rid}/", None, 204),
        ("delete", f"{base}/dungeons/{did}/", None, 204),
        ("delete", f"{base}/tables/{tid}/", None, 204),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_every_endpoint_for_every_role(table, prepared, api_for, role):
    client = api_for(table.user(role))
    for method, url, data, ok in endpoints(table, prepared):
        response = getattr(client, method)(url, data, format="json")
        expected = DENIED.get(role, ok)
        assert response.status_code == expected, (method, url, response.content[:300])
    if role != "referee":
        assert TableResult.objects.count() == 0
        assert InitiativeEntry.objects.count() == 0
        assert RandomTable.objects.count() == 1


def test_gap_overlap_and_loop_codes_over_http(table, api_for):
    client = api_for(table.referee)
    url = f"/api/campaigns/{table.campaign.pk}/prep/tables/"
    gap = client.post(url, simple_table(entries=[{"min": 1, "max": 5, "text": "a"}]), format="json")
    assert gap.status_code == 400
    assert gap.json()["code"] == "table_gap"
    assert gap.json()["detail"] == "Нет строки для 6 (таблица охватывает 1–6)."
    overlap = client.post(
        url,
        simple_table(
            entries=[{"min": 1, "max": 4, "text": "a"}, {"min": 4, "max": 6, "text": "b"}]
        ),
        format="json",
    )
    assert overlap.json()["code"] == "table_overlap"
    assert overlap.json()["problems"] == [
        {"code": "table_overlap", "message": "Строки 1 и 2 перекрываются на 4."}
    ]
    client.post(url, simple_table("a"), format="json")
    loop = simple_table("a", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["a"]}])
    a_id = RandomTable.objects.get(key="a").pk
    response = client.put(f"{url}{a_id}/", loop, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["code"] == "table_cycle"


def test_roll_visibility_through_the_events_api(table, api_for):
    services.table_create(campaign=table.campaign, data=simple_table())
    tid = RandomTable.objects.get().pk
    referee = api_for(table.referee)
    url = f"/api/campaigns/{table.campaign.pk}/prep/tables/{tid}/roll/"
    blind = referee.post(url, {"visibility": "blind"}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert blind.status_code == 201
    replay = referee.post(url, {"visibility": "blind"}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    assert replay.json()["id"] == blind.json()["id"]
    open_roll = referee.post(url, {"visibility": "everyone"}, format="json")
    assert open_roll.status_code == 201

    events = f"/api/campaigns/{table.campaign.pk}/events/"

    def table_rolls(user):
        data = api_for(user).get(events).json()
        return [e for e in data["events"] if e["kind"] == "random_table.roll"]

    seen_by_referee = table_rolls(table.referee)
    assert [e["visibility"] for e in seen_by_referee] == ["blind", "everyone"]
    assert seen_by_referee[0]["payload"]["result_id"] == blind.json()["id"]
    for user in (table.player, table.other_player, table.observer):
        seen = table_rolls(user)
        assert [e["payload"]["result_id"] for e in seen] == [open_roll.json()["id"]]
        every_seq = [e["seq"] for e in api_for(user).get(events).json()["events"]]
        assert blind.json()["event_seq"] not in every_seq
    bad = referee.post(url, {"visibility": "whisper"}, format="json")
    assert bad.status_code == 400


def test_archived_campaign_reads_but_refuses_writes(table, prepared, api_for):
    from django.utils import timezone

    table.campaign.archived_at = timezone.now()
    table.campaign.save()
    client = api_for(table.referee)
    base = f"/api/campaigns/{table.campaign.pk}/prep"
    assert client.get(f"{base}/tables/").status_code == 200
    response = client.post(f"{base}/tables/{prepared['table'].pk}/roll/", {}, format="json")
    assert response.status_code == 409


def test_objects_of_another_campaign_are_404(table, prepared, api_for):
    from vtt.campaigns import services as campaign_services

    other = campaign_services.campaign_create(user=table.referee, name="B", ruleset="tales")
    client = api_for(table.referee)
    base = f"/api/campaigns/{other.pk}/prep"
    assert client.get(f"{base}/tables/{prepared['table'].pk}/").status_code == 404
    assert client.get(f"{base}/rooms/{prepared['room'].pk}/").status_code == 404
    assert client.get(f"{base}/dungeons/{prepared['dungeon'].pk}/").status_code == 404
    response = client.post(
        f"{base}/library/npcs/wolf/place/", {"room_id": prepared["room"].pk}, format="json"
    )
    assert response.status_code == 404
