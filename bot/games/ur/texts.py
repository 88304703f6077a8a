"""The labels of Ur's steps and the actions that carry them (cached: a label depends on the
step and a few facts of the state)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.engine import (
    Action,
    Text,
)
from bot.games.ur import state as st
from bot.games.ur.board import CELL_NAMES, NO_BOARD_TOKENS
from bot.games.ur.notation import SPARE, Move, format_move
from bot.games.ur.state import UrState

_GROUPS = {"decline_both": "decline", "bonus_done": "bonus", "war_done": "war",
           "politics_done": "politics", "ziggurat_done": "ziggurat"}


def _variant(state: UrState, move: Move) -> Any:
    """The part of ``state`` a label depends on (for the label cache)."""
    kind = move.kind
    if kind == "place":
        return state["step"]
    if kind == "bonus":
        return state["owner"][move.cell] < 0
    if kind == "war":
        return st.war_loss(state, move.cell, move.cell2)
    if kind == "exchange":
        tile = st.exchange_tile(state, move.cell)
        return None if tile is None else tuple(tile)
    if kind == "end":
        return state["stuck"]
    return None


@lru_cache(maxsize=65536)
def _label(move: Move, variant: Any) -> Text:
    kind = move.kind
    key = "ur.act." + kind
    cell = CELL_NAMES[move.cell] if 0 <= move.cell < SPARE else None
    if kind == "place":
        if variant != "place":
            return Text.of(key + "_free", cell=cell,
                           n=NO_BOARD_TOKENS if variant == "start3" else 1)
        return Text.of(key, cell=cell)
    if kind in ("action", "decline"):
        return Text.of(key, face=st.face_text(move.face))
    if kind == "bonus":
        return Text.of(key + ("_free" if variant else ""), cell=cell)
    if kind in ("war", "politics"):
        return Text.of(key, src=cell, dst=CELL_NAMES[move.cell2], n=move.n, loss=variant or 0)
    if kind in ("agriculture", "ziggurat"):
        return Text.of(key, cell=cell, n=move.n)
    if kind == "exchange":
        back = variant[1] if variant[0] == move.face else variant[0]
        return Text.of(key + ("_spare" if cell is None else ""), cell=cell,
                       face=st.face_text(move.face), back=st.face_text(back))
    if kind == "end" and variant:
        return Text.of("ur.act.end_stuck")
    return Text.of(key)


def _path(move: Move, variant: Any) -> tuple[Text, ...]:
    """An exchange is chosen tile first, then the face to show."""
    if move.kind != "exchange":
        return ()
    cell = CELL_NAMES[move.cell] if move.cell < SPARE else None
    faces = tuple(st.face_text(f) for f in sorted(variant))
    tile = Text.of("ur.choice.spare" if cell is None else "ur.choice.tile", cell=cell,
                   faces=faces)
    return tile, Text.of("ur.choice.face", face=st.face_text(move.face))


@lru_cache(maxsize=65536)
def _cached_action(move: Move, variant: Any) -> Action:
    closes = move.kind in ("exchange", "pass") or (move.kind == "place" and variant == "place")
    return Action(format_move(move), _label(move, variant), _GROUPS.get(move.kind, move.kind),
                  _path(move, variant), closes)


def label(state: UrState, move: Move) -> Text:
    """The readable label of a legal ``move`` in ``state``."""
    return _label(move, _variant(state, move))


def action(state: UrState, move: Move) -> Action:
    return _cached_action(move, _variant(state, move))
