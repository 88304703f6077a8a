"""The Civilizations pictures: the map of the six territories (public) and a player's hand.

Public image: a header (round, decks), the six territories (each civilization's
cards on the map by player, who controls it, a completed set), then one line per
player (points, completed sets, cards in hand) with a mark on whoever decides now.
A seat's view adds its hand grouped by civilization. Sizes are chosen for a phone,
where Discord shows the image about 400 px wide: no text under 24 px at 900 px.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.engine import Text
from bot.i18n import tr, translate
from render.context import RenderContext
from render.draw import Colour, PictureRenderer, fitted_text, legible, player_name

WIDTH = 900
MARGIN = 18
HEADER = 64
TERRITORY = (282, 200)
PLAYER_ROW = 84
HAND_ROW = 40
BACKGROUND: Colour = (244, 236, 220)
INK: Colour = (44, 34, 26)
MUTED: Colour = (120, 104, 88)
CIV_COLOURS: dict[str, Colour] = {
    "sumerians": (176, 118, 52), "babylonians": (46, 92, 160), "egyptians": (196, 160, 40),
    "greeks": (52, 128, 150), "persians": (128, 62, 120), "romans": (168, 48, 48),
}
SEAT_COLOURS: tuple[Colour, ...] = ((214, 69, 65), (52, 120, 200), (62, 150, 80),
                                    (230, 150, 40), (140, 80, 170), (90, 90, 90))
TEXT_MIN = legible(WIDTH)



def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
          width: float, fill: Colour = INK, bold: bool = False) -> float:
    """Draw ``value`` fitted into ``width`` (see :func:`render.draw.fitted_text`)."""
    return fitted_text(draw, xy, value, size, width, TEXT_MIN, fill, bold)


def _deciding(view: dict[str, Any]) -> list[int]:
    if view["over"]:
        return []
    pending = view["pending"]
    if view["step"] in ("trade", "buy") and pending is not None:
        return [pending["to"]]
    return [view["current"]]


def _territory(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
               civ: str, x: int, y: int) -> None:
    width, height = TERRITORY
    colour = CIV_COLOURS.get(civ, MUTED)
    draw.rounded_rectangle((x, y, x + width, y + height), 12, fill=(252, 248, 240),
                           outline=colour, width=4)
    draw.rounded_rectangle((x, y, x + width, y + 50), 12, fill=colour)
    _text(draw, (x + 12, y + 8), translate(Text.of(f"civsets.civ.{civ}"), ctx.lang), 30,
          width - 24, (255, 255, 255), bold=True)
    rows: dict[int, int] = {}
    for seat, _ in view["map"][civ]:
        rows[seat] = rows.get(seat, 0) + 1
    line = y + 60
    if civ in view["closed"]:
        owner = next(iter(rows), 0)
        _text(draw, (x + 12, line), "✓ " + tr(ctx.lang, "render.civsets.complete",
                                             name=player_name(ctx, owner)), 26, width - 24,
              bold=True)
        return
    if not rows:
        _text(draw, (x + 12, line), tr(ctx.lang, "render.civsets.free"), 26, width - 24, MUTED)
        return
    controller = view["controllers"].get(civ)
    for seat, count in sorted(rows.items(), key=lambda kv: -kv[1])[:3]:
        draw.rectangle((x + 12, line + 6, x + 32, line + 26), fill=SEAT_COLOURS[seat % 6])
        mark = "♛ " if seat == controller and len(rows) > 1 else ""
        _text(draw, (x + 40, line), f"{mark}{player_name(ctx, seat)}", 26, width - 120)
        _text(draw, (x + width - 72, line), f"{count}/12", 26, 64, bold=True)
        line += 42


def _players(draw: ImageDraw.ImageDraw, view: dict[str, Any], ctx: RenderContext,
             y: int) -> int:
    deciding = _deciding(view)
    column = (WIDTH - 2 * MARGIN) // 2
    for seat in range(view["n"]):
        x = MARGIN + (seat % 2) * column
        top = y + (seat // 2) * PLAYER_ROW
        fill = (255, 250, 228) if seat in deciding else (250, 245, 236)
        draw.rounded_rectangle((x, top, x + column - 10, top + PLAYER_ROW - 8), 10, fill=fill,
                               outline=SEAT_COLOURS[seat % 6], width=4 if seat in deciding
                               else 2)
        line = tr(ctx.lang, "render.civsets.player", points=view["points"][seat],
                  sets=len(view["sets"][seat]), cards=view["hand_sizes"][seat])
        arrow = "▶ " if seat in deciding else ""
        _text(draw, (x + 12, top + 6), f"{arrow}{player_name(ctx, seat)}", 26, column - 34,
              bold=True)
        _text(draw, (x + 12, top + 40), line, 24, column - 34)
    return y + ((int(view["n"]) + 1) // 2) * PLAYER_ROW


def _hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    hand = view.get("hand")
    if hand is None:
        return []
    by_civ: dict[str, list[str]] = {}
    for card in hand:
        civ = card.split("-")[0] if not card.startswith(("wild-", "bonus-")) else (
            card.split("-", 1)[1] if card.startswith("wild-") else "bonus")
        by_civ.setdefault(civ, []).append(
            translate(Text.of("civsets.card." + card.replace("-", "_")), lang))
    lines = [tr(lang, "render.civsets.hand", n=len(hand))]
    for civ, names in by_civ.items():
        title = tr(lang, "render.civsets.bonus") if civ == "bonus" else translate(
            Text.of(f"civsets.civ.{civ}"), lang)
        lines.append(f"{title} ×{len(names)}: {', '.join(names)}")
    return lines


def lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The view as lines of text (the terminal's board; a hand is in its player's prompt,
    so that it is shown once per decision)."""
    lang = ctx.lang
    out = [tr(lang, "render.civsets.header", round=view["round"], rounds=view["max_rounds"],
              deck=view["deck_size"], bonus=view["bonus_size"])]
    for civ, rows in view["map"].items():
        counts: dict[int, int] = {}
        for seat, _ in rows:
            counts[seat] = counts.get(seat, 0) + 1
        held = ", ".join(f"{player_name(ctx, s)} {c}" for s, c in counts.items()) or "-"
        done = " ✓" if civ in view["closed"] else ""
        out.append(f"  {translate(Text.of(f'civsets.civ.{civ}'), lang)}{done}: {held}")
    deciding = _deciding(view)
    for seat in range(view["n"]):
        mark = "▶" if seat in deciding else " "
        out.append(f"{mark} {player_name(ctx, seat)}: " + tr(
            lang, "render.civsets.player", points=view["points"][seat],
            sets=len(view["sets"][seat]), cards=view["hand_sizes"][seat]))
    return out


class CivilizationsRenderer(PictureRenderer):
    """The renderer of Civilizations (``render.context.Renderer``)."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        hand = _hand_lines(view, ctx.lang)
        players_height = ((view["n"] + 1) // 2) * PLAYER_ROW
        height = (HEADER + 2 * (TERRITORY[1] + 12) + players_height + 2 * MARGIN
                  + (len(hand) * HAND_ROW + 20 if hand else 0))
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        header = tr(ctx.lang, "render.civsets.header", round=view["round"],
                    rounds=view["max_rounds"], deck=view["deck_size"], bonus=view["bonus_size"])
        _text(draw, (MARGIN, 14), header, 32, WIDTH - 2 * MARGIN, bold=True)
        for i, civ in enumerate(view["map"]):
            x = MARGIN + (i % 3) * (TERRITORY[0] + 9)
            y = HEADER + (i // 3) * (TERRITORY[1] + 12)
            _territory(draw, view, ctx, civ, x, y)
        y = _players(draw, view, ctx, HEADER + 2 * (TERRITORY[1] + 12) + 6)
        if hand:
            y += 12
            draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=MUTED, width=2)
            for i, line in enumerate(hand):
                _text(draw, (MARGIN, y + 10 + i * HAND_ROW), line, 26 if i else 28,
                      WIDTH - 2 * MARGIN, bold=i == 0)
        return image

    def lines(self, view: dict[str, Any], ctx: RenderContext) -> list[str]:
        return lines(view, ctx)


RENDERER = CivilizationsRenderer()
