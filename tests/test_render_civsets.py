"""The Civilizations pictures: within the size limits, readable on a phone, a hand only in
its player's picture."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.games.civsets.engine import GAME
from render import civsets as picture
from render.context import RenderContext
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

"""Smallest text allowed, in pixels once the image is shown PHONE pixels wide."""


def states(players: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    state = GAME.setup(seed, players, {})
    found = [state]
    while GAME.outcome(state) is None:
        seat = GAME.active(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
        if rng.random() < 0.02:
            found.append(state)
    return [*found, state]


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_view_is_small_and_readable_on_a_phone(players: int, lang: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = font_sizes(monkeypatch)
    names = ("A very long player name indeed", "Bob", "Cid", "Dee", "Éloïse", "Fatima")
    ctx = RenderContext(names[:players], lang)
    for state in states(players):
        for seat in (None, 0):
            png = picture.RENDERER.png(GAME.view(state, seat), ctx)
            width, _ = Image.open(io.BytesIO(png)).size
            assert len(png) <= 100_000 and width == picture.WIDTH
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_a_hand_shows_only_in_its_players_picture() -> None:
    state = states(3)[3]
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    public = Image.open(io.BytesIO(picture.RENDERER.png(GAME.view(state, None), ctx)))
    mine = Image.open(io.BytesIO(picture.RENDERER.png(GAME.view(state, 0), ctx)))
    assert mine.size[1] > public.size[1]
    text = picture.RENDERER.text(GAME.view(state, 0), ctx)
    assert "Your hand" in text and "Your hand" not in picture.RENDERER.text(
        GAME.view(state, None), ctx)


def test_the_map_shows_territories_players_and_who_decides() -> None:
    state = states(3)[-1]
    text = picture.RENDERER.text(GAME.view(state, None), RenderContext(("Ann", "Bob", "Cid")))
    for word in ("Sumerians", "Romans", "Ann", "pts", "in hand"):
        assert word in text
