"""schemathesis against /api/schema/: every operation, as every role, gets generated valid and
invalid requests (aimed at real and made-up ids); none may answer 5xx, and the answers must
match the schema that drf-spectacular publishes.

CI draws VTT_FUZZ_EXAMPLES (default 3) examples per operation and role with a fixed seed; set
it higher for a long exploring run (README, "Fuzzing")."""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
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
