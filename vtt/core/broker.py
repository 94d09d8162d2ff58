"""kombu's Redis transport, made to survive a Redis restart (settings.CELERY_BROKER_TRANSPORT).

With celery 5.7 and kombu 5.7, a worker that loses its Redis connection while it holds
unacknowledged messages (always, when a dungeon clock runs: the turn's ETA task waits in the
worker unacknowledged) dies with "Unrecoverable error: AttributeError: 'NoneType' object has
no attribute 'hostname'". Celery first *collects* the broken connection, which drops the
transport's reference to its kombu connection, then *closes* it; closing tries to give the
unacknowledged messages back to Redis, needs connection parameters, and finds none. Celery
ignores connection errors during that close, not an AttributeError, so the worker exits
instead of reconnecting (tests/chaos/test_faults.py::test_restart_redis shows it).

Here a channel without its connection raises Redis's ``ConnectionError`` instead, which Celery
ignores: the worker reconnects. The messages it held stay in Redis's unacked set (restored
after the visibility timeout) or were lost with a Redis that keeps no data; either way the
worker's start-up step re-arms every running clock (vtt/core/worker.py) and ``end_turn``
ignores duplicates (vtt/table/clock.py).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection was already collected")
        return super()._connparams(asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
