"""Savage Worlds sheets at the table: a GM character is an extra unless the referee marks it a
wild card, its role is always the GM's, and the Injury Table's roll reaches the table log."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from systems.core.dice import ScriptedDice
from vtt.characters import services
from vtt.characters.models import Character
from vtt.table.models import TableEvent
from vtt.tablestate import services as table_services


@pytest.fixture
def sw(table):
    table.campaign.ruleset = "savage_worlds"
    table.campaign.save(update_fields=["ruleset"])
    return table


def characters_url(table) -> str:
    return f"/api/campaigns/{table.campaign.pk}/characters/"


def test_an_npc_made_through_the_api_is_an_extra_of_the_gm(sw, api_for):
    body = (
        api_for(sw.referee)
        .post(characters_url(sw), {"name": "Гоблин", "kind": "npc"}, format="json")
        .json()
    )
    assert body["state"]["role"] == "npc"
    assert body["state"]["wild_card"] is False and body["state"]["bennies"] == 0
    pc = api_for(sw.player).post(characters_url(sw), {"name": "Ава"}, format="json").json()
    assert pc["state"]["role"] == "pc" and pc["state"]["wild_card"] is True


def test_an_npc_made_through_the_list_page_is_an_extra_too(sw, client_for):
    url = reverse("character_list", args=[sw.campaign.pk])
    assert client_for(sw.referee).post(url, {"kind": "npc", "npc-name": "Орк"}).status_code == 302
    orc = Character.objects.get(name="Орк")
    assert orc.state["role"] == "npc" and orc.state["wild_card"] is False


def test_the_referee_marks_a_wild_card_and_the_role_stays_the_gms(sw, api_for):
    client = api_for(sw.referee)
    npc = client.post(characters_url(sw), {"name": "Злодей", "kind": "npc"}, format="json").json()
    state = {**npc["state"], "wild_card": True, "role": "pc", "bennies": 2}
    response = client.put(
        f"/api/characters/{npc['id']}/", {"state": state, "version": 1}, format="json"
    )
    assert response.status_code == 200, response.content
    saved = response.json()["state"]
    assert saved["wild_card"] is True and saved["role"] == "npc" and saved["bennies"] == 2
    # demoted to an extra: the bennies it held go (extras keep none)
    state = {**saved, "wild_card": False}
    response = client.put(
        f"/api/characters/{npc['id']}/", {"state": state, "version": 2}, format="json"
    )
    assert response.status_code == 200 and response.json()["state"]["bennies"] == 0
    # a player's character cannot be made an extra, nor the GM's
    pc = api_for(sw.player).post(characters_url(sw), {"name": "Ава"}, format="json").json()
    response = api_for(sw.player).put(
        f"/api/characters/{pc['id']}/",
        {"state": {**pc["state"], "role": "npc"}, "version": 1},
        format="json",
    )
    assert response.status_code == 200 and response.json()["state"]["role"] == "pc"
    assert response.json()["version"] == 1  # nothing changed
    response = api_for(sw.player).put(
        f"/api/characters/{pc['id']}/",
        {"state": {**pc["state"], "wild_card": False}, "version": 1},
        format="json",
    )
    assert response.status_code == 400


def test_an_extra_rolls_without_the_wild_die_and_has_nothing_to_reroll_with(sw, api_for):
    npc = (
        api_for(sw.referee)
        .post(characters_url(sw), {"name": "Гоблин", "kind": "npc"}, format="json")
        .json()
    )
    response = api_for(sw.referee).post(
        f"/api/characters/{npc['id']}/moves/trait_check/",
        {"params": {"trait": "strength"}},
        format="json",
    )
    assert response.status_code == 201, response.content
    outcome = response.json()["outcome"]
    assert outcome["details"]["roll"]["wild"] is False
    assert outcome["details"]["attempts"][0]["wild_faces"] in (None, [])
    assert response.json()["pending_id"] is None  # pool empty, no bennies of its own
    award = api_for(sw.referee).post(
        f"/api/characters/{npc['id']}/moves/award_benny/", {"params": {}}, format="json"
    )
    assert award.status_code == 400 and award.json()["detail"]


def test_an_old_npc_sheet_saying_pc_is_still_read_as_the_gms(sw):
    orc = services.character_create(
        campaign=sw.campaign,
        actor=sw.referee,
        role="referee",
        name="Орк",
        kind="npc",
        state={"wild_card": True},
    )
    Character.objects.filter(pk=orc.pk).update(state={**orc.state, "role": "pc"})  # legacy row
    table_services.table_move(
        campaign=sw.campaign,
        actor=sw.referee,
        role="referee",
        move="adjust_pool",
        params={"delta": 1},
    )
    orc.refresh_from_db()
    _out, pending = services.move_make(
        character=orc,
        actor=sw.referee,
        move="trait_check",
        params={"trait": "strength"},
        dice=ScriptedDice([1, 2]),  # d4 1, wild d6 2: a failure
    )
    assert pending.chooser == "referee"
    assert {o["key"] for o in pending.outcome["options"]} == {"keep", "reroll_pool"}


def test_the_sheet_page_hides_bennies_for_extras(sw, client_for, api_for):
    npc = (
        api_for(sw.referee)
        .post(characters_url(sw), {"name": "Гоблин", "kind": "npc"}, format="json")
        .json()
    )
    page = client_for(sw.referee).get(reverse("character_sheet", args=[npc["id"]]))
    assert page.status_code == 200
    html = page.content.decode()
    start = html.index('id="sheet-config"')
    config = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    assert config["schema"]["fields"]["bennies"]["show_if"] == {"wild_card": True}
    assert config["character"]["state"]["wild_card"] is False
    keys = {m["key"] for m in config["moves"]} | {m["key"] for m in config["actions"]}
    assert {"injury_roll", "heal_injury", "incapacitation_roll"} <= keys


def test_the_incapacitation_roll_rolls_the_injury_table_and_logs_it(sw):
    ava = services.character_create(
        campaign=sw.campaign,
        actor=sw.player,
        role="player",
        name="Ава",
        state={"wounds": 3, "status": "incapacitated", "attributes": {"agility": "d8"}},
    )
    # Vigor d4 [4, 3] + wild [1] = 7 - 3 = 4: success → until the wounds heal;
    # the table: 2d6 [3, 4] = 7 → guts, d6 [2] → broken: Agility d8 → d6
    with ScriptedDice([4, 3, 1, 3, 4, 2]) as dice:
        outcome, pending = services.move_make(
            character=ava, actor=sw.player, move="incapacitation_roll", dice=dice
        )
    assert pending is None and outcome.flags["injury_result"] == "guts_broken"
    ava.refresh_from_db()
    assert ava.state["attributes"]["agility"] == "d6"
    assert ava.state["injuries"][0]["key"] == "guts_broken"
    event = TableEvent.objects.get(kind="tablestate", payload__action="injury")
    assert event.visibility == "everyone"
    data = event.payload["data"]
    assert data["faces"] == [3, 4] and data["sub_face"] == 2 and data["total"] == 7
    assert data["result"] == "guts_broken" and data["duration"] == "until_healed"
    assert data["label"]["ru"] == "Корпус: перелом"
    move = TableEvent.objects.get(kind="move")
    assert move.seq < event.seq and "Травма" in move.payload["outcome"]["text"]["ru"]


def test_a_hidden_npcs_injury_reaches_the_referee_only(sw):
    lich = services.character_create(
        campaign=sw.campaign,
        actor=sw.referee,
        role="referee",
        name="Лич",
        kind="npc",
        hidden=True,
        state={"wild_card": True},
    )
    with ScriptedDice([6, 6, 6]) as dice:  # the table: 12 → head, d6 6: brain damage
        services.move_make(
            character=lich,
            actor=sw.referee,
            move="injury_roll",
            params={"duration": "permanent"},
            dice=dice,
        )
    event = TableEvent.objects.get(kind="tablestate", payload__action="injury")
    assert event.visibility == "blind"
    lich.refresh_from_db()
    assert lich.state["attributes"]["smarts"] == "d4"  # already d4: stays
