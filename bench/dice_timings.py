"""Print how long notation parsing, rolling and exact odds take in their worst cases.

Run: ``.venv/bin/python bench/dice_timings.py``. The issue asks for errors "within milliseconds";
this prints the figures instead of asserting them in a unit test.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from systems.core.dice import RandomDice
from systems.core.notation import NotationError, parse_notation, roll_notation
from systems.core.odds import OddsTooComplex, distribution

ROLLS = ["2d6+1", "4d6kh3", "1d6!", "100d1000!kh50+100d1000!", "d%", "2к6+1"]
REFUSALS = ["101d6", "1d1001", "(" * 30 + "1" + ")" * 30, "1d6+" * 60 + "1", "100d6+100d6+1d6"]
ODDS = ["2d6+1", "4d6kh3", "2d20kl1", "1d6!", "100d6", "10d1000", "4d6!kh3", "100d1000kh50"]


def timed(fn, repeat: int = 20) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    dice = RandomDice()
    print(f"{'case':<34} {'median_ms':>10} {'max_ms':>10}")
    for text in ROLLS:
        med, worst = timed(lambda t=text: roll_notation(t, dice=dice))
        print(f"roll {text:<29} {med:>10.3f} {worst:>10.3f}")
    for text in REFUSALS:

        def refuse(t=text):
            try:
                parse_notation(t)
            except NotationError:
                return
            raise AssertionError(f"{t} was accepted")

        med, worst = timed(refuse)
        print(f"refuse {text[:27]:<27} {med:>10.3f} {worst:>10.3f}")
    for text in ODDS:

        def odds(t=text):
            with contextlib.suppress(OddsTooComplex):
                distribution(t)

        med, worst = timed(odds, repeat=1)  # first call only: results are cached after it
        print(f"odds {text:<29} {med:>10.3f} {worst:>10.3f}")


if __name__ == "__main__":
    main()
