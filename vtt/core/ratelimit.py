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


def _script(client: Any, source: str = _LUA) -> Any:
    """The script bound to ``client``. Django's cache hands out a new client per command, so
    nothing is kept: a kept script would keep its client, and every client, alive."""
    return client.register_script(source)


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
