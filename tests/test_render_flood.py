"""The After the Flood pictures: within the size limits, readable on a phone, the map's
cards apart, and a text board that names what is on the map."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games.flood import data as D
from bot.games.flood.engine import GAME
from render import flood as picture
from render import flood_tables as tables
from render import fonts
from render.context import RenderContext
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

"""Smallest text allowed, in pixels once the image is shown PHONE pixels wide."""


def states(seed: int = 1) -> list[dict[str, Any]]:
    """A game played with a bias for actions (so the board fills up), sampled."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 3, {})
    found = [state]
    while GAME.outcome(state) is None:
        seat = GAME.active(state)[0]
        legal = GAME.legal(state, seat)
        busy = [a for a in legal if a.notation not in ("pass", "done")]
        state = GAME.apply(state, seat, rng.choice(busy if busy and rng.random() < 0.85
                                                   else legal))
        if rng.random() < 0.03:
            found.append(state)
    return [*found, state]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_view_is_small_and_readable_on_a_phone(lang: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = font_sizes(monkeypatch)
    ctx = RenderContext(("A very long player name indeed", "Bob", "Éloïse"), lang)
    for state in states():
        png = picture.RENDERER.png(GAME.view(state, None), ctx)
        image = Image.open(io.BytesIO(png))
        assert len(png) <= 100_000 and image.size[0] == picture.WIDTH
        assert max(image.size) <= 2400
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_the_map_cards_do_not_overlap_and_stay_on_the_map() -> None:
    cards = picture.layout()
    assert set(cards) == set(D.REGION_IDS) | set(D.BOXES)
    for key, (x, y, w, h) in cards.items():
        assert w / 2 <= x <= picture.WIDTH - w / 2, key
        assert h / 2 <= y <= picture.MAP_HEIGHT - h / 2, key
    for a, b in itertools.combinations(cards, 2):
        (x1, y1, w1, h1), (x2, y2, w2, h2) = cards[a], cards[b]
        assert abs(x1 - x2) >= (w1 + w2) / 2 or abs(y1 - y2) >= (h1 + h2) / 2, (a, b)


def test_the_map_keeps_the_geography() -> None:
    cards = picture.layout()

    def at(rid: str) -> tuple[float, float]:
        return cards[rid][0], cards[rid][1]

    assert at("egypt")[0] < at("amurru")[0] < at("babylon")[0] < at("elam")[0]
    assert at("sippar")[1] < at("nippur")[1] < at("uruk")[1] < at("eridu")[1]
    assert at("anatolia")[1] < at("lebanon")[1]


def test_the_text_board_names_the_pieces() -> None:
    state = states(2)[-1]
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    text = picture.RENDERER.text(GAME.view(state, None), ctx)
    for word in ("After the Flood", "round 5/5", "Irrigation", "Dilmun", "Ann", "VP",
                 "Empires"):
        assert word in text
    french = picture.RENDERER.text(GAME.view(state, None), RenderContext(("Ann", "Bob", "Cid"),
                                                                         "fr"))
    assert "Tissage" in french and "PV" in french


def test_a_board_in_the_middle_of_a_battle_and_of_the_vp_phase() -> None:
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    seen = set()
    for state in states(3):
        view = GAME.view(state, None)
        text = picture.RENDERER.text(view, ctx)
        if view["last"] and "dice" in view["last"]:
            assert "Last roll" in text
            seen.add("roll")
        seen.add(view["phase"])
        picture.RENDERER.image(view, ctx)
    assert "over" in seen


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tables_are_small_readable_on_a_phone_and_complete(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    original = fonts.font

    def font(size: int, bold: bool = False) -> Any:
        sizes.append(size)
        return original(size, bold)

    monkeypatch.setattr(tables.fonts, "font", font)
    for page in range(len(tables.PAGES)):
        image = tables.tables_image(lang, page)
        assert image.size[0] == picture.WIDTH and image.size[1] <= 2000
        # nothing drawn off the page: the last rows are background
        assert image.crop((0, image.size[1] - 8, picture.WIDTH, image.size[1])).getcolors() == [
            (8 * picture.WIDTH, picture.BACKGROUND)]
        png = tables.tables_png(lang, page)
        assert len(png) <= 100_000 and Image.open(io.BytesIO(png)).size == image.size
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_the_tables_show_every_number_players_need() -> None:
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        original(self, xy, text, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", spy)
        for page in range(len(tables.PAGES)):
            tables.tables_image("en", page)
    shown = " ".join(texts)
    assert "Lapis lazuli 5" in shown and "Grain 1" in shown
    assert "Middle Elamite Kingdom" in shown and "any Sumer region" in shown
    assert "20 VP" in shown and "5+" in shown and "7+" in shown
    assert "Walls" in shown and "Gulf trade" in shown
    assert "Wood for Grain, Cloth: Zagros, Mitanni, Anatolia, Lebanon" in shown
