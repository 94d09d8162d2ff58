"""What one member may read of the journal. Every read goes through ``visible``."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.urls import reverse

from vtt.campaigns.models import Membership, Role
from vtt.journal import render
from vtt.journal.models import Entry, Sharing


def visible(membership: Membership) -> QuerySet[Entry]:
    """The referee: every entry and the notes shared with them; a player or an observer: the
    entries shared with everyone or with them, and their own notes."""
    qs = Entry.objects.filter(campaign_id=membership.campaign_id)
    user_id = membership.user_id
    if membership.role == Role.REFEREE:
        return qs.filter(Q(is_note=False) | Q(author_id=user_id) | Q(shared_with_referee=True))
    return qs.filter(
        Q(is_note=False, sharing=Sharing.EVERYONE)
        | Q(is_note=False, sharing=Sharing.CHOSEN, readers__user_id=user_id)
        | Q(is_note=True, author_id=user_id)
    ).distinct()


def entry_for(membership: Membership, entry_id: int) -> Entry:
    entry = visible(membership).filter(pk=entry_id).first()
    if entry is None:
        raise Http404
    return entry


def can_edit(membership: Membership, entry: Entry) -> bool:
    """The referee edits the referee's entries; everyone edits their own notes."""
    if entry.is_note:
        return entry.author_id == membership.user_id
    return membership.role == Role.REFEREE


def entry_url(entry: Entry) -> str:
    return reverse("journal-entry", args=[entry.campaign_id, entry.pk])


def image_url(entry: Entry, image_id: int) -> str:
    return reverse("journal-image", args=[entry.campaign_id, entry.pk, image_id])


def body_html(entry: Entry, membership: Membership | None) -> str:
    """The body as HTML for one reader; ``None``: for everyone (links only to entries shared
    with everyone)."""
    if membership is None:
        linkable = Entry.objects.filter(
            campaign_id=entry.campaign_id, is_note=False, sharing=Sharing.EVERYONE
        )
    else:
        linkable = visible(membership)
    titles = {e.title: e for e in linkable.only("id", "title", "campaign_id")}

    def link(title: str) -> str | None:
        target = titles.get(title)
        return entry_url(target) if target else None

    return render.to_html(entry.body, link)


def handout(entry: Entry, reader: Membership | None) -> dict[str, Any]:
    """The payload of a ``handout`` event: what the addressee's pop-up shows."""
    return {
        "entry": entry.pk,
        "title": entry.title,
        "html": body_html(entry, reader),
        "images": [{"url": image_url(entry, img.pk)} for img in entry.images.all()],
    }


def entry_data(entry: Entry, membership: Membership) -> dict[str, Any]:
    """An entry as its reader may see it; who else reads it only for the one who edits it."""
    data: dict[str, Any] = {
        "id": entry.pk,
        "title": entry.title,
        "is_note": entry.is_note,
        "html": body_html(entry, membership),
        "images": [
            {"id": img.pk, "label": img.label, "url": image_url(entry, img.pk)}
            for img in entry.images.all()
        ],
        "updated_at": entry.updated_at.isoformat(),
    }
    if can_edit(membership, entry):
        data.update(
            body=entry.body,
            sharing=entry.sharing,
            readers=sorted(entry.readers.values_list("user_id", flat=True)),
            shared_with_referee=entry.shared_with_referee,
            room_id=entry.room_id,
        )
    return data
