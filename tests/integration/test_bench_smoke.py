"""The load benchmark's quick mode runs end to end on the real services (`make bench
BENCH_ARGS=--quick`): 5 tables × 3 sockets, 5 s of rolls, of sheet moves and of token moves,
sent as socket commands by a socket of each table, then through the HTTP API, then against the
bare-broadcast floor; and the same with the mixed load (rolls, sheet moves, token moves, running
dungeon clocks)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.integration.procs import ROOT, child_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL; CI sets both",
    ),
]

LAST_LINE = re.compile(
    r"^p99_ms=(?P<p99>\d+\.\d\d) baseline_p99_ms=(?P<base>\d+\.\d\d) ratio=(?P<ratio>\d+\.\d\d)$"
)


def run_bench(*args: str) -> tuple[list[str], str]:
    """``python -m bench --quick <args>``: its output lines, and a report for assertions."""
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", *args],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=850,
    )
    report = f"stdout:\n{result.stdout[-5000:]}\nstderr:\n{result.stderr[-4000:]}"
    assert result.returncode == 0, report
    return result.stdout.strip().splitlines(), report


def assert_every_action_delivered(lines: list[str], phase: str, report: str) -> None:
    """No errors, and 5 tables × 5 s at 1/s of each kind, each delivered to its 3 sockets;
    the phase's result lines in the issue's order, one per kind."""
    errors = [line for line in lines if line.startswith(phase) and " errors=" in line]
    assert f"{phase:<8} errors=0 " in errors[0], report
    for kind in ("roll", "move", "token"):
        line = next(x for x in lines if x.startswith(phase) and f"kind={kind} " in x)
        assert "sent=25 ok=25 429s=0 delivered=75/75 " in line, report
        result = next(x for x in lines if x.startswith(f"{phase:<8}   {kind:<5} p50_ms="))
        assert re.search(
            r"p50_ms=\d+\.\d\d p99_ms=\d+\.\d\d errors=0 \(lost=0 duplicated=0 out_of_order=0 "
            r"failed=0\) web_cpu_ms_per_action=\d+\.\d\d \(25 actions, 50 latencies\)",
            result,
        ), report


@pytest.mark.timeout(900)
def test_quick_bench_delivers_every_action_to_every_socket():
    lines, report = run_bench()
    last = LAST_LINE.match(lines[-1])
    assert last, report
    assert float(last["p99"]) > 0 and float(last["base"]) > 0, report
    for phase in ("socket", "http", "baseline"):
        assert_every_action_delivered(lines, phase, report)


@pytest.mark.timeout(900)
def test_quick_mixed_bench_delivers_every_kind_and_every_turn_end():
    lines, report = run_bench(
        "--mix", "roll=1,move=1,token=1", "--clocks", "--map-tokens", "50", "--duration", "10"
    )
    assert LAST_LINE.match(lines[-1]), report
    queries = next(line for line in lines if line.startswith("queries "))
    assert re.fullmatch(r"queries  roll=\d+ move=\d+ move_miss=\d+ token=\d+", queries), report
    for phase in ("socket", "http", "baseline"):
        errors = [line for line in lines if line.startswith(phase) and " errors=" in line]
        assert f"{phase:<8} errors=0 " in errors[0], report
        # 10 requests a table in turn: roll, move, token, roll, ... → 4 rolls, 3 and 3
        for kind, sent in (("roll", 20), ("move", 15), ("token", 15)):
            line = next(x for x in lines if x.startswith(phase) and f"kind={kind} " in x)
            expected = f"sent={sent} ok={sent} 429s=0 delivered={sent * 3}/{sent * 3} "
            assert expected in line, report
    clock = next(line for line in lines if line.startswith("socket") and " clock " in line)
    due = int(re.search(r"turns_due=(\d+)", clock)[1])
    assert due >= 5 and "tables=5 " in clock and " missing=0 twice=0 " in clock, report
    assert f"delivered={due * 3}/{due * 3} " in clock, report
    assert re.search(r"peak_rss_mb server=\d+ celery=\d+", "\n".join(lines)), report


@pytest.mark.timeout(900)
def test_quick_bench_measures_the_floor_with_a_durable_write():
    lines, report = run_bench("--phases", "baseline,floorpg")
    for phase in ("baseline", "floorpg"):
        assert_every_action_delivered(lines, phase, report)
    written = next(line for line in lines if line.startswith("floorpg p99_ms="))
    assert re.fullmatch(r"floorpg p99_ms=\d+\.\d\d over_floor=\d+\.\d\d", written), report
    assert lines[-1].startswith("p99_ms=nan baseline_p99_ms="), report


@pytest.mark.django_db(transaction=True)
def test_the_floor_commits_each_event_before_sending_it_in_order():
    """bench/baseline.py's ``--write-dsn``: every event is a committed row, numbered in order
    per table even when requests overlap, before any socket gets it."""
    import asyncio

    from django.db import connection

    from bench.baseline import Tables, Writer

    assert connection.vendor == "postgresql"  # DATABASE_URL is set (pytestmark)
    s = connection.settings_dict
    dsn = f"host={s['HOST']} port={s['PORT'] or 5432} user={s['USER']} dbname={s['NAME']}"

    async def run() -> list[tuple[int, int, str]]:
        writer = Writer(dsn, size=3)
        await writer.open()
        tables = Tables(None, writer)
        rolls = [tables.roll(table, {"label": "x"}) for table in (1, 2) for _ in range(5)]
        ids = [r["roll_id"] for r in await asyncio.gather(*rolls)]
        assert sorted(ids) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        conn = await writer.pool.get()
        cur = await conn.execute(
            "SELECT table_id, seq, payload->>'kind' FROM bench_floor_event ORDER BY 1, 2"
        )
        rows = await cur.fetchall()
        await conn.execute("DROP TABLE bench_floor_event")
        for _ in range(writer.size - 1):
            await (await writer.pool.get()).close()
        await conn.close()
        return rows

    rows = asyncio.run(run())
    assert rows == [(t, n, "roll") for t in (1, 2) for n in range(1, 6)]
