"""Shared fixtures for the Crows tests: sheets, item cards and exact-dice runners."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from systems.crows.inventory import empty_inventory, place
from systems.crows.items import make_item

RS = get_ruleset("crows")


def pc(
    *,
    agility: int = 0,
    reason: int = 0,
    strength: int = 0,
    name: str = "Ворон",
    **changes: Any,
) -> dict[str, Any]:
    """A crow with the given characteristics (all 0 unless stated, digest §(b))."""
    state = RS.default_state()
    state["name"] = name
    state["characteristics"] = {"agility": agility, "reason": reason, "strength": strength}
    state.update(changes)
    return RS.validate_state(state)


def monster(**changes: Any) -> dict[str, Any]:
    return pc(name="Гуль", kind="monster", **changes)


def with_items(state: dict[str, Any], *placed: tuple[dict[str, Any], str]) -> dict[str, Any]:
    """Place cards into the sheet's inventory: ``(card, "backpack:3")`` pairs."""
    inv = state["inventory"]
    for card, target in placed:
        inv = place(inv, card, target)
    return RS.validate_state({**state, "inventory": inv})


def inventory_with(*placed: tuple[dict[str, Any], str]) -> dict[str, Any]:
    inv = empty_inventory()
    for card, target in placed:
        inv = place(inv, card, target)
    return inv


def potion(n: int = 1) -> dict[str, Any]:
    return make_item(f"potion{n}", "Зелье", kind="potion", stack=5)


def lock(n: int = 1) -> dict[str, Any]:
    return make_item(f"lock{n}", "Замок", kind="lock", stack=3)


def oil(n: int = 1) -> dict[str, Any]:
    return make_item(f"oil{n}", "Фляга лампового масла", kind="lamp_oil", stack=2)


def rock(n: int) -> dict[str, Any]:
    return make_item(f"rock{n}", f"Камень {n}")


def torch(dice: int = 3, *, lit: bool = True, item_id: str = "torch") -> dict[str, Any]:
    """A torch; its numbers are hypothetical (the seed has none, digest case 22)."""
    return make_item(
        item_id,
        "Факел",
        kind="torch",
        wear={"dice": dice, "max": 3, "keywords": ["dungeon_turn", "useless"]},
        light={"bright": 6, "dim": 6, "lit": lit},
    )


def lantern(dice: int = 2, *, lit: bool = True) -> dict[str, Any]:
    """A lantern: 2 wear dice refilled by a pint of oil (L479)."""
    return make_item(
        "lantern",
        "Фонарь",
        kind="lantern",
        fragile=True,
        wear={
            "dice": dice,
            "max": 2,
            "keywords": ["dungeon_turn", "refuel"],
            "refuel_with": "lamp_oil",
        },
        light={"bright": 6, "dim": 6, "lit": lit},
    )


def ring(n: int) -> dict[str, Any]:
    return make_item(f"ring{n}", f"Кольцо {n}", magic=True, magic_slot="finger")


def run(move: str, state: dict[str, Any], faces: list[int], **params: Any):
    """Resolve with exactly these faces; fails if a face is left over."""
    with ScriptedDice(faces) as dice:
        return RS.resolve(move, state, dice=dice, **params)


def choose(outcome, choices: list[str], faces: list[int] | None = None):
    with ScriptedDice(faces or []) as dice:
        return RS.apply_choice(outcome, choices, dice=dice)


def campaign(**changes: Any) -> dict[str, Any]:
    camp = RS.default_campaign()
    camp.update(changes)
    return RS.validate_campaign(camp)


def in_dungeon(turn: int = 1, *, first_visit: bool = True, **changes: Any) -> dict[str, Any]:
    return campaign(
        in_dungeon=True,
        dungeon="Склеп",
        turn=turn,
        first_visit=first_visit,
        visited=["Склеп"],
        **changes,
    )
