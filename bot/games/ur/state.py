"""The Ur state: its layout, creation, copying, and the queries the rules share.

The state is a flat JSON dict of small lists (one entry per cell or per seat):

- ``face``/``back``/``owner``/``tokens``/``zig``: per cell; ``owner`` is -1 for
  a free tile (a tile emptied by any means becomes free again); a ziggurat cell
  has ``zig`` 1, ``owner`` = builder, ``tokens`` 0 (its marker is counted in ``zigs``).
- ``hand`` ([face, back] per seat, face = side shown), ``spare`` ([face, back] or None),
  ``supply``, ``zigs`` per seat; ``zigs_left``; ``first``, ``current`` (-1 when over),
  ``phase``, ``step``, ``turn``, ``count`` (turns done in a setup phase), ``final``
  (the fifth ziggurat is built), ``last_turn``.
- The current turn: ``acts`` (state of the held tile's two actions), ``bonus``
  (extra tokens still to place), ``give``/``recv`` (Politics: tiles that gave,
  tiles that received), ``agri`` (Agriculture tiles still to fill), ``built``
  (ziggurats this turn), ``touched`` (cells changed), ``exch`` (cell exchanged,
  -1 none), ``stuck`` (no exchange possible).

Steps (``step``): ``place`` (placement rounds), ``setup_exchange``, ``start3`` /
``start1`` (turn without tokens on the board), ``choose``, ``bonus``,
``bonus_both``, ``war``, ``politics``, ``agriculture``, ``ziggurat``,
``exchange``, ``end``, ``over``.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine import State, Text
from bot.games.kit import Layout
from bot.games.ur.board import CELL_NAMES, CELLS, FACES, TOKENS, WAR, ZIGGURATS, build_grid
from bot.games.ur.notation import SPARE

PENDING, DONE, DECLINED, SACRIFICED = 0, 1, 2, 3
"""States of the held tile's two actions during a turn (``acts``)."""

LAYOUT = Layout(flat=("face", "back", "owner", "tokens", "zig", "supply", "zigs", "acts", "give",
                      "recv", "agri", "touched"),
                nested=("hand", "spare", "last_turn"))
"""The keys holding lists of numbers (per cell, per seat, of the turn) and the others holding
lists or dicts, for :func:`bot.games.kit.clone`."""


def fresh_turn() -> dict[str, Any]:
    """The per-turn fields at the start of a turn."""
    return {"acts": [PENDING, PENDING], "bonus": 0, "give": [], "recv": [],
            "agri": [], "built": 0, "touched": [], "exch": -1, "stuck": False}


def new_state(seed: int, n_players: int) -> State:
    """The state after the seeded setup: grid, hands, spare, first player to place."""
    rng = random.Random(seed)
    faces, backs, leftovers = build_grid(rng)
    first = rng.randrange(n_players)
    state: State = {
        "n": n_players,
        "face": faces, "back": backs, "owner": [-1] * CELLS, "tokens": [0] * CELLS,
        "zig": [0] * CELLS,
        "hand": [list(leftovers[i]) for i in range(n_players)],
        "spare": list(leftovers[n_players]) if n_players < len(leftovers) else None,
        "supply": [TOKENS] * n_players, "zigs": [0] * n_players,
        "zigs_left": ZIGGURATS, "first": first, "current": first,
        "phase": "placement", "step": "place", "turn": 0, "count": 0, "final": False,
        "last_turn": None,
    }
    state.update(fresh_turn())
    return state




# ---------------------------------------------------------------- queries


def on_board(state: State, seat: int) -> int:
    """Tokens of ``seat`` on civilization tiles (ziggurat markers excluded)."""
    return sum(t for o, t in zip(state["owner"], state["tokens"], strict=True) if o == seat)


def owned(state: State, seat: int) -> list[int]:
    """Cells owned by ``seat`` (ziggurats excluded), in reading order."""
    owner, zig = state["owner"], state["zig"]
    return [c for c in range(CELLS) if owner[c] == seat and not zig[c]]


def free_cells(state: State) -> list[int]:
    """Free tiles on the board (no token, no ziggurat)."""
    owner, zig = state["owner"], state["zig"]
    return [c for c in range(CELLS) if owner[c] < 0 and not zig[c]]


def placement_round(state: State) -> int:
    """1, 2 or 3 during the placement phase."""
    return int(state["count"]) // int(state["n"]) + 1


def last_seat(state: State) -> int:
    """The last player of a round (to the right of the first player)."""
    return (int(state["first"]) - 1) % int(state["n"])


def war_loss(state: State, src: int, dst: int) -> int:
    """Tokens the attacker loses before moving in (French FAQ ruling on step 3)."""
    face = state["face"]
    extra = 0 if face[src] == face[dst] or face[src] == WAR else 1
    return int(state["tokens"][dst]) + extra


def exchange_tile(state: State, cell: int) -> list[int] | None:
    """The [face, back] of the tile at ``cell`` (or the spare), or None if absent."""
    if cell == SPARE:
        spare: list[int] | None = state["spare"]
        return spare
    return [state["face"][cell], state["back"][cell]]


def face_text(face: int) -> Text:
    """The catalogue name of a face."""
    return Text.of("ur.face." + FACES[face])


def prompt(state: State) -> Text:
    """What the current step asks for."""
    step = state["step"]
    args: dict[str, Any] = {}
    if step == "place":
        args["round"] = placement_round(state)
    elif step == "choose" and state["current"] >= 0:
        hand = state["hand"][state["current"]]
        args = {"a": face_text(hand[0]), "b": face_text(hand[1])}
    elif step == "agriculture" and state["agri"]:
        args["cell"] = CELL_NAMES[state["agri"][0]]
    elif step == "bonus":
        args["n"] = state["bonus"]
    elif step == "end" and state["stuck"]:
        step = "end_stuck"
    return Text.of("ur.step." + step, **args)
