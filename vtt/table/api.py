"""Table API: rolls, chat, the event log and the initiative tracker. Writes here, push on the
socket (DESIGN.md)."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.campaigns.models import Role
from vtt.core import serializers
from vtt.core.errors import Invalid
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize
from vtt.table import clock, services
from vtt.table.events import verify_chain, visible_events, wire
from vtt.table.models import USER_CHOICES, DungeonClock, EventCursor, TableEvent, Visibility

ROLL_BUCKET = TokenBucket("roll", burst=10, per_second=2)
CHAT_BUCKET = TokenBucket("chat", burst=20, per_second=2)
EVENTS_PAGE_MAX = 1000


class RollRequest(serializers.Serializer):
    notation = serializers.CharField(max_length=200, trim_whitespace=False)
    visibility = serializers.ChoiceField(choices=USER_CHOICES, default=Visibility.EVERYONE)
    target_id = serializers.IntegerField(required=False, allow_null=True)
    label = serializers.CharField(max_length=120, required=False, allow_blank=True)


class RollResponse(serializers.Serializer):
    roll_id = serializers.IntegerField()
    notation = serializers.CharField()
    label = serializers.CharField()
    total = serializers.IntegerField(required=False, help_text="Absent for your own blind roll")
    text = serializers.CharField(required=False)
    terms = serializers.ListField(child=serializers.DictField(), required=False)
    visibility = serializers.CharField()
    commitment = serializers.CharField(required=False)


class ChatRequest(serializers.Serializer):
    text = serializers.CharField(max_length=services.CHAT_MAX)
    visibility = serializers.ChoiceField(choices=USER_CHOICES, default=Visibility.EVERYONE)
    target_id = serializers.IntegerField(required=False, allow_null=True)


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
            429: OpenApiResponse(description="Rate limited (burst 10, then 2 per second)"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Roll dice notation on the server (`2d6+1`, `4d6kh3`, `1d6!`, `d%`, `2к6`)."""
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(RollRequest, request)
        key = request.headers.get("Idempotency-Key") or None
        roll, created = services.roll_create(
            campaign=membership.campaign,
            actor=request.user,
            notation=data["notation"],
            visibility=data["visibility"],
            target_id=data.get("target_id"),
            label=data.get("label", ""),
            idempotency_key=key,
            before_roll=lambda: ROLL_BUCKET.hit(str(request.user.pk)),
        )
        response = Response(
            roll_response(roll, role=membership.role),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


class RollReveal(APIView):
    @extend_schema(request=None, responses={200: RollResponse})
    def post(self, request: Request, pk: int, roll_id: int) -> Response:
        """Reveal a hidden roll to everyone; browsers check it against the commitment."""
        membership = authorize(request.user, pk, Action.MANAGE)
        roll = services.roll_reveal(campaign=membership.campaign, roll_id=roll_id)
        return Response(roll_response(roll))


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
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(ChatRequest, request)
        key = request.headers.get("Idempotency-Key") or None
        cache_key = f"chat-idem:{pk}:{request.user.pk}:{key}" if key else None
        if key is not None and not 1 <= len(key) <= services.IDEMPOTENCY_KEY_MAX:
            raise Invalid(_("Idempotency-Key must be 1 to 100 characters."), code="bad_key")
        if cache_key and (seq := cache.get(cache_key)):
            event = TableEvent.objects.select_related("actor").get(campaign_id=pk, seq=seq)
            response = Response(wire(event))
            response["Idempotent-Replayed"] = "true"
            return response
        CHAT_BUCKET.hit(str(request.user.pk))
        event = services.chat_post(
            campaign=membership.campaign,
            actor=request.user,
            text=data["text"],
            visibility=data["visibility"],
            target_id=data.get("target_id"),
        )
        if cache_key:
            cache.set(cache_key, event.seq, 24 * 3600)
        return Response(wire(event), status=status.HTTP_201_CREATED)


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


class EntryRequest(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    value = serializers.IntegerField(required=False, allow_null=True, min_value=-999, max_value=999)
    hidden = serializers.BooleanField(required=False, default=False)


class EntryUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False)
    value = serializers.IntegerField(required=False, allow_null=True, min_value=-999, max_value=999)
    hidden = serializers.BooleanField(required=False)


class OrderRequest(serializers.Serializer):
    entry_ids = serializers.ListField(
        child=serializers.IntegerField(), required=False, max_length=100
    )
    by_value = serializers.BooleanField(required=False, default=False)


class StepRequest(serializers.Serializer):
    direction = serializers.ChoiceField(choices=["next", "previous"])


class ResetRequest(serializers.Serializer):
    clear = serializers.BooleanField(required=False, default=False)


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
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(EntryRequest, request)
        services.initiative_add(
            campaign=membership.campaign, actor=request.user, role=membership.role, **data
        )
        return _snapshot(membership, status.HTTP_201_CREATED)


class InitiativeEntryDetail(APIView):
    @extend_schema(request=EntryUpdate, responses=InitiativeSnapshot)
    def patch(self, request: Request, pk: int, entry_id: int) -> Response:
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(EntryUpdate, request)
        services.initiative_update(
            campaign=membership.campaign,
            actor=request.user,
            role=membership.role,
            entry_id=entry_id,
            **data,
        )
        return _snapshot(membership)

    @extend_schema(request=None, responses={200: InitiativeSnapshot})
    def delete(self, request: Request, pk: int, entry_id: int) -> Response:
        membership = authorize(request.user, pk, Action.PLAY)
        services.initiative_remove(
            campaign=membership.campaign,
            actor=request.user,
            role=membership.role,
            entry_id=entry_id,
        )
        return _snapshot(membership)


class InitiativeOrder(APIView):
    @extend_schema(request=OrderRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        """Set the order (every entry once) or sort by value, highest first. Referee only."""
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(OrderRequest, request)
        services.initiative_order(campaign=membership.campaign, actor=request.user, **data)
        return _snapshot(membership)


class InitiativeStep(APIView):
    @extend_schema(request=StepRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        """Next or previous turn; the round counter follows. Referee only."""
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(StepRequest, request)
        services.initiative_step(
            campaign=membership.campaign,
            actor=request.user,
            direction=1 if data["direction"] == "next" else -1,
        )
        return _snapshot(membership)


class InitiativeReset(APIView):
    @extend_schema(request=ResetRequest, responses=InitiativeSnapshot)
    def post(self, request: Request, pk: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(ResetRequest, request)
        services.initiative_reset(campaign=membership.campaign, actor=request.user, **data)
        return _snapshot(membership)


def _snapshot(membership, code: int = status.HTTP_200_OK) -> Response:
    return Response(
        services.initiative_snapshot(
            membership.campaign_id, include_hidden=membership.role == Role.REFEREE
        ),
        status=code,
    )


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


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


class ClockRequest(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=["start", "pause", "resume", "stop", "configure", "room", "rest", "encounter"]
    )
    length_seconds = serializers.IntegerField(required=False, allow_null=True)
    mode = serializers.ChoiceField(choices=["timer", "rooms"], required=False)
    dungeon = serializers.CharField(max_length=100, required=False, allow_blank=True)
    public_encounters = serializers.BooleanField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


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
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(ClockRequest, request)
        campaign, actor, action = membership.campaign, request.user, data["action"]
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
        return Response(clock.clock_snapshot(DungeonClock.objects.get(campaign_id=pk)))
