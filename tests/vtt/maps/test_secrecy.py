"""The proof that players never receive what they may not see: hidden tokens, tokens and notes
under fog, secret notes, the party's true position, terrain under fog, the background under
fog. Every page, API response and socket frame a player or observer gets is searched for the
secrets' names (and checked structurally where a name would prove nothing)."""

from __future__ import annotations

import html
import io
import json

import pytest
from asgiref.sync import sync_to_async
from PIL import Image

from systems.core.grid import cell_at
from tests.sockets import connect
from tests.vtt.maps.conftest import (
    FOGGED_NOTE,
    FOGGED_TERRAIN_CELL,
    FOGGED_TOKEN,
    HIDDEN_TOKEN,
    PUBLIC_NOTE,
    SECRET_NOTE,
    SECRETS,
    VISIBLE_TOKEN,
    upload,
)
from vtt.campaigns.models import Role
from vtt.maps import images, services
from vtt.maps.fog import Fog
from vtt.table import services as table_services

WATCHERS = ("player", "other_player", "observer")


def forms(text: str) -> tuple[str, ...]:
    """The text as it may appear: raw, JSON-escaped (json_script escapes non-ASCII), HTML."""
    return (text, json.dumps(text)[1:-1], html.escape(text))


def assert_clean(text: str, where: str) -> None:
    for secret in SECRETS:
        for form in forms(secret):
            assert form not in text, f"{secret!r} leaked in {where}"


def shows(text: str, needle: str) -> bool:
    return any(form in text for form in forms(needle))


def player_urls(table, scene) -> list[str]:
    c, m = table.campaign.pk, scene.map.pk
    api = f"/api/campaigns/{c}/maps/{m}/"
    visible = [scene.pc_token, scene.other_token, scene.visible_token, scene.npc_token]
    return [
        f"/campaigns/{c}/table/",
        f"/campaigns/{c}/maps/panel/",
        f"/campaigns/{c}/maps/",
        f"/campaigns/{c}/maps/{m}/",
        f"/api/campaigns/{c}/maps/",
        api,
        f"{api}tokens/",
        f"{api}notes/",
        *[f"{api}tokens/{t.pk}/" for t in visible],
        f"/api/campaigns/{c}/events/?since=0&limit=1000",
    ]


def test_pages_and_api_never_carry_secrets(scene, table, client_for):
    services.party_set(map=scene.map, actor=table.referee, shown=[0, 0], true=[9, 9], reveal=None)
    for role in WATCHERS:
        client = client_for(table.user(role))
        for url in player_urls(table, scene):
            resp = client.get(url)
            assert resp.status_code in (200, 403), (role, url)
            assert_clean(resp.content.decode(), f"{role} GET {url}")
    # and the page does show what is visible (the check above is not vacuous)
    page = client_for(table.player).get(f"/campaigns/{table.campaign.pk}/table/").content.decode()
    assert shows(page, VISIBLE_TOKEN) and shows(page, PUBLIC_NOTE)
    referee_page = client_for(table.referee).get(f"/campaigns/{table.campaign.pk}/table/")
    for secret in (HIDDEN_TOKEN, FOGGED_TOKEN, SECRET_NOTE, FOGGED_NOTE):
        assert shows(referee_page.content.decode(), secret)


def test_player_state_is_filtered_structurally(scene, table, api_for):
    services.party_set(map=scene.map, actor=table.referee, shown=[0, 0], true=[9, 9], reveal=None)
    state = api_for(table.player).get(f"/api/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/")
    state = state.json()
    ids = {t["id"] for t in state["tokens"]}
    assert ids == {
        scene.pc_token.pk,
        scene.other_token.pk,
        scene.visible_token.pk,
        scene.npc_token.pk,
    }
    assert all(set(t) >= {"id", "name", "col", "row"} for t in state["tokens"])
    assert all("hidden" not in t for t in state["tokens"])
    npc_token = next(t for t in state["tokens"] if t["id"] == scene.npc_token.pk)
    assert "character_id" not in npc_token and "speed" not in npc_token  # a hidden NPC's link
    own = next(t for t in state["tokens"] if t["id"] == scene.pc_token.pk)
    assert own["owner_id"] == table.player.pk and own["speed"] == 6
    assert {n["text"] for n in state["notes"]} == {PUBLIC_NOTE}
    assert all("secret" not in n for n in state["notes"])
    assert state["terrain"] == {"0,9": "forest"} and FOGGED_TERRAIN_CELL not in state["terrain"]
    assert state["party"] == {"shown": [0, 0]}
    assert state["fog"]["runs"] == [[r * 10, 5] for r in range(10)]
    referee = api_for(table.referee).get(f"/api/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/")
    assert referee.json()["party"] == {"shown": [0, 0], "true": [9, 9]}
    assert len(referee.json()["tokens"]) == 6


# --- the background under fog -------------------------------------------------------------------


def striped_background(size=(400, 400)) -> bytes:
    """Pure red where the fog is, green where it is not: any red pixel in a player's copy is a
    leak. (The scene's map is 10 × 10 cells of 50 px, revealed in columns 0–4.)"""
    image = Image.new("RGB", size, (230, 20, 20))
    image.paste((20, 200, 20), (0, 0, size[0] // 2, size[1]))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def is_red(pixel) -> bool:
    r, g, b = pixel[:3]
    return r > 120 and g < 90 and b < 90


def fetch_image(client, url) -> Image.Image:
    resp = client.get(url)
    assert resp.status_code == 200, url
    assert resp["Cache-Control"].startswith("private")
    data = b"".join(resp.streaming_content)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_players_background_is_masked_under_the_fog(scene, table, client_for):
    m = services.background_set(
        map=scene.map, actor=table.referee, upload=upload(striped_background())
    )
    url = f"/campaigns/{table.campaign.pk}/maps/{m.pk}/background/"
    full = fetch_image(client_for(table.referee), url)
    assert is_red(full.getpixel((350, 200)))  # the referee sees everything
    for role in WATCHERS:
        state = client_for(table.user(role)).get(f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/")
        seen = fetch_image(client_for(table.user(role)), state.json()["background"]["url"])
        assert seen.size == full.size
        assert not any(is_red(p) for p in seen.get_flattened_data()), role
        assert seen.getpixel((100, 200))[1] > 150  # the revealed half is there
    cached = images.media_path(images.masked_name(m))
    assert cached.exists()
    # revealing one more column changes the masked copy (a new fog version, a new file)
    services.fog_change(map=m, actor=table.referee, reveal=True, rect=[5, 0, 5, 9])
    m.refresh_from_db()
    seen = fetch_image(client_for(table.player), url)
    red = [seen.getpixel((x, 200)) for x in range(200, 400)]
    assert any(is_red(p) for p in red[10:40])  # column 5 (x 200–240) is now visible
    assert not any(is_red(p) for p in red[45:])  # columns 6–9 still are not
    assert not cached.exists() and images.media_path(images.masked_name(m)).exists()


def test_a_background_url_only_ever_holds_the_image_it_names(scene, table, client_for):
    """A browser keeps the image for a day under its URL, so a URL naming a fog version the
    referee has since changed must not be answered with the current image: it is redirected."""
    m = services.background_set(
        map=scene.map, actor=table.referee, upload=upload(striped_background())
    )
    player = client_for(table.player)
    state_url = f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/"
    old = player.get(state_url).json()["background"]["url"]
    assert old.endswith(f"?v={m.bg_version}-{m.fog_version}")
    resp = player.get(old)
    assert resp.status_code == 200 and resp["Cache-Control"] == "private, max-age=86400"
    services.fog_change(map=m, actor=table.referee, reveal=True, rect=[5, 0, 5, 9])
    new = player.get(state_url).json()["background"]["url"]
    assert new != old
    resp = player.get(old)
    assert resp.status_code == 302 and resp["Location"] == new
    assert resp["Cache-Control"] == "no-store"
    seen = fetch_image(player, new)
    assert any(is_red(seen.getpixel((x, 200))) for x in range(210, 240))  # column 5 is in view
    # with no version the image is served, but the browser must ask again next time
    resp = player.get(new.split("?")[0])
    assert resp.status_code == 200 and resp["Cache-Control"] == "private, no-cache"
    # the referee's URL follows the upload's version the same way
    referee = client_for(table.referee)
    ref_url = referee.get(state_url).json()["background"]["url"]
    assert referee.get(ref_url).status_code == 200
    m = services.background_set(map=m, actor=table.referee, upload=upload(striped_background()))
    resp = referee.get(ref_url)
    assert resp.status_code == 302 and resp["Location"].endswith(f"?v={m.bg_version}")
    # an outsider learns nothing from a redirect
    assert client_for(table.outsider).get(old).status_code == 404


def test_nothing_revealed_means_no_background_at_all(table, client_for):
    m = services.map_create(campaign=table.campaign, actor=table.referee, name="Тьма")
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=m.pk)
    m = services.background_set(map=m, actor=table.referee, upload=upload(striped_background()))
    url = f"/campaigns/{table.campaign.pk}/maps/{m.pk}/background/"
    assert client_for(table.player).get(url).status_code == 404
    state = client_for(table.player).get(f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/")
    assert state.json()["background"] is None


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_background_is_masked_cell_by_cell(table, client_for, orientation):
    m = services.map_create(
        campaign=table.campaign,
        actor=table.referee,
        name="Гексы",
        kind="hex",
        orientation=orientation,
        width=6,
        height=5,
        cell_px=40,
    )
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=m.pk)
    services.party_set(map=m, actor=table.referee, shown=[2, 2], reveal=1)
    image = Image.new("RGB", (300, 250), (230, 20, 20))
    out = io.BytesIO()
    image.save(out, "PNG")
    m = services.background_set(map=m, actor=table.referee, upload=upload(out.getvalue()))
    seen = fetch_image(
        client_for(table.player), f"/campaigns/{table.campaign.pk}/maps/{m.pk}/background/"
    )
    fog = Fog.for_map(m)
    map_w, map_h = (float(v) for v in (m.bg_width, m.bg_height))
    from systems.core.grid import pixel_size

    px_w, px_h = pixel_size("hex", orientation, m.cell_px, m.width, m.height)
    reds_in_light = 0
    for y in range(0, seen.height, 3):
        for x in range(0, seen.width, 3):
            col, row = cell_at(
                x * px_w / map_w,
                y * px_h / map_h,
                kind="hex",
                cell=m.cell_px,
                orientation=orientation,
            )
            if is_red(seen.getpixel((x, y))):
                assert fog.is_revealed(col, row), (x, y, col, row)
                reds_in_light += 1
    assert reds_in_light > 50  # the seven seen hexes show the background


# --- socket frames -----------------------------------------------------------------------------


async def hello(comm) -> dict:
    """Say hello and return the replay frame (presence frames may come first)."""
    await comm.send_json_to({"type": "hello", "last_seq": 0})
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "replay":
            return frame


async def frames_until(comm, marker: str) -> list[dict]:
    """Every frame up to the public chat event carrying ``marker``. The socket forwards the
    log in order, so anything published before the marker has arrived (or was held back)
    by then: no waiting for a quiet spell."""
    frames = []
    while True:
        frame = await comm.receive_json_from(timeout=5)
        frames.append(frame)
        event = frame.get("event") or {}
        if marker in json.dumps(event.get("payload", {}), ensure_ascii=False):
            return frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_socket_frames_never_carry_secrets(scene, table):
    socks = {role: await connect(getattr(table, role), table.campaign.pk) for role in WATCHERS}
    socks["referee"] = await connect(table.referee, table.campaign.pk)
    frames = {role: [] for role in socks}
    for role, comm in socks.items():
        replay = await hello(comm)  # replays everything the scene fixture published
        frames[role].append(replay)

    ref, m = table.referee, scene.map
    call = sync_to_async

    await call(services.token_create)(map=m, actor=ref, name=HIDDEN_TOKEN + "-2", hidden=True)
    await call(services.token_move)(
        map=m, actor=ref, role=Role.REFEREE, token_id=scene.hidden_token.pk, col=0, row=8
    )
    await call(services.token_move)(
        map=m, actor=ref, role=Role.REFEREE, token_id=scene.fogged_token.pk, col=9, row=2
    )
    await call(services.token_update)(
        map=m, actor=ref, token_id=scene.fogged_token.pk, name=FOGGED_TOKEN + "-renamed"
    )
    await call(services.token_move)(  # the guard walks into the dark: gone for players
        map=m, actor=ref, role=Role.REFEREE, token_id=scene.visible_token.pk, col=6, row=6
    )
    await call(services.note_create)(map=m, actor=ref, col=0, row=1, text=SECRET_NOTE + "-2")
    await call(services.note_create)(
        map=m, actor=ref, col=9, row=9, text=FOGGED_NOTE + "-2", secret=False
    )
    await call(services.terrain_paint)(map=m, actor=ref, terrain="water", cells=[[8, 0]])
    await call(services.fog_change)(map=m, actor=ref, reveal=True, rect=[5, 4, 5, 5])
    await call(services.fog_change)(map=m, actor=ref, reveal=False, rect=[4, 9, 4, 9])
    await call(services.party_set)(map=m, actor=ref, true=[9, 0], reveal=None)
    await call(services.token_move)(
        map=m, actor=table.player, role=Role.PLAYER, token_id=scene.pc_token.pk, col=2, row=2
    )
    await call(services.movement_reset)(map=m, actor=ref)
    marker = "конец-сцены"
    await call(table_services.chat_post)(campaign=table.campaign, actor=ref, text=marker)

    for role, comm in socks.items():
        frames[role].extend(await frames_until(comm, marker))
    # a browser reconnecting from scratch gets the whole history replayed
    for role in WATCHERS:
        late = await connect(table.user(role), table.campaign.pk)
        frames[role].append(await hello(late))
        await late.disconnect()

    for role in WATCHERS:
        text = json.dumps(frames[role], ensure_ascii=False)
        assert_clean(text, f"{role}'s socket")
        assert '"audience": "referee"' not in text and '"true": [9, 0]' not in text
        events = [
            e
            for f in frames[role]
            for e in (f.get("events") or ([f["event"]] if "event" in f else []))
        ]
        kinds = [e["kind"] for e in events]
        assert "map.token" in kinds and "map.fog" in kinds  # they did get the public story
        gone = [e for e in events if e["kind"] == "map.token.gone"]
        assert {"map_id": m.pk, "token_id": scene.visible_token.pk, "audience": "players"} in [
            g["payload"] for g in gone
        ]
        for e in events:
            if e["kind"] == "map.token" and e["payload"]["token"]["id"] == scene.visible_token.pk:
                assert (e["payload"]["token"]["col"], e["payload"]["token"]["row"]) != (6, 6)
            if e["kind"] == "map.terrain":
                assert "8,0" not in e["payload"]["cells"]
    referee_text = json.dumps(frames["referee"], ensure_ascii=False)
    for secret in (HIDDEN_TOKEN, FOGGED_TOKEN, SECRET_NOTE, FOGGED_NOTE):
        assert shows(referee_text, secret)
    for comm in socks.values():
        await comm.disconnect()
