"""The dungeon-turn clock: start, pause, resume, and ending a turn exactly once.

Ending a turn is guarded, not trusted: the Celery task carries the turn number it was scheduled
for, locks the clock row and does nothing unless that turn is still current, running and past
its deadline. So a retried task, a second worker, a redelivered ETA message (Redis redelivers
after its visibility timeout) and the periodic sweep can all fire, and the turn ends once.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from systems.core.dice import Dice, RandomDice
from systems.core.ruleset import RulesError
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign
from vtt.core.errors import Conflict, Invalid, invalid_from_rules
from vtt.rulesets.registry import web_for
from vtt.table.models import ClockState, DungeonClock
from vtt.table.models import Visibility as V
from vtt.table.services import publish

log = logging.getLogger(__name__)

LENGTH_CHOICES_MINUTES = (20, 30, 60)
DUNGEON_NAME_MAX = 100  # the dungeon's name kept in the clock's rules state
REASON_MAX = 200  # why the referee called an extra encounter check
TURN_MAX_SECONDS = 3 * 3600


def _lock(campaign: Campaign | int) -> DungeonClock:
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    clock, _created = DungeonClock.objects.select_for_update().get_or_create(
        campaign_id=campaign_id
    )
    return clock


def clock_snapshot(clock: DungeonClock) -> dict[str, Any]:
    return {
        "state": clock.state,
        "turn": clock.turn,
        "mode": clock.mode,
        "length_seconds": clock.length_seconds,
        "deadline": clock.deadline.isoformat() if clock.deadline else None,
        "remaining_seconds": clock.remaining_seconds,
        "rooms_left": clock.rooms_left,
        "public_encounters": clock.public_encounters,
        "server_time": timezone.now().isoformat(),
    }


def _publish_clock(clock: DungeonClock, actor: User | None, kind: str = "clock") -> None:
    publish(campaign=clock.campaign_id, kind=kind, payload=clock_snapshot(clock), actor=actor)


def _schedule(clock: DungeonClock) -> None:
    """Enqueue the end of the current turn for its deadline, after the transaction commits."""
    if clock.state != ClockState.RUNNING or clock.deadline is None:
        return
    from vtt.table.tasks import end_turn

    campaign_id, turn, deadline = clock.campaign_id, clock.turn, clock.deadline
    transaction.on_commit(lambda: end_turn.apply_async(args=[campaign_id, turn], eta=deadline))


def _length_for(campaign: Campaign, length_seconds: int | None) -> int:
    if length_seconds is not None:
        low = settings.CLOCK_MIN_SECONDS
        if not low <= length_seconds <= TURN_MAX_SECONDS:
            raise Invalid(
                _("A turn lasts from %(low)d seconds to %(hours)d hours.")
                % {"low": low, "hours": TURN_MAX_SECONDS // 3600},
                fields={"length_seconds": [f"{low}–{TURN_MAX_SECONDS}"]},
            )
        return length_seconds
    rules = Campaign.objects.filter(pk=campaign.pk).values_list("rules", flat=True).first()
    minutes = (rules or {}).get("turn_minutes", 30)
    return int(minutes) * 60


@transaction.atomic
def clock_configure(
    *,
    campaign: Campaign,
    actor: User,
    length_seconds: int | None = None,
    mode: str | None = None,
    public_encounters: bool | None = None,
) -> DungeonClock:
    clock = _lock(campaign)
    if public_encounters is not None:
        clock.public_encounters = public_encounters
    if clock.state == ClockState.RUNNING:
        raise Conflict(_("Pause the clock before changing it."), code="clock_running")
    if mode is not None:
        if mode not in ("timer", "rooms"):
            raise Invalid(_("Mode is timer or rooms."), fields={"mode": ["timer, rooms"]})
        clock.mode = mode
    clock.length_seconds = _length_for(campaign, length_seconds)
    clock.save()
    _publish_clock(clock, actor)
    return clock


def _enter_dungeon(clock: DungeonClock, campaign: Campaign, dungeon: str, dice: Dice) -> bool:
    """Rulesets with a dungeon state (Crows) need the party inside before turns can end.
    True when the party has just entered (its turns count from 1 again)."""
    web = web_for(campaign.ruleset)
    if not web.has_dungeon_turns():
        return False
    ruleset = web.rules
    state = clock.ruleset_state or web.campaign_state_default()
    if state.get("in_dungeon"):
        return False
    try:
        outcome = ruleset.resolve(
            "enter_dungeon",
            state,
            dice=dice,
            settings=campaign.rules or None,
            dungeon=(dungeon or campaign.name)[:DUNGEON_NAME_MAX],
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="clock_refused") from exc
    clock.ruleset_state = outcome.state
    publish(
        campaign=campaign,
        kind="turn.entered",
        payload={"dungeon": outcome.state.get("dungeon"), "text": outcome.text.as_dict()},
    )
    return True


@transaction.atomic
def clock_start(
    *, campaign: Campaign, actor: User, dice: Dice | None = None, dungeon: str = ""
) -> DungeonClock:
    """Start (or restart after a stop) the turn clock: turn 1 unless already counting."""
    clock = _lock(campaign)
    if _enter_dungeon(clock, campaign, dungeon, dice or RandomDice()):
        clock.turn = 0  # the rules count a visit's turns from its first one (Crows, Подземелье)
    if clock.state == ClockState.RUNNING:
        raise Conflict(_("The clock is already running."), code="clock_running")
    if clock.state == ClockState.PAUSED:
        raise Conflict(_("The clock is paused: resume it."), code="clock_paused")
    clock.turn = max(clock.turn, 0) + 1
    clock.state = ClockState.RUNNING
    clock.remaining_seconds = None
    if clock.mode == "rooms":
        clock.deadline = None
        clock.rooms_left = (dice or RandomDice()).roll(6)
    else:
        clock.deadline = timezone.now() + timedelta(seconds=clock.length_seconds)
        clock.rooms_left = None
    clock.save()
    _publish_clock(clock, actor)
    _schedule(clock)
    return clock


@transaction.atomic
def clock_pause(*, campaign: Campaign, actor: User) -> DungeonClock:
    clock = _lock(campaign)
    if clock.state != ClockState.RUNNING:
        raise Conflict(_("The clock is not running."), code="clock_not_running")
    if clock.deadline is not None:
        clock.remaining_seconds = max(0.0, (clock.deadline - timezone.now()).total_seconds())
    clock.deadline = None
    clock.state = ClockState.PAUSED
    clock.save()
    _publish_clock(clock, actor)
    return clock


@transaction.atomic
def clock_resume(*, campaign: Campaign, actor: User) -> DungeonClock:
    clock = _lock(campaign)
    if clock.state != ClockState.PAUSED:
        raise Conflict(_("The clock is not paused."), code="clock_not_paused")
    clock.state = ClockState.RUNNING
    if clock.mode == "timer":
        remaining = clock.remaining_seconds or clock.length_seconds
        clock.deadline = timezone.now() + timedelta(seconds=remaining)
    clock.remaining_seconds = None
    clock.save()
    _publish_clock(clock, actor)
    _schedule(clock)
    return clock


@transaction.atomic
def clock_stop(*, campaign: Campaign, actor: User) -> DungeonClock:
    clock = _lock(campaign)
    clock.state = ClockState.STOPPED
    clock.deadline = None
    clock.remaining_seconds = None
    clock.save()
    _publish_clock(clock, actor)
    return clock


@transaction.atomic
def clock_room_explored(*, campaign: Campaign, actor: User, dice: Dice | None = None) -> bool:
    """Rooms mode: one room done; the turn ends when the rolled number of rooms is explored."""
    clock = _lock(campaign)
    if clock.mode != "rooms" or clock.state != ClockState.RUNNING:
        raise Conflict(_("The clock is not counting rooms."), code="clock_not_rooms")
    clock.rooms_left = max(0, (clock.rooms_left or 1) - 1)
    clock.save()
    if clock.rooms_left > 0:
        _publish_clock(clock, actor)
        return False
    _end_turn_locked(clock, actor=actor, dice=dice or RandomDice())
    return True


ENDED, EARLY, STALE = "ended", "early", "stale"


def end_turn(campaign_id: int, turn: int, *, dice: Dice | None = None) -> str:
    """Called by the task and the sweep: ``ended`` if this call ended the turn, ``early`` if
    the turn is current but not yet due (re-enqueue), ``stale`` otherwise (do nothing)."""
    with transaction.atomic():
        clock = DungeonClock.objects.select_for_update().filter(campaign_id=campaign_id).first()
        # The guard: only the current, running turn whose deadline has passed. Everything
        # else (a duplicate, a stale task after pause/resume, an early redelivery) is a no-op.
        if clock is None or clock.turn != turn or clock.state != ClockState.RUNNING:
            return STALE
        if clock.deadline is None:
            return STALE
        if clock.deadline > timezone.now():
            return EARLY
        _end_turn_locked(clock, actor=None, dice=dice or RandomDice())
        return ENDED


def _end_turn_locked(
    clock: DungeonClock, *, actor: User | None, dice: Dice, procedure_name: str = "end_dungeon_turn"
) -> None:
    from vtt.characters.models import Character
    from vtt.characters.services import record_procedure_result

    campaign = Campaign.objects.get(pk=clock.campaign_id)
    web = web_for(campaign.ruleset)
    ended_turn = clock.turn
    procedure = getattr(web.rules, procedure_name) if web.has_dungeon_turns() else None
    results: list[dict[str, Any]] = []
    if procedure is not None:
        characters = list(
            Character.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        )
        state = clock.ruleset_state or web.campaign_state_default()
        # The clock row holds the turn number; the ruleset's copy follows it, so the log, the
        # panel and the rules never disagree about which turn ended.
        state = {**state, "turn": ended_turn}
        outcome = procedure(
            state, [c.state for c in characters], dice=dice, settings=campaign.rules or None
        )
        clock.ruleset_state = outcome.campaign
        for character, new_state in zip(characters, outcome.characters, strict=True):
            record_procedure_result(character, new_state, reason=f"dungeon_turn:{ended_turn}")
        for event in outcome.events:
            index = event.get("character")
            hidden = index is not None and characters[index].hidden
            results.append(event)
            payload = {**event, "turn": event.get("turn", ended_turn), "ended_turn": ended_turn}
            kind = f"turn.{event.get('type', 'event')}"
            secret_kind = (
                event.get("type") in web.secret_turn_results and not clock.public_encounters
            )
            if hidden or secret_kind:
                publish(campaign=campaign, kind=kind, payload=payload, visibility=V.BLIND)
                continue
            secret = {
                k: payload[k]
                for k in web.secret_turn_fields
                if k in payload and not clock.public_encounters
            }
            if secret:
                # Players get the result without the referee's fields, the referee the full
                # copy right after it: each receives only its own (``audience``).
                public = {k: v for k, v in payload.items() if k not in secret}
                publish(
                    campaign=campaign,
                    kind=kind,
                    payload={**public, "audience": "players"},
                    visibility=V.PLAYERS,
                )
                publish(
                    campaign=campaign,
                    kind=kind,
                    payload={**payload, "audience": "referee"},
                    visibility=V.BLIND,
                )
            else:
                publish(campaign=campaign, kind=kind, payload=payload)
    clock.turns_ended += 1
    clock.turn = ended_turn + 1
    if clock.mode == "rooms":
        clock.rooms_left = dice.roll(6)
        clock.deadline = None
    else:
        # From the old deadline, not from now: turns do not drift when the worker is late.
        base = clock.deadline or timezone.now()
        clock.deadline = base + timedelta(seconds=clock.length_seconds)
    clock.save()
    publish(
        campaign=campaign,
        kind="turn.ended",
        payload={
            "turn": ended_turn,
            "next": clock_snapshot(clock),
            "results": len(results),
            "rest": procedure_name == "start_rest",
        },
        actor=actor,
    )
    _schedule(clock)


def overdue_turns(now=None) -> list[tuple[int, int]]:
    now = now or timezone.now()
    return list(
        DungeonClock.objects.filter(
            state=ClockState.RUNNING, deadline__isnull=False, deadline__lte=now
        ).values_list("campaign_id", "turn")
    )


def sweep() -> int:
    """End every turn whose deadline passed while no worker was there to do it."""
    ended = 0
    for campaign_id, turn in overdue_turns():
        try:
            ended += end_turn(campaign_id, turn) == ENDED
        except Exception:
            log.exception("sweep failed for campaign %s turn %s", campaign_id, turn)
    return ended


def rearm(now=None) -> int:
    """Enqueue again the end of every running turn that is not due yet.

    A worker calls it whenever it (re)connects to the broker (vtt/core/worker.py): the ETA
    task of a running turn can be lost or stuck without it. A worker killed with the task
    reserved leaves it unacknowledged, invisible until the broker's visibility timeout (hours),
    and a Redis restart without persistence loses the queue. A duplicate is harmless: the
    task ends the turn only if it is still current and due.
    """
    from vtt.table.tasks import end_turn

    now = now or timezone.now()
    running = list(
        DungeonClock.objects.filter(
            state=ClockState.RUNNING, deadline__isnull=False, deadline__gt=now
        ).values_list("campaign_id", "turn", "deadline")
    )
    for campaign_id, turn, deadline in running:
        end_turn.apply_async(args=[campaign_id, turn], eta=deadline)
    return len(running)


@transaction.atomic
def clock_rest(*, campaign: Campaign, actor: User, dice: Dice | None = None) -> DungeonClock:
    """Starting a rest ends the current turn without an encounter check (Crows «Отдых»)."""
    clock = _lock(campaign)
    if clock.state != ClockState.RUNNING:
        raise Conflict(_("The clock is not running."), code="clock_not_running")
    name = web_for(campaign.ruleset).rest_procedure()
    if clock.mode == "timer":
        clock.deadline = timezone.now()  # the next turn starts now
    _end_turn_locked(clock, actor=actor, dice=dice or RandomDice(), procedure_name=name)
    return clock


@transaction.atomic
def clock_conspicuous(
    *, campaign: Campaign, actor: User, reason: str = "", dice: Dice | None = None
) -> DungeonClock:
    """A conspicuous action makes an extra encounter check (Crows «Встречи в подземелье»)."""
    clock = _lock(campaign)
    web = web_for(campaign.ruleset)
    if clock.state != ClockState.RUNNING or not web.has_dungeon_turns():
        raise Conflict(_("No dungeon turn is running."), code="clock_not_running")
    ruleset = web.rules
    state = {**(clock.ruleset_state or web.campaign_state_default()), "turn": clock.turn}
    try:
        outcome = ruleset.resolve(
            "encounter_check",
            state,
            dice=dice or RandomDice(),
            settings=campaign.rules or None,
            reason=reason[:REASON_MAX],
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="clock_refused") from exc
    clock.ruleset_state = outcome.state
    clock.save(update_fields=["ruleset_state", "updated_at"])
    # The same shape as the end-of-turn check (roll, threshold, result, due turn at the top):
    # the log draws both with one line.
    (check,) = outcome.details["events"]
    publish(
        campaign=campaign,
        kind="turn.encounter_check",
        payload={
            **check,
            "type": "encounter_check",
            "extra": True,
            "reason": reason[:REASON_MAX],
            "text": outcome.text.as_dict(),
            "turn": clock.turn,
            "ended_turn": clock.turn,
        },
        actor=actor,
        visibility=V.EVERYONE if clock.public_encounters else V.BLIND,
    )
    return clock
