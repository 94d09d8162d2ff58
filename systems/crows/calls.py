"""The two small records every Crows ``resolve`` passes around."""

from __future__ import annotations

from dataclasses import dataclass

from systems.core.rulekit import MoveCall

# One ``resolve`` call: the spec, a private clean copy of the state, params, settings.
Call = MoveCall


@dataclass(frozen=True)
class Setup:
    """Everything a check adds to the dice, worked out before rolling (also for odds).

    ``expertise_keys`` narrows the expertises offered after the roll (a spell's discipline).
    """

    kind: str
    characteristic: str
    value: int
    advantages: int
    disadvantages: int
    sources: tuple[str, ...]
    parts: dict[str, int]
    auto_doom: bool
    force_tier3: bool
    attack: str
    expertise_keys: tuple[str, ...] | None = None

    @property
    def bonus(self) -> int:
        return sum(self.parts.values())
