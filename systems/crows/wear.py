"""Wear dice («Кости износа»; «Кости износа › Кости износа снаряжения»;
«Свет › Тушение источников света»): pools of d6, not a die chain.

Rolling wear dice rolls *all* of them; each die showing 1 or 2 is removed («Кости износа»). An
effect ends at 0 dice and always rolls at the end of every dungeon turn («Кости износа»). An item's
card line carries keywords («Кости износа › Кости износа снаряжения»): *when* it rolls (Активация
after each use, Ход подземелья at each turn end) and *what 0 means* (Бесполезен: useless for good;
Заправка: refilled to max by the named item; Отдых: refilled when the carrier finishes a rest). A
light whose dice roll at turn end also rolls when put out («Свет › Тушение источников света»).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail
from systems.crows.items import stack_kind
from systems.crows.terms import ACTIVATION, DUNGEON_TURN, REFUEL, REST, USELESS

WEAR_DIE = 6
REMOVED_FACES = frozenset({1, 2})  # «Кости износа»


def roll_wear_dice(dice: Dice, count: int) -> tuple[list[int], int]:
    """Roll ``count`` d6: (faces, dice left). Each 1 or 2 is removed («Кости износа»)."""
    faces = [dice.roll(WEAR_DIE) for _ in range(count)]
    return faces, sum(1 for f in faces if f not in REMOVED_FACES)


def has_keyword(card: dict[str, Any], keyword: str) -> bool:
    return card["wear"] is not None and keyword in card["wear"]["keywords"]


def rolls_at_turn_end(card: dict[str, Any]) -> bool:
    """An item rolls at a turn's end if its line says Ход подземелья, it has dice, is not
    useless and is active: a light only while it burns («Кости износа › Кости износа снаряжения»;
    «Свет › Тушение источников света»)."""
    if not has_keyword(card, DUNGEON_TURN) or card["useless"] or card["wear"]["dice"] == 0:
        return False
    if card["light"] is not None:
        return bool(card["light"]["lit"])
    return bool(card["wear"]["active"])


def _zero_outcome(card: dict[str, Any]) -> str:
    """What reaching 0 dice means for this card («Кости износа › Кости износа снаряжения»)."""
    if has_keyword(card, USELESS):
        card["useless"] = True
        return "useless"
    if has_keyword(card, REFUEL):
        return "needs_refuel"
    if has_keyword(card, REST):
        return "needs_rest"
    return "empty"


def roll_item_wear(
    card: dict[str, Any], dice: Dice, *, reason: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Roll all of an item's wear dice: (new card, event). At 0 a light goes out and the
    keyword applies (useless for good, or waiting for fuel or a rest)."""
    if card["wear"] is None or card["wear"]["dice"] == 0:
        raise fail(
            "item", "У предмета не осталось костей износа.", "The item has no wear dice left."
        )
    new = copy.deepcopy(card)
    before = new["wear"]["dice"]
    faces, after = roll_wear_dice(dice, before)
    new["wear"]["dice"] = after
    event: dict[str, Any] = {
        "type": "wear_rolled",
        "item": new["id"],
        "name": new["name"],
        "reason": reason,
        "faces": faces,
        "before": before,
        "after": after,
        "exhausted": after == 0,
        "outcome": "",
        "light_out": False,
    }
    if after == 0:
        event["outcome"] = _zero_outcome(new)
        if new["light"] is not None and new["light"]["lit"]:
            new["light"]["lit"] = False
            event["light_out"] = True
    return new, event


def check_usable(card: dict[str, Any]) -> None:
    """A useless item («Кости износа › Кости износа снаряжения») or one whose wear dice are spent
    cannot be used."""
    if card["useless"]:
        raise fail(
            "item",
            f"«{card['name']}» навсегда бесполезен.",
            f"{card['name']!r} is useless for good.",
        )
    if card["wear"] is not None and card["wear"]["dice"] == 0:
        raise fail(
            "item",
            f"У «{card['name']}» нет костей износа: нужна заправка или отдых.",
            f"{card['name']!r} has no wear dice left: it needs fuel or a rest.",
        )


def roll_activation(card: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict | None]:
    """Активация («Кости износа › Кости износа снаряжения»): after the use's primary effects, roll
    the item's wear dice."""
    check_usable(card)
    if not has_keyword(card, ACTIVATION):
        return copy.deepcopy(card), None
    return roll_item_wear(card, dice, reason="activation")


def light_up(card: dict[str, Any]) -> dict[str, Any]:
    """Light a source; it needs dice left and must not be useless."""
    if card["light"] is None:
        raise fail("item", f"«{card['name']}» не светит.", f"{card['name']!r} gives no light.")
    check_usable(card)
    new = copy.deepcopy(card)
    new["light"]["lit"] = True
    return new


def extinguish(card: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Put a light out. If its dice roll at the turn's end, roll them now too
    («Свет › Тушение источников света»)."""
    if card["light"] is None or not card["light"]["lit"]:
        raise fail("item", f"«{card['name']}» не горит.", f"{card['name']!r} is not burning.")
    new = copy.deepcopy(card)
    event = None
    if rolls_at_turn_end(new):
        new, event = roll_item_wear(new, dice, reason="extinguish")
    new["light"]["lit"] = False
    return new, event


def refuel(card: dict[str, Any], fuel: dict[str, Any]) -> dict[str, Any]:
    """Заправка («Кости износа › Кости износа снаряжения»): using the item named on the line
    restores the maximum, e.g. a pint of oil refills a lantern's 2 dice."""
    if not has_keyword(card, REFUEL):
        raise fail(
            "item",
            f"«{card['name']}» не заправляется (нет «Заправки»).",
            f"{card['name']!r} has no Refuel keyword.",
        )
    if card["useless"]:
        check_usable(card)
    wanted = card["wear"]["refuel_with"].strip().casefold()
    if wanted and stack_kind(fuel) != wanted and fuel["name"].strip().casefold() != wanted:
        raise fail(
            "fuel_id",
            f"«{card['name']}» заправляют: {card['wear']['refuel_with']}.",
            f"{card['name']!r} is refuelled with {card['wear']['refuel_with']!r}.",
        )
    new = copy.deepcopy(card)
    new["wear"]["dice"] = new["wear"]["max"]
    return new


def restore_after_rest(card: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Отдых («Кости износа › Кости износа снаряжения») items and carried spellbooks
    («Заклинания › Кости износа книги заклинаний») refill when the carrier finishes a rest: (card,
    restored)."""
    if card["wear"] is None or card["useless"]:
        return copy.deepcopy(card), False
    if not (has_keyword(card, REST) or card["spellbook"]):
        return copy.deepcopy(card), False
    new = copy.deepcopy(card)
    restored = new["wear"]["dice"] != new["wear"]["max"]
    new["wear"]["dice"] = new["wear"]["max"]
    return new, restored


# --- effects with wear dice or a dungeon-turn duration ----------------------------------------


def roll_effects_wear(
    effects: list[dict[str, Any]], dice: Dice, *, owner: str = ""
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Effects always roll their wear dice at the end of every dungeon turn and end at 0
    («Кости износа»; «Заклинания › Длительность»; «Заклинания › Отдача магии»). Returns (effects
    left, events)."""
    kept: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for effect in effects:
        if effect["duration"] != "wear_dice":
            kept.append(copy.deepcopy(effect))
            continue
        before = effect["wear_dice"]
        faces, after = roll_wear_dice(dice, before)
        events.append(
            {
                "type": "effect_wear_rolled",
                "owner": owner,
                "effect": effect["id"],
                "name": effect["name"],
                "faces": faces,
                "before": before,
                "after": after,
            }
        )
        if after == 0:
            events.append(_ended(effect, owner, "wear_dice"))
            continue
        new = copy.deepcopy(effect)
        new["wear_dice"] = after
        kept.append(new)
    return kept, events


def expire_turn_effects(
    effects: list[dict[str, Any]], *, owner: str = ""
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Effects lasting "until the end of the dungeon turn" end («Заклинания › Длительность»,
    backlash EoT)."""
    kept, events = [], []
    for effect in effects:
        if effect["duration"] == "dungeon_turn":
            events.append(_ended(effect, owner, "turn_end"))
        else:
            kept.append(copy.deepcopy(effect))
    return kept, events


def effects_at_rest_midpoint(
    effects: list[dict[str, Any]], *, owner: str = ""
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """At the middle of a rest every effect that ends at a turn's end or rolls wear dice at a
    turn's end ends («Отдых»)."""
    kept, events = [], []
    for effect in effects:
        if effect["duration"] in ("dungeon_turn", "wear_dice"):
            events.append(_ended(effect, owner, "rest_midpoint"))
        else:
            kept.append(copy.deepcopy(effect))
    return kept, events


def effects_at_rest_end(
    effects: list[dict[str, Any]], *, owner: str = ""
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    kept, events = [], []
    for effect in effects:
        if effect["duration"] == "rest":
            events.append(_ended(effect, owner, "rest_end"))
        else:
            kept.append(copy.deepcopy(effect))
    return kept, events


def _ended(effect: dict[str, Any], owner: str, why: str) -> dict[str, Any]:
    return {
        "type": "effect_ended",
        "owner": owner,
        "effect": effect["id"],
        "name": effect["name"],
        "reason": why,
    }
