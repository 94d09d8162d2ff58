"""Invites end to end, role transfer, last-referee protection, archive."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_user
from vtt.campaigns import services
from vtt.campaigns.models import Invite, Membership, Role
from vtt.core.errors import Conflict, Gone, Invalid


def referees(campaign):
    return list(
        Membership.objects.filter(campaign=campaign, role=Role.REFEREE).values_list(
            "user__username", flat=True
        )
    )


def test_invite_create_accept_over_pages(table, client_for):
    referee = client_for(table.referee)
    resp = referee.post(
        reverse("invite_create", args=[table.campaign.pk]),
        {"role": "observer", "expires_in_hours": "24", "max_uses": "2"},
    )
    assert resp.status_code == 302
    invite = Invite.objects.get(campaign=table.campaign)
    assert invite.role == Role.OBSERVER and invite.max_uses == 2
    assert len(invite.token) >= 32
    # the referee sees the absolute link on the campaign page
    page = referee.get(reverse("campaign_detail", args=[table.campaign.pk])).content.decode()
    assert f"http://testserver/invite/{invite.token}/" in page

    newcomer = make_user("newcomer")
    anon_page = client_for(None).get(reverse("invite_accept", args=[invite.token]))
    assert anon_page.status_code == 200
    assert table.campaign.name in anon_page.content.decode()

    joined = client_for(newcomer).post(reverse("invite_accept", args=[invite.token]))
    assert joined.status_code == 302
    assert joined["Location"] == reverse("campaign_detail", args=[table.campaign.pk])
    assert Membership.objects.get(campaign=table.campaign, user=newcomer).role == Role.OBSERVER
    invite.refresh_from_db()
    assert invite.uses == 1
    # accepting twice keeps one membership and does not use the invite again
    client_for(newcomer).post(reverse("invite_accept", args=[invite.token]))
    invite.refresh_from_db()
    assert invite.uses == 1
    assert Membership.objects.filter(campaign=table.campaign, user=newcomer).count() == 1


def test_invite_expired_revoked_used_up_refuse_and_change_nothing(table, api_for):
    expired = services.invite_create(
        campaign=table.campaign, created_by=table.referee, expires_in=timedelta(hours=1)
    )
    Invite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    revoked = services.invite_create(campaign=table.campaign, created_by=table.referee)
    services.invite_revoke(invite=revoked)
    single = services.invite_create(campaign=table.campaign, created_by=table.referee, max_uses=1)
    services.invite_accept(token=single.token, user=make_user("first"))

    late = make_user("late")
    client = api_for(late)
    for invite, code in [
        (expired, "invite_expired"),
        (revoked, "invite_revoked"),
        (single, "invite_used_up"),
    ]:
        resp = client.post(f"/api/invites/{invite.token}/accept/")
        assert resp.status_code == 410
        assert resp.json()["code"] == code
        assert resp.json()["detail"]
    assert client.post("/api/invites/nonexistent-token/accept/").status_code == 410
    assert not Membership.objects.filter(user=late).exists()


def test_expired_invite_page_says_so(table, client_for):
    invite = services.invite_create(campaign=table.campaign, created_by=table.referee)
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    page = client_for(make_user("late")).get(reverse("invite_accept", args=[invite.token]))
    assert page.status_code == 200
    assert 'type="submit" class="primary"' not in page.content.decode()
    assert client_for(None).get(reverse("invite_accept", args=["nope"])).status_code == 404


def test_revoke_over_api_then_accept_refused(table, api_for):
    created = api_for(table.referee).post(
        f"/api/campaigns/{table.campaign.pk}/invites/", {"role": "player"}, format="json"
    )
    assert created.status_code == 201
    body = created.json()
    assert body["url"].endswith(f"/invite/{body['token']}/") and body["is_active"]
    gone = api_for(table.referee).delete(
        f"/api/campaigns/{table.campaign.pk}/invites/{body['id']}/"
    )
    assert gone.status_code == 204
    resp = api_for(make_user("x")).post(f"/api/invites/{body['token']}/accept/")
    assert resp.status_code == 410


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"role": "referee"}, "role"),
        ({"expires_in_hours": 0}, "expires_in_hours"),
        ({"expires_in_hours": 24 * 91}, "expires_in_hours"),
        ({"max_uses": 0}, "max_uses"),
    ],
)
def test_invite_bad_input_is_400(table, api_for, payload, field):
    resp = api_for(table.referee).post(
        f"/api/campaigns/{table.campaign.pk}/invites/", payload, format="json"
    )
    assert resp.status_code == 400
    assert field in resp.json()
    assert not Invite.objects.exists()


def test_referee_transfer_keeps_exactly_one_referee(table, api_for):
    resp = api_for(table.referee).post(
        f"/api/campaigns/{table.campaign.pk}/referee/", {"user_id": table.player.pk}, format="json"
    )
    assert resp.status_code == 200
    assert referees(table.campaign) == ["pc1"]
    assert Membership.objects.get(campaign=table.campaign, user=table.referee).role == Role.PLAYER
    # the old referee can no longer manage
    old = api_for(table.referee).patch(
        f"/api/campaigns/{table.campaign.pk}/", {"name": "X"}, format="json"
    )
    assert old.status_code == 403
    # transfer to an outsider is refused and changes nothing
    resp = api_for(table.player).post(
        f"/api/campaigns/{table.campaign.pk}/referee/",
        {"user_id": table.outsider.pk},
        format="json",
    )
    assert resp.status_code == 400
    assert referees(table.campaign) == ["pc1"]


def test_last_referee_cannot_leave_or_be_removed_or_demoted(table):
    with pytest.raises(Conflict):
        services.member_remove(campaign=table.campaign, user_id=table.referee.pk)
    with pytest.raises(Conflict):
        services.member_set_role(
            campaign=table.campaign, user_id=table.referee.pk, role=Role.PLAYER
        )
    with pytest.raises(Invalid):
        services.member_set_role(
            campaign=table.campaign, user_id=table.player.pk, role=Role.REFEREE
        )
    assert referees(table.campaign) == ["gm"]


def test_database_refuses_a_second_referee(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(user=table.player, campaign=table.campaign).update(
            role=Role.REFEREE
        )
    assert referees(table.campaign) == ["gm"]


def test_remove_member_and_leave(table, api_for):
    assert (
        api_for(table.referee)
        .delete(f"/api/campaigns/{table.campaign.pk}/members/{table.player.pk}/")
        .status_code
        == 204
    )
    assert api_for(table.player).get(f"/api/campaigns/{table.campaign.pk}/").status_code == 404
    assert (
        api_for(table.observer)
        .delete(f"/api/campaigns/{table.campaign.pk}/members/{table.observer.pk}/")
        .status_code
        == 204
    )
    assert sorted(
        Membership.objects.filter(campaign=table.campaign).values_list("user__username", flat=True)
    ) == ["gm", "pc2"]


def test_archive_blocks_writes_until_unarchived(table, api_for):
    client = api_for(table.referee)
    base = f"/api/campaigns/{table.campaign.pk}/"
    assert client.post(base + "archive/").json()["is_archived"] is True
    resp = client.patch(base, {"name": "Новое"}, format="json")
    assert resp.status_code == 409 and resp.json()["code"] == "campaign_archived"
    assert client.post(base + "invites/", {}, format="json").status_code == 409
    # archived campaigns leave the default list but stay readable
    assert [c["id"] for c in client.get("/api/campaigns/").json()] == []
    assert [c["id"] for c in client.get("/api/campaigns/?archived=1").json()] == [table.campaign.pk]
    assert api_for(table.player).get(base).status_code == 200
    assert client.post(base + "unarchive/").json()["is_archived"] is False
    assert client.patch(base, {"name": "Новое"}, format="json").json()["name"] == "Новое"


def test_create_and_rename_validate(table, api_for):
    client = api_for(table.player)
    bad = client.post("/api/campaigns/", {"name": "", "ruleset": "chess"}, format="json")
    assert bad.status_code == 400
    assert set(bad.json()) >= {"name", "ruleset"}
    created = client.post(
        "/api/campaigns/", {"name": "  Туманы   Севера ", "ruleset": "tales"}, format="json"
    )
    assert created.status_code == 201
    assert created.json()["name"] == "Туманы Севера"
    assert created.json()["my_role"] == "referee"
    too_long = client.patch(
        f"/api/campaigns/{created.json()['id']}/", {"name": "x" * 121}, format="json"
    )
    assert too_long.status_code == 400


def test_gone_error_on_unknown_token_has_message(db):
    with pytest.raises(Gone) as info:
        services.invite_accept(token="missing", user=None)
    assert info.value.status == 410


def test_list_shows_only_my_campaigns_with_role(table, api_for):
    other = services.campaign_create(user=table.outsider, name="Чужая", ruleset="crows")
    mine = api_for(table.player).get("/api/campaigns/").json()
    assert [(c["id"], c["my_role"]) for c in mine] == [(table.campaign.pk, "player")]
    assert other.pk not in [c["id"] for c in mine]


def test_campaign_list_counts_every_member(table, client_for):
    """Issue 18 item 11: the list said "1 member" for every campaign (the user's own row)."""
    table.player.language = "en"
    table.player.save(update_fields=["language"])
    text = client_for(table.player).get(reverse("campaign_list")).content.decode()
    assert "4 members" in text  # the referee, two players and an observer
    assert "1 member<" not in text
