"""Every write to a map: validated, in one transaction with its events (DESIGN.md, "One path for
table state").

Players and the referee see different things, so a change publishes up to two events:

- the referee's copy, ``visibility="blind"``, ``audience="referee"``, with full data;
- the players' copy, ``visibility="players"``, ``audience="players"``, built only from what
  ``selectors`` lets players see (a token entering fog becomes ``map.token.gone``, a reveal
  carries the tokens, notes and terrain that came into view and the new background version).
  It is published only for the active map, and only when players have something to learn;
- after it, whispers to the player whose character a token stands for where the players' copy
  leaves them wrong (``owner_copies``): they see their token under the fog and when the
  referee hides it (never the ``hidden`` flag), and lose it when the referee relinks, unlinks
  or deletes it.

Every payload carries absolute values (a token's position, the cells revealed or hidden), so a
browser may apply an event twice (page snapshot, then replay) with the same result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from systems.core.grid import (
    METRICS,
    clamp_anchor,
    grid_distance,
    size_categories,
    size_cells,
)
from systems.core.hexgrid import SQRT3, offsets_in_range
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Role
from vtt.characters.models import Character
from vtt.core.errors import Conflict, Invalid, ServiceError
from vtt.core.ratelimit import TokenBucket
from vtt.maps import images, selectors
from vtt.maps.fog import Fog, to_runs
from vtt.maps.models import (
    MAX_SIDE,
    DistanceUnit,
    GridKind,
    HexOrientation,
    Light,
    Map,
    MapNote,
    Terrain,
    Token,
)
from vtt.maps.selectors import (
    Urls,
    background_data,
    cell_key,
    feature_data,
    map_summary,
    note_data,
    note_visible,
    parse_key,
    token_cells,
    token_data,
    token_owner_id,
    token_visible,
)
from vtt.rulesets.registry import web_for
from vtt.table.models import Visibility as V
from vtt.table.services import Draft, publish, publish_many

MOVE_BUCKET = TokenBucket("map-move", burst=20, per_second=4)
EDIT_BUCKET = TokenBucket("map-edit", burst=60, per_second=10)
# The columns are the limits of names and notes.
NAME_MAX = Map._meta.get_field("name").max_length
TOKEN_NAME_MAX = Token._meta.get_field("name").max_length
NOTE_MAX = MapNote._meta.get_field("text").max_length
CELL_PX = (16, 256)
CELL_DISTANCE = (Decimal("0.01"), Decimal(100000))  # what one cell stands for, in its unit
MAX_CELLS_PER_REQUEST = MAX_SIDE * MAX_SIDE
MAX_PATH = 200  # squares in one dragged path
MAX_MAPS = 200
MAX_TOKENS = 2000
MAX_NOTES = 1000
MAX_SPEED = 1000
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
UNSET: Any = object()


# --- publishing ---------------------------------------------------------------------------------


def _publish(
    m: Map,
    kind: str,
    actor: User | None,
    referee: dict[str, Any] | None,
    players: dict[str, Any] | None,
    players_kind: str | None = None,
    owner_copies: Sequence[Draft] = (),
) -> None:
    """The referee's full copy (blind) and, for the active map, the players' copy (of
    ``players_kind`` if it differs) and then each owner's copy of a token the players' copy
    leaves out (``owner_copies``), appended together under one lock of the log."""
    drafts = []
    if referee is not None:
        drafts.append(Draft(kind, {"map_id": m.pk, **referee, "audience": "referee"}, V.BLIND))
    if players is not None and m.active:
        players = {"map_id": m.pk, **players, "audience": "players"}
        drafts.append(Draft(players_kind or kind, players, V.PLAYERS))
    drafts.extend(owner_copies)
    publish_many(campaign=m.campaign_id, events=drafts, actor=actor)


@dataclass(frozen=True)
class Seen:
    """Who saw a token before a change, by ``selectors.token_visible``: the players at large,
    and the player whose character it stood for (``owner_id``), who may see more."""

    players: bool = False
    owner_id: int | None = None
    owner: bool = False


def seen(token: Token, m: Map, fog: Fog) -> Seen:
    owner_id = token_owner_id(token)
    return Seen(
        players=token_visible(token, m, fog),
        owner_id=owner_id,
        owner=owner_id is not None and token_visible(token, m, fog, viewer_id=owner_id),
    )


def owner_copies(
    m: Map, token: Token, fog: Fog, before: Seen, *, deleted: bool = False
) -> list[Draft]:
    """The whispers that put right, for a token's owners, what the players' copy of its change
    leaves out (they follow it in the log): the player whose character it stands for sees it
    where the players do not (under the fog, hidden), so gets the token itself; whoever saw it
    so before and no longer does (its owner until the referee relinked, unlinked or deleted it)
    gets its removal. Everyone else's view is the players' copy."""
    if not m.active:
        return []
    drafts: list[Draft] = []
    players = not deleted and token_visible(token, m, fog)
    owner_id = None if deleted else token_owner_id(token)
    if owner_id is not None and not players and token_visible(token, m, fog, viewer_id=owner_id):
        own = {"map_id": m.pk, "token": token_data(token, m, referee=False), "audience": "players"}
        drafts.append(Draft("map.token", own, V.WHISPER, token.character.owner))
    former = before.owner_id
    lost = former is not None and (deleted or not token_visible(token, m, fog, viewer_id=former))
    if lost and before.owner and not before.players:
        gone = {"map_id": m.pk, "token_id": token.pk, "audience": "players"}
        drafts.append(Draft("map.token.gone", gone, V.WHISPER, User.objects.get(pk=former)))
    return drafts


def _lock(m: Map) -> Map:
    """Re-read the map under a row lock: every map write is serialised on it (fog, tokens)."""
    locked = selectors.map_row(m.pk, lock=True)
    if locked is None:
        raise Map.DoesNotExist
    return locked


# --- validation -----------------------------------------------------------------------------------


def _int(value: Any, field: str, low: int, high: int) -> int:
    try:
        number = int(value)
        if isinstance(value, float) and value != number:
            raise ValueError
    except (TypeError, ValueError):
        raise Invalid(
            _("%(field)s must be a whole number.") % {"field": field},
            fields={field: [_("A whole number.")]},
        ) from None
    if not low <= number <= high:
        raise Invalid(
            _("%(field)s must be from %(low)d to %(high)d.")
            % {"field": field, "low": low, "high": high},
            fields={field: [f"{low}–{high}"]},
        )
    return number


def _text(value: Any, field: str, max_length: int, *, required: bool = True) -> str:
    text = " ".join(str(value or "").split())
    if required and not text:
        raise Invalid(
            _("%(field)s is required.") % {"field": field}, fields={field: [_("Required.")]}
        )
    if len(text) > max_length:
        raise Invalid(
            _("%(field)s is at most %(max)d characters.") % {"field": field, "max": max_length},
            fields={field: [str(max_length)]},
        )
    return text


def _choice(value: Any, field: str, choices) -> str:
    if value not in choices:
        raise Invalid(
            _("%(field)s: choose one of %(choices)s.")
            % {"field": field, "choices": ", ".join(choices)},
            fields={field: list(choices)},
        )
    return value


def _cell(m: Map, value: Any, field: str = "cell") -> tuple[int, int]:
    try:
        col, row = (int(v) for v in value)
    except (TypeError, ValueError):
        raise Invalid(
            _("A cell is a pair of numbers: column and row."), fields={field: ["[col, row]"]}
        ) from None
    if not (0 <= col < m.width and 0 <= row < m.height):
        raise Invalid(_("That cell is outside the map."), fields={field: ["outside"]})
    return col, row


def _cells(m: Map, values: Any) -> list[tuple[int, int]]:
    if not isinstance(values, list | tuple):
        raise Invalid(_("Cells are a list of [column, row] pairs."), fields={"cells": ["list"]})
    if len(values) > min(MAX_CELLS_PER_REQUEST, m.width * m.height):
        # a request names each square once at most: no more squares than the map has
        raise Invalid(_("Too many cells in one request."), fields={"cells": ["too many"]})
    return [_cell(m, v, "cells") for v in values]


def default_distance(ruleset: str, kind: str) -> tuple[Decimal, str]:
    """5 ft squares everywhere; a hex is as many miles as the ruleset's plugin says (6 unless
    its rules give another length)."""
    if kind == GridKind.HEX:
        return web_for(ruleset).hex_miles, "mi"
    return Decimal(5), "ft"


def _clean_map(data: dict[str, Any], *, ruleset: str, current: Map | None = None) -> dict:
    clean: dict[str, Any] = {}
    if "name" in data or current is None:
        clean["name"] = _text(data.get("name"), "name", NAME_MAX)
    if "kind" in data or current is None:
        clean["kind"] = _choice(data.get("kind") or GridKind.SQUARE, "kind", GridKind.values)
    if "orientation" in data:
        clean["orientation"] = _choice(data["orientation"], "orientation", HexOrientation.values)
    if "metric" in data:
        clean["metric"] = _choice(data["metric"], "metric", METRICS)
    for field, default in (("width", 30), ("height", 20)):
        if field in data or current is None:
            clean[field] = _int(data.get(field, default), field, 1, MAX_SIDE)
    if "cell_px" in data or current is None:
        clean["cell_px"] = _int(data.get("cell_px", 50), "cell_px", *CELL_PX)
    kind = clean.get("kind", current.kind if current else GridKind.SQUARE)
    if "cell_distance" in data and data["cell_distance"] not in (None, ""):
        try:
            distance = Decimal(str(data["cell_distance"]))
        except InvalidOperation:
            distance = Decimal(-1)
        low, high = CELL_DISTANCE
        if not (low <= distance <= high) or distance != round(distance, 2):
            raise Invalid(
                _("The distance a cell stands for must be from %(min)s to %(max)d.")
                % {"min": number_format(low), "max": high},
                fields={"cell_distance": [f"{low}–{high}"]},
            )
        clean["cell_distance"] = distance
    elif current is None:
        clean["cell_distance"] = default_distance(ruleset, kind)[0]
    if data.get("distance_unit"):
        clean["distance_unit"] = _choice(
            data["distance_unit"], "distance_unit", DistanceUnit.values
        )
    elif current is None:
        clean["distance_unit"] = default_distance(ruleset, kind)[1]
    if "fogged" in data:
        clean["fogged"] = bool(data["fogged"])
    if data.get("ambient_light"):
        clean["ambient_light"] = _choice(data["ambient_light"], "ambient_light", Light.values)
    return clean


# --- maps -----------------------------------------------------------------------------------------


@transaction.atomic
def map_create(*, campaign: Campaign, actor: User, **data: Any) -> Map:
    if Map.objects.filter(campaign=campaign).count() >= MAX_MAPS:
        raise Conflict(
            _("At most %(max)d maps in a campaign.") % {"max": MAX_MAPS}, code="too_many_maps"
        )
    clean = _clean_map(data, ruleset=campaign.ruleset)
    if clean["kind"] == GridKind.HEX and "orientation" not in clean:
        clean["orientation"] = HexOrientation.FLAT
    m = Map(campaign=campaign, **clean)
    m.revealed = Fog(m.width, m.height, None, revealed=not m.fogged).to_bytes()
    m.save()
    _publish(m, "map.saved", actor, map_summary(m), None)
    return m


@transaction.atomic
def map_update(*, map: Map, actor: User, **data: Any) -> Map:
    """Change settings. A resize keeps the cells that remain (new ones follow ``fogged``) and
    pulls tokens, notes and the party back onto the map."""
    m = _lock(map)
    clean = _clean_map(data, ruleset=m.campaign.ruleset, current=m)
    old_w, old_h = m.width, m.height
    fog = Fog.for_map(m)
    for key, value in clean.items():
        setattr(m, key, value)
    if (m.width, m.height) != (old_w, old_h):
        fog = fog.resized(m.width, m.height, new_revealed=not m.fogged)
        m.terrain = {
            k: v
            for k, v in (m.terrain or {}).items()
            if parse_key(k)[0] < m.width and parse_key(k)[1] < m.height
        }
        m.features = {
            k: v
            for k, v in (m.features or {}).items()
            if parse_key(k)[0] < m.width and parse_key(k)[1] < m.height
        }
        MapNote.objects.filter(map=m).filter(col__gte=m.width).delete()
        MapNote.objects.filter(map=m).filter(row__gte=m.height).delete()
        m.fog_version += 1
    for token in Token.objects.filter(map=m):
        col, row = clamp_anchor(
            (token.col, token.row), token.cells, kind=m.kind, width=m.width, height=m.height
        )
        if (col, row) != (token.col, token.row):
            token.col, token.row = col, row
            token.save(update_fields=["col", "row"])
    for prefix in ("party", "true"):
        col, row = getattr(m, f"{prefix}_col"), getattr(m, f"{prefix}_row")
        if col is not None and not (0 <= col < m.width and 0 <= row < m.height):
            setattr(m, f"{prefix}_col", None)
            setattr(m, f"{prefix}_row", None)
    m.revealed = fog.to_bytes()
    m.version += 1
    m.save()
    _publish_update(m, actor)
    return m


def _publish_update(m: Map, actor: User | None) -> None:
    """Settings, size or background changed: browsers fetch the map again (filtered)."""
    payload = {"version": m.version, "name": m.name}
    _publish(m, "map.update", actor, payload, payload)


@transaction.atomic
def map_delete(*, map: Map, actor: User) -> None:
    m = _lock(map)
    files = [m.background, *Token.objects.filter(map=m).values_list("image", flat=True)]
    was_active, map_id, campaign_id = m.active, m.pk, m.campaign_id
    m.delete()
    payload = {"map_id": map_id, "audience": "referee"}
    publish(
        campaign=campaign_id, kind="map.deleted", payload=payload, actor=actor, visibility=V.BLIND
    )
    if was_active:
        for visibility, audience in ((V.BLIND, "referee"), (V.PLAYERS, "players")):
            publish(
                campaign=campaign_id,
                kind="map.active",
                payload={"map_id": None, "name": "", "audience": audience},
                actor=actor,
                visibility=visibility,
            )

    def cleanup() -> None:
        for name in files:
            images.delete(name)
        images.delete_masked(map_id)

    transaction.on_commit(cleanup)


@transaction.atomic
def map_activate(*, campaign: Campaign, actor: User, map_id: int | None) -> Map | None:
    """Put a map on the table (players see only this one), or take the current one off."""
    maps = list(Map.objects.select_for_update().filter(campaign=campaign))
    chosen = next((m for m in maps if m.pk == map_id), None) if map_id is not None else None
    if map_id is not None and chosen is None:
        raise Invalid(_("No such map in this campaign."), code="no_map")
    for m in maps:
        if m.active and m is not chosen:
            m.active = False
            m.save(update_fields=["active"])
    if chosen is not None and not chosen.active:
        chosen.active = True
        chosen.save(update_fields=["active"])
    name = chosen.name if chosen else ""
    for visibility, audience in ((V.BLIND, "referee"), (V.PLAYERS, "players")):
        publish(
            campaign=campaign,
            kind="map.active",
            payload={"map_id": chosen.pk if chosen else None, "name": name, "audience": audience},
            actor=actor,
            visibility=visibility,
        )
    return chosen


def background_set(*, map: Map, actor: User, upload, fit: bool = False) -> Map:
    """Validate and re-encode outside the transaction (seconds of CPU for a large image), then
    swap the file in under the lock. ``fit`` sizes the grid to the image (its original pixels
    divided by the cell size)."""
    clean = images.clean_image(upload, max_side=images.BACKGROUND_MAX_SIDE)
    name = images.store(clean.data, folder="backgrounds", ext=clean.ext)
    try:
        with transaction.atomic():
            m = _lock(map)
            old = m.background
            m.background, m.bg_width, m.bg_height = name, clean.width, clean.height
            m.bg_version += 1
            m.save()
            if fit:
                cells = {
                    "width": min(MAX_SIDE, max(1, round(clean.original_width / m.cell_px))),
                    "height": min(MAX_SIDE, max(1, round(clean.original_height / m.cell_px))),
                }
                if m.kind == GridKind.HEX:
                    cells = _hex_fit(m, clean.original_width, clean.original_height)
                m = map_update(map=m, actor=actor, **cells)  # publishes map.update
            else:
                m.version += 1
                m.save(update_fields=["version"])
                _publish_update(m, actor)
    except BaseException:
        images.delete(name)
        raise
    transaction.on_commit(lambda: (images.delete(old), images.delete_masked(m.pk)))
    return m


def _hex_fit(m: Map, px_w: int, px_h: int) -> dict[str, int]:
    """The largest hex rectangle whose pixel box fits in the image."""
    size = m.cell_px / SQRT3
    if m.orientation == HexOrientation.POINTY:
        width = int(px_w / m.cell_px - 0.5)
        height = int((px_h / size - 2.0) / 1.5) + 1
    else:
        width = int((px_w / size - 2.0) / 1.5) + 1
        height = int(px_h / m.cell_px - 0.5)
    return {"width": min(MAX_SIDE, max(1, width)), "height": min(MAX_SIDE, max(1, height))}


@transaction.atomic
def background_clear(*, map: Map, actor: User) -> Map:
    m = _lock(map)
    old = m.background
    if not old:
        return m
    m.background, m.bg_width, m.bg_height = "", 0, 0
    m.bg_version += 1
    m.version += 1
    m.save()
    _publish_update(m, actor)
    transaction.on_commit(lambda: (images.delete(old), images.delete_masked(m.pk)))
    return m


# --- fog ------------------------------------------------------------------------------------------


def _rect_cells(m: Map, rect: Any) -> list[tuple[int, int]]:
    try:
        c0, r0, c1, r1 = (int(v) for v in rect)
    except (TypeError, ValueError):
        raise Invalid(
            _("A rectangle is [column, row, column, row]."), fields={"rect": ["4 numbers"]}
        ) from None
    c0, c1 = sorted((max(0, min(c0, m.width - 1)), max(0, min(c1, m.width - 1))))
    r0, r1 = sorted((max(0, min(r0, m.height - 1)), max(0, min(r1, m.height - 1))))
    return [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


@transaction.atomic
def fog_change(
    *,
    map: Map,
    actor: User,
    reveal: bool,
    cells: Any = None,
    rect: Any = None,
    everything: bool = False,
) -> dict[str, Any]:
    """Reveal or hide cells (a brush stroke's list, a rectangle, or the whole map).

    The players' event carries the cells that changed plus what came into view with them
    (tokens, notes, terrain) or the ids of what went out of view, and the new background URL.
    """
    m = _lock(map)
    if everything:
        target = [(c, r) for r in range(m.height) for c in range(m.width)]
    elif rect is not None:
        target = _rect_cells(m, rect)
    else:
        target = _cells(m, cells if cells is not None else [])
    before = Fog.for_map(m)
    after = Fog.for_map(m)
    changed = after.set(target, bool(reveal))
    if not changed:
        return {"fog_version": m.fog_version, "changed": 0}
    m.revealed = after.to_bytes()
    m.fog_version += 1
    m.save(update_fields=["revealed", "fog_version", "updated_at"])
    runs = to_runs(changed)
    referee = {"fog_version": m.fog_version, "reveal": bool(reveal), "runs": runs}
    players, owners = None, []
    if m.active:
        players = dict(referee)
        players.update(_came_into_view(m, before, after, changed))
        for token in Token.objects.filter(pk__in=players["gone"]).select_related("character"):
            owners.extend(owner_copies(m, token, after, seen(token, m, before)))
    _publish(m, "map.fog", actor, referee, players, owner_copies=owners)
    return {"fog_version": m.fog_version, "changed": len(changed)}


def _came_into_view(m: Map, before: Fog, after: Fog, changed: list[int]) -> dict[str, Any]:
    urls = Urls(m)
    tokens, gone = [], []
    for token in Token.objects.filter(map=m, hidden=False).select_related("character"):
        was, now = token_visible(token, m, before), token_visible(token, m, after)
        if now and not was:
            tokens.append(token_data(token, m, referee=False, urls=urls))
        elif was and not now:
            gone.append(token.pk)
    notes, notes_gone = [], []
    for note in MapNote.objects.filter(map=m, secret=False):
        was, now = note_visible(note, before), note_visible(note, after)
        if now and not was:
            notes.append(note_data(note, referee=False))
        elif was and not now:
            notes_gone.append(note.pk)
    terrain, features = {}, {}
    for index in changed:
        col, row = index % m.width, index // m.width
        key = cell_key(col, row)
        if after.is_revealed(col, row) and key in (m.terrain or {}):
            terrain[key] = m.terrain[key]
        if after.is_revealed(col, row) and key in (m.features or {}):
            features[key] = feature_data(m.features[key])
    return {
        "features": features,
        "tokens": tokens,
        "gone": gone,
        "notes": notes,
        "notes_gone": notes_gone,
        "terrain": terrain,
        "background": background_data(m, referee=False, fog=after, urls=urls),
    }


# --- tokens ---------------------------------------------------------------------------------------


def _clean_token(m: Map, data: dict[str, Any], *, token: Token | None = None) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    if "name" in data or token is None:
        clean["name"] = _text(data.get("name"), "name", TOKEN_NAME_MAX)
    if data.get("color") not in (None, ""):
        if not COLOR.match(str(data["color"])):
            raise Invalid(_("A colour is #rrggbb."), fields={"color": ["#rrggbb"]})
        clean["color"] = str(data["color"]).lower()
    if "size" in data or token is None:
        ruleset = m.campaign.ruleset
        keys = [s.key for s in size_categories(ruleset)]
        size = data.get("size") or ("medium" if "medium" in keys else keys[0])
        clean["size"] = _choice(size, "size", keys)
        clean["cells"] = size_cells(ruleset, clean["size"])
    if "character_id" in data:
        character_id = data["character_id"]
        if character_id in (None, ""):
            clean["character"] = None
        else:
            character = Character.objects.filter(
                campaign_id=m.campaign_id, pk=_int(character_id, "character_id", 1, 2**62)
            ).first()
            if character is None:
                raise Invalid(
                    _("No such character in this campaign."), fields={"character_id": ["unknown"]}
                )
            clean["character"] = character
    if "hidden" in data and data["hidden"] is not None:
        clean["hidden"] = bool(data["hidden"])
    if "speed" in data:
        clean["speed"] = (
            None if data["speed"] in (None, "") else _int(data["speed"], "speed", 0, MAX_SPEED)
        )
    if "moved" in data:
        clean["moved"] = _int(data["moved"], "moved", 0, 10**6)
    for field, high in (("col", m.width - 1), ("row", m.height - 1)):
        if field in data and data[field] is not None:
            clean[field] = _int(data[field], field, 0, high)
    return clean


@transaction.atomic
def token_create(*, map: Map, actor: User, **data: Any) -> Token:
    m = _lock(map)
    if Token.objects.filter(map=m).count() >= MAX_TOKENS:
        raise Conflict(
            _("At most %(n)d tokens on a map.") % {"n": MAX_TOKENS}, code="too_many_tokens"
        )
    clean = _clean_token(m, data)
    character = clean.get("character")
    if "hidden" not in clean:
        clean["hidden"] = bool(character and character.hidden)
    if not clean.get("color"):
        clean["color"] = "#2f6b3a" if character and character.kind == "pc" else "#7a2e1f"
    token = Token(map=m, **clean)
    token.col, token.row = clamp_anchor(
        (token.col, token.row), token.cells, kind=m.kind, width=m.width, height=m.height
    )
    token.save()
    _publish_token(m, actor, token, before=Seen())
    return token


def _publish_token(m: Map, actor: User | None, token: Token, *, before: Seen, **extra) -> None:
    """The referee's copy; the players' copy (the token, or its removal when they saw it
    before); then the owners' whispers (``owner_copies``)."""
    fog = Fog.for_map(m)
    now = token_visible(token, m, fog)
    urls = Urls(m)
    referee = {"token": token_data(token, m, referee=True, urls=urls), **extra}
    own = owner_copies(m, token, fog, before)
    if now:
        players = {"token": token_data(token, m, referee=False, urls=urls)}
        _publish(m, "map.token", actor, referee, players, owner_copies=own)
    elif before.players:
        gone = {"token_id": token.pk}
        _publish(m, "map.token", actor, referee, gone, "map.token.gone", owner_copies=own)
    else:
        _publish(m, "map.token", actor, referee, None, owner_copies=own)


def _locked_token(m: Map, token_id: int) -> Token:
    token = selectors.token_row(m.pk, token_id, lock=True)
    if token is None:
        raise Invalid(_("No such token on this map."), code="no_token")
    return token


@transaction.atomic
def token_update(*, map: Map, actor: User, token_id: int, **data: Any) -> Token:
    """The referee changes anything about a token (placing it does not count as movement).
    Relinking it to another character hands it from one owner's view to the other's."""
    m = _lock(map)
    token = _locked_token(m, token_id)
    before = seen(token, m, Fog.for_map(m))
    for key, value in _clean_token(m, data, token=token).items():
        setattr(token, key, value)
    token.col, token.row = clamp_anchor(
        (token.col, token.row), token.cells, kind=m.kind, width=m.width, height=m.height
    )
    token.save()
    _publish_token(m, actor, token, before=before)
    return token


def can_move(token: Token, *, user_id: int, role: str) -> bool:
    """The referee moves any token; a player moves the tokens of their own characters."""
    if role == Role.REFEREE:
        return True
    character = token.character if token.character_id else None
    return (
        role == Role.PLAYER
        and character is not None
        and character.kind == "pc"
        and character.owner_id == user_id
    )


@transaction.atomic
def token_move(*, map: Map, **move: Any) -> tuple[Token, int]:
    """Move a token to a cell; the distance by the map's rule is added to its movement this
    round. Returns ``(token, distance)``. ``move``: ``actor``, ``role``, ``token_id``, ``col``,
    ``row`` and ``path``, as for ``token_move_on`` (which the API uses: it also applies the
    players' active-map rule). During a Crows combat the move walks the creature's Move
    maneuver (the ruleset plugin's ``walk_token``; ``path`` lists the squares entered).

    Players may move only their own characters' tokens, which they can see, and only onto
    revealed cells; anything else on the map does not exist for them (404-like ``no_token``).
    """
    return _move_locked(_lock(map), **move)


@transaction.atomic
def token_move_on(
    *,
    campaign_id: int,
    map_id: int,
    actor: User,
    role: str,
    token_id: int,
    col: Any,
    row: Any,
    path: Any = None,
) -> tuple[Map, Token, int]:
    """``token_move`` for the API: the map is read once, under its lock, with the access rule
    of ``selectors.map_for`` (players: only the active map; otherwise ``Map.DoesNotExist``).
    Returns ``(map, token, distance)``. Every request a player's drag makes comes here, so it
    costs two statements fewer than authorising first and locking after."""
    m = selectors.map_row(
        int(map_id), campaign_id=campaign_id, active_only=role != Role.REFEREE, lock=True
    )
    if m is None:
        raise Map.DoesNotExist
    token, distance = _move_locked(
        m, actor=actor, role=role, token_id=token_id, col=col, row=row, path=path
    )
    return m, token, distance


def _move_locked(
    m: Map, *, actor: User, role: str, token_id: int, col: Any, row: Any, path: Any = None
) -> tuple[Token, int]:
    token = _locked_token(m, token_id)
    fog = Fog.for_map(m)
    before = seen(token, m, fog)
    # the owner of a player character sees its token under the fog or hidden, so may move it
    if role != Role.REFEREE and not token_visible(token, m, fog, viewer_id=actor.pk):
        raise Invalid(_("No such token on this map."), code="no_token")
    if not can_move(token, user_id=actor.pk, role=role):
        raise ServiceError(
            _("You may move only your own characters' tokens."), code="not_owner", status=403
        )
    target = _cell(m, (col, row))
    target = clamp_anchor(target, token.cells, kind=m.kind, width=m.width, height=m.height)
    if role != Role.REFEREE:
        probe = Token(col=target[0], row=target[1], cells=token.cells)
        if not fog.all_revealed(token_cells(probe, m)):
            raise Invalid(
                _("That area is still hidden: the referee has to reveal it first."),
                code="fogged",
            )
    start = (token.col, token.row)
    distance = grid_distance(start, target, kind=m.kind, orientation=m.orientation, metric=m.metric)
    web = web_for(m.campaign.ruleset)
    if web.battle_squares and m.kind == GridKind.SQUARE:
        web.walk_token(
            m=m, actor=actor, role=role, token=token, start=start, target=tuple(target), path=path
        )
    token.col, token.row = target
    token.moved += distance
    Token.objects.filter(pk=token.pk).update(col=token.col, row=token.row, moved=token.moved)
    _publish_token(m, actor, token, before=before, moved_by=distance, start=list(start))
    return token, distance


@transaction.atomic
def token_delete(*, map: Map, actor: User, token_id: int) -> None:
    m = _lock(map)
    token = _locked_token(m, token_id)
    fog = Fog.for_map(m)
    before = seen(token, m, fog)
    # the owner saw it under the fog or hidden even if the players did not: they are told
    own = owner_copies(m, token, fog, before, deleted=True)
    image, token_pk = token.image, token.pk
    token.delete()
    _publish(
        m,
        "map.token.gone",
        actor,
        {"token_id": token_pk},
        {"token_id": token_pk} if before.players else None,
        owner_copies=own,
    )
    transaction.on_commit(lambda: images.delete(image))


def token_image_set(*, map: Map, actor: User, token_id: int, upload) -> Token:
    clean = images.clean_image(upload, max_side=images.TOKEN_MAX_SIDE)
    name = images.store(clean.data, folder="tokens", ext=clean.ext)
    try:
        with transaction.atomic():
            m = _lock(map)
            token = _locked_token(m, token_id)
            old = token.image
            token.image = name
            token.image_version += 1
            token.save(update_fields=["image", "image_version"])
            _publish_token(m, actor, token, before=seen(token, m, Fog.for_map(m)))
    except BaseException:
        images.delete(name)
        raise
    transaction.on_commit(lambda: images.delete(old))
    return token


@transaction.atomic
def token_image_clear(*, map: Map, actor: User, token_id: int) -> Token:
    m = _lock(map)
    token = _locked_token(m, token_id)
    old = token.image
    if old:
        token.image = ""
        token.image_version += 1
        token.save(update_fields=["image", "image_version"])
        _publish_token(m, actor, token, before=seen(token, m, Fog.for_map(m)))
        transaction.on_commit(lambda: images.delete(old))
    return token


@transaction.atomic
def movement_reset(*, map: Map, actor: User) -> int:
    """A new round: every token on the map has its full speed again."""
    m = _lock(map)
    count = Token.objects.filter(map=m).exclude(moved=0).update(moved=0)
    _publish(m, "map.round", actor, {"reset": True}, {"reset": True})
    return count


# --- notes ----------------------------------------------------------------------------------------


def _publish_note(m: Map, actor: User, note: MapNote, *, was_visible: bool) -> None:
    now = note_visible(note, Fog.for_map(m))
    _publish(m, "map.note", actor, {"note": note_data(note, referee=True)}, None)
    if now:
        _publish(m, "map.note", actor, None, {"note": note_data(note, referee=False)})
    elif was_visible:
        _publish(m, "map.note.gone", actor, None, {"note_id": note.pk})


@transaction.atomic
def note_create(
    *, map: Map, actor: User, col: Any, row: Any, text: Any, secret: bool = True
) -> MapNote:
    m = _lock(map)
    if MapNote.objects.filter(map=m).count() >= MAX_NOTES:
        raise Conflict(_("At most %(n)d notes on a map.") % {"n": MAX_NOTES}, code="too_many_notes")
    c, r = _cell(m, (col, row))
    note = MapNote.objects.create(map=m, col=c, row=r, text=_note_text(text), secret=bool(secret))
    _publish_note(m, actor, note, was_visible=False)
    return note


def _note_text(text: Any) -> str:
    text = str(text or "").strip()
    if not text:
        raise Invalid(_("Write the note first."), fields={"text": [_("Required.")]})
    if len(text) > NOTE_MAX:
        raise Invalid(
            _("A note is at most %(max)d characters.") % {"max": NOTE_MAX},
            fields={"text": [str(NOTE_MAX)]},
        )
    return text


def _locked_note(m: Map, note_id: int) -> MapNote:
    note = MapNote.objects.select_for_update().filter(map=m, pk=note_id).first()
    if note is None:
        raise Invalid(_("No such note on this map."), code="no_note")
    return note


@transaction.atomic
def note_update(*, map: Map, actor: User, note_id: int, **data: Any) -> MapNote:
    m = _lock(map)
    note = _locked_note(m, note_id)
    was_visible = note_visible(note, Fog.for_map(m))
    if "text" in data:
        note.text = _note_text(data["text"])
    if data.get("secret") is not None:
        note.secret = bool(data["secret"])
    if "col" in data or "row" in data:
        note.col, note.row = _cell(m, (data.get("col", note.col), data.get("row", note.row)))
    note.save()
    _publish_note(m, actor, note, was_visible=was_visible)
    return note


@transaction.atomic
def note_delete(*, map: Map, actor: User, note_id: int) -> None:
    m = _lock(map)
    note = _locked_note(m, note_id)
    was_visible = note_visible(note, Fog.for_map(m))
    note_pk = note.pk
    note.delete()
    _publish(
        m,
        "map.note.gone",
        actor,
        {"note_id": note_pk},
        {"note_id": note_pk} if was_visible else None,
    )


# --- terrain and the party (travel hexes) ---------------------------------------------------


@transaction.atomic
def terrain_paint(*, map: Map, actor: User, terrain: Any, cells: Any) -> int:
    """Set (or with ``""`` clear) the terrain of cells. Players learn it for revealed cells."""
    m = _lock(map)
    value = "" if terrain in (None, "") else _choice(terrain, "terrain", Terrain.values)
    current = dict(m.terrain or {})
    changed: dict[str, str] = {}
    for col, row in _cells(m, cells):
        key = cell_key(col, row)
        if current.get(key, "") != value:
            changed[key] = value
            if value:
                current[key] = value
            else:
                current.pop(key, None)
    if not changed:
        return 0
    m.terrain = current
    m.save(update_fields=["terrain", "updated_at"])
    fog = Fog.for_map(m)
    seen = {k: v for k, v in changed.items() if fog.is_revealed(*parse_key(k))}
    _publish(m, "map.terrain", actor, {"cells": changed}, {"cells": seen} if seen else None)
    return len(changed)


@transaction.atomic
def party_set(
    *,
    map: Map,
    actor: User,
    shown: Any = UNSET,
    true: Any = UNSET,
    reveal: int | None = 0,
) -> Map:
    """Where the party is shown to be and where it truly is (the referee's secret while the
    party is lost). ``None`` clears a position. Moving the shown position reveals the hexes
    within ``reveal`` steps of it (``None``: reveal nothing): the hexes the party has seen."""
    m = _lock(map)
    if shown is not UNSET:
        m.party_col, m.party_row = (None, None) if shown is None else _cell(m, shown, "shown")
    if true is not UNSET:
        m.true_col, m.true_row = (None, None) if true is None else _cell(m, true, "true")
    m.save(update_fields=["party_col", "party_row", "true_col", "true_row", "updated_at"])
    shown_cell = None if m.party_col is None else [m.party_col, m.party_row]
    true_cell = None if m.true_col is None else [m.true_col, m.true_row]
    players = {"shown": shown_cell} if shown is not UNSET else None
    _publish(m, "map.party", actor, {"shown": shown_cell, "true": true_cell}, players)
    if shown is not UNSET and shown_cell is not None and reveal is not None:
        radius = _int(reveal, "reveal", 0, 5)
        if m.kind == GridKind.HEX:
            area: list[tuple[int, int]] = list(
                offsets_in_range(
                    shown_cell[0], shown_cell[1], radius, m.orientation, m.width, m.height
                )
            )
        else:
            c0, r0 = shown_cell
            area = [
                (c, r)
                for r in range(r0 - radius, r0 + radius + 1)
                for c in range(c0 - radius, c0 + radius + 1)
                if 0 <= c < m.width and 0 <= r < m.height
            ]
        fog_change(map=m, actor=actor, reveal=True, cells=area)
    return m


# --- battle squares: cover, height, light, concealment -------------------------------------
# (Crows «Свет»; «Линия эффекта»; «Бой › Возвышенность»)

FEATURE_CHOICES: dict[str, tuple[str, ...]] = {
    "cover": ("wall", "low"),
    "light": tuple(Light.values),
    "concealment": ("light", "heavy"),
    # the ground a Move crosses: difficult terrain and water (swimming) cost +1
    # («Бой › Передвижение»)
    "ground": ("difficult", "water"),
}
MAX_HEIGHT = 100


def _clean_features(data: dict[str, Any]) -> dict[str, Any]:
    """``{"cover": "wall"|"low"|"", "height": 0..100, "light": …|"", "concealment": …|""}``;
    an empty value (or height 0) clears that feature."""
    known = {*FEATURE_CHOICES, "height"}
    unknown = set(data) - known
    if unknown or not data:
        raise Invalid(
            _("Paint one of: %(keys)s.") % {"keys": ", ".join(sorted(known))},
            fields={"features": sorted(known)},
        )
    clean: dict[str, Any] = {}
    for key, value in data.items():
        if key == "height":
            clean[key] = 0 if value in (None, "") else _int(value, "height", 0, MAX_HEIGHT)
        elif value in (None, ""):
            clean[key] = ""
        else:
            clean[key] = _choice(value, key, FEATURE_CHOICES[key])
    return clean


@transaction.atomic
def features_paint(*, map: Map, actor: User, cells: Any, **features: Any) -> int:
    """Set battle features on square cells: walls and low obstacles (cover, line of effect),
    height in squares (high ground), painted light and concealment. Players learn them for
    revealed cells, as they learn terrain."""
    m = _lock(map)
    if m.kind != GridKind.SQUARE:
        raise Invalid(
            _("Walls, height and light are painted on square battle maps."), code="not_square"
        )
    clean = _clean_features(features)
    current = dict(m.features or {})
    changed: dict[str, dict[str, Any]] = {}
    for col, row in _cells(m, cells):
        key = cell_key(col, row)
        before = dict(current.get(key) or {})
        after = dict(before)
        for name, value in clean.items():
            if value in ("", 0):
                after.pop(name, None)
            else:
                after[name] = value
        if after != before:
            changed[key] = after
            if after:
                current[key] = after
            else:
                current.pop(key, None)
    if not changed:
        return 0
    m.features = current
    m.save(update_fields=["features", "updated_at"])
    fog = Fog.for_map(m)
    seen = {k: v for k, v in changed.items() if fog.is_revealed(*parse_key(k))}
    _publish(m, "map.features", actor, {"cells": changed}, {"cells": seen} if seen else None)
    return len(changed)
