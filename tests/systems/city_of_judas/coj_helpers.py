"""Shared helpers for the City of Judas tests."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from systems.core.dice import ScriptedDice

RS = get_ruleset("city_of_judas")


def pc(**changes: Any) -> dict[str, Any]:
    """A player character: Steel +2, unmarked health, superiority 3, one unused maim M."""
    state = RS.default_state()
    state.update(
        name="Алаир",
        superiority=3,
        stats=[{"key": "steel", "ru": "Сталь", "en": "Steel", "value": 2}],
        maims=[
            {"key": "M", "name": "Сломанная рука", "stat": "steel", "penalty": -1, "marked": False}
        ],
    )
    state.update(changes)
    return RS.validate_state(state)


def npc(**changes: Any) -> dict[str, Any]:
    block = {"name": "Телохранитель", "kind": "minor", "wounds": 0, "armor": 0}
    block.update(changes)
    return RS.validate_npc(block)


def run(move: str, state: dict[str, Any], faces: list[int], **params: Any):
    with ScriptedDice(faces) as dice:
        return RS.resolve(move, state, dice=dice, **params)


def choose(outcome, choices: list[str]):
    with ScriptedDice([]) as dice:
        return RS.apply_choice(outcome, choices, dice=dice)


def conflict(a: dict, b: dict, mine: list[int], theirs: list[int], stat: str = "steel", **params):
    """A conflict the server rolls on both sides: ``a`` rolls ``mine`` + Steel now, ``b``'s
    player then picks ``stat`` and the server rolls ``theirs`` for it."""
    waiting = run("conflict", a, mine, target=b, **params)
    assert waiting.chooser == "opponent" and waiting.details["pending"]["kind"] == "conflict_roll"
    with ScriptedDice(theirs) as dice:
        return RS.apply_choice(waiting, [stat], dice=dice)
