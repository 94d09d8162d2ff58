"""Savage Worlds sheet, table state and campaign settings as field specs.

One sheet serves player characters and GM characters, wild cards and extras («Дикие карты и
статисты»). Only Strength (Сила), Shooting (Стрельба) and Boating (Судовождение) are named in the
rulebook; the five attributes, Pace, Parry, Toughness, Charisma, fatigue, armor and the skill list
are [published edition], and their Russian labels should be checked against the book.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from systems.core.rulekit import settings_spec
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    ErrorMap,
    Field,
    IntField,
    ListField,
    ObjectField,
    StrField,
    msg,
)
from systems.savage_worlds.combat import MAX_FATIGUE, MAX_WOUNDS, check_damage
from systems.savage_worlds.deck import ALL_CARDS
from systems.savage_worlds.injuries import DURATIONS, INJURY_CHOICES, MAX_INJURIES
from systems.savage_worlds.traits import DIE_SIDES, MAX_DIE_BONUS, parse_die


@dataclass(frozen=True, kw_only=True)
class DieField(Field):
    """A trait die: ``d4``..``d12`` or ``d12+N``; ``к8`` and ``D8`` are accepted as ``d8``."""

    default: Any = "d4"

    type_name = "die"

    def _describe_extra(self) -> dict[str, Any]:
        return {"choices": [f"d{s}" for s in DIE_SIDES], "max_bonus": MAX_DIE_BONUS}

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if isinstance(value, str):
            try:
                return parse_die(value).label
            except ValueError:
                pass
        errors.setdefault(path or "__all__", []).append(
            msg(
                "Кубик параметра: d4, d6, d8, d10, d12 или d12+1 и выше.",
                "A trait die is d4, d6, d8, d10, d12 or d12+1 and up.",
            )
        )
        return None


@dataclass(frozen=True, kw_only=True)
class CardField(StrField):
    """One action-deck card code (``"AS"``, ``"10H"``, ``"RJ"``)."""

    max_length: int = 3

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if value not in ALL_CARDS:
            errors.setdefault(path or "__all__", []).append(
                msg(f"Нет такой карты: {value!r}.", f"Not a card: {value!r}.")
            )
            return None
        return value


ATTRIBUTES: tuple[Choice, ...] = (
    Choice("agility", "Ловкость", "Agility"),
    Choice("smarts", "Смекалка", "Smarts"),
    Choice("spirit", "Характер", "Spirit"),
    Choice(
        "strength", "Сила", "Strength"
    ),  # «Проверки параметров»; «Встречные проверки»; «Совместные проверки»
    Choice("vigor", "Выносливость", "Vigor"),
)
ATTRIBUTE_KEYS: tuple[str, ...] = tuple(c.key for c in ATTRIBUTES)

# [published edition] skill list of the Deluxe rules: key, ru, en, linked attribute. Only
# Стрельба («Правила игры: пример») and Судовождение («Совместные проверки») are rulebook terms; the
# rest are suggestions for the form.
KNOWN_SKILLS: tuple[tuple[str, str, str, str], ...] = (
    ("boating", "Судовождение", "Boating", "agility"),
    ("climbing", "Лазание", "Climbing", "strength"),
    ("driving", "Вождение", "Driving", "agility"),
    ("fighting", "Драка", "Fighting", "agility"),
    ("gambling", "Азартные игры", "Gambling", "smarts"),
    ("healing", "Лечение", "Healing", "smarts"),
    ("intimidation", "Запугивание", "Intimidation", "spirit"),
    ("investigation", "Расследование", "Investigation", "smarts"),
    ("knowledge", "Знание", "Knowledge", "smarts"),
    ("lockpicking", "Взлом", "Lockpicking", "agility"),
    ("notice", "Внимание", "Notice", "smarts"),
    ("persuasion", "Убеждение", "Persuasion", "spirit"),
    ("piloting", "Пилотирование", "Piloting", "agility"),
    ("repair", "Ремонт", "Repair", "smarts"),
    ("riding", "Верховая езда", "Riding", "agility"),
    ("shooting", "Стрельба", "Shooting", "agility"),
    ("stealth", "Скрытность", "Stealth", "agility"),
    ("streetwise", "Уличное чутьё", "Streetwise", "smarts"),
    ("survival", "Выживание", "Survival", "smarts"),
    ("swimming", "Плавание", "Swimming", "agility"),
    ("taunt", "Провокация", "Taunt", "smarts"),
    ("throwing", "Метание", "Throwing", "agility"),
    ("tracking", "Выслеживание", "Tracking", "smarts"),
)
RANGED_SKILLS = frozenset({"shooting", "throwing", "стрельба", "метание"})

ROLES: tuple[Choice, ...] = (
    Choice("pc", "Персонаж игрока", "Player character"),
    Choice("npc", "Персонаж ведущего", "GM character"),
)

STATUSES: tuple[Choice, ...] = (
    Choice("active", "В строю", "Active"),
    Choice("incapacitated", "Выведен из строя", "Incapacitated"),
    Choice("bleeding_out", "Истекает кровью", "Bleeding out"),
    Choice("dead", "Погиб", "Dead"),
)

# Edges the rules read. Беспощадный (No Mercy) is the rulebook's («Фишки»); the rest [published
# edition].
EDGE_RULES: tuple[Choice, ...] = (
    Choice("", "—", "—"),
    Choice("no_mercy", "Беспощадный (фишки на урон)", "No Mercy (bennies on damage)"),
    Choice("level_headed", "Хладнокровие (2 карты)", "Level Headed (2 cards)"),
    Choice(
        "improved_level_headed",
        "Улучшенное хладнокровие (3 карты)",
        "Improved Level Headed (3 cards)",
    ),
    Choice("quick", "Быстрый (пересдача 5 и ниже)", "Quick (redraw 5 or lower)"),
    Choice("common_bond", "Общее дело (дарить фишки)", "Common Bond (give bennies)"),
)
HINDRANCE_RULES: tuple[Choice, ...] = (
    Choice("", "—", "—"),
    Choice("hesitant", "Нерешительный (худшая из 2 карт)", "Hesitant (worst of 2 cards)"),
)
EDGE_NAMES: dict[str, frozenset[str]] = {
    "no_mercy": frozenset({"беспощадный", "no mercy"}),
    "level_headed": frozenset({"хладнокровие", "level headed"}),
    "improved_level_headed": frozenset({"улучшенное хладнокровие", "improved level headed"}),
    "quick": frozenset({"быстрый", "quick"}),
    "common_bond": frozenset({"общее дело", "common bond"}),
    "hesitant": frozenset({"нерешительный", "hesitant"}),
}


def _modifier_fields() -> dict[str, Field]:
    return {
        "pace": IntField(ru="Шаг ±", en="Pace ±", default=0, min=-12, max=12),
        "parry": IntField(ru="Защита ±", en="Parry ±", default=0, min=-12, max=12),
        "toughness": IntField(ru="Стойкость ±", en="Toughness ±", default=0, min=-12, max=12),
        "charisma": IntField(ru="Харизма ±", en="Charisma ±", default=0, min=-12, max=12),
    }


EDGE = ObjectField(
    ru="Черта",
    en="Edge",
    fields={
        "name": StrField(ru="Название", en="Name", max_length=80, required=True),
        "rule": ChoiceField(ru="Правило", en="Rule", default="", choices=EDGE_RULES),
        "note": StrField(ru="Описание", en="Text", max_length=1000),
        **_modifier_fields(),
    },
)
HINDRANCE = ObjectField(
    ru="Изъян",
    en="Hindrance",
    fields={
        "name": StrField(ru="Название", en="Name", max_length=80, required=True),
        "major": BoolField(ru="Крупный", en="Major"),
        "rule": ChoiceField(ru="Правило", en="Rule", default="", choices=HINDRANCE_RULES),
        "note": StrField(ru="Описание", en="Text", max_length=1000),
        **_modifier_fields(),
        "injury": BoolField(
            ru="От травмы",
            en="From an injury",
            help_ru="Снимается вместе с травмой.",
            help_en="Removed when the injury heals.",
        ),
    },
)
# [published edition] Таблица травм (injuries.py): what the injury did, so healing undoes it.
INJURY = ObjectField(
    ru="Травма",
    en="Injury",
    fields={
        "key": ChoiceField(
            ru="Травма", en="Injury", default="unmentionables", choices=INJURY_CHOICES
        ),
        "duration": ChoiceField(ru="Срок", en="Lasts", default="permanent", choices=DURATIONS),
        "attribute": ChoiceField(
            ru="Ослабленная характеристика",
            en="Lowered attribute",
            default="",
            choices=(Choice("", "—", "—"), *ATTRIBUTES),
        ),
        "reduced": BoolField(ru="Кубик понижен", en="Die lowered"),
        "hindrance": StrField(ru="Полученный изъян", en="Hindrance gained", max_length=80),
        "roll": ListField(
            ru="Бросок (2d6, d6)", en="Roll (2d6, d6)", item=IntField(min=1, max=6), max_items=3
        ),
        "note": StrField(ru="Заметка", en="Note", max_length=400),
    },
)
SKILL = ObjectField(
    ru="Навык",
    en="Skill",
    fields={
        "key": StrField(ru="Обозначение навыка", en="Skill code", max_length=40, internal=True),
        "name": StrField(ru="Навык", en="Skill", max_length=60, required=True),
        "die": DieField(ru="Кубик", en="Die", default="d4"),
    },
)
WEAPON = ObjectField(
    ru="Оружие",
    en="Weapon",
    fields={
        "name": StrField(ru="Название", en="Name", max_length=60, required=True),
        "damage": StrField(
            ru="Урон (Сила+к6, 2d6+1)",
            en="Damage (str+d6, 2d6+1)",
            max_length=40,
            default="str",
            check=check_damage,
        ),
        "ap": IntField(ru="Бронебойность", en="Armor piercing", default=0, min=0, max=50),
        "skill": StrField(ru="Навык атаки", en="Attack skill", default="fighting", max_length=60),
    },
)

SHEET = ObjectField(
    ru="Лист персонажа",
    en="Character sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=120),
        "role": ChoiceField(
            ru="Чей персонаж",
            en="Whose character",
            default="pc",
            choices=ROLES,
            help_ru="Определяется листом: персонаж игрока или персонаж ведущего.",
            help_en="Set by the sheet: a player's character or the GM's.",
        ),
        "wild_card": BoolField(
            ru="Дикая карта",
            en="Wild card",
            default=True,
            help_ru=(
                "Персонажи игроков всегда дикие карты. Персонаж ведущего по умолчанию "
                "статист: без дикого кубика и своих фишек, выбывает с первым ранением."
            ),
            help_en=(
                "Player characters are always wild cards. A GM character is an extra "
                "unless marked: no wild die, no bennies of its own, out at its first wound."
            ),
        ),
        "attributes": ObjectField(
            ru="Характеристики",
            en="Attributes",
            fields={c.key: DieField(ru=c.ru, en=c.en, default="d4") for c in ATTRIBUTES},
        ),
        "skills": ListField(ru="Навыки", en="Skills", item=SKILL, max_items=60),
        "pace": IntField(ru="Шаг (основа)", en="Pace (base)", default=6, min=0, max=48),
        "armor": IntField(ru="Броня (торс)", en="Armor (torso)", default=0, min=0, max=40),
        "wounds": IntField(ru="Ранения", en="Wounds", default=0, min=0, max=MAX_WOUNDS),
        "fatigue": IntField(ru="Усталость", en="Fatigue", default=0, min=0, max=MAX_FATIGUE),
        "shaken": BoolField(ru="Шок", en="Shaken"),
        "status": ChoiceField(ru="Состояние", en="Status", default="active", choices=STATUSES),
        "bennies": IntField(
            ru="Фишки",
            en="Bennies",
            default=0,
            min=0,
            max=99,
            show_if={
                "wild_card": True
            },  # extras have none («Фишки ведущего»: the GM's pool pays for them)
        ),
        "edges": ListField(ru="Черты", en="Edges", item=EDGE, max_items=40),
        "hindrances": ListField(ru="Изъяны", en="Hindrances", item=HINDRANCE, max_items=20),
        "weapons": ListField(ru="Оружие", en="Weapons", item=WEAPON, max_items=20),
        "injuries": ListField(ru="Травмы", en="Injuries", item=INJURY, max_items=MAX_INJURIES),
        "notes": StrField(ru="Заметки", en="Notes", max_length=4000),
    },
)

DEALT = ObjectField(
    fields={
        "id": StrField(ru="Участник", en="Participant", max_length=60, required=True),
        "card": CardField(ru="Карта", en="Card", required=True),
        "drawn": ListField(item=CardField(), max_items=54),
    }
)
DECK = ObjectField(
    ru="Колода действий",
    en="Action deck",
    fields={
        "draw": ListField(ru="Колода", en="Draw pile", item=CardField(), max_items=54),
        "discard": ListField(ru="Сброс", en="Discards", item=CardField(), max_items=54),
        "dealt": ListField(ru="Розданы", en="Dealt", item=DEALT, max_items=54),
        "round": IntField(ru="Раунд", en="Round", default=0, min=0, max=100_000),
        "shuffle_due": BoolField(ru="Перетасовать", en="Shuffle due", default=True),
    },
)
TABLE = ObjectField(
    ru="Стол",
    en="Table",
    fields={
        "pool": IntField(ru="Фишки ведущего", en="GM's bennies", default=0, min=0, max=999),
        "deck": DECK,
    },
)

PARTICIPANT = ObjectField(
    fields={
        "id": StrField(ru="Участник", en="Participant", max_length=60, required=True),
        "edge": ChoiceField(
            ru="Черта для карт",
            en="Card edge",
            default="",
            choices=(
                Choice("", "—", "—"),
                *[c for c in EDGE_RULES if c.key in ("level_headed", "improved_level_headed")],
                *[c for c in EDGE_RULES if c.key == "quick"],
                *[c for c in HINDRANCE_RULES if c.key == "hesitant"],
            ),
        ),
    }
)

SETTINGS = settings_spec(
    {
        "damage_bennies": ChoiceField(
            ru="Фишки на урон",
            en="Bennies on damage",
            default="no_mercy",
            choices=(
                Choice("no_mercy", "Только с чертой Беспощадный", "Only with No Mercy"),
                Choice("anyone", "Любой (приключенческое издание)", "Anyone (Adventure Edition)"),
            ),
        ),
        "reroll_critical_failure": BoolField(
            ru="Можно перебросить критический провал",
            en="A critical failure may be rerolled",
            default=True,
            help_ru="Правила это разрешают; в приключенческом издании нельзя.",
            help_en="The rules allow it; the Adventure Edition forbids it.",
        ),
        "opposed_needs_tn": BoolField(
            ru="Во встречной проверке нападающему нужно 4+",
            en="In an opposed check the attacker needs 4+",
            default=False,
            help_ru=(
                "По правилам побеждает больший результат; "
                "в приключенческом издании нужна ещё и сложность 4."
            ),
            help_en="By the rules the higher total wins; the Adventure Edition also needs 4.",
        ),
        "opposed_raise_floor": BoolField(
            ru="Подъёмы во встречной — не ниже сложности 4",
            en="Opposed raises count from at least 4",
            default=False,
            help_ru="По правилам сложность — результат проигравшего, даже ниже 4.",
            help_en="By the rules the TN is the loser's total, even below 4.",
        ),
        "group_check_crit": BoolField(
            ru="Две единицы в групповой проверке — критический провал группы",
            en="Double 1 on a group check is the group's critical failure",
            default=True,
        ),
        "cooperative_cap": IntField(
            ru="Предел бонуса совместной проверки",
            en="Cooperative bonus cap",
            default=4,
            min=0,
            max=20,
            help_ru="По правилам +4; к проверкам Силы предел не применяется.",
            help_en="+4 by the rules; Strength checks have no cap.",
        ),
        "shaken_recovery": ChoiceField(
            ru="Выход из шока (издание)",
            en="Recovering from Shaken (edition)",
            default="deluxe",
            choices=(
                Choice(
                    "deluxe",
                    "Дополненное издание: успех снимает шок, действовать — только с подъёмом",
                    "Deluxe edition: success clears Shaken, acting needs a raise",
                ),
                Choice(
                    "swade",
                    "Приключенческое издание: успех — и можно действовать",
                    "Adventure Edition: success acts",
                ),
            ),
        ),
        "incapacitation": ChoiceField(
            ru="Выведение из строя (издание)",
            en="Incapacitation (edition)",
            default="deluxe",
            choices=(
                Choice("deluxe", "Дополненное издание", "Deluxe edition"),
                Choice(
                    "explorer",
                    "Издание «Исследователь» (до дополненного)",
                    "Explorer's (before Deluxe)",
                ),
                Choice("swade", "Приключенческое издание", "Adventure Edition"),
            ),
        ),
        "wounds_reduce_pace": BoolField(
            ru="Ранения снижают Шаг (приключенческое издание)",
            en="Wounds reduce Pace (Adventure Edition)",
            default=False,
        ),
        "joker_bennies": BoolField(
            ru="Джокер даёт фишки (приключенческое издание)",
            en="A joker hands out bennies (Adventure Edition)",
            default=False,
        ),
        "wild_card_glyph": StrField(
            ru="Символ дикой карты",
            en="Wild card glyph",
            default="¤",
            max_length=4,
            help_ru="Символ перед именем дикой карты.",
            help_en="The symbol before a wild card's name.",
        ),
    }
)
