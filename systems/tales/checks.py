"""Roll-under checks and the opposed "as many dice as you dare" check («Разрешение задач»; «Проверка
на попадание по врагу»; «Проверка ловкости, силы и разума»; «Противопоставленная проверка»).

A check rolls 2d10 («Проверка ловкости, силы и разума»), a hard check 3d10 («Проверка ловкости, силы
и разума»), a very hard check 4d10 («Чары») and succeeds when the total is at most the effective
stat. An opposed check lets each side roll as many d10 as it dares; a total above one's own value
busts («Противопоставленная проверка»). Odds are exact
``Fraction`` values over every face combination (``systems.core.odds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from systems.core.dice import Dice
from systems.core.odds import distribution
from systems.tales.data import (
    AUTO,
    CHECK,
    DICE_FOR,
    DIFFICULTY_ORDER,
    HARD,
    IMPOSSIBLE,
    VERY_HARD,
)

SUCCESS, FAILURE, REPEAT = "success", "failure", "repeat"
BANDS: tuple[str, ...] = (SUCCESS, FAILURE)
OPPOSED_BANDS: tuple[str, ...] = (SUCCESS, FAILURE, REPEAT)
ACTOR, OPPONENT = "actor", "opponent"
SIDES = 10

__all__ = [
    "ACTOR",
    "AUTO",
    "BANDS",
    "CHECK",
    "FAILURE",
    "HARD",
    "IMPOSSIBLE",
    "OPPONENT",
    "OPPOSED_BANDS",
    "REPEAT",
    "SUCCESS",
    "VERY_HARD",
    "CheckRoll",
    "OpposedRoll",
    "SideRoll",
    "check_chance",
    "check_odds",
    "combine_difficulty",
    "opposed_odds",
    "opposed_odds_exact",
    "opposed_roll",
    "opposed_winner",
    "roll_check",
]


def combine_difficulty(
    base: str, extra: list[str] | tuple[str, ...], *, stack: bool = False
) -> str:
    """Difficulty after effects that make a check harder (Darkness, Ice, Invisibility...).

    Our reading: by default the hardest single effect counts; with ``stack`` each effect adds
    one die. Never beyond 4d10; ``auto`` and ``impossible`` are left alone.
    """
    if base in (AUTO, IMPOSSIBLE):
        return base
    rolled = [d for d in (base, *extra) if d in DIFFICULTY_ORDER]
    if stack:
        steps = DIFFICULTY_ORDER.index(base) + sum(
            DIFFICULTY_ORDER.index(d) for d in extra if d in DIFFICULTY_ORDER
        )
        return DIFFICULTY_ORDER[min(steps, len(DIFFICULTY_ORDER) - 1)]
    return max(rolled, key=DIFFICULTY_ORDER.index)


@dataclass(frozen=True)
class CheckRoll:
    """A roll-under check. ``total`` is None when no dice were rolled (auto or impossible)."""

    difficulty: str
    target: int
    faces: tuple[int, ...]
    total: int | None
    success: bool

    @property
    def band(self) -> str:
        return SUCCESS if self.success else FAILURE

    @property
    def dice(self) -> int:
        return DICE_FOR.get(self.difficulty, 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "difficulty": self.difficulty,
            "dice": self.dice,
            "target": self.target,
            "faces": list(self.faces),
            "total": self.total,
            "success": self.success,
            "band": self.band,
        }


def roll_check(dice: Dice, target: int, difficulty: str = CHECK) -> CheckRoll:
    """Roll 2d10/3d10/4d10 and succeed on a total at most ``target`` («Проверка ловкости, силы и
    разума»; «Чары»)."""
    if difficulty == AUTO:
        return CheckRoll(AUTO, target, (), None, True)
    if difficulty == IMPOSSIBLE:
        return CheckRoll(IMPOSSIBLE, target, (), None, False)
    faces = tuple(dice.roll(SIDES) for _ in range(DICE_FOR[difficulty]))
    total = sum(faces)
    return CheckRoll(difficulty, target, faces, total, total <= target)


def check_chance(target: int, difficulty: str = CHECK) -> Fraction:
    """Exact chance of success («Проверка ловкости, силы и разума»: "ниже или равен")."""
    if difficulty == AUTO:
        return Fraction(1)
    if difficulty == IMPOSSIBLE:
        return Fraction(0)
    dist = distribution(f"{DICE_FOR[difficulty]}d{SIDES}")
    return sum((p for v, p in dist.items() if v <= target), Fraction(0))


def check_odds(target: int, difficulty: str = CHECK) -> dict[str, float]:
    """``{"success": p, "failure": 1 - p}`` as floats for ``Ruleset.odds``."""
    p = check_chance(target, difficulty)
    return {SUCCESS: float(p), FAILURE: float(1 - p)}


# --- opposed checks --------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRoll:
    """One side of an opposed check: its value, how many d10 it dared and what came up."""

    value: int
    dice: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def bust(self) -> bool:
        return self.total > self.value

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "dice": self.dice,
            "faces": list(self.faces),
            "total": self.total,
            "bust": self.bust,
        }


def opposed_winner(
    a_total: int, a_value: int, b_total: int, b_value: int, *, tie: str = "repeat"
) -> tuple[str | None, str]:
    """Who wins and why («Противопоставленная проверка»): a bust loses; both bust repeats; else the
    higher total wins.

    A tie without a bust is not in the rulebook: ``tie="repeat"`` (our reading) repeats it,
    ``tie="higher_value"`` gives it to the higher value and repeats only if those match too.
    """
    a_bust, b_bust = a_total > a_value, b_total > b_value
    if a_bust and b_bust:
        return None, "both_bust"
    if a_bust:
        return OPPONENT, "bust"
    if b_bust:
        return ACTOR, "bust"
    if a_total != b_total:
        return (ACTOR if a_total > b_total else OPPONENT), "higher"
    if tie == "higher_value" and a_value != b_value:
        return (ACTOR if a_value > b_value else OPPONENT), "higher_value"
    return None, "tie"


@dataclass(frozen=True)
class OpposedRoll:
    """Both sides' rolls and the result from the actor's side (``band``)."""

    actor: SideRoll
    opponent: SideRoll
    winner: str | None
    reason: str

    @property
    def band(self) -> str:
        if self.winner is None:
            return REPEAT
        return SUCCESS if self.winner == ACTOR else FAILURE

    def as_dict(self) -> dict[str, Any]:
        return {
            "actor": self.actor.as_dict(),
            "opponent": self.opponent.as_dict(),
            "winner": self.winner,
            "reason": self.reason,
            "band": self.band,
        }


def opposed_roll(
    dice: Dice,
    actor_value: int,
    actor_dice: int,
    opponent_value: int,
    opponent_dice: int,
    *,
    tie: str = "repeat",
) -> OpposedRoll:
    """Roll the actor's dice, then the opponent's («Противопоставленная проверка»); a repeat is the
    caller's."""
    a = SideRoll(actor_value, actor_dice, tuple(dice.roll(SIDES) for _ in range(actor_dice)))
    b = SideRoll(
        opponent_value, opponent_dice, tuple(dice.roll(SIDES) for _ in range(opponent_dice))
    )
    winner, reason = opposed_winner(a.total, a.value, b.total, b.value, tie=tie)
    return OpposedRoll(a, b, winner, reason)


def opposed_odds_exact(
    actor_value: int,
    actor_dice: int,
    opponent_value: int,
    opponent_dice: int,
    *,
    tie: str = "repeat",
) -> dict[str, Fraction]:
    """Exact chance that one round ends in the actor's win, loss, or a repeat."""
    da = distribution(f"{actor_dice}d{SIDES}")
    db = distribution(f"{opponent_dice}d{SIDES}")
    out = {SUCCESS: Fraction(0), FAILURE: Fraction(0), REPEAT: Fraction(0)}
    band = {ACTOR: SUCCESS, OPPONENT: FAILURE, None: REPEAT}
    for a, pa in da.items():
        for b, pb in db.items():
            winner, _ = opposed_winner(a, actor_value, b, opponent_value, tie=tie)
            out[band[winner]] += pa * pb
    return out


def opposed_odds(
    actor_value: int,
    actor_dice: int,
    opponent_value: int,
    opponent_dice: int,
    *,
    tie: str = "repeat",
) -> dict[str, float]:
    """``opposed_odds_exact`` as floats."""
    exact = opposed_odds_exact(actor_value, actor_dice, opponent_value, opponent_dice, tie=tie)
    return {k: float(v) for k, v in exact.items()}
