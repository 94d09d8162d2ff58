"""Every page, panel and fragment of every demo campaign, every rules text and every event text of
the demo log, in Russian and English, as the referee and as a player: no rulebook line
references, unfilled placeholders, internal keys, and no stray Latin words on a Russian page
(issue 18 item 9; tests/playertext.py holds the rules). The browser pass over the same tables,
which reads what the JavaScript draws, is tests/e2e/test_player_text.py.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from systems import RULESET_KEYS, get_ruleset
from tests.playertext import scan, visible_text
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign
from vtt.characters.models import Character
from vtt.maps.models import Map, Token
from vtt.prep.models import Dungeon, RandomTable, Room
from vtt.table.models import TableEvent

pytestmark = pytest.mark.django_db

LANGS = ("ru", "en")
# Not pages: JSON, files, the admin, and views that only answer a POST.
SKIP_PREFIXES = ("api/", "admin/", "healthz", "logout/", "language/")


@pytest.fixture
def demo(settings, tmp_path):
    settings.DEBUG = True
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("seed_demo", stdout=io.StringIO())


def _routes(patterns=None, prefix: str = "") -> list[tuple[str, URLPattern]]:
    out = []
    for p in patterns if patterns is not None else get_resolver().url_patterns:
        here = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            out += _routes(p.url_patterns, here)
        elif isinstance(p, URLPattern) and not here.startswith(SKIP_PREFIXES):
            out.append((here, p))
    return out


def _values(campaign: Campaign) -> dict[str, list[Any]]:
    """Every id a route of this campaign can take, by the route's argument name."""
    rooms = Room.objects.filter(dungeon__campaign=campaign)
    return {
        "pk": [campaign.pk],
        "cid": list(Character.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "map_id": list(Map.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "token_id": list(Token.objects.filter(map__campaign=campaign).values_list("pk", flat=True)),
        "did": list(Dungeon.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "rid": list(rooms.values_list("pk", flat=True)),
        "tid": list(RandomTable.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "user_id": [],
        "invite_id": [],
        "mid": [],
        "key": [],
        "token": [],
    }


def _urls(campaign: Campaign) -> list[str]:
    values = _values(campaign)
    urls = []
    for route, pattern in _routes():
        names = list(pattern.pattern.regex.groupindex)
        if not names:
            urls.append("/" + route)
            continue
        combos: list[dict[str, Any]] = [{}]
        for name in names:
            combos = [{**c, name: v} for c in combos for v in values.get(name, [])]
        for kwargs in combos:
            path = route
            for name, value in kwargs.items():
                path = path.replace(f"<int:{name}>", str(value))
                path = path.replace(f"<slug:{name}>", str(value))
                path = path.replace(f"<str:{name}>", str(value))
            if "<" not in path:
                urls.append("/" + path)
    return sorted(set(urls))


def _client(user: User | None, lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    if user is not None:
        if user.language != lang:
            user.language = lang
            user.save(update_fields=["language"])
        client.force_login(user)
    return client


def _strings(node: Any, lang: str) -> list[str]:
    """The texts of one language in a rules description or an event payload: the values of
    ``{"ru": ..., "en": ...}`` pairs and of ``*_ru``/``*_en`` fields, and every free text."""
    out: list[str] = []
    if isinstance(node, dict):
        if set(node) >= {"ru", "en"} and isinstance(node.get(lang), str):
            out.append(node[lang])
        for key, value in node.items():
            if key in LANGS:
                continue
            if isinstance(value, str) and (
                key.endswith("_" + lang) or key in ("text", "summary", "label", "name")
            ):
                out.append(value)
            elif isinstance(value, (dict, list)):
                out += _strings(value, lang)
    elif isinstance(node, list):
        for item in node:
            out += _strings(item, lang)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_pages_and_panels_show_no_plumbing(demo, lang):
    found: list[str] = []
    users = [User.objects.get(username="referee"), User.objects.get(username="alice")]
    anonymous = _client(None, lang)
    for url in ("/login/", "/signup/", "/accounts/login/", "/accounts/signup/"):
        resp = anonymous.get(url)
        if resp.status_code == 200:
            found += scan(visible_text(resp.content.decode()), lang, f"{url} anonymous")
    for user in users:
        client = _client(user, lang)
        for campaign in Campaign.objects.all():
            for url in _urls(campaign):
                resp = client.get(url)
                if resp.status_code != 200 or "html" not in resp.get("Content-Type", ""):
                    continue
                found += scan(visible_text(resp.content.decode()), lang, f"{url} {user}")
    assert not _report(found)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_texts_and_demo_events_show_no_plumbing(demo, lang):
    found: list[str] = []
    for key in RULESET_KEYS:
        found += scan(_strings(get_ruleset(key).describe(), lang), lang, f"describe({key})")
    for event in TableEvent.objects.order_by("campaign_id", "seq"):
        where = f"event {event.campaign.ruleset} #{event.seq} {event.kind}"
        found += scan(_strings(event.payload, lang), lang, where)
    assert not _report(found)


def _report(found: list[str]) -> list[str]:
    unique = sorted(set(found))
    for line in unique:
        print(line)
    print(f"{len(unique)} problems")
    return unique
