"""The demo's player characters in Savage Worlds, filled in as a player would: attributes, skills,
edges and hindrances.
"""

from __future__ import annotations

from typing import Any


def demo_sheets() -> tuple[dict[str, Any], dict[str, Any]]:
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


def seed_table(
    campaign: Any, *, referee: Any, alice_pc: Any, boris_pc: Any, hidden_npc: Any
) -> None:
    """A round with the hidden NPC and a hidden ambush dealt in, then one without them (so
    later deals follow that selection), then the fight ends."""
    from vtt.campaigns import demo_markers as M
    from vtt.campaigns.models import Role
    from vtt.tablestate.services import table_move

    visible = [{"character_id": pc.pk} for pc in (alice_pc, boris_pc)]
    hidden = [{"character_id": hidden_npc.pk}, {"name": M.EXTRAS_HIDDEN, "hidden": True}]
    table_move(campaign=campaign, actor=referee, role=Role.REFEREE, move="start_combat")
    for participants in (visible + hidden, visible):
        table_move(
            campaign=campaign,
            actor=referee,
            role=Role.REFEREE,
            move="deal_round",
            params={"participants": participants},
        )
    table_move(campaign=campaign, actor=referee, role=Role.REFEREE, move="end_combat")
