"""Ready-made stat blocks of the prep library: Град Иуды: the kinds of GM characters are the
rulebook's («Нанесение урона»).
"""

from __future__ import annotations

from typing import Any

from vtt.prep.library.blocks import block, t


def npc_blocks() -> list[dict[str, Any]]:
    kinds_note = t(
        "Значимость из текста правил; защита и урон — пример.",
        "The kind is from the rules text; protection and damage are examples.",
    )

    def npc(key, ru, en, kind, armor=0, shield=0, weapon=2, ap=0):
        return block(
            key,
            ru,
            en,
            {
                "kind": kind,
                "armor": armor,
                "shield": shield,
                "weapon_damage": weapon,
                "weapon_ap": ap,
            },
            note=kinds_note,
            source="«Нанесение урона»; «Примеры хода решающий удар»",
        )

    return [
        npc("cultist", "Сектант", "Cultist", "minor", weapon=2),
        npc("guard", "Стражник", "Guard", "minor", armor=1, shield=1, weapon=3),
        npc("captain", "Капитан стражи", "Guard captain", "important", armor=2, weapon=3, ap=1),
        npc("ghoul", "Трупоед", "Ghoul", "monster", armor=1, weapon=3),
        npc("demon", "Младший демон", "Lesser demon", "demon", armor=2, weapon=4, ap=2),
        npc("duelist", "Дуэлянт-соперник", "Rival duelist", "rival", armor=1, weapon=3),
    ]
