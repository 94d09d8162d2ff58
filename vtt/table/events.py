"""Event wire format, visibility rules and the hash chain: shared by the publisher, the HTTP
API and the websocket consumer so all three agree on what a user may see."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import Q, QuerySet

from vtt.campaigns.models import Role
from vtt.table.models import GENESIS_HASH, TableEvent, Visibility


def group_name(campaign_id: int) -> str:
    return f"campaign.{campaign_id}"


def canonical(data: Any) -> str:
    """The one JSON encoding used for hashing (sorted keys, no spaces, UTF-8 kept)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(body)).encode()).hexdigest()


def hash_body(event: TableEvent) -> dict[str, Any]:
    return {
        "campaign": event.campaign_id,
        "seq": event.seq,
        "kind": event.kind,
        "payload": event.payload,
        "actor": event.actor_id,
        "visibility": event.visibility,
        "target": event.target_id,
        "created_at": event.created_at.isoformat(),
    }


def can_see(
    *, visibility: str, actor_id: int | None, target_id: int | None, user_id: int, role: str
) -> bool:
    """Everyone; players (every member but the referee: the players' copy of an event whose
    referee copy is blind); referee-only (the roller sees their own); whisper (sender and
    recipient); blind (the referee only, not even the roller)."""
    if visibility == Visibility.EVERYONE:
        return True
    if visibility == Visibility.PLAYERS:
        return role != Role.REFEREE
    if visibility == Visibility.REFEREE:
        return role == Role.REFEREE or actor_id == user_id
    if visibility == Visibility.WHISPER:
        return user_id in (actor_id, target_id)
    if visibility == Visibility.BLIND:
        return role == Role.REFEREE
    return False


# A players' copy stored before ``Visibility.PLAYERS`` existed (vtt/table/kinds.py refuses new
# ones): the referee's browser would otherwise show the event twice.
# (``has_key`` first: a missing key would make the comparison NULL, and its negation too.)
OLD_PLAYERS_COPY = Q(
    visibility=Visibility.EVERYONE, payload__has_key="audience", payload__audience="players"
)


def visible_filter(*, user_id: int, role: str) -> Q:
    """The same rule as ``can_see`` as a database filter, plus one for logs written before
    the ``players`` visibility: their players' copies are ``everyone`` events marked
    ``audience: "players"``, each next to a blind referee copy, and a referee skips them."""
    whisper = Q(visibility=Visibility.WHISPER) & (Q(actor_id=user_id) | Q(target_id=user_id))
    if role == Role.REFEREE:
        return (
            ~Q(visibility__in=(Visibility.WHISPER, Visibility.PLAYERS)) & ~OLD_PLAYERS_COPY
        ) | whisper
    return (
        Q(visibility__in=(Visibility.EVERYONE, Visibility.PLAYERS))
        | Q(visibility=Visibility.REFEREE, actor_id=user_id)
        | whisper
    )


def visible_events(campaign_id: int, *, user_id: int, role: str) -> QuerySet[TableEvent]:
    return (
        TableEvent.objects.filter(campaign_id=campaign_id)
        .filter(visible_filter(user_id=user_id, role=role))
        .select_related("actor")
        .order_by("seq")
    )


def wire(event: TableEvent, actor_name: str | None = None) -> dict[str, Any]:
    """What a browser receives for an event it may see."""
    if actor_name is None and event.actor_id is not None:
        actor_name = event.actor.display_name
    return {
        "seq": event.seq,
        "kind": event.kind,
        "payload": event.payload,
        "actor": {"id": event.actor_id, "name": actor_name} if event.actor_id else None,
        "visibility": event.visibility,
        "target_id": event.target_id,
        "created_at": event.created_at.isoformat(),
        "hash": event.hash,
    }


def verify_chain(campaign_id: int, *, batch: int = 2000) -> dict[str, Any]:
    """Recompute every hash in order; report the first broken link, if any."""
    prev = GENESIS_HASH
    expected_seq = 1
    count = 0
    qs = TableEvent.objects.filter(campaign_id=campaign_id).order_by("seq")
    for event in qs.iterator(chunk_size=batch):
        problem = None
        if event.seq != expected_seq:
            problem = "gap"
        elif event.prev_hash != prev:
            problem = "prev_hash"
        elif chain_hash(prev, hash_body(event)) != event.hash:
            problem = "hash"
        if problem:
            return {
                "ok": False,
                "count": count,
                "broken_at": event.seq,
                "problem": problem,
                "head": prev,
            }
        prev = event.hash
        expected_seq += 1
        count += 1
    return {"ok": True, "count": count, "broken_at": None, "problem": None, "head": prev}
