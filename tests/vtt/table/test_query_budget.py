"""Queries per roll and per token move stay constant however big the table is (no N+1).

The load benchmark (docs/performance.md) measures time; this counts the database round trips
a roll costs, the part of its cost that grows worst when someone adds a lazy lookup.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import make_user
from vtt.campaigns.models import Membership, Role

pytestmark = pytest.mark.django_db(transaction=False)

# token, membership, idempotency key, then in one transaction (a savepoint inside the test's):
# the roll, the log cursor (locked), the event, the cursor update. The same on SQLite and
# PostgreSQL.
ROLL_QUERIES = 9


def _token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _roll_queries(table, key: str) -> list[str]:
    client = _token_client(table.player)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            f"/api/campaigns/{table.campaign.pk}/rolls/",
            {"notation": "2d6+1", "visibility": "everyone"},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
    assert response.status_code == 201, response.content
    return [q["sql"] for q in ctx.captured_queries]


def test_a_roll_costs_a_fixed_number_of_queries_however_many_members(table):
    _roll_queries(table, "warm-up")  # the campaign's first event creates its cursor row
    small = _roll_queries(table, "small")
    for i in range(30):
        Membership.objects.create(
            campaign=table.campaign, user=make_user(f"extra{i}"), role=Role.PLAYER
        )
    large = _roll_queries(table, "large")
    assert len(small) == len(large), "\n".join(large)
    assert len(large) <= ROLL_QUERIES, "\n".join(large)
