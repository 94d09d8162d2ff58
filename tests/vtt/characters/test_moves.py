"""Moves at the table: server rolls, state saved, events published, choices resumed."""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from vtt.characters import services
from vtt.characters.models import PendingMove
from vtt.table.models import TableEvent


@pytest.fixture
def fighter(table):
    return services.character_create(
        campaign=table.campaign,
        actor=table.player,
        role="player",
        name="Ава",
        state={
            "stats": {"str": 16, "dex": 13, "con": 12, "int": 9, "wis": 10, "cha": 8},
            "damage_die": "d10",
            "hp": 20,
            "max_hp": 20,
            "ammo": 3,
        },
    )


@pytest.fixture
def orc(table):
    return services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Орк",
        kind="npc",
        state={"hp": 12, "max_hp": 12, "armor": 1, "damage": "к8"},
    )


def test_hack_and_slash_hits_the_npc_and_publishes(table, api_for, fighter, orc):
    dice = ScriptedDice([5, 4])  # 2d6 9 + STR 2 = 11 → 10+: choose avoid or +1d6
    outcome, pending = services.move_make(
        character=fighter, actor=table.player, move="hack_and_slash", target_id=orc.pk, dice=dice
    )
    dice.assert_done()
    assert outcome.total == 11 and outcome.band == "10+" and pending.chooser == "player"
    move = TableEvent.objects.get(kind="move")
    assert move.visibility == "everyone"
    assert move.payload["outcome"]["faces"] == [5, 4]
    assert move.payload["pending_id"] == pending.pk
    assert "details" not in move.payload["outcome"]  # no monster HP for players
    with ScriptedDice([7]) as damage:  # d10 damage 7, armor 1
        outcome, follow = services.move_choose(
            pending=pending, actor=table.player, role="player", choices=["avoid"], dice=damage
        )
    assert follow is None
    orc.refresh_from_db()
    assert orc.state["hp"] == 12 - (7 - 1)
    assert orc.version == 2
    details = TableEvent.objects.filter(kind="move.details").last()
    assert details.visibility == "blind" and details.payload["details"]["target"]["hp"] == 6
    npc_update = TableEvent.objects.get(kind="character.updated", payload__character_id=orc.pk)
    assert npc_update.visibility == "everyone"
    assert "hp" not in npc_update.payload["public"]  # an NPC's public part is its name only


def test_volley_7_9_waits_for_the_players_choice_then_resolves(table, api_for, fighter):
    dice = ScriptedDice([3, 3])  # 6 + DEX +1 = 7 → 7-9, choose one
    outcome, pending = services.move_make(
        character=fighter, actor=table.player, move="volley", dice=dice
    )
    assert outcome.band == "7-9" and outcome.pick == 1 and pending is not None
    assert pending.chooser == "player"
    keys = [o.key for o in outcome.options]
    assert "ammo" in keys
    event = TableEvent.objects.get(kind="move")
    assert event.payload["pending_id"] == pending.pk
    # another player cannot choose for her (a 403: not theirs to answer); the owner can
    url = f"/api/characters/{fighter.pk}/pending/{pending.pk}/"
    refused = api_for(table.other_player).post(url, {"choices": ["ammo"]}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "player_chooses"
    listed = api_for(table.player).get(f"/api/characters/{fighter.pk}/pending/").json()
    assert [p["id"] for p in listed] == [pending.pk]
    resp = api_for(table.player).post(url, {"choices": ["ammo"]}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["character"]["state"]["ammo"] == 2
    pending.refresh_from_db()
    assert pending.resolved_at is not None
    again = api_for(table.player).post(url, {"choices": ["ammo"]}, format="json")
    assert again.status_code == 409
    assert TableEvent.objects.filter(kind="move").count() == 2


@pytest.mark.parametrize(
    "body", [{}, {"choices": "ammo"}, {"choices": [1, 2]}, {"choices": ["ammo"]}]
)
def test_who_answers_a_choice_is_checked_before_the_answer(table, api_for, fighter, body):
    """Another player gets the same 403 whatever they send (not a 400 on a malformed answer:
    the body of a choice that is not theirs is never read), and the choice stays open."""
    _outcome, pending = services.move_make(
        character=fighter, actor=table.player, move="volley", dice=ScriptedDice([3, 3])
    )
    url = f"/api/characters/{fighter.pk}/pending/{pending.pk}/"
    refused = api_for(table.other_player).post(url, body, format="json")
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "player_chooses"
    assert refused.json()["detail"] == "Этот выбор делает игрок персонажа."
    assert api_for(table.observer).post(url, body, format="json").status_code == 403
    assert api_for(table.outsider).post(url, body, format="json").status_code == 404
    pending.refresh_from_db()
    assert pending.resolved_at is None
    assert TableEvent.objects.filter(kind="move").count() == 1


def test_bad_choice_is_refused_and_keeps_the_choice_open(table, api_for, fighter):
    _outcome, pending = services.move_make(
        character=fighter, actor=table.player, move="volley", dice=ScriptedDice([3, 3])
    )
    url = f"/api/characters/{fighter.pk}/pending/{pending.pk}/"
    bad = api_for(table.player).post(url, {"choices": ["nonsense"]}, format="json")
    assert bad.status_code == 400
    pending.refresh_from_db()
    assert pending.resolved_at is None
    assert not PendingMove.objects.filter(resolved_at__isnull=False).exists()


def test_move_api_permissions_and_odds(table, api_for, fighter, orc):
    url = f"/api/characters/{fighter.pk}/moves/defy_danger/"
    body = {"params": {"approach": "agility"}}
    assert api_for(table.other_player).post(url, body, format="json").status_code == 403
    assert api_for(table.observer).post(url, body, format="json").status_code == 403
    assert api_for(table.outsider).post(url, body, format="json").status_code == 404
    made = api_for(table.player).post(url, body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["outcome"]["band"] in {"10+", "7-9", "6-"}
    odds = (
        api_for(table.player).get(f"/api/characters/{fighter.pk}/moves/hack_and_slash/odds/").json()
    )
    # STR 16 → +2: 10+ needs 8 on 2d6 = 15/36
    assert odds["10+"] == pytest.approx(15 / 36)
    assert sum(odds.values()) == pytest.approx(1)
    assert (
        api_for(table.player)
        .post(f"/api/characters/{fighter.pk}/moves/no_such_move/", {}, format="json")
        .status_code
        == 400
    )
    # a player may not move an NPC
    assert (
        api_for(table.player)
        .post(
            f"/api/characters/{orc.pk}/moves/npc_take_damage/",
            {"params": {"amount": 3}},
            format="json",
        )
        .status_code
        == 403
    )


def test_moves_of_hidden_npcs_reach_only_the_referee(table):
    lurker = services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Тень",
        kind="npc",
        hidden=True,
        state={"hp": 5, "max_hp": 5, "armor": 0, "damage": "к4"},
    )
    services.move_make(
        character=lurker,
        actor=table.referee,
        move="npc_take_damage",
        params={"amount": 2},
        dice=ScriptedDice([]),
    )
    for event in TableEvent.objects.filter(payload__character_id=lurker.pk):
        assert event.visibility == "blind", event.kind


def test_campaign_rules_setting_changes_the_roll(table, api_for, fighter):
    url = f"/api/campaigns/{table.campaign.pk}/rules/"
    rules = api_for(table.player).get(url).json()
    assert rules["stat_modifiers"][15] == 2
    assert api_for(table.player).put(url, rules, format="json").status_code == 403
    flat = {**rules, "stat_modifiers": [0] * 18}
    assert api_for(table.referee).put(url, flat, format="json").status_code == 200
    odds = (
        api_for(table.player).get(f"/api/characters/{fighter.pk}/moves/hack_and_slash/odds/").json()
    )
    assert odds["10+"] == pytest.approx(6 / 36)  # STR now +0
    bad = api_for(table.referee).put(url, {**rules, "stat_modifiers": [0]}, format="json")
    assert bad.status_code == 400
