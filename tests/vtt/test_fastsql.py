"""The hand-written hot-path statements return exactly what the ORM would (vtt/core/fastsql.py)."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from vtt.campaigns.models import Membership
from vtt.core import fastsql
from vtt.permissions import membership_for
from vtt.table import services
from vtt.table.events import verify_chain
from vtt.table.models import EventCursor, Roll, TableEvent

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_membership_row_matches_the_orm_including_json_and_dates(table):
    campaign = table.campaign
    campaign.rules = {"вариант": [1, 2], "flag": True}
    campaign.save()
    fast = membership_for(table.player, campaign.pk)
    orm = Membership.objects.select_related("campaign").get(campaign=campaign, user=table.player)
    assert _fields(fast) == _fields(orm)
    assert _fields(fast.campaign) == _fields(orm.campaign)
    assert fast.campaign.rules == {"вариант": [1, 2], "flag": True}
    assert not fast._state.adding


def test_membership_for_outsiders_and_impossible_ids_is_none(table):
    assert membership_for(table.outsider, table.campaign.pk) is None
    assert membership_for(table.player, 0) is None
    assert membership_for(table.player, 2**63) is None
    assert membership_for(table.player, "x") is None


def _d6(table, face: int) -> Roll:
    """An unsaved public 1d6 roll by the player."""
    return Roll(
        campaign=table.campaign,
        actor=table.player,
        notation="1d6",
        result={"dice": [face]},
        total=face,
        visibility="everyone",
    )


def test_insert_sets_primary_keys_and_auto_now_like_save(table):
    rolls = [_d6(table, 3) for _ in range(3)]
    fastsql.insert(rolls)
    assert all(r.pk for r in rolls) and len({r.pk for r in rolls}) == 3
    for roll in rolls:
        stored = Roll.objects.get(pk=roll.pk)
        assert _fields(stored) == _fields(roll)
        assert stored.created_at is not None and stored.result == {"dice": [3]}


def test_insert_with_also_runs_the_update_in_the_same_call(table, django_assert_num_queries):
    from django.db import connection

    head = EventCursor.objects.get_or_create(campaign=table.campaign)[0]
    before = head.last_seq
    roll = _d6(table, 5)
    update = (
        f"UPDATE {fastsql.table(EventCursor)} SET last_seq = %s WHERE campaign_id = %s",
        [before + 7, table.campaign.pk],
    )
    # one statement on PostgreSQL (a data-modifying WITH), two where that is not supported
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        fastsql.insert([roll], also=update)
    assert Roll.objects.get(pk=roll.pk).total == 5
    head.refresh_from_db()
    assert head.last_seq == before + 7


def test_token_auth_accepts_a_valid_token_only(table):
    token = Token.objects.create(user=table.player)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/campaigns/{table.campaign.pk}/"
    assert client.get(url).status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = client.get(url)
    assert response.status_code == 401
    table.player.is_active = False
    table.player.save()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(url).status_code == 401


def test_published_events_chain_through_the_raw_append(table):
    for i in range(3):
        services.publish(campaign=table.campaign, kind="chat", payload={"text": f"м{i}"})
    services.publish_many(
        campaign=table.campaign,
        events=[
            services.Draft("chat", {"text": "1"}),
            services.Draft("chat", {"text": "2"}, "referee"),
        ],
    )
    events = list(TableEvent.objects.filter(campaign=table.campaign).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.payload for e in events[-5:]] == [
        {"text": "м0"},
        {"text": "м1"},
        {"text": "м2"},
        {"text": "1"},
        {"text": "2"},
    ]
    assert events[-1].visibility == "referee"
    assert verify_chain(table.campaign.pk)["ok"]
    cursor = EventCursor.objects.get(campaign=table.campaign)
    assert (cursor.last_seq, cursor.last_hash) == (events[-1].seq, events[-1].hash)


def test_character_row_matches_the_orm(table):
    from vtt.characters.models import Character
    from vtt.characters.selectors import character_row
    from vtt.permissions import authorize_character

    sheet = Character.objects.create(
        campaign=table.campaign, owner=table.player, name="Лира", ruleset="dungeon_world"
    )
    row = character_row(sheet.pk)
    orm = Character.objects.get(pk=sheet.pk)
    assert _fields(row) == _fields(orm) and row.state == orm.state
    assert character_row(0) is None and character_row(2**63) is None
    assert character_row(sheet.pk + 10_000) is None
    from django.db import transaction

    with transaction.atomic():  # FOR UPDATE where the database has row locks
        assert _fields(character_row(sheet.pk, lock=True)) == _fields(orm)
    character, membership = authorize_character(table.player, sheet.pk)
    assert character.campaign is membership.campaign  # no second read of the campaign
