"""Trait checks as pure functions («Проверки параметров»; «Взрывной бросок»; «Подъёмы»; «Неумелые
попытки»; «Встречные проверки»; «Совместные проверки»; «Групповые проверки»; «Дикий кубик»).

A trait check rolls the trait die and, for a wild card, the wild die d6; both explode (ace) on
their top face («Взрывной бросок»; «Дикий кубик»); the better of the two is kept, then modifiers
apply («Взрывной бросок»). The check succeeds at TN 4 or more («Проверки параметров»); every full 4
over the TN is a raise («Подъёмы»). Double 1 on the first faces of both dice is a critical failure
(«Дикий кубик»), decided before modifiers (our reading).

Rolling order, which ``ScriptedDice`` scripts follow: the trait die with its aces, then the
wild die with its aces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import MAX_EXPLOSIONS

TN = 4  # «Проверки параметров»: "по умолчанию сложность всех проверок равна 4"
RAISE_STEP = 4  # «Подъёмы»: "Каждые 4 пункта сверх сложности — это подъём"
WILD_DIE = 6  # «Дикий кубик»: wild cards also roll a d6
UNSKILLED_DIE = 4  # «Неумелые попытки»: "бросает d4 и вычитает 2"
UNSKILLED_PENALTY = -2  # «Неумелые попытки»
DIE_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12)  # [published edition] trait dice d4..d12
MAX_DIE_BONUS = 10  # d12+N above d12 [published edition]; a cap keeps sheets sane

# «Проверки параметров»: easy +2, difficult -2, very difficult -4.
DIFFICULTIES: dict[str, int] = {
    "normal": 0,
    "easy": 2,
    "difficult": -2,
    "very_difficult": -4,
}

CRITICAL_FAILURE = "critical_failure"
FAILURE = "failure"
SUCCESS = "success"
RAISE = "raise"
BANDS: tuple[str, ...] = (CRITICAL_FAILURE, FAILURE, SUCCESS, RAISE)

_DIE_RE = re.compile(r"^\s*[dDкК]\s*(\d{1,2})\s*(?:\+\s*(\d{1,2}))?\s*$")


@dataclass(frozen=True)
class Die:
    """A trait die type: d4..d12, and d12+N past d12 (the +N is a modifier to the roll)."""

    sides: int
    bonus: int = 0

    @property
    def label(self) -> str:
        return f"d{self.sides}" + (f"+{self.bonus}" if self.bonus else "")

    @property
    def half(self) -> int:
        """Half the die for Parry and Toughness; d12+N adds half of N, rounded down."""
        return self.sides // 2 + self.bonus // 2


def parse_die(text: str) -> Die:
    """``"d8"``, ``"к8"``, ``"d12+1"`` -> ``Die``; anything else is a ``ValueError``."""
    match = _DIE_RE.match(text or "")
    if not match:
        raise ValueError(f"not a trait die: {text!r}")
    sides = int(match.group(1))
    bonus = int(match.group(2) or 0)
    if sides not in DIE_SIDES:
        raise ValueError(f"trait dice are d4, d6, d8, d10 or d12, not d{sides}")
    if bonus and sides != 12:
        raise ValueError("only d12 takes a bonus (d12+1, d12+2, ...)")
    if bonus > MAX_DIE_BONUS:
        raise ValueError(f"at most d12+{MAX_DIE_BONUS}")
    return Die(sides, bonus)


@dataclass(frozen=True)
class Explosion:
    """One exploding die: every face rolled, in order; ``capped`` if the safety cap stopped it."""

    sides: int
    faces: tuple[int, ...]
    capped: bool = False

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def first(self) -> int:
        return self.faces[0]


def roll_exploding(dice: Dice, sides: int) -> Explosion:
    """Взрывной бросок («Взрывной бросок»): on the top face roll again and add, with no limit in the
    rulebook («Правила игры: пример» has two aces in a row). A cap of ``MAX_EXPLOSIONS`` extra rolls
    guards against a broken dice source; the odds in ``odds.py`` use the same cap, so they stay
    exact."""
    faces = [dice.roll(sides)]
    while faces[-1] == sides and len(faces) <= MAX_EXPLOSIONS:
        faces.append(dice.roll(sides))
    capped = len(faces) == MAX_EXPLOSIONS + 1 and faces[-1] == sides
    return Explosion(sides, tuple(faces), capped)


def raises_for(total: int, tn: int = TN) -> int:
    """Подъёмы («Подъёмы»): one per full 4 over the TN, counted after modifiers; 0 on a failure."""
    return (total - tn) // RAISE_STEP if total >= tn else 0


def band_for(total: int, tn: int = TN, *, critical: bool = False) -> str:
    """The band of a check: critical failure beats any total (our reading), then TN, then raises."""
    if critical:
        return CRITICAL_FAILURE
    if total < tn:
        return FAILURE
    return RAISE if raises_for(total, tn) else SUCCESS


@dataclass(frozen=True)
class Attempt:
    """One roll of a trait check: the trait die, the wild die (wild cards and group checks) and
    the modifier applied to the better of the two («Взрывной бросок»; «Неумелые попытки»; «Дикий
    кубик»)."""

    trait: Explosion
    wild: Explosion | None
    modifier: int
    tn: int = TN
    crit_possible: bool = True

    @property
    def natural(self) -> int:
        """The better die before modifiers («Дикие карты и статисты»; «Дикий кубик»)."""
        if self.wild is None:
            return self.trait.total
        return max(self.trait.total, self.wild.total)

    @property
    def total(self) -> int:
        return self.natural + self.modifier

    @property
    def critical(self) -> bool:
        """«Дикий кубик»: "две единицы" — the first faces of both dice are 1; an ace is never a
        1."""
        return (
            self.crit_possible
            and self.wild is not None
            and self.trait.first == 1
            and self.wild.first == 1
        )

    @property
    def success(self) -> bool:
        return not self.critical and self.total >= self.tn

    @property
    def raises(self) -> int:
        return 0 if self.critical else raises_for(self.total, self.tn)

    @property
    def band(self) -> str:
        return band_for(self.total, self.tn, critical=self.critical)

    @property
    def faces(self) -> list[int]:
        return list(self.trait.faces) + (list(self.wild.faces) if self.wild else [])

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "trait",
            "trait_faces": list(self.trait.faces),
            "trait_sides": self.trait.sides,
            "trait_total": self.trait.total,
            "wild_faces": list(self.wild.faces) if self.wild else None,
            "wild_total": self.wild.total if self.wild else None,
            "kept": "wild" if self.wild and self.wild.total > self.trait.total else "trait",
            "natural": self.natural,
            "modifier": self.modifier,
            "tn": self.tn,
            "total": self.total,
            "critical_failure": self.critical,
            "success": self.success,
            "raises": self.raises,
            "band": self.band,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, crit_possible: bool = True) -> Attempt:
        wild = data.get("wild_faces")
        return cls(
            Explosion(data["trait_sides"], tuple(data["trait_faces"])),
            Explosion(WILD_DIE, tuple(wild)) if wild else None,
            data["modifier"],
            data["tn"],
            crit_possible=crit_possible,
        )


def roll_trait(
    dice: Dice,
    sides: int,
    *,
    wild: bool,
    modifier: int = 0,
    tn: int = TN,
    crit_possible: bool = True,
) -> Attempt:
    """Проверка параметра («Проверки параметров»; «Взрывной бросок»; «Дикий кубик»): trait die, then
    the wild die for wild cards."""
    trait = roll_exploding(dice, sides)
    wild_roll = roll_exploding(dice, WILD_DIE) if wild else None
    return Attempt(trait, wild_roll, modifier, tn, crit_possible)


def attempt_rank(attempt: dict[str, Any]) -> tuple[int, int]:
    """How good an attempt is: any non-critical result beats a critical failure, then the higher
    total («Фишки» "выбрать лучший результат")."""
    if attempt.get("kind") == "damage":
        return (1, attempt["total"])
    return (0 if attempt["critical_failure"] else 1, attempt["total"])


def best_index(attempts: list[dict[str, Any]]) -> int:
    """Index of the best attempt; the earliest wins a tie (the player keeps what they had)."""
    best = 0
    for i, attempt in enumerate(attempts):
        if attempt_rank(attempt) > attempt_rank(attempts[best]):
            best = i
    return best


def cooperative_bonus(
    helpers: list[tuple[bool, int]], *, strength: bool, cap: int | None = 4
) -> tuple[int, list[int]]:
    """Совместная проверка («Совместные проверки»): +1 per helper success and +1 per helper raise,
    at most +4 except on Strength checks. ``helpers`` are ``(success, raises)`` pairs; returns the
    bonus and each helper's share."""
    shares = [(1 + raises) if ok else 0 for ok, raises in helpers]
    total = sum(shares)
    if not strength and cap is not None:
        total = min(total, cap)
    return total, shares


def helper_from_total(total: int, tn: int = TN) -> tuple[bool, int]:
    """A helper known only by its total (no critical failure): ``(success, raises)``."""
    return total >= tn, raises_for(total, tn)


ATTACKER = "attacker"
DEFENDER = "defender"
STALEMATE = "stalemate"
OPPOSED_BANDS: tuple[str, ...] = (ATTACKER, DEFENDER, STALEMATE)


def opposed_winner(
    attacker_total: int,
    defender_total: int,
    *,
    attacker_critical: bool = False,
    defender_critical: bool = False,
    attacker_needs_tn: bool = False,
    tn: int = TN,
) -> str:
    """Встречная проверка («Встречные проверки»): the higher total wins; equal totals mean the
    struggle goes on.

    A critical failure loses outright («Дикий кубик» "полный провал"; both: stalemate). With
    ``attacker_needs_tn`` (a SWADE-style option) an attacker under the TN loses.
    """
    if attacker_critical or defender_critical:
        if attacker_critical and defender_critical:
            return STALEMATE
        return DEFENDER if attacker_critical else ATTACKER
    if attacker_needs_tn and attacker_total < tn:
        return DEFENDER
    if attacker_total == defender_total:
        return STALEMATE
    return ATTACKER if attacker_total > defender_total else DEFENDER


def opposed_raises(winner_total: int, loser_total: int, *, floor_tn: int | None = None) -> int:
    """«Встречные проверки»: the winner counts raises against the loser's total as the TN.
    The rulebook sets no floor, so by default a loser's 2 is the TN (our reading); ``floor_tn``
    raises it to at least 4."""
    tn = loser_total if floor_tn is None else max(loser_total, floor_tn)
    return max(0, (winner_total - tn) // RAISE_STEP)
