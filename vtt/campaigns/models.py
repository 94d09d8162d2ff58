from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from vtt.rulesets.registry import ruleset_choices


class Role(models.TextChoices):
    REFEREE = "referee", _("Referee")
    PLAYER = "player", _("Player")
    OBSERVER = "observer", _("Observer")


INVITABLE_ROLES = [
    (Role.PLAYER.value, Role.PLAYER.label),
    (Role.OBSERVER.value, Role.OBSERVER.label),
]


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    ruleset = models.CharField(_("ruleset"), max_length=32, choices=ruleset_choices)
    description = models.TextField(_("description"), blank=True, max_length=4000)
    # Rule options of the ruleset (where the rulebook allows two readings), validated by it.
    rules = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            # The database, not only the service, guarantees at most one referee; the service
            # guarantees at least one (transfer demotes and promotes in one transaction).
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(role="referee"), name="one_referee_per_campaign"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} @ {self.campaign}"


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link that lets whoever holds it join a campaign, until it expires or is revoked."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=_new_token)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(role="referee"), name="invite_never_referee"),
        ]

    def __str__(self) -> str:
        return f"invite to {self.campaign} ({self.role})"

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_used_up(self) -> bool:
        return self.max_uses is not None and self.uses >= self.max_uses

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and not self.is_expired and not self.is_used_up
