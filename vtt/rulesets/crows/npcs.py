"""Ready-made stat blocks of the prep library: Crows: no bestiary in the rulebook (encounters: the
Referee's book, «Встречи в подземелье»).
"""

from __future__ import annotations

from typing import Any

from vtt.prep.library.blocks import block


def npc_blocks() -> list[dict[str, Any]]:
    def creature(key, ru, en, size, agility, reason, strength, stamina, defence=0, speed=6):
        return block(
            key,
            ru,
            en,
            {
                "kind": "monster",
                "size": size,
                "characteristics": {"agility": agility, "reason": reason, "strength": strength},
                "stamina": stamina,
                "stamina_max": stamina,
                "speed": speed,
                "armour_defence": {"value": defence, "max": defence},
            },
        )

    return [
        creature("giant_rat", "Гигантская крыса", "Giant rat", "small", 2, -2, -1, 3),
        creature("skeleton", "Скелет", "Skeleton", "medium", 0, -3, 1, 6, defence=1),
        creature("ghoul", "Упырь", "Ghoul", "medium", 1, -1, 2, 9),
        creature("blood_creature", "Кровавое существо A", "Blood creature A", "small", 1, -2, 0, 4),
        creature("bear", "Медведь", "Bear", "large", 0, -2, 3, 18, speed=8),
    ]
