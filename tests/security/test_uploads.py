"""Uploads: bombs refused without exhausting memory (peak RSS measured in a fresh process),
wrong types and oversized files refused with a clear message through every upload door, and
nothing saved. tests/vtt/maps/test_uploads.py covers the map background's formats, damaged
files, header-only bombs and the byte limit; this adds the memory figures, the bomb that is
inside the pixel limit, token images and the import files."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tests.security.conftest import World
from vtt.characters.models import Character
from vtt.maps.models import Map, Token
from vtt.prep.models import RandomTable

ROOT = Path(__file__).resolve().parents[2]


def png(width: int, height: int, *, real_pixels: bool) -> bytes:
    """A greyscale PNG of ``width`` × ``height``: with every row really encoded (all zeros,
    which deflate squeezes ~1000:1), or only a header that claims the size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    if real_pixels:
        packer = zlib.compressobj(9)
        row = b"\x00" * (width + 1)
        idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    else:
        idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# --- memory: a fresh process, its peak RSS reset before each case --------------------------------

MEASURE = textwrap.dedent(
    """
    import io, json, os, sys
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    import django
    django.setup()
    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image
    from vtt.core.errors import ServiceError
    from vtt.maps import images

    def status_kb(field):
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])

    warm = io.BytesIO()
    Image.new("RGB", (64, 64)).save(warm, "PNG")  # load the codecs before measuring
    images.clean_image(SimpleUploadedFile("w.png", warm.getvalue()), max_side=4096)
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # reset the peak (VmHWM) to the current RSS
        before = status_kb("VmRSS")
        try:
            kept = images.clean_image(SimpleUploadedFile("x.png", data), max_side=4096)
            answer = {"status": 200, "size": [kept.width, kept.height]}
        except ServiceError as exc:
            answer = {"status": exc.status, "code": exc.code}
        answer["grew_mb"] = round((status_kb("VmHWM") - before) / 1024, 1)
        print(json.dumps(answer))
    """
)

BOMBS = {
    "header-4GP": (png(65_535, 65_535, real_pixels=False), "too_many_pixels"),  # 69 bytes
    "header-400MP": (png(20_000, 20_000, real_pixels=False), "too_many_pixels"),
    "real-100MP": (png(9_999, 9_999, real_pixels=True), "decompression_bomb"),  # 97 KB
    "real-36MP": (png(6_000, 6_000, real_pixels=True), "decompression_bomb"),
}
CONTROL = png(4_000, 4_000, real_pixels=True)  # 16 MP: accepted, really decoded


@pytest.fixture(scope="module")
def memory_figures(tmp_path_factory) -> dict[str, dict]:
    """Run ``images.clean_image`` (what every upload view calls) on each sample in one fresh
    process; for each, its answer and how far the peak RSS rose above the RSS before it."""
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("needs Linux /proc to reset the peak RSS")
    folder = tmp_path_factory.mktemp("uploads")
    samples = {**{k: v[0] for k, v in BOMBS.items()}, "control": CONTROL}
    paths = []
    for name, data in samples.items():
        (folder / name).write_bytes(data)
        paths.append(str(folder / name))
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    answers = [json.loads(line) for line in result.stdout.strip().splitlines()[-len(paths) :]]
    return dict(zip(samples, answers, strict=True))


@pytest.mark.parametrize("case", sorted(BOMBS))
def test_bombs_are_refused_without_touching_memory(memory_figures, case):
    data, code = BOMBS[case]
    assert len(data) < 200_000
    answer = memory_figures[case]
    assert answer["status"] == 413 and answer["code"] == code, answer
    # The 100 MP one used to be decoded: 0.7 GB of peak RSS and five seconds of CPU.
    assert answer["grew_mb"] < 30, answer


def test_the_measurement_sees_a_real_decode(memory_figures):
    """Control: an accepted 4000 × 4000 image does raise the peak, so the figures above mean
    something."""
    answer = memory_figures["control"]
    assert answer["status"] == 200 and answer["size"] == [4000, 4000]
    assert answer["grew_mb"] > 30, answer


# --- through the API: background, token image, import files -------------------------------------


@pytest.fixture
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _stored(media: Path) -> list[Path]:
    return [p for p in media.rglob("*") if p.is_file()] if media.exists() else []


def _image(fmt: str, **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(out, fmt, **save)
    return out.getvalue()


def _first(world: World, model, campaign_key: str = "dungeon_world"):
    campaign = world.campaigns[campaign_key]
    if model is Map:
        return Map.objects.filter(campaign=campaign).first()
    return Token.objects.filter(map__campaign=campaign, hidden=False).first()


@pytest.mark.parametrize(
    ("name", "data", "status", "code"),
    [
        ("bomb.png", png(9_999, 9_999, real_pixels=True), 413, "decompression_bomb"),
        ("bomb.png", png(30_000, 30_000, real_pixels=False), 413, "too_many_pixels"),
        ("x.tiff", _image("TIFF"), 400, "bad_image_type"),
        ("x.ico", _image("ICO"), 400, "bad_image_type"),
        ("x.png", b"GIF89a" + b"\x00" * 100, 400, "bad_image_type"),
        ("x.png", b"", 400, None),
    ],
)
@pytest.mark.parametrize("target", ["background", "token"])
def test_bad_images_are_refused_everywhere(
    world: World, db, media, target, name, data, status, code
):
    game_map = _first(world, Map)
    token = _first(world, Token)
    base = f"/api/campaigns/{game_map.campaign_id}/maps/{game_map.pk}/"
    url = f"{base}background/" if target == "background" else f"{base}tokens/{token.pk}/image/"
    upload = SimpleUploadedFile(name, data, content_type="image/png")
    response = world.client("referee").put(url, {"image": upload}, format="multipart")
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert body["detail"], body
    if code:
        assert body["code"] == code
    game_map.refresh_from_db()
    token.refresh_from_db()
    assert not game_map.background and not token.image
    assert _stored(media) == []


def test_oversized_import_files_are_refused_before_parsing(world: World, db):
    dw = world.campaigns["dungeon_world"]
    referee = world.client("referee")
    tables = RandomTable.objects.filter(campaign=dw).count()
    big = SimpleUploadedFile("t.json", b"[" + b" " * 1_100_000 + b"]")
    response = referee.post(f"/api/campaigns/{dw.pk}/prep/tables/import/", {"file": big})
    assert response.status_code == 400
    assert response.json()["code"] == "import_too_large" and response.json()["detail"]
    assert RandomTable.objects.filter(campaign=dw).count() == tables

    from django.test import Client

    page = Client(HTTP_HOST="localhost")
    page.force_login(world.users["player"])
    sheets = Character.objects.filter(campaign=dw).count()
    big = SimpleUploadedFile("c.json", b"{" + b" " * 600_000 + b"}")
    response = page.post(f"/campaigns/{dw.pk}/characters/import/", {"file": big})
    assert response.status_code in (200, 400, 413)
    assert "512" in response.content.decode()  # the limit is named in the message
    assert Character.objects.filter(campaign=dw).count() == sheets


def test_an_oversized_json_body_is_refused(world: World, db):
    """A JSON body past DATA_UPLOAD_MAX_MEMORY_SIZE (2 MB) is refused before it is parsed."""
    dw = world.campaigns["dungeon_world"]
    body = json.dumps({"notation": "1d6", "label": "x" * 3_000_000})
    response = world.client("player").post(
        f"/api/campaigns/{dw.pk}/rolls/", body, content_type="application/json"
    )
    assert response.status_code in (400, 413), response.status_code
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]
