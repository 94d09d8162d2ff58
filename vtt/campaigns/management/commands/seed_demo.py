"""Demo data: one campaign per ruleset, a referee and two players. Safe to run again."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from systems import RULESETS
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role

DEMO_USERS = [
    ("referee", "Ведущий", Role.REFEREE),
    ("alice", "Алиса", Role.PLAYER),
    ("boris", "Борис", Role.PLAYER),
]


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
        for username, first_name, _role in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"first_name": first_name, "language": "ru"}
            )
            if created or not user.check_password(password):
                user.set_password(password)
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
        self.stdout.write(self.style.SUCCESS("Demo data ready. Logins (password for all):"))
        for username, first_name, role in DEMO_USERS:
            self.stdout.write(f"  {username:<8} / {password}   ({first_name}, {role})")
