"""The rows of the authorization matrix marked ``alone`` (tests/vtt/test_authorization_matrix.py):
routes whose view closes the thread's database connection (an async view, the socket), run
each on its own campaign in a transactional test. A module of their own, so that the shared
populated campaign of the matrix module is gone before they run."""

from __future__ import annotations

import pytest

from tests.vtt.test_authorization_matrix import EXPECTATIONS, ROLES, check, observe

ALONE = sorted(route for route, expect in EXPECTATIONS.items() if expect.alone)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", ALONE)
def test_route_alone_answers_each_role_as_expected(route, table):
    expect = EXPECTATIONS[route]
    users = {"anonymous": None} | {role: getattr(table, role) for role in ROLES[1:]}
    kwargs = {"pk": table.campaign.pk, "campaign_id": table.campaign.pk} | expect.kwargs
    check(route, expect, observe(route, expect, kwargs, users))
