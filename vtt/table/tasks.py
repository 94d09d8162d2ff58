"""Thin Celery wrappers around the clock services (DESIGN.md, pitfalls)."""

from __future__ import annotations

from celery import shared_task

from vtt.table import clock
from vtt.table.models import DungeonClock


@shared_task(name="vtt.table.end_turn", acks_late=True, ignore_result=True)
def end_turn(campaign_id: int, turn: int) -> str:
    """Idempotent: ``clock.end_turn`` ends the turn only if it is still current and due. A
    task that arrives early (clock skew, an early redelivery) puts itself back for the
    deadline."""
    result = clock.end_turn(campaign_id, turn)
    if result == clock.EARLY:
        deadline = (
            DungeonClock.objects.filter(campaign_id=campaign_id)
            .values_list("deadline", flat=True)
            .first()
        )
        if deadline is not None:
            end_turn.apply_async(args=[campaign_id, turn], eta=deadline)
    return result


@shared_task(name="vtt.table.sweep_clocks", ignore_result=True)
def sweep_clocks(rearm: bool = False) -> int:
    """End overdue turns (beat, every 15 s). ``rearm`` (sent by a worker that has just
    connected to the broker) also re-enqueues the turns still running."""
    ended = clock.sweep()
    if rearm:
        clock.rearm()
    return ended
