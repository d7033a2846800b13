"""Where dice faces come from.

A ruleset asks a :class:`Dice` for faces and records every face in the event
that used it; replay reads those faces back and never rolls again.

* :class:`SeededDice` is the game's generator.  Its stream for a command is a
  pure function of the game's seed and the command's number in the file, so the
  same command replayed from a script gives the same faces, and a command issued
  again after an undo gets fresh ones (the earlier roll stays in the log).
* :class:`ManualDice` takes faces typed by a referee rolling real dice, or fixed
  by a script.  When it runs out it raises :class:`NeedDice`, naming what is
  wanted, so a client can ask for those faces and resolve the command again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class NeedDice(Exception):
    """More faces are needed than were given."""

    def __init__(self, count: int, sides: int, purpose: str) -> None:
        super().__init__(f"{purpose} needs {count} more d{sides}")
        self.count = count
        self.sides = sides
        self.purpose = purpose


class Dice:
    manual = False

    def roll(self, count: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        raise NotImplementedError

    def shuffle(self, items: list, purpose: str = "shuffle") -> list:
        """A shuffled copy of ``items`` (card decks)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            (j,) = self.roll(1, i + 1, purpose)
            out[i], out[j - 1] = out[j - 1], out[i]
        return out


class SeededDice(Dice):
    def __init__(self, seed: int, cmd: int) -> None:
        self._rng = random.Random(f"fireteam:{seed}:{cmd}")

    def roll(self, count: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        r = self._rng.randrange
        return tuple(r(sides) + 1 for _ in range(count))


class ManualDice(Dice):
    manual = True

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._faces = list(faces)
        self._used = 0

    def roll(self, count: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        left = len(self._faces) - self._used
        if left < count:
            raise NeedDice(count - left, sides, purpose)
        faces = tuple(self._faces[self._used : self._used + count])
        for f in faces:
            if not 1 <= f <= sides:
                raise ValueError(f"{purpose}: a d{sides} cannot show {f}")
        self._used += count
        return faces

    @property
    def unused(self) -> int:
        return len(self._faces) - self._used


def parse_faces(text: str) -> list[int]:
    """'6,4,3' or '6 4 3' or '643' (single digits) → [6, 4, 3]."""
    text = text.strip()
    if not text:
        return []
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdigit() and len(parts[0]) > 1 and "0" not in parts[0]:
        parts = list(parts[0])
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"dice faces must be numbers, not {text!r}") from None
