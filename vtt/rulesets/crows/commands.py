"""The Crows map commands (vtt/core/commands.py): attacks from a token, the combat round on
square maps and the travel day on hex maps. The API views in ``api.py`` and the table socket
both run these."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import status

from systems.crows import travel as travel_rules
from vtt.characters.api import outcome_for
from vtt.characters.commands import MOVE_BUCKET
from vtt.characters.models import Character
from vtt.core import serializers
from vtt.core.commands import Answer, Call, command
from vtt.core.errors import Invalid
from vtt.maps import selectors
from vtt.maps.commands import MAP, MAP_STEP, object_params
from vtt.maps.models import Token
from vtt.permissions import Action, authorize
from vtt.rulesets.crows import battle, combat, travel

ATTACK_BUCKET = MOVE_BUCKET  # an attack spends from the same bucket as a sheet move


class MapAttackRequest(serializers.Serializer):
    attacker = serializers.IntegerField(help_text="The attacking token")
    target = serializers.IntegerField(help_text="The target token")
    weapon_id = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="A held item's id; empty: an unarmed strike",
    )
    attack = serializers.ChoiceField(
        choices=["", "melee", "ranged"],
        required=False,
        default="",
        help_text="For a thrown weapon: melee or ranged",
    )
    characteristic = serializers.CharField(max_length=20, required=False, allow_blank=True)


@command("map.attack", args=MAP)
def map_attack(call: Call) -> Answer:
    """Attack from one token at another (Crows); the server reads the map's cover, light,
    concealment, height and flanking, and rolls."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    m = selectors.map_for(membership, call.args["map_id"])
    # whose token attacks comes before the body is checked: another player's is a 403
    body = call.params if isinstance(call.params, dict) else {}
    combat.attack_authorize(
        map=m, actor=call.user, role=membership.role, attacker_token=body.get("attacker")
    )
    data = call.valid(MapAttackRequest)
    ATTACK_BUCKET.hit(str(call.user.pk))
    outcome, follow, context = combat.map_attack(
        map=m,
        actor=call.user,
        role=membership.role,
        attacker_token=data["attacker"],
        target_token=data["target"],
        weapon_id=data.get("weapon_id", ""),
        attack=data.get("attack", ""),
        characteristic=data.get("characteristic") or None,
    )
    return attack_answer(outcome, follow, context, membership)


@command("combat", args=MAP_STEP)
def combat_step(call: Call) -> Answer:
    """One step of a Crows combat on a square map (``step``: start, round, turn, spend, grab,
    …; see the API view). Players act only for their own characters' tokens."""
    step = call.args["step"]
    if step not in battle.STEPS and step != "grab":
        raise Http404
    action = Action.PLAY if step in battle.PLAYER_STEPS | {"grab"} else Action.MANAGE
    membership = authorize(call.user, call.campaign_id, action)
    m = selectors.map_for(membership, call.args["map_id"])
    body = object_params(call.params)
    ATTACK_BUCKET.hit(str(call.user.pk))
    if step == "grab":
        outcome, follow, context = combat.map_grab(
            map=m,
            actor=call.user,
            role=membership.role,
            attacker_token=body.get("attacker"),
            target_token=body.get("target"),
        )
        return attack_answer(
            outcome,
            follow,
            context,
            membership,
            battle.combat_view(m, referee=selectors.is_referee(membership)),
        )
    return Answer(
        battle.combat_step(
            map=m, actor=call.user, membership=membership, step=step, params=dict(body)
        )
    )


@command("travel", args=MAP_STEP)
def travel_step(call: Call) -> Answer:
    """One step of the Crows travel day on a hex map (``step``: begin, day, roles, role, move,
    …; see the API view). `role` and `miasma_choice` are also the players'."""
    step = call.args["step"]
    if step not in travel.STEPS:
        raise Http404
    action = Action.PLAY if step in travel.STEPS_FOR_PLAYERS else Action.MANAGE
    membership = authorize(call.user, call.campaign_id, action)
    m = selectors.map_for(membership, call.args["map_id"])
    body = call.params if isinstance(call.params, dict) else {}
    referee = selectors.is_referee(membership)
    if step == "role":
        ATTACK_BUCKET.hit(str(call.user.pk))
        outcome, follow = travel.role_check(
            map=m,
            actor=call.user,
            role=membership.role,
            character_id=body.get("character_id"),
            task=str(body.get("task") or ""),
            characteristic=body.get("characteristic") or None,
        )
        shown = outcome_for(outcome, membership, pending=follow)
        details = shown.get("details") or {}
        if not referee and isinstance(details.get("travel"), dict):
            # the day as the check left it: a failed shortcut makes the party lost here
            details["travel"] = travel_rules.public_view(details["travel"])
        return Answer(
            {
                "outcome": shown,
                "pending_id": follow.pk if follow else None,
                **travel.travel_view(m.campaign, referee=referee),
            },
            status.HTTP_201_CREATED,
        )
    if step == "miasma":
        return Answer(travel.miasma_saves(map=m, actor=call.user, role=membership.role))
    if step == "miasma_choice":
        return Answer(
            travel.miasma_choice(
                map=m,
                actor=call.user,
                role=membership.role,
                character_id=body.get("character_id"),
                choice=body.get("choice"),
            )
        )
    if step == "miasma_resolve":
        choices = body.get("choices") or {}
        if not isinstance(choices, dict):
            raise Invalid("choices is an object.", fields={"choices": ["{}"]})
        return Answer(
            travel.miasma_resolve(map=m, actor=call.user, role=membership.role, choices=choices)
        )
    return Answer(
        travel.travel_step(
            map=m, actor=call.user, role=membership.role, step=step, params=dict(body)
        )
    )


def attack_answer(
    outcome: Any, follow: Any, context: dict[str, Any], membership: Any, extra: dict | None = None
) -> Answer:
    """A map attack's answer: the outcome as this member may see it (the target's sheet only
    for whoever may see it), the pending choice it opened, and what the map contributed."""
    target_token = Token.objects.filter(pk=context["target_token"]).first()
    target = (
        Character.objects.filter(pk=target_token.character_id).first()
        if target_token and target_token.character_id
        else None
    )
    return Answer(
        {
            "outcome": outcome_for(outcome, membership, target, pending=follow),
            "pending_id": follow.pk if follow else None,
            "context": context,
            **(extra or {}),
        },
        status.HTTP_201_CREATED,
    )
