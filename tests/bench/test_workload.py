"""What the bench sends and how it counts: the actions planned once for the socket and the API,
latencies to the other sockets only, errors and CPU per kind, the side-by-side table."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench.compare import Pooled, Scenario, Tree, table_lines
from bench.loadgen import (
    COMMANDS,
    plan_actions,
    token_cell,
    token_moves_per_roller,
    windows_of,
)
from bench.run import window_cpu
from bench.stats import summarise

PLAN = {
    "map_size": 10,
    "tables": [
        {
            "id": 7 + t,
            "tokens": ["tok-a", "tok-b"],
            "characters": [70 + 2 * t, 71 + 2 * t],
            "map_id": 5 + t,
            "map_tokens": [50 + 2 * t, 51 + 2 * t],
            "sessions": ["s0", "s1", "s2", "s3"],
            "rollers": [2, 3],
        }
        for t in range(2)
    ],
}


def _actions(**overrides):
    spec = {
        "rate": 2.0,
        "duration": 2.0,
        "start_at": 1000.0,
        "windows": windows_of("roll,move,token", None),
        "gap": 1.0,
        "run_id": "r1",
    }
    return plan_actions(PLAN, **{**spec, **overrides})


def test_one_window_per_kind_in_order_each_action_by_a_roller_socket():
    actions = _actions()
    assert [a.kind for a in actions[:8]] == ["roll"] * 8
    windows = {a.window: {b.kind for b in actions if b.window == a.window} for a in actions}
    assert windows == {0: {"roll"}, 1: {"move"}, 2: {"token"}}
    # 2 tables × 2 s × 2/s a window, the next window after the first one's 1 s gap
    assert len(actions) == 24
    assert min(a.at for a in actions if a.window == 1) == 1003.0
    assert {a.sender for a in actions} == {2, 3}  # the rollers' sockets, never the referee
    assert len({a.key for a in actions}) == len(actions)
    assert [a.at for a in actions] == sorted(a.at for a in actions)


def test_an_action_is_the_same_as_a_frame_and_as_an_api_call():
    actions = _actions()
    move = next(a for a in actions if a.kind == "move")
    frame = json.loads(move.frame())
    assert frame == {
        "type": "command",
        "command": "character.move",
        "key": move.key,
        "args": {"cid": move.char, "move": "defy_danger"},
        "params": {"params": {"approach": "agility"}},
    }
    assert move.path == f"/api/characters/{move.char}/moves/defy_danger/"
    token = next(a for a in actions if a.kind == "token")
    assert json.loads(token.frame())["args"] == {"map_id": 5, "token_id": 50}
    assert token.path == "/api/campaigns/7/maps/5/tokens/50/move/"
    assert token.label == f"tok50@{token.params['col']},{token.params['row']}"
    roll = next(a for a in actions if a.kind == "roll")
    assert json.loads(roll.frame())["params"] == {"notation": "2d6+1", "label": roll.label}
    assert set(COMMANDS.values()) == {"roll", "character.move", "token.move"}


def test_a_later_phase_moves_tokens_to_cells_not_visited_before():
    first = [a.label for a in _actions() if a.kind == "token"]
    stride = token_moves_per_roller(2.0, 2.0, windows_of("roll,move,token", None))
    later = [a.label for a in _actions(token_offset=stride, run_id="r2") if a.kind == "token"]
    assert not set(first) & set(later)
    assert token_cell(0, 1, 10) == (1, 1)


def _sent(label: str, sender: int, window: int = 0, status: int = 201) -> dict:
    return {
        "kind": "roll",
        "label": label,
        "table": 0,
        "sender": sender,
        "window": window,
        "t_send": 1000.0,
        "t_done": 1000.004,
        "status": status,
        "error": "",
        "lag": 0.0,
    }


def _received(arrivals: dict, **extra) -> dict:
    return {
        "arrivals": arrivals,
        "drops": 0,
        "connect_errors": 0,
        "order_errors": 0,
        "duplicates": 0,
        **extra,
    }


def test_latency_is_to_the_other_sockets_and_the_sender_still_counts_as_delivered():
    arrivals = {"a": [[0, 1000.010], [1, 1000.020], [2, 1000.001]]}
    summary = summarise(
        "socket", sent=[_sent("a", 2)], received=_received(arrivals), clients_per_table=3
    )
    roll = summary.kinds["roll"]
    assert (roll.delivered, roll.expected, roll.missing) == (3, 3, 0)
    assert roll.latencies == pytest.approx([10.0, 20.0])


def test_errors_by_kind_and_the_result_line_in_the_issues_order():
    arrivals = {"a": [[0, 1000.010]]}
    received = _received(
        arrivals,
        duplicates=1,
        errors_by_kind={"roll": {"duplicates": 1, "order": 2}},
    )
    sent = [_sent("a", 1), _sent("b", 1, status=429)]
    summary = summarise("socket", sent=sent, received=received, clients_per_table=2)
    window_cpu(summary, sent, windows_of("roll", None), [1.0, 1.009])
    roll = summary.kinds["roll"]
    assert (roll.failed, roll.missing, roll.duplicates, roll.order) == (1, 1, 1, 2)
    line = roll.result_line("")
    assert (
        line.index("p50_ms")
        < line.index("p99_ms")
        < line.index("errors=5")
        < line.index("web_cpu_ms_per_action=9.00")
    )
    assert "lost=1 duplicated=1 out_of_order=2 failed=1" in line


def test_the_cpu_of_a_mixed_window_is_the_mixs():
    sent = [_sent("a", 1), {**_sent("b", 1), "kind": "move", "char": 3}]
    summary = summarise("http", sent=sent, received=_received({}), clients_per_table=1)
    window_cpu(summary, sent, [{"roll": 1.0, "move": 1.0, "token": 0.0}], [2.0, 2.01])
    assert summary.cpu_ms_all == pytest.approx(5.0)
    assert math.isnan(summary.kinds["roll"].cpu_ms)


def test_the_comparison_pools_rounds_per_scenario_action_and_side():
    sent = [_sent("a", 1)]
    arrivals = {"a": [[0, 1000.010]]}
    summary = summarise("h", sent=sent, received=_received(arrivals), clients_per_table=2)
    window_cpu(summary, sent, windows_of("roll", None), [0.0, 0.004])
    pooled = Pooled()
    pooled.add(summary.kinds["roll"])
    pooled.add(summary.kinds["roll"])
    assert pooled.row() == pytest.approx((10.0, 10.0, 4.0))
    head = Tree("head", Path("."), Path("."), ("socket",), "abcdef1234")
    lines = table_lines(
        [Scenario("t6", "1 table × 6 sockets", 0, 1, 6, 2.0)],
        ["roll"],
        [head],
        {("t6", "roll", "head", "socket"): pooled},
    )
    assert lines[-1] == (
        "| 1 table × 6 sockets | roll | head (abcdef1), socket commands | 10.00 | 10.00 | "
        "10.0 / 10.0 | 4.00 | 2 | 2 |"  # each round lost the second socket's delivery
    )
