"""The legal moves of the current step, generated directly (fast path for ``legal``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.ur.board import CELLS, FACES, MAX_TOKENS, MAX_ZIGGURATS_PER_TURN, NEIGHBOURS
from bot.games.ur.notation import SPARE, Move
from bot.games.ur.state import PENDING, UrState, free_cells, owned, placement_round, war_loss

DONE_STEPS = {"bonus": "bonus_done", "bonus_both": "bonus_done", "war": "war_done",
              "politics": "politics_done", "ziggurat": "ziggurat_done"}
"""Steps that end with an explicit "done" move, and that move's kind."""

_EXCHANGES = [[Move("exchange", c, face=f) for f in range(len(FACES))] for c in range(CELLS + 1)]


def _exchange_moves(state: UrState, seat: int) -> list[Move]:
    """The legal exchanges: free tiles (and the spare), with a different pair in a turn."""
    face, back, owner, zig = state["face"], state["back"], state["owner"], state["zig"]
    held = state["hand"][seat]
    banned = 1 << held[0] | 1 << held[1] if state["phase"] == "turn" else 0
    moves = []
    for c in range(CELLS):
        if owner[c] < 0 and not zig[c]:
            f, b = face[c], back[c]
            if 1 << f | 1 << b != banned:
                row = _EXCHANGES[c]
                moves.append(row[f])
                moves.append(row[b])
    spare = state["spare"]
    if spare is not None and 1 << spare[0] | 1 << spare[1] != banned:
        moves.append(_EXCHANGES[SPARE][spare[0]])
        moves.append(_EXCHANGES[SPARE][spare[1]])
    return moves


def _placements(state: UrState, seat: int) -> list[Move]:
    owner, zig = state["owner"], state["zig"]
    if state["supply"][seat] <= 0:
        return []
    if state["step"] != "place" or placement_round(state) == 1:
        return [Move("place", c) for c in free_cells(state)]
    return [Move("place", c) for c in range(CELLS)
            if not zig[c] and ((owner[c] == seat and state["tokens"][c] < MAX_TOKENS) or (
                owner[c] < 0 and any(owner[nb] == seat for nb in NEIGHBOURS[c])))]


def _choices(state: UrState, seat: int) -> list[Move]:
    hand, acts = state["hand"][seat], state["acts"]
    moves = [Move("action", face=f) for f, a in zip(hand, acts, strict=True) if a == PENDING]
    moves += [Move("decline", face=f) for f, a in zip(hand, acts, strict=True) if a == PENDING]
    if acts == [PENDING, PENDING]:
        moves.append(Move("decline_both"))
        moves += _ziggurats(state, seat)
    return moves


def _ziggurats(state: UrState, seat: int) -> list[Move]:
    if state["zigs_left"] <= 0 or state["built"] >= MAX_ZIGGURATS_PER_TURN:
        return []
    tokens = state["tokens"]
    return [Move("ziggurat", c) for c in owned(state, seat) if tokens[c] == MAX_TOKENS]


def _bonuses(state: UrState, seat: int) -> list[Move]:
    if state["supply"][seat] <= 0:
        return []
    tokens = state["tokens"]
    moves = [Move("bonus", c) for c in owned(state, seat) if tokens[c] < MAX_TOKENS]
    if state["step"] == "bonus_both":
        moves += [Move("bonus", c) for c in free_cells(state)]
    return moves


def _attacks(state: UrState, seat: int) -> list[Move]:
    owner, zig, tokens = state["owner"], state["zig"], state["tokens"]
    moves = []
    for src in owned(state, seat):
        for dst in NEIGHBOURS[src]:
            if not zig[dst] and owner[dst] != seat:
                most = min(tokens[src] - war_loss(state, src, dst), MAX_TOKENS)
                moves += [Move("war", src, dst, n) for n in range(1, most + 1)]
    return moves


def _transfers(state: UrState, seat: int) -> list[Move]:
    tokens = state["tokens"]
    give, recv = state["give"], state["recv"]
    mine = owned(state, seat)
    sinks = [c for c in mine if c not in give and tokens[c] < MAX_TOKENS]
    moves = []
    for src in mine:
        if src in recv:
            continue
        for dst in sinks:
            if dst != src:
                most = min(tokens[src], MAX_TOKENS - tokens[dst])
                moves += [Move("politics", src, dst, n) for n in range(1, most + 1)]
    return moves


def _farming(state: UrState, seat: int) -> list[Move]:
    cell = state["agri"][0]
    most = min(2, MAX_TOKENS - state["tokens"][cell], state["supply"][seat])
    return [Move("agriculture", cell, n=n) for n in range(most + 1)]


def _setup_exchanges(state: UrState, seat: int) -> list[Move]:
    return [*_exchange_moves(state, seat), Move("pass")]


def _end_only(state: UrState, seat: int) -> list[Move]:
    return [Move("end")] if state["step"] == "end" else []


_OPTIONS: dict[str, Callable[[UrState, int], list[Move]]] = {
    "place": _placements, "start3": _placements, "start1": _placements,
    "setup_exchange": _setup_exchanges,
    "exchange": _exchange_moves,
    "choose": _choices,
    "bonus": _bonuses, "bonus_both": _bonuses,
    "war": _attacks,
    "politics": _transfers,
    "agriculture": _farming,
    "ziggurat": _ziggurats,
    "end": _end_only,
    "over": _end_only,
}


def legal_moves(state: UrState, seat: int) -> list[Move]:
    """The legal moves of ``seat`` now (empty if it is not its turn).

    Generated directly for speed; a property test checks that each one passes
    :func:`reason` and that random other moves do not.
    """
    if seat != state["current"]:
        return []
    step = state["step"]
    moves = _OPTIONS[step](state, seat)
    done = DONE_STEPS.get(step)
    if done is not None:
        moves.append(Move(done))
    return moves


def has_option(state: UrState, seat: int) -> bool:
    """Whether the current step offers anything but "done"."""
    return bool(_OPTIONS[state["step"]](state, seat))
