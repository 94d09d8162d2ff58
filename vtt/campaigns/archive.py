"""Campaign archives: one campaign and everything that hangs off it, in a versioned zip file.

``export_campaign`` writes, ``import_campaign`` reads (``manage.py export_campaign`` and
``manage.py import_campaign``; docs/operations.md). The archive is a zip with:

- ``manifest.json``: ``format: "vtt-campaign"``, ``version: 1``, the app version, the time of
  export, the source campaign, row counts, the event log's head, and the size and SHA-256 of
  every other member;
- ``data/<app>.<model>.jsonl``: one JSON object a line for every row of every model in
  ``PARTS`` (ids as they were on the source server), and ``data/accounts.user.jsonl`` with the
  users those rows name (username and display name only: never a password or an e-mail);
- ``media/<sha256>.<ext>``: map backgrounds, token pictures and portraits, by content.

Import refuses a bad archive before it touches anything (format, version, unsafe or unexpected
member names, sizes, checksums, unknown fields, a broken event chain) and writes everything in
one transaction: a failure leaves the database and ``MEDIA_ROOT`` as they were.

**Ids.** The imported campaign gets new ids everywhere. Foreign keys are remapped from the
model metadata; ids that the code keeps without a foreign key are remapped too: ``Dungeon`` and
``Room.map_id``, the Savage Worlds participant ids (``"c<character id>"``) in ``TableState``,
and the ids inside event payloads at the paths the registry of event kinds declares
(vtt/table/kinds.py: each kind names which fields carry ids and of what), plus image URLs.
An id whose row no longer exists (a deleted token still named by the log) becomes a distinct
negative number: events that named the same deleted thing still agree, and it can never name
a real row.

**The event log.** The chain hash covers the campaign id, the actor and target ids and the
payload (``vtt/table/events.py``), so a campaign with new ids cannot keep its old hashes and
still verify. Import therefore first verifies the archived log against its own hashes with the
original ids (a log altered after export is refused), then writes the same events (same
sequence numbers, kinds, visibilities and times, ids remapped) re-chained from the genesis hash,
so ``/api/campaigns/<id>/events/verify/`` verifies the imported campaign. The original head is
kept in the manifest and reported by the command. Hidden-roll commitments contain the roll id,
so they are recomputed the same way (from the revealed preimage, or, for a roll not yet
revealed, from the preimage its reveal will publish): every browser still verifies a reveal.

**Users.** Memberships and every other user reference travel by username. Import maps each to
the existing user with that username, or creates an inactive placeholder user (no usable
password) and says so.

**The dungeon clock.** A clock that was running is imported paused with the time it had left
at export: no worker has its turn scheduled, and ending turns for the time the archive sat on a
disk would surprise the table.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import secrets
import time
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from PIL import Image, UnidentifiedImageError

from systems import get_ruleset
from systems.core.ruleset import RulesError
from vtt.accounts.models import User
from vtt.accounts.services import clean_public_name
from vtt.campaigns.models import Campaign
from vtt.core import jsonsafe
from vtt.core.errors import Invalid
from vtt.maps import images
from vtt.rulesets.registry import web_for
from vtt.table import kinds
from vtt.table.events import canonical, chain_hash, hash_body, verify_chain
from vtt.table.models import GENESIS_HASH, ClockState, EventCursor, TableEvent

FORMAT = "vtt-campaign"
VERSION = 1
MANIFEST = "manifest.json"
USERS = "accounts.user"

PLAIN = "plain"  # JSON that holds no database ids
PIDS = "pids"  # table state: Savage Worlds participant ids "c<character id>"
EVENT = "event"  # an event payload: ids by key, per event kind

# Defaults for the import limits (each can be set in Django settings under the same name).
ARCHIVE_MAX_MEMBERS = 50_000
ARCHIVE_MAX_MANIFEST_BYTES = 16 * 1024 * 1024
ARCHIVE_MAX_DATA_BYTES = 512 * 1024 * 1024
ARCHIVE_MAX_MEDIA_BYTES = 32 * 1024 * 1024
ARCHIVE_MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024
IMAGE_FORMATS = frozenset({"PNG", "JPEG", "WEBP", "GIF"})


class ArchiveError(Exception):
    """A campaign cannot be exported, or an archive cannot be imported; nothing was changed."""


@dataclass(frozen=True)
class Part:
    """One model in the archive.

    ``path`` is the lookup from the model to its campaign's id. ``json`` names every JSONField
    with what it may hold (``PLAIN``, ``PIDS`` or ``EVENT``), ``media`` every field that holds
    a file name under ``MEDIA_ROOT`` (with the folder imported copies go to), ``soft`` every
    integer field that holds another part's id without a foreign key. The tests fail when a
    model gains a JSON or file field this table does not name.
    """

    label: str
    path: str
    order: str = "pk"
    json: dict[str, str] = field(default_factory=dict)
    media: dict[str, str] = field(default_factory=dict)
    soft: dict[str, str] = field(default_factory=dict)

    @property
    def model(self) -> type[models.Model]:
        return apps.get_model(self.label)

    @property
    def member(self) -> str:
        return f"data/{self.label}.jsonl"


# In dependency order: every foreign key points at a part listed before it.
PARTS: tuple[Part, ...] = (
    Part("campaigns.campaign", "pk", json={"rules": PLAIN}),
    Part("campaigns.membership", "campaign"),
    Part(
        "characters.character", "campaign", json={"state": PLAIN}, media={"portrait": "portraits"}
    ),
    Part("characters.characterchange", "character__campaign", json={"diff": PLAIN, "state": PLAIN}),
    Part("characters.pendingmove", "character__campaign", json={"outcome": PLAIN}),
    Part(
        "maps.map",
        "campaign",
        json={"terrain": PLAIN, "features": PLAIN},
        media={"background": "maps/backgrounds"},
    ),
    Part("maps.token", "map__campaign", media={"image": "maps/tokens"}),
    Part("maps.mapnote", "map__campaign"),
    Part("prep.randomtable", "campaign", json={"entries": PLAIN}),
    Part("prep.tableresult", "campaign", json={"result": PLAIN}),
    Part("prep.dungeon", "campaign", soft={"map_id": "maps.map"}),
    Part(
        "prep.room",
        "dungeon__campaign",
        json={"cells": PLAIN, "treasure": PLAIN},
        soft={"map_id": "maps.map"},
    ),
    Part("prep.roommonster", "room__dungeon__campaign"),
    Part("journal.entry", "campaign", soft={"room_id": "prep.room"}),
    Part("journal.entryreader", "entry__campaign"),
    Part("journal.entryimage", "entry__campaign", media={"name": "journal"}),
    Part("table.roll", "campaign", json={"result": PLAIN}),
    Part("table.initiativeentry", "campaign"),
    Part("table.initiativestate", "campaign"),
    Part("table.dungeonclock", "campaign", json={"ruleset_state": PLAIN}),
    Part("tablestate.tablestate", "campaign", json={"state": PIDS, "meta": PIDS}),
    Part("tales_web.characterwizard", "campaign", json={"state": PLAIN}),
    Part("table.tableevent", "campaign", order="seq", json={"payload": EVENT}),
    Part("table.eventcursor", "campaign"),
)
PART_BY_LABEL = {part.label: part for part in PARTS}

# Models that hang off a campaign but are deliberately left out, and why.
EXCLUDED: dict[str, str] = {
    "campaigns.invite": (
        "invite links are bearer secrets of the server that issued them; an imported campaign "
        "starts with none and the referee issues new ones"
    ),
}

# --- ids inside JSON -----------------------------------------------------------------------------

# What each object type of the event registry (vtt/table/kinds.py, ``OBJECTS``) names here.
# The event payloads' id paths come from the registry itself: a kind declared there with an id
# is remapped on import with no change to this module (tests/vtt/test_event_kinds.py).
OBJECT_LABELS: dict[str, str] = {
    "user": USERS,
    "character": "characters.character",
    "pending_move": "characters.pendingmove",
    "map": "maps.map",
    "token": "maps.token",
    "note": "maps.mapnote",
    "combatant": "maps.token",  # "t<token id>"
    "roll": "table.roll",
    "initiative_entry": "table.initiativeentry",
    "random_table": "prep.randomtable",
    "table_result": "prep.tableresult",
    "table_state": PIDS,
    "journal_entry": "journal.entry",
}
# Keys whose integer value is a row id wherever they appear in a table state (``TableState``'s
# JSON, and the ``table_state`` subtrees of ``tablestate`` events).
STATE_ID_KEYS: dict[str, str] = {
    "character_id": "characters.character",
    "owner_id": USERS,
    "user_id": USERS,
    "target_id": USERS,
}
PID = "pid"  # a Savage Worlds participant id: "c<character id>"
PID_RE = re.compile(r"^c(\d+)$")
COMBATANT_RE = re.compile(r"^t(\d+)$")
MAP_URL_RE = re.compile(r"/campaigns/(\d+)/maps/(\d+)/(?:background/|tokens/(\d+)/image/)")
JOURNAL_URL_RE = re.compile(r"/campaigns/(\d+)/journal/(\d+)/images/(\d+)/")


class Refs:
    """Rewrites the ids inside JSON values with ``ref(label, old) -> new``.

    One walker serves export (collecting the users a payload names) and import (remapping)."""

    def __init__(
        self,
        ref: Callable[[str, int], int],
        *,
        campaign: tuple[int, int] | None = None,
        commitments: dict[str, str] | None = None,
    ) -> None:
        self.ref = ref
        self.campaign = campaign  # (old id, new id) for URLs
        self.commitments = commitments if commitments is not None else {}

    def _id(self, label: str, value: Any) -> Any:
        if label == PID:
            match = PID_RE.match(value) if isinstance(value, str) else None
            if match is None:
                return value
            return f"c{self.ref('characters.character', int(match.group(1)))}"
        if isinstance(value, bool) or not isinstance(value, int):
            return value
        return self.ref(label, value)

    def object_id(self, obj: str, value: Any) -> Any:
        """The value at one of the registry's id paths: an integer id, a string of digits,
        ``"t<token id>"`` for a combatant, or a whole table state."""
        if obj == "table_state":
            return self.table_state(value)
        label = OBJECT_LABELS[obj]
        if obj == "combatant":
            match = COMBATANT_RE.match(value) if isinstance(value, str) else None
            return value if match is None else f"t{self.ref(label, int(match.group(1)))}"
        if isinstance(value, str) and value.isascii() and value.isdigit():
            return str(self.ref(label, int(value)))
        return self._id(label, value)

    def payload(self, kind: str, data: Any) -> Any:
        """An event payload: the ids at the paths its kind declares (vtt/table/kinds.py), then
        the strings that embed ids (image URLs, a hidden roll's commitment and preimage). A kind
        the registry does not know (an archive from a version that published it) keeps its
        ids as they were."""
        return self._strings(kinds.rewrite_ids(kind, data, self.object_id), key=None)

    def table_state(self, data: Any) -> Any:
        """``TableState.state`` / ``meta``: participant ids and character ids."""
        return self._walk(data, key=None, parent=None)

    def _label(self, key: str) -> str | None:
        if key in STATE_ID_KEYS:
            return STATE_ID_KEYS[key]
        if key == "id":
            return PID
        return None

    def _walk(self, value: Any, *, key: str | None, parent: str | None) -> Any:
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                out[self._id(PID, k)] = self._child(v, key=k, parent=key)
            return out
        if isinstance(value, list):
            if key == "known":
                return [self._id(PID, item) for item in value]
            return [self._walk(item, key=key, parent=parent) for item in value]
        return value

    def _child(self, value: Any, *, key: str, parent: str | None) -> Any:
        label = self._label(key)
        if label is not None and not isinstance(value, dict | list):
            return self._id(label, value)
        return self._walk(value, key=key, parent=parent)

    def _strings(self, value: Any, *, key: str | None) -> Any:
        if isinstance(value, dict):
            return {k: self._strings(v, key=k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._strings(item, key=key) for item in value]
        if not isinstance(value, str):
            return value
        if key in ("url", "image"):
            return self._url(value)
        if key == "commitment":
            return self.commitments.get(value, value)
        if key == "preimage":
            return self.preimage(value)
        return value

    def _url(self, url: str) -> str:
        def repl(match: re.Match) -> str:
            campaign, map_id, token_id = match.groups()
            cid = int(campaign)
            if self.campaign is not None and cid == self.campaign[0]:
                cid = self.campaign[1]
            mid = self._id("maps.map", int(map_id))
            if token_id is None:
                return f"/campaigns/{cid}/maps/{mid}/background/"
            return (
                f"/campaigns/{cid}/maps/{mid}/tokens/{self._id('maps.token', int(token_id))}/image/"
            )

        def journal(match: re.Match) -> str:
            campaign, entry_id, image_id = (int(g) for g in match.groups())
            if self.campaign is not None and campaign == self.campaign[0]:
                campaign = self.campaign[1]
            entry_id = self._id("journal.entry", entry_id)
            image_id = self._id("journal.entryimage", image_id)
            return f"/campaigns/{campaign}/journal/{entry_id}/images/{image_id}/"

        return JOURNAL_URL_RE.sub(journal, MAP_URL_RE.sub(repl, url))

    def preimage(self, text: str) -> str:
        """A hidden roll's preimage is canonical JSON holding the roll id: remap and re-encode."""
        try:
            data = json.loads(text)
        except ValueError:
            return text
        if not isinstance(data, dict) or not isinstance(data.get("roll"), dict):
            return text
        return canonical({**data, "roll": kinds.rewrite_ids("roll", data["roll"], self.object_id)})


# --- limits and helpers ----------------------------------------------------------------------


def _limit(name: str) -> int:
    return int(getattr(settings, name, globals()[name]))


def app_version() -> str:
    try:
        from importlib.metadata import version

        return version("vtt")
    except Exception:  # pragma: no cover - not installed as a package
        return "unknown"


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _is_user(model: Any) -> bool:
    return model is not None and _label(model) == _label(User)


@contextmanager
def _consistent_read() -> Iterator[None]:
    """One snapshot for the whole export: the log and the state it describes agree. On
    PostgreSQL a repeatable-read, read-only transaction; on SQLite the transaction itself."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _media_path(name: str) -> Path:
    root = Path(settings.MEDIA_ROOT).resolve()
    path = (root / name).resolve()
    if root not in path.parents:
        raise ArchiveError(f"media file name {name!r} points outside MEDIA_ROOT")
    return path


def _encode(obj: models.Model, f: models.Field) -> Any:
    value = getattr(obj, f.attname)
    if value is None:
        return None
    if f.is_relation or isinstance(f, models.JSONField):
        return value
    if isinstance(f, models.FileField):
        return value.name or ""
    if isinstance(f, models.BinaryField):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    return f.value_to_string(obj)


def _decode(label: str, f: models.Field, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(f, models.JSONField):
        return value
    if isinstance(f, models.FileField):
        if not isinstance(value, str):
            raise ArchiveError(f"{label}.{f.name}: a file name must be a string")
        return value
    if isinstance(f, models.BinaryField):
        try:
            return base64.b64decode(value, validate=True)
        except (TypeError, ValueError) as exc:
            raise ArchiveError(f"{label}.{f.name}: not base64 data") from exc
    try:
        value = f.to_python(value)
    except ValidationError as exc:
        raise ArchiveError(f"{label}.{f.name}: {value!r} is not valid ({exc.messages[0]})") from exc
    choices = {key for key, _label in f.flatchoices} if f.choices else None
    if choices is not None and value not in choices and not (value == "" and f.blank):
        raise ArchiveError(f"{label}.{f.name}: {value!r} is not one of its choices")
    max_length = getattr(f, "max_length", None)
    if isinstance(value, str) and max_length is not None and len(value) > max_length:
        raise ArchiveError(f"{label}.{f.name}: longer than {max_length} characters")
    return value


def _jsonl(data: bytes, member: str) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(data.decode("utf-8", errors="strict").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = jsonsafe.loads(line)  # NUL or a lone surrogate would reach the database
        except ValueError as exc:
            raise ArchiveError(f"{member} line {number}: not JSON ({exc})") from exc
        if not isinstance(row, dict):
            raise ArchiveError(f"{member} line {number}: not a JSON object")
        rows.append(row)
    return rows


class _Writer:
    """A zip member written as a stream, with its size and SHA-256."""

    def __init__(self, zf: zipfile.ZipFile, name: str, members: dict[str, dict]) -> None:
        self.zf, self.name, self.members = zf, name, members

    def __enter__(self) -> _Writer:
        info = zipfile.ZipInfo(self.name, date_time=time.localtime()[:6])
        info.compress_type = zipfile.ZIP_DEFLATED
        self.handle: IO[bytes] = self.zf.open(info, "w", force_zip64=True)
        self.digest = hashlib.sha256()
        self.size = 0
        return self

    def write(self, data: bytes) -> None:
        self.handle.write(data)
        self.digest.update(data)
        self.size += len(data)

    def __exit__(self, *exc: object) -> None:
        self.handle.close()
        self.members[self.name] = {"sha256": self.digest.hexdigest(), "size": self.size}


# --- export --------------------------------------------------------------------------------------


@dataclass
class ExportResult:
    path: Path
    campaign_id: int
    counts: dict[str, int]
    head: str
    warnings: list[str]


def export_campaign(campaign_id: int, path: str | Path) -> ExportResult:
    """Write campaign ``campaign_id`` to a new archive at ``path`` (never overwritten: the
    archive appears under its name only when complete)."""
    path = Path(path)
    if path.exists():
        raise ArchiveError(f"{path} already exists; choose another file name")
    if not path.parent.is_dir():
        raise ArchiveError(f"the folder {path.parent} does not exist")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
    try:
        with _consistent_read():
            result = _export(campaign_id, path, tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return result


def _export(campaign_id: int, path: Path, tmp: Path) -> ExportResult:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise ArchiveError(f"there is no campaign with id {campaign_id}")
    chain = verify_chain(campaign.pk)
    if not chain["ok"]:
        raise ArchiveError(
            f"the event log of campaign {campaign.pk} does not verify (broken at "
            f"#{chain['broken_at']}: {chain['problem']}); back it up with pg_dump instead and "
            "investigate (docs/operations.md)"
        )
    members: dict[str, dict] = {}
    counts: dict[str, int] = {}
    user_ids: set[int] = set()
    media: dict[str, dict[str, str]] = {}
    missing: list[str] = []
    notes: list[str] = []

    def collect(label: str, value: int) -> int:
        if label == USERS:
            user_ids.add(value)
        return value

    refs = Refs(collect)
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
        for part in PARTS:
            model = part.model
            fields = model._meta.concrete_fields
            qs = model._default_manager.filter(**{part.path: campaign.pk}).order_by(part.order)
            count = 0
            files: list[str] = []
            with _Writer(zf, part.member, members) as out:
                for obj in qs.iterator(chunk_size=1000):
                    row = {f.attname: _encode(obj, f) for f in fields}
                    for f in fields:
                        if f.is_relation and _is_user(f.related_model) and row[f.attname]:
                            user_ids.add(row[f.attname])
                    for name, kind in part.json.items():
                        if kind == EVENT:
                            refs.payload(row["kind"], row[name])
                    files += [row[name] for name in part.media if row[name]]
                    out.write(_line(row))
                    count += 1
            counts[part.label] = count
            # A zip takes one member at a time: the files follow the rows that name them.
            for file_name in files:
                if file_name in media or file_name in missing:
                    continue
                entry = _export_file(zf, file_name, members)
                if entry is None:
                    missing.append(file_name)
                    notes.append(f"media file {file_name} is missing; exported without it")
                else:
                    media[file_name] = entry
        users = User.objects.filter(pk__in=user_ids).order_by("pk")
        with _Writer(zf, f"data/{USERS}.jsonl", members) as out:
            for user in users:
                out.write(
                    _line(
                        {
                            "id": user.pk,
                            "username": user.username,
                            "first_name": user.first_name,
                            "last_name": user.last_name,
                            "public_name": user.public_name,
                            "language": user.language,
                        }
                    )
                )
        counts[USERS] = users.count()
        counts["media"] = len(media)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "app_version": app_version(),
            "exported_at": timezone.now().isoformat(),
            "campaign": {"id": campaign.pk, "name": campaign.name, "ruleset": campaign.ruleset},
            "counts": counts,
            "chain": {"count": chain["count"], "head": chain["head"]},
            "media": media,
            "missing_media": missing,
            "members": members,
        }
        zf.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True))
    return ExportResult(path, campaign.pk, counts, chain["head"], notes)


def _line(row: dict[str, Any]) -> bytes:
    return (
        json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    ).encode()


def _export_file(zf: zipfile.ZipFile, name: str, members: dict[str, dict]) -> dict[str, str] | None:
    try:
        data = _media_path(name).read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    ext = Path(name).suffix.lower().lstrip(".")
    ext = ext if re.fullmatch(r"[a-z0-9]{1,5}", ext) else "bin"
    member = f"media/{hashlib.sha256(data).hexdigest()}.{ext}"
    if member not in members:
        with _Writer(zf, member, members) as out:
            out.write(data)
    return {"member": member}


# --- reading an archive ------------------------------------------------------------------------

MEMBER_RE = re.compile(
    r"^(?:manifest\.json|data/[a-z0-9_]+\.[a-z0-9_]+\.jsonl|media/[0-9a-f]{64}\.[a-z0-9]{1,5})$"
)


@dataclass
class Archive:
    zf: zipfile.ZipFile
    manifest: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]]

    def media_bytes(self, member: str) -> bytes:
        data = _read(self.zf, self.zf.getinfo(member), _limit("ARCHIVE_MAX_MEDIA_BYTES"))
        if hashlib.sha256(data).hexdigest() != self.manifest["members"][member]["sha256"]:
            raise ArchiveError(f"checksum mismatch for {member}: the archive changed while read")
        return data


def _read(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """At most ``limit`` bytes, whatever the member's header claims (a zip bomb stops here)."""
    out = io.BytesIO()
    try:
        with zf.open(info) as handle:
            while chunk := handle.read(1024 * 1024):
                out.write(chunk)
                if out.tell() > limit:
                    raise ArchiveError(
                        f"{info.filename} is larger than the limit of {limit} bytes; refusing it"
                    )
    except (
        zipfile.BadZipFile,
        OSError,
        EOFError,
        zlib.error,
        RuntimeError,
        NotImplementedError,
    ) as exc:
        raise ArchiveError(f"{info.filename} cannot be read: {exc}") from exc
    return out.getvalue()


def _member_limit(name: str) -> int:
    if name == MANIFEST:
        return _limit("ARCHIVE_MAX_MANIFEST_BYTES")
    if name.startswith("media/"):
        return _limit("ARCHIVE_MAX_MEDIA_BYTES")
    return _limit("ARCHIVE_MAX_DATA_BYTES")


@contextmanager
def open_archive(path: str | Path) -> Iterator[Archive]:
    """Open and check an archive: member names, sizes, the manifest, every checksum, and the
    data members parsed (nothing is written anywhere)."""
    path = Path(path)
    if not path.is_file():
        raise ArchiveError(f"{path} is not a file")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ArchiveError(f"{path} is not a campaign archive (not a zip file: {exc})") from exc
    with zf:
        yield _check_archive(zf)


def _check_archive(zf: zipfile.ZipFile) -> Archive:
    infos = zf.infolist()
    if len(infos) > _limit("ARCHIVE_MAX_MEMBERS"):
        raise ArchiveError(
            f"the archive has {len(infos)} members; the limit is {_limit('ARCHIVE_MAX_MEMBERS')}"
        )
    by_name: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        name = info.filename
        if not MEMBER_RE.match(name) or ".." in name or name.startswith("/"):
            raise ArchiveError(f"unsafe or unexpected member name {name!r} in the archive")
        if name in by_name:
            raise ArchiveError(f"the archive holds {name} twice")
        mode = (info.external_attr >> 16) & 0o170000
        if info.is_dir() or mode not in (0, 0o100000):
            raise ArchiveError(f"{name} is not a regular file")
        limit = _member_limit(name)
        if info.file_size > limit:
            raise ArchiveError(
                f"{name} is {info.file_size} bytes; the limit is {limit} bytes. Refusing it."
            )
        total += info.file_size
        if total > _limit("ARCHIVE_MAX_TOTAL_BYTES"):
            raise ArchiveError(
                f"the archive unpacks to more than {_limit('ARCHIVE_MAX_TOTAL_BYTES')} bytes"
            )
        by_name[name] = info
    if MANIFEST not in by_name:
        raise ArchiveError("not a campaign archive: manifest.json is missing")
    try:
        manifest = json.loads(_read(zf, by_name[MANIFEST], _member_limit(MANIFEST)))
    except (ValueError, RecursionError) as exc:
        raise ArchiveError(f"manifest.json is not JSON: {exc}") from exc
    _check_manifest(manifest)
    listed = set(manifest["members"])
    present = set(by_name) - {MANIFEST}
    if listed - present:
        raise ArchiveError(
            f"members missing from the archive: {', '.join(sorted(listed - present))}"
        )
    if present - listed:
        raise ArchiveError(
            f"members the manifest does not list: {', '.join(sorted(present - listed))}"
        )
    rows: dict[str, list[dict[str, Any]]] = {}
    known = {part.member for part in PARTS} | {f"data/{USERS}.jsonl"}
    for name in sorted(present):
        meta = manifest["members"][name]
        if not isinstance(meta, dict) or not isinstance(meta.get("sha256"), str):
            raise ArchiveError(f"manifest.json: no checksum for {name}")
        if name.startswith("data/") and name not in known:
            raise ArchiveError(
                f"the archive holds {name}, which this server does not know (made by a newer "
                "version?)"
            )
        data = _read(zf, by_name[name], _member_limit(name))
        if hashlib.sha256(data).hexdigest() != meta["sha256"] or len(data) != meta.get("size"):
            raise ArchiveError(f"checksum mismatch for {name}: the archive is damaged or altered")
        if name.startswith("data/"):
            try:
                rows[name[5:-6]] = _jsonl(data, name)
            except UnicodeDecodeError as exc:
                raise ArchiveError(f"{name} is not UTF-8 text") from exc
    for label, count in manifest["counts"].items():
        if label in rows and len(rows[label]) != count:
            raise ArchiveError(
                f"{label}: the manifest counts {count} rows, the archive holds {len(rows[label])}"
            )
    return Archive(zf, manifest, rows)


def _check_manifest(manifest: Any) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        got = manifest.get("format") if isinstance(manifest, dict) else None
        raise ArchiveError(f"not a VTT campaign archive (format {got!r}, expected {FORMAT!r})")
    version = manifest.get("version")
    if version != VERSION:
        raise ArchiveError(
            f"archive version {version!r} is not supported: this server (VTT {app_version()}) "
            f"reads version {VERSION}"
        )
    for key, kind in (("members", dict), ("counts", dict), ("media", dict), ("chain", dict)):
        if not isinstance(manifest.get(key), kind):
            raise ArchiveError(f"manifest.json: {key!r} is missing or malformed")
    if not isinstance(manifest.get("campaign"), dict) or not isinstance(
        manifest["campaign"].get("id"), int
    ):
        raise ArchiveError("manifest.json: the source campaign is missing")
    if not isinstance(manifest.get("missing_media", []), list):
        raise ArchiveError("manifest.json: 'missing_media' is malformed")
    try:
        datetime.fromisoformat(manifest.get("exported_at"))
    except (TypeError, ValueError) as exc:
        raise ArchiveError("manifest.json: 'exported_at' is not a time") from exc


# --- import --------------------------------------------------------------------------------------


@dataclass
class ImportResult:
    campaign: Campaign
    counts: dict[str, int]
    notes: list[str]
    old_head: str
    new_head: str
    ids: dict[str, dict[int, int]]


def import_campaign(path: str | Path, *, name: str | None = None) -> ImportResult:
    """Create a new campaign from an archive, in one transaction (see the module docstring)."""
    created: list[Path] = []
    try:
        with open_archive(path) as archive:
            _check_rows(archive)
            with transaction.atomic():
                return _Importer(archive, created, name).run()
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        # Shapes the checks above do not foresee (a number where a list belongs, ...).
        for file in created:
            file.unlink(missing_ok=True)
        raise ArchiveError(f"the archive is malformed ({type(exc).__name__}: {exc})") from exc
    except BaseException:
        for file in created:
            file.unlink(missing_ok=True)
        raise


def _check_rows(archive: Archive) -> None:
    """Everything that can be checked before writing: fields, ids, the campaign, the chain."""
    rows = archive.rows
    for part in PARTS:
        attnames = {f.attname for f in part.model._meta.concrete_fields}
        seen: set[Any] = set()
        for number, row in enumerate(rows.get(part.label, []), 1):
            unknown = set(row) - attnames
            if unknown:
                raise ArchiveError(
                    f"{part.label} row {number}: unknown fields {', '.join(sorted(unknown))} "
                    "(made by a newer version?)"
                )
            pk = row.get(part.model._meta.pk.attname)
            if isinstance(pk, bool) or not isinstance(pk, int):
                raise ArchiveError(f"{part.label} row {number}: no id")
            if pk in seen:
                raise ArchiveError(f"{part.label}: id {pk} appears twice")
            seen.add(pk)
    ids, names = set(), set()
    for number, row in enumerate(rows.get(USERS, []), 1):
        if not isinstance(row.get("id"), int) or not isinstance(row.get("username"), str):
            raise ArchiveError(f"{USERS} row {number}: a user needs an id and a username")
        if not 1 <= len(row["username"]) <= 150:
            raise ArchiveError(f"{USERS} row {number}: bad username")
        if row["id"] in ids or row["username"].casefold() in names:
            raise ArchiveError(f"{USERS}: user {row['username']!r} appears twice")
        ids.add(row["id"])
        names.add(row["username"].casefold())
    for row in rows.get("table.tableevent", []):
        if not isinstance(row.get("kind"), str) or not isinstance(row.get("seq"), int):
            raise ArchiveError(f"event {row.get('seq')!r}: needs a kind and a sequence number")
        for key in ("actor_id", "target_id"):
            if row.get(key) is not None and not isinstance(row[key], int):
                raise ArchiveError(f"event #{row['seq']}: {key} is not an id")
    campaigns = rows.get("campaigns.campaign", [])
    if len(campaigns) != 1:
        raise ArchiveError(f"the archive must hold exactly one campaign, it holds {len(campaigns)}")
    if campaigns[0].get("id") != archive.manifest["campaign"]["id"]:
        raise ArchiveError("the campaign row and the manifest disagree about the campaign id")
    _check_chain(archive)


def _event(row: dict[str, Any], campaign_id: int) -> TableEvent:
    created = row.get("created_at")
    when = datetime.fromisoformat(created) if isinstance(created, str) else None
    if when is None or timezone.is_naive(when):
        raise ArchiveError(f"event #{row.get('seq')}: created_at is not an aware time")
    return TableEvent(
        campaign_id=campaign_id,
        seq=row.get("seq"),
        kind=row.get("kind"),
        payload=row.get("payload"),
        actor_id=row.get("actor_id"),
        visibility=row.get("visibility"),
        target_id=row.get("target_id"),
        created_at=when,
    )


def _check_chain(archive: Archive) -> None:
    """The archived log against its own hashes, with the ids it was written with."""
    campaign_id = archive.manifest["campaign"]["id"]
    prev, count = GENESIS_HASH, 0
    for expected, row in enumerate(archive.rows.get("table.tableevent", []), 1):
        try:
            event = _event(row, campaign_id)
            ok = (
                row.get("seq") == expected
                and row.get("prev_hash") == prev
                and chain_hash(prev, hash_body(event)) == row.get("hash")
            )
        except (TypeError, ValueError, AttributeError) as exc:
            raise ArchiveError(f"event #{expected} is malformed: {exc}") from exc
        if not ok:
            raise ArchiveError(
                f"the archived event log does not verify at #{expected}: the archive was "
                "altered after export"
            )
        prev, count = row["hash"], count + 1
    chain = archive.manifest["chain"]
    if chain.get("head") != prev or chain.get("count") != count:
        raise ArchiveError("the archived event log does not end where the manifest says")


def check_image(data: bytes, member: str) -> None:
    """An imported file must be an image Pillow reads, within the upload pixel limit."""
    limit = images.max_pixels()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                if image.format not in IMAGE_FORMATS:
                    raise ArchiveError(f"{member} is a {image.format} file, not an image we keep")
                if image.width * image.height > limit:
                    raise ArchiveError(f"{member} has more than {limit} pixels")
                image.verify()
    except ArchiveError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ArchiveError(f"{member} has too many pixels") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ArchiveError(f"{member} is not a readable image") from exc


def _archived_public_name(value: Any) -> str:
    """A placeholder's display name as the archive gives it, if it passes ``clean_public_name``
    (no invisible characters, not too long); otherwise none, and the login names them."""
    try:
        return clean_public_name(str(value or ""))
    except Invalid:
        return ""


class _Importer:
    def __init__(self, archive: Archive, created: list[Path], name: str | None) -> None:
        self.archive = archive
        self.rows = archive.rows
        self.manifest = archive.manifest
        self.created = created
        self.name = name
        self.ids: dict[str, dict[int, int]] = {part.label: {} for part in PARTS}
        self.ids[USERS] = {}
        self.dangling: dict[str, dict[int, int]] = {}
        self.files: dict[str, str] = {}
        self.notes: list[str] = []
        self.commitments: dict[str, str] = {}
        self.old_campaign = self.manifest["campaign"]["id"]
        self.campaign: Campaign | None = None
        self.refs: Refs | None = None
        self.exported_at = datetime.fromisoformat(self.manifest["exported_at"])
        self.head: tuple[int, str] = (0, GENESIS_HASH)

    # ids

    def ref(self, label: str, old: int) -> int:
        """The new id of a row, or a stable negative stand-in for one that no longer exists."""
        if label == "campaigns.campaign" and old == self.old_campaign:
            return self.campaign.pk
        table = self.ids.get(label, {})
        if old in table:
            return table[old]
        gone = self.dangling.setdefault(label, {})
        return gone.setdefault(old, -(len(gone) + 1))

    def _fk(self, part: Part, f: models.Field, old: Any) -> Any:
        if old is None:
            return None
        if isinstance(old, bool) or not isinstance(old, int):
            raise ArchiveError(f"{part.label}.{f.name}: {old!r} is not an id")
        target = _label(f.related_model)
        if target == "campaigns.campaign":
            if old != self.old_campaign:
                raise ArchiveError(f"{part.label}.{f.name} names another campaign ({old})")
            return self.campaign.pk
        table = self.ids.get(target)
        if table is None:
            raise ArchiveError(f"{part.label}.{f.name} points at {target}, which is not archived")
        if old in table:
            return table[old]
        if f.null:
            self.notes.append(
                f"{part.label}.{f.name}: {target} {old} is not in the archive; cleared"
            )
            return None
        raise ArchiveError(f"{part.label}.{f.name}: {target} {old} is not in the archive")

    # the steps

    def run(self) -> ImportResult:
        self._users()
        self.refs = Refs(self.ref, campaign=(self.old_campaign, 0), commitments=self.commitments)
        for part in PARTS:
            if part.label == "table.tableevent":
                self._events(part)
            else:
                self._insert(part)
            if part.label == "campaigns.campaign":
                self.refs.campaign = (self.old_campaign, self.campaign.pk)
            if part.label == "table.roll":
                self._commitments()
        if self.head[0]:
            EventCursor.objects.update_or_create(
                campaign=self.campaign,
                defaults={"last_seq": self.head[0], "last_hash": self.head[1]},
            )
        report = verify_chain(self.campaign.pk)
        if not report["ok"]:  # pragma: no cover - a bug here, not in the archive
            raise ArchiveError(f"the imported event log does not verify: {report}")
        counts = {label: len(table) for label, table in self.ids.items() if label != USERS}
        counts["table.tableevent"] = report["count"]
        counts["media"] = len(self.files)
        return ImportResult(
            self.campaign,
            counts,
            self.notes,
            self.manifest["chain"]["head"],
            report["head"],
            self.ids,
        )

    def _users(self) -> None:
        for row in self.rows.get(USERS, []):
            username = row["username"]
            user = User.objects.filter(username=username).first()
            if user is None:
                matches = list(User.objects.filter(username__iexact=username)[:2])
                user = matches[0] if len(matches) == 1 else None
            if user is not None:
                self.notes.append(
                    f"user {username}: mapped to the existing account {user.username}"
                )
            else:
                user = User(
                    username=username,
                    first_name=str(row.get("first_name") or "")[:150],
                    last_name=str(row.get("last_name") or "")[:150],
                    public_name=_archived_public_name(row.get("public_name")),
                    language=row.get("language")
                    if row.get("language") in dict(settings.LANGUAGES)
                    else settings.LANGUAGE_CODE,
                    is_active=False,
                )
                user.set_unusable_password()
                user.save()
                self.notes.append(
                    f"user {username}: no such account here; created an inactive placeholder "
                    "(activate it and set a password to let them in)"
                )
            self.ids[USERS][row["id"]] = user.pk

    def _values(self, part: Part, row: dict[str, Any]) -> dict[str, Any]:
        model = part.model
        pk = model._meta.pk
        values: dict[str, Any] = {}
        for f in model._meta.concrete_fields:
            if f is pk and not f.is_relation:
                continue
            if f.attname not in row:
                if f.has_default() or f.null:
                    continue
                raise ArchiveError(f"{part.label}: field {f.name} is missing")
            raw = row[f.attname]
            if f.is_relation:
                if _is_user(f.related_model):
                    if raw is None:
                        values[f.attname] = None
                    elif raw in self.ids[USERS]:
                        values[f.attname] = self.ids[USERS][raw]
                    else:
                        raise ArchiveError(
                            f"{part.label}.{f.name}: user {raw} is not in the archive"
                        )
                else:
                    values[f.attname] = self._fk(part, f, raw)
            elif f.name in part.soft:
                values[f.attname] = self._soft(part, f, raw)
            else:
                value = _decode(part.label, f, raw)
                kind = part.json.get(f.name)
                if kind == PIDS:
                    value = self.refs.table_state(value)
                if f.name in part.media:
                    value = self._media(part, f, value)
                values[f.attname] = value
        return values

    def _soft(self, part: Part, f: models.Field, raw: Any) -> int | None:
        if raw is None:
            return None
        new = self.ids[part.soft[f.name]].get(raw)
        if new is None:
            self.notes.append(f"{part.label}.{f.name}: {raw} no longer exists; cleared")
        return new

    def _media(self, part: Part, f: models.Field, name: str) -> str:
        if not name:
            return ""
        if name in self.files:
            return self.files[name]
        if name in self.manifest.get("missing_media", []):
            self.notes.append(f"{part.label}.{f.name}: {name} was missing at export; left empty")
            self.files[name] = ""
            return ""
        entry = self.manifest["media"].get(name)
        member = entry.get("member") if isinstance(entry, dict) else None
        if member not in self.manifest["members"]:
            raise ArchiveError(f"{part.label}.{f.name}: the file {name} is not in the archive")
        data = self.archive.media_bytes(member)
        check_image(data, member)
        ext = member.rsplit(".", 1)[1]
        new = f"{part.media[f.name]}/{secrets.token_hex(12)}.{ext}"
        target = _media_path(new)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.created.append(target)
        target.write_bytes(data)
        self.files[name] = new
        return new

    def _check(self, part: Part, obj: models.Model) -> None:
        """Rules the app enforces on every write that the database cannot: valid sheets and
        table state, and a clock nobody is timing."""
        if part.label == "characters.character":
            try:
                web = web_for(obj.ruleset)
            except LookupError:
                raise ArchiveError(
                    f"character {obj.name!r}: unknown ruleset {obj.ruleset!r}"
                ) from None
            validate = web.sheet_rules_hook("npc") if obj.kind == "npc" else None
            validate = validate or web.rules.validate_state
            try:
                validate(obj.state)
            except (RulesError, TypeError, ValueError, KeyError, AttributeError) as exc:
                raise ArchiveError(
                    f"character {obj.name!r}: the sheet is not valid ({exc})"
                ) from exc
        elif part.label == "tablestate.tablestate":
            from vtt.tablestate.services import keeps_state, validate_state

            if keeps_state(obj.ruleset):
                try:
                    validate_state(obj.ruleset, obj.state)
                except (RulesError, TypeError, ValueError, KeyError) as exc:
                    raise ArchiveError(f"the table state is not valid ({exc})") from exc
        elif part.label == "table.dungeonclock" and obj.state == ClockState.RUNNING:
            if obj.deadline is not None:
                left = (obj.deadline - self.exported_at).total_seconds()
                obj.remaining_seconds = max(0.0, left)
            obj.deadline = None
            obj.state = ClockState.PAUSED
            self.notes.append(
                f"the dungeon clock was running (turn {obj.turn}); imported paused"
                + (
                    f" with {obj.remaining_seconds:.0f} s left"
                    if obj.remaining_seconds is not None
                    else ""
                )
            )
        elif part.label == "campaigns.campaign":
            from systems import RULESET_KEYS

            if obj.ruleset not in RULESET_KEYS:
                raise ArchiveError(f"unknown ruleset {obj.ruleset!r}")
            try:
                get_ruleset(obj.ruleset).clean_settings(obj.rules or {})
            except (RulesError, TypeError, ValueError, KeyError, AttributeError) as exc:
                raise ArchiveError(f"the campaign's rule settings are not valid ({exc})") from exc
            if self.name:
                obj.name = self.name[: Campaign._meta.get_field("name").max_length]

    def _insert(self, part: Part) -> None:
        model = part.model
        rows = self.rows.get(part.label, [])
        if not rows:
            return
        pk = model._meta.pk
        stamps = [
            f.attname
            for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        objs, olds, times = [], [], []
        for row in rows:
            values = self._values(part, row)
            obj = model(**values)
            self._check(part, obj)
            if part.label == "table.eventcursor":
                obj.last_seq, obj.last_hash = self.head
            objs.append(obj)
            olds.append(row[pk.attname])
            times.append({name: values.get(name) for name in stamps})
        try:
            model._default_manager.bulk_create(objs, batch_size=500)
            if stamps:
                for obj, stamp in zip(objs, times, strict=True):
                    for name, value in stamp.items():
                        if value is not None:
                            setattr(obj, name, value)
                model._default_manager.bulk_update(objs, stamps, batch_size=500)
        except DatabaseError as exc:
            raise ArchiveError(f"{part.label}: the database refused a row ({exc})") from exc
        for obj, old in zip(objs, olds, strict=True):
            if obj.pk is None:  # pragma: no cover - every supported database returns ids
                raise ArchiveError(f"{part.label}: the database returned no ids")
            self.ids[part.label][old] = obj.pk
        if part.label == "campaigns.campaign":
            self.campaign = objs[0]

    def _commitments(self) -> None:
        """Hidden rolls: the commitment hashes a preimage that holds the roll id."""
        from vtt.table.services import roll_preimage

        reveals = {
            row["payload"].get("roll_id"): row["payload"].get("preimage")
            for row in self.rows.get("table.tableevent", [])
            if row.get("kind") == "roll.reveal" and isinstance(row.get("payload"), dict)
        }
        Roll = apps.get_model("table.roll")
        hidden = [row for row in self.rows.get("table.roll", []) if row.get("commitment")]
        new_ids = [self.ids["table.roll"][row["id"]] for row in hidden]
        rolls = Roll.objects.select_related("actor").in_bulk(new_ids)
        changed = []
        for row, new_id in zip(hidden, new_ids, strict=True):
            roll = rolls[new_id]
            preimage = reveals.get(row["id"])
            if isinstance(preimage, str):
                new_preimage = self.refs.preimage(preimage)
            else:
                new_preimage = roll_preimage(roll)
            roll.commitment = hashlib.sha256(new_preimage.encode()).hexdigest()
            self.commitments[row["commitment"]] = roll.commitment
            changed.append(roll)
        if changed:
            Roll.objects.bulk_update(changed, ["commitment"], batch_size=500)

    def _events(self, part: Part) -> None:
        prev = GENESIS_HASH
        batch: list[TableEvent] = []
        users = self.ids[USERS]
        for row in self.rows.get(part.label, []):
            for key in ("actor_id", "target_id"):
                if row.get(key) is not None and row[key] not in users:
                    raise ArchiveError(
                        f"event #{row['seq']}: user {row[key]} is not in the archive"
                    )
            event = _event(row, self.campaign.pk)
            event.payload = self.refs.payload(event.kind, event.payload)
            event.actor_id = users.get(row.get("actor_id"))
            event.target_id = users.get(row.get("target_id"))
            event.prev_hash = prev
            event.hash = chain_hash(prev, hash_body(event))
            prev = event.hash
            batch.append(event)
            if len(batch) >= 1000:
                self._save_events(batch)
                batch = []
        self._save_events(batch)
        self.head = (len(self.rows.get(part.label, [])), prev)

    def _save_events(self, batch: list[TableEvent]) -> None:
        if not batch:
            return
        try:
            TableEvent.objects.bulk_create(batch)
        except DatabaseError as exc:
            raise ArchiveError(f"the database refused an event ({exc})") from exc
