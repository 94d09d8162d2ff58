"""Demo data: one campaign per ruleset, a referee and two players. Safe to run again.

The players' characters are filled in by each ruleset's plugin (``RulesetWeb.demo_sheets``:
Dungeon World classes with their moves, Crows characteristics and gear in slots), and the crypt
is a dungeon with keyed rooms on the map and an encounter table wired to it.

Each demo campaign also holds what a referee keeps from the players, made through the same
services a referee's clicks go through (so the event log has the events real play leaves): a
map on the table with fog, a hidden token, a token in the fog, a secret note; a hidden NPC and
a visible one with the referee's notes; a hidden initiative entry; a prepared dungeon with a
keyed room, treasure and a monster; a random table rolled blind; referee-only and blind rolls;
whispers; each player's private notes; in Crows the encounter check of the dungeon clock and
the party's true position on the travel map, in Savage Worlds a hidden group dealt in. Every
secret carries a marker from ``vtt.campaigns.demo_markers``: the browser tests fail if one
reaches a player who may not see it (``tests/e2e/leakscan.py``).
"""

from __future__ import annotations

import io

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from PIL import Image, ImageDraw

from systems import RULESETS
from vtt.accounts.models import User
from vtt.campaigns import demo_markers as M
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import Kind
from vtt.journal import services as journal_services
from vtt.journal.models import Sharing
from vtt.maps import services as map_services
from vtt.maps.models import GridKind, HexOrientation
from vtt.prep import services as prep_services
from vtt.prep.models import Dungeon, Room
from vtt.rulesets.registry import web_for
from vtt.table import services as table_services
from vtt.table.models import Visibility as V

DEMO_USERS = [
    ("referee", "Ведущий", Role.REFEREE),
    ("alice", "Алиса", Role.PLAYER),
    ("boris", "Борис", Role.PLAYER),
]

# The secret map: 12 × 8 cells of 50 px; the west (columns 0-5) is revealed, the east is fog.
MAP_W, MAP_H, CELL = 12, 8, 50
REVEALED = [0, 0, 5, MAP_H - 1]  # a rectangle: col0, row0, col1, row1
FLOOR_RGB = (168, 146, 112)
WALL_RGB = (70, 64, 58)


class Command(BaseCommand):
    help = "Create demo users and one campaign per ruleset (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="allow running with DEBUG off (production)"
        )

    @transaction.atomic
    def handle(self, *args, force: bool = False, **options) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("seed_demo creates well-known logins; refusing with DEBUG off.")
        password = settings.DEMO_PASSWORD
        users: dict[str, User] = {}
        for username, name, _role in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"public_name": name, "language": "ru"}
            )
            if created or not user.check_password(password) or not user.public_name:
                user.set_password(password)
                user.public_name = user.public_name or name
                user.save()
            users[username] = user
        for info in RULESETS:
            campaign, _created = Campaign.objects.get_or_create(
                name=f"Демо: {info.name_ru}",
                ruleset=info.key,
                defaults={"created_by": users["referee"]},
            )
            for username, _first, role in DEMO_USERS:
                Membership.objects.get_or_create(
                    campaign=campaign, user=users[username], defaults={"role": role}
                )
            if not Dungeon.objects.filter(campaign=campaign, name__startswith=M.DUNGEON).exists():
                seed_secrets(campaign, users)
        self.stdout.write(self.style.SUCCESS("Demo data ready. Logins (password for all):"))
        for username, name, role in DEMO_USERS:
            self.stdout.write(f"  {username:<8} / {password}   ({name}, {role})")


def seed_secrets(campaign: Campaign, users: dict[str, User]) -> None:
    """A session's worth of the referee's secrets and the players' private data (once per
    campaign: the prepared dungeon marks it done)."""
    referee, alice, boris = users["referee"], users["alice"], users["boris"]

    def create(actor: User, role: str, name: str, **kw):
        return character_services.character_create(
            campaign=campaign, actor=actor, role=role, name=name, **kw
        )

    web = web_for(campaign.ruleset)
    alice_sheet, boris_sheet = web.demo_sheets()
    alice_pc = create(
        alice, Role.PLAYER, "Ярослава", state={**alice_sheet, "notes": f"{M.ALICE_NOTES}: дочь"}
    )
    boris_pc = create(
        boris, Role.PLAYER, "Добрыня", state={**boris_sheet, "notes": f"{M.BORIS_NOTES}: долг"}
    )
    create(
        referee,
        Role.REFEREE,
        "Трактирщик Гаврила",
        kind=Kind.NPC,
        state={"notes": f"{M.NPC_NOTES}: шпион барона"},
    )
    hidden_npc = create(
        referee,
        Role.REFEREE,
        f"{M.NPC_HIDDEN} Некромант",
        kind=Kind.NPC,
        hidden=True,
        state={"notes": f"{M.NPC_HIDDEN}: ждёт в склепе"},
    )

    secret_map = _seed_map(campaign, referee, hidden_npc, alice_pc, boris_pc)
    map_services.map_create(campaign=campaign, actor=referee, name=M.MAP_INACTIVE, width=10)

    table_services.initiative_add(
        campaign=campaign,
        actor=referee,
        role=Role.REFEREE,
        name=f"{M.INITIATIVE_HIDDEN} засада",
        value=15,
        hidden=True,
    )

    table = prep_services.table_create(
        campaign=campaign,
        data={
            "key": "secret-omens",
            "name": f"{M.RANDOM_TABLE}: знамения",
            "formula": "1d6",
            "note": f"{M.RANDOM_TABLE}: бросать тайно",
            "entries": [
                {"min": 1, "max": 3, "text": f"{M.RANDOM_TABLE}: ворон на кресте"},
                {"min": 4, "max": 6, "text": f"{M.RANDOM_TABLE}: кровь на алтаре"},
            ],
        },
    )
    prep_services.table_roll(campaign=campaign, actor=referee, table=table, visibility=V.BLIND)
    room = _seed_dungeon(campaign, secret_map, hidden_npc)
    _seed_journal(campaign, users, room)

    roll = table_services.roll_create
    roll(campaign=campaign, actor=referee, notation="2d6", label="Удача отряда")
    roll(
        campaign=campaign,
        actor=referee,
        notation="2d6",
        visibility=V.REFEREE,
        label=M.ROLL_REFEREE,
    )
    roll(campaign=campaign, actor=referee, notation="1d20", visibility=V.BLIND, label=M.ROLL_BLIND)
    roll(campaign=campaign, actor=boris, notation="1d6", visibility=V.REFEREE, label=M.BORIS_ROLL)
    chat = table_services.chat_post
    chat(campaign=campaign, actor=referee, text="Добро пожаловать к столу!")
    chat(campaign=campaign, actor=referee, text=M.CHAT_REFEREE, visibility=V.REFEREE)
    chat(
        campaign=campaign,
        actor=referee,
        text=f"{M.WHISPER_TO_BORIS}: ты узнаёшь почерк",
        visibility=V.WHISPER,
        target_id=boris.pk,
    )
    chat(
        campaign=campaign,
        actor=boris,
        text=f"{M.WHISPER_TO_ALICE}: не верь трактирщику",
        visibility=V.WHISPER,
        target_id=alice.pk,
    )
    campaign_services.invite_create(campaign=campaign, created_by=referee)

    # The ruleset's own table state (Crows: an encounter check of the dungeon clock; Savage
    # Worlds: a hidden group dealt in).
    web.seed_demo_table(
        campaign, referee=referee, alice_pc=alice_pc, boris_pc=boris_pc, hidden_npc=hidden_npc
    )


# The crypt's keyed rooms besides the altar (which holds the secret markers): key, name, text,
# cells on the secret map, treasure.
ROOMS = [
    ("1", "Притвор", "Сырые ступени уходят вниз; на стенах копоть от факелов.", [[1, 1], [2, 1]]),
    ("2", "Костница", "Ниши с черепами до потолка; один череп свежий.", [[3, 4], [4, 4]]),
    ("4", "Колокольня", "Верёвка колокола оборвана; наверху гнездо воронов.", [[10, 1]]),
]
ENCOUNTERS = [
    (1, 2, "Стая крыс: 2к6 голодных тварей"),
    (3, 4, "Упырь бродит между нишами"),
    (5, 5, "Двое мародёров с фонарём"),
    (6, 6, "Культист несёт свечи к алтарю"),
]


def _seed_dungeon(campaign: Campaign, secret_map, hidden_npc) -> Room:
    """The crypt under the chapel: keyed rooms on the secret map, and the encounter table the
    referee rolls when the encounter check says something comes, wired to the dungeon."""
    encounters = prep_services.table_create(
        campaign=campaign,
        data={
            "key": "crypt-encounters",
            "name": "Встречи в склепе",
            "formula": "1d6",
            "note": f"{M.RANDOM_TABLE}: бросать, когда проверка на встречу показывает встречу",
            "entries": [{"min": lo, "max": hi, "text": text} for lo, hi, text in ENCOUNTERS],
        },
    )
    dungeon = prep_services.dungeon_create(
        campaign=campaign,
        name=f"{M.DUNGEON}: склеп под часовней",
        description=f"{M.DUNGEON}: построен культом",
        map_id=secret_map.pk,
        encounter_table_id=encounters.pk,
    )
    for key, name, text, cells in ROOMS:
        prep_services.room_create(dungeon=dungeon, key=key, name=name, text=text, cells=cells)
    room = prep_services.room_create(
        dungeon=dungeon,
        key="3",
        name="Алтарь",
        text=f"{M.ROOM_TEXT}: за алтарём тайный ход",
        cells=[[9, 4], [10, 4]],
        treasure=[f"{M.TREASURE}: серебряный потир"],
    )
    prep_services.room_monster_add(
        room=room, character_id=hidden_npc.pk, note=f"{M.ROOM_MONSTER}: спит до полуночи"
    )
    return room


def _seed_journal(campaign: Campaign, users: dict[str, User], room: Room) -> None:
    """An unshared entry with an image, linked to the room; a letter for Boris alone; one
    shared with everyone; Alice's private note."""

    def member(name: str) -> Membership:
        return Membership.objects.select_related("campaign").get(
            campaign=campaign, user=users[name]
        )

    gm = member("referee")
    secret = journal_services.entry_create(
        gm,
        title=f"{M.JOURNAL_SECRET}: дневник культиста",
        body=f"**{M.JOURNAL_SECRET}**: ключ от склепа у трактирщика",
        room_id=room.pk,
    )
    image = io.BytesIO()
    Image.new("RGB", (64, 48), M.SECRET_RGB).save(image, "PNG")
    journal_services.image_add(
        gm,
        secret,
        SimpleUploadedFile("cult.png", image.getvalue(), content_type="image/png"),
        label=f"{M.JOURNAL_SECRET}: знак культа",
    )
    journal_services.entry_create(
        gm,
        title=f"{M.JOURNAL_TO_BORIS}: письмо от сестры",
        body=f"{M.JOURNAL_TO_BORIS}: не верь барону",
        sharing=Sharing.CHOSEN,
        readers=[users["boris"].pk],
    )
    journal_services.entry_create(
        gm, title="Слухи в деревне", body="Говорят, в склепе [[неспокойно]].",
        sharing=Sharing.EVERYONE,
    )  # fmt: skip
    journal_services.entry_create(
        member("alice"), title=f"{M.ALICE_JOURNAL}: мои подозрения", body="Гаврила лжёт."
    )


def _seed_map(campaign: Campaign, referee: User, hidden_npc, alice_pc, boris_pc):
    """The map on the table: a battle map on squares (a ruleset with a travel day: a travel
    map on flat hexes with the party's true position) whose east is still fog."""
    crows = web_for(campaign.ruleset).hex_travel
    m = map_services.map_create(
        campaign=campaign,
        actor=referee,
        name="Склеп под часовней" if not crows else "Пустоши",
        kind=GridKind.HEX if crows else GridKind.SQUARE,
        orientation=HexOrientation.FLAT,
        width=MAP_W,
        height=MAP_H,
        cell_px=CELL,
    )
    m = map_services.background_set(map=m, actor=referee, upload=_background(m))
    map_services.fog_change(map=m, actor=referee, reveal=True, rect=REVEALED)
    token = map_services.token_create
    token(map=m, actor=referee, name="Страж у ворот", col=2, row=2)
    token(map=m, actor=referee, name=alice_pc.name, col=1, row=1, character_id=alice_pc.pk, speed=6)
    token(map=m, actor=referee, name=boris_pc.name, col=1, row=4, character_id=boris_pc.pk, speed=6)
    token(map=m, actor=referee, name=M.TOKEN_HIDDEN, col=3, row=5, character_id=hidden_npc.pk)
    token(map=m, actor=referee, name=M.TOKEN_FOGGED, col=9, row=4)
    note = map_services.note_create
    note(map=m, actor=referee, col=1, row=6, text="Здесь пахнет серой", secret=False)
    note(map=m, actor=referee, col=4, row=2, text=f"{M.MAP_NOTE_SECRET}: растяжка", secret=True)
    note(map=m, actor=referee, col=10, row=6, text=f"{M.MAP_NOTE_FOGGED}: дверь", secret=False)
    if crows:
        map_services.terrain_paint(map=m, actor=referee, terrain="ruins", cells=[[9, 4]])
        map_services.terrain_paint(map=m, actor=referee, terrain="forest", cells=[[2, 3]])
        # The party believes it is at (2, 3); it truly is at (8, 5), still in the fog.
        map_services.party_set(map=m, actor=referee, shown=[2, 3], true=[8, 5], reveal=None)
    else:
        map_services.features_paint(map=m, actor=referee, cells=[[9, 3]], cover="wall")
        map_services.features_paint(map=m, actor=referee, cells=[[2, 5]], cover="low")
    map_services.map_activate(campaign=campaign, actor=referee, map_id=m.pk)
    m.refresh_from_db()
    return m


def _background(m) -> SimpleUploadedFile:
    """A floor with walls, and the fogged rooms painted in ``SECRET_RGB`` (so an unmasked copy
    that reached a player would show them)."""
    from systems.core.grid import pixel_size

    width, height = (round(x) for x in pixel_size(m.kind, m.orientation, CELL, MAP_W, MAP_H))
    image = Image.new("RGB", (width, height), FLOOR_RGB)
    draw = ImageDraw.Draw(image)
    for x in range(0, width, CELL * 2):
        draw.line([(x, 0), (x, height)], fill=WALL_RGB, width=3)
    draw.rectangle([round(width * 0.6), 0, width, height], fill=M.SECRET_RGB)
    out = io.BytesIO()
    image.save(out, "PNG")
    return SimpleUploadedFile("crypt.png", out.getvalue(), content_type="image/png")
