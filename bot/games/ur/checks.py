"""Legality of a step: the rule a move breaks, as a translatable reason."""

from __future__ import annotations

from typing import Any

from bot.engine import Text
from bot.games.ur.board import CELL_NAMES, MAX_TOKENS, MAX_ZIGGURATS_PER_TURN, NEIGHBOURS
from bot.games.ur.notation import SPARE, Move
from bot.games.ur.state import (
    PENDING,
    UrState,
    exchange_tile,
    face_text,
    placement_round,
    prompt,
    war_loss,
)

ALLOWED: dict[str, frozenset[str]] = {
    "place": frozenset({"place"}),
    "start3": frozenset({"place"}),
    "start1": frozenset({"place"}),
    "setup_exchange": frozenset({"exchange", "pass"}),
    "choose": frozenset({"action", "decline", "decline_both", "ziggurat"}),
    "bonus": frozenset({"bonus", "bonus_done"}),
    "bonus_both": frozenset({"bonus", "bonus_done"}),
    "war": frozenset({"war", "war_done"}),
    "politics": frozenset({"politics", "politics_done"}),
    "agriculture": frozenset({"agriculture"}),
    "ziggurat": frozenset({"ziggurat", "ziggurat_done"}),
    "exchange": frozenset({"exchange"}),
    "end": frozenset({"end"}),
    "over": frozenset(),
}
"""The move kinds each step accepts."""


def _err(key: str, **args: Any) -> Text:
    return Text.of("ur.err." + key, **args)


def _hole_or_full(state: UrState, cell: int, adding: int) -> Text | None:
    if state["zig"][cell]:
        return _err("ziggurat_hole", cell=CELL_NAMES[cell])
    if state["tokens"][cell] + adding > MAX_TOKENS:
        return _err("full", cell=CELL_NAMES[cell])
    return None


def _supply(state: UrState, seat: int, needed: int = 1) -> Text | None:
    return _err("supply") if state["supply"][seat] < needed else None


def reason(state: UrState, seat: int, move: Move) -> Text | None:
    """Why ``move`` is illegal for ``seat`` now, or None if it is legal."""
    step = state["step"]
    if move.kind not in ALLOWED[step]:
        rule = move.kind.removesuffix("_done").removesuffix("_both")
        return _err("when", rule=Text.of(f"ur.when.{rule}"), prompt=prompt(state))
    check = _CHECKS.get(move.kind)
    return None if check is None else check(state, seat, move)


def _check_place(state: UrState, seat: int, move: Move) -> Text | None:
    cell = move.cell
    if state["zig"][cell]:
        return _err("ziggurat_hole", cell=CELL_NAMES[cell])
    owner = state["owner"]
    if state["step"] != "place" or placement_round(state) == 1:
        if owner[cell] >= 0:
            return _err("place_free" if state["step"] == "place" else "special_free")
    elif owner[cell] != seat and not (
            owner[cell] < 0 and any(owner[nb] == seat for nb in NEIGHBOURS[cell])):
        return _err("place_adjacent")
    return _hole_or_full(state, cell, 1) or _supply(state, seat)


def _hand_index(state: UrState, seat: int, move: Move) -> tuple[int, Text | None]:
    hand = state["hand"][seat]
    if move.face not in hand:
        return -1, _err("not_in_hand", a=face_text(hand[0]), b=face_text(hand[1]))
    i = hand.index(move.face)
    if state["acts"][i] != PENDING:
        return i, _err("action_twice")
    return i, None


def _check_action(state: UrState, seat: int, move: Move) -> Text | None:
    return _hand_index(state, seat, move)[1]


def _check_decline_both(state: UrState, seat: int, move: Move) -> Text | None:
    if state["acts"] != [PENDING, PENDING]:
        return _err("decline_both")
    return None


def _check_bonus(state: UrState, seat: int, move: Move) -> Text | None:
    cell = move.cell
    owner = state["owner"][cell]
    if state["zig"][cell]:
        return _err("ziggurat_hole", cell=CELL_NAMES[cell])
    if owner != seat and not (state["step"] == "bonus_both" and owner < 0):
        return _err("bonus_free" if state["step"] == "bonus_both" else "bonus_owned")
    return _hole_or_full(state, cell, 1) or _supply(state, seat)


def _check_war(state: UrState, seat: int, move: Move) -> Text | None:
    src, dst, n = move.cell, move.cell2, move.n
    owner, zig = state["owner"], state["zig"]
    if zig[src] or zig[dst]:
        return _err("ziggurat_hole", cell=CELL_NAMES[src if zig[src] else dst])
    if owner[src] != seat:
        return _err("war_own")
    if dst not in NEIGHBOURS[src]:
        return _err("war_adjacent")
    if owner[dst] == seat:
        return _err("war_self")
    if n < 1:
        return _err("war_move_one")
    loss = war_loss(state, src, dst)
    most = state["tokens"][src] - loss
    if most < 1:
        return _err("war_too_weak", cell=CELL_NAMES[src], loss=loss)
    if n > most:
        return _err("war_strength", loss=loss, n=most)
    return _hole_or_full(state, dst, n - state["tokens"][dst])


def _check_politics(state: UrState, seat: int, move: Move) -> Text | None:
    src, dst, n = move.cell, move.cell2, move.n
    owner = state["owner"]
    if state["zig"][src] or state["zig"][dst]:
        return _err("ziggurat_hole", cell=CELL_NAMES[src if state["zig"][src] else dst])
    if owner[src] != seat or owner[dst] != seat:
        return _err("politics_own")
    if src == dst or src in state["recv"] or dst in state["give"]:
        return _err("politics_flow")
    if n < 1 or n > state["tokens"][src]:
        return _err("politics_count", cell=CELL_NAMES[src], n=state["tokens"][src])
    return _hole_or_full(state, dst, n)


def _check_agriculture(state: UrState, seat: int, move: Move) -> Text | None:
    cell = state["agri"][0]
    if move.cell != cell:
        return _err("agriculture_order", cell=CELL_NAMES[cell])
    if move.n > 2:
        return _err("agriculture_two")
    if move.n == 0:
        return None
    return _hole_or_full(state, cell, move.n) or _supply(state, seat, move.n)


def _check_ziggurat(state: UrState, seat: int, move: Move) -> Text | None:
    cell = move.cell
    if state["step"] == "choose" and state["acts"] != [PENDING, PENDING]:
        return _err("ziggurat_instead")
    if state["zigs_left"] <= 0:
        return _err("ziggurat_none_left")
    if state["built"] >= MAX_ZIGGURATS_PER_TURN:
        return _err("ziggurat_two")
    if state["zig"][cell]:
        return _err("ziggurat_hole", cell=CELL_NAMES[cell])
    if state["owner"][cell] != seat or state["tokens"][cell] < MAX_TOKENS:
        return _err("ziggurat_five")
    return None


def _check_exchange(state: UrState, seat: int, move: Move) -> Text | None:
    cell = move.cell
    if cell == SPARE:
        if state["spare"] is None:
            return _err("no_spare")
    elif state["zig"][cell]:
        return _err("ziggurat_hole", cell=CELL_NAMES[cell])
    elif state["owner"][cell] >= 0:
        return _err("exchange_free")
    tile = exchange_tile(state, cell)
    assert tile is not None
    if state["phase"] == "turn" and set(tile) == set(state["hand"][seat]):
        return _err("exchange_pair")
    if move.face not in tile:
        return _err("exchange_face", a=face_text(tile[0]), b=face_text(tile[1]))
    return None


_CHECKS = {
    "place": _check_place,
    "action": _check_action,
    "decline": _check_action,
    "decline_both": _check_decline_both,
    "bonus": _check_bonus,
    "war": _check_war,
    "politics": _check_politics,
    "agriculture": _check_agriculture,
    "ziggurat": _check_ziggurat,
    "exchange": _check_exchange,
}
