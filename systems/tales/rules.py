"""Pure rule pieces shared by the moves: damage and death, healing, forms, scene ends, and
working out an attack before any die is rolled («Ход»; «Атака»; «Ранения и лечение»; «Оружие»;
«Доспехи и щиты»; «Колдовство»; «Чары»; «Мгновенные заклинания»).

Every function takes sheets it may change as private copies made by the caller, or returns
new ones; none touches a caller's input.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import roll_notation
from systems.core.ruleset import RulesError
from systems.core.schema import fail
from systems.tales.checks import AUTO, CHECK, HARD, VERY_HARD, combine_difficulty
from systems.tales.data import (
    CONDITIONS_BY_KEY,
    FORMS_BY_KEY,
    MELEE,
    NATURAL,
    NO_MOVE_WEAPONS,
    SHIELDS_BY_KEY,
    SHOT,
    SMALL_IMPROVISED,
    THROWN,
    WEAPONS_BY_KEY,
    Form,
    Weapon,
)
from systems.tales.sheet import (
    ALIVE,
    DEAD,
    armour_value,
    form_of,
    next_check_bonus,
    skill_level,
    stat_value,
    throw_range,
)


def err(path: str, ru: str, en: str) -> RulesError:
    return fail(path, ru, en)


# --- damage, death, healing ----------------------------------------------------------------------


def after_armour(raw: int, armour: int, *, hit: bool) -> int:
    """Damage through armour: a hit always deals at least 1 («Оружие»; «Доспехи и щиты»); other
    damage that armour reduces (spells, traps) keeps the minimum 1 only when there was
    any to begin with (X = 0 deals nothing)."""
    if not hit and raw <= 0:
        return 0
    return max(1, raw - armour)


def wound(state: dict[str, Any], amount: int) -> dict[str, Any]:
    """Take ``amount`` HP (already after armour) in place; 0 or less HP is death («Ранения и
    лечение»).

    A new wound lets Medicine try again («Ремёсла») and breaks a run of rest days («Ранения и
    лечение»)."""
    info: dict[str, Any] = {"hp_before": state["hp"], "final": max(0, amount)}
    if amount > 0:
        state["hp"] -= amount
        state["care"]["medicine_used"] = False
        state["care"]["rest_days"] = 0
    died = state["status"] == ALIVE and state["hp"] <= 0
    if died:
        state["status"] = DEAD
    info.update(hp=state["hp"], died=died, dead=state["status"] == DEAD)
    return info


def take_damage(
    state: dict[str, Any], raw: int, *, armour: bool = True, hit: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A copy of ``state`` after ``raw`` damage, with armour unless it does not help."""
    st = copy.deepcopy(state)
    reduction = armour_value(st) if armour else 0
    final = after_armour(raw, reduction, hit=hit) if armour else max(0, raw)
    info = wound(st, final)
    info.update(raw=raw, armour=reduction)
    return st, info


def heal(state: dict[str, Any], amount: int) -> int:
    """Restore HP in place, never above max («Ранения и лечение»); the dead are not healed. Returns
    HP gained."""
    if state["status"] == DEAD or amount <= 0:
        return 0
    before = state["hp"]
    state["hp"] = min(state["max_hp"], state["hp"] + amount)
    return state["hp"] - before


def set_max_hp_from_str(state: dict[str, Any]) -> None:
    """Max HP is Str («Ранения и лечение»); current HP never exceeds it; 0 max HP is death («Ранения
    и лечение»; «Структуры игры»)."""
    state["max_hp"] = max(0, stat_value(state, "str"))
    state["hp"] = min(state["hp"], state["max_hp"])
    if state["status"] == ALIVE and state["hp"] <= 0:
        state["status"] = DEAD


# --- conditions and forms ------------------------------------------------------------------------


def add_condition(state: dict[str, Any], key: str) -> None:
    if key not in state["conditions"]:
        state["conditions"].append(key)


def remove_condition(state: dict[str, Any], *keys: str) -> None:
    state["conditions"] = [c for c in state["conditions"] if c not in keys]


def start_form(state: dict[str, Any], form: Form) -> dict[str, Any]:
    """Transform in place («Чары»). Current HP moves by the change of max."""
    if form_of(state) is not None:
        end_form(state)
    old_max = state["max_hp"]
    state["form"] = {
        "key": form.key,
        "hp_before": state["hp"],
        "max_hp_before": old_max,
        "hp_start": state["hp"],
    }
    new_max = max(0, state["stats"]["str"] * form.str_mult)
    state["max_hp"] = new_max
    state["hp"] = min(new_max, state["hp"] + new_max - old_max)
    state["form"]["hp_start"] = state["hp"]
    return {"form": form.key, "max_hp": new_max, "hp": state["hp"]}


def end_form(state: dict[str, Any]) -> dict[str, Any]:
    """Return to human shape in place. Werebear damage vanishes («Чары»): HP as before the
    change; gargoyle damage stays and can kill («Чары»); a werewolf keeps its HP."""
    form = form_of(state)
    if form is None:
        return {}
    f = state["form"]
    taken = max(0, f["hp_start"] - state["hp"])
    state["max_hp"] = f["max_hp_before"]
    if form.damage_vanishes:
        state["hp"] = f["hp_before"]
    elif form.str_mult != 1:
        state["hp"] = f["hp_before"] - taken
    state["hp"] = min(state["hp"], state["max_hp"])
    state["form"] = {"key": "none", "hp_before": 0, "max_hp_before": 0, "hp_start": 0}
    died = False
    if state["status"] == ALIVE and state["hp"] <= 0:
        state["status"] = DEAD
        died = True
    return {"ended": form.key, "damage_in_form": taken, "hp": state["hp"], "died": died}


def dispel(state: dict[str, Any]) -> list[str]:
    """Remove every charm from a creature in place («Чары»): spell conditions,
    spell stat changes and a transformation. Returns what was removed."""
    removed = [c for c in state["conditions"] if CONDITIONS_BY_KEY[c].spell]
    remove_condition(state, *removed)
    spell_mods = [m for m in state["stat_mods"] if m["source"].startswith("spell:")]
    state["stat_mods"] = [m for m in state["stat_mods"] if not m["source"].startswith("spell:")]
    removed += [m["source"] for m in spell_mods]
    if form_of(state) is not None:
        removed.append(state["form"]["key"])
        end_form(state)
    return removed


def end_scene(state: dict[str, Any]) -> dict[str, Any]:
    """Charms end with the scene («Колдовство»); so does a freeze (our reading) and a spell's stat
    loss, never below 0. Battle bookkeeping resets."""
    ended = [c for c in state["conditions"] if CONDITIONS_BY_KEY[c].scene]
    remove_condition(state, *ended)
    state["stat_mods"] = [m for m in state["stat_mods"] if m["until"] != "scene"]
    form = end_form(state)
    state["combat"] = {
        "reaction_used": False,
        "skip_activation": False,
        "action_used": False,
        "movement_used": 0,
        "attacked": False,
        "shot": False,
    }
    return {"ended": ended, "form": form}


# --- attacks -------------------------------------------------------------------------------


@dataclass
class AttackPlan:
    """Everything about an attack that is known before the dice: the check and the damage."""

    weapon: Weapon
    mode: str
    eff: int
    parts: dict[str, int]
    difficulty: str
    auto: str | None  # "hit", "miss" or None (roll)
    reasons: list[str] = field(default_factory=list)
    damage: str = ""
    military: int = 0
    target_armour: int = 0
    mirrored: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "weapon": self.weapon.key,
            "mode": self.mode,
            "eff": self.eff,
            "parts": dict(self.parts),
            "difficulty": self.difficulty,
            "auto": self.auto,
            "reasons": list(self.reasons),
            "damage": self.damage,
            "military": self.military,
            "target_armour": self.target_armour,
            "mirrored": self.mirrored,
        }


def _weapon_entry(state: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The best copy of a carried weapon: drawn first, then sheathed."""
    entries = [w for w in state["weapons"] if w["key"] == key and w["state"] != "dropped"]
    entries.sort(key=lambda w: w["state"] != "drawn")
    return entries[0] if entries else None


def natural_damage(state: dict[str, Any]) -> str:
    """A form's claws («Чары») or a creature's own damage («Чары»)."""
    form = form_of(state)
    if form is not None:
        return form.damage
    return state["natural"]["damage"]


def pick_weapon(
    state: dict[str, Any], key: str, mode: str, settings: dict[str, Any]
) -> tuple[Weapon, str, dict[str, Any] | None]:
    """Check the attacker may strike with ``key`` this way; returns the weapon as used, the
    mode and the inventory entry (None for fists, claws and improvised things)."""
    if key == NATURAL:
        if not natural_damage(state):
            raise err("weapon", "У персонажа нет природного оружия.", "No natural weapon.")
        weapon = Weapon(
            NATURAL,
            "Природное оружие",
            "Natural weapon",
            natural_damage(state),
            0,
            "brawl",
            (MELEE,),
            "«Чары»",
            carried=False,
        )
        return weapon, MELEE, None
    weapon = WEAPONS_BY_KEY.get(key)
    if weapon is None:
        raise err("weapon", "Нет такого оружия.", "No such weapon.")
    mode = mode or weapon.modes[0]
    if mode not in weapon.modes:
        raise err("mode", "Этим оружием так не атакуют.", "This weapon cannot attack that way.")
    if stat_value(state, "str") < weapon.min_str:
        raise err(
            "weapon",
            f"«{weapon.ru}» требует силу {weapon.min_str}.",
            f"{weapon.en} needs Str {weapon.min_str}.",
        )
    entry = None
    if weapon.bash:
        if SHIELDS_BY_KEY[state["shield"]].bash != weapon.key:
            raise err("weapon", "Нет такого щита в руке.", "No such shield carried.")
    elif weapon.carried:
        entry = _weapon_entry(state, key)
        if entry is None:
            raise err("weapon", "Этого оружия нет при себе.", "The character does not carry it.")
        if settings["require_drawn_weapon"] and entry["state"] != "drawn" and not weapon.free_ready:
            raise err(
                "weapon",
                "Оружие не в руке: достать его — действие.",
                "The weapon is not drawn; drawing it is an action.",
            )
    if weapon.two_handed and state["shield"] != "none":
        raise err(
            "weapon",
            "С двуручным оружием нельзя носить щит.",
            "A two-handed weapon cannot be used with a shield.",
        )
    if weapon.thrown_only and mode == MELEE:
        # «Оружие»: a throwing-only weapon counts as a small improvised weapon in melee.
        weapon = Weapon(
            weapon.key,
            weapon.ru,
            weapon.en,
            SMALL_IMPROVISED.damage,
            weapon.min_str,
            None,
            (MELEE,),
            "«Оружие»",
            attack_dex=SMALL_IMPROVISED.attack_dex,
            improvised=True,
        )
    elif mode == THROWN and weapon.category != "throwing":
        # Our reading: a thrown dagger or spear uses Throwing.
        weapon = Weapon(
            weapon.key,
            weapon.ru,
            weapon.en,
            weapon.damage,
            weapon.min_str,
            "throwing",
            (THROWN,),
            weapon.source,
        )
    return weapon, mode, entry


def target_view(target: dict[str, Any] | None, params: dict[str, Any]) -> dict[str, Any]:
    """What the attack needs to know of its target, from its sheet or from parameters."""
    if target is not None:
        return {
            "shield": target["shield"],
            "conditions": list(target["conditions"]),
            "armour": armour_value(target),
        }
    return {
        "shield": params.get("target_shield") or "none",
        "conditions": list(params.get("target_conditions") or []),
        "armour": params.get("target_armour") or 0,
    }


def plan_attack(
    attacker: dict[str, Any],
    target: dict[str, Any] | None,
    params: dict[str, Any],
    settings: dict[str, Any],
    *,
    counter: bool = False,
) -> tuple[AttackPlan, dict[str, Any] | None]:
    """The attack check («Проверка на попадание по врагу»; «Атака») with every modifier the rulebook
    gives, before rolling.

    Eff Dex = capped Dex + combat skill of the weapon's category («Боевые навыки») + improvised or
    shield-bash penalty («Оружие») + the target's buckler or shield («Доспехи и щиты») + bonuses.
    Harder: Darkness, Blurred, Levitation, Ice (3d10), Invisibility (4d10); automatic hit on
    a grappled, bound, frozen or sleeping target («Атака»; «Чары»); a throw beyond
    ⌊Str / 2⌋ always misses («Атака»).
    """
    weapon, mode, entry = pick_weapon(attacker, params["weapon"], params.get("mode", ""), settings)
    view = target_view(target, params)
    ranged = mode in (THROWN, SHOT)
    moved = attacker["combat"]["movement_used"] > 0
    if not counter and mode == SHOT and weapon.key in NO_MOVE_WEAPONS and moved:
        raise err(
            "weapon",
            "Стрелявший из лука или арбалета не может двигаться в этот ход.",
            "A bow or crossbow cannot be shot after moving this turn.",
        )
    if mode == SHOT and entry is not None and not entry["loaded"]:
        raise err("weapon", "Оружие не заряжено.", "The weapon is not loaded.")
    shield = SHIELDS_BY_KEY[view["shield"]]
    parts = {
        "dex": stat_value(attacker, "dex"),
        "skill": skill_level(attacker, f"combat_{weapon.category}") if weapon.category else 0,
        "weapon": weapon.attack_dex,
        "target_shield": shield.ranged if ranged else shield.melee,
        "next_check": next_check_bonus(attacker, "dex"),
        "bonus": params.get("bonus", 0),
    }
    extra: list[str] = []
    reasons: list[str] = []
    auto: str | None = None
    for cond in view["conditions"]:
        effect = CONDITIONS_BY_KEY[cond].attack
        if effect == "auto_hit":
            auto = "hit"
            reasons.append(cond)
        elif effect in (HARD, VERY_HARD):
            extra.append(effect)
            reasons.append(cond)
    if "on_ice" in attacker["conditions"]:
        extra.append(HARD)
        reasons.append("attacker_on_ice")
    stack = settings["difficulty_stacking"] == "stack"
    difficulty = combine_difficulty(CHECK, extra, stack=stack)
    distance = params.get("distance")
    if mode == THROWN and distance is not None and distance > throw_range(attacker):
        auto = "miss"
        reasons.append("beyond_throw_range")
    if auto == "hit":
        difficulty = AUTO
    mirrored = ranged and "spatial_mirror" in view["conditions"]
    plan = AttackPlan(
        weapon=weapon,
        mode=mode,
        eff=sum(parts.values()),
        parts=parts,
        difficulty=difficulty,
        auto=auto,
        reasons=reasons,
        damage=weapon.damage,
        military=skill_level(attacker, f"military_{weapon.category}") if weapon.category else 0,
        target_armour=view["armour"],
        mirrored=mirrored,
    )
    return plan, entry


def roll_weapon_damage(plan: AttackPlan, dice: Dice, armour: int) -> dict[str, Any]:
    """Weapon dice + military skill («Боевые навыки») − armour, at least 1 on a hit («Оружие»;
    «Доспехи и щиты»)."""
    roll = roll_notation(plan.damage, dice=dice)
    raw = roll.total + plan.military
    return {
        "notation": plan.damage,
        "faces": roll.faces,
        "rolled": roll.total,
        "military": plan.military,
        "raw": raw,
        "armour": armour,
        "final": after_armour(raw, armour, hit=True),
    }


def helpless(state: dict[str, Any]) -> bool:
    """Grappled, bound, frozen or asleep: no reactions («Атака»; «Чары»)."""
    return state["status"] == DEAD or any(
        CONDITIONS_BY_KEY[c].helpless for c in state["conditions"]
    )


def form_for(key: str) -> Form:
    return FORMS_BY_KEY[key]
