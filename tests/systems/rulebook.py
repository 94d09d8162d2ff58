"""The rulebooks' own arithmetic, written out again for the property tests to check the
rules modules against: an oracle that shares no code with the module under test (its band,
raise and tier helpers), so a wrong threshold cannot agree with itself.

Each function cites the digest heading it comes from (/work/shared/rules/).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product


def pbta_band(total: int) -> str:
    """Dungeon World, "1. Identity and core resolution" (Град Иуды, "1. Dice and core
    resolution", the same): 10 or more is a strong hit, 7–9 a weak hit, 6 or less a miss."""
    if total > 9:
        return "10+"
    if total in (7, 8, 9):
        return "7-9"
    return "6-"


def pbta_odds(modifier: int, *, count: int = 2, sides: int = 6) -> dict[str, float]:
    """The chance of each band, counting every way ``count`` dice can fall."""
    ways = {"10+": 0, "7-9": 0, "6-": 0}
    for faces in product(range(1, sides + 1), repeat=count):
        ways[pbta_band(sum(faces) + modifier)] += 1
    return {band: float(Fraction(n, sides**count)) for band, n in ways.items()}


def savage_raises(total: int, tn: int) -> int:
    """Savage Worlds, "1. Dice and core resolution": a success at the target number or more,
    and a raise for every full 4 points above it (none on a failure)."""
    raises = 0
    while total >= tn + 4 * (raises + 1):
        raises += 1
    return raises


def savage_band(total: int, tn: int, *, critical: bool) -> str:
    """The same heading: a critical failure (both dice 1) fails whatever the total."""
    if critical:
        return "critical_failure"
    if total < tn:
        return "failure"
    return "raise" if savage_raises(total, tn) > 0 else "success"


def crows_tier(total: int) -> int:
    """Crows, "3. Checks (Проверки)": ≤11 is the 1st tier, 12–16 the 2nd, 17 or more the 3rd."""
    return 1 if total <= 11 else 2 if total <= 16 else 3


def crows_doom(natural: int) -> bool:
    """The same heading: a natural 2–3 on 2d10 is doom."""
    return natural in (2, 3)
