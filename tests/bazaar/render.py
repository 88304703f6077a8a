"""Bazaar's picture and text board: a plain list of what the view holds.

The test game needs a renderer like any game (turn messages, panels, the replay at
the end); it draws the view's facts as lines of text, the seat's own goods among
them when the view is a seat's.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.engine import Text
from bot.i18n import tr, translate
from render import fonts
from render.context import RenderContext
from render.draw import png_bytes

WIDTH, LINE = 800, 34


def lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The facts of ``view``, one a line, in the reader's language."""
    lang = ctx.lang
    out = [tr(lang, "bazaar.board.header", round=view["round"], rounds=view["rounds"],
              deck=view["deck_size"])]
    for seat in range(view["n"]):
        mark = "▶" if seat == view["current"] and view["phase"] != "auction" else " "
        out.append(tr(lang, "bazaar.board.player", mark=mark, name=ctx.names[seat],
                      coins=view["coins"][seat], relics=view["relics"][seat],
                      goods=view["hand_sizes"][seat]))
    if view["phase"] == "auction":
        out.append(tr(lang, "bazaar.board.auction", lot=view["lot"],
                      done=sum(view["bids_in"]), n=view["n"]))
    if view["quiz"] is not None and view["phase"] == "quiz":
        out.append(tr(lang, "bazaar.prompt.quiz", a=view["quiz"]["a"], b=view["quiz"]["b"]))
    if "hand" in view:
        goods = tuple(Text.of(f"bazaar.good.{g}") for g in view["hand"])
        out.append(translate(Text.of("bazaar.prompt.hand", goods=goods), lang))
    return out


class BazaarRenderer:
    """The renderer of :mod:`tests.bazaar.engine` (``render.context.Renderer``)."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        rows = lines(view, ctx)
        image = Image.new("RGB", (WIDTH, 20 + LINE * len(rows)), (250, 244, 230))
        draw = ImageDraw.Draw(image)
        font = fonts.font(24)
        for i, row in enumerate(rows):
            draw.text((16, 10 + i * LINE), row, fill=(40, 30, 20), font=font)
        return image

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        return png_bytes(self.image(view, ctx).convert("L"), compress_level=1)

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        return "\n".join(lines(view, ctx))


RENDERER = BazaarRenderer()
