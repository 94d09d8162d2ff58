"""The pub/sub channel layer (vtt.table.pubsub) against a real Redis: fan-out across processes
in order, specific channels, and that a lost subscription is never silent."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
import pytest_asyncio
import redis
from redis.exceptions import ConnectionError as RedisConnectionError

from vtt.table.pubsub import PubSubChannelLayer

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.timeout(60),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it)"),
]


def make(prefix: str, name: str) -> PubSubChannelLayer:
    hosts = [{"address": os.environ["REDIS_URL"], "socket_timeout": None, "client_name": name}]
    # the core layer's settings are accepted and ignored, so one CHANNEL_LAYERS CONFIG fits both
    return PubSubChannelLayer(hosts=hosts, prefix=prefix, capacity=1500, expiry=30)


async def receive(layer: PubSubChannelLayer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), 5)


@pytest_asyncio.fixture
async def pair():
    """Two layers on one Redis, as two web processes."""
    prefix, tag = f"test-pubsub-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex[:8]
    layers = make(prefix, f"ps-a-{tag}"), make(prefix, f"ps-b-{tag}")
    yield layers
    for layer in layers:
        await layer.flush()


def kill_subscriptions(name: str) -> int:
    """Close the named layer's connections from the Redis side, as a Redis restart would."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        ids = [c["id"] for c in client.client_list() if c.get("name") == name]
        for client_id in ids:
            client.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        client.close()


async def test_group_send_reaches_every_member_in_both_processes_in_order(pair):
    a, b = pair
    channels = [(a, await a.new_channel()) for _ in range(3)]
    channels += [(b, await b.new_channel()) for _ in range(3)]
    for layer, channel in channels:
        await layer.group_add("table", channel)
    for i in range(50):
        await (a if i % 2 else b).group_send("table", {"type": "table.event", "seq": i})
    for layer, channel in channels:
        assert [(await receive(layer, channel))["seq"] for _ in range(50)] == list(range(50))


async def test_a_discarded_member_gets_nothing_and_the_last_one_unsubscribes(pair):
    a, b = pair
    one, two = await a.new_channel(), await a.new_channel()
    for channel in (one, two):
        await a.group_add("table", channel)
    await a.group_discard("table", one)
    await b.group_send("table", {"type": "x"})
    assert (await receive(a, two))["type"] == "x"
    # Back in the group, the discarded channel's next message is the marker sent after "x":
    # had "x" reached it, "x" would come first (one group, one ordered stream).
    await a.group_add("table", one)
    await b.group_send("table", {"type": "marker"})
    assert (await receive(a, one))["type"] == "marker"
    assert (await receive(a, two))["type"] == "marker"
    await a.group_discard("table", one)
    await a.group_discard("table", two)
    shard = a._get_layer()._shards[0]
    assert not any("__group__table" in name for name in shard._subscribed_to)


async def test_send_to_a_specific_channel_in_another_process(pair):
    a, b = pair
    channel = await a.new_channel()
    waiting = asyncio.ensure_future(a.receive(channel))
    # Published messages reach only subscribers: send once the receiver's subscription is in.
    shard = a._get_layer()._shards[0]
    async with asyncio.timeout(5):
        while channel not in shard._subscribed_to:
            await asyncio.sleep(0.01)
    await b.send(channel, {"type": "presence.here", "conn": "c1"})
    assert (await asyncio.wait_for(waiting, 5))["conn"] == "c1"


async def test_forget_drops_the_channel_and_its_subscription(pair):
    a, _b = pair
    channel = await a.new_channel("healthz.")
    await a.send(channel, {"type": "healthz.ping"})
    assert (await receive(a, channel))["type"] == "healthz.ping"
    await a.forget(channel)
    layer = a._get_layer()
    assert channel not in layer.channels
    assert channel not in layer._shards[0]._subscribed_to


async def test_a_lost_subscription_fails_every_receiver_then_recovers(pair):
    a, b = pair
    waiting = []
    for _ in range(3):
        channel = await a.new_channel()
        await a.group_add("table", channel)
        waiting.append((channel, asyncio.ensure_future(a.receive(channel))))
    await asyncio.sleep(0.2)
    name = a._get_layer()._shards[0].host["client_name"]
    assert kill_subscriptions(name) >= 1
    for channel, task in waiting:
        # the socket learns its stream has a hole (it closes 4503 and the browser replays)
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(task, 5)
        assert channel not in a._get_layer().channels
    assert a._get_layer().groups == {}
    # a socket that connects afterwards subscribes afresh and gets what is published
    channel = await a.new_channel()
    await a.group_add("table", channel)
    await b.group_send("table", {"type": "after"})
    assert (await receive(a, channel))["type"] == "after"


async def test_a_receiver_busy_when_the_subscription_was_lost_learns_it_next(pair):
    a, b = pair
    channel = await a.new_channel()
    await a.group_add("table", channel)
    await b.group_send("table", {"type": "before"})
    await asyncio.sleep(0.2)  # delivered to the queue, not yet read
    assert kill_subscriptions(a._get_layer()._shards[0].host["client_name"]) >= 1
    await asyncio.sleep(0.5)
    assert (await receive(a, channel))["type"] == "before"
    with pytest.raises(RedisConnectionError):
        await receive(a, channel)


async def test_the_health_check_leaves_no_channel_subscribed():
    """``/healthz`` probes the layer with a fresh channel; a load balancer calls it every few
    seconds for the life of the process."""
    from channels.layers import get_channel_layer

    from vtt.core.views import _check_channel_layer

    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)  # the default with REDIS_URL
    for _ in range(3):
        assert (await _check_channel_layer())["ok"]
    loop_layer = layer._get_layer()
    assert not [name for name in loop_layer.channels if "healthz." in name]
    assert not [name for name in loop_layer._shards[0]._subscribed_to if "healthz." in name]
