"""The campaign-wide rules state's actions as commands (vtt/core/commands.py): every move a
ruleset's plugin declares (the Savage Worlds deck and pool, the Tales battle record) through the
one table-move endpoint, and a benny choice answered from the table. The API views in
``api.py`` and the table socket both run these."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from vtt.campaigns.models import Role
from vtt.characters.presenters import character_data
from vtt.core import serializers
from vtt.core.commands import Answer, Call, command
from vtt.core.errors import Invalid
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize, authorize_character
from vtt.rulesets.registry import web_for
from vtt.tablestate import selectors, services

TABLE_MOVE_BUCKET = TokenBucket("table_move", burst=20, per_second=4)


class TableMoveRequest(serializers.Serializer):
    params = serializers.DictField(required=False, default=dict)
    version = serializers.IntegerField(
        required=False, allow_null=True, help_text="The version you saw; stale → 409."
    )


class TableChoiceRequest(serializers.Serializer):
    character_id = serializers.IntegerField()
    pending_id = serializers.IntegerField()
    choice = serializers.CharField(max_length=40)


def snapshot(membership: Any, ts: Any) -> dict:
    """The table state as this member may see it (never the draw pile)."""
    return selectors.snapshot_for(ts, user_id=membership.user_id, role=membership.role)


@command("deck.move", args={"move": str})
def deck_move(call: Call) -> Answer:
    """A table move; the server shuffles and deals (``start_session``, ``deal_round``,
    ``adjust_pool``…, and the Tales battle's ``surprise``, ``tactics``, ``initiative``…)."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(TableMoveRequest)
    TABLE_MOVE_BUCKET.hit(str(call.user.pk))
    ts, outcome = services.table_move(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        move=call.args["move"],
        params=data["params"],
        version=data.get("version"),
    )
    body = snapshot(membership, ts)
    body["outcome"] = None
    if outcome is not None:
        # Never the new state itself: for Savage Worlds it holds the draw pile's order.
        body["outcome"] = outcome.as_dict()
        body["outcome"].pop("state", None)
        if membership.role != Role.REFEREE:
            body["outcome"].pop("details", None)
    return Answer(body)


@command("deck.choice")
def deck_choice(call: Call) -> Answer:
    """Keep the roll, or spend a benny (your own, or the GM's pool for an NPC) on a re-roll or
    a soak roll. The sheet's owner or the referee chooses."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = call.valid(TableChoiceRequest)
    character, _member = authorize_character(call.user, data["character_id"])
    if character.campaign_id != membership.campaign_id:
        raise Invalid(_("No such character in this campaign."), code="no_character")
    TABLE_MOVE_BUCKET.hit(str(call.user.pk))
    bennies = web_for(membership.campaign.ruleset).benny_pool()
    if bennies is None:
        raise services.NotSupported(_("Bennies are a Savage Worlds rule."))
    outcome, follow, ts = bennies.benny_choice(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        character=character,
        pending_id=data["pending_id"],
        choice=data["choice"],
    )
    body = snapshot(membership, ts)
    body["outcome"] = outcome.as_dict()
    body["pending_id"] = follow.pk if follow else None
    body["character"] = character_data(character, membership)
    return Answer(body)
