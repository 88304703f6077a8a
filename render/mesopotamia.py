"""The Mesopotamia pictures: the board after each turn (the map, the tracks, the Hanging
Gardens and a row per player), a second picture of what is traded and built (the market), and
zoomed crops of the regions a turn changed; as text for the terminal.

The map is drawn as a map (:mod:`render.mesopotamia_map`): each region a polygon in its
terrain's colour (darkened where a blocker closes it), its neighbours exactly those of
``map.json``, rivers along the borders they follow, each region's name and resource. Its pieces
sit under its name: units as numbered squares in the empire's colour, rams as numbered
arrow-heads, a colony as a house, a neutral tribe as a numbered grey disc, a ziggurat token as a
gold square with its number, an event token in its terrain's shape (dark face down, gold face
up); a start region shows its owner's ziggurat. A Rampart is a thick line inside the region in
its owner's colour; the regions the last turn changed are outlined in gold, those where a
combat waits in red. Ships are boats on their river section.

Below the map: whose turn, the Event and Population tracks (their cases compact, the seals on
them), the five storeys of the Hanging Gardens (who built each, the next one's VP), then one
row per player in turn order: name, empire, VP so far (quests are secret until the end),
resources, tracks, Ziggurat, units, quests held and Dingir dice. Every text is at least
:data:`TEXT_MIN` px at 900 px wide, 10 px once a phone shows it 400 px wide, and the picture is
at most about 1,400 px tall with four players; the market (:meth:`MesopotamiaRenderer.market`)
holds the rest: the Hanging Gardens tiles and the trade tokens in full, and the legend of the
pieces, each drawn once and kept.

Fast path (:meth:`MesopotamiaRenderer.png`): the map, the frames and every fixed text are drawn
once per language and player count, smooth, then mapped to one fixed palette; each picture is a
copy of that layer with the pieces pasted on it (each drawn once, on the colour it sits on, and
kept: a region's row of pieces, a player's panel, a text from its words), saved as an indexed
PNG band by band (:mod:`render.png`: a band of rows seen before is not compressed again).

From five players a seat's own view is as tall as the public one: its quests' names take the
row of the map's legend (the public board of the same turn message keeps the legend).
"""

from __future__ import annotations

import json
import math
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from bot.games.kit import typed
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.focus import MAX_FOCUS
from bot.games.mesopotamia.guardians.mode import DATA as GUARDIAN_DATA
from bot.games.mesopotamia.guardians.mode import WAVES as GUARDIAN_WAVES
from bot.games.mesopotamia.rounds import contested
from bot.games.mesopotamia.scoring import public as public_scores
from bot.games.mesopotamia.setup import blocker_regions
from bot.games.mesopotamia.siege import DATA as SIEGE_DATA
from bot.games.mesopotamia.solo import cards_of
from bot.games.mesopotamia.state import MesopotamiaState
from bot.games.mesopotamia.trade import TOKENS
from bot.games.mesopotamia.words import amounts
from bot.games.mesopotamia.words import units as unit_count
from bot.i18n import catalogue, tr, translate
from render import fonts
from render import mesopotamia_map as geo
from render.context import RenderContext
from render.draw import (
    Colour,
    Sprites,
    fitted_text,
    fixed_palette,
    ink_on,
    legible,
    load,
    mix,
    player_name,
    png_bytes,
    rgb,
    to_palette,
)
from render.maps import Point
from render.mesopotamia_map import short_name
from render.png import HARD, BandedPng

DATA = load("mesopotamia")
WIDTH = 900
MARGIN = 12
BOTTOM = 6
"""The space under the last panel (six players' panels fit in 1,400 px)."""
TEXT_MIN = legible(WIDTH)
HEADER = 46
MAP_TOP = HEADER
MAP_HEIGHT = geo.HEIGHT
LEGEND = 38
TRACK = 44
GARDEN = 46
PLAYER_ROW = 66
AUTOMATON_ROW = 24
"""What an Automaton's panel adds: a line of its face-up Strategy cards and their Amphorae."""
QUEST_ROW = 32
CHIP = 28
"""The height of a piece on the map."""
CROP_MIN = (480, 340)
CROP_MAX = (640, 480)
"""The size of the part of the map a crop shows (map pixels), at least and at most."""
BOARD_LIMIT = 120_000
"""The bytes of a board's PNG at most (a crowded board is compressed harder)."""
PNG_LIMIT = 96_000
PNG_STEPS = ((64, 6), (32, 8), (16, 9))
"""The colours and compression tried in turn until a smooth picture is within PNG_LIMIT
bytes (the player's board and the crops)."""

_C = {k: rgb(v) for k, v in DATA["colours"].items()}
BACKGROUND, INK, MUTED, PANEL = _C["background"], _C["ink"], _C["muted"], _C["panel"]
BORDER, GOLD = _C["edge"], _C["gold"]
TERRAIN_FILL = {k: rgb(v) for k, v in DATA["terrains"].items()}
EMPIRE_COLOURS = {k: rgb(v) for k, v in DATA["empires"].items()}
SEAT_COLOURS = tuple(rgb(v) for v in DATA["seats"])
ENEMY_COLOUR = rgb(DATA["enemy"])
"""The Guardians' Enemy Army's colour (it has no empire): its units, its Ziggurat."""
RES_COLOURS = {k: rgb(v) for k, v in DATA["resources"].items()}
DIE_COLOURS = {k: rgb(v) for k, v in DATA["dice"].items()}
WHITE: Colour = (255, 255, 255)


# -- helpers shared with the player's board ---------------------------------------------------


def _t(lang: str, family: str, item: str) -> str:
    return translate(D.name(family, item), lang)


def wrap(value: str, width: float, size: int = TEXT_MIN) -> list[str]:
    """``value`` cut into lines of at most ``width`` px (a word too long is cut later)."""
    face = fonts.font(size)
    out: list[str] = []
    line = ""
    for word in value.split():
        trial = f"{line} {word}".strip()
        if line and face.getlength(trial) > width:
            out.append(line)
            line = word
        else:
            line = trial
    return [*out, line] if line else out


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
          width: float, fill: Colour = INK, bold: bool = False) -> float:
    """Draw ``value`` fitted into ``width`` (see :func:`render.draw.fitted_text`)."""
    return fitted_text(draw, xy, value, size, width, TEXT_MIN, fill, bold)


def colour(view: dict[str, Any], seat: int) -> Colour:
    """The colour of ``seat``'s empire (a grey before it has one; the Enemy Army's black)."""
    if _enemy_of(view, "guardians") == seat:
        return ENEMY_COLOUR
    empire = view["players"][seat]["empire"]
    return EMPIRE_COLOURS.get(empire, SEAT_COLOURS[seat % len(SEAT_COLOURS)])


def _stats_line(view: dict[str, Any], ctx: RenderContext, seat: int) -> str:
    """A seat's tracks, Ziggurat and units with its limit; a mode's enemy's, what means
    something for it (no unit limit: it has none, R-siege-war, R-guard-other)."""
    cases = {t: next((int(c) for s, c in view["seals"][t] if s == seat), 1) for t in D.TRACKS}
    key = next((f"mesopotamia.render.stats_{mode}" for mode in ("siege", "guardians")
                if _enemy_of(view, mode) == seat), "mesopotamia.render.stats")
    return tr(ctx.lang, key, population=cases["population"], event=cases["event"],
              ziggurat=view["players"][seat]["ziggurat"],
              units=sum(1 for s, _, _ in view["units"] if s == seat),
              limit=D.UNIT_LIMIT[cases["population"] - 1])


def _enemy_of(view: dict[str, Any], mode: str) -> int | None:
    """The seat of the ``mode``'s enemy (``siege``, ``guardians``), None outside it."""
    box = view.get(mode)
    return None if not box else int(box["seat"])


def _deciding(view: dict[str, Any]) -> int | None:
    if view.get("current") is not None:
        return int(view["current"])
    order, index = view.get("order"), view.get("index")
    if view["phase"] == "actions" and order and index is not None and index < len(order):
        return int(order[index])
    return None


def _level(player: dict[str, Any], action: str) -> int:
    card = player["tech"].get(action)
    return 0 if card is None else D.TECH_CARD[D.CIV_TECH[card]][1]


def _seat_title(view: dict[str, Any], ctx: RenderContext, seat: int) -> str:
    p = view["players"][seat]
    parts = [player_name(ctx, seat)]
    if p["empire"]:
        parts.append(_t(ctx.lang, "empire", p["empire"]))
    if p["role"]:
        parts.append(tr(ctx.lang, "mesopotamia.render.role", role=p["role"].upper()))
    return " · ".join(parts)


def _seats(view: dict[str, Any]) -> list[int]:
    order = view.get("order")
    return [int(s) for s in order] if order else list(range(view["n"]))


def _quest_lines(view: dict[str, Any], ctx: RenderContext, width: float | None = None,
                 most: int | None = None) -> list[str]:
    """The seat's secret quests (nothing in the public view), wrapped to ``width`` px; names
    only when it holds more than ``most``."""
    quests = view["quests"]
    if view.get("you") is None or quests.get("hand") is None:
        return []
    lang = ctx.lang
    out = [tr(lang, "mesopotamia.render.your_quests", who=player_name(ctx, int(view["you"])))]
    brief = most is not None and len(quests["hand"]) > most
    for q in quests["hand"]:
        name = _t(lang, "quest", q)
        line = name if brief else f"{name}: {_t(lang, 'quest_text', q)}"
        out += [line] if width is None else wrap(line, width)
    if quests.get("returned"):
        out.append(tr(lang, "mesopotamia.render.returned",
                      name=_t(lang, "quest", quests["returned"])))
    return out


def encode(image: Image.Image) -> bytes:
    """A smooth picture as PNG bytes: 64 colours, or fewer and compressed harder when that is
    too big for :data:`PNG_LIMIT`."""
    found = b""
    for colours, level in PNG_STEPS:
        found = png_bytes(image.quantize(colours, method=Image.Quantize.FASTOCTREE),
                          compress_level=level)
        if len(found) <= PNG_LIMIT:
            break
    return found


def _header_text(view: dict[str, Any], ctx: RenderContext) -> str:
    lang = ctx.lang
    key = f"mesopotamia.render.phase.{view['phase']}"
    phase = tr(lang, key) if key in catalogue(lang) else str(view["phase"])
    if view.get("round"):
        return tr(lang, "mesopotamia.render.header", round=view["round"], phase=phase)
    return tr(lang, "mesopotamia.render.header_setup", phase=phase)


# -- the geometry of the picture -----------------------------------------------------------------


def height(n: int, quests: int = 0, automata: int = 0) -> int:
    """The board's height for ``n`` players, ``automata`` of them Automata (and a seat's own
    ``quests``: their names, two a line, under a title; from :data:`STRIP_PLAYERS` players in
    the legend's row instead, the picture no taller than the public one)."""
    top = MAP_TOP + MAP_HEIGHT + LEGEND + 2 * TRACK + GARDEN + n * PLAYER_ROW + \
        automata * AUTOMATON_ROW + BOTTOM
    shown = quests and n < STRIP_PLAYERS
    return top + ((1 + (quests + 1) // 2) * QUEST_ROW + 16 if shown else 0)


STRIP_PLAYERS = 5
"""From this many players a seat's own view shows its quests' names in one strip where the
map's legend is (the public board, in the same turn message, keeps the legend)."""


__all__ = ["short_name"]


def _pieces_top(rid: str) -> float:
    return geo.points()[rid][1] + 6


@cache
def _inset(rid: str, by: float = 6.0) -> list[Point]:
    """The polygon of ``rid`` moved ``by`` px inwards, towards its label place (where a
    Rampart and the outlines are drawn)."""
    cx, cy = geo.points()[rid]
    ring = geo.geometry().polygons[rid]
    out = []
    for x, y in ring:
        d = math.dist((x, y), (cx, cy)) or 1.0
        k = min(by, d / 3) / d
        out.append((x + (cx - x) * k, y + (cy - y) * k))
    return out


@cache
def _outline(rid: str, width: int, by: float) -> tuple[Image.Image, tuple[int, int]]:
    """The mask of a line ``width`` px wide ``by`` px inside ``rid``'s border, and where its
    box starts on the map (drawn once)."""
    ring = _inset(rid, by)
    x0 = max(0, int(min(x for x, _ in ring)) - width)
    y0 = max(0, int(min(y for _, y in ring)) - width)
    x1 = int(max(x for x, _ in ring)) + width + 1
    y1 = int(max(y for _, y in ring)) + width + 1
    mask = Image.new("1", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).line([(x - x0, y - y0) for x, y in (*ring, ring[0])], fill=1,
                              width=width, joint="curve")
    return mask, (x0, y0)


def region_fill(rid: str, blocked: bool) -> Colour:
    """A region's colour: its terrain's, darkened when a blocker closes it."""
    fill = TERRAIN_FILL[D.REGIONS[rid].terrain]
    return mix(fill, _C["blocked"], 0.6) if blocked else fill


# -- drawing primitives (smooth, RGB) ------------------------------------------------------------


def _shape(draw: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float],
           fill: Colour, edge: Colour) -> None:
    """A small symbol: ``square``, ``circle``, ``triangle``, ``brick``, ``tablet``, ``shield``,
    ``house``, ``arrow``, ``boat``, ``ziggurat``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if kind == "circle":
        draw.ellipse(box, fill=fill, outline=edge, width=2)
    elif kind == "triangle":
        draw.polygon([(x0, y1), ((x0 + x1) / 2, y0), (x1, y1)], fill=fill, outline=edge,
                     width=2)
    elif kind == "brick":
        draw.rectangle((x0, y0 + h * 0.2, x1, y1 - h * 0.2), fill=fill, outline=edge, width=2)
    elif kind == "house":
        draw.polygon([(x0, y0 + h * 0.42), ((x0 + x1) / 2, y0), (x1, y0 + h * 0.42)],
                     fill=mix(fill, INK, 0.35), outline=edge)
        draw.rectangle((x0 + w * 0.12, y0 + h * 0.42, x1 - w * 0.12, y1), fill=fill,
                       outline=edge)
    elif kind == "arrow":
        draw.polygon([(x0, y0 + h * 0.1), (x1 - w * 0.3, y0 + h * 0.1), (x1, (y0 + y1) / 2),
                      (x1 - w * 0.3, y1 - h * 0.1), (x0, y1 - h * 0.1)], fill=fill,
                     outline=edge)
    elif kind == "boat":
        draw.polygon([(x0, y0 + h * 0.3), (x1, y0 + h * 0.3), (x1 - w * 0.18, y1),
                      (x0 + w * 0.18, y1)], fill=fill, outline=edge, width=2)
    elif kind == "tablet":
        draw.rounded_rectangle((x0 + w * 0.18, y0, x1 - w * 0.18, y1), max(2, w / 8), fill=fill,
                               outline=edge, width=2)
    elif kind == "shield":
        draw.polygon([(x0, y0), (x1, y0), (x1, y0 + h * 0.55), ((x0 + x1) / 2, y1),
                      (x0, y0 + h * 0.55)], fill=fill, outline=edge, width=2)
    elif kind == "ziggurat":
        for i in range(3):
            inset = w * 0.16 * i
            top = y1 - (i + 1) * h / 3
            draw.rectangle((x0 + inset, top, x1 - inset, top + h / 3), fill=fill, outline=edge)
    else:
        draw.rounded_rectangle(box, max(2, h / 6), fill=fill, outline=edge, width=2)


RESOURCE_SHAPES = {"stone": "square", "wood": "triangle", "clay": "brick", "food": "circle",
                   "tablet": "tablet", "phalanx": "shield"}
"""The symbol of each resource (shapes apart from colours, for colour-blind readers)."""
TOKEN_SHAPES = {"plain": "circle", "mountain": "triangle", "desert": "square"}


def _smooth(size: tuple[int, int], background: Colour,
            paint: Callable[[ImageDraw.ImageDraw, float], None]) -> Image.Image:
    """A piece drawn 3 times larger on ``background`` and reduced (smooth edges)."""
    k = 3
    big = Image.new("RGB", (size[0] * k, size[1] * k), background)
    paint(ImageDraw.Draw(big), k)
    return big.resize(size, Image.Resampling.LANCZOS)


KEY_COLOUR: Colour = (255, 0, 255)
"""A colour no piece uses: what differs from a piece drawn on it is the piece."""


@dataclass(frozen=True)
class Sprite:
    """A piece drawn once: indexed, with the mask of its own pixels when it goes where the
    colour under it varies (the map), else None (it covers its box)."""

    image: Image.Image
    mask: Image.Image | None = None

    @property
    def width(self) -> int:
        return int(self.image.width)

    @property
    def height(self) -> int:
        return int(self.image.height)


def _mask(on: Image.Image, key: Image.Image) -> Image.Image:
    """Where a piece drawn on two backgrounds is the same: its own pixels (mode "1")."""
    differs = ImageChops.difference(on, key).convert("L")
    return differs.point(lambda v: 255 if v < 40 else 0).convert("1")


@cache
def _space(size: int, bold: bool) -> float:
    """How wide a space is."""
    return float(fonts.font(size, bold).getlength(" "))


@cache
def _chip_width(value: str, shape: str) -> int:
    """How wide a numbered piece of ``value`` is."""
    width = fonts.font(TEXT_MIN, True).getlength(value)
    return CHIP + (10 if shape in ("arrow", "boat") else 0) + max(0, int(width) - CHIP + 10)


# -- the renderer --------------------------------------------------------------------------------


PANELS_KEPT = 512
"""Players' panels a renderer keeps (about 60 KB each)."""
BANDS_KEPT = 4096
"""Compressed bands of boards a renderer keeps (about 2 KB each; a board has 53-59)."""
MARKET_PARTS_KEPT = 512
"""Rows and titles of markets a renderer keeps (a row: about 60 KB)."""


class MesopotamiaRenderer:
    """The renderer of Mesopotamia (``render.context.Renderer``): the board, its details (the
    market and the crops) and the text board; each instance keeps its own drawn layers and
    pieces (a fresh instance draws everything anew)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._palette: Image.Image | None = None
        self._layers: Sprites[Image.Image] = Sprites(limit=16)
        self._pieces: Sprites[Sprite] = Sprites(limit=2048)
        self._words: Sprites[tuple[Sprite, float]] = Sprites(limit=4096)
        self._index: dict[Colour, int] = {}
        self._markets: Sprites[bytes] = Sprites(limit=64)
        self._market_parts: Sprites[Image.Image] = Sprites(limit=MARKET_PARTS_KEPT)
        self._panels: Sprites[Image.Image] = Sprites(limit=PANELS_KEPT)
        self._encoder = BandedPng(BANDS_KEPT)
        self._drawn: tuple[dict[str, Any], RenderContext, Image.Image] | None = None
        """The last board :meth:`png` drew, with its view and context: the crops of the
        same turn message (:meth:`details`, right after) are cut from it."""

    # -- the palette --------------------------------------------------------------------------

    def palette(self) -> Image.Image:
        """The fixed palette of every board: the flat colours exactly, then the blends of a
        drawn map."""
        if self._palette is None:
            flat = [BACKGROUND, INK, MUTED, PANEL, BORDER, WHITE, *_C.values(),
                    *TERRAIN_FILL.values(), *(region_fill(r, True) for r in D.REGIONS),
                    *EMPIRE_COLOURS.values(), *SEAT_COLOURS, ENEMY_COLOUR, *RES_COLOURS.values(),
                    *DIE_COLOURS.values()]
            sample = self._static_rgb("en", 4)
            self._palette = fixed_palette(sample, flat)
            values = self._palette.getpalette() or []
            self._index = {tuple(values[i:i + 3]): i // 3  # type: ignore[misc]
                           for i in range(0, len(values), 3)}
        return self._palette

    def ink(self, colour_: Colour) -> int:
        """The palette index of a flat colour of :meth:`palette`."""
        self.palette()
        return self._index[colour_]

    def _indexed(self, image: Image.Image) -> Image.Image:
        return to_palette(image, self.palette())

    # -- the layer drawn once ---------------------------------------------------------------

    def _static_rgb(self, lang: str, n: int, legend: bool = True) -> Image.Image:
        """Everything fixed for a language and a player count, smooth (without the legend
        where a seat's quests go instead)."""
        blocked = set(_blocked(n))
        image = Image.new("RGB", (WIDTH, height(n)), BACKGROUND)
        draw = ImageDraw.Draw(image)
        _map_layer(image, lang, blocked)
        if legend:
            _legend(draw, lang, MAP_TOP + MAP_HEIGHT)
        y = MAP_TOP + MAP_HEIGHT + LEGEND
        _track_frame(draw, lang, "event", y)
        _track_frame(draw, lang, "population", y + TRACK)
        _garden_frame(draw, lang, y + 2 * TRACK)
        return image

    def _static(self, lang: str, n: int, legend: bool) -> Image.Image:
        return self._layers.get((lang, n, legend),
                                lambda: self._indexed(self._static_rgb(lang, n, legend)))

    # -- pieces -----------------------------------------------------------------------------

    def piece(self, key: tuple[Any, ...], size: tuple[int, int], background: Colour,
              paint: Callable[[ImageDraw.ImageDraw, float], None],
              masked: bool = False) -> Sprite:
        """A piece drawn once on ``background`` and kept, indexed (``masked``: with the mask
        of its own pixels, for the map)."""
        def build() -> Sprite:
            drawn = _smooth(size, background, paint)
            mask = _mask(drawn, _smooth(size, KEY_COLOUR, paint)) if masked else None
            return Sprite(self._indexed(drawn), mask)

        return self._pieces.get((key, size, background, masked), build)

    def panel(self, key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
        """A player's panel (:meth:`_Board.panel`), drawn once for ``key`` and kept."""
        return self._panels.get(key, build)

    def label(self, value: str, size: int, fill: Colour, background: Colour,
              bold: bool = False, width: float = WIDTH) -> Sprite:
        """A text fitted into ``width`` px, drawn once on ``background`` and kept: laid out
        from its kept words (a line whose numbers change draws only those)."""
        def build() -> Sprite:
            clean = fonts.clean_text(value, fonts.coverage(bold))
            words = [self._word(word, size, fill, background, bold) for word in clean.split(" ")]
            space = _space(size, bold)
            if sum(a for _, a in words) + space * (len(words) - 1) > max(width, 10):
                shown, fitted = fonts.fit(clean, max(width, 10), size, TEXT_MIN, bold)
                words = [self._word(word, fitted, fill, background, bold)
                         for word in shown.split(" ")]
                space = _space(fitted, bold)
            if len(words) == 1:
                return words[0][0]
            at, lefts = 0.0, []
            for _, advance in words:
                lefts.append(round(at))
                at += advance + space
            image = Image.new("P", (max(x + s.width for x, (s, _) in zip(lefts, words,
                                                                           strict=True)),
                                    max(s.height for s, _ in words)), self.ink(background))
            image.putpalette(self.palette().getpalette() or [])
            for x, (sprite, _) in zip(lefts, words, strict=True):
                image.paste(sprite.image, (x, 0))
            return Sprite(image)

        return self._pieces.get(("text", value, size, fill, background, bold, width), build)

    def _word(self, word: str, size: int, fill: Colour, background: Colour,
              bold: bool) -> tuple[Sprite, float]:
        """A word drawn once on ``background`` and kept, with its advance (px)."""
        def build() -> tuple[Sprite, float]:
            face = fonts.font(size, bold)
            right, bottom = face.getbbox(word or " ")[2:]
            image = Image.new("RGB", (max(1, int(right) + 2), max(1, int(bottom) + 2)),
                              background)
            ImageDraw.Draw(image).text((0, 0), word, font=face, fill=fill)
            return Sprite(self._indexed(image)), float(face.getlength(word))

        return self._words.get((word, size, fill, background, bold), build)

    def chip(self, fill: Colour, value: str, background: Colour, shape: str = "square",
             masked: bool = False) -> Sprite:
        """A numbered piece: a square (units), a disc (a tribe), an arrow (rams), a boat."""
        width = _chip_width(value, shape)

        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            _shape(d, shape, (k, k, (width - 1) * k, (CHIP - 1) * k), fill, INK)
            centre = ((width - (8 if shape == "arrow" else 0)) / 2 * k, CHIP / 2 * k + k)
            d.text(centre, value, font=fonts.font(round(TEXT_MIN * k), True),
                   fill=ink_on(fill, INK), anchor="mm")

        return self.piece(("chip", fill, value, shape), (width, CHIP), background, paint,
                          masked)

    def token(self, shape: str, fill: Colour, edge: Colour, background: Colour,
              size: int = CHIP - 4, masked: bool = False) -> Sprite:
        """An unnumbered piece (an event token, a colony, a ziggurat, a resource)."""
        def paint(d: ImageDraw.ImageDraw, k: float) -> None:
            _shape(d, shape, (k, k, (size - 1) * k, (size - 1) * k), fill, edge)

        return self.piece(("token", shape, fill, edge), (size, size), background, paint,
                          masked)

    def frame(self, fill: Colour, mine: bool, tall: int) -> Sprite:
        """A player's panel without its texts: its box edged in its colour (thicker for the
        seat deciding) and its colour's square, drawn once and kept."""
        def build() -> Sprite:
            image = Image.new("P", (WIDTH, tall), self.ink(BACKGROUND))
            pen = ImageDraw.Draw(image)
            pen.rounded_rectangle((MARGIN, 1, WIDTH - MARGIN, tall - 3), 9,
                                  fill=self.ink(_C["current"] if mine else PANEL),
                                  outline=self.ink(fill), width=6 if mine else 3)
            pen.rectangle((MARGIN + 10, 9, MARGIN + 32, 31), fill=self.ink(fill),
                          outline=self.ink(INK))
            return Sprite(image)

        return self._pieces.get(("frame", fill, mine, tall), build)

    def row(self, pieces: tuple[tuple[Any, ...], ...], background: Colour) -> Sprite:
        """Pieces of the map side by side, 3 px apart, as one masked piece, drawn once and
        kept: each ``("chip", shape, fill, value)`` or ``("token", shape, fill, edge)``."""
        def build() -> Sprite:
            drawn = [self.chip(fill, str(extra), background, shape, True) if kind == "chip"
                     else self.token(shape, fill, extra, background, masked=True)
                     for kind, shape, fill, extra in pieces]
            width = sum(p.width for p in drawn) + 3 * (len(drawn) - 1)
            image = Image.new("P", (width, CHIP), self.ink(background))
            image.putpalette(self.palette().getpalette() or [])
            mask = Image.new("1", (width, CHIP), 0)
            x = 0
            for piece in drawn:
                y = (CHIP - piece.height) // 2
                image.paste(piece.image, (x, y), piece.mask)
                mask.paste(1, (x, y, x + piece.width, y + piece.height), piece.mask)
                x += piece.width + 3
            return Sprite(image, mask)

        return self._pieces.get(("row", pieces, background), build)

    # -- the picture ------------------------------------------------------------------------

    def compose(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board of ``view``, indexed."""
        quests = _quest_lines(view, ctx, None, 0)
        strip = bool(quests) and view["n"] >= STRIP_PLAYERS
        with self._lock:
            static = self._static(ctx.lang, view["n"], not strip)
            canvas = Image.new("P", (WIDTH, height(view["n"], max(0, len(quests) - 1),
                                                   _scripted_rows(view))),
                               self.ink(BACKGROUND))
            canvas.putpalette(static.getpalette() or [])
            canvas.paste(static, (0, 0))
            _Board(self, canvas, view, ctx).run(quests)
        return canvas

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as an RGB picture (the replay's frames)."""
        return self.compose(view, ctx).convert("RGB")

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The board as an indexed PNG, band by band (:mod:`render.png`: the bands of an
        earlier board are not compressed again), compressed harder for a board that would
        pass :data:`BOARD_LIMIT` bytes."""
        board = self.compose(view, ctx)
        self._drawn = (view, ctx, board)
        found = self._encoder.encode(board)
        return found if len(found) <= BOARD_LIMIT else self._encoder.encode(board, HARD)

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        """The board as lines of text (the terminal's)."""
        return "\n".join(lines(view, ctx))

    def map_image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The map alone with its pieces (what the crops cut), indexed; from the board
        :meth:`png` has just drawn when it drew this very view (the same object)."""
        drawn = self._drawn
        board = drawn[2] if drawn is not None and drawn[0] is view and drawn[1] == ctx \
            else self.compose(view, ctx)
        return board.crop((0, MAP_TOP, WIDTH, MAP_TOP + MAP_HEIGHT))

    def market(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The market (the Hanging Gardens tiles, the trade tokens, the legend) as PNG bytes,
        kept while what it shows is unchanged; its titles, rows and legend drawn once each and
        kept, pasted on one indexed picture."""
        key = (ctx.lang, json.dumps([view["gardens"], view["trade"], view.get("amphorae", {}),
                                     [(p["empire"], p.get("gardens", [])) for p in
                                      view["players"]]], sort_keys=True))
        with self._lock:
            return self._markets.get(key, lambda: self._market_png(view, ctx))

    def _market_png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        lang = ctx.lang
        gardens, trade = _garden_rows(view, lang), _trade_rows(view, lang)
        titles = {0: "mesopotamia.render.gardens", len(gardens): "mesopotamia.render.trade"}
        parts: list[tuple[Image.Image, int]] = []
        y = 8
        for i, row in enumerate((*gardens, *trade)):
            if i in titles:
                parts.append((self._smooth_part(market_title, lang, titles[i]), y))
                y += 44
            parts.append((self._smooth_part(market_row, row), y))
            y += parts[-1][0].height + 3
        legend = self._smooth_part(market_legend, lang)
        parts.append((legend, y + 4))
        canvas = Image.new("P", (WIDTH, y + 4 + legend.height), self.ink(BACKGROUND))
        canvas.putpalette(self.palette().getpalette() or [])
        for part, top in parts:
            canvas.paste(part, (0, top))
        found = self._encoder.encode(canvas)
        return found if len(found) <= PNG_LIMIT else self._encoder.encode(canvas, HARD)

    def _smooth_part(self, draw: Callable[..., Image.Image], *args: Any) -> Image.Image:
        """``draw(*args)``, a part of the market drawn smooth, mapped to the palette; drawn
        once and kept."""
        return self._market_parts.get((draw.__name__, *args),
                                      lambda: self._indexed(draw(*args)))

    def details(self, view: dict[str, Any], ctx: RenderContext) -> list[tuple[str, bytes]]:
        """The pictures a turn message adds after the board: the market (:meth:`market`), then
        the crops of the regions the view focuses on (``view["focus"]``,
        :mod:`bot.games.mesopotamia.focus`)."""
        return [("market.png", self.market(view, ctx)),
                *crop_pngs(view, ctx, [str(r) for r in view.get("focus", [])], self)]


def _blocked(n: int) -> list[str]:
    """The blocker regions of an ``n``-player game (the setup's)."""
    return blocker_regions(n)


# -- the fixed layer -----------------------------------------------------------------------------


def _map_layer(image: Image.Image, lang: str, blocked: set[str]) -> None:
    """The map without its pieces: regions, borders, rivers, names, resources."""
    shape = geo.geometry()
    layer = Image.new("RGB", (geo.WIDTH, geo.HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(layer)
    for rid, ring in shape.polygons.items():
        draw.polygon(ring, fill=region_fill(rid, rid in blocked))
    for line in shape.borders.values():
        draw.line(line, fill=_C["border"], width=2, joint="curve")
    for section in D.SECTIONS:
        line = geo.section_line(section)
        draw.line(line, fill=_C["river"], width=9, joint="curve")
        for x, y in (line[0], line[-1]):
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=_C["river"])
    for rid in D.REGIONS:
        _region_name(draw, rid, lang, rid in blocked)
    image.paste(layer, (0, MAP_TOP))
    ImageDraw.Draw(image).rectangle((0, MAP_TOP, WIDTH - 1, MAP_TOP + MAP_HEIGHT - 1),
                                    outline=_C["border"], width=2)


def _region_name(draw: ImageDraw.ImageDraw, rid: str, lang: str, blocked: bool) -> None:
    """A region's name above its pieces, with its resource's symbol before it."""
    x, y = geo.points()[rid]
    name = short_name(rid, lang)
    face = fonts.font(TEXT_MIN, True)
    resource = D.REGIONS[rid].resource
    icon = 20 if resource else 0
    width = face.getlength(name) + (icon + 4 if icon else 0)
    left = _within(x - width / 2, width)
    top = y - 26
    if resource:
        _shape(draw, RESOURCE_SHAPES[resource], (left, top + 4, left + icon, top + 4 + icon),
               RES_COLOURS[resource], INK)
    fill, halo = (WHITE, _C["blocked"]) if blocked else (INK, _C["halo"])
    draw.text((left + (icon + 4 if icon else 0), top), name, font=face, fill=fill,
              stroke_width=2, stroke_fill=halo)


def _within(left: float, width: float) -> float:
    """``left`` moved so that a thing ``width`` px wide stays inside the map's frame."""
    return min(max(left, 8.0), WIDTH - 8.0 - width)


def _legend(draw: ImageDraw.ImageDraw, lang: str, top: int) -> None:
    """What the map's symbols are: the four resources, a tribe, a blocked region, an outline
    of the last turn, a combat."""
    x: float = MARGIN
    y = top + 8
    for res in D.BASE_RESOURCES:
        _shape(draw, RESOURCE_SHAPES[res], (x, y + 2, x + 20, y + 22), RES_COLOURS[res], INK)
        x += 26 + _text(draw, (x + 26, y - 2), _t(lang, "resource", res), TEXT_MIN, 140) + 16
    draw.ellipse((x, y, x + 24, y + 24), fill=_C["tribe"], outline=INK, width=2)
    x += 30 + _text(draw, (x + 30, y - 2), tr(lang, "mesopotamia.render.tribe_legend"),
                    TEXT_MIN, 120) + 16
    draw.rectangle((x, y, x + 24, y + 24), outline=_C["changed"], width=4)
    x += 30 + _text(draw, (x + 30, y - 2), tr(lang, "mesopotamia.render.changed"), TEXT_MIN,
                    WIDTH - x - 30 - MARGIN) + 16
    draw.rectangle((x, y, x + 24, y + 24), outline=_C["contested"], width=4)
    _text(draw, (x + 30, y - 2), tr(lang, "mesopotamia.render.contested"), TEXT_MIN,
          WIDTH - x - 30 - MARGIN)


def _track_cells(track: str) -> tuple[float, float]:
    """Where a track's cases start and how wide each is."""
    label = 166.0
    cases = D.TRACK_CASES[track]
    return MARGIN + label, (WIDTH - 2 * MARGIN - label) / cases


def _track_frame(draw: ImageDraw.ImageDraw, lang: str, track: str, top: int) -> None:
    """A track's name and its numbered cases (the population's with its unit limit)."""
    x0, cell = _track_cells(track)
    _text(draw, (MARGIN, top + 10), tr(lang, f"mesopotamia.render.track_short.{track}"),
          TEXT_MIN, x0 - MARGIN - 6, bold=True)
    face = fonts.font(TEXT_MIN)
    for i in range(D.TRACK_CASES[track]):
        x = x0 + i * cell
        draw.rectangle((x, top + 2, x + cell - 3, top + TRACK - 4), fill=PANEL, outline=BORDER)
        label = str(i + 1)
        if track == "population":
            label += f" ({D.UNIT_LIMIT[i]})"
        draw.text((x + 3, top + 1), label, font=face, fill=MUTED)


def _garden_frame(draw: ImageDraw.ImageDraw, lang: str, top: int) -> None:
    """The Hanging Gardens' name (its storeys are drawn with the pieces)."""
    _text(draw, (MARGIN, top + 12), tr(lang, "mesopotamia.render.gardens"), TEXT_MIN,
          GARDEN_X - MARGIN - 8, bold=True)


GARDEN_X = 272.0
"""Where the storeys of the Hanging Gardens start."""


# -- the pieces of one board ---------------------------------------------------------------------


class _Board:
    """The pieces of one view pasted on the fixed layer."""

    def __init__(self, kit: MesopotamiaRenderer, canvas: Image.Image, view: dict[str, Any],
                 ctx: RenderContext) -> None:
        self.kit, self.canvas, self.view, self.ctx = kit, canvas, view, ctx
        self.pen = ImageDraw.Draw(canvas)
        self.blocked = set(view["blockers"])

    def paste(self, piece: Sprite, x: float, y: float) -> float:
        """``piece`` at (``x``, ``y``); the x after it."""
        self.canvas.paste(piece.image, (round(x), round(y)), piece.mask)
        return x + piece.width + 3

    def run(self, quests: list[str]) -> None:
        """Paste every piece of the view."""
        view = self.view
        self.outlines()
        units, rams = _land_units(view), _land_units(view, rams=True)
        for rid in D.REGIONS:
            self.region(rid, units, rams)
        self.ships()
        self.header()
        top = MAP_TOP + MAP_HEIGHT + LEGEND
        self.seals("event", top)
        self.seals("population", top + TRACK)
        self.gardens(top + 2 * TRACK)
        self.players(top + 2 * TRACK + GARDEN)
        if quests and view["n"] >= STRIP_PLAYERS:
            self.quest_strip([_t(self.ctx.lang, "quest", q) for q in view["quests"]["hand"]])
        elif quests:
            self.quests(quests, top + 2 * TRACK + GARDEN + view["n"] * PLAYER_ROW +
                        _scripted_rows(view) * AUTOMATON_ROW)

    # -- the map --------------------------------------------------------------------------

    def outline(self, rid: str, fill: Colour, width: int, by: float) -> None:
        """A line ``width`` px wide ``by`` px inside ``rid``'s border."""
        mask, (x, y) = _outline(rid, width, by)
        self.canvas.paste(self.kit.ink(fill), (x, y + MAP_TOP, x + mask.width,
                                               y + MAP_TOP + mask.height), mask)

    def outlines(self) -> None:
        """Ramparts, then the regions the last turn changed, then the combats to come."""
        view = self.view
        for seat, player in enumerate(view["players"]):
            for rid in player["ramparts"]:
                self.outline(rid, colour(view, seat), 6, 5)
        changed = view.get("changed") or {}
        if changed.get("turn") is not None and int(changed["turn"]) >= view["turn"] - 1:
            for rid in changed.get("regions", []):
                self.outline(rid, _C["changed"], 4, 12)
        for rid in contested(typed(MesopotamiaState, view)):
            self.outline(rid, _C["contested"], 4, 12)

    def region(self, rid: str, units: dict[str, Counter[int]],
               rams: dict[str, Counter[int]]) -> None:
        """The pieces of ``rid`` in a row under its name."""
        view = self.view
        bg = region_fill(rid, rid in self.blocked)
        row: list[tuple[Any, ...]] = []
        owner = next((s for s, p in enumerate(view["players"]) if p["start"] == rid), None)
        if owner is not None:
            row.append(("token", "ziggurat", colour(view, owner), INK))
        for seat, p in enumerate(view["players"]):
            if rid in p["colonies"]:
                row.append(("token", "house", colour(view, seat), INK))
        row += [("chip", "square", colour(view, s), str(n))
                for s, n in sorted(units.get(rid, {}).items())]
        row += [("chip", "arrow", colour(view, s), str(n))
                for s, n in sorted(rams.get(rid, {}).items())]
        tribe = sum(view["tribes"].get(rid, {}).values())
        if tribe:
            row.append(("chip", "circle", _C["tribe"], str(tribe)))
        if rid in view["ziggurats"]:
            row.append(("chip", "square", GOLD, str(view["ziggurats"][rid])))
        site = view["sites"].get(rid)
        if site is not None:
            up = bool(site["up"])
            row.append(("token", TOKEN_SHAPES[site["terrain"]], GOLD if up else _C["face_down"],
                        INK if up else WHITE))
        if not row:
            return
        pieces = self.kit.row(tuple(row), bg)
        at = _within(geo.points()[rid][0] - pieces.width / 2, pieces.width)
        self.paste(pieces, at, MAP_TOP + _pieces_top(rid))

    def ships(self) -> None:
        """Each empire's ships as boats on their river section, with their number."""
        view, kit = self.view, self.kit
        for section, counts in sorted(_ships(view).items()):
            line = geo.section_line(section)
            x, y = line[len(line) // 2]
            x -= 20 * (len(counts) - 1)
            for seat, n in sorted(counts.items()):
                boat = kit.chip(colour(view, seat), str(n), _C["river"], "boat", True)
                self.paste(boat, x - boat.width / 2, MAP_TOP + y - boat.height / 2)
                x += boat.width + 2

    # -- below the map ----------------------------------------------------------------------

    def header(self) -> None:
        view, ctx, kit = self.view, self.ctx, self.kit
        title = kit.label(_header_text(view, ctx), 26, INK, BACKGROUND, True, WIDTH * 0.56)
        x = self.paste(title, MARGIN, 10)
        deciding = _deciding(view)
        if deciding is not None:
            who = "▶ " + tr(ctx.lang, "mesopotamia.render.turn",
                            who=player_name(ctx, deciding))
            self.paste(kit.label(who, TEXT_MIN, colour(view, deciding), BACKGROUND, True,
                                 WIDTH - x - MARGIN - 8), x + 12, 13)

    def seals(self, track: str, top: int) -> None:
        x0, cell = _track_cells(track)
        at: dict[int, list[int]] = {}
        for seat, case in self.view["seals"][track]:
            at.setdefault(int(case), []).append(int(seat))
        for case, seats in at.items():
            x = x0 + (case - 1) * cell
            step = min(18.0, (cell - 22) / max(1, len(seats) - 1)) if len(seats) > 1 else 0
            for i, seat in enumerate(reversed(seats)):     # the top of a pile is drawn last
                disc = self.kit.token("circle", colour(self.view, seat), INK, PANEL, 18)
                self.paste(disc, x + 3 + i * step, top + TRACK - 24)

    def gardens(self, top: int) -> None:
        """Each storey: who built it, the next one's VP when its tile is face up."""
        view, kit = self.view, self.kit
        built = sum(len(p.get("gardens", [])) for p in view["players"])
        builders = _builders(view)
        cell = (WIDTH - MARGIN - GARDEN_X) / len(view["gardens"])
        for i, tile in enumerate(view["gardens"]):
            x = GARDEN_X + i * cell
            box = (x, top + 4, x + cell - 6, top + GARDEN - 6)
            if i < built:
                fill, edge = colour(view, builders[i]) if i in builders else MUTED, INK
            elif tile["up"]:
                fill, edge = PANEL, GOLD
            else:
                fill, edge = _C["face_down"], INK
            self.pen.rounded_rectangle(box, 6, fill=kit.ink(fill), outline=kit.ink(edge),
                                        width=4 if edge == GOLD else 1)
            label = str(tile["storey"])
            if i >= built and tile["up"] and tile["tile"]:
                label += " · " + tr(self.ctx.lang, "mesopotamia.render.vp",
                                    n=_garden_vp(tile["tile"]))
            self.paste(kit.label(label, TEXT_MIN, ink_on(fill, INK), fill, True, cell - 16),
                       x + 6, top + 9)

    def players(self, top: int) -> None:
        """A panel per seat in turn order, each drawn once for what it shows and kept (on a
        turn, most seats' panels do not change)."""
        view, ctx = self.view, self.ctx
        deciding, standing = _deciding(view), _standing(view)
        for seat in _seats(view):
            mine = seat == deciding
            key = _panel_key(view, ctx, seat, mine, standing[seat])
            panel = self.kit.panel(key, partial(self.panel, seat, mine, standing[seat]))
            self.canvas.paste(panel, (0, top))
            top += panel.height

    def panel(self, seat: int, mine: bool, vp: int) -> Image.Image:
        """``seat``'s panel (``mine``: the seat deciding) as an indexed row of the board."""
        view, ctx, kit = self.view, self.ctx, self.kit
        cards = _automaton_line(view, ctx, seat)
        tall = PLAYER_ROW + (AUTOMATON_ROW if cards else 0)
        fill = colour(view, seat)
        back = _C["current"] if mine else PANEL
        row = _Board(kit, kit.frame(fill, mine, tall).image.copy(), view, ctx)
        score = kit.label(tr(ctx.lang, "mesopotamia.render.vp_quests", vp=vp,
                             n=view["quests"]["hand_sizes"][seat]), 24, INK, back, True)
        row.paste(score, WIDTH - MARGIN - 14 - score.width, 6)
        head = ("▶ " if mine else "") + _seat_title(view, ctx, seat)
        row.paste(kit.label(head, 24, INK, back, True, WIDTH - 2 * MARGIN - 70 - score.width),
                  MARGIN + 40, 6)
        row.stats(seat, MARGIN + 12, 31, back)
        if cards:
            row.paste(kit.label(cards, TEXT_MIN, INK, back, False, WIDTH - 2 * MARGIN - 32),
                      MARGIN + 16, PLAYER_ROW - 10)
        return row.canvas

    def stats(self, seat: int, x: float, y: float, back: Colour) -> None:
        """Resources, then the tracks, the Ziggurat and the units, then the Dingir dice (with
        their faces during the seat's turn)."""
        view, ctx, kit = self.view, self.ctx, self.kit
        p = view["players"][seat]
        for res in D.RESOURCES:
            x = self.paste(kit.token(RESOURCE_SHAPES[res], RES_COLOURS[res], INK, back, 20),
                           x, y + 4)
            x = self.paste(kit.label(str(p["res"].get(res, 0)), TEXT_MIN, INK, back), x,
                           y) + 8
        stats = _stats_line(view, ctx, seat)
        dice = [self.die(seat, i, back) for i in range(len(p["dice"]))]
        room = WIDTH - MARGIN - 14 - x - sum(d.width + 2 for d in dice)
        x = self.paste(kit.label(stats, TEXT_MIN, INK, back, False, room), x + 2, y) + 6
        for die in dice:
            x = self.paste(die, x - 1, y + (CHIP - die.height) / 2 - 1)

    def die(self, seat: int, i: int, back: Colour) -> Sprite:
        """Die ``i`` of ``seat``: its colour, and its face while its turn is under way (grey
        once used)."""
        view = self.view
        colour_ = view["players"][seat]["dice"][i]
        t = view.get("t")
        if not t or view["phase"] != "actions" or _deciding(view) != seat or \
                i >= len(t["dice"]) or t["dice"][i] is None:
            return self.kit.token("square", DIE_COLOURS[colour_], INK, back, 18)
        face = _t(self.ctx.lang, "sign_short", t["dice"][i])
        fill = mix(DIE_COLOURS[colour_], back, 0.6) if t["used"][i] else DIE_COLOURS[colour_]
        return self.kit.chip(fill, face, back)

    def quest_strip(self, names: list[str]) -> None:
        """A seat's own quests at 5-6 players: their names in one gold-edged strip under
        the map, where the legend is on the public board (titles and texts on its board,
        ``/mesopotamia board``); each cut to an equal share when they do not all fit."""
        kit, top = self.kit, MAP_TOP + MAP_HEIGHT + 3
        self.pen.rounded_rectangle((4, top, WIDTH - 5, top + LEGEND - 5), 6,
                                   fill=kit.ink(_C["current"]), outline=kit.ink(GOLD), width=2)
        room, least = WIDTH - 2 * 10, 14
        words = [fonts.font(TEXT_MIN).getlength(name) for name in names]
        spaces = max(1, len(names) - 1)
        share = (room - least * spaces) / max(1, len(names))
        widths = words if sum(words) + least * spaces <= room else [share] * len(names)
        gap = max(least, min(48, (room - sum(widths)) / spaces))
        x: float = 10
        for i, (name, width) in enumerate(zip(names, widths, strict=True)):
            if i:
                self.pen.ellipse((x - gap / 2 - 3, top + 13, x - gap / 2 + 3, top + 19),
                                 fill=kit.ink(GOLD))
            self.paste(kit.label(name, TEXT_MIN, INK, _C["current"], False, width + 1), x,
                       top + 3)
            x += width + gap

    def quests(self, quests: list[str], top: int) -> None:
        """A seat's own quests: a title, then their names two a line (their texts are on its
        board, ``/mesopotamia board``)."""
        kit = self.kit
        self.pen.line((MARGIN, top + 6, WIDTH - MARGIN, top + 6), fill=kit.ink(MUTED), width=2)
        half = (WIDTH - 2 * MARGIN) / 2
        self.paste(kit.label(quests[0], 26, INK, BACKGROUND, True, WIDTH - 2 * MARGIN),
                   MARGIN, top + 14)
        for i, name in enumerate(quests[1:]):
            self.paste(kit.label(name, TEXT_MIN, INK, BACKGROUND, False, half - 12),
                       MARGIN + (i % 2) * half, top + 14 + (1 + i // 2) * QUEST_ROW)


def _builders(view: dict[str, Any]) -> dict[int, int]:
    """Storey index -> the seat that built it, as far as the view tells (each seat keeps its
    tiles; the storeys are numbered by tile)."""
    tiles = {tile: seat for seat, p in enumerate(view["players"]) for tile in p.get("gardens",
                                                                                   [])}
    return {i: tiles[g["tile"]] for i, g in enumerate(view["gardens"]) if g["tile"] in tiles}


@cache
def _garden_vp(tile: str) -> int:
    return int(next(t["vp"] for t in D.GARDEN_TILE_DATA if t["id"] == tile))


def _panel_key(view: dict[str, Any], ctx: RenderContext, seat: int, mine: bool,
               vp: int) -> tuple[Any, ...]:
    """Everything ``seat``'s panel shows: two views with the same key draw the same panel."""
    p = view["players"][seat]
    turn = view.get("t") if mine and view["phase"] == "actions" else None
    return (ctx.lang, player_name(ctx, seat), mine, vp, view["quests"]["hand_sizes"][seat],
            p["empire"], p["role"], p["ziggurat"], tuple(sorted(p["res"].items())),
            tuple(p["dice"]), tuple((t, int(c)) for t in D.TRACKS
                                    for s, c in view["seals"][t] if s == seat),
            sum(1 for s, _, _ in view["units"] if s == seat),
            None if not turn else (tuple(turn["dice"]), tuple(turn["used"])),
            _automaton_line(view, ctx, seat))


SIEGE_LADDER: list[list[Any]] = SIEGE_DATA["ladder"]
GUARDIAN_KINDS: tuple[str, ...] = tuple(GUARDIAN_DATA["kinds"])


def _scripted_rows(view: dict[str, Any]) -> int:
    """How many seats' panels have a line of the game's own opponent (:func:`_automaton_line`):
    the Automata's, the Defenders', the Guardians' enemy's."""
    return len(view.get("automata") or {}) + (1 if view.get("siege") or view.get("guardians")
                                              else 0)


def _siege_line(view: dict[str, Any], ctx: RenderContext) -> str:
    """The Defenders of Ur's last two Action cards and the units still beside the Population
    track."""
    own = view["siege"]
    last = own.get("last") or {}
    cards = [tr(ctx.lang, f"mesopotamia.siege.card.{c}") for c in last.get("cards", [])]
    ladder = [tr(ctx.lang, f"mesopotamia.units.{kind}", n=int(own["ladder"][kind]))
              for kind, _, _ in SIEGE_LADDER if int(own["ladder"][kind])]
    return tr(ctx.lang, "mesopotamia.render.siege", cards=", ".join(cards) or "—",
              ladder=", ".join(ladder) or "—")


def _guardians_line(view: dict[str, Any], ctx: RenderContext, seat: int) -> str:
    """The Enemy Army's wave and its units on the map (its phalanxes are the stock of its
    resources' row)."""
    kinds = Counter(str(k) for s, k, _ in view["units"] if s == seat)
    units = ", ".join(translate(unit_count(k, kinds[k]), ctx.lang) for k in GUARDIAN_KINDS
                      if kinds[k])
    return tr(ctx.lang, "mesopotamia.render.guardians", wave=view["guardians"]["wave"],
              waves=len(GUARDIAN_WAVES), units=units or "—")


def _automaton_line(view: dict[str, Any], ctx: RenderContext, seat: int) -> str:
    """An Automaton's difficulty and face-up Strategy cards, each with its two actions'
    Amphorae (● placed, ○ not); a mode's enemy's line (:func:`_siege_line`,
    :func:`_guardians_line`); "" for a player's seat."""
    if view.get("siege") and seat == view["siege"]["seat"]:
        return _siege_line(view, ctx)
    if view.get("guardians") and seat == int(view["guardians"]["seat"]):
        return _guardians_line(view, ctx, seat)
    own = (view.get("automata") or {}).get(str(seat))
    if own is None:
        return ""
    cards = [tr(ctx.lang, "mesopotamia.render.strategy_card",
                title=tr(ctx.lang, f"mesopotamia.automaton.title.{card}"),
                marks="".join("●" if m else "○" for m in own["marks"].get(card, (0, 0))))
             for card in own["shown"]]
    return tr(ctx.lang, "mesopotamia.render.automaton",
              level=tr(ctx.lang, f"mesopotamia.automaton.difficulty.{own['difficulty']}"),
              cards=" · ".join(cards) or "—")


def _standing(view: dict[str, Any]) -> list[int]:
    """Each seat's VP so far without the quests (what ``/game status`` shows)."""
    if view["phase"] in ("roles", "empires", "regions", "bonus", "quests", "ready"):
        return [0] * view["n"]
    state = {**view, "quests": {"hands": [[] for _ in range(view["n"])]}}
    return public_scores(typed(MesopotamiaState, state))


def _land_units(view: dict[str, Any], rams: bool = False) -> dict[str, Counter[int]]:
    """Region -> seat -> how many of its units stand there (``rams``: its rams only, else all
    but its rams)."""
    found: dict[str, Counter[int]] = {}
    for seat, kind, where in view["units"]:
        if where in D.REGIONS and (kind == "ram") == rams:
            found.setdefault(where, Counter())[seat] += 1
    return found


def _ships(view: dict[str, Any]) -> dict[str, Counter[int]]:
    found: dict[str, Counter[int]] = {}
    for seat, _kind, where in view["units"]:
        if where in D.SECTIONS:
            found.setdefault(where, Counter())[seat] += 1
    return found


RENDERER = MesopotamiaRenderer()


# -- the market: the Hanging Gardens tiles, the trade tokens, the legend ----------------------


MARKET_LINE = 30


def market_title(lang: str, key: str) -> Image.Image:
    """A title of the market (44 px tall), smooth."""
    image = Image.new("RGB", (WIDTH, 44), BACKGROUND)
    _text(ImageDraw.Draw(image), (MARGIN, 0), tr(lang, key), 26, WIDTH - 2 * MARGIN, bold=True)
    return image


def market_row(row: Row) -> Image.Image:
    """One Hanging Gardens tile or trade token of the market, smooth: its badge and its text,
    wrapped, on its fill (outlined in the colour of whoever built or claimed it)."""
    badge, text, fill, edge = row
    room = WIDTH - 2 * MARGIN - 52
    lines_ = wrap(text, room)
    bottom = len(lines_) * MARKET_LINE + 6
    image = Image.new("RGB", (WIDTH, bottom + 1), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((MARGIN, 0, WIDTH - MARGIN, bottom), 6, fill=fill,
                           outline=edge or BORDER, width=4 if edge else 1)
    draw.ellipse((MARGIN + 4, 3, MARGIN + 32, 31), fill=GOLD, outline=INK)
    draw.text((MARGIN + 18, 17), badge, font=fonts.font(TEXT_MIN, True), fill=INK, anchor="mm")
    for j, line in enumerate(lines_):
        _text(draw, (MARGIN + 40, 3 + j * MARKET_LINE), line, TEXT_MIN, room,
              fill=ink_on(fill, INK))
    return image


def market_legend(lang: str) -> Image.Image:
    """The legend of the map's pieces, smooth."""
    image = Image.new("RGB", (WIDTH, 44 + (len(LEGEND_PIECES) + 1) // 2 * MARKET_LINE),
                      BACKGROUND)
    _pieces_legend(ImageDraw.Draw(image), lang, 0)
    return image


LEGEND_PIECES: tuple[tuple[str, str], ...] = (
    ("square", "units"), ("arrow", "rams"), ("house", "colony"), ("ziggurat", "start"),
    ("gold", "zig_token"), ("circle", "event_down"), ("up", "event_up"), ("tribe", "tribe"),
    ("boat", "ships"), ("rampart", "rampart_line"))
"""The map's pieces the market names: (how it is drawn, its catalogue word)."""


def _pieces_legend(draw: ImageDraw.ImageDraw, lang: str, top: int) -> None:
    """What each piece of the map is, in two columns."""
    _text(draw, (MARGIN, top), tr(lang, "mesopotamia.render.pieces"), 26, WIDTH, bold=True)
    half = (WIDTH - 2 * MARGIN) / 2
    for i, (drawn, word) in enumerate(LEGEND_PIECES):
        x, y = MARGIN + (i % 2) * half, top + 44 + (i // 2) * MARKET_LINE
        box = (x, y + 2, x + 26, y + 26)
        blue = EMPIRE_COLOURS["babylonian"]
        if drawn == "rampart":
            draw.line((x, y + 14, x + 26, y + 14), fill=blue, width=6)
        elif drawn in ("gold", "up"):
            _shape(draw, "square" if drawn == "gold" else "circle", box, GOLD, INK)
        elif drawn == "circle":
            _shape(draw, "circle", box, _C["face_down"], WHITE)
        elif drawn == "tribe":
            _shape(draw, "circle", box, _C["tribe"], INK)
        else:
            _shape(draw, drawn, box, blue, INK)
        _text(draw, (x + 34, y), tr(lang, f"mesopotamia.render.legend.{word}"), TEXT_MIN,
              half - 40)


Row = tuple[str, str, Colour, Colour | None]
"""A row of the market: badge, text, fill, outline (a seat's colour)."""


def _amounts(counts: dict[str, int], lang: str) -> str:
    found = amounts(counts)
    return "-" if found is None else translate(found, lang)


def _garden_rows(view: dict[str, Any], lang: str) -> list[Row]:
    rows: list[Row] = []
    builders = _builders(view)
    for i, storey in enumerate(view["gardens"]):
        tile = storey["tile"]
        if not (storey["up"] and tile):
            rows.append((str(storey["storey"]), tr(lang, "mesopotamia.render.face_down"),
                         (190, 184, 172), None))
            continue
        spec = next(t for t in D.GARDEN_TILE_DATA if t["id"] == tile)
        needs = [tr(lang, f"mesopotamia.render.needs.{k}", n=n)
                 for k, n in spec["conditions"].items()]
        text = tr(lang, "mesopotamia.render.garden_row", name=_t(lang, "garden", tile),
                  vp=spec["vp"], cost=_amounts(spec["cost"], lang))
        if needs:
            text = tr(lang, "mesopotamia.render.garden_needs", text=text,
                      needs=", ".join(needs))
        seat = builders.get(i)
        rows.append((str(storey["storey"]), text, PANEL if seat is None else
                     mix(colour(view, seat), WHITE, 0.7),
                     None if seat is None else colour(view, seat)))
    return rows


def _trade_rows(view: dict[str, Any], lang: str) -> list[Row]:
    claims = view.get("amphorae", {})
    rows: list[Row] = []
    for level in D.MAP["trade_area"]["levels"]:
        for slot in level["slots"]:
            token = view["trade"].get(slot["id"])
            if not token:
                continue
            spec = TOKENS[token]
            text = tr(lang, "mesopotamia.render.trade_row", name=_t(lang, "trade", token),
                      pay=_amounts(spec["pay"], lang), gain=_amounts(spec["gain"], lang),
                      vp=spec["vp"])
            if slot["ship"]:
                text = tr(lang, "mesopotamia.render.ship_slot", text=text)
            owner = claims.get(slot["id"])
            rows.append((str(level["level"]), text, PANEL if owner is None else
                         mix(colour(view, owner), WHITE, 0.7),
                         None if owner is None else colour(view, owner)))
    return rows


# -- crops ---------------------------------------------------------------------------------------


def _span(lo: float, hi: float, least: int, most: int, centre: float, limit: int
          ) -> tuple[int, int]:
    """``lo``-``hi`` widened to ``least`` px, narrowed to ``most`` px around ``centre``,
    then moved inside 0-``limit``."""
    size = min(max(hi - lo, least), most)
    start = (lo + hi - size) / 2 if hi - lo <= most else centre - size / 2
    start = min(max(start, 0), limit - size)
    return round(start), round(start + size)


def crop_box(rid: str) -> tuple[int, int, int, int]:
    """The part of the map (map pixels) a crop of ``rid`` shows: its polygon and its
    neighbours' label places, at least :data:`CROP_MIN` and at most :data:`CROP_MAX`."""
    ring = geo.geometry().polygons[rid]
    places = [geo.points()[r] for r in (rid, *D.REGIONS[rid].neighbours)]
    xs = [p[0] for p in (*ring, *places)]
    ys = [p[1] for p in (*ring, *places)]
    cx, cy = geo.points()[rid]
    x0, x1 = _span(min(xs) - MARGIN, max(xs) + MARGIN, CROP_MIN[0], CROP_MAX[0], cx, WIDTH)
    y0, y1 = _span(min(ys) - MARGIN, max(ys) + MARGIN, CROP_MIN[1], CROP_MAX[1], cy,
                   MAP_HEIGHT)
    return x0, y0, x1, y1


def _caption(view: dict[str, Any], ctx: RenderContext, rid: str, width: int) -> list[str]:
    """The title of a crop of ``rid`` and what the region holds, wrapped to ``width`` px."""
    title = _t(ctx.lang, "region", rid)
    if rid in contested(typed(MesopotamiaState, view)):
        title += " · " + tr(ctx.lang, "mesopotamia.render.contested")
    found = [title]
    for part in _contents(view, ctx, rid):
        found += wrap(part, width)
    return found


def crop_image(view: dict[str, Any], ctx: RenderContext, rid: str,
               kit: MesopotamiaRenderer | None = None) -> Image.Image:
    """A zoomed picture of ``rid`` and its neighbours, indexed: what it holds in words, then
    that part of the map, ``rid`` outlined in gold (cut from the board ``kit`` has just
    drawn when it drew this view)."""
    kit = kit or RENDERER
    box = crop_box(rid)
    part = kit.map_image(view, ctx).crop(box)
    ring = [(x - box[0], y - box[1]) for x, y in _inset(rid, 2)]
    ImageDraw.Draw(part).line([*ring, ring[0]], fill=kit.ink(GOLD), width=6, joint="curve")
    width = box[2] - box[0]
    caption = _caption(view, ctx, rid, width - 2 * MARGIN)
    top = 14 + len(caption) * QUEST_ROW
    image = Image.new("P", (width, top + part.height), kit.ink(BACKGROUND))
    image.putpalette(kit.palette().getpalette() or [])
    with kit._lock:     # the kept pieces are shared by the threads drawing
        labels = [kit.label(line, 26 if i == 0 else TEXT_MIN, INK, BACKGROUND, i == 0,
                            width - 2 * MARGIN) for i, line in enumerate(caption)]
    for i, label in enumerate(labels):
        image.paste(label.image, (MARGIN, 6 + i * QUEST_ROW))
    image.paste(part, (0, top))
    return image


def crop_pngs(view: dict[str, Any], ctx: RenderContext, regions: list[str],
              renderer: MesopotamiaRenderer | None = None) -> list[tuple[str, bytes]]:
    """A zoomed picture (:func:`crop_image`) of each of ``regions`` (the first
    :data:`bot.games.mesopotamia.focus.MAX_FOCUS`), as (file name, PNG bytes)."""
    shown = [r for r in regions if r in D.REGIONS][:MAX_FOCUS]
    return [(f"zoom-{rid}.png", _crop_png(crop_image(view, ctx, rid, renderer)))
            for rid in shown]


def _crop_png(image: Image.Image) -> bytes:
    """An indexed crop as PNG bytes, fast; as a smooth picture cut to fewer colours
    (:func:`encode`) when that is over :data:`PNG_LIMIT`."""
    found = png_bytes(image, compress_level=1)
    return found if len(found) <= PNG_LIMIT else encode(image.convert("RGB"))


# -- text ----------------------------------------------------------------------------------------


def _contents(view: dict[str, Any], ctx: RenderContext, rid: str) -> list[str]:
    lang = ctx.lang
    parts = []
    if rid in view["blockers"]:
        parts.append(tr(lang, "mesopotamia.render.blocked"))
    by_seat: dict[int, Counter[str]] = {}
    for seat, kind, where in view["units"]:
        if where == rid:
            by_seat.setdefault(seat, Counter())[kind] += 1
    for seat, kinds in sorted(by_seat.items()):
        units = ", ".join(f"{_t(lang, 'unit', k)} ×{n}" for k, n in sorted(kinds.items()))
        parts.append(f"{player_name(ctx, seat)}: {units}")
    for seat, p in enumerate(view["players"]):
        if rid in p["colonies"]:
            parts.append(tr(lang, "mesopotamia.render.colony", who=player_name(ctx, seat)))
        if rid in p["ramparts"]:
            parts.append(tr(lang, "mesopotamia.render.rampart", who=player_name(ctx, seat)))
    tribe = {k: n for k, n in view["tribes"].get(rid, {}).items() if n}
    if tribe:
        parts.append(tr(lang, "mesopotamia.render.tribe", units=", ".join(
            f"{_t(lang, 'unit', k)} ×{n}" for k, n in sorted(tribe.items()))))
    if rid in view["ziggurats"]:
        parts.append(tr(lang, "mesopotamia.render.zig_token", n=view["ziggurats"][rid]))
    site = view["sites"].get(rid)
    if site is not None:
        parts.append(tr(lang, "mesopotamia.render.event_up", name=_t(lang, "event",
                                                                      site["token"]))
                     if site["up"] and site["token"] else
                     tr(lang, "mesopotamia.render.event_down"))
    solo = view.get("solo")
    if solo is not None and solo["region"] == rid:
        parts.append(tr(lang, "mesopotamia.render.solo"))
        parts += [translate(card, lang, ctx.names) for card in cards_of(solo, True)]
    return parts


def _player_parts(view: dict[str, Any], ctx: RenderContext, seat: int) -> dict[str, str]:
    """The pieces of a seat's summary: resources, technology levels, ziggurat, units, dice,
    colonies and ramparts."""
    lang = ctx.lang
    p = view["players"][seat]
    units = sum(1 for s, _, _ in view["units"] if s == seat)
    case = next((c for s, c in view["seals"]["population"] if s == seat), 1)
    dice = ", ".join(_t(lang, "colour", c) for c in p["dice"]) or "-"
    levels = [f"{_t(lang, 'action', a)} {_level(p, a)}" for a in D.ACTIONS]
    return {
        "res": " · ".join(f"{_t(lang, 'resource', r)} {p['res'].get(r, 0)}"
                          for r in D.RESOURCES),
        "levels_a": " · ".join(levels[:3]), "levels_b": " · ".join(levels[3:]),
        "ziggurat": tr(lang, "mesopotamia.render.ziggurat", n=p["ziggurat"],
                       max=D.PIECES["ziggurat_storeys"]),
        "units": tr(lang, "mesopotamia.render.units", n=units,
                    limit=D.UNIT_LIMIT[int(case) - 1]),
        "dice": tr(lang, "mesopotamia.render.dice", dice=dice),
        "colonies": tr(lang, "mesopotamia.render.colonies", n=len(p["colonies"]),
                       r=len(p["ramparts"])),
    }


def _player_lines(view: dict[str, Any], ctx: RenderContext, seat: int) -> list[str]:
    """A seat's summary in four lines (the text board)."""
    part = _player_parts(view, ctx, seat)
    return [part["res"], " · ".join([part["levels_a"], part["ziggurat"]]),
            " · ".join([part["levels_b"], part["units"]]),
            " · ".join([part["dice"], part["colonies"]])]


def lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The view as lines of text (the terminal's board)."""
    lang = ctx.lang
    out = [_header_text(view, ctx)]
    deciding = _deciding(view)
    if deciding is not None:
        out[0] += " · " + tr(lang, "mesopotamia.render.turn", who=player_name(ctx, deciding))
    for rid in D.REGIONS:
        contents = _contents(view, ctx, rid)
        if contents:
            out.append(f"  {_t(lang, 'region', rid)}: {'; '.join(contents)}")
    for section, counts in sorted(_ships(view).items()):
        who = ", ".join(f"{player_name(ctx, s)} ×{n}" for s, n in sorted(counts.items()))
        out.append(f"  {translate(D.section_name(section), lang)}: "
                   f"{_t(lang, 'unit', 'ship')} {who}")
    for track in D.TRACKS:
        seals = ", ".join(f"{player_name(ctx, int(s))} {c}" for s, c in view["seals"][track])
        out.append(f"{tr(lang, f'mesopotamia.render.track.{track}')}: {seals}")
    gardens = ", ".join(f"{g['storey']}. " + (_t(lang, "garden", g["tile"]) if g["up"] and
                                             g["tile"] else
                                             tr(lang, "mesopotamia.render.face_down"))
                        for g in view["gardens"])
    out.append(f"{tr(lang, 'mesopotamia.render.gardens')}: {gardens}")
    trade = ", ".join(_t(lang, "trade", t) for t in view["trade"].values() if t)
    out.append(f"{tr(lang, 'mesopotamia.render.trade')}: {trade or '-'}")
    for seat in _seats(view):
        mark = "▶" if seat == deciding else " "
        held = tr(lang, "mesopotamia.render.quests_held", n=view["quests"]["hand_sizes"][seat])
        out.append(f"{mark} {_seat_title(view, ctx, seat)} · {held}")
        out += [f"    {line}" for line in _player_lines(view, ctx, seat)]
    return out + _quest_lines(view, ctx)

