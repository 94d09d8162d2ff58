"""The result every rule returns (DESIGN.md: ``out.total, out.band, out.faces, ...``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Text:
    """A message in both UI languages; Russian terms come from the rulebooks."""

    ru: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"ru": self.ru, "en": self.en}


@dataclass(frozen=True)
class Option:
    """One choice a player or referee may pick after a roll (e.g. a Volley 7-9 option)."""

    key: str
    ru: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"key": self.key, "ru": self.ru, "en": self.en}


@dataclass
class Outcome:
    """What a move did. ``state`` is the new sheet state; the input state is never mutated.

    ``options``/``pick`` describe a pending choice: who must choose is ``chooser``
    ("player" or "referee"); the choice is made with ``Ruleset.apply_choice``.
    """

    move: str
    total: int | None = None
    band: str | None = None
    faces: list[int] = field(default_factory=list)
    modifier: int = 0
    options: list[Option] = field(default_factory=list)
    pick: int = 0
    chooser: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    text: Text = field(default_factory=lambda: Text("", ""))
    flags: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def pending(self) -> bool:
        return self.pick > 0 and bool(self.options)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = [o.as_dict() for o in self.options]
        data["text"] = self.text.as_dict()
        data["pending"] = self.pending
        return data


def outcome_from_dict(data: dict[str, Any]) -> Outcome:
    """Rebuild an ``Outcome`` saved as JSON (a pending move resumed later, maybe elsewhere)."""
    fields = {k: v for k, v in data.items() if k in Outcome.__dataclass_fields__}
    fields["options"] = [Option(**o) for o in data.get("options", [])]
    text = data.get("text") or {"ru": "", "en": ""}
    fields["text"] = Text(text.get("ru", ""), text.get("en", ""))
    return Outcome(**fields)
