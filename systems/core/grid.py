"""Square grids and what maps share between square and hex grids: distance by the ruleset's
rule, a size category's footprint, snapping a pixel to a cell. Pure, no Django.

Cells are ``(col, row)`` pairs in a width × height rectangle. On a square grid a token's anchor
is its top-left cell and an n-cell creature covers n × n cells. On a hex grid (offset
coordinates, see ``systems/core/hexgrid.py``) the anchor is the centre hex and a creature of n
cells covers every hex within ``n // 2`` steps (1, 7, 7, 19 hexes for 1, 2, 3, 4 cells).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from systems.core import hexgrid

Metric = Literal["chebyshev", "manhattan", "alternating"]
GridKind = Literal["square", "hex"]
Cell = tuple[int, int]
METRICS: tuple[str, ...] = ("chebyshev", "manhattan", "alternating")

# --- distances on a square grid ------------------------------------------------------------------


def chebyshev(a: Cell, b: Cell) -> int:
    """A diagonal step costs 1 (Crows, «Бой»: «Сетка и дистанции», «Масштаб»: a square
    is 5 ft and a diagonal counts as one square)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Cell, b: Cell) -> int:
    """No diagonal steps: a diagonal costs 2."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def alternating(a: Cell, b: Cell) -> int:
    """Diagonals cost 1, 2, 1, 2…: every second diagonal counts double (5-10-5 feet)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


SQUARE_METRICS = {"chebyshev": chebyshev, "manhattan": manhattan, "alternating": alternating}


def square_distance(a: Cell, b: Cell, metric: str = "chebyshev") -> int:
    try:
        return SQUARE_METRICS[metric](a, b)
    except KeyError:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}") from None


def grid_distance(
    a: Cell,
    b: Cell,
    *,
    kind: str,
    orientation: str = "pointy",
    metric: str = "chebyshev",
) -> int:
    """Cells between two cells by the map's rule: hex steps on a hex map, ``metric`` on squares."""
    if kind == "hex":
        return hexgrid.offset_distance(a, b, _orientation(orientation))
    return square_distance(a, b, metric)


# --- sizes and footprints ------------------------------------------------------------------------


@dataclass(frozen=True)
class SizeCategory:
    key: str
    ru: str
    en: str
    cells: int  # cells across: 1 = one cell, 2 = 2 × 2, ...

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "ru": self.ru, "en": self.en, "cells": self.cells}


# Crows: Tiny, Small and Medium take one square, Large 2 × 2, Huge 3 × 3, Colossal ("Охренеть!")
# 4 × 4 or more («Бой»: «Размер и пространство», «Размеры существ»).
CROWS_CELLS: dict[str, int] = {
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "colossal": 4,
}
DEFAULT_SIZES: tuple[SizeCategory, ...] = (
    SizeCategory("tiny", "Крошечный", "Tiny", 1),
    SizeCategory("small", "Маленький", "Small", 1),
    SizeCategory("medium", "Средний", "Medium", 1),
    SizeCategory("large", "Большой", "Large", 2),
    SizeCategory("huge", "Огромный", "Huge", 3),
    SizeCategory("gargantuan", "Гигантский", "Gargantuan", 4),
)
DEFAULT_SIZE = "medium"
RULESET_CELLS: dict[str, dict[str, int]] = {"crows": CROWS_CELLS}


@lru_cache(maxsize=16)
def size_categories(ruleset: str) -> tuple[SizeCategory, ...]:
    """The ruleset's size categories (from its ``describe()["sizes"]``, with cells from its
    table), or the default list for rulesets without sizes."""
    cells = RULESET_CELLS.get(ruleset)
    if cells is None:
        return DEFAULT_SIZES
    from systems import get_ruleset

    described = get_ruleset(ruleset).describe().get("sizes") or []
    return (
        tuple(SizeCategory(s["key"], s["ru"], s["en"], cells.get(s["key"], 1)) for s in described)
        or DEFAULT_SIZES
    )


def size_cells(ruleset: str, size: str) -> int:
    for category in size_categories(ruleset):
        if category.key == size:
            return category.cells
    raise ValueError(f"unknown size {size!r} for {ruleset}")


def hex_radius(cells: int) -> int:
    """Hexes within this many steps of the centre make up an n-cell creature."""
    return max(cells, 1) // 2


def token_span(kind: str, cells: int) -> int:
    """How many cells across a token is drawn: n on squares, 2·radius + 1 on hexes."""
    return 2 * hex_radius(cells) + 1 if kind == "hex" else max(cells, 1)


def footprint(
    anchor: Cell,
    cells: int,
    *,
    kind: str = "square",
    orientation: str = "pointy",
    width: int | None = None,
    height: int | None = None,
) -> list[Cell]:
    """The cells a token covers, clipped to the map when its size is given, in row-major order."""
    col, row = anchor

    def inside(c: Cell) -> bool:
        return (width is None or 0 <= c[0] < width) and (height is None or 0 <= c[1] < height)

    if kind == "hex":
        o = _orientation(orientation)
        center = hexgrid.offset_to_axial(col, row, o)
        covered = (
            hexgrid.axial_to_offset(h, o) for h in hexgrid.hex_range(center, hex_radius(cells))
        )
        return sorted((c for c in covered if inside(c)), key=lambda c: (c[1], c[0]))
    n = max(cells, 1)
    return [(c, r) for r in range(row, row + n) for c in range(col, col + n) if inside((c, r))]


def clamp_anchor(anchor: Cell, cells: int, *, kind: str, width: int, height: int) -> Cell:
    """Keep a token on the map: on squares the whole n × n block, on hexes the centre."""
    col, row = anchor
    if kind == "hex":
        return min(max(col, 0), width - 1), min(max(row, 0), height - 1)
    n = min(max(cells, 1), width, height)
    return min(max(col, 0), width - n), min(max(row, 0), height - n)


# --- pixels and snapping -------------------------------------------------------------------------


def pixel_size(kind: str, orientation: str, cell: float, width: int, height: int) -> tuple:
    """The map's pixel bounding box (width, height)."""
    if kind == "hex":
        return hexgrid.grid_pixel_size(_orientation(orientation), cell, width, height)
    return float(cell * width), float(cell * height)


def snap(
    x: float,
    y: float,
    *,
    kind: str,
    cell: float,
    width: int,
    height: int,
    orientation: str = "pointy",
    cells: int = 1,
) -> Cell:
    """The anchor for a token of ``cells`` whose centre is dropped at pixel (x, y), on the map.

    Squares: the n × n block whose centre is nearest to the point. Hexes: the hex under it."""
    if kind == "hex":
        col, row = hexgrid.pixel_to_offset(x, y, _orientation(orientation), cell)
    else:
        n = max(cells, 1)
        col = math.floor(x / cell - n / 2 + 0.5)
        row = math.floor(y / cell - n / 2 + 0.5)
    return clamp_anchor((col, row), cells, kind=kind, width=width, height=height)


def cell_at(x: float, y: float, *, kind: str, cell: float, orientation: str = "pointy") -> Cell:
    """The cell under a pixel (it may lie outside the map)."""
    if kind == "hex":
        return hexgrid.pixel_to_offset(x, y, _orientation(orientation), cell)
    return math.floor(x / cell), math.floor(y / cell)


def cell_polygon(
    col: int, row: int, *, kind: str, cell: float, orientation: str = "pointy"
) -> list[tuple[float, float]]:
    """A cell's outline in pixels (4 corners for a square, 6 for a hex)."""
    if kind == "hex":
        return hexgrid.offset_corners(col, row, _orientation(orientation), cell)
    x0, y0 = col * cell, row * cell
    return [(x0, y0), (x0 + cell, y0), (x0 + cell, y0 + cell), (x0, y0 + cell)]


def _orientation(name: str) -> hexgrid.OrientationName:
    if name not in ("pointy", "flat"):
        raise ValueError(f"unknown hex orientation {name!r}")
    return name  # type: ignore[return-value]
