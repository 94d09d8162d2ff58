"""Journal entries: the referee's handouts and the players' private notes.

Who may read an entry is decided in ``vtt.journal.selectors.visible``; nothing here is shown
to anyone by itself.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from vtt.campaigns.models import Campaign

TITLE_MAX = 200
BODY_MAX = 20_000


class Sharing(models.TextChoices):
    NOBODY = "nobody", _("No one yet")
    EVERYONE = "everyone", _("Everyone")
    CHOSEN = "chosen", _("Chosen players")


class Entry(models.Model):
    """A referee's entry (``is_note`` false) or a player's note (``is_note`` true).

    A referee's entry is read by the addressees ``sharing`` names; a player's note by its
    author, and by the referee when ``shared_with_referee``.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="journal")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="journal_entries"
    )
    is_note = models.BooleanField(default=False)
    title = models.CharField(_("title"), max_length=TITLE_MAX)
    body = models.TextField(_("text"), blank=True, max_length=BODY_MAX)
    sharing = models.CharField(max_length=16, choices=Sharing.choices, default=Sharing.NOBODY)
    shared_with_referee = models.BooleanField(default=False)
    # A dungeon room (vtt.prep) this entry belongs to; kept as an id so the journal names no
    # other app's model and a deleted room leaves the entry.
    room_id = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title", "id"]

    def __str__(self) -> str:
        return self.title


class EntryReader(models.Model):
    """A chosen player who reads an entry (an own row, so the campaign archive carries it)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="readers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "user"], name="journal_one_reader_row")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.entry_id}"


class EntryImage(models.Model):
    """An image attached to an entry; its file is read only through ``views.entry_image``."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="images")
    name = models.CharField(max_length=200)  # the stored file, relative to MEDIA_ROOT
    label = models.CharField(max_length=TITLE_MAX, blank=True)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.label or self.name
