"""The journal's event kind, declared in the table's registry (vtt/table/kinds.py)."""

from vtt.journal.services import HANDOUT
from vtt.table.kinds import Kind, opt, register, req
from vtt.table.models import Visibility as V

register(
    Kind(
        HANDOUT,
        "The referee shows a journal entry: to everyone, or one whisper to each chosen player.",
        {"entry": req(int), "title": req(str), "html": req(str), "images": req(list),
         "actor_name": opt(str)},
        (V.EVERYONE, V.WHISPER),
        ids={"entry": "journal_entry"},
    ),
)  # fmt: skip
