"""Ready-made stat blocks of the prep library: Dungeon World: the rulebook gives damage expressions
only («Урон»).
"""

from __future__ import annotations

from typing import Any

from vtt.prep.library.blocks import block, t


def npc_blocks() -> list[dict[str, Any]]:
    book_note = t(
        "Урон из примера в тексте правил; ОЗ и броня — пример.",
        "Damage from the rules text's example; HP and armor are examples.",
    )
    return [
        block(
            "goblin",
            "Гоблин",
            "Goblin",
            {"hp": 3, "max_hp": 3, "armor": 1, "damage": "к6", "tags": ["орда", "мелкий"]},
            note=book_note,
            source="«Урон»",
        ),
        block(
            "warlock",
            "Колдун",
            "Warlock",
            {
                "hp": 12,
                "max_hp": 12,
                "armor": 0,
                "damage": "к10+1",
                "ignores_armor": True,
                "tags": ["одиночка", "магия"],
            },
            note=book_note,
            source="«Урон»",
        ),
        block(
            "orc",
            "Орк",
            "Orc",
            {"hp": 6, "max_hp": 6, "armor": 1, "damage": "к8", "tags": ["группа"]},
        ),
        block(
            "ogre",
            "Огр",
            "Ogre",
            {
                "hp": 16,
                "max_hp": 16,
                "armor": 1,
                "damage": "б[2к10]+3",
                "tags": ["одиночка", "большой", "сильный"],
            },
        ),
    ]
