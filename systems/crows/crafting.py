"""Crafting («Изготовление») and identifying magic items («Опознание магических предметов»).

A project (``sheet.PROJECT``) is kept on the crafter's sheet: its crafting goal, the expertise
and uses it needs, the materials (item kinds and counts) and the points so far, which persist
across rests. A crafting roll is a Reason check read with no tiers
(«Изготовление › Броски изготовления»): the total is added as points, at least 1 even with
penalties, 0 on a doom, and a crit grants another roll in the same activity (a crit on it chains).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.schema import fail
from systems.crows.checks import is_crit, is_doom
from systems.crows.inventory import iter_items, remove
from systems.crows.items import stack_kind
from systems.crows.terms import (
    CRAFT_DOUBLE_STEP,
    CRAFT_EXPERTISE_BONUS,
    CRAFT_MAX_EXPERTISE,
    CRAFT_MIN_POINTS,
    CRAFT_TOOLS,
)


def tool_kind(expertise: str) -> str | None:
    """Alchemy needs alchemist's tools, Blacksmithing smith's tools, Enchanting enchanter's
    tools («Изготовление › Инструменты»); other expertises name no tools."""
    entry = CRAFT_TOOLS.get(expertise)
    return entry[0] if entry else None


def _kinds(state: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for _area, _slot, card in iter_items(state["inventory"]):
        out.setdefault(stack_kind(card), []).append(card["id"])
    return out


def has_materials(state: dict[str, Any], project: dict[str, Any]) -> bool:
    kinds = _kinds(state)
    return all(
        len(kinds.get(m["kind"].strip().casefold(), [])) >= m["count"] for m in project["materials"]
    )


def requirement_problems(
    state: dict[str, Any],
    project: dict[str, Any],
    *,
    tools_in_camp: bool = False,
    materials: bool = True,
) -> list[dict[str, str]]:
    """The card's requirements («Изготовление › Требования к изготовлению»): the expertise with at
    least N uses left (checked, not spent), the tools of that expertise, and the materials."""
    out: list[dict[str, str]] = []
    entry = next((e for e in state["expertises"] if e["key"] == project["expertise"]), None)
    if project["uses"] > 0 and (entry is None or entry["uses"] < project["uses"]):
        out.append(
            {
                "ru": f"Нужна экспертиза с {project['uses']} применениями.",
                "en": f"The expertise with {project['uses']} uses is needed.",
            }
        )
    tool = tool_kind(project["expertise"])
    if tool and not tools_in_camp and tool not in _kinds(state):
        out.append(
            {
                "ru": f"Нужны инструменты: {CRAFT_TOOLS[project['expertise']][1]}.",
                "en": f"Tools needed: {CRAFT_TOOLS[project['expertise']][2]}.",
            }
        )
    if materials and not has_materials(state, project):
        out.append({"ru": "Не хватает материалов.", "en": "Materials missing."})
    return out


def crafting_points(
    faces: tuple[int, int] | list[int],
    *,
    reason: int,
    net: int,
    bonus: int,
    expertises: int,
) -> dict[str, Any]:
    """Points of one crafting roll («Изготовление › Броски изготовления»): the total with ±2 for a
    single advantage or disadvantage, ±4 for a double, +4 per expertise (at most two); at least 1
    after every modifier, 0 on a doom; a crit gives another roll."""
    if expertises > CRAFT_MAX_EXPERTISE:
        raise fail(
            "expertises",
            "Не больше двух экспертиз на бросок изготовления.",
            "At most two expertises on a crafting roll.",
        )
    natural = sum(faces)
    step = {2: CRAFT_DOUBLE_STEP, 1: 2, 0: 0, -1: -2, -2: -CRAFT_DOUBLE_STEP}[net]
    total = natural + reason + bonus + step + CRAFT_EXPERTISE_BONUS * expertises
    doom, crit = is_doom(natural), is_crit(natural)
    points = 0 if doom else max(CRAFT_MIN_POINTS, total)
    return {
        "faces": list(faces),
        "natural": natural,
        "total": total,
        "points": points,
        "doom": doom,
        "crit": crit,
        "step": step,
        "expertise_bonus": CRAFT_EXPERTISE_BONUS * expertises,
    }


def spend_materials(state: dict[str, Any], project: dict[str, Any]) -> tuple[dict, list[str]]:
    """Remove one copy's materials from the crafter's inventory
    («Изготовление › Броски изготовления»)."""
    st = copy.deepcopy(state)
    spent: list[str] = []
    for m in project["materials"]:
        ids = _kinds(st).get(m["kind"].strip().casefold(), [])[: m["count"]]
        for item_id in ids:
            st["inventory"], _ = remove(st["inventory"], item_id)
            spent.append(item_id)
    return st, spent


def add_points(
    state: dict[str, Any], project: dict[str, Any], points: int
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Add points; each time they reach the goal an item is done and its materials are spent
    («Изготовление › Броски изготовления»). Overflow starts another identical item while materials
    last («Изготовление › Изготовление нескольких предметов»); with none left it is lost."""
    st = copy.deepcopy(state)
    proj = copy.deepcopy(project)
    proj["points"] += points
    events: list[dict[str, Any]] = []
    while proj["points"] >= proj["goal"]:
        if not has_materials(st, proj):
            events.append({"type": "crafting_overflow_lost", "points": proj["points"]})
            proj["points"] = 0
            break
        st, spent = spend_materials(st, proj)
        proj["done"] += 1
        proj["points"] -= proj["goal"]
        events.append(
            {
                "type": "item_crafted",
                "project": proj["id"],
                "name": proj["name"],
                "copy": proj["done"],
                "materials_spent": spent,
                "result": copy.deepcopy(proj["result"]),
            }
        )
        if proj["points"] and not has_materials(st, proj):
            events.append({"type": "crafting_overflow_lost", "points": proj["points"]})
            proj["points"] = 0
    return st, proj, events
