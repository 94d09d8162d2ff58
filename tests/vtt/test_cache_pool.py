"""One Redis connection pool per process, however many request contexts use the cache."""

from __future__ import annotations

import os
import threading

import pytest
from django.core.cache import caches

from vtt.core.ratelimit import TokenBucket

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it)"
)


def _in_fresh_threads(fn, n: int) -> list:
    """Run ``fn`` in ``n`` new threads, one after another, as daphne runs requests."""
    results: list = []
    for _ in range(n):
        thread = threading.Thread(target=lambda: results.append(fn()))
        thread.start()
        thread.join()
    return results


def _connections_received() -> int:
    client = caches["default"]._cache.get_client(write=True)
    return int(client.info("stats")["total_connections_received"])


def test_every_context_shares_one_client():
    clients = _in_fresh_threads(lambda: caches["default"]._cache, 5)
    assert len({id(c) for c in clients}) == 1


def test_rate_limit_hits_from_fresh_threads_open_no_new_connections():
    bucket = TokenBucket("pool-test", burst=1000, per_second=1000)
    _in_fresh_threads(lambda: bucket.hit("warm"), 3)
    before = _connections_received()
    _in_fresh_threads(lambda: bucket.hit("u1"), 60)
    # Other processes on this Redis may connect meanwhile; sixty new connections would show.
    assert _connections_received() - before < 20


def test_commands_reuse_one_redis_client_per_pool():
    """Building a redis.Redis costs milliseconds of CPU (its callback table): once per pool."""
    client = caches["default"]._cache
    first = _in_fresh_threads(lambda: client.get_client(write=True), 5)
    assert len({id(c) for c in first}) == 1
    caches["default"].set("reuse-probe", 7)
    assert caches["default"].get("reuse-probe") == 7
    assert client.get_client(write=True) is first[0]
