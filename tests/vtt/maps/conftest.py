"""Map fixtures: images under a temporary MEDIA_ROOT, characters, and a prepared battle map
whose secrets are named so a test can search every byte a player receives for them."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from PIL import Image

from vtt.characters.models import Character
from vtt.maps import services
from vtt.maps.models import Map, MapNote, Token

# Secrets: none of these strings may ever reach a player or observer.
HIDDEN_TOKEN = "Засадный-Огр-7f3a"
FOGGED_TOKEN = "Гоблин-в-тумане-91c2"
SECRET_NOTE = "Сокровище-под-алтарём-5d1e"
FOGGED_NOTE = "Надпись-в-темноте-22b7"
HIDDEN_NPC = "Тайный-Некромант-0c4d"
FOGGED_TERRAIN_CELL = "7,7"
SECRETS = (HIDDEN_TOKEN, FOGGED_TOKEN, SECRET_NOTE, FOGGED_NOTE, HIDDEN_NPC)
# Visible things a player must see.
VISIBLE_TOKEN = "Видимый-Страж"
PUBLIC_NOTE = "Дверь заперта"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def png_bytes(size=(200, 100), color=(200, 30, 30), fmt="PNG", mode="RGB") -> bytes:
    image = Image.new(mode, size, color)
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def upload(data: bytes, name: str = "map.png", content_type: str = "image/png"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type=content_type)


@dataclass
class Scene:
    map: Map
    pc: Character
    other_pc: Character
    npc: Character
    hidden_npc: Character
    pc_token: Token
    other_token: Token
    visible_token: Token
    hidden_token: Token
    fogged_token: Token
    npc_token: Token
    secret_note: MapNote
    fogged_note: MapNote
    public_note: MapNote


@pytest.fixture
def characters(table):
    def make(name, owner=None, kind="pc", hidden=False):
        return Character.objects.create(
            campaign=table.campaign,
            owner=owner,
            kind=kind,
            ruleset=table.campaign.ruleset,
            name=name,
            hidden=hidden,
        )

    return make


@pytest.fixture
def scene(table, characters) -> Scene:
    """A 10 × 10 square map on the table, fogged except columns 0–4 (the west half).

    West (revealed): the player's token, the other player's token, a visible guard, the NPC's
    token, a public note. Hidden: an ogre (hidden, in the light), a goblin in the fog, a secret
    note in the light, a public note in the fog, terrain in the fog, the hidden NPC's token."""
    ref = table.referee
    m = services.map_create(campaign=table.campaign, actor=ref, name="Склеп", width=10, height=10)
    services.map_activate(campaign=table.campaign, actor=ref, map_id=m.pk)
    services.fog_change(map=m, actor=ref, reveal=True, rect=[0, 0, 4, 9])
    pc = characters("Ава", owner=table.player)
    other_pc = characters("Бран", owner=table.other_player)
    npc = characters("Трактирщик", kind="npc")
    hidden_npc = characters(HIDDEN_NPC, kind="npc", hidden=True)

    def token(name, col, row, **kw):
        return services.token_create(map=m, actor=ref, name=name, col=col, row=row, **kw)

    scene = Scene(
        map=m,
        pc=pc,
        other_pc=other_pc,
        npc=npc,
        hidden_npc=hidden_npc,
        pc_token=token("Ава", 1, 1, character_id=pc.pk, speed=6),
        other_token=token("Бран", 2, 1, character_id=other_pc.pk, speed=5),
        visible_token=token(VISIBLE_TOKEN, 3, 3),
        hidden_token=token(HIDDEN_TOKEN, 2, 5, hidden=True),
        fogged_token=token(FOGGED_TOKEN, 8, 8, speed=4),
        npc_token=token("Скрытая фигура", 4, 4, character_id=hidden_npc.pk, hidden=False),
        secret_note=services.note_create(map=m, actor=ref, col=1, row=2, text=SECRET_NOTE),
        fogged_note=services.note_create(
            map=m, actor=ref, col=8, row=2, text=FOGGED_NOTE, secret=False
        ),
        public_note=services.note_create(
            map=m, actor=ref, col=0, row=0, text=PUBLIC_NOTE, secret=False
        ),
    )
    services.terrain_paint(map=m, actor=ref, terrain="swamp", cells=[[7, 7]])
    services.terrain_paint(map=m, actor=ref, terrain="forest", cells=[[0, 9]])
    m.refresh_from_db()
    scene.map = m
    return scene
