"""Upload validation: PNG, JPEG and WebP up to 20 MB and 100 megapixels, verified, re-encoded;
anything else (a wrong type, a damaged file, a decompression bomb, too many bytes) is a clear
400 or 413 and nothing is saved."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from tests.vtt.maps.conftest import png_bytes, upload
from vtt.core.errors import Invalid
from vtt.maps import images, services


def png_header(width: int, height: int) -> bytes:
    """A tiny PNG that *declares* width × height (a decompression bomb: Pillow reads the size
    from IHDR before any pixel is decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit greyscale
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def encode(fmt: str, size=(120, 80), mode="RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (10, 120, 200) if mode == "RGB" else (10, 120, 200, 128)).save(out, fmt)
    return out.getvalue()


def put(api_for, table, scene, data: bytes, name="x.png", content_type="image/png"):
    url = f"/api/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/background/"
    return api_for(table.referee).put(
        url, {"image": upload(data, name, content_type)}, format="multipart"
    )


def stored_files(media_root) -> list[Path]:
    folder = Path(media_root) / "maps"
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


@pytest.mark.parametrize(
    ("fmt", "mode"), [("PNG", "RGB"), ("PNG", "RGBA"), ("JPEG", "RGB"), ("WEBP", "RGB")]
)
def test_accepted_formats_are_re_encoded(scene, table, api_for, _media, fmt, mode):
    data = encode(fmt, mode=mode)
    resp = put(api_for, table, scene, data)
    assert resp.status_code == 200, resp.content[:300]
    scene.map.refresh_from_db()
    stored = images.media_path(scene.map.background).read_bytes()
    assert stored != data  # our re-encoding, never the bytes sent
    if mode == "RGBA":  # transparency is kept in WebP
        assert stored[:4] == b"RIFF" and stored[8:12] == b"WEBP"
    else:
        assert stored[:3] == b"\xff\xd8\xff"  # JPEG
    with Image.open(io.BytesIO(stored)) as image:
        assert image.size == (120, 80)
    assert resp.json()["background"]["url"].endswith(f"?v={scene.map.bg_version}")


def test_large_images_are_scaled_down_for_display(table, scene):
    m = services.background_set(
        map=scene.map, actor=table.referee, upload=upload(png_bytes((5000, 1000)))
    )
    assert (m.bg_width, m.bg_height) == (4096, 819)


@pytest.mark.parametrize(
    ("data", "name", "content_type"),
    [
        (encode("GIF"), "x.gif", "image/gif"),
        (encode("BMP"), "x.bmp", "image/bmp"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "x.svg", "image/svg+xml"),
        (b"just text, not an image", "x.png", "image/png"),
        (b"%PDF-1.4\n", "x.pdf", "application/pdf"),
    ],
)
def test_wrong_types_are_400(scene, table, api_for, _media, data, name, content_type):
    resp = put(api_for, table, scene, data, name, content_type)
    assert resp.status_code == 400
    assert resp.json()["code"] == "bad_image_type"
    assert resp.json()["detail"] == "Загрузите изображение PNG, JPEG или WebP."
    scene.map.refresh_from_db()
    assert not scene.map.background and stored_files(_media) == []


def test_damaged_png_is_400(scene, table, api_for, _media):
    data = png_bytes((300, 300))
    resp = put(api_for, table, scene, data[: len(data) // 2])
    assert resp.status_code == 400 and resp.json()["code"] == "bad_image"
    assert stored_files(_media) == []


@pytest.mark.parametrize(
    "size",
    [
        (20_000, 20_000),  # 400 MP: past twice the limit, Pillow's DecompressionBombError
        (11_000, 10_000),  # 110 MP: past the limit, Pillow's DecompressionBombWarning
    ],
)
def test_decompression_bomb_is_413(scene, table, api_for, _media, size):
    bomb = png_header(*size)
    assert len(bomb) < 200
    resp = put(api_for, table, scene, bomb)
    assert resp.status_code == 413
    assert resp.json()["code"] == "too_many_pixels"
    assert "100" in resp.json()["detail"]
    scene.map.refresh_from_db()
    assert not scene.map.background and stored_files(_media) == []


def test_pixel_limit_is_a_setting(scene, table, api_for, settings):
    settings.MAP_UPLOAD_MAX_PIXELS = 5_000
    assert put(api_for, table, scene, png_bytes((100, 100))).status_code == 413
    assert put(api_for, table, scene, png_bytes((50, 50))).status_code == 200


def test_too_many_bytes_is_413(scene, table, api_for, settings, _media):
    settings.MAP_UPLOAD_MAX_BYTES = 2_000
    noisy = Image.effect_noise((120, 120), 80).convert("RGB")
    out = io.BytesIO()
    noisy.save(out, "PNG")
    data = out.getvalue()
    assert 2_000 < len(data) < 2_000 + 64 * 1024  # passes the Content-Length guard
    resp = put(api_for, table, scene, data)
    assert resp.status_code == 413 and resp.json()["code"] == "file_too_large"
    big = data * 4 + b"\x00" * (70 * 1024)  # refused from Content-Length, before parsing
    resp = put(api_for, table, scene, big)
    assert resp.status_code == 413
    assert stored_files(_media) == []


def test_service_refuses_without_a_file(scene, table):
    with pytest.raises(Invalid) as exc:
        services.background_set(map=scene.map, actor=table.referee, upload=None)
    assert exc.value.code == "no_image"


def test_upload_settings_are_consistent(settings):
    assert settings.MAP_UPLOAD_MAX_BYTES == 20 * 1024 * 1024
    assert settings.MAP_UPLOAD_MAX_PIXELS == 100_000_000
    # form fields stay small; files stream to disk past this size instead of memory
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= settings.MAP_UPLOAD_MAX_BYTES
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= settings.MAP_UPLOAD_MAX_BYTES


def test_token_image_upload_and_access(scene, table, api_for, client_for):
    url = f"/api/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/tokens/"
    for token in (scene.visible_token, scene.hidden_token, scene.fogged_token):
        resp = api_for(table.referee).put(
            f"{url}{token.pk}/image/", {"image": upload(png_bytes((600, 600)))}, format="multipart"
        )
        assert resp.status_code == 200
        assert resp.json()["image"]
    bad = api_for(table.referee).put(
        f"{url}{scene.visible_token.pk}/image/",
        {"image": upload(b"GIF89a....", "x.gif", "image/gif")},
        format="multipart",
    )
    assert bad.status_code == 400
    page = f"/campaigns/{table.campaign.pk}/maps/{scene.map.pk}/tokens/"
    visible = client_for(table.player).get(f"{page}{scene.visible_token.pk}/image/")
    assert visible.status_code == 200 and visible["Content-Type"] == "image/jpeg"
    with Image.open(io.BytesIO(b"".join(visible.streaming_content))) as image:
        assert image.size == (256, 256)
    for secret in (scene.hidden_token, scene.fogged_token):
        assert client_for(table.player).get(f"{page}{secret.pk}/image/").status_code == 404
        assert client_for(table.referee).get(f"{page}{secret.pk}/image/").status_code == 200
