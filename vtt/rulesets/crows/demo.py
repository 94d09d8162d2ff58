"""The demo's player characters in Crows, filled in as a player would: characteristics, expertises
and gear in slots, placed through the same rule a player's drag goes through.
"""

from __future__ import annotations

from typing import Any

from systems.crows.inventory import empty_inventory, place
from systems.crows.items import make_item


def _gear(*placements: tuple[dict[str, Any], str]) -> dict[str, Any]:
    """An inventory built through the same placement rule a player's drag goes through."""
    inventory = empty_inventory()
    for card, slot in placements:
        inventory = place(inventory, card, slot)
    return inventory


def demo_sheets() -> tuple[dict[str, Any], dict[str, Any]]:
    torch = make_item(
        "torch",
        "Факел",
        kind="torch",
        light={"bright": 4, "dim": 4, "lit": True},
        wear={"dice": 3, "max": 3, "keywords": ["dungeon_turn"]},
    )
    scout = {
        "characteristics": {"agility": 2, "reason": 1, "strength": -1},
        "stamina": 6,
        "stamina_max": 6,
        "speed": 6,
        "expertises": [
            {"key": "stealth", "uses": 2, "max": 2},
            {"key": "lockpicking", "uses": 1, "max": 1},
            {"key": "bow", "uses": 1, "max": 1},
        ],
        "inventory": _gear(
            (
                make_item(
                    "bow",
                    "Лук",
                    kind="bow",
                    damage={
                        "type": "ranged",
                        "range": 10,
                        "expertise": "bow",
                        "tier2": "1d6",
                        "tier3": "1d6+2",
                        "ammo": "arrow",
                    },
                ),
                "hands 1",
            ),
            (torch, "hands 2"),
            (make_item("arrows", "Стрела", kind="arrow", stack=20), "belt 1"),
            (make_item("picks", "Отмычки", kind="lockpicks"), "belt 2"),
            (make_item("rope", "Верёвка", kind="rope", slots=2), "backpack 1"),
            (make_item("ration1", "Паёк", kind="ration", stack=3), "backpack 3"),
        ),
    }
    fighter = {
        "characteristics": {"agility": 0, "reason": -1, "strength": 2},
        "stamina": 8,
        "stamina_max": 8,
        "speed": 6,
        "expertises": [
            {"key": "slashing", "uses": 2, "max": 2},
            {"key": "athletics", "uses": 1, "max": 1},
            {"key": "endurance", "uses": 1, "max": 1},
        ],
        "inventory": _gear(
            (
                make_item(
                    "sword",
                    "Меч",
                    kind="sword",
                    damage={
                        "type": "melee",
                        "reach": 1,
                        "expertise": "slashing",
                        "tier2": "3",
                        "tier3": "5",
                    },
                ),
                "hands 1",
            ),
            (
                make_item(
                    "shield", "Щит", kind="shield", armour={"defence": 1, "max": 1, "shield": True}
                ),
                "hands 2",
            ),
            (make_item("oil", "Фляга лампового масла", kind="lamp_oil", stack=2), "belt 1"),
            (make_item("ration2", "Паёк", kind="ration", stack=3), "backpack 1"),
            (make_item("crowbar", "Лом", kind="crowbar", slots=2), "backpack 2"),
        ),
    }
    return scout, fighter


def seed_table(campaign: Any, *, referee: Any, **_people: Any) -> None:
    """The party went down into the crypt; a noise made the referee check for encounters."""
    from vtt.campaigns import demo_markers as M
    from vtt.table import clock

    clock.clock_start(campaign=campaign, actor=referee, dungeon="Склеп под часовней")
    clock.clock_conspicuous(campaign=campaign, actor=referee, reason=M.CLOCK_ENCOUNTER)
    clock.clock_stop(campaign=campaign, actor=referee)
