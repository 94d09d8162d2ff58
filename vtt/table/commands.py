"""The table's actions as commands (vtt/core/commands.py): rolls, chat, the initiative tracker
and the dungeon-turn clock. The API views in ``api.py`` and the table socket both run these."""

from __future__ import annotations

from typing import Any

from rest_framework import status

from systems.core.notation import MAX_CHARS as NOTATION_MAX
from vtt.campaigns.models import Role
from vtt.core import serializers
from vtt.core.commands import Answer, Call, command
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize
from vtt.table import clock, services
from vtt.table.events import wire
from vtt.table.models import USER_CHOICES, DungeonClock, Visibility

ROLL_BUCKET = TokenBucket("roll", burst=10, per_second=2)
CHAT_BUCKET = TokenBucket("chat", burst=20, per_second=2)


class RollRequest(serializers.Serializer):
    notation = serializers.CharField(max_length=NOTATION_MAX, trim_whitespace=False)
    visibility = serializers.ChoiceField(choices=USER_CHOICES, default=Visibility.EVERYONE)
    target_id = serializers.IntegerField(required=False, allow_null=True)
    label = serializers.CharField(max_length=services.LABEL_MAX, required=False, allow_blank=True)


class ChatRequest(serializers.Serializer):
    text = serializers.CharField(max_length=services.CHAT_MAX)
    visibility = serializers.ChoiceField(choices=USER_CHOICES, default=Visibility.EVERYONE)
    target_id = serializers.IntegerField(required=False, allow_null=True)


def roll_response(roll, *, role: str = Role.REFEREE) -> dict:
    """The roll for its roller. A blind roll is not shown even to them (only the referee),
    so they get its id and commitment."""
    if roll.visibility == Visibility.BLIND and role != Role.REFEREE:
        return {
            "roll_id": roll.pk,
            "notation": roll.notation,
            "label": roll.label,
            "visibility": roll.visibility,
            "commitment": roll.commitment,
        }
    data = services.roll_payload(roll, roll.actor)
    data["visibility"] = roll.visibility
    if roll.commitment:
        data["commitment"] = roll.commitment
    return data


class EntryRequest(serializers.Serializer):
    name = serializers.CharField(max_length=services.ENTRY_NAME_MAX)
    value = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-services.ENTRY_VALUE_MAX,
        max_value=services.ENTRY_VALUE_MAX,
    )
    hidden = serializers.BooleanField(required=False, default=False)


class EntryUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=services.ENTRY_NAME_MAX, required=False)
    value = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-services.ENTRY_VALUE_MAX,
        max_value=services.ENTRY_VALUE_MAX,
    )
    hidden = serializers.BooleanField(required=False)


class OrderRequest(serializers.Serializer):
    entry_ids = serializers.ListField(
        child=serializers.IntegerField(), required=False, max_length=services.INITIATIVE_MAX_ENTRIES
    )
    by_value = serializers.BooleanField(required=False, default=False)


class StepRequest(serializers.Serializer):
    direction = serializers.ChoiceField(choices=["next", "previous"])


class ResetRequest(serializers.Serializer):
    clear = serializers.BooleanField(required=False, default=False)


class ClockRequest(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=["start", "pause", "resume", "stop", "configure", "room", "rest", "encounter"]
    )
    length_seconds = serializers.IntegerField(required=False, allow_null=True)
    mode = serializers.ChoiceField(choices=["timer", "rooms"], required=False)
    dungeon = serializers.CharField(
        max_length=clock.DUNGEON_NAME_MAX, required=False, allow_blank=True
    )
    public_encounters = serializers.BooleanField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(max_length=clock.REASON_MAX, required=False, allow_blank=True)


# --- rolls and chat ------------------------------------------------------------------------


@command("roll", cache_answers=False)  # the roll keeps its own key (a unique column)
def roll(call: Call) -> Answer:
    """Roll dice notation on the server."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(RollRequest)
    made, created = services.roll_create(
        campaign=membership.campaign,
        actor=call.user,
        notation=data["notation"],
        visibility=data["visibility"],
        target_id=data.get("target_id"),
        label=data.get("label", ""),
        idempotency_key=call.key,
        before_roll=lambda: ROLL_BUCKET.hit(str(call.user.pk)),
    )
    return Answer(
        roll_response(made, role=membership.role),
        status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        replayed=not created,
    )


@command("roll.reveal", args={"roll_id": int})
def roll_reveal(call: Call) -> Answer:
    """Reveal a hidden roll to everyone; browsers check it against the commitment."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    return Answer(
        roll_response(
            services.roll_reveal(campaign=membership.campaign, roll_id=call.args["roll_id"])
        )
    )


@command("chat")
def chat(call: Call) -> Answer:
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(ChatRequest)
    CHAT_BUCKET.hit(str(call.user.pk))
    event = services.chat_post(
        campaign=membership.campaign,
        actor=call.user,
        text=data["text"],
        visibility=data["visibility"],
        target_id=data.get("target_id"),
    )
    return Answer(wire(event), status.HTTP_201_CREATED)


# --- initiative ----------------------------------------------------------------------------


def _snapshot(membership: Any, code: int = status.HTTP_200_OK) -> Answer:
    return Answer(
        services.initiative_snapshot(
            membership.campaign_id, include_hidden=membership.role == Role.REFEREE
        ),
        code,
    )


@command("initiative.add")
def initiative_add(call: Call) -> Answer:
    """Add a character or NPC (hidden entries: referee only)."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(EntryRequest)
    services.initiative_add(
        campaign=membership.campaign, actor=call.user, role=membership.role, **data
    )
    return _snapshot(membership, status.HTTP_201_CREATED)


@command("initiative.update", args={"entry_id": int})
def initiative_update(call: Call) -> Answer:
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(EntryUpdate)
    services.initiative_update(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        entry_id=call.args["entry_id"],
        **data,
    )
    return _snapshot(membership)


@command("initiative.remove", args={"entry_id": int})
def initiative_remove(call: Call) -> Answer:
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    services.initiative_remove(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        entry_id=call.args["entry_id"],
    )
    return _snapshot(membership)


@command("initiative.order")
def initiative_order(call: Call) -> Answer:
    """Set the order (every entry once) or sort by value, highest first. Referee only."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    data = call.valid(OrderRequest)
    services.initiative_order(campaign=membership.campaign, actor=call.user, **data)
    return _snapshot(membership)


@command("initiative.step")
def initiative_step(call: Call) -> Answer:
    """Next or previous turn; the round counter follows. Referee only."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    data = call.valid(StepRequest)
    services.initiative_step(
        campaign=membership.campaign,
        actor=call.user,
        direction=1 if data["direction"] == "next" else -1,
    )
    return _snapshot(membership)


@command("initiative.reset")
def initiative_reset(call: Call) -> Answer:
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    data = call.valid(ResetRequest)
    services.initiative_reset(campaign=membership.campaign, actor=call.user, **data)
    return _snapshot(membership)


# --- dungeon-turn clock --------------------------------------------------------------------


@command("clock")
def clock_action(call: Call) -> Answer:
    """Start, pause, resume, stop or configure the clock; `room` marks a room explored in
    rooms mode. Referee only; every change is an event."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    data = call.valid(ClockRequest)
    campaign, actor, action = membership.campaign, call.user, data["action"]
    if action == "configure":
        clock.clock_configure(
            campaign=campaign,
            actor=actor,
            length_seconds=data.get("length_seconds"),
            mode=data.get("mode"),
            public_encounters=data.get("public_encounters"),
        )
    elif action == "rest":
        clock.clock_rest(campaign=campaign, actor=actor)
    elif action == "encounter":
        clock.clock_conspicuous(campaign=campaign, actor=actor, reason=data.get("reason", ""))
    elif action == "start":
        clock.clock_start(campaign=campaign, actor=actor, dungeon=data.get("dungeon", ""))
    elif action == "room":
        clock.clock_room_explored(campaign=campaign, actor=actor)
    else:
        getattr(clock, f"clock_{action}")(campaign=campaign, actor=actor)
    return Answer(clock.clock_snapshot(DungeonClock.objects.get(campaign_id=campaign.pk)))
