"""Every event kind the table publishes, declared once (DESIGN.md, "Event kinds and commands").

A kind names its payload's top-level fields with their types (nested structures are declared
loosely as ``dict`` or ``list``), the visibilities it may be published with, which payload
paths carry ids and of what, and one English line for docs/table-protocol.md. Three things are
derived from it, so they cannot drift from what the code publishes:

- ``publish``/``publish_many`` refuse an undeclared kind or a payload that does not match
  (``KindError``: a bug in the publisher, never bad user input);
- the campaign archive remaps exactly the declared id paths on import
  (vtt/campaigns/archive.py);
- the kinds table in docs/table-protocol.md (``manage.py protocol_doc``).

Id paths: dot-separated keys; ``[]`` after a key means "each element of that list"; ``*``
means "each value of that object". The value found is an integer id, a string of digits (some
rules results keep sheet ids as strings), or for a ``combatant`` a ``"t<token id>"`` string.

Copies for two audiences: an event whose players see less than the referee is published twice,
the referee's copy ``blind`` with ``audience: "referee"`` and the players' copy ``players``
(every member but the referee) with ``audience: "players"``; each browser receives only its own
copy. Logs written before the ``players`` visibility hold those players' copies as
``everyone``: replay leaves them out for a referee (``events.visible_filter``). Older still,
``initiative`` and ``tablestate`` pairs (``everyone``, then a ``blind`` full copy, no
``audience``) replay as they are: the browser keeps the newest snapshot, and the referee's old
``tablestate`` copy says ``log: false``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from vtt.table.models import Visibility as V

NONE = type(None)


class KindError(Exception):
    """A publisher built an event its kind does not declare: a programming error."""


@dataclass(frozen=True)
class Field:
    """One top-level payload field: the types its value may have, and whether it must be there."""

    types: tuple[type, ...]
    required: bool = True

    def accepts(self, value: Any) -> bool:
        if isinstance(value, bool):
            return bool in self.types
        if isinstance(value, float) and float in self.types:
            return True
        return isinstance(value, tuple(t for t in self.types if t is not float))

    def type_names(self) -> str:
        names = {NONE: "null", dict: "object", list: "list", str: "string", bool: "bool"}
        names.update({int: "int", float: "number"})
        return "/".join(names[t] for t in self.types)


def req(*types: type) -> Field:
    return Field(types, True)


def opt(*types: type) -> Field:
    return Field(types, False)


# What an id names: the keys are the archive's object types (vtt/campaigns/archive.py maps each
# to its model). ``table_state`` is a subtree shaped like ``TableState.state`` (Savage Worlds
# participant ids "c<character id>" and the sheets and players it names).
OBJECTS = {
    "user": "a user (a member of the campaign)",
    "character": "a character or NPC sheet",
    "pending_move": "a move waiting for a choice",
    "map": "a map",
    "token": "a token on a map",
    "note": "a note on a map",
    "combatant": 'a combatant in a Crows combat, "t<token id>"',
    "roll": "a dice roll",
    "initiative_entry": "an entry of the initiative order",
    "random_table": "a referee's random table",
    "table_result": "a roll on a random table",
    "table_state": "a ruleset's table state (Savage Worlds participant ids and sheets)",
    "journal_entry": "a journal entry",
}

EVERYONE_OR_BLIND = (V.EVERYONE, V.BLIND)
TWO_COPIES = (V.BLIND, V.PLAYERS)


@dataclass(frozen=True)
class Kind:
    """One event kind. ``family`` kinds match every name that starts with ``name`` (the
    dungeon turn's ``turn.<result>``); ``rules_fields`` lets the rules core's own event keys
    through besides the declared ones (the rules core has no database, so they hold no ids)."""

    name: str
    doc: str
    fields: Mapping[str, Field]
    visibility: tuple[str, ...]
    ids: Mapping[str, str] = field(default_factory=dict)
    family: bool = False
    rules_fields: bool = False

    @property
    def audience(self) -> str:
        """The docs' word for who receives it."""
        words = {
            V.EVERYONE: "everyone",
            V.PLAYERS: "players",
            V.REFEREE: "referee + roller",
            V.WHISPER: "one user",
            V.BLIND: "referee",
        }
        return ", ".join(words[v] for v in self.visibility)


KINDS: dict[str, Kind] = {}


def register(*kinds: Kind) -> None:
    """Declare kinds (an app publishing its own calls this when it is imported)."""
    for kind in kinds:
        if kind.name in KINDS:
            raise KindError(f"event kind {kind.name!r} declared twice")
        unknown = set(kind.ids.values()) - set(OBJECTS)
        if unknown:
            raise KindError(f"{kind.name}: unknown id objects {sorted(unknown)}")
        for path in kind.ids:
            top = path.split(".")[0].removesuffix("[]")
            if top not in kind.fields:
                raise KindError(f"{kind.name}: id path {path!r} is not a declared field")
        KINDS[kind.name] = kind


def get(name: str) -> Kind | None:
    """The kind that declares ``name`` (an exact kind, else the family it belongs to)."""
    kind = KINDS.get(name)
    if kind is not None:
        return kind
    for family in KINDS.values():
        if family.family and name.startswith(family.name):
            return family
    return None


def validate(name: str, payload: Any, visibility: str, *, has_target: bool = False) -> None:
    """Refuse an event its kind does not declare (raises ``KindError``)."""
    kind = get(name)
    if kind is None:
        raise KindError(f"unknown event kind {name!r}: declare it in vtt/table/kinds.py")
    if visibility not in kind.visibility:
        allowed = ", ".join(str(v) for v in kind.visibility)
        raise KindError(f"{name}: visibility {str(visibility)!r} is not one of {allowed}")
    if (visibility == V.WHISPER) != has_target:
        raise KindError(f"{name}: a whisper, and only a whisper, names its target")
    if not isinstance(payload, dict):
        raise KindError(f"{name}: the payload must be an object")
    for key, spec in kind.fields.items():
        if key not in payload:
            if spec.required:
                raise KindError(f"{name}: missing field {key!r}")
        elif not spec.accepts(payload[key]):
            raise KindError(
                f"{name}: field {key!r} is {type(payload[key]).__name__}, "
                f"declared {spec.type_names()}"
            )
    if not kind.rules_fields:
        extra = set(payload) - set(kind.fields)
        if extra:
            raise KindError(f"{name}: undeclared fields {sorted(extra)}")
    audience = payload.get("audience")
    if audience == "referee" and visibility != V.BLIND:
        raise KindError(f"{name}: the referee's copy is blind")
    if audience == "players" and visibility not in (V.PLAYERS, V.WHISPER):
        raise KindError(f"{name}: the players' copy goes to players (or one player)")


# --- ids ------------------------------------------------------------------------------------


def id_paths() -> dict[str, dict[str, str]]:
    """Every declared id path, by kind: what the archive must remap."""
    return {name: dict(kind.ids) for name, kind in KINDS.items() if kind.ids}


def rewrite_ids(name: str, payload: Any, fn: Callable[[str, Any], Any]) -> Any:
    """A copy of ``payload`` with every value at a declared id path replaced by
    ``fn(object, value)`` (``fn`` is given ``None`` values too and decides what to keep)."""
    kind = get(name)
    if kind is None or not isinstance(payload, dict):
        return payload
    out = payload
    for path, obj in kind.ids.items():
        out = _rewrite(out, path.split("."), obj, fn)
    return out


def _rewrite(value: Any, steps: list[str], obj: str, fn: Callable[[str, Any], Any]) -> Any:
    if not steps:
        return fn(obj, value)
    step, rest = steps[0], steps[1:]
    if step == "*":
        if not isinstance(value, dict):
            return value
        return {k: _rewrite(v, rest, obj, fn) for k, v in value.items()}
    many = step.endswith("[]")
    key = step.removesuffix("[]")
    if not isinstance(value, dict) or key not in value:
        return value
    inner = value[key]
    if many:
        if not isinstance(inner, list):
            return value
        new: Any = [_rewrite(item, rest, obj, fn) for item in inner]
    else:
        new = _rewrite(inner, rest, obj, fn)
    return {**value, key: new}


def iter_ids(name: str, payload: Any) -> Iterable[tuple[str, Any]]:
    """(object, value) for every value at a declared id path of this payload."""
    found: list[tuple[str, Any]] = []

    def note(obj: str, value: Any) -> Any:
        found.append((obj, value))
        return value

    rewrite_ids(name, payload, note)
    return found


# --- the kinds ------------------------------------------------------------------------------

ALL = (V.EVERYONE, V.REFEREE, V.WHISPER, V.BLIND)

ROLL_FIELDS = {
    "roll_id": req(int),
    "actor_name": req(str),
    "notation": req(str),
    "label": req(str),
    "terms": req(list),
    "total": req(int),
    "text": req(str),
    "commitment": opt(str),
}

CHARACTER_FIELDS = {
    "character_id": req(int),
    "name": req(str),
    "kind": req(str),
    "owner_id": req(int, NONE),
    "public": req(dict),
    "version": req(int),
    "changed": req(list),
}

MOVE_FIELDS = {
    "character_id": req(int),
    "character_name": req(str),
    "move_name": req(dict),
    "outcome": req(dict),
    "pending_id": req(int, NONE),
    "resolves": req(int, NONE),
    "chooser_id": opt(int),
    "chooser_character_id": opt(int),
    "context": opt(dict),
}

TOKEN_IDS = {"token.id": "token", "token.character_id": "character", "token.owner_id": "user"}

register(
    # rolls and chat
    Kind("roll", "A dice roll with its terms and total.", ROLL_FIELDS, ALL, {"roll_id": "roll"}),
    Kind(
        "roll.hidden",
        "The commitment (a hash) to a roll players may not see yet.",
        {"roll_id": req(int), "commitment": req(str), "visibility": req(str)},
        (V.EVERYONE,),
        {"roll_id": "roll"},
    ),
    Kind(
        "roll.reveal",
        "A hidden roll revealed: its preimage, which browsers hash to check the commitment.",
        {"roll_id": req(int), "commitment": req(str), "preimage": req(str)},
        (V.EVERYONE,),
        {"roll_id": "roll"},
    ),
    Kind(
        "chat",
        "A chat message (to everyone, the referee, or one member).",
        {"text": req(str), "actor_name": opt(str)},
        (V.EVERYONE, V.REFEREE, V.WHISPER),
    ),
    # initiative and the dungeon clock
    Kind(
        "initiative",
        "The initiative order: one copy for everyone, or with hidden entries the players' "
        "snapshot without them and the referee's full one.",
        {
            "round": req(int),
            "current": req(int, NONE),
            "current_hidden": req(bool),
            "entries": req(list),
            "audience": opt(str),
        },
        (V.EVERYONE, V.PLAYERS, V.BLIND),
        {
            "current": "initiative_entry",
            "entries[].id": "initiative_entry",
            "entries[].owner_id": "user",
        },
    ),
    Kind(
        "clock",
        "The dungeon-turn clock's state (running or paused, deadline, length).",
        {
            "state": req(str),
            "mode": req(str),
            "turn": req(int),
            "length_seconds": req(int),
            "remaining_seconds": req(float, NONE),
            "deadline": req(str, NONE),
            "server_time": req(str),
            "public_encounters": req(bool),
            "rooms_left": req(int, NONE),
        },
        (V.EVERYONE,),
    ),
    Kind(
        "turn.entered",
        "The party entered a dungeon: its first turn starts.",
        {"dungeon": req(str), "text": req(dict)},
        (V.EVERYONE,),
    ),
    Kind(
        "turn.ended",
        "A dungeon turn ended: how many results it had, the next turn.",
        {"turn": req(int), "results": req(int), "rest": req(bool), "next": req(dict)},
        (V.EVERYONE,),
    ),
    Kind(
        "turn.",
        "`turn.<type>`: one result of the rules' end of a dungeon turn (encounter checks, "
        "effects ending, rests…); the rules' own fields follow `type`.",
        {
            "type": req(str),
            "turn": req(int),
            "ended_turn": req(int),
            "audience": opt(str),
            "character": opt(int),
            "name": opt(str),
            "text": opt(dict),
            "pending_encounters": opt(list),
        },
        (V.EVERYONE, V.BLIND, V.PLAYERS),
        family=True,
        rules_fields=True,
    ),
    # characters and moves
    Kind(
        "character.created",
        "A character or NPC was created (its public part).",
        CHARACTER_FIELDS,
        EVERYONE_OR_BLIND,
        {"character_id": "character", "owner_id": "user"},
    ),
    Kind(
        "character.updated",
        "A sheet changed (its public part and the changed keys).",
        CHARACTER_FIELDS,
        EVERYONE_OR_BLIND,
        {"character_id": "character", "owner_id": "user"},
    ),
    Kind(
        "character.deleted",
        "A character or NPC was deleted.",
        {"character_id": req(int), "name": req(str)},
        EVERYONE_OR_BLIND,
        {"character_id": "character"},
    ),
    Kind(
        "move",
        "A move's roll and outcome; choices still open carry `pending_id`.",
        MOVE_FIELDS,
        EVERYONE_OR_BLIND,
        {
            "character_id": "character",
            "pending_id": "pending_move",
            "resolves": "pending_move",
            "chooser_id": "user",
            "chooser_character_id": "character",
            "context.map_id": "map",
            "context.attacker_token": "token",
            "context.target_token": "token",
        },
    ),
    Kind(
        "move.details",
        "The referee's details of a move (an NPC's hit points, modifiers).",
        {"character_id": req(int), "pending_id": req(int, NONE), "details": req(dict)},
        (V.BLIND,),
        {"character_id": "character", "pending_id": "pending_move"},
    ),
    Kind(
        "move.reaction",
        "A hidden mover's move as its target's player sees it: the choice of a reaction.",
        {
            "character_name": req(str),
            "move_name": req(dict),
            "outcome": req(dict),
            "pending_id": req(int),
            "chooser_id": req(int),
            "chooser_character_id": req(int),
        },
        (V.WHISPER,),
        {"pending_id": "pending_move", "chooser_id": "user", "chooser_character_id": "character"},
    ),
    Kind(
        "party.move",
        "A Dungeon World party move (Take Watch, Perilous Journey) and its result.",
        {
            "move": req(str),
            "move_name": req(dict),
            "character_ids": req(list),
            "rollers": req(list),
            "result": req(dict),
        },
        EVERYONE_OR_BLIND,
        {
            "character_ids[]": "character",
            "rollers[]": "character",
            "result.watcher": "character",
            "result.camp[]": "character",
            "result.forward_to[]": "character",
            "result.roles.*": "character",
        },
    ),
    # rulesets' table state and prep
    Kind(
        "tablestate",
        "A ruleset's table state changed (Savage Worlds deck and pool, Tales battle): one copy "
        "for everyone, or the players' public one and the referee's full one; blind alone for "
        "a hidden action. `log: false` marks the referee's second copy in logs written before.",
        {
            "ruleset": req(str),
            "action": req(str),
            "version": req(int),
            "data": req(dict),
            "outcome": req(dict, NONE),
            "full": req(bool),
            "log": req(bool),
            "snapshot": req(dict),
            "audience": opt(str),
        },
        (V.EVERYONE, V.PLAYERS, V.BLIND),
        {"data": "table_state", "outcome": "table_state", "snapshot": "table_state"},
    ),
    Kind(
        "random_table.roll",
        "A roll on the referee's random table.",
        {
            "table_id": req(int),
            "result_id": req(int),
            "table": req(str),
            "name": req(str),
            "entry": req(str),
            "faces": req(list),
            "total": req(int),
            "text": req(str),
            "result": req(dict),
            "actor_name": req(str),
            "visibility": req(str),
        },
        EVERYONE_OR_BLIND,
        {"table_id": "random_table", "result_id": "table_result"},
    ),
    # maps: the referee's copy (blind) and the players' copy (players) of each change
    Kind(
        "map.saved",
        "A map was created or its settings saved (the referee's copy only).",
        {
            "map_id": req(int),
            "id": req(int),
            "name": req(str),
            "kind": req(str),
            "active": req(bool),
            "audience": req(str),
        },
        (V.BLIND,),
        {"map_id": "map", "id": "map"},
    ),
    Kind(
        "map.update",
        "A map's name or settings changed.",
        {"map_id": req(int), "name": req(str), "version": req(int), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map"},
    ),
    Kind(
        "map.active",
        "The map on the table changed (`map_id` null: none).",
        {"map_id": req(int, NONE), "name": req(str), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map"},
    ),
    Kind(
        "map.deleted",
        "A map was deleted.",
        {"map_id": req(int), "audience": req(str)},
        (V.BLIND,),
        {"map_id": "map"},
    ),
    Kind(
        "map.token",
        "A token was placed, moved or changed (an owner's own copy is a whisper).",
        {
            "map_id": req(int),
            "token": req(dict),
            "audience": req(str),
            "moved_by": opt(int),
            "start": opt(list),
        },
        (V.BLIND, V.PLAYERS, V.WHISPER),
        {"map_id": "map", **TOKEN_IDS},
    ),
    Kind(
        "map.token.gone",
        "A token was removed, or its owner may no longer see it.",
        {"map_id": req(int), "token_id": req(int), "audience": req(str)},
        (V.BLIND, V.PLAYERS, V.WHISPER),
        {"map_id": "map", "token_id": "token"},
    ),
    Kind(
        "map.fog",
        "Fog revealed or hidden; the players' copy brings what came into view.",
        {
            "map_id": req(int),
            "fog_version": req(int),
            "reveal": req(bool),
            "runs": req(list),
            "audience": req(str),
            "tokens": opt(list),
            "gone": opt(list),
            "notes": opt(list),
            "notes_gone": opt(list),
            "terrain": opt(dict),
            "features": opt(dict),
            "background": opt(dict, NONE),
        },
        TWO_COPIES,
        {
            "map_id": "map",
            "tokens[].id": "token",
            "tokens[].character_id": "character",
            "tokens[].owner_id": "user",
            "gone[]": "token",
            "notes[].id": "note",
            "notes_gone[]": "note",
        },
    ),
    Kind(
        "map.note",
        "A note on a map was added or changed.",
        {"map_id": req(int), "note": req(dict), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map", "note.id": "note"},
    ),
    Kind(
        "map.note.gone",
        "A note on a map was deleted.",
        {"map_id": req(int), "note_id": req(int), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map", "note_id": "note"},
    ),
    Kind(
        "map.terrain",
        "Terrain painted on a map's cells.",
        {"map_id": req(int), "cells": req(dict), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map"},
    ),
    Kind(
        "map.features",
        "Battle squares changed (cover, height, light, concealment).",
        {"map_id": req(int), "cells": req(dict), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map"},
    ),
    Kind(
        "map.party",
        "The travelling party's marker: where it is shown and (referee) where it truly is.",
        {
            "map_id": req(int),
            "shown": req(list, NONE),
            "true": opt(list, NONE),
            "audience": req(str),
        },
        TWO_COPIES,
        {"map_id": "map"},
    ),
    Kind(
        "map.round",
        "A new round on the map: tokens' moves reset.",
        {"map_id": req(int), "reset": req(bool), "audience": req(str)},
        TWO_COPIES,
        {"map_id": "map"},
    ),
)


# --- the protocol document ------------------------------------------------------------------

DOC_BEGIN = "<!-- event kinds: begin (generated by `manage.py protocol_doc`; do not edit) -->"
DOC_END = "<!-- event kinds: end -->"


def _field_text(name: str, spec: Field) -> str:
    return f"`{name}`{'' if spec.required else '?'}: {spec.type_names()}"


def kinds_table() -> str:
    """The Markdown table of every kind, for docs/table-protocol.md."""
    lines = [
        "| kind | audience | payload (`?` optional) | ids | what |",
        "|---|---|---|---|---|",
    ]
    for kind in sorted(KINDS.values(), key=lambda k: k.name):
        name = f"`{kind.name}<type>`" if kind.family else f"`{kind.name}`"
        fields = ", ".join(_field_text(n, s) for n, s in kind.fields.items())
        if kind.rules_fields:
            fields += ", and the rules' own fields"
        ids = ", ".join(f"`{path}` → {obj}" for path, obj in kind.ids.items()) or "—"
        lines.append(f"| {name} | {kind.audience} | {fields} | {ids} | {kind.doc} |")
    return "\n".join(lines)


def render_doc(text: str) -> str:
    """``text`` (docs/table-protocol.md) with the table between the markers regenerated."""
    start, end = text.index(DOC_BEGIN) + len(DOC_BEGIN), text.index(DOC_END)
    return f"{text[:start]}\n{kinds_table()}\n{text[end:]}"
