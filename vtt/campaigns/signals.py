"""Signals other apps listen to (the table consumer disconnects a removed member at once)."""

from django.dispatch import Signal

# kwargs: campaign_id, user_id
member_removed = Signal()

# kwargs: campaign_id, user_id (role changed: the socket must re-authorise)
member_role_changed = Signal()
