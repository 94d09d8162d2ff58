"""A populated world for the bad-input suites: one campaign per ruleset with a member of every
role, sheets, maps, tokens, notes, initiative, invites, hidden rolls, preparation, journal
entries (one shared, one not, each with an image) and a waiting choice, all made through the
real services and API, once per module (tests roll back their own changes; the module's
transaction is rolled back at the end)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from systems import RULESETS
from systems.core.dice import ScriptedDice
from vtt.accounts.models import User
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, PendingMove
from vtt.table import services as table_services
from vtt.table.models import InitiativeEntry, Visibility

ROLES = ("referee", "player", "observer", "outsider", "anonymous")


def fuzz_examples(default: int) -> int:
    """How many examples each fuzz test draws: small in CI, ``VTT_FUZZ_EXAMPLES`` for more."""
    return int(os.environ.get("VTT_FUZZ_EXAMPLES") or default)


def fuzz_derandomize() -> bool:
    """CI replays the same examples every run; a long run (VTT_FUZZ_EXAMPLES set) explores."""
    return not os.environ.get("VTT_FUZZ_EXAMPLES")


@dataclass
class World:
    users: dict[str, User | None]
    tokens: dict[str, str]
    campaigns: dict[str, Campaign]
    # path parameter name -> real ids worth aiming at (visible ones and hidden ones)
    ids: dict[str, list[Any]] = field(default_factory=dict)

    def headers(self, role: str) -> dict[str, str]:
        if role == "anonymous":
            return {}
        return {"Authorization": f"Token {self.tokens[role]}"}

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[role]}")
        return client


def _ok(response, *codes: int) -> dict:
    assert response.status_code in (codes or (200, 201)), (response.status_code, response.content)
    return response.json() if response.content else {}


def build_world() -> World:
    users: dict[str, User | None] = {"anonymous": None}
    for role in ("referee", "player", "other_player", "observer", "outsider"):
        users[role] = User.objects.create_user(username=f"fuzz-{role}", password=None)
    tokens = {role: Token.objects.create(user=u).key for role, u in users.items() if u}
    world = World(users=users, tokens=tokens, campaigns={})
    ids: dict[str, list[Any]] = {k: [] for k in (
        "id", "cid", "map_id", "token_id", "note_id", "entry_id", "invite_id", "user_id",
        "roll_id", "did", "rid", "mid", "tid", "pending_id", "token", "key", "move", "jid",
        "image_id",
    )}  # fmt: skip
    gm = world.client("referee")
    referee = users["referee"]
    for info in RULESETS:
        campaign = campaign_services.campaign_create(
            user=referee, name=f"Фазз {info.key}", ruleset=info.key
        )
        world.campaigns[info.key] = campaign
        for role, member_role in (
            ("player", Role.PLAYER),
            ("other_player", Role.PLAYER),
            ("observer", Role.OBSERVER),
        ):
            Membership.objects.create(campaign=campaign, user=users[role], role=member_role)
        cid = campaign.pk
        ids["id"].append(cid)
        base = f"/api/campaigns/{cid}"
        pc = character_services.character_create(
            campaign=campaign, actor=referee, role=Role.REFEREE, name="Ава",
            owner_id=users["player"].pk,
        )  # fmt: skip
        other = character_services.character_create(
            campaign=campaign, actor=referee, role=Role.REFEREE, name="Бран",
            owner_id=users["other_player"].pk,
        )  # fmt: skip
        npc = character_services.character_create(
            campaign=campaign, actor=referee, role=Role.REFEREE, name="Тайный", kind="npc",
            hidden=True,
        )  # fmt: skip
        ids["cid"] += [pc.pk, other.pk, npc.pk]
        game_map = _ok(gm.post(f"{base}/maps/", {"name": "Склеп"}, format="json"))
        map_id = game_map["map"]["id"]
        ids["map_id"].append(map_id)
        _ok(gm.post(f"{base}/maps/{map_id}/activate/", {}, format="json"))
        for name, hidden, col in (("Ава", False, 1), ("Огр", True, 2)):
            token = _ok(
                gm.post(
                    f"{base}/maps/{map_id}/tokens/",
                    {"name": name, "col": col, "row": 1, "hidden": hidden,
                     **({"character_id": pc.pk} if not hidden else {})},
                    format="json",
                )
            )  # fmt: skip
            ids["token_id"].append(token["id"])
        for text, secret in (("Дверь", False), ("Клад", True)):
            note = _ok(
                gm.post(
                    f"{base}/maps/{map_id}/notes/",
                    {"col": 0, "row": 0, "text": text, "secret": secret},
                    format="json",
                )
            )
            ids["note_id"].append(note["id"])
        for name, hidden in (("Ава", False), ("Засада", True)):
            _ok(
                gm.post(
                    f"{base}/initiative/", {"name": name, "value": 5, "hidden": hidden},
                    format="json",
                )
            )  # fmt: skip
        ids["entry_id"] += InitiativeEntry.objects.filter(campaign=campaign).values_list(
            "pk", flat=True
        )
        for title, sharing in (("Письмо", "everyone"), ("Тайная глава", "nobody")):
            entry = _ok(
                gm.post(f"{base}/journal/", {"title": title, "sharing": sharing}, format="json")
            )
            ids["jid"].append(entry["id"])
            image = io.BytesIO()
            Image.new("RGB", (8, 8), (90, 10, 10)).save(image, "PNG")
            upload = SimpleUploadedFile("handout.png", image.getvalue())
            with_image = _ok(gm.post(f"{base}/journal/{entry['id']}/images/", {"image": upload}))
            ids["image_id"].append(with_image["images"][0]["id"])
        invite = campaign_services.invite_create(campaign=campaign, created_by=referee)
        ids["invite_id"].append(invite.pk)
        ids["token"].append(invite.token)
        ids["user_id"] += [users["player"].pk, users["observer"].pk, referee.pk]
        hidden_roll, _ = table_services.roll_create(
            campaign=campaign, actor=referee, notation="1d20", visibility=Visibility.BLIND,
            dice=ScriptedDice([17]),
        )  # fmt: skip
        ids["roll_id"].append(hidden_roll.pk)
        dungeon = _ok(gm.post(f"{base}/prep/dungeons/", {"name": "Подземелье"}, format="json"))
        ids["did"].append(dungeon["id"])
        room = _ok(
            gm.post(
                f"{base}/prep/dungeons/{dungeon['id']}/rooms/",
                {"key": "1", "name": "Зал", "text": "Тихо."},
                format="json",
            )
        )
        ids["rid"].append(room["id"])
        monster = _ok(
            gm.post(
                f"{base}/prep/rooms/{room['id']}/monsters/",
                {"character_id": npc.pk, "count": 2},
                format="json",
            )
        )
        ids["mid"].append(monster["id"])
        table = _ok(
            gm.post(
                f"{base}/prep/tables/",
                {
                    "key": "fuzz",
                    "name": "Таблица",
                    "formula": "1d2",
                    "entries": [
                        {"min": 1, "max": 1, "text": "Крыса"},
                        {"min": 2, "max": 2, "text": "Тишина"},
                    ],
                },
                format="json",
            )
        )
        ids["tid"].append(table["id"])
        describe = gm.get(f"/api/rulesets/{info.key}/").json()
        ids["move"] += [m["key"] for m in describe["moves"]][:4]
        ids["key"].append(info.key)
        from vtt.prep.library import npc_blocks

        ids["key"] += [b["key"] for b in npc_blocks(info.key)][:1]
    # A choice waiting for the player: Discern Realities on 10+ asks three questions.
    dw = world.campaigns["dungeon_world"]
    pc = Character.objects.filter(campaign=dw, owner=users["player"]).first()
    _outcome, pending = character_services.move_make(
        character=pc, actor=users["player"], move="discern_realities", dice=ScriptedDice([6, 6])
    )
    if pending is not None:
        ids["pending_id"].append(pending.pk)
    ids["pending_id"] += list(PendingMove.objects.values_list("pk", flat=True)[:3])
    world.ids = {k: sorted(set(v), key=str) for k, v in ids.items()}
    return world
