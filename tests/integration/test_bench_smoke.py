"""The load benchmark's quick mode runs end to end on the real services (`make bench
BENCH_ARGS=--quick`): 5 tables × 3 clients × 10 s, then the bare-broadcast baseline."""

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


@pytest.mark.timeout(900)
def test_quick_bench_delivers_every_roll_to_every_client():
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=850,
    )
    report = f"stdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}"
    assert result.returncode == 0, report
    lines = result.stdout.strip().splitlines()
    last = LAST_LINE.match(lines[-1])
    assert last, report
    assert float(last["p99"]) > 0 and float(last["base"]) > 0, report
    for phase in ("vtt", "baseline"):
        errors = [line for line in lines if line.startswith(phase) and " errors=" in line]
        assert len(errors) == 1 and f"{phase:<9}errors=0 " in errors[0], report
        throughput = next(line for line in lines if line.startswith(phase) and "rolls=" in line)
        # 5 tables × 10 s at 1/s, each roll delivered to its 3 clients
        assert "rolls=50 " in throughput and "deliveries=150 " in throughput, report
