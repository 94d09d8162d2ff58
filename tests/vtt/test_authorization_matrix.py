"""Every page and API endpoint against every role, with exact status codes.

Outsiders get 404 (the campaign does not exist for them), members without the role 403,
anonymous users a login redirect (pages) or 401 (API).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from vtt.campaigns import services
from vtt.campaigns.models import Membership, Role

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]


def codes(anonymous, outsider, observer, player, referee):
    return dict(zip(ROLES, [anonymous, outsider, observer, player, referee], strict=True))


# (name, method, url builder, data, expected codes). The url builder gets the Table and an invite.
PAGES = [
    ("list", "get", lambda t, i: reverse("campaign_list"), None, codes(302, 200, 200, 200, 200)),
    (
        "detail",
        "get",
        lambda t, i: reverse("campaign_detail", args=[t.campaign.pk]),
        None,
        codes(302, 404, 200, 200, 200),
    ),
    (
        "rename",
        "post",
        lambda t, i: reverse("campaign_rename", args=[t.campaign.pk]),
        {"name": "Новое имя"},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "archive",
        "post",
        lambda t, i: reverse("campaign_archive", args=[t.campaign.pk]),
        {},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "unarchive",
        "post",
        lambda t, i: reverse("campaign_unarchive", args=[t.campaign.pk]),
        {},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "invite_create",
        "post",
        lambda t, i: reverse("invite_create", args=[t.campaign.pk]),
        {"role": "player", "expires_in_hours": "168"},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "invite_revoke",
        "post",
        lambda t, i: reverse("invite_revoke", args=[t.campaign.pk, i.pk]),
        {},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "member_remove",
        "post",
        lambda t, i: reverse("member_remove", args=[t.campaign.pk, t.other_player.pk]),
        {},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "member_role",
        "post",
        lambda t, i: reverse("member_role", args=[t.campaign.pk, t.other_player.pk]),
        {"role": "observer"},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "referee_transfer",
        "post",
        lambda t, i: reverse("referee_transfer", args=[t.campaign.pk]),
        {"user_id": "OTHER"},
        codes(302, 404, 403, 403, 302),
    ),
    (
        "leave",
        "post",
        lambda t, i: reverse("campaign_leave", args=[t.campaign.pk]),
        {},
        codes(302, 404, 302, 302, 409),
    ),
    (
        "invite_page",
        "get",
        lambda t, i: reverse("invite_accept", args=[i.token]),
        None,
        codes(200, 200, 200, 200, 200),
    ),
    (
        "password_change",
        "get",
        lambda t, i: reverse("password_change"),
        None,
        codes(302, 200, 200, 200, 200),
    ),
    ("login", "get", lambda t, i: reverse("login"), None, codes(200, 302, 302, 302, 302)),
    ("signup", "get", lambda t, i: reverse("signup"), None, codes(200, 302, 302, 302, 302)),
    ("api_docs", "get", lambda t, i: reverse("api-docs"), None, codes(200, 200, 200, 200, 200)),
]

API = [
    ("list", "get", lambda t, i: "/api/campaigns/", None, codes(401, 200, 200, 200, 200)),
    (
        "create",
        "post",
        lambda t, i: "/api/campaigns/",
        {"name": "Новая", "ruleset": "crows"},
        codes(401, 201, 201, 201, 201),
    ),
    (
        "retrieve",
        "get",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/",
        None,
        codes(401, 404, 200, 200, 200),
    ),
    (
        "update",
        "patch",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/",
        {"name": "Переименована"},
        codes(401, 404, 403, 403, 200),
    ),
    (
        "archive",
        "post",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/archive/",
        {},
        codes(401, 404, 403, 403, 200),
    ),
    (
        "unarchive",
        "post",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/unarchive/",
        {},
        codes(401, 404, 403, 403, 200),
    ),
    (
        "members",
        "get",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/members/",
        None,
        codes(401, 404, 200, 200, 200),
    ),
    (
        "member_role",
        "patch",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/members/{t.other_player.pk}/",
        {"role": "observer"},
        codes(401, 404, 403, 403, 200),
    ),
    (
        "member_remove_other",
        "delete",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/members/{t.other_player.pk}/",
        None,
        codes(401, 404, 403, 403, 204),
    ),
    (
        "member_leave_self",
        "delete",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/members/SELF/",
        None,
        codes(401, 404, 204, 204, 409),
    ),
    (
        "referee_transfer",
        "post",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/referee/",
        {"user_id": "OTHER"},
        codes(401, 404, 403, 403, 200),
    ),
    (
        "invites_list",
        "get",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/invites/",
        None,
        codes(401, 404, 403, 403, 200),
    ),
    (
        "invites_create",
        "post",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/invites/",
        {"role": "observer", "expires_in_hours": 24},
        codes(401, 404, 403, 403, 201),
    ),
    (
        "invite_revoke",
        "delete",
        lambda t, i: f"/api/campaigns/{t.campaign.pk}/invites/{i.pk}/",
        None,
        codes(401, 404, 403, 403, 204),
    ),
    (
        "invite_preview",
        "get",
        lambda t, i: f"/api/invites/{i.token}/",
        None,
        codes(401, 200, 200, 200, 200),
    ),
    (
        "invite_accept",
        "post",
        lambda t, i: f"/api/invites/{i.token}/accept/",
        {},
        codes(401, 200, 200, 200, 200),
    ),
    ("me", "get", lambda t, i: "/api/me/", None, codes(401, 200, 200, 200, 200)),
    ("schema", "get", lambda t, i: "/api/schema/", None, codes(200, 200, 200, 200, 200)),
]


def _cases(table):
    return [(name, role, expected[role]) for name, *_rest, expected in table for role in ROLES]


def _fill(url: str, data, t, user):
    url = url.replace("SELF", str(user.pk if user else 0))
    if isinstance(data, dict):
        data = {k: (t.other_player.pk if v == "OTHER" else v) for k, v in data.items()}
    return url, data


@pytest.fixture
def invite(table):
    return services.invite_create(
        campaign=table.campaign, created_by=table.referee, expires_in=timedelta(days=1)
    )


@pytest.mark.parametrize(("name", "role", "expected"), _cases(PAGES))
def test_page(name, role, expected, table, invite, client_for):
    _n, method, build, data, _codes = next(p for p in PAGES if p[0] == name)
    user = table.user(role)
    url, data = _fill(build(table, invite), data, table, user)
    response = (
        getattr(client_for(user), method)(url, data)
        if data is not None
        else getattr(client_for(user), method)(url)
    )
    assert response.status_code == expected, response.content[:500]
    if role == "anonymous" and expected == 302:
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "role", "expected"), _cases(API))
def test_api(name, role, expected, table, invite, api_for):
    _n, method, build, data, _codes = next(p for p in API if p[0] == name)
    user = table.user(role)
    url, data = _fill(build(table, invite), data, table, user)
    response = getattr(api_for(user), method)(url, data, format="json")
    assert response.status_code == expected, response.content[:500]
    if expected in (400, 403, 404, 409):
        assert response.json()["detail"]


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
