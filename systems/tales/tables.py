"""Every random table of Сказания волшебного мира as plain, JSON-able data.

The referee-prep app imports these as ready-made rollable tables, so the shape is generic and
knows nothing about this game::

    {
        "key": "room_contents",                  # unique, stable
        "name": {"ru": "...", "en": "..."},
        "formula": "1d10",                       # dice notation (systems.core.notation)
        "source": "«Подземелье»",                     # optional: where the rulebook has it
        "note": {"ru": "...", "en": "..."},      # optional: how to use it
        "template": False,                       # optional: True = placeholder rows to rewrite
        "entries": [
            {
                "min": 1, "max": 3,              # inclusive range of formula totals
                "text": {"ru": "...", "en": "..."},
                "key": "empty",                  # optional: stable id of the result
                "roll_on": "trap",               # optional: then roll on this table
                "roll_each": ["a", "b"],         # optional: then roll every listed table
                "amount": "2d6*100",             # optional: notation for "how many"
                "unit": {"ru": "...", "en": "..."},  # optional: what the amount counts
            },
        ],
    }

Entries cover every total of the formula exactly once (no gaps, no overlaps); ``check_table``
proves it and the tests run it on every table. A d10 "0" face is 10 («Подземелье»).

Rolling order, which ``ScriptedDice`` scripts follow (``roll_tables``): first the formula of
every table in the list, in order; then, result by result, its follow-ups: its ``amount``,
then its ``roll_each`` tables (again all formulas first), then its ``roll_on`` table. So a
normal treasure rolls its five line d10s first, then the amounts of the lines that paid.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import NotationError, parse_notation, roll_notation
from systems.tales.data import CATEGORY_NAMES, ORIGINS, SKILLS_BY_KEY, TRAPS

MAX_DEPTH = 8  # nested rolls per call; tables are checked to be acyclic, this is a backstop


def _t(ru: str, en: str) -> dict[str, str]:
    return {"ru": ru, "en": en}


def _e(lo: int, hi: int, ru: str, en: str, **extra: Any) -> dict[str, Any]:
    return {"min": lo, "max": hi, "text": _t(ru, en), **extra}


NOTHING = ("Ничего", "Nothing")


def _origin_table() -> dict[str, Any]:
    entries = []
    for o in ORIGINS:
        # "@brawl": a weapon skill of that category, named as the category.
        skills = [CATEGORY_NAMES[s[1:]] if s[0] == "@" else SKILLS_BY_KEY[s] for s in o.skills]
        spells = (", может брать заклинания", ", may take spells") if o.spells else ("", "")
        entries.append(
            _e(
                o.roll,
                o.roll,
                f"{o.ru}: {', '.join(s.ru.lower() for s in skills)}{spells[0]}",
                f"{o.en}: {', '.join(s.en.lower() for s in skills)}{spells[1]}",
                key=o.key,
            )
        )
    return {
        "key": "origin",
        "name": _t("Социальное положение", "Social origin"),
        "formula": "2d10",
        "source": "«Социальное положение»",
        "entries": entries,
    }


def _line(size: str, line: str, lo: int, amount: str | None, unit: tuple[str, str], source: str):
    """One treasure line («Подземелье»): pays on ``lo`` or more on its own d10."""
    name = {
        "silver": ("серебро", "silver"),
        "gold": ("золото", "gold"),
        "gems": ("самоцветы", "gems"),
        "jewellery": ("ювелирные изделия", "jewellery"),
        "magic": ("волшебный предмет", "magic item"),
    }[line]
    size_name = {"small": ("Малое", "Small"), "normal": ("Нормальное", "Normal")}[size]
    paid: dict[str, Any] = {"key": line}
    if amount:
        paid.update(amount=amount, unit=_t(*unit))
        text = (f"{amount.replace('*', '×')} {unit[0]}", f"{amount.replace('*', '×')} {unit[1]}")
    else:
        text = ("Волшебный предмет (придумайте)", "A magic item (make one up)")
    entries = []
    if lo > 1:
        entries.append(_e(1, lo - 1, *NOTHING, key="none"))
    entries.append(_e(lo, 10, *text, **paid))
    return {
        "key": f"treasure_{size}_{line}",
        "name": _t(
            f"{size_name[0]} сокровище: {name[0]} ({lo}+)",
            f"{size_name[1]} treasure: {name[1]} ({lo}+)",
        ),
        "formula": "1d10",
        "source": source,
        "entries": entries,
    }


SILVER = ("серебра", "silver")
GOLD = ("золота", "gold")
GEMS = ("самоцветов", "gems")
JEWELS = ("ювелирных изделий", "pieces of jewellery")
TREASURE_LINES = ("silver", "gold", "gems", "jewellery", "magic")


def _treasure_tables() -> list[dict[str, Any]]:
    small = [
        _line("small", "silver", 3, "2d6*100", SILVER, "«Подземелье»"),
        _line("small", "gold", 5, "1d6*100", GOLD, "«Подземелье»"),
        _line("small", "gems", 7, "1d6", GEMS, "«Подземелье»"),
        _line("small", "jewellery", 7, "1d6", JEWELS, "«Подземелье»"),
        _line("small", "magic", 9, None, ("", ""), "«Подземелье»"),
    ]
    normal = [
        _line("normal", "silver", 2, "2d10*100", SILVER, "«Подземелье»"),
        _line("normal", "gold", 4, "1d10*100", GOLD, "«Подземелье»"),
        _line("normal", "gems", 6, "1d10", GEMS, "«Подземелье»"),
        _line("normal", "jewellery", 6, "1d10", JEWELS, "«Подземелье»"),
        _line("normal", "magic", 8, None, ("", ""), "«Подземелье»"),
    ]
    return [*small, *normal]


def _trap_table() -> dict[str, Any]:
    avoid = {"dex": ("ловкость", "Dex"), "str": ("сила", "Str"), "mind": ("разум", "Mind")}
    entries = []
    for t in TRAPS:
        what = {
            "damage": (f"{t.damage} повреждений", f"{t.damage} damage"),
            "ceiling": (
                "смерть; сложная проверка силы позволяет удержать потолок",
                "death; a hard Str check holds the ceiling up",
            ),
            "pit": (f"глубина {t.depth} м, урон от падения", f"{t.depth} m deep, falling damage"),
            "poison": (
                f"{t.damage} повреждений, затем проверка силы или смерть",
                f"{t.damage} damage, then a Str check or death",
            ),
            "curse": ("проклятье", "a curse"),
            "exploding_weapon": ("как заклинание", "as the spell"),
        }[t.effect]
        if t.spikes:
            what = (what[0] + f" и {t.spikes} от шипов", what[1] + f" and {t.spikes} from spikes")
        extra: dict[str, Any] = {"key": t.key}
        if t.depth:
            extra.update(amount=t.depth, unit=_t("м глубины", "m deep"))
        entries.append(
            _e(
                t.roll,
                t.roll,
                f"{t.ru}: {what[0]}; избежать — {avoid[t.avoid][0]}",
                f"{t.en}: {what[1]}; avoid with {avoid[t.avoid][1]}",
                **extra,
            )
        )
    return {
        "key": "trap",
        "name": _t("Ловушки", "Traps"),
        "formula": "1d10",
        "source": "«Ловушки»",
        "entries": entries,
    }


def _treasure_lines(size: str) -> list[str]:
    return [f"treasure_{size}_{line}" for line in TREASURE_LINES]


TABLES: tuple[dict[str, Any], ...] = (
    _origin_table(),
    {
        "key": "room_contents",
        "name": _t("Подземелье: содержимое комнаты", "Dungeon: room contents"),
        "formula": "1d10",
        "source": "«Подземелье»",
        "note": _t(
            "Бросается для каждой комнаты вместе с d6 сокровищ.",
            "Rolled for each room together with the treasure d6.",
        ),
        "entries": [
            _e(1, 3, "Пусто", "Empty", key="empty"),
            _e(4, 6, "Монстр", "Monster", key="monster"),
            _e(7, 8, "Ловушка", "Trap", key="trap", roll_on="trap"),
            _e(
                9,
                10,
                "Нечто особенное, лучше показывающее природу подземелья",
                "Something special that reveals the dungeon's nature",
                key="special",
            ),
        ],
    },
    {
        "key": "room_treasure",
        "name": _t("Подземелье: сокровище комнаты", "Dungeon: room treasure"),
        "formula": "1d6",
        "source": "«Подземелье»",
        "entries": [
            _e(1, 3, "Нет сокровища", "No treasure", key="none"),
            _e(
                4,
                5,
                "Малое сокровище",
                "Small treasure",
                key="small",
                roll_each=_treasure_lines("small"),
            ),
            _e(
                6,
                6,
                "Нормальное сокровище",
                "Normal treasure",
                key="normal",
                roll_each=_treasure_lines("normal"),
            ),
        ],
    },
    *_treasure_tables(),
    _trap_table(),
    {
        "key": "corridor_trap",
        "name": _t("Коридор: ловушка (1 к 10)", "Corridor: trap (1 in 10)"),
        "formula": "1d10",
        "source": "«Ловушки»",
        "entries": [
            _e(1, 1, "Ловушка", "A trap", key="trap", roll_on="trap"),
            _e(2, 10, "Ловушки нет", "No trap", key="none"),
        ],
    },
    {
        "key": "corridor_level",
        "name": _t("Коридор: перепад высот (1 к 10)", "Corridor: change of level (1 in 10)"),
        "formula": "1d10",
        "source": "«Ловушки»",
        "note": _t("Для проверок лазанья или левитации.", "For climbing checks or Levitation."),
        "entries": [
            _e(1, 1, "Перепад высот", "A change of level", key="level_change"),
            _e(2, 10, "Ровно", "Level", key="none"),
        ],
    },
    {
        "key": "wandering_check",
        "name": _t(
            "Бродячие монстры при входе в комнату (1 к 10)",
            "Wandering monsters on entering a room (1 in 10)",
        ),
        "formula": "1d10",
        "source": "«Ловушки»",
        "entries": [
            _e(
                1,
                1,
                "Бродячие монстры",
                "Wandering monsters",
                key="wandering",
                roll_on="wandering_monsters",
            ),
            _e(2, 10, "Никого", "Nobody", key="none"),
        ],
    },
    {
        "key": "wandering_monsters",
        "name": _t(
            "Бродячие монстры (d6, заполняет ведущий)", "Wandering monsters (d6, made by the GM)"
        ),
        "formula": "1d6",
        "source": "«Ловушки»",
        "template": True,
        "note": _t(
            "Таблицу бродячих монстров лучше делать на d6; впишите свои строки.",
            "A d6 wandering-monster table works best; write your own rows.",
        ),
        "entries": [
            _e(
                i,
                i,
                f"Бродячий монстр №{i} (впишите)",
                f"Wandering monster #{i} (fill in)",
                key=f"monster_{i}",
            )
            for i in range(1, 7)
        ],
    },
    {
        "key": "wilderness_encounter",
        "name": _t(
            "Дикая местность: встреча за день (2 к 10)", "Wilderness: encounter per day (2 in 10)"
        ),
        "formula": "1d10",
        "source": "«Открытая местность и города»",
        "entries": [
            _e(1, 2, "Встреча с монстрами", "An encounter with monsters", key="encounter"),
            _e(3, 10, "Спокойный день", "A quiet day", key="none"),
        ],
    },
    {
        "key": "town_encounter",
        "name": _t("Город: встреча за день (2 к 10)", "Town: encounter per day (2 in 10)"),
        "formula": "1d10",
        "source": "«Открытая местность и города»",
        "entries": [
            _e(
                1,
                2,
                "Случайная встреча",
                "A random encounter",
                key="encounter",
                roll_on="town_encounters",
            ),
            _e(3, 10, "Спокойный день", "A quiet day", key="none"),
        ],
    },
    {
        "key": "town_encounters",
        "name": _t(
            "Городские встречи (d6, заполняет ведущий)", "Town encounters (d6, made by the GM)"
        ),
        "formula": "1d6",
        "source": "«Открытая местность и города»",
        "template": True,
        "note": _t(
            "В таблице должна быть строка про воровство, чтобы не забывали о бдительности.",
            "Keep a theft row so that Vigilance is not forgotten.",
        ),
        "entries": [
            _e(
                1,
                1,
                "Воровство: проверка бдительности, при провале украдена половина денег",
                "Theft: a Vigilance check; on a failure half of all money is stolen",
                key="theft",
            ),
            *(
                _e(
                    i,
                    i,
                    f"Встреча №{i} (впишите)",
                    f"Encounter #{i} (fill in)",
                    key=f"encounter_{i}",
                )
                for i in range(2, 7)
            ),
        ],
    },
    {
        "key": "surprise",
        "name": _t(
            "Внезапность (бросает не ожидавшая сторона)", "Surprise (rolled by the unaware side)"
        ),
        "formula": "1d6",
        "source": "«Внезапность»",
        "entries": [
            _e(
                1,
                4,
                "Сначала действует противник, потом бросок инициативы",
                "The enemy acts first, then initiative is rolled",
                key="surprised",
            ),
            _e(
                5,
                6,
                "Удалось почуять опасность: всё нормально",
                "Danger sensed in time: no effect",
                key="no_effect",
            ),
        ],
    },
)
TABLES_BY_KEY: dict[str, dict[str, Any]] = {t["key"]: t for t in TABLES}
TABLE_KEYS: tuple[str, ...] = tuple(TABLES_BY_KEY)


def get_table(key: str) -> dict[str, Any]:
    """A deep copy of one table, safe for the caller to edit."""
    return copy.deepcopy(TABLES_BY_KEY[key])


def all_tables() -> list[dict[str, Any]]:
    """Deep copies of every table, in the order above (for import into the prep app)."""
    return copy.deepcopy(list(TABLES))


# --- checking ----------------------------------------------------------------------------------


def check_table(table: dict[str, Any], known: set[str] | None = None) -> list[str]:
    """Problems with one table's shape: bad formula, gaps, overlaps, unknown nested keys.

    An empty list means the table is sound: every total the formula can produce falls in
    exactly one entry. ``known`` is the set of table keys nested rolls may name.
    """
    problems: list[str] = []
    key = table.get("key")
    if not isinstance(key, str) or not key:
        problems.append("missing key")
    for lang_field in ("name",):
        value = table.get(lang_field)
        if not isinstance(value, dict) or not value.get("ru") or not value.get("en"):
            problems.append(f"{key}: {lang_field} needs ru and en")
    try:
        parsed = parse_notation(table.get("formula", ""))
    except NotationError as exc:
        return [*problems, f"{key}: bad formula: {exc.en}"]
    lo, hi = parsed.min_total, parsed.max_total
    covered: dict[int, int] = {}
    for i, entry in enumerate(table.get("entries", [])):
        e_lo, e_hi = entry.get("min"), entry.get("max")
        if not isinstance(e_lo, int) or not isinstance(e_hi, int) or e_lo > e_hi:
            problems.append(f"{key}: entry {i} has a bad range")
            continue
        text = entry.get("text")
        if not isinstance(text, dict) or not text.get("ru") or not text.get("en"):
            problems.append(f"{key}: entry {i} needs text in ru and en")
        for value in range(e_lo, e_hi + 1):
            if value < lo or value > hi:
                problems.append(f"{key}: entry {i} covers {value}, outside {lo}..{hi}")
            elif value in covered:
                problems.append(f"{key}: {value} is in entries {covered[value]} and {i}")
            else:
                covered[value] = i
        nested = [entry["roll_on"]] if entry.get("roll_on") else []
        nested += list(entry.get("roll_each", []))
        for name in nested:
            if known is not None and name not in known:
                problems.append(f"{key}: entry {i} names unknown table {name!r}")
        if entry.get("amount"):
            try:
                parse_notation(entry["amount"])
            except NotationError as exc:
                problems.append(f"{key}: entry {i} has a bad amount: {exc.en}")
    gaps = [v for v in range(lo, hi + 1) if v not in covered]
    if gaps:
        problems.append(f"{key}: no entry for {gaps}")
    return problems


def check_tables(tables: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> list[str]:
    """Problems across a set of tables: each table, duplicate keys and nesting cycles."""
    keys = [t.get("key") for t in tables]
    problems = [f"duplicate table key {k!r}" for k in set(keys) if keys.count(k) > 1]
    known = set(keys)
    by_key = {t.get("key"): t for t in tables}
    for table in tables:
        problems += check_table(table, known)

    def children(k: str) -> set[str]:
        out: set[str] = set()
        for entry in by_key.get(k, {}).get("entries", []):
            if entry.get("roll_on"):
                out.add(entry["roll_on"])
            out.update(entry.get("roll_each", []))
        return out

    def cyclic(k: str, path: tuple[str, ...]) -> bool:
        if k in path:
            return True
        return any(cyclic(c, (*path, k)) for c in children(k))

    problems += [f"{k}: nested rolls form a cycle" for k in known if cyclic(k, ())]
    return problems


# --- rolling -------------------------------------------------------------------------------------


@dataclass
class TableRoll:
    """One roll on one table and everything it led to."""

    key: str
    total: int
    faces: list[int]
    entry: dict[str, Any]
    amount: dict[str, Any] | None = None
    nested: list[TableRoll] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "table": self.key,
            "total": self.total,
            "faces": list(self.faces),
            "key": self.entry.get("key"),
            "text": dict(self.entry["text"]),
            "nested": [n.as_dict() for n in self.nested],
        }
        if self.amount is not None:
            data["amount"] = dict(self.amount)
        return data

    def find(self, table: str) -> TableRoll | None:
        """The first roll on ``table`` here or in the nested rolls (depth first)."""
        if self.key == table:
            return self
        for n in self.nested:
            hit = n.find(table)
            if hit is not None:
                return hit
        return None


def entry_for(table: dict[str, Any], total: int) -> dict[str, Any]:
    """The entry whose range holds ``total``."""
    for entry in table["entries"]:
        if entry["min"] <= total <= entry["max"]:
            return entry
    raise KeyError(f"{table['key']}: no entry for {total}")


def _roll_formula(table: dict[str, Any], dice: Dice) -> TableRoll:
    roll = roll_notation(table["formula"], dice=dice)
    return TableRoll(
        table["key"], roll.total, roll.faces, copy.deepcopy(entry_for(table, roll.total))
    )


def _follow(result: TableRoll, dice: Dice, tables: dict[str, dict[str, Any]], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ValueError("nested table rolls go too deep")
    entry = result.entry
    if entry.get("amount"):
        roll = roll_notation(entry["amount"], dice=dice)
        result.amount = {
            "notation": entry["amount"],
            "total": roll.total,
            "faces": roll.faces,
            "unit": dict(entry.get("unit") or {"ru": "", "en": ""}),
        }
    if entry.get("roll_each"):
        result.nested += _roll_many(entry["roll_each"], dice, tables, depth + 1)
    if entry.get("roll_on"):
        result.nested += _roll_many([entry["roll_on"]], dice, tables, depth + 1)


def _roll_many(
    keys: list[str], dice: Dice, tables: dict[str, dict[str, Any]], depth: int
) -> list[TableRoll]:
    results = [_roll_formula(tables[k], dice) for k in keys]
    for r in results:
        _follow(r, dice, tables, depth)
    return results


def roll_tables(
    keys: list[str] | tuple[str, ...],
    dice: Dice,
    *,
    tables: dict[str, dict[str, Any]] | None = None,
) -> list[TableRoll]:
    """Roll several tables together (a room's d10 and d6, «Подземелье»): every formula first, then
    each result's follow-ups in order. ``tables`` defaults to this module's tables."""
    pool = TABLES_BY_KEY if tables is None else tables
    for k in keys:
        if k not in pool:
            raise KeyError(f"unknown table {k!r}")
    return _roll_many(list(keys), dice, pool, 0)


def roll_table(
    key: str, dice: Dice, *, tables: dict[str, dict[str, Any]] | None = None
) -> TableRoll:
    """Roll one table and every nested roll its result asks for."""
    return roll_tables([key], dice, tables=tables)[0]
