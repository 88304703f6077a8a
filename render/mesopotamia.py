"""The Mesopotamia pictures: the map with every piece, the tracks, the Hanging Gardens, the
trade tokens and each player's panel (all public); a seat's view adds its secret quests.

The map places each region's card at its ``map.json`` position, nudged apart until no two
cards overlap. A card is filled with its terrain's colour and carries the region's name
(cut with an ellipsis when too long for a phone), a band of its resource's colour along
the bottom, and a row of pieces: units as numbered squares in the empire's colour, a
colony as a house, rams as a numbered arrow-head in the owner's colour (R-ram-bind), a
neutral tribe as a numbered grey disc, a ziggurat token as a gold
square with its number, an event token (its terrain's shape, dark face down, gold face up).
A rampart is a thick border in the owner's colour; a blocked region is dark. Rivers are
blue lines through their junctions, ships numbered boats on their section. Sizes are
chosen for a phone, where Discord shows the image about 400 px wide: no text under 23 px
at 900 px.

A turn message adds crops of a few regions (:func:`crop_pngs`, the renderer's ``details``):
a region and its neighbours cut from the same map at full scale (at most 640 px wide, so
about twice as large on a phone), its card outlined in gold, under what it holds in words.
Each seat's board is its own picture (:mod:`render.mesopotamia_board`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.focus import MAX_FOCUS
from bot.games.mesopotamia.rounds import contested
from bot.i18n import catalogue, tr, translate
from render import fonts
from render.context import RenderContext
from render.draw import (
    Colour,
    PictureRenderer,
    chip,
    fitted_text,
    ink_on,
    legible,
    mix,
    player_name,
    png_bytes,
)

WIDTH = 900
MARGIN = 12
HEADER = 52
MAP_HEIGHT = 860
LEGEND = 44
TRACK_ROW = 284
CELL_ROW = 34
GARDEN_ROW = 3 * CELL_ROW + 44
TRADE_ROW = 6 * CELL_ROW + 44
PLAYER_ROW = 114
QUEST_ROW = 32
FULL_QUESTS = 3
"""A hand of more quests (drawn by events) lists their names only, so that the map keeps within
its height; their texts stay on the player's board (``/mesopotamia board``)."""
TEXT_MIN = legible(WIDTH)
CHIP = 28
CARD = (140, 66)
CROP_MIN = (480, 340)
CROP_MAX = (640, 480)
"""The size of the part of the map a crop shows (map pixels), at least and at most."""
PNG_LIMIT = 96_000
PNG_STEPS = ((64, 6), (32, 8), (16, 9))
"""The colours and compression tried in turn until the PNG is within PNG_LIMIT bytes."""

BACKGROUND: Colour = (244, 236, 220)
LAND: Colour = (226, 214, 184)
INK: Colour = (44, 34, 26)
MUTED: Colour = (120, 104, 88)
BORDER: Colour = (170, 156, 128)
RIVER: Colour = (70, 130, 200)
PANEL: Colour = (250, 245, 236)
GOLD: Colour = (236, 190, 40)
TRIBE: Colour = (150, 150, 150)
BLOCKED: Colour = (84, 74, 66)
TERRAIN_FILL: dict[str, Colour] = {
    "plain": (206, 228, 170), "mountain": (198, 178, 158), "desert": (242, 220, 160)}
RES_COLOURS: dict[str, Colour] = {
    "stone": (128, 128, 136), "wood": (120, 78, 36), "clay": (196, 96, 56),
    "food": (230, 196, 60), "tablet": (90, 150, 170), "phalanx": (150, 40, 40)}
EMPIRE_COLOURS: dict[str, Colour] = {
    "sumerian": (40, 138, 72), "babylonian": (44, 96, 190), "akkadian": (200, 56, 48),
    "elamite": (140, 72, 168)}
SEAT_COLOURS: tuple[Colour, ...] = ((110, 110, 110), (150, 150, 150), (90, 90, 90),
                                    (170, 170, 170))
Card = tuple[float, float, float, float]
"""A card on the map: centre x, centre y, width, height."""

REGION_XY: dict[str, tuple[float, float]] = {
    r["id"]: (float(r["x"]), float(r["y"])) for r in D.MAP["regions"]}
JUNCTION_XY: dict[str, tuple[float, float]] = {
    j["id"]: (float(j["x"]), float(j["y"])) for j in D.MAP["junctions"]}


# -- geometry ---------------------------------------------------------------------------------


def _place(x: float, y: float) -> tuple[float, float]:
    """A ``map.json`` point in map pixels."""
    return CARD[0] / 2 + 4 + x * (WIDTH - CARD[0] - 8), CARD[1] / 2 + 4 + y * (
        MAP_HEIGHT - CARD[1] - 8)


@cache
def layout() -> dict[str, Card]:
    """The card of every region: centre x, centre y, width, height (map pixels)."""
    pos = {rid: list(_place(*xy)) for rid, xy in REGION_XY.items()}
    w, h = CARD
    gap = 6
    ids = sorted(pos)
    for _ in range(500):
        moved = False
        for a, b in itertools.combinations(ids, 2):
            (x1, y1), (x2, y2) = pos[a], pos[b]
            ox = w + gap - abs(x1 - x2)
            oy = h + gap - abs(y1 - y2)
            if ox > 0 and oy > 0:
                moved = True
                axis, over = (0, ox) if ox < oy * 1.4 else (1, oy)
                sign = 1 if (pos[a][axis], a) >= (pos[b][axis], b) else -1
                pos[a][axis] += sign * (over / 2 + 0.5)
                pos[b][axis] -= sign * (over / 2 + 0.5)
        for rid in ids:
            pos[rid][0] = min(max(pos[rid][0], w / 2 + 2), WIDTH - w / 2 - 2)
            pos[rid][1] = min(max(pos[rid][1], h / 2 + 2), MAP_HEIGHT - h / 2 - 2)
        if not moved:
            break
    return {rid: (p[0], p[1], float(w), float(h)) for rid, p in pos.items()}


# -- helpers ------------------------------------------------------------------------------



def _t(lang: str, family: str, item: str) -> str:
    return translate(D.name(family, item), lang)


def short_name(rid: str, lang: str) -> str:
    """A region's name as the map shows it: a shorter form where the full one is too long
    for its card."""
    key = f"mesopotamia.render.short.{rid}"
    return tr(lang, key) if key in catalogue(lang) else _t(lang, "region", rid)


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


def _on(colour: Colour) -> Colour:
    """Ink readable on ``colour``."""
    return ink_on(colour, INK)


def colour(view: dict[str, Any], seat: int) -> Colour:
    """The colour of ``seat``'s empire (a grey before it has one)."""
    empire = view["players"][seat]["empire"]
    return EMPIRE_COLOURS.get(empire, SEAT_COLOURS[seat % 4])


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, fill: Colour, label: str,
          round_: bool = False) -> float:
    """A numbered square (or disc) of this board's size; the x after it."""
    return chip(draw, x, y, fill, label, size=CHIP, text_size=TEXT_MIN, ink=INK, round_=round_)


def _house(draw: ImageDraw.ImageDraw, x: float, y: float, fill: Colour) -> float:
    w = 26
    draw.polygon([(x, y + 11), (x + w / 2, y), (x + w, y + 11)], fill=mix(fill, INK, 0.35))
    draw.rectangle((x + 3, y + 11, x + w - 3, y + CHIP), fill=fill, outline=INK)
    return x + w + 3


def _token(draw: ImageDraw.ImageDraw, x: float, y: float, terrain: str, up: bool) -> float:
    """An event token: circle (plain), triangle (mountain), square (desert)."""
    fill = GOLD if up else (70, 60, 52)
    edge = INK if up else (250, 245, 236)
    s = CHIP - 4
    y += 2
    if terrain == "plain":
        draw.ellipse((x, y, x + s, y + s), fill=fill, outline=edge, width=2)
    elif terrain == "mountain":
        draw.polygon([(x, y + s), (x + s / 2, y), (x + s, y + s)], fill=fill, outline=edge)
    else:
        draw.rectangle((x, y, x + s, y + s), fill=fill, outline=edge, width=2)
    return x + s + 4


def _ram(draw: ImageDraw.ImageDraw, x: float, y: float, fill: Colour, label: str) -> float:
    """A seat's rams: an arrow-head (a ram's iron head), ``label`` (their number) inside; the
    x after it."""
    w = 36
    draw.polygon([(x, y + 3), (x + w - 12, y + 3), (x + w, y + CHIP / 2),
                  (x + w - 12, y + CHIP - 3), (x, y + CHIP - 3)], fill=fill, outline=INK)
    draw.text((x + (w - 8) / 2, y + CHIP / 2 + 1), label, font=fonts.font(TEXT_MIN, True),
              fill=_on(fill), anchor="mm")
    return x + w + 3


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


def _phase(view: dict[str, Any], lang: str) -> str:
    key = f"mesopotamia.render.phase.{view['phase']}"
    return tr(lang, key) if key in catalogue(lang) else str(view["phase"])


def _deciding(view: dict[str, Any]) -> int | None:
    if view.get("current") is not None:
        return int(view["current"])
    order, index = view.get("order"), view.get("index")
    if view["phase"] == "actions" and order and index is not None and index < len(order):
        return int(order[index])
    return None


def _header_text(view: dict[str, Any], ctx: RenderContext) -> str:
    lang = ctx.lang
    if view.get("round"):
        return tr(lang, "mesopotamia.render.header", round=view["round"],
                  phase=_phase(view, lang))
    return tr(lang, "mesopotamia.render.header_setup", phase=_phase(view, lang))


# -- the map ----------------------------------------------------------------------------------


def _rivers(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    for section in D.SECTIONS.values():
        a, b = (_place(*JUNCTION_XY[e]) for e in section.ends)
        draw.line([(a[0], a[1] + top), (b[0], b[1] + top)], fill=RIVER, width=9)


def _boats(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    face = fonts.font(TEXT_MIN, True)
    for section, counts in sorted(_ships(view).items()):
        a, b = (_place(*JUNCTION_XY[e]) for e in D.SECTIONS[section].ends)
        x, y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + top
        x -= 22 * (len(counts) - 1)
        for seat, n in sorted(counts.items()):
            fill = colour(view, seat)
            draw.polygon([(x - 22, y - 8), (x + 22, y - 8), (x + 14, y + 12), (x - 14, y + 12)],
                         fill=fill, outline=INK)
            draw.text((x, y + 2), str(n), font=face, fill=_on(fill), anchor="mm")
            x += 46


def _region(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, rid: str,
            top: int, units: dict[str, Counter[int]], owners: dict[str, tuple[int, str]],
            rams: dict[str, Counter[int]]) -> None:
    cx, cy, w, h = layout()[rid]
    x0, y0 = cx - w / 2, cy - h / 2 + top
    region = D.REGIONS[rid]
    blocked = rid in view["blockers"]
    fill = BLOCKED if blocked else TERRAIN_FILL.get(region.terrain, LAND)
    rampart = next((s for s, p in enumerate(view["players"]) if rid in p["ramparts"]), None)
    outline = colour(view, rampart) if rampart is not None else MUTED
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), 7, fill=fill, outline=outline,
                           width=6 if rampart is not None else 2)
    if region.resource:
        draw.rectangle((x0 + 8, y0 + h - 7, x0 + w - 8, y0 + h - 3),
                       fill=RES_COLOURS.get(region.resource, MUTED))
    _text(draw, (x0 + 5, y0 + 2), short_name(rid, ctx.lang), TEXT_MIN, w - 8,
          fill=(255, 255, 255) if blocked else INK)
    x, y = x0 + 4, y0 + h - CHIP - 8
    for seat, p in enumerate(view["players"]):
        if rid in p["colonies"]:
            x = _house(draw, x, y, colour(view, seat))
    for seat, n in sorted(units.get(rid, Counter()).items()):
        x = _chip(draw, x, y, colour(view, seat), str(n))
    for seat, n in sorted(rams.get(rid, Counter()).items()):
        x = _ram(draw, x, y, colour(view, seat), str(n))
    tribe = sum(view["tribes"].get(rid, {}).values())
    if tribe:
        x = _chip(draw, x, y, TRIBE, str(tribe), round_=True)
    if rid in view["ziggurats"]:
        x = _chip(draw, x, y, GOLD, str(view["ziggurats"][rid]))
    site = view["sites"].get(rid)
    if site is not None and x < x0 + w - CHIP:
        _token(draw, x, y, site["terrain"], bool(site["up"]))


def _map(image: Image.Image, view: dict[str, Any], ctx: RenderContext, top: int) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, WIDTH, top + MAP_HEIGHT), fill=LAND)
    cards = layout()
    for rid, region in D.REGIONS.items():
        for other in region.neighbours:
            if rid < other and other in cards:
                draw.line([(cards[rid][0], cards[rid][1] + top),
                           (cards[other][0], cards[other][1] + top)], fill=BORDER, width=2)
    _rivers(draw, view, top)
    units, rams = _land_units(view), _land_units(view, rams=True)
    owners: dict[str, tuple[int, str]] = {}
    for rid in D.REGIONS:
        _region(draw, view, ctx, rid, top, units, owners, rams)
    _boats(draw, view, top)


def _legend(draw: ImageDraw.ImageDraw, ctx: RenderContext, top: int) -> None:
    x: float = MARGIN
    for res in D.BASE_RESOURCES:
        draw.rectangle((x, top + 12, x + 22, top + 30), fill=RES_COLOURS[res], outline=INK)
        x += 28
        x += _text(draw, (x, top + 8), _t(ctx.lang, "resource", res), TEXT_MIN, 160) + 16
    x = _chip(draw, x, top + 8, TRIBE, "n", round_=True)
    x += _text(draw, (x, top + 8), tr(ctx.lang, "mesopotamia.render.tribe_legend"),
               TEXT_MIN, 160) + 16
    draw.rounded_rectangle((x, top + 8, x + 28, top + 8 + CHIP), 5, fill=BLOCKED, outline=MUTED)
    x += 34
    x += _text(draw, (x, top + 8), tr(ctx.lang, "mesopotamia.render.blocked"), TEXT_MIN,
               WIDTH - x - MARGIN) + 16
    x = _ram(draw, x, top + 8, MUTED, "n")
    _text(draw, (x, top + 8), _t(ctx.lang, "unit", "ram"), TEXT_MIN, WIDTH - x - MARGIN)


# -- crops ------------------------------------------------------------------------------------


def _span(lo: float, hi: float, least: int, most: int, centre: float, limit: int
          ) -> tuple[int, int]:
    """``lo``-``hi`` widened to ``least`` px, narrowed to ``most`` px around ``centre``,
    then moved inside 0-``limit``."""
    size = min(max(hi - lo, least), most)
    start = (lo + hi - size) / 2 if hi - lo <= most else centre - size / 2
    start = min(max(start, 0), limit - size)
    return round(start), round(start + size)


def crop_box(rid: str) -> tuple[int, int, int, int]:
    """The part of the map (map pixels) a crop of ``rid`` shows: its card and its
    neighbours', at least :data:`CROP_MIN` and at most :data:`CROP_MAX`."""
    cards = layout()
    shown = [cards[r] for r in (rid, *D.REGIONS[rid].neighbours) if r in cards]
    cx, cy = cards[rid][:2]
    x0, x1 = _span(min(x - w / 2 for x, _, w, _ in shown) - MARGIN,
                   max(x + w / 2 for x, _, w, _ in shown) + MARGIN,
                   CROP_MIN[0], CROP_MAX[0], cx, WIDTH)
    y0, y1 = _span(min(y - h / 2 for _, y, _, h in shown) - MARGIN,
                   max(y + h / 2 for _, y, _, h in shown) + MARGIN,
                   CROP_MIN[1], CROP_MAX[1], cy, MAP_HEIGHT)
    return x0, y0, x1, y1


def _caption(view: dict[str, Any], ctx: RenderContext, rid: str, width: int) -> list[str]:
    """The title of a crop of ``rid`` and what the region holds, wrapped to ``width`` px."""
    title = _t(ctx.lang, "region", rid)
    if rid in contested(view):
        title += " · " + tr(ctx.lang, "mesopotamia.render.contested")
    found = [title]
    for part in _contents(view, ctx, rid):
        found += wrap(part, width)
    return found


def crop_image(view: dict[str, Any], ctx: RenderContext, rid: str,
               drawn: Image.Image | None = None) -> Image.Image:
    """A zoomed picture of ``rid`` and its neighbours: what it holds in words, then that part
    of the map at full scale, the region outlined in gold (``drawn``: the map already
    drawn by :func:`map_image`)."""
    board = (drawn or map_image(view, ctx)).copy()
    cx, cy, w, h = layout()[rid]
    ImageDraw.Draw(board).rounded_rectangle((cx - w / 2 - 4, cy - h / 2 - 4, cx + w / 2 + 4,
                                             cy + h / 2 + 4), 9, outline=GOLD, width=5)
    box = crop_box(rid)
    width = box[2] - box[0]
    caption = _caption(view, ctx, rid, width - 2 * MARGIN)
    top = 14 + len(caption) * QUEST_ROW
    image = Image.new("RGB", (width, top + box[3] - box[1]), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(caption):
        _text(draw, (MARGIN, 6 + i * QUEST_ROW), line, 26 if i == 0 else TEXT_MIN,
              width - 2 * MARGIN, bold=i == 0)
    image.paste(board.crop(box), (0, top))
    return image


def map_image(view: dict[str, Any], ctx: RenderContext) -> Image.Image:
    """The map alone, as the board draws it."""
    image = Image.new("RGB", (WIDTH, MAP_HEIGHT), LAND)
    _map(image, view, ctx, 0)
    return image


def crop_pngs(view: dict[str, Any], ctx: RenderContext, regions: list[str]
              ) -> list[tuple[str, bytes]]:
    """A zoomed picture (:func:`crop_image`) of each of ``regions`` (the first
    :data:`bot.games.mesopotamia.focus.MAX_FOCUS`), as (file name, PNG bytes)."""
    shown = [r for r in regions if r in D.REGIONS][:MAX_FOCUS]
    if not shown:
        return []
    drawn = map_image(view, ctx)
    return [(f"zoom-{rid}.png", encode(crop_image(view, ctx, rid, drawn))) for rid in shown]


# -- tracks, gardens, trade -------------------------------------------------------------------


def _track(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, track: str,
           top: int, per_row: int) -> int:
    cases = D.TRACK_CASES[track]
    title = tr(ctx.lang, f"mesopotamia.render.track.{track}")
    _text(draw, (MARGIN, top), title, 26, WIDTH - 2 * MARGIN, bold=True)
    top += 34
    cell = (WIDTH - 2 * MARGIN) / per_row
    at: dict[int, list[int]] = {}
    for seat, case in view["seals"][track]:
        at.setdefault(int(case), []).append(int(seat))
    face = fonts.font(TEXT_MIN)
    rows = (cases + per_row - 1) // per_row
    for i in range(cases):
        x = MARGIN + (i % per_row) * cell
        y = top + (i // per_row) * 64
        draw.rectangle((x, y, x + cell - 4, y + 58), fill=PANEL, outline=BORDER, width=2)
        label = str(i + 1)
        if track == "population":
            label += f" ({D.UNIT_LIMIT[i]})"
        draw.text((x + 4, y + 1), label, font=face, fill=MUTED)
        sx = x + 4
        for seat in at.get(i + 1, []):
            draw.ellipse((sx, y + 32, sx + 20, y + 52), fill=colour(view, seat), outline=INK)
            sx += min(22, (cell - 28) / max(1, len(at[i + 1]) - 1))
    return top + rows * 64 + 8


Cell = tuple[str, str, Colour, Colour | None, bool]
"""A box of a two-column list: badge, label, fill, outline in a seat's colour, ship slot."""


def _cells(draw: ImageDraw.ImageDraw, title: str, cells: list[Cell], top: int) -> None:
    """A title, then ``cells`` in two columns of rows CELL_ROW high."""
    _text(draw, (MARGIN, top), title, 26, WIDTH - 2 * MARGIN, bold=True)
    col = (WIDTH - 2 * MARGIN) / 2
    face = fonts.font(TEXT_MIN, True)
    for i, (badge, label, fill, edge, ship) in enumerate(cells):
        x, y = MARGIN + (i % 2) * col, top + 36 + (i // 2) * CELL_ROW
        draw.rounded_rectangle((x, y, x + col - 6, y + CELL_ROW - 4), 5, fill=fill,
                               outline=edge or BORDER, width=4 if edge else 1)
        draw.ellipse((x + 4, y + 2, x + 30, y + 28), fill=GOLD, outline=INK)
        draw.text((x + 17, y + 16), badge, font=face, fill=INK, anchor="mm")
        x1 = x + 36
        if ship:
            draw.polygon([(x1, y + 9), (x1 + 20, y + 9), (x1 + 15, y + 23), (x1 + 5, y + 23)],
                         fill=RIVER)
            x1 += 24
        _text(draw, (x1, y + 2), label, TEXT_MIN, x + col - 12 - x1,
              fill=_on(fill))


def _gardens(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
             top: int) -> None:
    lang = ctx.lang
    cells: list[Cell] = []
    for storey in view["gardens"]:
        up = bool(storey["up"] and storey["tile"])
        cells.append((str(storey["storey"]), _t(lang, "garden", storey["tile"]) if up
                      else tr(lang, "mesopotamia.render.face_down"),
                      (214, 236, 196) if up else (96, 110, 88), None, False))
    _cells(draw, tr(lang, "mesopotamia.render.gardens"), cells, top)


def _trade(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
           top: int) -> None:
    lang = ctx.lang
    claims = view.get("amphorae", {})
    cells: list[Cell] = []
    for level in D.MAP["trade_area"]["levels"]:
        for slot in level["slots"]:
            token = view["trade"].get(slot["id"])
            owner = claims.get(slot["id"])
            cells.append((str(level["level"]), _t(lang, "trade", token) if token else "",
                          PANEL if token else (214, 206, 190),
                          colour(view, owner) if owner is not None else None,
                          bool(slot["ship"])))
    _cells(draw, tr(lang, "mesopotamia.render.trade"), cells, top)


# -- players ----------------------------------------------------------------------------------


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


def _row_lines(view: dict[str, Any], ctx: RenderContext, seat: int) -> list[str]:
    """A seat's summary in two lines (the whole map's player rows; the technologies are on
    the seat's own board, ``/mesopotamia board``)."""
    part = _player_parts(view, ctx, seat)
    return [part["res"],
            " · ".join([part["ziggurat"], part["units"], part["dice"], part["colonies"]])]


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


def _players(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
             top: int) -> None:
    deciding = _deciding(view)
    for place, seat in enumerate(_seats(view)):
        y = top + place * PLAYER_ROW
        fill = colour(view, seat)
        mine = seat == deciding
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + PLAYER_ROW - 8), 10,
                               fill=(255, 250, 228) if mine else PANEL, outline=fill,
                               width=6 if mine else 3)
        draw.rectangle((MARGIN + 10, y + 10, MARGIN + 34, y + 34), fill=fill, outline=INK)
        head = f"{'▶ ' if mine else ''}{_seat_title(view, ctx, seat)}"
        held = tr(ctx.lang, "mesopotamia.render.quests_held",
                  n=view["quests"]["hand_sizes"][seat])
        face = fonts.font(TEXT_MIN)
        draw.text((WIDTH - MARGIN - 14, y + 9), held, font=face, fill=INK, anchor="ra")
        _text(draw, (MARGIN + 44, y + 6), head, 26,
              WIDTH - 2 * MARGIN - 76 - face.getlength(held), bold=True)
        for i, line in enumerate(_row_lines(view, ctx, seat)):
            _text(draw, (MARGIN + 12, y + 39 + 34 * i), line, TEXT_MIN,
                  WIDTH - 2 * MARGIN - 24)


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


# -- text ---------------------------------------------------------------------------------


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
    return parts


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


def encode(image: Image.Image) -> bytes:
    """``image`` as PNG bytes: 64 colours, or fewer and compressed harder when that is too
    big for :data:`PNG_LIMIT` (a crowded board with long quests)."""
    found = b""
    for colours, level in PNG_STEPS:
        found = png_bytes(image.quantize(colours, method=Image.Quantize.FASTOCTREE),
                          compress_level=level)
        if len(found) <= PNG_LIMIT:
            break
    return found


class MesopotamiaRenderer(PictureRenderer):
    """The renderer of Mesopotamia (``render.context.Renderer``)."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        quests = _quest_lines(view, ctx, WIDTH - 2 * MARGIN - 4, FULL_QUESTS)
        height = (HEADER + MAP_HEIGHT + LEGEND + TRACK_ROW + GARDEN_ROW + TRADE_ROW
                  + view["n"] * PLAYER_ROW + MARGIN + (len(quests) * QUEST_ROW + 16
                                                       if quests else 0))
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        title = _header_text(view, ctx)
        width = _text(draw, (MARGIN, 10), title, 28, WIDTH * 0.6, bold=True)
        deciding = _deciding(view)
        if deciding is not None:
            _text(draw, (MARGIN + width + 20, 12),
                  "▶ " + tr(ctx.lang, "mesopotamia.render.turn", who=player_name(ctx, deciding)),
                  TEXT_MIN, WIDTH - 2 * MARGIN - width - 20, fill=colour(view, deciding),
                  bold=True)
        _map(image, view, ctx, HEADER)
        top = HEADER + MAP_HEIGHT
        _legend(draw, ctx, top)
        top += LEGEND
        y = _track(draw, view, ctx, "population", top, 8)
        _track(draw, view, ctx, "event", y, 10)
        top += TRACK_ROW
        _gardens(draw, view, ctx, top)
        top += GARDEN_ROW
        _trade(draw, view, ctx, top)
        top += TRADE_ROW
        _players(draw, view, ctx, top)
        top += view["n"] * PLAYER_ROW
        if quests:
            draw.line((MARGIN, top + 6, WIDTH - MARGIN, top + 6), fill=MUTED, width=2)
            for i, line in enumerate(quests):
                _text(draw, (MARGIN, top + 16 + i * QUEST_ROW), line, 26 if i == 0 else
                      TEXT_MIN, WIDTH - 2 * MARGIN, bold=i == 0)
        return image

    def lines(self, view: dict[str, Any], ctx: RenderContext) -> list[str]:
        return lines(view, ctx)

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The picture as PNG bytes (:func:`encode`)."""
        return encode(self.image(view, ctx))

    def details(self, view: dict[str, Any], ctx: RenderContext) -> list[tuple[str, bytes]]:
        """The pictures a turn message adds after the board: the crops of the regions the
        view focuses on (``view["focus"]``, :mod:`bot.games.mesopotamia.focus`)."""
        return crop_pngs(view, ctx, [str(r) for r in view.get("focus", [])])


RENDERER = MesopotamiaRenderer()
