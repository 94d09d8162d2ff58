"""Record what a player's browser receives in the browser tests and scan it for the referee's
secrets (issue 9: "a scan over every page, API response and socket frame recorded during the
end-to-end tests, as a player, for any referee-only field, hidden roll or fogged token").

``Recorder`` hooks one Playwright browser context: every finished HTTP response (pages, htmx
fragments, JSON, the map images served to players; static files and other images skipped),
every response to ``context.request`` calls (``page.request`` is the same object), and every
websocket frame the pages receive. ``scan`` then looks through what a non-referee received:

- **markers**: the strings ``manage.py seed_demo`` writes into every kind of hidden data
  (``vtt/campaigns/demo_markers.py``) and any a test registers; the referee's reach nobody
  else, a player's private ones only that player (found in raw text, after HTML and JSON
  unescaping and URL decoding, case-insensitively);
- **structure**, in every JSON document (API bodies, the pages' ``json_script`` blocks, socket
  frames): an event the user may not see by its visibility (``blind``; ``referee`` from
  someone else; a whisper between others), a payload or state marked ``audience: "referee"``,
  the keys only the referee's copies carry (``referee_only``, the party's ``true`` position,
  a note's ``secret`` flag, a token's ``hidden`` flag, travel ``encounters``/``drift``, the
  Savage Worlds ``extras``/``draw_count``/``discard_count`` and other sheets' bennies), anything
  ``hidden: true`` with an id, a hidden roll's total or terms next to its commitment (only the
  commitment may reach others before the reveal), another player's full sheet or an NPC's
  numbers, the true hex of a lost party;
- **fog**: every map state a player got must hold only tokens, notes, terrain and features on
  revealed cells (a player's own character's token excepted: its owner sees it under the
  fog); a token event must show a token that covers a revealed cell (the fog is
  followed through snapshots and ``map.fog`` events); the masked background image must be the
  fog colour at the centre of every cell that was fogged (as ``vtt/maps/images.py`` claims).
"""

from __future__ import annotations

import gzip
import html
import io
import json
import re
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from systems.core.grid import cell_polygon, footprint, pixel_size
from vtt.campaigns import demo_markers

REFEREE = "referee"
FOG_RGB = (20, 18, 16)  # vtt.maps.images.FOG_RGB: what the masked background paints
FOG_TOLERANCE = 24  # JPEG at quality 88 keeps a flat block within a few levels
TEXT_TYPES = ("html", "json", "javascript", "text/", "csv", "xml")
MAP_IMAGE = re.compile(r"/campaigns/(\d+)/maps/(\d+)/(background|tokens/(\d+)/image)/")
PLAYER_BACKGROUND = re.compile(r"/campaigns/\d+/maps/(\d+)/background/\?v=\d+-(\d+)")
JSON_SCRIPT = re.compile(
    r"<script\b[^>]*type=[\"']application/json[\"'][^>]*>(.*?)</script>", re.S | re.I
)
JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass
class Item:
    """One thing a browser context received."""

    n: int
    t: float
    source: str  # "http" (the browser), "api" (context.request), "ws" (a socket frame)
    url: str
    user: str | None
    user_id: int | None
    method: str = "GET"
    status: int | None = None
    content_type: str = ""
    text: str | None = None
    image: bytes | None = None

    def where(self) -> str:
        status = f" {self.status}" if self.status is not None else ""
        return f"{self.source} #{self.n}{status} {self.method} {self.url}"


@dataclass
class Leak:
    rule: str
    item: Item
    snippet: str

    def __str__(self) -> str:
        return f"[{self.rule}] as {self.item.user or 'anonymous'} in {self.item.where()}:\n" + (
            f"    {self.snippet}"
        )


class Recorder:
    """Everything one browser context received, in arrival order."""

    def __init__(self, context, label: str = "") -> None:
        self.context = context
        self.label = label
        self.user: str | None = None
        self.user_id: int | None = None
        self.items: list[Item] = []
        self._pages: set[int] = set()
        context.on("requestfinished", self._finished)
        context.on("page", self.watch)
        self._wrap_request(context.request)

    # --- who is logged in ------------------------------------------------------------------

    def logged_in(self, username: str, user_id: int | None) -> None:
        self.user, self.user_id = username, user_id

    # --- hooks -----------------------------------------------------------------------------

    def watch(self, page) -> None:
        """Record the socket frames of a page (called for every page of the context)."""
        if id(page) in self._pages:
            return
        self._pages.add(id(page))

        def on_socket(ws) -> None:
            def on_frame(payload) -> None:
                text = (
                    payload
                    if isinstance(payload, str)
                    else bytes(payload).decode("utf-8", "replace")
                )
                self._add("ws", ws.url, text=text)

            ws.on("framereceived", on_frame)

        page.on("websocket", on_socket)

    def _finished(self, request) -> None:
        try:
            response = request.response()
        except Exception:
            return
        if response is None or not _wanted(request.url):
            return
        content_type = (response.headers.get("content-type") or "").lower()
        image = content_type.startswith("image/")
        if image and not MAP_IMAGE.search(request.url):
            return
        try:
            body = response.body()
        except Exception:
            return  # a redirect, or the page went away
        self._store("http", request.url, request.method, response.status, content_type, body)

    def _wrap_request(self, api) -> None:
        """``page.request`` / ``context.request`` calls do not go through the browser's network
        stack: record their responses by wrapping the methods of that one object."""
        for name in ("fetch", "get", "post", "put", "patch", "delete", "head"):
            original = getattr(api, name)

            def wrapped(url, *args, __original=original, __name=name, **kwargs):
                response = __original(url, *args, **kwargs)
                method = (kwargs.get("method") or "GET") if __name == "fetch" else __name.upper()
                try:
                    body = response.body()
                except Exception:
                    body = b""
                content_type = (response.headers.get("content-type") or "").lower()
                if not content_type.startswith("image/") or MAP_IMAGE.search(response.url):
                    self._store("api", response.url, method, response.status, content_type, body)
                return response

            setattr(api, name, wrapped)

    def _store(
        self, source: str, url: str, method: str, status: int, content_type: str, body: bytes
    ) -> None:
        if content_type.startswith("image/"):
            self._add(
                source, url, method=method, status=status, content_type=content_type, image=body
            )
        else:
            text = body.decode("utf-8", "replace") if body else ""
            self._add(
                source, url, method=method, status=status, content_type=content_type, text=text
            )

    def _add(self, source: str, url: str, **kw: Any) -> None:
        self.items.append(
            Item(
                n=len(self.items),
                t=time.monotonic(),
                source=source,
                url=url,
                user=self.user,
                user_id=self.user_id,
                **kw,
            )
        )

    # --- storage -------------------------------------------------------------------------------

    def dump(self, path: Path) -> None:
        """One JSON line per item (images as their size), gzipped: the per-test record."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8") as out:
            for item in self.items:
                row = {k: v for k, v in item.__dict__.items() if k != "image"}
                if item.image is not None:
                    row["image_bytes"] = len(item.image)
                out.write(json.dumps(row, ensure_ascii=False) + "\n")


def _wanted(url: str) -> bool:
    """Pages, fragments, API bodies and our own scripts; not third-party static files, styles
    or fonts (the same bytes for everyone)."""
    path = urllib.parse.urlsplit(url).path
    if path.startswith("/static/"):
        return path.startswith("/static/js/")
    return path != "/favicon.ico"


# --- the scan ------------------------------------------------------------------------------------


@dataclass
class Secret:
    marker: str
    allowed: frozenset[str] = frozenset()  # usernames that may receive it


def default_secrets() -> list[Secret]:
    return [Secret(prefix, allowed) for prefix, allowed in demo_markers.ALLOWED.items()]


@dataclass
class Report:
    leaks: list[Leak] = field(default_factory=list)
    items: int = 0
    texts: int = 0
    documents: int = 0
    events: int = 0
    snapshots: int = 0
    images_checked: int = 0
    cells_checked: int = 0

    def summary(self) -> str:
        return (
            f"{self.items} items, {self.texts} texts, {self.documents} JSON documents, "
            f"{self.events} events, {self.snapshots} map states, {self.images_checked} map "
            f"images ({self.cells_checked} fogged cells), {len(self.leaks)} leaks"
        )


def scan_all(recorders: list[Recorder], secrets: list[Secret] | None = None) -> Report:
    """``scan`` each browser context (each has its own view of the fog), one report."""
    report = Report()
    for recorder in recorders:
        scan(recorder.items, secrets, report)
    return report


def scan(
    items: list[Item], secrets: list[Secret] | None = None, report: Report | None = None
) -> Report:
    """Scan what non-referee users received in one browser context, in arrival order (items
    of the referee's logins are skipped)."""
    secrets = default_secrets() if secrets is None else secrets
    report = Report() if report is None else report
    fog = FogTracker(report)
    for item in items:
        if item.user == REFEREE:
            continue
        report.items += 1
        if item.image is not None:
            fog.check_image(item)
            continue
        if not item.text:
            continue
        report.texts += 1
        _scan_markers(item, secrets, report)
        for doc in documents(item):
            report.documents += 1
            Walker(item, report, fog).walk(doc)
    return report


def _scan_markers(item: Item, secrets: list[Secret], report: Report) -> None:
    seen: set[tuple[str, int]] = set()
    for text in _variants(item.text or ""):
        folded = text.casefold()
        for secret in secrets:
            if item.user in secret.allowed:
                continue
            needle = secret.marker.casefold()
            start = folded.find(needle)
            while start != -1:
                key = (secret.marker, start)
                if key not in seen:
                    seen.add(key)
                    snippet = text[max(0, start - 100) : start + len(needle) + 100]
                    report.leaks.append(Leak(f"marker {secret.marker}", item, _one_line(snippet)))
                    break  # one report per marker and form is enough
                start = folded.find(needle, start + 1)


def _variants(text: str) -> Iterator[str]:
    yield text
    unescaped = JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), html.unescape(text))
    if unescaped != text:
        yield unescaped
    decoded = urllib.parse.unquote(unescaped)
    if decoded != unescaped:
        yield decoded


def _one_line(text: str) -> str:
    return " ".join(text.split())


def documents(item: Item) -> Iterator[Any]:
    """The JSON documents in an item: a JSON body or frame, or a page's json_script blocks."""
    text = item.text or ""
    if item.source == "ws" or "json" in item.content_type:
        try:
            yield json.loads(text)
        except ValueError:
            return
        return
    if "html" in item.content_type:
        for block in JSON_SCRIPT.findall(text):
            try:
                yield json.loads(block)
            except ValueError:
                continue


def _snip(value: Any) -> str:
    return _one_line(json.dumps(value, ensure_ascii=False, default=str))[:400]


class Walker:
    """Walks one JSON document and applies the structural rules."""

    def __init__(self, item: Item, report: Report, fog: FogTracker) -> None:
        self.item, self.report, self.fog = item, report, fog
        self.me = item.user_id

    def leak(self, rule: str, value: Any) -> None:
        self.report.leaks.append(Leak(rule, self.item, _snip(value)))

    def walk(self, node: Any, actor: int | None = None, in_event: bool = False) -> None:
        if isinstance(node, list):
            for child in node:
                self.walk(child, actor, in_event)
            return
        if not isinstance(node, dict):
            return
        if _is_event(node):
            self.report.events += 1
            self.event(node)
            actor = (
                (node.get("actor") or {}).get("id") if isinstance(node.get("actor"), dict) else None
            )
            in_event = True
        self.rules(node, actor, in_event)
        if _is_map_state(node):
            self.report.snapshots += 1
            self.fog.snapshot(node, self)
        for value in node.values():
            self.walk(value, actor, in_event)

    def event(self, event: dict[str, Any]) -> None:
        visibility = event.get("visibility")
        actor = event.get("actor") if isinstance(event.get("actor"), dict) else {}
        actor_id = actor.get("id")
        if visibility == "blind":
            self.leak("blind event", event)
        elif visibility == "referee" and actor_id != self.me:
            self.leak("referee-only event of someone else", event)
        elif visibility == "whisper" and self.me not in (actor_id, event.get("target_id")):
            self.leak("whisper between others", event)
        payload = event.get("payload")
        if isinstance(payload, dict):
            self.fog.event(event, self)

    def rules(self, d: dict[str, Any], actor: int | None, in_event: bool) -> None:
        keys = d.keys()
        if d.get("audience") == REFEREE:
            self.leak("audience: referee", d)
        if "referee_only" in keys:
            self.leak("referee_only field", d)
        if d.get("hidden") is True and ("id" in keys or "character_id" in keys):
            self.leak("hidden: true", d)
        if {"id", "name", "col", "row", "cells"} <= keys and _ints(d, "col", "row"):  # a token
            if "hidden" in keys:
                self.leak("token with the referee's hidden flag", d)
            if ("speed" in keys or "moved" in keys) and "character_id" not in keys:
                self.leak("token speed of a non-player token", d)
        if {"id", "col", "row", "text"} <= keys and _ints(d, "col", "row") and "secret" in keys:
            self.leak("note with the referee's secret flag", d)
        if {"shown", "true"} <= keys and isinstance(d["true"], list | None):
            self.leak("the party's true position", d)
        if {"lost", "seen_hex"} <= keys and isinstance(d["lost"], bool):  # a travel state
            if "encounters" in keys or "drift" in keys:
                self.leak("travel encounter or drift rolls", d)
            if d.get("lost") and d.get("hex") is not None:
                self.leak("the true hex of a lost party", d)
        if HEX64.fullmatch(str(d.get("commitment"))) and ("total" in keys or "terms" in keys):
            mine = actor == self.me if in_event else self.item.method != "GET"
            if not mine:
                self.leak("a hidden roll's result next to its commitment", d)
        if d.get("ruleset") == "savage_worlds" and {"order", "participants"} <= keys:
            for key in ("extras", "draw_count", "discard_count", "draw", "discard"):
                if key in keys:
                    self.leak(f"Savage Worlds table field {key}", d)
            for p in d.get("participants") or []:
                if isinstance(p, dict) and {"bennies", "selected", "edge"} & p.keys():
                    self.leak("another sheet's bennies or the referee's selection", p)
        if {"id", "ruleset", "name", "kind", "owner_id", "full", "state"} <= keys and isinstance(
            d["full"], bool
        ):
            self.character(d)

    def character(self, d: dict[str, Any]) -> None:
        from vtt.characters.visibility import public_keys

        state = d.get("state") if isinstance(d.get("state"), dict) else {}
        if d.get("full"):
            if d.get("kind") != "pc" or d.get("owner_id") != self.me:
                self.leak("a full sheet that is not the user's own", d)
            return
        extra = set(state) - set(public_keys(d.get("ruleset", ""), d.get("kind", "pc")))
        if extra:
            self.leak(f"private sheet fields {sorted(extra)}", d)


def _ints(d: dict[str, Any], *keys: str) -> bool:
    return all(isinstance(d.get(k), int) and not isinstance(d.get(k), bool) for k in keys)


def _is_event(d: dict[str, Any]) -> bool:
    """An event on the wire (the OpenAPI schema describes one too: its values are not)."""
    return (
        {"seq", "kind", "payload", "visibility"} <= d.keys()
        and _ints(d, "seq")
        and isinstance(d["kind"], str)
        and isinstance(d["visibility"], str)
    )


def _is_map_state(d: dict[str, Any]) -> bool:
    return (
        {"map", "fog", "tokens", "notes"} <= d.keys()
        and isinstance(d.get("map"), dict)
        and _ints(d["map"], "width", "height")
    )


# --- fog ---------------------------------------------------------------------------------------


@dataclass
class MapFog:
    kind: str
    orientation: str
    width: int
    height: int
    cell_px: int
    revealed: set[int]
    version: int
    seq: int  # the last event reflected

    def is_revealed(self, col: int, row: int) -> bool:
        return (
            0 <= col < self.width
            and 0 <= row < self.height
            and (row * self.width + col in self.revealed)
        )

    def token_seen(self, token: dict[str, Any], walker: Walker) -> bool:
        """On a revealed cell, or the scanning player's own character's token (its owner sees
        it under the fog too)."""
        if walker.me is not None and token.get("owner_id") == walker.me:
            return True
        cells = footprint(
            (int(token["col"]), int(token["row"])),
            int(token.get("cells") or 1),
            kind=self.kind,
            orientation=self.orientation,
            width=self.width,
            height=self.height,
        )
        return any(self.is_revealed(c, r) for c, r in cells)


def _expand(runs: list[list[int]]) -> set[int]:
    out: set[int] = set()
    for start, length in runs:
        out.update(range(int(start), int(start) + int(length)))
    return out


class FogTracker:
    """The fog of each map as a player's browser knows it: absolute from map states, changed by
    ``map.fog`` events (in sequence order), so tokens in events can be checked against it."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.maps: dict[int, MapFog] = {}
        # (map id, fog version) -> (the map's geometry, revealed cells)
        self.versions: dict[tuple[int, int], MapFog] = {}

    def _remember(self, map_id: int, state: MapFog) -> None:
        copy = MapFog(**{**state.__dict__, "revealed": set(state.revealed)})
        self.versions[(map_id, state.version)] = copy

    def snapshot(self, d: dict[str, Any], walker: Walker) -> None:
        m = d["map"]
        try:
            state = MapFog(
                kind=m["kind"],
                orientation=m.get("orientation", "flat"),
                width=int(m["width"]),
                height=int(m["height"]),
                cell_px=int(m.get("cell_px") or 50),
                revealed=_expand(d["fog"].get("runs") or []),
                version=int(d["fog"].get("version") or 0),
                seq=int(d.get("head") or 0),
            )
        except (KeyError, TypeError, ValueError):
            return
        map_id = int(m["id"])
        for token in d.get("tokens") or []:
            if isinstance(token, dict) and "col" in token and not state.token_seen(token, walker):
                walker.leak("a token in the fog in a map state", token)
        for note in d.get("notes") or []:
            if isinstance(note, dict) and not state.is_revealed(note["col"], note["row"]):
                walker.leak("a note in the fog in a map state", note)
        for group in ("terrain", "features"):
            for key in d.get(group) or {}:
                col, row = (int(x) for x in str(key).split(","))
                if not state.is_revealed(col, row):
                    walker.leak(f"{group} of a fogged cell", {key: d[group][key]})
        known = self.maps.get(map_id)
        if known is None or state.seq >= known.seq:
            self.maps[map_id] = state
        self._remember(map_id, state)

    def event(self, event: dict[str, Any], walker: Walker) -> None:
        payload = event["payload"]
        kind = event.get("kind", "")
        if not kind.startswith("map.") or payload.get("audience") != "players":
            return
        try:
            map_id, seq = int(payload.get("map_id")), int(event["seq"])
        except (TypeError, ValueError):
            return
        state = self.maps.get(map_id)
        if state is None or seq <= state.seq:
            return  # no map state yet, or already in the one the browser has
        if kind == "map.update":
            del self.maps[map_id]  # settings or size changed: the browser fetches it again
            return
        if kind == "map.fog":
            cells = _expand(payload.get("runs") or [])
            if payload.get("reveal"):
                state.revealed |= cells
            else:
                state.revealed -= cells
            state.version = int(payload.get("fog_version") or state.version)
            state.seq = seq
            self._remember(map_id, state)
            for token in payload.get("tokens") or []:
                if not state.token_seen(token, walker):
                    walker.leak("a token in the fog in a map.fog event", token)
            for note in payload.get("notes") or []:
                if not state.is_revealed(note["col"], note["row"]):
                    walker.leak("a note in the fog in a map.fog event", note)
            return
        state.seq = seq
        token = payload.get("token")
        if kind == "map.token" and isinstance(token, dict) and not state.token_seen(token, walker):
            walker.leak("a token in the fog in a map.token event", payload)
        note = payload.get("note")
        if (
            kind == "map.note"
            and isinstance(note, dict)
            and not state.is_revealed(note["col"], note["row"])
        ):
            walker.leak("a note in the fog in a map.note event", payload)

    def check_image(self, item: Item) -> None:
        """A player's masked background: every cell fogged in the version the URL names must be
        the fog colour. The server answers an older version's URL with a redirect to the current
        one (``vtt/maps/views.py``), so what arrives under a URL is exactly that version."""
        match = PLAYER_BACKGROUND.search(item.url)
        if not match or item.status != 200 or not item.image:
            return
        map_id, version = int(match.group(1)), int(match.group(2))
        named = self.versions.get((map_id, version))
        if named is None:
            return
        from PIL import Image

        try:
            image = Image.open(io.BytesIO(item.image)).convert("RGB")
        except Exception as exc:
            self.report.leaks.append(Leak("unreadable map image", item, str(exc)))
            return
        self.report.images_checked += 1
        map_w, map_h = pixel_size(
            named.kind, named.orientation, named.cell_px, named.width, named.height
        )
        sx, sy = image.width / map_w, image.height / map_h
        for row in range(named.height):
            for col in range(named.width):
                index = row * named.width + col
                if index in named.revealed:
                    continue
                self.report.cells_checked += 1
                corners = cell_polygon(
                    col, row, kind=named.kind, cell=named.cell_px, orientation=named.orientation
                )
                cx = sum(x for x, _y in corners) / len(corners)
                cy = sum(y for _x, y in corners) / len(corners)
                points = [(cx, cy)] + [
                    (cx + (x - cx) * 0.4, cy + (y - cy) * 0.4) for x, y in corners
                ]
                for x, y in points:
                    px = (min(image.width - 1, int(x * sx)), min(image.height - 1, int(y * sy)))
                    rgb = image.getpixel(px)
                    if max(abs(a - b) for a, b in zip(rgb, FOG_RGB, strict=True)) > FOG_TOLERANCE:
                        self.report.leaks.append(
                            Leak(
                                "an unmasked fogged cell in a player's map background",
                                item,
                                f"cell ({col}, {row}) pixel {px} is {rgb}, not the fog {FOG_RGB}",
                            )
                        )
                        return


def format_leaks(report: Report, limit: int = 25) -> str:
    lines = [f"Leak scan: {report.summary()}"]
    lines += [str(leak) for leak in report.leaks[:limit]]
    if len(report.leaks) > limit:
        lines.append(f"... and {len(report.leaks) - limit} more")
    return "\n".join(lines)
