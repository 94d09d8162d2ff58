"""``manage.py export_campaign <id> <archive>``: one campaign and everything of it, in a zip."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from vtt.campaigns.archive import ArchiveError, export_campaign


class Command(BaseCommand):
    help = (
        "Write a campaign (sheets and their history, maps and images, prep, table state, rolls "
        "and the whole event log) to a new versioned archive. See docs/operations.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign_id", type=int, help="id of the campaign to export")
        parser.add_argument("archive", help="path of the archive to create (never overwritten)")

    def handle(self, *args, campaign_id: int, archive: str, **options) -> None:
        try:
            result = export_campaign(campaign_id, archive)
        except ArchiveError as exc:
            raise CommandError(f"Export refused: {exc}") from exc
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        rows = ", ".join(f"{label}={n}" for label, n in result.counts.items() if n)
        self.stdout.write(f"rows: {rows}")
        self.stdout.write(f"event log head: {result.head}")
        self.stdout.write(
            self.style.SUCCESS(f"Exported campaign {result.campaign_id} to {result.path}")
        )
