"""The Crows map endpoints: `/api/campaigns/<id>/maps/<map id>/attack|travel|combat/...`.
Writes run the commands of ``commands.py``, as the table socket does."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.core.commands import respond
from vtt.maps import selectors
from vtt.permissions import Action, authorize
from vtt.rulesets.crows import battle, commands, travel
from vtt.rulesets.crows.commands import MapAttackRequest


class MapAttack(APIView):
    @extend_schema(
        request=MapAttackRequest,
        responses={
            201: OpenApiResponse(description="The outcome, the map's sources, a pending choice"),
            400: OpenApiResponse(description="No line of effect, no sheet, a refused attack"),
            403: OpenApiResponse(description="Not your character's token"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Attack from one token at another (Crows). The server reads cover, light,
        concealment, height and flanking from the map and rolls; `context.sources` lists what
        the map added (each with `side` +1/−1 and `weight`), `context.net` the check's net
        advantage (−2…+2)."""
        return respond(request, commands.map_attack, pk=pk, map_id=map_id)


class MapTravel(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """The travel day (Crows) as this viewer may see it: players never get encounter or
        drift rolls, nor the true hex while the party is lost (`hex: null`)."""
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(travel.travel_view(m.campaign, referee=selectors.is_referee(membership)))


class MapTravelStep(APIView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: OpenApiTypes.OBJECT,
            201: OpenApiResponse(description="A role check: the outcome and its pending choice"),
            403: OpenApiResponse(description="Not the referee (or not your character)"),
            409: OpenApiResponse(description="The party is not travelling; stale day"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int, step: str) -> Response:
        """One step of the travel day on a flat-topped hex map (Crows, «Путешествие по суше»):
        `begin` {goal?: [col, row]}, `day` {pace, slowest_speed?, road, river, in_miasma},
        `roles` {roles: [{character_id, task, allies?, quarry?}], helping?}, `role`
        {character_id, task, characteristic?} (a player for their own character),
        `encounter` {kind: travel|rest}, `move` {directions: [n, ne, se, s, sw, nw],
        stop_at?}, `found`, `arrive` {place}, `end`, `miasma`, `miasma_choice`
        {character_id, choice: "clear" | character_id} (a 17+ roller's player), and
        `miasma_resolve` {choices?: {character_id: "clear" | character_id}} (the players'
        recorded choices apply unless overridden). `role` and `miasma_choice` are also the
        players' (for their own characters); everything else is the referee's."""
        return respond(request, commands.travel_step, pk=pk, map_id=map_id, step=step)


class MapCombat(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """The combat round (Crows) as this viewer may see it: players never get the creatures
        they cannot see on the map (hidden tokens, hidden NPCs, tokens under fog)."""
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(battle.combat_view(m, referee=selectors.is_referee(membership)))


class MapCombatStep(APIView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Refused by the rules (not your side's turn, …)"),
            403: OpenApiResponse(description="Not the referee (or not your character)"),
            409: OpenApiResponse(description="No combat (or one already under way)"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int, step: str) -> Response:
        """One step of a Crows combat on a square map (Crows, «Бой»): `start` {tokens?,
        surprised?, sides?: {token_id: pcs|enemies}}, `round` {roller_id?} (1d10: 6+ the PCs
        act first), `roller` {roller_id} (the player who rolls), `initiative` (that player
        rolls between rounds), `turn` {combatant, force?}, `spend` {combatant?, cost:
        maneuver|action|reaction|free, move?, squares?}, `taunt` {combatant?, target}, `ready`
        {combatant?, what?, trigger, kind?: action|maneuver}, `trigger` {combatant} (the
        readied action, as the reaction), `extra_action` {combatant} (referee), `grab`
        {attacker, target} (tokens; the `grab` move, a maneuver), `release` {combatant?},
        `join` {token, side?}, `end_turn`, `end`. Combatants are `"t<token id>"`. Players act
        only for their own characters' tokens; `roller`, `round`, `start`, `extra_action` and
        `end` are the referee's."""
        return respond(request, commands.combat_step, pk=pk, map_id=map_id, step=step)
