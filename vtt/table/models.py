"""The table's history: an append-only, hash-chained event log per campaign (DESIGN.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from vtt.campaigns.models import Campaign


class Visibility(models.TextChoices):
    EVERYONE = "everyone", _("Everyone")
    REFEREE = "referee", _("Referee only")
    WHISPER = "whisper", _("Whisper")
    BLIND = "blind", _("Blind")
    # every member but the referee: the players' copy of an event the referee gets in full
    PLAYERS = "players", _("Players")


# What a member may choose for a roll or a chat message (``players`` is for the two copies
# of one event, vtt/table/kinds.py).
USER_VISIBILITIES = (Visibility.EVERYONE, Visibility.REFEREE, Visibility.WHISPER, Visibility.BLIND)
USER_CHOICES = [(v.value, v.label) for v in USER_VISIBILITIES]


GENESIS_HASH = "0" * 64


class EventCursor(models.Model):
    """One row per campaign holding the last sequence number and hash. Locking it serialises
    appends, which is what makes sequence numbers gapless and the chain linear."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True)
    last_seq = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"campaign {self.campaign_id} at #{self.last_seq}"


class TableEvent(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    visibility = models.CharField(max_length=16, choices=Visibility.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["campaign_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="event_seq_unique"),
            models.CheckConstraint(
                condition=~Q(visibility="whisper") | Q(target__isnull=False),
                name="whisper_has_target",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} @ {self.campaign_id}"


class Roll(models.Model):
    """A server-side roll. ``salt`` makes the commitment of a hidden roll unguessable."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    notation = models.CharField(max_length=200)
    label = models.CharField(max_length=120, blank=True)
    result = models.JSONField()
    total = models.BigIntegerField()
    visibility = models.CharField(max_length=16, choices=Visibility.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # NULL (not "") for "no key": the unique constraint must ignore keyless rolls.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    salt = models.CharField(max_length=64, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "actor", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="roll_idempotency_key_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.notation} = {self.total}"


class InitiativeEntry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="initiative")
    name = models.CharField(max_length=80)
    value = models.IntegerField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0)
    hidden = models.BooleanField(default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign_id", "position", "id"]

    def __str__(self) -> str:
        return self.name


class InitiativeState(models.Model):
    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True)
    round = models.PositiveIntegerField(default=0)
    current = models.ForeignKey(
        InitiativeEntry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"round {self.round}"


class ClockState(models.TextChoices):
    STOPPED = "stopped", _("Stopped")
    RUNNING = "running", _("Running")
    PAUSED = "paused", _("Paused")


class DungeonClock(models.Model):
    """The campaign's dungeon-turn clock (DESIGN.md, "Timers"). Browsers draw the countdown
    from ``deadline``; a Celery task carrying ``turn`` ends the turn, guarded by a row lock."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True)
    state = models.CharField(max_length=16, choices=ClockState.choices, default="stopped")
    turn = models.PositiveIntegerField(default=0)
    mode = models.CharField(max_length=16, default="timer")  # "timer" or "rooms"
    length_seconds = models.PositiveIntegerField(default=30 * 60)
    deadline = models.DateTimeField(null=True, blank=True)
    remaining_seconds = models.FloatField(null=True, blank=True)
    rooms_left = models.PositiveIntegerField(null=True, blank=True)
    # The ruleset's own dungeon state (Crows: encounter signs, threshold, effects...).
    ruleset_state = models.JSONField(default=dict, blank=True)
    turns_ended = models.PositiveIntegerField(default=0)
    # Encounter checks go to the referee only unless the campaign decides to roll them openly.
    public_encounters = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"clock {self.campaign_id}: turn {self.turn} {self.state}"
