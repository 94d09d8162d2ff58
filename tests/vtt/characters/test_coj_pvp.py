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


def test_a_conflict_winner_picks_first_and_the_hurt_roll_take_damage_at_once(table, duel):
    """L197: the loser picks after the winner and may not contradict it; L201: each character
    damaged after armor rolls Take Damage at once, its 6- picked by the other player (L203)."""
    alair, saul = duel
    for c in (alair, saul):
        services.character_update(
            character=c,
            actor=table.referee,
            state={**c.state, "weapon_damage": 2},
            version=c.version,
        )
    alair.refresh_from_db()
    saul.refresh_from_db()
    with pytest.raises(ServiceError):  # «оба бойца делают броски»: no total from the client
        services.move_make(
            character=alair,
            actor=table.player,
            move="conflict",
            params={"total": 12, "opponent_total": 2},
            target_id=saul.pk,
            dice=ScriptedDice([]),
        )
    _rolled, theirs = services.move_make(
        character=alair,
        actor=table.player,
        move="conflict",
        params={},
        target_id=saul.pk,
        dice=ScriptedDice([2, 3]),  # 5 + Steel 2 = 7
    )
    # Saul's player says what Saul rolls with; the server rolls it
    assert theirs.chooser == services.TARGET_CHOOSER
    with pytest.raises(ServiceError):
        services.move_choose(pending=theirs, actor=table.player, role="player", choices=["steel"])
    outcome, first = services.move_choose(
        pending=theirs,
        actor=table.other_player,
        role="player",
        choices=["steel"],
        dice=ScriptedDice([4, 4]),  # 8 + Steel 2 = 10
    )
    assert outcome.details["opponent_roll"]["total"] == 10
    assert outcome.details["winner"] == "opponent"
    assert first.chooser == services.TARGET_CHOOSER  # Saul's player picks first
    with pytest.raises(ServiceError):
        services.move_choose(
            pending=first, actor=table.player, role="player", choices=["ap_damage"]
        )
    _out, second = services.move_choose(
        pending=first,
        actor=table.other_player,
        role="player",
        choices=["maneuver", "superior_tactics"],
    )
    saul.refresh_from_db()
    assert saul.state["superiority"] == 5  # +1 for the win, +1 superior tactics
    assert second.chooser == "player"
    assert not services.may_choose(second, user_id=table.other_player.pk, role="player")
    with pytest.raises(ServiceError):  # the winner took the better position
        services.move_choose(
            pending=second, actor=table.player, role="player", choices=["maneuver"]
        )
    moves = TableEvent.objects.filter(kind="move").count()
    # Alair's 3 (2 + 1 AP) gets through to Saul, Saul's 2 to Alair: both roll at once
    with ScriptedDice([1, 2, 6, 6]) as dice:
        done, follow = services.move_choose(
            pending=second, actor=table.player, role="player", choices=["ap_damage"], dice=dice
        )
    assert follow is None and not done.pending
    rolled = TableEvent.objects.filter(kind="move").order_by("seq")[moves:]
    assert [(e.payload["character_id"], e.payload["outcome"]["band"]) for e in rolled] == [
        (alair.pk, "7-9"),  # the conflict's last pick, with Alair's own roll
        (saul.pk, "6-"),  # health 4 - 3 = 1; 3 + 1 = 4
        (alair.pk, "10+"),  # health 3 - 2 = 1; 12 + 1 = 13
    ]
    saul.refresh_from_db()
    alair.refresh_from_db()
    assert saul.state["health"] == 1 and alair.state["health"] == 1
    fate = PendingMove.objects.get(character=saul, move="take_damage", resolved_at=None)
    assert fate.chooser == services.TARGET_CHOOSER and fate.target_id == alair.pk
    assert services.may_choose(fate, user_id=table.player.pk, role="player")  # Alair's player
    assert not services.may_choose(fate, user_id=table.other_player.pk, role="player")
    own = PendingMove.objects.get(character=alair, move="take_damage", resolved_at=None)
    assert own.chooser == "player"


def test_the_page_learns_who_answers_from_the_server(table, api_for, duel):
    """The rules say "opponent"; the table decides who that is. The mover's answer and the
    live event name the target's player (or the referee), never leave it to the page, which
    used to offer the opponent's pick to the mover as buttons (review of issue 18)."""
    alair, saul = duel
    answer = api_for(table.player).post(
        f"/api/characters/{alair.pk}/moves/conflict/",
        {"params": {}, "target_id": saul.pk},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    outcome = answer.json()["outcome"]
    assert (outcome["chooser"], outcome["mine"]) == (services.TARGET_CHOOSER, False)
    event = TableEvent.objects.filter(kind="move").latest("seq")
    assert event.payload["outcome"]["chooser"] == services.TARGET_CHOOSER
    assert event.payload["chooser_id"] == table.other_player.pk
    # an opponent's pick with no player character to answer it goes to the referee
    with ScriptedDice([1, 2]) as dice:
        services.move_make(
            character=alair,
            actor=table.player,
            move="take_damage",
            params={"dealt": 1, "from_pc": True},
            dice=dice,
        )
    event = TableEvent.objects.filter(kind="move").latest("seq")
    assert event.payload["outcome"]["chooser"] == "referee"
