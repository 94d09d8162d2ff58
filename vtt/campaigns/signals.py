"""Signals other apps listen to (the table consumer disconnects a removed member at once)."""

from django.dispatch import Signal

# kwargs: campaign_id, user_id
member_removed = Signal()
