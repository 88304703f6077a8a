"""Ur components, cell geometry and the seeded starting grid.

Cells are numbered 0..35 in reading order: cell ``r * 6 + c`` is column
``"ABCDEF"[c]``, row ``r + 1`` (cell 7 is ``"B2"``). Faces are indices into
``FACES``. Component counts come from ``data/ur/components.json``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from bot.games import content

_COMPONENTS: dict[str, Any] = content.load("ur", "components")

FACES: tuple[str, ...] = tuple(_COMPONENTS["faces"])
FACE_INDEX: dict[str, int] = {name: i for i, name in enumerate(FACES)}
AGRICULTURE, COMMERCE, CULTURE, POLITICS, WAR = (FACE_INDEX[f] for f in (
    "agriculture", "commerce", "culture", "politics", "war"))
COPIES: int = _COMPONENTS["copies_per_pair"]
SIZE: int = _COMPONENTS["grid_size"]
CELLS: int = SIZE * SIZE
ZIGGURATS: int = _COMPONENTS["ziggurats"]
TOKENS: int = _COMPONENTS["tokens_per_player"]
MAX_TOKENS: int = _COMPONENTS["max_tokens_per_tile"]
MAX_ZIGGURATS_PER_TURN: int = _COMPONENTS["max_ziggurats_per_turn"]
NO_BOARD_TOKENS: int = _COMPONENTS["tokens_no_board_turn"]
SET_POINTS: tuple[int, ...] = tuple(_COMPONENTS["set_points"])

COLUMNS = "ABCDEF"[:SIZE]
CELL_NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}


def _neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, SIZE)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            out.append(rr * SIZE + cc)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))
"""Orthogonal neighbours of each cell."""
BORDER_SIDES: tuple[int, ...] = tuple(4 - len(n) for n in NEIGHBOURS)
"""How many sides of each cell touch the outer border of the grid."""

PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(len(FACES)), 2))
"""The unordered pairs of actions; each tile is one pair."""


def build_grid(rng: random.Random) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """Faces and backs of the 36 grid cells, plus the 4 leftover tiles (face, back).

    No two orthogonally adjacent cells show the same face. Construction (always
    succeeds): fill cells in reading order; a cell's only constraints are the
    faces of its left and upper neighbours, and a tile fails there only if its
    pair is exactly those two faces. At most ``COPIES`` (4) tiles have that pair
    while at least 5 tiles remain for every cell, so a fitting tile always exists.
    """
    tiles = [pair for pair in PAIRS for _ in range(COPIES)]
    rng.shuffle(tiles)
    faces: list[int] = []
    backs: list[int] = []
    for cell in range(CELLS):
        r, c = divmod(cell, SIZE)
        banned = set()
        if c:
            banned.add(faces[cell - 1])
        if r:
            banned.add(faces[cell - SIZE])
        fitting = [i for i, pair in enumerate(tiles) if not banned.issuperset(pair)]
        a, b = tiles.pop(fitting[rng.randrange(len(fitting))])
        options = [(f, k) for f, k in ((a, b), (b, a)) if f not in banned]
        face, back = options[rng.randrange(len(options))]
        faces.append(face)
        backs.append(back)
    leftovers = [(a, b) if rng.randrange(2) else (b, a) for a, b in tiles]
    return faces, backs, leftovers
