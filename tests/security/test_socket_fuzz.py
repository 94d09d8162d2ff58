"""hypothesis against the table socket: random text, bytes and JSON frames. Every frame gets an
answer (an ``error`` frame with a code and a message, or the reply a valid frame earns), the
socket stays open, and the consumer never crashes.

One socket takes all of a test's examples (a real browser sends many frames on one socket);
after each frame a ping with a fresh token must come back, which proves the socket still
reads and answers in order."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import fuzz_derandomize, fuzz_examples
from tests.sockets import connect
from vtt.table.consumers import MAX_FRAME_BYTES

pytestmark = pytest.mark.django_db(transaction=True)

ANSWERS = {"error", "replay", "pong"}

json_value = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(allow_nan=False),
        st.text(max_size=20),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
typed_frame = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(["hello", "replay", "ping", "roll", ""]), json_value)},
    optional={"last_seq": json_value, "since": json_value, "t": json_value, "x": json_value},
)
frames = st.one_of(
    st.tuples(st.just("text"), st.text(max_size=200)),
    st.tuples(st.just("bytes"), st.binary(max_size=200)),
    st.tuples(st.just("text"), json_value.map(json.dumps)),
    st.tuples(st.just("text"), typed_frame.map(json.dumps)),
    st.tuples(st.just("bytes"), typed_frame.map(lambda f: json.dumps(f).encode())),
    # nested past the JSON parser's recursion limit, and past the size limit
    st.tuples(st.just("text"), st.integers(50, 8000).map(lambda n: "[" * n + "]" * n)),
    st.tuples(st.just("text"), st.integers(10, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n)),
    st.tuples(st.just("text"), st.just('{"type":"ping","pad":"' + "ж" * MAX_FRAME_BYTES + '"}')),
)


class Probe:
    """Sends one fuzz frame, then a ping, and collects every frame up to its pong."""

    def __init__(self, comm) -> None:
        self.comm = comm
        self.n = 0

    async def send(self, kind: str, payload: Any) -> list[dict]:
        # send_input, not send_to: an empty frame is a frame too
        key = "text" if kind == "text" else "bytes"
        await self.comm.send_input({"type": "websocket.receive", key: payload})
        self.n += 1
        token = f"probe-{self.n}"
        await self.comm.send_json_to({"type": "ping", "t": token})
        got = []
        while True:
            output = await self.comm.receive_output(timeout=5)
            assert output["type"] == "websocket.send", f"socket closed: {output}"
            frame = json.loads(output["text"])
            if frame == {"type": "pong", "t": token}:
                return got
            got.append(frame)


@pytest.mark.parametrize("role", ["player", "referee", "observer"])
def test_random_frames_get_an_answer_and_the_socket_stays_open(table, role):
    loop = asyncio.new_event_loop()
    comm = loop.run_until_complete(connect(table.user(role), table.campaign.pk))
    welcome = loop.run_until_complete(comm.receive_json_from(timeout=5))
    assert welcome["type"] == "welcome"
    probe = Probe(comm)

    @settings(
        max_examples=fuzz_examples(60),
        derandomize=fuzz_derandomize(),
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(frame=frames)
    def run(frame) -> None:
        kind, payload = frame
        answers = loop.run_until_complete(probe.send(kind, payload))
        answers = [a for a in answers if a["type"] != "presence"]
        assert answers, f"no answer to {frame!r}"
        for answer in answers:
            assert answer["type"] in ANSWERS, answer
            if answer["type"] == "error":
                assert answer["code"] and answer["message"], answer

    try:
        run()
        assert not comm.future.done(), "the consumer stopped"
    finally:
        loop.run_until_complete(comm.disconnect())
        loop.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("[" * 5000 + "]" * 5000, "bad_json"),  # RecursionError in json.loads: used to crash
        ('{"type": "hello", "last_seq": ' + "[" * 3000 + "]" * 3000 + "}", "bad_json"),
        ('{"type": "ping", "t": ' + "[" * 70 + "]" * 70 + "}", "bad_json"),  # past MAX_DEPTH
        # 1e400 reads as infinity, which no frame can carry back: refused as it arrives
        ('{"type": "hello", "last_seq": 1e400}', "bad_number"),
        # issue 18: a lone surrogate echoed in the pong closed the socket with 1011
        ('{"type": "ping", "t": "\\ud800"}', "bad_text"),
        ('{"type": "ping", "t": {"k": ["\\udfff"]}}', "bad_text"),
        ('{"type": "ping", "t": "a\\u0000b"}', "bad_text"),
        ('{"type": "ping", "t": NaN}', "bad_json"),  # not JSON: a browser cannot read it back
        ('{"type": "ping", "t": -Infinity}', "bad_json"),
        ('{"type": "ping", "t": [1, 1e400]}', "bad_number"),
        ('{"type": "hello", "last_seq": 99999999999999999999999999}', "bad_seq"),
        ('{"type": "replay", "since": true}', "bad_seq"),
        ('{"type": {"nested": 1}}', "bad_frame"),
        ("\x00\x01", "bad_json"),
    ],
)
def test_hostile_frames_get_their_error(table, raw, code):
    loop = asyncio.new_event_loop()
    comm = loop.run_until_complete(connect(table.player, table.campaign.pk))
    try:
        assert loop.run_until_complete(comm.receive_json_from(timeout=5))["type"] == "welcome"
        answers = loop.run_until_complete(Probe(comm).send("text", raw))
        assert [a["code"] for a in answers if a["type"] == "error"] == [code], answers
    finally:
        loop.run_until_complete(comm.disconnect())
        loop.close()


def test_a_campaign_id_past_the_integer_range_is_closed_4403(table):
    loop = asyncio.new_event_loop()
    try:
        comm = loop.run_until_complete(connect(table.player, 10**30))
        closed = loop.run_until_complete(comm.receive_output(timeout=5))
        assert closed == {"type": "websocket.close", "code": 4403}
        loop.run_until_complete(comm.wait(timeout=5))
    finally:
        loop.close()
