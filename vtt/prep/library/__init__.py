"""The library: ready-made tables and stat blocks per ruleset, copied into a campaign on demand.

Each ruleset's plugin supplies its entries (``RulesetWeb.library_tables`` and
``library_npcs``). Tables keep the generic bilingual shape of ``systems/tales/tables.py``;
``localize_table``
turns one into the campaign shape of ``vtt.prep.rolltables`` in one language (a campaign's
tables are the referee's text, in one language, like every other thing the referee writes).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.rulekit import without_source
from vtt.rulesets.registry import web_for


def _tables(ruleset: str) -> tuple[dict[str, Any], ...]:
    return web_for(ruleset).library_tables()


def library_tables(ruleset: str) -> list[dict[str, Any]]:
    """The ruleset's tables as the API and pages show them: the rulebook citation stays here."""
    return [without_source(copy.deepcopy(t)) for t in _tables(ruleset)]


def library_table(ruleset: str, key: str) -> dict[str, Any] | None:
    for table in _tables(ruleset):
        if table["key"] == key:
            return copy.deepcopy(table)
    return None


def library_pool(ruleset: str, lang: str) -> dict[str, dict[str, Any]]:
    """Every library table of the ruleset in the campaign shape, by key."""
    return {t["key"]: localize_table(t, lang) for t in _tables(ruleset)}


def pick(value: Any, lang: str) -> str:
    """One language out of ``{"ru", "en"}`` (the other as a fallback), or a plain string."""
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("ru") or value.get("en") or "")
    return str(value or "")


def localize_table(table: dict[str, Any], lang: str) -> dict[str, Any]:
    entries = []
    for e in table["entries"]:
        entry: dict[str, Any] = {"min": e["min"], "max": e["max"], "text": pick(e["text"], lang)}
        nested = list(e.get("roll_each", []))
        if e.get("roll_on"):
            nested.append(e["roll_on"])
        nested += [k for k in e.get("roll", []) if k not in nested]
        if nested:
            entry["roll"] = nested
        if e.get("amount") not in (None, ""):
            entry["amount"] = str(e["amount"])
            if e.get("unit"):
                entry["unit"] = pick(e["unit"], lang)
        if e.get("key"):
            entry["key"] = e["key"]
        entries.append(entry)
    return {
        "key": table["key"],
        "name": pick(table["name"], lang),
        "formula": table["formula"],
        "weights": False,
        "modifier_label": pick(table.get("modifier_label"), lang),
        "note": pick(table.get("note"), lang),
        "entries": entries,
    }


# --- stat blocks ---------------------------------------------------------------------------------


def npc_blocks(ruleset: str) -> list[dict[str, Any]]:
    """The ruleset's stat blocks as the API and pages show them, without the rulebook citation."""
    return [without_source(copy.deepcopy(b)) for b in web_for(ruleset).library_npcs()]


def npc_block(ruleset: str, key: str) -> dict[str, Any] | None:
    for block in web_for(ruleset).library_npcs():
        if block["key"] == key:
            return copy.deepcopy(block)
    return None


def block_state(ruleset: str, block: dict[str, Any], name: str) -> dict[str, Any]:
    """The block over the ruleset's default NPC, validated as ``character_create`` would
    (raises the ruleset's ``RulesError``)."""
    web = web_for(ruleset)
    full = web.default_sheet("npc")
    full.update(copy.deepcopy(block["state"]))
    full["name"] = name
    return web.sheet_validator("npc")(full)
