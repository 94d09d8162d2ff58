"""Plumbing every ruleset package shares, so each ``ruleset.py`` keeps only its own rules.

A ruleset that keeps its moves as ``MoveSpec`` data and runs them as ``_do_<move>(call)``
methods gets from here: the common parts of ``describe()`` (name, settings, move lists, the
parameters every move takes), the first steps of validating a call (campaign settings out of
the parameters, the move looked up) and ``resolve`` itself (``MoveDispatch``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Outcome
from systems.core.ruleset import RulesError, Ruleset
from systems.core.schema import MoveSpec, ObjectField, fail

SETTINGS_RU = "Настройки кампании"
SETTINGS_EN = "Campaign settings"


def without_source(data: dict[str, Any]) -> dict[str, Any]:
    """A spec's fields for ``describe()`` without ``source``: the rulebook citation is for
    readers of the code; players read the move's own names and texts."""
    return {k: v for k, v in data.items() if k != "source"}


def describe_head(ruleset: Ruleset) -> dict[str, Any]:
    """The first keys of every ``describe()``: the ruleset's key and its names."""
    return {"key": ruleset.key, "name": {"ru": ruleset.name_ru, "en": ruleset.name_en}}


def describe_settings(settings: ObjectField) -> dict[str, Any]:
    """The campaign settings' form and their defaults, as ``describe()`` shows them."""
    return {"settings": settings.describe(), "settings_defaults": settings.default_value()}


def describe_moves(moves: Iterable[MoveSpec]) -> dict[str, Any]:
    """Moves (rolled by the table) and actions (sheet bookkeeping), each in spec order."""
    moves = tuple(moves)
    return {
        "moves": [m.describe() for m in moves if m.kind == "move"],
        "actions": [m.describe() for m in moves if m.kind == "action"],
    }


def common_params(
    choices_ru: str,
    choices_en: str,
    *,
    settings_ru: str = SETTINGS_RU,
    settings_en: str = SETTINGS_EN,
) -> dict[str, Any]:
    """The ``common_params`` entry: the two parameters every move accepts besides its own."""
    return {
        "common_params": {
            "settings": {"ru": settings_ru, "en": settings_en},
            "choices": {"ru": choices_ru, "en": choices_en},
        }
    }


def settings_spec(fields: dict[str, Any]) -> ObjectField:
    """A ruleset's campaign-settings spec: one object labelled the same way in every game."""
    return ObjectField(ru=SETTINGS_RU, en=SETTINGS_EN, fields=fields)


def unknown_move(move: str) -> RulesError:
    """The error for a move name the ruleset does not have (400 with a field error)."""
    return fail("move", f"Нет такого хода: {move}.", f"No such move: {move}.")


@dataclass
class MoveCall:
    """One ``resolve`` call: the spec, a private copy of the state, clean params, settings."""

    spec: MoveSpec
    state: dict[str, Any]
    params: dict[str, Any]
    dice: Dice | None
    settings: dict[str, Any]


def split_call(
    move: str,
    params: Mapping[str, Any],
    *,
    clean_settings: Callable[[dict[str, Any] | None], dict[str, Any]],
    moves_by_key: Mapping[str, MoveSpec],
) -> tuple[MoveSpec, dict[str, Any], dict[str, Any]]:
    """First steps of checking a call: clean the campaign settings taken out of ``params``,
    drop ``choices`` (``resolve`` handles them) and look the move up.

    Returns ``(spec, settings, move_params)``; the move's own parameters are left for the
    caller to validate against ``spec.params``. Settings are checked before the move name,
    so a bad setting is reported first, as every ruleset did before.
    """
    rest = dict(params)
    settings = clean_settings(rest.pop("settings", None))
    rest.pop("choices", None)
    spec = moves_by_key.get(move)
    if spec is None:
        raise unknown_move(move)
    return spec, settings, rest


class MoveDispatch(Ruleset):
    """``resolve`` for rulesets whose moves are ``_do_<move>(call)`` methods.

    The subclass provides ``_call(move, state, dice, params)`` (validate everything once) and
    the ``_do_*`` methods; a ``choices`` parameter answers a pending choice at once.
    """

    @abstractmethod
    def _call(self, move: str, state: Any, dice: Dice | None, params: dict) -> Any:
        """Validate settings, state and parameters once; the ``_do_*`` methods take this."""

    def resolve(self, move: str, state: dict[str, Any], *, dice: Dice, **params: Any) -> Outcome:
        """Make a move: validate, run ``_do_<move>`` and, given ``choices``, finish its choice."""
        call = self._call(move, state, dice, params)
        outcome = getattr(self, f"_do_{move}")(call)
        choices = params.get("choices")
        if choices is not None and outcome.pending:
            outcome = self.apply_choice(outcome, list(choices), dice=dice)
        return outcome
