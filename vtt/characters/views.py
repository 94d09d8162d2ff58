"""Character pages: the campaign's list, the sheet, its print version and the export download.

The sheet's form, its move buttons and their dialogs are generated in the browser
(``static/js/sheet.js``) from the ruleset's ``describe()`` (the single source of the schema);
the list and the print page are rendered here from the same schema. Every write goes through
the REST API (``vtt/characters/api.py``) except the list page's create and import forms, which
call the same services. Each view authorises through ``vtt.permissions``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from systems import get_ruleset
from vtt.campaigns.models import Membership, Role
from vtt.campaigns.selectors import campaign_members
from vtt.characters import services
from vtt.characters.api import character_data
from vtt.characters.models import Character, Kind
from vtt.characters.visibility import can_edit, can_see_full, public_state
from vtt.core import jsonsafe
from vtt.core.errors import Invalid, ServiceError
from vtt.permissions import Action, authorize, authorize_character, can
from vtt.rulesets.registry import web_for
from vtt.table.models import EventCursor

_DESCRIBED: dict[str, dict[str, Any]] = {}


def described(ruleset: str) -> dict[str, Any]:
    """``describe()`` is pure and costs up to ~0.1 s: compute it once per ruleset and process.
    Callers must not mutate the result."""
    if ruleset not in _DESCRIBED:
        _DESCRIBED[ruleset] = get_ruleset(ruleset).describe()
    return _DESCRIBED[ruleset]


def sheet_schema(ruleset: str, kind: str) -> dict[str, Any]:
    """The schema a sheet validates against: the ruleset's NPC block for NPCs if it has one
    (the services validate the same way), the character sheet otherwise."""
    data = described(ruleset)
    if kind == Kind.NPC and data.get("npc"):
        return data["npc"]
    return data["sheet"]


def lang() -> str:
    return "ru" if (get_language() or "ru").startswith("ru") else "en"


def label(spec: dict[str, Any], fallback: str = "") -> str:
    code = lang()
    return spec.get(code) or spec.get("en") or spec.get("ru") or fallback


# --- showing values from the schema -------------------------------------------------------------


def shown(spec: dict[str, Any]) -> bool:
    """Whether a field is for reading in this language (not a key the rules keep, not a name in
    the other language)."""
    return not spec.get("internal") and spec.get("lang") in (None, lang())


def text_of(spec: dict[str, Any], value: Any) -> str:
    """A value as plain text, typed by its schema (choices by their label, nested values in
    brackets). Used by the list's summaries and the print page."""
    if value is None or value == "":
        return "—"
    kind = spec.get("type")
    if kind == "bool":
        return _("yes") if value else _("no")
    if kind == "choice":
        for choice in spec.get("choices", []):
            if isinstance(choice, dict) and choice.get("key") == value:
                return label(choice, str(value)) or "—"
        return str(value)
    if kind in ("object", "sheet") and isinstance(value, dict):
        fields = spec.get("fields", {})
        parts = []
        for key, sub in fields.items():
            text = text_of(sub, value.get(key)) if shown(sub) else "—"
            if text != "—":
                parts.append(f"{label(sub, key)}: {text}" if label(sub, key) else text)
        return "; ".join(parts) or "—"
    if kind == "list" and isinstance(value, list):
        if not value:
            return "—"
        item = spec.get("item", {})
        return ", ".join(
            f"[{text_of(item, v)}]" if item.get("type") in ("object", "list") else text_of(item, v)
            for v in value
        )
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def summary(schema: dict[str, Any], state: dict[str, Any]) -> list[dict[str, str]]:
    """Label and value of each field in ``state`` (a public part), the name excepted."""
    fields = schema.get("fields", {})
    return [
        {"key": key, "label": label(fields[key], key), "value": text_of(fields[key], value)}
        for key, value in state.items()
        if key != "name" and key in fields
    ]


def print_groups(schema: dict[str, Any], state: dict[str, Any]) -> list[dict[str, Any]]:
    """The sheet for the print page, grouped like the sheet page: runs of simple fields, each
    object and each list a group of its own. Lists of objects become tables."""
    groups: list[dict[str, Any]] = []
    run: dict[str, Any] | None = None
    for key, spec in schema.get("fields", {}).items():
        if key not in state or not shown(spec):
            continue
        value = state[key]
        kind = spec.get("type")
        if kind in ("object", "sheet") and isinstance(value, dict):
            run = None
            rows = [
                {"label": label(sub, k), "value": text_of(sub, value.get(k))}
                for k, sub in spec.get("fields", {}).items()
                if shown(sub)
            ]
            groups.append({"key": key, "title": label(spec, key), "rows": rows})
        elif kind == "list":
            run = None
            item = spec.get("item", {})
            group: dict[str, Any] = {"key": key, "title": label(spec, key), "rows": []}
            if item.get("type") == "object":
                columns = [(k, sub) for k, sub in item.get("fields", {}).items() if shown(sub)]
                group["columns"] = [label(sub, k) for k, sub in columns]
                group["table"] = [
                    [text_of(sub, (v or {}).get(k)) for k, sub in columns]
                    for v in (value or [])
                    if isinstance(v, dict)
                ]
            else:
                group["entries"] = [text_of(item, v) for v in (value or [])]
            groups.append(group)
        else:
            if run is None:
                run = {"key": key, "title": "" if groups else _("General"), "rows": []}
                groups.append(run)
            long = kind == "str" and spec.get("max_length", 0) > 200
            run["rows"].append(
                {"label": label(spec, key), "value": text_of(spec, value), "long": long}
            )
    return groups


# --- URLs for the scripts ----------------------------------------------------------------------


def move_urls() -> dict[str, str]:
    """The URL patterns ``static/js/moves.js`` fills in (``{id}``, ``{pid}``); its text comes
    from the JavaScript catalogue."""
    return {
        "characters": reverse("api-character", args=[0]).replace("/0/", "/{id}/"),
        "choose_url": reverse("api-character-choose", args=[0, 0]).replace(
            "/0/pending/0/", "/{id}/pending/{pid}/"
        ),
        "sheet_url": reverse("character_sheet", args=[0]).replace("/0/", "/{id}/"),
    }


# --- the list -----------------------------------------------------------------------------------


class CharacterCreateForm(forms.Form):
    """A new character (``kind="pc"``, the referee may pick its player) or a new NPC
    (``kind="npc"``, the referee only, hidden or not)."""

    name = forms.CharField(label=pgettext_lazy("character", "Name"), max_length=services.NAME_MAX)
    owner = forms.TypedChoiceField(
        label=gettext_lazy("Player"), coerce=int, required=False, empty_value=None
    )
    hidden = forms.BooleanField(label=gettext_lazy("Hidden from players"), required=False)

    def __init__(self, *args, kind: str, owners: list[tuple[int, str]] | None = None, **kwargs):
        super().__init__(*args, prefix=kind, **kwargs)
        self.kind = kind
        self.fields["name"].widget.attrs.update(autocomplete="off")
        if kind == Kind.PC and owners:
            self.fields["owner"].choices = owners
        else:
            del self.fields["owner"]
        if kind != Kind.NPC:
            del self.fields["hidden"]


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Character file (JSON)"))


def _list_context(request: HttpRequest, membership: Membership, **extra) -> dict[str, Any]:
    campaign = membership.campaign
    referee = membership.role == Role.REFEREE
    qs = Character.objects.filter(campaign=campaign).select_related("owner")
    if not referee:
        qs = qs.filter(hidden=False)
    mine, others, npcs = [], [], []
    for character in qs:
        schema = sheet_schema(character.ruleset, character.kind)
        public = public_state(character.ruleset, character.state, character.kind)
        row = {
            "character": character,
            "summary": summary(schema, public),
            "full": can_see_full(character, user_id=request.user.pk, role=membership.role),
        }
        if character.kind == Kind.NPC:
            npcs.append(row)
        elif character.owner_id == request.user.pk:
            mine.append(row)
        else:
            others.append(row)
    can_create = can(membership, Action.PLAY) and not campaign.is_archived
    owners = _owners(request, membership)
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_referee": referee,
        "can_create": can_create,
        "mine": mine,
        "others": others,
        "npcs": npcs,
        "pc_form": CharacterCreateForm(
            kind=Kind.PC, owners=owners, initial={"owner": request.user.pk}
        ),
        "npc_form": CharacterCreateForm(kind=Kind.NPC),
        "import_form": ImportForm(),
    }
    context.update(extra)
    return context


def _owners(request: HttpRequest, membership: Membership) -> list[tuple[int, str]] | None:
    if membership.role != Role.REFEREE:
        return None
    me = _("me")
    return [
        (m.user_id, m.user.display_name + (f" ({me})" if m.user_id == request.user.pk else ""))
        for m in campaign_members(membership.campaign)
        if m.role in (Role.PLAYER, Role.REFEREE)
    ]


@login_required
@require_http_methods(["GET", "POST"])
def character_list(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the campaign's sheets the user may see. POST: create a character (players: their
    own; the referee: a character for a member, or an NPC, hidden or not)."""
    membership = authorize(request.user, pk, Action.VIEW)
    if request.method == "GET":
        return render(request, "characters/list.html", _list_context(request, membership))
    membership = authorize(request.user, pk, Action.PLAY)
    referee = membership.role == Role.REFEREE
    kind = Kind.NPC if referee and request.POST.get("kind") == Kind.NPC else Kind.PC
    form = CharacterCreateForm(request.POST, kind=kind, owners=_owners(request, membership))
    error = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            character = services.character_create(
                campaign=membership.campaign,
                actor=request.user,
                role=membership.role,
                name=data["name"],
                kind=kind,
                owner_id=data.get("owner") if referee and kind == Kind.PC else None,
                hidden=bool(data.get("hidden")),
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("“%(name)s” created.") % {"name": character.name})
            return redirect("character_sheet", character.pk)
    context = _list_context(request, membership, error=error)
    context[f"{kind}_form"] = form
    return render(request, "characters/list.html", context, status=400)


@login_required
@require_POST
def character_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Create a sheet from a file made by the export button (same ruleset only)."""
    membership = authorize(request.user, pk, Action.PLAY)
    form = ImportForm(request.POST, request.FILES)
    error = None
    if not form.is_valid():
        error = _("Choose a character file to import.")
    else:
        upload = form.cleaned_data["file"]
        try:
            if upload.size > services.IMPORT_MAX_BYTES:
                raise Invalid(
                    _("The file is too large (at most %(kb)d KB).")
                    % {"kb": services.IMPORT_MAX_BYTES // 1024},
                    code="too_large",
                )
            try:
                data = jsonsafe.loads(upload.read().decode("utf-8"))
            except jsonsafe.BadText as exc:
                raise Invalid(exc.message, code="bad_text") from None
            except (UnicodeDecodeError, ValueError):
                raise Invalid(_("This is not a JSON file."), code="bad_json") from None
            character = services.character_import(
                campaign=membership.campaign,
                actor=request.user,
                role=membership.role,
                data=data,
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("“%(name)s” imported.") % {"name": character.name})
            return redirect("character_sheet", character.pk)
    context = _list_context(request, membership, import_error=error)
    return render(request, "characters/list.html", context, status=400)


# --- the sheet ----------------------------------------------------------------------------------


def _moves_for(ruleset: str, kind: str) -> tuple[list[dict], list[dict]]:
    """Moves and actions made from this kind of sheet: NPC moves on an NPC block if the
    ruleset has one, character moves otherwise. Table-wide ones (battle, tables) are not
    made from a sheet."""
    data = described(ruleset)
    separate_npc = bool(data.get("npc"))
    wanted = {"npc"} if kind == Kind.NPC and separate_npc else {"character"}
    if kind == Kind.NPC and not separate_npc:
        wanted.add("npc")

    def slim(spec: dict[str, Any]) -> dict[str, Any]:
        return {
            k: spec[k]
            for k in ("key", "ru", "en", "trigger", "kind", "roll", "params", "results", "options")
            if k in spec
        }

    party = set(data.get("party_moves", {}))  # made from the table's party panel, not here
    moves = [
        slim(m)
        for m in data.get("moves", [])
        if m.get("subject") in wanted and m["key"] not in party
    ]
    actions = [slim(m) for m in data.get("actions", []) if m.get("subject") in wanted]
    return moves, actions


def _button(spec: dict[str, Any]) -> dict[str, str]:
    return {
        "key": spec["key"],
        "name": label(spec, spec["key"]),
        "trigger": label(spec.get("trigger") or {}),
    }


@login_required
@require_GET
def character_sheet(request: HttpRequest, cid: int) -> HttpResponse:
    # The head before the sheet: the socket replays every event after it, so a save racing
    # this render reaches the page once, never not at all.
    campaign_id = Character.objects.filter(pk=cid).values_list("campaign_id", flat=True).first()
    cursor = EventCursor.objects.filter(campaign_id=campaign_id).first() if campaign_id else None
    head = cursor.last_seq if cursor else 0
    character, membership = authorize_character(request.user, cid)
    campaign = membership.campaign
    me = request.user.pk
    full = can_see_full(character, user_id=me, role=membership.role)
    editable = can_edit(character, user_id=me, role=membership.role) and not campaign.is_archived
    referee = membership.role == Role.REFEREE
    every_move, every_action = _moves_for(character.ruleset, character.kind)
    moves, actions = (every_move, every_action) if editable else ([], [])
    # a read-only sheet's history still names the moves that changed it («Конфликт»)
    move_names = {m["key"]: {"ru": m["ru"], "en": m["en"]} for m in every_move + every_action}
    data = character_data(character, membership)
    owner = character.owner.display_name if character.owner_id else None
    config = {
        "character": data,
        "owner": owner,
        "schema": sheet_schema(character.ruleset, character.kind),
        "moves": moves,
        "actions": actions,
        "moveNames": move_names,
        "me": {"id": me, "name": request.user.display_name, "role": membership.role},
        "isReferee": referee,
        "canEdit": editable,
        "full": full,
        "head": head,
        "lang": lang(),
        "csrf": get_token(request),
        "urls": {
            "ws": f"/ws/campaigns/{campaign.pk}/",
            "character": reverse("api-character", args=[character.pk]),
            "history": reverse("api-character-history", args=[character.pk]),
            "revert": reverse("api-character-revert", args=[character.pk]),
            "move": reverse("api-character-move", args=[character.pk, "MOVE"]),
            "odds": reverse("api-character-move-odds", args=[character.pk, "MOVE"]),
            "pending": reverse("api-character-pending", args=[character.pk]),
            "characters": reverse("api-characters", args=[campaign.pk]),
            "list": reverse("character_list", args=[campaign.pk]),
        },
        "moveUrls": move_urls(),
    }
    context = {
        "campaign": campaign,
        "membership": membership,
        "character": character,
        "owner": owner,
        "full": full,
        "editable": editable,
        "is_referee": referee,
        "has_moves": bool(moves or actions),
        "move_buttons": [_button(m) for m in moves],
        "action_buttons": [_button(m) for m in actions],
        "config": config,
        "sheet_links": web_for(character.ruleset).sheet_links(character) if full else [],
    }
    return render(request, "characters/sheet.html", context)


@login_required
@require_GET
def character_print(request: HttpRequest, cid: int) -> HttpResponse:
    """Black on white, every field of the sheet the user may see, no scripts."""
    character, membership = authorize_character(request.user, cid)
    full = can_see_full(character, user_id=request.user.pk, role=membership.role)
    state = (
        character.state
        if full
        else public_state(character.ruleset, character.state, character.kind)
    )
    schema = sheet_schema(character.ruleset, character.kind)
    context = {
        "campaign": membership.campaign,
        "character": character,
        "owner": character.owner.display_name if character.owner_id else None,
        "full": full,
        "groups": print_groups(schema, state),
        "schema_title": label(schema),
    }
    return render(request, "characters/print.html", context)


@login_required
@require_GET
def character_export(request: HttpRequest, cid: int) -> HttpResponse:
    """The export file as a download (the same document as ``GET /api/characters/<id>/export/``)."""
    character, membership = authorize_character(request.user, cid)
    if not can_see_full(character, user_id=request.user.pk, role=membership.role):
        raise Http404(_("Character not found."))
    body = json.dumps(services.character_export(character), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = quote(f"{character.name}.json")
    response["Content-Disposition"] = (
        f"attachment; filename=\"character-{character.pk}.json\"; filename*=UTF-8''{name}"
    )
    return response


@login_required
@require_GET
def party_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The table page's party moves panel as a fragment: party.js fetches it again when a
    sheet is created, renamed or deleted, so the live page lists what a fresh one does."""
    membership = authorize(request.user, pk, Action.VIEW)
    campaign = membership.campaign
    context = {
        "campaign": campaign,
        "can_play": can(membership, Action.PLAY) and not campaign.is_archived,
        "is_referee": membership.role == Role.REFEREE,
    }
    return render(request, "characters/party_panel.html", context)


__all__ = [
    "character_export",
    "character_import",
    "character_list",
    "character_print",
    "character_sheet",
    "described",
    "move_urls",
    "party_panel",
]
