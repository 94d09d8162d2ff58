"""Crows vocabulary as data: characteristics, the 30 expertises, sizes, conditions, magic
slots, wear-die keywords and the small tables of part A (seed 001 L1-L720).

Everything the UI shows carries the seed's Russian term and an English one; rules code uses the
English keys only. Seed lines are given per entry so a reader can check each against the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from systems.core.schema import Choice

SEED = "shared/seeds/001_06db556d559045f9_crows.txt"
DIGEST = "shared/rules/crows_a_checks_slots_dungeon.md"

# --- characteristics (L134-L142) --------------------------------------------------------------

CHARACTERISTICS: tuple[Choice, ...] = (
    Choice("agility", "Ловкость", "Agility"),
    Choice("reason", "Разум", "Reason"),
    Choice("strength", "Сила", "Strength"),
)
CHARACTERISTIC_KEYS: tuple[str, ...] = tuple(c.key for c in CHARACTERISTICS)
CHARACTERISTIC_MIN, CHARACTERISTIC_MAX = -5, 5  # L142


def characteristic_label(key: str) -> Choice:
    for choice in CHARACTERISTICS:
        if choice.key == key:
            return choice
    raise KeyError(key)


# --- expertises (L234-L293) -------------------------------------------------------------------

GENERAL, MAGICAL, WEAPON = "general", "magical", "weapon"
EXPERTISE_CATEGORIES: tuple[Choice, ...] = (
    Choice(GENERAL, "Общие", "General"),
    Choice(MAGICAL, "Магические", "Magical"),
    Choice(WEAPON, "Оружейные", "Weapon"),
)


@dataclass(frozen=True)
class Expertise:
    """One expertise of the seed's three tables, with what it is for (Применение)."""

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


def _e(key: str, ru: str, en: str, cat: str, use_ru: str, use_en: str, line: int) -> Expertise:
    return Expertise(key, ru, en, cat, use_ru, use_en, f"L{line}")


# Seed order of each table.
EXPERTISES: tuple[Expertise, ...] = (
    _e(
        "alchemy",
        "Алхимия",
        "Alchemy",
        GENERAL,
        "Делать зелья, яды и бомбы и разбираться в них",
        "Make and understand potions, poisons and bombs",
        244,
    ),
    _e(
        "athletics",
        "Атлетика",
        "Athletics",
        GENERAL,
        "Лазать, прыгать и плавать",
        "Climb, jump and swim",
        245,
    ),
    _e(
        "blacksmithing",
        "Кузнечное дело",
        "Blacksmithing",
        GENERAL,
        "Делать металлические инструменты, доспехи и оружие и разбираться в них",
        "Make and understand metal tools, armour and weapons",
        246,
    ),
    _e(
        "enchanting",
        "Зачарование",
        "Enchanting",
        GENERAL,
        "Делать магические предметы и разбираться в них",
        "Make and understand magic items",
        247,
    ),
    _e(
        "endurance",
        "Стойкость",
        "Endurance",
        GENERAL,
        "Долго выдерживать тяжёлую физическую или умственную нагрузку",
        "Withstand long physical or mental strain",
        248,
    ),
    _e(
        "gymnastics",
        "Гимнастика",
        "Gymnastics",
        GENERAL,
        "Двигаться по шаткой или узкой опоре; кувыркаться",
        "Move on unsteady or narrow footing; tumble",
        249,
    ),
    _e(
        "animal_handling",
        "Обращение с питомцами",
        "Animal Handling",
        GENERAL,
        "Взаимодействовать с питомцами",
        "Deal with pets",
        250,
    ),
    _e(
        "history",
        "Знание истории",
        "History",
        GENERAL,
        "Знать о значимых событиях прошлого",
        "Know the important events of the past",
        251,
    ),
    _e(
        "heavy_lifting",
        "Подъём тяжестей",
        "Heavy Lifting",
        GENERAL,
        "Поднимать, носить и бросать тяжёлые предметы",
        "Lift, carry and throw heavy things",
        252,
    ),
    _e(
        "magic_lore",
        "Знание магии",
        "Magic Lore",
        GENERAL,
        "Знать о магических местах, заклинаниях, предметах и явлениях",
        "Know magical places, spells, items and phenomena",
        253,
    ),
    _e(
        "monster_lore",
        "Знание монстров",
        "Monster Lore",
        GENERAL,
        "Знать повадки, сильные и слабые стороны монстров",
        "Know monsters' habits, strengths and weaknesses",
        254,
    ),
    _e(
        "nature_lore",
        "Знание природы",
        "Nature Lore",
        GENERAL,
        "Знать о растениях, животных и погоде",
        "Know plants, animals and weather",
        255,
    ),
    _e(
        "navigation",
        "Ориентирование",
        "Navigation",
        GENERAL,
        "Путешествовать, не сбиваясь с пути",
        "Travel without losing the way",
        256,
    ),
    _e(
        "lockpicking",
        "Взлом замков",
        "Lockpicking",
        GENERAL,
        "Открывать замок без ключа",
        "Open a lock without its key",
        257,
    ),
    _e(
        "religion_lore",
        "Знание религии",
        "Religion Lore",
        GENERAL,
        "Знать религиозные мифы и обряды",
        "Know religious myths and rites",
        258,
    ),
    _e(
        "search",
        "Поиск",
        "Search",
        GENERAL,
        "Искать в окружении важные детали и предметы",
        "Find important details and things around you",
        259,
    ),
    _e(
        "stealth",
        "Скрытность",
        "Stealth",
        GENERAL,
        "Прятаться и красться",
        "Hide and sneak",
        260,
    ),
    _e(
        "thievery",
        "Воровство",
        "Thievery",
        GENERAL,
        "Отключать механизмы, открывать замки, шарить по карманам, ловкость рук в целом",
        "Disable mechanisms, open locks, pick pockets, sleight of hand",
        261,
    ),
    _e(
        "transmutation",
        "Преобразование",
        "Transmutation",
        MAGICAL,
        "Творить заклинания преобразования",
        "Cast transmutation spells",
        267,
    ),
    _e(
        "beneficence",
        "Благодеяние",
        "Beneficence",
        MAGICAL,
        "Творить заклинания благодеяния",
        "Cast beneficence spells",
        268,
    ),
    _e(
        "summoning",
        "Призыв",
        "Summoning",
        MAGICAL,
        "Творить заклинания призыва",
        "Cast summoning spells",
        269,
    ),
    _e(
        "elements",
        "Стихии",
        "Elements",
        MAGICAL,
        "Творить заклинания стихий",
        "Cast elemental spells",
        270,
    ),
    _e(
        "illusion",
        "Иллюзии",
        "Illusion",
        MAGICAL,
        "Творить заклинания иллюзий",
        "Cast illusion spells",
        271,
    ),
    _e(
        "necromancy",
        "Некромантия",
        "Necromancy",
        MAGICAL,
        "Творить заклинания некромантии",
        "Cast necromancy spells",
        272,
    ),
    _e(
        "bludgeoning",
        "Дробящее",
        "Bludgeoning",
        WEAPON,
        "Атаковать дробящим оружием",
        "Attack with bludgeoning weapons",
        278,
    ),
    _e("bow", "Лук", "Bow", WEAPON, "Атаковать луками", "Attack with bows", 279),
    _e(
        "chopping",
        "Рубящее",
        "Chopping",
        WEAPON,
        "Атаковать рубящим оружием",
        "Attack with chopping weapons",
        280,
    ),
    _e(
        "slashing",
        "Режущее",
        "Slashing",
        WEAPON,
        "Атаковать режущим оружием",
        "Attack with slashing weapons",
        281,
    ),
    _e(
        "piercing",
        "Колющее",
        "Piercing",
        WEAPON,
        "Атаковать колющим оружием",
        "Attack with piercing weapons",
        282,
    ),
    _e(
        "unarmed",
        "Без оружия",
        "Unarmed",
        WEAPON,
        "Атаковать естественным оружием",
        "Attack with natural weapons",
        283,
    ),
)
EXPERTISES_BY_KEY: dict[str, Expertise] = {e.key: e for e in EXPERTISES}
EXPERTISE_CHOICES: tuple[Choice, ...] = tuple(Choice(e.key, e.ru, e.en) for e in EXPERTISES)

# --- sizes (L339-L352) ------------------------------------------------------------------------

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
    """Sizes are ordered Tiny < ... < Охренеть! (L341)."""
    return SIZE_KEYS.index(size)


# Corpse slots and stack limit (Слоты трупов, L405-L416).
CORPSE_SLOTS: dict[str, tuple[int, int]] = {
    "tiny": (1, 3),
    "small": (2, 1),
    "medium": (4, 1),
    "large": (8, 1),
    "huge": (16, 1),
    "colossal": (32, 1),
}

# Butcher a corpse: d6 count of parts by size (L546).
BUTCHER_DICE: dict[str, int] = {
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "colossal": 4,
}

# --- conditions (L440-L468) -------------------------------------------------------------------


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
        "L446",
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
        "L450-L452",
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
        "L456",
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
        "L460",
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
        "L464",
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
        "L468",
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

# What ends each condition (L446-L468, L432, L530, L886), for ``remove_condition(reason=...)``.
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
    "blessed": ("turn_end", "rest_midpoint"),  # L446, L530
    "vulnerable": ("turn_end", "rest_midpoint"),  # L460, L530
    "weakened": ("turn_end", "rest_midpoint"),  # L468, L530
    "grabbed": (
        "out_of_range",
        "released",
        "grabber_died",
        "grabber_prone",
        "grabber_unconscious",
        "escape",
        "teleport",
    ),  # L452, L886
    "prone": ("stand",),  # L456
    "unconscious": ("damage", "loud_noise", "knocked_out_wakes"),  # L464, L432
}

# --- magic item slots (L362-L375) -------------------------------------------------------------
# "Пояс" and "Руки" also name inventory slot types, so the keys are distinct (digest §5 UI note).

MAGIC_SLOTS: tuple[Choice, ...] = (
    Choice("head", "Голова", "Head"),
    Choice("neck", "Шея", "Neck"),
    Choice("waist", "Пояс (магический)", "Waist"),
    Choice("arms", "Руки (магические)", "Arms"),
    Choice("finger", "Палец", "Finger"),
    Choice("feet", "Ступни", "Feet"),
)
MAGIC_SLOT_KEYS: tuple[str, ...] = tuple(m.key for m in MAGIC_SLOTS)

# --- wear dice keywords (L476-L482) -----------------------------------------------------------

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

# Effect durations (L472, L1279-L1281).
EFFECT_DURATIONS: tuple[Choice, ...] = (
    Choice("wear_dice", "Кости износа", "Wear dice"),
    Choice("dungeon_turn", "До конца хода подземелья", "Until the end of the dungeon turn"),
    Choice("rest", "До конца отдыха", "Until the end of a rest"),
    Choice("permanent", "Пока не снимут", "Until removed"),
    Choice("miasma", "Пока вы в Миазме", "Until you leave the Miasma"),  # L1180-L1186
    Choice("cruelty", "Пока есть жестокость", "While you have cruelty"),  # L1186
)

# --- light (L576-L608) ------------------------------------------------------------------------

BRIGHT, DIM, DARK = "bright", "dim", "dark"
LIGHT_LEVELS: tuple[Choice, ...] = (
    Choice(BRIGHT, "Яркий свет", "Bright light"),
    Choice(DIM, "Тусклый свет", "Dim light"),
    Choice(DARK, "Темнота", "Darkness"),
)

# Яркость костра (L596-L604): size -> (bright squares, dim squares).
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
# Who takes wounds (L438, digest ambiguity 3): PCs, other humans and animals.
WOUND_KINDS = frozenset({"pc", "hireling", "pet"})

# --- rest activities (L538-L570) --------------------------------------------------------------

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

# --- dungeon encounters (L520-L524) -----------------------------------------------------------

ENCOUNTER_THRESHOLD_DEFAULT = 9
ENCOUNTER_THRESHOLD_CAP = 10  # by analogy with road checks, L1198 (digest ambiguity 13)
GREED_PERCENT: dict[int, int] = {1: 30, 2: 20, 3: 10}  # L500-L502
HOURS_PER_TURN_OUTSIDE = 2  # L508
