"""Create the benchmark's campaigns, members, API tokens, sheets, maps and sessions, fast.

Run inside the bench's own database (``python -m bench.seed --tables N --clients M --rollers R
--out plan.json``, or ``--groups 100x6,1x6,1x50`` for tables of several sizes at once, as
``bench.compare`` seeds every scenario in one database). Bench users get an unusable password:
nobody logs in with one; the websocket clients get sessions written straight into the session
store and the rollers also get API tokens.

Per table: user 0 is the referee (with an API token, for the dungeon clock) and users 0..M-1
hold the websocket sessions. The rollers are the last R of them (players): each acts through its
own socket, as a browser does (``bench.clients``), or with its API token, as a script does
(``bench.loadgen``), and is one of the table's receiving sockets either way. With
``--characters`` each roller gets a Dungeon World character (the ruleset's default sheet,
validated as ``characters.services.character_create`` does); with ``--map-tokens T`` the table
gets one active, fully revealed square map (``--map-size`` cells a side) with T tokens, the
first R of them the rollers' characters'. One more table, ``probe``, is seeded the same way
with everything and no sockets: ``bench.probe`` counts queries on it without touching the
measured tables' logs.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
from datetime import timedelta
from typing import Any

import django


def seed(
    groups: list[tuple[int, int]],
    rollers: int,
    *,
    characters: bool = False,
    map_tokens: int = 0,
    map_size: int = 100,
) -> dict[str, Any]:
    """Seed the measured tables (``groups``: how many tables of how many sockets each) plus the
    probe table; return the plan (JSON-ready)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from systems import get_ruleset
    from vtt.accounts.models import User
    from vtt.campaigns.models import Campaign, Membership, Role
    from vtt.characters.models import Character, CharacterChange, Kind
    from vtt.maps.fog import Fog
    from vtt.maps.models import Map
    from vtt.maps.models import Token as MapToken
    from vtt.table.models import EventCursor

    if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        raise SystemExit(f"bench.seed writes database sessions, not {settings.SESSION_ENGINE}")
    sizes = [clients for count, clients in groups for _ in range(count)]
    if any(clients <= rollers for clients in sizes):
        raise SystemExit(f"every table needs more than {rollers} sockets: the referee and rollers")
    tables = len(sizes)
    sizes.append(rollers + 1)  # the probe table: its referee and rollers, no sockets
    total = tables + 1
    first = [sum(sizes[:t]) for t in range(total)]  # each table's user 0

    def member(t: int, j: int) -> int:
        return first[t] + j

    def roller(t: int, r: int) -> int:
        return first[t] + sizes[t] - rollers + r

    ruleset = get_ruleset("dungeon_world")
    with transaction.atomic():
        users = User.objects.bulk_create(
            User(
                username=f"bench-{t}-{j}",
                first_name=f"Bench {t}.{j}",
                password="!" + secrets.token_hex(16),  # unusable: no hashing cost
            )
            for t in range(total)
            for j in range(sizes[t])
        )
        campaigns = Campaign.objects.bulk_create(
            Campaign(
                name=f"Bench table {t}", ruleset="dungeon_world", created_by=users[member(t, 0)]
            )
            for t in range(total)
        )
        Membership.objects.bulk_create(
            Membership(
                campaign=campaigns[t],
                user=users[member(t, j)],
                role=Role.REFEREE if j == 0 else Role.PLAYER,
            )
            for t in range(total)
            for j in range(sizes[t])
        )
        EventCursor.objects.bulk_create(EventCursor(campaign=c) for c in campaigns)
        tokens = Token.objects.bulk_create(
            Token(key=Token.generate_key(), user=users[roller(t, r)])
            for t in range(total)
            for r in range(rollers)
        )
        referee_tokens = Token.objects.bulk_create(
            Token(key=Token.generate_key(), user=users[member(t, 0)]) for t in range(total)
        )
        with_sheets = {t for t in range(total) if characters or map_tokens or t == tables}
        sheets: dict[int, list[Character]] = {}
        for t in sorted(with_sheets):
            made = []
            for r in range(rollers):
                state = ruleset.default_state()
                name = f"Hero {t}.{r}"
                if "name" in state:
                    state["name"] = name
                made.append(
                    Character(
                        campaign=campaigns[t],
                        owner=users[roller(t, r)],
                        kind=Kind.PC,
                        ruleset="dungeon_world",
                        name=name,
                        state=ruleset.validate_state(state),
                    )
                )
            sheets[t] = made
        all_sheets = Character.objects.bulk_create(c for t in sorted(sheets) for c in sheets[t])
        CharacterChange.objects.bulk_create(
            CharacterChange(
                character=c,
                version=1,
                actor=c.owner,
                reason="create",
                diff=[],
                state=c.state,
            )
            for c in all_sheets
        )
        with_maps = {t for t in range(total) if map_tokens or t == tables}
        revealed = Fog(map_size, map_size, None, revealed=True).to_bytes()
        maps = {
            t: m
            for t, m in zip(
                sorted(with_maps),
                Map.objects.bulk_create(
                    Map(
                        campaign=campaigns[t],
                        name=f"Bench map {t}",
                        width=map_size,
                        height=map_size,
                        fogged=False,
                        revealed=revealed,
                        active=True,
                    )
                    for t in sorted(with_maps)
                ),
                strict=True,
            )
        }
        per_map = max(map_tokens, rollers, 1)
        map_tokens_made = MapToken.objects.bulk_create(
            (
                MapToken(
                    map=maps[t],
                    name=f"Hero {t}.{j}" if j < rollers else f"Token {j}",
                    character=sheets[t][j] if j < rollers else None,
                    color="#2f6b3a" if j < rollers else "#7a2e1f",
                    # rollers' tokens start at (0, r) and walk along their own row (loadgen);
                    # the others fill the rest of the map from the far corner
                    col=0 if j < rollers else map_size - 1 - (j % map_size),
                    row=j if j < rollers else map_size - 1 - (j // map_size) % map_size,
                    speed=6,
                )
                for t in sorted(maps)
                for j in range(per_map)
            ),
            batch_size=2000,
        )
        tokens_by_table: dict[int, list[int]] = {}
        for tok, t in zip(
            map_tokens_made, (t for t in sorted(maps) for _j in range(per_map)), strict=True
        ):
            tokens_by_table.setdefault(t, []).append(tok.pk)
        expire = timezone.now() + timedelta(days=1)
        session_keys: dict[int, list[str]] = {}
        sessions: list[Session] = []
        store = SessionStore()
        for t in range(tables):
            for j in range(sizes[t]):
                user = users[member(t, j)]
                key = secrets.token_hex(16)
                data = {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                }
                session_keys.setdefault(t, []).append(key)
                sessions.append(
                    Session(session_key=key, session_data=store.encode(data), expire_date=expire)
                )
        Session.objects.bulk_create(sessions)

    def table(t: int) -> dict[str, Any]:
        return {
            "id": campaigns[t].pk,
            "tokens": [tokens[t * rollers + r].key for r in range(rollers)],
            "referee_token": referee_tokens[t].key,
            "characters": [c.pk for c in sheets.get(t, [])],
            "map_id": maps[t].pk if t in maps else None,
            "map_tokens": tokens_by_table.get(t, [])[:rollers],
            "sessions": session_keys.get(t, []),
            # the rollers' sockets: indices into sessions (the last R, players)
            "rollers": [len(session_keys.get(t, [])) - rollers + r for r in range(rollers)]
            if t in session_keys
            else [],
        }

    return {
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "map_size": map_size,
        "map_tokens": per_map if maps else 0,
        "tables": [table(t) for t in range(tables)],
        "probe": table(tables),
    }


def parse_groups(text: str) -> list[tuple[int, int]]:
    """``100x6,1x50`` → ``[(100, 6), (1, 50)]``: how many tables of how many sockets."""
    groups = []
    for part in text.split(","):
        count, _, clients = part.strip().partition("x")
        groups.append((int(count), int(clients)))
    return groups


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=0)
    parser.add_argument("--clients", type=int, default=0, help="sockets per table")
    parser.add_argument("--groups", default="", help="tables of several sizes: 100x6,1x50")
    parser.add_argument("--rollers", type=int, default=1)
    parser.add_argument("--characters", action="store_true", help="a DW sheet per roller")
    parser.add_argument("--map-tokens", type=int, default=0, help="tokens per map (0: no map)")
    parser.add_argument("--map-size", type=int, default=100)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    django.setup()
    groups = parse_groups(args.groups) if args.groups else [(args.tables, args.clients)]
    plan = seed(
        groups,
        args.rollers,
        characters=args.characters,
        map_tokens=args.map_tokens,
        map_size=args.map_size,
    )
    with open(args.out, "w") as f:
        json.dump(plan, f)


if __name__ == "__main__":
    main()
