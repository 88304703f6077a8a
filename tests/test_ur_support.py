"""Helpers to build Ur positions for scenario tests (plus tests of the helpers).

A cell code is ``<face>[/<back>][<seat><tokens> | Z<seat>]`` with faces
``a`` agriculture, ``c`` commerce, ``u`` culture, ``p`` politics, ``w`` war:
``"w"`` is a free War tile, ``"w/a03"`` a War tile (back Agriculture) holding 3
tokens of seat 0, ``"uZ1"`` a ziggurat of seat 1 built on a Culture tile.
Cells not given are free Politics/War tiles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.engine import State
from bot.games.ur.board import CELL_INDEX, CELLS, TOKENS, ZIGGURATS
from bot.games.ur.effects import begin_turn, settle
from bot.games.ur.engine import GAME
from bot.games.ur.state import new_state, on_board

LETTERS = {"a": 0, "c": 1, "u": 2, "p": 3, "w": 4}
_CODE = re.compile(r"([acupw])(?:/([acupw]))?(?:(\d)(\d)|Z(\d))?")
DEFAULT = "p/w"


def tile(code: str) -> list[int]:
    """[face, back] of a tile code such as ``"w/p"`` (back defaults to the next face)."""
    m = _CODE.fullmatch(code)
    assert m, code
    face = LETTERS[m[1]]
    back = LETTERS[m[2]] if m[2] else (face + 1) % 5
    return [face, back]


def make_state(cells: Mapping[str, str], hands: tuple[str, ...] = ("a/c", "a/c", "a/c"),
               current: int = 0, first: int = 0, spare: str | None = None,
               zigs_left: int | None = None) -> State:
    """A turn-phase state at the start of ``current``'s turn with the given board."""
    n = len(hands)
    state = new_state(0, n)
    zigs = [0] * n
    for i in range(CELLS):
        state["face"][i], state["back"][i] = tile(DEFAULT)
    for name, code in cells.items():
        i = CELL_INDEX[name.upper()]
        m = _CODE.fullmatch(code)
        assert m, code
        state["face"][i], state["back"][i] = tile(m[1] + (f"/{m[2]}" if m[2] else ""))
        if m[3] is not None:
            state["owner"][i], state["tokens"][i] = int(m[3]), int(m[4])
        elif m[5] is not None:
            state["owner"][i], state["zig"][i] = int(m[5]), 1
            zigs[int(m[5])] += 1
    state["hand"] = [tile(h) for h in hands]
    state["spare"] = None if spare is None else tile(spare)
    state["zigs"] = zigs
    state["zigs_left"] = ZIGGURATS - sum(zigs) if zigs_left is None else zigs_left
    state["supply"] = [TOKENS - on_board(state, s) - zigs[s] for s in range(n)]
    state.update(phase="turn", first=first, turn=0, count=0, final=False, last_turn=None)
    begin_turn(state, current)
    settle(state)
    return state


def play(state: State, *steps: str) -> State:
    """Apply ``steps`` in order, each by the seat to move."""
    for step in steps:
        state = GAME.apply(state, state["current"], step)
    return state


def at(state: State, name: str) -> tuple[int, int]:
    """(owner, tokens) of a cell; owner -1 when free."""
    i = CELL_INDEX[name]
    return state["owner"][i], state["tokens"][i]


def notations(state: State) -> list[str]:
    """The notations of the legal steps of the seat to move."""
    return [a.notation for a in GAME.legal(state, state["current"])]


def test_make_state_builds_the_described_board() -> None:
    s = make_state({"B3": "w/a03", "C3": "uZ1"}, hands=("a/c", "p/w", "c/u"), current=1)
    assert at(s, "B3") == (0, 3)
    assert s["face"][CELL_INDEX["B3"]] == LETTERS["w"] and s["back"][CELL_INDEX["B3"]] == 0
    assert s["zig"][CELL_INDEX["C3"]] == 1 and s["zigs"] == [0, 1, 0]
    assert s["supply"] == [17, 19, 20]
    assert s["current"] == 1 and s["step"] == "start1"
