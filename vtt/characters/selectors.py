"""Hand-written reads of sheets (vtt/core/fastsql.py), as vtt/maps/selectors.py has for maps."""

from __future__ import annotations

from vtt.characters.models import Character
from vtt.core import fastsql


def character_row(character_id: int, *, lock: bool = False) -> Character | None:
    """A sheet by id in one hand-written statement: every sheet request reads it first
    (``permissions.authorize_character``), and a move again under its row lock. Its campaign
    is not joined: callers already hold it (the membership check read it) and put it in the
    relation cache."""
    if not 0 < character_id < 2**63:
        return None
    sheets = fastsql.loader(Character, "ch")
    row = fastsql.fetch_one(
        f"SELECT {sheets.columns} FROM {fastsql.table(Character)} ch WHERE ch.id = %s"  # noqa: S608
        + (fastsql.for_update() if lock else ""),
        [character_id],
    )
    return None if row is None else sheets.load(row)
