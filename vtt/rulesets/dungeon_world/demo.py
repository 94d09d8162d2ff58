"""The demo's player characters in Dungeon World, filled in as a player would: a class with its
moves and real stats (the rulebook gives no class tables, so the two classes use the published base
HP, damage die and load; the moves «Книга заклинаний», «Подготовить заклинания» and
«Сотворить заклинание» are named as in the multiclass section).
"""

from __future__ import annotations

from typing import Any


def _dw_moves(class_name: str, names: list[str]) -> list[dict[str, Any]]:
    return [{"name": n, "level_taken": 1, "source_class": class_name} for n in names]


def demo_sheets() -> tuple[dict[str, Any], dict[str, Any]]:
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
