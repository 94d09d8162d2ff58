from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from systems import RULESET_KEYS
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_logins_work(settings, capsys):
    settings.DEBUG = True
    call_command("seed_demo")
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert settings.DEMO_PASSWORD in out
    assert sorted(Campaign.objects.values_list("ruleset", flat=True)) == sorted(RULESET_KEYS)
    assert User.objects.count() == 3
    for campaign in Campaign.objects.all():
        roles = sorted(Membership.objects.filter(campaign=campaign).values_list("role", flat=True))
        assert roles == [Role.PLAYER, Role.PLAYER, Role.REFEREE]
    client = Client()
    assert client.login(username="alice", password=settings.DEMO_PASSWORD)
    page = client.get("/campaigns/").content.decode()
    assert page.count('class="card campaign"') == len(RULESET_KEYS)


def test_seed_demo_refuses_in_production(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError):
        call_command("seed_demo")
    assert not User.objects.exists()
