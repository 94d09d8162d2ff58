"""Ready-made stat blocks of the prep library: Сказания волшебного мира: the summoned creatures are
the rulebook's only stat blocks («Чары»).
"""

from __future__ import annotations

from typing import Any

from systems.tales.data import ELEMENTS, SUMMONS
from vtt.prep.library.blocks import block, t


def npc_blocks() -> list[dict[str, Any]]:
    blocks = []
    by_key = {s.key: s for s in SUMMONS}
    wolf, soldier, entity = by_key["wolf"], by_key["soldier"], by_key["entity"]
    blocks.append(
        block(
            "wolf",
            wolf.ru,
            wolf.en,
            {
                "stats": dict(wolf.stats),
                "hp": wolf.stats["str"],
                "max_hp": wolf.stats["str"],
                "natural": {"name": "Клыки", "damage": wolf.damage, "armour": wolf.armour},
            },
            note=t(
                "Как призванный волк: сила 10, ловкость 13, разум 6.",
                "As the summoned wolf: Str 10, Dex 13, Mind 6.",
            ),
            source="«Чары»",
        )
    )
    blocks.append(
        block(
            "soldier",
            soldier.ru,
            soldier.en,
            {
                "stats": dict(soldier.stats),
                "hp": soldier.stats["str"],
                "max_hp": soldier.stats["str"],
                "weapons": [{"key": soldier.weapon, "state": "drawn"}],
                "shield": soldier.shield,
            },
            note=t("Обычное оружие и щит.", "An ordinary weapon and a shield."),
            source="«Чары»",
        )
    )
    for element in ELEMENTS:
        blocks.append(
            block(
                f"elemental_{element.key}",
                f"Элементал: {element.ru.lower()}",
                f"{element.en} elemental",
                {
                    "stats": dict(entity.stats),
                    "hp": entity.stats["str"],
                    "max_hp": entity.stats["str"],
                    "natural": {
                        "name": "Удар",
                        "damage": entity.damage,
                        "armour": entity.armour,
                    },
                },
                note=t("Как призванная сущность.", "As the summoned entity."),
                source="«Чары»",
            )
        )
    blocks.append(
        block(
            "bandit",
            "Разбойник",
            "Bandit",
            {
                "stats": {"str": 11, "dex": 11, "mind": 9},
                "hp": 11,
                "max_hp": 11,
                "armour": "leather",
                "weapons": [{"key": "ordinary", "state": "drawn"}],
            },
        )
    )
    return blocks
