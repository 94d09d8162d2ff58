"""What a square battle map tells an attack («Свет»; «Частые опасности»; «Линия эффекта»;
«Бой › Как атаковать»): line of effect and cover, the light and concealment where the target stands,
high ground, flanking, distance and adjacency. Pure geometry over plain values, so the web layer
reads its map rows into a ``Board`` and hands the result to the ``attack`` move as its situation
parameters (``cover``, ``light``, ``concealment``, ``high_ground``, ``flanking``, ``distance``,
``adjacent``, ``allies_adjacent``); the rules themselves never depend on a map.

Readings of the rulebook made here (it leaves the geometry to the table):

- **Line of effect («Частые опасности»; «Линия эффекта»):** a straight line from any corner of the
  attacker's space to any corner of the target's space that passes through no wall square. A line
  that only runs along a wall's edge or touches its corner is not blocked.
- **Cover («Линия эффекта › Укрытие»):** the target is "at least half covered" when, from the
  attacker's best corner, at least half of the lines to the target's corners pass through a wall or
  a low obstacle (an overturned table, a parapet). Low obstacles never block line of effect, and a
  low obstacle next to the attacker is the attacker's own and gives the target nothing.
- **Light («Свет»):** each square has the map's ambient light unless the referee painted
  another level on it; carried lights (X/Y, Chebyshev distance, «Свет») can only brighten it.
  The attacker aims at the best-lit square of a large target; walls do not stop light here.
- **Concealment («Линия эффекта › Завеса»):** painted per square; the least concealed square of the
  target.
- **High ground («Бой › Возвышенность»):** the attacker stands at least 1 square higher than the
  target (the highest square of each space).
- **Flanking («Бой › Фланкирование»):** melee only; the attacker and an ally both adjacent to the
  target, and the line between the centres of their spaces crosses opposite sides (or opposite
  corners) of the target's space; neither may be prone or grabbed («Бой › Фланкирование»).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from systems.crows.light import level_at_distance
from systems.crows.terms import BRIGHT, DARK, DIM

Cell = tuple[int, int]
LIGHT_ORDER = {DARK: 0, DIM: 1, BRIGHT: 2}
CONCEALMENT_ORDER = {"none": 0, "light": 1, "heavy": 2}
COVER_KINDS = ("wall", "low")
FLANK_BLOCKING = frozenset({"prone", "grabbed"})


@dataclass(frozen=True)
class Body:
    """A creature's space: its top-left square and how many squares it spans
    («Бой › Размеры существ»)."""

    col: int
    row: int
    span: int = 1
    name: str = ""
    conditions: frozenset[str] = frozenset()

    def cells(self) -> list[Cell]:
        return [
            (self.col + dc, self.row + dr) for dr in range(self.span) for dc in range(self.span)
        ]

    def corners(self) -> list[tuple[int, int]]:
        c0, r0, c1, r1 = self.col, self.row, self.col + self.span, self.row + self.span
        return [(c0, r0), (c1, r0), (c0, r1), (c1, r1)]

    def centre(self) -> tuple[Fraction, Fraction]:
        half = Fraction(self.span, 2)
        return Fraction(self.col) + half, Fraction(self.row) + half


@dataclass(frozen=True)
class LightSource:
    """A carried light (X/Y, «Свет») at a creature's space."""

    body: Body
    bright: int
    dim: int


@dataclass
class Board:
    """What the map knows about its squares."""

    walls: frozenset[Cell] = frozenset()
    low: frozenset[Cell] = frozenset()
    heights: Mapping[Cell, int] = field(default_factory=dict)
    light: Mapping[Cell, str] = field(default_factory=dict)
    concealment: Mapping[Cell, str] = field(default_factory=dict)
    ambient: str = BRIGHT
    sources: tuple[LightSource, ...] = ()


@dataclass
class Situation:
    """The attack's situation parameters, and why (for the table to see)."""

    distance: int
    adjacent: bool
    cover: str
    light: str
    concealment: str
    high_ground: bool
    flanking: bool
    allies_adjacent: int
    flanked_with: str = ""

    def params(self) -> dict[str, Any]:
        """The ``attack`` move's per-target situation parameters (``SITUATION``)."""
        return {
            "distance": self.distance,
            "adjacent": self.adjacent,
            "cover": self.cover,
            "light": self.light,
            "concealment": self.concealment,
            "high_ground": self.high_ground,
            "flanking": self.flanking,
            "allies_adjacent": self.allies_adjacent,
        }

    def sources(self, attack: str) -> list[str]:
        """The advantage and disadvantage sources this situation gives the attack, as the
        ``attack`` move counts them (cover, light, concealment, flanking, high ground, a ranged
        shot at an adjacent target)."""
        keys: list[str] = []
        if self.flanking and attack == "melee":
            keys.append("flanking")
        if self.high_ground:
            keys.append("high_ground")
        if self.cover == "half":
            keys.append("cover")
        keys += {DIM: ["dim_light"], DARK: ["darkness"]}.get(self.light, [])
        keys += {"light": ["light_concealment"], "heavy": ["heavy_concealment"]}.get(
            self.concealment, []
        )
        if attack == "ranged" and self.adjacent:
            keys.append("ranged_adjacent")
        return keys


# --- distance ---------------------------------------------------------------------------------


def gap(a: Body, b: Body) -> int:
    """Squares between two spaces: 0 when they overlap, 1 when adjacent (a diagonal counts as
    one square, «Бой › Сетка и дистанции»)."""
    dx = max(0, b.col - (a.col + a.span - 1), a.col - (b.col + b.span - 1))
    dy = max(0, b.row - (a.row + a.span - 1), a.row - (b.row + b.span - 1))
    return max(dx, dy)


# --- line of effect and cover («Частые опасности»; «Линия эффекта») ---------------------------


def _crosses(p: tuple[int, int], q: tuple[int, int], cell: Cell) -> bool:
    """Does the segment p→q pass through the open square ``cell`` (its inside, not just its
    edge or corner)? Liang–Barsky clipping on the closed square with exact fractions: the part
    of the segment inside it is one piece, and it has inside points iff its midpoint is one."""
    x0, y0 = Fraction(cell[0]), Fraction(cell[1])
    x1, y1 = x0 + 1, y0 + 1
    px, py = Fraction(p[0]), Fraction(p[1])
    dx, dy = Fraction(q[0]) - px, Fraction(q[1]) - py
    t0, t1 = Fraction(0), Fraction(1)
    for d, lo, hi, start in ((dx, x0, x1, px), (dy, y0, y1, py)):
        if d == 0:
            if start < lo or start > hi:
                return False
            continue
        a, b = (lo - start) / d, (hi - start) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 >= t1:
            return False
    mx, my = px + dx * (t0 + t1) / 2, py + dy * (t0 + t1) / 2
    return x0 < mx < x1 and y0 < my < y1


def _blocked(p: tuple[int, int], q: tuple[int, int], cells: frozenset[Cell] | set[Cell]) -> bool:
    """Does the segment p→q pass through the solid made of ``cells``? Squares that touch join
    up: a line along the edge two of them share, or through the point where two of them meet
    corner to corner, is blocked; a line along a lone square's edge or past its corner is not.
    The endpoints themselves never block (the lines start and end on spaces' corners)."""
    if not cells:
        return False
    (px, py), (qx, qy) = p, q
    lo_x, hi_x, lo_y, hi_y = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
    for c in cells:
        if lo_x - 1 <= c[0] <= hi_x and lo_y - 1 <= c[1] <= hi_y and _crosses(p, q, c):
            return True
    dx, dy = qx - px, qy - py
    if dx == 0 or dy == 0:  # along a grid line: blocked between two solid squares
        if dx == 0:
            pairs = (((px - 1, y), (px, y)) for y in range(lo_y, hi_y))
        else:
            pairs = (((x, py - 1), (x, py)) for x in range(lo_x, hi_x))
        if any(a in cells and b in cells for a, b in pairs):
            return True
    steps = math.gcd(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    for k in range(1, steps):
        x, y = px + dx * k // steps, py + dy * k // steps
        nw, ne, sw, se = (x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)
        if sx and sy:  # through a corner point: blocked if the two squares beside it are solid
            side = (ne, sw) if sx == sy else (nw, se)
            if side[0] in cells and side[1] in cells:
                return True
        elif (nw in cells and se in cells) or (ne in cells and sw in cells):
            return True
    return False


def cover(attacker: Body, target: Body, board: Board) -> str:
    """``"full"`` (no line of effect, «Частые опасности › Удушье»), ``"half"`` (cover: disadvantage,
    «Линия эффекта › Укрытие») or ``"none"``, read from the attacker's best corner."""
    own = set(attacker.cells()) | set(target.cells())
    walls = {c for c in board.walls if c not in own}
    low = walls | {
        c
        for c in board.low
        if c not in own and gap(attacker, Body(c[0], c[1])) > 1  # the attacker's own parapet
    }
    aims = target.corners()
    seen_any = False
    best_blocked = len(aims)
    for corner in attacker.corners():
        clear = [aim for aim in aims if not _blocked(corner, aim, walls)]
        if not clear:
            continue
        seen_any = True
        blocked = sum(1 for aim in aims if _blocked(corner, aim, low))
        best_blocked = min(best_blocked, blocked)
    if not seen_any:
        return "full"
    return "half" if best_blocked * 2 >= len(aims) else "none"


# --- light, concealment, height ---------------------------------------------------------------


def light_at(cell: Cell, board: Board) -> str:
    """The square's painted level (else the ambient), brightened by any carried light."""
    level = board.light.get(cell, board.ambient)
    for source in board.sources:
        distance = gap(source.body, Body(cell[0], cell[1]))
        lit = level_at_distance(distance, source.bright, source.dim)
        if LIGHT_ORDER[lit] > LIGHT_ORDER[level]:
            level = lit
    return level


def target_light(target: Body, board: Board) -> str:
    """The best-lit square of the target's space (the attacker aims there)."""
    return max((light_at(c, board) for c in target.cells()), key=LIGHT_ORDER.__getitem__)


def target_concealment(target: Body, board: Board) -> str:
    return min(
        (board.concealment.get(c, "none") for c in target.cells()),
        key=CONCEALMENT_ORDER.__getitem__,
    )


def height(body: Body, board: Board) -> int:
    return max(board.heights.get(c, 0) for c in body.cells())


# --- flanking («Бой › Фланкирование») ---------------------------------------------------------


def _sides_at(point: tuple[Fraction, Fraction], box: tuple[int, int, int, int]) -> set[str]:
    x, y = point
    c0, r0, c1, r1 = box
    sides = set()
    if x == c0:
        sides.add("w")
    if x == c1:
        sides.add("e")
    if y == r0:
        sides.add("n")
    if y == r1:
        sides.add("s")
    return sides


def opposite_sides(a: Body, b: Body, target: Body) -> bool:
    """Does the line between the centres of ``a`` and ``b`` cross opposite sides or opposite
    corners of the target's space («Бой › Фланкирование»)?"""
    (ax, ay), (bx, by) = a.centre(), b.centre()
    c0, r0 = target.col, target.row
    c1, r1 = c0 + target.span, r0 + target.span
    dx, dy = bx - ax, by - ay
    t0, t1 = Fraction(0), Fraction(1)
    for d, lo, hi, start in ((dx, c0, c1, ax), (dy, r0, r1, ay)):
        if d == 0:
            if not lo < start < hi:
                return False
            continue
        lo_t, hi_t = (lo - start) / d, (hi - start) / d
        if lo_t > hi_t:
            lo_t, hi_t = hi_t, lo_t
        t0, t1 = max(t0, lo_t), min(t1, hi_t)
    if t0 >= t1:
        return False
    box = (c0, r0, c1, r1)
    enter = _sides_at((ax + dx * t0, ay + dy * t0), box)
    leave = _sides_at((ax + dx * t1, ay + dy * t1), box)
    return bool(
        ({"w", "e"} <= enter | leave and ("w" in enter) != ("w" in leave))
        or ({"n", "s"} <= enter | leave and ("n" in enter) != ("n" in leave))
    )


def flanking_ally(attacker: Body, target: Body, allies: Iterable[Body]) -> str:
    """The name of an ally who flanks the target with the attacker, or ""
    («Бой › Фланкирование»)."""
    if gap(attacker, target) != 1 or attacker.conditions & FLANK_BLOCKING:
        return ""
    for ally in allies:
        if ally.conditions & FLANK_BLOCKING or gap(ally, target) != 1:
            continue
        if opposite_sides(attacker, ally, target):
            return ally.name or "?"
    return ""


# --- the whole situation ----------------------------------------------------------------------


def situation(
    attacker: Body,
    target: Body,
    *,
    attack: str,
    board: Board,
    allies: Iterable[Body] = (),
) -> Situation:
    """Everything the map knows about one attack from ``attacker`` at ``target``; ``allies``
    are the attacker's allies on the map (for flanking and for stray shots,
    «Бой › Дальние атаки»)."""
    allies = list(allies)
    distance = gap(attacker, target)
    flanked_with = flanking_ally(attacker, target, allies) if attack == "melee" else ""
    return Situation(
        distance=distance,
        adjacent=distance == 1,
        cover=cover(attacker, target, board),
        light=target_light(target, board),
        concealment=target_concealment(target, board),
        high_ground=height(attacker, board) >= height(target, board) + 1,
        flanking=bool(flanked_with),
        flanked_with=flanked_with,
        allies_adjacent=sum(1 for ally in allies if gap(ally, target) == 1),
    )
