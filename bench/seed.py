"""Create the benchmark's campaigns, members, API tokens and logged-in sessions, fast.

Run inside the bench's own database (``python -m bench.seed --tables N --clients M --rollers R
--out plan.json``). Bench users get an unusable password: nobody logs in with one; the
websocket clients get sessions written straight into the session store and the load generator
gets API tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
from datetime import timedelta

import django


def seed(tables: int, clients: int, rollers: int) -> dict:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from vtt.accounts.models import User
    from vtt.campaigns.models import Campaign, Membership, Role
    from vtt.table.models import EventCursor

    if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        raise SystemExit(f"bench.seed writes database sessions, not {settings.SESSION_ENGINE}")
    per_table = clients + rollers
    with transaction.atomic():
        users = User.objects.bulk_create(
            User(
                username=f"bench-{t}-{j}",
                first_name=f"Bench {t}.{j}",
                password="!" + secrets.token_hex(16),  # unusable: no hashing cost
            )
            for t in range(tables)
            for j in range(per_table)
        )
        campaigns = Campaign.objects.bulk_create(
            Campaign(
                name=f"Bench table {t}", ruleset="dungeon_world", created_by=users[t * per_table]
            )
            for t in range(tables)
        )
        Membership.objects.bulk_create(
            Membership(
                campaign=campaigns[t],
                user=users[t * per_table + j],
                role=Role.REFEREE if j == 0 else Role.PLAYER,
            )
            for t in range(tables)
            for j in range(per_table)
        )
        EventCursor.objects.bulk_create(EventCursor(campaign=c) for c in campaigns)
        tokens = Token.objects.bulk_create(
            Token(key=Token.generate_key(), user=users[t * per_table + clients + r])
            for t in range(tables)
            for r in range(rollers)
        )
        expire = timezone.now() + timedelta(days=1)
        session_keys: list[str] = []
        sessions: list[Session] = []
        store = SessionStore()
        for t in range(tables):
            for j in range(clients):
                user = users[t * per_table + j]
                key = secrets.token_hex(16)
                data = {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                }
                session_keys.append(key)
                sessions.append(
                    Session(session_key=key, session_data=store.encode(data), expire_date=expire)
                )
        Session.objects.bulk_create(sessions)
    return {
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "tables": [
            {
                "id": campaigns[t].pk,
                "tokens": [tokens[t * rollers + r].key for r in range(rollers)],
                "sessions": session_keys[t * clients : (t + 1) * clients],
            }
            for t in range(tables)
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--rollers", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    django.setup()
    plan = seed(args.tables, args.clients, args.rollers)
    with open(args.out, "w") as f:
        json.dump(plan, f)


if __name__ == "__main__":
    main()
