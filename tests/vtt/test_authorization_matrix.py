# ruff: noqa: E501 (one row per route reads better than wrapped rows)
"""Every route of the site, the API and the table socket, against every role.

The routes come from Django's URL resolver and vtt/routing.py, not from a hand-kept list: a
route with no row in ``EXPECTATIONS`` fails ``test_every_route_has_an_expectation`` with its
pattern (and the codes it answers today, to review before copying). Each row says what a GET
and one write answer for each role, in the order of ``ROLES``:

    anonymous, outsider, observer, player, another player, referee

The ids in a route come from a populated campaign (tests/security/conftest.py, one per
ruleset): the player's own character, the campaign's map, a visible token, an invite, a
dungeon and room, a random table. Outsiders get 404 (a campaign does not exist for them),
members without the role 403, anonymous visitors a login redirect (pages) or 401 (API); a
400 or 409 for a member means the request got past the permission check and was refused on
its content. Every request runs in a savepoint rolled back after it, so one role's write
never changes what the next role meets.
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from tests.helpers import session_cookie
from tests.security.conftest import World
from vtt.campaigns.models import Invite, Membership, Role
from vtt.characters.models import Character, PendingMove
from vtt.journal.models import Entry, EntryImage, Sharing
from vtt.maps.models import Map, MapNote, Token
from vtt.prep.models import Dungeon, RandomTable, Room, RoomMonster
from vtt.routing import websocket_urlpatterns
from vtt.table.models import InitiativeEntry, Roll

ROLES = ("anonymous", "outsider", "observer", "player", "other_player", "referee")
WS_PREFIX = "ws/"


@dataclass(frozen=True)
class Ref:
    """In a row's ``data``: the id ``scene()`` gives the route parameter ``name`` (a body that
    names the player's own character or token, so that another player is refused on whose
    it is, not on an empty body)."""

    name: str


def _filled(data: Any, kwargs: dict[str, Any]) -> Any:
    if isinstance(data, Ref):
        return kwargs[data.name]
    if isinstance(data, dict):
        return {key: _filled(value, kwargs) for key, value in data.items()}
    if isinstance(data, list):
        return [_filled(value, kwargs) for value in data]
    return data


@dataclass(frozen=True)
class Expect:
    """What a route answers each role (``ROLES`` order): six codes for a GET, and a write
    method with six codes (for a socket: 200 welcomed, else the close code, and no write).
    ``ruleset`` picks the campaign; ``kwargs`` override route ids."""

    get: str
    write: str
    ruleset: str = "dungeon_world"
    kwargs: dict[str, Any] = field(default_factory=dict)
    # the write's body (default: empty); a ``Ref`` in it is filled from the route's ids
    data: dict[str, Any] = field(default_factory=dict)
    # Its own campaign in a transactional test: the view closes the thread's database
    # connection (async views, the socket), which the shared populated campaign cannot survive.
    alone: bool = False

    def codes(self) -> dict[str, list[int]]:
        method, *write = self.write.split()
        return {"get": _six(self.get), method: _six(" ".join(write))}


def _six(codes: str) -> list[int]:
    values = [int(c) for c in codes.split()]
    assert len(values) == len(ROLES), codes
    return values


# One row per route: GET codes, then the write method and its codes, for
#   anonymous  outsider  observer  player  other_player  referee
# 302 a page's login redirect, 401 the API's; 404 an outsider (or a member kept from an object);
# 403 a member without the role; 405 a method the route does not take (checked before the
# role, and it says nothing about a campaign); 400/409 past the permission check, refused on
# the (empty) body. A write whose body names what acts (a sheet, a token) gets a body naming
# the player's own (``Ref``): whose it is comes before the rest of the body, so another player
# is refused for that (403, or 404 for what they cannot see), never on the body's content.
# The admin site answers every non-staff user with its login redirect.
# fmt: off
EXPECTATIONS: dict[str, Expect] = {
    "": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "favicon.ico": Expect("301 301 301 301 301 301", "post 301 301 301 301 301 301"),
    "jsi18n/<str:language>/": Expect("200 200 200 200 200 200", "post 405 405 405 405 405 405", kwargs={"language": "en"}),
    "accounts/language/": Expect("405 405 405 405 405 405", "post 400 400 400 400 400 400"),
    "accounts/login/": Expect("200 302 302 302 302 302", "post 200 302 302 302 302 302"),
    "accounts/logout/": Expect("405 405 405 405 405 405", "post 302 302 302 302 302 302"),
    "accounts/password/": Expect("302 200 200 200 200 200", "post 302 200 200 200 200 200"),
    "accounts/password/done/": Expect("302 200 200 200 200 200", "post 302 405 405 405 405 405"),
    "accounts/profile/": Expect("302 200 200 200 200 200", "post 302 200 200 200 200 200"),
    "accounts/signup/": Expect("200 302 302 302 302 302", "post 200 302 302 302 302 302"),
    "admin/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/(?P<url>.*)$": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/^(?P<app_label>auth|authtoken|accounts)/$": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/<id>/password/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/<path:object_id>/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/<path:object_id>/change/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/<path:object_id>/delete/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/<path:object_id>/history/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/accounts/user/add/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/<path:object_id>/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/<path:object_id>/change/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/<path:object_id>/delete/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/<path:object_id>/history/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/auth/group/add/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/<path:object_id>/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/<path:object_id>/change/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/<path:object_id>/delete/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/<path:object_id>/history/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/authtoken/tokenproxy/add/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/autocomplete/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/jsi18n/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/login/": Expect("200 200 200 200 200 200", "post 200 200 200 200 200 200"),
    "admin/logout/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/password_change/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/password_change/done/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "admin/r/<path:content_type_id>/<path:object_id>/": Expect("302 302 302 302 302 302", "post 302 302 302 302 302 302"),
    "api/": Expect("401 200 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/^campaigns/$": Expect("401 200 200 200 200 200", "post 401 400 400 400 400 400"),
    "api/^campaigns/(?P<pk>\\d+)/$": Expect("401 404 200 200 200 200", "patch 401 404 403 403 403 200"),
    "api/^campaigns/(?P<pk>\\d+)/archive/$": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/^campaigns/(?P<pk>\\d+)/invites/$": Expect("401 404 403 403 403 200", "post 401 404 403 403 403 201"),
    "api/^campaigns/(?P<pk>\\d+)/members/$": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/^campaigns/(?P<pk>\\d+)/referee/$": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/^campaigns/(?P<pk>\\d+)/unarchive/$": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/auth/token/": Expect("405 405 405 405 405 405", "post 400 400 400 400 429 429"),
    "api/auth/token/revoke/": Expect("401 405 405 405 405 405", "delete 401 204 204 204 204 204"),
    "api/campaigns/<int:pk>/characters/": Expect("401 404 200 200 200 200", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/characters/import/": Expect("401 405 405 405 405 405", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/chat/": Expect("401 405 405 405 405 405", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/clock/": Expect("401 404 200 200 200 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/events/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/events/verify/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/initiative/": Expect("401 404 200 200 200 200", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/initiative/<int:entry_id>/": Expect("401 405 405 405 405 405", "patch 401 404 403 409 409 200"),
    "api/campaigns/<int:pk>/initiative/order/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/initiative/reset/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/initiative/step/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/invites/<int:invite_id>/": Expect("401 405 405 405 405 405", "delete 401 404 403 403 403 204"),
    "api/campaigns/<int:pk>/journal/": Expect("401 404 200 200 200 200", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/journal/<int:jid>/": Expect("401 404 200 200 200 200", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/journal/<int:jid>/images/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 415"),
    "api/campaigns/<int:pk>/journal/<int:jid>/images/<int:image_id>/": Expect("401 405 405 405 405 405", "delete 401 404 403 403 403 204"),
    "api/campaigns/<int:pk>/journal/<int:jid>/show/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 201"),
    "api/campaigns/<int:pk>/maps/": Expect("401 404 200 200 200 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/": Expect("401 404 200 200 200 200", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/activate/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/attack/": Expect("401 405 405 405 405 405", "post 401 404 403 400 404 400", ruleset="crows", data={"attacker": Ref("token_id"), "target": Ref("token_id")}),
    "api/campaigns/<int:pk>/maps/<int:map_id>/background/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 415"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/combat/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405", ruleset="crows"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/combat/<slug:step>/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200", ruleset="crows", kwargs={"step": "start"}),
    "api/campaigns/<int:pk>/maps/<int:map_id>/features/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400", ruleset="crows"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/fog/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/notes/": Expect("401 404 200 200 200 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/notes/<int:note_id>/": Expect("401 405 405 405 405 405", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/party-moves/<slug:move>/": Expect("401 405 405 405 405 405", "post 401 404 403 201 403 201", kwargs={"move": "take_watch"}, data={"character_ids": [Ref("cid")], "params": {"watcher": Ref("cid")}}),
    "api/campaigns/<int:pk>/maps/<int:map_id>/party/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200", ruleset="crows"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/round/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/terrain/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400", ruleset="crows"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/tokens/": Expect("401 404 200 200 200 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/": Expect("401 404 404 200 404 200", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/image/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 415"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/move/": Expect("401 405 405 405 405 405", "post 401 404 403 400 404 200", data={"col": 1, "row": 2}),
    "api/campaigns/<int:pk>/maps/<int:map_id>/travel/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405", ruleset="crows"),
    "api/campaigns/<int:pk>/maps/<int:map_id>/travel/<slug:step>/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400", ruleset="crows"),
    "api/campaigns/<int:pk>/members/<int:user_id>/": Expect("401 405 405 405 405 405", "patch 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/dungeons/": Expect("401 404 403 403 403 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/dungeons/<int:did>/": Expect("401 404 403 403 403 200", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/prep/dungeons/<int:did>/rooms/": Expect("401 404 403 403 403 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/library/": Expect("401 404 403 403 403 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/prep/library/npcs/<slug:key>/place/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/library/tables/copy/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 201"),
    "api/campaigns/<int:pk>/prep/results/": Expect("401 404 403 403 403 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/prep/rooms/<int:rid>/": Expect("401 404 403 403 403 200", "patch 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/<int:mid>/": Expect("401 405 405 405 405 405", "delete 401 404 403 403 403 204"),
    "api/campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/<int:mid>/initiative/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 201"),
    "api/campaigns/<int:pk>/prep/tables/": Expect("401 404 403 403 403 200", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/tables/<int:tid>/": Expect("401 404 403 403 403 200", "put 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/prep/tables/<int:tid>/export/": Expect("401 404 403 403 403 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/prep/tables/<int:tid>/roll/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 201"),
    "api/campaigns/<int:pk>/prep/tables/export/": Expect("401 404 403 403 403 200", "post 401 405 405 405 405 405"),
    "api/campaigns/<int:pk>/prep/tables/import/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 400"),
    "api/campaigns/<int:pk>/rolls/": Expect("401 405 405 405 405 405", "post 401 404 403 400 400 400"),
    "api/campaigns/<int:pk>/rolls/<int:roll_id>/reveal/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/rules/": Expect("401 404 200 200 200 200", "put 401 404 403 403 403 200"),
    "api/campaigns/<int:pk>/table-moves/<slug:move>/": Expect("401 405 405 405 405 405", "post 401 404 403 403 403 200", ruleset="savage_worlds", kwargs={"move": "deal_round"}),
    "api/campaigns/<int:pk>/table-state/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405", ruleset="savage_worlds"),
    "api/campaigns/<int:pk>/table-state/choices/": Expect("401 405 405 405 405 405", "post 401 404 403 400 400 400", ruleset="savage_worlds"),
    "api/characters/<int:cid>/": Expect("401 404 200 200 200 200", "put 401 404 403 400 403 400"),
    "api/characters/<int:cid>/export/": Expect("401 404 404 200 404 200", "post 401 405 405 405 405 405"),
    "api/characters/<int:cid>/history/": Expect("401 404 404 200 404 200", "post 401 405 405 405 405 405"),
    "api/characters/<int:cid>/moves/<slug:move>/": Expect("401 405 405 405 405 405", "post 401 404 403 201 403 201"),
    "api/characters/<int:cid>/moves/<slug:move>/odds/": Expect("401 404 403 200 403 200", "post 401 405 405 405 405 405"),
    "api/characters/<int:cid>/pending/": Expect("401 404 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/characters/<int:cid>/pending/<int:pending_id>/": Expect("401 405 405 405 405 405", "post 401 404 403 400 403 400"),
    "api/characters/<int:cid>/revert/": Expect("401 405 405 405 405 405", "post 401 404 403 400 403 400"),
    "api/docs/": Expect("200 200 200 200 200 200", "post 405 405 405 405 405 405"),
    "api/invites/<str:token>/": Expect("401 200 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/invites/<str:token>/accept/": Expect("401 405 405 405 405 405", "post 401 200 200 200 200 200"),
    "api/me/": Expect("401 200 200 200 200 200", "patch 401 200 200 200 200 200"),
    "api/rulesets/<slug:key>/": Expect("401 200 200 200 200 200", "post 401 405 405 405 405 405"),
    "api/schema/": Expect("200 200 200 200 200 200", "post 405 405 405 405 405 405"),
    "campaigns/": Expect("302 200 200 200 200 200", "post 302 200 200 200 200 200"),
    "campaigns/<int:pk>/": Expect("302 404 200 200 200 200", "post 302 404 200 200 200 200"),
    "campaigns/<int:pk>/archive/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/characters/": Expect("302 404 200 200 200 200", "post 302 404 403 400 400 400"),
    "campaigns/<int:pk>/characters/import/": Expect("302 405 405 405 405 405", "post 302 404 403 400 400 400"),
    "campaigns/<int:pk>/invites/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/invites/<int:invite_id>/revoke/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/leave/": Expect("302 405 405 405 405 405", "post 302 404 302 302 302 409"),
    "campaigns/<int:pk>/maps/": Expect("302 404 403 403 403 200", "post 302 404 403 403 403 200"),
    "campaigns/<int:pk>/maps/<int:map_id>/": Expect("302 404 403 403 403 200", "post 302 404 403 403 403 200"),
    "campaigns/<int:pk>/maps/<int:map_id>/background/": Expect("302 404 404 404 404 404", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/image/": Expect("302 404 404 404 404 404", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/maps/<int:map_id>/upload/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/maps/panel/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/members/<int:user_id>/remove/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/members/<int:user_id>/role/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/journal/": Expect("302 404 200 200 200 200", "post 302 404 403 400 400 400"),
    "campaigns/<int:pk>/journal/<int:jid>/": Expect("302 404 200 200 200 200", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/journal/<int:jid>/delete/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/journal/<int:jid>/images/<int:image_id>/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/dungeons/<int:did>/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/dungeons/<int:did>/delete/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/dungeons/<int:did>/edit/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/dungeons/<int:did>/rooms/new/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/dungeons/new/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/library/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/library/copy/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/library/npcs/<slug:key>/place/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/delete/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/edit/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/<int:mid>/initiative/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/rooms/<int:rid>/monsters/<int:mid>/remove/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/tables/<int:tid>/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/tables/<int:tid>/delete/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/tables/<int:tid>/edit/": Expect("302 404 403 403 403 200", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/prep/tables/<int:tid>/export/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/tables/<int:tid>/roll/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "campaigns/<int:pk>/prep/tables/export/": Expect("302 404 403 403 403 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/prep/tables/import/": Expect("302 404 403 403 403 200", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/prep/tables/new/": Expect("302 404 403 403 403 200", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/referee/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/rename/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 400"),
    "campaigns/<int:pk>/table/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/table/chat/": Expect("302 405 405 405 405 405", "post 302 404 403 302 302 302"),
    "campaigns/<int:pk>/table/odds/": Expect("302 404 400 400 400 400", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/table/party/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "campaigns/<int:pk>/table/roll/": Expect("302 405 405 405 405 405", "post 302 404 403 302 302 302"),
    "campaigns/<int:pk>/tales/wizard/": Expect("302 404 403 200 200 200", "post 302 404 403 302 302 302", ruleset="tales"),
    "campaigns/<int:pk>/tales/wizard/restart/": Expect("302 405 405 405 405 405", "post 302 404 403 302 302 302", ruleset="tales"),
    "campaigns/<int:pk>/unarchive/": Expect("302 405 405 405 405 405", "post 302 404 403 403 403 302"),
    "characters/<int:cid>/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "characters/<int:cid>/export/": Expect("302 404 404 200 404 200", "post 302 405 405 405 405 405"),
    "characters/<int:cid>/inventory/": Expect("302 404 404 200 404 200", "post 302 405 405 405 405 405", ruleset="crows"),
    "characters/<int:cid>/print/": Expect("302 404 200 200 200 200", "post 302 405 405 405 405 405"),
    "healthz": Expect("503 503 503 503 503 503", "post 503 503 503 503 503 503", alone=True),  # no worker runs in tests
    "invite/<str:token>/": Expect("200 200 200 200 200 200", "post 200 302 302 302 302 302"),
    "ws/campaigns/<int:campaign_id>/": Expect("4403 4403 200 200 200 200", "- 0 0 0 0 0 0", alone=True),
}
# fmt: on


# --- the routes ------------------------------------------------------------------------------


def _walk(patterns: list, prefix: str = "") -> list[str]:
    routes: list[str] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            routes += _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            routes.append(prefix + str(pattern.pattern))
    return routes


def all_routes() -> list[str]:
    """Every HTTP route Django resolves and every websocket route, as their patterns."""
    return sorted(set(_walk(get_resolver().url_patterns)) | set(_walk(websocket_urlpatterns)))


_PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def fill(route: str, kwargs: dict[str, Any]) -> str:
    """The URL of ``route`` with its parameters taken from ``kwargs``."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name not in kwargs:
            raise KeyError(f"{route}: no value for <{name}>; add it to scene() or the row")
        return str(kwargs[name])

    url = _PARAM.sub(value, route)
    url = url.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
    return "/" + url


# --- the campaign the ids come from -------------------------------------------------------------


def scene(world: World, expect: Expect) -> dict[str, Any]:
    """Route parameters naming real objects of the row's campaign (visible ones: the check
    under test is the role, not the secret)."""
    campaign = world.campaigns[expect.ruleset]
    player, other = world.users["player"], world.users["other_player"]
    game_map = Map.objects.filter(campaign=campaign).order_by("pk").first()
    room = Room.objects.filter(dungeon__campaign=campaign).order_by("pk").first()
    character = Character.objects.filter(campaign=campaign, owner=player).order_by("pk").first()
    pending = PendingMove.objects.filter(character=character).order_by("pk").first()
    invite = Invite.objects.filter(campaign=campaign).order_by("pk").first()
    shared = Entry.objects.filter(campaign=campaign, sharing=Sharing.EVERYONE).first()
    kwargs: dict[str, Any] = {
        "pk": campaign.pk,
        "campaign_id": campaign.pk,
        "cid": character.pk,
        "map_id": game_map.pk,
        "token_id": Token.objects.filter(map=game_map, hidden=False).order_by("pk").first().pk,
        "note_id": MapNote.objects.filter(map=game_map, secret=False).order_by("pk").first().pk,
        "entry_id": InitiativeEntry.objects.filter(campaign=campaign, hidden=False).first().pk,
        "invite_id": invite.pk,
        "token": invite.token,
        "user_id": other.pk,
        "roll_id": Roll.objects.filter(campaign=campaign).order_by("pk").first().pk,
        "did": Dungeon.objects.filter(campaign=campaign).order_by("pk").first().pk,
        "rid": room.pk,
        "mid": RoomMonster.objects.filter(room=room).order_by("pk").first().pk,
        "tid": RandomTable.objects.filter(campaign=campaign).order_by("pk").first().pk,
        "jid": shared.pk,
        "image_id": EntryImage.objects.filter(entry=shared).order_by("pk").first().pk,
        "pending_id": pending.pk if pending else 0,
        "key": expect.ruleset,
        "move": "hack_and_slash",
        "step": "begin",
        "format": "json",
        # The admin site: every route answers a non-staff user the same way.
        "id": 1,
        "object_id": 1,
        "content_type_id": 1,
        "app_label": "auth",
        "url": "nothing-here/",
    }
    return kwargs | expect.kwargs


# --- asking ----------------------------------------------------------------------------------


def _clients(users: dict[str, Any]) -> dict[str, Client]:
    clients = {}
    for role in ROLES:
        clients[role] = Client()
        if users[role] is not None:
            clients[role].force_login(users[role])
    return clients


def _ask(client: Client, method: str, url: str, data: dict[str, Any]) -> int:
    """One request in a savepoint rolled back after it."""
    if url.startswith("/api/"):
        body, content_type = json.dumps(data), "application/json"
    else:
        body, content_type = urlencode(data), "application/x-www-form-urlencoded"
    with transaction.atomic():
        if method == "get":
            response = client.get(url)
        else:
            response = client.generic(method.upper(), url, body, content_type=content_type)
        transaction.set_rollback(True)
    if url.startswith("/api/") and response.status_code in (401, 403, 404, 409):
        assert response.json()["detail"], (method, url)  # every refusal says why
    if response.status_code == 302 and "sessionid" not in client.cookies:
        # anonymous visitors are sent to log in (the admin site to its own front page)
        assert response["Location"].startswith(("/accounts/login/", "/admin/")), url
    return response.status_code


async def _socket_code(user: Any, url: str) -> int:
    """200 for a welcomed socket, else the close code the server sent."""
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(
        AuthMiddlewareStack(URLRouter(websocket_urlpatterns)), url, headers=headers
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    first = await comm.receive_output(timeout=5)
    if first["type"] == "websocket.send" and json.loads(first["text"])["type"] == "welcome":
        await comm.disconnect()
        return 200
    while first["type"] != "websocket.close":
        first = await comm.receive_output(timeout=5)
    return first["code"]


def observe(
    route: str, expect: Expect, kwargs: dict[str, Any], users: dict[str, Any]
) -> dict[str, list[int]]:
    """What the route answers each role today, per method of the row."""
    url = fill(route, kwargs)
    if route.startswith(WS_PREFIX):
        return {"get": [async_to_sync(_socket_code)(users[role], url) for role in ROLES]}
    match = resolve(url)
    assert match.route.replace("^", "") == route.replace("^", ""), (url, match.route, route)
    clients = _clients(users)
    answers: dict[str, list[int]] = {}
    for method in expect.codes():
        data = _filled(expect.data, kwargs) if method != "get" else {}
        answers[method] = [_ask(clients[role], method, url, data) for role in ROLES]
    return answers


def _row(route: str, answers: dict[str, list[int]]) -> str:
    parts = [" ".join(map(str, codes)) for codes in answers.values()]
    methods = list(answers)
    write = f"{methods[1]} {parts[1]}" if len(methods) > 1 else "- 0 0 0 0 0 0"
    return f'    "{route}": Expect("{parts[0]}", "{write}"),'


# --- the tests -------------------------------------------------------------------------------


def test_every_route_has_an_expectation():
    routes = set(all_routes())
    missing = sorted(routes - set(EXPECTATIONS))
    stale = sorted(set(EXPECTATIONS) - routes)
    assert not missing, (
        "routes with no row in EXPECTATIONS (tests/vtt/test_authorization_matrix.py); "
        "add one per route, with the codes each role should get:\n  " + "\n  ".join(missing)
    )
    assert not stale, "rows for routes that no longer exist:\n  " + "\n  ".join(stale)


@pytest.fixture(autouse=True, scope="module")
def _quiet_refusals():
    """Django logs every 4xx (with a traceback for a 403): thousands of lines here."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def check(route: str, expect: Expect, answers: dict[str, list[int]]) -> None:
    wanted = {"get": _six(expect.get)} if route.startswith(WS_PREFIX) else expect.codes()
    wrong = [
        f"{method.upper()} as {role}: expected {want}, got {got}"
        for method, codes in wanted.items()
        for role, want, got in zip(ROLES, codes, answers[method], strict=True)
        if want != got
    ]
    assert not wrong, f"{route}\n  " + "\n  ".join(wrong) + "\n today:\n" + _row(route, answers)


SHARED = sorted(route for route, expect in EXPECTATIONS.items() if not expect.alone)


@pytest.mark.django_db
@pytest.mark.parametrize("route", SHARED)
def test_route_answers_each_role_as_expected(route, world):
    expect = EXPECTATIONS[route]
    check(route, expect, observe(route, expect, scene(world, expect), world.users))


@pytest.mark.skipif(not os.environ.get("VTT_MATRIX_OBSERVE"), reason="prints rows to review")
@pytest.mark.django_db
def test_print_observed_rows(world):
    """VTT_MATRIX_OBSERVE=1: print a row for every route of the shared campaign from what it
    answers today, to review (a leak must be fixed in the view, not written down) first."""
    for route in all_routes():
        expect = EXPECTATIONS.get(route) or Expect(
            "0 0 0 0 0 0", f"{_write_method(route)} 0 0 0 0 0 0"
        )
        if expect.alone:
            continue
        try:
            print(_row(route, observe(route, expect, scene(world, expect), world.users)))
        except Exception as exc:
            print(f"    # {route}: {exc!r}")


def _write_method(route: str) -> str:
    """The first write a class-based view defines (post for function views)."""
    if route.startswith(WS_PREFIX):
        return "post"
    callback = None
    for candidate in _callbacks():
        if candidate[0] == route:
            callback = candidate[1]
    cls = getattr(callback, "cls", None)
    actions = getattr(callback, "actions", None)
    for method in ("post", "patch", "put", "delete"):
        if actions and method in actions:
            return method
        if cls is not None and not actions and hasattr(cls, method):
            return method
    return "post"


def _callbacks(patterns=None, prefix=""):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _callbacks(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


@pytest.mark.parametrize("role", ["referee", "player", "observer"])
def test_refused_writes_change_nothing(role, table, api_for):
    """A 403 or 409 leaves the campaign and its members exactly as they were."""
    before = (table.campaign.name, sorted(Membership.objects.values_list("user_id", "role")))
    user = table.user(role)
    client = api_for(user)
    if role != "referee":
        assert (
            client.patch(f"/api/campaigns/{table.campaign.pk}/", {"name": "X"}).status_code == 403
        )
        assert client.post(f"/api/campaigns/{table.campaign.pk}/archive/").status_code == 403
    else:
        resp = client.delete(f"/api/campaigns/{table.campaign.pk}/members/{user.pk}/")
        assert resp.status_code == 409
    table.campaign.refresh_from_db()
    after = (table.campaign.name, sorted(Membership.objects.values_list("user_id", "role")))
    assert before == after
    assert table.campaign.archived_at is None
    assert Membership.objects.filter(campaign=table.campaign, role=Role.REFEREE).count() == 1
