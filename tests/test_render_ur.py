"""The Ur board image: format, size, determinism, highlights, names, languages, phones."""

from __future__ import annotations

import copy
import io
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from benchmarks.bench_render import playout, spread  # every public view of one random game
from bot.i18n import catalogue
from render import fonts
from render.context import RenderContext
from render.ur import (
    CELL,
    COLUMNS,
    FACES,
    GRID,
    PANEL_H,
    PANEL_STEP,
    PANEL_Y,
    PREVIEW_WIDTH,
    REFERENCE_WIDTH,
    RENDERER,
    SIDE,
    SIDE_W,
    UrRenderer,
    display_name,
    header_layout,
    render_naive,
)
from tests.phone import MIN_PHONE_TEXT, PHONE

MAX_BYTES = 100_000
LONG_NAMES = ("Ninsun, wild cow of Uruk", "Gilgamesh, two-thirds a god", "Enkidu 🌙 of the steppe",
              "Éloïse Dupont-Aignan de la Tour")
NAMES = ("Ninsun", "Gilgamesh", "Enkidu", "Shamhat")
Box = tuple[int, int, int, int]


# -- views built by hand, exactly in the format of bot.games.ur.view ---------------------------


def make_view(players: int = 3, seed: int = 0, **changes: Any) -> dict[str, Any]:
    """A plausible view: a seeded grid with no equal neighbouring faces and some tokens."""
    rng = random.Random(seed)
    grid: list[list[dict[str, Any]]] = []
    for r in range(6):
        row: list[dict[str, Any]] = []
        for c in range(6):
            banned = {row[c - 1]["face"] if c else None, grid[r - 1][c]["face"] if r else None}
            face = rng.choice([f for f in FACES if f not in banned])
            back = rng.choice([f for f in FACES if f != face])
            row.append({"face": face, "back": back, "owner": None, "tokens": 0,
                        "ziggurat": False})
        grid.append(row)
    view: dict[str, Any] = {
        "game": "ur", "players": players, "grid": grid,
        "hands": [{"face": FACES[i], "back": FACES[(i + 1) % 5]} for i in range(players)],
        "spare": {"face": "war", "back": "culture"} if players == 3 else None,
        "supply": [20] * players, "on_board": [0] * players, "ziggurats": [0] * players,
        "ziggurats_left": 5, "scores": [0] * players, "current": 0, "phase": "placement",
        "step": "place", "turn": 1, "first_player": 0, "last_turn": None, "over": False,
        "winners": [],
    }
    view.update(changes)
    return view


def put(view: dict[str, Any], name: str, **cell: Any) -> dict[str, Any]:
    """``view`` with the cell ``name`` (e.g. "B3") updated."""
    r, c = int(name[1]) - 1, COLUMNS.index(name[0])
    view["grid"][r][c].update(cell)
    return view


def mid_view(players: int = 4) -> dict[str, Any]:
    view = make_view(players, seed=1, phase="turn", step="actions", turn=9, current=1,
                     last_turn={"seat": 0, "cells": ["B3", "C3"], "exchanged": "D5"})
    for i, name in enumerate(("A1", "B3", "C3", "D4", "E6", "F2", "A5", "C1")):
        put(view, name, owner=i % players, tokens=1 + i % 5)
    return view


def end_view(players: int = 4) -> dict[str, Any]:
    view = make_view(players, seed=2, phase="over", step="over", turn=60, current=None,
                     over=True, winners=[1], ziggurats_left=0,
                     scores=[14, 31, 9, 22][:players], ziggurats=[1, 2, 1, 1][:players])
    for i in range(36):
        name = f"{COLUMNS[i % 6]}{i // 6 + 1}"
        put(view, name, owner=i % players if i % 4 else None, tokens=(i % 5) if i % 4 else 0)
    for name, owner in (("A1", 0), ("C3", 1), ("E5", 1), ("F1", 2), ("B6", 3 % players)):
        put(view, name, owner=owner, tokens=0, ziggurat=True)
    return view


def ctx(players: int, lang: str = "en") -> RenderContext:
    return RenderContext(NAMES[:players], lang)


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def cell_box(name: str) -> Box:
    """The pixel box of a board cell in RENDERER's images."""
    k = RENDERER.width / REFERENCE_WIDTH
    r, c = int(name[1]) - 1, COLUMNS.index(name[0])
    x, y = GRID + c * CELL, GRID + r * CELL
    return round(x * k), round(y * k), round((x + CELL) * k), round((y + CELL) * k)


def slot_box(slot: int) -> Box:
    """The pixel box of a player's panel (slot 3 holds the spare tile with 3 players)."""
    k = RENDERER.width / REFERENCE_WIDTH
    y = PANEL_Y + slot * PANEL_STEP
    return round(SIDE * k), round(y * k), round((SIDE + SIDE_W) * k), round((y + PANEL_H) * k)


def inside(inner: Box | None, outer: Box) -> bool:
    return inner is not None and all(
        (inner[i] >= outer[i]) if i < 2 else (inner[i] <= outer[i]) for i in range(4))


def diff_box(a: dict[str, Any], b: dict[str, Any], context: RenderContext) -> Box | None:
    return ImageChops.difference(RENDERER.image(a, context), RENDERER.image(b, context)).getbbox()


# -- views from the real engine ---------------------------------------------------------------


@pytest.fixture(scope="module")
def games() -> dict[int, list[dict[str, Any]]]:
    return {3: playout(11, 3), 4: playout(12, 4)}


# -- tests --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "view",
    [make_view(3), make_view(4), mid_view(3), mid_view(4), end_view(3), end_view(4)],
    ids=["start3", "start4", "mid3", "mid4", "end3", "end4"],
)
def test_png_is_wide_landscape_and_small(view: dict[str, Any]) -> None:
    data = RENDERER.png(view, ctx(view["players"]))
    image = decode(data)
    assert image.format == "PNG"
    assert image.width >= 1000
    assert image.width > image.height
    assert len(data) <= MAX_BYTES


def test_engine_views_render_within_limits(games: dict[int, list[dict[str, Any]]]) -> None:
    for players, views in games.items():
        assert views[-1]["over"]
        for view in (views[0], views[len(views) // 3], views[2 * len(views) // 3], views[-1]):
            for lang in ("en", "fr"):
                data = RENDERER.png(view, ctx(players, lang))
                assert decode(data).width >= 1000
                assert len(data) <= MAX_BYTES


def test_png_uses_one_fixed_palette() -> None:
    first = decode(RENDERER.png(make_view(3), ctx(3)))
    second = decode(RENDERER.png(end_view(4), ctx(4, "fr")))
    assert first.mode == second.mode == "P"
    assert first.getpalette() == second.getpalette()


def test_same_view_gives_identical_bytes_even_from_a_fresh_renderer() -> None:
    view = mid_view(4)
    data = RENDERER.png(view, ctx(4))
    RENDERER.png(end_view(3), ctx(3, "fr"))  # other pieces in the caches meanwhile
    assert RENDERER.png(copy.deepcopy(view), ctx(4)) == data
    assert UrRenderer().png(view, ctx(4)) == data


def test_different_views_give_different_images(games: dict[int, list[dict[str, Any]]]) -> None:
    views = games[3]
    renders = {RENDERER.png(v, ctx(3)) for v in (views[0], views[len(views) // 2], views[-1])}
    assert len(renders) == 3
    moved = put(make_view(3), "A1", owner=2, tokens=3)
    assert diff_box(make_view(3), moved, ctx(3)) is not None


def test_last_turn_highlight_changes_only_those_cells() -> None:
    plain = make_view(4)
    lit = make_view(4, last_turn={"seat": 1, "cells": ["B3"], "exchanged": None})
    assert inside(diff_box(plain, lit, ctx(4)), cell_box("B3"))
    two = make_view(4, last_turn={"seat": 1, "cells": ["B3", "E5"], "exchanged": None})
    b3_and_e5 = (cell_box("B3")[0], cell_box("B3")[1], cell_box("E5")[2], cell_box("E5")[3])
    box = diff_box(plain, two, ctx(4))
    assert inside(box, b3_and_e5)
    image = RENDERER.image(two, ctx(4))
    assert ImageChops.difference(image.crop(cell_box("E5")),
                                 RENDERER.image(plain, ctx(4)).crop(cell_box("E5"))).getbbox()


def test_exchanged_tile_is_marked_on_the_board_and_on_the_spare() -> None:
    plain = make_view(3)
    on_board = make_view(3, last_turn={"seat": 0, "cells": [], "exchanged": "F6"})
    assert inside(diff_box(plain, on_board, ctx(3)), cell_box("F6"))
    spare = make_view(3, last_turn={"seat": 0, "cells": [], "exchanged": "spare"})
    assert inside(diff_box(plain, spare, ctx(3)), slot_box(3))


def test_tokens_and_ziggurats_are_drawn_in_their_cell() -> None:
    plain = make_view(4)
    owned = put(make_view(4), "D2", owner=3, tokens=4)
    assert inside(diff_box(plain, owned, ctx(4)), cell_box("D2"))
    counts = put(make_view(4), "D2", owner=3, tokens=5)
    assert inside(diff_box(owned, counts, ctx(4)), cell_box("D2"))
    other = put(make_view(4), "D2", owner=2, tokens=4)
    assert inside(diff_box(owned, other, ctx(4)), cell_box("D2"))
    ziggurat = put(make_view(4), "D2", owner=3, tokens=0, ziggurat=True)
    assert inside(diff_box(owned, ziggurat, ctx(4)), cell_box("D2"))


def test_turn_and_winners_are_marked_in_the_panels() -> None:
    view = make_view(4, current=1)
    box = diff_box(view, make_view(4, current=2), ctx(4))
    assert inside(box, (slot_box(1)[0], slot_box(1)[1], slot_box(2)[2], slot_box(2)[3]))
    over = end_view(4)
    other_winner = copy.deepcopy(over)
    other_winner["winners"] = [3]
    box = diff_box(over, other_winner, ctx(4))
    assert inside(box, (slot_box(1)[0], slot_box(1)[1], slot_box(3)[2], slot_box(3)[3]))


def test_panel_values_are_drawn() -> None:
    view = make_view(4)
    changed = make_view(4, scores=[0, 0, 17, 0], supply=[20, 20, 12, 20])
    assert inside(diff_box(view, changed, ctx(4)), slot_box(2))


def test_image_frames_keep_one_size_and_are_rgb(games: dict[int, list[dict[str, Any]]]) -> None:
    frames = [RENDERER.image(v, ctx(3)) for v in games[3][::60]]
    frames += [RENDERER.image(v, ctx(4, "fr")) for v in (make_view(4), end_view(4))]
    assert {f.size for f in frames} == {frames[0].size}
    assert {f.mode for f in frames} == {"RGB"}


def test_both_languages_render_differently() -> None:
    view = mid_view(3)
    en, fr = RENDERER.png(view, ctx(3, "en")), RENDERER.png(view, ctx(3, "fr"))
    assert en != fr
    assert decode(en).size == decode(fr).size


def test_render_keys_exist_in_both_languages() -> None:
    en = {k for k in catalogue("en") if k.startswith("render.")}
    fr = {k for k in catalogue("fr") if k.startswith("render.")}
    assert en == fr
    assert "render.score" in en


@pytest.mark.parametrize("names", [
    ("😀 Bob 🇫🇷", "李小龙", "עליזה", "علي"),
    ("👨‍👩‍👧‍👦", "Zoë\u0301\u200d", "\x00\t\n", ""),
    ("a" * 200, "𒀭𒂗𒍪 Enlil", "Ǆemal Ŋ", "مرحبا بالعالم يا أصدقاء"),
])
def test_any_unicode_name_renders(names: tuple[str, ...]) -> None:
    data = RENDERER.png(mid_view(4), RenderContext(names, "en"))
    assert decode(data).width >= 1000


def test_missing_names_fall_back_to_player_numbers() -> None:
    data = RENDERER.png(mid_view(4), RenderContext(("Ninsun",), "fr"))
    assert decode(data).width >= 1000
    assert display_name("", 2, "en") == "Player 3"
    assert display_name("李小龙", 0, "fr") == "Joueur 1"
    assert display_name("Bob 李", 0, "en") == "Bob ?"


def test_font_coverage_reads_the_cmap() -> None:
    covered = fonts.coverage(bold=True)
    assert {ord(ch) for ch in "Az09éÆשعЖ…×"} <= covered
    assert not {ord(ch) for ch in "李龙\U0001F319\U00012000"} & covered


def test_clean_text_replaces_what_the_font_cannot_draw() -> None:
    covered = frozenset(map(ord, "abcdefghijklmnopqrstuvwxyz? "))
    assert fonts.clean_text("abc", covered) == "abc"
    assert fonts.clean_text("ab李小龙cd", covered) == "ab?cd"
    assert fonts.clean_text("a李 b龙", covered) == "a? b?"
    assert fonts.clean_text("hi 😀🇫🇷 there", covered) == "hi there"
    assert fonts.clean_text("e\u0301 z\u200bz\x07", covered) == "e zz"
    assert fonts.clean_text("  a\t\n b  ", covered) == "a b"
    real = fonts.coverage()
    assert fonts.clean_text("Zoë אב 😀 李", real) == "Zoë אב 😀 ?"


def test_fit_shrinks_then_cuts_with_an_ellipsis() -> None:
    assert fonts.fit("Ur", 200, 30, 12) == ("Ur", 30)
    text, size = fonts.fit("Gilgamesh", 100, 30, 12)
    assert text == "Gilgamesh" and 12 <= size < 30
    text, size = fonts.fit("Gilgamesh king of Uruk, two-thirds a god", 100, 30, 12)
    assert size == 12 and text.endswith(fonts.ELLIPSIS)
    assert fonts.font(12).getlength(text) <= 100


def test_naive_baseline_draws_the_same_picture() -> None:
    view = end_view(3)
    naive = decode(render_naive(view, ctx(3))).convert("RGB")
    fast = RENDERER.image(view, ctx(3))
    assert naive.size == fast.size
    histogram = ImageChops.difference(naive, fast).convert("L").histogram()
    mean = sum(i * n for i, n in enumerate(histogram)) / (naive.width * naive.height)
    assert mean < 2  # only the fixed palette's rounding differs


def test_missing_font_falls_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    caches = (fonts.font, fonts.coverage, fonts.fit)
    monkeypatch.setattr(fonts, "REGULAR", tmp_path / "missing.ttf")
    for cached in caches:
        cached.cache_clear()
    try:
        assert fonts.font(20).getlength("Ur") > 0
        covered = fonts.coverage()
        assert covered == frozenset(range(0x20, 0x7F))
        assert fonts.clean_text("Zoë 李", covered) == "Zoe ?"
    finally:
        for cached in caches:
            cached.cache_clear()


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_image_is_small_and_readable_on_a_phone(players: int, lang: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Public boards and private previews (a tile in every hand) of a random game with long
    names: each PNG is at most MAX_BYTES, every text drawn is at least MIN_PHONE_TEXT px once
    the image is shown PHONE px wide, and only player names are ever cut ("…")."""
    drawn: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, value: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append((value, kwargs["font"].size))
        return original(self, xy, value, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    context = RenderContext(LONG_NAMES[:players], lang)
    views = spread(playout(20 + players, players), 16)
    assert all(all(view["hands"]) for view in views)
    shown = {display_name(name, seat, lang) for seat, name in enumerate(context.names)}
    for width in (RENDERER.width, PREVIEW_WIDTH):
        drawn.clear()
        renderer = UrRenderer(width)  # fresh: every piece is drawn, so every text is seen
        for view in views:
            data = renderer.png(view, context)
            assert len(data) <= MAX_BYTES and decode(data).width == width
        assert min(size for _, size in drawn) * PHONE / width >= MIN_PHONE_TEXT
        cut = {value for value, _ in drawn if fonts.ELLIPSIS in value}
        assert cut, "the long names should have been cut"
        assert all(any(name.startswith(value[:-1].rstrip()) for name in shown) for value in cut)
        words = {value for value, _ in drawn}
        faces = {catalogue(lang)[f"ur.face.{face}"] for face in FACES}
        assert faces <= words  # named whole, in the legend


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("width", [RENDERER.width, PREVIEW_WIDTH])
def test_header_texts_never_overlap(lang: str, width: int) -> None:
    """The phase (French "Placement des jetons" is the longest) never runs into the turn or
    the ziggurats left, all stay in the right column above the panels, and nothing else is
    drawn there (the layout measured is the one drawn)."""
    k = width / REFERENCE_WIDTH
    left, top, right, bottom = (round(v * k) for v in (SIDE, 0, SIDE + SIDE_W, PANEL_Y))
    renderer = UrRenderer(width)
    background = renderer.image(make_view(3), ctx(3, lang)).getpixel((0, 0))
    for phase, left_over in (("placement", 5), ("setup_exchange", 5), ("turn", 1), ("over", 0)):
        view = make_view(4, phase=phase, turn=118, ziggurats_left=left_over)
        boxes = header_layout(view, lang, width).boxes()
        for name, box in boxes.items():
            assert inside((round(box[0]), round(box[1]), round(box[2]), round(box[3])),
                          (left, top, right, bottom)), name
            for other, second in boxes.items():
                apart = (box[2] < second[0] or second[2] < box[0] or box[3] < second[1]
                         or second[3] < box[1])
                assert name == other or apart, (name, other)
        assert boxes["turn"][2] < boxes["icon"][0] < boxes["icon"][2] < boxes["left"][0]
        assert boxes["phase"][1] > max(boxes["left"][3], boxes["icon"][3])
        header = renderer.image(view, ctx(4, lang)).crop((left, top, right, bottom))
        paint = ImageDraw.Draw(header)
        for box in boxes.values():
            paint.rectangle((box[0] - left, box[1], box[2] - left - 1, box[3] - 1),
                            fill=background)
        assert header.getcolors() == [(header.width * header.height, background)]
