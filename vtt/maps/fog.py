"""Fog of war as a bitset: one bit per cell, row-major, set = revealed. Pure Python.

Changes travel as *runs*: ``[[start, length], ...]`` over row-major cell indexes, so revealing a
whole 200 × 200 map is 200 pairs, not 40 000 cells.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]


class Fog:
    __slots__ = ("bits", "height", "width")

    def __init__(self, width: int, height: int, data: bytes | None, *, revealed: bool) -> None:
        self.width, self.height = width, height
        size = (width * height + 7) // 8
        raw = bytes(data or b"")
        if len(raw) == size:
            self.bits = bytearray(raw)
        else:  # a new map (or a damaged row): every cell gets the default
            self.bits = bytearray(b"\xff" * size if revealed else b"\x00" * size)
            self._clear_tail()

    @classmethod
    def for_map(cls, m) -> Fog:
        return cls(m.width, m.height, m.revealed, revealed=not m.fogged)

    def _clear_tail(self) -> None:
        extra = len(self.bits) * 8 - self.width * self.height
        if extra:
            self.bits[-1] &= 0xFF >> extra

    def to_bytes(self) -> bytes:
        return bytes(self.bits)

    def index(self, col: int, row: int) -> int:
        return row * self.width + col

    def inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.width and 0 <= row < self.height

    def is_revealed(self, col: int, row: int) -> bool:
        if not self.inside(col, row):
            return False
        i = row * self.width + col
        return bool(self.bits[i >> 3] & (1 << (i & 7)))

    def any_revealed(self, cells: Iterable[Cell]) -> bool:
        return any(self.is_revealed(c, r) for c, r in cells)

    def all_revealed(self, cells: Iterable[Cell]) -> bool:
        return all(self.is_revealed(c, r) for c, r in cells)

    def set(self, cells: Iterable[Cell], revealed: bool) -> list[int]:
        """Reveal or hide cells (outside ones are ignored); returns the indexes that changed."""
        changed = []
        for col, row in cells:
            if not self.inside(col, row):
                continue
            i = row * self.width + col
            byte, bit = i >> 3, 1 << (i & 7)
            if bool(self.bits[byte] & bit) != revealed:
                self.bits[byte] ^= bit
                changed.append(i)
        return sorted(set(changed))

    def set_all(self, revealed: bool) -> list[int]:
        return self.set(self.cells(), revealed)

    def cells(self) -> Iterable[Cell]:
        return ((c, r) for r in range(self.height) for c in range(self.width))

    def revealed_indexes(self) -> list[int]:
        out = []
        for byte_index, byte in enumerate(self.bits):
            if not byte:
                continue
            base = byte_index * 8
            for bit in range(8):
                if byte & (1 << bit):
                    out.append(base + bit)
        return out

    def count(self) -> int:
        return sum(bin(b).count("1") for b in self.bits)

    def runs(self) -> list[list[int]]:
        return to_runs(self.revealed_indexes())

    def resized(self, width: int, height: int, *, new_revealed: bool) -> Fog:
        """The same cells in a new rectangle; cells that did not exist get ``new_revealed``."""
        fog = Fog(width, height, None, revealed=new_revealed)
        for row in range(min(height, self.height)):
            for col in range(min(width, self.width)):
                fog.set([(col, row)], self.is_revealed(col, row))
        return fog


def to_runs(indexes: Iterable[int]) -> list[list[int]]:
    """Sorted cell indexes → ``[[start, length], ...]``."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and runs[-1][0] + runs[-1][1] == i:
            runs[-1][1] += 1
        else:
            runs.append([i, 1])
    return runs


def from_runs(runs: Iterable[Iterable[int]]) -> list[int]:
    out: list[int] = []
    for start, length in runs:
        out.extend(range(start, start + length))
    return out
