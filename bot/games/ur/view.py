"""The public view of Ur, and the state rebuilt from it.

Ur has no hidden information, so :func:`public_view` is the same for every seat: the
board (``grid``, ``ziggurats``), the hands, spare and supplies, the scores, whose turn
and step, and the end. Besides these it carries ``"step_state"`` (the internal
progress of the current turn: ``acts``, ``bonus``, ``give``, ``recv``,
``agri``, ``built``, ``touched``, ``exch``, ``stuck``, ``count``, ``final``;
cells as numbers 0..35 in reading order, 36 = the spare) and ``"prompt"`` (the
current step's catalogue key and plain arguments), so that
:func:`state_from_view` rebuilds the state exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import State, Text
from bot.games.ur.board import CELLS, FACE_INDEX, FACES, SIZE
from bot.games.ur.scoring import best_sets
from bot.games.ur.state import UrState, on_board, prompt

_STEP_KEYS = ("acts", "bonus", "give", "recv", "agri", "built", "touched",
              "exch", "stuck", "count", "final")


def scores(state: UrState) -> list[int]:
    """Each seat's score if the game ended now."""
    return [seat_score(state, seat)[0] for seat in range(state["n"])]


def seat_score(state: UrState, seat: int) -> tuple[int, tuple[int, ...]]:
    """(points, set sizes) of ``seat`` if the game ended now."""
    counts = [0] * len(FACES)
    owner, zig, face = state["owner"], state["zig"], state["face"]
    for c in range(CELLS):
        if owner[c] == seat and not zig[c]:
            counts[face[c]] += 1
    hand = state["hand"][seat]
    return best_sets(counts, (hand[0], hand[1]), state["zigs"][seat])


def _tile(pair: list[int] | None) -> dict[str, str] | None:
    return None if pair is None else {"face": FACES[pair[0]], "back": FACES[pair[1]]}


def _plain(value: Any) -> Any:
    return value.key.rsplit(".", 1)[-1] if isinstance(value, Text) else value


def ranking(state: UrState) -> tuple[tuple[tuple[int, ...], ...], Text | None]:
    """Seats grouped best first, and how a tie on the best score was settled.

    Ties on score are broken by the most tokens on the board (ziggurat markers
    not counted); seats still tied share their place.
    """
    points = scores(state)
    tokens = [on_board(state, s) for s in range(state["n"])]
    keys = sorted({(points[s], tokens[s]) for s in range(state["n"])}, reverse=True)
    groups = tuple(tuple(s for s in range(state["n"]) if (points[s], tokens[s]) == k)
                   for k in keys)
    top = keys[0][0]
    tied = [s for s in range(state["n"]) if points[s] == top]
    tiebreak = None
    if len(groups[0]) > 1:
        tiebreak = Text.of("ur.tiebreak.shared", score=top, tokens=keys[0][1])
    elif len(tied) > 1:
        tiebreak = Text.of("ur.tiebreak.tokens", score=top, tokens=keys[0][1])
    return groups, tiebreak


def public_view(state: UrState) -> dict[str, Any]:
    """The JSON view of ``state`` (see the module docstring)."""
    n = state["n"]
    face, back, owner, tokens = state["face"], state["back"], state["owner"], state["tokens"]
    zig = state["zig"]
    fields: Mapping[str, Any] = state
    grid = [[{"face": FACES[face[c]], "back": FACES[back[c]],
              "owner": None if owner[c] < 0 else owner[c], "tokens": tokens[c],
              "ziggurat": bool(zig[c])}
             for c in range(r * SIZE, (r + 1) * SIZE)] for r in range(SIZE)]
    over = state["phase"] == "over"
    points = scores(state)
    winners = list(ranking(state)[0][0]) if over else []
    last = state["last_turn"]
    step = prompt(state)
    return {
        "game": "ur",
        "players": n,
        "grid": grid,
        "hands": [_tile(h) for h in state["hand"]],
        "spare": _tile(state["spare"]),
        "supply": list(state["supply"]),
        "on_board": [on_board(state, s) for s in range(n)],
        "ziggurats": list(state["zigs"]),
        "ziggurats_left": state["zigs_left"],
        "scores": points,
        "current": None if over else state["current"],
        "phase": state["phase"],
        "step": state["step"],
        "turn": state["turn"],
        "first_player": state["first"],
        "last_turn": None if last is None else {**last, "cells": list(last["cells"])},
        "over": over,
        "winners": winners,
        "step_state": {k: (list(fields[k]) if isinstance(fields[k], list) else fields[k])
                       for k in _STEP_KEYS},
        "prompt": {"key": step.key, "args": {k: _plain(v) for k, v in step.args}},
    }


def state_from_view(view: dict[str, Any]) -> State:
    """The state that :func:`public_view` was made from."""
    cells = [cell for row in view["grid"] for cell in row]
    extra = view["step_state"]
    spare = view["spare"]
    last = view["last_turn"]
    state: State = {
        "n": view["players"],
        "face": [FACE_INDEX[c["face"]] for c in cells],
        "back": [FACE_INDEX[c["back"]] for c in cells],
        "owner": [-1 if c["owner"] is None else c["owner"] for c in cells],
        "tokens": [c["tokens"] for c in cells],
        "zig": [int(c["ziggurat"]) for c in cells],
        "hand": [[FACE_INDEX[h["face"]], FACE_INDEX[h["back"]]] for h in view["hands"]],
        "spare": None if spare is None else [FACE_INDEX[spare["face"]], FACE_INDEX[spare["back"]]],
        "supply": list(view["supply"]),
        "zigs": list(view["ziggurats"]),
        "zigs_left": view["ziggurats_left"],
        "first": view["first_player"],
        "current": -1 if view["current"] is None else view["current"],
        "phase": view["phase"],
        "step": view["step"],
        "turn": view["turn"],
        "last_turn": None if last is None else {**last, "cells": list(last["cells"])},
    }
    for key in _STEP_KEYS:
        value = extra[key]
        state[key] = list(value) if isinstance(value, list) else value
    return state
