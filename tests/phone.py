"""Pictures as a phone shows them (about 400 px wide): the smallest text a renderer draws."""

from __future__ import annotations

from typing import Any

import pytest

from render import fonts
from render.draw import PHONE_TEXT as MIN_PHONE_TEXT
from render.draw import PHONE_WIDTH as PHONE

__all__ = ["MIN_PHONE_TEXT", "PHONE", "font_sizes"]


def font_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every font size the renderers ask for from now on (the list fills as they draw)."""
    sizes: list[int] = []
    original = fonts.font

    def font(size: int, bold: bool = False) -> Any:
        sizes.append(size)
        return original(size, bold)

    monkeypatch.setattr(fonts, "font", font)
    return sizes
