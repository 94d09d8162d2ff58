"""The journal's pages. Each view authorises, reads through selectors and writes through
services; an entry's images are served here, never from a public media URL."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from vtt.campaigns.models import Membership, Role
from vtt.core.errors import ServiceError
from vtt.journal import selectors, services
from vtt.journal.models import EntryImage, Sharing
from vtt.maps import images
from vtt.permissions import Action, authorize


def _players(membership: Membership) -> list[Membership]:
    return list(
        Membership.objects.filter(campaign_id=membership.campaign_id, role=Role.PLAYER)
        .select_related("user")
        .order_by("user__username")
    )


def _form_changes(request: HttpRequest, membership: Membership) -> dict[str, object]:
    changes: dict[str, object] = {
        "title": request.POST.get("title", ""),
        "body": request.POST.get("body", ""),
    }
    if membership.role == Role.REFEREE:
        changes["sharing"] = request.POST.get("sharing", Sharing.NOBODY)
        changes["readers"] = request.POST.getlist("readers")
    else:
        changes["shared_with_referee"] = request.POST.get("shared_with_referee") == "on"
    return changes


@login_required
@require_http_methods(["GET", "POST"])
def journal_index(request: HttpRequest, pk: int) -> HttpResponse:
    """The entries the member may read; a form for a new entry (the referee) or note (a player)."""
    action = Action.PLAY if request.method == "POST" else Action.VIEW
    membership = authorize(request.user, pk, action)
    error = None
    if request.method == "POST":
        try:
            entry = services.entry_create(membership, **_form_changes(request, membership))
        except ServiceError as exc:
            error = exc.message
        else:
            return redirect(selectors.entry_url(entry))
    return render(
        request,
        "journal/index.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "entries": selectors.visible(membership),
            "error": error,
            "can_write": membership.role != Role.OBSERVER,
            "is_referee": membership.role == Role.REFEREE,
            "sharings": Sharing.choices,
            "players": _players(membership),
        },
        status=400 if error else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_page(request: HttpRequest, pk: int, jid: int) -> HttpResponse:
    action = Action.PLAY if request.method == "POST" else Action.VIEW
    membership = authorize(request.user, pk, action)
    entry = selectors.entry_for(membership, jid)
    error = None
    if request.method == "POST":
        try:
            services.entry_update(membership, entry, **_form_changes(request, membership))
        except ServiceError as exc:
            error = exc.message
        else:
            return redirect(selectors.entry_url(entry))
    return render(
        request,
        "journal/entry.html",
        {
            "campaign": membership.campaign,
            "entry": entry,
            "data": selectors.entry_data(entry, membership),
            "can_edit": selectors.can_edit(membership, entry),
            "is_referee": membership.role == Role.REFEREE,
            "sharings": Sharing.choices,
            "players": _players(membership),
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def entry_delete(request: HttpRequest, pk: int, jid: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.PLAY)
    services.entry_delete(membership, selectors.entry_for(membership, jid))
    return redirect("journal", pk)


@login_required
@require_GET
def entry_image(request: HttpRequest, pk: int, jid: int, image_id: int) -> HttpResponse:
    """An attached image, for those who may read its entry only."""
    membership = authorize(request.user, pk, Action.VIEW)
    entry = selectors.entry_for(membership, jid)
    image = EntryImage.objects.filter(entry=entry, pk=image_id).first()
    if image is None:
        raise Http404
    path = images.media_path(image.name)
    if not path.exists():
        raise Http404
    content_type = images.CONTENT_TYPES.get(path.suffix, "application/octet-stream")
    response = FileResponse(path.open("rb"), content_type=content_type)
    response["Cache-Control"] = "private, no-cache"
    return response
