"""The referee's preparation pages under ``/campaigns/<id>/prep/`` (htmx forms).

Every view authorises ``Action.MANAGE`` first: players and observers get 403, outsiders 404,
anonymous users the login page. Writes go through ``vtt.prep.services`` like the API. A refused
write shows its message: htmx requests in the page's error area (``ServiceErrorMiddleware``),
plain form posts as a flash message on the page they came from. Successful htmx posts either
swap a fragment (a roll's result, a room's monsters) or send ``HX-Redirect``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from systems import get_ruleset
from vtt.core.errors import Invalid, ServiceError
from vtt.permissions import Action, authorize
from vtt.prep import library, rolltables, selectors, services
from vtt.prep.api import export_response, parse_upload, table_export_bundle
from vtt.prep.models import RandomTable
from vtt.table.commands import ROLL_BUCKET
from vtt.table.models import InitiativeEntry
from vtt.table.models import Visibility as V

BLANK_ROWS = 3


def _referee(request: HttpRequest, pk: int):
    """GET works on an archived campaign (read only); any write there is a 409."""
    return authorize(request.user, pk, Action.MANAGE, allow_archived=request.method == "GET")


def _lang(request: HttpRequest) -> str:
    return "ru" if (getattr(request, "LANGUAGE_CODE", "") or "ru").startswith("ru") else "en"


def _done(request: HttpRequest, url: str, notice: str | None = None) -> HttpResponse:
    """After a write: htmx follows ``HX-Redirect``, a plain post gets a 302."""
    if notice:
        messages.success(request, notice)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _refused(request: HttpRequest, exc: ServiceError, back: str) -> HttpResponse:
    if request.htmx:
        raise exc  # ServiceErrorMiddleware shows it in #htmx-errors
    messages.error(request, _message(exc))
    return redirect(back)


def _message(exc: ServiceError) -> str:
    details = [m for msgs in exc.fields.values() for m in msgs if m != exc.message]
    return " ".join([exc.message, *details[:5]])


def _base(membership, **extra: Any) -> dict[str, Any]:
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "read_only": membership.campaign.is_archived,
        **extra,
    }


# --- overview ------------------------------------------------------------------------------------


@login_required
@require_GET
def prep_index(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    campaign = membership.campaign
    context = _base(
        membership,
        dungeons=selectors.campaign_dungeons(campaign),
        tables=selectors.campaign_tables(campaign),
        results=selectors.recent_results(campaign, limit=8),
        library_tables=len(library.library_tables(campaign.ruleset)),
        library_npcs=len(library.npc_blocks(campaign.ruleset)),
        maps=services.campaign_maps(campaign),
    )
    return render(request, "prep/index.html", context)


# --- dungeons and rooms --------------------------------------------------------------------------


@login_required
@require_POST
def dungeon_create(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    back = reverse("prep", args=[pk])
    try:
        dungeon = services.dungeon_create(
            campaign=membership.campaign,
            name=request.POST.get("name", ""),
            description=request.POST.get("description", ""),
            map_id=request.POST.get("map_id") or None,
            encounter_table_id=request.POST.get("encounter_table_id") or None,
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    return _done(request, reverse("prep_dungeon", args=[pk, dungeon.pk]))


@login_required
@require_GET
def dungeon_page(request: HttpRequest, pk: int, did: int) -> HttpResponse:
    membership = _referee(request, pk)
    dungeon = selectors.dungeon_for(pk, did)
    rooms = selectors.dungeon_rooms(dungeon)
    context = _base(
        membership,
        dungeon=dungeon,
        rooms=rooms,
        maps=services.campaign_maps(pk),
        tables=selectors.campaign_tables(pk),
        next_key=_next_room_key(rooms),
    )
    return render(request, "prep/dungeon.html", context)


def _next_room_key(rooms) -> str:
    numbers = [int(r.key) for r in rooms if r.key.isdigit()]
    return str(max(numbers, default=0) + 1)


@login_required
@require_POST
def dungeon_edit(request: HttpRequest, pk: int, did: int) -> HttpResponse:
    _referee(request, pk)
    dungeon = selectors.dungeon_for(pk, did)
    back = reverse("prep_dungeon", args=[pk, did])
    try:
        services.dungeon_update(
            dungeon=dungeon,
            name=request.POST.get("name", ""),
            description=request.POST.get("description", ""),
            map_id=request.POST.get("map_id") or None,
            encounter_table_id=request.POST.get("encounter_table_id") or None,
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    return _done(request, back, _("Saved."))


@login_required
@require_POST
def dungeon_delete(request: HttpRequest, pk: int, did: int) -> HttpResponse:
    _referee(request, pk)
    dungeon = selectors.dungeon_for(pk, did)
    services.dungeon_delete(dungeon=dungeon)
    return _done(request, reverse("prep", args=[pk]), _("The dungeon is deleted."))


@login_required
@require_POST
def room_create(request: HttpRequest, pk: int, did: int) -> HttpResponse:
    _referee(request, pk)
    dungeon = selectors.dungeon_for(pk, did)
    back = reverse("prep_dungeon", args=[pk, did])
    try:
        room = services.room_create(
            dungeon=dungeon,
            key=request.POST.get("key", ""),
            name=request.POST.get("name", ""),
            text=request.POST.get("text", ""),
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    return _done(request, reverse("prep_room", args=[pk, room.pk]))


def _room_context(membership, room, lang: str, **extra) -> dict[str, Any]:
    campaign = membership.campaign
    return _base(
        membership,
        room=room,
        dungeon=room.dungeon,
        monsters=selectors.room_monsters(room),
        npcs=selectors.campaign_npcs(campaign),
        blocks=[
            {"key": b["key"], "name": library.pick(b["name"], lang)}
            for b in library.npc_blocks(campaign.ruleset)
        ],
        maps=services.campaign_maps(campaign),
        cells_text="; ".join(f"{x},{y}" for x, y in room.cells),
        treasure_text="\n".join(room.treasure),
        **extra,
    )


@login_required
@require_GET
def room_page(request: HttpRequest, pk: int, rid: int) -> HttpResponse:
    """The referee's view of a room: its keyed text, cells, monsters and treasure."""
    membership = _referee(request, pk)
    room = selectors.room_for(pk, rid)
    return render(request, "prep/room.html", _room_context(membership, room, _lang(request)))


@login_required
@require_POST
def room_edit(request: HttpRequest, pk: int, rid: int) -> HttpResponse:
    _referee(request, pk)
    room = selectors.room_for(pk, rid)
    back = reverse("prep_room", args=[pk, rid])
    try:
        services.room_update(
            room=room,
            key=request.POST.get("key", ""),
            name=request.POST.get("name", ""),
            text=request.POST.get("text", ""),
            map_id=request.POST.get("map_id") or None,
            cells=request.POST.get("cells", ""),
            treasure=request.POST.get("treasure", ""),
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    return _done(request, back, _("Saved."))


@login_required
@require_POST
def room_delete(request: HttpRequest, pk: int, rid: int) -> HttpResponse:
    _referee(request, pk)
    room = selectors.room_for(pk, rid)
    dungeon_id = room.dungeon_id
    services.room_delete(room=room)
    return _done(request, reverse("prep_dungeon", args=[pk, dungeon_id]), _("The room is deleted."))


def _monsters_fragment(request, membership, room, *, notice: str = "", status: int = 200):
    context = _room_context(membership, room, _lang(request), notice=notice)
    return render(request, "prep/room.html#monsters", context, status=status)


@login_required
@require_POST
def room_monster_add(request: HttpRequest, pk: int, rid: int) -> HttpResponse:
    membership = _referee(request, pk)
    room = selectors.room_for(pk, rid)
    back = reverse("prep_room", args=[pk, rid])
    try:
        block = request.POST.get("block")
        if block:
            services.npc_place(
                campaign=membership.campaign,
                actor=request.user,
                block_key=block,
                name=request.POST.get("name", ""),
                count=request.POST.get("count") or 1,
                hidden=request.POST.get("hidden") == "on",
                initiative=request.POST.get("initiative") == "on",
                room=room,
            )
        else:
            services.room_monster_add(
                room=room,
                character_id=request.POST.get("character_id"),
                count=request.POST.get("count") or 1,
                note=request.POST.get("note", ""),
            )
    except ServiceError as exc:
        return _refused(request, exc, back)
    if not request.htmx:
        return redirect(back)
    return _monsters_fragment(request, membership, room, notice=_("Added."))


@login_required
@require_POST
def room_monster_remove(request: HttpRequest, pk: int, rid: int, mid: int) -> HttpResponse:
    membership = _referee(request, pk)
    room = selectors.room_for(pk, rid)
    services.room_monster_remove(monster=selectors.monster_for(room, mid))
    if not request.htmx:
        return redirect("prep_room", pk, rid)
    return _monsters_fragment(request, membership, room, notice=_("Removed from the room."))


@login_required
@require_POST
def room_monster_initiative(request: HttpRequest, pk: int, rid: int, mid: int) -> HttpResponse:
    membership = _referee(request, pk)
    room = selectors.room_for(pk, rid)
    monster = selectors.monster_for(room, mid)
    back = reverse("prep_room", args=[pk, rid])
    try:
        value = rolltables._int(request.POST.get("value")) if request.POST.get("value") else None
        entry: InitiativeEntry = services.room_monster_initiative(
            campaign=membership.campaign, actor=request.user, monster=monster, value=value
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    notice = _("%(name)s is in the initiative.") % {"name": entry.name}
    if entry.hidden:
        notice = _("%(name)s is in the initiative, hidden from players.") % {"name": entry.name}
    if not request.htmx:
        messages.success(request, notice)
        return redirect(back)
    return _monsters_fragment(request, membership, room, notice=notice)


# --- tables --------------------------------------------------------------------------------------


def _form_rows(table: dict[str, Any] | None, extra: int = BLANK_ROWS) -> list[dict[str, Any]]:
    rows = []
    for entry in (table or {}).get("entries", []):
        rows.append({**entry, "roll": " ".join(entry.get("roll", []))})
    return rows + [{} for _ in range(extra)]


def _posted_table(post) -> dict[str, Any]:
    """The table form as raw table data; rows left entirely blank are dropped."""
    columns = {
        field: post.getlist(f"e_{field}")
        for field in ("min", "max", "weight", "text", "roll", "amount", "unit", "key")
    }
    count = max((len(v) for v in columns.values()), default=0)
    entries = []
    for i in range(count):
        row = {f: (values[i] if i < len(values) else "") for f, values in columns.items()}
        if not any(str(v).strip() for f, v in row.items() if f != "key"):
            continue
        entries.append({k: v for k, v in row.items() if str(v).strip() != ""})
    return {
        "key": post.get("key", ""),
        "name": post.get("name", ""),
        "formula": post.get("formula", ""),
        "weights": post.get("weights") == "on",
        "modifier_label": post.get("modifier_label", ""),
        "note": post.get("note", ""),
        "entries": entries,
    }


def _table_form(request, membership, *, table: RandomTable | None, data=None, error=None):
    status = 200
    if error is not None:
        status = error.status
    context = _base(
        membership,
        table=table,
        form=data or (table.as_data() if table else {"formula": "1d6", "entries": []}),
        rows=_form_rows(data if data is not None else (table.as_data() if table else None)),
        error=error,
        problems=(error.extra.get("problems") if error else None)
        or ([{"message": m} for msgs in error.fields.values() for m in msgs] if error else []),
        keys=sorted(selectors.table_pool(membership.campaign)),
    )
    template = "prep/table_form.html#table-form" if request.htmx else "prep/table_form.html"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    if request.method == "GET":
        return _table_form(request, membership, table=None)
    data = _posted_table(request.POST)
    try:
        table = services.table_create(campaign=membership.campaign, data=data)
    except ServiceError as exc:
        return _table_form(request, membership, table=None, data=data, error=exc)
    return _done(request, reverse("prep_table", args=[pk, table.pk]), _("The table is saved."))


@login_required
@require_http_methods(["GET", "POST"])
def table_edit(request: HttpRequest, pk: int, tid: int) -> HttpResponse:
    membership = _referee(request, pk)
    table = selectors.table_for(pk, tid)
    if request.method == "GET":
        return _table_form(request, membership, table=table)
    data = _posted_table(request.POST)
    try:
        table = services.table_update(table=table, data=data)
    except ServiceError as exc:
        return _table_form(request, membership, table=table, data=data, error=exc)
    return _done(request, reverse("prep_table", args=[pk, table.pk]), _("The table is saved."))


@login_required
@require_POST
def table_delete(request: HttpRequest, pk: int, tid: int) -> HttpResponse:
    _referee(request, pk)
    table = selectors.table_for(pk, tid)
    try:
        services.table_delete(table=table)
    except ServiceError as exc:
        return _refused(request, exc, reverse("prep_table", args=[pk, tid]))
    return _done(request, reverse("prep", args=[pk]), _("The table is deleted."))


@login_required
@require_GET
def table_page(request: HttpRequest, pk: int, tid: int) -> HttpResponse:
    membership = _referee(request, pk)
    table = selectors.table_for(pk, tid)
    pool = selectors.table_pool(pk)
    tables = {t.key: t for t in selectors.campaign_tables(pk)}

    def named(key: str) -> tuple[str, int | None]:
        """A table by its name (the key only when no table has it)."""
        found = tables.get(key)
        return (found.name, found.pk) if found else (key, None)

    context = _base(
        membership,
        table=table,
        nested=[named(k) for k in rolltables.nested_keys(pool[table.key])],
        used_by=[named(k) for k in selectors.referencing(pk, table.key)],
        roll_key=uuid.uuid4().hex,
        results=[r for r in selectors.recent_results(pk, limit=30) if r.table_id == table.pk][:5],
    )
    return render(request, "prep/table.html", context)


@login_required
@require_POST
def table_roll(request: HttpRequest, pk: int, tid: int) -> HttpResponse:
    """The "roll on table" button: a server roll, published with the chosen visibility; the
    result comes back as a fragment."""
    membership = _referee(request, pk)
    table = selectors.table_for(pk, tid)
    try:
        modifier_raw = (request.POST.get("modifier") or "").strip()
        modifier = rolltables._int(modifier_raw) if modifier_raw else 0
        services.clean_modifier(modifier)
        key = request.POST.get("idempotency_key") or None
        if (
            services.result_for_key(
                campaign=membership.campaign, actor=request.user, idempotency_key=key
            )
            is None
        ):
            ROLL_BUCKET.hit(str(request.user.pk))
        result, created = services.table_roll(
            campaign=membership.campaign,
            actor=request.user,
            table=table,
            visibility=request.POST.get("visibility") or V.BLIND,
            modifier=modifier,
            idempotency_key=key,
        )
    except ServiceError as exc:
        if not request.htmx:
            return _refused(request, exc, reverse("prep_table", args=[pk, tid]))
        return render(request, "prep/table.html#roll-result", {"error": exc}, status=exc.status)
    if not request.htmx:
        messages.success(request, "\n".join(rolltables.summary_lines(result.result)))
        return redirect("prep_table", pk, tid)
    context = {"result": result, "node": result.result, "new_key": uuid.uuid4().hex}
    return render(request, "prep/table.html#roll-result", context, status=201 if created else 200)


@login_required
@require_GET
def tables_export(request: HttpRequest, pk: int, tid: int | None = None) -> HttpResponse:
    _referee(request, pk)
    fmt = "csv" if request.GET.get("format") == "csv" else "json"
    table = selectors.table_for(pk, tid) if tid is not None else None
    return export_response(
        table_export_bundle(int(pk), table), fmt, table.key if table else "tables"
    )


@login_required
@require_http_methods(["GET", "POST"])
def tables_import(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    if request.method == "GET":
        return render(request, "prep/import.html", _base(membership))
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise Invalid(_("Choose a file to import."), code="import_no_file")
        tables = parse_upload(
            upload,
            fmt=request.POST.get("format", ""),
            key=request.POST.get("key", ""),
            name=request.POST.get("name", ""),
            formula=request.POST.get("formula", ""),
        )
        saved = services.tables_import(
            campaign=membership.campaign, tables=tables, replace=request.POST.get("replace") == "on"
        )
    except ServiceError as exc:
        context = _base(membership, error=exc, problems=exc.extra.get("problems") or [])
        return render(request, "prep/import.html", context, status=exc.status)
    notice = _("Imported tables: %(names)s.") % {"names": ", ".join(t.name for t in saved)}
    target = reverse("prep_table", args=[pk, saved[0].pk]) if len(saved) == 1 else None
    return _done(request, target or reverse("prep", args=[pk]), notice)


# --- the library ---------------------------------------------------------------------------------


@login_required
@require_GET
def library_page(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    campaign = membership.campaign
    lang = _lang(request)
    have = {t.key: t.pk for t in selectors.campaign_tables(campaign)}
    source = library.library_tables(campaign.ruleset)
    names = {t["key"]: library.pick(t["name"], lang) for t in source}
    tables = [
        {
            "key": t["key"],
            "name": names[t["key"]],
            "formula": t["formula"],
            "note": library.pick(t.get("note"), lang),
            "template": t.get("template", False),
            "rows": len(t["entries"]),
            # Players and referees read names; keys are for the files.
            "nested": sorted({names.get(k, k) for e in t["entries"] for k in _nested(e)}),
            "have": have.get(t["key"]),
        }
        for t in source
    ]
    blocks = [
        {
            "key": b["key"],
            "name": library.pick(b["name"], lang),
            "note": library.pick(b.get("note"), lang),
            "summary": _block_summary(campaign.ruleset, b["state"], lang),
        }
        for b in library.npc_blocks(campaign.ruleset)
    ]
    rooms = [
        (r.pk, f"{d.name}: {r}")
        for d in selectors.campaign_dungeons(campaign)
        for r in selectors.dungeon_rooms(d)
    ]
    context = _base(membership, tables=tables, blocks=blocks, rooms=rooms)
    return render(request, "prep/library.html", context)


def _nested(entry: dict[str, Any]) -> list[str]:
    return [*entry.get("roll_each", []), *([entry["roll_on"]] if entry.get("roll_on") else [])]


def _block_summary(ruleset: str, state: dict[str, Any], lang: str) -> str:
    """``Сила 10, Ловкость 13 · Хиты 10`` — a block's numbers under the ruleset's own field
    names (its sheet schema from ``describe()``)."""
    described = get_ruleset(ruleset).describe()
    schema = (described.get("npc") or described.get("sheet") or {}).get("fields", {})
    parts = []
    for key, value in state.items():
        spec = schema.get(key, {})
        label = spec.get(lang) or key
        if isinstance(value, dict):
            fields = spec.get("fields", {})
            inner = ", ".join(
                f"{(fields.get(k) or {}).get(lang) or k} {_shown(fields.get(k) or {}, v, lang)}"
                for k, v in value.items()
                if v not in ("", None, [])
            )
            if inner:
                parts.append(f"{label}: {inner}")
        elif isinstance(value, list):
            if value:
                item = (spec.get("item") or {}).get("fields", {})
                names = [
                    str(v.get("name") or _shown(item.get("key") or {}, v.get("key"), lang))
                    if isinstance(v, dict)
                    else _shown(spec.get("item") or {}, v, lang)
                    for v in value
                ]
                parts.append(f"{label}: {', '.join(names)}")
        elif value not in ("", None):
            parts.append(f"{label}: {_shown(spec, value, lang)}")
    return " · ".join(parts)


def _shown(spec: dict[str, Any], value: Any, lang: str) -> str:
    """A choice's label, yes/no for a flag, else the value."""
    for choice in spec.get("choices") or []:
        if isinstance(choice, dict) and choice.get("key") == value:
            return str(choice.get(lang) or value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


@login_required
@require_POST
def library_copy(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _referee(request, pk)
    key = request.POST.get("key") or None
    back = reverse("prep_library", args=[pk])
    try:
        created, kept = services.library_copy(
            campaign=membership.campaign, key=key, lang=_lang(request)
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    names = ", ".join(t.name for t in created) or "—"
    notice = _("Copied into the campaign: %(names)s.") % {"names": names}
    if kept:
        notice += " " + _("Kept your own: %(keys)s.") % {"keys": ", ".join(kept)}
    if request.htmx and key:
        first = next((t for t in created if t.key == key), None)
        return render(
            request,
            "prep/library.html#copied",
            {
                "campaign": membership.campaign,
                "table_id": first.pk if first else None,
                "notice": notice,
            },
            status=201,
        )
    return _done(request, back, notice)


@login_required
@require_POST
def library_place(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    membership = _referee(request, pk)
    back = reverse("prep_library", args=[pk])
    try:
        room_id = request.POST.get("room_id")
        room = selectors.room_for(pk, room_id) if room_id else None
        value_raw = (request.POST.get("initiative_value") or "").strip()
        value = rolltables._int(value_raw) if value_raw else None
        characters = services.npc_place(
            campaign=membership.campaign,
            actor=request.user,
            block_key=key,
            name=request.POST.get("name", ""),
            count=request.POST.get("count") or 1,
            hidden=request.POST.get("hidden") == "on",
            initiative=request.POST.get("initiative") == "on",
            initiative_value=value,
            room=room,
        )
    except ServiceError as exc:
        return _refused(request, exc, back)
    names = ", ".join(c.name for c in characters)
    notice = _("Added to the campaign: %(names)s.") % {"names": names}
    if request.htmx:
        return render(
            request, "prep/library.html#placed", {"notice": notice, "key": key}, status=201
        )
    return _done(request, back, notice)
