"""The dungeon clock with real Celery workers on Redis: a turn ends exactly once."""

from __future__ import annotations

import os
import signal

import pytest
from django.db import connection

from tests.integration.procs import celery_worker, child_env, poll
from vtt.table import clock
from vtt.table.models import DungeonClock, TableEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env(settings):
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL; CI sets both")
    settings.CLOCK_MIN_SECONDS = 1
    d = connection.settings_dict
    db_url = f"postgres://{d['USER']}@{d['HOST']}:{d['PORT']}/{d['NAME']}"
    return child_env(DEBUG="1", DATABASE_URL=db_url, CLOCK_MIN_SECONDS="1")


def ended(campaign, turn: int) -> int:
    return TableEvent.objects.filter(
        campaign=campaign, kind="turn.ended", payload__turn=turn
    ).count()


def test_two_workers_end_each_turn_once(table, worker_env, tmp_path):
    from vtt.table.tasks import end_turn

    with (
        celery_worker(worker_env, tmp_path / "w1.log", "w1"),
        celery_worker(worker_env, tmp_path / "w2.log", "w2"),
    ):
        clock.clock_configure(campaign=table.campaign, actor=table.referee, length_seconds=2)
        clock.clock_start(campaign=table.campaign, actor=table.referee)
        # duplicates of the same turn's task, as a retry or a redelivery would make
        for _ in range(3):
            end_turn.apply_async(args=[table.campaign.pk, 1], countdown=2.2)
        assert poll(lambda: ended(table.campaign, 2) == 1, timeout=30), (
            tmp_path / "w1.log"
        ).read_text()[-2000:]
        clock.clock_stop(campaign=table.campaign, actor=table.referee)
    assert ended(table.campaign, 1) == 1 and ended(table.campaign, 2) == 1
    row = DungeonClock.objects.get(campaign=table.campaign)
    assert row.turns_ended == row.turn - 1


def test_a_turn_missed_while_the_worker_was_dead_ends_once_after_restart(
    table, worker_env, tmp_path
):
    with celery_worker(worker_env, tmp_path / "first.log", "first") as first:
        poll(lambda: "ready" in (tmp_path / "first.log").read_text(), timeout=30)
        clock.clock_configure(campaign=table.campaign, actor=table.referee, length_seconds=2)
        clock.clock_start(campaign=table.campaign, actor=table.referee)
        first.send_signal(signal.SIGKILL)  # mid-turn: it holds the ETA task, unacknowledged
        first.wait(timeout=10)
    # the deadline passes with no worker at all
    assert poll(lambda: False, timeout=3) is False
    assert ended(table.campaign, 1) == 0
    with celery_worker(worker_env, tmp_path / "second.log", "second"):
        assert poll(lambda: ended(table.campaign, 1) == 1, timeout=40), (
            tmp_path / "second.log"
        ).read_text()[-2000:]
        clock.clock_stop(campaign=table.campaign, actor=table.referee)
    assert ended(table.campaign, 1) == 1
