"""Rollable tables: clean, check and roll. Pure: no database and no clock; dice come in.

A table as data (what ``RandomTable`` stores and what import and export carry)::

    {
        "key": "trap",              # unique in the campaign; nested rolls name tables by key
        "name": "Ловушки",
        "formula": "1d10",          # dice notation (systems.core.notation); 1d<sum> with weights
        "weights": False,           # True: entries carry weights, turned into ranges of a d<sum>
        "modifier_label": "",       # not empty: a roll adds a modifier, e.g. "cruelty"
        "note": "",
        "entries": [
            {
                "min": 1, "max": 3,     # inclusive range of totals (computed from weights)
                "weight": 3,            # weights only
                "text": "Яма",
                "roll": ["spikes"],     # then roll on these tables, in order (optional)
                "amount": "2d6*100",    # notation for "how many" (optional)
                "unit": "серебра",      # what the amount counts (optional)
                "key": "pit",           # stable id of the result (optional)
            },
        ],
    }

Checks: every total the formula can produce falls in exactly one entry (no gaps, no
overlaps). A table with a ``modifier_label`` may have rows past the formula's ends (a "13+" row
of a d10 + cruelty table); its totals are clamped to the first and last rows, and the rows must
still be contiguous. Across the campaign's tables, nested rolls must name existing tables and
never loop.

Rolling order, the same as the Tales rules' own ``roll_tables`` so ``ScriptedDice`` scripts
read alike: the table's formula; then its entry's ``amount``; then the formulas of every table
the entry names, in order; then, result by result, their follow-ups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from systems.core.dice import Dice
from systems.core.notation import NotationError, parse_notation, roll_notation
from vtt.core.errors import Invalid

KEY_MAX = 60
KEY_RE = re.compile(rf"^[\w-]{{1,{KEY_MAX}}}$")
MAX_NAME = 120
MAX_TEXT = 1000
MAX_NOTE = 2000
MAX_LABEL = 60
MAX_UNIT = 60
MAX_ENTRIES = 500
MAX_NESTED = 10  # tables one entry rolls on
MAX_SPAN = 10_000  # different totals a table handles
MAX_WEIGHT_TOTAL = 1000  # a d1000 is the largest die the notation allows
MAX_VALUE = 1_000_000
MAX_ROLLS = 100  # table rolls one roll can lead to (fan-out of nested rolls)
MAX_DEPTH = 8
MAX_MODIFIER = 1000


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    field: str | None = None  # the table's field it is about; None: the entries

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class TableInvalid(Invalid):
    """Every problem found, the first as the message and code (the API's 400)."""

    def __init__(self, problems: list[Problem], *, field: str = "entries") -> None:
        first = problems[0]
        fields: dict[str, list[str]] = {}
        for p in problems:
            fields.setdefault(p.field or field, []).append(p.message)
        super().__init__(
            first.message,
            code=first.code,
            fields=fields,
            extra={"problems": [p.as_dict() for p in problems]},
        )
        self.problems = problems


def _lang() -> str:
    return "ru" if (get_language() or "ru").startswith("ru") else "en"


def notation_message(exc: NotationError) -> str:
    return exc.ru if _lang() == "ru" else exc.en


def spans(values: list[int], limit: int = 8) -> str:
    """``[1, 2, 3, 7]`` → ``"1–3, 7"`` (sorted input; at most ``limit`` spans, then "…")."""
    parts: list[str] = []
    start = prev = None
    for v in values:
        if start is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            parts.append(f"{start}–{prev}" if prev != start else str(start))
            start = prev = v
    if start is not None:
        parts.append(f"{start}–{prev}" if prev != start else str(start))
    if len(parts) > limit:
        parts = [*parts[:limit], "…"]
    return ", ".join(parts)


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _int(value: Any) -> int | None:
    """A whole number from JSON or a form field; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[-+−]?[0-9]{1,9}\s*", value):
        return int(value.strip().replace("−", "-"))
    return None


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _keys(value: Any) -> list[str] | None:
    """Nested table keys as a list: a list, or one string with commas or spaces."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [k for k in re.split(r"[,;\s]+", value.strip()) if k]
    if isinstance(value, list) and all(isinstance(k, str) for k in value):
        return [k.strip() for k in value if k.strip()]
    return None


def clean_key(value: Any) -> str | None:
    key = _text(value)
    return key if KEY_RE.fullmatch(key) else None


# --- one table ---------------------------------------------------------------------------------


def clean_table(raw: Any) -> dict[str, Any]:
    """The table in its stored shape, or ``TableInvalid`` listing every problem."""
    if not isinstance(raw, dict):
        raise TableInvalid(
            [
                Problem(
                    "table_bad_shape",
                    _("A table is an object with a key, a name, a formula and entries."),
                )
            ],
            field="table",
        )
    problems: list[Problem] = []
    raw = _typed(raw, problems)
    key = clean_key(raw.get("key"))
    if key is None:
        problems.append(
            Problem(
                "table_key",
                _("A key is 1 to %(max)d letters, digits, “_” or “-”, no spaces.")
                % {"max": KEY_MAX},
                "key",
            )
        )
    name = _text(raw.get("name"))
    if not name or len(name) > MAX_NAME:
        problems.append(
            Problem(
                "table_name",
                _("Give the table a name of at most %(max)d characters.") % {"max": MAX_NAME},
                "name",
            )
        )
    note = str(raw.get("note") or "").strip()
    if len(note) > MAX_NOTE:
        problems.append(
            Problem(
                "table_note",
                _("A note is at most %(max)d characters.") % {"max": MAX_NOTE},
                "note",
            )
        )
    label = _text(raw.get("modifier_label"))
    if len(label) > MAX_LABEL:
        problems.append(
            Problem(
                "table_modifier_label",
                _("The modifier's name is at most %(max)d characters.") % {"max": MAX_LABEL},
                "modifier_label",
            )
        )
    weights = raw.get("weights") is True
    raw_entries = raw.get("entries")
    if not isinstance(raw_entries, list) or not raw_entries:
        problems.append(Problem("table_empty", _("A table needs at least one entry.")))
        raw_entries = []
    elif len(raw_entries) > MAX_ENTRIES:
        problems.append(
            Problem(
                "table_too_many_entries",
                _("A table has at most %(max)d entries.") % {"max": MAX_ENTRIES},
            )
        )
        raw_entries = []
    entries = [_clean_entry(e, n, weights, problems) for n, e in enumerate(raw_entries, 1)]
    formula = str(raw.get("formula") or "").strip()
    ranged = bool(entries) and all(e is not None for e in entries)
    if weights and ranged:
        total = sum(e["weight"] for e in entries)
        if total > MAX_WEIGHT_TOTAL:
            ranged = False
            problems.append(
                Problem(
                    "table_weight_total",
                    _("The weights add up to %(total)d; at most %(max)d (a d%(max)d).")
                    % {"total": total, "max": MAX_WEIGHT_TOTAL},
                )
            )
        else:
            formula = f"1d{total}"
            low = 1
            for e in entries:
                e["min"], e["max"] = low, low + e["weight"] - 1
                low += e["weight"]
    bounds = _formula_bounds(formula, problems) if ranged or not weights else None
    if bounds and ranged:
        _check_coverage(entries, bounds, bool(label), problems)
    if problems:
        raise TableInvalid(problems)
    if not weights:
        entries.sort(key=lambda e: e["min"])
    return {
        "key": key,
        "name": name,
        "formula": formula,
        "weights": weights,
        "modifier_label": label,
        "note": note,
        "entries": entries,
    }


# The table's own fields and the JSON type each takes (None: absent).
TEXT_FIELDS = ("key", "name", "formula", "modifier_label", "note")


def _typed(raw: dict[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """``raw`` without fields of the wrong JSON type, each reported: a number is not a name,
    and ``"yes"`` is not ``true`` (a form's checkbox is turned into a boolean by its view)."""
    clean = dict(raw)
    for field in TEXT_FIELDS:
        if clean.get(field) is not None and not isinstance(clean[field], str):
            problems.append(Problem("table_not_text", _("This must be text."), field))
            clean[field] = ""
    if clean.get("weights") is not None and not isinstance(clean["weights"], bool):
        problems.append(Problem("table_not_boolean", _("This must be true or false."), "weights"))
        clean["weights"] = False
    return clean


def _clean_entry(raw: Any, n: int, weights: bool, problems: list[Problem]) -> dict | None:
    if not isinstance(raw, dict):
        problems.append(Problem("table_bad_shape", _("Entry %(n)d is not an object.") % {"n": n}))
        return None
    ok = True
    entry: dict[str, Any] = {}
    if weights:
        weight = _int(raw.get("weight"))
        if weight is None or not 1 <= weight <= MAX_WEIGHT_TOTAL:
            problems.append(
                Problem(
                    "table_weight",
                    _("Entry %(n)d: a weight is a whole number from 1 to %(max)d.")
                    % {"n": n, "max": MAX_WEIGHT_TOTAL},
                )
            )
            ok = False
        entry["weight"] = weight
    else:
        low = _int(raw.get("min"))
        high = _int(raw.get("max")) if raw.get("max") not in (None, "") else low
        if (
            low is None
            or high is None
            or low > high
            or abs(low) > MAX_VALUE
            or abs(high) > MAX_VALUE
        ):
            problems.append(
                Problem(
                    "table_bad_range",
                    _("Entry %(n)d: min and max are whole numbers and min is not above max.")
                    % {"n": n},
                )
            )
            ok = False
        entry["min"], entry["max"] = low, high
    text = raw.get("text")
    text = text.strip() if isinstance(text, str) else ""  # a number is not a text
    if not text:
        problems.append(Problem("table_entry_text", _("Entry %(n)d needs a text.") % {"n": n}))
        ok = False
    elif len(text) > MAX_TEXT:
        problems.append(
            Problem(
                "table_text_too_long",
                _("Entry %(n)d: the text is at most %(max)d characters.")
                % {"n": n, "max": MAX_TEXT},
            )
        )
        ok = False
    entry["text"] = text
    nested = _keys(raw.get("roll"))
    bad = [k for k in nested or [] if not KEY_RE.fullmatch(k)]
    if nested is None or bad:
        problems.append(
            Problem(
                "table_nested_key",
                _("Entry %(n)d rolls on “%(key)s”, which is not a table key.")
                % {"n": n, "key": bad[0] if bad else raw.get("roll")},
            )
        )
        ok = False
    elif len(nested) > MAX_NESTED:
        problems.append(
            Problem(
                "table_too_many_nested",
                _("Entry %(n)d rolls on at most %(max)d tables.") % {"n": n, "max": MAX_NESTED},
            )
        )
        ok = False
    if nested:
        entry["roll"] = nested
    amount = _text(raw.get("amount"))
    if amount:
        try:
            parse_notation(amount)
        except NotationError as exc:
            problems.append(
                Problem(
                    "table_amount",
                    _("Entry %(n)d: the amount is not dice notation: %(error)s")
                    % {"n": n, "error": notation_message(exc)},
                )
            )
            ok = False
        entry["amount"] = amount
    unit = _text(raw.get("unit"))
    if len(unit) > MAX_UNIT:
        problems.append(
            Problem(
                "table_unit",
                _("Entry %(n)d: the unit is at most %(max)d characters.")
                % {"n": n, "max": MAX_UNIT},
            )
        )
        ok = False
    if unit:
        entry["unit"] = unit
    result_key = _text(raw.get("key"))
    if result_key:
        entry["key"] = result_key[:KEY_MAX]
    return entry if ok else None


def _formula_bounds(formula: str, problems: list[Problem]) -> tuple[int, int] | None:
    if not formula:
        problems.append(
            Problem(
                "table_formula", _("Give the table a dice formula, for example 1d6."), "formula"
            )
        )
        return None
    try:
        parsed = parse_notation(formula)
    except NotationError as exc:
        problems.append(
            Problem(
                f"notation_{exc.code}",
                _("Formula: %(error)s") % {"error": notation_message(exc)},
                "formula",
            )
        )
        return None
    count = parsed.max_total - parsed.min_total + 1
    if count > MAX_SPAN:
        problems.append(
            Problem(
                "table_formula_span",
                _("The formula gives %(count)d different totals; a table handles at most %(max)d.")
                % {"count": count, "max": MAX_SPAN},
                "formula",
            )
        )
        return None
    return parsed.min_total, parsed.max_total


def _check_coverage(
    entries: list[dict[str, Any]],
    bounds: tuple[int, int],
    takes_modifier: bool,
    problems: list[Problem],
) -> None:
    """Gaps, overlaps and rows outside the formula, by sweeping the sorted ranges."""
    lo, hi = bounds
    if takes_modifier:
        lo = min(lo, *(e["min"] for e in entries))
        hi = max(hi, *(e["max"] for e in entries))
        if hi - lo + 1 > MAX_SPAN:
            problems.append(
                Problem(
                    "table_formula_span",
                    _("The rows span %(count)d different totals; a table handles at most %(max)d.")
                    % {"count": hi - lo + 1, "max": MAX_SPAN},
                )
            )
            return
    else:
        for n, e in enumerate(entries, 1):
            outside = []
            if e["min"] < lo:
                outside.append(_span(e["min"], min(e["max"], lo - 1)))
            if e["max"] > hi:
                outside.append(_span(max(e["min"], hi + 1), e["max"]))
            if outside:
                problems.append(
                    Problem(
                        "table_out_of_range",
                        _("Entry %(n)d covers %(values)s, outside %(lo)d–%(hi)d of the formula.")
                        % {"n": n, "values": ", ".join(outside), "lo": lo, "hi": hi},
                    )
                )
    order = sorted(range(len(entries)), key=lambda i: (entries[i]["min"], entries[i]["max"]))
    gaps: list[tuple[int, int]] = []
    covered_to = lo - 1
    widest: int | None = None  # the entry reaching furthest so far
    for i in order:
        e = entries[i]
        if widest is not None and e["min"] <= entries[widest]["max"]:
            a, b = sorted((widest, i))
            problems.append(
                Problem(
                    "table_overlap",
                    _("Entries %(a)d and %(b)d overlap on %(values)s.")
                    % {
                        "a": a + 1,
                        "b": b + 1,
                        "values": _span(e["min"], min(e["max"], entries[widest]["max"])),
                    },
                )
            )
        if e["min"] > covered_to + 1 and covered_to + 1 <= hi:
            gaps.append((covered_to + 1, min(e["min"] - 1, hi)))
        if widest is None or e["max"] > entries[widest]["max"]:
            widest = i
        covered_to = max(covered_to, e["max"])
    if covered_to < hi:
        gaps.append((max(covered_to + 1, lo), hi))
    gaps = [(a, b) for a, b in gaps if a <= b and b >= lo]
    if gaps:
        shown = [_span(a, b) for a, b in gaps[:8]] + (["…"] if len(gaps) > 8 else [])
        problems.append(
            Problem(
                "table_gap",
                _("No entry for %(values)s (the table covers %(lo)d–%(hi)d).")
                % {"values": ", ".join(shown), "lo": lo, "hi": hi},
            )
        )


# --- a set of tables -----------------------------------------------------------------------------


def nested_keys(table: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for entry in table["entries"]:
        for key in entry.get("roll", []):
            if key not in out:
                out.append(key)
    return out


def find_cycle(pool: dict[str, dict[str, Any]], start: list[str] | None = None) -> list[str]:
    """A loop of nested rolls as ``[a, b, a]``, or ``[]``; depth first from ``start``."""
    state: dict[str, int] = {}  # 1 = on the path, 2 = done
    path: list[str] = []

    def visit(key: str) -> list[str]:
        state[key] = 1
        path.append(key)
        for child in nested_keys(pool[key]) if key in pool else []:
            if state.get(child) == 1:
                return [*path[path.index(child) :], child]
            if child not in state:
                found = visit(child)
                if found:
                    return found
        path.pop()
        state[key] = 2
        return []

    for key in start if start is not None else sorted(pool):
        if key in pool and key not in state:
            found = visit(key)
            if found:
                return found
    return []


def check_pool(pool: dict[str, dict[str, Any]], changed: list[str] | None = None) -> None:
    """Nested rolls across tables: known keys, no loops, bounded fan-out. ``changed`` limits
    the unknown-key check to those tables (the others were checked when they were saved) and
    starts the loop search there, so the loop reported is one they take part in."""
    problems: list[Problem] = []
    for key in changed if changed is not None else sorted(pool):
        table = pool[key]
        for n, entry in enumerate(table["entries"], 1):
            for child in entry.get("roll", []):
                if child not in pool:
                    problems.append(
                        Problem(
                            "table_unknown_nested",
                            _("“%(table)s”, entry %(n)d: there is no table “%(key)s” to roll on.")
                            % {"table": key, "n": n, "key": child},
                        )
                    )
    if problems:
        raise TableInvalid(problems)
    cycle = find_cycle(pool, [*changed, *sorted(pool)] if changed is not None else None)
    if cycle:
        raise TableInvalid(
            [
                Problem(
                    "table_cycle",
                    _("Nested rolls form a loop: %(cycle)s.") % {"cycle": " → ".join(cycle)},
                )
            ]
        )
    costs: dict[str, int] = {}
    for key in [*(changed or []), *sorted(pool)]:
        count = _cost(key, pool, costs)
        if count > MAX_ROLLS:
            raise TableInvalid(
                [
                    Problem(
                        "table_too_many_rolls",
                        _("One roll on “%(table)s” can lead to %(count)d rolls; at most %(max)d.")
                        % {"table": key, "count": count, "max": MAX_ROLLS},
                    )
                ]
            )


def _cost(key: str, pool: dict[str, dict[str, Any]], memo: dict[str, int]) -> int:
    """The most table rolls one roll on ``key`` can make (the pool has no loops here)."""
    if key not in memo:
        memo[key] = 1 + max(
            (sum(_cost(c, pool, memo) for c in e.get("roll", [])) for e in pool[key]["entries"]),
            default=0,
        )
    return memo[key]


def dependencies(pool: dict[str, dict[str, Any]], key: str) -> list[str]:
    """``key`` and every table its nested rolls can reach, in first-visit order."""
    seen: list[str] = []
    stack = [key]
    while stack:
        current = stack.pop(0)
        if current in seen or current not in pool:
            continue
        seen.append(current)
        stack.extend(nested_keys(pool[current]))
    return seen


# --- rolling -------------------------------------------------------------------------------------


def entry_for(table: dict[str, Any], total: int) -> tuple[int, dict[str, Any]]:
    """The (1-based index, entry) holding ``total``; totals past the ends take the end rows."""
    entries = table["entries"]
    low = min(entries, key=lambda e: e["min"])
    high = max(entries, key=lambda e: e["max"])
    total = max(low["min"], min(high["max"], total))
    for n, entry in enumerate(entries, 1):
        if entry["min"] <= total <= entry["max"]:
            return n, entry
    raise KeyError(f"{table['key']}: no entry for {total}")  # clean tables have none


def roll(
    key: str, pool: dict[str, dict[str, Any]], *, dice: Dice, modifier: int = 0
) -> dict[str, Any]:
    """Roll ``key`` and every nested roll its result asks for. ``modifier`` is added to the
    first roll only (nested tables roll plain)."""
    if key not in pool:
        raise Invalid(_("There is no table “%(key)s”.") % {"key": key}, code="no_table")
    counter = [0]
    first = _roll_formula(pool[key], dice, modifier, counter)
    _follow(first, pool, dice, 0, counter)
    return first


def _roll_formula(
    table: dict[str, Any], dice: Dice, modifier: int, counter: list[int]
) -> dict[str, Any]:
    counter[0] += 1
    if counter[0] > MAX_ROLLS:
        raise Invalid(
            _("A roll may lead to at most %(max)d table rolls.") % {"max": MAX_ROLLS},
            code="table_too_many_rolls",
        )
    rolled = roll_notation(table["formula"], dice=dice)
    total = rolled.total + modifier
    index, entry = entry_for(table, total)
    node: dict[str, Any] = {
        "table": table["key"],
        "name": table["name"],
        "formula": rolled.notation,
        "dice": rolled.text,
        "faces": rolled.faces,
        "rolled": rolled.total,
        "modifier": modifier,
        "total": total,
        "entry": {
            "index": index,
            "min": entry["min"],
            "max": entry["max"],
            "text": entry["text"],
            "key": entry.get("key", ""),
        },
        "amount": None,
        "nested": [],
    }
    if modifier:
        node["modifier_label"] = table.get("modifier_label", "")
    return node


def _follow(
    node: dict[str, Any],
    pool: dict[str, dict[str, Any]],
    dice: Dice,
    depth: int,
    counter: list[int],
) -> None:
    if depth >= MAX_DEPTH:
        raise Invalid(
            _("Nested rolls go deeper than %(max)d tables.") % {"max": MAX_DEPTH},
            code="table_too_deep",
        )
    table = pool[node["table"]]
    entry = table["entries"][node["entry"]["index"] - 1]
    if entry.get("amount"):
        amount = roll_notation(entry["amount"], dice=dice)
        node["amount"] = {
            "notation": amount.notation,
            "dice": amount.text,
            "faces": amount.faces,
            "total": amount.total,
            "unit": entry.get("unit", ""),
        }
    children = []
    for child in entry.get("roll", []):
        if child not in pool:
            raise Invalid(
                _("“%(table)s” rolls on “%(key)s”, and there is no such table.")
                % {"table": table["key"], "key": child},
                code="table_unknown_nested",
            )
        children.append(_roll_formula(pool[child], dice, 0, counter))
    for child_node in children:
        _follow(child_node, pool, dice, depth + 1, counter)
    node["nested"] = children


def all_faces(node: dict[str, Any]) -> list[int]:
    """Every face in rolling order (formula, amount, then nested rolls as they were made)."""
    faces = list(node["faces"])
    if node.get("amount"):
        faces += node["amount"]["faces"]
    nested = node.get("nested", [])
    for child in nested:
        faces += child["faces"]
    for child in nested:
        faces += all_faces(child)[len(child["faces"]) :]
    return faces


def summary_lines(node: dict[str, Any], depth: int = 0) -> list[str]:
    """The chain as text lines for the log: ``Ловушки: 1d10 = [3] = 3 → Яма``."""
    dice = node["dice"]
    if node.get("modifier"):
        label = node.get("modifier_label") or _("modifier")
        sign = "+" if node["modifier"] > 0 else "−"
        dice = f"{dice} {sign} {abs(node['modifier'])} ({label}) = {node['total']}"
    line = f"{node['name']}: {dice} → {node['entry']['text']}"
    amount = node.get("amount")
    if amount:
        unit = f" {amount['unit']}" if amount.get("unit") else ""
        line += f" · {amount['total']}{unit} ({amount['dice']})"
    prefix = "  " * (depth - 1) + "↳ " if depth else ""
    lines = [prefix + line]
    for child in node.get("nested", []):
        lines += summary_lines(child, depth + 1)
    return lines
