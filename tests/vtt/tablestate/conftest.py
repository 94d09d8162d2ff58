"""Savage Worlds and Tales campaigns at the shared test table (same members, other ruleset)."""

from __future__ import annotations

import pytest

from vtt.characters import services as character_services


@pytest.fixture
def sw(table):
    table.campaign.ruleset = "savage_worlds"
    table.campaign.save(update_fields=["ruleset"])
    return table


@pytest.fixture
def tales(table):
    table.campaign.ruleset = "tales"
    table.campaign.save(update_fields=["ruleset"])
    return table


def sw_character(table, *, user=None, name="Ива", kind="pc", hidden=False, **state):
    role = "referee" if kind == "npc" or user is None else "player"
    base = {
        "attributes": {
            "agility": "d8",
            "smarts": "d6",
            "spirit": "d6",
            "strength": "d6",
            "vigor": "d6",
        },
        "skills": [{"key": "fighting", "name": "Драка", "die": "d8"}],
    }
    if kind == "npc":
        base["role"] = "npc"
    base.update(state)
    return character_services.character_create(
        campaign=table.campaign,
        actor=user or table.referee,
        role=role,
        name=name,
        kind=kind,
        state=base,
        hidden=hidden,
    )
