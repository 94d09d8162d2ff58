"""Character and NPC sheets: JSON state validated by the ruleset, with a version for optimistic
concurrency and a full history for audit and one-click revert."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from vtt.campaigns.models import Campaign


class Kind(models.TextChoices):
    PC = "pc", _("Character")
    NPC = "npc", _("NPC")


class Character(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PC)
    ruleset = models.CharField(max_length=32)
    name = models.CharField(max_length=100)
    state = models.JSONField(default=dict)
    # NPCs the referee keeps from players: their sheets, moves and events never reach players.
    hidden = models.BooleanField(default=False)
    portrait = models.ImageField(upload_to="portraits/", blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign_id", "kind", "name", "id"]

    def __str__(self) -> str:
        return self.name


class CharacterChange(models.Model):
    """One saved version: who, when, why, which fields changed (from → to), and the full state
    after the change so any version can be restored exactly."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reason = models.CharField(max_length=80)
    diff = models.JSONField(default=list)
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["character", "version"], name="change_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.character_id} v{self.version} {self.reason}"


class PendingMove(models.Model):
    """A move waiting for a choice (DESIGN.md: a half-finished move is a state the table can
    show and resume). ``outcome`` is the serialised ``Outcome`` with its pending step."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="pending")
    move = models.CharField(max_length=60)
    outcome = models.JSONField()
    chooser = models.CharField(max_length=16)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    target = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["character_id", "id"]

    def __str__(self) -> str:
        return f"{self.move} for {self.character_id} ({self.chooser})"
