"""Character sheet, battle record and campaign settings as field specs, plus the derived
values every rule reads (effective stats, armour, movement, ranges).

One sheet shape serves player characters and GM characters alike: the rulebook gives monsters
the same three stats («Чары»), so an NPC is a sheet with ``controller = "referee"``.
"""

from __future__ import annotations

from typing import Any

from systems.core.notation import NotationError, parse_notation
from systems.core.rulekit import settings_spec
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
    msg,
)
from systems.tales.data import (
    ARMOURS,
    ARMOURS_BY_KEY,
    CONDITIONS,
    FORMS,
    FORMS_BY_KEY,
    SHIELDS,
    SHIELDS_BY_KEY,
    SKILLS,
    SKILLS_BY_KEY,
    SKIN_ARMOUR,
    SPELLS,
    STAT_KEYS,
    STATS,
    WEAPONS,
    WEAPONS_BY_KEY,
    choices_of,
)

PLAYER, REFEREE = "player", "referee"
ALIVE, DEAD = "alive", "dead"


def check_notation(text: str) -> dict[str, str] | None:
    """Empty, or dice notation the core parser accepts (``1d6+1``, ``к6+1``)."""
    if not text:
        return None
    try:
        parse_notation(text)
    except NotationError as exc:
        return msg(exc.ru, exc.en)
    return None


STAT_CHOICES = STATS
ANY_STAT = Choice("any", "Любая", "Any")
WEAPON_STATES: tuple[Choice, ...] = (
    Choice("sheathed", "Убрано", "Sheathed"),
    Choice("drawn", "В руке", "Drawn"),
    Choice("dropped", "Брошено", "Dropped"),
)
UNTIL: tuple[Choice, ...] = (
    Choice("scene", "До конца сцены", "Until the end of the scene"),
    Choice("next_check", "До следующей проверки", "Until the next check"),
    Choice("lasting", "Пока не снимут", "Until removed"),
)
CARRIED_WEAPONS = tuple(w for w in WEAPONS if w.carried)
FORM_CHOICES = (Choice("none", "Обычный облик", "Own shape"), *choices_of(FORMS))

SKILL_ENTRY = ObjectField(
    ru="Навык",
    en="Skill",
    fields={
        "key": ChoiceField(ru="Навык", en="Skill", default="lore", choices=choices_of(SKILLS)),
        "level": IntField(ru="Уровень", en="Level", default=1, min=1, max=99),
        "detail": StrField(
            ru="Уточнение (какое ремесло и т.п.)", en="Detail (which craft etc.)", max_length=60
        ),
    },
)
WEAPON_ENTRY = ObjectField(
    ru="Оружие",
    en="Weapon",
    fields={
        "key": ChoiceField(
            ru="Оружие", en="Weapon", default="dagger", choices=choices_of(CARRIED_WEAPONS)
        ),
        "state": ChoiceField(ru="Где", en="Where", default="sheathed", choices=WEAPON_STATES),
        "loaded": BoolField(ru="Заряжено", en="Loaded", default=True),
        "reload_progress": IntField(
            ru="Действий перезарядки сделано", en="Reload actions done", default=0, min=0, max=2
        ),
    },
)
STAT_MOD = ObjectField(
    ru="Изменение характеристики",
    en="Stat modifier",
    fields={
        "stat": ChoiceField(
            ru="Характеристика", en="Stat", default="any", choices=(*STAT_CHOICES, ANY_STAT)
        ),
        "value": IntField(ru="Значение", en="Value", default=0, min=-99, max=99),
        "until": ChoiceField(ru="Действует", en="Lasts", default="scene", choices=UNTIL),
        "source": StrField(ru="Источник", en="Source", max_length=60),
    },
)
POTION = ObjectField(
    ru="Зелье",
    en="Potion",
    fields={
        "kind": ChoiceField(
            ru="Вид",
            en="Kind",
            default="healing",
            choices=(
                Choice("healing", "Зелье лечения", "Healing potion"),
                Choice("alchemy", "Алхимическое зелье", "Alchemical potion"),
            ),
        ),
        "value": IntField(ru="Сила", en="Strength", default=1, min=1, max=99),
        "stat": ChoiceField(
            ru="Характеристика", en="Stat", default="any", choices=(*STAT_CHOICES, ANY_STAT)
        ),
    },
)

SHEET = ObjectField(
    ru="Лист персонажа",
    en="Character sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "controller": ChoiceField(
            ru="Кто ведёт",
            en="Played by",
            default=PLAYER,
            choices=(Choice(PLAYER, "Игрок", "Player"), Choice(REFEREE, "Ведущий", "Referee")),
        ),
        "origin": IntField(
            ru="Социальное положение (2d10)",
            en="Social origin (2d10)",
            default=None,
            nullable=True,
            min=2,
            max=20,
        ),
        "may_take_spells": BoolField(ru="Может брать заклинания", en="May take spells"),
        "stats": ObjectField(
            ru="Характеристики",
            en="Stats",
            fields={c.key: IntField(ru=c.ru, en=c.en, default=10, min=0, max=200) for c in STATS},
        ),
        "hp": IntField(ru="Хиты", en="HP", default=10, min=-999, max=999),
        "max_hp": IntField(ru="Максимум хитов", en="Max HP", default=10, min=0, max=999),
        "status": ChoiceField(
            ru="Состояние",
            en="Status",
            default=ALIVE,
            choices=(Choice(ALIVE, "Жив", "Alive"), Choice(DEAD, "Мёртв", "Dead")),
        ),
        "skills": ListField(ru="Навыки", en="Skills", item=SKILL_ENTRY, max_items=80),
        "spells": ListField(
            ru="Заклинания",
            en="Spells",
            item=ChoiceField(default="image", choices=choices_of(SPELLS)),
            max_items=60,
        ),
        "languages": ListField(
            ru="Языки", en="Languages", item=StrField(max_length=60), max_items=30
        ),
        "xp": IntField(ru="Опыт", en="XP", default=0, min=0, max=10**9),
        "silver": IntField(ru="Серебро", en="Silver", default=0, min=0, max=10**9),
        "gold": IntField(ru="Золото", en="Gold", default=0, min=0, max=10**9),
        "armour": ChoiceField(
            ru="Доспех", en="Armour", default="none", choices=choices_of(ARMOURS)
        ),
        "shield": ChoiceField(ru="Щит", en="Shield", default="none", choices=choices_of(SHIELDS)),
        "weapons": ListField(ru="Оружие", en="Weapons", item=WEAPON_ENTRY, max_items=20),
        "natural": ObjectField(
            ru="Природное оружие и шкура (для существ)",
            en="Natural weapon and hide (creatures)",
            fields={
                "name": StrField(ru="Название", en="Name", max_length=60),
                "damage": StrField(
                    ru="Повреждения", en="Damage", max_length=30, check=check_notation
                ),
                "armour": IntField(
                    ru="Шкура (броня)", en="Hide (armour)", default=0, min=0, max=20
                ),
            },
        ),
        "conditions": ListField(
            ru="Состояния",
            en="Conditions",
            item=ChoiceField(default="prone", choices=choices_of(CONDITIONS)),
            max_items=30,
        ),
        "stat_mods": ListField(
            ru="Изменения характеристик", en="Stat modifiers", item=STAT_MOD, max_items=30
        ),
        "form": ObjectField(
            ru="Облик",
            en="Form",
            fields={
                "key": ChoiceField(ru="Облик", en="Form", default="none", choices=FORM_CHOICES),
                "hp_before": IntField(default=0, min=-999, max=999, internal=True),
                "max_hp_before": IntField(default=0, min=0, max=999, internal=True),
                "hp_start": IntField(default=0, min=-999, max=999, internal=True),
            },
        ),
        "combat": ObjectField(
            ru="Бой",
            en="Combat",
            fields={
                "reaction_used": BoolField(
                    ru="Реакция в этом раунде была", en="Reacted this round"
                ),
                "skip_activation": BoolField(
                    ru="Пропускает следующий ход", en="Skips the next activation"
                ),
                "action_used": BoolField(ru="Действие сделано", en="Action used"),
                "movement_used": IntField(
                    ru="Пройдено за ход", en="Movement used", default=0, min=0, max=999
                ),
                "attacked": BoolField(ru="Атаковал в этот ход", en="Attacked this turn"),
                "shot": BoolField(ru="Стрелял в этот ход", en="Shot this turn"),
            },
        ),
        "care": ObjectField(
            ru="Лечение и быт",
            en="Care",
            fields={
                "medicine_used": BoolField(
                    ru="Медицина уже применялась к этим ранам",
                    en="Medicine already used on these wounds",
                ),
                "rest_days": IntField(
                    ru="Дней полноценного отдыха",
                    en="Days of full rest",
                    default=0,
                    min=0,
                    max=365,
                ),
                "days_without_food": IntField(
                    ru="Дней без еды", en="Days without food", default=0, min=0, max=999
                ),
                "str_lost_to_hunger": IntField(
                    ru="Сила, потерянная от голода",
                    en="Str lost to hunger",
                    default=0,
                    min=0,
                    max=200,
                ),
                "spirit_points": IntField(
                    ru="Пункты духа", en="Spirit points", default=0, min=0, max=99
                ),
            },
        ),
        "potions": ListField(ru="Зелья", en="Potions", item=POTION, max_items=30),
        "notes": StrField(ru="Заметки", en="Notes", max_length=4000),
    },
)


SIDES: tuple[Choice, ...] = (
    Choice("party", "Персонажи", "The characters"),
    Choice("enemies", "Противники", "The enemies"),
)
SIDE_KEYS = tuple(c.key for c in SIDES)

BATTLE = ObjectField(
    ru="Битва",
    en="Battle",
    fields={
        "round": IntField(ru="Раунд", en="Round", default=0, min=0, max=10_000),
        "phase": ChoiceField(
            ru="Этап",
            en="Phase",
            default="start",
            choices=(
                Choice("start", "Начало битвы", "Start of battle"),
                Choice("surprise", "Внезапное действие противника", "Surprise action"),
                Choice("initiative", "Бросок инициативы", "Initiative"),
                Choice("rounds", "Раунды", "Rounds"),
            ),
        ),
        "unaware": ChoiceField(
            ru="Кого застали врасплох",
            en="Unaware side",
            default=None,
            nullable=True,
            choices=SIDES,
        ),
        "surprise_roll": IntField(default=None, nullable=True, min=1, max=6),
        "tactics_tried": BoolField(ru="Тактика уже применялась", en="Tactics already tried"),
        "initiative": ObjectField(
            ru="Инициатива",
            en="Initiative",
            fields={k: IntField(default=None, nullable=True, min=1, max=10) for k in SIDE_KEYS},
        ),
        "first": ChoiceField(
            ru="Кто ходит первым", en="Acts first", default=None, nullable=True, choices=SIDES
        ),
        "current": ChoiceField(
            ru="Чей черёд", en="Whose turn", default=None, nullable=True, choices=SIDES
        ),
    },
)

SETTINGS = settings_spec(
    {
        "opposed_min_dice": IntField(
            ru="Противопоставленная проверка: минимум кубиков",
            en="Opposed check: fewest dice",
            default=1,
            min=1,
            max=10,
            help_ru="В правилах не задано; рекомендуется 1.",
            help_en="Not set by the rules; 1 is recommended.",
        ),
        "opposed_max_dice": IntField(
            ru="Противопоставленная проверка: максимум кубиков",
            en="Opposed check: most dice",
            default=6,
            min=1,
            max=10,
        ),
        "opposed_tie": ChoiceField(
            ru="Ничья без перебора",
            en="A tie without a bust",
            default="repeat",
            choices=(
                Choice("repeat", "Перебросить", "Repeat the check"),
                Choice("higher_value", "Выигрывает большая характеристика", "Higher value wins"),
            ),
        ),
        "origin_weapon_skills": ChoiceField(
            ru="Драка, бой, фехтование от происхождения",
            en="Origin's brawling, melee, fencing",
            default="combat",
            choices=(
                Choice("combat", "Боевые (+ловкость)", "Combat (+Dex)"),
                Choice("military", "Военные (+повреждения)", "Military (+damage)"),
            ),
        ),
        "difficulty_stacking": ChoiceField(
            ru="Несколько усложнений сразу",
            en="Several things making a check harder",
            default="hardest",
            choices=(
                Choice("hardest", "Самое сильное", "The hardest one"),
                Choice("stack", "Складываются (до 4d10)", "They add up (at most 4d10)"),
            ),
        ),
        "staff_allows_casting": BoolField(
            ru="Двуручный посох не мешает колдовать",
            en="The two-handed staff does not block casting",
            default=True,
        ),
        "self_target_marked_only": BoolField(
            ru="На себя — только заклинания с пометкой «можно и на себя»",
            en="Only spells marked for self-use may target the caster",
            default=True,
        ),
        "require_drawn_weapon": BoolField(
            ru="Атаковать можно только оружием в руке",
            en="Attacks need a drawn weapon",
            default=True,
        ),
        "dodge_bonuses_stack": BoolField(
            ru="Бонусы к уклонению складываются", en="Dodge bonuses add up", default=True
        ),
        "spell_after_caster_death": BoolField(
            ru="Заклинание срабатывает, даже если волшебник погиб от платы",
            en="A spell still resolves if its cost killed the caster",
            default=True,
        ),
        "xp_per_gold": IntField(
            ru="Опыт за золотую монету", en="XP per gold coin", default=1, min=0, max=1000
        ),
        "xp_per_silver": IntField(
            ru="Опыт за серебряную монету", en="XP per silver coin", default=0, min=0, max=1000
        ),
        "skill_cost": IntField(
            ru="Цена навыка в опыте", en="XP cost of a skill", default=1000, min=0, max=10**6
        ),
        "spell_cost": IntField(
            ru="Цена заклинания в опыте", en="XP cost of a spell", default=1000, min=0, max=10**6
        ),
        "stat_cost_per_point": IntField(
            ru="Цена повышения: новое значение ×",
            en="Stat raise cost: new value ×",
            default=1000,
            min=0,
            max=10**6,
        ),
        "rest_days": IntField(
            ru="Дней отдыха до полного восстановления",
            en="Days of rest to full HP",
            default=7,
            min=1,
            max=365,
        ),
        "hunger_str_loss": IntField(
            ru="Потеря силы за день голода",
            en="Str lost per hungry day",
            default=1,
            min=0,
            max=20,
        ),
        "grapple_damage": StrField(
            ru="Автоматический урон в захвате",
            en="Automatic damage while grappling",
            default="1d3",
            max_length=30,
            check=check_notation,
        ),
        "starting_weapons": ListField(
            ru="Стартовый набор: разрешённое оружие",
            en="Starting kit: allowed weapons",
            item=ChoiceField(default="dagger", choices=choices_of(CARRIED_WEAPONS)),
            default=[w.key for w in CARRIED_WEAPONS],
            max_items=len(CARRIED_WEAPONS),
        ),
        "starting_armour": ListField(
            ru="Стартовый набор: разрешённые доспехи",
            en="Starting kit: allowed armour",
            item=ChoiceField(default="none", choices=choices_of(ARMOURS)),
            default=[a.key for a in ARMOURS],
            max_items=len(ARMOURS),
        ),
        "starting_shields": ListField(
            ru="Стартовый набор: разрешённые щиты",
            en="Starting kit: allowed shields",
            item=ChoiceField(default="none", choices=choices_of(SHIELDS)),
            default=[s.key for s in SHIELDS],
            max_items=len(SHIELDS),
        ),
        "max_starting_weapons": IntField(
            ru="Стартовый набор: сколько оружия",
            en="Starting kit: weapons",
            default=3,
            min=0,
            max=10,
        ),
    }
)


# --- derived values --------------------------------------------------------------------------


def skill_level(state: dict[str, Any], key: str, detail: str | None = None) -> int:
    """Levels of a skill («Навыки»). With several entries (crafts, «Ремёсла») ``detail`` picks one;
    without it the best entry counts."""
    levels = [
        s["level"]
        for s in state["skills"]
        if s["key"] == key and (detail is None or s["detail"].casefold() == detail.casefold())
    ]
    return max(levels, default=0)


def form_of(state: dict[str, Any]):
    key = state["form"]["key"]
    return None if key == "none" else FORMS_BY_KEY[key]


def raw_stat(state: dict[str, Any], stat: str) -> int:
    """The stat before armour and modifiers; a transformation replaces it («Чары»)."""
    value = state["stats"][stat]
    form = form_of(state)
    if form is not None:
        if stat == "str":
            value *= form.str_mult
        elif stat == "dex":
            value = form.dex
    return value


def dex_cap(state: dict[str, Any]) -> int | None:
    """Worn armour's max Dex («Доспехи и щиты»); charms and hides have no cap («Чары»)."""
    return ARMOURS_BY_KEY[state["armour"]].max_dex


def stat_mods(state: dict[str, Any], stat: str, *, until: tuple[str, ...]) -> int:
    return sum(m["value"] for m in state["stat_mods"] if m["stat"] == stat and m["until"] in until)


def stat_value(state: dict[str, Any], stat: str) -> int:
    """Effective stat: the armour cap on Dex first, then lasting and scene modifiers (our reading),
    never below 0. One-shot "next check" bonuses are not in it."""
    value = raw_stat(state, stat)
    cap = dex_cap(state) if stat == "dex" else None
    if cap is not None:
        value = min(value, cap)
    return max(0, value + stat_mods(state, stat, until=("scene", "lasting")))


def next_check_bonus(state: dict[str, Any], stat: str) -> int:
    """Bonuses waiting for the next check of ``stat`` (Leadership «Социальные навыки», potions
    «Ремёсла»)."""
    return sum(
        m["value"]
        for m in state["stat_mods"]
        if m["until"] == "next_check" and m["stat"] in (stat, "any")
    )


def consume_next_check(state: dict[str, Any], stat: str) -> None:
    """Use up the "next check" bonuses of ``stat`` (in place, on a private copy)."""
    state["stat_mods"] = [
        m
        for m in state["stat_mods"]
        if not (m["until"] == "next_check" and m["stat"] in (stat, "any"))
    ]


def armour_value(state: dict[str, Any]) -> int:
    """Damage reduction: the best of worn armour, a hide, a form and a skin charm; they do
    not add up (our reading)."""
    values = [ARMOURS_BY_KEY[state["armour"]].reduction, state["natural"]["armour"]]
    form = form_of(state)
    if form is not None:
        values.append(form.armour)
    values += [v for k, v in SKIN_ARMOUR.items() if k in state["conditions"]]
    return max(values)


def movement(state: dict[str, Any]) -> int:
    """Units per turn: ⌊eff Dex / 2⌋ («Ход»; «Доспехи и щиты»); Speed and Levitation give Dex
    («Чары», «Чары»), a form may fix it («Чары»), Slow gives ⌊Dex / 4⌋ («Чары»)."""
    dex = stat_value(state, "dex")
    value = dex // 2
    form = form_of(state)
    if form is not None and form.movement is not None:
        value = form.movement
    if "hasted" in state["conditions"] or "levitating" in state["conditions"]:
        value = max(value, dex)
    if "slowed" in state["conditions"]:
        value = dex // 4
    if {"grappled", "bound", "strongly_bound", "frozen", "asleep"} & set(state["conditions"]):
        value = 0
    return value


def throw_range(state: dict[str, Any]) -> int:
    """A throw reaches ⌊Str / 2⌋ units; beyond that it always misses («Атака»)."""
    return stat_value(state, "str") // 2


def spell_range(state: dict[str, Any]) -> int:
    """Non-touch spells reach ⌊Mind / 2⌋ units («Колдовство»)."""
    return stat_value(state, "mind") // 2


def drawn(state: dict[str, Any]) -> list[str]:
    return [w["key"] for w in state["weapons"] if w["state"] == "drawn"]


def dodge_value(state: dict[str, Any], *, stack: bool = True) -> int:
    """Dex for a dodge («Атака»): capped Dex, +1 buckler or +2 shield («Доспехи и щиты»), +1 for a
    drawn staff or smallsword («Оружие»); the bonuses add up unless set otherwise."""
    bonuses = [SHIELDS_BY_KEY[state["shield"]].dodge]
    bonuses += [WEAPONS_BY_KEY[k].dodge for k in drawn(state) if WEAPONS_BY_KEY[k].dodge]
    extra = sum(bonuses) if stack else max(bonuses, default=0)
    return stat_value(state, "dex") + extra


def derived(state: dict[str, Any], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The values the sheet shows but never stores."""
    stack = True if settings is None else settings["dodge_bonuses_stack"]
    return {
        "stats": {k: stat_value(state, k) for k in STAT_KEYS},
        "max_hp_from_str": stat_value(state, "str"),
        "movement": movement(state),
        "throw_range": throw_range(state),
        "spell_range": spell_range(state),
        "armour": armour_value(state),
        "dex_cap": dex_cap(state),
        "dodge": dodge_value(state, stack=stack),
    }


def skill_problems(state: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Sheet-wide skill rules: one entry per skill and detail; Literacy has no levels («Социальные
    навыки»)."""
    errors: dict[str, list[dict[str, str]]] = {}
    seen: set[tuple[str, str]] = set()
    for i, s in enumerate(state["skills"]):
        ident = (s["key"], s["detail"].casefold())
        if ident in seen:
            errors.setdefault(f"skills.{i}", []).append(
                msg(
                    "Этот навык уже записан: повышайте уровень.",
                    "This skill is already listed: raise its level.",
                )
            )
        seen.add(ident)
        if not SKILLS_BY_KEY[s["key"]].levels and s["level"] > 1:
            errors.setdefault(f"skills.{i}.level", []).append(
                msg("У грамотности нет уровней.", "Literacy has no levels.")
            )
    return errors
