"""The demo's player characters, filled in as a player would: a class with its moves and real
stats in Dungeon World, characteristics, expertises and gear in slots in Crows, attributes,
skills, edges and hindrances in Savage Worlds, stats, skills and weapons in Tales, Steel and
gear in the City of Judas.

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
        "alignment_move": "Узнавайте тайны о недругах.",
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
        "alignment_move": "Помогайте другим, невзирая на опасность.",
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


def _savage_worlds() -> tuple[dict[str, Any], dict[str, Any]]:
    def skills(**dice: str) -> list[dict[str, str]]:
        names = {
            "fighting": "Драка",
            "shooting": "Стрельба",
            "notice": "Внимание",
            "stealth": "Скрытность",
            "healing": "Лечение",
            "persuasion": "Убеждение",
            "intimidation": "Запугивание",
            "climbing": "Лазание",
        }
        return [{"key": k, "name": names[k], "die": die} for k, die in dice.items()]

    scout = {
        "attributes": {
            "agility": "d8",
            "smarts": "d8",
            "spirit": "d6",
            "strength": "d4",
            "vigor": "d6",
        },
        "skills": skills(shooting="d8", notice="d8", stealth="d6", healing="d6", fighting="d4"),
        "edges": [{"name": "Хладнокровие", "rule": "level_headed"}],
        "hindrances": [{"name": "Любопытство", "major": True}],
        "weapons": [{"name": "Лук", "damage": "2d6", "skill": "Стрельба"}],
        "bennies": 3,
    }
    fighter = {
        "attributes": {
            "agility": "d6",
            "smarts": "d4",
            "spirit": "d6",
            "strength": "d8",
            "vigor": "d8",
        },
        "skills": skills(fighting="d8", intimidation="d6", notice="d6", climbing="d6"),
        "edges": [{"name": "Беспощадный", "rule": "no_mercy"}],
        "hindrances": [{"name": "Упрямство", "major": False}],
        "weapons": [{"name": "Длинный меч", "damage": "Сила+к8", "skill": "Драка"}],
        "armor": 2,
        "bennies": 3,
    }
    return scout, fighter


def _tales() -> tuple[dict[str, Any], dict[str, Any]]:
    scout = {
        "stats": {"str": 11, "dex": 14, "mind": 13},
        "skills": [
            {"key": "stealth", "level": 1},
            {"key": "lockpicking", "level": 1},
            {"key": "combat_shooting", "level": 1},
        ],
        "weapons": [{"key": "bow"}, {"key": "dagger"}],
        "armour": "leather",
        "silver": 20,
        "languages": ["Общий"],
    }
    fighter = {
        "stats": {"str": 15, "dex": 12, "mind": 9},
        "skills": [
            {"key": "combat_melee", "level": 1},
            {"key": "vigilance", "level": 1},
            {"key": "survival", "level": 1},
        ],
        "weapons": [{"key": "spear"}, {"key": "dagger"}],
        "armour": "mail",
        "silver": 12,
        "languages": ["Общий"],
    }
    return scout, fighter


def _city_of_judas() -> tuple[dict[str, Any], dict[str, Any]]:
    def steel(value: int) -> list[dict[str, Any]]:
        return [{"key": "steel", "ru": "Сталь", "en": "Steel", "value": value}]

    return (
        {"stats": steel(1), "weapon_damage": 1, "armor": 1},
        {"stats": steel(2), "weapon_damage": 2, "armor": 2, "shield": 1},
    )


SHEETS = {
    "dungeon_world": _dungeon_world,
    "crows": _crows,
    "savage_worlds": _savage_worlds,
    "tales": _tales,
    "city_of_judas": _city_of_judas,
}


def demo_sheets(ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alice's and Boris's sheets for a ruleset (an unknown one: its defaults)."""
    build = SHEETS.get(ruleset)
    return build() if build else ({}, {})
