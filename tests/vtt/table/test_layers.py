"""The batching Redis channel layer (vtt.table.layers) against a real Redis: order, fan-out,
interplay with the stock layer, capacity, and no loss when a fetch is interrupted."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
import pytest_asyncio
from channels_redis.core import RedisChannelLayer as StockLayer

from vtt.table import layers
from vtt.table.layers import RedisChannelLayer

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.timeout(60),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it)"),
]


def make(cls=RedisChannelLayer, prefix: str | None = None, **config):
    hosts = [{"address": os.environ["REDIS_URL"], "socket_timeout": None}]
    return cls(hosts=hosts, prefix=prefix or f"test-layer-{uuid.uuid4().hex}", **config)


async def receive(layer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), 5)


@pytest_asyncio.fixture
async def layer():
    layer = make(capacity=1000)
    yield layer
    await layer.flush()


async def test_group_send_reaches_every_channel_in_order_past_one_batch(layer):
    channels = [await layer.new_channel() for _ in range(6)]
    for channel in channels:
        await layer.group_add("table", channel)
    count = layers.RECEIVE_BATCH * 2 + 7
    for i in range(count):
        await layer.group_send("table", {"type": "table.event", "seq": i})
    for channel in channels:
        got = [(await receive(layer, channel))["seq"] for _ in range(count)]
        assert got == list(range(count))


async def test_blocking_receive_gets_a_later_message(layer):
    channel = await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)  # the receive starts (and finds the queue empty) before the send
    await layer.send(channel, {"type": "hello"})
    assert (await asyncio.wait_for(waiting, 5))["type"] == "hello"


async def test_interoperates_with_the_stock_layer():
    prefix = f"test-layer-{uuid.uuid4().hex}"
    ours, stock = make(prefix=prefix), make(StockLayer, prefix=prefix)
    try:
        mine, theirs = await ours.new_channel(), await stock.new_channel()
        for layer, channel in ((ours, mine), (stock, theirs)):
            await layer.group_add("table", channel)
        await stock.group_send("table", {"type": "a"})
        await ours.group_send("table", {"type": "b"})
        for layer, channel in ((ours, mine), (stock, theirs)):
            got = [(await receive(layer, channel))["type"] for _ in range(2)]
            assert got == ["a", "b"]
    finally:
        await ours.flush()


async def test_group_send_respects_capacity():
    layer = make(capacity=3)
    try:
        channel = await layer.new_channel()
        await layer.group_add("table", channel)
        for i in range(5):
            await layer.group_send("table", {"type": "x", "i": i})
        got = [(await receive(layer, channel))["i"] for _ in range(3)]
        assert got == [0, 1, 2]
        # the two over capacity were dropped: the next message is one sent afterwards
        await layer.group_send("table", {"type": "x", "i": "marker"})
        assert (await receive(layer, channel))["i"] == "marker"
    finally:
        await layer.flush()


async def test_a_fetch_whose_answer_was_lost_is_delivered_on_the_next_one(layer):
    channel = await layer.new_channel()
    await layer.group_add("table", channel)
    for i in range(3):
        await layer.group_send("table", {"type": "x", "i": i})
    # The fetch ran in Redis (messages moved to the in-flight backup) but its answer never
    # came back, as when the receiving task is cancelled mid-trip.
    channel_key = layer.prefix + layer.non_local_name(channel)
    backup = layer._backup_channel_name(channel_key)
    await layer.connection(0).eval(layers._FETCH, 2, channel_key, backup, "1", 100)
    layer._unconfirmed.add(channel_key)
    got = [(await receive(layer, channel))["i"] for _ in range(3)]
    assert got == [0, 1, 2]
    # ...and a confirmed batch is not delivered twice
    await layer.group_send("table", {"type": "x", "i": 3})
    assert (await receive(layer, channel))["i"] == 3
    await layer.group_send("table", {"type": "x", "i": "marker"})
    assert (await receive(layer, channel))["i"] == "marker"
