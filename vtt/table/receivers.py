"""Membership changes reach open sockets at once."""

from __future__ import annotations

from django.dispatch import receiver

from vtt.campaigns import signals
from vtt.table.services import broadcast


@receiver(signals.member_removed)
def disconnect_removed_member(sender, *, campaign_id: int, user_id: int, **kwargs) -> None:
    broadcast(campaign_id, {"type": "member.removed", "user_id": user_id})


@receiver(signals.member_role_changed)
def reauthorise_member(sender, *, campaign_id: int, user_id: int, **kwargs) -> None:
    broadcast(campaign_id, {"type": "member.role", "user_id": user_id})
