"""Таблица травм (the Injury Table) as pure functions.

[published edition] Not in the rulebook: Savage Worlds Deluxe p. 78, the edition
of «Дневник авантюриста». A wild card rolls on it when the Vigor roll for incapacitation says
so (``combat.incapacitation_result``): the injury is permanent on a failure, lasts until the
wounds heal on a success, 24 hours (or until the wounds heal) on a raise, and, under the
Explorer's setting, until the fight ends when the hero is only stunned. A called shot at a
body part uses that location instead of the 2d6 (the same page). Bennies never change a table
result («Фишки»), so nothing here offers a re-roll.

Rolling order, which ``ScriptedDice`` scripts follow: 2d6 for the location (no aces: a table
roll is not a trait or damage roll), then 1d6 for the guts and the head.

The Russian names are this project's translation of the published edition's terms and should
be checked against the Russian book.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import Choice
from systems.savage_worlds.traits import DIE_SIDES, MAX_DIE_BONUS, Die, parse_die

TABLE_DICE = (6, 6)  # 2d6
SUB_DIE = 6
MAX_INJURIES = 40

LOCATIONS: tuple[Choice, ...] = (
    Choice("unmentionables", "Пах", "Unmentionables"),
    Choice("arm", "Рука", "Arm"),
    Choice("guts", "Корпус", "Guts"),
    Choice("leg", "Нога", "Leg"),
    Choice("head", "Голова", "Head"),
)
LOCATION_KEYS = tuple(c.key for c in LOCATIONS)

DURATIONS: tuple[Choice, ...] = (
    Choice("permanent", "Навсегда", "Permanent"),
    Choice("until_healed", "Пока не заживут все раны", "Until every wound heals"),
    Choice("24_hours", "24 часа (или пока не заживут раны)", "24 hours (or until the wounds heal)"),
    Choice("until_combat_ends", "До конца боя", "Until the fight ends"),
)
DURATION_KEYS = tuple(c.key for c in DURATIONS)
TEMPORARY = frozenset(DURATION_KEYS) - {"permanent"}


@dataclass(frozen=True)
class Hindrance:
    """A hindrance an injury gives (its published rule as a note, modifiers where the sheet
    has a field for them)."""

    ru: str
    en: str
    major: bool
    note_ru: str
    pace: int = 0
    charisma: int = 0


ONE_ARM = Hindrance("Однорукий", "One Arm", True, "−4 к действиям, требующим двух рук")
LAME = Hindrance("Хромой", "Lame", True, "Шаг −2, кубик бега d4", pace=-2)
ONE_LEG = Hindrance(
    "Одноногий",
    "One Leg",
    True,
    "Без протеза Шаг 2 и бегать нельзя; −2 к навыкам, требующим подвижности",
    pace=-2,  # on top of Lame's −2: Pace 6 − 4 = 2
)
UGLY = Hindrance("Уродливый", "Ugly", False, "Харизма −2", charisma=-2)
ONE_EYE = Hindrance(
    "Одноглазый",
    "One Eye",
    True,
    "−2 к проверкам, где важна оценка расстояния: стрельба, метание, прыжки",
)
BLIND = Hindrance("Слепой", "Blind", True, "−6 ко всем действиям, требующим зрения")


@dataclass(frozen=True)
class Injury:
    """One result of the table: where, what, and what it does to the sheet."""

    key: str
    location: str
    ru: str
    en: str
    effect_ru: str
    effect_en: str
    attribute: str = ""  # the attribute that drops a die type (minimum d4)
    hindrance: Hindrance | None = None
    worse: tuple[Hindrance, Hindrance] | None = None  # (had this, so gain that instead)


INJURIES: dict[str, Injury] = {
    i.key: i
    for i in (
        Injury(
            "unmentionables",
            "unmentionables",
            "Пах",
            "Unmentionables",
            "Болезненная и неловкая рана. Если травма навсегда, детей не будет без чудесной "
            "хирургии или магии; других последствий нет.",
            "An embarrassing, painful wound. If permanent, no children without miracle surgery "
            "or magic; no other effect.",
        ),
        Injury(
            "arm",
            "arm",
            "Рука",
            "Arm",
            "Левая или правая рука (случайно, если удар не был прицельным) не действует, как "
            "при изъяне Однорукий.",
            "The left or right arm (at random unless targeted) is unusable, like the One Arm "
            "hindrance.",
            hindrance=ONE_ARM,
        ),
        Injury(
            "guts_broken",
            "guts",
            "Корпус: перелом",
            "Guts: broken",
            "Ловкость на один шаг ниже (не ниже d4).",
            "Agility drops a die type (minimum d4).",
            attribute="agility",
        ),
        Injury(
            "guts_battered",
            "guts",
            "Корпус: ушибы",
            "Guts: battered",
            "Выносливость на один шаг ниже (не ниже d4).",
            "Vigor drops a die type (minimum d4).",
            attribute="vigor",
        ),
        Injury(
            "guts_busted",
            "guts",
            "Корпус: разрывы",
            "Guts: busted",
            "Сила на один шаг ниже (не ниже d4).",
            "Strength drops a die type (minimum d4).",
            attribute="strength",
        ),
        Injury(
            "leg",
            "leg",
            "Нога",
            "Leg",
            "Изъян Хромой (Одноногий, если персонаж уже хромал).",
            "The Lame hindrance (One Leg if already Lame).",
            hindrance=LAME,
            worse=(LAME, ONE_LEG),
        ),
        Injury(
            "head_scar",
            "head",
            "Голова: уродливый шрам",
            "Head: hideous scar",
            "Изъян Уродливый.",
            "The Ugly hindrance.",
            hindrance=UGLY,
        ),
        Injury(
            "head_blinded",
            "head",
            "Голова: ослеплён",
            "Head: blinded",
            "Повреждён глаз: изъян Одноглазый (Слепой, если глаз был один).",
            "An eye is damaged: One Eye (Blind if only one good eye was left).",
            hindrance=ONE_EYE,
            worse=(ONE_EYE, BLIND),
        ),
        Injury(
            "head_brain",
            "head",
            "Голова: травма мозга",
            "Head: brain damage",
            "Смекалка на один шаг ниже (не ниже d4).",
            "Smarts drops a die type (minimum d4).",
            attribute="smarts",
        ),
    )
}
INJURY_CHOICES: tuple[Choice, ...] = tuple(Choice(i.key, i.ru, i.en) for i in INJURIES.values())

# The d6 sub-rolls: the highest face of each band.
SUB_TABLES: dict[str, tuple[tuple[int, str], ...]] = {
    "guts": ((2, "guts_broken"), (4, "guts_battered"), (6, "guts_busted")),
    "head": ((2, "head_scar"), (4, "head_blinded"), (6, "head_brain")),
}


def location_for(total: int) -> str:
    """2: unmentionables; 3-4: arm; 5-9: guts; 10: leg; 11-12: head."""
    if not 2 <= total <= 12:
        raise ValueError(f"2d6 gives 2..12, not {total}")
    if total == 2:
        return "unmentionables"
    if total <= 4:
        return "arm"
    if total <= 9:
        return "guts"
    if total == 10:
        return "leg"
    return "head"


def sub_result(location: str, face: int) -> str:
    """The guts' and the head's d6: 1-2, 3-4, 5-6."""
    for top, key in SUB_TABLES[location]:
        if face <= top:
            return key
    raise ValueError(f"a d6 gives 1..6, not {face}")


def roll_injury(dice: Dice, *, location: str = "") -> dict[str, Any]:
    """Roll the table: 2d6 for the location unless a called shot names it, then the d6 where
    the table has one. Returns the faces, the total and the result's key."""
    faces: list[int] = []
    total = None
    if location:
        if location not in LOCATION_KEYS:
            raise ValueError(f"no such body part: {location!r}")
        where = location
    else:
        faces = [dice.roll(s) for s in TABLE_DICE]
        total = sum(faces)
        where = location_for(total)
    sub_face = None
    if where in SUB_TABLES:
        sub_face = dice.roll(SUB_DIE)
        key = sub_result(where, sub_face)
    else:
        key = where
    return {
        "faces": faces,
        "total": total,
        "called": bool(location),
        "location": where,
        "sub_face": sub_face,
        "key": key,
    }


def step_down(die: Die) -> Die:
    """One die type lower, never below d4: d12+1 → d12, d8 → d6, d4 stays d4."""
    if die.bonus:
        return Die(die.sides, die.bonus - 1)
    i = DIE_SIDES.index(die.sides)
    return Die(DIE_SIDES[max(0, i - 1)])


def step_up(die: Die) -> Die:
    """One die type higher: d6 → d8, d12 → d12+1 (at most d12+MAX_DIE_BONUS)."""
    if die.sides == DIE_SIDES[-1]:
        return Die(die.sides, min(MAX_DIE_BONUS, die.bonus + 1))
    return Die(DIE_SIDES[DIE_SIDES.index(die.sides) + 1])


def _names(h: Hindrance) -> frozenset[str]:
    return frozenset({h.ru.casefold(), h.en.casefold()})


def _has(state: dict[str, Any], h: Hindrance) -> bool:
    names = _names(h)
    return any(e["name"].strip().casefold() in names for e in state["hindrances"])


def apply_injury(
    state: dict[str, Any], rolled: dict[str, Any], duration: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Put an injury on a sheet (a copy): the attribute drops a die type, or the hindrance is
    added (marked as the injury's, so healing takes it off again). Returns the new sheet and
    the record kept in ``state["injuries"]`` (``recorded`` is False if the list was full)."""
    if duration not in DURATION_KEYS:
        raise ValueError(f"no such duration: {duration!r}")
    injury = INJURIES[rolled["key"]]
    st = copy.deepcopy(state)
    record: dict[str, Any] = {
        "key": injury.key,
        "duration": duration,
        "attribute": injury.attribute,
        "reduced": False,
        "hindrance": "",
        "roll": [f for f in rolled["faces"]] + ([rolled["sub_face"]] if rolled["sub_face"] else []),
        "note": "",
    }
    change_ru, change_en = "", ""
    if injury.attribute:
        before = parse_die(st["attributes"][injury.attribute])
        after = step_down(before)
        st["attributes"][injury.attribute] = after.label
        record["reduced"] = after != before
        change_ru = f"{before.label} → {after.label}" if record["reduced"] else "уже d4"
        change_en = f"{before.label} → {after.label}" if record["reduced"] else "already d4"
    hindrance = injury.hindrance
    if injury.worse and _has(st, injury.worse[0]):
        hindrance = injury.worse[1]
    if hindrance is not None:
        record["hindrance"] = hindrance.ru
        change_ru, change_en = f"изъян {hindrance.ru}", f"the {hindrance.en} hindrance"
        if len(st["hindrances"]) < 20:
            st["hindrances"].append(
                {
                    "name": hindrance.ru,
                    "major": hindrance.major,
                    "rule": "",
                    "note": f"{hindrance.note_ru} Травма: {injury.ru.lower()}.",
                    "pace": hindrance.pace,
                    "parry": 0,
                    "toughness": 0,
                    "charisma": hindrance.charisma,
                    "injury": True,
                }
            )
        else:
            record["hindrance"] = ""
            change_ru += " (нет места в списке изъянов: впишите вручную)"
            change_en += " (the hindrance list is full: add it by hand)"
    record["note"] = change_ru
    recorded = len(st.get("injuries") or []) < MAX_INJURIES
    if recorded:
        st.setdefault("injuries", []).append(record)
    return st, {
        **record,
        "recorded": recorded,
        "location": rolled["location"],
        "faces": list(rolled["faces"]),
        "total": rolled["total"],
        "sub_face": rolled["sub_face"],
        "called": rolled["called"],
        "label": {"ru": injury.ru, "en": injury.en},
        "effect": {"ru": injury.effect_ru, "en": injury.effect_en},
        "change": {"ru": change_ru, "en": change_en},
        "duration_label": duration_label(duration),
    }


def duration_label(duration: str) -> dict[str, str]:
    choice = next(c for c in DURATIONS if c.key == duration)
    return {"ru": choice.ru, "en": choice.en}


def heal_injury(state: dict[str, Any], index: int) -> dict[str, Any]:
    """Take injury ``index`` off a sheet (a copy): the attribute goes one die type up again if
    the injury lowered it, and the hindrance it added is removed."""
    st = copy.deepcopy(state)
    record = st["injuries"].pop(index)
    if record["attribute"] and record["reduced"]:
        die = parse_die(st["attributes"][record["attribute"]])
        st["attributes"][record["attribute"]] = step_up(die).label
    if record["hindrance"]:
        name = record["hindrance"].casefold()
        for i in range(len(st["hindrances"]) - 1, -1, -1):
            entry = st["hindrances"][i]
            if entry.get("injury") and entry["name"].strip().casefold() == name:
                del st["hindrances"][i]
                break
    return st
