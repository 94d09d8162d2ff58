"""Hex math: Red Blob Games' own test values, exact pixel positions for the maps' layout, and
hypothesis invariants (distance is a metric, lines are connected, pixel round trips)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.core import hexgrid as hg
from systems.core.hexgrid import FractionalHex, Hex

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)
orientations = st.sampled_from(["pointy", "flat"])
cells = st.integers(min_value=0, max_value=199)


# --- Red Blob Games' test suite (implementation guide, "test" section) ---------------------------


def test_arithmetic_direction_neighbours():
    assert Hex(1, -3) + Hex(3, -7) == Hex(4, -10)
    assert Hex(1, -3) - Hex(3, -7) == Hex(-2, 4)
    assert Hex(1, -3).s == 2
    assert hg.direction(2) == Hex(0, -1)
    assert hg.neighbour(Hex(1, -2), 2) == Hex(1, -3)
    assert hg.diagonal_neighbour(Hex(1, -2), 3) == Hex(-1, -1)


def test_distance_and_rotation():
    assert hg.distance(Hex(3, -7), Hex(0, 0)) == 7
    assert hg.rotate_right(Hex(1, -3)) == Hex(3, -2)
    assert hg.rotate_left(Hex(1, -3)) == Hex(-2, -1)


def test_round():
    a, b, c = Hex(0, 0), Hex(1, -1), Hex(0, -1)
    assert hg.hex_round(hg.hex_lerp(Hex(0, 0), Hex(10, -20), 0.5)) == Hex(5, -10)
    assert hg.hex_round(hg.hex_lerp(a, b, 0.499)) == a
    assert hg.hex_round(hg.hex_lerp(a, b, 0.501)) == b
    assert (
        hg.hex_round(
            FractionalHex(a.q * 0.4 + b.q * 0.3 + c.q * 0.3, a.r * 0.4 + b.r * 0.3 + c.r * 0.3)
        )
        == a
    )
    assert (
        hg.hex_round(
            FractionalHex(a.q * 0.3 + b.q * 0.3 + c.q * 0.4, a.r * 0.3 + b.r * 0.3 + c.r * 0.4)
        )
        == c
    )


def test_linedraw():
    assert hg.line(Hex(0, 0), Hex(1, -5)) == [
        Hex(0, 0),
        Hex(0, -1),
        Hex(0, -2),
        Hex(1, -3),
        Hex(1, -4),
        Hex(1, -5),
    ]


def test_layout_round_trip_red_blob():
    h = Hex(3, 4)
    for orientation in (hg.POINTY, hg.FLAT):
        layout = hg.Layout(orientation, hg.Point(10, 15), hg.Point(35, 71))
        assert hg.pixel_to_hex(layout, hg.hex_to_pixel(layout, h)) == h


def test_offset_conversions_red_blob():
    # odd-q (flat-top) and odd-r (pointy-top), Red Blob's test_offset_from_cube/to_cube.
    assert hg.axial_to_offset(Hex(1, 2), "flat") == (1, 2)
    assert hg.offset_to_axial(1, 2, "flat") == Hex(1, 2)
    assert hg.axial_to_offset(Hex(1, 2), "pointy") == (2, 2)
    assert hg.offset_to_axial(2, 2, "pointy") == Hex(1, 2)


# --- exact values for the maps' layout ------------------------------------------------------------


def test_neighbours_in_order():
    assert hg.neighbours(Hex(0, 0)) == (
        Hex(1, 0),
        Hex(1, -1),
        Hex(0, -1),
        Hex(-1, 0),
        Hex(-1, 1),
        Hex(0, 1),
    )


def test_flat_compass_counts_clockwise_from_north():
    names = [name for name, _vector in hg.FLAT_COMPASS]
    assert names == ["N", "NE", "SE", "S", "SW", "NW"]
    layout = hg.grid_layout("flat", 60)
    centre = hg.hex_to_pixel(layout, Hex(0, 0))
    angles = []
    for _name, vector in hg.FLAT_COMPASS:
        p = hg.hex_to_pixel(layout, vector)
        # screen y grows downwards: north is -90°, angles increase clockwise
        angles.append(round(math.degrees(math.atan2(p.y - centre.y, p.x - centre.x))))
    assert angles == [-90, -30, 30, 90, 150, -150]


def test_grid_layout_centres_and_box():
    s = 50 / math.sqrt(3)
    assert hg.offset_center(0, 0, "pointy", 50) == pytest.approx((25.0, s))
    assert hg.offset_center(1, 0, "pointy", 50) == pytest.approx((75.0, s))
    assert hg.offset_center(0, 1, "pointy", 50) == pytest.approx((50.0, 2.5 * s))  # odd row shoved
    assert hg.offset_center(0, 0, "flat", 50) == pytest.approx((s, 25.0))
    assert hg.offset_center(1, 0, "flat", 50) == pytest.approx((2.5 * s, 50.0))  # odd col down
    assert hg.offset_center(0, 1, "flat", 50) == pytest.approx((s, 75.0))
    assert hg.grid_pixel_size("pointy", 50, 3, 3) == pytest.approx((175.0, 5 * s))
    assert hg.grid_pixel_size("flat", 50, 3, 3) == pytest.approx((5 * s, 175.0))
    assert hg.grid_pixel_size("pointy", 50, 4, 1) == pytest.approx((200.0, 2 * s))


def test_corners_are_size_from_centre():
    corners = hg.offset_corners(2, 3, "pointy", 60)
    cx, cy = hg.offset_center(2, 3, "pointy", 60)
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(60 / math.sqrt(3))
    assert corners[0] == pytest.approx((cx + 30.0, cy + 60 / math.sqrt(3) / 2))  # 30° first


def test_distances_on_offset_maps():
    assert hg.offset_distance((0, 0), (3, 0), "flat") == 3
    assert hg.offset_distance((0, 0), (0, 3), "flat") == 3
    assert hg.offset_distance((0, 0), (3, 3), "flat") == 5
    assert hg.offset_distance((0, 0), (3, 3), "pointy") == 5
    assert hg.offset_distance((2, 2), (3, 1), "flat") == 1  # even column: NE is (c+1, r-1)
    assert hg.offset_distance((3, 2), (4, 2), "flat") == 1  # odd column: NE is (c+1, r)


def test_range_and_ring_sizes():
    assert len(hg.hex_range(Hex(0, 0), 0)) == 1
    assert len(hg.hex_range(Hex(0, 0), 2)) == 19
    assert hg.ring(Hex(2, 2), 0) == [Hex(2, 2)]
    assert len(hg.ring(Hex(0, 0), 3)) == 18
    assert sorted(hg.offsets_in_range(0, 0, 1, "flat", 10, 10)) == [(0, 0), (0, 1), (1, 0)]


def test_pixel_to_offset_at_centres_and_edges():
    assert hg.pixel_to_offset(25, 29, "pointy", 50) == (0, 0)
    assert hg.pixel_to_offset(74, 29, "pointy", 50) == (1, 0)
    assert hg.pixel_to_offset(51, 72, "pointy", 50) == (0, 1)
    assert hg.pixel_to_offset(-100, -100, "flat", 50) == (-3, -3)  # centre (-101, -100)


# --- invariants ---------------------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert hg.distance(a, b) == hg.distance(b, a) >= 0
    assert (hg.distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert hg.distance(a, c) <= hg.distance(a, b) + hg.distance(b, c)


@given(hexes)
def test_neighbours_are_one_step_away(h):
    around = hg.neighbours(h)
    assert len(set(around)) == 6
    assert all(hg.distance(h, n) == 1 for n in around)
    assert all(hg.distance(h, hg.diagonal_neighbour(h, i)) == 2 for i in range(6))


@given(hexes, hexes)
def test_lines_are_connected_and_as_long_as_the_distance(a, b):
    path = hg.line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == hg.distance(a, b) + 1
    assert all(hg.distance(x, y) == 1 for x, y in itertools.pairwise(path))


@given(hexes, st.integers(min_value=0, max_value=6))
def test_range_is_every_hex_within_radius(h, radius):
    area = hg.hex_range(h, radius)
    assert len(area) == len(set(area)) == 3 * radius * radius + 3 * radius + 1
    assert all(hg.distance(h, x) <= radius for x in area)
    ring = hg.ring(h, radius)
    assert len(ring) == max(1, 6 * radius)
    assert all(hg.distance(h, x) == radius for x in ring)


@given(hexes, orientations, st.integers(min_value=16, max_value=256))
def test_pixel_round_trip(h, orientation, cell):
    layout = hg.grid_layout(orientation, cell)
    assert hg.pixel_to_hex(layout, hg.hex_to_pixel(layout, h)) == h


@given(
    cells,
    cells,
    orientations,
    st.integers(min_value=16, max_value=256),
    st.floats(min_value=0, max_value=2 * math.pi),
    st.floats(min_value=0, max_value=0.49),
)
def test_snapping_inside_the_inner_circle_keeps_the_cell(col, row, orientation, cell, angle, frac):
    x, y = hg.offset_center(col, row, orientation, cell)
    r = frac * cell  # the inscribed circle has radius cell / 2
    assert hg.pixel_to_offset(
        x + r * math.cos(angle), y + r * math.sin(angle), orientation, cell
    ) == (col, row)


@given(cells, cells, orientations)
def test_offset_round_trip(col, row, orientation):
    assert hg.axial_to_offset(hg.offset_to_axial(col, row, orientation), orientation) == (col, row)


@given(cells, cells, orientations)
def test_offset_neighbours_touch(col, row, orientation):
    h = hg.offset_to_axial(col, row, orientation)
    cx, cy = hg.offset_center(col, row, orientation, 40)
    for n in hg.neighbours(h):
        nx, ny = hg.offset_center(*hg.axial_to_offset(n, orientation), orientation, 40)
        assert math.hypot(nx - cx, ny - cy) == pytest.approx(40)
