"""The After the Flood pictures: within the size limits, readable on a phone, a map whose
borders are the rules' and whose names and pieces keep to their regions, the last turn
framed, and a text board that names what is on the map."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games.flood import data as D
from bot.games.flood.engine import GAME
from render import flood as picture
from render import flood_tables as tables
from render import fonts
from render.context import RenderContext
from render.draw import legible
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
        assert len(png) <= 120_000 and image.size == (picture.WIDTH, picture.HEIGHT)
    fresh = picture.render_naive(GAME.view(states()[-1], None), ctx)   # every text drawn anew
    assert Image.open(io.BytesIO(fresh)).size == (picture.WIDTH, picture.HEIGHT)
    assert sizes and min(sizes) >= legible(picture.WIDTH)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_resource_marks_are_big_enough_on_a_phone() -> None:
    for res in D.RESOURCES:
        mark = picture.mark_art(res)
        assert min(mark.size) * PHONE / picture.WIDTH >= 8
        assert mark.getchannel("A").getbbox() is not None
    assert picture.MARK * PHONE / picture.WIDTH >= 8


def _pairs(labels: Image.Image, names: tuple[str, ...]) -> dict[frozenset[str], int]:
    """How many pixels of border each pair of places shares on the drawn map."""
    width = labels.size[0]
    data = labels.tobytes()
    found: dict[frozenset[str], int] = {}
    for i, v in enumerate(data):
        x = i % width
        for j in ((i + 1) if x + 1 < width else None, (i + width) if i + width < len(data)
                  else None):
            if j is not None and data[j] != v:
                pair = frozenset((names[v], names[data[j]]))
                found[pair] = found.get(pair, 0) + 1
    return found


def test_the_map_draws_the_borders_of_the_rules() -> None:
    """Regions that are neighbours share a border on the drawn map; others at most touch at
    a corner (where four regions meet, a river runs); Dilmun is an island."""
    geo = picture.geometry()
    pairs = _pairs(geo.image, geo.labels)
    land = {k: v for k, v in pairs.items() if k <= set(D.REGION_IDS)}
    wanted = {frozenset((r, n)) for r in D.REGION_IDS for n in D.REGIONS[r].neighbours}
    wanted -= set(D.SEA_BORDERS)
    for pair in wanted:
        assert land.get(pair, 0) >= 20, sorted(pair)
    for pair, length in land.items():
        assert pair in wanted or length <= 4, (sorted(pair), length)
    assert {p for p in pairs if "dilmun" in p} == {frozenset(("dilmun", "sea"))}


def test_names_pieces_and_boxes_keep_to_their_places() -> None:
    geo = picture.geometry()
    rects = dict(geo.rects)
    for place, (x, y, w, h) in rects.items():
        colours = geo.image.crop((x, y, x + w, y + h)).getcolors() or []
        inside = sum(n for n, label in colours if geo.labels[label] == place)
        assert inside >= 0.97 * w * h and w >= 60 and h >= 30, place
    for box, (x, y, w, h) in picture.box_rects().items():
        dx, dy, dw, dh = rects["desert"]
        assert dx <= x and x + w <= dx + dw and dy <= y and y + h <= dy + dh, box
    for a, b in itertools.combinations(rects.values(), 2):
        assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] \
            or b[1] + b[3] <= a[1]


def test_the_map_keeps_the_geography() -> None:
    at = picture.border_middle

    def centre(rid: str) -> tuple[float, float]:
        x, y, w, h = picture.geometry().rects[rid]
        return x + w / 2, y + h / 2

    assert centre("egypt")[0] < centre("amurru")[0] < centre("babylon")[0] < centre("elam")[0]
    assert centre("sippar")[1] < centre("nippur")[1] < centre("uruk")[1] < centre("eridu")[1]
    assert centre("anatolia")[1] < centre("lebanon")[1]
    zagros, nippur = centre("zagros"), centre("nippur")
    middle = at("zagros", "nippur")     # the arrow's head lies between its two regions
    assert min(zagros[1], nippur[1]) <= middle[1] <= max(zagros[1], nippur[1])


def test_the_last_turn_is_framed_in_yellow() -> None:
    state = states(4)[-3]
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    view = GAME.view(state, None)
    view["last_turn"] = {"seat": 0, "places": ["lagash", "scribes"]}
    framed = picture.RENDERER.image(view, ctx)
    view["last_turn"] = {"seat": 0, "places": []}
    plain = picture.RENDERER.image(view, ctx)

    def yellow(image: Image.Image, box: tuple[int, int, int, int]) -> int:
        return sum(n for n, c in (image.crop(box).getcolors(1 << 16) or [])
                   if c == picture.HIGHLIGHT)

    (x, y), rim = picture.geometry().rims["lagash"]
    region = (x, picture.MAP_TOP + y, x + rim.width, picture.MAP_TOP + y + rim.height)
    bx, by, bw, bh = picture.box_rects()["scribes"]
    box = (bx - 4, picture.MAP_TOP + by - 4, bx + bw + 4, picture.MAP_TOP + by + bh + 4)
    assert yellow(framed, region) > 100 and yellow(plain, region) == 0
    assert yellow(framed, box) > 100 and yellow(plain, box) == 0


def test_the_fast_picture_is_the_picture_drawn_from_scratch() -> None:
    state = states(5)[-2]
    ctx = RenderContext(("Ann", "Bob", "Cid"), "fr")
    fast = picture.RENDERER.image(GAME.view(state, None), ctx)
    slow = Image.open(io.BytesIO(picture.render_naive(GAME.view(state, None), ctx)))
    assert fast.size == slow.size
    far = ImageChops.difference(fast, slow.convert("RGB")).convert("L").point(
        lambda v: 255 if v > 60 else 0)
    assert far.histogram()[255] < fast.size[0] * fast.size[1] * 0.01


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
        assert image.size[0] == tables.WIDTH and image.size[1] <= 2000
        # nothing drawn off the page: the last rows are background
        assert image.crop((0, image.size[1] - 8, tables.WIDTH, image.size[1])).getcolors() == [
            (8 * tables.WIDTH, picture.BACKGROUND)]
        png = tables.tables_png(lang, page)
        assert len(png) <= 100_000 and Image.open(io.BytesIO(png)).size == image.size
    assert min(sizes) * PHONE / tables.WIDTH >= MIN_PHONE_TEXT


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
