"""Table API: rolls, idempotency, rate limits, the event log and its chain, initiative."""

from __future__ import annotations

import pytest

from vtt.table.events import verify_chain
from vtt.table.models import Roll, TableEvent

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]


def url(table, tail: str) -> str:
    return f"/api/campaigns/{table.campaign.pk}/{tail}"


@pytest.mark.parametrize(
    ("role", "expected"),
    list(zip(ROLES, [401, 404, 403, 201, 201], strict=True)),
)
def test_roll_permissions(table, api_for, role, expected):
    resp = api_for(table.user(role)).post(url(table, "rolls/"), {"notation": "2d6"}, format="json")
    assert resp.status_code == expected
    assert Roll.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize(
    ("method", "tail", "data", "expected"),
    [
        ("get", "events/", None, [401, 404, 200, 200, 200]),
        ("get", "events/verify/", None, [401, 404, 200, 200, 200]),
        ("post", "chat/", {"text": "привет"}, [401, 404, 403, 201, 201]),
        ("get", "initiative/", None, [401, 404, 200, 200, 200]),
        ("post", "initiative/", {"name": "Гоблин"}, [401, 404, 403, 201, 201]),
        ("post", "initiative/step/", {"direction": "next"}, [401, 404, 403, 403, 409]),
        ("post", "initiative/order/", {"by_value": True}, [401, 404, 403, 403, 200]),
        ("post", "initiative/reset/", {}, [401, 404, 403, 403, 200]),
    ],
)
def test_table_endpoint_matrix(table, api_for, method, tail, data, expected):
    for role, code in zip(ROLES, expected, strict=True):
        client = api_for(table.user(role))
        resp = getattr(client, method)(url(table, tail), data, format="json")
        assert resp.status_code == code, (role, resp.content[:300])


def test_roll_result_has_every_face_and_is_logged(table, api_for):
    resp = api_for(table.player).post(
        url(table, "rolls/"), {"notation": "4d6kh3", "label": "Сила"}, format="json"
    )
    body = resp.json()
    term = body["terms"][0]
    assert len(term["faces"]) == 4 and len(term["kept"]) == 3
    assert body["total"] == sum(term["faces"][i] for i in term["kept"])
    event = TableEvent.objects.get()
    assert event.kind == "roll" and event.payload["roll_id"] == body["roll_id"]
    assert event.payload["total"] == body["total"]


def test_idempotency_key_returns_the_first_roll(table, api_for):
    client = api_for(table.player)
    first = client.post(
        url(table, "rolls/"), {"notation": "1d1000"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    again = client.post(
        url(table, "rolls/"), {"notation": "1d1000"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == 201 and again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1
    # the same key from another user is that user's own roll
    other = api_for(table.other_player).post(
        url(table, "rolls/"), {"notation": "1d6"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 201 and Roll.objects.count() == 2


@pytest.mark.parametrize(
    ("notation", "code"),
    [
        ("2d", "notation_syntax"),
        ("101d6", "notation_too_many_dice"),
        ("1d1001", "notation_too_many_sides"),
        ("1d6+" * 60 + "1", "notation_too_long"),
    ],
)
def test_bad_notation_is_400_with_a_clear_message_and_rolls_nothing(table, api_for, notation, code):
    resp = api_for(table.player).post(url(table, "rolls/"), {"notation": notation}, format="json")
    assert resp.status_code == 400
    body = resp.json()
    assert body.get("code") == code or "notation" in body
    assert body.get("detail") or body.get("notation")
    assert not Roll.objects.exists() and not TableEvent.objects.exists()


def test_bad_notation_message_follows_the_language(table, api_for):
    table.player.language = "en"
    table.player.save()
    client = api_for(table.player)
    en = client.post(url(table, "rolls/"), {"notation": "101d6"}, format="json").json()["detail"]
    table.player.language = "ru"
    table.player.save()
    ru = client.post(url(table, "rolls/"), {"notation": "101d6"}, format="json").json()["detail"]
    assert en != ru
    assert any("а" <= ch <= "я" for ch in ru.lower())


def test_roll_rate_limit_burst_then_429(table, api_for):
    client = api_for(table.player)
    codes = [
        client.post(url(table, "rolls/"), {"notation": "1d6"}, format="json").status_code
        for _ in range(12)
    ]
    assert codes[:10] == [201] * 10
    assert 429 in codes[10:]
    limited = client.post(url(table, "rolls/"), {"notation": "1d6"}, format="json")
    assert limited.status_code == 429 and limited.json()["retry_after"] >= 1
    # another user's bucket is their own
    assert (
        api_for(table.referee)
        .post(url(table, "rolls/"), {"notation": "1d6"}, format="json")
        .status_code
        == 201
    )


def test_whisper_needs_a_member_target(table, api_for):
    client = api_for(table.player)
    bad = client.post(
        url(table, "rolls/"),
        {"notation": "1d6", "visibility": "whisper", "target_id": table.outsider.pk},
        format="json",
    )
    assert bad.status_code == 400
    ok = client.post(
        url(table, "rolls/"),
        {"notation": "1d6", "visibility": "whisper", "target_id": table.referee.pk},
        format="json",
    )
    assert ok.status_code == 201


def test_events_api_filters_by_visibility_and_pages_by_cursor(table, api_for):
    gm, pc, other = api_for(table.referee), api_for(table.player), api_for(table.other_player)
    pc.post(url(table, "rolls/"), {"notation": "1d6"}, format="json")  # 1
    gm.post(url(table, "rolls/"), {"notation": "1d20", "visibility": "referee"}, format="json")
    pc.post(
        url(table, "chat/"),
        {"text": "тсс", "visibility": "whisper", "target_id": table.other_player.pk},
        format="json",
    )  # 4
    gm_seqs = [e["seq"] for e in gm.get(url(table, "events/")).json()["events"]]
    pc_seqs = [e["seq"] for e in pc.get(url(table, "events/")).json()["events"]]
    other_seqs = [e["seq"] for e in other.get(url(table, "events/")).json()["events"]]
    assert gm_seqs == [1, 2, 3]
    assert pc_seqs == [1, 3, 4]
    assert other_seqs == [1, 3, 4]
    page = pc.get(url(table, "events/?since=0&limit=1")).json()
    assert [e["seq"] for e in page["events"]] == [1] and page["more"] is True
    assert page["cursor"] == 1 and page["head"] == 4
    rest = pc.get(url(table, f"events/?since={page['cursor']}&limit=10")).json()
    assert [e["seq"] for e in rest["events"]] == [3, 4] and rest["more"] is False
    assert rest["cursor"] == 4
    assert pc.get(url(table, "events/?since=abc")).status_code == 400


def test_chain_verifies_and_detects_tampering(table, api_for):
    client = api_for(table.player)
    for _ in range(5):
        client.post(url(table, "rolls/"), {"notation": "1d6"}, format="json")
    report = client.get(url(table, "events/verify/")).json()
    assert report["ok"] is True and report["count"] == 5
    event = TableEvent.objects.get(seq=3)
    event.payload = {**event.payload, "total": 999}
    event.save()
    broken = verify_chain(table.campaign.pk)
    assert broken["ok"] is False and broken["broken_at"] == 3 and broken["problem"] == "hash"


def test_reveal_only_by_referee_and_only_once(table, api_for):
    gm = api_for(table.referee)
    hidden = gm.post(
        url(table, "rolls/"), {"notation": "1d20", "visibility": "blind"}, format="json"
    ).json()
    assert len(hidden["commitment"]) == 64
    assert (
        api_for(table.player).post(url(table, f"rolls/{hidden['roll_id']}/reveal/")).status_code
        == 403
    )
    assert gm.post(url(table, f"rolls/{hidden['roll_id']}/reveal/")).status_code == 200
    again = gm.post(url(table, f"rolls/{hidden['roll_id']}/reveal/"))
    assert again.status_code == 409 and again.json()["code"] == "already_revealed"
    public = gm.post(url(table, "rolls/"), {"notation": "1d6"}, format="json").json()
    assert gm.post(url(table, f"rolls/{public['roll_id']}/reveal/")).status_code == 409


def test_initiative_flow_and_hidden_npcs(table, api_for):
    gm, pc = api_for(table.referee), api_for(table.player)
    base = url(table, "initiative/")
    pc.post(base, {"name": "Алиса", "value": 12}, format="json")
    gm.post(base, {"name": "Тайный убийца", "value": 18, "hidden": True}, format="json")
    gm.post(base, {"name": "Гоблин", "value": 7}, format="json")
    assert pc.post(base, {"name": "Чит", "hidden": True}, format="json").status_code == 400
    gm.post(base + "order/", {"by_value": True}, format="json")
    full = gm.get(base).json()
    assert [e["name"] for e in full["entries"]] == ["Тайный убийца", "Алиса", "Гоблин"]
    public = pc.get(base).json()
    assert [e["name"] for e in public["entries"]] == ["Алиса", "Гоблин"]
    step = gm.post(base + "step/", {"direction": "next"}, format="json").json()
    assert step["round"] == 1 and step["current"] == full["entries"][0]["id"]
    # the player sees a hidden turn, not who
    seen = pc.get(base).json()
    assert seen["current"] is None and seen["current_hidden"] is True
    for _ in range(3):
        step = gm.post(base + "step/", {"direction": "next"}, format="json").json()
    assert step["round"] == 2 and step["current"] == full["entries"][0]["id"]
    back = gm.post(base + "step/", {"direction": "previous"}, format="json").json()
    assert back["round"] == 1 and back["current"] == full["entries"][2]["id"]
    # players may change only their own entries
    goblin = full["entries"][2]["id"]
    assert pc.patch(base + f"{goblin}/", {"value": 1}, format="json").status_code == 409
    mine = full["entries"][1]["id"]
    assert pc.patch(base + f"{mine}/", {"value": 15}, format="json").status_code == 200
    # no event sent to players ever names the hidden entry
    for event in TableEvent.objects.filter(kind="initiative").exclude(visibility="blind"):
        assert "Тайный убийца" not in str(event.payload)
    assert TableEvent.objects.filter(kind="initiative", visibility="blind").exists()
    # one copy per audience: never an everyone copy beside the referee's
    last_two = list(TableEvent.objects.filter(kind="initiative").order_by("-seq")[:2])
    assert {e.visibility for e in last_two} == {"players", "blind"}
    bad = gm.post(base + "order/", {"entry_ids": [goblin]}, format="json")
    assert bad.status_code == 400


def test_blind_roll_is_hidden_from_its_own_roller(table, api_for):
    resp = (
        api_for(table.player)
        .post(url(table, "rolls/"), {"notation": "1d20", "visibility": "blind"}, format="json")
        .json()
    )
    assert "total" not in resp and "terms" not in resp and len(resp["commitment"]) == 64
    events = api_for(table.player).get(url(table, "events/")).json()["events"]
    assert [e["kind"] for e in events] == ["roll.hidden"]
    gm_events = api_for(table.referee).get(url(table, "events/")).json()["events"]
    assert gm_events[0]["kind"] == "roll" and "total" in gm_events[0]["payload"]


def test_chat_retry_with_the_same_key_posts_once(table, api_for):
    client = api_for(table.player)
    first = client.post(
        url(table, "chat/"), {"text": "привет"}, format="json", HTTP_IDEMPOTENCY_KEY="c-1"
    )
    again = client.post(
        url(table, "chat/"), {"text": "привет"}, format="json", HTTP_IDEMPOTENCY_KEY="c-1"
    )
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["seq"] == first.json()["seq"]
    assert TableEvent.objects.filter(kind="chat").count() == 1


def test_events_before_pages_backwards(table, api_for):
    client = api_for(table.player)
    for i in range(5):
        client.post(url(table, "chat/"), {"text": f"м{i}"}, format="json")
    page = client.get(url(table, "events/?before=5&limit=2")).json()
    assert [e["seq"] for e in page["events"]] == [3, 4]
    assert page["cursor"] == 3 and page["more"] is True
    rest = client.get(url(table, "events/?before=3&limit=10")).json()
    assert [e["seq"] for e in rest["events"]] == [1, 2] and rest["more"] is False
