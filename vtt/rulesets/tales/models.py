"""The Tales new-character wizard, kept per user and campaign so a half-made character can be
resumed on another day or another device."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from vtt.campaigns.models import Campaign
from vtt.characters.models import Character


class CharacterWizard(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # ``systems.tales.wizard`` state: faces rolled by the server and the choices made so far.
    state = models.JSONField(default=dict)
    # The sheet the finished wizard made (the wizard then shows it until started over).
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_wizard_per_user")
        ]

    def __str__(self) -> str:
        return f"wizard of {self.user_id} in {self.campaign_id}: {self.state.get('step')}"
