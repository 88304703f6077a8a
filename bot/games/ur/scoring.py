"""Final scoring: the exact best partition of a player's tiles into sets.

A set holds at most one tile of each face (so at most 5 tiles) plus at most one
ziggurat; sets score ``SET_POINTS[size]`` (1/3/6/10/15/21). A ziggurat that
joins no set scores as a one-tile set (see RULINGS.md). The search is exact
(memoised over sorted face counts), not greedy.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from bot.games.ur.board import FACE_INDEX, FACES, SET_POINTS


@cache
def _best(counts: tuple[int, ...], zigs: int) -> tuple[int, tuple[int, ...]]:
    """Best (points, set sizes) for sorted face counts and ziggurats left to place."""
    present = [i for i, n in enumerate(counts) if n]
    if not present:
        return SET_POINTS[1] * zigs, (1,) * zigs
    head, rest = present[0], present[1:]
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            left = list(counts)
            for i in (head, *others):
                left[i] -= 1
            key = tuple(sorted(left, reverse=True))
            for zig in range(min(zigs, 1) + 1):
                size = k + 1 + zig
                points, sizes = _best(key, zigs - zig)
                total = SET_POINTS[size] + points
                if total > best[0]:
                    best = (total, tuple(sorted((size, *sizes), reverse=True)))
    return best


def best_sets(face_counts: Sequence[int], hand: tuple[int, int] | None,
              ziggurats: int) -> tuple[int, tuple[int, ...]]:
    """Best (points, set sizes) for face counts, an optional held tile and ziggurats."""
    options = [list(face_counts)]
    if hand is not None:
        options = []
        for face in hand:
            counts = list(face_counts)
            counts[face] += 1
            options.append(counts)
    return max(_best(tuple(sorted(c, reverse=True)), ziggurats) for c in options)


def score_sets(faces: Sequence[str], hand: tuple[str, str] | None, ziggurats: int) -> int:
    """Victory points of owned tiles' visible ``faces``, the held tile and ziggurats.

    ``faces`` are action names ("war", ...), ``hand`` the two action names of the
    held tile (its scoring face chosen freely) or None.
    """
    counts = [0] * len(FACES)
    for face in faces:
        counts[FACE_INDEX[face]] += 1
    held = None if hand is None else (FACE_INDEX[hand[0]], FACE_INDEX[hand[1]])
    return best_sets(counts, held, ziggurats)[0]
