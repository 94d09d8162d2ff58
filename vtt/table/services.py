"""Every write at the table goes through ``publish`` (DESIGN.md, "One path for table state")."""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from systems.core.dice import RandomDice
from systems.core.notation import NotationError, roll_notation
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.core.commands import check_idempotency_key
from vtt.core.errors import Conflict, Invalid
from vtt.table import kinds
from vtt.table.events import canonical, chain_hash, group_name, hash_body, wire
from vtt.table.models import (
    USER_VISIBILITIES,
    EventCursor,
    InitiativeEntry,
    InitiativeState,
    Roll,
    TableEvent,
)
from vtt.table.models import Visibility as V

log = logging.getLogger(__name__)

CHAT_MAX = 2000
LABEL_MAX = Roll._meta.get_field("label").max_length  # the column is the limit
ENTRY_NAME_MAX = InitiativeEntry._meta.get_field("name").max_length
ENTRY_VALUE_MAX = 999  # an initiative value, either sign
INITIATIVE_MAX_ENTRIES = 100
HIDDEN = (V.REFEREE, V.BLIND)


def publish(
    *,
    campaign: Campaign | int,
    kind: str,
    payload: dict[str, Any],
    actor: User | None = None,
    visibility: str = V.EVERYONE,
    target: User | None = None,
) -> TableEvent:
    """Append an event to the campaign's log and push it to browsers after commit.

    The cursor row lock serialises appends per campaign: sequence numbers have no gaps or
    duplicates and each hash covers the previous one. The push happens only if the transaction
    commits, so a browser never sees an event the database does not have.

    Inside a caller's transaction the append takes no savepoint: the event and the state change
    it reports commit or roll back together (a caller cannot swallow a failed append and commit
    the change without its event), and the two round trips a savepoint costs are saved.
    """
    return publish_many(
        campaign=campaign,
        events=[Draft(kind, payload, visibility, target)],
        actor=actor,
    )[0]


@dataclass(frozen=True)
class Draft:
    """One event for ``publish_many``."""

    kind: str
    payload: dict[str, Any]
    visibility: str = V.EVERYONE
    target: User | None = None


def publish_many(
    *, campaign: Campaign | int, events: list[Draft], actor: User | None = None
) -> list[TableEvent]:
    """Append several events of one action (a token's referee and player copies) under one
    cursor lock: consecutive sequence numbers, one insert, one cursor update."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    if not events:
        return []
    for draft in events:
        kinds.validate(draft.kind, draft.payload, draft.visibility, has_target=bool(draft.target))
    with transaction.atomic(savepoint=False):
        rows = event_rows(campaign_id, _lock_cursor(campaign_id), events, actor)
        TableEvent.objects.bulk_create(rows)
        EventCursor.objects.filter(campaign_id=campaign_id).update(
            last_seq=rows[-1].seq, last_hash=rows[-1].hash
        )
        messages = group_messages(rows, actor)
        transaction.on_commit(lambda: push(campaign_id, together(messages)))
    return rows


def event_rows(
    campaign_id: int, head: tuple[int, str], events: list[Draft], actor: User | None
) -> list[TableEvent]:
    """The new events after ``head`` (the locked cursor's last sequence number and hash), each
    hash over the one before."""
    last_seq, last_hash = head
    rows: list[TableEvent] = []
    now = timezone.now()
    for draft in events:
        event = TableEvent(
            campaign_id=campaign_id,
            seq=last_seq + 1,
            kind=draft.kind,
            payload=draft.payload,
            actor=actor,
            visibility=draft.visibility,
            target=draft.target,
            created_at=now,
            prev_hash=last_hash,
        )
        event.hash = chain_hash(last_hash, hash_body(event))
        last_seq, last_hash = event.seq, event.hash
        rows.append(event)
    return rows


def group_messages(rows: list[TableEvent], actor: User | None) -> list[dict[str, Any]]:
    name = actor.display_name if actor else None
    return [group_message(event, name) for event in rows]


def _lock_cursor(campaign_id: int) -> tuple[int, str]:
    """Lock the campaign's cursor row and return its last sequence number and hash (the row is
    created on the campaign's first event; a concurrent creator makes get_or_create re-read)."""
    locked = EventCursor.objects.select_for_update().filter(campaign_id=campaign_id)
    head = locked.values_list("last_seq", "last_hash").first()
    if head is None:
        EventCursor.objects.get_or_create(campaign_id=campaign_id)
        head = locked.values_list("last_seq", "last_hash").first()
    return head


def group_message(event: TableEvent, actor_name: str | None) -> dict[str, Any]:
    """Serialise once; consumers only filter by these fields and forward ``frame`` verbatim."""
    return {
        "type": "table.event",
        "seq": event.seq,
        "visibility": event.visibility,
        "actor_id": event.actor_id,
        "target_id": event.target_id,
        "frame": json.dumps(wire(event, actor_name), ensure_ascii=False),
    }


def together(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The events of one append as one channel-layer message: a token move's referee and
    players' copies cost one fan-out to the table's sockets, not two."""
    if len(messages) == 1:
        return messages[0]
    return {"type": "table.events", "events": messages}


def push(campaign_id: int, message: dict[str, Any]) -> None:
    """Best effort: if the channel layer is down the event is still in the log, and browsers
    get it from the replay on reconnect or on the next gap."""
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(campaign_id), message)
    except Exception:
        seq = message.get("seq") or [m["seq"] for m in message.get("events", [])]
        log.exception("push of event %s to campaign %s failed", seq, campaign_id)


def broadcast(campaign_id: int, message: dict[str, Any]) -> None:
    """A control message to the campaign's sockets (not an event: nothing to replay)."""
    push(campaign_id, message)


# --- rolls ---------------------------------------------------------------------------------


def _check_visibility(campaign: Campaign, visibility: str, target_id: int | None) -> User | None:
    if visibility not in USER_VISIBILITIES:
        raise Invalid(
            _("Unknown visibility “%(v)s”.") % {"v": visibility},
            fields={"visibility": [", ".join(USER_VISIBILITIES)]},
        )
    if visibility != V.WHISPER:
        return None
    member = (
        Membership.objects.select_related("user")
        .filter(campaign=campaign, user_id=target_id)
        .first()
        if target_id
        else None
    )
    if member is None:
        raise Invalid(
            _("A whisper needs a recipient who is in this campaign."),
            fields={"target_id": [_("Choose a member of the campaign.")]},
        )
    return member.user


def roll_for_key(*, campaign: Campaign, actor: User, idempotency_key: str | None) -> Roll | None:
    if not idempotency_key:
        return None
    return Roll.objects.filter(
        campaign_id=campaign.pk, actor_id=actor.pk, idempotency_key=idempotency_key
    ).first()


def roll_create(
    *,
    campaign: Campaign,
    actor: User,
    notation: str,
    visibility: str = V.EVERYONE,
    target_id: int | None = None,
    label: str = "",
    idempotency_key: str | None = None,
    dice=None,
    before_roll: Callable[[], None] | None = None,
) -> tuple[Roll, bool]:
    """Roll free notation on the server. Returns ``(roll, created)``; a repeated
    ``idempotency_key`` returns the first roll and rolls nothing. ``before_roll`` runs only
    when a new roll is about to be made (the views charge the rate limit there, so a replay
    costs nothing and the key is looked up once)."""
    check_idempotency_key(idempotency_key)
    existing = roll_for_key(campaign=campaign, actor=actor, idempotency_key=idempotency_key)
    if existing is not None:
        return existing, False
    if before_roll is not None:
        before_roll()
    target = _check_visibility(campaign, visibility, target_id)
    label = clean_label(label)
    try:
        result = roll_notation(notation, dice=dice or RandomDice())
    except NotationError as exc:
        message = exc.ru if (get_language() or "ru").startswith("ru") else exc.en
        raise Invalid(message, code=f"notation_{exc.code}", fields={"notation": [message]}) from exc
    try:
        with transaction.atomic():
            roll = new_roll(campaign, actor, result, label, visibility, target, idempotency_key)
            roll.save(force_insert=True)
            payload = roll_payload(roll, actor)
            if visibility in HIDDEN:
                roll.salt = secrets.token_hex(16)
                preimage = roll_preimage(roll, payload)
                roll.commitment = hashlib.sha256(preimage.encode()).hexdigest()
                roll.save(update_fields=["salt", "commitment"])
                payload["commitment"] = roll.commitment
            publish(
                campaign=campaign,
                kind="roll",
                payload=payload,
                actor=actor,
                visibility=visibility,
                target=target,
            )
            if visibility in HIDDEN:
                publish(
                    campaign=campaign,
                    kind="roll.hidden",
                    payload={
                        "roll_id": roll.pk,
                        "commitment": roll.commitment,
                        "visibility": visibility,
                    },
                    actor=actor,
                    visibility=V.EVERYONE,
                )
    except IntegrityError:
        # Two retries with the same key raced; the first one's roll is the answer.
        existing = roll_for_key(campaign=campaign, actor=actor, idempotency_key=idempotency_key)
        if existing is None:
            raise
        return existing, False
    return roll, True


def clean_label(label: str | None) -> str:
    return " ".join((label or "").split())[:LABEL_MAX]


def new_roll(
    campaign: Campaign,
    actor: User,
    result: Any,
    label: str,
    visibility: str,
    target: User | None,
    idempotency_key: str | None,
) -> Roll:
    """The unsaved roll row."""
    return Roll(
        campaign=campaign,
        actor=actor,
        notation=result.notation,
        label=label,
        result=result.as_dict(),
        total=result.total,
        visibility=visibility,
        target=target,
        idempotency_key=idempotency_key,
    )


def roll_payload(roll: Roll, actor: User) -> dict[str, Any]:
    return {
        "roll_id": roll.pk,
        "notation": roll.notation,
        "label": roll.label,
        "total": roll.total,
        "text": roll.result.get("text", ""),
        "terms": roll.result.get("terms", []),
        "actor_name": actor.display_name,
    }


def roll_preimage(roll: Roll, payload: dict[str, Any] | None = None) -> str:
    """The exact text whose SHA-256 is the commitment: the roll plus a secret salt. Browsers
    hash the revealed text themselves and show the roll parsed from that same text."""
    payload = payload or roll_payload(roll, roll.actor)
    body = {k: v for k, v in payload.items() if k != "commitment"}
    return canonical({"roll": body, "salt": roll.salt})


@transaction.atomic
def roll_reveal(*, campaign: Campaign, roll_id: int) -> Roll:
    roll = (
        Roll.objects.select_for_update()
        .select_related("actor")
        .filter(campaign=campaign, pk=roll_id)
        .first()
    )
    if roll is None:
        raise Invalid(_("No such roll in this campaign."), code="no_roll")
    if roll.visibility not in HIDDEN:
        raise Conflict(_("This roll was never hidden."), code="not_hidden")
    if roll.revealed_at is not None:
        raise Conflict(_("This roll is already revealed."), code="already_revealed")
    roll.revealed_at = timezone.now()
    roll.save(update_fields=["revealed_at"])
    publish(
        campaign=campaign,
        kind="roll.reveal",
        payload={
            "roll_id": roll.pk,
            "commitment": roll.commitment,
            "preimage": roll_preimage(roll),
        },
        actor=roll.actor,
        visibility=V.EVERYONE,
    )
    return roll


# --- chat --------------------------------------------------------------------------------------


def chat_post(
    *,
    campaign: Campaign,
    actor: User,
    text: str,
    visibility: str = V.EVERYONE,
    target_id: int | None = None,
) -> TableEvent:
    text = (text or "").strip()
    if not text:
        raise Invalid(_("Write something first."), fields={"text": [_("Required.")]})
    if len(text) > CHAT_MAX:
        raise Invalid(
            _("A message is at most %(max)d characters.") % {"max": CHAT_MAX},
            fields={"text": [str(CHAT_MAX)]},
        )
    target = _check_visibility(campaign, visibility, target_id)
    return publish(
        campaign=campaign,
        kind="chat",
        payload={"text": text, "actor_name": actor.display_name},
        actor=actor,
        visibility=visibility,
        target=target,
    )


# --- initiative ----------------------------------------------------------------------------


def initiative_snapshot(campaign_id: int, *, include_hidden: bool) -> dict[str, Any]:
    state = InitiativeState.objects.filter(campaign_id=campaign_id).first()
    entries = list(InitiativeEntry.objects.filter(campaign_id=campaign_id))
    current_id = state.current_id if state else None
    shown = [e for e in entries if include_hidden or not e.hidden]
    current_hidden = bool(
        current_id and not include_hidden and any(e.pk == current_id and e.hidden for e in entries)
    )
    return {
        "round": state.round if state else 0,
        "current": None if current_hidden else current_id,
        "current_hidden": current_hidden,
        "entries": [
            {
                "id": e.pk,
                "name": e.name,
                "value": e.value,
                "hidden": e.hidden,
                "owner_id": e.owner_id,
            }
            for e in shown
        ],
    }


def _publish_initiative(campaign: Campaign, actor: User) -> None:
    """One copy per audience: with hidden entries, the players' snapshot without them
    (``players``) and the referee's full one (``blind``); otherwise one copy for everyone."""
    public = initiative_snapshot(campaign.pk, include_hidden=False)
    if not InitiativeEntry.objects.filter(campaign=campaign, hidden=True).exists():
        publish(campaign=campaign, kind="initiative", payload=public, actor=actor)
        return
    full = initiative_snapshot(campaign.pk, include_hidden=True)
    drafts = [
        Draft("initiative", {**public, "audience": "players"}, V.PLAYERS),
        Draft("initiative", {**full, "audience": "referee"}, V.BLIND),
    ]
    publish_many(campaign=campaign, events=drafts, actor=actor)


def _lock_initiative(campaign: Campaign) -> InitiativeState:
    state, _created = InitiativeState.objects.select_for_update().get_or_create(campaign=campaign)
    return state


def _clean_entry_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name or len(name) > ENTRY_NAME_MAX:
        raise Invalid(
            _("A name of 1 to %(max)d characters.") % {"max": ENTRY_NAME_MAX},
            fields={"name": [_("1–%(max)d characters.") % {"max": ENTRY_NAME_MAX}]},
        )
    return name


def _clean_entry_value(value: int | None) -> int | None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or abs(value) > ENTRY_VALUE_MAX
    ):
        raise Invalid(
            _("An initiative value is a whole number from -%(max)d to %(max)d.")
            % {"max": ENTRY_VALUE_MAX},
            fields={"value": [str(ENTRY_VALUE_MAX)]},
        )
    return value


@transaction.atomic
def initiative_add(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    name: str,
    value: int | None = None,
    hidden: bool = False,
) -> InitiativeEntry:
    _lock_initiative(campaign)
    if hidden and role != Role.REFEREE:
        raise Invalid(_("Only the referee adds hidden entries."), code="hidden_referee_only")
    if InitiativeEntry.objects.filter(campaign=campaign).count() >= INITIATIVE_MAX_ENTRIES:
        raise Conflict(
            _("At most %(max)d entries in the initiative.") % {"max": INITIATIVE_MAX_ENTRIES},
            code="too_many_entries",
        )
    last = InitiativeEntry.objects.filter(campaign=campaign).order_by("-position").first()
    entry = InitiativeEntry.objects.create(
        campaign=campaign,
        name=_clean_entry_name(name),
        value=_clean_entry_value(value),
        hidden=hidden,
        owner=actor,
        position=(last.position + 1) if last else 0,
    )
    _publish_initiative(campaign, actor)
    return entry


def _entry_for(campaign: Campaign, entry_id: int, actor: User, role: str) -> InitiativeEntry:
    entry = InitiativeEntry.objects.filter(campaign=campaign, pk=entry_id).first()
    if entry is None or (entry.hidden and role != Role.REFEREE):
        raise Invalid(_("No such entry."), code="no_entry")
    if role != Role.REFEREE and entry.owner_id != actor.pk:
        raise Conflict(_("Players change only their own entries."), code="not_owner")
    return entry


@transaction.atomic
def initiative_update(
    *, campaign: Campaign, actor: User, role: str, entry_id: int, **changes: Any
) -> InitiativeEntry:
    _lock_initiative(campaign)
    entry = _entry_for(campaign, entry_id, actor, role)
    if "name" in changes:
        entry.name = _clean_entry_name(changes["name"])
    if "value" in changes:
        entry.value = _clean_entry_value(changes["value"])
    if "hidden" in changes:
        if role != Role.REFEREE:
            raise Invalid(_("Only the referee hides entries."), code="hidden_referee_only")
        entry.hidden = bool(changes["hidden"])
    entry.save()
    _publish_initiative(campaign, actor)
    return entry


@transaction.atomic
def initiative_remove(*, campaign: Campaign, actor: User, role: str, entry_id: int) -> None:
    state = _lock_initiative(campaign)
    entry = _entry_for(campaign, entry_id, actor, role)
    if state.current_id == entry.pk:
        state.current = None
        state.save(update_fields=["current"])
    entry.delete()
    _publish_initiative(campaign, actor)


@transaction.atomic
def initiative_order(
    *,
    campaign: Campaign,
    actor: User,
    entry_ids: list[int] | None = None,
    by_value: bool = False,
) -> None:
    """Set the order explicitly, or sort by value (highest first, ties keep their order)."""
    _lock_initiative(campaign)
    entries = list(InitiativeEntry.objects.filter(campaign=campaign))
    if by_value:
        entries.sort(key=lambda e: -(e.value if e.value is not None else -(10**9)))
    else:
        ids = list(entry_ids or [])
        if sorted(ids) != sorted(e.pk for e in entries):
            raise Invalid(
                _("The order must list every entry exactly once."),
                code="bad_order",
                fields={"entry_ids": [_("Every entry exactly once.")]},
            )
        by_id = {e.pk: e for e in entries}
        entries = [by_id[i] for i in ids]
    for position, entry in enumerate(entries):
        if entry.position != position:
            entry.position = position
            entry.save(update_fields=["position"])
    _publish_initiative(campaign, actor)


@transaction.atomic
def initiative_step(*, campaign: Campaign, actor: User, direction: int) -> InitiativeState:
    """Next (+1) or previous (-1) turn; passing the end starts a new round."""
    state = _lock_initiative(campaign)
    entries = list(InitiativeEntry.objects.filter(campaign=campaign))
    if not entries:
        raise Conflict(_("The initiative is empty."), code="empty_initiative")
    ids = [e.pk for e in entries]
    if state.current_id not in ids:
        index = 0 if direction > 0 else len(ids) - 1
        if state.round == 0 or (direction > 0 and state.current_id is None):
            state.round = max(state.round, 1)
    else:
        index = ids.index(state.current_id) + direction
        if index >= len(ids):
            index, state.round = 0, state.round + 1
        elif index < 0:
            if state.round <= 1:
                index = 0
            else:
                index, state.round = len(ids) - 1, state.round - 1
    state.current_id = ids[index]
    state.save()
    _publish_initiative(campaign, actor)
    return state


@transaction.atomic
def initiative_reset(*, campaign: Campaign, actor: User, clear: bool = False) -> None:
    state = _lock_initiative(campaign)
    state.round, state.current = 0, None
    state.save()
    if clear:
        InitiativeEntry.objects.filter(campaign=campaign).delete()
    _publish_initiative(campaign, actor)
