"""Ready-made stat blocks of the prep library: Savage Worlds: extras and wild cards («Дикие карты и
статисты»; «Дикий кубик»).
"""

from __future__ import annotations

from typing import Any

from vtt.prep.library.blocks import block


def npc_blocks() -> list[dict[str, Any]]:
    def npc(key, ru, en, wild, attrs, skills, weapons, armor=0, pace=6):
        agility, smarts, spirit, strength, vigor = attrs
        return block(
            key,
            ru,
            en,
            {
                "role": "npc",
                "wild_card": wild,
                "attributes": {
                    "agility": agility,
                    "smarts": smarts,
                    "spirit": spirit,
                    "strength": strength,
                    "vigor": vigor,
                },
                "skills": [{"key": k, "name": n, "die": d} for k, n, d in skills],
                "weapons": [{"name": n, "damage": d} for n, d in weapons],
                "armor": armor,
                "pace": pace,
            },
        )

    fighting = ("fighting", "Драка")
    notice = ("notice", "Внимание")
    return [
        npc(
            "goblin",
            "Гоблин (статист)",
            "Goblin (extra)",
            False,
            ("d8", "d6", "d6", "d4", "d6"),
            [(*fighting, "d6"), (*notice, "d6")],
            [("Копьё", "Сила+к6")],
            pace=5,
        ),
        npc(
            "orc",
            "Орк (статист)",
            "Orc (extra)",
            False,
            ("d6", "d4", "d6", "d8", "d8"),
            [(*fighting, "d8"), (*notice, "d4")],
            [("Топор", "Сила+к6")],
            armor=1,
        ),
        npc(
            "bandit",
            "Бандит (статист)",
            "Bandit (extra)",
            False,
            ("d6", "d6", "d6", "d6", "d6"),
            [(*fighting, "d6"), (*notice, "d6")],
            [("Короткий меч", "Сила+к4")],
        ),
        npc(
            "bandit_chief",
            "Главарь бандитов (дикая карта)",
            "Bandit chief (wild card)",
            True,
            ("d8", "d6", "d8", "d8", "d8"),
            [(*fighting, "d10"), (*notice, "d8")],
            [("Длинный меч", "Сила+к8")],
            armor=2,
        ),
    ]
