"""Exact odds of a trait check before it is rolled (DESIGN.md: odds for every band).

An exploding die («Взрывной бросок») with ``s`` sides ends on ``k*s + r`` (``k`` aces, last face ``r
< s``) with chance ``s**-(k+1)``, so ``P(X >= t)`` has a closed form: write ``t - 1 = k*s + r0``
with ``0 <= r0 < s``; then ``P(X >= t) = s**-k * (s - r0) / s``. The roller caps aces at
``MAX_EXPLOSIONS`` (the last roll is final even on its top face); the same formula holds under
the cap up to the largest possible total and is 0 beyond it, so these odds match what the
roller really does, exactly.

A wild card keeps the better of the trait die and the wild die («Дикие карты и статисты»; «Дикий
кубик»):
``P(max >= t) = 1 - P(T < t) * P(W < t)``. A critical failure («Дикий кубик») is a first face of 1
on both, i.e. ``T == 1 and W == 1``, with chance ``1 / (6 s)``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from systems.core.notation import MAX_EXPLOSIONS
from systems.savage_worlds.traits import (
    CRITICAL_FAILURE,
    FAILURE,
    RAISE,
    RAISE_STEP,
    SUCCESS,
    TN,
    WILD_DIE,
)

ONE = Fraction(1)


def p_at_least(sides: int, target: int) -> Fraction:
    """Chance an exploding ``d{sides}`` totals at least ``target`` (capped like the roller)."""
    if target <= 1:
        return ONE
    if target > (MAX_EXPLOSIONS + 1) * sides:
        return Fraction(0)
    aces, rest = divmod(target - 1, sides)
    return Fraction(sides - rest, sides ** (aces + 1))


def p_natural_at_least(sides: int, target: int, *, wild: bool) -> Fraction:
    """Chance that the kept die (trait, or the better of trait and wild die) reaches ``target``."""
    trait = p_at_least(sides, target)
    if not wild:
        return trait
    return ONE - (ONE - trait) * (ONE - p_at_least(WILD_DIE, target))


def p_critical(sides: int, *, wild: bool, crit_possible: bool = True) -> Fraction:
    """«Дикий кубик»: both dice show 1 first; impossible for an extra rolling one die (our
    reading)."""
    if not wild or not crit_possible:
        return Fraction(0)
    return Fraction(1, sides * WILD_DIE)


def trait_odds_exact(
    sides: int,
    *,
    wild: bool,
    modifier: int = 0,
    tn: int = TN,
    crit_possible: bool = True,
) -> dict[str, Fraction]:
    """Chance of each band: critical failure, failure, success (no raise), raise (1 or more).

    A critical failure is a failure whatever the modifiers (our reading), so the double-1 mass
    is taken out of whichever band its total would otherwise reach.
    """
    crit = p_critical(sides, wild=wild, crit_possible=crit_possible)
    crit_total = 1 + modifier  # both dice show 1, so the kept die is 1

    def reaching(total: int) -> Fraction:
        p = p_natural_at_least(sides, total - modifier, wild=wild)
        return p - crit if crit_total >= total else p

    success_or_better = reaching(tn)
    raise_or_better = reaching(tn + RAISE_STEP)
    return {
        CRITICAL_FAILURE: crit,
        FAILURE: ONE - crit - success_or_better,
        SUCCESS: success_or_better - raise_or_better,
        RAISE: raise_or_better,
    }


def raise_odds_exact(
    sides: int, *, wild: bool, modifier: int = 0, tn: int = TN, most: int = 4
) -> dict[int, Fraction]:
    """Chance of exactly ``n`` raises for ``n < most`` and of ``most`` or more (``n = most``)."""
    crit = p_critical(sides, wild=wild)

    def reaching(total: int) -> Fraction:
        p = p_natural_at_least(sides, total - modifier, wild=wild)
        return p - crit if 1 + modifier >= total else p

    out: dict[int, Fraction] = {}
    for n in range(most + 1):
        here = reaching(tn + n * RAISE_STEP)
        out[n] = here if n == most else here - reaching(tn + (n + 1) * RAISE_STEP)
    return out


def as_floats(odds: dict[str, Fraction]) -> dict[str, float]:
    return {k: float(v) for k, v in odds.items()}


def _weights(sides: int) -> tuple[dict[int, int], int]:
    """Integer weights of every total of one capped exploding die over ``sides**(cap+1)``."""
    cap = MAX_EXPLOSIONS
    w: dict[int, int] = {}
    for k in range(cap):
        for r in range(1, sides):
            w[k * sides + r] = sides ** (cap - k)
    for r in range(1, sides + 1):
        w[cap * sides + r] = 1
    return w, sides ** (cap + 1)


def natural_weights(sides: int, *, wild: bool) -> tuple[dict[int, int], int]:
    """Exact distribution of the kept die as integer weights over one denominator."""
    tw, tden = _weights(sides)
    if not wild:
        return tw, tden
    ww, wden = _weights(WILD_DIE)
    cdf_t = cdf_w = prev = 0
    out: dict[int, int] = {}
    for v in sorted(set(tw) | set(ww)):
        cdf_t += tw.get(v, 0)
        cdf_w += ww.get(v, 0)
        joint = cdf_t * cdf_w
        if joint != prev:
            out[v] = joint - prev
        prev = joint
    return out, tden * wden


def natural_distribution(sides: int, *, wild: bool) -> dict[int, Fraction]:
    """Exact distribution of the kept die (trait, or the better of trait and wild die)."""
    weights, den = natural_weights(sides, wild=wild)
    return {v: Fraction(w, den) for v, w in weights.items()}


def opposed_odds_exact(
    attacker: tuple[int, bool, int],
    defender: tuple[int, bool, int],
    *,
    winner: Callable[[int, int, bool, bool], str],
) -> dict[str, Fraction]:
    """Chance each side wins an opposed check. Each side is ``(sides, wild, modifier)``;
    ``winner(a_total, d_total, a_crit, d_crit)`` is the rule that names the winner."""
    a_w, a_den = _split_crit(*attacker)
    d_w, d_den = _split_crit(*defender)
    a_mod, d_mod = attacker[2], defender[2]
    counts: dict[str, int] = {}
    for (a_nat, a_crit), wa in a_w.items():
        for (d_nat, d_crit), wd in d_w.items():
            key = winner(a_nat + a_mod, d_nat + d_mod, a_crit, d_crit)
            counts[key] = counts.get(key, 0) + wa * wd
    return {k: Fraction(v, a_den * d_den) for k, v in counts.items()}


def _split_crit(sides: int, wild: bool, _modifier: int) -> tuple[dict[tuple[int, bool], int], int]:
    """For a wild card a natural 1 means both dice showed 1: that is the critical failure."""
    weights, den = natural_weights(sides, wild=wild)
    return {(v, wild and v == 1): w for v, w in weights.items()}, den
