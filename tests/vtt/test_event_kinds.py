"""The registry of event kinds (vtt/table/kinds.py) and what is derived from it: publishing
validates against it, the archive remaps its id fields, docs/table-protocol.md lists it, and
each kind reaches exactly its audience."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command

from vtt.accounts.models import User
from vtt.campaigns import archive
from vtt.campaigns.models import Campaign
from vtt.table import kinds, services
from vtt.table.events import can_see, verify_chain, visible_events, wire
from vtt.table.models import TableEvent
from vtt.table.models import Visibility as V

from .test_campaign_archive import _media, build_rich_campaign  # noqa: F401


def _value(types: tuple[type, ...]) -> Any:
    first = next(t for t in types if t is not type(None))
    return {int: 7, float: 1.5, str: "x", bool: True, dict: {}, list: []}[first]


def _id_value(obj: str, n: int) -> Any:
    if obj == "combatant":
        return f"t{n}"
    if obj == "table_state":
        return {"participants": [{"id": f"c{n}", "character_id": n}]}
    return n


def _place(payload: dict[str, Any], steps: list[str], value: Any) -> None:
    """Put ``value`` at an id path of ``payload``, building (or reusing) the containers on
    the way, so several paths under one field share it."""
    step, rest = steps[0], steps[1:]
    key = "k" if step == "*" else step.removesuffix("[]")
    many = step.endswith("[]")
    if not rest:
        payload[key] = [value] if many else value
        return
    if many:
        if not (isinstance(payload.get(key), list) and payload[key]):
            payload[key] = [{}]
        inner = payload[key][0]
    else:
        if not isinstance(payload.get(key), dict):
            payload[key] = {}
        inner = payload[key]
    _place(inner, rest, value)


def for_visibility(payload: dict[str, Any], visibility: str) -> dict[str, Any]:
    """The copy of a sample for one visibility: the referee's copy is marked ``referee``, the
    players' (or one player's) ``players``, an event for everyone carries no audience."""
    out = dict(payload)
    if "audience" in out:
        if visibility == V.BLIND:
            out["audience"] = "referee"
        elif visibility in (V.PLAYERS, V.WHISPER):
            out["audience"] = "players"
        else:
            out.pop("audience")
    return out


def sample(kind: kinds.Kind, ids: dict[str, int] | None = None) -> dict[str, Any]:
    """A payload of ``kind`` built from its declaration: every field, and a distinct id (or
    the given one, by object) at every id path."""
    payload = {name: _value(spec.types) for name, spec in kind.fields.items()}
    for n, (path, obj) in enumerate(kind.ids.items(), start=101):
        wanted = (ids or {}).get(obj, n)
        if "." in path or path.endswith("[]"):
            _place(payload, path.split("."), _id_value(obj, wanted))
        else:
            value = _id_value(obj, wanted)
            if not kind.fields[path].accepts(value):
                value = str(value)
            payload[path] = value
    if "audience" in kind.fields:
        payload["audience"] = "players" if V.PLAYERS in kind.visibility else "referee"
    if kind.family:
        payload["type"] = "sample"
    return payload


def _name(kind: kinds.Kind) -> str:
    return kind.name + "sample" if kind.family else kind.name


ALL = sorted(kinds.KINDS.values(), key=lambda k: k.name)


# --- the registry itself ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ALL, ids=lambda k: k.name)
def test_a_sample_built_from_each_declaration_is_valid(kind):
    for visibility in kind.visibility:
        payload = for_visibility(sample(kind), visibility)
        kinds.validate(_name(kind), payload, visibility, has_target=visibility == V.WHISPER)


@pytest.mark.parametrize(
    ("kind", "payload", "visibility", "message"),
    [
        ("nonsense", {}, V.EVERYONE, "unknown event kind"),
        ("chat", {"text": "a", "extra": 1}, V.EVERYONE, "undeclared fields"),
        ("chat", {}, V.EVERYONE, "missing field 'text'"),
        ("chat", {"text": 5}, V.EVERYONE, "field 'text' is int"),
        ("map.round", {"map_id": True, "reset": True, "audience": "players"}, V.PLAYERS, "bool"),
        ("chat", {"text": "a"}, V.PLAYERS, "visibility 'players'"),
        ("map.round", {"map_id": 1, "reset": True, "audience": "players"}, V.BLIND, "players'"),
        ("map.round", {"map_id": 1, "reset": True, "audience": "referee"}, V.PLAYERS, "blind"),
    ],
)
def test_publishing_refuses_what_the_registry_does_not_declare(
    table, kind, payload, visibility, message
):
    with pytest.raises(kinds.KindError, match=message):
        services.publish(campaign=table.campaign, kind=kind, payload=payload, visibility=visibility)
    assert not TableEvent.objects.filter(campaign=table.campaign).exists()


def test_the_old_players_copy_as_everyone_is_refused(table):
    """A players' copy must be ``players`` now: an ``everyone`` one would reach the referee."""
    with pytest.raises(kinds.KindError, match="'everyone' is not one of blind, players"):
        services.publish(
            campaign=table.campaign,
            kind="map.round",
            payload={"map_id": 1, "reset": True, "audience": "players"},
        )


def test_every_id_path_names_a_declared_field_and_a_known_object():
    for kind in ALL:
        for path, obj in kind.ids.items():
            assert path.split(".")[0].removesuffix("[]") in kind.fields, (kind.name, path)
            assert obj in kinds.OBJECTS, (kind.name, obj)


# --- the archive ------------------------------------------------------------------------------


def test_the_archive_remaps_every_id_field_of_every_kind():
    """Derived, not listed: for each kind, every value at a declared id path is rewritten by
    the archive's import walker (a new kind with an id needs no change to the archive)."""
    assert set(kinds.OBJECTS) <= set(archive.OBJECT_LABELS)
    seen: list[tuple[str, int]] = []

    def ref(label: str, old: int) -> int:
        seen.append((label, old))
        return old + 1000

    refs = archive.Refs(ref)
    for kind in ALL:
        if not kind.ids:
            continue
        before = sample(kind)
        after = refs.payload(_name(kind), before)
        old = list(kinds.iter_ids(_name(kind), before))
        new = list(kinds.iter_ids(_name(kind), after))
        assert len(old) == len(new) == len(kind.ids), kind.name
        for (obj, a), (_obj, b) in zip(old, new, strict=True):
            assert a != b, (kind.name, obj, a)


KINDS_WITH_IDS = [k for k in ALL if k.ids]


def _rows(campaign: Campaign, label: str) -> list[int]:
    part = archive.PART_BY_LABEL[label]
    return list(
        apps.get_model(label)
        .objects.filter(**{part.path: campaign.pk})
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _owned(campaign: Campaign, obj: str, value: Any) -> bool:
    """Whether an id in an imported payload names a row of the imported campaign."""
    label = archive.OBJECT_LABELS[obj]
    if obj == "table_state":
        return all(_owned(campaign, "character", p["character_id"]) for p in value["participants"])
    if obj == "combatant":
        value = int(value[1:])
    if label == archive.USERS:
        return User.objects.filter(pk=int(value), memberships__campaign=campaign).exists()
    return int(value) in _rows(campaign, label)


def test_a_log_holding_every_kind_with_ids_survives_export_and_import(table, tmp_path):
    """Every kind that carries ids, naming real rows of the campaign, exported and imported:
    in the imported log each of those ids names the imported campaign's row."""
    old = build_rich_campaign(table, "crows")
    real = {
        obj: _rows(old, label)[0]
        for obj, label in archive.OBJECT_LABELS.items()
        if label not in (archive.USERS, archive.PIDS) and _rows(old, label)
    }
    real["user"] = table.player.pk
    real["combatant"] = real["token"]
    real["table_state"] = real["character"]
    # an object the campaign has no row of (a pending move, once answered, is gone): the
    # import gives the id a distinct negative number, which names no row
    gone = {obj for k in KINDS_WITH_IDS for obj in k.ids.values()} - set(real)
    assert gone <= {"pending_move"}, gone
    real.update(dict.fromkeys(gone, 999_999))
    start = TableEvent.objects.filter(campaign=old).count()
    for kind in KINDS_WITH_IDS:
        visibility = V.PLAYERS if V.PLAYERS in kind.visibility else kind.visibility[0]
        target = table.player if visibility == V.WHISPER else None
        services.publish(
            campaign=old,
            kind=_name(kind),
            payload=for_visibility(sample(kind, real), visibility),
            visibility=visibility,
            target=target,
        )
    path = tmp_path / "c.zip"
    call_command("export_campaign", old.pk, str(path), stdout=io.StringIO())
    before = set(Campaign.objects.values_list("pk", flat=True))
    call_command("import_campaign", str(path), stdout=io.StringIO())
    (new_id,) = set(Campaign.objects.values_list("pk", flat=True)) - before
    new = Campaign.objects.get(pk=new_id)
    assert verify_chain(new.pk)["ok"]
    imported = TableEvent.objects.filter(campaign=new, seq__gt=start).order_by("seq")
    assert [e.kind for e in imported] == [_name(k) for k in KINDS_WITH_IDS]
    for event in imported:
        for obj, value in kinds.iter_ids(event.kind, event.payload):
            if obj in gone:
                assert isinstance(value, int) and value < 0, (event.kind, obj, value)
            else:
                assert _owned(new, obj, value), (event.kind, obj, value)


# --- the protocol document --------------------------------------------------------------------


def test_the_protocol_document_lists_the_registry():
    doc = Path(__file__).resolve().parents[2] / "docs" / "table-protocol.md"
    text = doc.read_text(encoding="utf-8")
    assert kinds.render_doc(text) == text, "run: manage.py protocol_doc"
    for kind in ALL:
        assert f"`{kind.name}" in text


# --- audiences --------------------------------------------------------------------------------

# Who receives an event of each visibility, published by the referee (a whisper to the player).
AUDIENCE = {
    V.EVERYONE: {"referee", "player", "other", "observer"},
    V.PLAYERS: {"player", "other", "observer"},
    V.REFEREE: {"referee"},
    V.WHISPER: {"referee", "player"},
    V.BLIND: {"referee"},
}


@pytest.mark.parametrize("kind", ALL, ids=lambda k: k.name)
def test_each_kind_reaches_exactly_its_audience(table, kind):
    members = {
        "referee": (table.referee, "referee"),
        "player": (table.player, "player"),
        "other": (table.other_player, "player"),
        "observer": (table.observer, "observer"),
    }
    for visibility in kind.visibility:
        payload = for_visibility(sample(kind), visibility)
        target = table.player if visibility == V.WHISPER else None
        event = services.publish(
            campaign=table.campaign,
            kind=_name(kind),
            payload=payload,
            actor=table.referee,
            visibility=visibility,
            target=target,
        )
        frame = wire(event)
        assert frame["kind"] == _name(kind) and frame["payload"] == payload
        assert frame["visibility"] == visibility
        for who, (user, role) in members.items():
            live = can_see(
                visibility=visibility,
                actor_id=table.referee.pk,
                target_id=target.pk if target else None,
                user_id=user.pk,
                role=role,
            )
            stored = (
                visible_events(table.campaign.pk, user_id=user.pk, role=role)
                .filter(seq=event.seq)
                .exists()
            )
            expected = who in AUDIENCE[visibility]
            assert live == stored == expected, (kind.name, visibility, who)


def test_a_referee_never_receives_an_old_logs_players_copy(table, monkeypatch):
    """Logs from before the ``players`` visibility: the players' copy was ``everyone``. It
    stays in the chain unchanged, players still get it, the referee's replay skips it."""
    monkeypatch.setattr(kinds, "validate", lambda *a, **k: None)
    old_copy = services.publish(
        campaign=table.campaign,
        kind="map.round",
        payload={"map_id": 1, "reset": True, "audience": "players"},
        actor=table.referee,
    )
    monkeypatch.undo()
    chat = services.publish(campaign=table.campaign, kind="chat", payload={"text": "a"})
    referee = visible_events(table.campaign.pk, user_id=table.referee.pk, role="referee")
    player = visible_events(table.campaign.pk, user_id=table.player.pk, role="player")
    assert list(referee.values_list("seq", flat=True)) == [chat.seq]
    assert list(player.values_list("seq", flat=True)) == [old_copy.seq, chat.seq]
    assert verify_chain(table.campaign.pk)["ok"]
