"""Every write of the prep app, each in one transaction. Callers have authorised the referee.

Tables are cleaned by ``vtt.prep.rolltables`` and checked together with the campaign's other
tables (nested rolls name keys: unknown keys and loops are refused, naming them). A roll on a
table goes to the log through ``vtt.table.services.publish`` as ``random_table.roll``, to the
referee alone (``blind``) or to everyone, as the referee chooses.
"""

from __future__ import annotations

import re
from typing import Any

from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from systems.core.dice import Dice, RandomDice
from systems.core.ruleset import RulesError
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Role
from vtt.characters.models import Character, Kind
from vtt.characters.services import character_create
from vtt.core.commands import check_idempotency_key
from vtt.core.errors import Conflict, Invalid, invalid_from_rules
from vtt.prep import library, rolltables, selectors
from vtt.prep.models import (
    MONSTER_NOTE_MAX,
    NAME_MAX,
    ROOM_KEY_MAX,
    TEXT_MAX,
    Dungeon,
    RandomTable,
    Room,
    RoomMonster,
    TableResult,
    room_sort_key,
)
from vtt.table.models import InitiativeEntry
from vtt.table.models import Visibility as V
from vtt.table.services import ENTRY_NAME_MAX, initiative_add, publish

MAX_TABLES = 300
MAX_DUNGEONS = 100
MAX_ROOMS = 500
MAX_CELLS = 2000
MAX_COORD = 10_000
MAX_TREASURE_LINES = 100
MAX_TREASURE_LINE = 300
MAX_PLACE = 20  # NPC sheets one library stat block places at once
PLACE_NAME_MAX = 90  # room for " 12" after it in a sheet's name
MONSTER_COUNT_MAX = 99
ROLL_VISIBILITIES = (V.BLIND, V.EVERYONE)
EVENT_KIND = "random_table.roll"


def _lang() -> str:
    return "ru" if (get_language() or "ru").startswith("ru") else "en"


# --- tables --------------------------------------------------------------------------------------


def _fields(clean: dict[str, Any]) -> dict[str, Any]:
    return {k: clean[k] for k in ("key", "name", "formula", "weights", "modifier_label", "note")}


def _check_count(campaign: Campaign, adding: int) -> None:
    if RandomTable.objects.filter(campaign=campaign).count() + adding > MAX_TABLES:
        raise Conflict(
            _("A campaign holds at most %(max)d tables.") % {"max": MAX_TABLES},
            code="too_many_tables",
        )


def _key_taken(key: str) -> Conflict:
    return Conflict(
        _("There is already a table with the key “%(key)s”.") % {"key": key},
        code="table_key_taken",
        fields={"key": [_("Choose another key.")]},
    )


@transaction.atomic
def table_create(*, campaign: Campaign, data: dict[str, Any], source: str = "") -> RandomTable:
    clean = rolltables.clean_table(data)
    _check_count(campaign, 1)
    pool = selectors.table_pool(campaign)
    if clean["key"] in pool:
        raise _key_taken(clean["key"])
    pool[clean["key"]] = clean
    rolltables.check_pool(pool, [clean["key"]])
    return RandomTable.objects.create(
        campaign=campaign, entries=clean["entries"], source=source, **_fields(clean)
    )


@transaction.atomic
def table_update(*, table: RandomTable, data: dict[str, Any]) -> RandomTable:
    table = RandomTable.objects.select_for_update().get(pk=table.pk)
    clean = rolltables.clean_table(data)
    pool = selectors.table_pool(table.campaign_id)
    if clean["key"] != table.key:
        if clean["key"] in pool:
            raise _key_taken(clean["key"])
        users = selectors.referencing(table.campaign_id, table.key)
        if users:
            raise Conflict(
                _("Tables %(tables)s roll on “%(key)s”: change them before renaming its key.")
                % {"tables": ", ".join(users), "key": table.key},
                code="table_in_use",
            )
    del pool[table.key]
    pool[clean["key"]] = clean
    rolltables.check_pool(pool, [clean["key"]])
    for field, value in _fields(clean).items():
        setattr(table, field, value)
    table.entries = clean["entries"]
    table.save()
    return table


@transaction.atomic
def table_delete(*, table: RandomTable) -> None:
    users = selectors.referencing(table.campaign_id, table.key)
    if users:
        raise Conflict(
            _("Tables %(tables)s roll on “%(key)s”: change them before deleting it.")
            % {"tables": ", ".join(users), "key": table.key},
            code="table_in_use",
        )
    table.delete()


@transaction.atomic
def tables_import(
    *, campaign: Campaign, tables: list[Any], replace: bool = False, source: str = ""
) -> list[RandomTable]:
    """Save a set of tables (a parsed file) or nothing: every table is cleaned, then the
    whole set is checked with the campaign's other tables. Existing keys are refused unless
    ``replace`` (then those tables are overwritten in place)."""
    if not tables:
        raise Invalid(_("The file has no tables."), code="import_empty")
    cleaned: list[dict[str, Any]] = []
    for n, raw in enumerate(tables, 1):
        try:
            cleaned.append(rolltables.clean_table(raw))
        except rolltables.TableInvalid as exc:
            label = raw.get("key") if isinstance(raw, dict) else None
            prefix = (
                _("Table %(n)d (“%(key)s”)") % {"n": n, "key": label}
                if label
                else _("Table %(n)d") % {"n": n}
            )
            raise rolltables.TableInvalid(
                [rolltables.Problem(p.code, f"{prefix}: {p.message}") for p in exc.problems]
            ) from exc
    keys = [t["key"] for t in cleaned]
    doubled = sorted({k for k in keys if keys.count(k) > 1})
    if doubled:
        raise Invalid(
            _("The file has several tables with the key %(keys)s.")
            % {"keys": ", ".join(f"“{k}”" for k in doubled)},
            code="import_duplicate_key",
        )
    pool = selectors.table_pool(campaign)
    taken = [k for k in keys if k in pool]
    if taken and not replace:
        raise Conflict(
            _(
                "The campaign already has tables with the keys %(keys)s. Import with “replace” "
                "to overwrite them."
            )
            % {"keys": ", ".join(f"“{k}”" for k in taken)},
            code="table_key_taken",
        )
    _check_count(campaign, len(keys) - len(taken))
    for clean in cleaned:
        pool[clean["key"]] = clean
    rolltables.check_pool(pool, keys)
    existing = {
        t.key: t
        for t in RandomTable.objects.select_for_update().filter(campaign=campaign, key__in=taken)
    }
    saved = []
    for clean in cleaned:
        table = existing.get(clean["key"]) or RandomTable(campaign=campaign, source=source)
        for field, value in _fields(clean).items():
            setattr(table, field, value)
        table.entries = clean["entries"]
        table.save()
        saved.append(table)
    return saved


@transaction.atomic
def library_copy(
    *, campaign: Campaign, key: str | None = None, lang: str | None = None
) -> tuple[list[RandomTable], list[str]]:
    """Copy a ready-made table of the campaign's ruleset (and every table its nested rolls
    reach) into the campaign, in ``lang``; ``key=None`` copies the whole library. Tables the
    campaign already has under the same key are kept as they are and used by nested rolls.
    Returns ``(created, kept keys)``."""
    lang = lang if lang in ("ru", "en") else _lang()
    source_pool = library.library_pool(campaign.ruleset, lang)
    if key is None:
        wanted = list(source_pool)
    elif key not in source_pool:
        raise Invalid(
            _("There is no ready-made table “%(key)s” for this ruleset.") % {"key": key},
            code="no_library_table",
        )
    else:
        wanted = rolltables.dependencies(source_pool, key)
    pool = selectors.table_pool(campaign)
    if key is not None and key in pool:
        raise _key_taken(key)
    kept = [k for k in wanted if k in pool]
    new = [k for k in wanted if k not in pool]
    _check_count(campaign, len(new))
    for k in new:
        pool[k] = rolltables.clean_table(source_pool[k])
    rolltables.check_pool(pool, new)
    created = [
        RandomTable.objects.create(
            campaign=campaign,
            entries=pool[k]["entries"],
            source=f"{campaign.ruleset}:{k}",
            **_fields(pool[k]),
        )
        for k in new
    ]
    return created, kept


def result_for_key(
    *, campaign: Campaign, actor: User, idempotency_key: str | None
) -> TableResult | None:
    if not idempotency_key:
        return None
    return TableResult.objects.filter(
        campaign=campaign, actor=actor, idempotency_key=idempotency_key
    ).first()


def clean_modifier(modifier: Any) -> int:
    """A roll's modifier on a table: a whole number within ``rolltables.MAX_MODIFIER``."""
    limit = rolltables.MAX_MODIFIER
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > limit:
        raise Invalid(
            _("A modifier is a whole number from −%(max)d to %(max)d.") % {"max": limit},
            code="bad_modifier",
            fields={"modifier": [f"-{limit}..{limit}"]},
        )
    return modifier


def table_roll(
    *,
    campaign: Campaign,
    actor: User,
    table: RandomTable,
    visibility: str = V.BLIND,
    modifier: int = 0,
    idempotency_key: str | None = None,
    dice: Dice | None = None,
) -> tuple[TableResult, bool]:
    """Roll on ``table`` on the server, with every nested roll, and publish the chain with
    every face: ``blind`` reaches the referee alone, ``everyone`` the whole table. Returns
    ``(result, created)``; a repeated ``idempotency_key`` returns the first result."""
    check_idempotency_key(idempotency_key)
    existing = result_for_key(campaign=campaign, actor=actor, idempotency_key=idempotency_key)
    if existing is not None:
        return existing, False
    if visibility not in ROLL_VISIBILITIES:
        raise Invalid(
            _("A table roll goes to the referee only or to everyone."),
            code="bad_visibility",
            fields={"visibility": [", ".join(ROLL_VISIBILITIES)]},
        )
    clean_modifier(modifier)
    if modifier and not table.modifier_label:
        raise Invalid(
            _("This table takes no modifier."),
            code="table_no_modifier",
            fields={"modifier": [_("This table takes no modifier.")]},
        )
    tree = rolltables.roll(
        table.key, selectors.table_pool(campaign), dice=dice or RandomDice(), modifier=modifier
    )
    try:
        with transaction.atomic():
            result = TableResult.objects.create(
                campaign=campaign,
                table=table,
                actor=actor,
                visibility=visibility,
                modifier=modifier,
                result=tree,
                idempotency_key=idempotency_key,
            )
            event = publish(
                campaign=campaign,
                kind=EVENT_KIND,
                payload=result_payload(result, actor),
                actor=actor,
                visibility=visibility,
            )
            result.event_seq = event.seq
            result.save(update_fields=["event_seq"])
    except IntegrityError:
        # Two retries with the same key raced; the first one's roll is the answer.
        existing = result_for_key(campaign=campaign, actor=actor, idempotency_key=idempotency_key)
        if existing is None:
            raise
        return existing, False
    return result, True


def result_payload(result: TableResult, actor: User) -> dict[str, Any]:
    tree = result.result
    return {
        "result_id": result.pk,
        "table_id": result.table_id,
        "table": tree["table"],
        "name": tree["name"],
        "total": tree["total"],
        "entry": tree["entry"]["text"],
        "faces": rolltables.all_faces(tree),
        "text": "\n".join(rolltables.summary_lines(tree)),
        "result": tree,
        "visibility": result.visibility,
        "actor_name": actor.display_name,
    }


# --- dungeons and rooms --------------------------------------------------------------------------


def _name(value: Any, *, required: bool = True, field: str = "name") -> str:
    name = " ".join(str(value or "").split())
    if (required and not name) or len(name) > NAME_MAX:
        limit = {"max": NAME_MAX}
        at_most = _("At most %(max)d characters.") % limit
        raise Invalid(
            pgettext("prep", "A name of 1 to %(max)d characters.") % limit if required else at_most,
            code="bad_name",
            fields={field: [_("1–%(max)d characters.") % limit if required else at_most]},
        )
    return name


def _long_text(value: Any, field: str) -> str:
    text = str(value or "").strip()
    if len(text) > TEXT_MAX:
        raise Invalid(
            _("A text is at most %(max)d characters.") % {"max": TEXT_MAX},
            code="text_too_long",
            fields={field: [str(TEXT_MAX)]},
        )
    return text


def _map_model():
    """``vtt.maps``' Map model when that app is installed, else None."""
    if not apps.is_installed("vtt.maps"):
        return None
    try:
        return apps.get_model("maps", "Map")
    except LookupError:
        return None


def campaign_maps(campaign: Campaign | int) -> list[tuple[int, str]]:
    """``(id, name)`` of the campaign's maps, for the pickers (empty without ``vtt.maps``)."""
    model = _map_model()
    if model is None:
        return []
    return list(model.objects.filter(campaign=campaign).values_list("pk", "name"))


def check_cells_on_map(map_id: int | None, cells: list[list[int]]) -> None:
    """Cells are ``[column, row]`` of the map (its ``"col,row"`` keys): inside its size."""
    model = _map_model()
    if model is None or map_id is None or not cells:
        return
    found = model.objects.filter(pk=map_id).values("width", "height").first()
    if not found:
        return
    for col, row in cells:
        if not (0 <= col < found["width"] and 0 <= row < found["height"]):
            raise Invalid(
                _("Cell %(cell)s is outside the map (%(w)d × %(h)d).")
                % {"cell": f"{col},{row}", "w": found["width"], "h": found["height"]},
                code="cell_off_map",
                fields={"cells": [f"{col},{row}"]},
            )


def check_map(campaign: Campaign, map_id: Any) -> int | None:
    """A map id of the campaign, or None. Without ``vtt.maps`` installed any positive id is
    kept as given (the maps app is built separately; there is no foreign key on purpose)."""
    if map_id in (None, ""):
        return None
    try:
        value = int(map_id)
    except (TypeError, ValueError):
        value = 0
    if value < 1:
        raise Invalid(
            _("A map id is a positive whole number."),
            code="bad_map",
            fields={"map_id": [_("A positive whole number.")]},
        )
    map_model = _map_model()
    if map_model is not None:
        names = {f.name for f in map_model._meta.get_fields()}
        query = map_model.objects.filter(pk=value)
        if "campaign" in names:
            query = query.filter(campaign=campaign)
        if not query.exists():
            raise Invalid(
                _("No map %(id)d in this campaign.") % {"id": value},
                code="no_map",
                fields={"map_id": [_("No such map.")]},
            )
    return value


def _too_many_cells() -> Invalid:
    return Invalid(
        _("A room has at most %(max)d cells.") % {"max": MAX_CELLS},
        code="too_many_cells",
        fields={"cells": [str(MAX_CELLS)]},
    )


def clean_cells(value: Any) -> list[list[int]]:
    """``[[x, y], ...]`` from a list of pairs or text such as ``"3,4; 3,5"`` (duplicates
    dropped, order kept)."""
    if value in (None, ""):
        return []
    pairs: list[Any]
    if isinstance(value, str):
        pairs = [p.split(",") for p in re.split(r"[;\n]+", value) if p.strip()]
    elif isinstance(value, list):
        pairs = value
    else:
        pairs = [None]
    if len(pairs) > MAX_CELLS:  # before reading any pair: a body can hold 250,000 of them
        raise _too_many_cells()
    cells: list[list[int]] = []
    for pair in pairs:
        cell = _cell(pair)
        if cell is None:
            raise Invalid(
                _("Cells are pairs of whole numbers, such as “3,4; 3,5”."),
                code="bad_cells",
                fields={"cells": [_("Pairs of whole numbers, such as “3,4; 3,5”.")]},
            )
        if cell not in cells:
            cells.append(cell)
    if len(cells) > MAX_CELLS:
        raise _too_many_cells()
    return cells


def _cell(pair: Any) -> list[int] | None:
    if isinstance(pair, dict):
        pair = [pair.get("x", pair.get("q")), pair.get("y", pair.get("r"))]
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        return None
    out = []
    for part in pair:
        number = rolltables._int(part)
        if number is None or abs(number) > MAX_COORD:
            return None
        out.append(number)
    return out


def clean_treasure(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    lines = value.splitlines() if isinstance(value, str) else value
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise Invalid(
            _("Treasure is a list of lines."), code="bad_treasure", fields={"treasure": ["list"]}
        )
    lines = [" ".join(x.split()) for x in lines if x.strip()]
    if len(lines) > MAX_TREASURE_LINES or any(len(x) > MAX_TREASURE_LINE for x in lines):
        raise Invalid(
            _("Treasure is at most %(lines)d lines of at most %(max)d characters.")
            % {"lines": MAX_TREASURE_LINES, "max": MAX_TREASURE_LINE},
            code="bad_treasure",
            fields={"treasure": [f"{MAX_TREASURE_LINES} × {MAX_TREASURE_LINE}"]},
        )
    return lines


@transaction.atomic
def dungeon_create(
    *,
    campaign: Campaign,
    name: str,
    description: str = "",
    map_id: Any = None,
    encounter_table_id: Any = None,
) -> Dungeon:
    if Dungeon.objects.filter(campaign=campaign).count() >= MAX_DUNGEONS:
        raise Conflict(
            _("A campaign holds at most %(max)d dungeons.") % {"max": MAX_DUNGEONS},
            code="too_many_dungeons",
        )
    return Dungeon.objects.create(
        campaign=campaign,
        name=_name(name),
        description=_long_text(description, "description"),
        map_id=check_map(campaign, map_id),
        encounter_table=check_table(campaign, encounter_table_id),
    )


def check_table(campaign: Campaign, table_id: Any) -> RandomTable | None:
    """A random table of the campaign (a dungeon's encounter table), or None."""
    if table_id in (None, ""):
        return None
    try:
        value = int(table_id)
    except (TypeError, ValueError):
        value = 0
    table = RandomTable.objects.filter(campaign=campaign, pk=value).first() if value > 0 else None
    if table is None:
        raise Invalid(
            _("No such random table in this campaign."),
            code="no_table",
            fields={"encounter_table_id": [_("Choose one of the campaign's tables.")]},
        )
    return table


@transaction.atomic
def dungeon_update(*, dungeon: Dungeon, **changes: Any) -> Dungeon:
    if "name" in changes:
        dungeon.name = _name(changes["name"])
    if "description" in changes:
        dungeon.description = _long_text(changes["description"], "description")
    if "map_id" in changes:
        dungeon.map_id = check_map(dungeon.campaign, changes["map_id"])
    if "encounter_table_id" in changes:
        dungeon.encounter_table = check_table(dungeon.campaign, changes["encounter_table_id"])
    dungeon.save()
    return dungeon


@transaction.atomic
def dungeon_delete(*, dungeon: Dungeon) -> None:
    dungeon.delete()


def _room_key(value: Any) -> str:
    key = " ".join(str(value or "").split()).rstrip(".")
    if not key or len(key) > ROOM_KEY_MAX:
        raise Invalid(
            _("A room key of 1 to %(max)d characters, such as “12”.") % {"max": ROOM_KEY_MAX},
            code="bad_room_key",
            fields={"key": [_("1–%(max)d characters.") % {"max": ROOM_KEY_MAX}]},
        )
    return key


def _room_key_free(dungeon: Dungeon, key: str, room: Room | None = None) -> None:
    clash = Room.objects.filter(dungeon=dungeon, key=key)
    if room is not None:
        clash = clash.exclude(pk=room.pk)
    if clash.exists():
        raise Conflict(
            _("This dungeon already has a room “%(key)s”.") % {"key": key},
            code="room_key_taken",
            fields={"key": [_("Choose another key.")]},
        )


@transaction.atomic
def room_create(
    *,
    dungeon: Dungeon,
    key: Any,
    name: str = "",
    text: str = "",
    map_id: Any = None,
    cells: Any = None,
    treasure: Any = None,
) -> Room:
    if Room.objects.filter(dungeon=dungeon).count() >= MAX_ROOMS:
        raise Conflict(
            _("A dungeon holds at most %(max)d rooms.") % {"max": MAX_ROOMS},
            code="too_many_rooms",
        )
    key = _room_key(key)
    _room_key_free(dungeon, key)
    room = Room(
        dungeon=dungeon,
        key=key,
        name=_name(name, required=False),
        text=_long_text(text, "text"),
        map_id=check_map(dungeon.campaign, map_id),
        cells=clean_cells(cells),
        treasure=clean_treasure(treasure),
        sort_number=min(room_sort_key(key)[0], 2**31 - 1),
    )
    check_cells_on_map(room.effective_map_id, room.cells)
    room.save()
    return room


@transaction.atomic
def room_update(*, room: Room, **changes: Any) -> Room:
    if "key" in changes:
        room.key = _room_key(changes["key"])
        _room_key_free(room.dungeon, room.key, room)
        room.sort_number = min(room_sort_key(room.key)[0], 2**31 - 1)
    if "name" in changes:
        room.name = _name(changes["name"], required=False)
    if "text" in changes:
        room.text = _long_text(changes["text"], "text")
    if "map_id" in changes:
        room.map_id = check_map(room.dungeon.campaign, changes["map_id"])
    if "cells" in changes:
        room.cells = clean_cells(changes["cells"])
    if "treasure" in changes:
        room.treasure = clean_treasure(changes["treasure"])
    check_cells_on_map(room.effective_map_id, room.cells)
    room.save()
    return room


@transaction.atomic
def room_delete(*, room: Room) -> None:
    room.delete()


def _count(value: Any, maximum: int) -> int:
    number = rolltables._int(value) if value not in (None, "") else 1
    if number is None or not 1 <= number <= maximum:
        raise Invalid(
            _("A count from 1 to %(max)d.") % {"max": maximum},
            code="bad_count",
            fields={"count": [f"1..{maximum}"]},
        )
    return number


@transaction.atomic
def room_monster_add(
    *, room: Room, character_id: Any, count: Any = 1, note: str = ""
) -> RoomMonster:
    """Place an NPC sheet of the campaign in the room (placing it again updates the count)."""
    character = Character.objects.filter(
        campaign_id=room.dungeon.campaign_id, kind=Kind.NPC, pk=rolltables._int(character_id) or 0
    ).first()
    if character is None:
        raise Invalid(
            _("Choose an NPC of this campaign."),
            code="no_npc",
            fields={"character_id": [_("Choose an NPC of this campaign.")]},
        )
    note = " ".join(str(note or "").split())[:MONSTER_NOTE_MAX]
    monster, _created = RoomMonster.objects.update_or_create(
        room=room,
        character=character,
        defaults={"count": _count(count, MONSTER_COUNT_MAX), "note": note},
    )
    return monster


@transaction.atomic
def room_monster_remove(*, monster: RoomMonster) -> None:
    monster.delete()


def room_monster_initiative(
    *, campaign: Campaign, actor: User, monster: RoomMonster, value: int | None = None
) -> InitiativeEntry:
    """Put a room's monster into the initiative: hidden from players if its sheet is."""
    character = monster.character
    name = character.name if monster.count == 1 else f"{character.name} ×{monster.count}"
    return initiative_add(
        campaign=campaign,
        actor=actor,
        role=Role.REFEREE,
        name=name[:ENTRY_NAME_MAX],
        value=value,
        hidden=character.hidden,
    )


@transaction.atomic
def npc_place(
    *,
    campaign: Campaign,
    actor: User,
    block_key: str,
    name: str = "",
    count: Any = 1,
    hidden: bool = True,
    initiative: bool = False,
    initiative_value: int | None = None,
    room: Room | None = None,
) -> list[Character]:
    """Drop a library stat block into the campaign: ``count`` NPC sheets (through
    ``character_create``, so the ruleset validates them), optionally each into the initiative
    (hidden if the sheet is) and into a room."""
    block = library.npc_block(campaign.ruleset, block_key)
    if block is None:
        raise Invalid(
            _("There is no stat block “%(key)s” for this ruleset.") % {"key": block_key},
            code="no_block",
        )
    count = _count(count, MAX_PLACE)
    base = " ".join(str(name or "").split())[:PLACE_NAME_MAX] or library.pick(
        block["name"], _lang()
    )
    if room is not None and room.dungeon.campaign_id != campaign.pk:
        raise Invalid(_("No such room."), code="no_room")
    created = []
    for n in range(1, count + 1):
        try:
            character = character_create(
                campaign=campaign,
                actor=actor,
                role=Role.REFEREE,
                name=f"{base} {n}" if count > 1 else base,
                kind=Kind.NPC,
                state=block["state"],
                hidden=hidden,
            )
        except RulesError as exc:  # pragma: no cover - library blocks are tested valid
            raise invalid_from_rules(exc, code="invalid_sheet") from exc
        if initiative:
            initiative_add(
                campaign=campaign,
                actor=actor,
                role=Role.REFEREE,
                name=character.name[:ENTRY_NAME_MAX],
                value=initiative_value,
                hidden=character.hidden,
            )
        if room is not None:
            RoomMonster.objects.create(room=room, character=character)
        created.append(character)
    return created
