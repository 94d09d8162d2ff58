"""Seed the fault tests' private database: campaigns with a referee, players and an observer,
each with an API token and a logged-in session (``python -m tests.chaos.seed``)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import django


def seed(campaigns: int, players: int) -> dict[str, Any]:
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    from tests.helpers import session_cookie
    from vtt.accounts.models import User
    from vtt.campaigns import services
    from vtt.campaigns.models import Membership, Role

    plan: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "campaigns": []}
    for n in range(campaigns):
        names = [("gm", Role.REFEREE)] + [(f"p{i}", Role.PLAYER) for i in range(1, players + 1)]
        names.append(("obs", Role.OBSERVER))
        users = {
            name: User.objects.create_user(username=f"c{n}-{name}", password=None)
            for name, _role in names
        }
        campaign = services.campaign_create(user=users["gm"], name=f"Хаос {n}", ruleset="crows")
        for name, role in names[1:]:
            Membership.objects.create(campaign=campaign, user=users[name], role=role)
        members = []
        for name, role in names:
            user = users[name]
            members.append(
                {
                    "name": name,
                    "id": user.pk,
                    "role": str(role),
                    "token": Token.objects.create(user=user).key,
                    "cookie": session_cookie(user),
                }
            )
        plan["campaigns"].append({"id": campaign.pk, "members": members})
    return plan


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, required=True)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    django.setup()
    with open(args.out, "w") as f:
        json.dump(seed(args.campaigns, args.players), f)


if __name__ == "__main__":
    main()
