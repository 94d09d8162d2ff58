"""Square-grid helpers and what maps share between grids: distances by the ruleset's rule,
footprints of size categories, snapping, and the fog bitset. Exact values plus invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.core import grid
from vtt.maps.fog import Fog, from_runs, to_runs

cell = st.tuples(st.integers(-50, 250), st.integers(-50, 250))


def test_square_distances_exact():
    a, b = (0, 0), (3, 4)
    assert grid.chebyshev(a, b) == 4  # Crows: a diagonal counts as one square
    assert grid.manhattan(a, b) == 7
    assert grid.alternating(a, b) == 5  # 4 + 3 // 2
    assert grid.alternating((0, 0), (5, 5)) == 7  # 5 diagonals: 1+2+1+2+1
    assert grid.square_distance((2, 7), (2, 7)) == 0
    with pytest.raises(ValueError, match="unknown metric"):
        grid.square_distance(a, b, "euclid")


def test_grid_distance_by_map_kind():
    assert grid.grid_distance((0, 0), (3, 3), kind="square") == 3
    assert grid.grid_distance((0, 0), (3, 3), kind="square", metric="manhattan") == 6
    assert grid.grid_distance((0, 0), (3, 3), kind="hex", orientation="flat") == 5
    assert grid.grid_distance((0, 0), (3, 3), kind="hex", orientation="pointy") == 5
    assert grid.grid_distance((0, 0), (4, 0), kind="hex", orientation="pointy") == 4


@given(cell, cell, cell)
def test_square_distances_are_symmetric_and_ordered(a, b, c):
    d = grid.square_distance
    for metric in grid.METRICS:
        assert d(a, b, metric) == d(b, a, metric) >= 0
        assert (d(a, b, metric) == 0) == (a == b)
    for metric in ("chebyshev", "manhattan"):
        assert d(a, c, metric) <= d(a, b, metric) + d(b, c, metric)
    # 1-2-1 diagonals depend on the path's parity (two single diagonals cost 1 + 1, a double
    # one 3), so that rule is not a metric; it lies between the other two.
    assert grid.chebyshev(a, b) <= grid.alternating(a, b) <= grid.manhattan(a, b)
    assert 2 * grid.alternating(a, b) <= 3 * grid.chebyshev(a, b)


def test_crows_sizes_from_the_ruleset():
    sizes = {s.key: s.cells for s in grid.size_categories("crows")}
    assert sizes == {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "colossal": 4}
    colossal = next(s for s in grid.size_categories("crows") if s.key == "colossal")
    assert (colossal.ru, colossal.en) == ("Охренеть!", "Colossal")
    assert grid.size_cells("crows", "huge") == 3


def test_default_sizes_for_other_rulesets():
    keys = [s.key for s in grid.size_categories("dungeon_world")]
    assert keys == ["tiny", "small", "medium", "large", "huge", "gargantuan"]
    assert grid.size_cells("savage_worlds", "gargantuan") == 4
    with pytest.raises(ValueError):
        grid.size_cells("crows", "gargantuan")


def test_square_footprints_exact():
    assert grid.footprint((2, 3), 1) == [(2, 3)]
    assert grid.footprint((2, 3), 2) == [(2, 3), (3, 3), (2, 4), (3, 4)]
    assert len(grid.footprint((0, 0), 4)) == 16
    # clipped to the map
    assert grid.footprint((9, 9), 3, width=10, height=10) == [(9, 9)]


def test_hex_footprints_exact():
    assert grid.footprint((5, 5), 1, kind="hex", orientation="flat") == [(5, 5)]
    large = grid.footprint((2, 2), 2, kind="hex", orientation="flat", width=10, height=10)
    assert large == [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (2, 3)]
    assert len(grid.footprint((5, 5), 4, kind="hex", orientation="pointy")) == 19
    assert grid.footprint((0, 0), 3, kind="hex", orientation="pointy", width=5, height=5) == [
        (0, 0),
        (1, 0),
        (0, 1),
    ]
    assert [grid.token_span("hex", n) for n in (1, 2, 3, 4)] == [1, 3, 3, 5]
    assert [grid.token_span("square", n) for n in (1, 2, 3, 4)] == [1, 2, 3, 4]


def test_snapping_squares_exact():
    kw = {"kind": "square", "cell": 50, "width": 10, "height": 8}
    assert grid.snap(10, 10, **kw) == (0, 0)
    assert grid.snap(149, 51, **kw) == (2, 1)
    assert grid.snap(55, 55, cells=2, **kw) == (0, 0)  # a 2 × 2 block centred at (50, 50)
    assert grid.snap(76, 76, cells=2, **kw) == (1, 1)
    assert grid.snap(-500, 9999, **kw) == (0, 7)  # clamped onto the map
    assert grid.snap(499, 399, cells=3, **kw) == (7, 5)  # the whole 3 × 3 block stays on


def test_snapping_hexes_exact():
    kw = {"kind": "hex", "cell": 50, "width": 10, "height": 10}
    assert grid.snap(25, 29, orientation="pointy", **kw) == (0, 0)
    assert grid.snap(51, 72, orientation="pointy", **kw) == (0, 1)
    assert grid.snap(-40, -40, orientation="flat", **kw) == (0, 0)


@given(st.integers(0, 199), st.integers(0, 199), st.integers(1, 4))
def test_snapping_a_token_centre_returns_its_anchor(col, row, cells):
    size = 200
    x = (col + cells / 2) * 40
    y = (row + cells / 2) * 40
    anchor = grid.snap(x, y, kind="square", cell=40, width=size, height=size, cells=cells)
    assert anchor == grid.clamp_anchor((col, row), cells, kind="square", width=size, height=size)


def test_cell_polygons():
    assert grid.cell_polygon(1, 2, kind="square", cell=10) == [
        (10, 20),
        (20, 20),
        (20, 30),
        (10, 30),
    ]
    assert len(grid.cell_polygon(1, 2, kind="hex", cell=10, orientation="flat")) == 6
    assert grid.pixel_size("square", "flat", 50, 4, 3) == (200.0, 150.0)


# --- fog bitset -------------------------------------------------------------------------------


def test_fog_starts_hidden_or_revealed():
    assert Fog(3, 3, None, revealed=False).count() == 0
    fog = Fog(3, 3, None, revealed=True)
    assert fog.count() == 9 and fog.to_bytes() == b"\xff\x01"


def test_fog_changes_report_only_real_changes():
    fog = Fog(10, 10, None, revealed=False)
    assert fog.set([(0, 0), (1, 0), (1, 0), (12, 0)], True) == [0, 1]
    assert fog.set([(0, 0)], True) == []
    assert fog.is_revealed(1, 0) and not fog.is_revealed(2, 0) and not fog.is_revealed(-1, 0)
    assert fog.runs() == [[0, 2]]
    again = Fog(10, 10, fog.to_bytes(), revealed=False)
    assert again.runs() == [[0, 2]]


def test_fog_resize_keeps_cells():
    fog = Fog(4, 4, None, revealed=False)
    fog.set([(3, 3), (0, 1)], True)
    bigger = fog.resized(6, 5, new_revealed=True)
    assert bigger.is_revealed(3, 3) and bigger.is_revealed(0, 1) and bigger.is_revealed(5, 4)
    assert not bigger.is_revealed(1, 1)
    smaller = fog.resized(2, 2, new_revealed=True)
    assert smaller.count() == 1


@given(st.sets(st.integers(0, 399)))
def test_runs_round_trip(indexes):
    runs = to_runs(sorted(indexes))
    assert from_runs(runs) == sorted(indexes)
    fog = Fog(20, 20, None, revealed=False)
    fog.set([(i % 20, i // 20) for i in indexes], True)
    assert fog.runs() == runs
