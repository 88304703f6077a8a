"""One seat's board in Mesopotamia as its own picture, asked for with ``/mesopotamia board``.

From the view: the seat's six technology cards (action, technology, level, the signs that
activate it; an action already taken this turn is greyed), its Dingir dice (their colours,
and the faces rolled when the turn under way is the seat's), its resources, its units on the
map and in supply by kind, its colonies, ramparts and ziggurat storeys, its seals on both
tracks, the Hanging Gardens tiles it built, and its quest cards only when the view is the
seat's own (another seat's view holds no quest: only their number is drawn). Drawn 900 px
wide with no text under 23 px, like the map, so that it reads on a phone.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PIL import Image, ImageDraw

from bot.games.mesopotamia import data as D
from bot.i18n import tr
from render.context import RenderContext
from render.draw import Colour, mix
from render.mesopotamia import (
    BACKGROUND,
    BORDER,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    QUEST_ROW,
    RES_COLOURS,
    TEXT_MIN,
    WIDTH,
    _deciding,
    _level,
    _quest_lines,
    _seat_title,
    _t,
    _text,
    colour,
    encode,
    wrap,
)

ROW = 34
"""Height of a line of text."""
TITLE = 40
"""Height of a section title."""
CARD_H = 5 * ROW + 12
COLUMNS = 3
DIE = 44
DIE_COLOURS: dict[str, Colour] = {"white": (248, 248, 244), "silver": (176, 182, 192),
                                  "black": (36, 36, 40)}
TALLEST = 3000
"""The canvas drawn on, cut to what the board uses."""


def _turn(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The turn under way (``view["t"]``) when it is ``seat``'s, else None."""
    t = view.get("t")
    return t if t and view["phase"] == "actions" and _deciding(view) == seat else None


def _title(draw: ImageDraw.ImageDraw, y: int, value: str) -> int:
    _text(draw, (MARGIN, y), value, 26, WIDTH - 2 * MARGIN, bold=True)
    return y + TITLE


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
            seat: int) -> int:
    fill = colour(view, seat)
    draw.rectangle((MARGIN, 12, MARGIN + 28, 40), fill=fill, outline=INK)
    head = _seat_title(view, ctx, seat)
    if _deciding(view) == seat:
        head = "▶ " + head
    _text(draw, (MARGIN + 38, 8), head, 28, WIDTH - 2 * MARGIN - 38, bold=True)
    draw.line((MARGIN, 50, WIDTH - MARGIN, 50), fill=fill, width=4)
    return 60


def _card(draw: ImageDraw.ImageDraw, ctx: RenderContext, player: dict[str, Any],
          action: str, box: tuple[float, float, float, float], done: bool) -> None:
    """One technology card: action, technology, level, signs (greyed once ``done``)."""
    x0, y0, x1, _ = box
    ink = MUTED if done else INK
    draw.rounded_rectangle(box, 8, fill=mix(PANEL, BORDER, 0.5) if done else PANEL,
                           outline=BORDER, width=2)
    width = x1 - x0 - 16
    _text(draw, (x0 + 8, y0 + 4), _t(ctx.lang, "action", action), TEXT_MIN, width, ink, True)
    card = player["tech"].get(action)
    if card is None:
        return
    tech = D.CIV_TECH[card]
    level = tr(ctx.lang, "mesopotamia.render.level", n=_level(player, action))
    if done:
        level += " · " + tr(ctx.lang, "mesopotamia.render.used")
    _text(draw, (x0 + 8, y0 + 4 + ROW), _t(ctx.lang, "tech", tech), TEXT_MIN, width, ink)
    _text(draw, (x0 + 8, y0 + 4 + 2 * ROW), level, TEXT_MIN, width, ink)
    signs = " + ".join(_t(ctx.lang, "sign", s) for s in D.TECH_SIGNS[tech])
    for i, line in enumerate(wrap(signs, width)[:2]):
        _text(draw, (x0 + 8, y0 + 4 + (3 + i) * ROW), line, TEXT_MIN, width, ink)


def _technologies(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
                  seat: int, y: int) -> int:
    y = _title(draw, y, tr(ctx.lang, "mesopotamia.render.technologies"))
    player = view["players"][seat]
    done = (_turn(view, seat) or {}).get("done", [])
    cell = (WIDTH - 2 * MARGIN) / COLUMNS
    for i, action in enumerate(D.ACTIONS):
        x = MARGIN + (i % COLUMNS) * cell
        top = y + (i // COLUMNS) * (CARD_H + 8)
        _card(draw, ctx, player, action, (x, top, x + cell - 8, top + CARD_H), action in done)
    rows = (len(D.ACTIONS) + COLUMNS - 1) // COLUMNS
    return y + rows * (CARD_H + 8) + 4


def _die_label(ctx: RenderContext, turn: dict[str, Any] | None, i: int) -> str:
    """What a die shows: its face when the seat's turn is under way (and whether it is
    used), else nothing."""
    if turn is None or i >= len(turn["dice"]):
        return ""
    face = turn["dice"][i]
    label = _t(ctx.lang, "sign", face) if face else tr(ctx.lang, "mesopotamia.unset")
    return f"{label} · {tr(ctx.lang, 'mesopotamia.render.used')}" if turn["used"][i] else label


def _dice(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, seat: int,
          y: int) -> int:
    y = _title(draw, y, tr(ctx.lang, "mesopotamia.render.dingir_dice"))
    turn = _turn(view, seat)
    dice = view["players"][seat]["dice"]
    if not dice:
        _text(draw, (MARGIN, y), tr(ctx.lang, "mesopotamia.no_dice"), TEXT_MIN, WIDTH)
        return y + ROW + 6
    for i, die in enumerate(dice):
        top = y + i * (DIE + 6)
        draw.rounded_rectangle((MARGIN, top, MARGIN + DIE, top + DIE), 8,
                               fill=DIE_COLOURS.get(die, PANEL), outline=INK, width=2)
        label = _t(ctx.lang, "colour", die)
        shown = _die_label(ctx, turn, i)
        _text(draw, (MARGIN + DIE + 12, top + 8), f"{label}: {shown}" if shown else label,
              TEXT_MIN, WIDTH - 2 * MARGIN - DIE - 12)
    return y + len(dice) * (DIE + 6) + 6


def _resources(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
               seat: int, y: int) -> int:
    y = _title(draw, y, tr(ctx.lang, "mesopotamia.render.resources"))
    cell = (WIDTH - 2 * MARGIN) / COLUMNS
    res = view["players"][seat]["res"]
    for i, kind in enumerate(D.RESOURCES):
        x, top = MARGIN + (i % COLUMNS) * cell, y + (i // COLUMNS) * ROW
        draw.rectangle((x, top + 5, x + 22, top + 27), fill=RES_COLOURS.get(kind, MUTED),
                       outline=INK)
        _text(draw, (x + 30, top + 2), f"{_t(ctx.lang, 'resource', kind)} {res.get(kind, 0)}",
              TEXT_MIN, cell - 38)
    return y + ((len(D.RESOURCES) + COLUMNS - 1) // COLUMNS) * ROW + 8


def _unit_lines(view: dict[str, Any], ctx: RenderContext, seat: int) -> list[str]:
    """Per kind of figure: how many are on the map and how many wait in supply."""
    placed = Counter(str(kind) for s, kind, _ in view["units"] if s == seat)
    case = next((c for s, c in view["seals"]["population"] if s == seat), 1)
    out = [tr(ctx.lang, "mesopotamia.render.units", n=sum(placed.values()),
              limit=D.UNIT_LIMIT[int(case) - 1])]
    for kind, total in D.FIGURES.items():
        out.append(tr(ctx.lang, "mesopotamia.render.unit_row", unit=_t(ctx.lang, "unit", kind),
                      map=placed[kind], supply=max(0, total - placed[kind])))
    return out


def _places(ctx: RenderContext, key: str, regions: list[str]) -> str:
    return tr(ctx.lang, key, regions=", ".join(
        _t(ctx.lang, "region", r) for r in regions) or "-")


def _building_lines(view: dict[str, Any], ctx: RenderContext, seat: int) -> list[str]:
    """Colonies, ramparts and ziggurat storeys (with the regions), seals, gardens built."""
    lang, p = ctx.lang, view["players"][seat]
    cases = {track: next((int(c) for s, c in view["seals"][track] if s == seat), 1)
             for track in D.TRACKS}
    gardens = ", ".join(_t(lang, "garden", g) for g in p.get("gardens", [])) or "-"
    return [
        tr(lang, "mesopotamia.render.buildings", c=len(p["colonies"]),
           cmax=D.PIECES["colony"], r=len(p["ramparts"]), rmax=D.PIECES["rampart"],
           z=p["ziggurat"], zmax=D.PIECES["ziggurat_storeys"]),
        _places(ctx, "mesopotamia.render.colonies_at", p["colonies"]),
        _places(ctx, "mesopotamia.render.ramparts_at", p["ramparts"]),
        tr(lang, "mesopotamia.render.board_tracks", population=cases["population"],
           limit=D.UNIT_LIMIT[cases["population"] - 1], event=cases["event"]),
        tr(lang, "mesopotamia.render.gardens_built", tiles=gardens),
    ]


def _lines(draw: ImageDraw.ImageDraw, title: str, lines: list[str], y: int) -> int:
    """A title, then ``lines`` wrapped to the width."""
    y = _title(draw, y, title)
    for line in lines:
        for part in wrap(line, WIDTH - 2 * MARGIN - 4):
            _text(draw, (MARGIN, y), part, TEXT_MIN, WIDTH - 2 * MARGIN)
            y += QUEST_ROW
    return y + 8


def _quests(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, seat: int,
            y: int) -> int:
    """The seat's quests when the view is its own, else how many it holds."""
    held = tr(ctx.lang, "mesopotamia.render.quests_held",
              n=view["quests"]["hand_sizes"][seat])
    if view.get("you") != seat:
        return _lines(draw, held, [], y)
    found = _quest_lines(view, ctx, WIDTH - 2 * MARGIN - 4)
    return _lines(draw, found[0] if found else held, found[1:], y)


def board_image(view: dict[str, Any], ctx: RenderContext, seat: int) -> Image.Image:
    """``seat``'s board as the viewer of ``view`` may see it."""
    image = Image.new("RGB", (WIDTH, TALLEST), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = _header(draw, view, ctx, seat)
    y = _technologies(draw, view, ctx, seat, y)
    y = _dice(draw, view, ctx, seat, y)
    y = _resources(draw, view, ctx, seat, y)
    y = _lines(draw, tr(ctx.lang, "mesopotamia.render.units_title"),
               _unit_lines(view, ctx, seat), y)
    y = _lines(draw, tr(ctx.lang, "mesopotamia.render.buildings_title"),
               _building_lines(view, ctx, seat), y)
    y = _quests(draw, view, ctx, seat, y)
    return image.crop((0, 0, WIDTH, min(y + MARGIN, TALLEST)))


def board_png(view: dict[str, Any], ctx: RenderContext, seat: int) -> bytes:
    """``seat``'s board as PNG bytes (at most about 100 KB)."""
    return encode(board_image(view, ctx, seat))
