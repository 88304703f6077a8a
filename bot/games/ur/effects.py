"""The effects of a legal move, and the automatic parts of the turn."""

from __future__ import annotations

from bot.games.ur.board import (
    AGRICULTURE,
    BORDER_SIDES,
    CELL_NAMES,
    CELLS,
    COMMERCE,
    CULTURE,
    MAX_TOKENS,
    NEIGHBOURS,
    NO_BOARD_TOKENS,
    WAR,
)
from bot.games.ur.notation import SPARE, Move
from bot.games.ur.options import DONE_STEPS, has_option
from bot.games.ur.state import (
    DECLINED,
    DONE,
    PENDING,
    SACRIFICED,
    UrState,
    exchange_tile,
    free_cells,
    last_seat,
    on_board,
    owned,
    reset_turn,
    war_loss,
)

PLACEMENT_ROUNDS = 3


def _add(state: UrState, cell: int, seat: int, n: int) -> None:
    state["tokens"][cell] += n
    state["supply"][seat] -= n
    state["owner"][cell] = seat
    _touch(state, cell)


def _remove(state: UrState, cell: int, n: int) -> None:
    """Return ``n`` tokens of ``cell`` to their owner's supply; an empty tile is free."""
    seat = state["owner"][cell]
    state["tokens"][cell] -= n
    state["supply"][seat] += n
    if state["tokens"][cell] == 0:
        state["owner"][cell] = -1
    _touch(state, cell)


def _touch(state: UrState, cell: int) -> None:
    if cell not in state["touched"]:
        state["touched"].append(cell)


def _commerce(state: UrState, seat: int) -> None:
    owner, zig, tokens = state["owner"], state["zig"], state["tokens"]
    gains = []
    for c in owned(state, seat):
        if state["face"][c] == COMMERCE:
            sides = BORDER_SIDES[c] + sum(
                1 for nb in NEIGHBOURS[c] if not zig[nb] and owner[nb] not in (-1, seat))
            gains.append((c, sides))
    for c, sides in gains:
        add = min(sides, MAX_TOKENS - tokens[c], state["supply"][seat])
        if add:
            _add(state, c, seat, add)


def _culture(state: UrState, seat: int) -> None:
    owner, zig, face = state["owner"], state["zig"], state["face"]
    gains = []
    for c in range(CELLS):
        if owner[c] >= 0 and not zig[c]:
            k = sum(1 for nb in NEIGHBOURS[c]
                    if owner[nb] == seat and not zig[nb] and face[nb] == CULTURE)
            if k:
                gains.append((c, k))
    for c, k in gains:
        who = owner[c]
        add = min(k, MAX_TOKENS - state["tokens"][c], state["supply"][who])
        if add:
            _add(state, c, who, add)


def _agriculture(state: UrState, seat: int) -> None:
    face = state["face"]
    mine = owned(state, seat)
    farms = [c for c in mine if face[c] == AGRICULTURE]
    for c in mine:
        if not any(nb in farms for nb in NEIGHBOURS[c]):
            _remove(state, c, 1)
    state["agri"] = [c for c in farms if state["owner"][c] == seat]
    state["step"] = "agriculture"


def _start_action(state: UrState, seat: int, face: int) -> None:
    state["acts"][state["hand"][seat].index(face)] = DONE
    if face == COMMERCE:
        _commerce(state, seat)
    elif face == CULTURE:
        _culture(state, seat)
    elif face == AGRICULTURE:
        _agriculture(state, seat)
    elif face == WAR:
        state["step"] = "war"
    else:
        state["step"] = "politics"


def _war(state: UrState, seat: int, src: int, dst: int, n: int) -> None:
    loss = war_loss(state, src, dst)
    if state["tokens"][dst]:
        _remove(state, dst, state["tokens"][dst])
    _remove(state, src, loss + n)
    _add(state, dst, seat, n)


def _politics(state: UrState, seat: int, src: int, dst: int, n: int) -> None:
    _remove(state, src, n)
    _add(state, dst, seat, n)
    if src not in state["give"]:
        state["give"].append(src)
    if dst not in state["recv"]:
        state["recv"].append(dst)


def _ziggurat(state: UrState, seat: int, cell: int) -> None:
    _remove(state, cell, MAX_TOKENS)
    state["zig"][cell] = 1
    state["owner"][cell] = seat
    state["supply"][seat] -= 1
    state["zigs"][seat] += 1
    state["zigs_left"] -= 1
    state["built"] += 1
    state["acts"] = [SACRIFICED, SACRIFICED]
    if state["zigs_left"] == 0:
        state["final"] = True
    state["step"] = "ziggurat"


def _exchange(state: UrState, seat: int, cell: int, face: int) -> None:
    tile = exchange_tile(state, cell)
    assert tile is not None
    held = state["hand"][seat]
    state["hand"][seat] = [face, tile[1] if tile[0] == face else tile[0]]
    if cell == SPARE:
        state["spare"] = held
    else:
        state["face"][cell], state["back"][cell] = held
        _touch(state, cell)
    state["exch"] = cell
    state["step"] = "end"


def begin_turn(state: UrState, seat: int) -> None:
    """Start ``seat``'s turn: a normal turn, or a special placement without board tokens."""
    reset_turn(state)
    state["current"] = seat
    if on_board(state, seat):
        state["step"] = "choose"
    else:
        state["acts"] = [SACRIFICED, SACRIFICED]
        state["step"] = "start1" if state["zigs"][seat] else "start3"


def _end(state: UrState, seat: int) -> None:
    touched = [c for c in state["touched"] if c != state["exch"]]
    exch = state["exch"]
    state["last_turn"] = {
        "seat": seat,
        "cells": sorted((CELL_NAMES[c] for c in touched), key=lambda n: (n[1], n[0])),
        "exchanged": None if exch < 0 else ("spare" if exch == SPARE else CELL_NAMES[exch]),
    }
    state["turn"] += 1
    n = state["n"]
    nxt = (seat + 1) % n
    phase = state["phase"]
    if phase == "turn":
        if state["stuck"] or (state["final"] and seat == last_seat(state)):
            reset_turn(state)
            state["phase"], state["step"], state["current"] = "over", "over", -1
        else:
            begin_turn(state, nxt)
        return
    state["count"] += 1
    reset_turn(state)
    if phase == "placement" and state["count"] == PLACEMENT_ROUNDS * n:
        state["phase"], state["step"] = "setup_exchange", "setup_exchange"
        state["count"], state["current"] = 0, state["first"]
    elif phase == "setup_exchange" and state["count"] == n:
        state["phase"] = "turn"
        state["count"] = 0
        begin_turn(state, state["first"])
    else:
        state["current"] = nxt
        state["step"] = "place" if phase == "placement" else "setup_exchange"


def perform(state: UrState, seat: int, move: Move) -> None:
    """Apply a legal ``move`` to ``state`` in place (call on a fresh clone)."""
    kind, step = move.kind, state["step"]
    if kind == "place":
        count = NO_BOARD_TOKENS if step == "start3" else 1
        _add(state, move.cell, seat, min(count, state["supply"][seat]))
        state["step"] = "end" if step == "place" else "exchange"
    elif kind == "action":
        _start_action(state, seat, move.face)
    elif kind == "decline":
        state["acts"][state["hand"][seat].index(move.face)] = DECLINED
        state["bonus"] = 1
        state["step"] = "bonus"
    elif kind == "decline_both":
        state["acts"] = [DECLINED, DECLINED]
        state["bonus"] = 2
        state["step"] = "bonus_both"
    elif kind == "bonus":
        was_free = state["owner"][move.cell] < 0
        _add(state, move.cell, seat, 1)
        state["bonus"] = 0 if was_free else state["bonus"] - 1
        state["step"] = "bonus" if state["bonus"] else "choose"
    elif kind in ("bonus_done", "war_done", "politics_done"):
        state["bonus"] = 0
        state["step"] = "choose"
    elif kind == "war":
        _war(state, seat, move.cell, move.cell2, move.n)
    elif kind == "politics":
        _politics(state, seat, move.cell, move.cell2, move.n)
    elif kind == "agriculture":
        if move.n:
            _add(state, move.cell, seat, move.n)
        state["agri"].pop(0)
    elif kind == "ziggurat":
        _ziggurat(state, seat, move.cell)
    elif kind == "ziggurat_done":
        state["step"] = "exchange"
    elif kind == "exchange":
        _exchange(state, seat, move.cell, move.face)
    elif kind == "pass":
        state["step"] = "end"
    elif kind == "end":
        _end(state, seat)
    settle(state)


def settle(state: UrState) -> None:
    """Skip the parts of the turn that offer no choice (or only "done")."""
    while True:
        step, seat = state["step"], state["current"]
        if step == "choose":
            if PENDING in state["acts"]:
                return
            state["step"] = "exchange"
        elif step in DONE_STEPS:
            if has_option(state, seat):
                return
            state["bonus"] = 0
            state["step"] = "exchange" if step == "ziggurat" else "choose"
        elif step == "agriculture":
            agri = state["agri"]
            if not agri:
                state["step"] = "choose"
            elif min(2, MAX_TOKENS - state["tokens"][agri[0]], state["supply"][seat]) <= 0:
                agri.pop(0)
            else:
                return
        elif step in ("start3", "start1"):
            if not free_cells(state):
                state["step"] = "exchange"
            else:
                return
        elif step == "exchange":
            if not has_option(state, seat):
                state["stuck"] = True
                state["step"] = "end"
            return
        else:
            return
