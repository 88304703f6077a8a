"""The Civilizations pictures: the map of the six territories (public) and a player's hand.

The public image is a board: a header (round, decks), a map of the ancient world (sea,
land, the six territories where they lie, each with its twelve numbered card spaces,
filled in the colour of the player whose card lies there, a star for a deity wild card;
who controls it, or who completed it), a line on what the last turn did (its cards
framed in yellow on the map), then one panel per player (points, completed sets, cards in
hand) with a mark on whoever decides now, or on the winners. A seat's view adds its hand,
grouped by civilization.

Made to be read on a phone, where Discord shows the image about 400 px wide: no text under
:data:`TEXT` (``render.draw.legible``). Fast path: the static layer (background, map, card
spaces, names) is drawn once per language and player rows; the pieces of a view (cards,
texts, panels) are drawn once each on their background in one fixed palette
(:class:`render.draw.Pieces`) and pasted on a copy of it; the PNG is indexed, level 1.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from bot.engine import Text
from bot.i18n import tr, translate
from render import fonts
from render.context import RenderContext
from render.draw import (
    Colour,
    Pieces,
    fixed_palette,
    legible,
    mix,
    player_name,
    smooth,
)
from render.png import IndexedRenderer

WIDTH = 800
TEXT = legible(WIDTH)
"""The smallest text: 10 px once the image is shown 400 px wide."""
NAME_TEXT = TEXT + 2
MARGIN = 10
HEADER = 50
MAP_TOP, MAP_HEIGHT = HEADER, 420
STRIP_TOP, STRIP_HEIGHT = MAP_TOP + MAP_HEIGHT + 4, 58
PLAYERS_TOP = STRIP_TOP + STRIP_HEIGHT + 6
COLUMNS = 3
PANEL = ((WIDTH - 2 * MARGIN - (COLUMNS - 1) * 8) // COLUMNS, 94)
PANEL_STEP = PANEL[1] + 6
HAND_ROW = 28
LEGEND = 34
SLOT = (28, 34)
SLOT_GAP = 4
GRID = (4 * SLOT[0] + 3 * SLOT_GAP, 3 * SLOT[1] + 2 * SLOT_GAP)
BLOCK = (170, 28 + 4 + GRID[1] + 4 + 26)
"""A territory's name banner, its card spaces and its status line."""
SET_SIZE = 12

PAPER: Colour = (244, 236, 220)
INK: Colour = (44, 34, 26)
MUTED: Colour = (110, 94, 78)
WHITE: Colour = (255, 255, 255)
SEA: Colour = (170, 204, 214)
WAVE: Colour = (132, 174, 192)
LAND: Colour = (228, 212, 174)
COAST: Colour = (170, 146, 104)
STRIP: Colour = (236, 226, 204)
PANEL_FILL: Colour = (250, 246, 238)
ACTIVE_FILL: Colour = (255, 244, 204)
HIGHLIGHT: Colour = (250, 204, 40)
HIGHLIGHT_EDGE: Colour = (130, 96, 0)
GOLD: Colour = (200, 156, 40)
CIV_COLOURS: dict[str, Colour] = {
    "sumerians": (176, 110, 44), "babylonians": (46, 92, 160), "egyptians": (176, 140, 20),
    "greeks": (40, 120, 140), "persians": (128, 62, 120), "romans": (168, 48, 48),
}
SEAT_COLOURS: tuple[Colour, ...] = ((214, 69, 65), (52, 110, 200), (52, 140, 72),
                                    (226, 140, 30), (140, 80, 170), (80, 80, 80))

BLOCKS: dict[str, tuple[int, int]] = {
    "romans": (26, 16), "greeks": (226, 16), "babylonians": (436, 16),
    "persians": (620, 124), "egyptians": (156, 236), "sumerians": (426, 236),
}
"""The top-left corner of each territory's block on the map (west to east, north to
south, roughly where each civilization lay)."""
LANDS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (410, 0), (414, 60), (392, 150), (404, 204), (300, 214), (220, 206),
     (130, 212), (40, 200), (0, 196)),                                  # Europe
    ((410, 0), (800, 0), (800, 420), (706, 420), (676, 376), (624, 332), (602, 226),
     (414, 226), (404, 204), (392, 150), (414, 60)),                    # Asia
    ((96, 420), (104, 300), (140, 232), (250, 224), (330, 230), (404, 226), (414, 226),
     (412, 420)),                                                       # Africa
)
RIVERS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((340, 420), (336, 360), (344, 300), (334, 240), (340, 228)),        # Nile
    ((420, 60), (410, 130), (418, 200), (420, 230), (410, 300), (420, 380), (440, 420)),
    ((612, 40), (604, 110), (606, 200), (606, 228), (618, 300), (640, 350)),
)
"""The Nile, the Euphrates and the Tigris."""
GULF = ((612, 420), (626, 366), (676, 380), (706, 420))


def _deciding(view: dict[str, Any]) -> list[int]:
    if view["over"]:
        return []
    pending = view["pending"]
    if view["step"] in ("trade", "buy", "sale") and pending is not None:
        return [pending["to"]]
    return [view["current"]]


def _winners(view: dict[str, Any]) -> list[int]:
    """The seats ranked first (most sets, then most points) once the game is over."""
    if not view["over"]:
        return []
    keys = [(len(view["sets"][s]), view["points"][s]) for s in range(view["n"])]
    return [s for s in range(view["n"]) if keys[s] == max(keys)]


def _civ(card: str) -> str:
    """The civilization a card counts for, or ``bonus``."""
    if card.startswith("wild-"):
        return card.split("-", 1)[1]
    return "bonus" if card.startswith("bonus-") else card.split("-")[0]


def _number(card: str) -> int:
    """The number (1-12) of a Civilization card."""
    return int(card.rsplit("-", 1)[1])


def _spaces(rows: list[list[Any]]) -> dict[int, tuple[int, str]]:
    """Which card space (1-12) each placed card fills: its own number, and a wild card the
    first space left empty (it stands for a missing card): space -> (seat, card)."""
    filled = {_number(card): (seat, card) for seat, card in rows if not card.startswith("wild-")}
    for seat, card in rows:
        if card.startswith("wild-"):
            free = next((k for k in range(1, SET_SIZE + 1) if k not in filled), None)
            if free is not None:
                filled[free] = (seat, card)
    return filled


def _tint(civ: str) -> Colour:
    return mix(CIV_COLOURS[civ], LAND, 0.72)


def _territory_shape(civ: str) -> list[tuple[float, float]]:
    """The outline of a territory around its block: a rounded shape with irregular edges
    (the same every time)."""
    x, y = BLOCKS[civ]
    w, h = BLOCK
    cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2 + 14, h / 2 + 12
    seed = sum(map(ord, civ))
    points = []
    for k in range(24):
        angle = 2 * math.pi * k / 24
        wobble = 1 + 0.05 * math.sin(3 * angle + seed) + 0.03 * math.cos(5 * angle + seed)
        ax, ay = math.cos(angle), math.sin(angle)
        scale = 1 / max(abs(ax) ** 4 + abs(ay) ** 4, 1e-9) ** 0.25      # a squircle
        points.append((cx + rx * ax * scale * wobble, MAP_TOP + cy + ry * ay * scale * wobble))
    return points


def _static(lang: str, rows: int) -> Image.Image:
    """The layer every public picture of ``lang`` with ``rows`` rows of players shares:
    paper, header band, map (sea, land, rivers, territories, names, empty card spaces),
    the band of the last turn and the players' area."""
    legend_top = PLAYERS_TOP + rows * PANEL_STEP
    height = legend_top + LEGEND
    image = Image.new("RGB", (WIDTH, height), PAPER)

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        def pts(points: Any, dy: float = MAP_TOP) -> list[tuple[float, float]]:
            return [(px * k, (py + dy) * k) for px, py in points]

        d.rectangle((0, MAP_TOP * k, WIDTH * k, (MAP_TOP + MAP_HEIGHT) * k), fill=SEA)
        for wx, wy in ((40, 250), (90, 330), (40, 390), (450, 214), (200, 216), (700, 400)):
            for dx in (0, 14):
                d.arc(((wx + dx) * k, (MAP_TOP + wy) * k, (wx + dx + 14) * k,
                       (MAP_TOP + wy + 10) * k), 200, 340, fill=WAVE, width=round(2 * k))
        for land in LANDS:
            d.polygon(pts(land), fill=LAND, outline=COAST, width=round(2 * k))
        d.polygon(pts(GULF), fill=SEA)
        for river in RIVERS:
            d.line(pts(river), fill=WAVE, width=round(4 * k), joint="curve")
        for civ in BLOCKS:
            d.polygon(pts(_territory_shape(civ), 0), fill=_tint(civ),
                      outline=CIV_COLOURS[civ], width=round(3 * k))
        d.rectangle((0, STRIP_TOP * k, WIDTH * k, (STRIP_TOP + STRIP_HEIGHT) * k), fill=STRIP)

    image.paste(smooth((WIDTH, height), paint, PAPER), (0, 0))
    draw = ImageDraw.Draw(image)
    for civ, (x, y) in BLOCKS.items():
        top = MAP_TOP + y
        name = translate(Text.of(f"civsets.civ.{civ}"), lang)
        shown, size = fonts.fit(name, BLOCK[0] - 12, NAME_TEXT, TEXT, True)
        width = fonts.font(size, True).getlength(shown)
        draw.rounded_rectangle((x - 2, top, x + width + 12, top + 28), 6, fill=CIV_COLOURS[civ])
        draw.text((x + 5, top + 14), shown, font=fonts.font(size, True), fill=WHITE, anchor="lm")
        for number in range(1, SET_SIZE + 1):
            sx, sy = _slot_xy(civ, number)
            draw.rounded_rectangle((sx, sy, sx + SLOT[0] - 1, sy + SLOT[1] - 1), 4,
                                   fill=mix(_tint(civ), WHITE, 0.45),
                                   outline=mix(CIV_COLOURS[civ], LAND, 0.3))
            draw.text((sx + SLOT[0] / 2, sy + SLOT[1] / 2), str(number),
                      font=fonts.font(TEXT), fill=mix(MUTED, WHITE, 0.25), anchor="mm")
    _legend(image, lang, legend_top)
    return image


def _legend(image: Image.Image, lang: str, top: int) -> None:
    """What the marks of the map mean, on one line."""
    draw = ImageDraw.Draw(image)
    x = float(MARGIN)
    sample = _card_art("romans", 0, "", True)
    for key in ("last_turn", "wild", "control", "contest", "complete"):
        if key == "last_turn":
            image.paste(sample.resize((SLOT[0] * 2 // 3, SLOT[1] * 2 // 3)), (round(x), top + 4))
            x += SLOT[0] * 2 // 3 + 4
        text = tr(lang, f"render.civsets.legend.{key}")
        draw.text((x, top + 16), text, font=fonts.font(TEXT), fill=MUTED, anchor="lm")
        x += fonts.font(TEXT).getlength(text) + 18


def _slot_xy(civ: str, number: int) -> tuple[int, int]:
    """The top-left corner of card space ``number`` (1-12) of a territory."""
    x, y = BLOCKS[civ]
    col, row = (number - 1) % 4, (number - 1) // 4
    return x + col * (SLOT[0] + SLOT_GAP), MAP_TOP + y + 32 + row * (SLOT[1] + SLOT_GAP)


def _card_art(civ: str, seat: int, label: str, framed: bool) -> Image.Image:
    """A card lying in its space: the player's colour, its number (or a star), a yellow
    frame if it came in the last turn."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        w, h = SLOT[0] * k, SLOT[1] * k
        if framed:
            d.rounded_rectangle((0, 0, w - 1, h - 1), 5 * k, fill=HIGHLIGHT_EDGE)
            d.rounded_rectangle((k, k, w - 1 - k, h - 1 - k), 5 * k, fill=HIGHLIGHT)
            d.rounded_rectangle((5 * k, 5 * k, w - 1 - 5 * k, h - 1 - 5 * k), 3 * k,
                                fill=colour)
        else:
            d.rounded_rectangle((0, 0, w - 1, h - 1), 4 * k, fill=colour,
                                outline=mix(colour, INK, 0.5), width=round(k))

    image = smooth(SLOT, paint, mix(_tint(civ), WHITE, 0.45))
    ImageDraw.Draw(image).text((SLOT[0] / 2, SLOT[1] / 2 + 1), label,
                               font=fonts.font(TEXT, True), fill=WHITE, anchor="mm")
    return image


def _panel_art(seat: int, state: str) -> Image.Image:
    """A player's panel frame: its colour band and border, bright for whoever decides now,
    golden for a winner."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    fill = PANEL_FILL if state == "idle" else ACTIVE_FILL
    edge = {"idle": mix(colour, PAPER, 0.4), "active": colour, "winner": GOLD}[state]
    border = 2 if state == "idle" else 4

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        w, h = PANEL[0] * k, PANEL[1] * k
        d.rounded_rectangle((0, 0, w - 1, h - 1), 10 * k, fill=edge)
        d.rounded_rectangle((border * k, border * k, w - 1 - border * k, h - 1 - border * k),
                            8 * k, fill=fill)
        d.rounded_rectangle((border * k, border * k, (border + 8) * k, h - 1 - border * k),
                            4 * k, fill=colour)

    return smooth(PANEL, paint, PAPER)


def _panel_state(view: dict[str, Any], seat: int) -> str:
    if view["over"]:
        return "winner" if seat in _winners(view) else "idle"
    return "active" if seat in _deciding(view) else "idle"


def _events(view: dict[str, Any]) -> tuple[int | None, list[dict[str, Any]], bool]:
    """Whose turn to tell, its public events, and whether it is the turn under way."""
    if view.get("turn_log"):
        return view["current"], view["turn_log"], True
    last = view.get("last_turn")
    if last:
        return last["seat"], last["events"], False
    return None, [], False


def _fresh_cards(view: dict[str, Any]) -> set[str]:
    """The cards placed or sold on the map during the turn the board tells of."""
    _, events, _ = _events(view)
    return {card for event in events for card in event.get("cards", ())}


def event_text(event: dict[str, Any], ctx: RenderContext) -> str:
    """One event of a turn in a few words ("placed 4 Greek cards", "challenged Bob:
    Sappho ✓")."""
    lang, kind = ctx.lang, event["kind"]
    who = player_name(ctx, event["to"]) if event.get("to") is not None else ""
    if kind in ("place", "wild"):
        n = len(event["cards"])
        adj = translate(Text.of(f"civsets.adj.{event['civ']}", n=n), lang)
        return tr(lang, f"render.civsets.did.{kind}", n=n, adj=adj,
                  territory=translate(Text.of(f"civsets.territory.{event['civ']}"), lang))
    if kind == "challenge":
        card = translate(Text.of("civsets.card." + event["card"].replace("-", "_")), lang)
        mark = "✓" if event["right"] else "✗"
        return tr(lang, "render.civsets.did.challenge", who=who, card=card, mark=mark)
    if kind == "bonus":
        card = translate(Text.of("civsets.card." + event["card"].replace("-", "_")), lang)
        return tr(lang, "render.civsets.did.bonus", card=card)
    if kind in ("trade", "buy", "sale"):
        done = "done" if event["done"] else "refused"
        return tr(lang, f"render.civsets.did.{kind}_{done}", who=who)
    return tr(lang, "render.civsets.did.draw")


def _wrapped(parts: list[str], width: float, lines: int) -> Iterator[str]:
    """``parts`` joined by " · " into at most ``lines`` lines of ``width`` px at the
    smallest text size; what does not fit ends the last line with "…"."""
    face = fonts.font(TEXT)
    line = ""
    made = 0
    for part in parts:
        candidate = f"{line} · {part}" if line else part
        if face.getlength(candidate) <= width or not line:
            line = candidate
            continue
        made += 1
        if made == lines:
            yield line + " …"
            return
        yield line
        line = part
    if line:
        yield line


def _hand_lines(view: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """A seat's hand as (civilization or ``bonus``, line), by civilization."""
    hand = view.get("hand")
    if hand is None:
        return []
    by_civ: dict[str, list[str]] = {}
    order = [*view["map"], "bonus"]
    for card in sorted(hand, key=lambda c: (order.index(_civ(c)), c)):
        name = translate(Text.of("civsets.card." + card.replace("-", "_")), lang)
        by_civ.setdefault(_civ(card), []).append(("★ " if card.startswith("wild-") else "")
                                                  + name)
    lines = []
    for civ, names in by_civ.items():
        title = tr(lang, "render.civsets.bonus") if civ == "bonus" else translate(
            Text.of(f"civsets.civ.{civ}"), lang)
        lines.append((civ, tr(lang, "render.civsets.hand_line", civ=title, n=len(names),
                              cards=", ".join(names))))
    return lines


class _Painter:
    """Composes pictures from the cached static layers and pieces (indexed in one palette,
    or RGB without one)."""

    def __init__(self, palette: Image.Image | None) -> None:
        self.pieces = Pieces(palette)

    def compose(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        rows = (view["n"] + COLUMNS - 1) // COLUMNS
        static = self.pieces.piece(("static", ctx.lang, rows), lambda: _static(ctx.lang, rows))
        hand = _hand_lines(view, ctx.lang)
        if hand:
            height = static.height + HAND_ROW * (len(hand) + 1) + 16
            canvas = self.pieces.piece(("paper", height),
                                       lambda: Image.new("RGB", (WIDTH, height), PAPER)).copy()
            canvas.paste(static, (0, 0))
        else:
            canvas = static.copy()
        self.header(canvas, view, ctx)
        fresh = _fresh_cards(view)
        for civ, cards in view["map"].items():
            self.territory(canvas, view, ctx, civ, cards, fresh)
        self.last_turn(canvas, view, ctx)
        for seat in range(view["n"]):
            self.player(canvas, view, ctx, seat)
        if hand:
            self.hand(canvas, hand, static.height, len(view["hand"]), ctx.lang)
        return canvas

    def header(self, canvas: Image.Image, view: dict[str, Any], ctx: RenderContext) -> None:
        lang = ctx.lang
        title = tr(lang, "render.civsets.title", round=view["round"], rounds=view["max_rounds"])
        decks = tr(lang, "render.civsets.decks", deck=view["deck_size"],
                   bonus=view["bonus_size"])
        used = self.pieces.text(canvas, (WIDTH - MARGIN, HEADER / 2), decks, TEXT,
                                WIDTH / 2, TEXT, MUTED, PAPER, anchor="rm")
        self.pieces.text(canvas, (MARGIN, HEADER / 2), title, TEXT + 6,
                         WIDTH - 3 * MARGIN - used, TEXT, INK, PAPER, bold=True, anchor="lm")

    def territory(self, canvas: Image.Image, view: dict[str, Any], ctx: RenderContext,
                  civ: str, rows: list[list[Any]], fresh: set[str]) -> None:
        for number, (seat, card) in _spaces(rows).items():
            label = "★" if card.startswith("wild-") else str(number)
            framed = card in fresh
            self.pieces.paste(canvas, ("card", civ, seat, label, framed),
                              partial(_card_art, civ, seat, label, framed),
                              _slot_xy(civ, number))
        x, y = BLOCKS[civ]
        top = MAP_TOP + y + 32 + GRID[1] + 4
        line, ink = self.status(view, ctx, civ, rows)
        self.pieces.text(canvas, (x, top), line, TEXT, BLOCK[0] + 8, TEXT, ink, _tint(civ),
                         bold=civ in view["closed"])

    @staticmethod
    def status(view: dict[str, Any], ctx: RenderContext, civ: str,
               rows: list[list[Any]]) -> tuple[str, Colour]:
        """The line under a territory: who completed it, who controls it (and whether
        others contest it), or that it is free."""
        lang = ctx.lang
        owners = list(dict.fromkeys(seat for seat, _ in rows))
        if civ in view["closed"]:
            return "✓ " + player_name(ctx, owners[0]), INK
        controller = view["controllers"].get(civ)
        if controller is None:
            return tr(lang, "render.civsets.free"), MUTED
        mark = "⚔ " if len(owners) > 1 else ""
        return f"{mark}♛ {player_name(ctx, controller)}", INK

    def last_turn(self, canvas: Image.Image, view: dict[str, Any], ctx: RenderContext) -> None:
        seat, events, current = _events(view)
        if seat is None:
            return
        key = "render.civsets.this_turn" if current else "render.civsets.last_turn"
        told = [event_text(e, ctx) for e in events] or [tr(ctx.lang, "render.civsets.did.nothing")]
        parts = [f"{tr(ctx.lang, key, name=player_name(ctx, seat))} {told[0]}", *told[1:]]
        for i, line in enumerate(_wrapped(parts, WIDTH - 2 * MARGIN, 2)):
            self.pieces.text(canvas, (MARGIN, STRIP_TOP + 4 + i * 26), line, TEXT,
                             WIDTH - 2 * MARGIN, TEXT, INK, STRIP)

    def player(self, canvas: Image.Image, view: dict[str, Any], ctx: RenderContext,
               seat: int) -> None:
        state = _panel_state(view, seat)
        x = MARGIN + (seat % COLUMNS) * (PANEL[0] + 8)
        y = PLAYERS_TOP + (seat // COLUMNS) * PANEL_STEP
        self.pieces.paste(canvas, ("panel", seat, state), lambda: _panel_art(seat, state),
                          (x, y))
        fill = PANEL_FILL if state == "idle" else ACTIVE_FILL
        mark = {"idle": "", "active": "▶ ", "winner": "★ "}[state]
        self.pieces.text(canvas, (x + 18, y + 6), mark + player_name(ctx, seat), NAME_TEXT,
                         PANEL[0] - 28, TEXT, INK, fill, bold=True)
        sets = len(view["sets"][seat])
        score = tr(ctx.lang, "render.civsets.score", points=view["points"][seat], sets=sets,
                   n=sets)
        cards = tr(ctx.lang, "render.civsets.cards", n=view["hand_sizes"][seat])
        self.pieces.text(canvas, (x + 18, y + 36), score, TEXT, PANEL[0] - 28, TEXT, INK, fill,
                         bold=sets > 0)
        self.pieces.text(canvas, (x + 18, y + 62), cards, TEXT, PANEL[0] - 28, TEXT, MUTED,
                         fill)

    def hand(self, canvas: Image.Image, lines: list[tuple[str, str]], top: int, n: int,
             lang: str) -> None:
        self.pieces.text(canvas, (MARGIN, top + 6), tr(lang, "render.civsets.hand", n=n),
                         NAME_TEXT, WIDTH - 2 * MARGIN, TEXT, INK, PAPER, bold=True)
        for i, (civ, line) in enumerate(lines, 1):
            y = top + 8 + i * HAND_ROW
            colour = CIV_COLOURS.get(civ, MUTED)
            self.pieces.paste(canvas, ("mark", colour), partial(_mark, colour),
                              (MARGIN, y + 4))
            self.pieces.text(canvas, (MARGIN + 20, y), line, TEXT, WIDTH - 2 * MARGIN - 20,
                             TEXT, INK, PAPER)


def _mark(colour: Colour) -> Image.Image:
    """A civilization's colour before a line of the hand."""
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        d.rounded_rectangle((0, 0, 12 * k - 1, 16 * k - 1), 3 * k, fill=colour)

    return smooth((12, 16), paint, PAPER)


def lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The view as lines of text (the terminal's board; a hand is in its player's prompt,
    so that it is shown once per decision)."""
    lang = ctx.lang
    out = [tr(lang, "render.civsets.title", round=view["round"], rounds=view["max_rounds"])
           + " · " + tr(lang, "render.civsets.decks", deck=view["deck_size"],
                        bonus=view["bonus_size"])]
    for civ, rows in view["map"].items():
        counts: dict[int, int] = {}
        for seat, _ in rows:
            counts[seat] = counts.get(seat, 0) + 1
        held = ", ".join(f"{player_name(ctx, s)} {c}" for s, c in counts.items()) or "-"
        done = " ✓" if civ in view["closed"] else ""
        out.append("  " + tr(lang, "render.civsets.text_territory", held=held,
                             civ=translate(Text.of(f"civsets.civ.{civ}"), lang) + done))
    deciding = _deciding(view)
    for seat in range(view["n"]):
        sets = len(view["sets"][seat])
        out.append(tr(lang, "render.civsets.text_player", mark="▶" if seat in deciding else " ",
                      name=player_name(ctx, seat), cards=tr(
                          lang, "render.civsets.cards", n=view["hand_sizes"][seat]),
                      score=tr(lang, "render.civsets.score", points=view["points"][seat],
                               sets=sets, n=sets)))
    return out


def sample_view() -> dict[str, Any]:
    """A busy six-player view: every colour on the map, a completed set, a contest, the
    last turn's cards, a hand (the palette's sample)."""
    civs = list(BLOCKS)
    board: dict[str, list[list[Any]]] = {civ: [] for civ in civs}
    for i, civ in enumerate(civs):
        for number in range(1, 12 - i):
            board[civ].append([(number + i) % 6, f"{civ}-{number:02d}"])
        board[civ].append([i, f"wild-{civ}"])
    hand = [f"{civ}-12" for civ in civs] + ["bonus-spy", "wild-greeks"]
    return {
        "n": 6, "points": [350, 1200, 90, 640, 20, 5000], "sets": [["greeks"], [], [], [],
                                                                   [], []],
        "closed": ["greeks"], "map": board, "round": 12, "max_rounds": 30, "turn": 70,
        "current": 2, "step": "act", "pending": None, "over": False, "deck_size": 0,
        "bonus_size": 3, "hand_sizes": [9, 12, 3, 7, 0, 14],
        "controllers": {civ: i % 6 for i, civ in enumerate(civs)},
        "turn_log": [], "last_turn": {"seat": 1, "events": [
            {"kind": "place", "civ": "romans", "cards": ["romans-01", "romans-02"]},
            {"kind": "challenge", "to": 3, "card": "greeks-03", "right": True}]},
        "hand": hand,
    }


class CivilizationsRenderer(IndexedRenderer):
    """The renderer of Civilizations (``render.context.Renderer``); safe to share between
    threads."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._painter: _Painter | None = None

    def indexed(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as an indexed picture in the renderer's palette."""
        with self._lock:
            if self._painter is None:
                self._painter = _Painter(_palette())
            return self._painter.compose(view, ctx)

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        """The board as lines of text."""
        return "\n".join(lines(view, ctx))


SAMPLE_NAMES = ("Ninsun", "Gilgamesh", "Enkidu", "Shamhat", "Utnapishtim", "Siduri")


def _palette() -> Image.Image:
    """Every design colour exactly (the paper first), then the best others of a busy
    sample drawn in RGB."""
    base = [PAPER, INK, MUTED, WHITE, SEA, WAVE, LAND, COAST, STRIP, PANEL_FILL, ACTIVE_FILL,
            HIGHLIGHT, HIGHLIGHT_EDGE, GOLD, *CIV_COLOURS.values(), *SEAT_COLOURS,
            *(_tint(civ) for civ in CIV_COLOURS),
            *(mix(_tint(civ), WHITE, 0.45) for civ in CIV_COLOURS)]
    sample = _Painter(None).compose(sample_view(), RenderContext(SAMPLE_NAMES))
    return fixed_palette(sample, base)


RENDERER = CivilizationsRenderer()
