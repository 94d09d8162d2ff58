"""Table API: rolls, chat, the event log and the initiative tracker. Writes here, push on the
socket (DESIGN.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.campaigns.models import Role
from vtt.core import serializers
from vtt.core.commands import respond
from vtt.core.errors import Invalid
from vtt.permissions import Action, authorize
from vtt.table import clock, commands, services
from vtt.table.commands import (  # the commands' shapes, for the schema
    ChatRequest,
    ClockRequest,
    EntryRequest,
    EntryUpdate,
    OrderRequest,
    ResetRequest,
    RollRequest,
    StepRequest,
)
from vtt.table.events import verify_chain, visible_events, wire
from vtt.table.models import DungeonClock, EventCursor

EVENTS_PAGE_MAX = 1000


class RollResponse(serializers.Serializer):
    roll_id = serializers.IntegerField()
    notation = serializers.CharField()
    label = serializers.CharField()
    total = serializers.IntegerField(required=False, help_text="Absent for your own blind roll")
    text = serializers.CharField(required=False)
    terms = serializers.ListField(child=serializers.DictField(), required=False)
    visibility = serializers.CharField()
    commitment = serializers.CharField(required=False)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.DictField()
    actor = serializers.DictField(allow_null=True)
    visibility = serializers.CharField()
    target_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    hash = serializers.CharField()


class EventPage(serializers.Serializer):
    events = EventSerializer(many=True)
    cursor = serializers.IntegerField(help_text="Last sequence number covered by this page.")
    head = serializers.IntegerField(help_text="The campaign's latest sequence number.")
    more = serializers.BooleanField()


class ChainReport(serializers.Serializer):
    ok = serializers.BooleanField()
    count = serializers.IntegerField()
    broken_at = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField(allow_null=True)
    head = serializers.CharField()


class Rolls(APIView):
    @extend_schema(
        request=RollRequest,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="A retry with the same key returns the first roll, never a new one.",
            )
        ],
        responses={
            201: RollResponse,
            200: OpenApiResponse(RollResponse, description="Replay of an earlier key"),
            400: OpenApiResponse(description="Bad notation, with a message"),
            429: OpenApiResponse(
                description=f"Rate limited (burst {commands.ROLL_BUCKET.burst}, "
                f"then {commands.ROLL_BUCKET.per_second:g} per second)"
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Roll dice notation on the server (`2d6+1`, `4d6kh3`, `1d6!`, `d%`, `2к6`)."""
        return respond(request, commands.roll, pk=pk)


class RollReveal(APIView):
    @extend_schema(request=None, responses={200: RollResponse})
    def post(self, request: Request, pk: int, roll_id: int) -> Response:
        """Reveal a hidden roll to everyone; browsers check it against the commitment."""
        return respond(request, commands.roll_reveal, pk=pk, roll_id=roll_id)


class Chat(APIView):
    @extend_schema(
        request=ChatRequest,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="A retry with the same key (within a day) posts nothing new.",
            )
        ],
        responses={201: EventSerializer, 200: EventSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        return respond(request, commands.chat, pk=pk)


class Events(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="Return events after this number."),
            OpenApiParameter(
                "before", int, description="Return the latest events before this number instead."
            ),
            OpenApiParameter("limit", int, description=f"At most {EVENTS_PAGE_MAX}."),
        ],
        responses=EventPage,
    )
    def get(self, request: Request, pk: int) -> Response:
        """The events the caller may see, in order. Hidden ones are skipped, so page forward with
        `cursor`, not with the last event's number. With `before`, the page holds the visible
        events just before that number (for "show earlier") and `cursor` is the first one."""
        membership = authorize(request.user, pk, Action.VIEW)
        since = _int_param(request, "since", 0, 0, 2**62)
        before = _int_param(request, "before", 0, 0, 2**62)
        limit = _int_param(request, "limit", 200, 1, EVENTS_PAGE_MAX)
        cursor_row = EventCursor.objects.filter(campaign_id=pk).first()
        head = cursor_row.last_seq if cursor_row else 0
        visible = visible_events(pk, user_id=request.user.pk, role=membership.role)
        if before:
            page = list(visible.filter(seq__lt=before).order_by("-seq")[: limit + 1])
            more = len(page) > limit
            events = list(reversed(page[:limit]))
            cursor = events[0].seq if events else 0
        else:
            events = list(visible.filter(seq__gt=since, seq__lte=head)[: limit + 1])
            more = len(events) > limit
            events = events[:limit]
            cursor = events[-1].seq if more else head
        return Response(
            {"events": [wire(e) for e in events], "cursor": cursor, "head": head, "more": more}
        )


class EventsVerify(APIView):
    @extend_schema(responses=ChainReport)
    def get(self, request: Request, pk: int) -> Response:
        """Recompute the SHA-256 chain over the whole log (hidden events included)."""
        authorize(request.user, pk, Action.VIEW)
        return Response(verify_chain(int(pk)))


# --- initiative ----------------------------------------------------------------------------


class InitiativeSnapshot(serializers.Serializer):
    round = serializers.IntegerField()
    current = serializers.IntegerField(allow_null=True)
    current_hidden = serializers.BooleanField()
    entries = serializers.ListField(child=serializers.DictField())


class Initiative(APIView):
    @extend_schema(responses=InitiativeSnapshot)
    def get(self, request: Request, pk: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(
            services.initiative_snapshot(pk, include_hidden=membership.role == Role.REFEREE)
        )

    @extend_schema(request=EntryRequest, responses={201: InitiativeSnapshot})
    def post(self, request: Request, pk: int) -> Response:
        """Add a character or NPC (hidden entries: referee only)."""
        return respond(request, commands.initiative_add, pk=pk)


class InitiativeEntryDetail(APIView):
    @extend_schema(request=EntryUpdate, responses=InitiativeSnapshot)
    def patch(self, request: Request, pk: int, entry_id: int) -> Response:
        return respond(request, commands.initiative_update, pk=pk, entry_id=entry_id)

    @extend_schema(request=None, responses={200: InitiativeSnapshot})
    def delete(self, request: Request, pk: int, entry_id: int) -> Response:
        return respond(request, commands.initiative_remove, pk=pk, entry_id=entry_id)


class InitiativeOrder(APIView):
    @extend_schema(request=OrderRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        """Set the order (every entry once) or sort by value, highest first. Referee only."""
        return respond(request, commands.initiative_order, pk=pk)


class InitiativeStep(APIView):
    @extend_schema(request=StepRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        """Next or previous turn; the round counter follows. Referee only."""
        return respond(request, commands.initiative_step, pk=pk)


class InitiativeReset(APIView):
    @extend_schema(request=ResetRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        return respond(request, commands.initiative_reset, pk=pk)


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:

    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(f"{name} must be an integer", fields={name: ["integer"]}) from None
    if not low <= value <= high:
        raise Invalid(f"{name} must be between {low} and {high}", fields={name: ["range"]})
    return value


# --- dungeon-turn clock --------------------------------------------------------------------


class ClockSnapshot(serializers.Serializer):
    state = serializers.CharField()
    turn = serializers.IntegerField()
    mode = serializers.CharField()
    length_seconds = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.FloatField(allow_null=True)
    rooms_left = serializers.IntegerField(allow_null=True)
    public_encounters = serializers.BooleanField()
    server_time = serializers.DateTimeField()


class Clock(APIView):
    @extend_schema(responses=ClockSnapshot)
    def get(self, request: Request, pk: int) -> Response:
        authorize(request.user, pk, Action.VIEW)
        row = DungeonClock.objects.filter(campaign_id=pk).first() or DungeonClock(campaign_id=pk)
        return Response(clock.clock_snapshot(row))

    @extend_schema(request=ClockRequest, responses=ClockSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        """Start, pause, resume, stop or configure the clock; `room` marks a room explored in
        rooms mode. Referee only; every change is an event."""
        return respond(request, commands.clock_action, pk=pk)
