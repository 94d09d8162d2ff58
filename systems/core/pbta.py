"""Powered-by-the-Apocalypse pieces shared by Dungeon World and City of Judas.

Both games roll dice plus a modifier and read the total in three bands (Dungeon World, «Ход и
кубик»: «Стандартные результаты»; Град Иуды, «Нанесение урона»): ``"10+"``, ``"7-9"`` and ``"6-"``.
Odds are computed exactly with ``Fraction`` over every face combination, so they sum to exactly 1.

Forward ("+1 на следующий ход") and ongoing ("+1 на все ходы") are PbtA bookkeeping (Dungeon World,
«Эффекты ходов»: «Некоторые ходы...»); they live here as plain functions over lists of JSON entries
``{"value": int, "move": str, "note": str}`` where an empty ``move`` means "any move".
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.ruleset import RulesError

BANDS: tuple[str, ...] = ("10+", "7-9", "6-")
STRONG, WEAK, MISS = BANDS

BAND_TEXT: dict[str, dict[str, str]] = {
    STRONG: {"ru": "10+: полный успех", "en": "10+: full success"},
    WEAK: {"ru": "7–9: успех с осложнением", "en": "7-9: success at a cost"},
    MISS: {"ru": "6-: провал, ведущий говорит, что произошло", "en": "6-: miss, the GM says"},
}

MAX_DICE = 4  # PbtA rolls here use 1 or 2 dice; a small cap keeps exact odds cheap.


def band_for(total: int) -> str:
    """10 or more is ``"10+"``, 7 to 9 is ``"7-9"``, 6 or less is ``"6-"`` (Dungeon World, «Ход и
    кубик»)."""
    if total >= 10:
        return STRONG
    if total >= 7:
        return WEAK
    return MISS


@dataclass(frozen=True)
class PbtaRoll:
    """The faces kept, the modifier and the band they give."""

    faces: tuple[int, ...]
    modifier: int
    total: int
    band: str
    rolled: tuple[int, ...] = field(default=())

    @property
    def natural(self) -> int:
        return sum(self.faces)

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "rolled": list(self.rolled or self.faces),
            "modifier": self.modifier,
            "total": self.total,
            "band": self.band,
        }


def roll(dice: Dice, modifier: int = 0, *, count: int = 2, sides: int = 6) -> PbtaRoll:
    """Roll ``count``d``sides`` + ``modifier`` and band the total."""
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"a PbtA roll uses 1..{MAX_DICE} dice, got {count}")
    faces = tuple(dice.roll(sides) for _ in range(count))
    return from_faces(faces, modifier)


def roll_2d6(dice: Dice, modifier: int = 0) -> PbtaRoll:
    """The standard PbtA roll: 2d6 + modifier (Dungeon World, «Ход и кубик»)."""
    return roll(dice, modifier)


def from_faces(faces: tuple[int, ...] | list[int], modifier: int = 0) -> PbtaRoll:
    """Band already-known faces (a reused roll under City of Judas' one-roll rule)."""
    faces = tuple(faces)
    total = sum(faces) + modifier
    return PbtaRoll(faces=faces, modifier=modifier, total=total, band=band_for(total))


@lru_cache(maxsize=32)
def sum_counts(count: int = 2, sides: int = 6) -> dict[int, int]:
    """How many of the ``sides**count`` face combinations give each natural sum."""
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"a PbtA roll uses 1..{MAX_DICE} dice, got {count}")
    counts = Counter(sum(faces) for faces in product(range(1, sides + 1), repeat=count))
    return dict(sorted(counts.items()))


def band_odds_exact(modifier: int = 0, *, count: int = 2, sides: int = 6) -> dict[str, Fraction]:
    """Exact chance of each band for ``count``d``sides`` + ``modifier``."""
    counts = sum_counts(count, sides)
    whole = sides**count
    result = {band: Fraction(0) for band in BANDS}
    for natural, n in counts.items():
        result[band_for(natural + modifier)] += Fraction(n, whole)
    return result


def band_odds(modifier: int = 0, *, count: int = 2, sides: int = 6) -> dict[str, float]:
    """``band_odds_exact`` as floats, the shape ``Ruleset.odds`` returns."""
    return {k: float(v) for k, v in band_odds_exact(modifier, count=count, sides=sides).items()}


def certain(band: str) -> dict[str, float]:
    """Odds of a result that needs no dice (an automatic failure, say)."""
    return {b: (1.0 if b == band else 0.0) for b in BANDS}


# --- forward and ongoing ------------------------------------------------------------------


def applies_to(entry: dict[str, Any], move: str) -> bool:
    """An entry with no ``move`` applies to every move roll; a bound one only to its move."""
    bound = entry.get("move") or ""
    return bound in ("", move)


def forward_for(forwards: list[dict[str, Any]], move: str) -> int:
    """Sum of the forward entries the next roll of ``move`` would use (they stack)."""
    return sum(int(e.get("value", 0)) for e in forwards if applies_to(e, move))


def consume_forward(forwards: list[dict[str, Any]], move: str) -> list[dict[str, Any]]:
    """The forward list after a roll of ``move``: every entry that applied is used up."""
    return [dict(e) for e in forwards if not applies_to(e, move)]


def ongoing_for(ongoing: list[dict[str, Any]], move: str) -> int:
    """Sum of ongoing entries for ``move``; they stay until removed (their end is fiction)."""
    return sum(int(e.get("value", 0)) for e in ongoing if applies_to(e, move))


# --- pending choices ------------------------------------------------------------------------


def _choice_error(ru: str, en: str) -> RulesError:
    return RulesError({"choices": [{"ru": ru, "en": en}]})


def check_choices(
    outcome: Outcome, choices: list[str], *, repeat: bool = False, extra: tuple[str, ...] = ()
) -> None:
    """Reject choices that are not exactly ``outcome.pick`` offered keys (distinct unless
    ``repeat``); a choice from ``extra`` (e.g. a maim) may stand alone instead."""
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise _choice_error("Ожидается список вариантов.", "Expected a list of options.")
    if len(choices) == 1 and choices[0] in extra:
        return
    keys = {o.key for o in outcome.options}
    unknown = [c for c in choices if c not in keys]
    if unknown:
        raise _choice_error(
            f"Такого варианта нет: {', '.join(unknown)}.",
            f"Not an offered option: {', '.join(unknown)}.",
        )
    if len(choices) != outcome.pick:
        raise _choice_error(
            f"Нужно выбрать ровно {outcome.pick}.", f"Choose exactly {outcome.pick}."
        )
    if not repeat and len(set(choices)) != len(choices):
        raise _choice_error("Варианты не должны повторяться.", "Options must differ.")


def continue_outcome(
    outcome: Outcome,
    choices: list[str],
    *,
    state: dict[str, Any],
    text: Text | None = None,
    flags: dict[str, Any] | None = None,
    details: dict[str, Any] | None = None,
) -> Outcome:
    """The outcome after a choice: nothing pending, the choice recorded in ``details``."""
    new_details = copy.deepcopy(outcome.details)
    new_details.pop("pending", None)
    new_details.setdefault("choices", []).extend(choices)
    new_details.update(details or {})
    if text is None:
        chosen = [o for o in outcome.options if o.key in choices]
        text = Text(
            outcome.text.ru + " Выбрано: " + "; ".join(o.ru for o in chosen),
            outcome.text.en + " Chosen: " + "; ".join(o.en for o in chosen),
        )
    return dataclasses.replace(
        outcome,
        options=[],
        pick=0,
        chooser=None,
        state=state,
        text=text,
        flags={**outcome.flags, **(flags or {})},
        details=new_details,
    )


def offer(
    outcome: Outcome,
    options: list[Option] | tuple[Option, ...],
    *,
    pick: int,
    chooser: str,
    pending: dict[str, Any],
) -> Outcome:
    """Turn ``outcome`` into one waiting for ``chooser`` to pick ``pick`` of ``options``."""
    return dataclasses.replace(
        outcome,
        options=list(options),
        pick=pick,
        chooser=chooser,
        details={**copy.deepcopy(outcome.details), "pending": copy.deepcopy(pending)},
    )


class NoDice:
    """Passed where a step must not roll; rolling from it is a bug, reported loudly."""

    def roll(self, sides: int) -> int:
        raise RulesError({"dice": [{"ru": "Нужны кубики.", "en": "Dice are needed here."}]})
