"""The Ur board image: a pure function of the public view (:mod:`bot.games.ur.view`).

Made to be read on a phone, where Discord shows it about 400 px wide: no text is
smaller than :data:`TEXT` reference px (10 px at 400 px), tiles carry no words
but a large symbol of their face and a badge of their back, and a legend names
the symbols. Layout at the reference size of 1200 x 900 px (everything scales
with ``width``; 1000 x 750 by default): the 6x6 board at the top left with the
legend under it; on the right the header (turn, ziggurats left, phase on its own
line), one panel per player (name, whose turn or the winners, held tile, score
if the game ended now, supply, tokens on board, ziggurats) and the spare tile
with 3 players.

Fast path (:meth:`UrRenderer.png`): every piece (static layer per language,
board cells, panels, texts) is drawn once, flattened on its known background
and mapped to one fixed 256-colour palette; an image is a copy of the static
layer with those indexed pieces pasted on it, saved as PNG level 1.
:func:`render_naive` draws the same picture from scratch in RGB and saves it
with default PNG settings: it is the benchmark's baseline.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import tr
from render import fonts, ur_text
from render.context import RenderContext
from render.draw import (
    Box,
    Colour,
    Painter,
    Sprites,
    contrast,
    draw_icon,
    fixed_palette,
    icon,
    load,
    mix,
    paste,
    png_bytes,
    rgb,
    smooth,
    text_sprite,
    to_palette,
)
from render.png import IndexedRenderer

REFERENCE_WIDTH = 1200
REFERENCE_HEIGHT = 900
DEFAULT_WIDTH = 1000  # about the pixels a phone gives 400 px: no downscaling, under 100 KB
PIECE_SPRITES = 512
"""Tiles, hands and panels kept drawn (about 15 KB each): those of the boards drawn lately
(a long-running worker would otherwise keep every tile it ever met, up to 4,096)."""
NAME_SPRITES = 1024
"""Player names kept drawn (about 7 KB each): the names of the games played lately; the
other texts (numbers, labels) are few and all kept."""
PREVIEW_WIDTH = 720  # private turn panels: as wide as Discord shows an attachment, 2/5 the cost
COLUMNS = "ABCDEF"
FACES = ("agriculture", "commerce", "culture", "politics", "war")
# Reference geometry (px at width 1200).
TEXT = 30
"""The smallest text: 10 px once the image is shown 400 px wide."""
GRID = 42  # top-left corner of the grid
CELL = 108  # a multiple of 6: whole pixels at the default width
GAP = 4  # board visible around each tile
TILE = CELL - 2 * GAP
SIDE = 714  # left edge of the right column
SIDE_W = 474
HEADER_TOP = 44  # baselines of the header's two lines
HEADER_BOTTOM = 88
PANEL_Y = 102
PANEL_H = 192
PANEL_STEP = 198
HAND_Y = 74  # top of the held tile in a panel; the tile is TILE px
SCORE_X = 134  # the score's column in a panel
STATS_X = 238  # the labels of supply, tokens on board and ziggurats
STATS_Y = HAND_Y + 15  # the middle of their first row
STATS_ROW = 36
VALUE_W = 44  # the room of their values, at the right
MARK = 30  # the mark of whose turn it is or of a winner
INSET = 14  # right margin of a panel's texts
BADGE = 36  # the exchange mark and the legend's symbols
LEGEND_Y = 712
LEGEND_ROW = 44
LEGEND_COLUMN = 340

View = dict[str, Any]
CellKey = tuple[bool, str, str, int | None, int, bool, bool]


def _colours() -> dict[str, Colour]:
    return {name: rgb(v) for name, v in load("ur")["colours"].items()}


def _face(name: str) -> tuple[Colour, Colour]:
    spec = load("ur")["faces"][name]
    return rgb(spec["fill"]), rgb(spec["ink"])


def _player(seat: int) -> tuple[Colour, str]:
    spec = load("ur")["players"][seat]
    return rgb(spec["colour"]), spec["shape"]


def cell_position(name: str) -> tuple[int, int]:
    """(row, column) indexes of a cell name such as ``"B3"``."""
    return int(name[1:]) - 1, COLUMNS.index(name[0].upper())


def display_name(name: str, seat: int, lang: str) -> str:
    """A seat's name as the bold font can draw it; "Player n" if nothing legible is left."""
    cleaned = fonts.clean_text(name, fonts.coverage(bold=True))
    if not any(ch.isalnum() for ch in cleaned):
        return tr(lang, "render.player", n=seat + 1)
    return cleaned


def cell_key(cell: dict[str, Any], marked: bool, exchanged: bool) -> CellKey:
    """What a board cell's picture depends on (a ziggurat hides its tile)."""
    owner = cell["owner"]
    if cell.get("ziggurat") and owner is not None:
        return True, "", "", owner, 0, marked, exchanged
    return False, cell["face"], cell["back"], owner, cell["tokens"], marked, exchanged


def panel_state(view: View, seat: int) -> str:
    """``"winner"``, ``"active"`` (to play) or ``"idle"``."""
    if view["over"]:
        return "winner" if seat in view["winners"] else "idle"
    return "active" if view["current"] == seat else "idle"


@dataclass(frozen=True)
class Label:
    """One line of text as drawn: ``xy`` and ``size`` in px of the image."""

    text: str
    xy: tuple[int, int]
    size: int
    bold: bool = False
    anchor: str = "la"

    def box(self) -> Box:
        """The box the text covers in the image."""
        left, top, right, bottom = fonts.font(self.size, self.bold).getbbox(
            self.text, anchor=self.anchor)
        return left + self.xy[0], top + self.xy[1], right + self.xy[0], bottom + self.xy[1]


@dataclass(frozen=True)
class Header:
    """The header as drawn: the turn and the ziggurats left on the first line (the
    ziggurat ``icon`` of ``icon_size`` px at ``icon_at``), the phase on the second."""

    turn: Label
    left: Label
    icon_at: tuple[int, int]
    icon_size: int
    phase: Label

    def boxes(self) -> dict[str, Box]:
        """Every piece's box in the image, by name."""
        x, y = self.icon_at
        return {"turn": self.turn.box(), "left": self.left.box(), "phase": self.phase.box(),
                "icon": (x, y, x + self.icon_size, y + self.icon_size)}


def header_layout(view: View, lang: str, width: int = DEFAULT_WIDTH) -> Header:
    """Where the header of ``view`` is drawn in ``lang`` in an image ``width`` px wide."""
    return _Painter(width, memo=False).header(view, lang)


class _Painter:
    """Draws views at one size.

    Pieces are memoised unless ``memo`` is False; with a ``palette`` every piece
    and so every image is indexed (mode "P"), otherwise RGB. Painters of one size
    may share their transparent ``arts`` (tiles, tokens...), which do not depend
    on the palette.
    """

    def __init__(self, width: int, memo: bool, palette: Image.Image | None = None,
                 arts: Sprites[Image.Image] | None = None) -> None:
        self.k = width / REFERENCE_WIDTH
        self.size = (width, round(width * REFERENCE_HEIGHT / REFERENCE_WIDTH))
        self.pieces: Sprites[Image.Image] = Sprites(memo, PIECE_SPRITES)
        self.texts: Sprites[tuple[Image.Image, tuple[int, int]]] = Sprites(memo)
        self.names: Sprites[tuple[Image.Image, tuple[int, int]]] = Sprites(memo, NAME_SPRITES)
        self.arts: Sprites[Image.Image] = Sprites(memo) if arts is None else arts
        self.palette = palette
        self.c = _colours()

    def u(self, value: float) -> int:
        """A reference length in pixels at this size."""
        return round(value * self.k)

    def font_px(self, value: float) -> int:
        """A reference font size in pixels at this size (rounded up: never under :data:`TEXT`
        once scaled to a phone)."""
        return math.ceil(value * self.k - 1e-9)

    def fit(self, text: str, room: float, size: float, bold: bool = False) -> tuple[str, int]:
        """``text`` and its size in px to fit ``room`` reference px, from ``size`` down to
        :data:`TEXT` (then cut with an ellipsis)."""
        return fonts.fit(text, self.u(room), self.font_px(size), self.font_px(TEXT), bold)

    def label(self, text: str, x: float, y: float, size: int, bold: bool = False,
              anchor: str = "la") -> Label:
        """``text`` at the reference point (``x``, ``y``); ``size`` is already in pixels."""
        return Label(text, (self.u(x), self.u(y)), size, bold, anchor)

    def finish(self, image: Image.Image) -> Image.Image:
        """A flattened piece in the canvas mode (indexed when there is a palette)."""
        return image if self.palette is None else to_palette(image, self.palette)

    def _piece(self, key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
        return self.pieces.get(key, lambda: self.finish(build()))

    def _art(self, key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
        return self.arts.get(key, build)

    # -- transparent artwork -----------------------------------------------------------------

    def tile_art(self, face: str, back: str) -> Image.Image:
        """A tile: a large symbol of ``face``, and its ``back`` as a badge at the top right."""
        px = self.u(TILE)
        fill, ink = _face(face)
        back_fill, back_ink = _face(back)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = px * k / TILE
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=10 * s, fill=fill,
                                outline=mix(ink, fill, 0.45), width=round(2 * s))
            draw_icon(d, face, (8 * s, 10 * s, 64 * s, 66 * s), ink, fill)
            d.ellipse((62 * s, 3 * s, 99 * s, 40 * s), fill=back_fill, outline=back_ink,
                      width=round(2 * s))
            draw_icon(d, back, (69 * s, 10 * s, 92 * s, 33 * s), back_ink, back_fill)

        return smooth((px, px), paint)

    def chip_art(self, face: str) -> Image.Image:
        """A face's symbol on its colour, the legend's name for it."""
        px = self.u(BADGE)
        fill, ink = _face(face)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=px * k / 6, fill=fill,
                                outline=mix(ink, fill, 0.45), width=round(k))
            m = px * k * 0.12
            draw_icon(d, face, (m, m, px * k - m, px * k - m), ink, fill)

        return smooth((px, px), paint)

    def hole_art(self, owner: int) -> Image.Image:
        """A ziggurat standing where a tile was, in its builder's colour and shape."""
        px = self.u(TILE)
        colour, shape = _player(owner)
        hole, edge = self.c["hole"], self.c["hole_edge"]

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = px * k / TILE
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=10 * s, fill=hole,
                                outline=edge, width=round(3 * s))
            draw_icon(d, "ziggurat", (14 * s, 16 * s, 94 * s, 96 * s), colour, hole)
            d.ellipse((4 * s, 4 * s, 42 * s, 42 * s), fill=colour, outline=edge, width=round(2 * s))
            draw_icon(d, shape, (12 * s, 12 * s, 34 * s, 34 * s), self.fore(colour), colour)

        return smooth((px, px), paint)

    def fore(self, background: Colour) -> Colour:
        """White or ink, whichever reads better on ``background``."""
        ink, white = self.c["ink"], self.c["white"]
        return white if contrast(white, background) >= contrast(ink, background) else ink

    def tokens_art(self, seat: int, count: int) -> Image.Image:
        """The owner's frame and token band (shape and count) laid over an owned tile."""
        px = self.u(TILE)
        colour, shape = _player(seat)
        fore = self.fore(colour)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = px * k / TILE
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=10 * s, outline=colour,
                                width=round(5 * s))
            d.rounded_rectangle((0, 68 * s, px * k - 1, px * k - 1), radius=10 * s, fill=colour)
            d.rectangle((0, 68 * s, px * k - 1, 80 * s), fill=colour)
            draw_icon(d, shape, (14 * s, 73 * s, 38 * s, 97 * s), fore, colour)

        sprite = smooth((px, px), paint)
        ImageDraw.Draw(sprite).text((self.u(44), self.u(85)), f"×{count}", fill=fore, anchor="lm",
                                    font=fonts.font(self.font_px(TEXT + 2), True))
        return sprite

    def frame_art(self, size: float) -> Image.Image:
        """The last-turn highlight: a yellow frame with dark edges, ``size`` reference px."""
        px = self.u(size)
        yellow, edge = self.c["highlight"], self.c["highlight_edge"]

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = k * self.k
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=size * s / 9,
                                outline=edge, width=round(10 * s))
            d.rounded_rectangle((2 * s, 2 * s, px * k - 1 - 2 * s, px * k - 1 - 2 * s),
                                radius=size * s / 10, outline=yellow, width=round(6 * s))

        return smooth((px, px), paint)

    def badge_art(self, name: str, fill: Colour, ink: Colour) -> Image.Image:
        """A round badge with an icon (the exchange mark, the legend's back side)."""
        px = self.u(BADGE)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            d.ellipse((0, 0, px * k - 1, px * k - 1), fill=fill, outline=ink, width=round(2 * k))
            m = px * k * 0.2
            draw_icon(d, name, (m, m, px * k - m, px * k - m), ink, fill)

        return smooth((px, px), paint)

    def exchange_art(self) -> Image.Image:
        """The mark of the tile exchanged in the last turn."""
        return self._art(("exchange",), lambda: self.badge_art("exchange", self.c["highlight"],
                                                                self.c["ink"]))

    # -- flattened pieces --------------------------------------------------------------------

    def tile(self, face: str, back: str) -> Image.Image:
        """The (shared) art of a tile."""
        return self._art(("tile", face, back), lambda: self.tile_art(face, back))

    def cell(self, key: CellKey) -> Image.Image:
        """One board cell (tile or ziggurat, tokens, highlight) on the board colour."""
        ziggurat, face, back, owner, count, marked, exchanged = key
        image = Image.new("RGB", (self.u(CELL),) * 2, self.c["board"])
        at = (self.u(GAP), self.u(GAP))
        if ziggurat and owner is not None:
            paste(image, self._art(("hole", owner), lambda: self.hole_art(owner)), at)
        else:
            paste(image, self.tile(face, back), at)
            if count and owner is not None:
                paste(image, self._art(("tokens", owner, count),
                                       lambda: self.tokens_art(owner, count)), at)
        if marked:
            paste(image, self._art(("frame", CELL), lambda: self.frame_art(CELL)), (0, 0))
        if exchanged:
            paste(image, self.exchange_art(), (self.u(2), self.u(2)))
        return image

    def hand(self, face: str, back: str, background: Colour) -> Image.Image:
        """A held or spare tile on a panel's colour."""
        image = Image.new("RGB", (self.u(TILE),) * 2, background)
        paste(image, self.tile(face, back), (0, 0))
        return image

    def _panel_fill(self, state: str) -> Colour:
        return self.c["panel"] if state == "idle" else self.c["active_panel"]

    def _panel_base(self, edge: Colour, fill: Colour, border: float,
                    more: Painter | None = None) -> Image.Image:
        """A panel's rounded frame on the page, with ``more`` painted over it."""
        w, h = self.u(SIDE_W), self.u(PANEL_H)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = k * self.k
            d.rounded_rectangle((0, 0, w * k - 1, h * k - 1), radius=12 * s, fill=edge)
            d.rounded_rectangle((border * s, border * s, w * k - 1 - border * s,
                                 h * k - 1 - border * s), radius=10 * s, fill=fill)
            if more:
                more(d, k)

        return smooth((w, h), paint, self.c["background"])

    def status(self, state: str, lang: str) -> tuple[str, int]:
        """The word of a panel's ``state`` ("" when idle) and the reference width it takes
        at the right of the name's line, with its mark."""
        if state == "idle":
            return "", 0
        word = tr(lang, "render.winner" if state == "winner" else "render.to_play")
        width = fonts.font(self.font_px(TEXT)).getlength(word) / self.k
        return word, math.ceil(width) + MARK + 8

    def panel(self, seat: int, state: str, lang: str) -> Image.Image:
        """A player's panel without its values: frame, colour, shape, labels, status."""
        colour, shape = _player(seat)
        fill = self._panel_fill(state)
        edge = {"idle": self.c["panel_edge"], "active": colour, "winner": self.c["winner"]}[state]
        b = 2 if state == "idle" else 5
        word, room = self.status(state, lang)
        mark_x = SIDE_W - INSET - room

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = k * self.k
            d.rounded_rectangle((b * s, b * s, (b + 10) * s, (PANEL_H - b) * s), radius=5 * s,
                                fill=colour)
            draw_icon(d, shape, (22 * s, 10 * s, 56 * s, 44 * s), colour, fill)
            if state != "idle":
                mark, ink = ("star", self.c["winner"]) if state == "winner" else ("arrow", colour)
                draw_icon(d, mark, (mark_x * s, (27 - MARK / 2) * s, (mark_x + MARK) * s,
                                    (27 + MARK / 2) * s), ink, fill)

        image = self._panel_base(edge, fill, b, paint)
        d = ImageDraw.Draw(image)
        texts = [(self.label(word, SIDE_W - INSET, 27, self.font_px(TEXT), anchor="rm"),
                  self.c["ink"])] if word else []
        muted = self.c["muted"]
        texts.append((self.label(tr(lang, "render.score"), SCORE_X, STATS_Y, self.font_px(TEXT),
                                 anchor="lm"), muted))
        for row, key in enumerate(("render.supply", "render.on_board", "render.ziggurats")):
            label, px = self.fit(tr(lang, key), SIDE_W - INSET - VALUE_W - STATS_X, TEXT)
            texts.append((self.label(label, STATS_X, STATS_Y + STATS_ROW * row, px, anchor="lm"),
                          muted))
        for text, ink in texts:
            d.text(text.xy, text.text, fill=ink, anchor=text.anchor,
                   font=fonts.font(text.size, text.bold))
        return image

    def spare_panel(self, exchanged: bool, lang: str) -> Image.Image:
        """The frame of the spare tile's slot (3 players), marked if just exchanged."""
        image = self._panel_base(self.c["panel_edge"], self.c["panel"], 2)
        label, px = self.fit(tr(lang, "render.spare"), SIDE_W - INSET - SCORE_X, TEXT + 2, True)
        ImageDraw.Draw(image).text((self.u(SCORE_X), self.u(PANEL_H / 2)), label,
                                   fill=self.c["ink"], anchor="lm", font=fonts.font(px, True))
        if exchanged:
            paste(image, self.exchange_art(), (self.u(8), self.u(PANEL_H / 2 - TILE / 2 - 12)))
        return image

    def static(self, lang: str) -> Image.Image:
        """Background, board frame, coordinates and legend in ``lang``."""
        c, u = self.c, self.u
        image = Image.new("RGB", self.size, c["background"])
        d = ImageDraw.Draw(image)
        end = GRID + 6 * CELL
        d.rounded_rectangle((u(GRID - 8), u(GRID - 8), u(end + 8), u(end + 8)), radius=u(12),
                            fill=c["board"], outline=c["board_edge"], width=max(1, u(3)))
        coordinate = fonts.font(self.font_px(TEXT + 2), True)
        for i in range(6):
            middle = u(GRID + CELL * i + CELL / 2)
            d.text((middle, u(GRID / 2 - 4)), COLUMNS[i], fill=c["coordinates"], anchor="mm",
                   font=coordinate)
            d.text((u(GRID / 2 - 4), middle), str(i + 1), fill=c["coordinates"], anchor="mm",
                   font=coordinate)
        war_fill, war_ink = _face("war")
        items = [(self.chip_art(face), tr(lang, f"ur.face.{face}")) for face in FACES]
        items += [(self.badge_art("war", war_fill, war_ink), tr(lang, "render.legend.back")),
                  (self.frame_art(BADGE), tr(lang, "render.legend.last_turn")),
                  (self.exchange_art(), tr(lang, "render.legend.exchanged"))]
        rows = math.ceil(len(items) / 2)
        for i, (sprite, text) in enumerate(items):
            x, y = GRID - 8 + LEGEND_COLUMN * (i // rows), LEGEND_Y + LEGEND_ROW * (i % rows)
            paste(image, sprite, (u(x), u(y)))
            word, px = self.fit(text, LEGEND_COLUMN - BADGE - 20, TEXT)
            d.text((u(x + BADGE + 10), u(y + BADGE / 2)), word, fill=c["ink"], anchor="lm",
                   font=fonts.font(px))
        return image

    # -- composition -------------------------------------------------------------------------

    def _paste(self, canvas: Image.Image, key: tuple[Any, ...],
               build: Callable[[], Image.Image], x: float, y: float) -> None:
        paste(canvas, self._piece(key, build), (self.u(x), self.u(y)))

    def _text(self, canvas: Image.Image, text: Label, fill: Colour, background: Colour,
              *, name: bool = False) -> None:
        """Paste ``text``; a player's ``name`` is kept among fewer sprites: there are as
        many as players."""

        def build() -> tuple[Image.Image, tuple[int, int]]:
            image, offset = text_sprite(text.text, text.size, text.bold, fill, background,
                                        text.anchor)
            return self.finish(image), offset

        sprites = self.names if name else self.texts
        key = (text.text, text.size, text.bold, fill, background, text.anchor)
        sprite, (dx, dy) = sprites.get(key, build)
        paste(canvas, sprite, (text.xy[0] + dx, text.xy[1] + dy))

    def compose(self, view: View, ctx: RenderContext) -> Image.Image:
        """The whole board image for ``view``."""
        lang = ctx.lang
        canvas = self._piece(("static", lang), lambda: self.static(lang)).copy()
        last = view.get("last_turn") or {}
        marked = {cell_position(name) for name in last.get("cells", [])}
        exchanged = last.get("exchanged")
        if exchanged and exchanged != "spare":
            marked.add(cell_position(exchanged))
        for r, row in enumerate(view["grid"]):
            for col, cell in enumerate(row):
                key = cell_key(cell, (r, col) in marked, exchanged == f"{COLUMNS[col]}{r + 1}")
                self._paste(canvas, ("cell", key), partial(self.cell, key),
                            GRID + col * CELL, GRID + r * CELL)
        self._header(canvas, self.header(view, lang))
        for seat in range(view["players"]):
            self._player(canvas, view, ctx, seat)
        if view["players"] == 3:
            self._spare(canvas, view.get("spare"), exchanged == "spare", lang)
        return canvas

    def header(self, view: View, lang: str) -> Header:
        """Where the header's texts and icon go (see :class:`Header`)."""
        right = SIDE + SIDE_W
        turn = self.label(tr(lang, "render.turn", n=view["turn"] + 1), SIDE, HEADER_TOP,
                          self.font_px(40), True, "ls")
        left = self.label(tr(lang, "render.ziggurats_left", n=view["ziggurats_left"]), right,
                          HEADER_TOP, self.font_px(TEXT + 2), anchor="rs")
        icon_size = self.u(BADGE)
        icon_at = (round(left.box()[0]) - self.u(8) - icon_size, self.u(HEADER_TOP - BADGE + 4))
        phase, px = self.fit(tr(lang, f"render.phase.{view['phase']}"), SIDE_W, 36, True)
        return Header(turn, left, icon_at, icon_size,
                      self.label(phase, SIDE, HEADER_BOTTOM, px, True, "ls"))

    def _header(self, canvas: Image.Image, header: Header) -> None:
        c, bg = self.c, self.c["background"]
        self._text(canvas, header.turn, c["ink"], bg)
        self._text(canvas, header.left, c["muted"], bg)
        self._text(canvas, header.phase, c["ink"], bg)
        paste(canvas, self._piece(("ziggurat",), self._ziggurat_icon), header.icon_at)

    def _ziggurat_icon(self) -> Image.Image:
        image = Image.new("RGB", (self.u(BADGE),) * 2, self.c["background"])
        paste(image, icon("ziggurat", self.u(BADGE), self.c["hole_edge"], self.c["background"]),
              (0, 0))
        return image

    def _player(self, canvas: Image.Image, view: View, ctx: RenderContext, seat: int) -> None:
        lang, ink = ctx.lang, self.c["ink"]
        state = panel_state(view, seat)
        fill = self._panel_fill(state)
        x, y = SIDE, PANEL_Y + seat * PANEL_STEP
        self._paste(canvas, ("panel", seat, state, lang), lambda: self.panel(seat, state, lang),
                    x, y)
        raw = ctx.names[seat] if seat < len(ctx.names) else ""
        room = SIDE_W - 66 - INSET - self.status(state, lang)[1]
        name, px = self.fit(display_name(raw, seat, lang), room, 36, True)
        self._text(canvas, self.label(name, x + 66, y + 27, px, True, "lm"), ink, fill, name=True)
        hand = view["hands"][seat]
        if hand:
            face, back = hand["face"], hand["back"]
            self._paste(canvas, ("hand", face, back, fill), lambda: self.hand(face, back, fill),
                        x + 20, y + HAND_Y)
        score, px = self.fit(str(view["scores"][seat]), STATS_X - SCORE_X - 10, 64, True)
        self._text(canvas, self.label(score, x + SCORE_X, y + HAND_Y + TILE, px, True, "ls"),
                   ink, fill)
        values = (view["supply"][seat], view["on_board"][seat], view["ziggurats"][seat])
        for row, value in enumerate(values):
            self._text(canvas, self.label(str(value), x + SIDE_W - INSET,
                                          y + STATS_Y + STATS_ROW * row,
                                          self.font_px(TEXT + 2), True, "rm"), ink, fill)

    def _spare(self, canvas: Image.Image, spare: dict[str, str] | None, exchanged: bool,
               lang: str) -> None:
        x, y = SIDE, PANEL_Y + 3 * PANEL_STEP
        self._paste(canvas, ("spare", exchanged, lang), lambda: self.spare_panel(exchanged, lang),
                    x, y)
        if spare:
            face, back = spare["face"], spare["back"]
            fill = self.c["panel"]
            self._paste(canvas, ("hand", face, back, fill), lambda: self.hand(face, back, fill),
                        x + 20, y + (PANEL_H - TILE) / 2)


class UrRenderer(IndexedRenderer):
    """The Ur renderer (``render.context.Renderer``); safe to share between threads."""

    def __init__(self, width: int = DEFAULT_WIDTH) -> None:
        super().__init__()
        self.width = width
        self._lock = threading.Lock()
        self._arts: Sprites[Image.Image] = Sprites()
        self._fixed: Image.Image | None = None
        self._painter: _Painter | None = None

    def indexed(self, view: View, ctx: RenderContext) -> Image.Image:
        """The board as an indexed picture in the renderer's palette."""
        with self._lock:
            if self._painter is None:
                self._painter = _Painter(self.width, True, self._palette(), self._arts)
            return self._painter.compose(view, ctx)

    def text(self, view: View, ctx: RenderContext) -> str:
        """The board as a few lines of text (see :mod:`render.ur_text`)."""
        return ur_text.text(view, ctx)

    def palette(self) -> Image.Image:
        """The fixed palette of every PNG."""
        with self._lock:
            return self._palette()

    def _palette(self) -> Image.Image:
        """Every design colour plus the best others of a sample board."""
        if self._fixed is None:
            sample = _Painter(self.width, True, None, self._arts).compose(
                sample_view(), RenderContext(("Ninsun", "Gilgamesh", "Enkidu", "Shamhat")))
            data = load("ur")
            base = [rgb(v) for v in data["colours"].values()]
            base += [rgb(f[key]) for f in data["faces"].values() for key in ("fill", "ink")]
            base += [rgb(p["colour"]) for p in data["players"]]
            self._fixed = fixed_palette(sample, base)
        return self._fixed


def render_naive(view: View, ctx: RenderContext, width: int = DEFAULT_WIDTH) -> bytes:
    """The benchmark's baseline: the same picture drawn from scratch in RGB, default PNG."""
    return png_bytes(_Painter(width, memo=False).compose(view, ctx))


def sample_view() -> View:
    """A busy 4-player view showing every face, owner, count and mark (palette sample)."""
    grid = []
    for r in range(6):
        row = []
        for col in range(6):
            owner = (r + col) % 5
            row.append({
                "face": FACES[(r + 2 * col) % 5], "back": FACES[(r + 2 * col + 1 + r % 4) % 5],
                "owner": owner if owner < 4 else None,
                "tokens": 1 + (r * col) % 5 if owner < 4 else 0, "ziggurat": False,
            })
        grid.append(row)
    for seat in range(4):
        grid[seat][5 - seat].update(owner=seat, tokens=0, ziggurat=True)
    return {
        "game": "ur", "players": 4, "grid": grid,
        "hands": [{"face": f, "back": FACES[(i + 2) % 5]} for i, f in enumerate(FACES[:4])],
        "spare": None, "supply": [12, 9, 15, 7], "on_board": [6, 8, 4, 9],
        "ziggurats": [1, 1, 1, 1], "ziggurats_left": 1, "scores": [21, 18, 30, 12],
        "current": 2, "phase": "turn", "step": "actions", "turn": 14, "first_player": 0,
        "last_turn": {"seat": 1, "cells": ["B3", "C3"], "exchanged": "D5"},
        "over": False, "winners": [],
    }


RENDERER = UrRenderer()
PREVIEW = UrRenderer(PREVIEW_WIDTH)
