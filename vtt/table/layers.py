"""channels-redis' core layer with fewer round trips per message (docs/performance.md).

The stock ``channels_redis.core.RedisChannelLayer`` pays four sequential Redis round trips to
receive one message for a process's consumers (restore the in-flight backup, ``BZPOPMIN``,
back the message up, clean the backup) and four to ``group_send`` one. Each round trip waits
for a turn of the process's event loop, and every consumer of the process shares one receive
loop, so under load messages queue in Redis: at 100 rolls a second a daphne process fell
behind by more than the layer's 30 s expiry and lost them.

This subclass keeps the storage, the capacity and expiry rules and the message format, so
processes running either class interoperate:

- Receiving for the process's own channel (``specific.<id>!``) takes one scripted round trip
  for everything already waiting (up to ``RECEIVE_BATCH`` messages), kept in the in-flight
  backup until the next round trip confirms they reached this process, and hands the whole
  batch to the consumers' buffers at once. Only when nothing is waiting does it fall back to
  the stock blocking receive.
- ``group_send`` takes two round trips instead of four: one script expires stale members and
  lists the group, one expires stale messages, checks capacity and adds the message per
  channel.

Delivery stays at most once and in order per sender, as the channel layer spec asks.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer as CoreRedisChannelLayer

log = logging.getLogger(__name__)

RECEIVE_BATCH = 100

# KEYS: the channel, its in-flight backup. ARGV: "1" if the previous batch reached this
# process (forget its backup) or "0" if it may not have (put it back first, oldest first);
# then the batch size. Returns the popped members and scores, oldest first.
_FETCH = """
if ARGV[1] == '0' then
    local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
    end
end
redis.call('DEL', KEYS[2])
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[2]))
for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[2], popped[i + 1], popped[i])
end
return popped
"""

# KEYS: the group. ARGV: members last seen before this time are gone.
_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# KEYS: channel keys. ARGV: one message per key, one capacity per key, then the time, the
# expiry and the cut-off for expired messages. Returns how many channels were full.
_GROUP_SEND = """
local n = #KEYS
local now = ARGV[2 * n + 1]
local expiry = ARGV[2 * n + 2]
local cutoff = ARGV[2 * n + 3]
local over_capacity = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class RedisChannelLayer(CoreRedisChannelLayer):
    """``channels_redis.core.RedisChannelLayer`` with batched receive and a two-trip
    ``group_send``; same configuration, same keys, same semantics."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Channel keys whose backup may hold messages that never reached this process (a
        # round trip was interrupted): the next fetch puts them back instead of dropping them.
        self._unconfirmed: set[str] = set()

    async def receive_single(self, channel: str) -> tuple[Any, dict[str, Any]]:
        """Called by the stock ``receive`` with the receive lock held, once per message: here
        once per batch. All but the last message go straight into their channels' buffers (no
        await in between, so nothing interleaves), the last is returned for ``receive`` to
        buffer, which keeps each channel's order. One lock hand-over per batch instead of one
        per message matters: each hand-over costs turns of a busy event loop."""
        if "!" not in channel:
            return await super().receive_single(channel)
        channel_key = self.prefix + channel
        batch = await self._fetch(channel, channel_key)
        if not batch:
            # Nothing waiting: block in the stock receive (which restores the backup first,
            # so mark it unconfirmed until that returns).
            self._unconfirmed.add(channel_key)
            result = await super().receive_single(channel)
            self._unconfirmed.discard(channel_key)
            return result
        for content in batch[:-1]:
            target, message = self._decode(channel, content)
            for name in target if isinstance(target, list) else [target]:
                self.receive_buffer[name].put_nowait(message)
        return self._decode(channel, batch[-1])

    async def _fetch(self, channel: str, channel_key: str) -> list[bytes]:
        connection = self.connection(self.consistent_hash(channel))
        backup = self._backup_channel_name(channel_key)
        # The stock receive's backup cleaner holds this lock until it is done; fetching
        # meanwhile could put an already delivered message back.
        await self.receive_clean_locks.acquire(channel_key)
        try:
            confirmed = "0" if channel_key in self._unconfirmed else "1"
            self._unconfirmed.add(channel_key)
            popped = await connection.eval(_FETCH, 2, channel_key, backup, confirmed, RECEIVE_BATCH)
            self._unconfirmed.discard(channel_key)
        finally:
            self.receive_clean_locks.release(channel_key)
        return popped[0::2]

    def _decode(self, channel: str, content: bytes) -> tuple[Any, dict[str, Any]]:
        message = self.deserialize(content)
        if "__asgi_channel__" in message:
            channel = message.pop("__asgi_channel__")
        return channel, message

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        connection = self.connection(self.consistent_hash(group))
        members = await connection.eval(
            _MEMBERS, 1, self._group_key(group), int(time.time()) - self.group_expiry
        )
        channel_names = [name.decode("utf8") for name in members]
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channel_names, message
        )
        cutoff = int(time.time()) - int(self.expiry)
        for index, keys in by_connection.items():
            args = [messages[key] for key in keys] + [capacities[key] for key in keys]
            args += [time.time(), self.expiry, cutoff]
            full = await self.connection(index).eval(_GROUP_SEND, len(keys), *keys, *args)
            if full:
                log.info("%s of %s channels over capacity in group %s", full, len(keys), group)
