"""Free dice notation: parse, validate against hard limits, roll with injected dice.

Grammar (whitespace allowed between tokens, Latin letters case-insensitive)::

    expr   := term (("+" | "-") term)*
    term   := unary ("*" unary)*
    unary  := ("+" | "-") unary | atom
    atom   := INT | dice | "(" expr ")"
    dice   := [INT] ("d" | "к") (INT | "%") ["!"] [("kh" | "kl" | "k" | "dh" | "dl") INT]

Why our own small parser and not d20's (DESIGN.md pins d20; the brief allows a grammar where
d20 "cannot do something cleanly"): d20 explodes by adding separate dice to the set, so
``4d6!kh3`` would keep single faces instead of per-die totals and there is no per-die cap; its
``d%`` is a 0-90 tens die; it draws from the global ``random`` module; and its grammar accepts
far more than we want (comparisons, ``/``, ``%``, decimals, sets, annotations, rerolls), each of
which we would have to whitelist away after a text rewrite that breaks error positions. Here
every limit is checked before any die is rolled, errors point at a position in the user's own
text, and every face is kept. tests/systems/core/test_notation.py cross-checks totals against
d20 (its Roller subclassed so it rolls our ``Dice``) on the syntax both share.

Rolling order, which ``ScriptedDice`` scripts follow: terms left to right; within a term die by
die, each die's explosion rolls right after it. Keep/drop ties go to the earlier die.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from systems.core.dice import Dice

MAX_CHARS = 200
MAX_DICE_PER_TERM = 100
MAX_SIDES = 1000
MAX_EXPLOSIONS = 20  # extra rolls for one die; the 21st roll is final even on its top face
MAX_TERMS = 20  # dice terms plus constants in one expression
MAX_DEPTH = 10  # nested parentheses and unary signs
MAX_NUMBER = 1_000_000
MAX_DICE_TOTAL = 200  # across the whole expression: bounds the size of a logged roll

KeepMode = Literal["kh", "kl", "dh", "dl"]


class NotationError(ValueError):
    """Bad or too big notation. ``code`` is stable for the API; ``ru``/``en`` are for people;
    ``position`` is 1-based in the input where that helps, else ``None``."""

    def __init__(self, code: str, ru: str, en: str, *, position: int | None = None) -> None:
        super().__init__(en)
        self.code = code
        self.ru = ru
        self.en = en
        self.position = position

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "ru": self.ru, "en": self.en, "position": self.position}


# ---------------------------------------------------------------------------------------------
# AST: frozen, so a parsed notation can be shared and rolled many times.


@dataclass(frozen=True)
class Keep:
    """Keep or drop the highest/lowest ``n`` dice of a term; ties go to the earlier die."""

    mode: KeepMode
    n: int

    def kept_count(self, count: int) -> int:
        return self.n if self.mode in ("kh", "kl") else count - self.n

    @property
    def highest(self) -> bool:
        """True when the kept dice are the highest ones (``kh`` and ``dl``)."""
        return self.mode in ("kh", "dl")

    def __str__(self) -> str:
        return f"{self.mode}{self.n}"


@dataclass(frozen=True)
class Number:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides``; ``explode`` re-rolls and adds on the top face (per die)."""

    count: int
    sides: int
    explode: bool = False
    keep: Keep | None = None

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{'!' if self.explode else ''}{self.keep or ''}"

    @property
    def die_max(self) -> int:
        return self.sides * (MAX_EXPLOSIONS + 1) if self.explode else self.sides

    @property
    def kept(self) -> int:
        return self.keep.kept_count(self.count) if self.keep else self.count

    def as_dict(self) -> dict[str, Any]:
        return {
            "notation": str(self),
            "count": self.count,
            "sides": self.sides,
            "explode": self.explode,
            "keep": {"mode": self.keep.mode, "n": self.keep.n} if self.keep else None,
        }


@dataclass(frozen=True)
class Neg:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True)
class Group:
    """Parentheses as written, kept so the normalised notation and the rendering match input."""

    inner: Node

    def __str__(self) -> str:
        return f"({self.inner})"


@dataclass(frozen=True)
class BinOp:
    op: Literal["+", "-", "*"]
    left: Node
    right: Node

    def __str__(self) -> str:
        return f"{self.left}{self.op}{self.right}"


Node = Number | DiceTerm | Neg | Group | BinOp


def _bounds(node: Node) -> tuple[int, int]:
    """Exact min and max: leaves are independent, so products peak at the operands' ends."""
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, DiceTerm):
        return node.kept, node.kept * node.die_max
    if isinstance(node, Neg):
        lo, hi = _bounds(node.operand)
        return -hi, -lo
    if isinstance(node, Group):
        return _bounds(node.inner)
    (a, b), (c, d) = _bounds(node.left), _bounds(node.right)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    ends = (a * c, a * d, b * c, b * d)
    return min(ends), max(ends)


def _dice_terms(node: Node) -> list[DiceTerm]:
    if isinstance(node, DiceTerm):
        return [node]
    if isinstance(node, Number):
        return []
    if isinstance(node, Neg):
        return _dice_terms(node.operand)
    if isinstance(node, Group):
        return _dice_terms(node.inner)
    return _dice_terms(node.left) + _dice_terms(node.right)


@dataclass(frozen=True)
class ParsedNotation:
    """A validated notation: safe to roll (every limit already checked) or to compute odds for."""

    notation: str
    root: Node
    terms: tuple[DiceTerm, ...]
    min_total: int
    max_total: int

    def roll(self, *, dice: Dice) -> NotationRoll:
        return _roll(self, dice)

    def as_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "terms": [t.as_dict() for t in self.terms],
            "min_total": self.min_total,
            "max_total": self.max_total,
        }

    def __str__(self) -> str:
        return self.notation


# ---------------------------------------------------------------------------------------------
# Results.


@dataclass(frozen=True)
class DieRoll:
    """One die: its first face then each explosion face, in the order rolled."""

    faces: tuple[int, ...]
    kept: bool = True
    capped: bool = False  # explosion stopped by MAX_EXPLOSIONS, not by a low face

    @property
    def value(self) -> int:
        return sum(self.faces)

    @property
    def exploded(self) -> bool:
        return len(self.faces) > 1

    def render(self) -> str:
        text = "+".join(map(str, self.faces))
        return text if self.kept else f"~{text}~"

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "value": self.value,
            "kept": self.kept,
            "exploded": self.exploded,
            "capped": self.capped,
        }


@dataclass(frozen=True)
class TermRoll:
    """Everything one dice term did, so the table can show and audit every face."""

    term: DiceTerm
    dice: tuple[DieRoll, ...]

    @property
    def total(self) -> int:
        return sum(d.value for d in self.dice if d.kept)

    @property
    def faces(self) -> list[int]:
        """Every face of this term in rolling order (explosions right after their die)."""
        return [f for d in self.dice for f in d.faces]

    @property
    def kept(self) -> list[int]:
        """Indexes of kept dice."""
        return [i for i, d in enumerate(self.dice) if d.kept]

    @property
    def dropped(self) -> list[int]:
        return [i for i, d in enumerate(self.dice) if not d.kept]

    @property
    def exploded(self) -> list[int]:
        return [i for i, d in enumerate(self.dice) if d.exploded]

    def render(self) -> str:
        return "[" + ", ".join(d.render() for d in self.dice) + "]"

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.term.as_dict(),
            "faces": self.faces,
            "dice": [d.as_dict() for d in self.dice],
            "kept": self.kept,
            "dropped": self.dropped,
            "exploded": self.exploded,
            "total": self.total,
        }


@dataclass(frozen=True)
class NotationRoll:
    """A rolled notation. ``text`` reads like ``2d6+1 = [3, 5] + 1 = 9``."""

    notation: str
    total: int
    terms: tuple[TermRoll, ...]
    text: str
    min_total: int
    max_total: int

    @property
    def faces(self) -> list[int]:
        return [f for t in self.terms for f in t.faces]

    def as_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "total": self.total,
            "text": self.text,
            "faces": self.faces,
            "terms": [t.as_dict() for t in self.terms],
            "min_total": self.min_total,
            "max_total": self.max_total,
        }

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------------------------------------
# Lexer.

_DIGITS = "0123456789"  # not str.isdigit(): that accepts "²" and other digits int() rejects
_SIMPLE = {
    "+": "+",
    "-": "-",
    "\u2212": "-",  # minus sign
    "\u2013": "-",  # en dash, what phones often insert
    "*": "*",
    "\u00d7": "*",  # multiplication sign
    "(": "(",
    ")": ")",
    "%": "%",
    "!": "!",
}


@dataclass(frozen=True)
class _Tok:
    kind: str  # "int", "d", "keep", or the character itself for + - * ( ) % !
    text: str
    pos: int  # 1-based
    value: int = 0


def _lex(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i].lower()
        if len(c) != 1:  # "İ".lower() is two characters; such a character is never valid
            c = text[i]
        pos = i + 1
        if c.isspace():
            i += 1
        elif c in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            digits = text[i:j]
            toks.append(_Tok("int", digits, pos, int(digits)))
            i = j
        elif c == "d" and i + 1 < n and text[i + 1].lower() in "hl":
            toks.append(_Tok("keep", "d" + text[i + 1].lower(), pos))
            i += 2
        elif c in ("d", "к"):
            toks.append(_Tok("d", c, pos))
            i += 1
        elif c == "k":
            nxt = text[i + 1].lower() if i + 1 < n else ""
            if nxt in ("h", "l"):
                toks.append(_Tok("keep", "k" + nxt, pos))
                i += 2
            else:
                toks.append(_Tok("keep", "kh", pos))  # bare "k3" keeps the highest three
                i += 1
        elif c in _SIMPLE:
            toks.append(_Tok(_SIMPLE[c], c, pos))
            i += 1
        else:
            raise NotationError(
                "bad_char",
                f"Непонятный символ «{text[i]}» в позиции {pos}.",
                f"Unexpected character {text[i]!r} at position {pos}.",
                position=pos,
            )
    return toks


# ---------------------------------------------------------------------------------------------
# Parser: recursive descent; depth is counted and capped before Python's stack could matter.


class _Parser:
    def __init__(self, toks: list[_Tok], length: int) -> None:
        self.toks = toks
        self.i = 0
        self.end = length + 1
        self.depth = 0
        self.operands = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, tok: _Tok | None, ru_expected: str, en_expected: str) -> NotationError:
        if tok is None:
            return NotationError(
                "syntax",
                f"Запись оборвалась, ожидалось: {ru_expected}.",
                f"Notation ends too early: expected {en_expected}.",
                position=self.end,
            )
        return NotationError(
            "syntax",
            f"Ошибка в позиции {tok.pos} («{tok.text}»), ожидалось: {ru_expected}.",
            f"Error at position {tok.pos} ({tok.text!r}): expected {en_expected}.",
            position=tok.pos,
        )

    def parse(self) -> Node:
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            if tok.kind == ")":
                raise NotationError(
                    "unbalanced",
                    f"Лишняя закрывающая скобка в позиции {tok.pos}.",
                    f"Unmatched closing parenthesis at position {tok.pos}.",
                    position=tok.pos,
                )
            raise self.fail(tok, "знак +, - или *", "an operator +, - or *")
        return node

    def expr(self) -> Node:
        node = self.term()
        while (tok := self.peek()) is not None and tok.kind in ("+", "-"):
            self.take()
            node = BinOp(tok.kind, node, self.term())  # type: ignore[arg-type]
        return node

    def term(self) -> Node:
        node = self.unary()
        while (tok := self.peek()) is not None and tok.kind == "*":
            self.take()
            node = BinOp("*", node, self.unary())
        return node

    def enter(self, tok: _Tok) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise NotationError(
                "too_deep",
                f"Слишком глубокая вложенность скобок и знаков (больше {MAX_DEPTH}).",
                f"Parentheses and signs nested too deep (more than {MAX_DEPTH}).",
                position=tok.pos,
            )

    def unary(self) -> Node:
        tok = self.peek()
        if tok is not None and tok.kind in ("+", "-"):
            self.take()
            self.enter(tok)
            inner = self.unary()
            self.depth -= 1
            return Neg(inner) if tok.kind == "-" else inner
        return self.atom()

    def count_operand(self, tok: _Tok) -> None:
        self.operands += 1
        if self.operands > MAX_TERMS:
            raise NotationError(
                "too_many_terms",
                f"Слишком много слагаемых: больше {MAX_TERMS}.",
                f"Too many terms: more than {MAX_TERMS}.",
                position=tok.pos,
            )

    def atom(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.fail(None, "число, кубик или скобка", "a number, dice or a parenthesis")
        if tok.kind == "(":
            self.take()
            self.enter(tok)
            inner = self.expr()
            close = self.peek()
            if close is None:
                raise NotationError(
                    "unbalanced",
                    f"Не закрыта скобка из позиции {tok.pos}.",
                    f"Parenthesis opened at position {tok.pos} is never closed.",
                    position=tok.pos,
                )
            if close.kind != ")":
                raise self.fail(close, "закрывающая скобка или знак", "')' or an operator")
            self.take()
            self.depth -= 1
            return Group(inner)
        if tok.kind == "int":
            self.take()
            self.count_operand(tok)
            nxt = self.peek()
            if nxt is not None and nxt.kind == "d":
                return self.dice(tok, count=tok.value)
            return Number(_check_number(tok))
        if tok.kind == "d":
            self.count_operand(tok)
            return self.dice(tok, count=1)
        raise self.fail(tok, "число, кубик или скобка", "a number, dice or a parenthesis")

    def dice(self, start: _Tok, *, count: int) -> DiceTerm:
        self.take()  # the "d"
        size = self.peek()
        if size is None or size.kind not in ("int", "%"):
            raise self.fail(size, "число граней после d", "the number of sides after d")
        self.take()
        sides = 100 if size.kind == "%" else size.value
        explode = False
        nxt = self.peek()
        if nxt is not None and nxt.kind == "!":
            self.take()
            explode = True
            nxt = self.peek()
        keep = None
        if nxt is not None and nxt.kind == "keep":
            self.take()
            num = self.peek()
            if num is None or num.kind != "int":
                raise self.fail(num, f"число после {nxt.text}", f"a number after {nxt.text}")
            self.take()
            keep = Keep(nxt.text, num.value)  # type: ignore[arg-type]
        nxt = self.peek()
        if nxt is not None and nxt.kind in ("!", "keep", "d", "%", "int"):
            raise self.fail(nxt, "знак +, - или *", "an operator +, - or *")
        return _check_dice(start, count, sides, explode, keep)


def _check_number(tok: _Tok) -> int:
    if tok.value > MAX_NUMBER:
        raise NotationError(
            "number_too_big",
            f"Число {tok.text} в позиции {tok.pos} слишком велико (не больше {MAX_NUMBER}).",
            f"Number {tok.text} at position {tok.pos} is too big (at most {MAX_NUMBER}).",
            position=tok.pos,
        )
    return tok.value


def _check_dice(start: _Tok, count: int, sides: int, explode: bool, keep: Keep | None) -> DiceTerm:
    pos = start.pos
    if count < 1:
        raise NotationError(
            "no_dice",
            f"В позиции {pos} бросается ноль кубиков.",
            f"Zero dice at position {pos}.",
            position=pos,
        )
    if count > MAX_DICE_PER_TERM:
        raise NotationError(
            "too_many_dice",
            f"Слишком много кубиков в позиции {pos}: {count}, можно не больше {MAX_DICE_PER_TERM}.",
            f"Too many dice at position {pos}: {count}, at most {MAX_DICE_PER_TERM}.",
            position=pos,
        )
    if sides < 1:
        raise NotationError(
            "no_sides",
            f"У кубика в позиции {pos} ноль граней.",
            f"The die at position {pos} has zero sides.",
            position=pos,
        )
    if sides > MAX_SIDES:
        raise NotationError(
            "too_many_sides",
            f"Слишком много граней в позиции {pos}: {sides}, можно не больше {MAX_SIDES}.",
            f"Too many sides at position {pos}: {sides}, at most {MAX_SIDES}.",
            position=pos,
        )
    if explode and sides == 1:
        raise NotationError(
            "explode_d1",
            f"Кубик d1 в позиции {pos} не может взрываться.",
            f"A d1 cannot explode (position {pos}).",
            position=pos,
        )
    if keep is not None:
        ok = 1 <= keep.n <= count if keep.mode in ("kh", "kl") else 1 <= keep.n < count
        if not ok:
            raise NotationError(
                "bad_keep",
                f"Нельзя {keep} из {count} кубиков (позиция {pos}).",
                f"Cannot {keep} out of {count} dice (position {pos}).",
                position=pos,
            )
    return DiceTerm(count, sides, explode, keep)


def parse_notation(text: str) -> ParsedNotation:
    """Validate without rolling (for forms and odds). Raises only ``NotationError``."""
    if not isinstance(text, str):
        raise NotationError(
            "not_text", "Запись броска должна быть строкой.", "Notation must be text."
        )
    if len(text) > MAX_CHARS:
        raise NotationError(
            "too_long",
            f"Слишком длинная запись (длина {len(text)}), можно не больше {MAX_CHARS} символов.",
            f"Notation too long: {len(text)} characters, at most {MAX_CHARS}.",
        )
    if not text.strip():
        raise NotationError("empty", "Пустая запись броска.", "Empty dice notation.")
    try:
        root = _Parser(_lex(text), len(text)).parse()
    except RecursionError:  # unreachable with MAX_DEPTH, kept as the last line of defence
        raise NotationError(
            "too_deep", "Слишком глубокая вложенность.", "Notation nested too deep."
        ) from None
    terms = tuple(_dice_terms(root))
    dice_total = sum(t.count for t in terms)
    if dice_total > MAX_DICE_TOTAL:
        raise NotationError(
            "too_many_dice_total",
            f"Слишком много кубиков в одном броске: {dice_total}, можно не больше "
            f"{MAX_DICE_TOTAL}.",
            f"Too many dice in one roll: {dice_total}, at most {MAX_DICE_TOTAL}.",
        )
    lo, hi = _bounds(root)
    return ParsedNotation(str(root), root, terms, lo, hi)


# ---------------------------------------------------------------------------------------------
# Rolling.


def _roll_die(sides: int, explode: bool, dice: Dice) -> DieRoll:
    faces = [dice.roll(sides)]
    if explode:
        while faces[-1] == sides and len(faces) <= MAX_EXPLOSIONS:
            faces.append(dice.roll(sides))
    capped = explode and len(faces) == MAX_EXPLOSIONS + 1 and faces[-1] == sides
    return DieRoll(tuple(faces), capped=capped)


def _roll_term(term: DiceTerm, dice: Dice) -> TermRoll:
    """Dice are rolled one after another, each die's explosions right after it."""
    rolled = [_roll_die(term.sides, term.explode, dice) for _ in range(term.count)]
    keep = term.keep
    if keep is not None:
        if keep.highest:
            order = sorted(range(term.count), key=lambda i: (-rolled[i].value, i))
        else:
            order = sorted(range(term.count), key=lambda i: (rolled[i].value, i))
        kept = set(order[: keep.kept_count(term.count)])
        rolled = [
            d if i in kept else DieRoll(d.faces, kept=False, capped=d.capped)
            for i, d in enumerate(rolled)
        ]
    return TermRoll(term, tuple(rolled))


def _eval(node: Node, dice: Dice, out: list[TermRoll]) -> tuple[int, str]:
    if isinstance(node, Number):
        return node.value, str(node.value)
    if isinstance(node, DiceTerm):
        tr = _roll_term(node, dice)
        out.append(tr)
        return tr.total, tr.render()
    if isinstance(node, Neg):
        value, text = _eval(node.operand, dice, out)
        return -value, f"-{text}"
    if isinstance(node, Group):
        value, text = _eval(node.inner, dice, out)
        return value, f"({text})"
    left, ltext = _eval(node.left, dice, out)
    right, rtext = _eval(node.right, dice, out)
    if node.op == "+":
        value = left + right
    elif node.op == "-":
        value = left - right
    else:
        value = left * right
    return value, f"{ltext} {node.op} {rtext}"


def _roll(parsed: ParsedNotation, dice: Dice) -> NotationRoll:
    terms: list[TermRoll] = []
    total, shown = _eval(parsed.root, dice, terms)
    return NotationRoll(
        notation=parsed.notation,
        total=total,
        terms=tuple(terms),
        text=f"{parsed.notation} = {shown} = {total}",
        min_total=parsed.min_total,
        max_total=parsed.max_total,
    )


def roll_notation(text: str, *, dice: Dice) -> NotationRoll:
    """Parse, check every limit, then roll with ``dice`` (faces consumed in rolling order)."""
    return parse_notation(text).roll(dice=dice)
