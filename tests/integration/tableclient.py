"""Websocket table clients and an HTTP roller that behave as the browser does, for the
scale-out and chaos tests.

A ``TableClient`` follows static/js/table.js: on ``welcome`` it sends ``hello`` with the last
sequence number it applied, applies ``replay`` batches and live ``event`` frames in order,
asks for a ``replay`` when a frame's ``prev`` is ahead of it, and reconnects with a short
back-off when the socket closes, to the next web process in its list (what a load balancer
does when a backend dies). It records every sequence number it applied, every frame it got
twice (a seq at or below its position: the server must never send one), the error frames
and close codes, and how long each reconnect took (socket closed → caught up by the replay).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

BACKOFF_MIN = 0.1
BACKOFF_MAX = 1.0


class TableClient:
    """One browser tab at one table, reconnecting across ``bases`` (http://host:port)."""

    def __init__(
        self, name: str, bases: list[str], campaign_id: int, cookie: str, *, first: int = 0
    ) -> None:
        self.name = name
        self.bases = bases
        self.campaign_id = campaign_id
        self.cookie = cookie
        self.index = first
        self.position = 0
        self.applied: list[int] = []
        self.kinds: dict[int, str] = {}
        self.duplicates = 0
        self.gaps = 0
        self.errors: list[dict[str, Any]] = []
        self.close_codes: list[int | None] = []
        self.reconnect_seconds: list[float] = []
        self.connected_to: list[str] = []
        self.ready = asyncio.Event()
        self._stopping = False
        self._ws: Any = None
        self._replay_pending = False
        self._hello_pending = False
        self._task: asyncio.Task | None = None

    @property
    def base(self) -> str:
        return self.bases[self.index % len(self.bases)]

    def start(self) -> asyncio.Task:
        self._task = asyncio.create_task(self._run(), name=f"client-{self.name}")
        return self._task

    async def stop(self) -> None:
        self._stopping = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 10)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a raw frame on the current socket (tests of error frames)."""
        if self._ws is None:
            raise RuntimeError(f"{self.name} is not connected")
        await self._ws.send(json.dumps(frame))

    async def _run(self) -> None:
        attempt = 0
        closed_at: float | None = None
        while not self._stopping:
            base = self.base
            url = base.replace("http", "ws", 1) + f"/ws/campaigns/{self.campaign_id}/"
            try:
                async with connect(
                    url,
                    origin=base,
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=10,
                    close_timeout=2,
                    max_size=2**23,
                ) as ws:
                    self._ws = ws
                    self._replay_pending = False
                    async for raw in ws:
                        frame = json.loads(raw)
                        caught_up = await self._frame(ws, frame)
                        if caught_up:
                            attempt = 0
                            self.connected_to.append(base)
                            if closed_at is not None:
                                self.reconnect_seconds.append(time.monotonic() - closed_at)
                                closed_at = None
                            self.ready.set()
                    self.close_codes.append(ws.close_code)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                self.close_codes.append(code)
            finally:
                self._ws = None
                self.ready.clear()
            if self._stopping:
                break
            if closed_at is None:
                closed_at = time.monotonic()
            if self.close_codes and self.close_codes[-1] == 4403:
                break  # denied: the browser stops too
            self.index += 1  # the balancer sends the next attempt to another process
            attempt += 1
            delay = min(BACKOFF_MAX, BACKOFF_MIN * 2 ** (attempt - 1))
            await asyncio.sleep(delay / 2 + random.random() * delay / 2)

    async def _frame(self, ws: Any, frame: dict[str, Any]) -> bool:
        """Apply one frame; True when it is the replay that answers ``hello``."""
        kind = frame.get("type")
        if kind == "welcome":
            await ws.send(json.dumps({"type": "hello", "last_seq": self.position}))
            self._hello_pending = True
        elif kind == "replay":
            if frame["after"] > self.position:
                self.gaps += 1
                await self._ask_replay(ws)
                return False
            for event in frame["events"]:
                self._apply(event)
            self.position = max(self.position, frame["cursor"])
            self._replay_pending = False
            first, self._hello_pending = self._hello_pending, False
            return first
        elif kind == "event":
            event = frame["event"]
            if event["seq"] <= self.position:
                self.duplicates += 1
            elif frame["prev"] > self.position:
                self.gaps += 1
                await self._ask_replay(ws)
            else:
                self._apply(event)
        elif kind == "error":
            self.errors.append(frame)
        return False

    def _apply(self, event: dict[str, Any]) -> None:
        seq = event["seq"]
        if seq <= self.position:
            self.duplicates += 1
            return
        self.applied.append(seq)
        self.kinds[seq] = event["kind"]
        self.position = seq

    async def _ask_replay(self, ws: Any) -> None:
        if not self._replay_pending:
            self._replay_pending = True
            await ws.send(json.dumps({"type": "replay", "since": self.position}))


async def wait_for(check: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    """Poll ``check`` on the event loop until it holds or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(interval)
    return check()


@dataclass
class Roller:
    """Posts rolls over HTTP with an ``Idempotency-Key`` each, retrying on another web
    process when one fails (connection refused, reset, 502/503), as a browser retry would.
    A retry of a roll that did commit returns the first roll (200), so each key is one roll."""

    bases: list[str]
    campaign_id: int
    token: str
    index: int = 0
    keys: list[str] = field(default_factory=list)
    created: int = 0
    replayed: int = 0
    retries: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    async def roll(
        self,
        http: httpx.AsyncClient,
        *,
        notation: str = "2d6",
        visibility: str = "everyone",
        target_id: int | None = None,
        label: str = "",
        give_up_after: float = 60.0,
    ) -> dict[str, Any]:
        key = uuid.uuid4().hex
        self.keys.append(key)
        body: dict[str, Any] = {"notation": notation, "visibility": visibility, "label": label}
        if target_id is not None:
            body["target_id"] = target_id
        deadline = time.monotonic() + give_up_after
        while True:
            base = self.bases[self.index % len(self.bases)]
            try:
                resp = await http.post(
                    f"{base}/api/campaigns/{self.campaign_id}/rolls/",
                    json=body,
                    headers={"Authorization": f"Token {self.token}", "Idempotency-Key": key},
                    timeout=15,
                )
                self.statuses[resp.status_code] = self.statuses.get(resp.status_code, 0) + 1
                if resp.status_code == 201:
                    self.created += 1
                    return resp.json()
                if resp.status_code == 200:
                    self.replayed += 1
                    return resp.json()
                if resp.status_code not in (429, 502, 503, 504):
                    raise AssertionError(f"roll refused: {resp.status_code} {resp.text[:300]}")
                failure = f"{resp.status_code} {resp.text[:120]}"
            except httpx.TransportError as exc:
                failure = f"{type(exc).__name__}: {exc}"[:160]
            if len(self.failures) < 20:
                self.failures.append(failure)
            if time.monotonic() > deadline:
                raise AssertionError(f"roll never succeeded: {self.failures[-5:]}")
            self.retries += 1
            self.index += 1
            await asyncio.sleep(0.2)
