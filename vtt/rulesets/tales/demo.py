"""The demo's player characters in Tales, filled in as a player would: stats, skills and weapons."""

from __future__ import annotations

from typing import Any


def demo_sheets() -> tuple[dict[str, Any], dict[str, Any]]:
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
