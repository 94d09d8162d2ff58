"""Map pages: the referee's map management (/campaigns/<id>/maps/), the map editor, the table's
map panel fragment, and the authorised image reads (backgrounds and token pictures are never
public files: players get the background masked under the fog)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from vtt.campaigns.models import Membership, Role
from vtt.characters.models import Character
from vtt.core.errors import Invalid, ServiceError
from vtt.core.middleware import check_form_text
from vtt.maps import images, selectors, services, uploads
from vtt.maps.fog import Fog
from vtt.maps.forms import FOG_HIDDEN, FOG_REVEALED, BackgroundForm, MapForm
from vtt.maps.models import Map, Token
from vtt.permissions import Action, authorize, can
from vtt.rulesets.registry import web_for

# --- the management pages -------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def maps_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee's list of maps and the form for a new one."""
    membership = _referee(request, pk)
    form = MapForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            m = services.map_create(
                campaign=membership.campaign, actor=request.user, **form.service_data()
            )
        except ServiceError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Map “%(name)s” created.") % {"name": m.name})
            return redirect("map_editor", pk, m.pk)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "maps": list(selectors.maps_for(membership).order_by("-active", "name")),
        "form": form,
    }
    return render(request, "maps/list.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def map_editor(request: HttpRequest, pk: int, map_id: int) -> HttpResponse:
    """One map: its settings, background, tokens, and the map itself with the referee's tools."""
    membership = _referee(request, pk)
    m = selectors.map_for(membership, map_id)
    form = MapForm(request.POST or None, initial=_initial(m), prefix="map")
    if request.method == "POST":
        action = request.POST.get("action", "settings")
        try:
            response = _editor_action(request, membership, m, action, form)
        except ServiceError as exc:
            if action == "settings":
                _form_error(form, exc)
            else:
                messages.error(request, exc.message)
                return redirect("map_editor", pk, m.pk)
        else:
            if response is not None:
                return response
    m.refresh_from_db()
    context = _editor_context(request, membership, m, form)
    return render(request, "maps/editor.html", context, status=400 if form.errors else 200)


def _editor_action(
    request: HttpRequest, membership: Membership, m: Map, action: str, form: MapForm
) -> HttpResponse | None:
    pk = membership.campaign_id
    if action == "settings":
        if not form.is_valid():
            return None
        services.map_update(map=m, actor=request.user, **form.service_data())
        messages.success(request, _("Map saved."))
    elif action == "activate":
        services.map_activate(campaign=membership.campaign, actor=request.user, map_id=m.pk)
        messages.success(request, _("The map is on the table."))
    elif action == "deactivate":
        if m.active:
            services.map_activate(campaign=membership.campaign, actor=request.user, map_id=None)
        messages.success(request, _("The map is off the table."))
    elif action == "delete":
        services.map_delete(map=m, actor=request.user)
        messages.success(request, _("Map “%(name)s” deleted.") % {"name": m.name})
        return redirect("maps_page", pk)
    elif action == "background_clear":
        services.background_clear(map=m, actor=request.user)
        messages.success(request, _("Background removed."))
    elif action == "token_delete":
        services.token_delete(map=m, actor=request.user, token_id=_post_int(request, "token_id"))
        messages.success(request, _("Token removed."))
    elif action == "round":
        services.movement_reset(map=m, actor=request.user)
        messages.success(request, _("Movement reset for a new round."))
    else:
        raise Invalid(_("Unknown action."), code="bad_action")
    return redirect("map_editor", pk, m.pk)


@csrf_exempt  # checked below, after the size check, so an oversized body is never parsed
@login_required
@require_POST
def map_background_upload(request: HttpRequest, pk: int, map_id: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE)
    m = selectors.map_for(membership, map_id)
    try:
        handler = uploads.guard(request)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("map_editor", pk, m.pk)
    check = CsrfViewMiddleware(lambda r: HttpResponse())
    check.process_request(request)
    refused = check.process_view(request, None, (), {})
    if refused is not None:
        return refused
    check_form_text(request)  # NUL in a text field: a 400 page, nothing saved
    try:
        uploads.check(handler)
        form = BackgroundForm(request.POST, request.FILES)
        services.background_set(
            map=m,
            actor=request.user,
            upload=request.FILES.get("image"),
            fit=form.is_valid() and form.cleaned_data.get("fit", False),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("map_editor", pk, m.pk)
    messages.success(request, _("Background uploaded."))
    return redirect("map_editor", pk, m.pk)


def _initial(m: Map) -> dict[str, Any]:
    return {
        "name": m.name,
        "kind": m.kind,
        "orientation": m.orientation,
        "width": m.width,
        "height": m.height,
        "cell_px": m.cell_px,
        "cell_distance": m.cell_distance,
        "distance_unit": m.distance_unit,
        "metric": m.metric,
        "fogged": FOG_HIDDEN if m.fogged else FOG_REVEALED,
        "ambient_light": m.ambient_light,
    }


def _editor_context(
    request: HttpRequest, membership: Membership, m: Map, form: MapForm
) -> dict[str, Any]:
    tokens = list(Token.objects.filter(map=m).select_related("character"))
    fog = Fog.for_map(m)
    sizes = {s["key"]: s["label"] for s in selectors.sizes_for(m.campaign.ruleset, _lang())}
    return {
        **panel_context(request, membership, m, mode="editor"),
        "campaign": membership.campaign,
        "membership": membership,
        "map": m,
        "form": form,
        "background_form": BackgroundForm(),
        "tokens": [
            {
                "id": str(t.pk),
                "name": t.name,
                "color": t.color,
                "meta": " · ".join(
                    x
                    for x in (
                        sizes.get(t.size, t.size),
                        f"{t.col},{t.row}",
                        t.character.name if t.character_id else "",
                    )
                    if x
                ),
                "hidden": t.hidden,
                "in_fog": not fog.any_revealed(selectors.token_cells(t, m)),
            }
            for t in tokens
        ],
        "revealed": fog.count(),
        "cells": m.width * m.height,
    }


# --- the table's map panel ------------------------------------------------------------------------


def panel_context(
    request: HttpRequest, membership: Membership, m: Map | None, *, mode: str = "table"
) -> dict[str, Any]:
    """What ``templates/maps/_panel.html`` and ``static/js/map.js`` need. Players' state comes
    from ``selectors.map_state(referee=False)``: nothing else about a map goes into the page."""
    campaign = membership.campaign
    referee = membership.role == Role.REFEREE
    can_play = can(membership, Action.PLAY) and not campaign.is_archived
    state = (
        selectors.map_state(m, referee=referee, viewer_id=request.user.pk)
        if m is not None
        else None
    )
    characters = Character.objects.filter(campaign=campaign)
    if not referee:
        characters = characters.filter(owner_id=request.user.pk, kind="pc", hidden=False)
    api_map = reverse("api-map", args=[campaign.pk, 999999999]).replace("999999999", "{id}")
    config = {
        "campaign": campaign.pk,
        "ruleset": campaign.ruleset,
        "mode": mode,
        "me": {"id": request.user.pk, "role": membership.role},
        "isReferee": referee,
        "canPlay": can_play,
        "canManage": referee and not campaign.is_archived,
        "lang": _lang(),
        "csrf": get_token(request),
        "state": state,
        "head": state["head"] if state else selectors.current_head(campaign.pk),
        "maps": [selectors.map_summary(x) for x in selectors.maps_for(membership)]
        if referee
        else [],
        "sizes": selectors.sizes_for(campaign.ruleset, _lang()),
        "terrains": selectors.terrain_choices(),
        "characters": [
            {"id": c.pk, "name": c.name, "kind": c.kind, "owner_id": c.owner_id} for c in characters
        ]
        if referee or can_play
        else [],
        "urls": {
            "maps": reverse("api-maps", args=[campaign.pk]),
            "map": api_map,
            "manage": reverse("maps_page", args=[campaign.pk]),
            "editor": reverse("map_editor", args=[campaign.pk, 999999999]).replace(
                "999999999", "{id}"
            ),
            "attack": reverse("api-map-attack", args=[campaign.pk, 999999999]).replace(
                "999999999", "{id}"
            ),
            "character": reverse("api-character", args=[999999999]).replace("999999999", "{id}"),
            "choose": reverse("api-character-choose", args=[999999999, 888888888])
            .replace("999999999", "{cid}")
            .replace("888888888", "{pid}"),
        },
    }
    web = web_for(campaign.ruleset)
    config.update(web.map_config(membership, m))
    config["urls"].update(web.map_urls(campaign))
    return {
        "campaign": campaign,
        "map": m,
        "is_referee": referee,
        "can_manage": config["canManage"],
        "can_play": can_play,
        "mode": mode,
        "config": config,
        "sizes": config["sizes"],
        "terrains": config["terrains"],
        "battle_squares": web.battle_squares,
        "map_panels": web.map_panels,
        "maps": config["maps"],
    }


@login_required
@require_GET
def map_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The panel as a fragment (the table page includes the same through ``{% map_panel %}``)."""
    membership = authorize(request.user, pk, Action.VIEW)
    m = selectors.active_map(membership.campaign_id)
    return render(request, "maps/_panel.html", panel_context(request, membership, m))


# --- images ---------------------------------------------------------------------------------------


@login_required
@require_GET
def map_background(request: HttpRequest, pk: int, map_id: int) -> HttpResponse:
    """The referee gets the background; everyone else the copy masked under the fog."""
    membership = authorize(request.user, pk, Action.VIEW)
    m = selectors.map_for(membership, map_id)
    if not m.background:
        raise Http404
    referee = membership.role == Role.REFEREE
    version = selectors.background_version(m, referee=referee)
    asked = request.GET.get("v")
    if asked is not None and asked != version:
        # The URL is cached for a day, so it must only ever hold the image it names: a browser
        # that asks for a fog version the referee has already changed is sent to the current
        # one, never handed the current image under the old name.
        response = redirect(f"{request.path}?v={version}")
        response["Cache-Control"] = "no-store"
        return response
    if referee:
        path = images.media_path(m.background)
    else:
        path = images.masked_background(m)
        if path is None:
            raise Http404
    return _image_response(path, cache=asked is not None)


@login_required
@require_GET
def token_image(request: HttpRequest, pk: int, map_id: int, token_id: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.VIEW)
    m = selectors.map_for(membership, map_id)
    token = Token.objects.filter(map=m, pk=token_id).first()
    if token is None or not token.image:
        raise Http404
    if membership.role != Role.REFEREE and not selectors.token_visible(
        token, m, Fog.for_map(m), viewer_id=request.user.pk
    ):
        raise Http404
    return _image_response(images.media_path(token.image))


def _image_response(path, *, cache: bool = True) -> HttpResponse:
    """``cache``: the URL names this exact image (its version), so the browser may keep it for a
    day; otherwise it must ask again. Private either way: a shared cache must not keep one
    user's view."""
    if path is None or not path.exists():
        raise Http404
    content_type = images.CONTENT_TYPES.get(path.suffix, "application/octet-stream")
    response = FileResponse(path.open("rb"), content_type=content_type)
    response["Cache-Control"] = "private, max-age=86400" if cache else "private, no-cache"
    return response


# --- helpers --------------------------------------------------------------------------------------


def _referee(request: HttpRequest, pk: int) -> Membership:
    """Map management is the referee's: outsiders 404, other members 403, and writes to an
    archived campaign 409 (``authorize``)."""
    membership = authorize(request.user, pk, Action.VIEW)
    if membership.role != Role.REFEREE:
        raise PermissionDenied(_("Only the referee manages maps."))
    if request.method == "POST":
        authorize(request.user, pk, Action.MANAGE)
    return membership


def _lang() -> str:
    return get_language() or "ru"


def _post_int(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise Invalid(_("%(name)s must be a whole number.") % {"name": name}) from None


def _form_error(form, exc: ServiceError) -> None:
    placed = False
    for field, errors in exc.fields.items():
        if field in form.fields:
            for error in errors:
                form.add_error(field, error)
            placed = True
    if not placed or exc.message:
        form.add_error(None, exc.message)
