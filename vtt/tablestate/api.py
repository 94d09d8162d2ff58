"""Table state API: the rules state of the whole table (the Savage Worlds action deck and GM's
pool, the Tales battle record).

* ``GET  /api/campaigns/<id>/table-state/``: what the caller may see (members).
* ``POST /api/campaigns/<id>/table-moves/<key>/`` ``{params, version?}``: a table move; deck,
  session and battle control is the referee's, Tactics also a player's with their own sheet.
* ``POST /api/campaigns/<id>/table-state/choices/`` ``{character_id, pending_id, choice}``:
  answer a Savage Worlds benny choice (keep / reroll / reroll_pool ...) from the table.

Both writes are commands (``deck.move``, ``deck.choice``; ``commands.py``), sent by the table
page over its socket.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.core.commands import respond
from vtt.permissions import Action, authorize
from vtt.tablestate import commands, services
from vtt.tablestate.commands import (  # the commands' shapes, for the schema
    TableChoiceRequest,
    TableMoveRequest,
)


class TableStateView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse()})
    def get(self, request: Request, pk: int) -> Response:
        """The table state as you may see it: the dealt cards and the turn order (never the
        draw pile), the GM's pool, and for your own sheets their bennies and open choices."""
        membership = authorize(request.user, pk, Action.VIEW)
        ts = services.get_or_create_state(membership.campaign)
        return Response(commands.snapshot(membership, ts))


class TableMoveView(APIView):
    @extend_schema(
        request=TableMoveRequest,
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Refused by the rules, with fields"),
            403: OpenApiResponse(description="Referee only"),
            409: OpenApiResponse(description="Stale version"),
        },
    )
    def post(self, request: Request, pk: int, move: str) -> Response:
        """Make a table move; the server shuffles and deals. Savage Worlds: `start_session`,
        `end_session`, `start_combat`, `deal_round` (`participants`: `[{character_id} |
        {name, hidden}]`), `end_combat`, `adjust_pool` (`delta`). Tales: `surprise`
        (`unaware`), `tactics` (`character_id`, `bonus`), `initiative`, `next_side`,
        `reset_battle`."""
        return respond(request, commands.deck_move, pk=pk, move=move)


class TableChoiceView(APIView):
    @extend_schema(request=TableChoiceRequest, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        """Keep the roll, or spend a benny (your own, or the GM's pool for an NPC) on a
        re-roll or a soak roll. The sheet's owner or the referee chooses."""
        return respond(request, commands.deck_choice, pk=pk)
