"""Hex grids, from Red Blob Games' "Hexagonal Grids" (https://www.redblobgames.com/grids/hexagons/
and its implementation guide). Pure and typed: no Django, no global state.

Coordinates are *axial* ``Hex(q, r)`` with the implied cube coordinate ``s = -q - r``. Maps store
cells as *offset* ``(col, row)`` pairs in a width × height rectangle: "odd-r" rows for pointy-top
hexes and "odd-q" columns for flat-top hexes (odd rows/columns are shoved right/down by half a
hex). ``offset_to_axial`` / ``axial_to_offset`` convert between the two.

Pixel conversion uses a ``Layout``: an ``Orientation`` (the forward and inverse 2×2 matrices and
the first corner's angle), the hex ``size`` (centre to corner) and the pixel ``origin`` of hex
``(0, 0)``. ``grid_layout`` builds the one maps use, where ``cell`` is the distance between the
centres of two neighbouring hexes (flat side to flat side), so a token ``cell`` pixels wide fits
in a hex on both orientations.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

OrientationName = Literal["pointy", "flat"]
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial hex coordinate; ``s`` completes the cube (q + r + s == 0)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)


@dataclass(frozen=True, slots=True)
class FractionalHex:
    q: float
    r: float

    @property
    def s(self) -> float:
        return -self.q - self.r


# Red Blob's direction order: east, north-east, north-west, west, south-west, south-east for
# pointy-top hexes; the same vectors read south-east, north-east, north, north-west, south-west,
# south for flat-top hexes.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1),
    Hex(1, -2),
    Hex(-1, -1),
    Hex(-2, 1),
    Hex(-1, 2),
    Hex(1, 1),
)
# Flat-top compass, clockwise from north: the order Crows counts a lost party's drift in
# («Заблудились»: d6 1 = N, 2 = NE, 3 = SE, 4 = S, 5 = SW, 6 = NW).
FLAT_COMPASS: tuple[tuple[str, Hex], ...] = (
    ("N", Hex(0, -1)),
    ("NE", Hex(1, -1)),
    ("SE", Hex(1, 0)),
    ("S", Hex(0, 1)),
    ("SW", Hex(-1, 1)),
    ("NW", Hex(-1, 0)),
)


def direction(index: int) -> Hex:
    return DIRECTIONS[index % 6]


def neighbour(h: Hex, index: int) -> Hex:
    return h + direction(index)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(h + d for d in DIRECTIONS)


def diagonal_neighbour(h: Hex, index: int) -> Hex:
    return h + DIAGONALS[index % 6]


def length(h: Hex) -> int:
    return (abs(h.q) + abs(h.r) + abs(h.s)) // 2


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes: half the cube Manhattan distance."""
    return length(a - b)


def rotate_left(h: Hex) -> Hex:
    return Hex(-h.s, -h.q)


def rotate_right(h: Hex) -> Hex:
    return Hex(-h.r, -h.s)


def hex_round(h: FractionalHex) -> Hex:
    """The hex containing a fractional cube coordinate: round each component, then fix the one
    with the largest rounding error so that q + r + s stays 0."""
    q, r, s = round(h.q), round(h.r), round(h.s)
    dq, dr, ds = abs(q - h.q), abs(r - h.r), abs(s - h.s)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_lerp(a: FractionalHex | Hex, b: FractionalHex | Hex, t: float) -> FractionalHex:
    return FractionalHex(a.q * (1 - t) + b.q * t, a.r * (1 - t) + b.r * t)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b, both included (distance + 1 of them). Both ends
    are nudged by a tiny epsilon so points on an edge fall the same way every time."""
    n = distance(a, b)
    a_nudge = FractionalHex(a.q + 1e-6, a.r + 1e-6)
    b_nudge = FractionalHex(b.q + 1e-6, b.r + 1e-6)
    step = 1.0 / max(n, 1)
    return [hex_round(hex_lerp(a_nudge, b_nudge, step * i)) for i in range(n + 1)]


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` steps of ``center`` (3r² + 3r + 1 of them)."""
    result = []
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            result.append(Hex(center.q + q, center.r + r))
    return result


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps away (6r of them; the centre alone for r = 0)."""
    if radius == 0:
        return [center]
    results = []
    h = center + direction(4).scale(radius)
    for i in range(6):
        for _ in range(radius):
            results.append(h)
            h = neighbour(h, i)
    return results


# --- offset coordinates ------------------------------------------------------------------------


def offset_to_axial(col: int, row: int, orientation: OrientationName) -> Hex:
    """odd-r for pointy-top (odd rows shoved right), odd-q for flat-top (odd columns down)."""
    if orientation == "pointy":
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col, row - (col - (col & 1)) // 2)


def axial_to_offset(h: Hex, orientation: OrientationName) -> tuple[int, int]:
    if orientation == "pointy":
        return h.q + (h.r - (h.r & 1)) // 2, h.r
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def offset_distance(a: tuple[int, int], b: tuple[int, int], orientation: OrientationName) -> int:
    return distance(offset_to_axial(*a, orientation), offset_to_axial(*b, orientation))


# --- pixels ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Orientation:
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60°


POINTY = Orientation(
    SQRT3, SQRT3 / 2.0, 0.0, 3.0 / 2.0, SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5
)
FLAT = Orientation(3.0 / 2.0, 0.0, SQRT3 / 2.0, SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, SQRT3 / 3.0, 0.0)
ORIENTATIONS: dict[str, Orientation] = {"pointy": POINTY, "flat": FLAT}


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Layout:
    orientation: Orientation
    size: Point
    origin: Point


def hex_to_pixel(layout: Layout, h: Hex | FractionalHex) -> Point:
    m, size, origin = layout.orientation, layout.size, layout.origin
    x = (m.f0 * h.q + m.f1 * h.r) * size.x
    y = (m.f2 * h.q + m.f3 * h.r) * size.y
    return Point(x + origin.x, y + origin.y)


def pixel_to_fractional(layout: Layout, p: Point) -> FractionalHex:
    m, size, origin = layout.orientation, layout.size, layout.origin
    px = (p.x - origin.x) / size.x
    py = (p.y - origin.y) / size.y
    return FractionalHex(m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)


def pixel_to_hex(layout: Layout, p: Point) -> Hex:
    return hex_round(pixel_to_fractional(layout, p))


def corner_offset(layout: Layout, corner: int) -> Point:
    angle = 2.0 * math.pi * (layout.orientation.start_angle + corner) / 6.0
    return Point(layout.size.x * math.cos(angle), layout.size.y * math.sin(angle))


def polygon_corners(layout: Layout, h: Hex) -> list[Point]:
    center = hex_to_pixel(layout, h)
    corners = []
    for i in range(6):
        offset = corner_offset(layout, i)
        corners.append(Point(center.x + offset.x, center.y + offset.y))
    return corners


def grid_layout(orientation: OrientationName, cell: float) -> Layout:
    """The layout maps use: ``cell`` pixels between neighbouring centres, and offset cell
    (0, 0) placed so the whole rectangle of hexes starts at pixel (0, 0)."""
    size = cell / SQRT3
    origin = Point(cell / 2.0, size) if orientation == "pointy" else Point(size, cell / 2.0)
    return Layout(ORIENTATIONS[orientation], Point(size, size), origin)


def grid_pixel_size(
    orientation: OrientationName, cell: float, width: int, height: int
) -> tuple[float, float]:
    """The pixel bounding box of a width × height offset rectangle of hexes."""
    size = cell / SQRT3
    if orientation == "pointy":
        w = cell * (width + (0.5 if height > 1 else 0.0))
        h = size * (1.5 * (height - 1) + 2.0)
    else:
        w = size * (1.5 * (width - 1) + 2.0)
        h = cell * (height + (0.5 if width > 1 else 0.0))
    return w, h


def offset_center(
    col: int, row: int, orientation: OrientationName, cell: float
) -> tuple[float, float]:
    p = hex_to_pixel(grid_layout(orientation, cell), offset_to_axial(col, row, orientation))
    return p.x, p.y


def offset_corners(
    col: int, row: int, orientation: OrientationName, cell: float
) -> list[tuple[float, float]]:
    layout = grid_layout(orientation, cell)
    return [(p.x, p.y) for p in polygon_corners(layout, offset_to_axial(col, row, orientation))]


def pixel_to_offset(
    x: float, y: float, orientation: OrientationName, cell: float
) -> tuple[int, int]:
    return axial_to_offset(pixel_to_hex(grid_layout(orientation, cell), Point(x, y)), orientation)


def offsets_in_range(
    col: int, row: int, radius: int, orientation: OrientationName, width: int, height: int
) -> Iterator[tuple[int, int]]:
    """Offset cells within ``radius`` of (col, row) that lie inside the rectangle."""
    for h in hex_range(offset_to_axial(col, row, orientation), radius):
        c, r = axial_to_offset(h, orientation)
        if 0 <= c < width and 0 <= r < height:
            yield c, r
