"""The After the Flood pictures: the map with its pieces, the worker boxes, the round's
empires and each player's goods and pieces (all public), as an image or as text.

The map places each region at its ``map.json`` position, stretched so that the nine
regions of Sumer (drawn green) get room, then nudged apart until no two cards overlap;
the four worker boxes sit in the desert at the bottom left, where ``map.json`` puts
them. Borders are thin lines, sea borders dashed, one-way borders (arrows) carry an
arrowhead. A card shows the region's name, its printed points and trade goods (outside
Sumer), each player's workers as numbered squares, armies as numbered discs and a city
as a house (with a roof band when extended). Below the map: the round's three empires
(where each starts, or who initiated it with its equipment rank and amount), then one
panel per player in turn order (by final rank once the game is over): points, goods,
workers and armies in hand, placed and unavailable, cities, equipment, Passed box. A
box's ``2|1`` reads 2 workers ready and 1 used this round. Sizes are chosen for a phone,
where Discord shows the image about 400 px wide: no text under 23 px at 900 px.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.flood import data as D
from bot.i18n import tr, translate
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
)

WIDTH = 900
MARGIN = 12
HEADER = 52
MAP_HEIGHT = 720
EMPIRE_ROW = 120
PLAYER_ROW = 154
TEXT_MIN = legible(WIDTH)
CHIP = 30

BACKGROUND: Colour = (244, 236, 220)
DESERT: Colour = (232, 219, 186)
SEA: Colour = (168, 198, 214)
INK: Colour = (44, 34, 26)
MUTED: Colour = (120, 104, 88)
BORDER: Colour = (160, 146, 120)
ARROW: Colour = (150, 60, 30)
SUMER_FILL: Colour = (214, 232, 196)
OUTER_FILL: Colour = (250, 245, 232)
BOX_FILL: Colour = (246, 238, 214)
SEAT_COLOURS: tuple[Colour, ...] = ((206, 60, 52), (44, 106, 190), (40, 138, 72))
RES_COLOURS: dict[str, Colour] = {
    "grain": (226, 196, 116), "cloth": (250, 250, 244), "wood": (136, 88, 44),
    "metal": (196, 108, 60), "oil": (116, 128, 40), "tools": (112, 124, 140),
    "gold": (246, 200, 0), "lapis": (34, 58, 160),
}
SUMER_SIZE = (142, 64)
OUTER_SIZE = (164, 64)
BOX_SIZE = (212, 96)
X_KNOTS = ((0.0, 0.0), (0.5, 0.36), (0.86, 0.87), (1.0, 1.0))
Y_KNOTS = ((0.0, 0.0), (0.36, 0.22), (0.88, 0.95), (1.0, 1.0))
"""The stretch that gives Sumer room: (map.json coordinate, drawn fraction) knots."""
Card = tuple[float, float, float, float]
"""A card on the map: centre x, centre y, width, height."""


# -- geometry ---------------------------------------------------------------------------------


def _stretch(value: float, knots: tuple[tuple[float, float], ...]) -> float:
    for (a, fa), (b, fb) in itertools.pairwise(knots):
        if a <= value <= b:
            return fa + (value - a) / (b - a) * (fb - fa)
    return value


def _box_cards() -> dict[str, Card]:
    """The four worker boxes: a 2 x 2 panel at the bottom left of the map."""
    w, h = BOX_SIZE
    cards: dict[str, Card] = {}
    for i, box in enumerate(D.BOXES):
        x = MARGIN + (i % 2) * (w + 8) + w / 2
        y = MAP_HEIGHT - MARGIN - (1 - i // 2) * (h + 8) - h / 2
        cards[box] = (x, y, w, h)
    return cards


@cache
def layout() -> dict[str, Card]:
    """Card of every region and box: centre x, centre y, width, height (map pixels)."""
    sizes = {r: SUMER_SIZE if D.REGIONS[r].in_sumer else OUTER_SIZE for r in D.REGION_IDS}
    pos = {}
    for rid, region in D.REGIONS.items():
        x, y = _stretch(region.x, X_KNOTS), _stretch(region.y, Y_KNOTS)
        pos[rid] = [80 + x * (WIDTH - 160), 36 + y * (MAP_HEIGHT - 72)]
    fixed = _box_cards()
    gap = 8
    for _ in range(400):
        moved = False
        for a, b in itertools.combinations(D.REGION_IDS, 2):
            (x1, y1), (x2, y2) = pos[a], pos[b]
            ox = (sizes[a][0] + sizes[b][0]) / 2 + gap - abs(x1 - x2)
            oy = (sizes[a][1] + sizes[b][1]) / 2 + gap - abs(y1 - y2)
            if ox > 0 and oy > 0:
                moved = True
                axis, over = (0, ox) if ox < oy * 1.6 else (1, oy)
                sign = 1 if pos[a][axis] >= pos[b][axis] else -1
                pos[a][axis] += sign * (over / 2 + 0.5)
                pos[b][axis] -= sign * (over / 2 + 0.5)
        for rid in D.REGION_IDS:
            w, h = sizes[rid]
            for bx, by, bw, bh in fixed.values():
                ox = (w + bw) / 2 + gap - abs(pos[rid][0] - bx)
                oy = (h + bh) / 2 + gap - abs(pos[rid][1] - by)
                if ox > 0 and oy > 0:
                    moved = True
                    pos[rid][1] = by - (h + bh) / 2 - gap
            pos[rid][0] = min(max(pos[rid][0], w / 2 + 4), WIDTH - w / 2 - 4)
            pos[rid][1] = min(max(pos[rid][1], h / 2 + 4), MAP_HEIGHT - h / 2 - 4)
        if not moved:
            break
    cards: dict[str, Card] = {rid: (p[0], p[1], float(sizes[rid][0]), float(sizes[rid][1]))
                              for rid, p in pos.items()}
    cards.update(fixed)
    return cards


# -- helpers ------------------------------------------------------------------------------



def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
          width: float, fill: Colour = INK, bold: bool = False) -> float:
    """Draw ``value`` fitted into ``width`` (see :func:`render.draw.fitted_text`)."""
    return fitted_text(draw, xy, value, size, width, TEXT_MIN, fill, bold)


def _on(colour: Colour) -> Colour:
    """Ink readable on ``colour``."""
    return ink_on(colour, INK)


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, fill: Colour, label: str,
          round_: bool = False) -> float:
    """A numbered square (or disc) of this board's size; the x after it."""
    return chip(draw, x, y, fill, label, size=CHIP, text_size=TEXT_MIN, ink=INK, round_=round_)


def _city(draw: ImageDraw.ImageDraw, x: float, y: float, colour: Colour,
          extended: bool) -> float:
    """A house in the owner's colour (a second storey when extended); the x after it."""
    w, h = 34, CHIP
    draw.polygon([(x, y + 12), (x + w / 2, y), (x + w, y + 12)], fill=mix(colour, INK, 0.3))
    draw.rectangle((x + 3, y + 12, x + w - 3, y + h), fill=colour, outline=INK)
    if extended:
        draw.rectangle((x + 3, y + 12, x + w - 3, y + 18), fill=(250, 214, 60))
        draw.polygon([(x + w / 2 - 5, y - 2), (x + w / 2, y - 9), (x + w / 2 + 5, y - 2)],
                     fill=(250, 214, 60))
    return x + w + 6


def _seats(view: dict[str, Any]) -> list[int]:
    """The seats in turn order; at the end, by final rank (points, then turn order)."""
    order: list[int] = view["order"]
    if view["phase"] == "over":
        return sorted(order, key=lambda s: (-view["vp"][s], order.index(s)))
    return list(order)


def _phase(view: dict[str, Any], lang: str) -> str:
    return tr(lang, f"flood.render.phase.{view['phase']}")


def _res_line(view: dict[str, Any], seat: int, lang: str) -> list[tuple[str, int]]:
    return [(r, k) for r, k in view["res"][seat].items() if k > 0]


# -- the map ----------------------------------------------------------------------------------


def _borders(draw: ImageDraw.ImageDraw, top: int) -> None:
    cards = layout()
    for a, b in itertools.combinations(D.REGION_IDS, 2):
        if b not in D.REGIONS[a].neighbours:
            continue
        p, q = (cards[a][0], cards[a][1] + top), (cards[b][0], cards[b][1] + top)
        if frozenset((a, b)) in D.SEA_BORDERS:
            steps = 14
            for i in range(0, steps, 2):
                s, e = i / steps, (i + 1) / steps
                draw.line([(p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s),
                           (p[0] + (q[0] - p[0]) * e, p[1] + (q[1] - p[1]) * e)],
                          fill=(70, 120, 170), width=3)
        else:
            draw.line([p, q], fill=BORDER, width=3)
    for a, b in sorted(D.ARROWS):
        draw.line([(cards[a][0], cards[a][1] + top), (cards[b][0], cards[b][1] + top)],
                  fill=ARROW, width=5)


def _leave(card: Card, dx: float, dy: float) -> float:
    """The fraction of the way along (dx, dy) from a card's centre where it leaves the card."""
    _, _, w, h = card
    fx = (w / 2) / abs(dx) if dx else float("inf")
    fy = (h / 2) / abs(dy) if dy else float("inf")
    return min(fx, fy, 1.0)


def _arrowheads(draw: ImageDraw.ImageDraw, top: int) -> None:
    """The heads of the one-way borders, halfway along the part seen between the cards."""
    cards = layout()
    for a, b in sorted(D.ARROWS):
        p, q = (cards[a][0], cards[a][1] + top), (cards[b][0], cards[b][1] + top)
        dx, dy = q[0] - p[0], q[1] - p[1]
        start, end = _leave(cards[a], dx, dy), 1 - _leave(cards[b], -dx, -dy)
        _arrowhead(draw, p, q, (start + end) / 2 if end > start else 0.5)


def _arrowhead(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float],
               at: float) -> None:
    """A head pointing from ``p`` to ``q``, ``at`` of the way along."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    mx, my = p[0] + dx * at - ux * 8, p[1] + dy * at - uy * 8
    size = 16
    tip = (mx + ux * size, my + uy * size)
    left = (mx - uy * size * 0.8, my + ux * size * 0.8)
    right = (mx + uy * size * 0.8, my - ux * size * 0.8)
    draw.polygon([tip, left, right], fill=ARROW, outline=INK)


def _region(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, rid: str,
            top: int) -> None:
    cx, cy, w, h = layout()[rid]
    x0, y0 = cx - w / 2, cy - h / 2 + top
    region = D.REGIONS[rid]
    fill = SUMER_FILL if region.in_sumer else OUTER_FILL
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), 8, fill=fill, outline=MUTED, width=2)
    name = translate(D.region_name(rid), ctx.lang)
    if region.in_sumer:
        _text(draw, (x0 + 6, y0 + 2), name, TEXT_MIN, w - 12)
    else:
        _text(draw, (x0 + 6, y0 + 2), name, TEXT_MIN, w - 46, bold=True)
        draw.ellipse((x0 + w - 34, y0 + 3, x0 + w - 6, y0 + 31), fill=(250, 214, 60),
                     outline=INK)
        draw.text((x0 + w - 20, y0 + 18), str(region.vp), font=fonts.font(TEXT_MIN, True),
                  fill=INK, anchor="mm")
    x, y = x0 + 5, y0 + h - CHIP - 4
    city = view["cities"].get(rid)
    if city is not None:
        x = _city(draw, x, y, SEAT_COLOURS[city[0] % 3], bool(city[1]))
    for seat in range(view["n"]):
        if rid in view["on"] and view["on"][rid][seat]:
            x = _chip(draw, x, y, SEAT_COLOURS[seat % 3], str(view["on"][rid][seat]))
    if rid in view["troops"]:
        for seat in range(view["n"]):
            if view["troops"][rid][seat]:
                x = _chip(draw, x, y, SEAT_COLOURS[seat % 3], str(view["troops"][rid][seat]),
                          round_=True)
    if not region.in_sumer:                       # the goods it trades, stacked at the right
        gy = y + 2
        for res in region.trade:
            draw.rectangle((x0 + w - 17, gy, x0 + w - 5, gy + 12),
                           fill=RES_COLOURS.get(res, MUTED), outline=INK)
            gy += 15


def _title_lines(value: str, width: float) -> tuple[list[str], bool]:
    """A box's name on one bold line, or on two plain lines when it is too long."""
    if fonts.font(TEXT_MIN, True).getlength(value) <= width:
        return [value], True
    words = value.split()
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if fonts.font(TEXT_MIN).getlength(first) <= width:
            return [first, " ".join(words[cut:])], False
    return [value], False


def _box(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext, box: str,
         top: int) -> None:
    cx, cy, w, h = layout()[box]
    x0, y0 = cx - w / 2, cy - h / 2 + top
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), 8, fill=BOX_FILL, outline=INK, width=2)
    title, bold = _title_lines(translate(D.place_name(box), ctx.lang), w - 12)
    for i, part in enumerate(title):
        _text(draw, (x0 + 6, y0 + 2 + 26 * i), part, TEXT_MIN, w - 12, bold=bold)
    y = y0 + h - CHIP - 6
    draw.ellipse((x0 + w - 34, y, x0 + w - 6, y + 28), fill=(250, 214, 60), outline=INK)
    draw.text((x0 + w - 20, y + 15), str(D.PLACE_VP[box]), font=fonts.font(TEXT_MIN, True),
              fill=INK, anchor="mm")
    x = x0 + 6
    used = view["used"].get(box)
    for seat in range(view["n"]):
        count = view["on"][box][seat]
        if not count:
            continue
        label = str(count)
        if used is not None and used[seat]:
            label = f"{count - used[seat]}|{used[seat]}"
        x = _chip(draw, x, y, SEAT_COLOURS[seat % 3], label)


def _map(image: Image.Image, view: dict[str, Any], ctx: RenderContext, top: int) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, WIDTH, top + MAP_HEIGHT), fill=DESERT)
    draw.polygon([(WIDTH * 0.72, top + MAP_HEIGHT), (WIDTH, top + MAP_HEIGHT * 0.72),
                  (WIDTH, top + MAP_HEIGHT)], fill=SEA)
    draw.rectangle((0, top + 130, 16, top + 500), fill=SEA)
    _borders(draw, top)
    for rid in D.REGION_IDS:
        _region(draw, view, ctx, rid, top)
    for box in D.BOXES:
        _box(draw, view, ctx, box, top)
    _arrowheads(draw, top)


# -- empires and players ----------------------------------------------------------------------


def _empire_texts(view: dict[str, Any], ctx: RenderContext) -> list[tuple[str, int | None]]:
    """Per empire of the round: a line (its name and armies, then where it starts or who
    initiated it, with the equipment rank and amount) and the initiator's seat."""
    lang = ctx.lang
    rows = []
    for empire in D.empires_of(view["round"]):
        data = D.EMPIRES[empire]
        owner = view["empires"].get(empire)
        if owner is not None:
            where = tr(lang, "flood.render.empire_owner", who=player_name(ctx, owner),
                       rank=view["ranks"][owner] or "-", value=view["equip_values"][owner])
        elif data.in_sumer:
            where = tr(lang, "flood.render.any_sumer")
        else:
            where = ", ".join(translate(D.region_name(r), lang) for r in data.starts)
        rows.append((tr(lang, "flood.render.empire_line", empire=translate(
            D.empire_name(empire), lang), n=data.armies, where=where), owner))
    return rows


def _empires(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
             top: int) -> None:
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + EMPIRE_ROW - 8), 8,
                           fill=OUTER_FILL, outline=MUTED, width=2)
    for i, (line, owner) in enumerate(_empire_texts(view, ctx)):
        y = top + 6 + i * 36
        colour = SEAT_COLOURS[owner % 3] if owner is not None else None
        if colour is not None:
            draw.ellipse((MARGIN + 10, y + 5, MARGIN + 30, y + 25), fill=colour, outline=INK)
        _text(draw, (MARGIN + 40, y), line, TEXT_MIN, WIDTH - 2 * MARGIN - 50,
              fill=INK if owner is not None else MUTED, bold=owner is not None)


def _player_lines(view: dict[str, Any], ctx: RenderContext, seat: int) -> list[str]:
    """A player's workers (and cities), then armies (equipment, Passed box)."""
    lang = ctx.lang
    placed_w = sum(counts[seat] for counts in view["on"].values())
    placed_a = sum(counts[seat] for counts in view["troops"].values())
    workers = [tr(lang, "flood.render.workers", avail=view["workers"]["avail"][seat],
                  placed=placed_w, unavail=view["workers"]["unavail"][seat])]
    armies = [tr(lang, "flood.render.armies", avail=view["armies"]["avail"][seat],
                 placed=placed_a, unavail=view["armies"]["unavail"][seat])]
    cities = sum(1 for city in view["cities"].values() if city[0] == seat)
    workers.append(tr(lang, "flood.render.cities", n=cities, max=D.BASES))
    if view["ranks"][seat]:
        armies.append(tr(lang, "flood.render.equip", value=view["equip_values"][seat],
                         rank=view["ranks"][seat]))
    if seat in view["passed"]:
        armies.append(tr(lang, "flood.render.pass_box", value=view["pass_values"][seat]))
    return [" · ".join(workers), " · ".join(armies)]


def _players(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
             top: int) -> None:
    lang = ctx.lang
    deciding = None if view["phase"] == "over" else view["current"]
    for place, seat in enumerate(_seats(view)):
        y = top + place * PLAYER_ROW
        colour = SEAT_COLOURS[seat % 3]
        mine = seat == deciding
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + PLAYER_ROW - 8), 10,
                               fill=(255, 250, 228) if mine else (250, 245, 236),
                               outline=colour, width=5 if mine else 3)
        head = f"{'▶ ' if mine else ''}{place + 1}. {player_name(ctx, seat)}"
        passed = f" · {tr(lang, 'flood.render.passed')}" if seat in view["passed"] else ""
        score = tr(lang, "flood.render.vp", n=view["vp"][seat]) + passed
        _text(draw, (MARGIN + 12, y + 4), head, 26, 520, bold=True)
        face = fonts.font(26, True)
        draw.text((WIDTH - MARGIN - 14, y + 4), score, font=face, fill=INK, anchor="ra")
        x: float = MARGIN + 12
        line = y + 40
        if not _res_line(view, seat, lang):
            _text(draw, (x, line), tr(lang, "flood.render.no_goods"), TEXT_MIN, 400, MUTED)
        for res, count in _res_line(view, seat, lang):
            colour_r = RES_COLOURS.get(res, MUTED)
            draw.rectangle((x, line + 5, x + 18, line + 23), fill=colour_r, outline=INK)
            x += 22
            label = f"{translate(D.res_name(res), lang)} {count}"
            x += _text(draw, (x, line), label, TEXT_MIN, WIDTH - MARGIN - 12 - x) + 14
            if x > WIDTH - MARGIN - 60:
                break
        for i, text in enumerate(_player_lines(view, ctx, seat)):
            _text(draw, (MARGIN + 12, y + 74 + 34 * i), text, TEXT_MIN,
                  WIDTH - 2 * MARGIN - 24)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext) -> None:
    lang = ctx.lang
    title = tr(lang, "flood.render.header", round=view["round"], rounds=view["rounds"],
               phase=_phase(view, lang))
    width = _text(draw, (MARGIN, 10), title, 28, WIDTH * 0.62, bold=True)
    note = ""
    last = view.get("last")
    if last and "dice" in last:
        note = tr(lang, "flood.render.last_roll", dice="+".join(map(str, last["dice"])),
                  total=sum(last["dice"]), need=last["need"])
    elif view["cost_due"]:
        note = tr(lang, "flood.render.cost")
    if note:
        _text(draw, (MARGIN + width + 20, 12), note, TEXT_MIN, WIDTH - 2 * MARGIN - width - 20,
              fill=MUTED)


# -- text ---------------------------------------------------------------------------------


def _contents(view: dict[str, Any], ctx: RenderContext, rid: str) -> str:
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


def lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The view as lines of text (the terminal's board)."""
    lang = ctx.lang
    header = tr(lang, "flood.render.header", round=view["round"], rounds=view["rounds"],
                phase=_phase(view, lang))
    if view["phase"] != "over":
        header += " · " + tr(lang, "flood.render.deciding", who=player_name(ctx, view["current"]))
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
    out += [f"  {line}" for line, _ in _empire_texts(view, ctx)]
    deciding = None if view["phase"] == "over" else view["current"]
    for place, seat in enumerate(_seats(view)):
        mark = "▶" if seat == deciding else " "
        passed = f" · {tr(lang, 'flood.render.passed')}" if seat in view["passed"] else ""
        goods = ", ".join(f"{translate(D.res_name(r), lang)} {k}"
                          for r, k in _res_line(view, seat, lang)) or "-"
        out.append(f"{mark} {place + 1}. {player_name(ctx, seat)}: "
                   f"{tr(lang, 'flood.render.vp', n=view['vp'][seat])}{passed}")
        out.append(f"    {tr(lang, 'flood.render.resources')}: {goods}")
        out.append("    " + " · ".join(_player_lines(view, ctx, seat)))
    last = view.get("last")
    if last and "dice" in last:
        out.append(tr(lang, "flood.render.last_roll", dice="+".join(map(str, last["dice"])),
                      total=sum(last["dice"]), need=last["need"]))
    return out


class FloodRenderer(PictureRenderer):
    """The renderer of After the Flood (``render.context.Renderer``)."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        height = HEADER + MAP_HEIGHT + 10 + EMPIRE_ROW + view["n"] * PLAYER_ROW + MARGIN
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        _header(draw, view, ctx)
        _map(image, view, ctx, HEADER)
        top = HEADER + MAP_HEIGHT + 10
        _empires(draw, view, ctx, top)
        _players(draw, view, ctx, top + EMPIRE_ROW)
        return image

    def lines(self, view: dict[str, Any], ctx: RenderContext) -> list[str]:
        return lines(view, ctx)


RENDERER = FloodRenderer()
