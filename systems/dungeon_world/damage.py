"""Dungeon World damage: the rulebook's own small dice notation and the armor arithmetic.

Damage is not a move roll («Ход и кубик»): it never consumes forward and never marks XP.
Expressions are what the rulebook writes («Урон»; «Одновременный урон от нескольких противников»;
«Оглушающий урон»; «Увеличение и уменьшение урона»; «Больший и меньший»): ``к10+1``, ``2к6``,
``d8``, ``к4-1к6``,
``м[2к6]`` (roll twice, keep the lower) and ``б[3к10]`` (roll thrice, keep the highest).
The free notation of ``systems/core/notation.py`` is a different, general tool; this parser
only knows what damage needs and is capped so a sheet cannot ask for absurd rolls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import msg

MAX_EXPRESSION = 60
MAX_TERMS = 8
MAX_COUNT = 10
MAX_SIDES = 100
MAX_CONSTANT = 100

_TERM = re.compile(
    r"""
    (?P<sign>[+-])?\s*
    (?:
        (?P<keep>[бмbw])\[\s*(?P<kcount>\d+)\s*[кd]\s*(?P<ksides>\d+)\s*\]
      | (?P<count>\d+)?\s*[кd]\s*(?P<sides>\d+)
      | (?P<const>\d+)
    )\s*
    """,
    re.VERBOSE | re.IGNORECASE,
)


class DamageNotationError(ValueError):
    """The expression is not valid damage notation; ``message`` has ru and en text."""

    def __init__(self, ru: str, en: str) -> None:
        super().__init__(en)
        self.message = msg(ru, en)


@dataclass(frozen=True)
class Term:
    """One part of an expression: a constant, a sum of dice, or the best/worst of dice."""

    sign: int
    kind: str  # "const" | "sum" | "best" | "worst"
    count: int = 0
    sides: int = 0
    value: int = 0

    def max_value(self) -> int:
        if self.kind == "const":
            return self.value
        return self.sides * (self.count if self.kind == "sum" else 1)

    def min_value(self) -> int:
        if self.kind == "const":
            return self.value
        return self.count if self.kind == "sum" else 1


def parse(expression: str) -> tuple[Term, ...]:
    """Parse damage notation into terms, or raise ``DamageNotationError``."""
    text = (expression or "").strip().lower().replace("ё", "е")
    if not text:
        raise DamageNotationError("Пустое выражение урона.", "Empty damage expression.")
    if len(text) > MAX_EXPRESSION:
        raise DamageNotationError(
            f"Выражение урона длиннее {MAX_EXPRESSION} символов.",
            f"Damage expression longer than {MAX_EXPRESSION} characters.",
        )
    terms: list[Term] = []
    pos = 0
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos or (terms and not match.group("sign")):
            raise DamageNotationError(
                f"Не понимаю выражение урона «{expression}».",
                f"Cannot read damage expression {expression!r}.",
            )
        pos = match.end()
        sign = -1 if match.group("sign") == "-" else 1
        if match.group("keep"):
            kind = "best" if match.group("keep") in ("б", "b") else "worst"
            term = Term(sign, kind, int(match.group("kcount")), int(match.group("ksides")))
        elif match.group("sides"):
            term = Term(sign, "sum", int(match.group("count") or 1), int(match.group("sides")))
        else:
            term = Term(sign, "const", value=int(match.group("const")))
        _check(term, expression)
        terms.append(term)
        if len(terms) > MAX_TERMS:
            raise DamageNotationError(
                f"Не больше {MAX_TERMS} слагаемых в уроне.", f"At most {MAX_TERMS} damage terms."
            )
    return tuple(terms)


def _check(term: Term, expression: str) -> None:
    if term.kind == "const":
        if term.value > MAX_CONSTANT:
            raise DamageNotationError(
                f"Число больше {MAX_CONSTANT} в «{expression}».",
                f"Number above {MAX_CONSTANT} in {expression!r}.",
            )
        return
    if not 1 <= term.count <= MAX_COUNT or not 2 <= term.sides <= MAX_SIDES:
        raise DamageNotationError(
            f"Кубиков от 1 до {MAX_COUNT}, граней от 2 до {MAX_SIDES}: «{expression}».",
            f"Dice count 1..{MAX_COUNT} and sides 2..{MAX_SIDES}: {expression!r}.",
        )


def check_expression(value: str) -> dict[str, str] | None:
    """Validator for ``StrField(check=...)``: the error message, or ``None`` when valid."""
    if not value:
        return None
    try:
        parse(value)
    except DamageNotationError as exc:
        return exc.message
    return None


def biggest_die(terms: tuple[Term, ...]) -> int:
    """Sides of the largest die in an expression (0 for a fixed amount)."""
    return max((t.sides for t in terms if t.kind != "const"), default=0)


def max_total(terms: tuple[Term, ...]) -> int:
    """Largest possible total (before the floor at 0)."""
    return sum(t.max_value() if t.sign > 0 else -t.min_value() for t in terms)


@dataclass(frozen=True)
class DamageRoll:
    """A rolled expression: every face, the kept value per term and the total (never < 0)."""

    expression: str
    faces: tuple[int, ...]
    parts: tuple[int, ...]
    total: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "faces": list(self.faces),
            "parts": list(self.parts),
            "total": self.total,
        }


def roll_damage(expression: str, dice: Dice) -> DamageRoll:
    """Roll an expression left to right; the total is floored at 0 («Увеличение и уменьшение
    урона»)."""
    terms = parse(expression)
    faces: list[int] = []
    parts: list[int] = []
    for term in terms:
        if term.kind == "const":
            value = term.value
        else:
            rolled = [dice.roll(term.sides) for _ in range(term.count)]
            faces.extend(rolled)
            if term.kind == "sum":
                value = sum(rolled)
            elif term.kind == "best":
                value = max(rolled)
            else:
                value = min(rolled)
        parts.append(term.sign * value)
    return DamageRoll(expression, tuple(faces), tuple(parts), max(0, sum(parts)))


def pick_attacker_expression(expressions: list[str]) -> str:
    """Several attackers («Одновременный урон от нескольких противников»): use the biggest die for
    every roll.

    The whole expression with that die is reused, bonus included («Одновременный урон от нескольких
    противников»: к10+1 rolled four times). Two attackers with the same biggest die: the higher
    bonus wins (our reading), which is the larger possible maximum.
    """
    if not expressions:
        raise DamageNotationError("Нет атакующих.", "No attackers.")
    return max(expressions, key=lambda e: (biggest_die(parse(e)), max_total(parse(e))))


def armor_after_cover(armor: int, cover: str) -> int:
    """Cover is situational armor, 1 partial or 2 full («Урон»), added to worn armor (our
    reading)."""
    return armor + {"none": 0, "partial": 1, "full": 2}[cover]


def after_armor(damage: int, armor: int, *, ignores_armor: bool = False) -> int:
    """Damage that gets through: ``max(0, damage - armor)`` («Урон»), armor skipped if ignored."""
    return max(0, damage - (0 if ignores_armor else armor))
