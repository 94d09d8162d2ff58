"""The demo's player characters in City of Judas, filled in as a player would: Steel and gear."""

from __future__ import annotations

from typing import Any


def demo_sheets() -> tuple[dict[str, Any], dict[str, Any]]:
    def steel(value: int) -> list[dict[str, Any]]:
        return [{"key": "steel", "ru": "Сталь", "en": "Steel", "value": value}]

    return (
        {"stats": steel(1), "weapon_damage": 1, "armor": 1},
        {"stats": steel(2), "weapon_damage": 2, "armor": 2, "shield": 1},
    )
