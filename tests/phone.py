"""Pictures as a phone shows them (about 400 px wide): the smallest text a renderer draws."""

from __future__ import annotations

from typing import Any

import pytest

from render import fonts

PHONE = 400
"""Pixels a phone gives an image's width."""
MIN_PHONE_TEXT = 10.0
"""The smallest text height, in those pixels, a player can read."""


def font_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every font size the renderers ask for from now on (the list fills as they draw)."""
    sizes: list[int] = []
    original = fonts.font

    def font(size: int, bold: bool = False) -> Any:
        sizes.append(size)
        return original(size, bold)

    monkeypatch.setattr(fonts, "font", font)
    return sizes
