"""The journal's table command: the socket and the HTTP API run the same declaration."""

from __future__ import annotations

from rest_framework import status

from vtt.core.commands import Answer, Call, command
from vtt.journal import selectors, services
from vtt.permissions import Action, authorize
from vtt.table.events import wire


@command("journal.show", args={"jid": int})
def journal_show(call: Call) -> Answer:
    """Show a journal entry to its addressees now (a pop-up in their browsers)."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    entry = selectors.entry_for(membership, call.args["jid"])
    events = services.entry_show(membership, entry)
    return Answer({"events": [wire(e) for e in events]}, status.HTTP_201_CREATED)
