"""Sheets: roles, public parts, validation, 409 on stale writes, history, export, concurrency."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from vtt.characters import services
from vtt.characters.models import Character, CharacterChange
from vtt.table.models import TableEvent


def make_pc(table, owner, name="Ава"):
    return services.character_create(campaign=table.campaign, actor=owner, role="player", name=name)


def make_npc(table, hidden=False, name="Орк"):
    return services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name=name,
        kind="npc",
        hidden=hidden,
        state={"hp": 7, "max_hp": 7, "armor": 1, "damage": "к6"},
    )


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("outsider", 404), ("observer", 403), ("player", 201), ("referee", 201)],
)
def test_create_character_by_role(table, api_for, role, expected):
    resp = api_for(table.user(role)).post(
        f"/api/campaigns/{table.campaign.pk}/characters/", {"name": "Герой"}, format="json"
    )
    assert resp.status_code == expected
    if expected == 201:
        body = resp.json()
        assert body["owner_id"] == table.user(role).pk and body["version"] == 1
        assert body["state"]["name"] == "Герой" and body["state"]["level"] == 1


def test_players_cannot_create_npcs(table, api_for):
    resp = api_for(table.player).post(
        f"/api/campaigns/{table.campaign.pk}/characters/",
        {"name": "Дракон", "kind": "npc"},
        format="json",
    )
    assert resp.status_code == 400 and not Character.objects.exists()


def test_other_players_see_only_the_public_part(table, api_for):
    pc = make_pc(table, table.player)
    mine = api_for(table.player).get(f"/api/characters/{pc.pk}/").json()
    theirs = api_for(table.other_player).get(f"/api/characters/{pc.pk}/").json()
    gm = api_for(table.referee).get(f"/api/characters/{pc.pk}/").json()
    assert mine["full"] and gm["full"] and not theirs["full"]
    assert "stats" in mine["state"] and "stats" not in theirs["state"]
    assert theirs["state"]["hp"] == mine["state"]["hp"]
    assert api_for(table.other_player).get(f"/api/characters/{pc.pk}/history/").status_code == 404
    assert api_for(table.outsider).get(f"/api/characters/{pc.pk}/").status_code == 404


def test_hidden_npcs_do_not_exist_for_players(table, api_for):
    npc = make_npc(table, hidden=True)
    for user in (table.player, table.observer, table.outsider):
        assert api_for(user).get(f"/api/characters/{npc.pk}/").status_code == 404
    listed = api_for(table.player).get(f"/api/campaigns/{table.campaign.pk}/characters/").json()
    assert npc.pk not in [c["id"] for c in listed]
    assert api_for(table.referee).get(f"/api/characters/{npc.pk}/").status_code == 200
    # its creation event went to the referee only
    event = TableEvent.objects.get(kind="character.created", payload__character_id=npc.pk)
    assert event.visibility == "blind"


@pytest.mark.parametrize(
    ("who", "expected"),
    [("player", 200), ("other_player", 403), ("observer", 403), ("referee", 200)],
)
def test_edit_permissions(table, api_for, who, expected):
    pc = make_pc(table, table.player)
    state = {**pc.state, "coins": 5}
    resp = api_for(getattr(table, who)).put(
        f"/api/characters/{pc.pk}/", {"state": state, "version": pc.version}, format="json"
    )
    assert resp.status_code == expected


def test_invalid_edit_is_refused_with_field_errors_and_changes_nothing(table, api_for):
    pc = make_pc(table, table.player)
    bad = {**pc.state, "level": 99, "stats": {**pc.state["stats"], "str": 40}}
    resp = api_for(table.player).put(
        f"/api/characters/{pc.pk}/", {"state": bad, "version": 1}, format="json"
    )
    assert resp.status_code == 400
    fields = resp.json()["fields"]
    assert any("level" in f for f in fields) and any("str" in f for f in fields)
    pc.refresh_from_db()
    assert pc.version == 1 and pc.state["level"] == 1
    assert CharacterChange.objects.filter(character=pc).count() == 1


def test_stale_write_gets_409_with_the_current_sheet(table, api_for):
    pc = make_pc(table, table.player)
    client = api_for(table.player)
    first = client.put(
        f"/api/characters/{pc.pk}/",
        {"state": {**pc.state, "coins": 3}, "version": 1},
        format="json",
    )
    assert first.status_code == 200 and first.json()["version"] == 2
    stale = api_for(table.referee).put(
        f"/api/characters/{pc.pk}/",
        {"state": {**pc.state, "xp": 4}, "version": 1},
        format="json",
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "stale_version" and body["version"] == 2
    assert body["state"]["coins"] == 3
    pc.refresh_from_db()
    assert pc.state["coins"] == 3 and pc.state["xp"] == 0


def test_history_and_one_click_revert(table, api_for):
    pc = make_pc(table, table.player)
    client = api_for(table.player)
    client.put(
        f"/api/characters/{pc.pk}/",
        {"state": {**pc.state, "coins": 10}, "version": 1},
        format="json",
    )
    pc.refresh_from_db()
    client.put(
        f"/api/characters/{pc.pk}/",
        {"state": {**pc.state, "coins": 0}, "version": 2},
        format="json",
    )
    history = client.get(f"/api/characters/{pc.pk}/history/").json()
    assert [h["version"] for h in history] == [3, 2, 1]
    assert history[1]["diff"] == [{"path": "coins", "from": 0, "to": 10}]
    assert history[0]["actor"] == table.player.username
    reverted = (
        api_for(table.referee)
        .post(f"/api/characters/{pc.pk}/revert/", {"version": 2}, format="json")
        .json()
    )
    assert reverted["version"] == 4 and reverted["state"]["coins"] == 10
    assert CharacterChange.objects.get(character=pc, version=4).reason == "revert:2"
    assert (
        api_for(table.other_player)
        .post(f"/api/characters/{pc.pk}/revert/", {"version": 1}, format="json")
        .status_code
        == 403
    )


def test_export_import_round_trip(table, api_for):
    pc = make_pc(table, table.player)
    client = api_for(table.player)
    client.put(
        f"/api/characters/{pc.pk}/",
        {"state": {**pc.state, "bonds": ["Борис спас мне жизнь"]}, "version": 1},
        format="json",
    )
    exported = client.get(f"/api/characters/{pc.pk}/export/").json()
    assert exported["format"] == "vtt-character" and exported["format_version"] == 1
    created = client.post(
        f"/api/campaigns/{table.campaign.pk}/characters/import/", exported, format="json"
    )
    assert created.status_code == 201
    assert created.json()["state"] == {**exported["state"]}
    wrong = client.post(
        f"/api/campaigns/{table.campaign.pk}/characters/import/",
        {**exported, "ruleset": "crows"},
        format="json",
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "wrong_ruleset"
    assert (
        client.post(
            f"/api/campaigns/{table.campaign.pk}/characters/import/", {"x": 1}, format="json"
        ).status_code
        == 400
    )


@pytest.mark.django_db(transaction=True)
def test_two_clients_update_one_sheet_100_times_each_and_nothing_is_lost(table):
    pc = make_pc(table, table.player)
    errors: list[BaseException] = []

    def writer(user, field: str) -> None:
        client = APIClient()
        client.force_authenticate(user)
        try:
            for _ in range(100):
                while True:
                    current = client.get(f"/api/characters/{pc.pk}/").json()
                    state = current["state"]
                    state[field] += 1
                    resp = client.put(
                        f"/api/characters/{pc.pk}/",
                        {"state": state, "version": current["version"]},
                        format="json",
                    )
                    if resp.status_code == 200:
                        break
                    assert resp.status_code == 409, resp.content
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=writer, args=(table.player, "coins")),
        threading.Thread(target=writer, args=(table.referee, "xp")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    pc.refresh_from_db()
    assert pc.state["coins"] == 100 and pc.state["xp"] == 100
    assert pc.version == 201
    assert CharacterChange.objects.filter(character=pc).count() == 201
