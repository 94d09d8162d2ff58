"""schemathesis against /api/schema/: every operation, as every role, gets generated valid and
invalid requests (aimed at real and made-up ids); none may answer 5xx, and the answers must
match the schema that drf-spectacular publishes.

CI draws VTT_FUZZ_EXAMPLES (default 3) examples per operation and role with a fixed seed; set
it higher for a long exploring run (README, "Fuzzing")."""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.security.conftest import ROLES, World, fuzz_derandomize, fuzz_examples
from vtt.characters.models import Character, PendingMove

# One WSGI application for the module; the schema is what a client downloads.
APP = get_wsgi_application()
SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = fuzz_examples(3)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Django's WSGI handler closes "old" database connections around every request; the test
    client turns that off so requests run inside the test's transaction, and so do we."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    """Every example reaches the code behind the buckets (test_caps.py tests the limits)."""
    settings.RATE_LIMIT_REFILL_FACTOR = 1e9


def test_every_operation_is_fuzzed():
    """The schema lists the whole API (a broken schema view would silently fuzz nothing)."""
    assert len(OPERATIONS) >= 100
    labels = {op.label for op in OPERATIONS}
    assert "POST /api/campaigns/{id}/rolls/" in labels
    assert "POST /api/characters/{cid}/moves/{move}/" in labels


def _aim(case, world: World, data) -> None:
    """Point path parameters at real objects most of the time (made-up ids only reach 404)."""
    for name in list(case.path_parameters or {}):
        real = world.ids.get(name)
        if real:
            choice = data.draw(st.sampled_from([*real, None]), label=name)
            if choice is not None:
                case.path_parameters[name] = choice


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_no_server_error_and_schema_conformance(world: World, db, operation, role):
    strategy = st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )
    headers = world.headers(role)

    @settings(
        max_examples=EXAMPLES,
        derandomize=fuzz_derandomize(),
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, data=st.data())
    def run(case, data) -> None:
        _aim(case, world, data)
        # Each example starts from the same world: its writes are rolled back.
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        case.validate_response(response, checks=CHECKS, headers=headers)
        if response.status_code >= 400 and response.headers.get("Content-Type", [""])[0].startswith(
            "application/json"
        ):
            body = json.loads(response.content or b"{}")
            # Every refusal says why: DRF's "detail" or per-field messages.
            assert body, f"{operation.label} as {role}: empty {response.status_code} body"

    run()


# --- every write endpoint: unstorable text and wrong types, field by field ------------------------
#
# The 500s: DRF echoed a lone surrogate in its error text and then could not encode the
# answer (roll and chat visibility, character kind, PATCH /api/me/ language, clock action), and
# PostgreSQL refused "\u0000" or a lone surrogate on write (sheet state, character import,
# random tables and their import, room fields). And loose coercion: {"name": 123} stored "123",
# "yes" read as true, a full-width "１" as 1. Each property of each JSON request body in the
# published schema gets each bad value alone; the answer is a 400 that names the property (or,
# where the request never reaches its body, a refusal), and nothing in the database changes.

BAD_TEXTS = ("\ud800", "\udfff", "a\u0000b")
WRONG_TYPES = {
    "string": [123, True, ["x"]],
    "boolean": ["yes", "true", 1],
    "integer": ["１", "5", True, 5.5],
    "number": ["1.5", True],
    "decimal": [True, "１", [1]],  # DRF writes decimals as strings: "1.5" and 1.5 are fine
}


def _request_schemas() -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, properties) of every JSON write in the schema drf-spectacular publishes."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            ref = (body or {}).get("schema", {}).get("$ref")
            if not ref:
                continue
            properties = components[ref.rsplit("/", 1)[-1]].get("properties", {})
            writable = {k: v for k, v in properties.items() if not v.get("readOnly")}
            if writable:
                found.append((method, path, writable))
    return found


def _sweep_ids(world: World) -> dict[str, Any]:
    """Path parameters that all belong to the Dungeon World campaign (the referee's)."""
    from vtt.journal.models import Entry, EntryImage
    from vtt.maps.models import Map, MapNote, Token
    from vtt.prep.models import Dungeon, RandomTable, Room, RoomMonster
    from vtt.table.models import InitiativeEntry, Roll

    dw = world.campaigns["dungeon_world"]
    game_map = Map.objects.filter(campaign=dw).first()
    pc = Character.objects.filter(campaign=dw, owner=world.users["player"]).first()
    return {
        "id": dw.pk,
        "map_id": game_map.pk,
        "token_id": Token.objects.filter(map=game_map).first().pk,
        "note_id": MapNote.objects.filter(map=game_map).first().pk,
        "entry_id": InitiativeEntry.objects.filter(campaign=dw).first().pk,
        "user_id": world.users["player"].pk,
        "roll_id": Roll.objects.filter(campaign=dw).first().pk,
        "did": Dungeon.objects.filter(campaign=dw).first().pk,
        "rid": Room.objects.filter(dungeon__campaign=dw).first().pk,
        "mid": RoomMonster.objects.filter(room__dungeon__campaign=dw).first().pk,
        "tid": RandomTable.objects.filter(campaign=dw).first().pk,
        "jid": Entry.objects.filter(campaign=dw).first().pk,
        "image_id": EntryImage.objects.filter(entry__campaign=dw).first().pk,
        "cid": pc.pk,
        "pending_id": PendingMove.objects.filter(character=pc).values_list("pk", flat=True).first()
        or 0,
        "move": "hack_and_slash",
        "key": world.ids["key"][0],
        "step": "move",
    }


def _writes(sql: str) -> bool:
    """A statement that changes a row (a refusal runs none of them)."""
    return sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _names(body: Any, field: str) -> bool:
    """The error body names ``field``: DRF's ``{"<field>": [...]}``, a service's
    ``{"fields": {"<field>": [...]}}``, or the parser's dotted ``"<field>.<key>"``."""
    if not isinstance(body, dict):
        return False
    keys = set(body) | set(body.get("fields") or {})
    return any(k == field or str(k).startswith(field + ".") for k in keys)


def test_every_write_refuses_unstorable_text_and_wrong_types_naming_the_field(world: World, db):
    ids = _sweep_ids(world)
    client = world.client("referee")
    operations = _request_schemas()
    assert len(operations) >= 45, len(operations)
    reached: set[str] = set()
    failures: list[str] = []
    for method, path, properties in operations:
        url = path.format(**ids)
        for field, spec in properties.items():
            kind = "decimal" if spec.get("format") == "decimal" else spec.get("type")
            values = list(BAD_TEXTS) + WRONG_TYPES.get(kind, [])
            if spec.get("enum") and spec.get("type") is None:
                values += [123, True]  # a choice is a string
            for value in values:
                with transaction.atomic(), CaptureQueriesContext(connection) as queries:
                    # ASCII JSON: "\ud800" travels as the escape a client would send
                    raw = json.dumps({field: value})
                    response = client.generic(method.upper(), url, raw, "application/json")
                    transaction.set_rollback(True)
                writes = [q["sql"] for q in queries.captured_queries if _writes(q["sql"])]
                label = f"{method.upper()} {path} {field}={value!r}"
                code = response.status_code
                if code >= 500 or code < 400:
                    failures.append(f"{label}: {code} {response.content[:200]!r}")
                    continue
                if writes:
                    failures.append(f"{label}: {code} but it wrote: {writes[0][:200]}")
                if code == 400:
                    reached.add(f"{method} {path}")
                    body = response.json()
                    if not _names(body, field):
                        failures.append(f"{label}: 400 without naming it: {body}")
                    text = response.content.decode()
                    assert "\ud800" not in text and "\\ud800" not in text, label
    assert not failures, "\n".join(failures)
    # the body of nearly every write is read (the rest refuse earlier: a finished step, …)
    assert len(reached) >= len(operations) - 5, sorted(
        f"{m} {p}" for m, p, _ in operations if f"{m} {p}" not in reached
    )
