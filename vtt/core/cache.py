"""Django's Redis cache with one connection pool per process.

Django builds a cache backend per request context (``caches`` is context-local), and the
stock ``RedisCache`` gives every backend its own client and connection pool. Under daphne each
HTTP request runs in a fresh context, so every request that touched the cache (each roll's
rate limit) opened a new TCP connection to Redis, paid redis-py's per-connection set-up (it
looks up its own version in the installed metadata), and left the connection for the garbage
collector: at 100 rolls a second that was a fifth of a web process's CPU and, at times,
"Too many connections" (docs/performance.md). Here every backend of the same servers and
options shares one client, whose pool is thread-safe.

Django's client also wraps the pool in a new ``redis.Redis`` for every command, and building
one fills a case-insensitive table of some 170 response callbacks: about 2 ms of CPU on a
small VM, twice per roll. ``ReusingRedisClient`` builds it once per pool (a ``redis.Redis``
is thread-safe).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = threading.Lock()


class ReusingRedisClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._redis.setdefault(index, self._client(connection_pool=pool))
        return client


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisClient

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = self._class(self._servers, **self._options)
        return client
