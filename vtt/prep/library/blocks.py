"""Ready-made NPC and monster stat blocks, per ruleset.

A block is ``{"key", "name": {ru, en}, "state": {...}, "note": {ru, en}, "source"}``; ``state``
is laid over the ruleset's default NPC (``default_npc`` or ``default_state``) and validated by
the ruleset (``validate_npc`` where there is one, else ``validate_state``), exactly as
``vtt.characters.services.character_create`` does when the referee drops a block into the
campaign. Where the rulebook has numbers the block cites it; the rest are examples the
referee is expected to adjust (their note says so).
"""

from __future__ import annotations

from typing import Any


def t(ru: str, en: str) -> dict[str, str]:
    return {"ru": ru, "en": en}


EXAMPLE = t(
    "Пример: этих чисел нет в тексте правил, поправьте под свою игру.",
    "An example: the rules text has no numbers for it; adjust to your game.",
)


def block(
    key: str, ru: str, en: str, state: dict[str, Any], *, note=EXAMPLE, source: str = ""
) -> dict[str, Any]:
    return {"key": key, "name": t(ru, en), "state": state, "note": note, "source": source}
