"""Drawing helpers shared by the renderers: colours, icons, text, sprite caches, fast PNG.

Icons are data (``data/render/icons.json``): lists of Pillow primitives in a
100x100 box, drawn supersampled so their edges are smooth.
"""

from __future__ import annotations

import io
import json
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from PIL import Image, ImageDraw

from bot.i18n import tr
from render import fonts
from render.context import RenderContext

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "render"
SUPERSAMPLE = 4
PHONE_WIDTH = 400
"""Pixels a phone gives a picture's width."""
PHONE_TEXT = 10.0
"""The smallest text height, in those pixels, a player can read."""

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]


@cache
def load(name: str) -> dict[str, Any]:
    """The JSON document ``data/render/<name>.json``."""
    data: dict[str, Any] = json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def rgb(value: str) -> Colour:
    """``"#RRGGBB"`` as an RGB tuple."""
    code = value.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _luminance(c: Colour) -> float:
    def linear(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])


def contrast(a: Colour, b: Colour) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def draw_icon(draw: ImageDraw.ImageDraw, name: str, box: Box, ink: Colour, paper: Colour) -> None:
    """Draw the icon ``name`` scaled into ``box`` (aliased: draw supersampled for quality)."""
    x0, y0, x1, y1 = box
    sx, sy = (x1 - x0) / 100, (y1 - y0) / 100
    colours = {"ink": ink, "paper": paper}

    def pt(p: list[float]) -> tuple[float, float]:
        return x0 + p[0] * sx, y0 + p[1] * sy

    for shape in load("icons")[name]:
        fill = colours[shape["colour"]]
        op = shape["op"]
        if op == "line":
            width = max(1, round(shape["width"] * sx))
            draw.line([pt(p) for p in shape["points"]], fill=fill, width=width)
        elif op == "polygon":
            draw.polygon([pt(p) for p in shape["points"]], fill=fill)
        else:
            (a, b), (c, d) = pt(shape["box"][:2]), pt(shape["box"][2:])
            if op == "ellipse":
                draw.ellipse((a, b, c, d), fill=fill)
            elif op == "rectangle":
                draw.rectangle((a, b, c, d), fill=fill)
            else:
                draw.rounded_rectangle((a, b, c, d), radius=shape["radius"] * sx, fill=fill)


Painter = Callable[[ImageDraw.ImageDraw, float], None]


def smooth(size: tuple[int, int], paint: Painter, background: Colour | None = None) -> Image.Image:
    """A sprite of ``size`` painted ``SUPERSAMPLE`` times bigger, then reduced (smooth edges).

    ``paint(draw, k)`` draws in the big image: multiply every coordinate by ``k``.
    Transparent RGBA, or RGB on an opaque ``background``.
    """
    big_size = (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE)
    if background is not None:
        big = Image.new("RGB", big_size, background)
        paint(ImageDraw.Draw(big), SUPERSAMPLE)
        return big.reduce(SUPERSAMPLE)
    big = Image.new("RGBA", big_size, (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.convert("RGBa").reduce(SUPERSAMPLE).convert("RGBA")


def icon(name: str, size: int, ink: Colour, paper: Colour) -> Image.Image:
    """The icon ``name`` as a smooth transparent sprite of ``size`` x ``size`` px."""
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        draw_icon(d, name, (0, 0, size * k, size * k), ink, paper)

    return smooth((size, size), paint)


def text_sprite(
    value: str, size: int, bold: bool, fill: Colour, background: Colour, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """``value`` drawn on ``background``, tightly cropped, and its offset from the anchor point."""
    face = fonts.font(size, bold)
    left, top, right, bottom = (round(v) for v in face.getbbox(value, anchor=anchor))
    image = Image.new("RGB", (max(1, right - left), max(1, bottom - top)), background)
    ImageDraw.Draw(image).text((-left, -top), value, font=face, fill=fill, anchor=anchor)
    return image, (left, top)


T = TypeVar("T")


class Sprites(Generic[T]):
    """Pre-rendered pieces keyed by what they show, least recently used dropped past ``limit``.

    With ``memo=False`` nothing is kept: every piece is drawn each time it is asked for.
    """

    def __init__(self, memo: bool = True, limit: int = 4096) -> None:
        self.memo = memo
        self.limit = limit
        self._store: OrderedDict[Hashable, T] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The piece for ``key``, built by ``build()`` unless already kept."""
        if key in self._store:
            self._store.move_to_end(key)
            return self._store[key]
        found = build()
        if self.memo:
            self._store[key] = found
            if len(self._store) > self.limit:
                self._store.popitem(last=False)
        return found


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    """Paste ``sprite`` at ``xy`` (top-left), blending by its alpha channel if it has one."""
    at = (round(xy[0]), round(xy[1]))
    if sprite.mode == "RGBA":
        canvas.paste(sprite, at, sprite)
    else:
        canvas.paste(sprite, at)


def fixed_palette(sample: Image.Image, base: Iterable[Colour]) -> Image.Image:
    """A 256-colour palette image: ``base`` colours exactly, then the best others of ``sample``."""
    exact = list(dict.fromkeys(base))
    adaptive = sample.convert("RGB").quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = adaptive.getpalette() or []
    colours = exact + [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    values = [channel for colour in colours[:256] for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(values + [0] * (768 - len(values)))
    return palette


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` mapped to the nearest colours of ``palette``, without dithering."""
    return image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, compress_level: int | None = None) -> bytes:
    """``image`` as PNG bytes (Pillow's default compression unless ``compress_level``)."""
    out = io.BytesIO()
    if compress_level is None:
        image.save(out, format="PNG")
    else:
        image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


class PictureRenderer:
    """A renderer whose PNG is its RGB ``image`` cut to 64 colours and whose text is its
    ``lines`` (the games drawn from scratch each time, without a cached static layer)."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as an RGB picture."""
        raise NotImplementedError

    def lines(self, view: dict[str, Any], ctx: RenderContext) -> list[str]:
        """The board as lines of text."""
        raise NotImplementedError

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The picture as PNG bytes, in 64 colours."""
        image = self.image(view, ctx).quantize(64, method=Image.Quantize.FASTOCTREE)
        return png_bytes(image, compress_level=6)

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        """The lines as one text."""
        return "\n".join(self.lines(view, ctx))


class Pieces:
    """The pieces of fast pictures: each piece (artwork, a text) is drawn once on its known
    background, mapped to one fixed palette and kept, so that a picture is a copy of a
    cached static layer with the pieces of its view pasted on it, then saved as an indexed
    PNG at level 1 (:func:`png_bytes`). Without a palette the pieces stay RGB (to draw the
    sample a palette is made from). Not thread-safe: a renderer shares one under a lock."""

    def __init__(self, palette: Image.Image | None, limit: int = 2048) -> None:
        self.palette = palette
        self._pieces: Sprites[Image.Image] = Sprites(limit=limit)
        self._texts: Sprites[tuple[Image.Image, tuple[int, int]]] = Sprites(limit=limit)
        self._fitted: Sprites[tuple[str, int, float]] = Sprites(limit=4 * limit)

    def finish(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) in the pictures' mode: indexed when there is a palette."""
        return image if self.palette is None else to_palette(image, self.palette)

    def piece(self, key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
        """The piece ``key``, drawn in RGB by ``build`` the first time, indexed."""
        return self._pieces.get(key, lambda: self.finish(build()))

    def paste(self, canvas: Image.Image, key: Hashable, build: Callable[[], Image.Image],
              xy: tuple[float, float]) -> None:
        """Paste the piece ``key`` (see :meth:`piece`) with its top-left at ``xy``."""
        paste(canvas, self.piece(key, build), xy)

    def text(self, canvas: Image.Image, xy: tuple[float, float], value: str, size: int,
             width: float, smallest: int, fill: Colour, background: Colour, *,
             bold: bool = False, anchor: str = "la") -> float:
        """Paste ``value`` at ``xy`` (``anchor`` as Pillow's), fitted into ``width`` as
        :func:`fitted_text` does, on ``background``; the width it took."""
        shown, fitted, taken = self._fitted.get(
            (value, size, width, smallest, bold), lambda: _fit(value, size, width, smallest, bold))

        def build() -> tuple[Image.Image, tuple[int, int]]:
            image, offset = text_sprite(shown, fitted, bold, fill, background, anchor)
            return self.finish(image), offset

        sprite, (dx, dy) = self._texts.get((shown, fitted, bold, fill, background, anchor), build)
        paste(canvas, sprite, (xy[0] + dx, xy[1] + dy))
        return taken


def _fit(value: str, size: int, width: float, smallest: int, bold: bool
         ) -> tuple[str, int, float]:
    """``value`` as :meth:`Pieces.text` draws it: cleaned, fitted; its size and width."""
    shown, fitted = fonts.fit(fonts.clean_text(value, fonts.coverage(bold)), max(width, 10),
                              size, smallest, bold)
    return shown, fitted, float(fonts.font(fitted, bold).getlength(shown))


def ink_on(colour: Colour, ink: Colour) -> Colour:
    """``ink`` on a light ``colour``, white on a dark one."""
    return ink if sum(colour) > 450 else (255, 255, 255)


def chip(draw: ImageDraw.ImageDraw, x: float, y: float, fill: Colour, label: str, *,
         size: int, text_size: int, ink: Colour, round_: bool = False) -> float:
    """A numbered square (or disc) ``size`` pixels high, as wide as its label needs; the x
    after it."""
    face = fonts.font(text_size, True)
    width = max(size, face.getlength(label) + size // 3)
    box = (x, y, x + width, y + size)
    if round_:
        draw.ellipse(box, fill=fill, outline=ink, width=2)
    else:
        draw.rounded_rectangle(box, size // 6, fill=fill, outline=ink, width=1)
    draw.text((x + width / 2, y + size / 2 + 1), label, font=face, fill=ink_on(fill, ink),
              anchor="mm")
    return x + width + 3


def legible(width: float) -> int:
    """The smallest font size still readable on a phone in a picture ``width`` pixels
    wide (the legibility rule every renderer keeps)."""
    return math.ceil(PHONE_TEXT * width / PHONE_WIDTH)


def player_name(ctx: RenderContext, seat: int) -> str:
    """Seat ``seat``'s name as a picture shows it ("Player 3" when it has none)."""
    return ctx.names[seat] if seat < len(ctx.names) else tr(ctx.lang, "render.player",
                                                           n=seat + 1)


def fitted_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
                width: float, smallest: int, fill: Colour, bold: bool = False) -> float:
    """Draw ``value`` at ``size``, made smaller (down to ``smallest``) or cut with "…" to fit
    ``width``, with the characters the font lacks replaced; the width it took."""
    shown, fitted = fonts.fit(fonts.clean_text(value, fonts.coverage(bold)), max(width, 10),
                              size, smallest, bold)
    face = fonts.font(fitted, bold)
    draw.text(xy, shown, font=face, fill=fill)
    return float(face.getlength(shown))
