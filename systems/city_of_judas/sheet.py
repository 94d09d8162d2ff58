"""City of Judas (Град Иуды) sheet, GM-character block and campaign settings.

The rulebook is the damage chapter only: health (-3..+3, +4 = unmarked, «Урон персонажу»; «Урон
персонажу: ход получить урон»), unstable, superiority, maims, mortal wound, wounds on GM characters
(«Нанесение урона»), armor, shield and armour-piercing damage («Нанесение урона»). Stats other than
Steel (Сталь, «Урон персонажу: правило одного броска») and the maim list are not in the rulebook, so
the sheet keeps them as editable lists.
"""

from __future__ import annotations

from systems.core.rulekit import settings_spec
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
)

HEALTH_UNMARKED = 4  # "никогда не используется" («Урон персонажу»): a roll never uses +4
# The track is -3..+3 («Урон персонажу»); a mortal wound needs -3 (the move получить урон).
HEALTH_MIN = -3

NPC_KINDS: tuple[Choice, ...] = (
    Choice("minor", "Малозначимый враг (2d6)", "Minor enemy (2d6)"),
    Choice("important", "Важный персонаж Мастера (1d6)", "Important GM character (1d6)"),
    Choice("monster", "Чудовище (1d6)", "Monster (1d6)"),
    Choice("demon", "Демон (1d6)", "Demon (1d6)"),
    Choice("rival", "Серьёзный соперник (1d6)", "Serious rival (1d6)"),
)
ONE_DIE_KINDS = frozenset(
    {"important", "monster", "demon", "rival"}
)  # «Нанесение урона: ход решающий удар»; «Примеры хода решающий удар»

NPC_OUT: tuple[Choice, ...] = (
    Choice("", "В бою", "Fighting"),
    Choice("killed", "Убит, смертельно ранен или изувечен", "Killed, mortally wounded or maimed"),
    Choice("defeated", "Лишён сознания, сбит с ног, побеждён", "Unconscious, down or beaten"),
)

PROTECTION = {
    "armor": IntField(ru="Броня", en="Armor", default=0, min=0, max=20),
    "shield": IntField(ru="Щит", en="Shield", default=0, min=0, max=20),
    "other_protection": IntField(ru="Иная защита", en="Other protection", default=0, min=0, max=20),
    "weapon_damage": IntField(ru="Урон оружия", en="Weapon damage", default=0, min=0, max=50),
    "weapon_ap": IntField(
        ru="Из них бронебойного (бб)", en="Of it armour-piercing (AP)", default=0, min=0, max=50
    ),
}

STAT = ObjectField(
    ru="Характеристика",
    en="Stat",
    fields={
        "key": StrField(ru="Ключ", en="Key", max_length=30, internal=True),
        "ru": StrField(ru="Название", en="Name", max_length=60, lang="ru"),
        "en": StrField(ru="Название", en="Name", max_length=60, lang="en"),
        "value": IntField(ru="Значение", en="Value", default=0, min=-5, max=5),
    },
)

MAIM = ObjectField(
    ru="Увечье",
    en="Maim",
    fields={
        "key": StrField(ru="Ключ", en="Key", max_length=30),
        "name": StrField(ru="Название", en="Name", max_length=100),
        "stat": StrField(ru="Характеристика", en="Stat", max_length=30),
        "penalty": IntField(ru="Штраф", en="Penalty", default=-1, min=-5, max=0),
        "marked": BoolField(ru="Отмечено", en="Marked"),
    },
)

SHEET = ObjectField(
    ru="Лист персонажа",
    en="Character sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "health": IntField(
            ru="Здоровье",
            en="Health",
            default=HEALTH_UNMARKED,
            min=HEALTH_MIN,
            max=HEALTH_UNMARKED,
            help_ru="+4 — счётчик без отметок; первый урон ставит +3.",
            help_en="+4 means unmarked; the first point of damage sets +3.",
        ),
        "unstable": BoolField(ru="Нестабилен", en="Unstable"),
        "superiority": IntField(
            ru="Превосходство (кубик превосходства)", en="Superiority", default=1, min=0, max=20
        ),
        "mortal_wound": BoolField(ru="Смертельная рана", en="Mortal wound"),
        "stats": ListField(
            ru="Характеристики",
            en="Stats",
            item=STAT,
            max_items=12,
            default=[{"key": "steel", "ru": "Сталь", "en": "Steel", "value": 0}],
        ),
        "maims": ListField(ru="Увечья", en="Maims", item=MAIM, max_items=20),
        **PROTECTION,
        "notes": StrField(ru="Заметки", en="Notes", max_length=4000),
    },
)

NPC = ObjectField(
    ru="Персонаж Мастера",
    en="GM character",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "kind": ChoiceField(ru="Значимость", en="Kind", default="minor", choices=NPC_KINDS),
        "wounds": IntField(
            ru="Раны",
            en="Wounds",
            default=0,
            min=0,
            max=999,
            help_ru="Суммарный полученный урон; «Раны 3» = «Раны +++».",
            help_en="Total damage taken so far; 'Wounds 3' = 'Wounds +++'.",
        ),
        **PROTECTION,
        "out": ChoiceField(ru="Выведен из боя", en="Out of the fight", default="", choices=NPC_OUT),
        "notes": StrField(ru="Заметки", en="Notes", max_length=2000),
    },
)

SETTINGS = settings_spec(
    {
        "one_roll_rule": BoolField(
            ru="Правило одного броска (объявите игрокам заранее)",
            en="One-roll rule (announce it to the players first)",
        ),
        "superiority_min": IntField(
            ru="Превосходство: минимум", en="Superiority minimum", default=1, min=0, max=5
        ),
        "superiority_max": IntField(
            ru="Превосходство: максимум (кубик)",
            en="Superiority maximum (a die)",
            default=6,
            min=1,
            max=20,
        ),
        "conflict_miss_can_win": BoolField(
            ru="Конфликт: выше результат побеждает, даже если у обоих провал",
            en="Conflict: the higher total wins even when both miss",
            default=True,
        ),
        "ap_ignores_shield": BoolField(
            ru="Бронебойный урон игнорирует и щит с иной защитой",
            en="Armour-piercing damage also ignores shield and other protection",
            help_ru=(
                "По правилам бронебойность игнорирует значение брони; по умолчанию щит действует."
            ),
            help_en="By the rules AP ignores armor; by default a shield still counts.",
        ),
    }
)
