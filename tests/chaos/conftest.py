"""Fault tests run on private PostgreSQL and Redis servers (tests/chaos/servers.py), so they
run in both CI passes; `make chaos` sets VTT_CHAOS_FULL=1 for the long version."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.chaos.harness import FIGURES, FULL, Stack
from tests.chaos.servers import missing_binaries

CAMPAIGNS = 4


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    missing = missing_binaries()
    if missing:
        pytest.skip(f"the fault tests need {', '.join(missing)}")
    stack = Stack(tmp_path_factory.mktemp("chaos"), CAMPAIGNS)
    try:
        stack.up()
        yield stack
    finally:
        stack.down()


def pytest_terminal_summary(terminalreporter) -> None:
    if FIGURES:
        terminalreporter.section(f"chaos figures ({'full' if FULL else 'short'} run)")
        for line in FIGURES:
            terminalreporter.write_line(line)
