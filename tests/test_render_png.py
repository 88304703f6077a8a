"""The banded PNG encoder: the same pixels and palette as the picture, bands kept by content,
the Adler-32 combined as zlib's."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageDraw

from host import registry
from render import png
from render.context import RenderContext
from render.png import BAND_ROWS, HARD, LEVEL, BandedPng, adler32_combine


def _picture(seed: int, size: tuple[int, int] = (300, 7 * BAND_ROWS + 5)) -> Image.Image:
    """An indexed picture of flat shapes and some noise, in a random palette."""
    rng = random.Random(seed)
    image = Image.new("P", size, 0)
    image.putpalette([rng.randrange(256) for _ in range(3 * 256)])
    draw = ImageDraw.Draw(image)
    for _ in range(20):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.rectangle((x, y, x + rng.randrange(60), y + rng.randrange(30)),
                       fill=rng.randrange(256))
    for _ in range(200):
        image.putpixel((rng.randrange(size[0]), rng.randrange(size[1])), rng.randrange(256))
    return image


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("seed", range(4))
def test_the_png_holds_the_pictures_pixels_and_palette(seed: int) -> None:
    encoder = BandedPng()
    for level in (1, LEVEL, HARD):
        picture = _picture(seed)
        decoded = _decoded(encoder.encode(picture, level))
        assert decoded.mode == "P" and decoded.size == picture.size
        assert decoded.tobytes() == picture.tobytes()
        assert decoded.getpalette() == picture.getpalette()


def test_the_bytes_depend_on_the_picture_not_on_what_was_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A band seen before is not compressed again, and the PNG is the one a fresh encoder
    writes; a changed band changes the picture."""
    deflated: list[int] = []
    original = png._deflate
    monkeypatch.setattr(png, "_deflate", lambda rows, level: deflated.append(len(rows)) or
                        original(rows, level))
    encoder = BandedPng()
    encoder.encode(_picture(1))
    bands = -(-_picture(1).height // BAND_ROWS)
    assert len(deflated) == bands
    encoder.encode(_picture(1))
    assert len(deflated) == bands
    first = _picture(1)
    changed = first.copy()
    where = (5, 2 * BAND_ROWS + 3)
    changed.putpixel(where, (first.getpixel(where) + 1) % 256)
    once = encoder.encode(first)
    assert encoder.encode(changed) == BandedPng().encode(changed) != once
    assert _decoded(encoder.encode(changed)).tobytes() == changed.tobytes()
    assert encoder.encode(first) == once
    assert len(encoder.encode(first, HARD)) < len(encoder.encode(first, 1))


def test_a_band_dropped_from_a_full_cache_is_compressed_anew() -> None:
    encoder = BandedPng(limit=3)
    pictures = [_picture(seed) for seed in range(3)]
    for picture in pictures * 2:
        assert _decoded(encoder.encode(picture)).tobytes() == picture.tobytes()


def test_only_indexed_pictures_are_encoded() -> None:
    with pytest.raises(ValueError):
        BandedPng().encode(Image.new("RGB", (4, 4)))


def test_adler32_combine_is_zlibs() -> None:
    rng = random.Random(7)
    for _ in range(50):
        a = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70_000, 97)))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


@pytest.mark.parametrize("game", ["ur", "civsets", "flood"])
def test_a_board_drawn_after_others_holds_its_own_pixels(game: str) -> None:
    """The boards of Ur, Civilizations and After the Flood go through the banded encoder:
    each board along a playout, drawn by a renderer that kept the bands of the boards before
    it, decodes to the picture it drew, and is the PNG a fresh renderer writes."""
    entry = registry.get(game)
    engine, kept = entry.engine, type(entry.renderer)()
    rng = random.Random(5)
    players = engine.meta.min_players
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    state = engine.setup(11, players, {})
    for _ in range(12):
        for _ in range(3):
            if engine.outcome(state) is None:
                seat = rng.choice(engine.active(state))
                state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
        view = engine.view(state, None)
        board = kept.png(view, ctx)
        assert _decoded(board).convert("RGB").tobytes() == kept.image(view, ctx).tobytes()
        assert board == type(entry.renderer)().png(view, ctx)
