"""The demo's player characters, filled in as a player would: a class with its moves and real
stats in Dungeon World, characteristics, expertises and gear in slots in Crows.

The seeds give no class tables for Dungeon World (base HP, damage die and load are published
values, see the rules digest), so the two classes here use the published numbers; the moves
«Книга заклинаний», «Подготовить заклинания» and «Сотворить заклинание» are named as in the
seed's multiclass section.
"""

from __future__ import annotations

from typing import Any

from systems.crows.inventory import empty_inventory, place
from systems.crows.items import make_item


def _dw_moves(class_name: str, names: list[str]) -> list[dict[str, Any]]:
    return [{"name": n, "level_taken": 1, "source_class": class_name} for n in names]


def _dungeon_world() -> tuple[dict[str, Any], dict[str, Any]]:
    wizard = {
        "class_name": "Маг",
        "race": "Человек",
        "level": 1,
        "stats": {"str": 8, "dex": 12, "con": 13, "int": 16, "wis": 15, "cha": 9},
        "hp_base": 4,
        "max_hp": 17,  # base 4 + CON 13
        "hp": 17,
        "damage_die": "d4",
        "load": 6,  # 7 + STR modifier (−1)
        "weight": 3,
        "coins": 12,
        "rations": 4,
        "alignment": "neutral",
        "alignment_move": "learn_secrets",
        "moves": _dw_moves(
            "Маг",
            [
                "Книга заклинаний",
                "Подготовить заклинания",
                "Сотворить заклинание",
                "Магическая защита",
                "Ритуал",
            ],
        ),
        "spellbook": ["Свет", "Фокусы", "Волшебный снаряд", "Очарование личности", "Тревога"],
        "bonds": [{"with": "Добрыня", "text": "Добрыня однажды спас меня; я верну долг."}],
    }
    fighter = {
        "class_name": "Воин",
        "race": "Человек",
        "level": 1,
        "stats": {"str": 16, "dex": 13, "con": 15, "int": 8, "wis": 12, "cha": 9},
        "hp_base": 10,
        "max_hp": 25,  # base 10 + CON 15
        "hp": 25,
        "armor": 1,
        "damage_die": "d10",
        "load": 14,  # 12 + STR modifier (+2)
        "weight": 6,
        "coins": 8,
        "rations": 5,
        "alignment": "good",
        "alignment_move": "help_others",
        "moves": _dw_moves(
            "Воин",
            ["Гни прутья, поднимай ворота", "Бронированный", "Фирменное оружие"],
        ),
        "bonds": [{"with": "Ярослава", "text": "Ярослава знает о моём прошлом больше других."}],
    }
    return wizard, fighter


def _gear(*placements: tuple[dict[str, Any], str]) -> dict[str, Any]:
    """An inventory built through the same placement rule a player's drag goes through."""
    inventory = empty_inventory()
    for card, slot in placements:
        inventory = place(inventory, card, slot)
    return inventory


def _crows() -> tuple[dict[str, Any], dict[str, Any]]:
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


SHEETS = {"dungeon_world": _dungeon_world, "crows": _crows}


def demo_sheets(ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alice's and Boris's sheets for a ruleset (empty dicts: its defaults)."""
    build = SHEETS.get(ruleset)
    return build() if build else ({}, {})
