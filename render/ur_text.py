"""The Ur board as a few lines of text, for the terminal (``python -m dingir.local``).

Each cell shows its face in two letters and who holds it: ``Wa 2:3`` is a War
tile of player 2 with 3 tokens, ``Cu Z1`` a Culture tile with player 1's ziggurat,
``Po --`` a free Politics tile. Below, one line per player: score if the game
ended now, tokens in supply and on the board, ziggurats, held tile.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import tr
from render.context import RenderContext


def _face(face: str, lang: str) -> str:
    return tr(lang, f"ur.face.{face}")[:2]


def _cell(cell: dict[str, Any], lang: str) -> str:
    owner = cell["owner"]
    if owner is None:
        mark = "--"
    elif cell["ziggurat"]:
        mark = f"Z{owner + 1}"
    else:
        mark = f"{owner + 1}:{cell['tokens']}"
    return f"{_face(cell['face'], lang)} {mark:<4}"


def text(view: dict[str, Any], ctx: RenderContext) -> str:
    """The board of ``view`` as text (see the module docstring)."""
    lang = ctx.lang
    lines = [tr(lang, "render.text.header", turn=view["turn"] + 1,
                phase=tr(lang, f"render.phase.{view['phase']}"), n=view["ziggurats_left"])]
    lines.append("   " + "".join(f"{chr(ord('A') + c):<8}" for c in range(len(view["grid"][0]))))
    for r, row in enumerate(view["grid"]):
        lines.append(f"{r + 1:<3}" + "".join(_cell(cell, lang) for cell in row).rstrip())
    for seat in range(view["players"]):
        hand = view["hands"][seat]
        lines.append(tr(
            lang, "render.text.player", mark="▶" if view["current"] == seat else " ",
            name=ctx.names[seat] if seat < len(ctx.names) else str(seat + 1),
            score=view["scores"][seat], supply=view["supply"][seat],
            board=view["on_board"][seat], zigs=view["ziggurats"][seat],
            tile=f"{tr(lang, 'ur.face.' + hand['face'])}/{tr(lang, 'ur.face.' + hand['back'])}"))
    return "\n".join(lines)
