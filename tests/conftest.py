"""Shared fixtures: one campaign with a member of every role, and an outsider."""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass

import pytest
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from vtt.accounts.models import User
from vtt.campaigns import services
from vtt.campaigns.models import Campaign, Membership, Role

PASSWORD = "correct-horse-battery-staple"

# Wall-clock deadlines make property tests flaky on a busy 2-core machine; speed is measured in
# the benchmark, never in unit tests.
hypothesis_settings.register_profile(
    "vtt", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("vtt")


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, password=PASSWORD)


@dataclass
class Table:
    campaign: Campaign
    referee: User
    player: User
    other_player: User
    observer: User
    outsider: User

    def user(self, role: str) -> User | None:
        return None if role == "anonymous" else getattr(self, role)


@pytest.fixture(autouse=True, scope="session")
def _no_worker_inside_pytest():
    """Tests that import vtt.asgi (as daphne does) must not start the embedded worker in the
    test process: its heartbeat thread would keep writing into the test database, and /healthz
    would report a worker that no test started. Tests start real workers explicitly."""
    from django.conf import settings

    settings.EMBEDDED_WORKER = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 at production strength costs ~0.3 s a user; tests only need it to work."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache_namespace(settings):
    """Rate-limit counters live in the cache; each test gets its own key prefix (no FLUSHDB on
    a Redis that the channel layer and the Celery broker share)."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches
    # Buckets refill 10,000 times slower: burst tests hold on a loaded machine.
    settings.RATE_LIMIT_REFILL_FACTOR = 0.0001
    from vtt.core.ratelimit import reset_local_buckets

    reset_local_buckets()


@pytest.fixture
def table(db) -> Table:
    referee = make_user("gm")
    campaign = services.campaign_create(user=referee, name="Тестовая", ruleset="dungeon_world")
    player, other, observer = make_user("pc1"), make_user("pc2"), make_user("watcher")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=other, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
    return Table(campaign, referee, player, other, observer, make_user("stranger"))


@pytest.fixture
def client_for():
    """A logged-in Django test client for a user (None → anonymous)."""

    def _client(user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return _client


@pytest.fixture
def api_for():
    def _client(user: User | None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return _client


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One campaign per ruleset with every kind of object (tests/security/conftest.py
    ``build_world``), built once per module inside a transaction rolled back at its end: the
    security tests and the authorization matrix share it."""
    from django.db import transaction

    from tests.security.conftest import build_world

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            yield build_world()
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own channel layer: a Redis layer's connections and locks belong to the
    event loop of the test that made them, so one test that ends mid-send (a failed assertion)
    must not leave a held lock for every later test's loop."""
    from channels.layers import channel_layers

    yield
    channel_layers.backends.clear()
