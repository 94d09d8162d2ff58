"""The channel layer for Redis deployments: one Redis PUBLISH per group message, fanned out to
the process's own sockets in memory (docs/performance.md, docs/design-notes.md).

channels-redis' core layer keeps a Redis sorted set per socket: a roll at a table of six costs
six writes on ``group_send`` and, in every web process, a scripted pop per socket queue, a
receive lock handed between consumers and a msgpack decode per socket. That was a quarter of a
web process's CPU at 100 rolls a second. ``channels_redis.pubsub`` instead subscribes each
process once per group and hands a message to the process's members from memory.

Pub/sub delivers at most once, like the core layer (which drops messages past its expiry or
when Redis restarts): the event log is the source of truth and a browser that misses an event
replays it (DESIGN.md). What this subclass adds is that a lost subscription is never silent:

- If the subscription's connection fails, or redis-py quietly reconnects and re-subscribes
  (messages published in between are gone), every socket of the process whose channel was on
  that connection gets the error from its next ``receive``. The socket closes with 4503
  (``vtt.core.outage.SocketOutageGuard``) and the browser reconnects with back-off and replays
  from its last sequence number, as it does when the core layer loses Redis.
- The connection is then dropped, so sockets that connect after Redis is back subscribe
  afresh.
- ``forget(channel)`` drops a channel nobody will read (the health check's), which upstream
  keeps subscribed for the life of the process.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _close_redis, _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)


class _Lost:
    """Put in a channel's queue in place of a message: the subscription feeding it was lost."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _PubSub(aioredis.client.PubSub):
    """redis-py calls ``on_connect`` on every (re)connect of the subscription: after the
    first, it has quietly re-subscribed, and whatever was published meanwhile is lost."""

    connects = 0
    reconnected = False

    async def on_connect(self, connection: Any) -> None:
        self.connects += 1
        self.reconnected = self.reconnected or self.connects > 1
        await super().on_connect(connection)


class _Shard(RedisSingleShardConnection):
    """One Redis connection for the process's subscriptions on a host, which reports loss."""

    def _ensure_redis(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis(connection_pool=create_pool(self.host))
            self._pubsub = _PubSub(
                self._redis.connection_pool, event_dispatcher=self._redis._event_dispatcher
            )

    async def _do_receiving(self) -> None:
        while True:
            pubsub = self._pubsub
            try:
                if pubsub is not None and pubsub.subscribed:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if pubsub.reconnected:
                        raise RedisConnectionError(
                            "the channel layer's subscription reconnected: messages were lost"
                        )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:  # the subscription is gone, whatever the error
                await self._lose(exc)
                return

    async def _lose(self, exc: BaseException) -> None:
        async with self._lock:
            redis = self._redis
            self._redis = self._pubsub = self._receive_task = None
            self._subscribed_to = set()
        log.warning("channel layer: lost the Redis subscription (%s); closing its sockets", exc)
        self.channel_layer.lose(self, exc)
        if redis is not None:
            try:
                await _close_redis(redis)
            except Exception:  # Redis is what failed
                log.debug("closing the lost subscription", exc_info=True)


class PubSubLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop (upstream's, with loss reported to the receivers)."""

    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def _subscribe_to_channel(self, channel: str) -> None:
        try:
            await super()._subscribe_to_channel(channel)
        except BaseException:
            self.channels.pop(channel, None)  # a socket refused during an outage leaves nothing
            raise

    async def receive(self, channel: str) -> dict[str, Any]:
        try:
            return await super().receive(channel)
        except RedisConnectionError:
            self.channels.pop(channel, None)  # lost (PubSubChannelLayer.deserialize raised)
            raise

    def lose(self, shard: _Shard, exc: BaseException) -> None:
        """Every channel and group that was on ``shard``: its receivers get the error, the
        groups are forgotten (their sockets are closing)."""
        for name, queue in list(self.channels.items()):
            if self._get_shard(name) is shard:
                queue.put_nowait(_Lost(exc))
        for group in [g for g in self.groups if self._get_shard(g) is shard]:
            del self.groups[group]

    async def forget(self, channel: str) -> None:
        """Drop a channel that will not be read again."""
        if self.channels.pop(channel, None) is not None:
            await self._get_shard(channel).unsubscribe(channel)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` that reports a lost subscription to
    the sockets it fed; configured like the core layer (``capacity`` and ``expiry`` have no
    meaning here and are ignored)."""

    async def forget(self, channel: str) -> None:
        """Drop a channel that will not be read again (the health check's probe)."""
        await self._get_layer().forget(channel)

    def deserialize(self, message: Any) -> Any:
        if isinstance(message, _Lost):
            raise RedisConnectionError(str(message.error)) from message.error
        return super().deserialize(message)

    def _get_layer(self) -> PubSubLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = PubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
