"""An NPC's numbers are the referee's business (vtt/characters/visibility.py): the referee's
bookkeeping on a visible NPC's sheet ("HP: 4.") never reaches players, while what a player
character takes stays at the table. Found by reading the code behind the leak scan of issue 9:
the DW ``npc_take_damage`` and Tales ``take_damage`` texts carry the NPC's hit points."""

from __future__ import annotations

import json

import pytest

from systems.core.dice import ScriptedDice
from vtt.campaigns.models import Campaign
from vtt.characters import services
from vtt.table.models import TableEvent

pytestmark = pytest.mark.django_db


def npc(table, ruleset: str = "dungeon_world", **state):
    if ruleset != "dungeon_world":
        Campaign.objects.filter(pk=table.campaign.pk).update(ruleset=ruleset)
        table.campaign.refresh_from_db()
    return services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Трактирщик",
        kind="npc",
        state=state,
    )


def player_log(table, api_for) -> str:
    url = f"/api/campaigns/{table.campaign.pk}/events/?since=0&limit=1000"
    return json.dumps(api_for(table.player).get(url).json(), ensure_ascii=False)


@pytest.mark.parametrize(
    ("ruleset", "action", "state", "params", "secret"),
    [
        ("dungeon_world", "npc_take_damage", {"hp": 9, "max_hp": 9}, {"amount": 2}, "ОЗ: 7."),
        ("tales", "take_damage", {"hp": 11, "max_hp": 11}, {"amount": 3}, "Хиты: 8."),
    ],
)
def test_the_referees_bookkeeping_on_a_visible_npc_is_blind(
    table, api_for, ruleset, action, state, params, secret
):
    keeper = npc(table, ruleset, **state)
    outcome, _pending = services.move_make(
        character=keeper, actor=table.referee, move=action, params=params, dice=ScriptedDice([])
    )
    assert outcome.text.ru == secret  # what the referee sees
    moves = TableEvent.objects.filter(kind__startswith="move", payload__character_id=keeper.pk)
    assert moves.exists() and {e.visibility for e in moves} == {"blind"}
    # the sheet's public part (its name) still changes for everyone; the numbers do not
    log = player_log(table, api_for)
    assert secret not in log and "Трактирщик" in log
    referee_log = api_for(table.referee).get(
        f"/api/campaigns/{table.campaign.pk}/events/?since=0&limit=1000"
    )
    assert secret in json.dumps(referee_log.json(), ensure_ascii=False)


def test_a_player_characters_damage_stays_at_the_table(table, api_for):
    hero = services.character_create(
        campaign=table.campaign,
        actor=table.player,
        role="player",
        name="Ава",
        state={"hp": 20, "max_hp": 20},
    )
    services.move_make(
        character=hero,
        actor=table.player,
        move="take_damage",
        params={"amount": 3},
        dice=ScriptedDice([]),
    )
    moves = TableEvent.objects.filter(kind="move", payload__character_id=hero.pk)
    assert [e.visibility for e in moves] == ["everyone"]
