"""Exact odds of any notation within the limits, so the UI can show band chances before a roll.

Every distribution is kept as integer weights over one integer denominator and turned into
``Fraction`` only at the end, so results are exact. Leaves of a notation are independent dice
terms and constants, so a sum is a convolution, a difference a convolution with the negation,
and a product a pairwise product of outcomes.

Speed comes from three tricks, each exact:

* ``NdS`` is built die by die with prefix sums (a sliding window), linear in the range per die.
* Big convolutions pack each weight list into one Python integer (Kronecker substitution), so
  CPython's C big-integer multiply does the inner loop.
* Keep/drop (``4d6kh3``, also on exploding dice) is an order-statistics DP over the faces from
  the top down; its state ``m`` (dice above the current face, fewer than kept) holds the packed
  polynomial of kept sums, so one transition is a shift, a scalar multiply and an add.

Each step's cost is estimated before it runs and charged to a work budget; past the budget
``OddsTooComplex`` is raised before the expensive step starts (e.g. ``100d1000kh50``).
"""

from __future__ import annotations

import itertools
import operator
import threading
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from systems.core.notation import (
    MAX_EXPLOSIONS,
    BinOp,
    DiceTerm,
    Group,
    Neg,
    Node,
    NotationError,
    Number,
    ParsedNotation,
    parse_notation,
)

# One unit is roughly one Python-level big-integer operation (~100 ns); the budget keeps a
# computation under about a second on the development machines.
WORK_BUDGET = 8_000_000


class OddsTooComplex(NotationError):
    """The notation is valid and can be rolled, but its exact odds cost too much to compute."""

    def __init__(self, notation: str) -> None:
        super().__init__(
            "odds_too_complex",
            f"Шансы для «{notation}» слишком долго считать точно; бросить всё равно можно.",
            f"Exact odds for {notation!r} are too expensive to compute; it can still be rolled.",
        )


@dataclass
class _Budget:
    notation: str
    left: int = WORK_BUDGET

    def spend(self, units: float) -> None:
        if units > self.left:
            raise OddsTooComplex(self.notation)
        self.left -= int(units) + 1


@dataclass(frozen=True)
class _Dist:
    """Outcome -> integer weight; probability is ``weight / den``."""

    w: dict[int, int]
    den: int

    @property
    def span(self) -> int:
        return max(self.w) - min(self.w) + 1


def _mul_units(bits: int) -> float:
    """Cost of multiplying two ``bits``-bit integers (CPython uses Karatsuba, ~n^1.585)."""
    return 1.4e6 * (bits / 1e6) ** 1.585 + bits / 3000


def _pack(weights: list[int], nbytes: int) -> int:
    return int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in weights), "little")


def _unpack(packed: int, nbytes: int, count: int) -> list[int]:
    raw = packed.to_bytes(nbytes * count, "little")
    return [int.from_bytes(raw[i * nbytes : (i + 1) * nbytes], "little") for i in range(count)]


def _dense(d: _Dist) -> tuple[int, list[int]]:
    lo = min(d.w)
    out = [0] * d.span
    for v, w in d.w.items():
        out[v - lo] = w
    return lo, out


def _sparse(lo: int, weights: list[int], den: int) -> _Dist:
    return _Dist({lo + i: w for i, w in enumerate(weights) if w}, den)


def _shift_scale(d: _Dist, shift: int, weight: int, den: int) -> _Dist:
    return _Dist({v + shift: w * weight for v, w in d.w.items()}, d.den * den)


def _add(a: _Dist, b: _Dist, budget: _Budget) -> _Dist:
    """Distribution of the sum of two independent outcomes."""
    if len(a.w) == 1:
        a, b = b, a
    if len(b.w) == 1:
        ((v, w),) = b.w.items()
        budget.spend(len(a.w))
        return _shift_scale(a, v, w, b.den)
    bits_a = max(a.w.values()).bit_length()
    bits_b = max(b.w.values()).bit_length()
    naive = len(a.w) * len(b.w) * (3 + (bits_a + bits_b) / 125)
    nbytes = (bits_a + bits_b + min(len(a.w), len(b.w)).bit_length() + 8) // 8
    length = a.span + b.span - 1
    kron = length * (2 + nbytes / 50) + _mul_units(8 * nbytes * max(a.span, b.span))
    if naive <= kron:
        budget.spend(naive)
        out: dict[int, int] = defaultdict(int)
        for va, wa in a.w.items():
            for vb, wb in b.w.items():
                out[va + vb] += wa * wb
        return _Dist(dict(out), a.den * b.den)
    budget.spend(kron)
    lo_a, da = _dense(a)
    lo_b, db = _dense(b)
    coeffs = _unpack(_pack(da, nbytes) * _pack(db, nbytes), nbytes, length)
    return _sparse(lo_a + lo_b, coeffs, a.den * b.den)


def _product(a: _Dist, b: _Dist, budget: _Budget) -> _Dist:
    """Distribution of the product of two independent outcomes."""
    bits = max(a.w.values()).bit_length() + max(b.w.values()).bit_length()
    budget.spend(len(a.w) * len(b.w) * (8.5 + bits / 150))
    out: dict[int, int] = defaultdict(int)
    for va, wa in a.w.items():
        for vb, wb in b.w.items():
            out[va * vb] += wa * wb
    return _Dist(dict(out), a.den * b.den)


def _negate(d: _Dist) -> _Dist:
    return _Dist({-v: w for v, w in d.w.items()}, d.den)


def _uniform_sum(count: int, sides: int, budget: _Budget) -> _Dist:
    """``count``d``sides`` die by die: a window sum over prefix sums, C-speed per die."""
    budget.spend(2.8 * sum(i * (sides - 1) + sides for i in range(1, count + 1)))
    weights = [1] * sides  # values 1..sides
    for _ in range(count - 1):
        padded = [0] * (sides - 1) + weights + [0] * (sides - 1)
        prefix = [0, *itertools.accumulate(padded)]
        weights = list(map(operator.sub, prefix[sides:], prefix[:-sides]))
    return _sparse(count, weights, sides**count)


def _one_die(term: DiceTerm) -> _Dist:
    """One die; an exploding one adds re-rolls on the top face, at most MAX_EXPLOSIONS of them.

    Over the denominator ``s**(cap+1)``: ``j*s + r`` (j < cap, r < s) weighs ``s**(cap-j)``; at
    the cap the last roll is final, so ``cap*s + r`` weighs 1 for every r in 1..s.
    """
    s = term.sides
    if not term.explode:
        return _Dist(dict.fromkeys(range(1, s + 1), 1), s)
    cap = MAX_EXPLOSIONS
    w: dict[int, int] = {}
    for j in range(cap):
        for r in range(1, s):
            w[j * s + r] = s ** (cap - j)
    for r in range(1, s + 1):
        w[cap * s + r] = 1
    return _Dist(w, s ** (cap + 1))


def _power(die: _Dist, count: int, budget: _Budget) -> _Dist:
    """Sum of ``count`` independent copies, by binary powering."""
    result: _Dist | None = None
    base = die
    while count:
        if count & 1:
            result = base if result is None else _add(result, base, budget)
        count >>= 1
        if count:
            base = _add(base, base, budget)
    assert result is not None
    return result


def _keep_highest(die: _Dist, count: int, keep: int, budget: _Budget) -> _Dist:
    """Sum of the ``keep`` highest of ``count`` iid dice, exactly (order statistics DP).

    Faces are visited from the top. ``states[m]`` is the packed polynomial (in the kept sum so
    far) of the ways to have put ``m < keep`` dice on faces above the current one. Putting ``c``
    of the remaining ``count - m`` dice on face ``v`` multiplies by ``C(count-m, c) * p(v)**c``;
    once the kept set fills up on ``v``, the rest of the dice just need faces below ``v``
    (weight ``below**rest``), so that branch is finished at once.
    """
    values = sorted(die.w, reverse=True)
    vmin, span = values[-1], values[0] - values[-1]
    den = die.den**count
    nbytes = (den.bit_length() + 8) // 8  # every partial weight is at most den: no overflow
    slot = 8 * nbytes
    state_bits = slot * (keep * span + 1)
    ops = len(values) * (keep * (keep + 1) // 2 + 2 * keep)
    budget.spend(ops * (state_bits / 800 + 6) + keep * span + 1)

    states = [0] * keep
    states[0] = 1
    final = 0
    above = 0  # weight of faces above the current one
    for v in values:
        p = die.w[v]
        below = die.den - above - p
        step = slot * (v - vmin)
        new = [0] * keep
        for m in range(keep):
            s_m = states[m]
            if not s_m:
                continue
            rest = count - m
            need = keep - m
            # ways that at least `need` of the `rest` dice land on v and the others below v
            full = (p + below) ** rest - sum(
                comb(rest, c) * p**c * below ** (rest - c) for c in range(need)
            )
            if full:
                final += (s_m * full) << (step * need)
            for c in range(need):
                new[m + c] += (s_m * comb(rest, c) * p**c) << (step * c)
        states = new
        above += p
    return _sparse(keep * vmin, _unpack(final, nbytes, keep * span + 1), den)


def _term(term: DiceTerm, budget: _Budget) -> _Dist:
    kept = term.kept
    if kept == term.count:
        if not term.explode:
            return _uniform_sum(term.count, term.sides, budget)
        return _power(_one_die(term), term.count, budget)
    die = _one_die(term)
    assert term.keep is not None
    if term.keep.highest:
        return _keep_highest(die, term.count, kept, budget)
    return _negate(_keep_highest(_negate(die), term.count, kept, budget))


def _dist(node: Node, budget: _Budget) -> _Dist:
    if isinstance(node, Number):
        return _Dist({node.value: 1}, 1)
    if isinstance(node, DiceTerm):
        return _term(node, budget)
    if isinstance(node, Neg):
        return _negate(_dist(node.operand, budget))
    if isinstance(node, Group):
        return _dist(node.inner, budget)
    assert isinstance(node, BinOp)
    left, right = _dist(node.left, budget), _dist(node.right, budget)
    if node.op == "+":
        return _add(left, right, budget)
    if node.op == "-":
        return _add(left, _negate(right), budget)
    return _product(left, right, budget)


_Weights = tuple[tuple[tuple[int, int], ...], int]
_CACHE_SIZE = 128
_CACHE_MAX_OUTCOMES = 4096  # keep memory small: only the everyday notations are cached
_cache: dict[str, _Weights | None] = {}  # None marks "too complex"
_cache_lock = threading.Lock()


def _compute(parsed: ParsedNotation) -> _Weights:
    budget = _Budget(parsed.notation)
    d = _dist(parsed.root, budget)
    bits = d.den.bit_length()  # Fraction() normalises with a gcd: not free for big weights
    budget.spend(len(d.w) * (40 + bits / 10 + bits * bits / 25_000))
    return tuple(sorted(d.w.items())), d.den


def _weights(text: str | ParsedNotation) -> _Weights:
    """Odds are asked for on every form render, and the same few notations come back often."""
    parsed = text if isinstance(text, ParsedNotation) else parse_notation(text)
    key = parsed.notation
    with _cache_lock:
        cached = _cache.get(key, ())
    if cached is None:
        raise OddsTooComplex(key)
    if cached:
        return cached  # type: ignore[return-value]
    try:
        result: _Weights | None = _compute(parsed)
    except OddsTooComplex:
        result = None
    if result is None or len(result[0]) <= _CACHE_MAX_OUTCOMES:
        with _cache_lock:
            _cache[key] = result
            while len(_cache) > _CACHE_SIZE:
                del _cache[next(iter(_cache))]
    if result is None:
        raise OddsTooComplex(key)
    return result


def distribution(text: str | ParsedNotation) -> dict[int, Fraction]:
    """Exact probability of every possible total, ascending. Raises ``NotationError`` for bad
    notation and ``OddsTooComplex`` (a ``NotationError``) past the work budget."""
    items, den = _weights(text)
    return {v: Fraction(w, den) for v, w in items}


def chance(
    text: str | ParsedNotation, *, at_least: int | None = None, at_most: int | None = None
) -> Fraction:
    """Exact chance that the total lies in ``[at_least, at_most]`` (a missing end is open)."""
    items, den = _weights(text)
    hits = sum(
        w
        for v, w in items
        if (at_least is None or v >= at_least) and (at_most is None or v <= at_most)
    )
    return Fraction(hits, den)


def band_chances(
    text: str | ParsedNotation, bands: Mapping[str, tuple[int | None, int | None]]
) -> dict[str, float]:
    """Chance of each named band, e.g. ``{"10+": (10, None), "7-9": (7, 9), "6-": (None, 6)}``."""
    parsed = text if isinstance(text, ParsedNotation) else parse_notation(text)
    return {
        name: float(chance(parsed, at_least=lo, at_most=hi)) for name, (lo, hi) in bands.items()
    }
