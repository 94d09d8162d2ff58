"""The contract every ruleset package implements (DESIGN.md, "The rules core")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Outcome


class RulesError(ValueError):
    """A move was asked for with parameters or a state the rules do not allow.

    ``errors`` maps a field (or ``"__all__"``) to messages with ``ru`` and ``en`` text, so the
    API can answer 400 with field errors in the user's language.
    """

    def __init__(self, errors: dict[str, list[dict[str, str]]] | str) -> None:
        if isinstance(errors, str):
            errors = {"__all__": [{"ru": errors, "en": errors}]}
        self.errors = errors
        first = next(iter(errors.values()))[0]
        super().__init__(first.get("en") or first.get("ru"))


class Ruleset(ABC):
    """One game's rules as pure functions: state and parameters in, an ``Outcome`` out."""

    key: str
    name_ru: str
    name_en: str
    # What the table page offers besides the log and the roll bar. A ruleset turns on what its
    # rules have, so a generic page asks these flags instead of comparing ruleset keys.
    dungeon_clock: bool = False  # a timed dungeon turn with an end-of-turn procedure
    initiative_tracker: bool = True  # False: the ruleset deals initiative itself (an action deck)

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """JSON-able description: moves with parameters, sheet schema, names in ru and en."""

    @abstractmethod
    def default_state(self) -> dict[str, Any]:
        """A fresh, valid character sheet state."""

    @abstractmethod
    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Return the cleaned state or raise ``RulesError`` with field errors."""

    @abstractmethod
    def resolve(self, move: str, state: dict[str, Any], *, dice: Dice, **params: Any) -> Outcome:
        """Make a move. Never mutates ``state``; the new state is ``Outcome.state``."""

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending outcome with the chosen option keys (default: nothing pending)."""
        raise RulesError(
            {"choices": [{"ru": "Этот ход не ждёт выбора.", "en": "This move awaits no choice."}]}
        )

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact chance of each band before rolling; empty when a move does not roll."""
        return {}
