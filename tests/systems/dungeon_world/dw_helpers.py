"""Shared fixtures for the Dungeon World tests: the digest's fixture PC A (§9)."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from systems.core.dice import ScriptedDice

RS = get_ruleset("dungeon_world")


def pc_a(**changes: Any) -> dict[str, Any]:
    """Fixture PC A: STR +1, DEX +2, CON 0, INT -1, WIS +1, CHA 0; level 1, XP 0, HP 18/18,
    armor 1, damage die d10, load 12, weight 10, coins 500, rations 3, ammo 3."""
    state = RS.default_state()
    state.update(
        name="A",
        stats={"str": 13, "dex": 16, "con": 10, "int": 8, "wis": 13, "cha": 10},
        level=1,
        xp=0,
        hp=18,
        max_hp=18,
        hp_base=8,
        armor=1,
        damage_die="d10",
        load=12,
        weight=10,
        coins=500,
        rations=3,
        ammo=3,
    )
    state.update(changes)
    return RS.validate_state(state)


def monster(**changes: Any) -> dict[str, Any]:
    npc = {"name": "Орк", "hp": 10, "max_hp": 10, "armor": 1, "damage": "к6"}
    npc.update(changes)
    if "hp" in changes and "max_hp" not in changes:
        npc["max_hp"] = max(npc["hp"], 1)
    return RS.validate_npc(npc)


def run(move: str, state: dict[str, Any], faces: list[int], **params: Any):
    """Resolve with exactly these faces; fails if a face is left over."""
    with ScriptedDice(faces) as dice:
        return RS.resolve(move, state, dice=dice, **params)


def choose(outcome, choices: list[str], faces: list[int] | None = None):
    with ScriptedDice(faces or []) as dice:
        return RS.apply_choice(outcome, choices, dice=dice)
