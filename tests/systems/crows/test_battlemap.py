"""What a battle map tells an attack (systems/crows/battlemap.py): line of effect and cover
(L628-L644), light (L576-L590), concealment (L648-L660), high ground (L831) and flanking
(L823-L827), then fed to the ``attack`` move, whose check counts them (ScriptedDice)."""

from __future__ import annotations

from crows_combat_helpers import armed, arrows, bow
from crows_helpers import RS, with_items
from hypothesis import given
from hypothesis import strategies as st

from systems.core.dice import ScriptedDice
from systems.crows import battlemap as bm


def b(col: int, row: int, span: int = 1, name: str = "", **kw) -> bm.Body:
    return bm.Body(col, row, span, name=name, **kw)


def test_gap_counts_diagonals_as_one_and_spans_large_spaces():
    assert bm.gap(b(0, 0), b(1, 1)) == 1
    assert bm.gap(b(0, 0), b(5, 2)) == 5
    assert bm.gap(b(0, 0), b(2, 0, span=2)) == 2
    assert bm.gap(b(3, 3, span=2), b(5, 4)) == 1
    assert bm.gap(b(3, 3, span=2), b(4, 4)) == 0


def test_open_ground_has_no_cover_and_the_ambient_light():
    board = bm.Board()
    s = bm.situation(b(0, 0), b(5, 0), attack="ranged", board=board)
    assert (s.cover, s.light, s.concealment, s.distance) == ("none", "bright", "none", 5)
    assert not s.adjacent and not s.high_ground and s.sources("ranged") == []


def test_a_wall_across_the_line_blocks_line_of_effect():
    wall = frozenset((2, r) for r in range(-5, 6))
    assert bm.cover(b(0, 0), b(4, 0), bm.Board(walls=wall)) == "full"
    # squares touching corner to corner seal too: a diagonal wall has no gaps to shoot through
    diagonal = frozenset((k, 5 - k) for k in range(-3, 9))
    assert bm.cover(b(0, 0), b(4, 4), bm.Board(walls=diagonal)) == "full"
    assert bm.cover(b(0, 0), b(3, 0), bm.Board(walls=diagonal)) == "none"


def test_an_obstacle_in_front_of_the_target_is_cover_but_not_beside_the_line():
    # (4, 0) covers the lower half of every line to the target at (5, 0): 2 of 4 corners.
    assert bm.cover(b(0, 0), b(5, 0), bm.Board(low=frozenset({(4, 0)}))) == "half"
    assert bm.cover(b(0, 0), b(5, 0), bm.Board(walls=frozenset({(4, 0)}))) == "half"
    # a wall square off to the side only grazes one line at most: no cover
    assert bm.cover(b(0, 0), b(5, 0), bm.Board(walls=frozenset({(3, 2)}))) == "none"
    # a line that runs along a wall's edge is not blocked
    assert bm.cover(b(0, 0), b(5, 0), bm.Board(walls=frozenset({(3, -1)}))) == "none"


def test_the_attackers_own_parapet_gives_the_target_nothing():
    assert bm.cover(b(0, 0), b(5, 0), bm.Board(low=frozenset({(1, 0)}))) == "none"
    # a low obstacle never blocks line of effect, even a long one
    low = frozenset((3, r) for r in range(-5, 6))
    assert bm.cover(b(0, 0), b(6, 0), bm.Board(low=low)) == "half"


def test_light_is_the_painted_or_ambient_level_brightened_by_carried_lights():
    torch = bm.LightSource(b(0, 0), bright=2, dim=4)  # X/Y: 2 bright, 4 more dim (L578)
    board = bm.Board(ambient="dark", sources=(torch,), light={(9, 0): "bright"})
    assert bm.light_at((2, 0), board) == "bright"
    assert bm.light_at((5, 0), board) == "dim"
    assert bm.light_at((7, 0), board) == "dark"
    assert bm.light_at((9, 0), board) == "bright"  # a painted lit square
    dusk = bm.Board(ambient="bright", light={(3, 3): "dim"})
    assert bm.light_at((3, 3), dusk) == "dim"
    # the attacker aims at the best-lit square of a large target
    assert bm.target_light(b(6, 0, span=2), board) == "dim"
    assert bm.target_light(b(7, 0, span=3), board) == "bright"


def test_concealment_and_high_ground():
    board = bm.Board(
        concealment={(5, 0): "heavy", (6, 0): "light", (5, 1): "light", (6, 1): "light"},
        heights={(0, 0): 1, (5, 5): 2},
    )
    assert bm.target_concealment(b(5, 0), board) == "heavy"
    assert bm.target_concealment(b(5, 0, span=2), board) == "light"
    assert bm.situation(b(0, 0), b(5, 0), attack="ranged", board=board).high_ground
    assert bm.situation(b(5, 5), b(6, 5), attack="melee", board=board).high_ground
    assert not bm.situation(b(1, 0), b(2, 0), attack="melee", board=board).high_ground


def test_flanking_needs_opposite_sides_or_corners():
    target = b(5, 5)
    assert bm.flanking_ally(b(4, 5), target, [b(6, 5, name="Ally")]) == "Ally"
    assert bm.flanking_ally(b(4, 4), target, [b(6, 6, name="Ally")]) == "Ally"
    assert bm.flanking_ally(b(4, 5), target, [b(6, 6, name="Ally")]) == ""  # a knight's move
    assert bm.flanking_ally(b(4, 5), target, [b(5, 4, name="Ally")]) == ""
    assert bm.flanking_ally(b(3, 5), target, [b(6, 5, name="Ally")]) == ""  # not adjacent
    prone = b(6, 5, name="Ally", conditions=frozenset({"prone"}))
    assert bm.flanking_ally(b(4, 5), target, [prone]) == ""  # L825
    grabbed = b(4, 5, conditions=frozenset({"grabbed"}))
    assert bm.flanking_ally(grabbed, target, [b(6, 5, name="Ally")]) == ""
    big = b(5, 5, span=2)
    assert bm.flanking_ally(b(4, 5), big, [b(7, 6, name="Ally")]) == "Ally"


def test_situation_sources_follow_the_attack_kind():
    board = bm.Board(heights={(4, 5): 1})
    melee = bm.situation(b(4, 5), b(5, 5), attack="melee", board=board, allies=[b(6, 5, name="A")])
    assert melee.flanking and melee.flanked_with == "A" and melee.allies_adjacent == 1
    assert melee.sources("melee") == ["flanking", "high_ground"]
    ranged = bm.situation(b(4, 5), b(5, 5), attack="ranged", board=board, allies=[b(6, 5)])
    assert not ranged.flanking
    assert ranged.sources("ranged") == ["high_ground", "ranged_adjacent"]


@given(
    st.integers(-6, 6),
    st.integers(-6, 6),
    st.frozensets(st.tuples(st.integers(-3, 9), st.integers(-3, 9)), max_size=12),
)
def test_cover_is_symmetric_in_kind_and_never_invents_walls(dc, dr, walls):
    """No walls → no cover; more walls never make it better; full only with walls."""
    attacker, target = b(0, 0), b(3 + dc, 3 + dr)
    if bm.gap(attacker, target) == 0:
        return
    order = {"none": 0, "half": 1, "full": 2}
    none = bm.cover(attacker, target, bm.Board())
    some = bm.cover(attacker, target, bm.Board(walls=walls))
    assert none == "none"
    assert order[some] >= order[none]
    assert bm.cover(attacker, target, bm.Board(low=walls)) != "full"


def test_the_attack_move_counts_what_the_map_found():
    """A ranged shot at a target in cover and dim light: two disadvantages → double
    disadvantage, tier one lower (L218); the check lists both sources."""
    archer = with_items(armed(bow(), agility=2), (arrows(), "backpack:1"))
    board = bm.Board(ambient="dim", low=frozenset({(4, 0)}))
    s = bm.situation(b(0, 0), b(5, 0), attack="ranged", board=board)
    assert (s.cover, s.light) == ("half", "dim")
    out = RS.resolve(
        "attack",
        archer,
        dice=ScriptedDice([9, 8, 3]),  # 17 + 2 = 19 → tier 3, double disadvantage → tier 2
        weapon_id="bow",
        target_name="Гоблин",
        **s.params(),
    )
    assert set(out.details["sources"]) >= {"cover", "dim_light"}
    assert out.flags["net"] == -2 and out.flags["tier"] == 2 and out.flags["hit"]
