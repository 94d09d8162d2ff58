"""Referee preparation: dungeons with keyed rooms, and rollable random tables.

Nothing here is ever shown to players: every page and endpoint is the referee's
(``Action.MANAGE``), and the only thing that reaches the table is a roll the referee chooses to
publish to everyone.

Maps are referenced by integer id (``map_id``) without a foreign key: ``vtt.maps`` is being
built separately, and a room's cells are plain data (a list of ``[x, y]`` pairs: column and
row on a square grid, axial ``q, r`` on a hex grid). When ``vtt.maps`` is installed the
services check that a map id belongs to the campaign (``vtt/prep/services.py``).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from systems.core.notation import MAX_CHARS as NOTATION_MAX
from vtt.campaigns.models import Campaign
from vtt.characters.models import Character
from vtt.prep import rolltables

# The columns are the limits the services check (vtt/prep/services.py reads them from here).
NAME_MAX = 120  # a dungeon's or a room's name
TEXT_MAX = 20000  # a dungeon's description, a room's text
ROOM_KEY_MAX = 20
MONSTER_NOTE_MAX = 200


class RandomTable(models.Model):
    """A rollable table; its shape is ``vtt.prep.rolltables`` (cleaned there on every write)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="random_tables")
    key = models.CharField(_("key"), max_length=rolltables.KEY_MAX)
    name = models.CharField(_("name"), max_length=rolltables.MAX_NAME)
    formula = models.CharField(_("formula"), max_length=NOTATION_MAX)
    weights = models.BooleanField(_("weights instead of ranges"), default=False)
    modifier_label = models.CharField(_("modifier"), max_length=rolltables.MAX_LABEL, blank=True)
    note = models.TextField(_("note"), blank=True, max_length=rolltables.MAX_NOTE)
    entries = models.JSONField(default=list)
    # Where a copy came from: "<ruleset>:<library key>", or "" for the referee's own tables.
    source = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="prep_table_key_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def as_data(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "formula": self.formula,
            "weights": self.weights,
            "modifier_label": self.modifier_label,
            "note": self.note,
            "entries": self.entries,
        }


class TableResult(models.Model):
    """One roll on a table with its whole nested chain, as published to the log."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(
        RandomTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="results"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    visibility = models.CharField(max_length=16)
    modifier = models.IntegerField(default=0)
    result = models.JSONField()
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    # NULL (not "") for "no key": the unique constraint must ignore keyless rolls.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "actor", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="prep_result_idempotency_key_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.result.get('name', '?')} = {self.result.get('total')}"


class Dungeon(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="dungeons")
    name = models.CharField(_("name"), max_length=NAME_MAX)
    description = models.TextField(_("description"), blank=True, max_length=TEXT_MAX)
    # A map of vtt.maps by id, no foreign key (see the module docstring).
    map_id = models.PositiveIntegerField(_("map"), null=True, blank=True)
    # What the referee rolls when the dungeon's encounter check says something comes.
    encounter_table = models.ForeignKey(
        RandomTable,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("encounter table"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign_id", "name", "id"]

    def __str__(self) -> str:
        return self.name


def room_sort_key(key: str) -> tuple[int, str]:
    """ "2" before "10", "12a" after "12"; keys without a number go last."""
    match = re.match(r"\d+", key)
    return (int(match.group()) if match else 10**9, key)


class Room(models.Model):
    """A keyed room ("12. Склеп"): its text, its cells on a map, monsters and treasure."""

    dungeon = models.ForeignKey(Dungeon, on_delete=models.CASCADE, related_name="rooms")
    key = models.CharField(_("key"), max_length=ROOM_KEY_MAX)
    name = models.CharField(_("name"), max_length=NAME_MAX, blank=True)
    text = models.TextField(_("text"), blank=True, max_length=TEXT_MAX)
    # The room's own map, or NULL for the dungeon's.
    map_id = models.PositiveIntegerField(_("map"), null=True, blank=True)
    cells = models.JSONField(default=list, blank=True)
    treasure = models.JSONField(default=list, blank=True)  # lines of text
    sort_number = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["dungeon_id", "sort_number", "key", "id"]
        constraints = [
            models.UniqueConstraint(fields=["dungeon", "key"], name="prep_room_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.key}. {self.name}" if self.name else self.key

    @property
    def effective_map_id(self) -> int | None:
        return self.map_id if self.map_id is not None else self.dungeon.map_id


class RoomMonster(models.Model):
    """An NPC sheet placed in a room (how many of them, and a note)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="monsters")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="prep_rooms")
    count = models.PositiveSmallIntegerField(default=1)
    note = models.CharField(max_length=MONSTER_NOTE_MAX, blank=True)

    class Meta:
        ordering = ["room_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["room", "character"], name="prep_room_monster_unique")
        ]

    def __str__(self) -> str:
        return f"{self.character} ×{self.count}"
