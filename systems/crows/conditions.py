"""Conditions («Состояния») on a creature sheet, and what they do to rolls.

A creature cannot gain a second instance of a condition it has («Состояния»); objects take no
conditions («Урон и смерть › Выносливость»). Unconscious includes prone («Состояния › Без сознания»:
"Вы сбиты с ног") without storing it. All functions return a new sheet.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.schema import fail
from systems.crows.inventory import speed_penalty
from systems.crows.modifiers import cannot_stand, speed_modifier
from systems.crows.modifiers import check_sources as effect_sources
from systems.crows.terms import CONDITIONS_BY_KEY, TURN_END_CONDITIONS

NOISE_RANGE = 10  # squares («Состояния › Без сознания»)


def condition_keys(state: dict[str, Any]) -> set[str]:
    """Conditions in effect, unconscious implying prone («Состояния › Без сознания»)."""
    keys = {c["key"] for c in state.get("conditions", [])}
    if "unconscious" in keys:
        keys.add("prone")
    return keys


def has_condition(state: dict[str, Any], key: str) -> bool:
    return key in condition_keys(state)


def add_condition(
    state: dict[str, Any],
    key: str,
    *,
    by: str = "",
    range_: int = 1,
    knocked_out: bool = False,
    note: str = "",
) -> tuple[dict[str, Any], bool]:
    """Give a condition: (new state, added). A second instance does nothing («Состояния»)."""
    if key not in CONDITIONS_BY_KEY:
        raise fail("condition", f"Нет такого состояния: {key}.", f"No such condition: {key}.")
    if state.get("kind") == "object":
        raise fail(
            "condition",
            "Предметы получают урон, но не состояния.",
            "Objects take damage but no conditions.",
        )
    new = copy.deepcopy(state)
    if any(c["key"] == key for c in new["conditions"]):
        return new, False
    new["conditions"].append(
        {"key": key, "by": by, "range": range_, "knocked_out": knocked_out, "note": note}
    )
    return new, True


def remove_condition(state: dict[str, Any], key: str) -> tuple[dict[str, Any], bool]:
    new = copy.deepcopy(state)
    before = len(new["conditions"])
    new["conditions"] = [c for c in new["conditions"] if c["key"] != key]
    return new, len(new["conditions"]) != before


def expire_at_turn_end(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Blessed, Vulnerable and Weakened pass at the end of the dungeon turn
    («Состояния › Благословлён»/«Состояния › Уязвим»/«Состояния › Ослаблен»)."""
    new = copy.deepcopy(state)
    gone = [c["key"] for c in new["conditions"] if c["key"] in TURN_END_CONDITIONS]
    new["conditions"] = [c for c in new["conditions"] if c["key"] not in TURN_END_CONDITIONS]
    return new, gone


def wake(state: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """End Unconscious: any damage, a loud noise within 10 squares («Состояния › Без сознания»), or
    the end of the dungeon turn for a knocked-out Referee creature
    («Урон и смерть › Выносливость»)."""
    return remove_condition(state, "unconscious")


def knocked_out(state: dict[str, Any]) -> bool:
    return any(c["key"] == "unconscious" and c["knocked_out"] for c in state["conditions"])


def speed(state: dict[str, Any]) -> int:
    """Current speed: base minus 1 per backpack slot with a wound and an item (min 0,
    «Урон и смерть › Раны»); 0 while grabbed or unconscious («Состояния › Схвачен»;
    «Состояния › Без сознания»); halved while prone, rounded down («Состояния › Сбит с ног»;
    «Всегда округляйте вниз»). Backlash effects change it first (dancing, cold, slime,
    hands-as-feet, «Заклинания › Виды отдачи»)."""
    keys = condition_keys(state)
    value = max(0, state["speed"] - speed_penalty(state["inventory"]) + speed_modifier(state))
    if "grabbed" in keys or "unconscious" in keys:
        return 0
    if "prone" in keys:
        return value // 2
    return value


def stand(state: dict[str, Any]) -> dict[str, Any]:
    """Встать («Состояния › Сбит с ног»; «Бой › Общие манёвры»): a maneuver that ends Prone if your
    speed is 1 or more. The speed read is the current (halved) one, literally; an unconscious
    creature cannot stand."""
    keys = {c["key"] for c in state["conditions"]}
    if "unconscious" in keys:
        raise fail(
            "condition",
            "Без сознания нельзя встать.",
            "An unconscious creature cannot stand.",
        )
    if "prone" not in keys:
        raise fail("condition", "Вы не сбиты с ног.", "You are not prone.")
    if cannot_stand(state):
        raise fail(
            "condition",
            "Отдача: вы не можете встать и ползёте.",
            "Backlash: you cannot stand and must crawl.",
        )
    if speed(state) < 1:
        raise fail(
            "speed",
            "Встать можно только со скоростью 1 или выше.",
            "You can stand only with speed 1 or more.",
        )
    return remove_condition(state, "prone")[0]


def self_sources(
    state: dict[str, Any],
    *,
    kind: str,
    attack: str,
    characteristic: str | None,
    purpose: str,
) -> tuple[list[str], bool]:
    """Advantage/disadvantage sources a creature's own conditions add to its check, and
    whether the check is an automatic doom (unconscious Agility or Strength,
    «Состояния › Без сознания»)."""
    keys = condition_keys(state)
    sources: list[str] = []
    if "blessed" in keys:
        sources.append("blessed")  # «Состояния › Благословлён»: all checks
    if "weakened" in keys:
        sources.append("weakened")  # «Состояния › Ослаблен»: all checks
    if "prone" in keys and kind == "attack" and attack == "melee":
        sources.append("prone_melee")  # «Состояния › Сбит с ног»
    if "unconscious" in keys and characteristic == "reason" and purpose == "perceive":
        sources.append("unconscious_notice")  # «Состояния › Без сознания»: double disadvantage
    sources.extend(effect_sources(state, purpose))  # backlash and Miasma effects
    if kind == "attack" and state.get("hidden"):
        sources.append("hidden")  # «Проверки › Прятаться и красться»
    auto_doom = "unconscious" in keys and characteristic in ("agility", "strength")
    return sources, auto_doom


def target_sources(target_conditions: list[str], *, kind: str, attack: str) -> tuple[list, bool]:
    """Sources from the target's conditions on an attack, and whether it is an automatic
    tier 3 (an unconscious target, «Состояния › Без сознания»)."""
    if kind != "attack":
        return [], False
    keys = set(target_conditions)
    if "unconscious" in keys:
        keys.add("prone")
    sources: list[str] = []
    if "grabbed" in keys:
        sources.append("target_grabbed")  # «Состояния › Схвачен»
    if "prone" in keys and attack == "melee":
        sources.append("target_prone_melee")  # «Состояния › Сбит с ног»
    if "prone" in keys and attack == "ranged":
        sources.append("target_prone_ranged")  # «Состояния › Сбит с ног»
    return sources, "unconscious" in keys


def blessed_attack_bonus(state: dict[str, Any], characteristic: str) -> int:
    """Blessed attacks deal extra damage equal to the attack's characteristic
    («Состояния › Благословлён»), never negative."""
    if not has_condition(state, "blessed"):
        return 0
    return max(0, state["characteristics"][characteristic])
