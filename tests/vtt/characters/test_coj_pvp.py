"""City of Judas, player against player (seed 002, "Игрок против игрока", L127, L197-L203):
the attacking player picks the defender's fate on a 6-, the loser of a conflict picks after
the winner, and a character hurt in a conflict rolls Take Damage at once."""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from vtt.campaigns.models import Campaign
from vtt.characters import services
from vtt.characters.models import PendingMove
from vtt.core.errors import ServiceError
from vtt.table.models import TableEvent


def _pc(table, owner, name: str, **state):
    base = {
        "name": name,
        "health": 4,
        "superiority": 3,
        "stats": [{"key": "steel", "ru": "Сталь", "en": "Steel", "value": 2}],
        "maims": [
            {"key": "M", "name": "Сломанная рука", "stat": "steel", "penalty": -1, "marked": False}
        ],
    }
    return services.character_create(
        campaign=table.campaign,
        actor=owner,
        role="player",
        name=name,
        state={**base, **state},
    )


@pytest.fixture
def duel(table):
    Campaign.objects.filter(pk=table.campaign.pk).update(ruleset="city_of_judas")
    table.campaign.refresh_from_db()
    alair = _pc(table, table.player, "Алаир", health=3)
    saul = _pc(table, table.other_player, "Саул")
    return alair, saul


def test_on_a_miss_the_attacking_player_chooses_the_defenders_fate(table, api_for, duel):
    """L127: damage from another character, 6- → that character's player picks from the list."""
    alair, saul = duel
    with ScriptedDice([1, 2]) as dice:  # 2d6 3 + health 2 = 5 → 6-
        outcome, pending = services.move_make(
            character=alair,
            actor=table.player,
            move="take_damage",
            params={"dealt": 1},
            target_id=saul.pk,
            dice=dice,
        )
    assert outcome.band == "6-" and outcome.chooser == "opponent"
    assert pending.chooser == services.TARGET_CHOOSER and pending.target_id == saul.pk
    event = TableEvent.objects.get(kind="move")
    assert event.payload["chooser_id"] == table.other_player.pk
    assert event.payload["chooser_character_id"] == saul.pk
    # the list is offered to Saul's player on Saul's sheet, and it is theirs to answer
    rows = api_for(table.other_player).get(f"/api/characters/{saul.pk}/pending/").json()
    assert [(r["id"], r["mine"]) for r in rows] == [(pending.pk, True)]
    keys = {o["key"] for o in rows[0]["options"]}
    assert keys == {"serious", "scary", "critical"}
    assert not services.may_choose(pending, user_id=table.player.pk, role="player")
    with pytest.raises(ServiceError):  # the defender does not pick their own fate
        services.move_choose(
            pending=pending, actor=table.player, role="player", choices=["serious"]
        )
    assert PendingMove.objects.get(pk=pending.pk).resolved_at is None
    services.move_choose(
        pending=pending, actor=table.other_player, role="player", choices=["critical"]
    )
    alair.refresh_from_db()
    assert alair.state["unstable"] is True and alair.state["health"] == 2


def test_damage_from_the_gm_still_waits_for_the_referee(table, duel):
    alair, _saul = duel
    with ScriptedDice([1, 2]) as dice:
        _outcome, pending = services.move_make(
            character=alair,
            actor=table.player,
            move="take_damage",
            params={"dealt": 1},
            dice=dice,
        )
    assert pending.chooser == "referee"
