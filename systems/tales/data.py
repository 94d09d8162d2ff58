"""Сказания волшебного мира as data: stats, skills, origins, weapons, armour, spells, traps.

Rulebook: «Сказания волшебного мира», cited by its headings. The rulebook invites every group
to change the rules (its introduction), so every number lives here as plain data that the rules
read, never as a literal inside a rule.
Names are the rulebook's Russian terms with an English gloss.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from systems.core.rulekit import without_source
from systems.core.schema import Choice

# --- stats («Персонажи»)

STATS: tuple[Choice, ...] = (
    Choice("str", "Сила", "Strength"),
    Choice("dex", "Ловкость", "Dexterity"),
    Choice("mind", "Разум", "Mind"),
)
STAT_KEYS: tuple[str, ...] = tuple(c.key for c in STATS)
STAT_NAMES: dict[str, Choice] = {c.key: c for c in STATS}

# --- difficulty («Проверка ловкости, силы и разума»; «Противопоставленная проверка»; «Чары»)

AUTO, CHECK, HARD, VERY_HARD, IMPOSSIBLE = "auto", "check", "hard", "very_hard", "impossible"
DIFFICULTIES: tuple[Choice, ...] = (
    Choice(AUTO, "Автоматический успех", "Automatic success"),
    Choice(CHECK, "Проверка (2d10)", "Check (2d10)"),
    Choice(HARD, "Сложная проверка (3d10)", "Hard check (3d10)"),
    Choice(VERY_HARD, "Очень сложная проверка (4d10)", "Very hard check (4d10)"),
    Choice(IMPOSSIBLE, "Невозможно", "Impossible"),
)
# How many d10 each rolled difficulty uses («Проверка на попадание по врагу»; «Проверка ловкости,
# силы и разума»; «Чары»).
DICE_FOR: dict[str, int] = {CHECK: 2, HARD: 3, VERY_HARD: 4}
DIFFICULTY_ORDER: tuple[str, ...] = (CHECK, HARD, VERY_HARD)


# --- skills («Навыки»; «Боевые навыки»; «Спортивные навыки»; «Социальные навыки»; «Навыки
# выживания»; «Воровские навыки»; «Ремёсла»)


@dataclass(frozen=True)
class Skill:
    """One skill. ``stat`` is what its checks roll against (None: it never rolls by itself).

    ``gated``: an action impossible without the skill («Навыки»).
    ``levels``: False for Literacy, which has no levels («Социальные навыки»). ``detail``: what the
    entry names, e.g. the specific craft («Ремёсла»); ``"required"``, ``"optional"`` or ``""``.
    ``weapon``: the weapon category of a combat or military skill («Боевые навыки»).
    """

    key: str
    ru: str
    en: str
    stat: str | None
    group: str
    source: str
    gated: bool = False
    levels: bool = True
    detail: str = ""
    weapon: str = ""
    military: bool = False
    opposed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


WEAPON_CATEGORIES: tuple[Choice, ...] = (
    Choice("brawl", "Драка", "Brawling"),
    Choice("fencing", "Фехтование", "Fencing"),
    Choice("melee", "Бой", "Melee"),
    Choice("throwing", "Метание", "Throwing"),
    Choice("shooting", "Стрельба", "Shooting"),
)
CATEGORY_NAMES: dict[str, Choice] = {c.key: c for c in WEAPON_CATEGORIES}


def _weapon_skills() -> tuple[Skill, ...]:
    out: list[Skill] = []
    for cat in WEAPON_CATEGORIES:
        out.append(
            Skill(
                f"combat_{cat.key}",
                f"{cat.ru} (боевой)",
                f"{cat.en} (combat)",
                "dex",
                "combat",
                "«Боевые навыки»",
                weapon=cat.key,
            )
        )
    for cat in WEAPON_CATEGORIES:
        out.append(
            Skill(
                f"military_{cat.key}",
                f"{cat.ru} (военный)",
                f"{cat.en} (military)",
                None,
                "military",
                "«Боевые навыки»",
                weapon=cat.key,
                military=True,
            )
        )
    return tuple(out)


SKILL_GROUPS: tuple[Choice, ...] = (
    Choice("combat", "Боевые навыки", "Combat skills"),
    Choice("military", "Военные навыки", "Military skills"),
    Choice("sport", "Спортивные навыки", "Athletic skills"),
    Choice("social", "Социальные навыки", "Social skills"),
    Choice("survival", "Навыки выживания", "Survival skills"),
    Choice("thief", "Воровские навыки", "Thieves' skills"),
    Choice("craft", "Ремёсла", "Crafts"),
    Choice("other", "Прочие", "Other"),
)

SKILLS: tuple[Skill, ...] = (
    *_weapon_skills(),
    Skill("acrobatics", "Акробатика", "Acrobatics", "dex", "sport", "«Спортивные навыки»"),
    Skill("climbing", "Лазанье", "Climbing", "dex", "sport", "«Спортивные навыки»", gated=True),
    Skill("riding", "Езда", "Riding", "dex", "sport", "«Спортивные навыки»", gated=True),
    Skill("swimming", "Плаванье", "Swimming", "str", "sport", "«Спортивные навыки»", gated=True),
    Skill("charisma", "Харизма", "Charisma", "mind", "social", "«Социальные навыки»", opposed=True),
    Skill(
        "diplomacy",
        "Дипломатия",
        "Diplomacy",
        "mind",
        "social",
        "«Социальные навыки»",
        opposed=True,
    ),
    Skill("leadership", "Лидерство", "Leadership", "mind", "social", "«Социальные навыки»"),
    Skill(
        "literacy",
        "Грамотность",
        "Literacy",
        None,
        "social",
        "«Социальные навыки»",
        gated=True,
        levels=False,
    ),
    Skill(
        "languages",
        "Языки",
        "Languages",
        None,
        "social",
        "«Социальные навыки»",
        gated=True,
        detail="optional",
    ),
    Skill(
        "surprise", "Внезапность", "Surprise", "dex", "survival", "«Навыки выживания»", gated=True
    ),
    Skill("stealth", "Бесшумность", "Stealth", "dex", "survival", "«Навыки выживания»"),
    Skill(
        "survival",
        "Выживание",
        "Survival",
        "mind",
        "survival",
        "«Навыки выживания»; «Структуры игры»",
    ),
    Skill("tactics", "Тактика", "Tactics", "mind", "survival", "«Навыки выживания»", gated=True),
    Skill("tracking", "Выслеживание", "Tracking", "mind", "survival", "«Навыки выживания»"),
    Skill("lockpicking", "Взлом", "Lockpicking", "dex", "thief", "«Воровские навыки»"),
    Skill(
        "vigilance",
        "Бдительность",
        "Vigilance",
        "mind",
        "thief",
        "«Воровские навыки»; «Открытая местность и города»",
    ),
    Skill("theft", "Воровство", "Theft", "dex", "thief", "«Воровские навыки»"),
    Skill("traps", "Ловушки", "Traps", "mind", "thief", "«Воровские навыки»"),
    Skill(
        "alchemy",
        "Алхимия",
        "Alchemy",
        "mind",
        "craft",
        "«Ремёсла»; «Открытая местность и города»",
        gated=True,
    ),
    Skill(
        "art",
        "Рисование или скульптура",
        "Painting or sculpture",
        "mind",
        "craft",
        "«Ремёсла»",
        detail="optional",
    ),
    Skill("performance", "Исполнение", "Performance", "mind", "craft", "«Ремёсла»"),
    Skill("craft", "Ремесло", "Craft", "dex", "craft", "«Ремёсла»", detail="required"),
    Skill("medicine", "Медицина", "Medicine", "mind", "craft", "«Ремёсла»", gated=True),
    Skill("haggling", "Торг", "Haggling", "mind", "craft", "«Ремёсла»"),
    Skill("seafaring", "Мореходство", "Seafaring", "dex", "craft", "«Ремёсла»"),
    Skill("lore", "Знания", "Lore", "mind", "craft", "«Ремёсла»"),
    Skill("herbalism", "Травничество", "Herbalism", "mind", "craft", "«Ремёсла»", gated=True),
    # Granted by Artist («Социальное положение») but never defined; read as a Mind
    # check (compare «Проверки навыков»).
    Skill(
        "appraisal",
        "Оценка",
        "Appraisal",
        "mind",
        "other",
        "«Социальное положение»; «Проверки навыков»",
    ),
)
SKILLS_BY_KEY: dict[str, Skill] = {s.key: s for s in SKILLS}
SKILL_KEYS: tuple[str, ...] = tuple(SKILLS_BY_KEY)
ART_KINDS: tuple[Choice, ...] = (
    Choice("painting", "Рисование", "Painting"),
    Choice("sculpture", "Скульптура", "Sculpture"),
)


# --- social origin («Социальное положение»)


@dataclass(frozen=True)
class Origin:
    """A 2d10 result («Социальное положение»). Skills named ``@brawl``/``@melee``/``@fencing`` are
    the weapon skills whose combat or military version the campaign settles (our reading)."""

    roll: int
    key: str
    ru: str
    en: str
    skills: tuple[str, str]
    spells: bool
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {**without_source(asdict(self)), "skills": list(self.skills)}


ORIGINS: tuple[Origin, ...] = (
    Origin(
        2,
        "criminal",
        "Преступник",
        "Criminal",
        ("lockpicking", "theft"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        3, "exile", "Изгнанник", "Exile", ("survival", "@brawl"), False, "«Социальное положение»"
    ),
    Origin(
        4,
        "wanderer",
        "Странник",
        "Wanderer",
        ("survival", "herbalism"),
        True,
        "«Социальное положение»",
    ),
    Origin(
        5, "artist", "Художник", "Artist", ("art", "appraisal"), False, "«Социальное положение»"
    ),
    Origin(
        6, "artisan", "Ремесленник", "Artisan", ("craft", "craft"), False, "«Социальное положение»"
    ),
    Origin(
        7,
        "performer",
        "Исполнитель",
        "Performer",
        ("performance", "lore"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        8, "sailor", "Моряк", "Sailor", ("seafaring", "@fencing"), False, "«Социальное положение»"
    ),
    Origin(
        9, "soldier", "Солдат", "Soldier", ("medicine", "@melee"), False, "«Социальное положение»"
    ),
    Origin(
        10,
        "trader",
        "Торговец",
        "Trader",
        ("haggling", "vigilance"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        11,
        "guild_worker",
        "Гильдейский работник",
        "Guild worker",
        ("haggling", "craft"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        12,
        "novice",
        "Послушник",
        "Novice",
        ("charisma", "literacy"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        13,
        "innkeeper",
        "Трактирщик",
        "Innkeeper",
        ("haggling", "charisma"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        14,
        "merchant",
        "Купец",
        "Merchant",
        ("haggling", "diplomacy"),
        False,
        "«Социальное положение»",
    ),
    Origin(
        15, "scribe", "Писарь", "Scribe", ("diplomacy", "literacy"), False, "«Социальное положение»"
    ),
    Origin(
        16, "student", "Студент", "Student", ("lore", "literacy"), False, "«Социальное положение»"
    ),
    Origin(
        17,
        "apprentice",
        "Ученик чародея",
        "Sorcerer's apprentice",
        ("lore", "alchemy"),
        True,
        "«Социальное положение»",
    ),
    Origin(
        18, "noble", "Дворянин", "Noble", ("@fencing", "diplomacy"), False, "«Социальное положение»"
    ),
    Origin(19, "sage", "Мудрец", "Sage", ("lore", "herbalism"), False, "«Социальное положение»"),
    Origin(
        20,
        "politician",
        "Политик",
        "Politician",
        ("charisma", "diplomacy"),
        False,
        "«Социальное положение»",
    ),
)
ORIGINS_BY_ROLL: dict[int, Origin] = {o.roll: o for o in ORIGINS}


# --- weapons («Оружие») -----------------------------------------------------------------------

MELEE, THROWN, SHOT = "melee", "throw", "shoot"
ATTACK_MODES: tuple[Choice, ...] = (
    Choice(MELEE, "Ближний бой", "Melee"),
    Choice(THROWN, "Бросок", "Throw"),
    Choice(SHOT, "Выстрел", "Shot"),
)


@dataclass(frozen=True)
class Weapon:
    """A weapon row. ``damage`` is dice notation; ``min_str`` 0 means none («Оружие»).

    ``modes``: how it attacks (melee, throw, shoot). ``thrown_only``: counts as a small
    improvised weapon in melee («Оружие»). ``attack_dex``: to-hit change when striking with it
    («Оружие»). ``dodge``: Dex bonus to dodge while it is drawn («Оружие»).
    ``reload_actions``: actions to reload after a shot («Атака»). ``free_ready``: readying it
    takes no action («Оружие»). ``bash``: the shield that must be carried to strike with it.
    """

    key: str
    ru: str
    en: str
    damage: str
    min_str: int
    category: str | None
    modes: tuple[str, ...]
    source: str
    two_handed: bool = False
    thrown_only: bool = False
    attack_dex: int = 0
    dodge: int = 0
    reload_actions: int = 0
    free_ready: bool = False
    improvised: bool = False
    bash: str = ""
    carried: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {**without_source(asdict(self)), "modes": list(self.modes)}


WEAPONS: tuple[Weapon, ...] = (
    Weapon(
        "unarmed",
        "Безоружный удар",
        "Unarmed strike",
        "1d3",
        0,
        "brawl",
        (MELEE,),
        "«Оружие»",
        carried=False,
    ),
    Weapon("dagger", "Кинжал", "Dagger", "1d6-2", 0, "melee", (MELEE, THROWN), "«Оружие»"),
    Weapon(
        "knuckle_duster",
        "Кастет",
        "Knuckle-duster",
        "1d6-2",
        0,
        "brawl",
        (MELEE,),
        "«Оружие»",
        free_ready=True,
    ),
    Weapon(
        "staff",
        "Посох",
        "Staff",
        "1d6-2",
        0,
        "melee",
        (MELEE,),
        "«Оружие»",
        two_handed=True,
        dodge=1,
    ),
    Weapon(
        "smallsword", "Шпага", "Smallsword", "1d6-1", 9, "fencing", (MELEE,), "«Оружие»", dodge=1
    ),
    Weapon("spear", "Копьё", "Spear", "1d6", 10, "melee", (MELEE, THROWN), "«Оружие»"),
    Weapon("rapier", "Рапира", "Rapier", "1d6+1", 10, "fencing", (MELEE,), "«Оружие»"),
    Weapon(
        "ordinary", "Обычное оружие", "Ordinary weapon", "1d6+2", 11, "melee", (MELEE,), "«Оружие»"
    ),
    Weapon("morningstar", "Моргенштерн", "Morningstar", "2d6-2", 12, "melee", (MELEE,), "«Оружие»"),
    Weapon(
        "halberd",
        "Алебарда",
        "Halberd",
        "2d6-1",
        13,
        "melee",
        (MELEE,),
        "«Оружие»",
        two_handed=True,
    ),
    Weapon(
        "great_weapon",
        "Большое оружие",
        "Great weapon",
        "2d6",
        14,
        "melee",
        (MELEE,),
        "«Оружие»",
        two_handed=True,
    ),
    Weapon("flail", "Цеп", "Flail", "2d6+1", 15, "melee", (MELEE,), "«Оружие»", two_handed=True),
    Weapon(
        "improvised_small",
        "Импровизированное оружие (маленькое)",
        "Improvised weapon (small)",
        "1d6-2",
        0,
        None,
        (MELEE,),
        "«Оружие»",
        attack_dex=-2,
        improvised=True,
        carried=False,
    ),
    Weapon(
        "improvised_medium",
        "Импровизированное оружие (среднее)",
        "Improvised weapon (medium)",
        "1d6+2",
        0,
        None,
        (MELEE,),
        "«Оружие»",
        attack_dex=-4,
        improvised=True,
        carried=False,
    ),
    Weapon(
        "improvised_large",
        "Импровизированное оружие (большое)",
        "Improvised weapon (large)",
        "2d6",
        0,
        None,
        (MELEE,),
        "«Оружие»",
        attack_dex=-6,
        improvised=True,
        carried=False,
    ),
    Weapon(
        "buckler_bash",
        "Удар баклером",
        "Buckler bash",
        "1d6-2",
        0,
        "melee",
        (MELEE,),
        "«Оружие»",
        attack_dex=-1,
        bash="buckler",
        carried=False,
    ),
    Weapon(
        "shield_bash",
        "Удар щитом",
        "Shield bash",
        "1d6-1",
        0,
        "melee",
        (MELEE,),
        "«Оружие»",
        attack_dex=-2,
        bash="shield",
        carried=False,
    ),
    Weapon(
        "throwing_axe",
        "Метательный топор",
        "Throwing axe",
        "1d6+1",
        9,
        "throwing",
        (THROWN, MELEE),
        "«Оружие»",
        thrown_only=True,
    ),
    Weapon(
        "javelin",
        "Сулица",
        "Javelin",
        "1d6",
        9,
        "throwing",
        (THROWN, MELEE),
        "«Оружие»",
        thrown_only=True,
    ),
    Weapon(
        "stone",
        "Камень",
        "Stone",
        "1d3",
        6,
        "throwing",
        (THROWN, MELEE),
        "«Оружие»",
        thrown_only=True,
    ),
    Weapon(
        "dart",
        "Дротик",
        "Dart",
        "1d6-1",
        0,
        "throwing",
        (THROWN, MELEE),
        "«Оружие»",
        thrown_only=True,
    ),
    Weapon("sling", "Праща", "Sling", "1d6-1", 6, "throwing", (SHOT,), "«Атака»; «Оружие»"),
    Weapon(
        "bow", "Лук", "Bow", "1d6", 9, "shooting", (SHOT,), "«Атака»; «Оружие»", two_handed=True
    ),
    Weapon(
        "longbow",
        "Длинный лук",
        "Longbow",
        "1d6+2",
        10,
        "shooting",
        (SHOT,),
        "«Оружие»",
        two_handed=True,
    ),
    Weapon(
        "crossbow",
        "Арбалет",
        "Crossbow",
        "2d6",
        11,
        "shooting",
        (SHOT,),
        "«Атака»; «Оружие»",
        two_handed=True,
        reload_actions=1,
    ),
    Weapon(
        "heavy_crossbow",
        "Тяжёлый арбалет",
        "Heavy crossbow",
        "2d6+1",
        12,
        "shooting",
        (SHOT,),
        "«Атака»; «Оружие»",
        two_handed=True,
        reload_actions=2,
    ),
)
WEAPONS_BY_KEY: dict[str, Weapon] = {w.key: w for w in WEAPONS}
# Strikes that are not an item in the inventory: bare hands, claws, whatever is at hand.
NATURAL = "natural"
# A throwing-only weapon in melee is a small improvised weapon («Оружие»).
SMALL_IMPROVISED = WEAPONS_BY_KEY["improvised_small"]
# Bows and crossbows forbid moving in the shooter's turn; slings and throws do not («Атака»).
NO_MOVE_WEAPONS = frozenset({"bow", "longbow", "crossbow", "heavy_crossbow"})


# --- armour and shields («Доспехи и щиты»)


@dataclass(frozen=True)
class Armour:
    key: str
    ru: str
    en: str
    reduction: int
    max_dex: int | None
    blocks_casting: bool
    source: str

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


ARMOURS: tuple[Armour, ...] = (
    Armour("none", "Без доспеха", "No armour", 0, None, False, ""),
    Armour("leather", "Кожаный доспех", "Leather armour", 1, 17, False, "«Доспехи и щиты»"),
    Armour("mail", "Кольчуга", "Mail", 2, 15, True, "«Доспехи и щиты»; «Колдовство»"),
    Armour("plate", "Латы", "Plate", 3, 13, True, "«Доспехи и щиты»; «Колдовство»"),
)
ARMOURS_BY_KEY: dict[str, Armour] = {a.key: a for a in ARMOURS}


@dataclass(frozen=True)
class Shield:
    """Penalty to the attacker's Dex in melee and at range, and the bearer's dodge bonus."""

    key: str
    ru: str
    en: str
    melee: int
    ranged: int
    dodge: int
    bash: str
    source: str

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


SHIELDS: tuple[Shield, ...] = (
    Shield("none", "Без щита", "No shield", 0, 0, 0, "", ""),
    Shield("buckler", "Баклер", "Buckler", -1, -2, 1, "buckler_bash", "«Оружие»; «Доспехи и щиты»"),
    Shield("shield", "Щит", "Shield", -2, -3, 2, "shield_bash", "«Оружие»; «Доспехи и щиты»"),
)
SHIELDS_BY_KEY: dict[str, Shield] = {s.key: s for s in SHIELDS}


# --- conditions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """Something true of a creature that changes the rules for it.

    ``attack``: how attacks on the creature roll: ``auto_hit``, ``hard`` or ``very_hard``.
    ``scene``: ends with the scene (charms, «Колдовство»). ``helpless``: cannot react or act freely.
    """

    key: str
    ru: str
    en: str
    source: str
    attack: str = ""
    scene: bool = False
    helpless: bool = False
    spell: str = ""

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


CONDITIONS: tuple[Condition, ...] = (
    Condition("prone", "Сбит с ног", "Knocked down", "«Атака»"),
    Condition("grappled", "В захвате", "Grappled", "«Атака»", attack="auto_hit", helpless=True),
    Condition("grappling", "Держит захват", "Grappling", "«Атака»"),
    Condition(
        "bound",
        "Опутан",
        "Bound",
        "«Чары»",
        attack="auto_hit",
        scene=True,
        helpless=True,
        spell="bonds",
    ),
    Condition(
        "strongly_bound",
        "Крепко опутан",
        "Strongly bound",
        "«Чары»",
        attack="auto_hit",
        scene=True,
        helpless=True,
        spell="strong_bonds",
    ),
    Condition(
        "frozen",
        "Заморожен",
        "Frozen",
        "«Чары»",
        attack="auto_hit",
        scene=True,
        helpless=True,
        spell="freeze",
    ),
    Condition(
        "asleep",
        "Спит",
        "Asleep",
        "«Чары»",
        attack="auto_hit",
        scene=True,
        helpless=True,
        spell="sleep",
    ),
    Condition(
        "blurred",
        "Размытый образ",
        "Blurred",
        "«Чары»",
        attack="hard",
        scene=True,
        spell="blurred_image",
    ),
    Condition(
        "invisible",
        "Невидим",
        "Invisible",
        "«Чары»",
        attack="very_hard",
        scene=True,
        spell="invisibility",
    ),
    Condition(
        "levitating",
        "Левитирует",
        "Levitating",
        "«Чары»",
        attack="hard",
        scene=True,
        spell="levitation",
    ),
    Condition(
        "in_darkness",
        "Во тьме",
        "In darkness",
        "«Чары»",
        attack="hard",
        scene=True,
        spell="darkness",
    ),
    Condition("on_ice", "На льду", "On ice", "«Чары»", scene=True, spell="ice_underfoot"),
    Condition("slowed", "Замедлен", "Slowed", "«Чары»", scene=True, spell="slow"),
    Condition("hasted", "Ускорен", "Hasted", "«Чары»", scene=True, spell="speed"),
    Condition(
        "spatial_mirror",
        "Пространственное зеркало",
        "Spatial mirror",
        "«Чары»",
        scene=True,
        spell="spatial_mirror",
    ),
    Condition(
        "stone_skin", "Каменная кожа", "Stone skin", "«Чары»", scene=True, spell="stone_skin"
    ),
    Condition("iron_skin", "Железная кожа", "Iron skin", "«Чары»", scene=True, spell="iron_skin"),
    Condition(
        "magic_shield",
        "Волшебный щит",
        "Magic shield",
        "«Чары»",
        scene=True,
        spell="magic_shield",
    ),
    Condition(
        "witch_sight",
        "Колдовское зрение",
        "Witch sight",
        "«Чары»",
        scene=True,
        spell="witch_sight",
    ),
    Condition(
        "mind_controlled",
        "Под контролем разума",
        "Mind-controlled",
        "«Чары»",
        scene=True,
        spell="mind_control",
    ),
    Condition(
        "no_casting", "Проклят: не может колдовать", "Cursed: cannot cast", "«Структуры игры»"
    ),
)
CONDITIONS_BY_KEY: dict[str, Condition] = {c.key: c for c in CONDITIONS}
CONDITION_KEYS: tuple[str, ...] = tuple(CONDITIONS_BY_KEY)
# Armour granted by charms, without a Dex cap («Чары»).
SKIN_ARMOUR: dict[str, int] = {"stone_skin": 4, "iron_skin": 6}


# --- spells («Колдовство»; «Чары»; «Мгновенные заклинания»)


@dataclass(frozen=True)
class Spell:
    """One spell. ``direct`` (прямое): an opposed Mind check against the target; else a hard
    Mind check («Колдовство»). ``touch`` (касание): no range («Колдовство»). ``self_ok``: the text
    allows casting it on oneself. ``cost``: how the caster's self-damage works:
    ``"x_before"`` X before the check («Чары»); ``"x_on_success"`` declared before, taken only on
    success («Мгновенные заклинания»); ``"to_one"`` 1 − target HP before the check («Мгновенные
    заклинания»); ``"target_mind"`` the target's Mind before the check («Мгновенные заклинания»);
    ``""`` none.
    ``condition``: the condition the spell puts on its target. ``area``: e.g. ``"3x3"``.
    """

    key: str
    ru: str
    en: str
    min_mind: int
    kind: str  # "charm" (until the end of the scene) or "instant" («Колдовство»)
    source: str
    effect_ru: str
    effect_en: str
    direct: bool = False
    touch: bool = False
    self_ok: bool = False
    cost: str = ""
    condition: str = ""
    area: str = ""
    targets: str = "one"  # "one", "area" (no creature), "many" (everyone around), "none"

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


def _charm(key: str, ru: str, en: str, mind: int, source: str, e_ru: str, e_en: str, **kw) -> Spell:
    return Spell(key, ru, en, mind, "charm", source, e_ru, e_en, **kw)


def _instant(
    key: str, ru: str, en: str, mind: int, source: str, e_ru: str, e_en: str, **kw
) -> Spell:
    return Spell(key, ru, en, mind, "instant", source, e_ru, e_en, **kw)


_FIRE_RU = "Область {a}: вошедший или начавший в ней ход получает 2 повреждения, броня не помогает."
_FIRE_EN = "Area {a}: entering it or starting a turn in it deals 2 damage; armour does not help."
_DARK_RU = "Область {a}: атаки по тем, кто внутри, — сложная проверка."
_DARK_EN = "Area {a}: attacks on anything inside are hard checks."
_WALL_RU = "Неразрушимая стена {a}; нельзя колдовать в занятую область."
_WALL_EN = "An indestructible wall {a}; cannot be cast into an occupied area."
_ICE_RU = "Область {a}: стоящий в ней делает сложной любую проверку, в т.ч. на попадание."
_ICE_EN = "Area {a}: anyone standing in it makes every check hard, attacks included."
_IMAGE_RU = "Иллюзия размером до {a}."
_IMAGE_EN = "An illusion up to {a}."
_X_BEFORE_RU = "Волшебник наносит себе X повреждений до проверки; "
_X_BEFORE_EN = "The caster takes X damage before the check; "

SPELLS: tuple[Spell, ...] = (
    # Charms (чары), «Чары».
    _charm(
        "fire",
        "Огонь",
        "Fire",
        9,
        "«Чары»",
        _FIRE_RU.format(a="1×1"),
        _FIRE_EN.format(a="1×1"),
        area="1x1",
        targets="area",
    ),
    _charm(
        "darkness",
        "Тьма",
        "Darkness",
        10,
        "«Чары»",
        _DARK_RU.format(a="1×1"),
        _DARK_EN.format(a="1×1"),
        area="1x1",
        targets="area",
        condition="in_darkness",
    ),
    _charm(
        "bonds",
        "Путы",
        "Bonds",
        11,
        "«Чары»",
        "Единственное действие цели — проверка силы, чтобы разорвать путы; попадание по ней "
        "автоматическое.",
        "The target's only action is a Str check to break free; hits on it are automatic.",
        direct=True,
        condition="bound",
    ),
    _charm(
        "column",
        "Колонна",
        "Column",
        11,
        "«Чары»",
        _WALL_RU.format(a="1×1"),
        _WALL_EN.format(a="1×1"),
        area="1x1",
        targets="area",
    ),
    _charm(
        "fire_pool",
        "Огненная лужа",
        "Fire pool",
        13,
        "«Чары»",
        _FIRE_RU.format(a="3×3"),
        _FIRE_EN.format(a="3×3"),
        area="3x3",
        targets="area",
    ),
    _charm(
        "wall",
        "Стена",
        "Wall",
        13,
        "«Чары»",
        _WALL_RU.format(a="3×1"),
        _WALL_EN.format(a="3×1"),
        area="3x1",
        targets="area",
    ),
    _charm(
        "area_of_darkness",
        "Область тьмы",
        "Area of darkness",
        13,
        "«Чары»",
        _DARK_RU.format(a="3×3"),
        _DARK_EN.format(a="3×3"),
        area="3x3",
        targets="area",
        condition="in_darkness",
    ),
    _charm(
        "strong_bonds",
        "Крепкие путы",
        "Strong bonds",
        15,
        "«Чары»",
        "Как Путы, но разорвать их можно только сложной проверкой силы.",
        "As Bonds, but breaking free needs a hard Str check.",
        direct=True,
        condition="strongly_bound",
    ),
    _charm(
        "fire_lake",
        "Огненное озеро",
        "Fire lake",
        16,
        "«Чары»",
        _FIRE_RU.format(a="7×7"),
        _FIRE_EN.format(a="7×7"),
        area="7x7",
        targets="area",
    ),
    _charm(
        "impassable_wall",
        "Непреодолимая стена",
        "Impassable wall",
        16,
        "«Чары»",
        _WALL_RU.format(a="7×1"),
        _WALL_EN.format(a="7×1"),
        area="7x1",
        targets="area",
    ),
    _charm(
        "devouring_darkness",
        "Поглощающая тьма",
        "Devouring darkness",
        16,
        "«Чары»",
        _DARK_RU.format(a="7×7"),
        _DARK_EN.format(a="7×7"),
        area="7x7",
        targets="area",
        condition="in_darkness",
    ),
    _charm(
        "blurred_image",
        "Размытый образ",
        "Blurred image",
        8,
        "«Чары»",
        "Попасть по цели можно только сложной проверкой.",
        "Attacks on the target are hard checks.",
        touch=True,
        condition="blurred",
    ),
    _charm(
        "slow",
        "Замедление",
        "Slow",
        8,
        "«Чары»",
        "Цель двигается лишь на четверть своей ловкости.",
        "The target moves only a quarter of its Dex.",
        direct=True,
        condition="slowed",
    ),
    _charm(
        "energy_boost",
        "Форсаж энергий",
        "Energy boost",
        9,
        "«Чары»",
        "+1 к выбранной характеристике.",
        "+1 to a chosen stat.",
        touch=True,
        self_ok=True,
    ),
    _charm(
        "energy_strike",
        "Энергетический удар",
        "Energy strike",
        9,
        "«Чары»",
        _X_BEFORE_RU + "ловкость цели падает на X.",
        _X_BEFORE_EN + "the target loses X Dex.",
        direct=True,
        cost="x_before",
    ),
    _charm(
        "mind_strike",
        "Ментальный удар",
        "Mind strike",
        9,
        "«Чары»",
        _X_BEFORE_RU + "разум цели падает на X.",
        _X_BEFORE_EN + "the target loses X Mind.",
        direct=True,
        cost="x_before",
    ),
    _charm(
        "speed",
        "Скорость",
        "Speed",
        10,
        "«Чары»",
        "Скорость цели становится равной её ловкости.",
        "The target's movement equals its Dex.",
        touch=True,
        condition="hasted",
    ),
    _charm(
        "ice_underfoot",
        "Лёд под ногами",
        "Ice underfoot",
        10,
        "«Чары»",
        _ICE_RU.format(a="1×1"),
        _ICE_EN.format(a="1×1"),
        area="1x1",
        targets="area",
        condition="on_ice",
    ),
    _charm(
        "spatial_mirror",
        "Пространственное зеркало",
        "Spatial mirror",
        11,
        "«Чары»",
        "Метательное и стрелковое оружие возвращается: выпавшее попадание попадает в стреляющего.",
        "Thrown and shot attacks rebound: a roll that hits hits the shooter.",
        touch=True,
        self_ok=True,
        condition="spatial_mirror",
    ),
    _charm(
        "floor_freeze",
        "Заморозка пола",
        "Floor freeze",
        11,
        "«Чары»",
        _ICE_RU.format(a="3×3"),
        _ICE_EN.format(a="3×3"),
        area="3x3",
        targets="area",
        condition="on_ice",
    ),
    _charm(
        "freeze",
        "Заморозка",
        "Freeze",
        12,
        "«Чары»",
        "Атака по цели попадает автоматически, но прекращает заклинание.",
        "Attacks on the target hit automatically but end the spell.",
        direct=True,
        condition="frozen",
    ),
    _charm(
        "invisibility",
        "Невидимость",
        "Invisibility",
        12,
        "«Чары»",
        "Атака по цели — очень сложная проверка (4d10).",
        "Attacks on the target need a very hard check (4d10).",
        touch=True,
        condition="invisible",
    ),
    _charm(
        "witch_sight",
        "Колдовское зрение",
        "Witch sight",
        12,
        "«Чары»",
        "Волшебник видит сквозь преграды, в т.ч. волшебные.",
        "The caster sees through barriers, magical ones included.",
        targets="none",
        condition="witch_sight",
    ),
    _charm(
        "levitation",
        "Левитация",
        "Levitation",
        13,
        "«Чары»",
        "Цель летает со скоростью, равной ловкости; атаки по летящей — сложная проверка.",
        "The target flies at speed = Dex; attacks on it while it flies are hard checks.",
        touch=True,
        self_ok=True,
        condition="levitating",
    ),
    _charm(
        "ice_lake",
        "Ледяное озеро",
        "Ice lake",
        13,
        "«Чары»",
        _ICE_RU.format(a="7×7"),
        _ICE_EN.format(a="7×7"),
        area="7x7",
        targets="area",
        condition="on_ice",
    ),
    _charm(
        "stone_skin",
        "Каменная кожа",
        "Stone skin",
        13,
        "«Чары»",
        "Броня 4 без ограничения ловкости; не сочетается с Железной кожей и второй Каменной.",
        "Armour 4 with no Dex cap; cannot combine with Iron skin or another Stone skin.",
        touch=True,
        self_ok=True,
        condition="stone_skin",
    ),
    _charm(
        "dispel_charms",
        "Развеивание чар",
        "Dispel charms",
        14,
        "«Чары»",
        "Снимает любые чары с области или цели.",
        "Removes all charms from an area or target.",
        touch=True,
        self_ok=True,
    ),
    _charm(
        "magic_shield",
        "Волшебный щит",
        "Magic shield",
        14,
        "«Чары»",
        "Цель не может стать целью прямых и касательных заклинаний.",
        "The target cannot be targeted by direct or touch spells.",
        touch=True,
        condition="magic_shield",
    ),
    _charm(
        "iron_skin",
        "Железная кожа",
        "Iron skin",
        15,
        "«Чары»",
        "Броня 6 без ограничения ловкости; не сочетается с Каменной кожей и второй Железной.",
        "Armour 6 with no Dex cap; cannot combine with Stone skin or another Iron skin.",
        touch=True,
        self_ok=True,
        condition="iron_skin",
    ),
    _charm(
        "dispel_magic",
        "Рассеивание магии",
        "Dispel magic",
        15,
        "«Чары»",
        "Снимает любые чары с области или цели, на расстоянии.",
        "Removes all charms from an area or target, at range.",
        self_ok=True,
    ),
    _charm(
        "death_spell",
        "Заклинание смерти",
        "Death spell",
        16,
        "«Чары»",
        _X_BEFORE_RU + "цель получает 2X повреждений.",
        _X_BEFORE_EN + "the target takes 2X.",
        direct=True,
        cost="x_before",
    ),
    _charm(
        "image",
        "Образ",
        "Image",
        8,
        "«Чары»",
        _IMAGE_RU.format(a="1×1"),
        _IMAGE_EN.format(a="1×1"),
        area="1x1",
        targets="area",
    ),
    _charm(
        "sleep",
        "Сон",
        "Sleep",
        11,
        "«Чары»",
        "Цель засыпает; атака попадает автоматически, но будит; разбудить можно действием.",
        "The target falls asleep; an attack hits automatically but wakes it; an action also "
        "wakes it.",
        direct=True,
        condition="asleep",
    ),
    _charm(
        "large_image",
        "Большой образ",
        "Large image",
        11,
        "«Чары»",
        _IMAGE_RU.format(a="4×4"),
        _IMAGE_EN.format(a="4×4"),
        area="4x4",
        targets="area",
    ),
    _charm(
        "mind_control",
        "Контроль разума",
        "Mind control",
        13,
        "«Чары»",
        "Как успешная проверка дипломатии (враждебный) или харизмы (нейтральный).",
        "Counts as a successful Diplomacy (hostile) or Charisma (neutral) check.",
        condition="mind_controlled",
    ),
    _charm(
        "huge_image",
        "Огромный образ",
        "Huge image",
        15,
        "«Чары»",
        _IMAGE_RU.format(a="7×7"),
        _IMAGE_EN.format(a="7×7"),
        area="7x7",
        targets="area",
    ),
    _charm(
        "mass_sleep",
        "Массовый сон",
        "Mass sleep",
        16,
        "«Чары»",
        "Все в области 7×7, проигравшие противопоставленную проверку разума, засыпают.",
        "Everyone in a 7×7 area who loses an opposed Mind check falls asleep.",
        direct=True,
        area="7x7",
        targets="many",
        condition="asleep",
    ),
    _charm(
        "werewolf_form",
        "Обращение в человековолка",
        "Werewolf form",
        11,
        "«Чары»",
        "Сила прежняя, ловкость 13, скорость 8, когти d6+1, броня 1 без ограничения ловкости.",
        "Str unchanged, Dex 13, movement 8, claws d6+1, armour 1 with no Dex cap.",
        touch=True,
    ),
    _charm(
        "werebear_form",
        "Обращение в человекомедведя",
        "Werebear form",
        13,
        "«Чары»",
        "Сила ×3, ловкость 11, когти 3d6, броня 2; полученные повреждения исчезают.",
        "Str ×3, Dex 11, claws 3d6, armour 2; damage taken in this form vanishes.",
        touch=True,
    ),
    _charm(
        "gargoyle_form",
        "Обращение в гаргулиска",
        "Gargoyle form",
        16,
        "«Чары»",
        "Сила ×2, ловкость 11, полёт 16, руки 2d6, броня 4; повреждения остаются.",
        "Str ×2, Dex 11, flying 16, fists 2d6, armour 4; damage taken remains.",
        touch=True,
    ),
    _charm(
        "summon_wolf",
        "Призыв волка",
        "Summon wolf",
        9,
        "«Чары»",
        "Волк: сила 10, ловкость 13, разум 6, повреждения 1d6+1, шкура 1.",
        "A wolf: Str 10, Dex 13, Mind 6, damage 1d6+1, hide 1.",
        targets="none",
    ),
    _charm(
        "summon_soldier",
        "Призыв солдата",
        "Summon soldier",
        10,
        "«Чары»",
        "Солдат: сила 12, ловкость 12, разум 8, обычное оружие и щит.",
        "A soldier: Str 12, Dex 12, Mind 8, ordinary weapon and shield.",
        targets="none",
    ),
    _charm(
        "summon_entity",
        "Призыв сущности",
        "Summon entity",
        14,
        "«Чары»",
        "Элементал: сила 45, ловкость 10, разум 8, повреждения 3d6+3, броня 3.",
        "An elemental: Str 45, Dex 10, Mind 8, damage 3d6+3, armour 3.",
        targets="none",
    ),
    # Instant spells (мгновенные), «Мгновенные заклинания».
    _instant(
        "heal_wounds",
        "Лечение ран",
        "Heal wounds",
        10,
        "«Мгновенные заклинания»",
        _X_BEFORE_RU + "цель восстанавливает 2X хитов до максимума.",
        _X_BEFORE_EN + "the target regains 2X HP up to max.",
        touch=True,
        cost="x_before",
    ),
    _instant(
        "return_to_life",
        "Возвращение к жизни",
        "Return to life",
        14,
        "«Мгновенные заклинания»",
        "Недавно умерший получает 1 хит; волшебник до проверки получает столько "
        "повреждений, сколько хитов восстановлено.",
        "A recently dead character goes back up to 1 HP; the caster takes the HP restored "
        "as damage before the check.",
        touch=True,
        cost="to_one",
    ),
    _instant(
        "magic_strike",
        "Волшебный удар",
        "Magic strike",
        8,
        "«Мгновенные заклинания»",
        "X объявляется до проверки; при успехе волшебник получает X, цель — Xd6.",
        "Declare X before the check; on success the caster takes X and the target Xd6.",
        touch=True,
        cost="x_on_success",
    ),
    _instant(
        "hot_weapon",
        "Горячее оружие",
        "Hot weapon",
        8,
        "«Мгновенные заклинания»",
        "Цель бросает оружие на пол.",
        "The target drops its weapon.",
        direct=True,
    ),
    _instant(
        "magic_push",
        "Волшебный толчок",
        "Magic push",
        10,
        "«Мгновенные заклинания»",
        "Цель сдвигается на одну дистанцию или падает.",
        "The target moves 1 unit or is knocked down.",
        direct=True,
    ),
    _instant(
        "blast",
        "Взрыв",
        "Blast",
        12,
        "«Мгновенные заклинания»",
        "Все рядом с волшебником получают d6 повреждений.",
        "Everyone next to the caster takes d6.",
        targets="many",
    ),
    _instant(
        "exploding_weapon",
        "Взрывное оружие",
        "Exploding weapon",
        12,
        "«Мгновенные заклинания»",
        "Оружие цели разлетается; цель получает d3 повреждений.",
        "The target's weapon shatters and the target takes d3.",
    ),
    _instant(
        "fireball",
        "Огненный шар",
        "Fireball",
        12,
        "«Мгновенные заклинания»",
        "Как Волшебный удар, но на расстоянии; может начать пожар.",
        "As Magic strike, but at range; may start a fire.",
        cost="x_on_success",
    ),
    _instant(
        "lightning",
        "Молния",
        "Lightning",
        14,
        "«Мгновенные заклинания»",
        "3d6 повреждений цели.",
        "3d6 damage to the target.",
        direct=True,
    ),
    _instant(
        "flash",
        "Вспышка",
        "Flash",
        8,
        "«Мгновенные заклинания»",
        "Все рядом со вспышкой пропускают следующий ход.",
        "Everyone next to the flash skips their next turn.",
        targets="many",
    ),
    _instant(
        "teleport",
        "Телепорт",
        "Teleport",
        15,
        "«Мгновенные заклинания»",
        "Перемещает персонажа из одной области в другую; цель может не сопротивляться.",
        "Moves a character from one area to another; the target may choose not to resist.",
        direct=True,
    ),
    _instant(
        "return_to_the_living",
        "Возвращение в мир живых",
        "Return to the world of the living",
        16,
        "«Мгновенные заклинания»",
        "Душа умершего входит в тело цели; при успехе цель умирает. Сила — цели, ловкость, "
        "разум и навыки — умершего. Волшебник до проверки получает повреждения, равные "
        "разуму цели.",
        "Puts a dead character's soul into the target's body; on success the target dies. "
        "The body keeps the target's Str and takes the dead one's Dex, Mind and skills. The "
        "caster takes damage equal to the target's Mind before the check.",
        direct=True,
        cost="target_mind",
    ),
)
SPELLS_BY_KEY: dict[str, Spell] = {s.key: s for s in SPELLS}
SPELL_KEYS: tuple[str, ...] = tuple(SPELLS_BY_KEY)


# --- shapes taken by transformation spells and summoned creatures («Чары») -------------------


@dataclass(frozen=True)
class Form:
    """A body a Transformation charm gives. ``str_mult`` multiplies Str; ``dex``/``movement``
    replace the normal values (``None``: computed as usual); ``damage_vanishes`` (werebear,
    «Чары») or stays (gargoyle, «Чары»)."""

    key: str
    spell: str
    ru: str
    en: str
    str_mult: int
    dex: int
    movement: int | None
    flying: bool
    damage: str
    armour: int
    damage_vanishes: bool

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


FORMS: tuple[Form, ...] = (
    Form(
        "werewolf", "werewolf_form", "Человековолк", "Werewolf", 1, 13, 8, False, "1d6+1", 1, False
    ),
    Form(
        "werebear",
        "werebear_form",
        "Человекомедведь",
        "Werebear",
        3,
        11,
        None,
        False,
        "3d6",
        2,
        True,
    ),
    Form("gargoyle", "gargoyle_form", "Гаргулиск", "Gargoyle", 2, 11, 16, True, "2d6", 4, False),
)
FORMS_BY_KEY: dict[str, Form] = {f.key: f for f in FORMS}
FORM_BY_SPELL: dict[str, Form] = {f.spell: f for f in FORMS}


@dataclass(frozen=True)
class Summon:
    key: str
    spell: str
    ru: str
    en: str
    stats: dict[str, int] = field(default_factory=dict)
    damage: str = ""
    armour: int = 0
    weapon: str = ""
    shield: str = "none"

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


SUMMONS: tuple[Summon, ...] = (
    Summon("wolf", "summon_wolf", "Волк", "Wolf", {"str": 10, "dex": 13, "mind": 6}, "1d6+1", 1),
    Summon(
        "soldier",
        "summon_soldier",
        "Солдат небесного или адского воинства",
        "Soldier of a heavenly or hellish host",
        {"str": 12, "dex": 12, "mind": 8},
        weapon="ordinary",
        shield="shield",
    ),
    Summon(
        "entity",
        "summon_entity",
        "Элементал",
        "Elemental",
        {"str": 45, "dex": 10, "mind": 8},
        "3d6+3",
        3,
    ),
)
SUMMON_BY_SPELL: dict[str, Summon] = {s.spell: s for s in SUMMONS}
ELEMENTS: tuple[Choice, ...] = (
    Choice("earth", "Земля", "Earth"),
    Choice("water", "Вода", "Water"),
    Choice("fire", "Огонь", "Fire"),
    Choice("air", "Воздух", "Air"),
)


# --- traps («Ловушки») ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Trap:
    """A trap row: the stat that avoids it and what a failure does.

    ``effect``: ``damage`` (``damage`` notation, armour applies), ``ceiling``
    (death unless a hard Str check holds it), ``pit`` (falling, ``depth`` metres), ``poison``
    (damage, then a Str check or death), ``curse``, ``exploding_weapon`` (as the spell).
    ``spikes``: extra damage in a spiked pit.
    """

    roll: int
    key: str
    ru: str
    en: str
    avoid: str
    effect: str
    source: str
    damage: str = ""
    depth: str = ""
    spikes: str = ""

    def as_dict(self) -> dict[str, Any]:
        return without_source(asdict(self))


TRAPS: tuple[Trap, ...] = (
    Trap(
        1,
        "wall_arrow",
        "Стрела из стены",
        "Arrow from the wall",
        "dex",
        "damage",
        "«Ловушки»",
        damage="1d6",
    ),
    Trap(2, "ceiling", "Опускается потолок", "Descending ceiling", "dex", "ceiling", "«Ловушки»"),
    Trap(3, "pit", "Яма-ловушка", "Pit", "dex", "pit", "«Ловушки»", depth="1d10+3"),
    Trap(
        4,
        "poison_arrow",
        "Ядовитая стрела из стены",
        "Poisoned arrow",
        "dex",
        "poison",
        "«Ловушки»",
        damage="1d6",
    ),
    Trap(5, "curse", "Насылаемое проклятье", "Curse", "mind", "curse", "«Ловушки»"),
    Trap(6, "acid_gas", "Кислотный газ", "Acid gas", "str", "damage", "«Ловушки»", damage="3d6"),
    Trap(
        7,
        "spring_axe",
        "Удар секирой на пружине",
        "Spring-loaded axe",
        "dex",
        "damage",
        "«Ловушки»",
        damage="2d6",
    ),
    Trap(
        8,
        "exploding_weapon",
        "Заклинание Взрывное оружие",
        "Exploding weapon spell",
        "mind",
        "exploding_weapon",
        "«Ловушки»",
    ),
    Trap(
        9,
        "magic_blow",
        "Магический удар по организму",
        "Magic blow to the body",
        "mind",
        "damage",
        "«Ловушки»",
        damage="4d6",
    ),
    Trap(
        10,
        "spiked_pit",
        "Яма-ловушка с шипами",
        "Spiked pit",
        "dex",
        "pit",
        "«Ловушки»",
        depth="1d10+3",
        spikes="3d6",
    ),
)
TRAPS_BY_KEY: dict[str, Trap] = {t.key: t for t in TRAPS}
TRAPS_BY_ROLL: dict[int, Trap] = {t.roll: t for t in TRAPS}


def choices_of(items: tuple[Any, ...]) -> tuple[Choice, ...]:
    """``Choice`` list (for a ``ChoiceField``) from data rows with ``key``/``ru``/``en``."""
    return tuple(Choice(i.key, i.ru, i.en) for i in items)
