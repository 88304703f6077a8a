"""A PNG encoder for boards that change little from one picture to the next.

An indexed picture is cut into bands of :data:`BAND_ROWS` rows; each band is deflated on its
own (a fresh compressor, flushed to a byte boundary), so that its bytes depend on its pixels
only and can be kept: a band seen before (the same pixels: the fixed parts of a board, the
rows a turn did not touch) costs a hash, not a compression. The PNG's zlib stream is the
bands one after the other, closed by an empty final block and the Adler-32 of the whole,
combined from the bands' own. The bytes depend on the picture and the level only, never on
what the encoder kept.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from typing import Any

from PIL import Image

from render.context import RenderContext
from render.draw import Sprites

BAND_ROWS = 24
"""Rows in a band (smaller: more bands repeat; larger: each compresses better)."""
LEVEL, HARD = 5, 9
"""The compression level of the bands, and of a picture that came out too big."""
QUICK = 3
"""The level of the boards of Ur, Civilizations and After the Flood: as fast as level 1 with
the bands kept, 5-10% smaller (``benchmarks/bench_images.py``)."""
SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from the Adler-32 of each and
    the length of the second (zlib's ``adler32_combine``)."""
    rem = length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


class _Band:
    """A band's deflated bytes, and the Adler-32 and length of its filtered rows."""

    __slots__ = ("adler", "data", "length")

    def __init__(self, data: bytes, adler: int, length: int) -> None:
        self.data, self.adler, self.length = data, adler, length


def _deflate(rows: bytes, level: int) -> bytes:
    """``rows`` as raw deflate blocks ending on a byte boundary (not the last block)."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH)


class BandedPng:
    """The encoder: keeps the last ``limit`` bands it compressed (least recently used
    dropped); safe to share between threads."""

    def __init__(self, limit: int = 4096) -> None:
        self._bands: Sprites[_Band] = Sprites(limit=limit)
        self._lock = threading.Lock()

    def encode(self, image: Image.Image, level: int = LEVEL) -> bytes:
        """``image`` (mode "P") as PNG bytes, no filter on its rows, its bands deflated at
        ``level``."""
        if image.mode != "P":
            raise ValueError(f"an indexed picture is needed, not {image.mode}")
        width, height = image.size
        raw = image.tobytes()
        step = width * BAND_ROWS
        parts: list[bytes] = []
        adler = 1
        with self._lock:
            for start in range(0, len(raw), step):
                band = self._band(raw[start:start + step], width, level)
                parts.append(band.data)
                adler = adler32_combine(adler, band.adler, band.length)
        stream = b"\x78\x01" + b"".join(parts) + b"\x03\x00" + struct.pack(">I", adler)
        palette = bytes((image.getpalette() or [0, 0, 0])[:768])
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
        return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"PLTE", palette) + \
            _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")

    def _band(self, pixels: bytes, width: int, level: int) -> _Band:
        """The kept band of these pixels, deflated now if new."""
        def build() -> _Band:
            rows = b"".join(b"\0" + pixels[i:i + width] for i in range(0, len(pixels), width))
            return _Band(_deflate(rows, level), zlib.adler32(rows), len(rows))

        key = (width, level, hashlib.sha1(pixels, usedforsecurity=False).digest())
        return self._bands.get(key, build)


class IndexedRenderer:
    """A renderer whose board is an indexed picture in a fixed palette (:meth:`indexed`, drawn
    by the subclass from kept layers and pieces): ``image`` is that picture in RGB, ``png`` the
    picture written by the renderer's own :class:`BandedPng` at :data:`QUICK`, the bands
    unchanged since an earlier board kept compressed."""

    def __init__(self) -> None:
        self._encoder = BandedPng()

    def indexed(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as an indexed picture."""
        raise NotImplementedError

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        """The board as an RGB picture."""
        return self.indexed(view, ctx).convert("RGB")

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        """The board as PNG bytes."""
        return self._encoder.encode(self.indexed(view, ctx), QUICK)
