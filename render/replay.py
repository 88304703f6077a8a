"""The animated replay of a finished game: one frame per turn, as a GIF small enough to
post."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Protocol

from PIL import Image

from render.context import RenderContext

WIDTHS = (640, 480, 360, 240)
"""Frame widths tried in turn until the animation fits under the upload limit."""
FRAME_MS, LAST_FRAME_MS = 700, 4000
MAX_FRAMES = 150
"""Frames of one animation at most (105 s): a longer game shows turns evenly spaced,
with its first and last."""


class Drawer(Protocol):
    """A renderer that can draw a view as a picture."""

    def image(self, view: Any, ctx: RenderContext) -> Image.Image: ...


def spaced(items: Sequence[Any], most: int = MAX_FRAMES) -> list[Any]:
    """At most ``most`` of ``items``, evenly spaced, the first and the last kept."""
    if len(items) <= most:
        return list(items)
    last = len(items) - 1
    return [items[round(i * last / (most - 1))] for i in range(most)]


def replay_gif(renderer: Drawer, views: Sequence[Any], ctx: RenderContext,
               limit: int) -> bytes | None:
    """An animated GIF of ``views`` (one frame each, at most :data:`MAX_FRAMES`) of at
    most ``limit`` bytes, or None when even the narrowest frames do not fit.

    Frames are shrunk and mapped to the palette of the final board as they are drawn
    (little memory); without dithering the encoder stores only what changed each turn.
    """
    shown = spaced(views)
    for width in WIDTHS:
        def shrink(view: Any, width: int = width) -> Image.Image:
            board = renderer.image(view, ctx).convert("RGB")
            height = max(1, round(board.height * width / board.width))
            return board.resize((width, height), Image.Resampling.BILINEAR)

        palette = shrink(shown[-1]).quantize(256, method=Image.Quantize.MEDIANCUT)
        frames = [shrink(v).quantize(palette=palette, dither=Image.Dither.NONE) for v in shown]
        out = io.BytesIO()
        durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                       duration=durations, loop=0)
        if out.tell() <= limit:
            return out.getvalue()
    return None
