"""The After the Flood pictures: the board as a map with its pieces, the round's empires and
each player's goods and pieces (all public), as an image or as text.

The map is drawn from ``data/render/flood.json``: a grid of 10 px cells, one letter per
cell, whose edges are bent and rounded once per process, so that the regions are lands
with borders, the Mediterranean and the Gulf are seas and Dilmun an island; terrain
colours (the green alluvium of Sumer, mountains, steppe, desert, the Nile), the Euphrates,
the Tigris and the Nile as rivers, the one-way borders as arrowheads and the sea routes of
Dilmun as dashes. Each region shows its name, the points its majority is worth and the
goods it trades (outside Sumer), then its pieces: a city as a house (a gold roof once
extended), each player's workers as a numbered square, armies as a numbered disc. The four
worker boxes stand in the Arabian desert (``2|1``: 2 workers ready and 1 used this round).
The places the last turn touched are framed in yellow. Below the map: the round's three
empires, one panel per player (points, whose turn, goods, workers, armies, cities,
equipment, Passed box) and a legend. No text is under :data:`TEXT` (10 px on a phone that
shows the picture 400 px wide).

Fast path (:meth:`FloodRenderer.png`): the map and everything that does not change (names,
points, goods offered, boxes, legend, panel frames) is a static layer drawn once per
language; pieces and texts are drawn once each in one fixed palette and pasted on a copy of
it (:class:`render.draw.Pieces`); the PNG is indexed, level 1.
"""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.games.flood import data as D
from bot.i18n import tr, translate
from render import fonts
from render.context import RenderContext
from render.draw import (
    Colour,
    Pieces,
    Sprites,
    fitted_text,
    fixed_palette,
    legible,
    load,
    mix,
    paste,
    player_name,
    png_bytes,
    rgb,
    smooth,
)
from render.png import IndexedRenderer

WIDTH = 800
TEXT = legible(WIDTH)
"""The smallest text: 10 px once the picture is shown 400 px wide."""
TITLE = TEXT + 4
MARGIN = 10
HEADER = 64
MAP_TOP = HEADER
CHIP = 28
"""Pieces (worker squares, army discs, houses, the points of a majority)."""
MARK = 18
"""A resource mark: a cube or a disc of its colour."""
LINE = 28
NAME_OVERHANG = 40
"""How far a region's name may run past the rectangle its pieces keep to (into the rest of
the region)."""
EMPIRES_H = 3 * LINE + 8
PLAYER_H = 96
LEGEND_ROW = 28
NUMBER = 28
"""The room of a number in a player's line of workers and armies."""
LEGEND_COLUMNS = 4

MAP = load("flood")
CELL = int(MAP["cell"])
GRID: list[str] = MAP["grid"]
CODES: dict[str, str] = MAP["codes"]
MAP_W, MAP_H = len(GRID[0]) * CELL, len(GRID) * CELL
EMPIRES_TOP = MAP_TOP + MAP_H + 8
PLAYERS_TOP = EMPIRES_TOP + EMPIRES_H + 6
LEGEND_TOP = PLAYERS_TOP + D.PLAYERS * PLAYER_H + 4
LEGEND_ITEMS = 7 + len(D.RESOURCES)
HEIGHT = LEGEND_TOP + -(-LEGEND_ITEMS // LEGEND_COLUMNS) * LEGEND_ROW + 6

BACKGROUND: Colour = (244, 236, 220)
PANEL: Colour = (250, 245, 236)
ACTIVE: Colour = (255, 246, 214)
INK: Colour = (44, 34, 26)
MUTED: Colour = (104, 90, 74)
BORDER: Colour = (88, 72, 52)
RIVER: Colour = (92, 146, 190)
ARROW: Colour = (168, 52, 28)
GOLD: Colour = (246, 200, 40)
HIGHLIGHT: Colour = (255, 214, 0)
WHITE: Colour = (255, 255, 255)
SEAT_COLOURS: tuple[Colour, ...] = ((206, 52, 44), (40, 100, 196), (36, 134, 66))
RES_COLOURS: dict[str, Colour] = {
    "grain": (232, 196, 96), "cloth": (250, 250, 244), "wood": (128, 80, 40),
    "metal": (196, 108, 60), "oil": (96, 112, 30), "tools": (104, 118, 136),
    "gold": (246, 196, 0), "lapis": (34, 58, 160),
}
TERRAIN: dict[str, Colour] = {k: rgb(v) for k, v in MAP["terrain_colours"].items()}
SEA_ROUTES: list[tuple[str, str]] = sorted((a, b) for a, b in (sorted(p) for p in D.SEA_BORDERS))
FORMS: dict[str, str] = {r: str(D.TABLES["resources"][r]["form"]) for r in D.RESOURCES}

View = dict[str, Any]
Box = tuple[int, int, int, int]


# -- the geometry of the map, worked out once -----------------------------------------------


def _warped(image: Image.Image) -> Image.Image:
    """``image`` bent by a mesh of jittered points (the same every time)."""
    spec = MAP["warp"]
    cols, rows, amp = int(spec["columns"]), int(spec["rows"]), float(spec["amplitude"])
    rng = random.Random(int(spec["seed"]))
    w, h = image.size
    points = {}
    for j, i in itertools.product(range(rows + 1), range(cols + 1)):
        inside = 0 < i < cols and 0 < j < rows
        points[i, j] = (w * i / cols + (rng.uniform(-amp, amp) if inside else 0),
                        h * j / rows + (rng.uniform(-amp, amp) if inside else 0))
    mesh = [((round(w * i / cols), round(h * j / rows), round(w * (i + 1) / cols),
              round(h * (j + 1) / rows)),
             (*points[i, j], *points[i, j + 1], *points[i + 1, j + 1], *points[i + 1, j]))
            for j, i in itertools.product(range(rows), range(cols))]
    return image.transform(image.size, Image.Transform.MESH, mesh,
                           Image.Resampling.NEAREST)


@dataclass(frozen=True)
class Geometry:
    """The drawn map: a label per pixel (the index of ``labels``), where each region's name
    and pieces go, and the rim each region's frame is drawn with."""

    labels: tuple[str, ...]
    image: Image.Image
    rects: dict[str, Box]
    rims: dict[str, tuple[tuple[int, int], Image.Image]]

    def index(self, place: str) -> int:
        """The label of ``place`` in :attr:`image`."""
        return self.labels.index(place)


def _largest(place: str, shortest: int, tallest: int, widest: int) -> Box:
    """The largest rectangle of ``place``'s cells at least ``shortest`` cells high (counted
    up to ``tallest`` and ``widest``), in map pixels: where its name and pieces go."""
    code = next(c for c, p in CODES.items() if p == place)
    heights = [0] * len(GRID[0])
    best, found = 0, (0, 0, 1, 1)
    for y, row in enumerate(GRID):
        heights = [h + 1 if c == code else 0 for h, c in zip(heights, row, strict=True)]
        for x0 in range(len(row)):
            low = len(GRID)
            for x1 in range(x0, len(row)):
                low = min(low, heights[x1])
                if low < shortest:
                    break
                area = min(x1 - x0 + 1, widest) * min(low, tallest)
                if area > best:
                    best, found = area, (x0, y - low + 1, x1 - x0 + 1, low)
    x, y, w, h = found
    return x * CELL + 4, y * CELL + 4, w * CELL - 8, h * CELL - 8


@cache
def geometry() -> Geometry:
    """The map's regions as drawn (computed once)."""
    labels = tuple(dict.fromkeys(CODES[c] for row in GRID for c in row))
    small = Image.new("L", (len(GRID[0]), len(GRID)))
    small.putdata([labels.index(CODES[c]) for row in GRID for c in row])
    image = _warped(small.resize((MAP_W, MAP_H), Image.Resampling.NEAREST))
    image = image.filter(ImageFilter.ModeFilter(int(MAP["smooth"])))
    rects = {r: _largest(r, 4 if r == "dilmun" else 5, 8, 20) for r in D.REGION_IDS}
    rects["desert"] = _largest("desert", 20, 40, 40)
    rims = {}
    for place in D.REGION_IDS:
        mask = image.point(partial(_only, labels.index(place)))
        x0, y0, x1, y1 = mask.getbbox() or (0, 0, 1, 1)
        box = (max(0, x0 - 4), max(0, y0 - 4), x1 + 4, y1 + 4)
        mask = mask.crop(box)
        inner = mask
        for _ in range(3):          # a 7-pixel erosion, three times faster than one filter
            inner = inner.filter(ImageFilter.MinFilter(3))
        rim = ImageChops.subtract(mask, inner)
        rims[place] = (box[:2], rim.point(lambda v: 255 if v else 0, "1"))
    return Geometry(labels, image, rects, rims)


def _only(label: int, value: int) -> int:
    """A mask's value for a pixel of ``value``: white for ``label``."""
    return 255 if value == label else 0


def box_rects() -> dict[str, Box]:
    """The four worker boxes, one above the other in the Arabian desert (map pixels)."""
    x, y, w, h = geometry().rects["desert"]
    step = min(66, h // len(D.BOXES))
    top = y + (h - step * len(D.BOXES)) // 2
    return {box: (x, top + i * step, w, step - 6) for i, box in enumerate(D.BOXES)}


def _centre(place: str) -> tuple[float, float]:
    """The middle of a region's cells (map pixels)."""
    code = next(c for c, p in CODES.items() if p == place)
    cells = [(x, y) for y, row in enumerate(GRID) for x, c in enumerate(row) if c == code]
    return ((sum(x for x, _ in cells) / len(cells) + 0.5) * CELL,
            (sum(y for _, y in cells) / len(cells) + 0.5) * CELL)


def border_middle(a: str, b: str) -> tuple[float, float]:
    """The middle of the border between regions ``a`` and ``b`` (map pixels)."""
    ca, cb = (next(c for c, p in CODES.items() if p == r) for r in (a, b))
    found = []
    for y, row in enumerate(GRID):
        for x, c in enumerate(row):
            if c != ca:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= y + dy < len(GRID) and 0 <= x + dx < len(row) \
                        and GRID[y + dy][x + dx] == cb:
                    found.append(((x + 0.5 + dx / 2) * CELL, (y + 0.5 + dy / 2) * CELL))
    found.sort()
    return found[len(found) // 2]


# -- pieces -------------------------------------------------------------------------------


def _outline(colour: Colour) -> Colour:
    return mix(colour, INK, 0.6)


def chip_art(colour: Colour, label: str, round_: bool = False) -> Image.Image:
    """A worker square (or an army disc, ``round_``) with its count, transparent around."""
    face = fonts.font(TEXT, True)
    width = max(CHIP, math.ceil(face.getlength(label)) + 10)

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        box = (k, k, (width - 1) * k, (CHIP - 1) * k)
        if round_:
            d.ellipse(box, fill=colour, outline=_outline(colour), width=round(2 * k))
        else:
            d.rounded_rectangle(box, radius=5 * k, fill=colour, outline=_outline(colour),
                                width=round(2 * k))

    image = smooth((width, CHIP), paint)
    ink = INK if sum(colour) > 450 else WHITE
    ImageDraw.Draw(image).text((width / 2, CHIP / 2 + 1), label, font=face, fill=ink,
                               anchor="mm")
    return image


def city_art(colour: Colour, extended: bool) -> Image.Image:
    """A city: a house of its owner's colour, with a gold roof once extended."""
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        s = CHIP * k / 28
        roof = GOLD if extended else _outline(colour)
        d.polygon([(2 * s, 13 * s), (14 * s, 2 * s), (26 * s, 13 * s)], fill=roof,
                  outline=INK)
        d.rectangle((5 * s, 12 * s, 23 * s, 26 * s), fill=colour, outline=INK,
                    width=round(1.5 * s))
        d.rectangle((11 * s, 17 * s, 17 * s, 26 * s), fill=_outline(colour))

    return smooth((CHIP, CHIP), paint)


def mark_art(res: str, size: int = MARK) -> Image.Image:
    """A resource mark: a cube (square) or a disc of its colour."""
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        box = (k, k, (size - 1) * k, (size - 1) * k)
        if FORMS[res] == "disc":
            d.ellipse(box, fill=RES_COLOURS[res], outline=INK, width=round(1.5 * k))
        else:
            d.rounded_rectangle(box, radius=2 * k, fill=RES_COLOURS[res], outline=INK,
                                width=round(1.5 * k))

    return smooth((size, size), paint)


def points_art(vp: int) -> Image.Image:
    """The points a majority is worth: a gold disc with the number."""
    return chip_art(GOLD, str(vp), round_=True)


def arrow_art(angle: float) -> Image.Image:
    """A one-way border's arrowhead pointing at ``angle`` (radians, 0 = east)."""
    size = 30

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        c, s = math.cos(angle), math.sin(angle)
        half = size * k / 2
        tip = (half + c * 13 * k, half + s * 13 * k)
        left = (half - c * 9 * k - s * 10 * k, half - s * 9 * k + c * 10 * k)
        right = (half - c * 9 * k + s * 10 * k, half - s * 9 * k - c * 10 * k)
        d.polygon([tip, left, right], fill=ARROW, outline=WHITE, width=round(2 * k))

    return smooth((size, size), paint)


def frame_art(width: int, height: int) -> Image.Image:
    """The yellow frame of a box the last turn touched."""
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        d.rounded_rectangle((2 * k, 2 * k, (width - 2) * k, (height - 2) * k), radius=8 * k,
                            outline=HIGHLIGHT, width=round(5 * k))

    return smooth((width, height), paint)


# -- the static layer ------------------------------------------------------------------------


def _terrain(place: str) -> Colour:
    return TERRAIN[MAP["terrain"][place]]


def _paint_map(canvas: Image.Image) -> None:
    """Terrain, textures, rivers, borders, coasts, arrows and sea routes."""
    geo = geometry()
    flat = [c for place in geo.labels for c in _terrain(place)]
    land = geo.image.copy()
    land.putpalette(flat + [0] * (768 - len(flat)))
    layer = land.convert("RGB")
    draw = ImageDraw.Draw(layer)
    _textures(draw, geo)
    for river in MAP["rivers"]:
        points = [tuple(p) for p in river["points"]]
        draw.line(points, fill=mix(RIVER, WHITE, 0.35), width=9, joint="curve")
        draw.line(points, fill=RIVER, width=5, joint="curve")
    edges = geo.image.filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v else 0)
    sea = geo.image.point(lambda v: 255 if v == geo.index("sea") else 0)
    coast = ImageChops.multiply(edges, sea.filter(ImageFilter.MaxFilter(3)))
    layer.paste(BORDER, (0, 0), edges.filter(ImageFilter.MaxFilter(3)).point(
        lambda v: 255 if v else 0))
    layer.paste(mix(RIVER, INK, 0.3), (0, 0), coast)
    for a, b in SEA_ROUTES:
        _dashes(draw, _centre(a), _centre(b), geo)
    canvas.paste(layer, (0, MAP_TOP))
    for a, b in sorted(D.ARROWS):
        x, y = border_middle(a, b)
        (ax, ay), (bx, by) = _centre(a), _centre(b)
        paste(canvas, arrow_art(math.atan2(by - ay, bx - ax)), (x - 15, MAP_TOP + y - 15))


def _dashes(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
            geo: Geometry) -> None:
    """A sea route: dashes from ``a`` to ``b`` where they cross the sea."""
    sea = geo.index("sea")
    steps = int(math.dist(a, b) // 8)
    for k in range(0, steps, 2):
        p = (a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
        q = (a[0] + (b[0] - a[0]) * (k + 1) / steps, a[1] + (b[1] - a[1]) * (k + 1) / steps)
        if geo.image.getpixel((int(p[0]), int(p[1]))) == sea:
            draw.line((p, q), fill=mix(RIVER, INK, 0.4), width=3)


def _textures(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    """Mountains, dunes and waves, away from names, pieces and borders."""
    kept = [r for r in geo.rects.values()] + list(box_rects().values())
    pixels = geo.image.load()
    assert pixels is not None
    for y in range(14, MAP_H - 14, 26):
        for x in range(14 + (y // 26 % 2) * 13, MAP_W - 14, 26):
            place = geo.labels[int(pixels[x, y])]   # type: ignore[arg-type]
            kind = MAP["terrain"][place]
            if any(rx - 12 <= x <= rx + rw + 12 and ry - 12 <= y <= ry + rh + 12
                   for rx, ry, rw, rh in kept):
                continue
            if any(pixels[x + dx, y + dy] != pixels[x, y]
                   for dx, dy in ((-12, 0), (12, 0), (0, -12), (0, 12))):
                continue
            ink = mix(_terrain(place), INK, 0.35)
            if kind == "mountains":
                draw.polygon([(x - 8, y + 5), (x, y - 7), (x + 8, y + 5)], outline=ink,
                             width=2)
            elif kind in ("desert", "steppe"):
                draw.arc((x - 7, y - 3, x + 7, y + 5), 200, 340, fill=ink, width=2)
            elif kind == "sea":
                draw.arc((x - 8, y - 3, x, y + 3), 200, 340, fill=ink, width=2)
                draw.arc((x, y - 3, x + 8, y + 3), 200, 340, fill=ink, width=2)
            elif kind in ("sumer", "nile"):
                draw.line((x - 4, y + 4, x - 2, y - 3), fill=ink, width=2)
                draw.line((x + 2, y + 4, x + 4, y - 3), fill=ink, width=2)


def _static(lang: str, seat_rows: int) -> Image.Image:
    """Everything that changes only with the language: map, names, points and goods of the
    regions, the worker boxes, panel frames and the legend."""
    canvas = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    _paint_map(canvas)
    draw = ImageDraw.Draw(canvas)
    geo = geometry()
    for place in D.REGION_IDS:
        x, y, w, _ = geo.rects[place]
        region = D.REGIONS[place]
        _halo_text(draw, (x, MAP_TOP + y), translate(D.region_name(place), lang),
                   w + NAME_OVERHANG, bold=not region.in_sumer)
        if not region.in_sumer:
            paste(canvas, points_art(region.vp), (x, MAP_TOP + y + LINE))
            for i, res in enumerate(region.trade):
                paste(canvas, mark_art(res),
                      (x + CHIP + 4 + i * (MARK + 4), MAP_TOP + y + LINE + 5))
    for box, (x, y, w, h) in box_rects().items():
        draw.rounded_rectangle((x, MAP_TOP + y, x + w, MAP_TOP + y + h), 8, fill=PANEL,
                               outline=BORDER, width=2)
        name = translate(D.place_name(box), lang)
        fitted_text(draw, (x + 6, MAP_TOP + y + 2), name, TEXT, w - 12, TEXT, INK,
                    bold=fonts.font(TEXT, True).getlength(name) <= w - 12)
        paste(canvas, points_art(D.PLACE_VP[box]), (x + w - CHIP - 4, MAP_TOP + y + h - CHIP - 3))
    for seat in range(seat_rows):
        top = PLAYERS_TOP + seat * PLAYER_H
        draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + PLAYER_H - 6), 10,
                               fill=PANEL, outline=MUTED, width=2)
    draw.rounded_rectangle((MARGIN, EMPIRES_TOP, WIDTH - MARGIN, EMPIRES_TOP + EMPIRES_H), 10,
                           fill=PANEL, outline=MUTED, width=2)
    _legend(canvas, draw, lang)
    return canvas


def _halo_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, width: float,
               bold: bool = False) -> float:
    """A name on the map, light around its letters so it reads on any ground; its width."""
    shown, size = fonts.fit(fonts.clean_text(value, fonts.coverage(bold)), max(width, 10),
                            TEXT, TEXT, bold)
    face = fonts.font(size, bold)
    draw.text(xy, shown, font=face, fill=INK, stroke_width=3,
              stroke_fill=mix(WHITE, BACKGROUND, 0.3))
    return float(face.getlength(shown))


def _legend(canvas: Image.Image, draw: ImageDraw.ImageDraw, lang: str) -> None:
    """What the marks mean: pieces, borders, the last turn's frame, the resources."""
    seat = SEAT_COLOURS[0]
    items: list[tuple[Image.Image, str]] = [
        (chip_art(seat, "2"), tr(lang, "flood.render.legend.workers")),
        (chip_art(seat, "1", round_=True), tr(lang, "flood.render.legend.armies")),
        (city_art(seat, False), tr(lang, "flood.render.legend.city")),
        (city_art(seat, True), tr(lang, "flood.render.legend.extended")),
        (points_art(5), tr(lang, "flood.render.legend.points")),
        (arrow_art(0.0), tr(lang, "flood.render.legend.arrow")),
        (frame_art(CHIP, CHIP), tr(lang, "flood.render.legend.last_turn")),
    ]
    items += [(mark_art(r), translate(D.res_name(r), lang)) for r in D.RESOURCES]
    column = (WIDTH - 2 * MARGIN) / LEGEND_COLUMNS
    for i, (sprite, label) in enumerate(items):
        x = MARGIN + column * (i % LEGEND_COLUMNS)
        top = LEGEND_TOP + LEGEND_ROW * (i // LEGEND_COLUMNS)
        paste(canvas, sprite, (x + (CHIP - sprite.width) / 2,
                               top + (LEGEND_ROW - sprite.height) / 2))
        fitted_text(draw, (x + CHIP + 6, top + 2), label, TEXT, column - CHIP - 10, TEXT, INK)


# -- the pieces of a view ----------------------------------------------------------------------


def _deciding(view: View) -> int | None:
    return None if view["phase"] == "over" else int(view["current"])


def seats_in_order(view: View) -> list[int]:
    """The players in turn order, or by final rank once the game is over."""
    order = list(view["order"])
    if view["phase"] != "over":
        return order
    return sorted(order, key=lambda s: (-view["vp"][s], order.index(s)))


def _res_line(view: View, seat: int) -> list[tuple[str, int]]:
    return [(r, k) for r, k in view["res"][seat].items() if k]


class _Board:
    """Draws views on one fixed palette (``palette``), or in RGB without one."""

    def __init__(self, palette: Image.Image | None) -> None:
        self.pieces = Pieces(palette)
        self.statics: dict[tuple[str, int], Image.Image] = {}
        self.arts: Sprites[tuple[Image.Image, Image.Image]] = Sprites(limit=2048)

    def static(self, lang: str, rows: int) -> Image.Image:
        key = (lang, rows)
        if key not in self.statics:
            self.statics[key] = self.pieces.finish(_static(lang, rows))
        return self.statics[key]

    def _art(self, key: tuple[Any, ...], build: Callable[[], Image.Image]
             ) -> tuple[Image.Image, Image.Image]:
        """A transparent piece in the canvas's mode, with the mask to paste it by."""
        def flattened() -> tuple[Image.Image, Image.Image]:
            art = build()
            mask = art.getchannel("A").point(lambda v: 255 if v >= 110 else 0, "1")
            flat = Image.new("RGB", art.size, BACKGROUND)
            flat.paste(art, (0, 0), art)
            return self.pieces.finish(flat), mask

        return self.arts.get(key, flattened)

    def _put(self, canvas: Image.Image, key: tuple[Any, ...], build: Callable[[], Image.Image],
             xy: tuple[float, float]) -> int:
        image, mask = self._art(key, build)
        canvas.paste(image, (round(xy[0]), round(xy[1])), mask)
        return image.width

    def compose(self, view: View, ctx: RenderContext) -> Image.Image:
        """The whole picture of ``view``."""
        canvas = self.static(ctx.lang, view["n"]).copy()
        self._highlights(canvas, view)
        for place in D.REGION_IDS:
            self._region(canvas, view, place)
        for box in D.BOXES:
            self._box(canvas, view, box)
        self._header(canvas, view, ctx)
        self._empires(canvas, view, ctx)
        self._players(canvas, view, ctx)
        return canvas

    def _highlights(self, canvas: Image.Image, view: View) -> None:
        last = view.get("last_turn") or {}
        rims = geometry().rims
        for place in last.get("places", []):
            if place in rims:
                (x, y), rim = rims[place]
                image, _ = self._art(("highlight", rim.size), partial(_tinted, rim))
                canvas.paste(image, (x, MAP_TOP + y), rim)
            elif place in box_rects():
                x, y, w, h = box_rects()[place]
                self._put(canvas, ("frame", w + 8, h + 8), partial(frame_art, w + 8, h + 8),
                          (x - 4, MAP_TOP + y - 4))

    def _region(self, canvas: Image.Image, view: View, place: str) -> None:
        x, y, w, _ = geometry().rects[place]
        region = D.REGIONS[place]
        at = x + (CHIP + 4 + len(region.trade) * (MARK + 4) + 4 if region.trade else 0)
        row = MAP_TOP + y + LINE
        city = view["cities"].get(place)
        pieces: list[tuple[tuple[Any, ...], Callable[[], Image.Image]]] = []
        if city is not None:
            owner, extended = int(city[0]), bool(city[1])
            pieces.append((("city", owner, extended),
                           partial(city_art, SEAT_COLOURS[owner % 3], extended)))
        for seat in range(view["n"]):
            count = view["on"].get(place, [0] * view["n"])[seat]
            if count:
                pieces.append((("chip", seat, str(count)),
                               partial(chip_art, SEAT_COLOURS[seat % 3], str(count))))
        for seat in range(view["n"]):
            count = view["troops"].get(place, [0] * view["n"])[seat]
            if count:
                pieces.append((("army", seat, str(count)), partial(
                    chip_art, SEAT_COLOURS[seat % 3], str(count), True)))
        if pieces:
            room = max(CHIP, x + w + 6 - at)
            self._put(canvas, ("row", room, *(key for key, _ in pieces)),
                      partial(_flow, [build for _, build in pieces], room), (at, row))

    def _box(self, canvas: Image.Image, view: View, box: str) -> None:
        x, y, w, h = box_rects()[box]
        used = view["used"].get(box)
        chips = []
        for seat in range(view["n"]):
            count = view["on"][box][seat]
            if count:
                label = f"{count - used[seat]}|{used[seat]}" if used and used[seat] else str(count)
                chips.append((("chip", seat, label), partial(chip_art, SEAT_COLOURS[seat % 3],
                                                             label)))
        if chips:
            self._put(canvas, ("row", w, *(key for key, _ in chips)),
                      partial(_flow, [build for _, build in chips], w - CHIP - 16),
                      (x + 6, MAP_TOP + y + h - CHIP - 3))

    def _text(self, canvas: Image.Image, xy: tuple[float, float], value: str, width: float,
              background: Colour, *, size: int = TEXT, bold: bool = False,
              fill: Colour = INK, anchor: str = "la") -> float:
        return self.pieces.text(canvas, xy, value, size, width, TEXT, fill, background,
                                bold=bold, anchor=anchor)

    def _header(self, canvas: Image.Image, view: View, ctx: RenderContext) -> None:
        lang = ctx.lang
        title = tr(lang, "flood.render.header", round=view["round"], rounds=view["rounds"],
                   phase=tr(lang, f"flood.render.phase.{view['phase']}"))
        self._text(canvas, (MARGIN, 6), title, WIDTH - 2 * MARGIN, BACKGROUND, size=TITLE,
                   bold=True)
        notes = []
        deciding = _deciding(view)
        if deciding is not None:
            notes.append(tr(lang, "flood.render.deciding", who=player_name(ctx, deciding)))
        last = view.get("last")
        if last and "dice" in last:
            notes.append(tr(lang, "flood.render.last_roll", dice="+".join(map(str, last["dice"])),
                            total=sum(last["dice"]), need=last["need"]))
        if view["cost_due"]:
            notes.append(tr(lang, "flood.render.cost"))
        turn = view.get("last_turn")
        if turn and turn["places"]:
            notes.append(tr(lang, "flood.render.last_turn", who=player_name(ctx, turn["seat"])))
        x: float = MARGIN
        for i, note in enumerate(notes):      # each note a sprite of its own: few of each
            if i:
                x += 16 + self._text(canvas, (x + 8, 6 + TITLE + 6), "·", 30, BACKGROUND,
                                     fill=MUTED)
            x += self._text(canvas, (x, 6 + TITLE + 6), note, WIDTH - MARGIN - x, BACKGROUND,
                            fill=MUTED)

    def _empires(self, canvas: Image.Image, view: View, ctx: RenderContext) -> None:
        right = WIDTH - MARGIN - 10
        for i, (name, where, owner) in enumerate(empire_texts(view, ctx)):
            x: float = MARGIN + 10
            y = EMPIRES_TOP + 4 + i * LINE
            if owner is not None:
                x += self._put(canvas, ("army", owner, ""), partial(
                    chip_art, SEAT_COLOURS[owner % 3], "", True), (x, y)) + 6
            x += self._text(canvas, (x, y + 2), name, right - x, PANEL, bold=owner is not None,
                            fill=INK if owner is not None else MUTED) + 10
            self._text(canvas, (x, y + 2), where, right - x, PANEL, fill=MUTED)

    def _players(self, canvas: Image.Image, view: View, ctx: RenderContext) -> None:
        lang, deciding = ctx.lang, _deciding(view)
        for place, seat in enumerate(seats_in_order(view)):
            top = PLAYERS_TOP + place * PLAYER_H
            colour = SEAT_COLOURS[seat % 3]
            mine = seat == deciding
            fill = ACTIVE if mine else PANEL
            self.pieces.paste(canvas, ("panel", seat, mine, lang),
                              partial(_panel, colour, mine, lang), (MARGIN, top))
            right = WIDTH - MARGIN - 14
            taken = self._text(canvas, (right, top + 6), tr(lang, "flood.render.vp",
                                                            n=view["vp"][seat]), 120, fill,
                               bold=True, anchor="ra")
            status = " · ".join(player_status(view, ctx, seat, place))
            if status:
                taken += 14 + self._text(canvas, (right - taken - 14, top + 6), status, 420,
                                         fill, fill=MUTED, anchor="ra")
            self._text(canvas, (MARGIN + 30, top + 6), f"{place + 1}. {player_name(ctx, seat)}",
                       right - taken - 24 - MARGIN - 30, fill, bold=True)
            goods = tuple(_res_line(view, seat))
            if goods:
                self.pieces.paste(canvas, ("goods", goods, fill), partial(_goods, goods, fill),
                                  (MARGIN + 14, top + 6 + LINE))
            else:
                self._text(canvas, (MARGIN + 14, top + 6 + LINE),
                           tr(lang, "flood.render.no_goods"), 300, fill, fill=MUTED)
            cities = tr(lang, "flood.render.cities", max=D.BASES, n=sum(
                1 for c in view["cities"].values() if c[0] == seat))
            self._text(canvas, (right, top + 6 + LINE), cities, 200, fill, anchor="ra")
            numbers = (view["workers"]["avail"][seat],
                       sum(counts[seat] for counts in view["on"].values()),
                       view["armies"]["avail"][seat],
                       sum(counts[seat] for counts in view["troops"].values()))
            for x, number in zip(panel_line(lang)[0], numbers, strict=True):
                self._text(canvas, (MARGIN + x + NUMBER / 2, top + 6 + 2 * LINE), str(number),
                           NUMBER, fill, bold=True, anchor="ma")


def _flow(builds: list[Callable[[], Image.Image]], width: int) -> Image.Image:
    """Pieces side by side (transparent around), on as many rows of ``width`` as they
    need."""
    arts = [build() for build in builds]
    spots, x, y = [], 0, 0
    for art in arts:
        if x and x + art.width > width:
            x, y = 0, y + CHIP + 3
        spots.append((x, y))
        x += art.width + 3
    image = Image.new("RGBA", (max(sx + a.width for (sx, _), a in zip(spots, arts, strict=True)),
                               y + CHIP), (0, 0, 0, 0))
    for (sx, sy), art in zip(spots, arts, strict=True):
        image.alpha_composite(art, (sx, sy))
    return image


def _goods(goods: tuple[tuple[str, int], ...], fill: Colour) -> Image.Image:
    """A player's goods: each resource's mark and how many, on the panel's colour."""
    face = fonts.font(TEXT)
    widths = [MARK + 4 + math.ceil(face.getlength(str(k))) + 12 for _, k in goods]
    image = Image.new("RGB", (sum(widths), LINE), fill)
    draw = ImageDraw.Draw(image)
    x = 0
    for (res, count), width in zip(goods, widths, strict=True):
        paste(image, mark_art(res), (x, 5))
        draw.text((x + MARK + 4, 0), str(count), font=face, fill=INK)
        x += width
    return image


def _tinted(rim: Image.Image) -> Image.Image:
    """The highlight colour over a region's rim."""
    return Image.new("RGBA", rim.size, (*HIGHLIGHT, 255))


@cache
def panel_line(lang: str) -> tuple[tuple[float, ...], tuple[tuple[float, str], ...]]:
    """The line of workers and armies in a panel ("Workers: 8 in hand, 6 placed"): where its
    four numbers go (workers in hand and placed, armies in hand and placed) and where its
    words go, from the panel's left edge. The words are drawn with the panel, the numbers
    on it."""
    face = fonts.font(TEXT)
    x: float = 14
    slots: list[float] = []
    words: list[tuple[float, str]] = []
    for head, tail in (("workers_label", "in_hand"), ("", "workers_placed"),
                       ("armies_label", "in_hand"), ("", "armies_placed")):
        for key in (head, None, tail):
            if key is None:
                slots.append(x)
                x += NUMBER + 4
            elif key:
                word = (" · " if key == "armies_label" else "") + tr(lang, f"flood.render.{key}")
                words.append((x, word))
                x += face.getlength(word) + 4
    return tuple(slots), tuple(words)


def _panel(colour: Colour, mine: bool, lang: str) -> Image.Image:
    """A player's panel: its colour at the left, thicker edge for whoever decides, the
    words of its line of workers and armies."""
    w, h = WIDTH - 2 * MARGIN, PLAYER_H - 6
    fill = ACTIVE if mine else PANEL

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        d.rounded_rectangle((0, 0, (w - 1) * k, (h - 1) * k), radius=10 * k, fill=fill,
                            outline=colour, width=round((5 if mine else 3) * k))
        d.rounded_rectangle((6 * k, 6 * k, 20 * k, 20 * k + 14 * k), radius=4 * k, fill=colour)

    image = smooth((w, h), paint, BACKGROUND)
    draw = ImageDraw.Draw(image)
    for x, word in panel_line(lang)[1]:
        draw.text((x, 6 + 2 * LINE), word, font=fonts.font(TEXT), fill=MUTED)
    return image


def empire_texts(view: View, ctx: RenderContext) -> list[tuple[str, str, int | None]]:
    """Per empire of the round: its name and armies, where it starts or who initiated it
    (with the equipment rank and amount), and the initiator's seat."""
    lang = ctx.lang
    rows = []
    for empire in D.empires_of(view["round"]):
        data = D.EMPIRES[empire]
        owner = view["empires"].get(empire)
        if owner is not None:
            where = tr(lang, "flood.render.empire_owner", who=player_name(ctx, owner),
                       rank=view["ranks"][owner] or "-", value=view["equip_values"][owner])
        else:
            start = tr(lang, "flood.render.any_sumer") if data.in_sumer else ", ".join(
                translate(D.region_name(r), lang) for r in data.starts)
            where = tr(lang, "flood.render.empire_start", n=data.armies, where=start)
        rows.append((translate(D.empire_name(empire), lang), where, owner))
    return rows


def player_lines(view: View, ctx: RenderContext, seat: int) -> list[str]:
    """A player's workers and armies, in hand and placed."""
    lang = ctx.lang
    return [tr(lang, "flood.render.workers", avail=view["workers"]["avail"][seat],
               placed=sum(counts[seat] for counts in view["on"].values())),
            tr(lang, "flood.render.armies", avail=view["armies"]["avail"][seat],
               placed=sum(counts[seat] for counts in view["troops"].values()))]


def player_status(view: View, ctx: RenderContext, seat: int, place: int) -> list[str]:
    """Whether a player plays now, has passed (and their Passed box) or won, and their
    equipment this round."""
    lang = ctx.lang
    found = []
    if view["phase"] == "over":
        if place == 0:
            found.append(tr(lang, "render.winner"))
    elif seat == _deciding(view):
        found.append(tr(lang, "render.to_play"))
    if seat in view["passed"]:
        found.append(tr(lang, "flood.render.pass_box", value=view["pass_values"][seat]))
    if view["ranks"][seat]:
        found.append(tr(lang, "flood.render.equip", value=view["equip_values"][seat],
                        rank=view["ranks"][seat]))
    return found


# -- text ---------------------------------------------------------------------------------


def _contents(view: View, ctx: RenderContext, rid: str) -> str:
    lang = ctx.lang
    parts = []
    city = view["cities"].get(rid)
    if city is not None:
        key = "flood.render.city_ext" if city[1] else "flood.render.city"
        parts.append(tr(lang, key, who=player_name(ctx, city[0])))
    if rid in view["on"]:
        parts += [tr(lang, "flood.render.worker_count", who=player_name(ctx, s),
                     n=view["on"][rid][s]) for s in range(view["n"]) if view["on"][rid][s]]
    if rid in view["troops"]:
        parts += [tr(lang, "flood.render.army", who=player_name(ctx, s), n=view["troops"][rid][s])
                  for s in range(view["n"]) if view["troops"][rid][s]]
    return ", ".join(parts)


def lines(view: View, ctx: RenderContext) -> list[str]:
    """The view as lines of text (the terminal's board)."""
    lang = ctx.lang
    header = tr(lang, "flood.render.header", round=view["round"], rounds=view["rounds"],
                phase=tr(lang, f"flood.render.phase.{view['phase']}"))
    deciding = _deciding(view)
    if deciding is not None:
        header += " · " + tr(lang, "flood.render.deciding", who=player_name(ctx, deciding))
    out = [header]
    for rid in D.SUMER:
        contents = _contents(view, ctx, rid)
        if contents:
            out.append("  " + tr(lang, "flood.render.sumer_line",
                                 region=translate(D.region_name(rid), lang), contents=contents))
    for rid in D.OUTER:
        region = D.REGIONS[rid]
        trade = "/".join(translate(D.res_name(r), lang) for r in region.trade)
        out.append("  " + tr(lang, "flood.render.region_line",
                             region=translate(D.region_name(rid), lang), vp=region.vp,
                             trade=trade,
                             contents=_contents(view, ctx, rid) or tr(lang, "flood.render.empty")))
    for box in D.BOXES:
        used = view["used"].get(box)
        counts = []
        for s in range(view["n"]):
            count = view["on"][box][s]
            if count:
                shown = f"{count}" if not used or not used[s] else f"{count - used[s]}|{used[s]}"
                counts.append(f"{player_name(ctx, s)} {shown}")
        out.append("  " + tr(lang, "flood.render.box_line",
                             box=translate(D.place_name(box), lang), vp=D.PLACE_VP[box],
                             counts=", ".join(counts) or tr(lang, "flood.render.empty")))
    out.append(f"{tr(lang, 'flood.render.empires')}:")
    out += [f"  {name}: {where}" for name, where, _ in empire_texts(view, ctx)]
    for place, seat in enumerate(seats_in_order(view)):
        mark = "▶" if seat == deciding else " "
        goods = ", ".join(f"{translate(D.res_name(r), lang)} {k}"
                          for r, k in _res_line(view, seat)) or "-"
        out.append(f"{mark} {place + 1}. {player_name(ctx, seat)}: "
                   f"{tr(lang, 'flood.render.vp', n=view['vp'][seat])}")
        out.append(f"    {tr(lang, 'flood.render.resources')}: {goods}")
        out.append("    " + " · ".join([*player_lines(view, ctx, seat), tr(
            lang, "flood.render.cities", max=D.BASES, n=sum(
                1 for c in view["cities"].values() if c[0] == seat)),
            *player_status(view, ctx, seat, place)]))
    last = view.get("last")
    if last and "dice" in last:
        out.append(tr(lang, "flood.render.last_roll", dice="+".join(map(str, last["dice"])),
                      total=sum(last["dice"]), need=last["need"]))
    return out


# -- the renderer ------------------------------------------------------------------------------


def sample_view() -> View:
    """A busy view (every piece, colour and resource) to make the palette from."""
    from bot.games.flood.engine import GAME

    state = GAME.setup(1, 3, {})
    for seat, region in enumerate(("uruk", "ur", "nippur")):
        state["cities"][region] = [seat, seat == 1]
    for seat, (region, box) in enumerate((("elam", "scribes"), ("mari", "weaving"),
                                          ("egypt", "toolmaking"))):
        state["on"][region][seat] = 3
        state["on"][box][seat] = 2
        state["troops"][D.OUTER[seat + 1]][seat] = 2
    for res in D.RESOURCES:
        state["res"][0][res] = 2
    state["last_turn"] = {"seat": 0, "places": ["uruk", "scribes"]}
    return GAME.view(state, None)


class FloodRenderer(IndexedRenderer):
    """The renderer of After the Flood (``render.context.Renderer``); safe to share between
    threads."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._board: _Board | None = None

    def indexed(self, view: View, ctx: RenderContext) -> Image.Image:
        """The board as an indexed picture in the renderer's palette."""
        with self._lock:
            if self._board is None:
                sample = _Board(None).compose(sample_view(), RenderContext(("A", "B", "C")))
                base = [BACKGROUND, PANEL, ACTIVE, INK, MUTED, BORDER, RIVER, ARROW, GOLD,
                        HIGHLIGHT, WHITE, *SEAT_COLOURS, *RES_COLOURS.values(),
                        *TERRAIN.values()]
                self._board = _Board(fixed_palette(sample, base))
            return self._board.compose(view, ctx)

    def text(self, view: View, ctx: RenderContext) -> str:
        """The board as lines of text."""
        return "\n".join(lines(view, ctx))


def render_naive(view: View, ctx: RenderContext) -> bytes:
    """The benchmark's baseline: the same picture drawn from scratch in RGB, default PNG."""
    return png_bytes(_Board(None).compose(view, ctx))


RENDERER = FloodRenderer()
