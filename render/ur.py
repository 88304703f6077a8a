"""The Ur board image: a pure function of the public view (format in INTERFACES.md).

Layout at the reference size of 1200 x 800 px (everything scales with ``width``;
1080 x 720 by default):
the 6x6 board on the left; on the right a header (turn, phase, ziggurats left),
one panel per player (name, shape, held tile, score if the game ended now,
supply, tokens on board, ziggurats, whose turn or the winners), the spare tile
with 3 players, and a legend.

Fast path (:meth:`UrRenderer.png`): every piece (static layer per language,
board cells, panels, texts) is drawn once, flattened on its known background
and mapped to one fixed 256-colour palette; an image is a copy of the static
layer with those indexed pieces pasted on it, saved as PNG level 1.
:func:`render_naive` draws the same picture from scratch in RGB and saves it
with default PNG settings: it is the benchmark's baseline.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import tr
from render import fonts, ur_text
from render.context import RenderContext
from render.draw import (
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

REFERENCE_WIDTH = 1200
DEFAULT_WIDTH = 1080  # about the width a phone shows: no downscaling, under 100 KB
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
GRID = 56  # top-left corner of the grid
CELL = 120
GAP = 4  # board visible around each tile
TILE = CELL - 2 * GAP
SIDE = 808  # left edge of the right column
SIDE_W = 376
PANEL_Y = 104
PANEL_H = 150
PANEL_STEP = 158
HAND = 88  # held tile size in a panel
LEGEND_Y = 752

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
        self.size = (width, round(width * 2 / 3))
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
        """A reference font size in pixels at this size."""
        return max(8, round(value * self.k))

    def finish(self, image: Image.Image) -> Image.Image:
        """A flattened piece in the canvas mode (indexed when there is a palette)."""
        return image if self.palette is None else to_palette(image, self.palette)

    def _piece(self, key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
        return self.pieces.get(key, lambda: self.finish(build()))

    def _art(self, key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
        return self.arts.get(key, build)

    # -- transparent artwork -----------------------------------------------------------------

    def tile_art(self, face: str, back: str, size: float, lang: str) -> Image.Image:
        """A tile showing ``face``, its ``back`` as a small badge, ``size`` reference px."""
        px = self.u(size)
        fill, ink = _face(face)
        back_fill, back_ink = _face(back)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = px * k / TILE
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=10 * s, fill=fill,
                                outline=mix(ink, fill, 0.45), width=round(2 * s))
            draw_icon(d, face, (30 * s, 10 * s, 74 * s, 54 * s), ink, fill)
            d.ellipse((76 * s, 4 * s, 108 * s, 36 * s), fill=back_fill, outline=back_ink,
                      width=round(2 * s))
            draw_icon(d, back, (82 * s, 10 * s, 102 * s, 30 * s), back_ink, back_fill)

        sprite = smooth((px, px), paint)
        word, word_px = fonts.fit(tr(lang, f"ur.face.{face}"), px * 100 / TILE,
                                  self.font_px(size * 17 / TILE), self.font_px(size * 11 / TILE),
                                  True)
        ImageDraw.Draw(sprite).text((px / 2, px * 67 / TILE), word, fill=ink, anchor="mm",
                                    font=fonts.font(word_px, True))
        return sprite

    def hole_art(self, owner: int) -> Image.Image:
        """A ziggurat standing where a tile was, in its builder's colour and shape."""
        px = self.u(TILE)
        colour, shape = _player(owner)
        hole, edge = self.c["hole"], self.c["hole_edge"]

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = px * k / TILE
            d.rounded_rectangle((0, 0, px * k - 1, px * k - 1), radius=10 * s, fill=hole,
                                outline=edge, width=round(3 * s))
            draw_icon(d, "ziggurat", (14 * s, 14 * s, 98 * s, 98 * s), colour, hole)
            d.ellipse((4 * s, 4 * s, 38 * s, 38 * s), fill=colour, outline=edge, width=round(2 * s))
            draw_icon(d, shape, (11 * s, 11 * s, 31 * s, 31 * s), self.fore(colour), colour)

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
            d.rounded_rectangle((0, 80 * s, px * k - 1, px * k - 1), radius=10 * s, fill=colour)
            d.rectangle((0, 80 * s, px * k - 1, 92 * s), fill=colour)
            draw_icon(d, shape, (28 * s, 84 * s, 52 * s, 108 * s), fore, colour)

        sprite = smooth((px, px), paint)
        ImageDraw.Draw(sprite).text((self.u(58), self.u(96)), f"×{count}", fill=fore, anchor="lm",
                                    font=fonts.font(self.font_px(24), True))
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
        px = self.u(30)

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

    def cell(self, key: CellKey, lang: str) -> Image.Image:
        """One board cell (tile or ziggurat, tokens, highlight) on the board colour."""
        ziggurat, face, back, owner, count, marked, exchanged = key
        image = Image.new("RGB", (self.u(CELL),) * 2, self.c["board"])
        at = (self.u(GAP), self.u(GAP))
        if ziggurat and owner is not None:
            paste(image, self._art(("hole", owner), lambda: self.hole_art(owner)), at)
        else:
            paste(image, self._art(("tile", face, back, TILE, lang),
                                   lambda: self.tile_art(face, back, TILE, lang)), at)
            if count and owner is not None:
                paste(image, self._art(("tokens", owner, count),
                                       lambda: self.tokens_art(owner, count)), at)
        if marked:
            paste(image, self._art(("frame", CELL), lambda: self.frame_art(CELL)), (0, 0))
        if exchanged:
            paste(image, self.exchange_art(), (self.u(6), self.u(6)))
        return image

    def hand(self, face: str, back: str, background: Colour, lang: str) -> Image.Image:
        """A held or spare tile on a panel's colour."""
        image = Image.new("RGB", (self.u(HAND),) * 2, background)
        paste(image, self._art(("tile", face, back, HAND, lang),
                               lambda: self.tile_art(face, back, HAND, lang)), (0, 0))
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

    def panel(self, seat: int, state: str, lang: str) -> Image.Image:
        """A player's panel without its values: frame, colour, shape, labels, status."""
        colour, shape = _player(seat)
        fill = self._panel_fill(state)
        edge = {"idle": self.c["panel_edge"], "active": colour, "winner": self.c["winner"]}[state]
        b = 2 if state == "idle" else 5
        u = self.u

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            s = k * self.k
            d.rounded_rectangle((b * s, b * s, (b + 10) * s, (PANEL_H - b) * s), radius=5 * s,
                                fill=colour)
            draw_icon(d, shape, ((b + 20) * s, (b + 4) * s, (b + 52) * s, (b + 36) * s), colour,
                      fill)
            if state != "idle":
                mark, ink = ("star", self.c["winner"]) if state == "winner" else ("arrow", colour)
                draw_icon(d, mark, ((SIDE_W - 136 + b) * s, (b + 8) * s, (SIDE_W - 110 + b) * s,
                                    (b + 34) * s), ink, fill)

        image = self._panel_base(edge, fill, b, paint)
        d = ImageDraw.Draw(image)
        if state != "idle":
            word = tr(lang, "render.winner" if state == "winner" else "render.to_play")
            word, px = fonts.fit(word, u(96), self.font_px(19), self.font_px(13), True)
            d.text((u(SIDE_W - 100), u(27)), word, fill=self.c["ink"], anchor="lm",
                   font=fonts.font(px, True))
        muted = self.c["muted"]
        d.text((u(126), u(56)), tr(lang, "render.score"), fill=muted,
               font=fonts.font(self.font_px(17)))
        for row, key in enumerate(("render.supply", "render.on_board", "render.ziggurats")):
            label, px = fonts.fit(tr(lang, key), u(110), self.font_px(18), self.font_px(13))
            d.text((u(220), u(68 + 30 * row)), label, fill=muted, anchor="lm", font=fonts.font(px))
        return image

    def spare_panel(self, exchanged: bool, lang: str) -> Image.Image:
        """The frame of the spare tile's slot (3 players), marked if just exchanged."""
        image = self._panel_base(self.c["panel_edge"], self.c["panel"], 2)
        label, px = fonts.fit(tr(lang, "render.spare"), self.u(220), self.font_px(24),
                              self.font_px(15), True)
        ImageDraw.Draw(image).text((self.u(126), self.u(75)), label, fill=self.c["ink"],
                                   anchor="lm", font=fonts.font(px, True))
        if exchanged:
            paste(image, self.exchange_art(), (self.u(12), self.u(18)))
        return image

    def static(self, lang: str) -> Image.Image:
        """Background, board frame, coordinates, title and legend in ``lang``."""
        c, u = self.c, self.u
        image = Image.new("RGB", self.size, c["background"])
        d = ImageDraw.Draw(image)
        end = GRID + 6 * CELL
        d.rounded_rectangle((u(GRID - 8), u(GRID - 8), u(end + 8), u(end + 8)), radius=u(12),
                            fill=c["board"], outline=c["board_edge"], width=max(1, u(3)))
        coordinate = fonts.font(self.font_px(26), True)
        for i in range(6):
            middle = u(GRID + CELL * i + CELL / 2)
            d.text((middle, u(GRID / 2 - 4)), COLUMNS[i], fill=c["coordinates"], anchor="mm",
                   font=coordinate)
            d.text((u(GRID / 2 - 4), middle), str(i + 1), fill=c["coordinates"], anchor="mm",
                   font=coordinate)
        d.text((u(SIDE), u(50)), tr(lang, "render.title.ur"), fill=c["ink"], anchor="ls",
               font=fonts.font(self.font_px(44), True))
        war_fill, war_ink = _face("war")
        items = ((self.frame_art(30), tr(lang, "render.legend.last_turn")),
                 (self.exchange_art(), tr(lang, "render.legend.exchanged")),
                 (self.badge_art("war", war_fill, war_ink), tr(lang, "render.legend.back")))
        size = self.font_px(18)
        while size > self.font_px(11) and u(SIDE_W - 3 * 36 - 2 * 18) < sum(
                fonts.font(size).getlength(label) for _, label in items):
            size -= 1
        x = u(SIDE)
        for sprite, label in items:
            paste(image, sprite, (x, u(LEGEND_Y - 15)))
            d.text((x + u(36), u(LEGEND_Y)), label, fill=c["ink"], anchor="lm",
                   font=fonts.font(size))
            x += u(36 + 18) + round(fonts.font(size).getlength(label))
        return image

    # -- composition -------------------------------------------------------------------------

    def _paste(self, canvas: Image.Image, key: tuple[Any, ...],
               build: Callable[[], Image.Image], x: float, y: float) -> None:
        paste(canvas, self._piece(key, build), (self.u(x), self.u(y)))

    def _text(self, canvas: Image.Image, xy: tuple[float, float], value: str, size: int,
              fill: Colour, background: Colour, bold: bool = False, anchor: str = "la",
              *, name: bool = False) -> None:
        """Paste ``value`` at ``xy`` (reference px); ``size`` is already in pixels. A
        player's ``name`` is kept among fewer sprites: there are as many as players."""

        def build() -> tuple[Image.Image, tuple[int, int]]:
            image, offset = text_sprite(value, size, bold, fill, background, anchor)
            return self.finish(image), offset

        sprites = self.names if name else self.texts
        sprite, (dx, dy) = sprites.get((value, size, bold, fill, background, anchor), build)
        paste(canvas, sprite, (self.u(xy[0]) + dx, self.u(xy[1]) + dy))

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
                self._paste(canvas, ("cell", key, lang), partial(self.cell, key, lang),
                            GRID + col * CELL, GRID + r * CELL)
        self._header(canvas, view, lang)
        for seat in range(view["players"]):
            self._player(canvas, view, ctx, seat)
        if view["players"] == 3:
            self._spare(canvas, view.get("spare"), exchanged == "spare", lang)
        return canvas

    def _header(self, canvas: Image.Image, view: View, lang: str) -> None:
        c, right, bg = self.c, SIDE + SIDE_W, self.c["background"]
        self._text(canvas, (right, 50), tr(lang, "render.turn", n=view["turn"] + 1),
                   self.font_px(26), c["muted"], bg, True, "rs")
        phase, px = fonts.fit(tr(lang, f"render.phase.{view['phase']}"), self.u(230),
                              self.font_px(24), self.font_px(15), True)
        self._text(canvas, (SIDE, 82), phase, px, c["ink"], bg, True, "ls")
        left = tr(lang, "render.ziggurats_left", n=view["ziggurats_left"])
        self._text(canvas, (right, 82), left, self.font_px(20), c["muted"], bg, False, "rs")
        width = fonts.font(self.font_px(20)).getlength(left) / self.k
        self._paste(canvas, ("ziggurat",), self._ziggurat_icon, right - width - 34, 58)

    def _ziggurat_icon(self) -> Image.Image:
        image = Image.new("RGB", (self.u(28),) * 2, self.c["background"])
        paste(image, icon("ziggurat", self.u(28), self.c["hole_edge"], self.c["background"]),
              (0, 0))
        return image

    def _player(self, canvas: Image.Image, view: View, ctx: RenderContext, seat: int) -> None:
        lang, c = ctx.lang, self.c
        state = panel_state(view, seat)
        fill = self._panel_fill(state)
        x, y = SIDE, PANEL_Y + seat * PANEL_STEP
        self._paste(canvas, ("panel", seat, state, lang), lambda: self.panel(seat, state, lang),
                    x, y)
        raw = ctx.names[seat] if seat < len(ctx.names) else ""
        room = self.u(SIDE_W - 78 - (146 if state != "idle" else 12))
        name, px = fonts.fit(display_name(raw, seat, lang), room, self.font_px(26),
                             self.font_px(20), True)
        self._text(canvas, (x + 68, y + 27), name, px, c["ink"], fill, True, "lm", name=True)
        hand = view["hands"][seat]
        if hand:
            face, back = hand["face"], hand["back"]
            self._paste(canvas, ("hand", face, back, fill, lang),
                        lambda: self.hand(face, back, fill, lang), x + 26, y + 52)
        self._text(canvas, (x + 126, y + 134), str(view["scores"][seat]), self.font_px(52),
                   c["ink"], fill, True, "ls")
        values = (view["supply"][seat], view["on_board"][seat], view["ziggurats"][seat])
        for row, value in enumerate(values):
            self._text(canvas, (x + SIDE_W - 16, y + 68 + 30 * row), str(value), self.font_px(22),
                       c["ink"], fill, True, "rm")

    def _spare(self, canvas: Image.Image, spare: dict[str, str] | None, exchanged: bool,
               lang: str) -> None:
        x, y = SIDE, PANEL_Y + 3 * PANEL_STEP
        self._paste(canvas, ("spare", exchanged, lang), lambda: self.spare_panel(exchanged, lang),
                    x, y)
        if spare:
            face, back = spare["face"], spare["back"]
            fill = self.c["panel"]
            self._paste(canvas, ("hand", face, back, fill, lang),
                        lambda: self.hand(face, back, fill, lang), x + 26, y + 31)


class UrRenderer:
    """The Ur renderer (``render.context.Renderer``); safe to share between threads."""

    def __init__(self, width: int = DEFAULT_WIDTH) -> None:
        self.width = width
        self._lock = threading.Lock()
        self._arts: Sprites[Image.Image] = Sprites()
        self._fixed: Image.Image | None = None
        self._painter: _Painter | None = None

    def _indexed(self, view: View, ctx: RenderContext) -> Image.Image:
        with self._lock:
            if self._painter is None:
                self._painter = _Painter(self.width, True, self._palette(), self._arts)
            return self._painter.compose(view, ctx)

    def image(self, view: View, ctx: RenderContext) -> Image.Image:
        """The board as an RGB image, always the same size for a given renderer."""
        return self._indexed(view, ctx).convert("RGB")

    def png(self, view: View, ctx: RenderContext) -> bytes:
        """The board as PNG bytes: cached indexed pieces, fixed palette, compression level 1."""
        return png_bytes(self._indexed(view, ctx), compress_level=1)

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
