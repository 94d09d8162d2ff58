"""Reads of sheets that the pages, the API and the services share."""

from __future__ import annotations

from vtt.characters.models import Character


def character_row(character_id: int, *, lock: bool = False) -> Character | None:
    """A sheet by id: every sheet request reads it first (``permissions.authorize_character``),
    and a move again under its row lock. Its campaign is not joined: callers already hold it
    (the membership check read it) and put it in the relation cache."""
    if not 0 < character_id < 2**63:
        return None
    sheets = Character.objects.filter(pk=character_id)
    if lock:
        sheets = sheets.select_for_update()
    return sheets.first()
