"""The journal's rules: who writes what, who reads it, how many, and the attached images.

The API and the pages call these; every function takes the caller's membership (already
authorised for the campaign by ``vtt.permissions``) and refuses what its role does not allow.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from vtt.campaigns.models import Membership, Role
from vtt.core.errors import Conflict, Invalid
from vtt.journal import selectors
from vtt.journal.models import BODY_MAX, TITLE_MAX, Entry, EntryImage, EntryReader, Sharing
from vtt.maps import images

ENTRIES_MAX = 500  # entries and notes in one campaign
IMAGES_PER_ENTRY_MAX = 12
IMAGE_MAX_SIDE = 2048  # the copy we keep; a handout is read on a screen
IMAGE_FOLDER = "journal"
HANDOUT = "handout"  # the event kind (vtt/journal/kinds.py)


def _clean_title(title: object) -> str:
    text = str(title or "").strip()
    if not 1 <= len(text) <= TITLE_MAX:
        raise Invalid(
            _("A title of 1 to %(max)d characters.") % {"max": TITLE_MAX},
            fields={"title": [_("1 to %(max)d characters.") % {"max": TITLE_MAX}]},
        )
    return text


def _clean_body(body: object) -> str:
    text = str(body or "")
    if len(text) > BODY_MAX:
        raise Invalid(
            _("The text is longer than %(max)d characters.") % {"max": BODY_MAX},
            fields={"body": [_("At most %(max)d characters.") % {"max": BODY_MAX}]},
        )
    return text


def _clean_readers(membership: Membership, readers: Iterable[object]) -> list[int]:
    """Chosen readers are players of this campaign; anyone else is refused by name."""
    try:
        ids = {int(r) for r in readers}
    except (TypeError, ValueError) as exc:
        raise Invalid(_("Readers are players of this campaign."), fields={"readers": []}) from exc
    players = set(
        Membership.objects.filter(
            campaign_id=membership.campaign_id, user_id__in=ids, role=Role.PLAYER
        ).values_list("user_id", flat=True)
    )
    if ids - players:
        raise Invalid(
            _("Readers are players of this campaign."),
            fields={"readers": [_("Players of this campaign only.")]},
        )
    return sorted(players)


def check_can_edit(membership: Membership, entry: Entry) -> None:
    if not selectors.can_edit(membership, entry):
        raise PermissionDenied(_("Only the author may change this entry."))


@transaction.atomic
def entry_create(
    membership: Membership,
    *,
    title: object,
    body: object = "",
    sharing: str = Sharing.NOBODY,
    readers: Iterable[object] = (),
    shared_with_referee: bool = False,
    room_id: int | None = None,
) -> Entry:
    """The referee writes an entry; a player (or an observer) writes a private note."""
    if membership.role == Role.OBSERVER:
        raise PermissionDenied(_("Your role in this campaign does not allow this."))
    count = Entry.objects.select_for_update().filter(campaign_id=membership.campaign_id).count()
    if count >= ENTRIES_MAX:
        raise Conflict(
            _("A campaign holds at most %(max)d journal entries.") % {"max": ENTRIES_MAX},
            code="too_many_entries",
        )
    entry = Entry(
        campaign_id=membership.campaign_id,
        author_id=membership.user_id,
        is_note=membership.role != Role.REFEREE,
        title=_clean_title(title),
        body=_clean_body(body),
    )
    entry.save()
    _apply_sharing(membership, entry, sharing, readers, shared_with_referee, room_id)
    return entry


@transaction.atomic
def entry_update(membership: Membership, entry: Entry, **changes: object) -> Entry:
    """Change any of title, body, sharing, readers, shared_with_referee, room_id."""
    check_can_edit(membership, entry)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if "title" in changes:
        entry.title = _clean_title(changes["title"])
    if "body" in changes:
        entry.body = _clean_body(changes["body"])
    entry.save()
    _apply_sharing(
        membership,
        entry,
        changes.get("sharing", entry.sharing),
        changes.get("readers"),  # None: the readers stay
        changes.get("shared_with_referee", entry.shared_with_referee),
        changes.get("room_id", entry.room_id),
    )
    return entry


def _apply_sharing(
    membership: Membership,
    entry: Entry,
    sharing: object,
    readers: Iterable[object] | None,
    shared_with_referee: object,
    room_id: object,
) -> None:
    if entry.is_note:
        # A note is its author's; the one thing shared is a copy to the referee.
        entry.shared_with_referee = bool(shared_with_referee)
        entry.save(update_fields=["shared_with_referee"])
        return
    if sharing not in Sharing.values:
        raise Invalid(_("Unknown sharing."), fields={"sharing": [_("Unknown sharing.")]})
    entry.sharing = str(sharing)
    entry.room_id = _clean_room(membership, room_id)
    entry.save(update_fields=["sharing", "room_id"])
    if readers is not None:
        entry.readers.all().delete()
        EntryReader.objects.bulk_create(
            EntryReader(entry=entry, user_id=uid) for uid in _clean_readers(membership, readers)
        )


def _clean_room(membership: Membership, room_id: object) -> int | None:
    if room_id in (None, ""):
        return None
    from vtt.prep.models import Room  # the journal names prep only to check a link

    try:
        rid = int(room_id)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        rid = 0
    if not Room.objects.filter(pk=rid, dungeon__campaign_id=membership.campaign_id).exists():
        raise Invalid(_("No such room."), fields={"room_id": [_("No such room.")]})
    return rid


@transaction.atomic
def entry_delete(membership: Membership, entry: Entry) -> None:
    check_can_edit(membership, entry)
    names = list(entry.images.values_list("name", flat=True))
    entry.delete()
    transaction.on_commit(lambda: [images.delete(n) for n in names])


def image_add(membership: Membership, entry: Entry, upload: object, label: str = "") -> EntryImage:
    """Checked exactly as a map background is (type, size, pixel bombs), then re-encoded."""
    check_can_edit(membership, entry)
    clean = images.clean_image(upload, max_side=IMAGE_MAX_SIDE)
    name = images.store(clean.data, folder=IMAGE_FOLDER, ext=clean.ext)
    try:
        with transaction.atomic():
            locked = Entry.objects.select_for_update().get(pk=entry.pk)
            if locked.images.count() >= IMAGES_PER_ENTRY_MAX:
                raise Conflict(
                    _("An entry holds at most %(max)d images.") % {"max": IMAGES_PER_ENTRY_MAX},
                    code="too_many_images",
                )
            return EntryImage.objects.create(
                entry=locked,
                name=name,
                label=str(label or "")[:TITLE_MAX],
                width=clean.width,
                height=clean.height,
            )
    except BaseException:
        images.delete(name)
        raise


@transaction.atomic
def entry_show(membership: Membership, entry: Entry) -> list:
    """The referee shows an entry to its addressees now: one ``handout`` event for everyone,
    or one whisper to each chosen player, so no one else's browser receives it."""
    from vtt.table.models import Visibility
    from vtt.table.services import Draft, publish_many

    if membership.role != Role.REFEREE or entry.is_note:
        raise PermissionDenied(_("Only the referee shows entries to the table."))
    if entry.sharing == Sharing.EVERYONE:
        drafts = [Draft(HANDOUT, selectors.handout(entry, None), Visibility.EVERYONE, None)]
    else:
        readers = list(
            Membership.objects.filter(
                campaign_id=entry.campaign_id,
                role=Role.PLAYER,
                user_id__in=entry.readers.values("user_id")
                if entry.sharing == Sharing.CHOSEN
                else [],
            ).select_related("user")
        )
        if not readers:
            raise Conflict(_("Share the entry with someone before showing it."), code="not_shared")
        drafts = [
            Draft(HANDOUT, selectors.handout(entry, m), Visibility.WHISPER, m.user) for m in readers
        ]
    return publish_many(campaign=membership.campaign_id, events=drafts, actor=membership.user)


@transaction.atomic
def image_delete(membership: Membership, entry: Entry, image_id: int) -> None:
    check_can_edit(membership, entry)
    image = EntryImage.objects.filter(entry=entry, pk=image_id).first()
    if image is None:
        raise Invalid(_("No such image."), code="not_found", status=404)
    name = image.name
    image.delete()
    transaction.on_commit(lambda: images.delete(name))
