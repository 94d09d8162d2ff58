"""A dungeon's encounter table (issue 18, item 16): the referee wires one of the campaign's
random tables to a dungeon; a table of another campaign is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from vtt.campaigns import services as campaign_services
from vtt.core.errors import Invalid
from vtt.prep import services
from vtt.prep.models import Dungeon

pytestmark = pytest.mark.django_db

TABLE = {
    "key": "encounters",
    "name": "Встречи",
    "formula": "1d6",
    "entries": [{"min": 1, "max": 6, "text": "Крысы"}],
}


def test_wire_an_encounter_table_through_the_page(table, client_for):
    encounters = services.table_create(campaign=table.campaign, data=TABLE)
    dungeon = services.dungeon_create(campaign=table.campaign, name="Склеп")
    client = client_for(table.referee)
    edit = reverse("prep_dungeon_edit", args=[table.campaign.pk, dungeon.pk])
    response = client.post(
        edit, {"name": "Склеп", "description": "", "encounter_table_id": encounters.pk}
    )
    assert response.status_code in (200, 302)
    dungeon.refresh_from_db()
    assert dungeon.encounter_table == encounters
    page = client.get(reverse("prep_dungeon", args=[table.campaign.pk, dungeon.pk]))
    html = page.content.decode()
    assert "Таблица встреч" in html
    assert reverse("prep_table", args=[table.campaign.pk, encounters.pk]) in html
    api = client.get(reverse("api-prep-dungeon", args=[table.campaign.pk, dungeon.pk]))
    assert api.json()["encounter_table_id"] == encounters.pk


def test_a_table_of_another_campaign_is_refused(table):
    other = campaign_services.campaign_create(user=table.referee, name="Другая", ruleset="crows")
    foreign = services.table_create(campaign=other, data=TABLE)
    dungeon = services.dungeon_create(campaign=table.campaign, name="Склеп")
    with pytest.raises(Invalid) as exc:
        services.dungeon_update(dungeon=dungeon, encounter_table_id=foreign.pk)
    assert exc.value.code == "no_table"
    assert Dungeon.objects.get(pk=dungeon.pk).encounter_table is None


def test_deleting_the_table_unwires_it(table):
    encounters = services.table_create(campaign=table.campaign, data=TABLE)
    dungeon = services.dungeon_create(
        campaign=table.campaign, name="Склеп", encounter_table_id=encounters.pk
    )
    services.table_delete(table=encounters)
    assert Dungeon.objects.get(pk=dungeon.pk).encounter_table is None
