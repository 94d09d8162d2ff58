"""Uploaded images (map backgrounds, token pictures) and the players' masked background.

An upload is accepted only if Pillow identifies it as PNG, JPEG or WebP, it is at most
``MAP_UPLOAD_MAX_BYTES`` and ``MAP_UPLOAD_MAX_PIXELS``, ``verify()`` passes, and reopening and
decoding it succeeds; the file kept is our own re-encoding (JPEG, or WebP with transparency),
never the bytes sent. A
decompression bomb (Pillow's warning or error) is refused as too large.

Files live under ``MEDIA_ROOT/maps/`` and are never served from a public URL: the views in
``vtt/maps/views.py`` authorise every read. Players get the background through
``masked_background``: the fogged cells painted over server-side, cached per fog version.
"""

from __future__ import annotations

import io
import os
import secrets
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageOps, UnidentifiedImageError

from systems.core.grid import cell_polygon, pixel_size
from vtt.core.errors import Invalid, ServiceError
from vtt.maps.fog import Fog

ALLOWED_FORMATS = frozenset({"PNG", "JPEG", "WEBP"})
BACKGROUND_MAX_SIDE = 4096  # the copy we keep and mask; enough for 200 cells of 20 px
TOKEN_MAX_SIDE = 256
FOG_RGB = (20, 18, 16)
WEBP_QUALITY = 86
JPEG_QUALITY = 88


def max_bytes() -> int:
    return int(settings.MAP_UPLOAD_MAX_BYTES)


def max_pixels() -> int:
    return int(settings.MAP_UPLOAD_MAX_PIXELS)


class TooLarge(ServiceError):
    status = 413
    code = "too_large"


def too_large_bytes() -> TooLarge:
    return TooLarge(
        _("The image is larger than %(mb)d MB.") % {"mb": max_bytes() // (1024 * 1024)},
        code="file_too_large",
        fields={"image": [_("At most %(mb)d MB.") % {"mb": max_bytes() // (1024 * 1024)}]},
    )


def _too_many_pixels() -> TooLarge:
    mp = max_pixels() // 1_000_000
    return TooLarge(
        _("The image has more than %(mp)d megapixels.") % {"mp": mp},
        code="too_many_pixels",
        fields={"image": [_("At most %(mp)d megapixels.") % {"mp": mp}]},
    )


def _wrong_type() -> Invalid:
    return Invalid(
        _("Upload a PNG, JPEG or WebP image."),
        code="bad_image_type",
        fields={"image": [_("PNG, JPEG or WebP.")]},
    )


def _damaged() -> Invalid:
    return Invalid(
        _("The image could not be read: the file is damaged or incomplete."),
        code="bad_image",
        fields={"image": [_("A damaged or incomplete image.")]},
    )


# A PNG or WebP of flat colour unpacks to ~1000 times its size: a 97 KB PNG of 10000 × 10000
# (inside the pixel limit) made the server decode 100 megapixels, 0.7 GB of memory and five
# seconds of CPU. Past what a background keeps anyway (4096²), a file may unpack to at most
# MAX_EXPANSION times its size; a real map that large does not compress that well. JPEG is
# exempt: it is decoded at a reduced scale (``draft``), never at full size.
MAX_EXPANSION = 100
EXPANSION_CHECK_PIXELS = 4096 * 4096


def _check_expansion(fmt: str, width: int, height: int, bands: tuple, upload) -> None:
    if fmt == "JPEG" or width * height <= EXPANSION_CHECK_PIXELS:
        return
    size = max(1, int(getattr(upload, "size", 0) or 0))
    if width * height * len(bands) > MAX_EXPANSION * size:
        raise TooLarge(
            _("The image unpacks to far more than its file size (a decompression bomb)."),
            code="decompression_bomb",
            fields={"image": [_("A decompression bomb.")]},
        )


def check_size(size: int | None) -> None:
    if size is not None and size > max_bytes():
        raise too_large_bytes()


@dataclass(frozen=True)
class CleanImage:
    data: bytes  # our re-encoding: JPEG, or WebP when the image has transparency
    width: int
    height: int
    original_width: int
    original_height: int
    ext: str = "jpg"


CONTENT_TYPES = {".jpg": "image/jpeg", ".webp": "image/webp"}


def encode(image: Image.Image) -> tuple[bytes, str]:
    """Opaque images as JPEG (tens of milliseconds even for 4096 px), transparent ones as
    WebP (slower, but tokens with transparency are small)."""
    out = io.BytesIO()
    if image.mode == "RGBA":
        image.save(out, "WEBP", quality=WEBP_QUALITY, method=3)
        return out.getvalue(), "webp"
    image.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue(), "jpg"


def clean_image(upload, *, max_side: int) -> CleanImage:
    """Validate an uploaded file and return our re-encoding (WebP), scaled down to
    ``max_side``. Raises ``Invalid`` (400) or ``TooLarge`` (413)."""
    if upload is None:
        raise Invalid(
            _("Choose an image file."), code="no_image", fields={"image": [_("Required.")]}
        )
    check_size(getattr(upload, "size", None))
    limit = max_pixels()
    Image.MAX_IMAGE_PIXELS = limit  # Pillow warns past this and refuses past twice this
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            upload.seek(0)
            with Image.open(upload) as probe:
                fmt = probe.format
                if fmt not in ALLOWED_FORMATS:
                    raise _wrong_type()
                width, height = probe.size
                if width * height > limit:
                    raise _too_many_pixels()
                _check_expansion(fmt, width, height, probe.getbands(), upload)
                probe.verify()
            upload.seek(0)
            with Image.open(upload) as image:
                if image.format != fmt:
                    raise _damaged()
                if fmt == "JPEG":
                    image.draft("RGB", (max_side, max_side))  # decode at a reduced scale
                image.load()
                image = ImageOps.exif_transpose(image)
                original = image.size if fmt != "JPEG" else _transposed(image, width, height)
                has_alpha = image.mode in ("RGBA", "LA", "PA") or (
                    image.mode == "P" and "transparency" in image.info
                )
                image = image.convert("RGBA" if has_alpha else "RGB")
                image.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
                data, ext = encode(image)
                return CleanImage(data, image.width, image.height, *original, ext=ext)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except UnidentifiedImageError:
        raise _wrong_type() from None
    except ServiceError:
        raise
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError) as exc:
        raise _damaged() from exc


def _transposed(image: Image.Image, width: int, height: int) -> tuple[int, int]:
    """A JPEG decoded at reduced scale (draft) still has its full size; EXIF may turn it."""
    if image.size[0] > image.size[1] and width < height:
        return height, width
    if image.size[0] < image.size[1] and width > height:
        return height, width
    return width, height


# --- files -----------------------------------------------------------------------------------


def media_path(name: str) -> Path:
    root = Path(settings.MEDIA_ROOT).resolve()
    path = (root / name).resolve()
    if root not in path.parents:
        raise ValueError(f"{name!r} is outside MEDIA_ROOT")
    return path


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def store(data: bytes, *, folder: str, ext: str = "jpg") -> str:
    """Save bytes under a fresh unguessable name; returns the name relative to MEDIA_ROOT."""
    name = f"maps/{folder}/{secrets.token_hex(12)}.{ext}"
    _write_atomic(media_path(name), data)
    return name


def delete(name: str) -> None:
    if name:
        media_path(name).unlink(missing_ok=True)


def delete_masked(map_id: int) -> None:
    folder = media_path("maps/masked")
    if folder.is_dir():
        for path in folder.glob(f"{map_id}-*.jpg"):
            path.unlink(missing_ok=True)


# --- the players' background ---------------------------------------------------------------------


def masked_name(m) -> str:
    stem = Path(m.background).stem
    return f"maps/masked/{m.pk}-{stem}-{m.fog_version}.jpg"


def masked_background(m) -> Path | None:
    """The background with every fogged cell painted over, for players; ``None`` when no cell
    is revealed. Cached as a file per (background, fog version); older versions are removed.

    Pixels on an edge between a revealed and a fogged cell count as fogged, and so does any
    part of the image outside the grid (the ragged border of a hex map)."""
    if not m.background:
        return None
    fog = Fog.for_map(m)
    revealed = fog.count()
    if revealed == 0:
        return None
    if revealed == m.width * m.height and m.kind == "square":
        return media_path(m.background)
    path = media_path(masked_name(m))
    if path.exists():
        return path
    with Image.open(media_path(m.background)) as source:
        source.load()
        image = source.convert("RGB")
    mask = fog_mask(m, fog, image.size)
    dark = Image.new("RGB", image.size, FOG_RGB)
    out = io.BytesIO()
    Image.composite(image, dark, mask).save(out, "JPEG", quality=JPEG_QUALITY)
    for old in path.parent.glob(f"{m.pk}-*.jpg") if path.parent.is_dir() else ():
        if old.name != path.name:
            old.unlink(missing_ok=True)
    _write_atomic(path, out.getvalue())
    return path


def fog_mask(m, fog: Fog, size: tuple[int, int]) -> Image.Image:
    """An "L" mask the size of the image: 255 where players may see, 0 elsewhere."""
    map_w, map_h = pixel_size(m.kind, m.orientation, m.cell_px, m.width, m.height)
    sx, sy = size[0] / map_w, size[1] / map_h
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    if m.kind == "square":
        # Row runs as rectangles: 200 × 200 cells cost at most a few thousand rectangles.
        for row in range(m.height):
            for value, start, end in _row_runs(fog, row):
                x0, x1 = start * m.cell_px * sx, end * m.cell_px * sx
                y0, y1 = row * m.cell_px * sy, (row + 1) * m.cell_px * sy
                box = [x0, y0, x1, y1]
                if value:
                    draw.rectangle(box, fill=255)
        for row in range(m.height):
            for value, start, end in _row_runs(fog, row):
                if not value:
                    x0, x1 = start * m.cell_px * sx, end * m.cell_px * sx
                    y0, y1 = row * m.cell_px * sy, (row + 1) * m.cell_px * sy
                    draw.rectangle([x0 - 1, y0 - 1, x1 + 1, y1 + 1], fill=0)
        return mask
    cells = [(c, r, fog.is_revealed(c, r)) for r in range(m.height) for c in range(m.width)]
    for col, row, seen in cells:
        if seen:
            points = cell_polygon(col, row, kind="hex", cell=m.cell_px, orientation=m.orientation)
            draw.polygon([(x * sx, y * sy) for x, y in points], fill=255)
    for col, row, seen in cells:
        if not seen:
            points = cell_polygon(col, row, kind="hex", cell=m.cell_px, orientation=m.orientation)
            scaled = [(x * sx, y * sy) for x, y in points]
            draw.polygon(scaled, fill=0)
            # a line centred on the edges darkens a pixel or so on the revealed side as well
            draw.line([*scaled, scaled[0]], fill=0, width=3)
    return mask


def _row_runs(fog: Fog, row: int):
    start, current = 0, fog.is_revealed(0, row)
    for col in range(1, fog.width):
        value = fog.is_revealed(col, row)
        if value != current:
            yield current, start, col
            start, current = col, value
    yield current, start, fog.width
