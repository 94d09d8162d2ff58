"""Фишки (bennies) for players and the GM («Фишки»; «Фишки ведущего»).

Where bennies live (our reading): a player's on the PC's sheet (3 at each session start, «Фишки»);
a GM wild card's own 2 on its sheet («Фишки ведущего»); the GM's pool, one per player character
(«Фишки ведущего»), on the table state. All unused bennies are lost at session end («Фишки
ведущего»).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.savage_worlds.sheet import EDGE_NAMES

PLAYER_BENNIES = 3  # «Фишки»: "Каждый игрок начинает сессию с тремя фишками"
GM_WILD_CARD_BENNIES = 2  # «Фишки ведущего»: "получает две фишки на сессию"
POOL_PER_PC = 1  # «Фишки ведущего»: "по одной фишке за каждого персонажа игрока"


def has_rule(state: dict[str, Any], rule: str) -> bool:
    """Whether an edge or hindrance on the sheet carries ``rule`` (by its key or its name)."""
    names = EDGE_NAMES.get(rule, frozenset())
    for entry in list(state["edges"]) + list(state["hindrances"]):
        if entry.get("rule") == rule or entry["name"].strip().casefold() in names:
            return True
    return False


def session_bennies(state: dict[str, Any]) -> int:
    """What a sheet starts a session with: 3 for a PC («Фишки»), 2 for a GM wild card («Фишки
    ведущего»), none for an extra (the GM's pool covers them, «Фишки ведущего»)."""
    if state["role"] == "pc":
        return PLAYER_BENNIES
    return GM_WILD_CARD_BENNIES if state["wild_card"] else 0


def pool_for(sheets: list[dict[str, Any]]) -> int:
    """The GM's pool at session start: one benny per player character («Фишки ведущего»)."""
    return POOL_PER_PC * sum(1 for s in sheets if s["role"] == "pc")


def start_session(
    table: dict[str, Any], sheets: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new session: leftovers are already gone («Фишки ведущего»); players 3, GM wild cards 2,
    pool #PCs."""
    new_table = copy.deepcopy(table)
    new_table["pool"] = pool_for(sheets)
    new_sheets = []
    for sheet in sheets:
        s = copy.deepcopy(sheet)
        s["bennies"] = session_bennies(s)
        new_sheets.append(s)
    return new_table, new_sheets


def end_session(
    table: dict[str, Any], sheets: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """«Фишки ведущего»: "в конце сессии неиспользованные фишки «сгорают»" — for players and the GM
    alike."""
    new_table = copy.deepcopy(table)
    new_table["pool"] = 0
    new_sheets = []
    for sheet in sheets:
        s = copy.deepcopy(sheet)
        s["bennies"] = 0
        new_sheets.append(s)
    return new_table, new_sheets


# What a benny may be spent on («Фишки») and which of these the rules refuse.
PURPOSES: tuple[tuple[str, str, str], ...] = (
    ("trait_reroll", "Переброс проверки параметра", "Re-roll a trait check"),
    ("damage_reroll", "Переброс проверки урона", "Re-roll a damage roll"),
    ("table_result", "Изменить результат по таблице", "Change a table result"),
    ("soak", "Проверка на прочность", "Soak roll"),
    ("unshake", "Выйти из шока", "Remove Shaken"),
    ("other", "Что-то другое", "Something else"),
)


def refusal(
    purpose: str, state: dict[str, Any], *, damage_bennies: str = "no_mercy"
) -> tuple[str, str] | None:
    """Why a benny cannot go to ``purpose`` (ru, en), or ``None`` when it can («Фишки»)."""
    if purpose == "table_result":
        return (
            "Фишки не влияют на эффекты из таблиц.",
            "Bennies do not change table results.",
        )
    if purpose == "damage_reroll":
        if damage_bennies == "anyone" or has_rule(state, "no_mercy"):
            return None
        return (
            "Фишки нельзя тратить на проверки урона без черты Беспощадный.",
            "Bennies cannot re-roll damage without the No Mercy edge.",
        )
    if purpose == "other":
        return (
            "Фишки можно использовать только при проверках параметров.",
            "Bennies are only for trait checks.",
        )
    return None
