"""A worker that (re)connects to the broker re-arms running clocks (vtt/table/clock.py, rearm):
a killed worker's reserved ETA task stays invisible for hours, a Redis restart loses it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.signals import before_task_publish
from django.utils import timezone

from vtt.campaigns import services as campaign_services
from vtt.table import clock
from vtt.table.models import DungeonClock, TableEvent
from vtt.table.tasks import sweep_clocks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_turns(settings):
    settings.CLOCK_MIN_SECONDS = 1


@pytest.fixture
def published():
    """Every task message sent to the broker (Celery's own signal, the real publish path)."""
    sent: list[tuple[str, list, str | None]] = []

    def record(sender=None, headers=None, body=None, **kwargs):
        sent.append((sender, list(body[0]) if body else [], (headers or {}).get("eta")))

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def test_rearm_enqueues_each_running_turn_for_its_deadline(table, published):
    other = campaign_services.campaign_create(user=table.referee, name="Другая", ruleset="crows")
    paused = campaign_services.campaign_create(user=table.referee, name="Пауза", ruleset="crows")
    for campaign in (table.campaign, other, paused):
        clock.clock_configure(campaign=campaign, actor=table.referee, length_seconds=600)
        clock.clock_start(campaign=campaign, actor=table.referee)
    clock.clock_pause(campaign=paused, actor=table.referee)
    published.clear()

    assert clock.rearm() == 2
    sent = {(args[0], args[1]): eta for name, args, eta in published if name.endswith("end_turn")}
    assert set(sent) == {(table.campaign.pk, 1), (other.pk, 1)}
    deadline = DungeonClock.objects.get(campaign=table.campaign).deadline
    assert sent[(table.campaign.pk, 1)] == deadline.isoformat()


def test_the_workers_start_up_sweep_ends_overdue_turns_once_and_rearms_the_rest(table, published):
    late = campaign_services.campaign_create(user=table.referee, name="Поздно", ruleset="crows")
    for campaign in (table.campaign, late):
        clock.clock_configure(campaign=campaign, actor=table.referee, length_seconds=600)
        clock.clock_start(campaign=campaign, actor=table.referee)
    DungeonClock.objects.filter(campaign=late).update(
        deadline=timezone.now() - timedelta(seconds=5)
    )
    published.clear()

    assert sweep_clocks(rearm=True) == 1
    assert sweep_clocks(rearm=True) == 0  # a second worker starting: nothing ends twice
    ended = TableEvent.objects.filter(campaign=late, kind="turn.ended")
    assert [e.payload["turn"] for e in ended] == [1]
    rearmed = {tuple(args[:2]) for name, args, _eta in published if name.endswith("end_turn")}
    # the running one, and the late clock's next turn (scheduled when turn 1 ended)
    assert (table.campaign.pk, 1) in rearmed and (late.pk, 2) in rearmed
    assert (late.pk, 1) not in rearmed
