"""Reads that the pages, the API and the services share, and THE rule for what players see.

Players (and observers) see only the campaign's active map, and on it:

- tokens that are not hidden and cover at least one revealed cell, and the tokens of their
  own characters wherever they stand, hidden or not (without the ``hidden`` flag);
- notes that are not secret and stand on a revealed cell;
- terrain and battle features (walls, height, painted light) of revealed cells;
- the party's shown position (never the true one);
- the background through ``images.masked_background`` (fogged cells painted over).

Everything a player's browser receives about a map (page, API, events) is built by
``token_data`` / ``note_data`` / ``map_state`` with ``referee=False`` after ``token_visible`` /
``note_visible`` said yes, so the rule lives here once.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from django.http import Http404
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _

from systems.core.grid import footprint, pixel_size, size_categories
from vtt.campaigns.models import Membership, Role
from vtt.maps.fog import Fog
from vtt.maps.models import DistanceUnit, Map, MapNote, Terrain, Token
from vtt.table.models import EventCursor


def is_referee(membership: Membership) -> bool:
    return membership.role == Role.REFEREE


def maps_for(membership: Membership):
    qs = Map.objects.filter(campaign_id=membership.campaign_id).defer(
        "revealed", "terrain", "features"
    )
    return qs if is_referee(membership) else qs.filter(active=True)


def map_for(membership: Membership, map_id: int | str, *, for_update: bool = False) -> Map:
    """The map if this member may see it (players: only the active one), else 404."""
    try:
        map_id = int(map_id)
    except (TypeError, ValueError):
        map_id = 0
    m = map_row(
        map_id,
        campaign_id=membership.campaign_id,
        active_only=not is_referee(membership),
        lock=for_update,
    )
    if m is None:
        raise Http404(_("Map not found."))
    return m


def map_row(
    map_id: int, *, campaign_id: int | None = None, active_only: bool = False, lock: bool = False
) -> Map | None:
    """A map with its campaign in one query: every token move reads it, under its row lock
    (only the map's row: the campaign stays free for the log append's key-share lock)."""
    if not 0 < map_id < 2**63:
        return None
    maps = Map.objects.select_related("campaign").filter(pk=map_id)
    if campaign_id is not None:
        maps = maps.filter(campaign_id=campaign_id)
    if active_only:
        maps = maps.filter(active=True)
    if lock:
        maps = maps.select_for_update(of=("self",))
    return maps.first()


def token_row(map_id: int, token_id: int, *, lock: bool = False) -> Token | None:
    """A token of the map with its character (if any), locking only the token's row."""
    if not 0 < token_id < 2**63:
        return None
    tokens = Token.objects.select_related("character").filter(pk=token_id, map_id=map_id)
    if lock:
        tokens = tokens.select_for_update(of=("self",))
    return tokens.first()


def active_map(campaign_id: int) -> Map | None:
    return Map.objects.filter(campaign_id=campaign_id, active=True).first()


def token_cells(token: Token, m: Map) -> list[tuple[int, int]]:
    return footprint(
        (token.col, token.row),
        token.cells,
        kind=m.kind,
        orientation=m.orientation,
        width=m.width,
        height=m.height,
    )


def token_owner_id(token: Token) -> int | None:
    """The player whose character the token stands for (player characters only)."""
    character = token.character if token.character_id else None
    return character.owner_id if character is not None and character.kind == "pc" else None


def token_visible(token: Token, m: Map, fog: Fog, *, viewer_id: int | None = None) -> bool:
    """THE rule for a token, per viewer. Players see a token only if it is not hidden and
    covers a revealed cell. The player whose character the token stands for (``viewer_id``)
    sees it always, under the fog and when the referee hides it from everyone else: they know
    where their character stands. The ``hidden`` flag itself stays the referee's
    (``token_data``), so the owner's copy does not say that the others cannot see it."""
    if viewer_id is not None and viewer_id == token_owner_id(token):
        return True
    return not token.hidden and fog.any_revealed(token_cells(token, m))


def note_visible(note: MapNote, fog: Fog) -> bool:
    return not note.secret and fog.is_revealed(note.col, note.row)


def cell_key(col: int, row: int) -> str:
    return f"{col},{row}"


def parse_key(key: str) -> tuple[int, int]:
    col, row = key.split(",")
    return int(col), int(row)


class Urls:
    """URL templates built once per map (reverse() for 500 tokens adds up), from patterns
    reversed once per process and URL prefix (every token move builds one)."""

    def __init__(self, m: Map) -> None:
        token_image, background = _url_patterns(get_script_prefix())
        self.token_image = token_image.format(campaign=m.campaign_id, map=m.pk, id="{id}")
        self.background = background.format(campaign=m.campaign_id, map=m.pk)


@cache
def _url_patterns(prefix: str) -> tuple[str, str]:
    def pattern(name: str, args: list[int]) -> str:
        url = reverse(name, args=args).replace("{", "{{").replace("}", "}}")
        for placeholder, arg in zip(("{campaign}", "{map}", "{id}"), args, strict=False):
            url = url.replace(str(arg), placeholder, 1)
        return url

    return (
        pattern("map_token_image", [777777771, 777777772, 777777773]),
        pattern("map_background", [777777771, 777777772]),
    )


def token_data(token: Token, m: Map, *, referee: bool, urls: Urls | None = None) -> dict[str, Any]:
    """A token as a browser gets it. Players' copies leave out what is the referee's business:
    the hidden flag, links to NPCs, and the speed of anything that is not a player character."""
    urls = urls or Urls(m)
    character = token.character if token.character_id else None
    is_pc = character is not None and character.kind == "pc"
    data: dict[str, Any] = {
        "id": token.pk,
        "name": token.name,
        "color": token.color,
        "image": urls.token_image.format(id=token.pk) + f"?v={token.image_version}"
        if token.image
        else None,
        "size": token.size,
        "cells": token.cells,
        "col": token.col,
        "row": token.row,
        "owner_id": character.owner_id if is_pc else None,
    }
    if referee:
        data.update(
            hidden=token.hidden,
            character_id=token.character_id,
            speed=token.speed,
            moved=token.moved,
        )
    else:
        if is_pc and not character.hidden:
            data["character_id"] = token.character_id
            data["speed"] = token.speed
            data["moved"] = token.moved
    return data


def feature_data(feature: dict[str, Any] | None) -> dict[str, Any]:
    """A square's battle features as browsers get them (the same for everyone who sees it)."""
    return dict(feature or {})


def note_data(note: MapNote, *, referee: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"id": note.pk, "col": note.col, "row": note.row, "text": note.text}
    if referee:
        data["secret"] = note.secret
    return data


def background_version(m: Map, *, referee: bool) -> str:
    """What names one exact image in the background's URL: the players' copy changes with the
    fog as well as with the upload."""
    return f"{m.bg_version}" if referee else f"{m.bg_version}-{m.fog_version}"


def background_data(m: Map, *, referee: bool, fog: Fog, urls: Urls) -> dict[str, Any] | None:
    if not m.background:
        return None
    if not referee and fog.count() == 0:
        return None  # nothing revealed: nothing to show, nothing to fetch
    return {
        "url": f"{urls.background}?v={background_version(m, referee=referee)}",
        "width": m.bg_width,
        "height": m.bg_height,
    }


def map_summary(m: Map) -> dict[str, Any]:
    return {"id": m.pk, "name": m.name, "kind": m.kind, "active": m.active}


def map_settings(m: Map) -> dict[str, Any]:
    px_w, px_h = pixel_size(m.kind, m.orientation, m.cell_px, m.width, m.height)
    return {
        "id": m.pk,
        "name": m.name,
        "kind": m.kind,
        "orientation": m.orientation,
        "metric": m.metric,
        "width": m.width,
        "height": m.height,
        "cell_px": m.cell_px,
        "cell_distance": _number(m.cell_distance),
        "distance_unit": m.distance_unit,
        "unit_label": str(DistanceUnit(m.distance_unit).label)
        if m.distance_unit in DistanceUnit.values
        else m.distance_unit,
        "fogged": m.fogged,
        "ambient_light": m.ambient_light,
        "active": m.active,
        "version": m.version,
        "pixel_width": round(px_w, 3),
        "pixel_height": round(px_h, 3),
    }


def _number(value: Decimal | float) -> float | int:
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def current_head(campaign_id: int) -> int:
    cursor = EventCursor.objects.filter(campaign_id=campaign_id).first()
    return cursor.last_seq if cursor else 0


def map_state(m: Map, *, referee: bool, viewer_id: int | None = None) -> dict[str, Any]:
    """Everything a browser draws for a map, filtered for players (``viewer_id``: the player
    asking, who also gets their own characters' tokens under the fog).

    ``head`` is read first: events after it may already be in this state, and applying them
    again is harmless (every map event carries absolute values), so nothing is lost or doubled.
    """
    head = current_head(m.campaign_id)
    m.refresh_from_db()
    fog = Fog.for_map(m)
    urls = Urls(m)
    tokens = Token.objects.filter(map=m).select_related("character")
    notes = MapNote.objects.filter(map=m)
    if referee:
        token_list = [token_data(t, m, referee=True, urls=urls) for t in tokens]
        note_list = [note_data(n, referee=True) for n in notes]
        terrain = dict(m.terrain or {})
        features = {k: feature_data(v) for k, v in (m.features or {}).items()}
        party = {"shown": _cell(m.party_col, m.party_row), "true": _cell(m.true_col, m.true_row)}
    else:
        token_list = [
            token_data(t, m, referee=False, urls=urls)
            for t in tokens
            if token_visible(t, m, fog, viewer_id=viewer_id)
        ]
        note_list = [note_data(n, referee=False) for n in notes if note_visible(n, fog)]
        terrain = {
            key: value
            for key, value in (m.terrain or {}).items()
            if fog.is_revealed(*parse_key(key))
        }
        features = {
            key: feature_data(value)
            for key, value in (m.features or {}).items()
            if fog.is_revealed(*parse_key(key))
        }
        party = {"shown": _cell(m.party_col, m.party_row)}
    return {
        "head": head,
        "audience": "referee" if referee else "players",
        "map": map_settings(m),
        "fog": {"version": m.fog_version, "runs": fog.runs()},
        "background": background_data(m, referee=referee, fog=fog, urls=urls),
        "tokens": token_list,
        "notes": note_list,
        "terrain": terrain,
        "features": features,
        "party": party,
    }


def _cell(col: int | None, row: int | None) -> list[int] | None:
    return None if col is None or row is None else [col, row]


def sizes_for(ruleset: str, lang: str) -> list[dict[str, Any]]:
    ru = lang.startswith("ru")
    return [
        {"key": s.key, "label": s.ru if ru else s.en, "cells": s.cells}
        for s in size_categories(ruleset)
    ]


def terrain_choices() -> list[dict[str, str]]:
    return [{"key": t.value, "label": str(t.label)} for t in Terrain]
