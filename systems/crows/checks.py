"""Checks («Проверки»): 2d10 + a characteristic, read in three tiers.

There is no d20. Expertise is chosen after the roll («Проверки › Экспертизы»), so the order of
resolution is:

1. total = natural 2d10 + characteristic + flat bonuses, with +2/-2 for a *single* advantage or
   disadvantage;
2. tier from the total: ≤11 → 1, 12–16 → 2, 17+ → 3 («Проверки › Результаты проверки»);
3. a *double* advantage or disadvantage moves the tier one step instead of ±2
(«Проверки › Преимущество»; «Проверки › Помеха»);
4. crit (natural 19–20) forces tier 3 and doom (natural 2–3) forces tier 1, judged on the
   unmodified dice («Проверки › Криты и рок»);
5. one expertise use may then raise the tier by one («Проверки › Экспертизы»), never on a doom.

Everything here is pure: faces in, a frozen ``CheckResult`` out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from systems.core.dice import Dice
from systems.core.ruleset import RulesError
from systems.core.schema import msg

BANDS: tuple[str, ...] = ("1", "2", "3")
CRIT_MIN = 19  # «Проверки › Криты и рок»
DOOM_MAX = 3  # «Проверки › Криты и рок»
# «Проверки › Преимущество»; «Проверки › Помеха»: a single advantage is +2, a single disadvantage -2
SINGLE_STEP = 2

# Check kinds and which expertise categories apply to them («Проверки › Экспертизы»;
# «Проверки › Атаки»; «Проверки › Сотворения»; «Проверки › Броски сопротивления»).
KINDS: tuple[str, ...] = ("general", "help", "attack", "casting", "resistance")
KIND_EXPERTISE: dict[str, tuple[str, ...]] = {
    "general": ("general",),
    "help": ("general",),
    "attack": ("weapon",),  # a spell attack uses magical expertise («Бой › Как атаковать»)
    "casting": ("magical",),
    "resistance": (
        "general",
        "magical",
        "weapon",
    ),  # "любая обоснованная экспертиза" («Проверки › Броски сопротивления»)
}


def tier_for_total(total: int) -> int:
    """≤11 is tier 1, 12–16 tier 2, 17+ tier 3 («Проверки › 1-я ступень (11 или меньше)»;
    «Проверки › 2-я ступень (от 12 до 16)»; «Проверки › 3-я ступень (17 или больше)»)."""
    if total >= 17:
        return 3
    if total >= 12:
        return 2
    return 1


def net_advantage(advantages: int, disadvantages: int) -> int:
    """Net of advantage and disadvantage sources, -2..+2
    («Проверки › Проверки с преимуществами и помехами»).

    ``min(A, 2) - min(D, 2)``: two or more sources make a double; a double and a single on the
    other side leave a single "however many sources made up the double"
    («Проверки › Проверки с преимуществами и помехами»).
    """
    if advantages < 0 or disadvantages < 0:
        raise ValueError("source counts cannot be negative")
    return min(advantages, 2) - min(disadvantages, 2)


def is_crit(natural: int) -> bool:
    return natural >= CRIT_MIN


def is_doom(natural: int) -> bool:
    return natural <= DOOM_MAX


# --- advantage and disadvantage sources -------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A named reason for advantage (+1) or disadvantage (-1); ``weight`` 2 is a double."""

    key: str
    ru: str
    en: str
    side: int
    weight: int
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "ru": self.ru,
            "en": self.en,
            "side": "advantage" if self.side > 0 else "disadvantage",
            "weight": self.weight,
        }


# The rules that name advantage or disadvantage.
SOURCES: tuple[Source, ...] = (
    Source("advantage", "Преимущество", "Advantage", 1, 1, "«Проверки › Преимущество»"),
    Source("disadvantage", "Помеха", "Disadvantage", -1, 1, "«Проверки › Помеха»"),
    Source("blessed", "Благословлён", "Blessed", 1, 1, "«Состояния › Благословлён»"),
    Source("weakened", "Ослаблен", "Weakened", -1, 1, "«Состояния › Ослаблен»"),
    Source("flanking", "Фланкирование", "Flanking", 1, 1, "«Бой › Фланкирование»"),
    Source("high_ground", "Возвышенность", "High ground", 1, 1, "«Бой › Возвышенность»"),
    Source(
        "hidden",
        "Вы скрыты от цели",
        "You are hidden from the target",
        1,
        1,
        "«Проверки › Прятаться и красться»",
    ),
    Source(
        "hidden_source",
        "Вас заставил бросать скрытый от вас",
        "Forced by a creature hidden from you",
        -1,
        1,
        "«Проверки › Прятаться и красться»",
    ),
    Source("target_grabbed", "Цель схвачена", "Target grabbed", 1, 1, "«Состояния › Схвачен»"),
    Source(
        "target_prone_melee",
        "Цель сбита с ног (ближняя атака)",
        "Target prone (melee)",
        1,
        1,
        "«Состояния › Сбит с ног»",
    ),
    Source(
        "target_prone_ranged",
        "Цель сбита с ног (дальняя атака)",
        "Target prone (ranged)",
        -1,
        1,
        "«Состояния › Сбит с ног»",
    ),
    Source(
        "prone_melee",
        "Вы сбиты с ног (ближняя атака)",
        "You are prone (melee)",
        -1,
        1,
        "«Состояния › Сбит с ног»",
    ),
    Source("cover", "Укрытие", "Cover", -1, 1, "«Линия эффекта › Укрытие»"),
    Source("dim_light", "Тусклый свет", "Dim light", -1, 1, "«Свет › Тусклый свет»"),
    Source("darkness", "Темнота", "Darkness", -1, 2, "«Свет › Темнота»"),
    Source(
        "light_concealment",
        "Лёгкая завеса",
        "Light concealment",
        -1,
        1,
        "«Линия эффекта › Лёгкая завеса»",
    ),
    Source(
        "heavy_concealment",
        "Плотная завеса",
        "Heavy concealment",
        -1,
        2,
        "«Линия эффекта › Плотная завеса»",
    ),
    Source("invisible", "Невидимость", "Invisible", -1, 2, "«Линия эффекта › Невидимость»"),
    Source(
        "sneaking_fast",
        "Крадётесь быстрее половины скорости",
        "Sneaking faster than half speed",
        -1,
        1,
        "«Проверки › Прятаться и красться»",
    ),
    Source(
        "unconscious_notice",
        "Без сознания: заметить что-либо",
        "Unconscious: noticing",
        -1,
        2,
        "«Состояния › Без сознания»",
    ),
    Source(
        "ranged_adjacent",
        "Дальняя атака по соседнему существу",
        "Ranged attack at an adjacent creature",
        -1,
        1,
        "«Бой › Дальние атаки»",
    ),
    Source("taunted", "Насмешка", "Taunted", -1, 1, "«Бой › Действие „Насмешка“»"),
    Source(
        "improvised_weapon",
        "Импровизированное оружие",
        "Improvised weapon",
        -1,
        1,
        "«Бой › Дальние атаки»",
    ),
    Source(
        "submerged",
        "В воде без скорости плавания",
        "Submerged without a swim speed",
        -1,
        1,
        "«Бой › Плавание и лазание»",
    ),
    Source("run_up", "Разбег перед прыжком", "Run-up before a jump", 1, 1, "«Бой › Прыжок»"),
    # lasting effects, travel pace and tipping objects
    Source(
        "stench",
        "Облако зловония (отдача)",
        "Stench cloud (backlash)",
        -1,
        1,
        "«Заклинания › Виды отдачи»",
    ),
    Source(
        "dancing",
        "Вынужденный танец (отдача)",
        "Forced dancing (backlash)",
        -1,
        1,
        "«Заклинания › Виды отдачи»",
    ),
    Source(
        "gloom",
        "Уныние (Миазма)",
        "Gloom (the Miasma)",
        1,
        1,
        "«Путешествие по суше › Эффекты Миазмы»",
    ),
    Source("slow_pace", "Медленный темп", "Slow pace", 1, 1, "«Путешествие по суше › Темп пути»"),
    Source("fast_pace", "Быстрый темп", "Fast pace", -1, 1, "«Путешествие по суше › Темп пути»"),
    Source(
        "object_larger",
        "Предмет крупнее вас",
        "The object is larger than you",
        -1,
        1,
        "«Бой › Опрокидывание предметов»",
    ),
    Source(
        "object_much_larger",
        "Предмет на две категории крупнее",
        "The object is two sizes larger",
        -1,
        2,
        "«Бой › Опрокидывание предметов»",
    ),
)
SOURCES_BY_KEY: dict[str, Source] = {s.key: s for s in SOURCES}


def count_sources(
    keys: Iterable[str], *, advantages: int = 0, disadvantages: int = 0
) -> tuple[int, int]:
    """(A, D) from named sources (each counted once) plus unnamed extra counts."""
    a, d = advantages, disadvantages
    for key in dict.fromkeys(keys):
        source = SOURCES_BY_KEY.get(key)
        if source is None:
            raise RulesError(
                {"sources": [msg(f"Неизвестный источник: {key}.", f"Unknown source: {key}.")]}
            )
        if source.side > 0:
            a += source.weight
        else:
            d += source.weight
    return a, d


# --- the check itself -------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One check, every number the table may want to see."""

    faces: tuple[int, ...]
    characteristic: str | None
    value: int  # the characteristic's value
    advantages: int
    disadvantages: int
    net: int  # -2..+2
    bonus: int  # flat bonuses and penalties («Проверки › Бонусы и штрафы»), help included
    natural: int
    total: int | None  # None when no dice were rolled (automatic doom)
    base_tier: int  # tier of the total alone
    shift: int  # -1, 0, +1 from a double disadvantage or advantage
    tier: int
    crit: bool
    doom: bool
    automatic: str = ""  # "doom" (unconscious Agility/Strength), "tier3" (vs unconscious)
    expertise: str = ""  # key of the expertise applied, if any
    kind: str = "general"

    @property
    def band(self) -> str:
        return str(self.tier)

    @property
    def modifier(self) -> int:
        """Everything added to the natural dice (the ±2 of a single step included)."""
        return self.value + self.bonus + single_step(self.net)

    def as_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["faces"] = list(self.faces)
        data["band"] = self.band
        data["modifier"] = self.modifier
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckResult:
        fields = {f.name for f in dataclasses.fields(cls)}
        clean = {k: v for k, v in data.items() if k in fields}
        clean["faces"] = tuple(clean["faces"])
        return cls(**clean)


def single_step(net: int) -> int:
    """+2 for a single advantage, -2 for a single disadvantage, 0 otherwise
    («Проверки › Преимущество»; «Проверки › Помеха»)."""
    if net == 1:
        return SINGLE_STEP
    if net == -1:
        return -SINGLE_STEP
    return 0


def tier_shift(net: int) -> int:
    """A double advantage raises the tier one step, a double disadvantage lowers it."""
    if net >= 2:
        return 1
    if net <= -2:
        return -1
    return 0


def evaluate(
    faces: tuple[int, ...] | list[int],
    *,
    value: int = 0,
    advantages: int = 0,
    disadvantages: int = 0,
    bonus: int = 0,
    characteristic: str | None = None,
    kind: str = "general",
    force_tier3: bool = False,
    force_tier3_on_doom: bool = True,
) -> CheckResult:
    """Read known faces as a check (in the order above).

    ``force_tier3`` is an attack against an unconscious target («Состояния › Без сознания»): always
    tier 3, the attacker still rolls for a crit; with ``force_tier3_on_doom`` even a doom stays tier
    3 (the specific rule beats the general one, «Игра исключений»).
    """
    faces = tuple(faces)
    natural = sum(faces)
    net = net_advantage(advantages, disadvantages)
    total = natural + value + bonus + single_step(net)
    base = tier_for_total(total)
    shift = tier_shift(net)
    tier = min(3, max(1, base + shift))
    crit, doom = is_crit(natural), is_doom(natural)
    if crit:
        tier = 3
    if doom:
        tier = 1
    automatic = ""
    if force_tier3 and (not doom or force_tier3_on_doom):
        tier = 3
        automatic = "tier3"
    return CheckResult(
        faces=faces,
        characteristic=characteristic,
        value=value,
        advantages=advantages,
        disadvantages=disadvantages,
        net=net,
        bonus=bonus,
        natural=natural,
        total=total,
        base_tier=base,
        shift=shift,
        tier=tier,
        crit=crit,
        doom=doom,
        automatic=automatic,
        kind=kind,
    )


def roll_check(dice: Dice, **kwargs: Any) -> CheckResult:
    """Roll 2d10 and read them with ``evaluate`` («Проверки › Как делать проверку»)."""
    faces = (dice.roll(10), dice.roll(10))
    return evaluate(faces, **kwargs)


def automatic_doom(
    *,
    characteristic: str | None,
    value: int = 0,
    kind: str = "general",
    advantages: int = 0,
    disadvantages: int = 0,
    bonus: int = 0,
) -> CheckResult:
    """An unconscious creature's Agility or Strength check: doom without a roll
    («Состояния › Без сознания»)."""
    return CheckResult(
        faces=(),
        characteristic=characteristic,
        value=value,
        advantages=advantages,
        disadvantages=disadvantages,
        net=net_advantage(advantages, disadvantages),
        bonus=bonus,
        natural=0,
        total=None,
        base_tier=1,
        shift=0,
        tier=1,
        crit=False,
        doom=True,
        automatic="doom",
        kind=kind,
    )


def expertise_blocked(result: CheckResult) -> bool:
    """A doom ignores expertise («Проверки › Криты и рок»); an automatic tier 3 needs none."""
    return result.doom or result.tier >= 3


def apply_expertise(result: CheckResult, expertise: str) -> CheckResult:
    """One expertise use raises the tier by one, max 3 («Проверки › Экспертизы»); never on a doom
    («Проверки › Криты и рок»)."""
    if result.doom:
        raise RulesError(
            {
                "expertise": [
                    msg(
                        "При роке экспертиза не помогает.",
                        "Expertise cannot lift a doom.",
                    )
                ]
            }
        )
    if result.expertise:
        raise RulesError(
            {
                "expertise": [
                    msg(
                        "К одной проверке — только одна экспертиза.",
                        "Only one expertise per check.",
                    )
                ]
            }
        )
    return dataclasses.replace(result, tier=min(3, result.tier + 1), expertise=expertise)


# --- help and group checks («Проверки › Особые проверки») -------------------------------------

HELP_MODIFIER: dict[int, int] = {1: -1, 2: 1, 3: 2}  # «Проверки › Помощь»


def help_modifier(tier: int) -> int:
    """What a help check gives the helped check: -1, +1 or +2, all flat («Проверки › Помощь»)."""
    return HELP_MODIFIER[tier]


def group_cost_payers(leader: str, helpers: Iterable[dict[str, Any]]) -> list[str]:
    """On a tier-2 success at a cost, the leader and every helper who gave -1 pay
    («Проверки › Групповые проверки»)."""
    return [leader, *(h["name"] for h in helpers if h["modifier"] < 0)]


# --- d100 («Кости») ------------------------------------------------------------------------------


def d100_from_faces(tens: int, units: int) -> int:
    """Two d10 as tens and units, a 10 reading 0, double 10 reading 100: range 1–100 («Кости»)."""
    value = (tens % 10) * 10 + (units % 10)
    return 100 if value == 0 else value


def roll_d100(dice: Dice) -> tuple[int, tuple[int, int]]:
    tens, units = dice.roll(10), dice.roll(10)
    return d100_from_faces(tens, units), (tens, units)


# --- exact odds -------------------------------------------------------------------------------


def natural_counts() -> dict[int, int]:
    """How many of the 100 face pairs give each natural 2d10 sum."""
    counts: dict[int, int] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            counts[a + b] = counts.get(a + b, 0) + 1
    return counts


_NATURALS = natural_counts()


def check_odds_exact(
    *,
    value: int = 0,
    advantages: int = 0,
    disadvantages: int = 0,
    bonus: int = 0,
    force_tier3: bool = False,
    force_tier3_on_doom: bool = True,
    automatic_doom_roll: bool = False,
    expertise: bool = False,
) -> dict[str, Fraction]:
    """Exact chance of tier 1/2/3 and of crit and doom (flags, not extra tiers).

    ``expertise`` shows the odds when the player spends one use whenever it helps (tier < 3,
    not a doom). Tiers sum to exactly 1.
    """
    out = {"1": Fraction(0), "2": Fraction(0), "3": Fraction(0)}
    crit = doom = Fraction(0)
    if automatic_doom_roll:
        return {
            "1": Fraction(1),
            "2": Fraction(0),
            "3": Fraction(0),
            "crit": crit,
            "doom": Fraction(1),
        }
    for natural, count in _NATURALS.items():
        faces = (natural,)  # evaluate only needs the sum
        r = evaluate(
            faces,
            value=value,
            advantages=advantages,
            disadvantages=disadvantages,
            bonus=bonus,
            force_tier3=force_tier3,
            force_tier3_on_doom=force_tier3_on_doom,
        )
        tier = r.tier
        if expertise and not r.doom and tier < 3:
            tier += 1
        p = Fraction(count, 100)
        out[str(tier)] += p
        crit += p if r.crit else 0
        doom += p if r.doom else 0
    out["crit"] = crit
    out["doom"] = doom
    return out


def check_odds(**kwargs: Any) -> dict[str, float]:
    """``check_odds_exact`` as floats, the shape ``Ruleset.odds`` returns."""
    return {k: float(v) for k, v in check_odds_exact(**kwargs).items()}
