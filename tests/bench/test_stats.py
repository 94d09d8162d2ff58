"""The bench's report of a fast roll's steps (``Server-Timing``): percentiles per step over
the rolls that carried it, and what the HTTP round trip spent outside the app."""

from __future__ import annotations

import pytest

from bench.stats import summarise


def _roll(label: str, send: float, http_ms: float, timing: dict | None, status: int = 201):
    record = {
        "kind": "roll",
        "label": label,
        "table": 0,
        "t_send": send,
        "t_done": send + http_ms / 1000,
        "status": status,
        "error": "",
        "lag": 0.0,
    }
    if timing is not None:
        record["timing"] = timing
    return record


def _received(labels: list[str]) -> dict:
    return {
        "arrivals": {label: [[0, 1000.0 + i]] for i, label in enumerate(labels)},
        "drops": 0,
        "connect_errors": 0,
        "order_errors": 0,
        "duplicates": 0,
    }


def test_stage_percentiles_cover_the_timed_rolls_only():
    sent = [
        _roll("a", 1000.0, 4.0, {"write": 1.0, "app": 3.0}),
        _roll("b", 1001.0, 6.0, {"write": 2.0, "app": 3.5}),
        _roll("c", 1002.0, 9.0, None),  # answered by Django: no header
        _roll("d", 1003.0, 1.0, {"write": 9.0, "app": 9.0}, status=429),  # refused: left out
    ]
    summary = summarise("vtt", sent=sent, received=_received(["a", "b", "c"]), clients_per_table=1)
    stages = summary.stages
    assert (stages.timed, stages.answered) == (2, 3)
    assert stages.steps["write"] == (1.0, 2.0)
    assert stages.steps["app"] == (3.0, 3.5)
    # the round trip less the app's time: 4 − 3 and 6 − 3.5
    assert stages.steps["outside"] == pytest.approx((1.0, 2.5))
    line = next(line for line in summary.lines() if "stages_ms" in line)
    assert "fast=2/3" in line and "outside p50=1.00 p99=2.50" in line


def test_no_stage_line_without_the_header():
    sent = [_roll("a", 1000.0, 4.0, None)]
    summary = summarise("baseline", sent=sent, received=_received(["a"]), clients_per_table=1)
    assert summary.stages.timed == 0
    assert not any("stages_ms" in line for line in summary.lines())
