"""Fonts for every renderer: loading with a clean fallback, glyph coverage, text fitting.

The shipped DejaVu fonts are used when present; otherwise Pillow's bundled
default font. Text a font cannot draw is cleaned before drawing
(:func:`clean_text`), so names never show empty boxes ("tofu").
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
REGULAR = FONTS_DIR / "DejaVuSans.ttf"
BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
REPLACEMENT = "?"
ELLIPSIS = "…"
_PRINTABLE_ASCII = frozenset(range(0x20, 0x7F))
# Missing letters and digits become "?"; other missing characters (emoji and other
# symbols, punctuation, combining marks, joiners, controls) are dropped.
_REPLACED_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Nl", "No"})


@cache
def font(size: int, bold: bool = False) -> Font:
    """The project font at ``size`` px (Pillow's default font if the file is missing)."""
    path = BOLD if bold else REGULAR
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size)


@cache
def coverage(bold: bool = False) -> frozenset[int]:
    """The code points the project font maps to a glyph (printable ASCII on fallback)."""
    path = BOLD if bold else REGULAR
    try:
        data = path.read_bytes()
        return frozenset(cmap_code_points(data)) or _PRINTABLE_ASCII
    except (OSError, ValueError, struct.error):
        return _PRINTABLE_ASCII


def cmap_code_points(data: bytes) -> set[int]:
    """Code points mapped to a real glyph by a TrueType/OpenType file's ``cmap`` table.

    Reads the Unicode subtables of format 4 (BMP) and 12 (full range).
    """
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("no cmap table")
    points: set[int] = set()
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * i)
        if platform == 0 or (platform == 3 and encoding in (1, 10)):
            table = cmap + offset
            fmt = struct.unpack_from(">H", data, table)[0]
            if fmt == 4:
                points |= _format4(data, table)
            elif fmt == 12:
                points |= _format12(data, table)
    return points


def _format4(data: bytes, table: int) -> set[int]:
    seg_count = struct.unpack_from(">H", data, table + 6)[0] // 2
    ends_at = table + 14
    starts_at = ends_at + 2 * seg_count + 2
    deltas_at = starts_at + 2 * seg_count
    ranges_at = deltas_at + 2 * seg_count
    ends = struct.unpack_from(f">{seg_count}H", data, ends_at)
    starts = struct.unpack_from(f">{seg_count}H", data, starts_at)
    deltas = struct.unpack_from(f">{seg_count}H", data, deltas_at)
    range_offsets = struct.unpack_from(f">{seg_count}H", data, ranges_at)
    points: set[int] = set()
    for i in range(seg_count):
        start, end, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
        if start == 0xFFFF:
            continue
        for code in range(start, end + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges_at + 2 * i + range_offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return points


def _format12(data: bytes, table: int) -> set[int]:
    groups = struct.unpack_from(">L", data, table + 12)[0]
    points: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">LLL", data, table + 16 + 12 * i)
        points.update(range(start if glyph else start + 1, end + 1))
    return points


def clean_text(text: str, covered: frozenset[int]) -> str:
    """``text`` with only characters in ``covered``.

    A character the font lacks is decomposed if that helps (an accented letter
    keeps its letter). Whitespace becomes single spaces; each run of missing letters or digits (a
    CJK word) becomes one ``?``; other missing characters (an emoji, a joiner, a
    control character) are dropped.
    """
    out: list[str] = []
    for char in _composed(text, covered):
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
        elif ord(char) in covered and category not in ("Cc", "Cf"):
            out.append(char)
        elif category in _REPLACED_CATEGORIES and (not out or out[-1] != REPLACEMENT):
            out.append(REPLACEMENT)
    return " ".join("".join(out).split())


def _composed(text: str, covered: frozenset[int]) -> list[str]:
    """``text``'s characters, composed where the font has that form, else decomposed."""
    chars: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        parts = unicodedata.normalize("NFD", char)
        chars.extend(char if ord(char) in covered or len(parts) == 1 else parts)
    return chars


@lru_cache(maxsize=4096)
def fit(
    text: str, max_width: float, size: int, min_size: int, bold: bool = False
) -> tuple[str, int]:
    """``text`` and a font size so it fits ``max_width`` px.

    The size shrinks from ``size`` down to ``min_size``; if that is not enough the
    text is cut and ends with an ellipsis.
    """
    while size > min_size and font(size, bold).getlength(text) > max_width:
        size -= 1
    face = font(size, bold)
    if face.getlength(text) <= max_width:
        return text, size
    while text and face.getlength(text + ELLIPSIS) > max_width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS, size
