"""Token buckets shared by every process (Redis) or by the threads of one process (embedded).

GCRA ("generic cell rate algorithm"): one timestamp per key, so a burst of ``burst`` requests
passes at once and then ``rate`` per second. On Redis it runs as one Lua script, so concurrent
web processes cannot both spend the last token.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.utils.translation import gettext as _

from vtt.core.errors import ServiceError
from vtt.core.outage import is_unavailable, warn

_LUA = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local allow_at = tat - interval * (burst - 1)
if now < allow_at then return {0, tostring(allow_at - now)} end
local new_tat = tat + interval
redis.call('SET', KEYS[1], tostring(new_tat), 'PX', math.ceil((new_tat - now) * 1000) + 1000)
return {1, '0'}
"""
# Undo one hit: the time moves back one interval (an absent key is a full bucket).
_REFUND_LUA = """
local tat = tonumber(redis.call('GET', KEYS[1]))
if not tat then return 0 end
local now = tonumber(ARGV[2])
local new_tat = tat - tonumber(ARGV[1])
if new_tat > now then
  redis.call('SET', KEYS[1], tostring(new_tat), 'PX', math.ceil((new_tat - now) * 1000) + 1000)
else
  redis.call('DEL', KEYS[1])
end
return 1
"""
_local_lock = threading.Lock()
_local: dict[str, float] = {}


class RateLimited(ServiceError):
    status = 429
    code = "rate_limited"


@dataclass(frozen=True)
class TokenBucket:
    name: str
    burst: int
    per_second: float

    @property
    def interval(self) -> float:
        # RATE_LIMIT_REFILL_FACTOR (default 1) slows refills in tests, so a burst test does not
        # depend on how fast a loaded machine runs it.
        factor = getattr(settings, "RATE_LIMIT_REFILL_FACTOR", 1.0)
        return 1.0 / (self.per_second * factor)

    def hit(self, key: str) -> None:
        """Spend one token for ``key`` or raise ``RateLimited`` with the wait in seconds."""
        allowed, wait = self._take(f"rl:{self.name}:{key}")
        if not allowed:
            seconds = max(1, math.ceil(wait))
            raise RateLimited(
                _("Too many requests. Try again in %(s)d s.") % {"s": seconds},
                extra={"retry_after": seconds},
            )

    def _take(self, key: str) -> tuple[bool, float]:
        client = _redis_client()
        now = time.time()
        if client is not None:
            try:
                script = _script(client)
                ok, wait = script(keys=[cache.make_key(key)], args=[now, self.interval, self.burst])
                return bool(int(ok)), float(wait)
            except Exception as exc:
                # Redis restarting: limit per process meanwhile rather than refuse every
                # roll (the table must keep working through a short outage).
                if not is_unavailable(exc):
                    raise
                warn("rate limit", exc)
        return self._take_local(key, now)

    def _take_local(self, key: str, now: float) -> tuple[bool, float]:
        with _local_lock:
            tat = max(_local.get(key, now), now)
            allow_at = tat - self.interval * (self.burst - 1)
            if now < allow_at:
                return False, allow_at - now
            _local[key] = tat + self.interval
            return True, 0.0

    def refund(self, key: str) -> None:
        """Give back the token ``hit`` spent for a request that turned out not to count (a
        login with the right password: only failures use up a name's guesses)."""
        full = f"rl:{self.name}:{key}"
        client = _redis_client()
        if client is None:
            self._refund_local(full)
            return
        try:
            script = _script(client, _REFUND_LUA)
            script(keys=[cache.make_key(full)], args=[self.interval, time.time()])
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            warn("rate limit", exc)
            self._refund_local(full)  # the hit fell back to this process's bucket too

    def _refund_local(self, full: str) -> None:
        with _local_lock:
            if full in _local:
                _local[full] -= self.interval

    async def atake(self, key: str) -> bool | None:
        """``hit`` for the event loop (vtt/table/fastroll.py): True when a token was spent,
        False when the bucket is empty, None when Redis could not answer. The caller hands
        anything but True to the synchronous path, which answers 429 or falls back as ``hit``
        does (a refused hit spends nothing, so asking twice is harmless)."""
        full = f"rl:{self.name}:{key}"
        url, make_key = _cache_target()
        if url is None:
            return self._take_local(full, time.time())[0]
        try:
            script = _script(_async_client(url))
            ok, _wait = await script(
                keys=[make_key(full)], args=[time.time(), self.interval, self.burst]
            )
            return bool(int(ok))
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            return None

    async def arefund(self, key: str) -> None:
        """Give back the token ``atake`` spent for a request the event loop then handed to
        the synchronous path, which charges its own: one request, one token."""
        full = f"rl:{self.name}:{key}"
        url, make_key = _cache_target()
        if url is None:
            self._refund_local(full)
            return
        try:
            script = _script(_async_client(url), _REFUND_LUA)
            await script(keys=[make_key(full)], args=[self.interval, time.time()])
        except Exception as exc:
            if not is_unavailable(exc):
                raise


_scripts: dict[tuple[int, str], Any] = {}


def _script(client: Any, source: str = _LUA) -> Any:
    """The script bound to ``client`` (the cache reuses one client per pool)."""
    script = _scripts.get((id(client), source))
    if script is None or script.registered_client is not client:
        script = _scripts[(id(client), source)] = client.register_script(source)
    return script


_targets: dict[int, tuple[dict[str, Any], str | None, Any]] = {}


def _cache_target() -> tuple[str | None, Any]:
    """The default cache's Redis URL (None when it is not Redis) and key function, looked up
    once per configuration: ``caches["default"]`` builds a new backend in every context, and
    on the event loop every request is a new context."""
    conf = settings.CACHES["default"]
    found = _targets.get(id(conf))
    if found is None or found[0] is not conf:
        backend = caches["default"]
        url = backend._servers[0] if isinstance(backend, RedisCache) else None
        found = _targets[id(conf)] = (conf, url, backend.make_key)
    return found[1], found[2]


_async_clients: dict[tuple[int, str], Any] = {}


def _async_client(url: str) -> Any:
    """One asyncio Redis client per event loop and server (a client is bound to its loop)."""
    import asyncio

    import redis.asyncio

    key = (id(asyncio.get_running_loop()), url)
    client = _async_clients.get(key)
    if client is None:
        client = _async_clients[key] = redis.asyncio.Redis.from_url(url)
    return client


async def close_async_clients() -> None:
    """Tests only: each test runs its own event loop."""
    import asyncio

    loop = id(asyncio.get_running_loop())
    for key in [k for k in _async_clients if k[0] == loop]:
        await _async_clients.pop(key).aclose()


def _redis_client():
    """The default cache's Redis client, or None when the cache is not Redis (embedded).

    ``django.core.cache.cache`` is a proxy whose type is never ``RedisCache``: look at the
    backend itself, or every web process would keep its own buckets."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    return backend._cache.get_client(write=True)


def reset_local_buckets() -> None:
    """Tests only: forget in-process buckets."""
    with _local_lock:
        _local.clear()
