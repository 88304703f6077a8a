"""The Ur step notation: parse text into a :class:`Move`, format a move back.

Canonical forms (keywords lower-case, cells as on the board image, ``B3``)::

    place B3                   placement round / no-token turn / ziggurat-only turn
    action war                 carry out one action of the held tile
    decline war                decline one action (one extra token on an owned tile)
    decline both               decline both actions (two owned or one free)
    bonus B3 | bonus done      place an extra token / stop placing them
    war B3>C3 move 2           attack C3 from B3, then move 2 tokens in
    war done
    politics B3>C4 2           move 2 of your tokens from B3 to C4
    politics done
    agriculture B3 2           place 0, 1 or 2 tokens on an Agriculture tile
    commerce / culture         accepted for ``action commerce`` / ``action culture``
    ziggurat B3 | ziggurat done
    exchange D5 face culture   take free tile D5, showing culture
    exchange spare face war    take the spare tile (3 players)
    pass                       keep the held tile (setup exchange)
    end                        end the turn

Input is case- and space-tolerant (``War b3 > c3 2`` is read as ``war B3>C3 move 2``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from bot.engine import BadNotation, Text
from bot.games.ur.board import CELL_INDEX, CELL_NAMES, CELLS, FACE_INDEX, FACES

SPARE = CELLS
"""The cell number used for the spare tile beside the grid."""


class Move(NamedTuple):
    """A parsed step: its kind and arguments (-1 when unused)."""

    kind: str
    cell: int = -1
    cell2: int = -1
    n: int = -1
    face: int = -1


_CELL = r"([a-f][1-6])"
_FACE = "(" + "|".join(FACES) + ")"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in (
        ("place", rf"place {_CELL}"),
        ("action", rf"(?:action )?{_FACE}"),
        ("decline_both", r"decline both"),
        ("decline", rf"decline {_FACE}"),
        ("bonus_done", r"bonus done"),
        ("bonus", rf"bonus {_CELL}"),
        ("war_done", r"war done"),
        ("war", rf"war {_CELL}>{_CELL}(?: move)? ([0-9])"),
        ("politics_done", r"politics done"),
        ("politics", rf"politics {_CELL}>{_CELL}(?: move)? ([0-9])"),
        ("agriculture", rf"agriculture {_CELL} ([0-9])"),
        ("ziggurat_done", r"ziggurat done"),
        ("ziggurat", rf"ziggurat {_CELL}"),
        ("exchange", rf"exchange ({_CELL[1:-1]}|spare)(?: face)? {_FACE}"),
        ("pass", r"pass"),
        ("end", r"end"),
    )
)


def _normalise(text: str) -> str:
    words = " ".join(text.lower().split())
    return re.sub(r" ?> ?", ">", words)


def _cell(name: str) -> int:
    return SPARE if name == "spare" else CELL_INDEX[name.upper()]


MAX_NOTATION = 64
"""No Ur step is longer: longer text is refused before it reaches the parse cache."""


VERBS = ("place", "action", "decline", "bonus", "war", "politics", "agriculture",
         "ziggurat", "exchange", "pass", "end")
"""The first words of Ur's steps (a face alone also reads as ``action <face>``)."""


def parse_move(text: str) -> Move:
    """The move written ``text``; raises BadNotation saying how the step it starts is
    written (or which words a step starts with)."""
    move = _parse(text) if len(text) <= MAX_NOTATION else None
    if move is None:
        shown = text.strip()[:MAX_NOTATION]
        verb = _normalise(shown).split(" ", 1)[0]
        if verb in VERBS:
            raise BadNotation(Text.of("ur.err.form", text=shown,
                                      form=Text.of(f"ur.form.{verb}")))
        raise BadNotation(Text.of("ur.err.notation", text=shown, verbs=tuple(
            Text.of(f"ur.word.{v}") for v in VERBS)))
    return move


@lru_cache(maxsize=16384)
def _parse(text: str) -> Move | None:
    line = _normalise(text)
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(line)
        if m is None:
            continue
        g = m.groups()
        if kind in ("place", "bonus", "ziggurat"):
            return Move(kind, _cell(g[0]))
        if kind in ("action", "decline"):
            return Move(kind, face=FACE_INDEX[g[0]])
        if kind in ("war", "politics"):
            return Move(kind, _cell(g[0]), _cell(g[1]), int(g[2]))
        if kind == "agriculture":
            return Move(kind, _cell(g[0]), n=int(g[1]))
        if kind == "exchange":
            return Move(kind, _cell(g[0]), face=FACE_INDEX[g[1]])
        return Move(kind)
    return None


def format_move(move: Move) -> str:
    """The canonical notation of ``move`` (``parse_move(format_move(m)) == m``)."""
    kind = move.kind
    if kind.endswith("_done"):
        return kind.replace("_", " ")
    if kind == "decline_both":
        return "decline both"
    if kind in ("pass", "end"):
        return kind
    if kind in ("action", "decline"):
        return f"{kind} {FACES[move.face]}"
    name = "spare" if move.cell == SPARE else CELL_NAMES[move.cell]
    if kind == "war":
        return f"war {name}>{CELL_NAMES[move.cell2]} move {move.n}"
    if kind == "politics":
        return f"politics {name}>{CELL_NAMES[move.cell2]} {move.n}"
    if kind == "agriculture":
        return f"agriculture {name} {move.n}"
    if kind == "exchange":
        return f"exchange {name} face {FACES[move.face]}"
    return f"{kind} {name}"
