"""The Ur state (:class:`UrState`): its layout, creation, and the queries the rules share."""

from __future__ import annotations

import random
from typing import Any, Literal, TypedDict

from bot.engine import Text
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


Phase = Literal["placement", "setup_exchange", "turn", "over"]
Step = Literal["place", "setup_exchange", "start3", "start1", "choose", "bonus", "bonus_both",
               "war", "politics", "agriculture", "ziggurat", "exchange", "end", "over"]
"""``start3`` / ``start1``: a turn without tokens on the board."""


class LastTurn(TypedDict):
    """The turn ended last, which the board highlights."""

    seat: int
    cells: list[str]
    """The cells it changed, by name."""
    exchanged: str | None
    """The cell whose tile it exchanged (``spare`` for the spare tile), if any."""


class UrTurn(TypedDict):
    """The fields of the turn under way (:func:`fresh_turn`)."""

    acts: list[int]
    """The state of the held tile's two actions (PENDING, DONE, DECLINED, SACRIFICED)."""
    bonus: int
    """Extra tokens still to place."""
    give: list[int]
    """Politics: the tiles that gave tokens."""
    recv: list[int]
    """Politics: the tiles that received tokens."""
    agri: list[int]
    """Agriculture tiles still to fill."""
    built: int
    """Ziggurats built this turn."""
    touched: list[int]
    """The cells changed."""
    exch: int
    """The cell exchanged (SPARE for the spare tile), -1 none."""
    stuck: bool
    """No exchange is possible."""


class UrState(UrTurn):
    """An Ur state: a flat JSON dict of small lists, one entry per cell or per seat. Cells are
    0-35 in reading order, seats 0-based; a tile is ``[face, back]``, face the side shown."""

    n: int
    face: list[int]
    back: list[int]
    owner: list[int]
    """Per cell: the seat with tokens there, -1 for a free tile (a tile emptied by any means
    becomes free again); a ziggurat's builder."""
    tokens: list[int]
    """Per cell: tokens on it (0 on a ziggurat: its marker is counted in ``zigs``)."""
    zig: list[int]
    """Per cell: 1 for a ziggurat."""
    hand: list[list[int]]
    """Per seat: the tile it holds."""
    spare: list[int] | None
    """The spare tile, if any."""
    supply: list[int]
    """Per seat: tokens not on the board."""
    zigs: list[int]
    """Per seat: ziggurats built."""
    zigs_left: int
    first: int
    """The first player."""
    current: int
    """The seat to move, -1 when the game is over."""
    phase: Phase
    step: Step
    turn: int
    """Turns ended."""
    count: int
    """Turns done in a setup phase."""
    final: bool
    """The fifth ziggurat is built: the round ends the game."""
    last_turn: LastTurn | None


def fresh_turn() -> UrTurn:
    """The per-turn fields at the start of a turn."""
    return {"acts": [PENDING, PENDING], "bonus": 0, "give": [], "recv": [],
            "agri": [], "built": 0, "touched": [], "exch": -1, "stuck": False}


def reset_turn(state: UrState) -> None:
    """Give ``state`` the per-turn fields of a new turn."""
    fresh = fresh_turn()
    state["acts"], state["bonus"] = fresh["acts"], fresh["bonus"]
    state["give"], state["recv"], state["agri"] = fresh["give"], fresh["recv"], fresh["agri"]
    state["built"], state["touched"] = fresh["built"], fresh["touched"]
    state["exch"], state["stuck"] = fresh["exch"], fresh["stuck"]


def new_state(seed: int, n_players: int) -> UrState:
    """The state after the seeded setup: grid, hands, spare, first player to place."""
    rng = random.Random(seed)
    faces, backs, leftovers = build_grid(rng)
    first = rng.randrange(n_players)
    return {
        "n": n_players,
        "face": faces, "back": backs, "owner": [-1] * CELLS, "tokens": [0] * CELLS,
        "zig": [0] * CELLS,
        "hand": [list(leftovers[i]) for i in range(n_players)],
        "spare": list(leftovers[n_players]) if n_players < len(leftovers) else None,
        "supply": [TOKENS] * n_players, "zigs": [0] * n_players,
        "zigs_left": ZIGGURATS, "first": first, "current": first,
        "phase": "placement", "step": "place", "turn": 0, "count": 0, "final": False,
        "last_turn": None,
        **fresh_turn(),
    }




# ---------------------------------------------------------------- queries


def on_board(state: UrState, seat: int) -> int:
    """Tokens of ``seat`` on civilization tiles (ziggurat markers excluded)."""
    return sum(t for o, t in zip(state["owner"], state["tokens"], strict=True) if o == seat)


def owned(state: UrState, seat: int) -> list[int]:
    """Cells owned by ``seat`` (ziggurats excluded), in reading order."""
    owner, zig = state["owner"], state["zig"]
    return [c for c in range(CELLS) if owner[c] == seat and not zig[c]]


def free_cells(state: UrState) -> list[int]:
    """Free tiles on the board (no token, no ziggurat)."""
    owner, zig = state["owner"], state["zig"]
    return [c for c in range(CELLS) if owner[c] < 0 and not zig[c]]


def placement_round(state: UrState) -> int:
    """1, 2 or 3 during the placement phase."""
    return int(state["count"]) // int(state["n"]) + 1


def last_seat(state: UrState) -> int:
    """The last player of a round (to the right of the first player)."""
    return (int(state["first"]) - 1) % int(state["n"])


def war_loss(state: UrState, src: int, dst: int) -> int:
    """Tokens the attacker loses before moving in (French FAQ ruling on step 3)."""
    face = state["face"]
    extra = 0 if face[src] == face[dst] or face[src] == WAR else 1
    return int(state["tokens"][dst]) + extra


def exchange_tile(state: UrState, cell: int) -> list[int] | None:
    """The [face, back] of the tile at ``cell`` (or the spare), or None if absent."""
    if cell == SPARE:
        spare: list[int] | None = state["spare"]
        return spare
    return [state["face"][cell], state["back"][cell]]


def face_text(face: int) -> Text:
    """The catalogue name of a face."""
    return Text.of("ur.face." + FACES[face])


def prompt(state: UrState) -> Text:
    """What the current step asks for."""
    step: str = state["step"]
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
