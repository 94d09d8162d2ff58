"""``manage.py protocol_doc``: regenerate the kinds table of docs/table-protocol.md from the
registry (vtt/table/kinds.py), so the document cannot drift from what the code publishes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from vtt.table import kinds

DOC = Path(settings.BASE_DIR) / "docs" / "table-protocol.md"


class Command(BaseCommand):
    help = "Regenerate the list of event kinds in docs/table-protocol.md (--check: only compare)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--check", action="store_true", help="fail if the doc is out of date")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        text = DOC.read_text(encoding="utf-8")
        new = kinds.render_doc(text)
        if check:
            if new != text:
                raise CommandError("docs/table-protocol.md is out of date: run protocol_doc")
            return
        if new != text:
            DOC.write_text(new, encoding="utf-8")
        self.stdout.write(f"{len(kinds.KINDS)} event kinds in {DOC.name}")
