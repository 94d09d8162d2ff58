"""Crows vocabulary as data: characteristics, the 30 expertises, sizes, conditions, magic
slots, wear-die keywords and the small tables of the rulebook («Характеристики» to «Свет»), then
combat sizes and maneuvers, travel paces, roles and tasks, the Miasma table, spell fields and
the backlash table («Бой» to «Изготовление»).

Everything the UI shows carries the rulebook's Russian term and an English one; rules code uses
the English keys only. Each entry cites its rulebook section (chapter › heading) so a reader can
check it against the text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from systems.core.schema import Choice

# --- characteristics («Характеристики») -------------------------------------------------------

CHARACTERISTICS: tuple[Choice, ...] = (
    Choice("agility", "Ловкость", "Agility"),
    Choice("reason", "Разум", "Reason"),
    Choice("strength", "Сила", "Strength"),
)
CHARACTERISTIC_KEYS: tuple[str, ...] = tuple(c.key for c in CHARACTERISTICS)
CHARACTERISTIC_MIN, CHARACTERISTIC_MAX = -5, 5  # «Характеристики»


def characteristic_label(key: str) -> Choice:
    for choice in CHARACTERISTICS:
        if choice.key == key:
            return choice
    raise KeyError(key)


# --- expertises («Проверки › Экспертизы») -----------------------------------------------------

GENERAL, MAGICAL, WEAPON = "general", "magical", "weapon"
EXPERTISE_CATEGORIES: tuple[Choice, ...] = (
    Choice(GENERAL, "Общие", "General"),
    Choice(MAGICAL, "Магические", "Magical"),
    Choice(WEAPON, "Оружейные", "Weapon"),
)


@dataclass(frozen=True)
class Expertise:
    """One expertise of the rulebook's three tables, with what it is for (Применение)."""

    key: str
    ru: str
    en: str
    category: str
    use_ru: str
    use_en: str
    source: str

    def as_dict(self) -> dict[str, str]:
        return {
            "key": self.key,
            "ru": self.ru,
            "en": self.en,
            "category": self.category,
            "use": {"ru": self.use_ru, "en": self.use_en},
        }


# The rulebook's table each category's expertises come from.
EXPERTISE_TABLES: dict[str, str] = {
    GENERAL: "«Проверки › Общие экспертизы»",
    MAGICAL: "«Проверки › Магические экспертизы»",
    WEAPON: "«Проверки › Оружейные экспертизы»",
}


def _e(key: str, ru: str, en: str, cat: str, use_ru: str, use_en: str) -> Expertise:
    return Expertise(key, ru, en, cat, use_ru, use_en, EXPERTISE_TABLES[cat])


# The rulebook's order of each table.
EXPERTISES: tuple[Expertise, ...] = (
    _e(
        "alchemy",
        "Алхимия",
        "Alchemy",
        GENERAL,
        "Делать зелья, яды и бомбы и разбираться в них",
        "Make and understand potions, poisons and bombs",
    ),
    _e(
        "athletics",
        "Атлетика",
        "Athletics",
        GENERAL,
        "Лазать, прыгать и плавать",
        "Climb, jump and swim",
    ),
    _e(
        "blacksmithing",
        "Кузнечное дело",
        "Blacksmithing",
        GENERAL,
        "Делать металлические инструменты, доспехи и оружие и разбираться в них",
        "Make and understand metal tools, armour and weapons",
    ),
    _e(
        "enchanting",
        "Зачарование",
        "Enchanting",
        GENERAL,
        "Делать магические предметы и разбираться в них",
        "Make and understand magic items",
    ),
    _e(
        "endurance",
        "Стойкость",
        "Endurance",
        GENERAL,
        "Долго выдерживать тяжёлую физическую или умственную нагрузку",
        "Withstand long physical or mental strain",
    ),
    _e(
        "gymnastics",
        "Гимнастика",
        "Gymnastics",
        GENERAL,
        "Двигаться по шаткой или узкой опоре; кувыркаться",
        "Move on unsteady or narrow footing; tumble",
    ),
    _e(
        "animal_handling",
        "Обращение с питомцами",
        "Animal Handling",
        GENERAL,
        "Взаимодействовать с питомцами",
        "Deal with pets",
    ),
    _e(
        "history",
        "Знание истории",
        "History",
        GENERAL,
        "Знать о значимых событиях прошлого",
        "Know the important events of the past",
    ),
    _e(
        "heavy_lifting",
        "Подъём тяжестей",
        "Heavy Lifting",
        GENERAL,
        "Поднимать, носить и бросать тяжёлые предметы",
        "Lift, carry and throw heavy things",
    ),
    _e(
        "magic_lore",
        "Знание магии",
        "Magic Lore",
        GENERAL,
        "Знать о магических местах, заклинаниях, предметах и явлениях",
        "Know magical places, spells, items and phenomena",
    ),
    _e(
        "monster_lore",
        "Знание монстров",
        "Monster Lore",
        GENERAL,
        "Знать повадки, сильные и слабые стороны монстров",
        "Know monsters' habits, strengths and weaknesses",
    ),
    _e(
        "nature_lore",
        "Знание природы",
        "Nature Lore",
        GENERAL,
        "Знать о растениях, животных и погоде",
        "Know plants, animals and weather",
    ),
    _e(
        "navigation",
        "Ориентирование",
        "Navigation",
        GENERAL,
        "Путешествовать, не сбиваясь с пути",
        "Travel without losing the way",
    ),
    _e(
        "lockpicking",
        "Взлом замков",
        "Lockpicking",
        GENERAL,
        "Открывать замок без ключа",
        "Open a lock without its key",
    ),
    _e(
        "religion_lore",
        "Знание религии",
        "Religion Lore",
        GENERAL,
        "Знать религиозные мифы и обряды",
        "Know religious myths and rites",
    ),
    _e(
        "search",
        "Поиск",
        "Search",
        GENERAL,
        "Искать в окружении важные детали и предметы",
        "Find important details and things around you",
    ),
    _e(
        "stealth",
        "Скрытность",
        "Stealth",
        GENERAL,
        "Прятаться и красться",
        "Hide and sneak",
    ),
    _e(
        "thievery",
        "Воровство",
        "Thievery",
        GENERAL,
        "Отключать механизмы, открывать замки, шарить по карманам, ловкость рук в целом",
        "Disable mechanisms, open locks, pick pockets, sleight of hand",
    ),
    _e(
        "transmutation",
        "Преобразование",
        "Transmutation",
        MAGICAL,
        "Творить заклинания преобразования",
        "Cast transmutation spells",
    ),
    _e(
        "beneficence",
        "Благодеяние",
        "Beneficence",
        MAGICAL,
        "Творить заклинания благодеяния",
        "Cast beneficence spells",
    ),
    _e(
        "summoning",
        "Призыв",
        "Summoning",
        MAGICAL,
        "Творить заклинания призыва",
        "Cast summoning spells",
    ),
    _e(
        "elements",
        "Стихии",
        "Elements",
        MAGICAL,
        "Творить заклинания стихий",
        "Cast elemental spells",
    ),
    _e(
        "illusion",
        "Иллюзии",
        "Illusion",
        MAGICAL,
        "Творить заклинания иллюзий",
        "Cast illusion spells",
    ),
    _e(
        "necromancy",
        "Некромантия",
        "Necromancy",
        MAGICAL,
        "Творить заклинания некромантии",
        "Cast necromancy spells",
    ),
    _e(
        "bludgeoning",
        "Дробящее",
        "Bludgeoning",
        WEAPON,
        "Атаковать дробящим оружием",
        "Attack with bludgeoning weapons",
    ),
    _e("bow", "Лук", "Bow", WEAPON, "Атаковать луками", "Attack with bows"),
    _e(
        "chopping",
        "Рубящее",
        "Chopping",
        WEAPON,
        "Атаковать рубящим оружием",
        "Attack with chopping weapons",
    ),
    _e(
        "slashing",
        "Режущее",
        "Slashing",
        WEAPON,
        "Атаковать режущим оружием",
        "Attack with slashing weapons",
    ),
    _e(
        "piercing",
        "Колющее",
        "Piercing",
        WEAPON,
        "Атаковать колющим оружием",
        "Attack with piercing weapons",
    ),
    _e(
        "unarmed",
        "Без оружия",
        "Unarmed",
        WEAPON,
        "Атаковать естественным оружием",
        "Attack with natural weapons",
    ),
)
EXPERTISES_BY_KEY: dict[str, Expertise] = {e.key: e for e in EXPERTISES}
EXPERTISE_CHOICES: tuple[Choice, ...] = tuple(Choice(e.key, e.ru, e.en) for e in EXPERTISES)

# --- sizes («Размеры»; «Размеры › Размеры») ---------------------------------------------------

SIZES: tuple[Choice, ...] = (
    Choice("tiny", "Крошечный", "Tiny"),
    Choice("small", "Маленький", "Small"),
    Choice("medium", "Средний", "Medium"),
    Choice("large", "Большой", "Large"),
    Choice("huge", "Огромный", "Huge"),
    Choice("colossal", "Охренеть!", "Colossal"),
)
SIZE_KEYS: tuple[str, ...] = tuple(s.key for s in SIZES)


def size_index(size: str) -> int:
    """Sizes are ordered Tiny < ... < Охренеть! («Размеры»)."""
    return SIZE_KEYS.index(size)


# Corpse slots and stack limit (Слоты трупов, «Слоты инвентаря › Слоты трупов»).
CORPSE_SLOTS: dict[str, tuple[int, int]] = {
    "tiny": (1, 3),
    "small": (2, 1),
    "medium": (4, 1),
    "large": (8, 1),
    "huge": (16, 1),
    "colossal": (32, 1),
}

# Butcher a corpse: d6 count of parts by size («Отдых › Разделать труп»).
BUTCHER_DICE: dict[str, int] = {
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "colossal": 4,
}

# --- conditions («Состояния») -------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """A condition and whether it ends at the end of a dungeon turn."""

    key: str
    ru: str
    en: str
    source: str
    ends_at_turn_end: bool
    effect_ru: str
    effect_en: str
    ends_ru: str
    ends_en: str

    def as_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "ru": self.ru,
            "en": self.en,
            "ends_at_turn_end": self.ends_at_turn_end,
            "effect": {"ru": self.effect_ru, "en": self.effect_en},
            "ends": {"ru": self.ends_ru, "en": self.ends_en},
        }


CONDITIONS: tuple[Condition, ...] = (
    Condition(
        "blessed",
        "Благословлён",
        "Blessed",
        "«Состояния › Благословлён»",
        True,
        "Преимущество на все проверки; атаки наносят доп. урон, равный характеристике атаки.",
        "Advantage on all checks; attacks deal extra damage equal to the attack's characteristic.",
        "В конце хода подземелья.",
        "At the end of the dungeon turn.",
    ),
    Condition(
        "grabbed",
        "Схвачен",
        "Grabbed",
        "«Состояния › Схвачен»",
        False,
        "Скорость 0, нельзя фланкировать, атаки против вас с преимуществом; вы двигаетесь "
        "вместе с держащим.",
        "Speed 0, cannot flank, attacks against you have advantage; you move with the grabber.",
        "Держащий отошёл дальше дальности захвата, отпустил, погиб, сбит с ног, потерял "
        "сознание; манёвр «Вырваться»; телепортация.",
        "The grabber moves out of range, lets go, dies, is knocked prone or unconscious; "
        "Escape; teleporting.",
    ),
    Condition(
        "prone",
        "Сбит с ног",
        "Prone",
        "«Состояния › Сбит с ног»",
        False,
        "Скорость вдвое ниже, помеха на ваши ближние атаки, нельзя фланкировать; ближние атаки "
        "против вас с преимуществом, дальние с помехой.",
        "Half speed, disadvantage on your melee attacks, cannot flank; melee attacks against "
        "you have advantage, ranged ones disadvantage.",
        "Манёвр «Встать» при скорости 1 или выше.",
        "The Stand maneuver with speed 1 or more.",
    ),
    Condition(
        "vulnerable",
        "Уязвим",
        "Vulnerable",
        "«Состояния › Уязвим»",
        True,
        "Каждый раз, получая урон, вы получаете дополнительно 1d6 урона.",
        "Each time you take damage, you take 1d6 more.",
        "В конце хода подземелья.",
        "At the end of the dungeon turn.",
    ),
    Condition(
        "unconscious",
        "Без сознания",
        "Unconscious",
        "«Состояния › Без сознания»",
        False,
        "Сбиты с ног, скорость 0, ни действий, ни манёвров, ни реакций; рок на проверках "
        "Ловкости и Силы; двойная помеха на Разум, чтобы заметить; атаки против вас — 3-я "
        "ступень.",
        "Prone, speed 0, no actions, maneuvers or reactions; doom on Agility and Strength "
        "checks; double disadvantage on Reason to notice; attacks against you are tier 3.",
        "Любой урон; громкий шум в пределах 10 клеток; оглушённые существа Рефери приходят в "
        "себя в конце хода подземелья.",
        "Any damage; a loud noise within 10 squares; knocked-out Referee creatures wake at the "
        "end of the dungeon turn.",
    ),
    Condition(
        "weakened",
        "Ослаблен",
        "Weakened",
        "«Состояния › Ослаблен»",
        True,
        "Помеха на все проверки.",
        "Disadvantage on all checks.",
        "В конце хода подземелья.",
        "At the end of the dungeon turn.",
    ),
)
CONDITIONS_BY_KEY: dict[str, Condition] = {c.key: c for c in CONDITIONS}
CONDITION_CHOICES: tuple[Choice, ...] = tuple(Choice(c.key, c.ru, c.en) for c in CONDITIONS)
TURN_END_CONDITIONS: tuple[str, ...] = tuple(c.key for c in CONDITIONS if c.ends_at_turn_end)

# What ends each condition («Состояния»; «Урон и смерть › Выносливость»; «Отдых»;
# «Бой › Телепортация»), for ``remove_condition(reason=...)``.
END_TRIGGERS: tuple[Choice, ...] = (
    Choice("referee", "Решение Рефери", "Referee's ruling"),
    Choice("turn_end", "Конец хода подземелья", "End of the dungeon turn"),
    Choice("rest_midpoint", "Середина отдыха", "Midpoint of a rest"),
    Choice("out_of_range", "Держащий отошёл дальше дальности захвата", "Grabber out of range"),
    Choice("released", "Держащий отпустил", "The grabber let go"),
    Choice("grabber_died", "Держащий погиб", "The grabber died"),
    Choice("grabber_prone", "Держащий сбит с ног", "The grabber was knocked prone"),
    Choice("grabber_unconscious", "Держащий потерял сознание", "The grabber fell unconscious"),
    Choice("escape", "Манёвр «Вырваться»", "The Escape maneuver"),
    Choice("teleport", "Телепортация", "Teleporting"),
    Choice("stand", "Манёвр «Встать»", "The Stand maneuver"),
    Choice("damage", "Получен урон", "Took damage"),
    Choice("loud_noise", "Громкий шум в пределах 10 клеток", "A loud noise within 10 squares"),
    Choice("knocked_out_wakes", "Оглушённый приходит в себя", "A knocked-out creature comes to"),
)
CONDITION_END_TRIGGERS: dict[str, tuple[str, ...]] = {
    "blessed": ("turn_end", "rest_midpoint"),  # «Состояния › Благословлён»; «Отдых»
    "vulnerable": ("turn_end", "rest_midpoint"),  # «Состояния › Уязвим»; «Отдых»
    "weakened": ("turn_end", "rest_midpoint"),  # «Состояния › Ослаблен»; «Отдых»
    "grabbed": (
        "out_of_range",
        "released",
        "grabber_died",
        "grabber_prone",
        "grabber_unconscious",
        "escape",
        "teleport",
    ),  # «Состояния › Схвачен»; «Бой › Телепортация»
    "prone": ("stand",),  # «Состояния › Сбит с ног»
    "unconscious": (
        "damage",
        "loud_noise",
        "knocked_out_wakes",
    ),  # «Состояния › Без сознания»; «Урон и смерть › Выносливость»
}

# --- magic item slots («Слоты инвентаря › Слоты магических предметов») ------------------------
# "Пояс" and "Руки" also name inventory slot types, so the keys are distinct.

MAGIC_SLOTS: tuple[Choice, ...] = (
    Choice("head", "Голова", "Head"),
    Choice("neck", "Шея", "Neck"),
    Choice("waist", "Пояс (магический)", "Waist"),
    Choice("arms", "Руки (магические)", "Arms"),
    Choice("finger", "Палец", "Finger"),
    Choice("feet", "Ступни", "Feet"),
)
MAGIC_SLOT_KEYS: tuple[str, ...] = tuple(m.key for m in MAGIC_SLOTS)

# --- wear dice keywords («Кости износа › Кости износа снаряжения») ----------------------------

USELESS, REFUEL, REST, ACTIVATION, DUNGEON_TURN = (
    "useless",
    "refuel",
    "rest",
    "activation",
    "dungeon_turn",
)
WEAR_KEYWORDS: tuple[Choice, ...] = (
    Choice(USELESS, "Бесполезен", "Useless"),
    Choice(REFUEL, "Заправка", "Refuel"),
    Choice(REST, "Отдых", "Rest"),
    Choice(ACTIVATION, "Активация", "Activation"),
    Choice(DUNGEON_TURN, "Ход подземелья", "Dungeon turn"),
)

# Effect durations («Кости износа»; «Заклинания › Длительность»).
EFFECT_DURATIONS: tuple[Choice, ...] = (
    Choice("wear_dice", "Кости износа", "Wear dice"),
    Choice("dungeon_turn", "До конца хода подземелья", "Until the end of the dungeon turn"),
    Choice("rest", "До конца отдыха", "Until the end of a rest"),
    Choice("permanent", "Пока не снимут", "Until removed"),
    Choice(
        "miasma", "Пока вы в Миазме", "Until you leave the Miasma"
    ),  # «Путешествие по суше › Эффекты Миазмы»
    Choice(
        "cruelty", "Пока есть жестокость", "While you have cruelty"
    ),  # «Путешествие по суше › Эффекты Миазмы»
)

# --- light («Свет») ------------------------------------------------------------------------

BRIGHT, DIM, DARK = "bright", "dim", "dark"
LIGHT_LEVELS: tuple[Choice, ...] = (
    Choice(BRIGHT, "Яркий свет", "Bright light"),
    Choice(DIM, "Тусклый свет", "Dim light"),
    Choice(DARK, "Темнота", "Darkness"),
)

# Яркость костра («Свет › Яркость костра»): size -> (bright squares, dim squares).
CAMPFIRE: dict[str, tuple[int, int]] = {
    "tiny": (0, 5),
    "small": (5, 5),
    "medium": (10, 10),
    "large": (15, 15),
    "huge": (20, 20),
}

# --- creatures --------------------------------------------------------------------------------

CREATURE_KINDS: tuple[Choice, ...] = (
    Choice("pc", "Ворон (персонаж игрока)", "Crow (player character)"),
    Choice("hireling", "Наёмник", "Hireling"),
    Choice("pet", "Питомец", "Pet"),
    Choice("monster", "Существо Рефери", "Referee creature"),
    Choice("object", "Предмет", "Object"),
)
# Who takes wounds («Урон и смерть › Раны»): PCs, other humans and animals.
WOUND_KINDS = frozenset({"pc", "hireling", "pet"})

# --- rest activities («Отдых › Занятия на отдыхе») --------------------------------------------

ACTIVITIES: tuple[Choice, ...] = (
    Choice("", "Без занятия", "No activity"),
    Choice("craft", "Изготовить снаряжение", "Craft gear"),
    Choice("butcher", "Разделать труп", "Butcher a corpse"),
    Choice("identify", "Опознать предмет", "Identify an item"),
    Choice("prepare", "Подготовиться к задаче", "Prepare for a task"),
    Choice("repair", "Починить доспех", "Repair armour"),
    Choice("hide_camp", "Укрыть лагерь", "Hide camp"),
    Choice("tend_wounds", "Обработать раны", "Tend wounds"),
)
# The rest activities (Отдых: one per character per rest).
REST_ACTIVITIES: tuple[str, ...] = (
    "craft",
    "butcher",
    "identify",
    "prepare",
    "repair",
    "hide_camp",
    "tend_wounds",
)

# --- dungeon encounters («Встречи в подземелье») ----------------------------------------------

ENCOUNTER_THRESHOLD_DEFAULT = 9
# by analogy with road checks, «Путешествие по суше › Дорожные встречи»
ENCOUNTER_THRESHOLD_CAP = 10
GREED_PERCENT: dict[int, int] = {1: 30, 2: 20, 3: 10}  # «Ходы подземелья › Награда за жадность»
HOURS_PER_TURN_OUTSIDE = 2  # «Ходы подземелья › Вне подземелья»

# --- combat: size, space, reach («Бой › Досягаемость») ----------------------------------------

# size -> (squares on a side, reach)
SIZE_SPACE_REACH: dict[str, tuple[int, int]] = {  # «Бой › Размеры существ»
    "tiny": (1, 1),
    "small": (1, 1),
    "medium": (1, 1),
    "large": (2, 2),
    "huge": (3, 2),
    "colossal": (4, 3),  # the Referee may go bigger («Бой › Размеры существ»)
}
SQUARE_FEET = 5  # «Бой › Масштаб»

SIDES: tuple[Choice, ...] = (
    Choice("pcs", "Персонажи и союзники", "PCs and allies"),
    Choice("enemies", "Враги", "Enemies"),
)
INITIATIVE_PCS_FROM = 6  # «Бой › Кто ходит первым?»: 6+ the PCs first, ≤5 the enemies

COSTS: tuple[Choice, ...] = (
    Choice("maneuver", "Манёвр", "Maneuver"),
    Choice("action", "Действие", "Action"),
    Choice("reaction", "Реакция", "Reaction"),
    Choice("free", "Без затрат", "Free"),
)

COVER: tuple[Choice, ...] = (
    Choice("none", "Нет укрытия", "No cover"),
    Choice("half", "Укрытие (закрыта хотя бы наполовину)", "Cover (at least half covered)"),
    Choice("full", "Полностью закрыта (нет линии эффекта)", "Fully covered (no line of effect)"),
)
CONCEALMENT: tuple[Choice, ...] = (
    Choice("none", "Нет завесы", "No concealment"),
    Choice("light", "Лёгкая завеса", "Light concealment"),
    Choice("heavy", "Плотная завеса", "Heavy concealment"),
    Choice("invisible", "Невидимость", "Invisible"),
)

# --- forced movement («Бой › Принудительное перемещение») -------------------------------------

FORCED_KINDS: tuple[Choice, ...] = (
    Choice("push", "Толчок", "Push"),
    Choice("slide", "Смещение", "Slide"),
)

# --- tipping objects («Бой › Опрокидывание предметов») ----------------------------------------

TIP_BASE_DICE = 1  # 1d10 for an object of the creature's size («Бой › Опрокидывание предметов»)
TIP_DICE_PER_SIZE = 2  # +2d10 per size category larger

# --- travel («Путешествие по суше») -----------------------------------------------------------

HEX_MILES = 5  # «Путешествие по суше › Гексы»


@dataclass(frozen=True)
class Pace:
    key: str
    ru: str
    en: str
    hexes: int
    threshold: int
    role_net: int  # +1 advantage, -1 disadvantage on every role check


PACES: tuple[Pace, ...] = (
    Pace("slow", "Медленный", "Slow", 1, 8, 1),  # «Путешествие по суше › Темп пути»
    Pace("normal", "Обычный", "Normal", 2, 7, 0),  # «Путешествие по суше › Темп пути»
    Pace("fast", "Быстрый", "Fast", 3, 6, -1),  # «Путешествие по суше › Темп пути»
)
PACES_BY_KEY: dict[str, Pace] = {p.key: p for p in PACES}
PACE_CHOICES: tuple[Choice, ...] = tuple(Choice(p.key, p.ru, p.en) for p in PACES)

RIVER: tuple[Choice, ...] = (
    Choice("none", "Нет", "None"),
    Choice(
        "cross",
        "Пересекаем реку или водоём без лодки",
        "Crossing a river or large water without a boat",
    ),
    Choice("upstream", "Вверх по течению", "Upstream"),
    Choice("downstream", "Вниз по течению", "Downstream"),
)
RIVER_HEXES: dict[str, int] = {
    "none": 0,
    "cross": -1,
    "upstream": -1,
    "downstream": 1,
}  # «Путешествие по суше › Реки и дороги»
ROAD_HEXES, ROAD_THRESHOLD = 1, -1  # «Путешествие по суше › Реки и дороги»
TRAVEL_THRESHOLD_MAX = 10  # «Путешествие по суше › Дорожные встречи»
TRAVEL_THRESHOLD_MIN = 1  # the rulebook sets no floor; a threshold never drops below 1


def speed_hexes(slowest_speed: int) -> int:
    """Hexes from the slowest creature's speed: ≤3 −1, 4–6 0, 7–9 +1, ≥10 +2
    («Путешествие по суше › Изменение темпа»)."""
    if slowest_speed <= 3:
        return -1
    if slowest_speed >= 10:
        return 2
    if slowest_speed >= 7:
        return 1
    return 0


ROLES: tuple[Choice, ...] = (
    Choice("helper", "Помощник", "Helper"),
    Choice("guide", "Проводник", "Guide"),
    Choice("scout", "Разведчик", "Scout"),
    Choice("tracker", "Следопыт", "Tracker"),
)
ROLE_ORDER: tuple[str, ...] = (
    "helper",
    "guide",
    "scout",
    "tracker",
)  # «Путешествие по суше › Порядок путешествия» (TN: trackers)
ROLE_LIMIT: dict[str, int] = {
    "helper": 3,
    "guide": 1,
    "scout": 3,
    "tracker": 3,
}  # «Путешествие по суше › Дорожные роли»


@dataclass(frozen=True)
class Task:
    """One travel task: its role, check and the rulebook's three results (``None`` = no effect)."""

    key: str
    role: str
    ru: str
    en: str
    source: str
    characteristics: tuple[str, ...]
    results: dict[str, tuple[str, str]]  # tier -> (ru, en)


def _res(t1: tuple[str, str], t2: tuple[str, str], t3: tuple[str, str]) -> dict:
    return {"1": t1, "2": t2, "3": t3}


NOTHING = ("Эффекта нет.", "No effect.")
LOST = ("Группа заблудилась.", "The party is lost.")

TASKS: tuple[Task, ...] = (
    Task(
        "counter_miasma",
        "helper",
        "Противостоять Миазме",
        "Counter the Miasma",
        "«Путешествие по суше › Противостоять Миазме»",
        ("reason",),
        _res(
            NOTHING,
            (
                "До четырёх существ по вашему выбору получают преимущество на бросок "
                "сопротивления против Миазмы сегодня.",
                "Up to four creatures of your choice get advantage on today's Miasma save.",
            ),
            ("Как 2-я ступень, но преимущество двойное.", "As tier 2, but double advantage."),
        ),
    ),
    Task(
        "make_camp",
        "helper",
        "Разбить лагерь",
        "Make camp",
        "«Путешествие по суше › Разбить лагерь»",
        ("strength",),
        _res(
            NOTHING,
            (
                "Выберите: порог встречи на отдыхе +1 или +2 к броскам изготовления в лагере.",
                "Choose: rest threshold +1, or +2 to crafting rolls in camp.",
            ),
            (
                "Выберите: порог встречи на отдыхе +2 или +4 к броскам изготовления.",
                "Choose: rest threshold +2, or +4 to crafting rolls.",
            ),
        ),
    ),
    Task(
        "help_everyone",
        "helper",
        "Помочь всем",
        "Help everyone",
        "«Путешествие по суше › Помочь всем»",
        ("reason", "strength"),
        _res(
            ("Союзники получают −1 к проверкам ролей сегодня.", "The allies get −1 today."),
            ("Союзники получают +1 к проверкам ролей сегодня.", "The allies get +1 today."),
            ("Союзники получают +2 к проверкам ролей сегодня.", "The allies get +2 today."),
        ),
    ),
    Task(
        "regular_route",
        "guide",
        "Обычный маршрут",
        "Regular route",
        "«Путешествие по суше › Обычный маршрут»",
        ("reason",),
        _res(
            (
                "Выберите: на 1 гекс меньше или порог дорожных встреч −1.",
                "Choose: 1 hex fewer, or travel threshold −1.",
            ),
            NOTHING,
            (
                "Выберите: на 1 гекс больше или порог дорожных встреч +1.",
                "Choose: 1 more hex, or travel threshold +1.",
            ),
        ),
    ),
    Task(
        "safe_route",
        "guide",
        "Безопасный маршрут",
        "Safe route",
        "«Путешествие по суше › Безопасный маршрут»",
        ("reason",),
        _res(
            LOST,
            (
                "Порог дорожных встреч +1, но на 1 гекс меньше.",
                "Travel threshold +1, but 1 hex fewer.",
            ),
            ("Порог дорожных встреч +2.", "Travel threshold +2."),
        ),
    ),
    Task(
        "shortcut",
        "guide",
        "Короткий путь",
        "Shortcut",
        "«Путешествие по суше › Короткий путь»",
        ("reason",),
        _res(
            LOST,
            (
                "На 1 гекс больше, но порог дорожных встреч −1.",
                "1 more hex, but travel threshold −1.",
            ),
            ("На 2 гекса больше.", "2 more hexes."),
        ),
    ),
    Task(
        "back_on_track",
        "guide",
        "Снова на пути",
        "Back on track",
        "«Путешествие по суше › Снова на пути»",
        ("reason",),
        _res(
            ("Группа всё ещё блуждает.", "The party is still lost."),
            (
                "Вы понимаете, где группа; вы больше не блуждаете.",
                "You know where the party is; it is no longer lost.",
            ),
            (
                "Как 2-я ступень, и выберите: на 1 гекс больше или порог дорожных встреч +1.",
                "As tier 2, and choose: 1 more hex, or travel threshold +1.",
            ),
        ),
    ),
    Task(
        "watch_for_danger",
        "scout",
        "Высматривать опасность",
        "Watch for danger",
        "«Путешествие по суше › Высматривать опасность»",
        ("agility", "reason"),
        _res(
            NOTHING,
            ("Порог дорожных встреч +1.", "Travel threshold +1."),
            ("Порог дорожных встреч +2.", "Travel threshold +2."),
        ),
    ),
    Task(
        "find_shelter",
        "scout",
        "Искать ночлег",
        "Find shelter",
        "«Путешествие по суше › Искать ночлег»",
        ("reason",),
        _res(
            NOTHING,
            ("Порог встреч на отдыхе +1.", "Rest threshold +1."),
            ("Порог встреч на отдыхе +2.", "Rest threshold +2."),
        ),
    ),
    Task(
        "search_treasure",
        "scout",
        "Искать сокровища",
        "Search for treasure",
        "«Путешествие по суше › Искать сокровища»",
        ("strength",),
        _res(
            NOTHING,
            (
                "Рефери бросает по таблице «Мелкие любопытные находки».",
                "The Referee rolls on «Minor curiosities».",
            ),
            (
                "Рефери бросает по таблице «Крупные любопытные находки».",
                "The Referee rolls on «Major curiosities».",
            ),
        ),
    ),
    Task(
        "forage",
        "tracker",
        "Собирать пищу",
        "Forage",
        "«Путешествие по суше › Собирать пищу»",
        ("reason",),
        _res(
            NOTHING,
            ("Вы добываете 1 паёк.", "You gain 1 ration."),
            ("Вы добываете 1d6 + 1 пайков.", "You gain 1d6 + 1 rations."),
        ),
    ),
    Task(
        "hunt",
        "tracker",
        "Охотиться",
        "Hunt",
        "«Путешествие по суше › Охотиться»",
        ("agility",),
        _res(
            ("Порог дорожных встреч −1.", "Travel threshold −1."),
            NOTHING,
            (
                "Вы добываете 3d6 пайков и шкуру Большого животного.",
                "You gain 3d6 rations and the hide of a Large animal.",
            ),
        ),
    ),
    Task(
        "track_creature",
        "tracker",
        "Выследить существо",
        "Track a creature",
        "«Путешествие по суше › Выследить существо»",
        ("reason",),
        _res(
            ("Порог дорожных встреч −1.", "Travel threshold −1."),
            NOTHING,
            (
                "Вы встречаете нужное существо; Рефери решает, когда и где.",
                "You meet the creature; the Referee decides when and where.",
            ),
        ),
    ),
)
TASKS_BY_KEY: dict[str, Task] = {t.key: t for t in TASKS}
TASK_CHOICES: tuple[Choice, ...] = tuple(Choice(t.key, t.ru, t.en) for t in TASKS)

# Lost: d6 counted clockwise from the neighbour due north («Путешествие по суше › Заблудились»).
# Flat-topped hexes, axial coordinates (q, r) with the vectors of Red Blob Games' flat layout.
HEX_DIRECTIONS: tuple[tuple[str, str, str, tuple[int, int]], ...] = (
    ("n", "С", "N", (0, -1)),
    ("ne", "СВ", "NE", (1, -1)),
    ("se", "ЮВ", "SE", (1, 0)),
    ("s", "Ю", "S", (0, 1)),
    ("sw", "ЮЗ", "SW", (-1, 1)),
    ("nw", "СЗ", "NW", (-1, 0)),
)
DIRECTION_KEYS: tuple[str, ...] = tuple(d[0] for d in HEX_DIRECTIONS)
DIRECTION_CHOICES: tuple[Choice, ...] = tuple(Choice(k, ru, en) for k, ru, en, _ in HEX_DIRECTIONS)
DIRECTION_VECTORS: dict[str, tuple[int, int]] = {k: v for k, _ru, _en, v in HEX_DIRECTIONS}

# --- the Miasma («Путешествие по суше › Миазма») ----------------------------------------------


@dataclass(frozen=True)
class MiasmaRow:
    """One row of «Эффекты Миазмы»: both effects are gained; the 2nd lasts as long as the 1st."""

    lo: int
    hi: int
    key: str
    ru: str
    en: str
    first_ru: str
    first_en: str
    second_ru: str
    second_en: str
    duration: str  # "miasma" (until you leave it), "instant", "cruelty" (until 0), "permanent"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


MIASMA_TABLE: tuple[MiasmaRow, ...] = (
    MiasmaRow(
        1,
        2,
        "gloom",
        "Уныние",
        "Gloom",
        "Пока вы в Миазме, говорите, только когда к вам обращаются, одним словом.",
        "Until you leave the Miasma, speak only when spoken to, in one word.",
        "Преимущество на проверки, чтобы красться и прятаться.",
        "Advantage on checks to sneak and hide.",
        "miasma",
    ),
    MiasmaRow(
        3,
        4,
        "gluttony",
        "Прожорливость",
        "Gluttony",
        "Пока вы в Миазме, нужно съесть не меньше 2 пайков за отдых, чтобы он помог.",
        "Until you leave the Miasma, eat at least 2 rations per rest to benefit from it.",
        "+2 к проверкам сбора пищи.",
        "+2 on Forage checks.",
        "miasma",
    ),
    MiasmaRow(
        5,
        6,
        "rage",
        "Ярость",
        "Rage",
        "Вы уничтожаете один обычный предмет из рюкзака (Рефери выбирает случайно).",
        "You destroy one random mundane backpack item (the Referee picks).",
        "Восстановите 3 Выносливости или, если она полная, снимите 1 рану.",
        "Regain 3 Stamina or, at full Stamina, lose 1 wound.",
        "instant",
    ),
    MiasmaRow(
        7,
        8,
        "lying",
        "Ложь",
        "Lying",
        "Пока вы в Миазме, вы говорите только неправду.",
        "Until you leave the Miasma, you speak only untruths.",
        "Вы получаете экспертизу, которой у вас нет, на выбор.",
        "You gain an expertise you lack, of your choice.",
        "miasma",
    ),
    MiasmaRow(
        9,
        10,
        "sloth",
        "Лень",
        "Sloth",
        "Пока вы в Миазме, вы отказываетесь от любой дорожной роли.",
        "Until you leave the Miasma, you refuse any travel role.",
        "Отдыхая, вы снимаете 2 раны вместо 1.",
        "Resting removes 2 wounds instead of 1.",
        "miasma",
    ),
    MiasmaRow(
        11,
        12,
        "bloodlust",
        "Жажда крови",
        "Bloodlust",
        "В бою преследуйте врагов, пока их ощущаете; кончается без жестокости.",
        "In combat, pursue and fight enemies while you sense them; ends at 0 cruelty.",
        "+1 к урону атак оружием.",
        "+1 damage on weapon attacks.",
        "cruelty",
    ),
    MiasmaRow(
        13,
        99,
        "lost",
        "Потерян для Миазмы",
        "Lost to the Miasma",
        "Все эффекты Миазмы и жестокость исчезают; новых больше не будет; вы навсегда "
        "жестоки и становитесь неигровым персонажем Рефери.",
        "All Miasma effects and cruelty end; no new ones ever; you are cruel for good and "
        "become an NPC run by the Referee.",
        "Отдых в Миазме восстанавливает вам применения экспертиз.",
        "Resting in the Miasma refreshes your expertise.",
        "permanent",
    ),
)


def miasma_row(value: int) -> MiasmaRow:
    """The row for d10 + cruelty («Путешествие по суше › Эффекты Миазмы»); 13 and more is the last
    row."""
    for row in MIASMA_TABLE:
        if row.lo <= value <= row.hi:
            return row
    return MIASMA_TABLE[0] if value < 1 else MIASMA_TABLE[-1]


# --- spells («Заклинания») ---------------------------------------------------------------------

DISCIPLINES: tuple[Choice, ...] = (
    Choice("transmutation", "Преобразование", "Transmutation"),
    Choice("beneficence", "Благодеяние", "Beneficence"),
    Choice("summoning", "Призыв", "Conjuration"),
    Choice("elements", "Стихии", "Elements"),
    Choice("illusion", "Иллюзии", "Illusion"),
    Choice("necromancy", "Некромантия", "Necromancy"),
)  # «Заклинания › Дисциплина»; the key is the matching magic expertise
CASTING_TIMES: tuple[Choice, ...] = (
    Choice("action", "Действие", "Action"),
    Choice("maneuver", "Манёвр", "Maneuver"),
    Choice("reaction", "Реакция", "Reaction"),
    Choice("out_of_combat", "Вне боя", "Out of combat"),
)  # «Заклинания › Время сотворения»
SPELL_TARGETS: tuple[Choice, ...] = (
    Choice("number", "Число", "Number"),
    Choice("all", "Все", "All"),
    Choice("allies", "Союзники", "Allies"),
    Choice("enemy", "Враг", "Enemy"),
    Choice("creature", "Существо", "Creature"),
    Choice("object", "Предмет", "Object"),
    Choice("summoned", "Призванное", "Summoned"),
    Choice("targets", "Цель / цели", "Target(s)"),
    Choice("none", "Нет строки цели", "No target line"),
)  # «Заклинания › Цель»
AREAS: tuple[Choice, ...] = (
    Choice("none", "Нет", "None"),
    Choice("aura", "Аура", "Aura"),
    Choice("cube", "Куб", "Cube"),
    Choice("line", "Линия", "Line"),
)  # «Заклинания › Область действия»
SPELL_DURATIONS: tuple[Choice, ...] = (
    Choice("instant", "Мгновенно", "Instant"),
    Choice("dungeon_turn", "Ход подземелья", "Dungeon turn"),
    Choice("wear_dice", "Кости износа", "Wear dice"),
)  # «Заклинания › Длительность»
CHAOS_DIE = 6  # «Заклинания › Бросок хаоса»: a 1 is backlash
OUT_OF_COMBAT_MINUTES = 10  # «Заклинания › Время сотворения»


@dataclass(frozen=True)
class Backlash:
    """One row of the backlash table («Заклинания › Виды отдачи») as data.

    ``duration``: "instant", "dungeon_turn" (until the end of this turn), "wear_dice", "rest"
    (until you finish a rest) or "permanent". ``radius``: others within that many squares are
    affected too (the Referee applies it to them). ``stacks``: rows read as stacking
    (07–12, 37–38, 87–92); any other lasting row already on the caster is rerolled
    («Заклинания › Отдача магии»).
    """

    lo: int
    hi: int
    ru: str
    en: str
    duration: str = "instant"
    wear_dice: int = 0
    stacks: bool = False
    condition: str = ""
    damage: str = ""  # dice the caster takes now
    piercing: bool = False
    wounds: str = ""  # dice of wounds the caster takes now
    radius: int = 0
    save: str = ""  # characteristic of a resistance roll with the 6/3/0 damage ladder
    save_rider: str = ""  # condition on a tier-1 save
    speed: int = 0  # per stack
    roll: str = ""  # dice rolled for the record (squares, rations, creatures...)
    draw: bool = (
        False  # an inventory card is drawn (rows 31-36 and 79-80, «Заклинания › Виды отдачи»)
    )
    creature_target: bool = False  # needs a creature target; an object target means the caster
    characteristic: str = ""  # 87-92: −1 per stack until a rest
    check_disadvantage: bool = False
    attacks_against: int = 0
    note: str = ""

    @property
    def key(self) -> str:
        return f"{self.lo:02d}-{self.hi:02d}" if self.lo != self.hi else f"{self.lo}"

    @property
    def lasting(self) -> bool:
        return self.duration != "instant"

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "key": self.key}


BACKLASH_TABLE: tuple[Backlash, ...] = (
    Backlash(
        1,
        2,
        "Ослиная голова: вы не можете говорить, только реветь.",
        "Donkey head: you cannot speak, only bray.",
        "wear_dice",
        1,
    ),
    Backlash(
        3,
        4,
        "Вынужденный танец: скорость −2, помеха на проверки лазать, прятаться, красться, плавать.",
        "Forced dancing: speed −2; disadvantage to climb, hide, sneak and swim.",
        "wear_dice",
        1,
        speed=-2,
    ),
    Backlash(
        5,
        6,
        "Призрачная гармонь играет польку до конца хода подземелья: незамеченным не пройти.",
        "A spectral accordion plays polka until the end of the turn: you cannot go unnoticed.",
        "dungeon_turn",
    ),
    Backlash(
        7,
        8,
        "До конца хода: говоря, бросайте d10; на 10 гром — 1d6 каждому в пределах 3 клеток.",
        "Until the end of the turn, roll d10 when you speak; on 10 thunder deals 1d6 within 3.",
        "dungeon_turn",
        stacks=True,
        note="+1d6 per repeat",
    ),
    Backlash(
        9,
        10,
        "Если до конца хода вы никому не навредили — 1d6 пробивающего урона.",
        "If you harm no other creature by the end of the turn, take 1d6 piercing.",
        "dungeon_turn",
        stacks=True,
        note="+1d6 per repeat",
    ),
    Backlash(
        11,
        12,
        "Холод до конца хода: скорость −1; ход под водой или мокрым — 1d6 пробивающего.",
        "Cold until the end of the turn: speed −1; a turn started wet deals 1d6 piercing.",
        "dungeon_turn",
        stacks=True,
        speed=-1,
    ),
    Backlash(13, 14, "Вы ослаблены.", "You are weakened.", condition="weakened"),
    Backlash(
        15,
        16,
        "Следующий урон до конца хода подземелья удваивается.",
        "The next damage you take before the end of the turn is doubled.",
        "dungeon_turn",
    ),
    Backlash(17, 18, "Вы уязвимы.", "You are vulnerable.", condition="vulnerable"),
    Backlash(
        19,
        20,
        "Рефери выбирает слот руки: предмет падает, слот бесполезен до конца хода.",
        "The Referee picks a hand slot: its item drops; the slot is unusable until turn end.",
        "dungeon_turn",
    ),
    Backlash(
        21,
        22,
        "Уничтожены ближайшие 1d6 пайков.",
        "The nearest 1d6 rations are destroyed.",
        roll="1d6",
    ),
    Backlash(
        23,
        24,
        "Громовой раскат слышен в пределах 100 клеток: любопытные придут.",
        "Thunder is heard within 100 squares; the curious come.",
        radius=100,
    ),
    Backlash(
        25,
        26,
        "Порыв ветра толкает вас и всех в пределах 10 клеток на 1d6 клеток.",
        "A gust pushes you and every creature within 10 squares 1d6 squares.",
        radius=10,
        roll="1d6",
    ),
    Backlash(27, 28, "Вы получаете 1d6 урона.", "You take 1d6 damage.", damage="1d6"),
    Backlash(
        29,
        30,
        "Вы телепортируетесь на 1d6 клеток (направление выбирает Рефери).",
        "You teleport 1d6 squares in a direction the Referee picks.",
        roll="1d6",
    ),
    Backlash(
        31,
        32,
        "Вытяните карточку: предмет становится козой Рефери, пока коза не умрёт.",
        "Draw: the item becomes a goat run by the Referee until the goat dies.",
        "permanent",
        draw=True,
    ),
    Backlash(
        33,
        34,
        "Вытяните карточку: предмет телепортируется к случайному существу в 20 клетках.",
        "Draw: the item teleports to a random creature within 20 squares.",
        draw=True,
    ),
    Backlash(
        35,
        36,
        "Вытяните карточку: предмет до конца хода — метёлка для пыли.",
        "Draw: the item is a feather duster until the end of the turn.",
        "dungeon_turn",
        draw=True,
    ),
    Backlash(
        37,
        38,
        "Слизь до конца хода: скорость −2.",
        "Slime until the end of the turn: speed −2.",
        "dungeon_turn",
        stacks=True,
        speed=-2,
    ),
    Backlash(
        39,
        40,
        "Облако зловония: помеха на все проверки.",
        "A stench cloud: disadvantage on all checks.",
        "wear_dice",
        1,
        check_disadvantage=True,
    ),
    Backlash(
        41,
        42,
        "Ваши союзники в 10 клетках от цели получают по 1d6 пробивающего.",
        "Your allies within 10 squares of the target take 1d6 piercing each.",
        roll="1d6",
        creature_target=True,
        radius=10,
    ),
    Backlash(
        43,
        44,
        "Говорите только рифмованными двустишиями; каждая неудача — 1d6 пробивающего.",
        "Speak only in rhyming couplets; each failure deals 1d6 piercing.",
        "wear_dice",
        1,
    ),
    Backlash(
        45,
        46,
        "1d6 враждебных кровавых существ A появляются в пределах 5 клеток.",
        "1d6 hostile blood creatures A appear within 5 squares.",
        roll="1d6",
        radius=5,
    ),
    Backlash(
        47,
        48,
        "Светящийся контур: спрятаться нельзя, атаки против вас получают +2.",
        "Glowing outline: you cannot hide; attacks against you get +2.",
        "wear_dice",
        1,
        attacks_against=2,
    ),
    Backlash(
        49,
        50,
        "Огонь: вы и все в пределах 2 клеток получаете 1d6 урона.",
        "Fire: you and every creature within 2 squares take 1d6.",
        damage="1d6",
        radius=2,
    ),
    Backlash(
        51,
        52,
        "Демонические пчёлы: вы и все в 3 клетках — бросок Силы (≤11 6 урона и ослаблен; "
        "12–16 3 урона).",
        "Demon bees: you and all within 3 save with Strength (≤11 6 damage and weakened; "
        "12–16 3 damage).",
        radius=3,
        save="strength",
        save_rider="weakened",
    ),
    Backlash(
        53,
        54,
        "Щупальца: вы и все в 3 клетках получаете 1d6; у вас 3 особые раны.",
        "Tentacles: you and all within 3 take 1d6; you gain 3 special wounds.",
        "permanent",
        damage="1d6",
        radius=3,
        wounds="3",
    ),
    Backlash(
        55,
        56,
        "Груда земли: вы и все в 2 клетках — бросок Ловкости (≤11 6 урона и сбит с ног; "
        "12–16 3 урона).",
        "Falling earth: you and all within 2 save with Agility (≤11 6 damage and prone; "
        "12–16 3 damage).",
        radius=2,
        save="agility",
        save_rider="prone",
    ),
    Backlash(
        57,
        58,
        "Фарфоровое тело: непробивающий урон удваивается.",
        "Porcelain body: non-piercing damage is doubled.",
        "wear_dice",
        1,
    ),
    Backlash(
        59,
        60,
        "Вы сбиты с ног, не можете встать и ползёте.",
        "You are prone, cannot stand and must crawl.",
        "wear_dice",
        1,
        condition="prone",
    ),
    Backlash(
        61,
        62,
        "Руки стали ногами до конца хода: скорость +2, руками ничего нельзя.",
        "Hands become feet until the end of the turn: speed +2; you cannot use your hands.",
        "dungeon_turn",
        speed=2,
    ),
    Backlash(
        63,
        64,
        "Зыбучий песок в пределах 1 клетки: бросок Ловкости (≤11 схвачен и 1d6 пробивающего "
        "в конце раунда; 12–16 схвачен до конца своего хода; 17+ 2 клетки).",
        "Quicksand within 1 square: Agility save (≤11 grabbed, 1d6 piercing each round end; "
        "12–16 grabbed until the end of its next turn; 17+ may move 2).",
        radius=1,
        save="agility",
        save_rider="grabbed",
        note="printed 62-64",
    ),
    Backlash(
        65,
        66,
        "Одностороннее окно-портал до конца хода: вас видят и слышат у вашего врага.",
        "A one-way portal window until the end of the turn: a rival sees and hears you.",
        "dungeon_turn",
    ),
    Backlash(
        67,
        68,
        "Вы телепортируетесь до 50 клеток по горизонтали (направление выбирает Рефери).",
        "You teleport up to 50 squares horizontally in a direction the Referee picks.",
    ),
    Backlash(
        69,
        70,
        "1d6 урона; вы по шею в земле и схвачены; 1d6 в начале каждого раунда схваченным.",
        "1d6 damage; buried to the neck and grabbed; 1d6 each round you start grabbed.",
        "permanent",
        damage="1d6",
        condition="grabbed",
    ),
    Backlash(
        71,
        72,
        "Благое заклинание — на ближайшего врага, вредное — на вас (решает Рефери).",
        "A beneficial spell hits the nearest enemy, a harmful one you (the Referee rules).",
        creature_target=True,
    ),
    Backlash(
        73,
        74,
        "В начале своего хода в бою бросайте кость: нечётное — весь ход рвёте слизнями.",
        "At the start of each combat turn roll a die: odd, you vomit slugs all turn.",
        "wear_dice",
        1,
    ),
    Backlash(
        75,
        76,
        "Плавится 1d6×100 монет, самоцвет или другое обычное сокровище (случайно).",
        "1d6×100 coins, a gem or another mundane treasure you carry (random) melts.",
        roll="1d6",
    ),
    Backlash(
        77,
        78,
        "Лягушка: Крошечный, Выносливость макс. 1, 0 слотов, без экспертиз; Прыжок +2.",
        "Frog: Tiny, max Stamina 1, 0 slots, no expertise; Jump +2.",
        "wear_dice",
        1,
    ),
    Backlash(
        79,
        80,
        "Вытяните карточку: предмет телепортируется в подземелье на выбор Рефери.",
        "Draw: the item teleports to a dungeon of the Referee's choice.",
        draw=True,
    ),
    Backlash(
        81,
        82,
        "Рот и уши срастаются до конца отдыха: не говорите и не слышите.",
        "Mouth and ears fused until you finish a rest: you cannot speak or hear.",
        "rest",
    ),
    Backlash(
        83,
        84,
        "Яркий свет вы воспринимаете как темноту.",
        "You perceive bright light as darkness.",
        "wear_dice",
        2,
    ),
    Backlash(
        85,
        86,
        "Жалящие насекомые не дают отдыхать, пока не скормите им 1000 фунтов плоти.",
        "Stinging insects prevent rest until you feed them 1000 lb of flesh.",
        "permanent",
    ),
    Backlash(
        87,
        88,
        "Сила −1 до конца отдыха (накапливается).",
        "Strength −1 until you finish a rest (stacks).",
        "rest",
        stacks=True,
        characteristic="strength",
    ),
    Backlash(
        89,
        90,
        "Ловкость −1 до конца отдыха (накапливается).",
        "Agility −1 until you finish a rest (stacks).",
        "rest",
        stacks=True,
        characteristic="agility",
    ),
    Backlash(
        91,
        92,
        "Разум −1 до конца отдыха (накапливается).",
        "Reason −1 until you finish a rest (stacks).",
        "rest",
        stacks=True,
        characteristic="reason",
    ),
    Backlash(93, 94, "Вы получаете 1d6 ран.", "You take 1d6 wounds.", wounds="1d6"),
    Backlash(
        95,
        96,
        "Молнии: вы и все в пределах 5 клеток получаете 3d6 урона.",
        "Lightning: you and every creature within 5 squares take 3d6.",
        damage="3d6",
        radius=5,
    ),
    Backlash(
        97,
        98,
        "Аллергия на магию: 1d6 пробивающего, когда вы или кто-то в 10 клетках колдует.",
        "Magic allergy: 1d6 piercing whenever you or anyone within 10 casts or activates magic.",
        "wear_dice",
        2,
    ),
    Backlash(
        99,
        100,
        "Ваши сотворения на ступень ниже; 1-я ступень считается роком.",
        "Your casts count one tier lower; tier 1 counts as a doom.",
        "wear_dice",
        2,
    ),
    Backlash(
        101,
        101,
        "Оленьи рога, которые отрастают; головные уборы не надеть.",
        "Antlers that regrow if cut; no ordinary headgear.",
        "permanent",
    ),
    Backlash(
        102,
        102,
        "Одна случайная ваша экспертиза меняется на случайную, которой у вас нет.",
        "One random expertise you have is swapped for a random one you lack.",
    ),
    Backlash(
        103,
        103,
        "Рука навсегда становится обычным одноручным оружием; этот слот руки занят.",
        "A hand becomes a mundane one-handed weapon for good; that hand slot is lost.",
        "permanent",
    ),
    Backlash(
        104,
        104,
        "Выносливость падает до 0, и вы получаете 2d6 ран.",
        "Stamina drops to 0 and you take 2d6 wounds.",
        wounds="2d6",
    ),
    Backlash(
        105,
        105,
        "Портал в Ад: тело и душа запечатаны навеки.",
        "Dragged into Hell; sealed forever.",
        "permanent",
    ),
)
STACKING_BACKLASH = frozenset(b.key for b in BACKLASH_TABLE if b.stacks)
TIER_DOWN_BACKLASH = "99-100"


def backlash_row(value: int) -> Backlash:
    """The row for d100 + rank (1-105); the printed 62-64 is read as 63-64 (it overlaps the row
    above)."""
    for row in BACKLASH_TABLE:
        if row.lo <= value <= row.hi:
            return row
    raise ValueError(f"no backlash row for {value}")


# --- crafting («Изготовление») -------------------------------------------------------------------

CRAFT_TOOLS: dict[str, tuple[str, str, str]] = {
    "alchemy": ("alchemist_tools", "Инструменты алхимика", "Alchemist's tools"),
    "blacksmithing": ("smith_tools", "Инструменты кузнеца", "Smith's tools"),
    "enchanting": ("enchanter_tools", "Инструменты зачарователя", "Enchanter's tools"),
}  # «Изготовление › Инструменты»
CRAFT_MAX_EXPERTISE = 2  # «Изготовление › Броски изготовления»
CRAFT_EXPERTISE_BONUS = 4  # «Изготовление › Броски изготовления»
CRAFT_DOUBLE_STEP = 4  # «Изготовление › Броски изготовления»
CRAFT_MIN_POINTS = 1  # «Изготовление › Броски изготовления»


def describe_tables() -> dict[str, Any]:
    """The combat, travel, spell and crafting tables for ``Crows.describe()`` (forms, help
    pages, the map and travel UI)."""
    return {
        "size_space_reach": {
            k: {"squares": v[0], "reach": v[1]} for k, v in SIZE_SPACE_REACH.items()
        },
        "sides": [s.as_dict() for s in SIDES],
        "costs": [c.as_dict() for c in COSTS],
        "cover": [c.as_dict() for c in COVER],
        "concealment": [c.as_dict() for c in CONCEALMENT],
        "forced_kinds": [k.as_dict() for k in FORCED_KINDS],
        "paces": [asdict(p) for p in PACES],
        "rivers": [r.as_dict() for r in RIVER],
        "roles": [
            r.as_dict() | {"limit": ROLE_LIMIT[r.key], "order": ROLE_ORDER.index(r.key)}
            for r in ROLES
        ],
        "tasks": [
            {
                "key": t.key,
                "role": t.role,
                "ru": t.ru,
                "en": t.en,
                "characteristics": list(t.characteristics),
                "results": {k: {"ru": v[0], "en": v[1]} for k, v in t.results.items()},
            }
            for t in TASKS
        ],
        "directions": [c.as_dict() for c in DIRECTION_CHOICES],
        "miasma_table": [row.as_dict() for row in MIASMA_TABLE],
        "disciplines": [d.as_dict() for d in DISCIPLINES],
        "casting_times": [c.as_dict() for c in CASTING_TIMES],
        "spell_targets": [c.as_dict() for c in SPELL_TARGETS],
        "spell_areas": [c.as_dict() for c in AREAS],
        "spell_durations": [c.as_dict() for c in SPELL_DURATIONS],
        "backlash_table": [row.as_dict() for row in BACKLASH_TABLE],
        "crafting_tools": {
            k: {"kind": v[0], "ru": v[1], "en": v[2]} for k, v in CRAFT_TOOLS.items()
        },
    }
