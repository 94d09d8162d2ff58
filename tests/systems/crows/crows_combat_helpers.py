"""Fixtures for the Crows combat, travel and spell tests: weapons, spellbooks, travel and combat
states."""

from __future__ import annotations

from typing import Any

from crows_helpers import RS, campaign, pc, run, with_items

from systems.crows.items import make_item


def sword(item_id: str = "sword", **changes: Any) -> dict[str, Any]:
    """A one-handed sword; its numbers are hypothetical (the seed prints no weapon cards)."""
    damage = {
        "type": "melee",
        "reach": 1,
        "expertise": "slashing",
        "tier2": "3",
        "tier3": "5",
        **changes,
    }
    return make_item(item_id, "Меч", kind="sword", damage=damage)


def bow(item_id: str = "bow", range_: int = 10) -> dict[str, Any]:
    return make_item(
        item_id,
        "Лук",
        kind="bow",
        damage={
            "type": "ranged",
            "range": range_,
            "expertise": "bow",
            "tier2": "1d6",
            "tier3": "1d6+2",
            "ammo": "arrow",
        },
    )


def arrows(n: int = 1) -> dict[str, Any]:
    return make_item(f"arrow{n}", "Стрела", kind="arrow", stack=20)


def spellbook(
    item_id: str = "book",
    *,
    rank: int = 1,
    dice: int = 2,
    discipline: str = "elements",
    **spell: Any,
) -> dict[str, Any]:
    """A spellbook card; rank, dice and lines are hypothetical (no spell cards in the seed)."""
    return make_item(
        item_id,
        "Книга огня",
        kind="spellbook",
        wear={"dice": dice, "max": dice, "keywords": ["rest"]},
        spell={
            "name": "Огненная искра",
            "rank": rank,
            "discipline": discipline,
            "range": 10,
            "tier1": "Искра гаснет у вас в руках.",
            "tier2": "Цель получает 1d6 урона.",
            "tier3": "Цель получает 2d6 урона.",
            **spell,
        },
    )


def armed(item: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """A crow holding ``item`` (a sword by default) in the first hand."""
    return with_items(pc(**kw), (item or sword(), "hands:1"))


def travelling(**changes: Any) -> dict[str, Any]:
    """A campaign whose party has set out from hex (0, 0)."""
    camp = run("travel_begin", campaign(), [], q=0, r=0).state
    if changes:
        camp["travel"].update(changes)
        camp = RS.validate_campaign(camp)
    return camp


def travel_day(pace: str = "normal", *, slowest_speed: int = 5, **kw: Any) -> dict[str, Any]:
    """The campaign after opening a travel day."""
    return run("travel_day", travelling(), [], pace=pace, slowest_speed=slowest_speed, **kw).state
