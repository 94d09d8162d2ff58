"""Light («Свет»): X/Y sources, the three light levels, the campfire table.

A source lights X squares brightly in every direction and Y more squares dimly beyond them
(«Свет»). Distance is Chebyshev on the grid, the source's own square being 0
(«Бой › Сетка и дистанции»). Dim light gives disadvantage, darkness double
disadvantage, on attacks against a target there and on checks to discern details or find something
(«Свет › Тусклый свет»; «Свет › Темнота»).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from systems.core.schema import fail
from systems.crows.inventory import iter_items
from systems.crows.terms import BRIGHT, CAMPFIRE, DARK, DIM

LIGHT_SOURCE_KEYS: dict[str, tuple[str, ...]] = {
    BRIGHT: (),
    DIM: ("dim_light",),  # «Свет › Тусклый свет»
    DARK: ("darkness",),  # «Свет › Темнота»: counts as two disadvantages
}


def campfire(size: str) -> dict[str, int]:
    """Яркость костра («Свет › Яркость костра»). The rulebook has no Охренеть! row."""
    if size not in CAMPFIRE:
        raise fail(
            "size",
            "Для костра такого размера в таблице нет строки.",
            "The campfire table has no row for that size.",
        )
    bright, dim = CAMPFIRE[size]
    return {"bright": bright, "dim": dim}


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Grid distance: a diagonal counts as one square («Бой › Сетка и дистанции»)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def level_at_distance(distance: int, bright: int, dim: int) -> str:
    """≤X bright, X+1..X+Y dim, beyond that dark («Свет»)."""
    if distance <= bright and bright > 0:
        return BRIGHT
    if dim > 0 and distance <= bright + dim:
        return DIM
    return DARK


def light_level(
    square: tuple[int, int], sources: Iterable[tuple[tuple[int, int], int, int]]
) -> str:
    """The best light any source gives ``square``; ``sources`` are (square, X, Y)."""
    best = DARK
    for where, bright, dim in sources:
        level = level_at_distance(chebyshev(square, where), bright, dim)
        if level == BRIGHT:
            return BRIGHT
        if level == DIM:
            best = DIM
    return best


def check_sources(level: str) -> list[str]:
    """Check sources for the light where the target is or where you look («Свет › Тусклый свет»;
    «Свет › Темнота»)."""
    return list(LIGHT_SOURCE_KEYS[level])


def lit_items(characters: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every burning light the characters carry, as ``{"owner", "item", "bright", "dim"}``."""
    out = []
    for ch in characters:
        if ch.get("dead"):
            continue
        for _area, _slot, card in iter_items(ch["inventory"]):
            if card["light"] is not None and card["light"]["lit"] and not card["useless"]:
                out.append(
                    {
                        "owner": ch["name"],
                        "item": card["id"],
                        "bright": card["light"]["bright"],
                        "dim": card["light"]["dim"],
                    }
                )
    return out


def has_light(characters: Iterable[dict[str, Any]]) -> bool:
    return bool(lit_items(characters))
