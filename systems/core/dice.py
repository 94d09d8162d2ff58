"""Dice sources. Rules take a ``Dice`` so tests can script every face (DESIGN.md, rules core)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable


class DiceError(Exception):
    """A scripted die was misused: the test's script does not match what the rule rolled."""


@runtime_checkable
class Dice(Protocol):
    """Anything that can roll one die with ``sides`` faces and return a face in 1..sides."""

    def roll(self, sides: int) -> int: ...


class RandomDice:
    """Production dice: ``secrets.SystemRandom`` so no global random state is shared or seeded."""

    _rng = secrets.SystemRandom()

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        return self._rng.randint(1, sides)

    def shuffle(self, items: list) -> None:
        """Shuffle in place (card decks); kept here so decks can be scripted too."""
        self._rng.shuffle(items)


class ScriptedDice:
    """Returns the given faces in order; fails loudly on a wrong die size, on running out, and
    (through ``assert_done`` or the context manager) on faces left over."""

    def __init__(self, faces: Iterable[int], *, shuffles: Iterable[list] | None = None) -> None:
        self._faces = list(faces)
        self._pos = 0
        self._shuffles = list(shuffles or [])
        self.rolled: list[tuple[int, int]] = []  # (sides, face) in roll order, for assertions

    def roll(self, sides: int) -> int:
        if self._pos >= len(self._faces):
            raise DiceError(
                f"ScriptedDice ran out after {self._pos} faces; the rule wanted another d{sides}"
            )
        face = self._faces[self._pos]
        if not 1 <= face <= sides:
            raise DiceError(f"scripted face #{self._pos + 1} is {face}, impossible on a d{sides}")
        self._pos += 1
        self.rolled.append((sides, face))
        return face

    def shuffle(self, items: list) -> None:
        """Replace ``items`` by the next scripted order (a permutation of the same items)."""
        if not self._shuffles:
            raise DiceError("ScriptedDice has no scripted shuffle left")
        order = self._shuffles.pop(0)
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise DiceError("scripted shuffle is not a permutation of the deck")
        items[:] = order

    @property
    def remaining(self) -> list[int]:
        return self._faces[self._pos :]

    def assert_done(self) -> None:
        if self.remaining or self._shuffles:
            raise DiceError(f"ScriptedDice has unused faces {self.remaining}")

    def __enter__(self) -> ScriptedDice:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.assert_done()
