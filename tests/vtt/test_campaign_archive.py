"""Campaign archives (``manage.py export_campaign`` / ``import_campaign``).

The round trip builds a rich campaign through the services (sheets with history, a pending
move, a map with an uploaded background, tokens with a picture, fog, notes, terrain, prep
tables and their rolls, dungeons and rooms, rolls of every visibility with one hidden roll
revealed and one not, chat, initiative, a running clock, table state), exports it, imports it
into the same database and compares a canonical dump of both campaigns in which every id is
replaced by the position of its row (so the new ids must point at the same things), then checks
that the event chain and the hidden-roll commitments verify. Bad archives are refused with a
``CommandError`` and change nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models
from django.utils import timezone
from PIL import Image

from systems.core.dice import RandomDice, ScriptedDice
from vtt.accounts.models import User
from vtt.campaigns import archive
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Campaign, Membership
from vtt.characters import services as character_services
from vtt.characters.models import Character
from vtt.maps import services as map_services
from vtt.prep import library
from vtt.prep import services as prep_services
from vtt.rulesets.savage_worlds import table_state as sw_table_state
from vtt.table import clock
from vtt.table import services as table_services
from vtt.table.models import DungeonClock, InitiativeEntry, Roll, TableEvent
from vtt.tablestate import services as tablestate_services

# --- coverage: every model that hangs off a campaign is archived --------------------------------


def _campaign_bound() -> set[str]:
    """Every model with a foreign key to Campaign, or to a model that has one (transitively)."""
    bound = {"campaigns.campaign"}
    changed = True
    while changed:
        changed = False
        for model in apps.get_models():
            label = model._meta.label_lower
            if label in bound:
                continue
            for f in model._meta.get_fields():
                target = getattr(f, "related_model", None)
                if (
                    f.concrete
                    and f.is_relation
                    and target is not None
                    and target._meta.label_lower in bound
                ):
                    bound.add(label)
                    changed = True
                    break
    return bound


def test_every_model_that_hangs_off_a_campaign_is_in_the_archive():
    covered = {part.label for part in archive.PARTS} | set(archive.EXCLUDED)
    missing = _campaign_bound() - covered
    assert not missing, (
        f"{sorted(missing)} hang off a Campaign but are not in vtt/campaigns/archive.py PARTS "
        "(add them, with their JSON, file and soft-id fields) or EXCLUDED (with the reason)"
    )
    direct = {
        m._meta.label_lower
        for m in apps.get_models()
        for f in m._meta.concrete_fields
        if f.is_relation and f.related_model is Campaign
    }
    assert direct <= covered
    assert not set(archive.EXCLUDED) & {part.label for part in archive.PARTS}


def test_parts_name_their_foreign_keys_json_and_file_fields_in_dependency_order(db):
    seen = {"campaigns.campaign", archive.USERS}
    for part in archive.PARTS:
        model = part.model
        assert not model._meta.many_to_many, f"{part.label}: many-to-many fields are not archived"
        for f in model._meta.concrete_fields:
            if f.is_relation:
                target = f.related_model._meta.label_lower
                assert target in seen, f"{part.label}.{f.name} → {target} must come earlier"
            if isinstance(f, models.JSONField):
                assert f.name in part.json, f"{part.label}.{f.name}: say what the JSON holds"
            if isinstance(f, models.FileField):
                assert f.name in part.media, f"{part.label}.{f.name}: a file field"
        for name, target in part.soft.items():
            assert target in seen and hasattr(model, name)
        seen.add(part.label)
        # the lookup from the model to its campaign works
        model._default_manager.filter(**{part.path: 1}).exists()


# --- a rich campaign -----------------------------------------------------------------------------


def _png(size=(320, 240), color=(150, 40, 30), mode="RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, color).save(out, "PNG")
    return out.getvalue()


def _upload(data: bytes, name: str = "map.png"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="image/png")


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CLOCK_MIN_SECONDS = 1
    return settings.MEDIA_ROOT


def _notes(character: Character, actor: User, text: str) -> None:
    character.refresh_from_db()
    character_services.character_update(
        character=character,
        actor=actor,
        state={**character.state, "notes": text},
        version=character.version,
    )


def build_rich_campaign(table, ruleset: str) -> Campaign:
    """Everything a campaign can hold, made through the services (as the app makes it)."""
    c = table.campaign
    c.ruleset = ruleset
    c.save(update_fields=["ruleset"])
    ref, p1, p2 = table.referee, table.player, table.other_player
    campaign_services.campaign_set_rules(campaign=c, settings={})
    c.refresh_from_db()

    # sheets with history, a hidden NPC, a deleted sheet the log still names
    pc = character_services.character_create(campaign=c, actor=p1, role="player", name="Ава")
    pc2 = character_services.character_create(campaign=c, actor=p2, role="player", name="Бран")
    _notes(pc, p1, "Ищет брата.")
    _notes(pc, p1, "Ищет брата. Нашла след.")
    pc.refresh_from_db()
    character_services.character_revert(character=pc, actor=ref, to_version=2)
    block = library.npc_blocks(ruleset)[0]["key"]
    npcs = prep_services.npc_place(
        campaign=c, actor=ref, block_key=block, count=2, hidden=True, initiative=True
    )
    innkeeper = character_services.character_create(
        campaign=c, actor=ref, role="referee", name="Трактирщик", kind="npc"
    )
    gone = character_services.character_create(campaign=c, actor=p2, role="player", name="Тень")
    character_services.character_delete(character=gone, actor=ref)

    # a map with an uploaded background, a token picture, fog, notes, terrain
    m = map_services.map_create(campaign=c, actor=ref, name="Склеп", width=10, height=10)
    map_services.background_set(map=m, actor=ref, upload=_upload(_png()))
    map_services.map_activate(campaign=c, actor=ref, map_id=m.pk)
    map_services.fog_change(map=m, actor=ref, reveal=True, rect=[0, 0, 4, 9])
    t_pc = map_services.token_create(
        map=m, actor=ref, name="Ава", col=1, row=1, character_id=pc.pk, speed=6
    )
    map_services.token_create(map=m, actor=ref, name="Бран", col=2, row=1, character_id=pc2.pk)
    t_npc = map_services.token_create(
        map=m, actor=ref, name="Страж", col=3, row=3, character_id=npcs[0].pk
    )
    t_ogre = map_services.token_create(map=m, actor=ref, name="Огр", col=8, row=8)
    t_gone = map_services.token_create(map=m, actor=ref, name="Призрак", col=2, row=2)
    map_services.token_image_set(
        map=m,
        actor=ref,
        token_id=t_ogre.pk,
        upload=_upload(_png((64, 64), (10, 200, 10, 120), "RGBA"), "ogre.png"),
    )
    map_services.token_move(map=m, actor=p1, role="player", token_id=t_pc.pk, col=2, row=3)
    map_services.token_update(map=m, actor=ref, token_id=t_npc.pk, hidden=True)
    map_services.token_delete(map=m, actor=ref, token_id=t_gone.pk)
    map_services.note_create(map=m, actor=ref, col=1, row=2, text="Сокровище под алтарём")
    map_services.note_create(map=m, actor=ref, col=8, row=7, text="Надпись", secret=False)
    gone_note = map_services.note_create(map=m, actor=ref, col=0, row=0, text="x", secret=False)
    map_services.note_delete(map=m, actor=ref, note_id=gone_note.pk)
    map_services.terrain_paint(map=m, actor=ref, terrain="swamp", cells=[[7, 7], [8, 8]])
    map_services.fog_change(map=m, actor=ref, reveal=True, rect=[5, 5, 9, 9])  # ogre, note
    hexes = map_services.map_create(campaign=c, actor=ref, name="Пустоши", kind="hex")
    map_services.party_set(map=hexes, actor=ref, shown=[3, 3], true=[4, 4], reveal=1)

    # prep: tables (the library's where the ruleset has one), rolls on them, dungeons
    if library.library_tables(ruleset):
        prep_services.library_copy(campaign=c, key=library.library_tables(ruleset)[0]["key"])
    loot = prep_services.table_create(
        campaign=c,
        data={
            "key": "loot",
            "name": "Добыча",
            "formula": "1d6",
            "entries": [
                {"min": 1, "max": 3, "text": "Ничего"},
                {"min": 4, "max": 6, "text": "Монеты", "amount": "2d6", "unit": "зм"},
            ],
        },
    )
    prep_services.table_roll(campaign=c, actor=ref, table=loot, dice=ScriptedDice([5, 3, 4]))
    prep_services.table_roll(
        campaign=c, actor=ref, table=loot, visibility="everyone", idempotency_key="k-1"
    )
    crypt = prep_services.dungeon_create(campaign=c, name="Крипта", map_id=m.pk)
    room = prep_services.room_create(
        dungeon=crypt, key="12a", name="Склеп", cells=[[0, 0], [1, 0]], treasure=["кубок"]
    )
    prep_services.room_create(dungeon=crypt, key="3", map_id=hexes.pk)
    prep_services.room_monster_add(room=room, character_id=npcs[1].pk, count=3, note="спят")

    # rolls of every visibility: one hidden roll revealed, one not; chat
    table_services.roll_create(campaign=c, actor=p1, notation="2d6+1", label="удар")
    revealed, _ = table_services.roll_create(
        campaign=c, actor=ref, notation="1d20", visibility="referee"
    )
    table_services.roll_create(
        campaign=c, actor=ref, notation="3d6", visibility="blind", label="засада"
    )
    table_services.roll_create(
        campaign=c, actor=p1, notation="1d8", visibility="whisper", target_id=p2.pk
    )
    table_services.roll_create(
        campaign=c, actor=p2, notation="4d6kh3", visibility="referee", idempotency_key="r-9"
    )
    table_services.roll_reveal(campaign=c, roll_id=revealed.pk)
    table_services.chat_post(campaign=c, actor=p2, text="Привет, стол!")
    table_services.chat_post(
        campaign=c, actor=ref, text="Тсс", visibility="whisper", target_id=p1.pk
    )

    # initiative with a hidden entry and a current turn; a removed entry
    entry = table_services.initiative_add(campaign=c, actor=p1, role="player", name="Ава", value=9)
    table_services.initiative_add(
        campaign=c, actor=ref, role="referee", name="Засада", value=14, hidden=True
    )
    extra = table_services.initiative_add(campaign=c, actor=ref, role="referee", name="Ветер")
    table_services.initiative_order(campaign=c, actor=ref, by_value=True)
    table_services.initiative_step(campaign=c, actor=ref, direction=1)
    table_services.initiative_step(campaign=c, actor=ref, direction=1)
    table_services.initiative_remove(campaign=c, actor=ref, role="referee", entry_id=extra.pk)
    assert entry.pk

    # the ruleset's own table: the Crows turn clock, the Savage Worlds deck and bennies
    clock.clock_configure(campaign=c, actor=ref, length_seconds=600)
    clock.clock_start(campaign=c, actor=ref, dice=RandomDice())
    if ruleset == "crows":
        # an attack on the battle map: the move event carries the map and both tokens
        from systems.crows.inventory import place
        from systems.crows.items import make_item
        from vtt.rulesets.crows import combat

        sword = make_item(
            "sword", "Меч", kind="sword", damage={"type": "melee", "tier2": "3", "tier3": "5"}
        )
        pc.refresh_from_db()
        state = {**pc.state, "inventory": place(pc.state["inventory"], sword, "hands:1")}
        character_services.character_update(
            character=pc, actor=ref, state=state, version=pc.version
        )
        goblin = character_services.character_create(
            campaign=c, actor=ref, role="referee", name="Гоблин", kind="npc"
        )
        t_goblin = map_services.token_create(
            map=m, actor=ref, name="Гоблин", col=3, row=4, character_id=goblin.pk
        )
        combat.map_attack(
            map=m,
            actor=p1,
            role="player",
            attacker_token=t_pc.pk,
            target_token=t_goblin.pk,
            weapon_id="sword",
            dice=RandomDice(),
        )
        assert TableEvent.objects.filter(campaign=c, payload__context__attacker_token=t_pc.pk)
        DungeonClock.objects.filter(campaign=c).update(
            deadline=timezone.now() - timedelta(seconds=1)
        )
        assert clock.end_turn(c.pk, 1, dice=RandomDice()) == clock.ENDED
    if ruleset == "savage_worlds":
        for who in (pc, pc2):
            who.refresh_from_db()
            state = {**who.state, "bennies": 2}
            character_services.character_update(
                character=who, actor=ref, state=state, version=who.version
            )
        tablestate_services.table_move(
            campaign=c, actor=ref, role="referee", move="start_combat", dice=RandomDice()
        )
        participants = [
            {"character_id": pc.pk},
            {"character_id": pc2.pk},
            {"character_id": npcs[0].pk},
            {"name": "Волки", "hidden": False},
        ]
        tablestate_services.table_move(
            campaign=c,
            actor=ref,
            role="referee",
            move="deal_round",
            params={"participants": participants},
            dice=RandomDice(),
        )
        tablestate_services.table_move(
            campaign=c, actor=ref, role="referee", move="adjust_pool", params={"delta": 3}
        )
        pc.refresh_from_db()
        _outcome, pending = character_services.move_make(
            character=pc,
            actor=p1,
            move="trait_check",
            params={"trait": "agility"},
            dice=ScriptedDice([1, 2]),
        )
        assert pending is not None
        sw_table_state.benny_choice(
            campaign=c,
            actor=p1,
            role="player",
            character=pc,
            pending_id=pending.pk,
            choice="reroll",
            dice=ScriptedDice([1, 1]),
        )
    assert innkeeper.pk
    from vtt.journal import services as journal

    gm_member = Membership.objects.select_related("campaign").get(campaign=c, user=ref)
    handout = journal.entry_create(gm_member, title="Слухи", body="*шёпот*", sharing="everyone")
    journal.image_add(gm_member, handout, _upload(_png((30, 20))), label="карта")
    journal.entry_show(gm_member, handout)
    c.refresh_from_db()
    return c


# --- a canonical dump: ids become the position of their row --------------------------------------

# What the payload keys name (written here independently of the archive's own table).
PAYLOAD_IDS = {
    "roll_id": "table.roll",
    "character_id": "characters.character",
    "map_id": "maps.map",
    "token_id": "maps.token",
    "note_id": "maps.mapnote",
    "pending_id": "characters.pendingmove",
    "resolves": "characters.pendingmove",
    "result_id": "prep.tableresult",
    "table_id": "prep.randomtable",
    "owner_id": "user",
    "target_id": "user",
    "attacker_token": "maps.token",
    "target_token": "maps.token",
}


class Dump:
    def __init__(self, campaign_id: int, *, imported: bool = False) -> None:
        self.campaign_id = campaign_id
        self.imported = imported  # an imported campaign names a deleted row by a negative id
        self.order: dict[str, dict[int, int]] = {}
        self.rows: dict[str, list[models.Model]] = {}
        self.gone: dict[tuple[str, int], int] = {}
        for part in archive.PARTS:
            qs = part.model._default_manager.filter(**{part.path: campaign_id}).order_by(part.order)
            self.rows[part.label] = list(qs)
            self.order[part.label] = {obj.pk: i for i, obj in enumerate(self.rows[part.label])}

    def ref(self, label: str, value: Any) -> Any:
        if value is None or isinstance(value, bool):
            return value
        if label == "user":
            user = User.objects.filter(pk=value).first()
            assert user or not self.imported or value < 0
            return ("user", user.username) if user else ("user", "gone")
        if label == "pid":
            match = re.fullmatch(r"c(-?\d+)", value) if isinstance(value, str) else None
            if match:
                return ("pid", self.ref("characters.character", int(match.group(1))))
            return value
        position = self.order[label].get(value)
        if position is not None:
            return (label, position)
        # a row that no longer exists: the same thing gets the same stand-in on both sides
        assert not self.imported or value < 0, f"{label} {value} kept an id of another server"
        key = (label, value)
        self.gone.setdefault(key, len(self.gone))
        return (label, "gone", self.gone[key])

    def url(self, text: str) -> Any:
        parts = text.split("?")[0].strip("/").split("/")
        if parts[:1] == ["campaigns"] and len(parts) >= 4:
            assert int(parts[1]) == self.campaign_id, text
            if parts[2] == "journal":  # /campaigns/<c>/journal/<entry>/images/<image>/
                entry = self.ref("journal.entry", int(parts[3]))
                return ["campaign", entry, self.ref("journal.entryimage", int(parts[5]))]
            out = ["campaign", self.ref("maps.map", int(parts[3]))]
            if "tokens" in parts:
                out.append(self.ref("maps.token", int(parts[parts.index("tokens") + 1])))
            return out
        return text

    def payload(self, kind: str, value: Any, key: str | None = None, parent: str | None = None):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                nk = (
                    json.dumps(self.ref("pid", k), ensure_ascii=False)
                    if kind == "tablestate"
                    else k
                )
                out[nk] = self.value(kind, k, v, key)
            return out
        if isinstance(value, list):
            return [self.payload(kind, v, key, parent) for v in value]
        return value

    def value(self, kind: str, key: str, v: Any, parent: str | None) -> Any:
        if kind == "handout" and key == "entry":
            return self.ref("journal.entry", v)
        if key in PAYLOAD_IDS:
            return self.ref(PAYLOAD_IDS[key], v)
        if kind.startswith("map.") and key in ("gone", "notes_gone"):
            return [self.ref("maps.token" if key == "gone" else "maps.mapnote", i) for i in v]
        if key == "id":
            if kind.startswith("map.") and parent in ("token", "tokens"):
                return self.ref("maps.token", v)
            if kind.startswith("map.") and parent in ("note", "notes"):
                return self.ref("maps.mapnote", v)
            if kind == "map.saved" and parent is None:
                return self.ref("maps.map", v)
            if kind == "initiative" and parent == "entries":
                return self.ref("table.initiativeentry", v)
            if kind == "tablestate":
                return self.ref("pid", v)
        if key == "current" and kind == "initiative":
            return self.ref("table.initiativeentry", v)
        if key in ("url", "image") and isinstance(v, str):
            return self.url(v)
        if key == "commitment":
            return "<commitment: checked on its own>"
        if key == "preimage":
            data = json.loads(v)
            return {"roll": self.payload("roll", data["roll"]), "salt": data["salt"]}
        if kind == "tablestate" and key == "known":
            return [self.ref("pid", i) for i in v]
        return self.payload(kind, v, key, parent)

    def field(self, part, obj: models.Model, f: models.Field) -> Any:
        value = getattr(obj, f.attname)
        if f.is_relation:
            target = f.related_model._meta.label_lower
            if target == "accounts.user":
                return self.ref("user", value)
            if target == "campaigns.campaign":
                assert value == self.campaign_id
                return "campaign"
            return self.ref(target, value)
        if f.name in part.soft:
            return self.ref(part.soft[f.name], value)
        if f.name in part.media or isinstance(f, models.FileField):
            name = value.name if hasattr(value, "name") else value
            if not name:
                return None
            path = Path(settings.MEDIA_ROOT) / name
            return ("file", hashlib.sha256(path.read_bytes()).hexdigest())
        if isinstance(f, models.BinaryField):
            return bytes(value).hex()
        kind = part.json.get(f.name)
        if kind == archive.EVENT:
            return self.payload(obj.kind, value)
        if kind == archive.PIDS:
            return self.payload("tablestate", value)
        if isinstance(value, datetime):
            return value.isoformat()
        return (
            value
            if isinstance(value, bool | int | float | str | type(None) | dict | list)
            else str(value)
        )

    def canonical(self) -> dict[str, list[dict[str, Any]]]:
        out = {}
        for part in archive.PARTS:
            rows = []
            for obj in self.rows[part.label]:
                row = {}
                for f in part.model._meta.concrete_fields:
                    if f.primary_key and not f.is_relation:
                        continue
                    row[f.name] = self.field(part, obj, f)
                rows.append(row)
            out[part.label] = rows
        return out


def _expected(old: dict, exported_at: datetime) -> dict:
    """What import changes on purpose: the chain's hashes, hidden-roll commitments, and a
    running clock (paused with the time it had left)."""
    old = json.loads(json.dumps(old, default=str))
    for row in old["table.tableevent"]:
        row.pop("hash"), row.pop("prev_hash")
    for row in old["table.roll"]:
        row.pop("commitment")
    for row in old["table.eventcursor"]:
        row.pop("last_hash")
    for row in old["table.dungeonclock"]:
        if row["state"] == "running":
            row["state"] = "paused"
            left = datetime.fromisoformat(row["deadline"]) - exported_at
            row["remaining_seconds"] = round(max(0.0, left.total_seconds()), 3)
            row["deadline"] = None
    return old


def _actual(new: dict) -> dict:
    new = json.loads(json.dumps(new, default=str))
    for row in new["table.tableevent"]:
        row.pop("hash"), row.pop("prev_hash")
    for row in new["table.roll"]:
        row.pop("commitment")
    for row in new["table.eventcursor"]:
        row.pop("last_hash")
    for row in new["table.dungeonclock"]:
        if row["remaining_seconds"] is not None:
            row["remaining_seconds"] = round(row["remaining_seconds"], 3)
    return new


def _export(campaign: Campaign, path: Path) -> str:
    out = io.StringIO()
    call_command("export_campaign", campaign.pk, str(path), stdout=out)
    return out.getvalue()


def _import(path: Path, *extra: str) -> tuple[Campaign, str]:
    out = io.StringIO()
    before = set(Campaign.objects.values_list("pk", flat=True))
    call_command("import_campaign", str(path), *extra, stdout=out)
    (new_id,) = set(Campaign.objects.values_list("pk", flat=True)) - before
    return Campaign.objects.get(pk=new_id), out.getvalue()


@pytest.mark.parametrize("ruleset", ["crows", "savage_worlds"])
def test_round_trip_gives_an_identical_campaign_whose_chain_verifies(
    table, ruleset, tmp_path, api_for, client_for
):
    old = build_rich_campaign(table, ruleset)
    old_dump = Dump(old.pk).canonical()
    # the campaign really is rich: every part the test cares about has rows
    for label in (
        "characters.characterchange",
        "maps.token",
        "maps.mapnote",
        "prep.tableresult",
        "prep.roommonster",
        "table.initiativestate",
        "table.dungeonclock",
    ):
        assert old_dump[label], label
    if ruleset == "savage_worlds":
        assert old_dump["tablestate.tablestate"] and old_dump["characters.pendingmove"]
    path = tmp_path / "campaign.vttc"
    printed = _export(old, path)
    assert f"Exported campaign {old.pk}" in printed
    with zipfile.ZipFile(path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        assert manifest["format"] == "vtt-campaign" and manifest["version"] == 1
        assert manifest["app_version"] and manifest["counts"]["table.tableevent"] > 50
        for name, meta in manifest["members"].items():
            assert hashlib.sha256(zf.read(name)).hexdigest() == meta["sha256"]
        assert manifest["counts"]["media"] == 3  # background, token picture, journal image
        users = zf.read("data/accounts.user.jsonl").decode()
        assert "password" not in users and "pbkdf2" not in users and "md5$" not in users

    new, printed = _import(path)
    assert new.pk != old.pk and new.name == old.name
    assert "mapped to the existing account pc1" in printed
    assert "imported paused" in printed
    assert Campaign.objects.count() == 2

    exported_at = datetime.fromisoformat(manifest["exported_at"])
    assert _actual(Dump(new.pk, imported=True).canonical()) == _expected(old_dump, exported_at)

    # the images are fresh copies (deleting the old map's files cannot break the new one)
    old_map = old.maps.get(name="Склеп")
    new_map = new.maps.get(name="Склеп")
    assert new_map.background and new_map.background != old_map.background
    gm = client_for(table.referee)
    bg = gm.get(f"/campaigns/{new.pk}/maps/{new_map.pk}/background/")
    assert bg.status_code == 200
    served = b"".join(bg.streaming_content) if bg.streaming else bg.content
    assert served == (Path(settings.MEDIA_ROOT) / old_map.background).read_bytes()

    # the chain verifies on the imported campaign, through the API
    for campaign in (old, new):
        report = api_for(table.player).get(f"/api/campaigns/{campaign.pk}/events/verify/").json()
        assert report["ok"] is True and report["count"] == manifest["counts"]["table.tableevent"]
    assert TableEvent.objects.filter(campaign=new).last().hash != manifest["chain"]["head"]

    # hidden rolls: commitments verify, before and after a reveal made on the new campaign
    events = list(TableEvent.objects.filter(campaign=new).order_by("seq"))
    published = {
        e.payload["roll_id"]: e.payload["commitment"] for e in events if e.kind == "roll.hidden"
    }
    hidden = list(Roll.objects.filter(campaign=new).exclude(commitment=""))
    assert len(hidden) == 3 and set(published) == {r.pk for r in hidden}
    for roll in hidden:
        assert published[roll.pk] == roll.commitment
    reveals = [e for e in events if e.kind == "roll.reveal"]
    assert len(reveals) == 1
    pre = reveals[0].payload["preimage"]
    assert hashlib.sha256(pre.encode()).hexdigest() == published[reveals[0].payload["roll_id"]]
    assert json.loads(pre)["roll"]["roll_id"] == reveals[0].payload["roll_id"]
    unrevealed = next(r for r in hidden if r.revealed_at is None)
    table_services.roll_reveal(campaign=new, roll_id=unrevealed.pk)
    late = TableEvent.objects.filter(campaign=new, kind="roll.reveal").order_by("-seq").first()
    assert hashlib.sha256(late.payload["preimage"].encode()).hexdigest() == published[unrevealed.pk]
    report = api_for(table.referee).get(f"/api/campaigns/{new.pk}/events/verify/").json()
    assert report["ok"] is True

    # the new campaign is playable: a roll appends to the re-chained log
    table_services.roll_create(campaign=new, actor=table.player, notation="1d6")
    assert api_for(table.referee).get(f"/api/campaigns/{new.pk}/events/verify/").json()["ok"]
    page = api_for(table.player).get(f"/api/campaigns/{new.pk}/events/?limit=1000").json()
    assert page["events"] and all(e["visibility"] != "blind" for e in page["events"])


def test_old_initiative_and_tablestate_pairs_import_and_replay(table, tmp_path, api_for):
    """Logs from before issue 19 hold an ``everyone`` copy then a ``blind`` full copy, without
    ``audience``: they import with their ids remapped, verify, and replay to the referee as
    they were (the browser keeps the newest snapshot; ``log: false`` adds no line)."""
    c = table.campaign
    table_services.initiative_add(
        campaign=c, actor=table.referee, role="referee", name="Тайный", hidden=True
    )
    snapshot = table_services.initiative_snapshot
    old_pairs = [
        ("initiative", snapshot(c.pk, include_hidden=False), "everyone"),
        ("initiative", snapshot(c.pk, include_hidden=True), "blind"),
    ]
    change = {"ruleset": c.ruleset, "action": "adjust_pool", "version": 1, "data": {}}
    change.update(outcome=None, full=False, log=True, snapshot={"version": 1})
    old_pairs += [
        ("tablestate", change, "everyone"),
        ("tablestate", {**change, "full": True, "log": False}, "blind"),
    ]
    for kind, payload, visibility in old_pairs:
        table_services.publish(
            campaign=c, kind=kind, payload=payload, actor=table.referee, visibility=visibility
        )
    path = tmp_path / "old.vttc"
    _export(c, path)
    new, _printed = _import(path)
    assert api_for(table.referee).get(f"/api/campaigns/{new.pk}/events/verify/").json()["ok"]
    url = f"/api/campaigns/{new.pk}/events/?since=0&limit=1000"
    seen = api_for(table.referee).get(url).json()["events"]
    kinds = ("initiative", "tablestate")
    pairs = [(e["kind"], e["visibility"]) for e in seen if e["kind"] in kinds]
    assert pairs[-4:] == [
        ("initiative", "everyone"),
        ("initiative", "blind"),
        ("tablestate", "everyone"),
        ("tablestate", "blind"),
    ]
    entry = InitiativeEntry.objects.get(campaign=new)
    full = [e for e in seen if e["kind"] == "initiative"][-1]["payload"]
    assert [(x["name"], x["id"]) for x in full["entries"]] == [("Тайный", entry.pk)]
    assert [e["payload"]["log"] for e in seen if e["kind"] == "tablestate"] == [True, False]
    players = api_for(table.player).get(url).json()["events"]
    assert "Тайный" not in json.dumps(players, ensure_ascii=False)


def test_members_missing_here_become_inactive_placeholders(table, tmp_path):
    c = table.campaign
    table.other_player.public_name = "Борис"  # the display name travels with the placeholder
    table.other_player.save(update_fields=["public_name"])
    table_services.roll_create(campaign=c, actor=table.other_player, notation="1d6")
    path = tmp_path / "a.vttc"
    _export(c, path)

    def rename(members: dict[str, bytes]) -> None:
        users = members["data/accounts.user.jsonl"].decode().replace('"pc2"', '"newcomer"')
        members["data/accounts.user.jsonl"] = users.encode()

    bad = rewrite(path, tmp_path / "b.vttc", rename)
    new, printed = _import(bad, "--name", "Копия")
    assert new.name == "Копия"
    assert "user newcomer: no such account here; created an inactive placeholder" in printed
    placeholder = User.objects.get(username="newcomer")
    assert not placeholder.is_active and not placeholder.has_usable_password()
    assert placeholder.display_name == "Борис"
    assert Membership.objects.get(campaign=new, user=placeholder).role == "player"
    event = TableEvent.objects.get(campaign=new, kind="roll")
    assert event.actor == placeholder
    assert Membership.objects.get(campaign=new, role="referee").user == table.referee


# --- bad archives --------------------------------------------------------------------------------


def rewrite(src: Path, dst: Path, change, *, fix_checksums: bool = True) -> Path:
    """Copy an archive, let ``change`` edit its members, and (by default) re-sign the manifest
    so that only the deeper checks can catch the edit."""
    with zipfile.ZipFile(src) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    manifest = json.loads(members.pop("manifest.json"))
    change(members)
    if fix_checksums:
        manifest["members"] = {
            name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for name, data in members.items()
        }
    if "__manifest__" in members:
        manifest.update(json.loads(members.pop("__manifest__")))
        manifest["members"] = {
            name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for name, data in members.items()
        }
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr("manifest.json", json.dumps(manifest))
    return dst


def _edit_jsonl(members: dict[str, bytes], name: str, edit) -> None:
    rows = [json.loads(line) for line in members[name].decode().splitlines()]
    edit(rows)
    members[name] = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def _two_referees(members):
    def edit(rows):
        for row in rows:
            row["role"] = "referee"

    _edit_jsonl(members, "data/campaigns.membership.jsonl", edit)


def _two_active_maps(members):
    """Refused by the database after the map's background file was written."""

    def edit(rows):
        for row in rows:
            row["active"] = True

    _edit_jsonl(members, "data/maps.map.jsonl", edit)


def _tamper_event(members):
    def edit(rows):
        rows[0]["payload"]["text"] = "подменено"

    _edit_jsonl(members, "data/table.tableevent.jsonl", edit)


def _unknown_field(members):
    def edit(rows):
        rows[0]["favourite_colour"] = "red"

    _edit_jsonl(members, "data/characters.character.jsonl", edit)


def _bad_sheet(members):
    def edit(rows):
        rows[0]["state"] = {"stamina": "много"}

    _edit_jsonl(members, "data/characters.character.jsonl", edit)


def _set(member: str, **values):
    def change(members):
        def edit(rows):
            rows[0].update(values)

        _edit_jsonl(members, member, edit)

    return change


def _user_twice(members):
    def edit(rows):
        rows[-1] = rows[0]  # same count, one user named twice

    _edit_jsonl(members, "data/accounts.user.jsonl", edit)


BAD = {
    "role not a choice": (
        _set("data/campaigns.membership.jsonl", role="overlord"),
        "campaigns.membership.role: 'overlord' is not one of its choices",
    ),
    "name too long": (
        _set("data/campaigns.campaign.jsonl", name="x" * 500),
        "campaigns.campaign.name: longer than 120 characters",
    ),
    "bad rule settings": (
        _set("data/campaigns.campaign.jsonl", rules={"turn_minutes": "вечность"}),
        "rule settings are not valid",
    ),
    "a user twice": (_user_twice, "accounts.user: user 'gm' appears twice"),
    "wrong format": (
        lambda m: m.__setitem__("__manifest__", b'{"format": "something-else"}'),
        "not a VTT campaign archive",
    ),
    "newer version": (
        lambda m: m.__setitem__("__manifest__", b'{"version": 2}'),
        "archive version 2 is not supported",
    ),
    "path traversal": (
        lambda m: m.__setitem__("../../evil.txt", b"x"),
        "unsafe or unexpected member name",
    ),
    "media path traversal": (
        lambda m: m.__setitem__("media/../../../etc/cron.d/x", b"x"),
        "unsafe or unexpected member name",
    ),
    "unlisted member": (None, "members the manifest does not list"),
    "two referees": (_two_referees, "the database refused a row"),
    "two active maps": (_two_active_maps, "maps.map: the database refused a row"),
    "altered event": (_tamper_event, "the archived event log does not verify at #1"),
    "unknown field": (_unknown_field, "unknown fields favourite_colour"),
    "invalid sheet": (_bad_sheet, "the sheet is not valid"),
}


def _state(media: Path) -> tuple:
    files = sorted(str(p) for p in media.rglob("*") if p.is_file()) if media.exists() else []
    return (
        Campaign.objects.count(),
        User.objects.count(),
        Membership.objects.count(),
        Character.objects.count(),
        TableEvent.objects.count(),
        files,
    )


@pytest.fixture
def small_export(table, tmp_path) -> Path:
    """A campaign with a map image (so a failed import must remove the files it wrote)."""
    c = table.campaign
    c.ruleset = "crows"
    c.save(update_fields=["ruleset"])
    character_services.character_create(campaign=c, actor=table.player, role="player", name="Ава")
    m = map_services.map_create(campaign=c, actor=table.referee, name="Карта")
    map_services.background_set(map=m, actor=table.referee, upload=_upload(_png()))
    map_services.map_create(campaign=c, actor=table.referee, name="Вторая")
    table_services.chat_post(campaign=c, actor=table.player, text="Привет")
    path = tmp_path / "ok.vttc"
    _export(c, path)
    return path


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_archives_are_refused_and_change_nothing(case, small_export, tmp_path, settings):
    change, message = BAD[case]
    if change is None:  # a member added without re-signing the manifest
        bad = rewrite(
            small_export,
            tmp_path / "bad.vttc",
            lambda m: m.__setitem__("media/" + "0" * 64 + ".jpg", b"x"),
            fix_checksums=False,
        )
    else:
        bad = rewrite(small_export, tmp_path / "bad.vttc", change)
    before = _state(Path(settings.MEDIA_ROOT))
    with pytest.raises(CommandError) as caught:
        _import(bad)
    assert message in str(caught.value)
    assert "nothing was changed" in str(caught.value)
    assert _state(Path(settings.MEDIA_ROOT)) == before


def test_checksum_mismatch_and_garbage_are_refused(small_export, tmp_path, settings):
    def flip(members):
        name = next(n for n in members if n.startswith("data/campaigns.campaign"))
        members[name] = members[name].replace("Тестовая".encode(), "Тестовая!".encode())

    before = _state(Path(settings.MEDIA_ROOT))
    bad = rewrite(small_export, tmp_path / "bad.vttc", flip, fix_checksums=False)
    with pytest.raises(
        CommandError, match=r"checksum mismatch for data/campaigns\.campaign\.jsonl"
    ):
        _import(bad)
    garbage = tmp_path / "garbage.vttc"
    garbage.write_bytes(b"not a zip at all")
    with pytest.raises(CommandError, match="not a zip file"):
        _import(garbage)
    with pytest.raises(CommandError, match="is not a file"):
        _import(tmp_path / "nowhere.vttc")
    assert _state(Path(settings.MEDIA_ROOT)) == before


def test_oversized_members_are_refused_before_reading(small_export, settings):
    before = _state(Path(settings.MEDIA_ROOT))
    settings.ARCHIVE_MAX_MEDIA_BYTES = 100
    with pytest.raises(
        CommandError, match=r"media/[0-9a-f]{64}\.jpg is \d+ bytes; the limit is 100"
    ):
        _import(small_export)
    settings.ARCHIVE_MAX_MEDIA_BYTES = 10**9
    settings.ARCHIVE_MAX_TOTAL_BYTES = 1000
    with pytest.raises(CommandError, match="unpacks to more than 1000 bytes"):
        _import(small_export)
    assert _state(Path(settings.MEDIA_ROOT)) == before


def test_a_member_whose_header_lies_about_its_size_is_refused(small_export, tmp_path, settings):
    """Sizes come from the headers for the limits; a member that inflates past what its header
    says is cut off while reading (and fails its CRC), never trusted."""
    with zipfile.ZipFile(small_export) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    manifest = json.loads(members["manifest.json"])
    bomb = b"\0" * (4 * 1024 * 1024)
    name = "media/" + hashlib.sha256(bomb).hexdigest() + ".jpg"
    manifest["members"][name] = {"sha256": hashlib.sha256(bomb).hexdigest(), "size": len(bomb)}
    members["manifest.json"] = json.dumps(manifest).encode()
    members[name] = bomb
    bad = tmp_path / "bomb.vttc"
    with zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, data in members.items():
            zf.writestr(member, data)
    # make the header claim 10 bytes for the bomb member (its central directory entry)
    raw = bytearray(bad.read_bytes())
    with zipfile.ZipFile(bad) as zf:
        info = zf.getinfo(name)
    central = raw.rfind(name.encode())
    size_at = central - 46 + 24  # uncompressed size in the central directory header
    assert int.from_bytes(raw[size_at : size_at + 4], "little") == info.file_size
    raw[size_at : size_at + 4] = (10).to_bytes(4, "little")
    bad.write_bytes(bytes(raw))
    settings.ARCHIVE_MAX_MEDIA_BYTES = 1024 * 1024
    before = _state(Path(settings.MEDIA_ROOT))
    with pytest.raises(CommandError) as caught:
        _import(bad)
    assert "larger than the limit" in str(caught.value) or "cannot be read" in str(caught.value)
    assert _state(Path(settings.MEDIA_ROOT)) == before


def test_export_refuses_unknown_campaigns_existing_files_and_broken_chains(table, tmp_path):
    with pytest.raises(CommandError, match="there is no campaign with id 999999"):
        _export(Campaign(pk=999999), tmp_path / "x.vttc")
    existing = tmp_path / "exists.vttc"
    existing.write_bytes(b"keep me")
    with pytest.raises(CommandError, match="already exists"):
        _export(table.campaign, existing)
    assert existing.read_bytes() == b"keep me"
    table_services.chat_post(campaign=table.campaign, actor=table.player, text="раз")
    TableEvent.objects.filter(campaign=table.campaign).update(payload={"text": "два"})
    with pytest.raises(CommandError, match="does not verify"):
        _export(table.campaign, tmp_path / "broken.vttc")
    assert not (tmp_path / "broken.vttc").exists()
    assert not list(tmp_path.glob(".*.partial"))


def test_journal_entries_images_readers_and_handouts_round_trip(table, tmp_path):
    from vtt.journal import services as journal
    from vtt.journal.models import Entry, EntryImage

    gm = Membership.objects.select_related("campaign").get(
        campaign=table.campaign, user=table.referee
    )
    letter = journal.entry_create(
        gm, title="Письмо", body="**Ночью**", sharing="chosen", readers=[table.player.pk]
    )
    journal.image_add(gm, letter, _upload(_png((40, 30))), label="печать")
    journal.entry_show(gm, letter)
    path = tmp_path / "journal.zip"
    _export(table.campaign, path)
    new, _ = _import(path)

    copy = Entry.objects.get(campaign=new)
    assert copy.pk != letter.pk and copy.title == "Письмо" and copy.body == "**Ночью**"
    assert list(copy.readers.values_list("user_id", flat=True)) == [table.player.pk]
    image = EntryImage.objects.get(entry=copy)
    assert image.label == "печать" and image.name != letter.images.get().name
    assert (Path(settings.MEDIA_ROOT) / image.name).exists()
    handout = TableEvent.objects.get(campaign=new, kind="handout")
    assert handout.payload["entry"] == copy.pk
    assert handout.payload["images"] == [
        {"url": f"/campaigns/{new.pk}/journal/{copy.pk}/images/{image.pk}/"}
    ]
