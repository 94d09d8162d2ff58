"""Dungeon World sheet, NPC stat block and campaign settings as field specs.

These specs are the single source for the sheet form, the NPC form, the settings form and
their validation. Numbers the rulebook leaves out (the stat table, HP formula) are [published]
defaults that a campaign changes through ``SETTINGS``.
"""

from __future__ import annotations

from typing import Any

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
from systems.dungeon_world.damage import check_expression

# The 21 moves of «Основные ходы персонажей», in the rulebook's order.
MOVE_NAMES: dict[str, tuple[str, str]] = {
    "hack_and_slash": ("Руби и кромсай", "Hack and Slash"),
    "volley": ("Дать залп", "Volley"),
    "defy_danger": ("Спастись от угрозы", "Defy Danger"),
    "defend": ("Встать на защиту", "Defend"),
    "spout_lore": ("Покопаться в памяти", "Spout Lore"),
    "discern_realities": ("Изучить обстановку", "Discern Realities"),
    "parley": ("Договориться", "Parley"),
    "carouse": ("Пирушка", "Carouse"),
    "last_breath": ("Последний вздох", "Last Breath"),
    "encumbrance": ("Тяжкая ноша", "Encumbrance"),
    "make_camp": ("Разбить лагерь", "Make Camp"),
    "take_watch": ("Нести дозор", "Take Watch"),
    "aid_or_interfere": ("Помочь или помешать", "Aid or Interfere"),
    "perilous_journey": ("Отправиться в опасное путешествие", "Undertake a Perilous Journey"),
    "supply": ("Пополнить припасы", "Supply"),
    "recover": ("Восстановить силы", "Recover"),
    "recruit": ("Найм", "Recruit"),
    "outstanding_warrants": ("Неоплаченный долг", "Outstanding Warrants"),
    "bolster": ("Усердно заниматься", "Bolster"),
    "level_up": ("Повысить уровень", "Level Up"),
    "end_of_session": ("Конец сессии", "End of Session"),
}

STATS: tuple[Choice, ...] = (
    Choice("str", "СИЛ", "STR"),
    Choice("dex", "ЛОВ", "DEX"),
    Choice("con", "ТЕЛ", "CON"),
    Choice("int", "ИНТ", "INT"),
    Choice("wis", "МДР", "WIS"),
    Choice("cha", "ХАР", "CHA"),
)
STAT_KEYS: tuple[str, ...] = tuple(c.key for c in STATS)

# Debility -> the stat whose modifier it lowers by 1 («Травмы»).
DEBILITIES: tuple[Choice, ...] = (
    Choice("weak", "Ослаблен (СИЛ)", "Weak (STR)"),
    Choice("shaky", "Шатается (ЛОВ)", "Shaky (DEX)"),
    Choice("sick", "Болен (ТЕЛ)", "Sick (CON)"),
    Choice("stunned", "Оглушён (ИНТ)", "Stunned (INT)"),
    Choice("confused", "Ошеломлён (МДР)", "Confused (WIS)"),
    Choice("scarred", "Изуродован (ХАР)", "Scarred (CHA)"),
)
DEBILITY_STAT: dict[str, str] = {
    "weak": "str",
    "shaky": "dex",
    "sick": "con",
    "stunned": "int",
    "confused": "wis",
    "scarred": "cha",
}

ALIGNMENTS: tuple[Choice, ...] = (
    Choice("good", "Доброе", "Good"),
    Choice("lawful", "Законное", "Lawful"),
    Choice("neutral", "Нейтральное", "Neutral"),
    Choice("chaotic", "Хаотичное", "Chaotic"),
    Choice("evil", "Злое", "Evil"),
)

# Alignment moves per alignment («Изменение мировоззрения»), keyed for the sheet's alignment_move
# field.
ALIGNMENT_MOVES: dict[str, tuple[Choice, ...]] = {
    "lawful": (
        Choice(
            "letter_of_law",
            "Придерживайтесь буквы, а не духа закона.",
            "Uphold the letter, not the spirit, of the law.",
        ),
        Choice("keep_promises", "Выполняйте важные обещания.", "Keep important promises."),
        Choice(
            "justice",
            "Восстанавливайте справедливость и наказывайте виновных.",
            "Restore justice and punish the guilty.",
        ),
        Choice("honour", "Ставьте честь выше личной выгоды.", "Put honour above personal gain."),
        Choice(
            "return_valuables",
            "Возвращайте ценные вещи их законному обладателю.",
            "Return valuables to their rightful owner.",
        ),
    ),
    "good": (
        Choice(
            "help_others",
            "Помогайте другим, невзирая на опасность.",
            "Help others despite the danger.",
        ),
        Choice(
            "lead_righteous",
            "Ведите других в бой за праведное дело.",
            "Lead others into battle for a righteous cause.",
        ),
        Choice(
            "give_up_power",
            "Отказывайтесь от власти или богатства ради всеобщего блага.",
            "Give up power or wealth for the common good.",
        ),
        Choice("expose_lies", "Разоблачайте опасную ложь.", "Expose dangerous lies."),
        Choice("mercy", "Поступайте милосердно.", "Show mercy."),
    ),
    "neutral": (
        Choice(
            "influential_support",
            "Заручайтесь поддержкой влиятельных лиц.",
            "Win the support of influential people.",
        ),
        Choice("defeat_enemies", "Побеждайте заклятых врагов.", "Defeat sworn enemies."),
        Choice("learn_secrets", "Узнавайте тайны о недругах.", "Learn your foes' secrets."),
        Choice("truth", "Докапывайтесь до правды.", "Get to the truth."),
    ),
    "chaotic": (
        Choice("expose_corruption", "Разоблачайте коррупцию.", "Expose corruption."),
        Choice(
            "break_unjust_law",
            "Нарушайте несправедливый закон, чтобы помочь другому.",
            "Break an unjust law to help someone.",
        ),
        Choice("strike_tyrants", "Сражайте тиранов.", "Strike down tyrants."),
        Choice("expose_hypocrisy", "Разоблачайте лицемерие.", "Expose hypocrisy."),
    ),
    "evil": (
        Choice("abuse_trust", "Воспользуйтесь чьим-то доверием.", "Abuse someone's trust."),
        Choice(
            "pain_for_fun",
            "Причиняйте кому-нибудь боль ради забавы.",
            "Cause someone pain for fun.",
        ),
        Choice("destroy_beauty", "Разрушайте что-то прекрасное.", "Destroy something beautiful."),
        Choice("break_just_laws", "Нарушайте справедливые законы.", "Break just laws."),
        Choice("harm_innocent", "Вредите невинным.", "Harm the innocent."),
    ),
}

DAMAGE_DICE: tuple[Choice, ...] = (
    Choice("d4", "к4", "d4"),
    Choice("d6", "к6", "d6"),
    Choice("d8", "к8", "d8"),
    Choice("d10", "к10", "d10"),
    Choice("d12", "к12", "d12"),
)

STATUSES: tuple[Choice, ...] = (
    Choice("alive", "Жив", "Alive"),
    Choice("dying", "При смерти: последний вздох", "Dying: Last Breath due"),
    Choice("stabilized", "Стабилизирован, без сознания", "Stabilized, unconscious"),
    Choice("deaths_mark", "Метка Смерти", "Death's mark"),
    Choice("dead", "Мёртв", "Dead"),
)

CAREERS: tuple[Choice, ...] = (
    Choice("active", "В игре", "Active"),
    Choice("retired", "Ушёл на покой", "Retired"),
    Choice("apprentice", "Взял ученика (опыт больше не получает)", "Took an apprentice (no XP)"),
)

ANY_MOVE = Choice("", "любой ход", "any move")
MOVE_CHOICES: tuple[Choice, ...] = (
    ANY_MOVE,
    *(Choice(k, ru, en) for k, (ru, en) in MOVE_NAMES.items()),
)

# [published] score -> modifier; index 0 is score 1.
PUBLISHED_STAT_TABLE: tuple[int, ...] = (
    -3,
    -3,
    -3,
    -2,
    -2,
    -1,
    -1,
    -1,
    0,
    0,
    0,
    0,
    1,
    1,
    1,
    2,
    2,
    3,
)


def _modifier_entry(move_ru: str, move_en: str, note_ru: str, note_en: str) -> ObjectField:
    return ObjectField(
        ru=move_ru,
        en=move_en,
        fields={
            "value": IntField(ru="Бонус", en="Bonus", default=1, min=-10, max=10),
            "move": ChoiceField(
                ru="Только для хода", en="Only for move", default="", choices=MOVE_CHOICES
            ),
            "note": StrField(ru=note_ru, en=note_en, max_length=200),
        },
    )


FORWARD_ENTRY = _modifier_entry(
    "+N на следующий ход", "+N forward", "Откуда / условие", "Source / condition"
)
ONGOING_ENTRY = _modifier_entry(
    "+N на все ходы", "+N ongoing", "Пока не… (когда закончится)", "Until… (when it ends)"
)

SHEET = ObjectField(
    ru="Лист персонажа",
    en="Character sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "class_name": StrField(ru="Класс", en="Class", max_length=60),
        "race": StrField(ru="Раса", en="Race", max_length=60),
        "level": IntField(ru="Уровень", en="Level", default=1, min=1, max=10),
        "xp": IntField(ru="Опыт", en="XP", default=0, min=0, max=999),
        "stats": ObjectField(
            ru="Характеристики (значения)",
            en="Stat scores",
            fields={c.key: IntField(ru=c.ru, en=c.en, default=10, min=1, max=18) for c in STATS},
        ),
        "debilities": ObjectField(
            ru="Травмы",
            en="Debilities",
            fields={c.key: BoolField(ru=c.ru, en=c.en) for c in DEBILITIES},
        ),
        "hp": IntField(ru="ОЗ", en="HP", default=18, min=0, max=999),
        "max_hp": IntField(ru="Максимум ОЗ", en="Max HP", default=18, min=1, max=999),
        "hp_base": IntField(
            ru="Базовые ОЗ класса",
            en="Class base HP",
            default=8,
            min=0,
            max=99,
            help_ru="Максимум ОЗ = базовые ОЗ класса + значение ТЕЛ, если так в настройках.",
            help_en="Max HP = class base + CON score when the setting says so.",
        ),
        "armor": IntField(ru="Броня", en="Armor", default=0, min=0, max=20),
        "damage_die": ChoiceField(
            ru="Кубик базового урона класса",
            en="Class damage die",
            default="d6",
            choices=DAMAGE_DICE,
        ),
        "weapon_bonus": IntField(
            ru="Модификатор урона оружия", en="Weapon damage modifier", default=0, min=-10, max=10
        ),
        "load": IntField(ru="Нагрузка", en="Load", default=10, min=0, max=99),
        "weight": IntField(ru="Вес снаряжения", en="Weight carried", default=0, min=0, max=999),
        "coins": IntField(ru="Монеты", en="Coins", default=0, min=0, max=10_000_000),
        "rations": IntField(ru="Паёк", en="Rations", default=0, min=0, max=999),
        "ammo": IntField(ru="Боезапас", en="Ammo", default=0, min=0, max=999),
        "alignment": ChoiceField(
            ru="Мировоззрение", en="Alignment", default="neutral", choices=ALIGNMENTS
        ),
        "alignment_move": StrField(ru="Ход мировоззрения", en="Alignment move", max_length=200),
        "bonds": ListField(
            ru="Узы",
            en="Bonds",
            max_items=20,
            item=ObjectField(
                ru="Узы",
                en="Bond",
                fields={
                    "with": StrField(ru="С кем", en="With", max_length=100),
                    "text": StrField(ru="Текст", en="Text", max_length=300),
                },
            ),
        ),
        "forward": ListField(
            ru="+N на следующий ход", en="Forward", item=FORWARD_ENTRY, max_items=20
        ),
        "ongoing": ListField(ru="+N на все ходы", en="Ongoing", item=ONGOING_ENTRY, max_items=20),
        "hold": ListField(
            ru="Запас",
            en="Hold",
            max_items=10,
            item=ObjectField(
                ru="Запас хода",
                en="Hold of a move",
                fields={
                    "move": ChoiceField(
                        ru="Ход", en="Move", default="defend", choices=MOVE_CHOICES[1:]
                    ),
                    "amount": IntField(ru="Запас", en="Hold", default=0, min=0, max=20),
                    "target": StrField(ru="Кого/что защищаете", en="Protecting", max_length=100),
                },
            ),
        ),
        "preparation": IntField(ru="Очки подготовки", en="Preparation", default=0, min=0, max=99),
        "status": ChoiceField(ru="Состояние", en="Status", default="alive", choices=STATUSES),
        "career": ChoiceField(ru="Развитие", en="Career", default="active", choices=CAREERS),
        "moves": ListField(
            ru="Ходы",
            en="Moves",
            max_items=60,
            item=ObjectField(
                ru="Ход",
                en="Move",
                fields={
                    "name": StrField(ru="Название", en="Name", max_length=100),
                    "level_taken": IntField(
                        ru="Взят на уровне", en="Taken at level", default=1, min=1, max=10
                    ),
                    "source_class": StrField(ru="Класс хода", en="Move's class", max_length=60),
                },
            ),
        ),
        "spellbook": ListField(
            ru="Книга заклинаний", en="Spellbook", item=StrField(max_length=100), max_items=60
        ),
        "notes": StrField(ru="Заметки", en="Notes", max_length=4000),
    },
)

NPC = ObjectField(
    ru="Персонаж ведущего / монстр",
    en="GM character / monster",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "hp": IntField(ru="ОЗ", en="HP", default=6, min=0, max=999),
        "max_hp": IntField(ru="Максимум ОЗ", en="Max HP", default=6, min=1, max=999),
        "armor": IntField(ru="Броня", en="Armor", default=0, min=0, max=20),
        "damage": StrField(
            ru="Урон (например, к10+1 или б[2к8])",
            en="Damage (e.g. d10+1 or б[2к8])",
            default="к6",
            max_length=60,
            check=check_expression,
        ),
        "ignores_armor": BoolField(ru="Урон игнорирует броню", en="Damage ignores armor"),
        "tags": ListField(ru="Свойства", en="Tags", item=StrField(max_length=60), max_items=20),
        "notes": StrField(ru="Заметки", en="Notes", max_length=2000),
    },
)

SETTINGS = settings_spec(
    {
        "stat_modifiers": ListField(
            ru="Модификаторы характеристик для значений 1–18",
            en="Stat modifiers for scores 1-18",
            help_ru="Таблицы нет в тексте правил; по умолчанию опубликованная.",
            help_en="The rules text has no table; the published one is the default.",
            item=IntField(min=-5, max=5),
            min_items=18,
            max_items=18,
            default=list(PUBLISHED_STAT_TABLE),
        ),
        "hp_from_con": BoolField(
            ru="Максимум ОЗ = базовые ОЗ класса + ТЕЛ",
            en="Max HP = class base + CON score",
            default=True,
        ),
        "defend_halve_order": ChoiceField(
            ru="«Ополовинить урон»: когда",
            en="Defend 'halve': when",
            default="after_armor",
            choices=(
                Choice("after_armor", "после брони", "after armor"),
                Choice("before_armor", "до брони", "before armor"),
            ),
        ),
        "defend_halve_rounding": ChoiceField(
            ru="«Ополовинить урон»: округление",
            en="Defend 'halve': rounding",
            default="down",
            choices=(Choice("down", "вниз", "down"), Choice("up", "вверх", "up")),
        ),
        "encumbrance_drop_penalty": BoolField(
            ru="Сбросив груз, бросать с -1 (опубликованные правила)",
            en="After dropping weight, roll at -1 (published)",
        ),
        "auto_fail_marks_xp": BoolField(
            ru="Автоматический провал даёт опыт", en="An automatic failure marks XP"
        ),
        "aid_requires_bond": BoolField(
            ru="Помогать можно только при наличии уз", en="Aid needs at least one bond"
        ),
        "recover_repeat": BoolField(
            ru="Восстановить силы: травма снимается каждые 3 (2) дня",
            en="Recover: one debility per every 3 (2) days",
            default=True,
        ),
        "multiclass_strictly_lower": BoolField(
            ru="Мультикласс: уровень хода строго ниже уровня героя",
            en="Multiclass: move level strictly below the character level",
            default=True,
        ),
    }
)


def stat_modifier(score: int, table: list[int] | tuple[int, ...]) -> int:
    """Modifier of a stat score by the campaign's table (index 0 = score 1)."""
    return table[max(1, min(18, score)) - 1]


def effective_modifier(state: dict[str, Any], stat: str, settings: dict[str, Any]) -> int:
    """Table modifier minus 1 for the matching debility («Травмы»); debilities never stack
    («Травмы»)."""
    mod = stat_modifier(state["stats"][stat], settings["stat_modifiers"])
    for debility, target in DEBILITY_STAT.items():
        if target == stat and state["debilities"].get(debility):
            mod -= 1
    return mod
