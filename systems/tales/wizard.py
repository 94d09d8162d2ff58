"""New-character wizard for Сказания волшебного мира as pure step functions (
«Создание персонажей»; «Социальное положение»; «Начальные навыки»).

The wizard's state is one JSON dict, so a half-made character can be stored and resumed::

    {
        "version": 1,
        "step": "stats",        # stats, origin, origin_details, picks, equipment, finish, done
        "stat_rolls": [{"faces": [4, 5, 6], "stat": "dex"}, ...],  # "stat": None = unassigned
        "origin": {"faces": [10, 10]} | None, "origin_details": {"crafts": ["кузнец"], "art": ""} |
        None, "picks": [{"kind": "skill", "key": "lore", "detail": ""},
                  {"kind": "spell", "key": "fire", "detail": ""}] | None,
        "equipment": {"armour": "leather", "shield": "none", "weapons": ["dagger"]} | None,
        "sheet": {...} | None,  # the finished character sheet once step == "done"
    }

Steps (each a function taking the wizard state and returning a new one; none mutates its
input; each raises ``RulesError`` with ru/en messages when a choice breaks the rules):

1. ``roll_stat`` + ``assign_stat``, three times («Создание персонажей»): 3d6, then pick one of the
stats still
   free; the third roll goes to the last stat by itself. No rerolls, no modifiers.
2. ``roll_origin`` («Социальное положение»): 2d10 on the social-origin table; it gives two skills
and decides
   whether the character may take spells («Социальное положение»).
3. ``choose_origin_details`` only for Artist (which art), Artisan (two crafts, or one craft
   twice for level 2) and Guild worker (which craft) («Социальное положение»;
   «Ремёсла»).
4. ``choose_picks`` («Начальные навыки»): two more skills; Wanderer and Sorcerer's apprentice may
spend
   either pick on a spell whose min Mind they meet («Колдовство»). A skill already held rises a
   level («Навыки»); Literacy has no levels («Социальные навыки»).
5. ``choose_equipment``: not in the rulebook; a kit from the campaign's allowed lists, each weapon
   checked against its min Str («Оружие»).
6. ``finish``: name and languages; the derived values (max HP = Str, «Ранения и лечение») go on the
sheet.

Totals are never stored, only faces, so a stored wizard cannot claim a roll it did not make.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.ruleset import RulesError
from systems.core.schema import (
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    SheetField,
    StrField,
    fail,
    validate,
)
from systems.tales.data import (
    ARMOURS_BY_KEY,
    ART_KINDS,
    ORIGINS_BY_ROLL,
    SKILLS_BY_KEY,
    SPELLS_BY_KEY,
    STAT_KEYS,
    STATS,
    WEAPONS_BY_KEY,
    Origin,
)
from systems.tales.sheet import (
    SETTINGS,
    SHEET,
    derived,
    skill_problems,
)

VERSION = 1
STEPS: tuple[Choice, ...] = (
    Choice("stats", "Характеристики: 3d6 трижды", "Stats: 3d6 three times"),
    Choice("origin", "Социальное положение: 2d10", "Social origin: 2d10"),
    Choice("origin_details", "Уточнить навыки происхождения", "Origin skill details"),
    Choice("picks", "Ещё два навыка (или заклинания)", "Two more skills (or spells)"),
    Choice("equipment", "Снаряжение", "Equipment"),
    Choice("finish", "Имя и языки", "Name and languages"),
    Choice("done", "Готово", "Done"),
)
STEP_KEYS = tuple(c.key for c in STEPS)
DETAIL_ORIGINS = frozenset({5, 6, 11})  # Artist, Artisan, Guild worker
PICKS = 2
DETAIL_MAX = 60  # characters of a craft or a skill's detail
NAME_MAX = 100  # characters of the finished character's name
LANGUAGE_MAX = 60  # characters of one language
LANGUAGES_MAX = 20  # languages written at the finish
ACTIONS = (
    "roll_stat",
    "assign_stat",
    "roll_origin",
    "choose_origin_details",
    "choose_picks",
    "choose_equipment",
    "finish",
)

_FACES6 = ListField(item=IntField(min=1, max=6), min_items=3, max_items=3)
_FACES10 = ListField(item=IntField(min=1, max=10), min_items=2, max_items=2)
PICK = ObjectField(
    ru="Выбор",
    en="Pick",
    fields={
        "kind": ChoiceField(
            ru="Что",
            en="What",
            default="skill",
            choices=(Choice("skill", "Навык", "Skill"), Choice("spell", "Заклинание", "Spell")),
        ),
        "key": StrField(
            ru="Навык или заклинание", en="Skill or spell", max_length=60, required=True
        ),
        "detail": StrField(ru="Уточнение", en="Detail", max_length=DETAIL_MAX),
    },
)
EQUIPMENT = ObjectField(
    fields={
        "armour": StrField(default="none", max_length=30),
        "shield": StrField(default="none", max_length=30),
        "weapons": ListField(item=StrField(max_length=30), max_items=10),
    }
)
WIZARD = ObjectField(
    ru="Создание персонажа",
    en="Character creation",
    fields={
        "version": IntField(default=VERSION, min=VERSION, max=VERSION),
        "step": ChoiceField(default="stats", choices=STEPS),
        "stat_rolls": ListField(
            item=ObjectField(
                fields={
                    "faces": _FACES6,
                    "stat": ChoiceField(
                        default=None,
                        nullable=True,
                        choices=tuple(Choice(c.key, c.ru, c.en) for c in STATS),
                    ),
                }
            ),
            max_items=3,
        ),
        "origin": ObjectField(default=None, nullable=True, fields={"faces": _FACES10}),
        "origin_details": ObjectField(
            default=None,
            nullable=True,
            fields={
                "crafts": ListField(item=StrField(max_length=DETAIL_MAX), max_items=2),
                "art": StrField(max_length=30),
            },
        ),
        "picks": ListField(default=None, nullable=True, item=PICK, max_items=PICKS),
        "equipment": ObjectField(default=None, nullable=True, fields=EQUIPMENT.fields),
        "sheet": SheetField(default=None, nullable=True, fields=SHEET.fields),
    },
)


def _err(path: str, ru: str, en: str) -> RulesError:
    return fail(path, ru, en)


def _settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    return validate(SETTINGS, settings or {}, path="settings")


# --- reading a wizard state ------------------------------------------------------------------


def start() -> dict[str, Any]:
    """A fresh wizard at the first step."""
    return validate(WIZARD, {})


def step_of(w: dict[str, Any]) -> str:
    """The step a wizard's contents put it at (the stored ``step`` must agree)."""
    rolls = w["stat_rolls"]
    if len(rolls) < 3 or any(r["stat"] is None for r in rolls):
        return "stats"
    if w["origin"] is None:
        return "origin"
    if origin_roll(w) in DETAIL_ORIGINS and w["origin_details"] is None:
        return "origin_details"
    if w["picks"] is None:
        return "picks"
    if w["equipment"] is None:
        return "equipment"
    if w["sheet"] is None:
        return "finish"
    return "done"


def origin_roll(w: dict[str, Any]) -> int:
    return sum(w["origin"]["faces"])


def origin_of(w: dict[str, Any]) -> Origin:
    return ORIGINS_BY_ROLL[origin_roll(w)]


def stats_of(w: dict[str, Any]) -> dict[str, int | None]:
    """Assigned stat values so far (None for a stat still free)."""
    out: dict[str, int | None] = dict.fromkeys(STAT_KEYS)
    for r in w["stat_rolls"]:
        if r["stat"] is not None:
            out[r["stat"]] = sum(r["faces"])
    return out


def pending_roll(w: dict[str, Any]) -> int | None:
    """A 3d6 total rolled but not yet assigned, if any."""
    rolls = w["stat_rolls"]
    if rolls and rolls[-1]["stat"] is None:
        return sum(rolls[-1]["faces"])
    return None


def load(w: dict[str, Any], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Validate a stored wizard (types, then every rule again) and return a clean copy."""
    clean = validate(WIZARD, w)
    cfg = _settings(settings)
    rolls = clean["stat_rolls"]
    assigned = [r["stat"] for r in rolls if r["stat"] is not None]
    if len(set(assigned)) != len(assigned):
        raise _err("stat_rolls", "Характеристика назначена дважды.", "A stat is assigned twice.")
    if any(r["stat"] is None for r in rolls[:-1]):
        raise _err(
            "stat_rolls",
            "Сначала назначьте предыдущий бросок.",
            "Assign the previous roll first.",
        )
    stats_done = len(rolls) == 3 and not any(r["stat"] is None for r in rolls)
    needs_details = clean["origin"] is not None and origin_roll(clean) in DETAIL_ORIGINS
    order = (
        ("origin", stats_done),
        ("origin_details", clean["origin"] is not None),
        (
            "picks",
            clean["origin"] is not None
            and (not needs_details or clean["origin_details"] is not None),
        ),
        ("equipment", clean["picks"] is not None),
        ("sheet", clean["equipment"] is not None),
    )
    for name, reached in order:
        if clean[name] is not None and not reached:
            raise _err(name, "Этот шаг ещё не наступил.", "This step has not come yet.")
    if clean["origin_details"] is not None and origin_roll(clean) not in DETAIL_ORIGINS:
        raise _err(
            "origin_details",
            "Это происхождение не требует уточнений.",
            "This origin needs no details.",
        )
    if clean["origin_details"] is not None:
        _check_details(clean, clean["origin_details"])
    if clean["picks"] is not None:
        _check_picks(clean, clean["picks"], cfg)
    if clean["equipment"] is not None:
        _check_equipment(clean, clean["equipment"], cfg)
    if clean["sheet"] is not None:
        clean["sheet"] = _check_sheet(clean["sheet"])
    actual = step_of(clean)
    if clean["step"] != actual:
        raise _err(
            "step",
            f"Шаг мастера не совпадает с записанным: {actual}.",
            f"The wizard's step does not match its contents: {actual}.",
        )
    return clean


def _expect(w: dict[str, Any], step: str) -> None:
    if w["step"] != step:
        raise _err(
            "step",
            f"Сейчас шаг «{_step_name(w['step']).ru}», а не «{_step_name(step).ru}».",
            f"The wizard is at {w['step']!r}, not {step!r}.",
        )


def _step_name(key: str) -> Choice:
    return next(c for c in STEPS if c.key == key)


def _advance(w: dict[str, Any]) -> dict[str, Any]:
    w["step"] = step_of(w)
    return w


# --- step 1: stats («Создание персонажей»)


def roll_stat(
    w: dict[str, Any], *, dice: Dice, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Roll 3d6 for the next stat («Создание персонажей»). The third roll goes to the last free stat
    at once."""
    w = load(w, settings)
    _expect(w, "stats")
    if pending_roll(w) is not None:
        raise _err(
            "stat",
            "Сначала назначьте выпавшее значение.",
            "Assign the rolled value first.",
        )
    faces = [dice.roll(6) for _ in range(3)]
    free = [k for k, v in stats_of(w).items() if v is None]
    w["stat_rolls"].append({"faces": faces, "stat": free[0] if len(free) == 1 else None})
    return _advance(w)


def assign_stat(
    w: dict[str, Any], stat: str, *, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Give the rolled 3d6 to one of the stats still free («Создание персонажей»)."""
    w = load(w, settings)
    _expect(w, "stats")
    if pending_roll(w) is None:
        raise _err("stat", "Сначала бросьте 3d6.", "Roll 3d6 first.")
    if stat not in STAT_KEYS:
        raise _err("stat", "Нет такой характеристики.", "No such stat.")
    if stats_of(w)[stat] is not None:
        raise _err("stat", "Эта характеристика уже назначена.", "That stat is already set.")
    w["stat_rolls"][-1]["stat"] = stat
    return _advance(w)


# --- step 2: social origin («Социальное положение»)


def roll_origin(
    w: dict[str, Any], *, dice: Dice, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Roll 2d10 for the social origin («Социальное положение»)."""
    w = load(w, settings)
    _expect(w, "origin")
    w["origin"] = {"faces": [dice.roll(10), dice.roll(10)]}
    return _advance(w)


def _check_details(w: dict[str, Any], details: dict[str, Any]) -> None:
    roll = origin_roll(w)
    crafts = [c.strip() for c in details["crafts"]]
    need = {5: 0, 6: 2, 11: 1}[roll]
    if len(crafts) != need or any(not c for c in crafts):
        raise _err(
            "crafts",
            f"Назовите ремёсла: {need}." if need else "Ремесло не нужно.",
            f"Name {need} craft(s)." if need else "No craft is needed.",
        )
    if roll == 5:
        if details["art"] not in {c.key for c in ART_KINDS}:
            raise _err("art", "Выберите рисование или скульптуру.", "Choose painting or sculpture.")
    elif details["art"]:
        raise _err("art", "Это происхождение не даёт искусства.", "This origin gives no art.")


def choose_origin_details(
    w: dict[str, Any],
    *,
    crafts: list[str] | tuple[str, ...] = (),
    art: str = "",
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Name the crafts (Artisan: two, equal names mean level 2; Guild worker: one) or the art
    (Artist) the origin gives («Социальное положение»; «Ремёсла»)."""
    w = load(w, settings)
    _expect(w, "origin_details")
    details = validate(
        WIZARD.fields["origin_details"], {"crafts": list(crafts), "art": art}, path=""
    )
    details["crafts"] = [c.strip() for c in details["crafts"]]
    _check_details(w, details)
    w["origin_details"] = details
    return _advance(w)


def _add_skill(skills: list[dict[str, Any]], key: str, detail: str = "") -> None:
    """Take a skill, or raise its level when it is already there («Навыки»)."""
    for s in skills:
        if s["key"] == key and s["detail"].casefold() == detail.casefold():
            if not SKILLS_BY_KEY[key].levels:
                raise _err(
                    "picks",
                    f"«{SKILLS_BY_KEY[key].ru}» нельзя взять дважды: у навыка нет уровней.",
                    f"{SKILLS_BY_KEY[key].en} cannot be taken twice: it has no levels.",
                )
            s["level"] += 1
            return
    skills.append({"key": key, "level": 1, "detail": detail})


def origin_skills(w: dict[str, Any], settings: dict[str, Any] | None = None) -> list[dict]:
    """The two skills the origin gives, with crafts and art filled in; the origin's brawling,
    melee and fencing are combat skills unless the campaign says military (our reading)."""
    cfg = _settings(settings)
    origin = origin_of(w)
    details = w["origin_details"] or {"crafts": [], "art": ""}
    crafts = list(details["crafts"])
    skills: list[dict[str, Any]] = []
    for key in origin.skills:
        detail = ""
        if key.startswith("@"):
            key = f"{cfg['origin_weapon_skills']}_{key[1:]}"
        elif key == "craft":
            detail = crafts.pop(0) if crafts else ""
        elif key == "art":
            detail = details["art"]
        _add_skill(skills, key, detail)
    return skills


# --- step 3: two free picks («Начальные навыки»)


def _check_picks(w: dict[str, Any], picks: list[dict[str, Any]], cfg: dict[str, Any]) -> dict:
    """Apply the picks to the origin's skills; returns ``{"skills", "spells", "languages"}``."""
    if len(picks) != PICKS:
        raise _err("picks", "Нужно ровно два выбора.", "Exactly two picks.")
    origin = origin_of(w)
    mind = stats_of(w)["mind"] or 0
    skills = origin_skills(w, cfg)
    spells: list[str] = []
    languages: list[str] = []
    for i, pick in enumerate(picks):
        path = f"picks.{i}"
        key, detail = pick["key"], pick["detail"].strip()
        if pick["kind"] == "spell":
            spell = SPELLS_BY_KEY.get(key)
            if spell is None:
                raise _err(path, "Нет такого заклинания.", "No such spell.")
            if not origin.spells:
                raise _err(
                    path,
                    f"{origin.ru} не может брать заклинания.",
                    f"A {origin.en} may not take spells.",
                )
            if mind < spell.min_mind:
                raise _err(
                    path,
                    f"«{spell.ru}» требует разум {spell.min_mind}, а у персонажа {mind}.",
                    f"{spell.en} needs Mind {spell.min_mind}; the character has {mind}.",
                )
            if key in spells:
                raise _err(path, "Это заклинание уже выбрано.", "That spell is already picked.")
            spells.append(key)
            continue
        skill = SKILLS_BY_KEY.get(key)
        if skill is None:
            raise _err(path, "Нет такого навыка.", "No such skill.")
        if skill.detail == "required" and not detail:
            raise _err(
                path,
                f"Уточните навык «{skill.ru}» (например, какое ремесло).",
                f"Name the {skill.en} (e.g. which craft).",
            )
        if key == "art" and detail and detail not in {c.key for c in ART_KINDS}:
            raise _err(path, "Рисование или скульптура?", "Painting or sculpture?")
        if key == "languages":
            if detail:
                languages.append(detail)
            _add_skill(skills, key, "")
            continue
        try:
            _add_skill(skills, key, detail)
        except RulesError:
            raise _err(
                path,
                f"«{skill.ru}» нельзя взять дважды: у навыка нет уровней.",
                f"{skill.en} cannot be taken twice: it has no levels.",
            ) from None
    return {"skills": skills, "spells": spells, "languages": languages}


def choose_picks(
    w: dict[str, Any],
    picks: list[dict[str, Any]],
    *,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Two more skills, or spells for Wanderer and Sorcerer's apprentice («Начальные навыки»;
    «Колдовство»).

    Each pick is ``{"kind": "skill" | "spell", "key": ..., "detail": ""}``; a weapon skill
    names its version (``combat_melee`` or ``military_melee``).
    """
    w = load(w, settings)
    _expect(w, "picks")
    clean = validate(WIZARD.fields["picks"], list(picks) if picks is not None else None)
    _check_picks(w, clean, _settings(settings))
    w["picks"] = clean
    return _advance(w)


# --- step 4: equipment (not in the rulebook) ------------------------------------------------------


def _check_equipment(w: dict[str, Any], eq: dict[str, Any], cfg: dict[str, Any]) -> None:
    strength = stats_of(w)["str"] or 0
    if eq["armour"] not in cfg["starting_armour"] or eq["armour"] not in ARMOURS_BY_KEY:
        raise _err("armour", "Этого доспеха нет в стартовом наборе.", "Not in the starting kit.")
    if eq["shield"] not in cfg["starting_shields"]:
        raise _err("shield", "Этого щита нет в стартовом наборе.", "Not in the starting kit.")
    if len(eq["weapons"]) > cfg["max_starting_weapons"]:
        raise _err(
            "weapons",
            f"Не больше {cfg['max_starting_weapons']} единиц оружия.",
            f"At most {cfg['max_starting_weapons']} weapons.",
        )
    for i, key in enumerate(eq["weapons"]):
        weapon = WEAPONS_BY_KEY.get(key)
        if weapon is None or key not in cfg["starting_weapons"]:
            raise _err(
                f"weapons.{i}", "Этого оружия нет в стартовом наборе.", "Not in the starting kit."
            )
        if strength < weapon.min_str:
            raise _err(
                f"weapons.{i}",
                f"«{weapon.ru}» требует силу {weapon.min_str}.",
                f"{weapon.en} needs Str {weapon.min_str}.",
            )


def choose_equipment(
    w: dict[str, Any],
    *,
    armour: str = "none",
    shield: str = "none",
    weapons: list[str] | tuple[str, ...] = (),
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Pick a starting kit from the campaign's allowed lists; weapons need their min Str."""
    w = load(w, settings)
    _expect(w, "equipment")
    eq = validate(EQUIPMENT, {"armour": armour, "shield": shield, "weapons": list(weapons)})
    _check_equipment(w, eq, _settings(settings))
    w["equipment"] = eq
    return _advance(w)


# --- step 5: finish ------------------------------------------------------------------------------


def _check_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    clean = validate(SHEET, sheet)
    problems = skill_problems(clean)
    if problems:
        raise RulesError(problems)
    return clean


def build_sheet(
    w: dict[str, Any],
    *,
    name: str = "",
    languages: list[str] | tuple[str, ...] = (),
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The character sheet the wizard's choices make (max HP = current HP = Str, «Ранения и
    лечение»)."""
    cfg = _settings(settings)
    got = _check_picks(w, w["picks"], cfg)
    stats = stats_of(w)
    origin = origin_of(w)
    eq = w["equipment"]
    sheet = SHEET.default_value()
    sheet.update(
        name=name,
        origin=origin.roll,
        may_take_spells=origin.spells,
        stats=dict(stats),
        hp=stats["str"],
        max_hp=stats["str"],
        skills=got["skills"],
        spells=got["spells"],
        languages=[*got["languages"], *(x.strip() for x in languages if x.strip())],
        armour=eq["armour"],
        shield=eq["shield"],
        weapons=[
            {"key": k, "state": "sheathed", "loaded": True, "reload_progress": 0}
            for k in eq["weapons"]
        ],
    )
    return _check_sheet(sheet)


def finish(
    w: dict[str, Any],
    *,
    name: str = "",
    languages: list[str] | tuple[str, ...] = (),
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Name the character and write the sheet; the wizard is then ``done``."""
    w = load(w, settings)
    _expect(w, "finish")
    clean = validate(
        ObjectField(
            fields={
                "name": StrField(max_length=NAME_MAX),
                "languages": ListField(
                    item=StrField(max_length=LANGUAGE_MAX), max_items=LANGUAGES_MAX
                ),
            }
        ),
        {"name": name, "languages": list(languages)},
    )
    w["sheet"] = build_sheet(w, name=clean["name"], languages=clean["languages"], settings=settings)
    return _advance(w)


# --- driving the wizard --------------------------------------------------------------------


def advance(
    w: dict[str, Any],
    action: str,
    *,
    dice: Dice | None = None,
    settings: dict[str, Any] | None = None,
    **params: Any,
) -> dict[str, Any]:
    """Run one wizard action by name (for forms and the API): ``roll_stat``, ``assign_stat``
    (``stat``), ``roll_origin``, ``choose_origin_details`` (``crafts``, ``art``),
    ``choose_picks`` (``picks``), ``choose_equipment`` (``armour``, ``shield``, ``weapons``),
    ``finish`` (``name``, ``languages``)."""
    if action not in ACTIONS:
        raise _err("action", f"Нет такого шага: {action}.", f"No such wizard action: {action}.")
    if action in ("roll_stat", "roll_origin"):
        if dice is None:
            raise _err("dice", "Нужны кубики.", "Dice are needed here.")
        if params:
            raise _err("params", "Лишние параметры.", f"Unexpected parameters: {sorted(params)}.")
        fn = roll_stat if action == "roll_stat" else roll_origin
        return fn(w, dice=dice, settings=settings)
    allowed = {
        "assign_stat": {"stat"},
        "choose_origin_details": {"crafts", "art"},
        "choose_picks": {"picks"},
        "choose_equipment": {"armour", "shield", "weapons"},
        "finish": {"name", "languages"},
    }[action]
    extra = set(params) - allowed
    if extra:
        raise _err("params", "Лишние параметры.", f"Unexpected parameters: {sorted(extra)}.")
    if action == "assign_stat":
        if "stat" not in params:
            raise _err("stat", "Выберите характеристику.", "Choose a stat.")
        return assign_stat(w, params["stat"], settings=settings)
    if action == "choose_picks":
        return choose_picks(w, params.get("picks"), settings=settings)  # type: ignore[arg-type]
    fn2 = {
        "choose_origin_details": choose_origin_details,
        "choose_equipment": choose_equipment,
        "finish": finish,
    }[action]
    return fn2(w, settings=settings, **params)


def preview(w: dict[str, Any], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the current step offers and what is settled so far (for the wizard's page)."""
    w = load(w, settings)
    cfg = _settings(settings)
    stats = stats_of(w)
    out: dict[str, Any] = {
        "step": w["step"],
        "step_name": _step_name(w["step"]).as_dict(),
        "stats": stats,
        "pending_roll": pending_roll(w),
        "free_stats": [k for k, v in stats.items() if v is None],
    }
    if w["origin"] is not None:
        origin = origin_of(w)
        out["origin"] = origin.as_dict()
        out["origin_skills"] = origin_skills(w, cfg)
    if w["step"] == "picks":
        mind = stats["mind"] or 0
        out["allowed_spells"] = (
            [k for k, s in SPELLS_BY_KEY.items() if s.min_mind <= mind]
            if origin_of(w).spells
            else []
        )
        out["allowed_skills"] = list(SKILLS_BY_KEY)
    if w["step"] == "equipment":
        strength = stats["str"] or 0
        out["allowed_weapons"] = [
            k for k in cfg["starting_weapons"] if WEAPONS_BY_KEY[k].min_str <= strength
        ]
        out["allowed_armour"] = list(cfg["starting_armour"])
        out["allowed_shields"] = list(cfg["starting_shields"])
    if None not in stats.values():
        probe = SHEET.default_value()
        probe["stats"] = dict(stats)
        if w["equipment"] is not None:
            probe["armour"] = w["equipment"]["armour"]
            probe["shield"] = w["equipment"]["shield"]
        out["derived"] = {"max_hp": stats["str"], **derived(probe, cfg)}
    if w["sheet"] is not None:
        out["sheet"] = copy.deepcopy(w["sheet"])
    return out


def describe() -> dict[str, Any]:
    """The wizard's steps and actions for forms and help pages."""
    return {
        "steps": [c.as_dict() for c in STEPS],
        "actions": list(ACTIONS),
        "picks": PICKS,
        "detail_origins": sorted(DETAIL_ORIGINS),
        "art_kinds": [c.as_dict() for c in ART_KINDS],
        "state": WIZARD.describe(),
    }
