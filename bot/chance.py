"""Randomness that lives in the state: a seed and a counter, for dice and draws mid-game.

An engine keeps ``state[KEY] = chance.start(seed)`` and, while it applies a step,
draws through :class:`Draw`. Each draw seeds ``random.Random`` with the seed and the
counter, then moves the counter on: the same state always draws the same numbers
(replaying the log is exact), and the box is plain JSON.

The box is the future of the game: :func:`hide` takes it out of every view, and a
``determinize`` that rebuilds a state for the AI puts :func:`resample` in its place,
so the AI never knows what will be drawn. The core sees that a step drew randomness
when the counter moved (:func:`drew`): such a step cannot be undone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

KEY = "chance"
"""Where a state keeps its box of randomness."""

T = TypeVar("T")


def start(seed: int) -> dict[str, int]:
    """A new box of randomness for ``state[KEY]``."""
    return {"seed": seed, "count": 0}


def resample(rng: random.Random) -> dict[str, int]:
    """A box with an unknown future, for a state guessed from a view (AI look-ahead)."""
    return start(rng.getrandbits(63))


def hide(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the box of randomness."""
    return {key: value for key, value in view.items() if key != KEY}


def drew(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """True if randomness was drawn between ``before`` and ``after``."""
    old, new = before.get(KEY), after.get(KEY)
    return old is not None and new is not None and old["count"] != new["count"]


class Draw:
    """Draws from the box of a state being built by ``apply`` (it moves the counter)."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self._box: dict[str, int] = state[KEY]

    def _next(self) -> random.Random:
        rng = random.Random(f"{self._box['seed']}:{self._box['count']}")
        self._box["count"] += 1
        return rng

    def die(self, sides: int = 6) -> int:
        """One die: 1 to ``sides``."""
        return self._next().randint(1, sides)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """``count`` dice rolled together."""
        rng = self._next()
        return [rng.randint(1, sides) for _ in range(count)]

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``."""
        return self._next().randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place."""
        self._next().shuffle(items)
