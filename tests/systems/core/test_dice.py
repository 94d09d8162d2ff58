"""ScriptedDice must fail loudly on every mismatch, or rule tests would pass by accident."""

from __future__ import annotations

import pytest

from systems.core.dice import Dice, DiceError, RandomDice, ScriptedDice


def test_scripted_dice_returns_faces_in_order_and_records_them() -> None:
    dice = ScriptedDice([3, 6, 1])
    assert [dice.roll(6), dice.roll(8), dice.roll(4)] == [3, 6, 1]
    assert dice.rolled == [(6, 3), (8, 6), (4, 1)]
    assert dice.remaining == []
    dice.assert_done()


def test_scripted_dice_runs_out() -> None:
    dice = ScriptedDice([4])
    dice.roll(6)
    with pytest.raises(DiceError, match="ran out after 1 faces"):
        dice.roll(6)


def test_scripted_dice_rejects_a_face_the_die_cannot_show() -> None:
    dice = ScriptedDice([7])
    with pytest.raises(DiceError, match="impossible on a d6"):
        dice.roll(6)
    with pytest.raises(DiceError, match="impossible"):
        ScriptedDice([0]).roll(6)
    assert dice.remaining == [7]  # a refused face is not consumed


def test_scripted_dice_leftovers_fail_assert_done_and_the_context_manager() -> None:
    dice = ScriptedDice([2, 5])
    dice.roll(6)
    assert dice.remaining == [5]
    with pytest.raises(DiceError, match=r"unused faces \[5\]"):
        dice.assert_done()
    with pytest.raises(DiceError), ScriptedDice([1, 2]) as scripted:
        scripted.roll(6)


def test_scripted_dice_context_manager_passes_when_all_used_and_keeps_errors() -> None:
    with ScriptedDice([1]) as dice:
        dice.roll(20)
    with pytest.raises(KeyError), ScriptedDice([1, 2]):
        raise KeyError("the body's own error wins over the leftover check")


def test_scripted_shuffles() -> None:
    dice = ScriptedDice([], shuffles=[["b", "a", "c"]])
    deck = ["a", "b", "c"]
    dice.shuffle(deck)
    assert deck == ["b", "a", "c"]
    with pytest.raises(DiceError, match="no scripted shuffle"):
        dice.shuffle(deck)
    with pytest.raises(DiceError, match="not a permutation"):
        ScriptedDice([], shuffles=[["a", "x"]]).shuffle(["a", "b"])
    with pytest.raises(DiceError):
        ScriptedDice([], shuffles=[["a"]]).assert_done()


def test_random_dice_stays_in_range_and_refuses_zero_sides() -> None:
    dice = RandomDice()
    faces = {dice.roll(4) for _ in range(400)}
    assert faces == {1, 2, 3, 4}
    assert dice.roll(1) == 1
    with pytest.raises(ValueError):
        dice.roll(0)
    deck = list(range(10))
    dice.shuffle(deck)
    assert sorted(deck) == list(range(10))


def test_both_satisfy_the_protocol() -> None:
    assert isinstance(RandomDice(), Dice)
    assert isinstance(ScriptedDice([]), Dice)
