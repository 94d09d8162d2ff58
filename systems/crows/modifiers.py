"""What lasting effects on a sheet do to other rules: backlash rows («Заклинания › Виды отдачи») and
Miasma rows («Путешествие по суше › Эффекты Миазмы») are stored as effects with a rule ``key``; this
module reads them.

Keys: ``backlash:<row>`` (``backlash:47-48``), ``miasma:<row key>`` (``miasma:bloodlust``) and
``spell`` for a spell's own duration. ``stacks`` counts repeats of a stacking row
(«Заклинания › Отдача магии»). Kept free of other Crows modules so checks, damage and speed can all
ask it.
"""

from __future__ import annotations

from typing import Any

# backlash rows that change speed, per stack («Заклинания › Виды отдачи»)
SPEED_EFFECTS: dict[str, int] = {
    "backlash:03-04": -2,
    "backlash:11-12": -1,
    "backlash:37-38": -2,
    "backlash:61-62": 2,
}
CHARACTERISTIC_EFFECTS: dict[str, str] = {
    "backlash:87-88": "strength",
    "backlash:89-90": "agility",
    "backlash:91-92": "reason",
}
STENCH = "backlash:39-40"  # disadvantage on all checks («Заклинания › Виды отдачи»)
DANCING = "backlash:03-04"  # disadvantage to climb, hide, sneak, swim («Заклинания › Виды отдачи»)
GLOWING = "backlash:47-48"  # attacks against you +2 («Заклинания › Виды отдачи»)
NEXT_DAMAGE_DOUBLED = "backlash:15-16"  # «Заклинания › Виды отдачи»
PORCELAIN = "backlash:57-58"  # non-piercing damage doubled («Заклинания › Виды отдачи»)
CANNOT_STAND = "backlash:59-60"  # «Заклинания › Виды отдачи»
NO_HANDS = "backlash:61-62"  # «Заклинания › Виды отдачи»
TIER_DOWN = "backlash:99-100"  # «Заклинания › Виды отдачи»
GLOOM = "miasma:gloom"  # advantage to sneak and hide («Путешествие по суше › Эффекты Миазмы»)
# +2 on Forage checks, ≥2 rations per rest («Путешествие по суше › Эффекты Миазмы»)
GLUTTONY = "miasma:gluttony"
# refuses travel roles; rest removes 2 wounds («Путешествие по суше › Эффекты Миазмы»)
SLOTH = "miasma:sloth"
BLOODLUST = "miasma:bloodlust"  # +1 weapon damage («Путешествие по суше › Эффекты Миазмы»)
# resting in the Miasma refreshes expertise («Путешествие по суше › Эффекты Миазмы»)
LOST = "miasma:lost"

DANCING_PURPOSES = frozenset({"climb", "hide", "sneak", "swim"})
GLOOM_PURPOSES = frozenset({"hide", "sneak"})


def effects_with(state: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [e for e in state.get("effects", []) if e.get("key") == key]


def has_effect(state: dict[str, Any], key: str) -> bool:
    return bool(effects_with(state, key))


def stacks(state: dict[str, Any], key: str) -> int:
    """How many times a stacking effect is on the sheet (0 when absent)."""
    return sum(int(e.get("stacks", 1)) for e in effects_with(state, key))


def effective_characteristic(state: dict[str, Any], key: str) -> int:
    """The characteristic after backlash penalties (−1 per stack until a rest,
    «Заклинания › Виды отдачи»); never below −5 («Характеристики»)."""
    value = state["characteristics"][key]
    for effect_key, char in CHARACTERISTIC_EFFECTS.items():
        if char == key:
            value -= stacks(state, effect_key)
    return max(-5, value)


def speed_modifier(state: dict[str, Any]) -> int:
    """Speed changes from backlash effects (dancing −2, cold −1 and slime −2 per stack,
    hands-as-feet +2)."""
    return sum(per * stacks(state, key) for key, per in SPEED_EFFECTS.items())


def check_sources(state: dict[str, Any], purpose: str = "") -> list[str]:
    """Advantage/disadvantage sources a creature's own lasting effects add to its checks."""
    out: list[str] = []
    if has_effect(state, STENCH):
        out.append("stench")
    if purpose in DANCING_PURPOSES and has_effect(state, DANCING):
        out.append("dancing")
    if purpose in GLOOM_PURPOSES and has_effect(state, GLOOM):
        out.append("gloom")
    return out


def attacks_against_bonus(state: dict[str, Any]) -> int:
    """+2 to attacks against a creature with the glowing outline («Заклинания › Виды отдачи»)."""
    return 2 if has_effect(state, GLOWING) else 0


def weapon_damage_bonus(state: dict[str, Any]) -> int:
    """Bloodlust: +1 damage on weapon attacks («Путешествие по суше › Эффекты Миазмы»)."""
    return 1 if has_effect(state, BLOODLUST) else 0


def damage_multiplier(state: dict[str, Any], *, piercing: bool) -> tuple[int, list[str]]:
    """(multiplier, ids of effects consumed): the next damage is doubled once
    («Заклинания › Виды отдачи»); porcelain doubles non-piercing damage
    («Заклинания › Виды отдачи»). Both together double twice."""
    factor, consumed = 1, []
    for effect in effects_with(state, NEXT_DAMAGE_DOUBLED):
        factor *= 2
        consumed.append(effect["id"])
        break
    if not piercing and has_effect(state, PORCELAIN):
        factor *= 2
    return factor, consumed


def cannot_stand(state: dict[str, Any]) -> bool:
    return has_effect(state, CANNOT_STAND)


def tier_down(state: dict[str, Any]) -> bool:
    return has_effect(state, TIER_DOWN)
