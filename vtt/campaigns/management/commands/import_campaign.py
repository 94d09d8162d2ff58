"""``manage.py import_campaign <archive>``: a new campaign from an archive, all or nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from vtt.campaigns.archive import ArchiveError, import_campaign
from vtt.campaigns.services import NAME_MAX


class Command(BaseCommand):
    help = (
        "Create a new campaign (new ids) from an archive made by export_campaign. Members are "
        "matched to accounts by username; missing ones become inactive placeholder users. A bad "
        "archive is refused and nothing changes. See docs/operations.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", help="path of the archive to import")
        parser.add_argument("--name", help="name for the new campaign (default: the archived one)")

    def handle(self, *args, archive: str, name: str | None = None, **options) -> None:
        if name is not None:
            name = " ".join(name.split())
            if not 1 <= len(name) <= NAME_MAX:
                raise CommandError(f"Import refused: --name takes 1 to {NAME_MAX} characters.")
        try:
            result = import_campaign(archive, name=name)
        except ArchiveError as exc:
            raise CommandError(f"Import refused, nothing was changed: {exc}") from exc
        for note in result.notes:
            self.stdout.write(f"note: {note}")
        rows = ", ".join(f"{label}={n}" for label, n in result.counts.items() if n)
        self.stdout.write(f"rows: {rows}")
        self.stdout.write(f"event log re-chained: head {result.old_head} -> {result.new_head}")
        campaign = result.campaign
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported as campaign {campaign.pk} “{campaign.name}” (/campaigns/{campaign.pk}/)"
            )
        )
