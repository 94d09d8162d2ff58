"""Crows state shapes as field specs: the creature sheet, the combat (round, initiative, the
current turn) and the travel day, the campaign state that holds the dungeon clock, the combat
and the travel day, and the campaign settings (the rulebook; numbers it leaves to character
data have plain defaults). The combat and the travel day are also accepted alone by the pure
functions in ``combat`` and ``travel``.

One spec serves the form, the API and validation (``systems.core.schema``).
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
    fail,
    validate,
)
from systems.crows.inventory import INVENTORY, validate_inventory
from systems.crows.items import DAMAGE, ITEM
from systems.crows.terms import (
    CHARACTERISTICS,
    CONDITION_CHOICES,
    COSTS,
    CREATURE_KINDS,
    EFFECT_DURATIONS,
    EXPERTISE_CHOICES,
    PACE_CHOICES,
    RIVER,
    ROLES,
    SIDES,
    SIZES,
    TASK_CHOICES,
)

READY_TEXT_MAX = 200  # characters of a readied action's "what" and of its trigger
QUARRY_MAX = 200  # characters of the quarry a travel role tracks

EXPERTISE_ENTRY = ObjectField(
    ru="Экспертиза",
    en="Expertise",
    fields={
        "key": ChoiceField(
            ru="Экспертиза", en="Expertise", default=None, required=True, choices=EXPERTISE_CHOICES
        ),
        "uses": IntField(ru="Осталось применений", en="Uses left", default=1, min=0, max=99),
        "max": IntField(ru="Применений", en="Uses", default=1, min=0, max=99),
    },
)

CONDITION_ENTRY = ObjectField(
    ru="Состояние",
    en="Condition",
    fields={
        "key": ChoiceField(
            ru="Состояние", en="Condition", default=None, required=True, choices=CONDITION_CHOICES
        ),
        "by": StrField(ru="Кем / чем", en="By whom / what", max_length=100),
        "range": IntField(ru="Дальность захвата", en="Grab range", default=1, min=0, max=100),
        "knocked_out": BoolField(
            ru="Оглушён вместо смерти (очнётся в конце хода подземелья)",
            en="Knocked out instead of killed (wakes at the end of the dungeon turn)",
        ),
        "note": StrField(ru="Заметка", en="Note", max_length=200),
    },
)

EFFECT = ObjectField(
    ru="Эффект",
    en="Effect",
    fields={
        "id": StrField(ru="Идентификатор", en="Id", required=True, max_length=64, internal=True),
        "name": StrField(ru="Название", en="Name", max_length=100),
        "duration": ChoiceField(
            ru="Длительность", en="Duration", default="wear_dice", choices=EFFECT_DURATIONS
        ),
        "wear_dice": IntField(ru="Кости износа", en="Wear dice", default=0, min=0, max=20),
        "source": StrField(ru="Источник", en="Source", max_length=100),
        "note": StrField(ru="Заметка", en="Note", max_length=500),
        "key": StrField(
            ru="Ключ правила",
            en="Rule key",
            max_length=64,
        ),
        "stacks": IntField(ru="Сколько раз наложен", en="Stacks", default=1, min=1, max=20),
        "caster": StrField(ru="Заклинатель", en="Caster", max_length=100),
    },
)

PROJECT = ObjectField(
    ru="Изготавливаемый предмет",
    en="Crafting project",
    fields={
        "id": StrField(ru="Идентификатор", en="Id", required=True, max_length=64, internal=True),
        "name": StrField(ru="Предмет", en="Item", max_length=100),
        "goal": IntField(ru="Цель изготовления", en="Crafting goal", default=10, min=1, max=999),
        "points": IntField(ru="Очки изготовления", en="Crafting points", default=0, min=0),
        "expertise": ChoiceField(
            ru="Экспертиза", en="Expertise", default="alchemy", choices=EXPERTISE_CHOICES
        ),
        "uses": IntField(ru="Нужно применений", en="Uses required", default=1, min=0, max=99),
        "materials": ListField(
            ru="Материалы (вид предмета и число)",
            en="Materials (item kind and count)",
            max_items=10,
            item=ObjectField(
                ru="Материал",
                en="Material",
                fields={
                    "kind": StrField(ru="Вид", en="Kind", required=True, max_length=60),
                    "count": IntField(ru="Сколько", en="How many", default=1, min=1, max=99),
                },
            ),
        ),
        "done": IntField(ru="Готово копий", en="Copies done", default=0, min=0, max=99),
        "result": ObjectField(
            ru="Карточка готового предмета",
            en="The finished item's card",
            nullable=True,
            default=None,
            fields=ITEM.fields,
        ),
    },
)

PREPARED = ObjectField(
    ru="Подготовка к задаче",
    en="Prepared task",
    fields={
        "task": StrField(ru="Задача и место", en="Task and place", max_length=200),
        "bonus": IntField(ru="Бонус", en="Bonus", default=2, min=0, max=10),
    },
)

SHEET = ObjectField(
    ru="Лист существа",
    en="Creature sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "kind": ChoiceField(ru="Кто это", en="Kind", default="pc", choices=CREATURE_KINDS),
        "uses_wounds": BoolField(
            ru="Получает раны (пусто — по виду существа)",
            en="Takes wounds (empty: by kind)",
            nullable=True,
            default=None,
        ),
        "size": ChoiceField(ru="Размер", en="Size", default="medium", choices=SIZES),
        "characteristics": ObjectField(
            ru="Характеристики",
            en="Characteristics",
            fields={
                c.key: IntField(ru=c.ru, en=c.en, default=0, min=-5, max=5) for c in CHARACTERISTICS
            },
        ),
        "stamina": IntField(ru="Выносливость", en="Stamina", default=6, min=0, max=999),
        "stamina_max": IntField(
            ru="Максимум Выносливости", en="Maximum Stamina", default=6, min=0, max=999
        ),
        "speed": IntField(
            ru="Скорость (без ран)",
            en="Speed (before wounds)",
            default=6,
            min=0,
            max=99,
            help_ru="Числа нет в правилах: это данные персонажа.",
            help_en="The rules give no number: this is character data.",
        ),
        "armour_defence": ObjectField(
            ru="Собственная Защита доспеха (существа Рефери)",
            en="Natural Armour Defence (Referee creatures)",
            fields={
                "value": IntField(ru="Защита", en="Defence", default=0, min=0, max=50),
                "max": IntField(ru="Максимум", en="Maximum", default=0, min=0, max=50),
            },
        ),
        "expertises": ListField(
            ru="Экспертизы", en="Expertises", item=EXPERTISE_ENTRY, max_items=30
        ),
        "conditions": ListField(ru="Состояния", en="Conditions", item=CONDITION_ENTRY, max_items=6),
        "effects": ListField(ru="Эффекты", en="Effects", item=EFFECT, max_items=30),
        "inventory": INVENTORY,
        "prepared": ListField(
            ru="Подготовка к задачам (+2 до конца следующего отдыха)",
            en="Prepared tasks (+2 until the end of the next rest)",
            item=PREPARED,
            max_items=10,
        ),
        "retry_locks": ListField(
            ru="Нельзя повторить, пока не изменятся обстоятельства",
            en="Cannot retry until circumstances change",
            item=StrField(max_length=200),
            max_items=50,
        ),
        "hidden": BoolField(ru="Скрыт", en="Hidden"),
        "dead": BoolField(ru="Мёртв / уничтожен", en="Dead / destroyed"),
        "town": ObjectField(
            ru="Занятия в городе",
            en="Town activities",
            fields={
                "day": IntField(ru="День", en="Day", default=0, min=0, max=100_000),
                "activities": IntField(
                    ru="Занятий сегодня", en="Activities today", default=0, min=0, max=4
                ),
                "tended_day": IntField(
                    ru="Раны обработаны в день", en="Wounds tended on day", default=-1, min=-1
                ),
                "tend_pending": BoolField(
                    ru="Ждёт сна после обработки ран", en="Awaits sleep after tending"
                ),
            },
        ),
        "notes": StrField(ru="Заметки", en="Notes", max_length=4000),
        # --- combat, travel, spells and crafting ----------------------------------------------
        "speeds": ObjectField(
            ru="Особые скорости",
            en="Special speeds",
            fields={
                "swim": IntField(ru="Плавание", en="Swim", default=0, min=0, max=99),
                "climb": IntField(ru="Лазание", en="Climb", default=0, min=0, max=99),
                "fly": IntField(ru="Полёт", en="Fly", default=0, min=0, max=99),
                "upside_down": BoolField(
                    ru="(U): лазает вниз головой без проверки",
                    en="(U): climbs upside-down without a check",
                ),
            },
        ),
        "natural_weapon": ObjectField(
            ru="Естественное оружие (существа и питомцы)",
            en="Natural weapon (creatures and pets)",
            nullable=True,
            default=None,
            fields=DAMAGE.fields,
        ),
        "companion": ObjectField(
            ru="Питомец или призванное существо",
            en="Pet or summoned creature",
            fields={
                "owner": StrField(ru="Хозяин", en="Owner", max_length=100),
                "summoned": BoolField(ru="Призвано заклинанием", en="Summoned by a spell"),
                "spell": StrField(ru="Заклинание", en="Spell", max_length=100),
            },
        ),
        "cruelty": IntField(ru="Уровень жестокости", en="Cruelty", default=0, min=0, max=99),
        "miasma_lost": BoolField(
            ru="Потерян для Миазмы (неигровой персонаж Рефери)",
            en="Lost to the Miasma (an NPC run by the Referee)",
        ),
        "projects": ListField(
            ru="Изготовление", en="Crafting projects", item=PROJECT, max_items=20
        ),
    },
)


# --- combat («Бой › Застигнут врасплох»; «Бой › Кто ходит первым?»; «Бой › Ход»; «Бой › Реакции»)

READIED = ObjectField(
    ru="Подготовленное действие",
    en="Readied action",
    nullable=True,
    default=None,
    fields={
        "kind": ChoiceField(
            ru="Что подготовлено",
            en="What is readied",
            default="action",
            choices=(
                Choice("action", "Действие", "Action"),
                Choice("maneuver", "Манёвр", "Maneuver"),
            ),
        ),
        "what": StrField(
            ru="Действие или манёвр", en="Action or maneuver", max_length=READY_TEXT_MAX
        ),
        "trigger": StrField(ru="Триггер", en="Trigger", max_length=READY_TEXT_MAX),
        "round": IntField(ru="Раунд", en="Round", default=0, min=0),
    },
)

COMBATANT = ObjectField(
    ru="Участник боя",
    en="Combatant",
    fields={
        "id": StrField(ru="Идентификатор", en="Id", required=True, max_length=64, internal=True),
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "side": ChoiceField(ru="Сторона", en="Side", default="pcs", choices=SIDES),
        "surprised": BoolField(ru="Застигнут врасплох", en="Surprised"),
        "reaction_used": BoolField(ru="Реакция потрачена", en="Reaction spent"),
        "acted": BoolField(ru="Уже ходил в этом раунде", en="Has acted this round"),
        "out": BoolField(
            ru="Не может ходить (мёртв, без сознания)", en="Cannot act (dead, unconscious)"
        ),
        "pet_of": StrField(
            ru="Питомец (ходит по команде хозяина)",
            en="Pet of (acts on its owner's Command)",
            max_length=64,
        ),
        "taunted_by": StrField(ru="Под насмешкой", en="Taunted by", max_length=64),
        "readied": READIED,
        "grabbing": StrField(ru="Держит в захвате", en="Grabbing", max_length=64),
        "extra_now": IntField(
            ru="Доп. действий немедленно (крит не в свой ход)",
            en="Extra actions to use at once (off-turn crit)",
            default=0,
            min=0,
            max=10,
        ),
    },
)

TURN = ObjectField(
    ru="Текущий ход",
    en="Current turn",
    nullable=True,
    default=None,
    fields={
        "combatant": StrField(ru="Чей ход", en="Whose turn", max_length=64),
        "round": IntField(ru="Раунд", en="Round", default=1, min=0),
        "maneuvers": IntField(ru="Манёвров потрачено", en="Maneuvers spent", default=0, min=0),
        "actions": IntField(ru="Действий потрачено", en="Actions spent", default=0, min=0),
        "extra_actions": IntField(
            ru="Доп. действий от критов", en="Extra actions from crits", default=0, min=0
        ),
        "extra_used": IntField(ru="Из них потрачено", en="Extra actions spent", default=0, min=0),
        "move_left": IntField(
            ru="Осталось клеток текущего «Передвижения»",
            en="Squares left of the current Move",
            default=0,
            min=0,
        ),
        "moved": IntField(ru="Пройдено за ход", en="Squares moved this turn", default=0, min=0),
        "log": ListField(
            ru="Что потрачено", en="Spent", item=ChoiceField(default="free", choices=COSTS)
        ),
    },
)

COMBAT = ObjectField(
    ru="Бой",
    en="Combat",
    nullable=True,
    default=None,
    fields={
        "round": IntField(ru="Раунд", en="Round", default=0, min=0, max=100_000),
        "first": ChoiceField(
            ru="Первыми ходят",
            en="Acting first",
            default="",
            choices=(Choice("", "—", "—"), *SIDES),
        ),
        "initiative_roll": IntField(
            ru="Бросок инициативы", en="Initiative roll", nullable=True, default=None, min=1
        ),
        "combatants": ListField(ru="Участники", en="Combatants", item=COMBATANT, max_items=100),
        "current": StrField(ru="Чей ход", en="Whose turn", max_length=64),
        "turn": TURN,
        # «Бой › Кто ходит первым?»: "a player the Referee picks" rolls the side initiative; the web
        # layer keeps that player's id here so the roll can come from their own browser.
        "roller": StrField(ru="Бросает инициативу", en="Rolls the initiative", max_length=64),
    },
)

# --- travel («Путешествие по суше») -----------------------------------------------------------

HEX = ObjectField(
    ru="Гекс",
    en="Hex",
    nullable=True,
    default=None,
    fields={
        "q": IntField(ru="Столбец", en="Column", default=0),
        "r": IntField(ru="Ряд", en="Row", default=0),
    },
)

ROLE_ENTRY = ObjectField(
    ru="Дорожная роль",
    en="Travel role",
    fields={
        "name": StrField(ru="Кто", en="Who", required=True, max_length=100),
        "role": ChoiceField(ru="Роль", en="Role", default="helper", choices=ROLES),
        "task": ChoiceField(ru="Задача", en="Task", default="forage", choices=TASK_CHOICES),
        "done": BoolField(ru="Проверка сделана", en="Check made"),
        "tier": IntField(ru="Ступень", en="Tier", nullable=True, default=None, min=1, max=3),
        "allies": ListField(
            ru="Союзники (Помочь всем, Противостоять Миазме)",
            en="Allies (Help everyone, Counter the Miasma)",
            item=StrField(max_length=100),
            max_items=4,
        ),
        "quarry": StrField(
            ru="Кого выслеживаете (Рефери согласен)",
            en="Quarry (the Referee agrees)",
            max_length=QUARRY_MAX,
        ),
    },
)

TRAVEL = ObjectField(
    ru="Путешествие",
    en="Travel",
    nullable=True,
    default=None,
    fields={
        "day": IntField(ru="День пути", en="Travel day", default=0, min=0, max=100_000),
        "hex": HEX,
        "seen_hex": HEX,
        "goal": HEX,
        "lost": BoolField(ru="Заблудились", en="Lost"),
        "terrain": StrField(ru="Местность", en="Terrain", max_length=60),
        "in_miasma": BoolField(ru="Под открытым небом (Миазма)", en="In the Miasma", default=True),
        "pace": ChoiceField(
            ru="Темп", en="Pace", default="normal", choices=(Choice("", "—", "—"), *PACE_CHOICES)
        ),
        "slowest_speed": IntField(
            ru="Самая низкая скорость", en="Slowest speed", default=5, min=0, max=99
        ),
        "road": BoolField(ru="Весь день по дороге", en="On a road all day"),
        "river": ChoiceField(ru="Река", en="River", default="none", choices=RIVER),
        "base_hexes": IntField(ru="Гексов по темпу", en="Hexes by pace", default=0),
        "hex_mod": IntField(ru="Поправка гексов", en="Hex modifier", default=0),
        "base_threshold": IntField(ru="Порог по темпу", en="Threshold by pace", default=7),
        "travel_mod": IntField(ru="Поправка порога пути", en="Travel threshold mod", default=0),
        "rest_mod": IntField(ru="Поправка порога отдыха", en="Rest threshold mod", default=0),
        "hexes": IntField(ru="Гексов сегодня", en="Hexes today", default=0, min=0),
        "travel_threshold": IntField(
            ru="Порог дорожных встреч", en="Travel threshold", default=7, min=1, max=10
        ),
        "rest_threshold": IntField(
            ru="Порог встреч на отдыхе", en="Rest threshold", default=7, min=1, max=10
        ),
        "role_net": IntField(
            ru="Преимущество ролей (+1/0/−1)", en="Role advantage (+1/0/−1)", default=0
        ),
        "roles": ListField(ru="Роли", en="Roles", item=ROLE_ENTRY, max_items=20),
        "helping": ListField(
            ru="Помогают вместо роли",
            en="Helping instead of a role",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кто", en="Who", max_length=100),
                    "helps": StrField(ru="Кому", en="Whom", max_length=100),
                }
            ),
        ),
        "role_bonus": ListField(
            ru="Бонусы к проверкам ролей (Помочь всем)",
            en="Role-check bonuses (Help everyone)",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кому", en="Whom", max_length=100),
                    "bonus": IntField(ru="Бонус", en="Bonus", default=0, min=-4, max=4),
                }
            ),
        ),
        "miasma_advantage": ListField(
            ru="Преимущество на бросок против Миазмы",
            en="Advantage on the Miasma save",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кому", en="Whom", max_length=100),
                    "count": IntField(ru="Сколько", en="How many", default=1, min=1, max=2),
                }
            ),
        ),
        "crafting_bonus": IntField(
            ru="Бонус к изготовлению в лагере", en="Camp crafting bonus", default=0, min=0, max=4
        ),
        "rations_found": IntField(ru="Добыто пайков", en="Rations gained", default=0, min=0),
        "hides_found": IntField(ru="Добыто шкур", en="Hides gained", default=0, min=0),
        "prompts": ListField(
            ru="Просьбы к Рефери",
            en="Prompts for the Referee",
            max_items=40,
            item=ObjectField(
                fields={
                    "kind": StrField(max_length=40),
                    "by": StrField(max_length=100),
                    "note": StrField(max_length=200),
                }
            ),
        ),
        "moved": IntField(ru="Пройдено гексов сегодня", en="Hexes moved today", default=0, min=0),
        "arrived": StrField(ru="Прибыли в", en="Arrived at", max_length=100),
        "encounters": ListField(
            ru="Проверки на встречу (только Рефери)",
            en="Encounter checks (Referee only)",
            max_items=40,
            item=ObjectField(
                fields={
                    "kind": StrField(max_length=20),
                    "day": IntField(default=0, min=0),
                    "roll": IntField(default=1, min=1, max=10),
                    "threshold": IntField(default=7, min=1, max=10),
                    "encounter": BoolField(),
                }
            ),
        ),
        "drift": ListField(
            ru="Блуждание (только Рефери)",
            en="Drift while lost (Referee only)",
            max_items=100,
            item=ObjectField(
                fields={
                    "day": IntField(default=0, min=0),
                    "roll": IntField(default=1, min=1, max=6),
                    "direction": StrField(max_length=4),
                    "to": HEX,
                }
            ),
        ),
    },
)

PENDING_ENCOUNTER = ObjectField(
    ru="Ожидаемая встреча",
    en="Pending encounter",
    fields={
        "signed_turn": IntField(ru="Знак на ходу", en="Sign on turn", default=0, min=0),
        "due_turn": IntField(ru="Встреча на ходу", en="Due on turn", default=0, min=0),
        "roll": IntField(ru="Бросок", en="Roll", default=9, min=1, max=10),
        "source": StrField(ru="Откуда", en="Source", max_length=40),
    },
)

REST = ObjectField(
    ru="Отдых",
    en="Rest",
    nullable=True,
    default=None,
    fields={
        "place": ChoiceField(
            ru="Где",
            en="Where",
            default="dungeon",
            choices=(
                Choice("dungeon", "В подземелье", "In a dungeon"),
                Choice("wild", "В глуши", "In the wild"),
                Choice("town", "В городе", "In town"),
            ),
        ),
        "miasma": BoolField(ru="В Миазме", en="In the Miasma"),
        "hide_camp_by": StrField(ru="Лагерь укрыл", en="Camp hidden by", max_length=100),
        "midpoint_done": BoolField(ru="Середина пройдена", en="Midpoint passed"),
        "encounter_checked": BoolField(ru="Проверка на встречу", en="Encounter checked"),
        "threshold": IntField(ru="Порог встречи", en="Encounter threshold", default=9, min=1),
        "lights_rolled": BoolField(ru="Огни уже бросали", en="Lights already rolled"),
    },
)

CAMPAIGN = ObjectField(
    ru="Часы подземелья",
    en="Dungeon clock",
    fields={
        "in_dungeon": BoolField(ru="В подземелье", en="In a dungeon"),
        "dungeon": StrField(ru="Подземелье", en="Dungeon", max_length=100),
        "turn": IntField(ru="Ход подземелья", en="Dungeon turn", default=0, min=0, max=1_000_000),
        "first_visit": BoolField(ru="Первый визит", en="First visit"),
        "visited": ListField(
            ru="Посещённые подземелья (награда за жадность не повторяется)",
            en="Dungeons visited (the greed reward never repeats)",
            item=StrField(max_length=100),
            max_items=500,
        ),
        "populated": BoolField(
            ru="Уровень густо населён (больше 20 существ)",
            en="Densely populated level (more than 20 creatures)",
        ),
        "chaos": BoolField(
            ru="Оставлено много хаоса (след из тел)", en="Lots of chaos left (trail of bodies)"
        ),
        "threshold_bonus": IntField(
            ru="Поправка порога встречи", en="Threshold adjustment", default=0, min=-9, max=9
        ),
        "pending_encounters": ListField(
            ru="Ожидаемые встречи", en="Pending encounters", item=PENDING_ENCOUNTER, max_items=20
        ),
        "effects": ListField(ru="Эффекты вокруг", en="Area effects", item=EFFECT, max_items=30),
        "rooms_left": IntField(
            ru="Комнат до конца хода (вариант 1d6 комнат)",
            en="Rooms left this turn (1d6-rooms variant)",
            nullable=True,
            default=None,
            min=0,
            max=6,
        ),
        "outside_hours": IntField(
            ru="Часы вне подземелья (остаток)", en="Hours outside (remainder)", default=0, min=0
        ),
        "rest": REST,
        "combat": COMBAT,
        "travel": TRAVEL,
    },
)

SETTINGS = settings_spec(
    {
        "turn_minutes": IntField(
            ru="Длина хода подземелья, минут (30; спокойнее 60, напряжённее 20)",
            en="Dungeon turn length, minutes (30; calmer 60, tenser 20)",
            default=30,
            min=1,
            max=240,
        ),
        "turn_mode": ChoiceField(
            ru="Конец хода",
            en="Turn ends",
            default="timer",
            choices=(
                Choice("timer", "По таймеру", "On the timer"),
                Choice("rooms", "После 1d6 комнат", "After 1d6 rooms"),
            ),
        ),
        "damage_spill": BoolField(
            ru="Остаток урона переходит: доспех → Выносливость → раны",
            en="Leftover damage spills over: armour → Stamina → wounds",
            default=True,
        ),
        "suffocation_piercing": BoolField(
            ru="Урон от удушья пробивающий", en="Suffocation damage is piercing"
        ),
        "unconscious_tier3_on_doom": BoolField(
            ru="Атака по бессознательному — 3-я ступень даже при роке",
            en="An attack on an unconscious target is tier 3 even on a doom",
            default=True,
        ),
        "roll_with_pending_encounter": BoolField(
            ru="Проверять встречу, даже если встреча уже ожидается",
            en="Check for encounters even when one is pending",
            default=True,
        ),
        "rest_lights_roll": BoolField(
            ru="Непотушенный свет на отдыхе бросает износ раз в 2 часа",
            en="A light left burning during a rest rolls wear every 2 hours",
            default=True,
        ),
        "magic_in_inventory": BoolField(
            ru="Надетые магические предметы занимают и слоты инвентаря",
            en="Worn magic items also use inventory slots",
        ),
        "counter_unarmed": BoolField(
            ru="Персонаж с пустыми руками может контратаковать (безоружный урон)",
            en="An empty-handed character may counterattack (unarmed damage)",
        ),
        "counter_blessed": BoolField(
            ru="Благословение добавляет урон и контратаке",
            en="Blessed adds its damage to counterattacks too",
            default=True,
        ),
    }
)


# --- cleaning ---------------------------------------------------------------------------------


def clean_settings(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The campaign's settings with defaults filled in."""
    return validate(SETTINGS, settings or {}, path="settings")


def clean_campaign(campaign: dict[str, Any] | None = None) -> dict[str, Any]:
    """A validated deep copy of the dungeon clock."""
    clean = validate(CAMPAIGN, campaign or {}, path="campaign")
    ids = [e["id"] for e in clean["effects"]]
    if len(ids) != len(set(ids)):
        raise fail("campaign.effects", "Эффекты с одинаковым id.", "Duplicate effect ids.")
    return clean


def clean_character(
    state: dict[str, Any], *, settings: dict[str, Any] | None = None, path: str = ""
) -> dict[str, Any]:
    """A validated deep copy of a creature sheet, with the slot rules checked."""
    magic_in_inventory = bool((settings or {}).get("magic_in_inventory", False))
    clean = validate(SHEET, state, path=path)
    clean["inventory"] = validate_inventory(
        clean["inventory"], magic_in_inventory=magic_in_inventory
    )
    prefix = f"{path}." if path else ""
    if clean["stamina"] > clean["stamina_max"]:
        raise fail(
            f"{prefix}stamina",
            "Выносливость не может быть выше максимума.",
            "Stamina cannot exceed its maximum.",
        )
    natural = clean["armour_defence"]
    if natural["max"] == 0 and natural["value"] > 0:
        natural["max"] = natural["value"]
    if natural["value"] > natural["max"]:
        raise fail(
            f"{prefix}armour_defence",
            "Защита доспеха выше максимума.",
            "Armour Defence above its maximum.",
        )
    keys = [e["key"] for e in clean["expertises"]]
    if len(keys) != len(set(keys)):
        raise fail(
            f"{prefix}expertises", "Экспертиза указана дважды.", "An expertise is listed twice."
        )
    for i, entry in enumerate(clean["expertises"]):
        if entry["uses"] > entry["max"]:
            raise fail(
                f"{prefix}expertises.{i}.uses",
                "Применений больше максимума.",
                "More uses than the maximum.",
            )
    conditions = [c["key"] for c in clean["conditions"]]
    if len(conditions) != len(set(conditions)):
        raise fail(
            f"{prefix}conditions",
            "Второй экземпляр состояния получить нельзя.",
            "A condition cannot be had twice.",
        )
    if clean["kind"] == "object" and clean["conditions"]:
        raise fail(
            f"{prefix}conditions",
            "Предметы не получают состояний.",
            "Objects take no conditions.",
        )
    effects = [e["id"] for e in clean["effects"]]
    if len(effects) != len(set(effects)):
        raise fail(f"{prefix}effects", "Эффекты с одинаковым id.", "Duplicate effect ids.")
    return clean
