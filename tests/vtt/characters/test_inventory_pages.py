"""The Crows inventory slot board: who gets the page and how (edit, read-only, 404), and the
server refusing an invalid placement through the action API the board uses."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from systems.core.dice import ScriptedDice
from systems.crows import items
from tests.conftest import Table, make_user
from tests.helpers import js_catalogue
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services
from vtt.characters.models import Character

SWORD = {"id": "sword", "name": "Меч", "damage": {"tier1": "1d4", "tier2": "1d6", "tier3": "1d8"}}
POLE = {"id": "pole", "name": "Шест", "slots": 2}
POTION = {"id": "potion-1", "name": "Зелье", "kind": "potion", "stack": 5}


@pytest.fixture
def crows(db) -> Table:
    referee = make_user("crow-gm")
    campaign = campaign_services.campaign_create(user=referee, name="Вороны", ruleset="crows")
    player, other, observer = make_user("crow-pc"), make_user("crow-pc2"), make_user("crow-eye")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=other, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
    return Table(campaign, referee, player, other, observer, make_user("crow-stranger"))


def place(character: Character, actor, item: dict, target: str) -> None:
    services.move_make(
        character=character,
        actor=actor,
        move="place_item",
        params={"item": item, "target": target},
    )


@pytest.fixture
def hero(crows) -> Character:
    character = services.character_create(
        campaign=crows.campaign, actor=crows.player, role="player", name="Грач"
    )
    place(character, crows.player, SWORD, "hands:1")
    place(character, crows.player, POLE, "backpack:1")
    place(character, crows.player, POTION, "belt:1")
    character.refresh_from_db()
    return character


def url(character: Character) -> str:
    return reverse("character_inventory", args=[character.pk])


def config_of(response) -> dict:
    html = response.content.decode()
    match = re.search(
        r'<script id="inventory-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert match, "the page carries its config"
    return json.loads(match.group(1))


@pytest.mark.parametrize(
    ("role", "status", "editable"),
    [
        ("player", 200, True),  # the owner
        ("referee", 200, True),
        ("other_player", 404, None),  # sees only the public part: no board
        ("observer", 404, None),
        ("outsider", 404, None),
    ],
)
def test_board_by_role(crows, hero, client_for, role, status, editable):
    response = client_for(crows.user(role)).get(url(hero))
    assert response.status_code == status
    if status != 200:
        return
    config = config_of(response)
    assert config["editable"] is editable
    assert config["character"]["full"] is True
    inventory = config["character"]["state"]["inventory"]
    assert {p["items"][0]["id"]: (p["area"], p["slot"]) for p in inventory["placed"]} == {
        "sword": ("hands", 1),
        "potion-1": ("belt", 1),
        "pole": ("backpack", 1),
    }
    assert [a["slots"] for a in config["areas"]] == [2, 4, 10]
    assert config["magicSlots"] == [
        "head",
        "neck",
        "waist",
        "arms",
        "finger",
        "feet",
    ]
    html = response.content.decode()
    assert 'id="inv-add"' in html  # the add-item form is for editors
    # the form carries the limits the item card schema checks (docs/limits.md)
    assert f'name="name" maxlength="{items.NAME_MAX}"' in html
    assert f'name="stack" type="number" inputmode="numeric" min="1" max="{items.STACK_MAX}"' in html
    assert f'name="note" maxlength="{items.NOTE_MAX}"' in html
    assert "Только просмотр" not in html


def test_anonymous_is_sent_to_log_in(hero, client):
    response = client.get(url(hero))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_board_is_russian_by_default_and_english_on_request(crows, hero, client_for):
    client = client_for(crows.player)
    html = client.get(url(hero)).content.decode()
    assert "Слоты магических предметов" in html and "Надетый доспех" in html
    # inventory.js's text comes from the JavaScript catalogue of the page's language
    assert js_catalogue(client, client.get(url(hero)))["Retrieve from backpack"] == (
        "Достать из рюкзака"
    )
    crows.player.language = "en"
    crows.player.save(update_fields=["language"])
    response = client.get(url(hero))
    assert "Magic item slots" in response.content.decode()
    assert "Retrieve from backpack" not in js_catalogue(client, response)  # English as written


def test_board_loads_its_script_as_a_module(crows, hero, client_for):
    """inventory.js imports api.js and socket.js itself: no order of script tags to keep."""
    html = client_for(crows.player).get(url(hero)).content.decode()
    assert '<script type="module" src="/static/js/inventory.js">' in html


def test_owner_who_became_an_observer_reads_only(crows, hero, client_for):
    Membership.objects.filter(campaign=crows.campaign, user=crows.player).update(role=Role.OBSERVER)
    response = client_for(crows.player).get(url(hero))
    assert response.status_code == 200
    assert config_of(response)["editable"] is False
    html = response.content.decode()
    assert "Только просмотр" in html
    assert 'id="inv-add"' not in html


def test_archived_campaign_board_is_read_only(crows, hero, client_for):
    campaign_services.campaign_archive(campaign=crows.campaign)
    for user in (crows.player, crows.referee):
        response = client_for(user).get(url(hero))
        assert response.status_code == 200
        assert config_of(response)["editable"] is False


def test_hidden_npc_board_is_the_referees(crows, client_for):
    npc = services.character_create(
        campaign=crows.campaign,
        actor=crows.referee,
        role="referee",
        name="Тень",
        kind="npc",
        hidden=True,
    )
    assert client_for(crows.referee).get(url(npc)).status_code == 200
    assert client_for(crows.player).get(url(npc)).status_code == 404


def test_other_rulesets_have_no_slot_board(table, client_for):
    fighter = services.character_create(
        campaign=table.campaign, actor=table.player, role="player", name="Ава"
    )
    assert client_for(table.player).get(url(fighter)).status_code == 404
    assert client_for(table.referee).get(url(fighter)).status_code == 404


def test_missing_character_is_404(crows, client_for):
    assert client_for(crows.referee).get("/characters/999999/inventory/").status_code == 404


# --- the writes the board makes -----------------------------------------------------------


def move_url(character: Character, move: str) -> str:
    return reverse("api-character-move", args=[character.pk, move])


def test_a_two_slot_item_on_the_last_backpack_slot_is_refused_and_nothing_moves(
    crows, hero, api_for
):
    before = Character.objects.get(pk=hero.pk)
    response = api_for(crows.player).post(
        move_url(hero, "move_item"),
        {"params": {"item_id": "pole", "target": "backpack:10"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "move_refused"
    assert "Шест" in body["detail"] and "не помещается" in body["detail"]
    after = Character.objects.get(pk=hero.pk)
    assert after.version == before.version
    assert after.state == before.state


def test_a_stack_onto_a_hand_is_refused(crows, hero, api_for):
    client = api_for(crows.player)
    for n in (2, 3):
        response = client.post(
            move_url(hero, "place_item"),
            {"params": {"item": {**POTION, "id": f"potion-{n}"}, "target": "belt:1"}},
            format="json",
        )
        assert response.status_code == 201
    version = Character.objects.get(pk=hero.pk).version
    # a second potion onto a hand that already holds one: hands never stack (L360)
    client.post(
        move_url(hero, "move_item"),
        {"params": {"item_id": "potion-3", "target": "hands:2"}},
        format="json",
    )
    response = client.post(
        move_url(hero, "move_item"),
        {"params": {"item_id": "potion-2", "target": "hands:2"}},
        format="json",
    )
    assert response.status_code == 400
    assert "руках" in response.json()["detail"] or "рука" in response.json()["detail"]
    character = Character.objects.get(pk=hero.pk)
    assert character.version == version + 1  # only the first (valid) move counted
    belt = next(p for p in character.state["inventory"]["placed"] if p["area"] == "belt")
    assert [c["id"] for c in belt["items"]] == ["potion-1", "potion-2"]


def test_a_valid_drop_returns_the_new_sheet(crows, hero, api_for):
    response = api_for(crows.player).post(
        move_url(hero, "move_item"),
        {"params": {"item_id": "sword", "target": "belt:3"}},
        format="json",
    )
    assert response.status_code == 201
    character = response.json()["character"]
    assert character["version"] == hero.version + 1
    placed = {
        p["items"][0]["id"]: (p["area"], p["slot"])
        for p in character["state"]["inventory"]["placed"]
    }
    assert placed["sword"] == ("belt", 3)


def test_retrieve_in_combat_rolls_the_d10_on_the_server(crows, hero):
    outcome, _ = services.move_make(
        character=hero,
        actor=crows.player,
        move="retrieve",
        params={"item_id": "pole", "make_room": "swap"},
        dice=ScriptedDice([1]),
    )
    assert outcome.total == 1 and outcome.flags["success"] is True  # slot 1 needs 1+
    hero.refresh_from_db()
    hands = [p for p in hero.state["inventory"]["placed"] if p["area"] == "hands"]
    assert [p["items"][0]["id"] for p in hands] == ["pole"]
    pack = [
        p["items"][0]["id"] for p in hero.state["inventory"]["placed"] if p["area"] == "backpack"
    ]
    assert pack == ["sword"]  # swapped out of the hands into the backpack


@pytest.mark.parametrize(("role", "status"), [("other_player", 403), ("observer", 403)])
def test_others_cannot_move_items(crows, hero, api_for, role, status):
    response = api_for(crows.user(role)).post(
        move_url(hero, "move_item"),
        {"params": {"item_id": "sword", "target": "belt:2"}},
        format="json",
    )
    assert response.status_code == status
    assert Character.objects.get(pk=hero.pk).version == hero.version
