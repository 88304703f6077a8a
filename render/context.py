"""What every renderer receives besides the view, and the renderer contract."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image


@dataclass(frozen=True)
class RenderContext:
    """Display facts the engine does not know: seat names and the reader's language."""

    names: tuple[str, ...]
    lang: str = "en"


class Renderer(Protocol):
    """Draws one game's view (the public one, or what a seat may see).

    Optional, looked up with ``getattr`` (a renderer without it behaves as before):
    ``details(view, ctx) -> list[tuple[str, bytes]]``, more pictures for the turn message,
    each a file name and PNG bytes, attached after the board (zoomed parts of a big map).
    """

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as a Pillow image (used for replay animations)."""
        ...

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The board as PNG bytes, on the fast path (cached static layer)."""
        ...

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        """The board as a few lines of text (terminal play)."""
        ...
