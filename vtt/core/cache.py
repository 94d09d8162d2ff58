"""Django's Redis cache with one connection pool per process.

Django builds a cache backend per request context (``caches`` is context-local), and the
stock ``RedisCache`` gives every backend its own client and connection pool. Under daphne each
HTTP request runs in a fresh context, so every request that touched the cache (each roll's
rate limit) opened a new TCP connection to Redis, paid redis-py's per-connection set-up (it
looks up its own version in the installed metadata), and left the connection for the garbage
collector: at 100 rolls a second that was a fifth of a web process's CPU and, at times,
"Too many connections" (docs/performance.md). Here every backend of the same servers and
options shares one client, whose pool is thread-safe.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = threading.Lock()


class SharedPoolRedisCache(RedisCache):
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
