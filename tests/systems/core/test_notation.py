"""Free dice notation: every syntax form with exact faces, every limit, and fuzzing that any text
gives a result or a ``NotationError`` quickly."""

from __future__ import annotations

import json
import random

import d20
import pytest
from d20 import expression as d20x
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from systems.core import notation as notation_module
from systems.core.dice import RandomDice, ScriptedDice
from systems.core.notation import (
    MAX_CHARS,
    MAX_EXPLOSIONS,
    BinOp,
    DiceTerm,
    Keep,
    NotationError,
    Number,
    parse_notation,
    roll_notation,
)


def roll(text: str, faces: list[int]):
    """Roll with exactly these faces; leftovers fail the test (ScriptedDice context)."""
    with ScriptedDice(faces) as dice:
        result = roll_notation(text, dice=dice)
    return result, dice


# --- every syntax form, exact faces -------------------------------------------------------


def test_sum_with_constant_reads_like_the_issue() -> None:
    result, dice = roll("2d6+1", [3, 5])
    assert result.total == 9
    assert result.notation == "2d6+1"
    assert result.text == "2d6+1 = [3, 5] + 1 = 9"
    assert str(result) == result.text
    assert dice.rolled == [(6, 3), (6, 5)]
    (term,) = result.terms
    assert (term.term.count, term.term.sides, term.term.keep, term.term.explode) == (
        2,
        6,
        None,
        False,
    )
    assert term.faces == [3, 5]
    assert term.kept == [0, 1]
    assert term.dropped == []
    assert term.total == 8


@pytest.mark.parametrize(
    ("text", "faces", "total", "notation"),
    [
        ("d6", [4], 4, "1d6"),
        ("1d20", [20], 20, "1d20"),
        ("3d10", [1, 10, 5], 16, "3d10"),
        ("7", [], 7, "7"),
        ("3*4-2", [], 10, "3*4-2"),
        ("1+2*3", [], 7, "1+2*3"),
        ("(1+2)*3", [], 9, "(1+2)*3"),
        ("1d20-1d4", [12, 3], 9, "1d20-1d4"),
        ("2*3-1d4", [4], 2, "2*3-1d4"),
        ("-1d4+10", [3], 7, "-1d4+10"),
        ("2*-3", [], -6, "2*-3"),
        ("--2", [], 2, "--2"),
        ("+2", [], 2, "2"),
        ("1d6*1d4", [5, 3], 15, "1d6*1d4"),
        ("(1d4+1)*2", [3], 8, "(1d4+1)*2"),
        ("((1d4))", [2], 2, "((1d4))"),
    ],
)
def test_arithmetic_forms(text: str, faces: list[int], total: int, notation: str) -> None:
    result, _ = roll(text, faces)
    assert result.total == total
    assert result.notation == notation


def test_rendering_of_parentheses_and_unary_minus() -> None:
    assert roll("(1d4+1)*2", [3])[0].text == "(1d4+1)*2 = ([3] + 1) * 2 = 8"
    assert roll("-1d4+3", [2])[0].text == "-1d4+3 = -[2] + 3 = 1"
    assert roll("7", [])[0].text == "7 = 7 = 7"


def test_keep_highest() -> None:
    result, _ = roll("4d6kh3", [6, 1, 4, 4])
    assert result.total == 14
    (term,) = result.terms
    assert term.term.keep == Keep("kh", 3)
    assert term.faces == [6, 1, 4, 4]
    assert term.kept == [0, 2, 3]
    assert term.dropped == [1]
    assert result.text == "4d6kh3 = [6, ~1~, 4, 4] = 14"


def test_keep_lowest_is_disadvantage() -> None:
    result, _ = roll("2d20kl1", [15, 3])
    assert result.total == 3
    assert result.terms[0].dropped == [0]
    assert result.text == "2d20kl1 = [~15~, 3] = 3"


def test_drop_lowest_ties_keep_the_earlier_die() -> None:
    result, _ = roll("4d6dl1", [2, 5, 2, 6])
    assert result.total == 13
    assert result.terms[0].dropped == [2]


def test_drop_highest() -> None:
    result, _ = roll("5d6dh2", [6, 6, 1, 2, 3])
    assert result.total == 6
    assert result.terms[0].dropped == [0, 1]


def test_keep_highest_ties_keep_the_earlier_die() -> None:
    result, _ = roll("3d6kh1", [5, 5, 5])
    assert result.terms[0].kept == [0]


def test_bare_k_means_keep_highest() -> None:
    result, _ = roll("4d6k3", [1, 2, 3, 4])
    assert result.notation == "4d6kh3"
    assert result.total == 9


def test_keep_all_is_allowed() -> None:
    assert roll("2d6kh2", [1, 2])[0].total == 3


def test_exploding_die_rerolls_and_adds_on_the_top_face() -> None:
    result, dice = roll("1d6!", [6, 6, 2])
    assert result.total == 14
    assert dice.rolled == [(6, 6), (6, 6), (6, 2)]
    (term,) = result.terms
    assert term.exploded == [0]
    assert term.dice[0].faces == (6, 6, 2)
    assert term.dice[0].capped is False
    assert result.text == "1d6! = [6+6+2] = 14"


def test_exploding_dice_roll_each_chain_right_after_its_die() -> None:
    result, _ = roll("3d6!", [6, 2, 1, 6, 6, 3])
    (term,) = result.terms
    assert [d.faces for d in term.dice] == [(6, 2), (1,), (6, 6, 3)]
    assert result.total == 8 + 1 + 15
    assert term.exploded == [0, 2]
    assert term.faces == [6, 2, 1, 6, 6, 3]


def test_keep_after_explosion_keeps_per_die_totals() -> None:
    # per-die sums 9, 2, 5, 1: keep the highest three, so the 6+3 die counts as one die of 9
    result, _ = roll("4d6!kh3", [6, 3, 2, 5, 1])
    assert result.total == 9 + 2 + 5
    assert result.terms[0].dropped == [3]
    assert result.text == "4d6!kh3 = [6+3, 2, 5, ~1~] = 16"


def test_explosion_stops_after_the_cap() -> None:
    faces = [6] * (MAX_EXPLOSIONS + 1)
    result, dice = roll("1d6!", faces)  # exactly 21 rolls consumed, none more
    assert result.total == 6 * 21
    assert len(dice.rolled) == MAX_EXPLOSIONS + 1
    assert result.terms[0].dice[0].capped is True
    assert result.max_total == 126


def test_explosion_just_under_the_cap_is_not_capped() -> None:
    faces = [6] * MAX_EXPLOSIONS + [5]
    result, _ = roll("1d6!", faces)
    assert result.total == 6 * 20 + 5
    assert result.terms[0].dice[0].capped is False


@pytest.mark.parametrize("text", ["d%", "1d%", "d100", "1d100", "D%"])
def test_percentile_is_a_d100(text: str) -> None:
    result, dice = roll(text, [100])
    assert result.total == 100
    assert result.notation == "1d100"
    assert dice.rolled == [(100, 100)]


@pytest.mark.parametrize(
    ("text", "faces", "total", "notation"),
    [
        ("2к6+1", [2, 6], 9, "2d6+1"),
        ("к10+1", [7], 8, "1d10+1"),
        ("2К6", [1, 1], 2, "2d6"),
        ("к%", [42], 42, "1d100"),
        ("4к6kh3", [1, 2, 3, 4], 9, "4d6kh3"),
        ("1к6!", [6, 1], 7, "1d6!"),
    ],
)
def test_russian_k_means_d(text: str, faces: list[int], total: int, notation: str) -> None:
    result, _ = roll(text, faces)
    assert (result.total, result.notation) == (total, notation)


@pytest.mark.parametrize(
    ("text", "total", "notation"),
    [
        ("  2 d6 +  1 ", 9, "2d6+1"),
        ("2d6\t+\n1", 9, "2d6+1"),
        ("2D6+1", 9, "2d6+1"),
        ("2 d 6 + 1", 9, "2d6+1"),
        ("( 2d6 + 1 )", 9, "(2d6+1)"),
        ("2d6\u22121", 7, "2d6-1"),  # minus sign
        ("2d6\u20131", 7, "2d6-1"),  # en dash
    ],
)
def test_whitespace_case_and_unicode_minus_are_tolerated(
    text: str, total: int, notation: str
) -> None:
    result, _ = roll(text, [3, 5])
    assert (result.total, result.notation) == (total, notation)


def test_unicode_times() -> None:
    assert roll("2\u00d73", [])[0].total == 6
    assert roll("4D6KH3", [1, 2, 3, 4])[0].total == 9


def test_terms_roll_left_to_right() -> None:
    result, dice = roll("1d4+1d6*1d8", [1, 2, 3])
    assert dice.rolled == [(4, 1), (6, 2), (8, 3)]
    assert result.total == 1 + 2 * 3
    assert [t.term.sides for t in result.terms] == [4, 6, 8]
    assert result.faces == [1, 2, 3]


def test_as_dict_is_json_and_complete() -> None:
    result, _ = roll("4d6!kh3+2", [6, 3, 2, 5, 1])
    data = json.loads(json.dumps(result.as_dict()))
    assert data["total"] == 18
    assert data["notation"] == "4d6!kh3+2"
    assert data["text"] == result.text
    assert data["faces"] == [6, 3, 2, 5, 1]
    assert (data["min_total"], data["max_total"]) == (5, 3 * 126 + 2)
    (term,) = data["terms"]
    assert term["count"] == 4
    assert term["sides"] == 6
    assert term["explode"] is True
    assert term["keep"] == {"mode": "kh", "n": 3}
    assert term["kept"] == [0, 1, 2]
    assert term["dropped"] == [3]
    assert term["exploded"] == [0]
    assert term["dice"][0] == {
        "faces": [6, 3],
        "value": 9,
        "kept": True,
        "exploded": True,
        "capped": False,
    }


# --- parse without rolling ----------------------------------------------------------------


def test_parse_notation_validates_without_rolling() -> None:
    parsed = parse_notation(" 4d6kh3 + 2 ")
    assert parsed.notation == "4d6kh3+2"
    assert parsed.terms == (DiceTerm(4, 6, False, Keep("kh", 3)),)
    assert parsed.root == BinOp("+", DiceTerm(4, 6, False, Keep("kh", 3)), Number(2))
    assert (parsed.min_total, parsed.max_total) == (5, 20)
    assert json.loads(json.dumps(parsed.as_dict()))["terms"][0]["keep"] == {"mode": "kh", "n": 3}
    assert str(parsed) == "4d6kh3+2"
    with ScriptedDice([1, 2, 3, 4]) as dice:
        assert parsed.roll(dice=dice).total == 11


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("2d6+1", 3, 13),
        ("1d6-1d4", -3, 5),
        ("-2d6", -12, -2),
        ("1d6*1d4", 1, 24),
        ("(1d6-3)*(1d4-2)", -4, 6),
        ("1d6!", 1, 126),
        ("2d20kl1", 1, 20),
        ("4d6dl1", 3, 18),
        ("5", 5, 5),
    ],
)
def test_min_and_max_total(text: str, lo: int, hi: int) -> None:
    parsed = parse_notation(text)
    assert (parsed.min_total, parsed.max_total) == (lo, hi)


# --- limits and errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("  \t ", "empty"),
        ("1" * (MAX_CHARS + 1), "too_long"),
        ("101d6", "too_many_dice"),
        ("0d6", "no_dice"),
        ("1d1001", "too_many_sides"),
        ("1d0", "no_sides"),
        ("1+" * 20 + "1", "too_many_terms"),
        ("1d6+" * 20 + "1d6", "too_many_terms"),
        ("(" * 11 + "1" + ")" * 11, "too_deep"),
        ("-" * 11 + "1", "too_deep"),
        ("4d6kh5", "bad_keep"),
        ("4d6kh0", "bad_keep"),
        ("4d6kl0", "bad_keep"),
        ("4d6dl4", "bad_keep"),
        ("4d6dh0", "bad_keep"),
        ("1d1!", "explode_d1"),
        ("1000001", "number_too_big"),
        ("2d6)", "unbalanced"),
        ("(2d6", "unbalanced"),
        ("abc", "bad_char"),
        ("1d6/2", "bad_char"),
        ("1.5", "bad_char"),
        ("2d6e6", "bad_char"),
        ("1d20>10", "bad_char"),
        ("4к6кh3", "bad_char"),
        ("\u00b2d6", "bad_char"),
        ("1d6%", "syntax"),
        ("2d6 1", "syntax"),
        ("2d", "syntax"),
        ("d", "syntax"),
        ("+", "syntax"),
        ("1d6!!", "syntax"),
        ("4d6kh3kl1", "syntax"),
        ("4d6kh", "syntax"),
        ("1d6kh1!", "syntax"),
        ("2d6d6", "syntax"),
        ("()", "syntax"),
        ("(1)(2)", "syntax"),
        ("1++", "syntax"),
        ("*2", "syntax"),
        ("kh3", "syntax"),
    ],
)
def test_errors_have_stable_codes_and_both_languages(text: str, code: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(text)
    err = info.value
    assert err.code == code
    assert isinstance(err, ValueError)
    assert err.ru
    assert err.en
    assert str(err) == err.en
    assert err.ru != err.en
    assert json.loads(json.dumps(err.as_dict()))["code"] == code
    with pytest.raises(NotationError):
        roll_notation(text, dice=ScriptedDice([]))  # nothing rolled before the check fails


@pytest.mark.parametrize(
    "text",
    [
        "100d6",
        "1d1000",
        "1000000",
        "1+" * 19 + "1",
        "(" * 10 + "1" + ")" * 10,
        "1d6" + " " * (MAX_CHARS - 3),
        "4d6kh4",
        "4d6dl3",
        "100d1000!kh1",
    ],
)
def test_values_at_the_limits_are_accepted(text: str) -> None:
    parse_notation(text)
    roll_notation(text, dice=RandomDice())


def test_error_positions_point_at_the_problem() -> None:
    with pytest.raises(NotationError) as info:
        parse_notation("2d6 + 1x")
    assert info.value.position == 8
    with pytest.raises(NotationError) as info:
        parse_notation("1d6+101d6")
    assert info.value.position == 5
    assert "101" in info.value.ru
    assert "101" in info.value.en


@pytest.mark.parametrize("value", [None, 12, b"2d6", ["2d6"]])
def test_non_text_is_a_notation_error(value: object) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(value)  # type: ignore[arg-type]
    assert info.value.code == "not_text"


def test_recursion_error_becomes_a_notation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object) -> None:
        raise RecursionError

    monkeypatch.setattr(notation_module._Parser, "parse", boom)
    with pytest.raises(NotationError) as info:
        parse_notation("1d6")
    assert info.value.code == "too_deep"


def test_worst_case_roll_within_the_limits() -> None:
    """Two terms of 100 exploding d1000 (the total cap); timings: bench/dice_timings.py."""
    text = "+".join(["100d1000!kh50"] * 2)
    result = roll_notation(text, dice=RandomDice())
    assert result.min_total <= result.total <= result.max_total
    assert len(result.faces) >= 200


# --- fuzzing: any text gives a result or a NotationError, quickly ---------------------------


def check_any(text: str) -> None:
    try:
        result = roll_notation(text, dice=RandomDice())
    except NotationError as err:
        assert err.code
        assert err.ru
        assert err.en
    else:
        assert result.min_total <= result.total <= result.max_total
        json.dumps(result.as_dict())
        again = parse_notation(result.notation)  # the normalised form is stable
        assert again.notation == result.notation
        assert again.root == parse_notation(text).root


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=MAX_CHARS + 20))
def test_arbitrary_text(text: str) -> None:
    check_any(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789dDкК%!khlHLKe+-*()−× \t", max_size=80))
def test_notation_alphabet_soup(text: str) -> None:
    check_any(text)


def dice_text(valid: bool) -> st.SearchStrategy[str]:
    count = st.integers(1, 100) if valid else st.integers(0, 150)
    sides = st.integers(2, 1000) if valid else st.integers(0, 1200)
    keep = st.one_of(
        st.just(""),
        st.tuples(st.sampled_from(["kh", "kl", "k", "dh", "dl", "KH"]), st.integers(0, 120)).map(
            lambda t: f"{t[0]}{t[1]}"
        ),
    )
    return st.builds(
        lambda c, omit, d, s, pct, bang, k: (
            f"{'' if omit else c}{d}{'%' if pct else s}{'!' if bang else ''}{k}"
        ),
        count,
        st.booleans(),
        st.sampled_from(["d", "D", "к", "К"]),
        sides,
        st.booleans(),
        st.booleans(),
        keep,
    )


def expression_text(valid: bool) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.integers(0, 2_000_000).map(str), dice_text(valid))
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", " + ", " - ", "*-"]), inner).map(
                "".join
            ),
            inner.map(lambda s: f"({s})"),
            inner.map(lambda s: f"-{s}"),
        ),
        max_leaves=25,
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression_text(valid=False))
def test_grammar_shaped_text(text: str) -> None:
    check_any(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression_text(valid=True), st.integers(0, 2**32))
def test_scripted_replay_gives_the_same_roll(text: str, seed: int) -> None:
    """Replaying the faces a roll consumed reproduces it exactly: faces are consumed in order."""
    try:
        first = roll_notation(text, dice=SeededDice(seed))
    except NotationError:
        return
    with ScriptedDice(first.faces) as dice:
        second = roll_notation(text, dice=dice)
    assert second == first


# --- cross-check with d20 (the pinned library) on the syntax both share ----------------------


class SeededDice:
    """Deterministic dice for comparisons; tests only."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class _InjectedContext(d20.RollContext):
    """d20 hands its RollContext to every die, so it is the one place to carry our dice."""

    def __init__(self, dice: object) -> None:
        super().__init__(max_rolls=100_000)
        self.dice = dice


class _InjectedDie(d20x.Die):
    def _add_roll(self) -> None:  # d20 itself calls the global random.randrange here
        self._context.count_roll()
        self.values.append(d20x.Literal(self._context.dice.roll(self.size)))


class _InjectedDiceSet(d20x.Dice):
    @classmethod
    def new(cls, num, size, context=None):  # type: ignore[no-untyped-def]
        dice = [_InjectedDie.new(size, context=context) for _ in range(num)]
        return cls(num, size, dice, context=context)

    def roll_another(self) -> None:
        self.values.append(_InjectedDie.new(self.size, context=self._context))


class InjectedRoller(d20.Roller):
    """d20's Roller with our ``Dice`` injected: subclass, not a monkeypatch of ``random``, so it
    is thread-safe."""

    def __init__(self, dice: object) -> None:
        super().__init__(_InjectedContext(dice))

    def _eval_dice(self, node):  # type: ignore[no-untyped-def]
        return _InjectedDiceSet.new(node.num, node.size, context=self.context)


def to_d20(normalised: str) -> str:
    """Our normalised notation in d20's dialect: drop is ``p`` there."""
    return normalised.replace("dl", "pl").replace("dh", "ph")


def shared_dice_text() -> st.SearchStrategy[str]:
    keep = st.one_of(
        st.just(""), st.sampled_from(["kh1", "kl1", "kh2", "kl2", "dl1", "dh1", "kh3", "dl2"])
    )
    return st.builds(
        lambda c, s, k: f"{c}d{s}{k}", st.integers(3, 8), st.integers(1, 20), keep
    ) | st.builds(lambda c, s: f"{c}d{s}", st.integers(1, 5), st.integers(1, 100))


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.one_of(st.integers(0, 50).map(str), shared_dice_text()),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map("".join),
            inner.map(lambda s: f"({s})"),
        ),
        max_leaves=6,
    ),
    st.integers(0, 2**32),
)
def test_totals_match_d20_with_the_same_faces(text: str, seed: int) -> None:
    ours = roll_notation(text, dice=SeededDice(seed))
    theirs = InjectedRoller(SeededDice(seed)).roll(to_d20(ours.notation))
    assert theirs.total == ours.total


def test_d20_injection_really_uses_our_dice() -> None:
    with ScriptedDice([6, 1, 4, 4]) as dice:
        assert InjectedRoller(dice).roll("4d6kh3").total == 14


def test_total_dice_across_the_expression_is_capped():
    from systems.core.notation import MAX_DICE_TOTAL, NotationError, parse_notation

    assert parse_notation("100d6+100d6").terms[1].count == 100
    with pytest.raises(NotationError) as info:
        parse_notation("100d6+100d6+1d6")
    assert info.value.code == "too_many_dice_total"
    assert str(MAX_DICE_TOTAL) in info.value.ru and str(MAX_DICE_TOTAL) in info.value.en
