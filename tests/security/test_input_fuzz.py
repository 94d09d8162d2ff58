"""hypothesis against the places that read free input: dice notation (pure and over HTTP), move
parameters for every ruleset, and JSON bodies nested deeper than Python's parser can follow.
Each answer is a result or a clear refusal (a 400 with a message in the caller's language),
never a server error, and a refusal changes nothing.

tests/systems/core/test_notation.py already fuzzes the parser with text; here it also gets
values of other types, and the same inputs go through the API and the page endpoints."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from systems import get_ruleset
from systems.core.dice import RandomDice
from systems.core.notation import MAX_CHARS, NotationError, parse_notation, roll_notation
from tests.security.conftest import World, fuzz_derandomize, fuzz_examples
from vtt.characters.models import Character, CharacterChange
from vtt.table.models import Roll, TableEvent

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
VISIBILITIES = ["everyone", "referee", "blind", "whisper"]
RULESET_KEYS = ("dungeon_world", "crows", "city_of_judas", "tales", "savage_worlds")


def fuzz_settings(default: int) -> settings:
    return settings(
        max_examples=fuzz_examples(default),
        derandomize=fuzz_derandomize(),
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    """Buckets refill at once here: the limits have their own tests (test_caps.py), and a
    fuzz run must reach the code behind them on every example."""
    settings.RATE_LIMIT_REFILL_FACTOR = 1e9


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)

notation_like = st.one_of(
    st.text(max_size=MAX_CHARS + 20),
    st.text(alphabet="0123456789dDкК%!khlHLKe+-*()−× \t\x00", max_size=60),
    st.from_regex(r"\A\d{0,4}[dк]\d{0,5}(![0-9]*)?(k[hl]?\d{0,3})?([+\-*]\d{0,4})?\Z"),
    st.integers(0, 12).map(lambda n: "(" * n + "1d6" + ")" * n),
    st.just("1d6+" * 60),
)


def _assert_clear_error(err: NotationError) -> None:
    assert err.code and err.ru and err.en
    assert CYRILLIC.search(err.ru), err.ru  # the Russian message is Russian


# --- dice notation, pure -------------------------------------------------------------------------


@fuzz_settings(300)
@given(st.one_of(notation_like, json_value, st.binary(max_size=40)))
def test_notation_takes_any_value_and_answers_a_roll_or_a_notation_error(value: Any) -> None:
    try:
        result = roll_notation(value, dice=RandomDice())
    except NotationError as err:
        _assert_clear_error(err)
    else:
        assert isinstance(value, str)
        assert result.min_total <= result.total <= result.max_total
        json.dumps(result.as_dict())


def test_notation_refuses_a_megabyte_before_reading_it() -> None:
    with pytest.raises(NotationError) as info:
        parse_notation("1d6+" * 250_000)
    assert info.value.code == "too_long"
    _assert_clear_error(info.value)


# --- dice notation over HTTP: the rolls API, the roll bar and the odds preview -------------------


def _assert_refusal(response, *, lang: str) -> dict:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert _messages(body), body  # {"detail", "code"} or DRF's {"<field>": ["message"]}
    detail = body.get("detail", "")
    if lang == "ru" and body.get("code", "").startswith("notation_"):
        assert CYRILLIC.search(detail), detail
    return body


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_rolls_api_answers_any_notation_with_a_roll_or_a_clear_400(world: World, db, lang):
    player = world.users["player"]
    player.language = lang
    player.save()
    campaign = world.campaigns["dungeon_world"]
    client = world.client("player")
    url = f"/api/campaigns/{campaign.pk}/rolls/"

    @fuzz_settings(60)
    @given(
        notation=st.one_of(notation_like, json_value),
        visibility=st.one_of(st.sampled_from(VISIBILITIES), json_leaf),
        label=st.one_of(st.text(max_size=300), json_value),
        target_id=st.one_of(st.none(), st.integers(-5, 2**40), st.text(max_size=5)),
    )
    def run(notation, visibility, label, target_id) -> None:
        body = {"notation": notation, "visibility": visibility, "label": label}
        if target_id is not None:
            body["target_id"] = target_id
        with transaction.atomic():
            rolls = Roll.objects.count()
            response = client.post(url, body, format="json")
            if response.status_code != 201:
                _assert_refusal(response, lang=lang)
                assert Roll.objects.count() == rolls  # a refusal changes nothing
            else:
                roll = response.json()
                assert isinstance(notation, str)
                assert roll["min"] <= roll["total"] <= roll["max"] if "min" in roll else True
            transaction.set_rollback(True)

    run()


def test_roll_bar_and_odds_preview_answer_any_notation(world: World, db):
    campaign = world.campaigns["savage_worlds"]
    client = Client(HTTP_HOST="localhost")
    client.force_login(world.users["player"])
    roll_url = f"/campaigns/{campaign.pk}/table/roll/"
    odds_url = f"/campaigns/{campaign.pk}/table/odds/"

    @fuzz_settings(60)
    @given(
        notation=notation_like,
        at_least=st.one_of(st.none(), st.integers(-(2**70), 2**70).map(str), st.text(max_size=8)),
        bands=st.sampled_from(["", "pbta", "x"]),
        htmx=st.booleans(),
    )
    def run(notation, at_least, bands, htmx) -> None:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        query = {"notation": notation, "bands": bands}
        if at_least is not None:
            query["at_least"] = at_least
        with transaction.atomic():
            odds = client.get(odds_url, query, **headers)
            assert odds.status_code in (200, 400), (odds.status_code, odds.content[:300])
            if not htmx:
                body = odds.json()
                assert body.get("detail") if odds.status_code == 400 else "min" in body
            roll = client.post(roll_url, {"notation": notation}, **headers)
            assert roll.status_code in (200, 201, 302, 400), (roll.status_code, roll.content[:300])
            if roll.status_code == 400:
                assert roll.content.strip()
            transaction.set_rollback(True)

    run()


# --- move parameters for every ruleset -----------------------------------------------------------


def _param_strategy(spec: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Declared parameter names with wild values, plus unknown and reserved names."""
    declared = list(spec.get("params", {}))
    names = st.one_of(
        st.sampled_from(declared) if declared else st.nothing(),
        st.sampled_from(["move", "state", "dice", "settings", "choices", "target", "__class__"]),
        st.text(max_size=12),
    )
    return st.dictionaries(names, json_value, max_size=6)


@pytest.mark.parametrize("ruleset", RULESET_KEYS)
def test_moves_answer_random_params_with_an_outcome_or_a_clear_400(world: World, db, ruleset):
    campaign = world.campaigns[ruleset]
    moves = get_ruleset(ruleset).describe()["moves"]
    sheets = list(Character.objects.filter(campaign=campaign).values_list("pk", flat=True))
    clients = {role: world.client(role) for role in ("referee", "player")}

    @fuzz_settings(40)
    @given(data=st.data())
    def run(data) -> None:
        spec = data.draw(st.sampled_from(moves), label="move")
        move = spec["key"]
        if not data.draw(st.integers(0, 9), label="unknown move"):
            move = data.draw(st.from_regex(r"\A[-a-z_0-9]{1,20}\Z"))
        params = data.draw(st.one_of(_param_strategy(spec), json_value), label="params")
        target_id = data.draw(st.one_of(st.none(), st.sampled_from(sheets), st.integers(-3, 2**40)))
        cid = data.draw(st.sampled_from(sheets), label="sheet")
        role = data.draw(st.sampled_from(sorted(clients)), label="role")
        odds_params = json.dumps(params) if data.draw(st.booleans()) else str(params)
        body: dict[str, Any] = {"params": params}
        if target_id is not None:
            body["target_id"] = target_id
        with transaction.atomic():
            before = _sheet_versions(campaign)
            events = TableEvent.objects.filter(campaign=campaign).count()
            url = f"/api/characters/{cid}/moves/{move}/"
            response = clients[role].post(url, body, format="json")
            assert response.status_code in (201, 400, 403, 404, 409), (
                response.status_code,
                response.content[:500],
            )
            if response.status_code == 201:
                assert "outcome" in response.json()
            else:
                payload = response.json()
                assert payload and _messages(payload), payload
                assert _sheet_versions(campaign) == before  # a refusal changes nothing
                assert TableEvent.objects.filter(campaign=campaign).count() == events
            odds = clients[role].get(
                f"/api/characters/{cid}/moves/{move}/odds/",
                {"params": odds_params},
            )
            assert odds.status_code in (200, 400, 403, 404), (odds.status_code, odds.content[:500])
            transaction.set_rollback(True)

    run()


def _sheet_versions(campaign) -> list[tuple[int, int]]:
    versions = sorted(Character.objects.filter(campaign=campaign).values_list("pk", "version"))
    return [*versions, (-1, CharacterChange.objects.filter(character__campaign=campaign).count())]


def _messages(payload: Any) -> list[str]:
    """Every message string in an error body (DRF nests them in lists and dicts)."""
    if isinstance(payload, str):
        return [payload] if payload.strip() else []
    if isinstance(payload, list):
        return [m for item in payload for m in _messages(item)]
    if isinstance(payload, dict):
        return [m for key, item in payload.items() if key != "code" for m in _messages(item)]
    return []


@pytest.mark.parametrize("ruleset", ["savage_worlds", "tales"])
def test_table_moves_answer_random_params(world: World, db, ruleset):
    """The campaign-level moves (deck, battle) take the same kind of free parameters."""
    campaign = world.campaigns[ruleset]
    client = world.client("referee")
    keys = [
        "start_session", "end_session", "start_combat", "deal_round", "end_combat",
        "adjust_pool", "surprise", "tactics", "initiative", "next_side", "reset_battle",
    ]  # fmt: skip

    @fuzz_settings(40)
    @given(move=st.sampled_from(keys), params=json_value, version=st.one_of(st.none(), json_value))
    def run(move, params, version) -> None:
        body = {"params": params}
        if version is not None:
            body["version"] = version
        with transaction.atomic():
            response = client.post(
                f"/api/campaigns/{campaign.pk}/table-moves/{move}/", body, format="json"
            )
            assert response.status_code in (200, 400, 403, 404, 409), (
                response.status_code,
                response.content[:500],
            )
            if response.status_code >= 400:
                assert _messages(response.json())
            transaction.set_rollback(True)

    run()


# --- JSON nested deeper than the parser's recursion limit ----------------------------------------


def _nested(depth: int) -> str:
    return '{"params": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("depth", [65, 900, 5_000, 50_000])
def test_deeply_nested_json_bodies_are_a_400(world: World, db, depth):
    """``json.loads`` raises RecursionError (not ValueError) past ~1000 levels: every JSON
    entry point must turn that into a 400, not a server error."""
    dw = world.campaigns["dungeon_world"]
    pc = Character.objects.filter(campaign=dw, owner=world.users["player"]).first()
    client = world.client("player")
    text = _nested(depth)
    posts = [
        f"/api/characters/{pc.pk}/moves/hack_and_slash/",
        f"/api/campaigns/{dw.pk}/rolls/",
        f"/api/campaigns/{dw.pk}/characters/import/",
    ]
    for url in posts:
        response = client.post(url, text, content_type="application/json")
        assert response.status_code == 400, (url, response.status_code, response.content[:300])
        assert _messages(response.json())
    odds = client.get(
        f"/api/characters/{pc.pk}/moves/hack_and_slash/odds/", {"params": "[" * depth}
    )
    assert odds.status_code == 400 and _messages(odds.json())
    referee = world.client("referee")
    tables = f"/api/campaigns/{dw.pk}/prep/tables/import/"
    for request in (
        {"data": text, "content_type": "application/json"},
        {"data": {"file": SimpleUploadedFile("t.json", ("[" * depth).encode())}},
    ):
        imported = referee.post(tables, **request)
        assert imported.status_code == 400, imported.content[:300]
        assert _messages(imported.json())


# --- numbers past the database's integer range ---------------------------------------------------

HUGE = 10**30


def test_ids_past_the_integer_range_are_404_or_400(world: World, db):
    """``<int:…>`` takes any digits and DRF's IntegerField any size; SQLite cannot bind a
    number past 2**63 (OverflowError: a 500 on every such URL before the fix)."""
    dw = world.campaigns["dungeon_world"]
    api = world.client("referee")
    for url in (
        f"/api/campaigns/{HUGE}/",
        f"/api/campaigns/{HUGE}/maps/",
        f"/api/campaigns/{dw.pk}/initiative/{HUGE}/",
        f"/api/characters/{HUGE}/",
    ):
        response = api.get(url)
        assert response.status_code in (404, 405), (url, response.status_code)
        assert response.json()["detail"]
    page = Client(HTTP_HOST="localhost")
    page.force_login(world.users["referee"])
    assert page.get(f"/campaigns/{HUGE}/table/").status_code == 404
    # the same numbers in a body are a 400 with a message
    for url, body in (
        (f"/api/campaigns/{dw.pk}/characters/", {"name": "Икс", "owner_id": -HUGE}),
        (f"/api/campaigns/{dw.pk}/referee/", {"user_id": HUGE}),
        (
            f"/api/campaigns/{dw.pk}/chat/",
            {"text": "ш", "visibility": "whisper", "target_id": HUGE},
        ),
    ):
        response = api.post(url, body, format="json")
        assert response.status_code == 400, (url, response.status_code, response.content[:200])
        assert _messages(response.json())


# --- text nothing can store or send: lone surrogates and NUL (issue 18) --------------------------
#
# Before: a 500 in each of these places. DRF echoed the value in its error ("\ud800" is not a
# valid choice) and the answer could not be encoded; PostgreSQL refused NUL or a surrogate on
# write. Now the JSON entry point refuses both, with a 400 naming where they were.

UNSTORABLE = ("\ud800", "\udc00", "x\u0000y")


def _raw(body: Any) -> str:
    """JSON as a client sends it: ASCII, so a lone surrogate travels as its escape."""
    return json.dumps(body)


def _no_writes(queries) -> bool:
    return not any(
        q["sql"].lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
        for q in queries.captured_queries
    )


def _names_field(body: dict, field: str) -> bool:
    return field in body or field in (body.get("fields") or {})


def _unstorable_cases(world: World) -> list[tuple[str, str, str, Any, str]]:
    """(role, method, url, body, the field the answer names) for each place of the issue."""
    from vtt.prep.models import RandomTable, Room

    dw = world.campaigns["dungeon_world"]
    base = f"/api/campaigns/{dw.pk}"
    pc = Character.objects.filter(campaign=dw, owner=world.users["player"]).first()
    room = f"{base}/prep/rooms/{Room.objects.filter(dungeon__campaign=dw).first().pk}/"
    rolls = f"{base}/rolls/"
    table = RandomTable.objects.filter(campaign=dw).first()
    entry = [{"min": 1, "max": 2, "text": "Крыса"}]

    def cases(bad: str) -> list[tuple[str, str, str, Any, str]]:
        sheet = {"name": "Ава", "look": bad}
        return [
            ("player", "post", rolls, {"notation": "1d6", "visibility": bad}, "visibility"),
            ("player", "post", rolls, {"notation": bad}, "notation"),
            ("player", "post", f"{base}/chat/", {"text": "ш", "visibility": bad}, "visibility"),
            ("referee", "post", f"{base}/characters/", {"name": "Икс", "kind": bad}, "kind"),
            ("player", "patch", "/api/me/", {"language": bad}, "language"),
            ("referee", "post", f"{base}/clock/", {"action": bad}, "action"),
            ("player", "put", f"/api/characters/{pc.pk}/",
             {"state": sheet, "version": pc.version}, "state.look"),
            ("referee", "post", f"{base}/characters/import/",
             {"format": "vtt-character", "character": {"name": bad}}, "character.name"),
            ("referee", "post", f"{base}/prep/tables/",
             {"key": "t2", "name": "Т", "formula": "1d2", "entries": [{**entry[0], "text": bad}]},
             "entries.0.text"),
            ("referee", "put", f"{base}/prep/tables/{table.pk}/",
             {"key": bad, "name": "Т", "formula": "1d2", "entries": entry}, "key"),
            ("referee", "post", f"{base}/prep/tables/import/",
             {"tables": [{"key": "t3", "name": bad, "formula": "1d2", "entries": entry}]},
             "tables.0.name"),
            ("referee", "patch", room, {"treasure": [bad]}, "treasure.0"),
            ("referee", "patch", room, {"cells": bad}, "cells"),
            ("referee", "patch", room, {"text": bad}, "text"),
            ("referee", "post", f"{base}/maps/", {"name": bad}, "name"),
        ]  # fmt: skip

    return [case for bad in UNSTORABLE for case in cases(bad)]


def test_unstorable_text_is_a_400_naming_the_field_and_changes_nothing(world: World, db):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cases = _unstorable_cases(world)
    assert len(cases) == 15 * len(UNSTORABLE)
    for role, method, url, body, field in cases:
        client = world.client(role)
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            response = client.generic(method.upper(), url, _raw(body), "application/json")
            transaction.set_rollback(True)
        label = (method, url, field, body)
        assert response.status_code == 400, (label, response.status_code, response.content[:300])
        answer = response.json()
        assert _names_field(answer, field), (label, answer)
        assert _messages(answer), label
        assert "\\ud" not in response.content.decode().lower(), label  # never echoed
        assert _no_writes(queries), (label, queries.captured_queries[-3:])


def test_an_uploaded_tables_file_with_unstorable_text_is_a_400(world: World, db):
    dw = world.campaigns["dungeon_world"]
    referee = world.client("referee")
    text = _raw([{"key": "t4", "name": "\ud800", "formula": "1d2", "entries": [
        {"min": 1, "max": 2, "text": "Крыса"}]}])  # fmt: skip
    response = referee.post(
        f"/api/campaigns/{dw.pk}/prep/tables/import/",
        {"file": SimpleUploadedFile("t.json", text.encode())},
    )
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "import_bad_text" and "file" in body["fields"], body


# --- strict types: what a JSON body says is what it means (issue 18) -----------------------------


def test_json_values_of_the_wrong_type_are_refused_not_coerced(world: World, db):
    """{"name": 123} was stored as "123", "yes" read as true, a full-width "１" as 1, and
    {"notation": 123} rolled nothing: each is now a 400 naming the field."""
    from vtt.maps.models import Map, Token

    dw = world.campaigns["dungeon_world"]
    base = f"/api/campaigns/{dw.pk}"
    game_map = Map.objects.filter(campaign=dw).first()
    token = Token.objects.filter(map=game_map).first()
    referee, player = world.client("referee"), world.client("player")
    cases = [
        (referee, "post", f"{base}/characters/", {"name": 123}, "name"),
        (referee, "patch", f"{base}/maps/{game_map.pk}/tokens/{token.pk}/", {"hidden": "yes"},
         "hidden"),
        (referee, "patch", f"{base}/maps/{game_map.pk}/tokens/{token.pk}/", {"col": "１"}, "col"),
        (referee, "patch", f"{base}/maps/{game_map.pk}/tokens/{token.pk}/", {"col": "2"}, "col"),
        (referee, "patch", f"{base}/maps/{game_map.pk}/tokens/{token.pk}/", {"col": True}, "col"),
        (player, "post", f"{base}/rolls/", {"notation": 123}, "notation"),
        (player, "post", f"{base}/rolls/", {"notation": "1d6", "visibility": 1}, "visibility"),
        (referee, "post", f"{base}/prep/tables/",
         {"key": "t5", "name": 7, "formula": "1d2", "weights": "yes",
          "entries": [{"min": 1, "max": 2, "text": 5}]}, "name"),
    ]  # fmt: skip
    for client, method, url, body, field in cases:
        with transaction.atomic():
            rolls, versions = Roll.objects.count(), _sheet_versions(dw)
            response = getattr(client, method)(url, body, format="json")
            assert response.status_code == 400, (url, body, response.content[:300])
            answer = response.json()
            assert _names_field(answer, field), (body, answer)
            assert Roll.objects.count() == rolls and _sheet_versions(dw) == versions
            transaction.set_rollback(True)
    # a form still sends only strings: the roll bar's "2" and the checkbox's "on" still work
    form = Client(HTTP_HOST="localhost")
    form.force_login(world.users["player"])
    response = form.post(f"/campaigns/{dw.pk}/table/roll/", {"notation": "1d6"})
    assert response.status_code in (200, 201, 302), response.status_code


def test_a_page_form_or_query_with_nul_is_a_400_and_changes_nothing(world: World, db):
    """Pages that hand ``request.POST`` to a service (the dungeon form, say) reached
    PostgreSQL with NUL, which refuses it on write (a 500); query strings reach filters."""
    from urllib.parse import urlencode

    FORM = "application/x-www-form-urlencoded"
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from vtt.prep.models import Dungeon

    dw = world.campaigns["dungeon_world"]
    client = Client()
    client.force_login(world.users["referee"])
    before = Dungeon.objects.filter(campaign=dw).count()
    for method, url, data in [
        (
            "post",
            f"/campaigns/{dw.pk}/prep/dungeons/new/",
            {"name": "Склеп\x00", "description": ""},
        ),
        (
            "post",
            f"/campaigns/{dw.pk}/prep/dungeons/new/",
            {"name": "Склеп", "description": "а\x00"},
        ),
        ("get", f"/campaigns/{dw.pk}/prep/?q=%00", None),
        ("get", f"/api/campaigns/{dw.pk}/events/?after=%00", None),
    ]:
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            if method == "post":  # as a page's form sends it
                body = urlencode(data)
                response = client.post(url, body, FORM, HTTP_ACCEPT_LANGUAGE="ru")
            else:
                response = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
            transaction.set_rollback(True)
        assert response.status_code == 400, (url, data, response.status_code)
        assert "NUL" in response.content.decode(), (url, response.content[:300])
        assert _no_writes(queries), (url, queries.captured_queries[-3:])
    assert Dungeon.objects.filter(campaign=dw).count() == before


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 10, 10)).save(out, "PNG")
    return out.getvalue()


def _multipart_nul_cases(world: World) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(who, method, url, fields) for every door that takes multipart: the three upload pages
    and the API's upload and import endpoints, plus one API endpoint that takes multipart only
    through DRF's default parsers. Each has a valid file, so only the text field is wrong."""
    from vtt.characters.models import Kind
    from vtt.maps.models import Map
    from vtt.maps.models import Token as MapToken

    dw = world.campaigns["dungeon_world"]
    game_map = Map.objects.filter(campaign=dw).first()
    token = MapToken.objects.filter(map=game_map, hidden=False).first()
    sheet = Character.objects.filter(campaign=dw, kind=Kind.PC).first()
    page = Client()
    page.force_login(world.users["referee"])
    exported = page.get(f"/characters/{sheet.pk}/export/")
    assert exported.status_code == 200, exported.status_code

    def image():
        return SimpleUploadedFile("map.png", _png(), content_type="image/png")

    def csv():
        return SimpleUploadedFile("t.csv", "min,max,text\n1,6,Крыса\n".encode())

    def sheet_file():
        return SimpleUploadedFile("c.json", exported.content, content_type="application/json")

    api = f"/api/campaigns/{dw.pk}"
    maps = f"{api}/maps/{game_map.pk}"
    return [
        (
            "page",
            "post",
            f"/campaigns/{dw.pk}/maps/{game_map.pk}/upload/",
            {"image": image(), "fit": "on\x00"},
        ),
        (
            "page",
            "post",
            f"/campaigns/{dw.pk}/prep/tables/import/",
            {"file": csv(), "key": "rats", "name": "Крысы\x00"},
        ),
        (
            "page",
            "post",
            f"/campaigns/{dw.pk}/characters/import/",
            {"file": sheet_file(), "note\x00": "x"},
        ),
        ("api", "put", f"{maps}/background/", {"image": image(), "caption": "а\x00"}),
        ("api", "post", f"{maps}/background/", {"image": image(), "caption": "а\x00"}),
        ("api", "put", f"{maps}/tokens/{token.pk}/image/", {"image": image(), "caption": "а\x00"}),
        (
            "api",
            "post",
            f"{api}/prep/tables/import/",
            {"file": csv(), "key": "rats", "name": "Крысы\x00"},
        ),
        ("api", "post", f"{api}/prep/tables/import/", {"file": csv(), "key": "ra\x00ts"}),
        ("api", "post", f"{api}/maps/", {"name": "Склеп", "note": "а\x00"}),
    ]


def test_a_multipart_text_field_with_nul_is_a_400_and_writes_nothing(
    world: World, db, settings, tmp_path
):
    """Issue 18 review: NUL in a form post was refused only when the form was urlencoded;
    multipart bodies were left to their views, and the import pages hand their text fields
    (a table's key and name) to a service, which PostgreSQL refuses on write (a 500). Every
    door that takes multipart now refuses NUL in a text field (its name or its value; the
    files' contents are the importers' business) with a 400 naming it, before any write."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.MEDIA_ROOT = tmp_path / "media"
    for who, method, url, fields in _multipart_nul_cases(world):
        if who == "page":
            client = Client(HTTP_ACCEPT_LANGUAGE="ru")
            client.force_login(world.users["referee"])
        else:
            client = world.client("referee")
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            response = getattr(client, method)(url, fields, format="multipart")
            transaction.set_rollback(True)
        assert response.status_code == 400, (method, url, response.status_code)
        text = response.content.decode()
        assert "NUL" in text, (url, text[:300])
        if who == "api":
            body = response.json()
            assert body["code"] == "bad_text" and body["fields"], body
        assert _no_writes(queries), (url, queries.captured_queries[-3:])
    assert not (tmp_path / "media").exists() or not any((tmp_path / "media").rglob("*.*"))


@pytest.mark.parametrize("door", ["page", "api"])
def test_a_multipart_text_field_with_a_lone_surrogate_is_a_400(world: World, db, door):
    """A multipart body may name its charset, and ``unicode_escape`` spells a lone surrogate
    (``\\ud800``) that no answer and no database can hold: refused like NUL."""
    from vtt.prep.models import RandomTable

    dw = world.campaigns["dungeon_world"]
    body = (
        b'--BB\r\nContent-Disposition: form-data; name="key"\r\n\r\nrats\r\n'
        b'--BB\r\nContent-Disposition: form-data; name="name"\r\n\r\nab\\ud800\r\n'
        b'--BB\r\nContent-Disposition: form-data; name="file"; filename="t.csv"\r\n'
        b"Content-Type: text/csv\r\n\r\nmin,max,text\n1,6,x\n\r\n--BB--\r\n"
    )
    if door == "page":
        client = Client()
        client.force_login(world.users["referee"])
        url = f"/campaigns/{dw.pk}/prep/tables/import/"
    else:
        client = world.client("referee")
        url = f"/api/campaigns/{dw.pk}/prep/tables/import/"
    tables = RandomTable.objects.filter(campaign=dw).count()
    with transaction.atomic():
        response = client.generic(
            "POST",
            url,
            body,
            content_type="multipart/form-data; boundary=BB; charset=unicode_escape",
        )
        transaction.set_rollback(True)
    assert response.status_code == 400, response.status_code
    assert "NUL" in response.content.decode()
    assert RandomTable.objects.filter(campaign=dw).count() == tables
