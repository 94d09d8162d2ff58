"""Tables in and out as JSON and CSV. Parsing only: ``services.tables_import`` cleans and
saves, all or nothing.

JSON: ``{"format": "vtt-tables", "format_version": 1, "tables": [<table>, ...]}`` with tables
in the shape of ``vtt.prep.rolltables``. A bare list of tables or one table object is read too,
and so is the bilingual library shape of ``systems/tales/tables.py`` (``name``/``text`` as
``{"ru", "en"}``, ``roll_on``/``roll_each``): the importer's language is picked.

CSV (UTF-8, a BOM is fine, Windows-1251 is read too; comma, semicolon or tab), one row an
entry, a header row naming the columns in any order::

    table,name,formula,modifier,note,min,max,weight,text,roll,amount,unit,key

``text`` and either ``min``/``max`` (or ``range`` such as ``1-3``) or ``weight`` are needed.
``table``, ``name``, ``formula``, ``modifier`` and ``note`` describe the table; they may be
given on its first row only. Without a ``table`` column the whole file is one table whose key,
name and formula come with the upload (or from the file name; a formula of ``1d<max>`` when
the ranges start at 1). ``roll`` lists the keys of tables to roll next, separated by spaces.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import PurePath
from typing import Any

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from vtt.core import jsonsafe
from vtt.core.errors import Invalid
from vtt.prep.library import pick

FORMAT = "vtt-tables"
FORMAT_VERSION = 1
MAX_FILE = 1_000_000
MAX_ROWS = 20_000
TABLE_COLUMNS = ("table", "name", "formula", "modifier", "note")
ENTRY_COLUMNS = ("min", "max", "range", "weight", "text", "roll", "amount", "unit", "key")
EXPORT_COLUMNS = (
    "table",
    "name",
    "formula",
    "modifier",
    "note",
    "min",
    "max",
    "weight",
    "text",
    "roll",
    "amount",
    "unit",
    "key",
)
# Russian headers a referee may type in a spreadsheet.
ALIASES = {
    "таблица": "table",
    "название": "name",
    "формула": "formula",
    "модификатор": "modifier",
    "заметка": "note",
    "от": "min",
    "мин": "min",
    "до": "max",
    "макс": "max",
    "диапазон": "range",
    "вес": "weight",
    "текст": "text",
    "бросок": "roll",
    "бросить": "roll",
    "количество": "amount",
    "единица": "unit",
    "ключ": "key",
    "modifier_label": "modifier",
}


def _bad(message: str, code: str) -> Invalid:
    return Invalid(message, code=code, fields={"file": [message]})


def check_size(size: int) -> None:
    """Before a file is read (its declared size) and after (its bytes)."""
    if size > MAX_FILE:
        raise _bad(
            _("The file is larger than %(mb)d MB.") % {"mb": MAX_FILE // 1_000_000},
            "import_too_large",
        )


def decode(data: bytes) -> str:
    check_size(len(data))
    if not data.strip():
        raise _bad(_("The file is empty."), "import_empty")
    if b"\x00" in data:
        raise _bad(_("This is not a text file."), "import_not_text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1251", errors="strict")


def detect_format(filename: str | None, text: str) -> str:
    suffix = PurePath(filename or "").suffix.lower()
    if suffix in (".json", ".csv"):
        return suffix[1:]
    return "json" if text.lstrip()[:1] in ("{", "[") else "csv"


# --- JSON ----------------------------------------------------------------------------------------


def parse_json(text: str, *, lang: str) -> list[Any]:
    try:
        data = jsonsafe.loads(text)
    except jsonsafe.BadText as exc:
        raise _bad(exc.message, "import_bad_text") from exc
    except ValueError as exc:
        line = getattr(exc, "lineno", 0)
        raise _bad(
            _("The file is not valid JSON (line %(line)d).") % {"line": line}, "import_bad_json"
        ) from exc
    return tables_from_data(data, lang=lang)


def tables_from_data(data: Any, *, lang: str) -> list[Any]:
    """The tables of a parsed JSON document (a VTT tables file, a list, or one table)."""
    if isinstance(data, dict) and "tables" in data:
        if data.get("format") not in (None, FORMAT):
            raise _bad(_("This is not a VTT tables file."), "import_bad_format")
        if data.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
            raise _bad(
                _("Unsupported tables file version %(v)s.") % {"v": data.get("format_version")},
                "import_bad_version",
            )
        data = data["tables"]
    elif isinstance(data, dict) and "entries" in data:
        data = [data]
    if not isinstance(data, list):
        raise _bad(_("Expected a list of tables or a VTT tables file."), "import_bad_format")
    return [_from_library_shape(t, lang) if isinstance(t, dict) else t for t in data]


def _from_library_shape(table: dict[str, Any], lang: str) -> dict[str, Any]:
    """Read ``{"ru", "en"}`` texts and ``roll_on``/``roll_each`` in the importer's language."""
    out = dict(table)
    for field in ("name", "note", "modifier_label"):
        if isinstance(out.get(field), dict):
            out[field] = pick(out[field], lang)
    entries = out.get("entries")
    if isinstance(entries, list):
        converted = []
        for e in entries:
            if not isinstance(e, dict):
                converted.append(e)
                continue
            e = dict(e)
            for field in ("text", "unit"):
                if isinstance(e.get(field), dict):
                    e[field] = pick(e[field], lang)
            if "roll_on" in e or "roll_each" in e:
                nested = list(e.pop("roll_each", None) or [])
                roll_on = e.pop("roll_on", None)
                if roll_on:
                    nested.append(roll_on)
                e["roll"] = [*nested, *[k for k in (e.get("roll") or []) if k not in nested]]
            if isinstance(e.get("amount"), int):
                e["amount"] = str(e["amount"])
            converted.append(e)
        out["entries"] = converted
    return out


def export_json(tables: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tables": tables,
    }


# --- CSV -----------------------------------------------------------------------------------------


def _dialect(header_line: str) -> str:
    counts = {d: header_line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","


def parse_csv(
    text: str,
    *,
    key: str = "",
    name: str = "",
    formula: str = "",
    filename: str | None = None,
) -> list[dict[str, Any]]:
    lines = text.splitlines()
    delimiter = _dialect(lines[0] if lines else "")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise _bad(
            _("The CSV file cannot be read (line %(line)d).") % {"line": reader.line_num},
            "import_bad_csv",
        ) from exc
    if len(rows) > MAX_ROWS:
        raise _bad(
            _("A CSV file has at most %(max)d rows.") % {"max": MAX_ROWS}, "import_too_large"
        )
    header = [ALIASES.get(c.strip().lower(), c.strip().lower()) for c in rows[0]]
    known = set(TABLE_COLUMNS) | set(ENTRY_COLUMNS)
    unknown = [c for c in header if c and c not in known]
    if unknown:
        raise _bad(
            _("Unknown column “%(col)s”. Known columns: %(known)s.")
            % {"col": unknown[0], "known": ", ".join((*EXPORT_COLUMNS, "range"))},
            "import_bad_header",
        )
    if "text" not in header or not ({"min", "range", "weight"} & set(header)):
        raise _bad(
            _("The first row must name the columns: “text” and “min”/“max”, “range” or “weight”."),
            "import_bad_header",
        )
    stem = PurePath(filename or "table").stem
    single = "table" not in header
    tables: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line_no, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            raise _bad(
                _("Line %(line)d has more cells than the header.") % {"line": line_no},
                "import_bad_csv",
            )
        cells = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header) if h}
        table_key = cells.get("table", "")
        if current is None or (table_key and table_key != current["key"]):
            if not single and not table_key:
                raise _bad(
                    _("Line %(line)d: the “table” column needs a key.") % {"line": line_no},
                    "import_bad_csv",
                )
            current = {
                "key": table_key or key or slugify(stem, allow_unicode=True).replace("-", "_"),
                "name": cells.get("name") or (name if single else "") or table_key or stem,
                "formula": cells.get("formula") or (formula if single else ""),
                "modifier_label": cells.get("modifier", ""),
                "note": cells.get("note", ""),
                "weights": False,
                "entries": [],
            }
            tables.append(current)
        else:
            for column, field in (
                ("name", "name"),
                ("formula", "formula"),
                ("modifier", "modifier_label"),
                ("note", "note"),
            ):
                if cells.get(column) and not current[field]:
                    current[field] = cells[column]
        entry = _csv_entry(cells, line_no)
        if "weight" in entry:
            current["weights"] = True
        current["entries"].append(entry)
    if not tables:
        raise _bad(_("The file has no tables."), "import_empty")
    for table in tables:
        if not table["formula"] and not table["weights"]:
            table["formula"] = _infer_formula(table["entries"])
    return tables


def _csv_entry(cells: dict[str, str], line_no: int) -> dict[str, Any]:
    entry: dict[str, Any] = {"text": cells.get("text", "")}
    if cells.get("weight"):
        entry["weight"] = cells["weight"]
    elif cells.get("range"):
        match = re.fullmatch(
            r"\s*([-−]?\d+)\s*(?:[-–—]|\.\.)\s*([-−]?\d+)\s*|\s*([-−]?\d+)\s*", cells["range"]
        )
        if not match:
            raise _bad(
                _("Line %(line)d: a range is like “3” or “1-3”.") % {"line": line_no},
                "import_bad_csv",
            )
        low = match.group(1) or match.group(3)
        entry["min"], entry["max"] = low, match.group(2) or low
    else:
        entry["min"], entry["max"] = cells.get("min", ""), cells.get("max", "")
    for field in ("roll", "amount", "unit", "key"):
        if cells.get(field):
            entry[field] = cells[field]
    return entry


def _infer_formula(entries: list[dict[str, Any]]) -> str:
    try:
        lows = [int(str(e.get("min")).replace("−", "-")) for e in entries]
        highs = [int(str(e.get("max") or e.get("min")).replace("−", "-")) for e in entries]
    except ValueError:
        return ""
    return f"1d{max(highs)}" if lows and min(lows) == 1 and max(highs) > 1 else ""


def export_csv(tables: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for table in tables:
        for n, entry in enumerate(table["entries"]):
            first = n == 0
            writer.writerow(
                [
                    table["key"],
                    table["name"] if first else "",
                    table["formula"] if first else "",
                    table.get("modifier_label", "") if first else "",
                    table.get("note", "") if first else "",
                    "" if table.get("weights") else entry["min"],
                    "" if table.get("weights") else entry["max"],
                    entry.get("weight", "") if table.get("weights") else "",
                    entry["text"],
                    " ".join(entry.get("roll", [])),
                    entry.get("amount", ""),
                    entry.get("unit", ""),
                    entry.get("key", ""),
                ]
            )
    return out.getvalue()
