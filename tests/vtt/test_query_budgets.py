"""Queries per sheet move and per token move stay constant however big the table is (no N+1).

The load benchmark (``make bench``, ``queries`` line from bench/probe.py) counts the same
requests on PostgreSQL; here the count is pinned and compared between a small table and one
with many more members, sheets and tokens. Rolls: tests/vtt/table/test_query_budget.py.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import make_user
from vtt.campaigns.models import Membership, Role
from vtt.characters import services as characters
from vtt.maps import services as maps

pytestmark = pytest.mark.django_db(transaction=False)

# The same on SQLite and PostgreSQL (each log append: the cursor locked, the events inserted,
# the cursor moved). Raise one only for a new fixed cost, never for a per-member, per-sheet or
# per-token one.
MOVE_QUERIES = 10  # a hit: no sheet change; the move and its details appended together
MOVE_MISS_QUERIES = 15  # a miss marks XP: a sheet version, its history row and its event
TOKEN_MOVE_QUERIES = 10  # the map read once, under its lock; both copies appended together


HIT = {"approach": "agility", "bonus": 5}  # 2d6 +5 on a default sheet (all stats 10)
MISS = {"approach": "agility", "bonus": -5, "aid": -12}


def _token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _queries(client: APIClient, url: str, body: dict, status: int) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(url, body, format="json")
    assert response.status_code == status, response.content
    return [q["sql"] for q in ctx.captured_queries]


def _grow(table, n: int) -> None:
    """n more players, each with a sheet, and n NPCs: what an N+1 would iterate over."""
    for i in range(n):
        user = make_user(f"extra{i}")
        Membership.objects.create(campaign=table.campaign, user=user, role=Role.PLAYER)
        characters.character_create(
            campaign=table.campaign, actor=user, role=Role.PLAYER, name=f"Extra {i}"
        )
        characters.character_create(
            campaign=table.campaign,
            actor=table.referee,
            role=Role.REFEREE,
            name=f"Orc {i}",
            kind="npc",
        )


def test_a_move_costs_a_fixed_number_of_queries_however_many_members_and_sheets(table):
    sheet = characters.character_create(
        campaign=table.campaign, actor=table.player, role=Role.PLAYER, name="Ава"
    )
    client = _token_client(table.player)
    url = f"/api/characters/{sheet.pk}/moves/defy_danger/"
    _queries(client, url, {"params": HIT}, 201)  # warm-up
    small = _queries(client, url, {"params": HIT}, 201)
    small_miss = _queries(client, url, {"params": MISS}, 201)
    _grow(table, 30)
    large = _queries(client, url, {"params": HIT}, 201)
    large_miss = _queries(client, url, {"params": MISS}, 201)
    assert len(small) == len(large), "\n".join(large)
    assert len(small_miss) == len(large_miss), "\n".join(large_miss)
    assert len(large) <= MOVE_QUERIES, "\n".join(large)
    assert len(large_miss) <= MOVE_MISS_QUERIES, "\n".join(large_miss)
    sheet.refresh_from_db()
    assert sheet.state["xp"] == 2  # the two misses were real ones


def test_a_token_move_costs_a_fixed_number_of_queries_however_many_tokens(table):
    ref = table.referee
    sheet = characters.character_create(
        campaign=table.campaign, actor=table.player, role=Role.PLAYER, name="Ава"
    )
    m = maps.map_create(
        campaign=table.campaign, actor=ref, name="Зал", width=100, height=100, fogged=False
    )
    maps.map_activate(campaign=table.campaign, actor=ref, map_id=m.pk)
    own = maps.token_create(map=m, actor=ref, name="Ава", col=0, row=0, character_id=sheet.pk)
    url = f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/tokens/{own.pk}/move/"
    player, referee = _token_client(table.player), _token_client(ref)
    _queries(player, url, {"col": 1, "row": 0}, 200)  # warm-up
    _queries(referee, url, {"col": 2, "row": 0}, 200)
    small = _queries(player, url, {"col": 3, "row": 0}, 200)
    small_ref = _queries(referee, url, {"col": 4, "row": 0}, 200)
    _grow(table, 10)
    for i in range(200):
        maps.token_create(map=m, actor=ref, name=f"T{i}", col=10 + i % 90, row=10 + i // 90)
    large = _queries(player, url, {"col": 5, "row": 0}, 200)
    large_ref = _queries(referee, url, {"col": 6, "row": 0}, 200)
    assert len(small) == len(large), "\n".join(large)
    assert len(small_ref) == len(large_ref), "\n".join(large_ref)
    assert max(len(large), len(large_ref)) <= TOKEN_MOVE_QUERIES, "\n".join(large)
    own.refresh_from_db()
    assert (own.col, own.row) == (6, 0)
