"""Shared PbtA pieces: bands, rolls, exact odds, forward and ongoing."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.core.dice import ScriptedDice
from systems.core.pbta import (
    band_for,
    band_odds,
    band_odds_exact,
    certain,
    consume_forward,
    forward_for,
    from_faces,
    ongoing_for,
    roll,
    roll_2d6,
    sum_counts,
)


@pytest.mark.parametrize(
    ("total", "band"), [(-3, "6-"), (6, "6-"), (7, "7-9"), (9, "7-9"), (10, "10+"), (15, "10+")]
)
def test_band_edges(total, band):
    assert band_for(total) == band


def test_roll_2d6_uses_two_d6_and_the_modifier():
    with ScriptedDice([1, 4]) as dice:
        r = roll_2d6(dice, 1)
    assert (r.faces, r.total, r.band, r.natural) == ((1, 4), 6, "6-", 5)
    assert dice.rolled == [(6, 1), (6, 4)]


def test_one_die_roll_and_known_faces():
    with ScriptedDice([5]) as dice:
        r = roll(dice, 3, count=1)
    assert (r.total, r.band) == (8, "7-9")
    assert from_faces([3, 6], 0).band == "7-9"
    with pytest.raises(ValueError):
        roll(ScriptedDice([]), 0, count=0)


def test_exact_odds_known_values():
    assert band_odds_exact(0) == {
        "10+": Fraction(6, 36),
        "7-9": Fraction(15, 36),
        "6-": Fraction(15, 36),
    }
    assert band_odds_exact(3, count=1) == {
        "10+": Fraction(0),
        "7-9": Fraction(3, 6),
        "6-": Fraction(3, 6),
    }
    assert sum_counts(2, 6)[7] == 6
    assert certain("6-") == {"10+": 0.0, "7-9": 0.0, "6-": 1.0}


@given(st.integers(-20, 20), st.sampled_from([1, 2]))
def test_odds_sum_to_one_and_match_enumeration(modifier, count):
    exact = band_odds_exact(modifier, count=count)
    assert sum(exact.values()) == 1
    floats = band_odds(modifier, count=count)
    assert abs(sum(floats.values()) - 1) < 1e-12
    if count == 1:
        expected = {b: Fraction(0) for b in exact}
        for face in range(1, 7):
            expected[band_for(face + modifier)] += Fraction(1, 6)
        assert exact == expected


def test_forward_and_ongoing_bookkeeping():
    forwards = [
        {"value": 1, "move": "", "note": ""},
        {"value": 2, "move": "volley", "note": ""},
        {"value": -1, "move": "recruit", "note": ""},
    ]
    assert forward_for(forwards, "volley") == 3
    assert forward_for(forwards, "parley") == 1
    assert consume_forward(forwards, "volley") == [forwards[2]]
    assert consume_forward(forwards, "recruit") == [forwards[1]]
    assert forwards[0]["value"] == 1  # input untouched
    assert ongoing_for(forwards, "recruit") == 0
