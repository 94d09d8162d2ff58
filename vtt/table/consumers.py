"""The table socket. It authorises, replays what a browser missed, forwards live events the
user may see, in order, exactly once, and runs the table's actions sent as ``command`` frames
through the same commands the HTTP API runs (vtt/core/commands.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from vtt.accounts.middleware import socket_language
from vtt.core import commands, jsonsafe
from vtt.core.middleware import MAX_ID
from vtt.core.outage import BREAKER, DatabaseDown, is_unavailable, warn
from vtt.permissions import Action, can, membership_for
from vtt.table.events import can_see, group_name, visible_events, wire
from vtt.table.models import EventCursor

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 16 * 1024
REPLAY_BATCH = 500
CLOSE_NOT_MEMBER = 4403
CLOSE_TOO_MANY = 4429


class TableConsumer(AsyncWebsocketConsumer):
    slot_task: asyncio.Task | None = None
    group: str | None = None
    cleaned_up = False  # disconnect() left the group and released the slot

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Clean up however the socket ends. Channels skips ``disconnect`` when a handler or
        the channel layer raises (PostgreSQL or Redis down, see vtt/core/outage.py): the
        slot task would run on for ever, and the group would keep sending to a channel
        nobody reads until the group entry expires (a day)."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.slot_task is not None:
                self.slot_task.cancel()
            if self.group is not None and not self.cleaned_up:
                try:
                    await self.channel_layer.group_discard(self.group, self.channel_name)
                    await database_sync_to_async(_release_slot)(self.slot, self.conn_id)
                except Exception as exc:  # Redis may be the service that is down
                    warn("table socket cleanup", exc)

    async def connect(self) -> None:
        self.ready = False
        self.buffer: list[dict[str, Any]] = []
        self.cursor = 0  # the last event of the log this socket has dealt with, seen or not
        self.sent = 0  # the position the browser has: the last event or replay cursor sent
        self.slot_task: asyncio.Task | None = None
        self.group: str | None = None
        self.conn_id = secrets.token_hex(6)
        user = self.scope.get("user")
        # A page: the user's saved language; a script: its Accept-Language (one rule for the
        # API and the socket, vtt/accounts/middleware.py).
        self.language = socket_language(self.scope)
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        membership = (
            await database_sync_to_async(membership_for)(user, self.campaign_id)
            if self.campaign_id <= MAX_ID  # a bigger id names nothing (and overflows the query)
            else None
        )
        # Accept first so the browser receives the close code (a refused handshake has none).
        await self.accept()
        if membership is None or not can(membership, Action.VIEW):
            await self.close(code=CLOSE_NOT_MEMBER)
            return
        self.user_id = user.pk
        self.role = membership.role
        self.user_info = {"id": user.pk, "name": user.display_name, "role": membership.role}
        self.slot = await database_sync_to_async(_claim_slot)(user.pk, self.conn_id)
        if self.slot is None:
            await self._error("too_many_sockets", _("Too many open tables for this account."))
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.group = group_name(self.campaign_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send({"type": "welcome", "user": self.user_info, "conn": self.conn_id})
        self.slot_task = asyncio.create_task(self._keep_slot_forever())

    async def disconnect(self, code: int) -> None:
        if self.slot_task:
            self.slot_task.cancel()
        if self.group:
            self.cleaned_up = True
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                await self._group(
                    {"type": "presence.leave", "conn": self.conn_id, "user": self.user_info}
                )
                await database_sync_to_async(_release_slot)(self.slot, self.conn_id)
            except Exception as exc:
                # Redis down: the group entry and the slot expire on their own.
                if not is_unavailable(exc):
                    raise
                warn("table socket disconnect", exc)

    # --- from the browser ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode()) > MAX_FRAME_BYTES:
            await self._error(
                "too_large",
                _("Frames are limited to %(n)d bytes.") % {"n": MAX_FRAME_BYTES},
            )
            return
        try:
            frame = jsonsafe.loads(raw)
        except jsonsafe.NotFinite:
            await self._error("bad_number", jsonsafe.NOT_FINITE)
            return
        except jsonsafe.BadText:
            await self._error("bad_text", jsonsafe.BAD_TEXT)
            return
        except ValueError:
            await self._error("bad_json", _("The frame is not valid JSON."))
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._error("bad_frame", _("A frame is a JSON object with a string 'type'."))
            return
        kind = frame["type"]
        if kind in ("hello", "replay") and BREAKER.tripped and await _database_down():
            # PostgreSQL is known to be down: say so now rather than after the pool's timeout
            # (vtt/core/outage.py turns this into an error frame and close 4503).
            raise DatabaseDown("PostgreSQL is down")
        if kind == "hello":
            await self._hello(frame.get("last_seq", 0))
        elif kind == "replay":
            await self._replay_request(frame.get("since"))
        elif kind == "command":
            await self._command(frame)
        elif kind == "ping":
            await self._send({"type": "pong", "t": frame.get("t")})
        else:
            await self._error(
                "unknown_type",
                _("Unknown frame type. The socket takes hello, replay, command and ping."),
            )

    async def _command(self, frame: dict[str, Any]) -> None:
        """An action at the table: the same command, checks and answer as its API call. The
        membership is read again for every command, so a role changed or a member removed
        since the socket opened is refused at once."""
        answer = await database_sync_to_async(commands.run_frame)(
            frame,
            user=self.scope["user"],
            campaign_id=self.campaign_id,
            language=self.language,
        )
        await self._send(answer)

    async def _hello(self, last_seq: Any) -> None:
        if not _is_seq(last_seq):
            await self._error("bad_seq", _("last_seq must be a non-negative integer."))
            return
        if self.ready:
            await self._error("already_ready", _("hello was already received; send replay."))
            return
        head = await database_sync_to_async(_head)(self.campaign_id)
        start = min(last_seq, head)  # a browser ahead of the server (restored DB) starts over
        await self._replay(start, head)
        self.ready = True
        await self._group(
            {
                "type": "presence.join",
                "conn": self.conn_id,
                "user": self.user_info,
                "reply_to": self.channel_name,
            }
        )
        buffered, self.buffer = self.buffer, []
        for message in sorted(buffered, key=lambda m: m["seq"]):
            await self._deliver(message)

    async def _replay_request(self, since: Any) -> None:
        if not _is_seq(since):
            await self._error("bad_seq", _("since must be a non-negative integer."))
            return
        if not self.ready:
            await self._error("not_ready", _("Send hello first."))
            return
        await self._replay(min(since, self.cursor), self.cursor)

    async def _replay(self, after: int, upto: int) -> None:
        """Send every visible event in (after, upto] as replay batches; cursor becomes upto."""
        position = after
        while True:
            frames, last = await database_sync_to_async(self._fetch)(position, upto)
            done = last is None or last >= upto
            end = upto if done else last
            await self.send(
                text_data=f'{{"type":"replay","after":{position},"cursor":{end},'
                f'"events":[{",".join(frames)}]}}'
            )
            position = end
            self.sent = max(self.sent, end)
            if done:
                break
        self.cursor = max(self.cursor, upto)

    def _fetch(self, after: int, upto: int) -> tuple[list[str], int | None]:
        events = list(
            visible_events(self.campaign_id, user_id=self.user_id, role=self.role).filter(
                seq__gt=after, seq__lte=upto
            )[:REPLAY_BATCH]
        )
        frames = [json.dumps(wire(e), ensure_ascii=False) for e in events]
        last = events[-1].seq if len(events) == REPLAY_BATCH else None
        return frames, last

    # --- from the group (published events and control messages) --------------------------

    async def table_event(self, message: dict[str, Any]) -> None:
        if not self.ready:
            self.buffer.append(message)
            return
        await self._deliver(message)

    async def table_events(self, message: dict[str, Any]) -> None:
        """Consecutive events of one append (services.together), in order."""
        for event in message["events"]:
            await self.table_event(event)

    async def _deliver(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        if seq <= self.cursor:
            return  # already sent by a replay
        if seq > self.cursor + 1:
            # The layer dropped or reordered something: the database has it.
            await self._replay(self.cursor, seq - 1)
        self.cursor = seq
        if can_see(
            visibility=message["visibility"],
            actor_id=message["actor_id"],
            target_id=message["target_id"],
            user_id=self.user_id,
            role=self.role,
        ):
            # prev is what this browser last got, not the log's previous event: an event it
            # may not see is no gap, and must not cost it a replay.
            prev, self.sent = self.sent, seq
            await self.send(
                text_data=f'{{"type":"event","prev":{prev},"event":{message["frame"]}}}'
            )

    async def member_removed(self, message: dict[str, Any]) -> None:
        if message["user_id"] == self.user_id:
            await self._error("removed", _("You are no longer a member of this campaign."))
            await self.close(code=CLOSE_NOT_MEMBER)

    async def member_role(self, message: dict[str, Any]) -> None:
        """A role change alters what this socket may see: reconnect to re-authorise."""
        if message["user_id"] == self.user_id:
            await self._send({"type": "reauth"})
            await self.close(code=4000)

    # Presence: a snapshot on connect, then changes (docs/table-protocol.md, "Presence"). A
    # socket that becomes ready says ``join`` to the table once; every socket already ready
    # answers it with one ``here`` sent to the newcomer alone, so the newcomer's snapshot is
    # those answers, and the others learn of it from the join; ``leave`` on disconnect. No
    # shared state and nothing periodic: traffic grows with the sockets that come and go,
    # not with the square of the table, and a killed process's sockets simply do not answer
    # the next newcomer (its users' browsers reconnect and join again).

    async def presence_join(self, message: dict[str, Any]) -> None:
        """Another socket is at the table: tell the browser, and answer it with our ``here``
        (its snapshot). A socket not yet ready says ``join`` itself once it is."""
        if message["conn"] == self.conn_id:
            return
        await self._send(
            {"type": "presence", "op": "join", "conn": message["conn"], "user": message["user"]}
        )
        if self.ready:
            await self.channel_layer.send(
                message["reply_to"],
                {"type": "presence.here", "conn": self.conn_id, "user": self.user_info},
            )

    async def presence_here(self, message: dict[str, Any]) -> None:
        """One connection of this socket's snapshot (an answer to its join)."""
        await self._send(
            {"type": "presence", "op": "here", "conn": message["conn"], "user": message["user"]}
        )

    async def presence_leave(self, message: dict[str, Any]) -> None:
        if message["conn"] != self.conn_id:
            await self._send(
                {
                    "type": "presence",
                    "op": "leave",
                    "conn": message["conn"],
                    "user": message["user"],
                }
            )

    # --- helpers ------------------------------------------------------------------------------

    async def _keep_slot_forever(self) -> None:
        """Every SLOT_REFRESH_SECONDS push back the expiry of this socket's slot in the
        per-user cap (``_refresh_slot``): a slot set to expire once, at connect, freed itself
        while the socket still lived, and a long session then let the user open one more."""
        # The first refresh comes at a random point of the period: after a restart every
        # browser reconnects at once, and without the jitter their refreshes would all fall in
        # the same second, every period, for as long as the process runs.
        delay = random.uniform(SLOT_REFRESH_SECONDS / 2, SLOT_REFRESH_SECONDS)
        try:
            while True:
                await asyncio.sleep(delay)
                delay = SLOT_REFRESH_SECONDS
                await self._keep_slot()
        except asyncio.CancelledError:
            pass

    async def _keep_slot(self) -> None:
        try:
            self.slot = await asyncio.to_thread(
                _refresh_slot, self.user_id, self.slot, self.conn_id
            )
        except Exception as exc:
            # Try again at the next refresh (the slot outlives several of them); the socket
            # goes on meanwhile.
            if is_unavailable(exc):  # Redis restarting
                warn("table socket slot refresh", exc)
            else:
                log.exception("table socket slot refresh failed")

    async def _group(self, message: dict[str, Any]) -> None:
        try:
            await self.channel_layer.group_send(self.group, message)
        except Exception:
            log.warning("presence broadcast failed", exc_info=True)

    async def _send(self, data: dict[str, Any]) -> None:
        await self.send(text_data=jsonsafe.dumps(data))

    async def _error(self, code: str, message: Any) -> None:
        """An error frame in the user's language (messages are lazy: rendered here)."""
        with translation.override(self.language):
            text = str(message)
        await self._send({"type": "error", "code": code, "message": text})


async def _database_down() -> bool:
    return await asyncio.to_thread(BREAKER.is_down)


def _is_seq(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def _head(campaign_id: int) -> int:
    cursor = EventCursor.objects.filter(campaign_id=campaign_id).first()
    return cursor.last_seq if cursor else 0


# A live socket pushes its slot's expiry back every SLOT_REFRESH_SECONDS; a slot that a killed
# process never released (no socket refreshes it) frees itself SLOT_SECONDS after its last
# refresh. Several refreshes fit in one expiry, so a missed one (Redis restarting) loses nothing.
SLOT_SECONDS = 30 * 60
SLOT_REFRESH_SECONDS = 5 * 60


def _slot_keys(user_id: int) -> list[str]:
    return [f"sockets:{user_id}:{n}" for n in range(settings.SOCKETS_PER_USER)]


def _claim_slot(user_id: int, conn_id: str) -> str | None:
    """Cap open sockets per user (settings.SOCKETS_PER_USER) across all web processes; the
    claimed slot's key, or None when every slot is taken.

    Each slot is its own cache key, taken with ``cache.add`` (Redis ``SET NX``; the local
    memory cache holds its lock): of two sockets racing for the last slot exactly one gets it.
    A read of a count followed by a write of count + 1 let both in (two processes read the
    same count before either wrote). Slots expire, so a killed process cannot leak them."""
    keys = _slot_keys(user_id)
    taken = cache.get_many(keys)
    for key in keys:
        if key not in taken and cache.add(key, conn_id, SLOT_SECONDS):
            return key
    return None


def _refresh_slot(user_id: int, key: str, conn_id: str) -> str:
    """Push back the expiry of the slot this socket holds; the slot's key afterwards.

    Only a slot still held by this socket is touched. One that is gone (Redis lost its data,
    or the socket's thread could not refresh in time) is taken again, or another free one, so
    the count comes back; when every slot is taken meanwhile the socket stays open, uncounted
    (a live table is not closed under its user), and keeps its old key, whose release is then
    a no-op (``_release_slot`` checks the holder)."""
    if cache.get(key) == conn_id and cache.touch(key, SLOT_SECONDS):
        return key
    if cache.add(key, conn_id, SLOT_SECONDS):
        return key
    return _claim_slot(user_id, conn_id) or key


def _release_slot(key: str, conn_id: str) -> None:
    """Free the slot this socket holds (not one that expired and went to another socket)."""
    if cache.get(key) == conn_id:
        cache.delete(key)
