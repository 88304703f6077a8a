"""The Mesopotamia pictures: within the size limits, readable on a phone, no secret in the
public image, the cards of the map apart, and a text board that names the phase and the
players."""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.engine import State
from bot.games.kit import clone
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.focus import focus_regions
from bot.i18n import tr, translate
from bot.records import SeatInfo
from host import registry
from host.registry import GameEntry
from render import fonts, maps
from render import mesopotamia as picture
from render import mesopotamia_board as board
from render import mesopotamia_map as geo
from render.context import RenderContext
from render.draw import Colour, legible
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes
from tests.test_e2e_game import open_game, world

"""Smallest text allowed, in pixels once the image is shown PHONE pixels wide."""
NAMES = ("A very long player name indeed", "Bob", "Éloïse", "Dan")


def states(seed: int, n: int, steps: int = 120) -> list[State]:
    """A game played at random, sampled (the setup, then the rounds as far as written)."""
    rng = random.Random(seed)
    state = GAME.setup(seed, n, {})
    found = [state]
    for _ in range(steps):
        active = GAME.active(state)
        if not active or GAME.outcome(state) is not None:
            break
        legal = GAME.legal(state, active[0])
        if not legal:
            break
        state = GAME.apply(state, active[0], rng.choice(legal))
        if rng.random() < 0.06:
            found.append(state)
    return [*found, state]


@pytest.mark.parametrize(("n", "lang"), [(2, "en"), (3, "fr"), (4, "en"), (4, "fr")])
def test_every_view_is_small_and_readable_on_a_phone(
        n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: every text at least ``legible(width)`` px (10 px once shown 400 px wide), one
    image at most 1,400 px tall at 4 players (a seat's own view too, with its quests' names),
    at most 120 KB; the market, the second picture, is as readable."""
    sizes = font_sizes(monkeypatch)
    renderer = picture.MesopotamiaRenderer()       # draws every text anew, sizes recorded
    ctx = RenderContext(NAMES[:n], lang)
    for state in states(n * 7 + len(lang), n)[::2]:
        for seat in (None, 0):
            view = GAME.view(state, seat)
            png = renderer.png(view, ctx)
            image = Image.open(io.BytesIO(png))
            assert len(png) <= 120_000 and image.size[0] == picture.WIDTH
            assert image.size[1] <= 1_400
            market = Image.open(io.BytesIO(renderer.market(view, ctx)))
            assert market.size[0] == picture.WIDTH and market.size[1] <= 2_400
    assert sizes and min(sizes) >= legible(picture.WIDTH)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def _hide_otherwise(state: State, rng: random.Random) -> State:
    """The same public position with other secrets: other quest hands and deck, other
    face-down event tokens and garden tiles."""
    other = clone(state)
    quests = other["quests"]
    pool = list(D.QUESTS)
    rng.shuffle(pool)
    quests["hands"] = [[pool.pop() for _ in hand] for hand in quests["hands"]]
    quests["returned"] = [None if q is None else pool.pop() for q in quests["returned"]]
    quests["deck"] = pool[: len(quests["deck"])]
    for rid, site in other["sites"].items():
        if not site[1]:
            site[0] = rng.choice(D.EVENTS[D.REGIONS[rid].terrain])
    for storey, tile in enumerate(other["gardens"]):
        if not tile[1]:
            tile[0] = rng.choice(D.GARDEN_TILES[storey + 1])
    return other


@pytest.mark.parametrize("n", [2, 4])
def test_the_public_image_shows_no_secret(n: int) -> None:
    rng = random.Random(n)
    ctx = RenderContext(NAMES[:n], "en")
    for state in states(40 + n, n)[-2:]:
        other = _hide_otherwise(state, rng)
        assert other["quests"] != state["quests"]
        for lang in ("en", "fr"):
            ctx = RenderContext(NAMES[:n], lang)
            first, second = GAME.view(state, None), GAME.view(other, None)
            assert picture.RENDERER.png(first, ctx) == picture.RENDERER.png(second, ctx)
            assert picture.RENDERER.text(first, ctx) == picture.RENDERER.text(second, ctx)
        public = picture.RENDERER.text(GAME.view(state, None), ctx)
        for hand in state["quests"]["hands"]:
            for q in hand:
                assert translate(D.name("quest", q), "fr") not in public


def test_a_seat_sees_its_own_quests_and_only_its_own() -> None:
    state = states(5, 3)[-1]
    ctx = RenderContext(NAMES[:3])
    mine = picture.RENDERER.text(GAME.view(state, 1), ctx)
    for q in state["quests"]["hands"][1]:
        assert translate(D.name("quest", q), "en") in mine
    for seat in (0, 2):
        for q in state["quests"]["hands"][seat]:
            if q not in state["quests"]["hands"][1]:
                assert translate(D.name("quest", q), "en") + ":" not in mine
    public = picture.RENDERER.image(GAME.view(state, None), ctx)
    private = picture.RENDERER.image(GAME.view(state, 1), ctx)
    assert private.size[1] > public.size[1]


def test_the_map_is_drawn_as_regions_bordering_exactly_their_neighbours() -> None:
    """The map as a map: each region a polygon whose borders are exactly its neighbours'
    (``map.json``), every river section drawn along the border of its two banks, the label
    places (name and pieces) inside the map, apart from each other, and reproducible from
    ``map.json`` (``python -m render.mesopotamia_map``)."""
    shape = geo.geometry()
    assert set(shape.polygons) == set(D.REGIONS)
    assert set(shape.borders) == {frozenset(e) for e in maps.edges(geo.neighbours())}
    for rid, ring in shape.polygons.items():
        assert len(ring) >= 3 and all(0 <= x <= geo.WIDTH and 0 <= y <= geo.HEIGHT
                                      for x, y in ring), rid
        border = {p for n in D.REGIONS[rid].neighbours
                  for p in shape.borders[frozenset((rid, n))]}
        assert border <= set(ring), rid          # its ring is made of its borders
    for section in D.SECTIONS.values():
        assert geo.section_line(section.id) == shape.borders[frozenset(section.banks)]
    points = geo.points()
    assert maps.crossings(points, geo.neighbours()) == 0
    for a, b in itertools.combinations(D.REGIONS, 2):
        (x1, y1), (x2, y2) = points[a], points[b]
        (w1, h1), (w2, h2) = geo.label_box(a), geo.label_box(b)
        assert abs(x1 - x2) >= (w1 + w2) / 2 or abs(y1 - y2) >= (h1 + h2) / 2, (a, b)
    assert geo.spread_points() == points


def test_a_map_whose_lines_cross_is_refused() -> None:
    square = {"a": (0.0, 0.0), "b": (10.0, 10.0), "c": (10.0, 0.0), "d": (0.0, 10.0)}
    crossed = {"a": ("b", "c", "d"), "b": ("a", "c", "d"), "c": ("a", "b", "d"),
               "d": ("a", "b", "c")}
    assert maps.crossings(square, crossed) == 1
    with pytest.raises(ValueError):
        maps.region_map(square, crossed, (10, 10))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_region_name_fits_its_label(lang: str) -> None:
    for rid in D.REGIONS:
        width = fonts.font(picture.TEXT_MIN, True).getlength(picture.short_name(rid, lang))
        assert width <= geo.label_box(rid)[0] - 12, rid


def _drawn(monkeypatch: pytest.MonkeyPatch, renderer: picture.MesopotamiaRenderer
           ) -> list[str]:
    """Every text ``renderer`` pastes from now on (a fresh renderer draws every one)."""
    found: list[str] = []
    original = renderer.label

    def label(value: str, *args: Any, **kwargs: Any) -> Any:
        found.append(value)
        return original(value, *args, **kwargs)

    monkeypatch.setattr(renderer, "label", label)
    return found


def test_the_board_tells_whose_turn_the_scores_and_last_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Like Ur's board: whose turn it is, each seat's VP so far (its standing, quests left out),
    and the regions the last turn changed outlined in gold, a combat to come in red."""
    state = next(s for s in reversed(states(3, 3, 300)) if s["phase"] == "actions"
                 and (s.get("changed") or {}).get("regions"))
    view = GAME.view(state, None)
    renderer = picture.MesopotamiaRenderer()
    drawn = _drawn(monkeypatch, renderer)
    ctx = RenderContext(NAMES[:3])
    image = renderer.compose(view, ctx).convert("RGB")
    who = NAMES[state["order"][state["index"]]]
    assert any(who in text and "to play" in text for text in drawn)
    for text in GAME.standing(state):
        vp = translate(text, "en").split()[0]
        assert any(t.startswith(f"{vp} VP") for t in drawn), (vp, drawn)
    gold = picture._C["changed"]
    for rid in state["changed"]["regions"]:
        ring = picture._inset(rid, 12)
        hits = sum(image.getpixel((round(x), round(y) + picture.MAP_TOP)) == gold
                   for x, y in ring)
        assert hits > len(ring) / 3, rid
    fight = sorted(D.REGIONS)[5]
    state["units"] += [[0, "spearman", fight], [1, "spearman", fight]]
    image = renderer.compose(GAME.view(state, None), ctx).convert("RGB")
    ring = picture._inset(fight, 12)
    assert sum(image.getpixel((round(x), round(y) + picture.MAP_TOP)) ==
               picture._C["contested"] for x, y in ring) > len(ring) / 3


def test_the_text_board_names_the_phase_and_the_players() -> None:
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    setup = picture.RENDERER.text(GAME.view(GAME.setup(1, 3, {}), None), ctx)
    assert "setup" in setup and "roles" in setup and "Ann" in setup
    state = states(9, 3)[-1]
    text = picture.RENDERER.text(GAME.view(state, None), ctx)
    assert f"round {state['round']} " in text
    assert any(f"· {phase}" in text for phase in ("actions", "combat", "events"))
    for word in ("Ann", "Bob", "Cid", "Population", "Event track", "Hanging Gardens",
                 "Stone", "Exploration"):
        assert word in text
    french = picture.RENDERER.text(GAME.view(state, None), RenderContext(("Ann", "Bob", "Cid"),
                                                                         "fr"))
    assert f"manche {state['round']} " in french
    assert "Jardins suspendus" in french and "Pierre" in french


def _crowded(state: State) -> State:
    """``state`` with a piece of every kind almost everywhere: the heaviest picture."""
    crowded = clone(state)
    regions = sorted(D.REGIONS)
    kinds = ("spearman", "archer", "cavalry", "chariot", "ram")
    crowded["units"] = [[i % crowded["n"], kinds[i % len(kinds)], rid]
                        for i, rid in enumerate(regions)]
    crowded["units"] += [[i % crowded["n"], "ship", section]
                         for i, section in enumerate(sorted(D.SECTIONS)[::3])]
    for seat, player in enumerate(crowded["players"]):
        player["colonies"] = regions[seat::9][:3]
        player["ramparts"] = regions[seat::9][:2]
        player["dice"] = list(D.COLOURS)
    for site in crowded["sites"].values():
        site[1] = True
    for tile in crowded["gardens"]:
        tile[1] = True
    crowded["amphorae"] = {slot: i % crowded["n"] for i, slot in enumerate(crowded["trade"])}
    return crowded


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_crowded_board_stays_within_the_limits(lang: str) -> None:
    state = _crowded(states(11, 4)[-1])
    ctx = RenderContext(NAMES, lang)
    for seat in (None, 3):
        view = GAME.view(state, seat)
        png = picture.RENDERER.png(view, ctx)
        assert len(png) <= 120_000 and Image.open(io.BytesIO(png)).size[1] <= 1_400
        assert len(picture.RENDERER.market(view, ctx)) <= 100_000
        text = picture.RENDERER.text(view, ctx)
        assert NAMES[3] in text


def test_the_fast_board_is_the_smooth_board_in_its_palette() -> None:
    """The PNG is the composed board (a cached layer and cached pieces, one fixed palette):
    a fresh renderer draws the same picture, and the replay's frames are that picture."""
    view = GAME.view(states(4, 3)[-1], None)
    ctx = RenderContext(NAMES[:3], "fr")
    png = picture.RENDERER.png(view, ctx)
    fresh = picture.MesopotamiaRenderer()
    assert fresh.png(view, ctx) == png
    assert Image.open(io.BytesIO(png)).mode == "P"
    assert picture.RENDERER.image(view, ctx).tobytes() == \
        Image.open(io.BytesIO(png)).convert("RGB").tobytes()


# -- a seat's board and the zoomed crops -------------------------------------------------------


def _drawn_texts(monkeypatch: pytest.MonkeyPatch, module: object) -> list[str]:
    """Every text ``module`` draws from now on, directly or as a kept label of the renderer
    (the list fills as it draws)."""
    found: list[str] = []
    original, label = picture._text, picture.MesopotamiaRenderer.label

    def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
             width: float, fill: Colour = picture.INK, bold: bool = False) -> float:
        found.append(value)
        return original(draw, xy, value, size, width, fill, bold)

    def labelled(self: picture.MesopotamiaRenderer, value: str, *args: Any,
                 **kwargs: Any) -> Any:
        found.append(value)
        return label(self, value, *args, **kwargs)

    monkeypatch.setattr(module, "_text", text)
    monkeypatch.setattr(picture.MesopotamiaRenderer, "label", labelled)
    return found


@pytest.mark.parametrize(("n", "lang"), [(2, "fr"), (3, "en"), (4, "fr")])
def test_every_seat_board_is_small_and_readable_on_a_phone(
        n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue: « each player's board (technologies, dice, resources, units, tracks) as
    its own image on demand; every image at most 100 KB »."""
    sizes = font_sizes(monkeypatch)
    ctx = RenderContext(NAMES[:n], lang)
    for state in [*states(n * 5 + 1, n, 200)[::3], _crowded(states(11, n)[-1])]:
        for seat in range(n):
            for viewer in (None, seat):
                png = board.board_png(GAME.view(state, viewer), ctx, seat)
                image = Image.open(io.BytesIO(png))
                assert len(png) <= 100_000
                assert image.size[0] == picture.WIDTH and image.size[1] <= board.TALLEST
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_a_board_shows_its_quests_to_its_owner_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quests are drawn on a seat's board only in the seat's own view: another seat's
    view, or the public one, gives the same picture, with only how many quests it holds."""
    state = states(5, 3)[-1]
    ctx = RenderContext(NAMES[:3])
    drawn = _drawn_texts(monkeypatch, board)
    board.board_image(GAME.view(state, 1), ctx, 1)
    for q in state["quests"]["hands"][1]:
        assert any(translate(D.name("quest", q), "en") in line for line in drawn)
    drawn.clear()
    public = board.board_png(GAME.view(state, None), ctx, 1)
    assert board.board_png(GAME.view(state, 0), ctx, 1) == public
    other = _hide_otherwise(state, random.Random(1))
    assert board.board_png(GAME.view(other, None), ctx, 1) == public
    for hand in state["quests"]["hands"]:
        for q in hand:
            assert not any(translate(D.name("quest", q), "en") in line for line in drawn)


def test_a_board_shows_the_dice_faces_of_its_own_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The faces are drawn for the seat whose turn is under way (``t``), not for others."""
    state = next(s for s in reversed(states(3, 3, 200)) if s.get("t")
                 and s["phase"] == "actions" and None not in s["t"]["dice"] and s["t"]["dice"])
    seat = int(state["order"][state["index"]])
    ctx = RenderContext(NAMES[:3])
    drawn = _drawn_texts(monkeypatch, board)
    board.board_image(GAME.view(state, None), ctx, seat)
    faces = [translate(D.name("sign", f), "en") for f in state["t"]["dice"]]
    assert all(any(face in line for line in drawn) for face in faces)
    drawn.clear()
    board.board_image(GAME.view(state, None), ctx, (seat + 1) % 3)
    assert not any(face in line for face in faces for line in drawn if ":" in line)


def test_every_crop_holds_its_region_within_the_sizes() -> None:
    for rid in D.REGIONS:
        x0, y0, x1, y1 = picture.crop_box(rid)
        cx, cy = geo.points()[rid]
        assert x0 <= cx <= x1 and y0 <= cy <= y1
        assert picture.CROP_MIN[0] <= x1 - x0 <= picture.CROP_MAX[0]
        assert picture.CROP_MIN[1] <= y1 - y0 <= picture.CROP_MAX[1]
        assert min(x0, y0) >= 0 and x1 <= picture.WIDTH and y1 <= picture.MAP_HEIGHT


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_crops_of_a_contested_region_are_small_and_readable(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """« zoomed crops of the regions that changed or are contested »: a contested region
    says so and lists who fights there; each crop is at most 100 KB, at most four."""
    state = _crowded(states(11, 4)[-1])
    fight = sorted(D.REGIONS)[0]
    state["units"] += [[1, "archer", fight], [2, "cavalry", fight]]
    ctx = RenderContext(NAMES, lang)
    view = GAME.view(state, None)
    sizes = font_sizes(monkeypatch)
    drawn = _drawn_texts(monkeypatch, picture)
    crops = picture.crop_pngs(view, ctx, [fight, *D.REGIONS])
    assert crops[0][0] == f"zoom-{fight}.png" and len(crops) == 4
    for _, png in crops:
        image = Image.open(io.BytesIO(png))
        assert len(png) <= 100_000 and image.size[0] <= picture.CROP_MAX[0]
    assert min(sizes) * PHONE / picture.CROP_MAX[0] >= MIN_PHONE_TEXT
    title = translate(D.name("region", fight), lang)
    assert any(line.startswith(title) and line.endswith(
        tr(lang, "mesopotamia.render.contested")) for line in drawn)
    assert any(NAMES[1] in line for line in drawn) and any(NAMES[2] in line for line in drawn)


def test_the_renderer_details_are_the_market_then_the_crops_of_the_focus() -> None:
    """The turn message's extra pictures: the market (the rest of the board), then the crops of
    ``view["focus"]``."""
    state = states(7, 2)[-1]
    ctx = RenderContext(NAMES[:2])
    view = GAME.view(state, None)
    view["focus"] = []
    assert picture.RENDERER.details(view, ctx) == [("market.png",
                                                        picture.RENDERER.market(view, ctx))]
    focus = list(D.REGIONS)[:2]
    view["focus"] = focus
    assert picture.RENDERER.details(view, ctx)[1:] == picture.crop_pngs(view, ctx, focus)
    assert [name for name, _ in picture.RENDERER.details(view, ctx)] == [
        "market.png", *(f"zoom-{r}.png" for r in focus)]


@pytest.mark.slow
def test_kept_panels_draw_the_board_a_fresh_renderer_draws() -> None:
    """The players' panels are kept by what they show: along a game, in both languages and
    for every viewer, one renderer draws each board exactly as a renderer that keeps
    nothing."""
    kit = picture.MesopotamiaRenderer()
    rng = random.Random(5)
    state = GAME.setup(5, 4, {})
    for step in range(400):
        active = GAME.active(state)
        if not active or GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, active[0], rng.choice(GAME.legal(state, active[0])))
        if step % 13 == 0:
            lang, viewer = ("en", "fr")[step % 2], (None, 0, 1, 2, 3)[step % 5]
            ctx = RenderContext(NAMES[:4], lang)
            view = GAME.view(state, viewer)
            assert kit.png(view, ctx) == picture.MesopotamiaRenderer().png(view, ctx), step


def test_a_kept_market_draws_only_its_new_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The market's titles, rows and legend are drawn once each and kept: along games, in both
    languages, one renderer draws the market a fresh renderer draws, and a market whose trade
    token changed hands draws that row only."""
    kit = picture.MesopotamiaRenderer()
    for i, state in enumerate([*states(3, 4)[::4], *states(9, 3)[::4]]):
        ctx = RenderContext(NAMES[:state["n"]], ("en", "fr")[i % 2])
        view = GAME.view(state, None)
        assert kit.market(view, ctx) == picture.MesopotamiaRenderer().market(view, ctx), i
    drawn: list[Any] = []
    real = picture.market_row
    monkeypatch.setattr(picture, "market_row", lambda row: drawn.append(row) or real(row))
    state = clone(states(3, 4)[-1])
    ctx = RenderContext(NAMES[:4])
    slot = next(iter(state["trade"]))
    state["amphorae"] = {slot: 0}
    kit.market(GAME.view(state, None), ctx)
    state["amphorae"] = {slot: 1}
    drawn.clear()
    kit.market(GAME.view(state, None), ctx)
    assert len(drawn) == 1 and drawn[0][3] == picture.colour(GAME.view(state, None), 1)


def test_a_turn_message_crops_the_board_it_has_just_drawn() -> None:
    """The workers draw a turn message's board and its details in one job: the crops are cut
    from that board, and they are the crops a fresh renderer draws; a view changed since is
    drawn anew."""
    from host.workers import render_turn
    state = states(7, 2)[-1]
    ctx = RenderContext(NAMES[:2])
    view = {**GAME.view(state, None), "focus": list(D.REGIONS)[:2]}
    fresh = picture.MesopotamiaRenderer()
    expected = (fresh.png(view, ctx), picture.MesopotamiaRenderer().details(view, ctx))
    assert render_turn("mesopotamia", view, ctx) == expected
    kit = picture.MesopotamiaRenderer()
    kit.png(view, ctx)
    other = {**GAME.view(states(8, 2)[-1], None), "focus": view["focus"]}
    assert kit.details(other, ctx) == picture.MesopotamiaRenderer().details(other, ctx)
    assert kit.details(other, ctx) != expected[1]


def test_the_whole_map_stays_under_250_kb() -> None:
    """« at most 250 KB for the whole map » (the board keeps to 100 KB)."""
    state = _crowded(states(11, 4)[-1])
    for lang in ("en", "fr"):
        png = picture.RENDERER.png(GAME.view(state, 2), RenderContext(NAMES, lang))
        assert len(png) <= 250_000


class _Focused(picture.MesopotamiaRenderer):
    """The renderer, always zooming on two regions (the engine's own ``view["focus"]`` names
    none before anything changed, as on a game's first turn message)."""

    def details(self, view: dict[str, Any], ctx: RenderContext) -> list[tuple[str, bytes]]:
        return super().details({**view, "focus": focus_regions(view, list(D.REGIONS)[:2])},
                               ctx)


def _posting(game: str, state: State, n: int) -> tuple[Any, Any]:
    """A bot whose workers draw in a thread, and a record of ``game`` at ``state``."""
    from host.workers import Workers  # not at the top: the bot process imports ENTRY below
    seats = [SeatInfo(s, 100 + s, NAMES[s]) for s in range(n)]
    record = SimpleNamespace(id=1, game=game, state=state, seats=seats, lang="fr")
    return SimpleNamespace(workers=Workers(0)), record


async def test_a_turn_message_adds_the_crops_after_the_board(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The core asks the renderer's optional ``details`` for extra files (the market, then the
    crops), which follow the board; a game whose renderer has none gets no extra file."""
    from cogs import posting
    monkeypatch.setitem(registry.GAMES, "mesopotamia", GameEntry(GAME, _Focused()))
    state = states(7, 2)[-1]
    bot, record = _posting("mesopotamia", state, 2)
    files = await posting.turn_files(bot, record, "fr")
    assert [f.filename for f in files] == ["board.png", "market.png", *(
        f"zoom-{r}.png" for r in focus_regions(state, list(D.REGIONS)[:2]))]
    monkeypatch.setitem(registry.GAMES, "mesopotamia", GameEntry(GAME, picture.RENDERER))
    record.state = {**state, "changed": None}
    assert [f.filename for f in await posting.turn_files(bot, record, "fr")] == [
        "board.png", "market.png"]
    bot, record = _posting("ur", registry.get("ur").engine.setup(1, 3, {}), 3)
    assert [f.filename for f in await posting.turn_files(bot, record, "en")] == ["board.png"]


def test_the_zoom_and_board_commands_read_names_in_the_reader_language() -> None:
    """``/mesopotamia zoom`` takes a region's id or name (French or English);
    ``/mesopotamia board`` a seat's number (what the autocomplete sends) or name."""
    from cogs import mesopotamia as command
    rid = next(iter(D.REGIONS))
    for lang in ("fr", "en"):
        assert command.region_of(translate(D.name("region", rid), lang).upper(), "fr") == rid
    assert command.region_of(rid, "en") == rid and command.region_of("Atlantis", "en") is None
    _, record = _posting("mesopotamia", states(7, 3)[-1], 3)
    assert command.seat_of_typed(record, "2", "en") == 2
    assert command.seat_of_typed(record, "bob", "en") == 1
    assert command.seat_of_typed(record, "7", "en") is None


ENTRY = GameEntry(GAME, _Focused(), extension="cogs.mesopotamia",
                  pictures=(board.board_png, picture.crop_pngs))
"""Mesopotamia as the end-to-end bot loads it (``DINGIR_EXTRA_GAMES``), with its command
group, and a renderer that always zooms on two regions (so that the first turn message
already carries crops)."""


@pytest.mark.slow
async def test_end_to_end_the_crops_follow_the_board_and_the_commands_answer_privately(
        tmp_path: Path) -> None:
    """A turn message carries the board first, then the crops; ``/mesopotamia board`` shows
    a player their own board, and a stranger must name a seat; ``/mesopotamia zoom``
    answers privately, its regions offered in the reader's language."""
    async with world(tmp_path, DINGIR_EXTRA_GAMES="tests.test_render_mesopotamia") as w:
        ann, bob, eve = w.user("ann"), w.user("bob", locale="fr"), w.user("eve")
        post = await open_game(w, ann, [bob], game="mesopotamia", title="Mesopotamia")
        focus = focus_regions({"units": [], "tribes": {}}, list(D.REGIONS)[:2])
        assert [a.filename for a in post.attachments] == [
            "board.png", "market.png", *(f"zoom-{r}.png" for r in focus)]
        own = await (await ann.slash("mesopotamia board", channel=w.channel)).final()
        assert own.ephemeral and own.pngs and "ann" in own.text, own.text
        refused = await (await eve.slash("mesopotamia board", channel=w.channel)).final()
        assert refused.ephemeral and not refused.pngs and "choose a player" in refused.text
        seats = await eve.autocomplete("mesopotamia board", "player", "bo", channel=w.channel)
        assert [c["name"] for c in seats] == ["bob"], seats
        public = await (await eve.slash("mesopotamia board", channel=w.channel,
                                        player=seats[0]["value"])).final()
        assert public.ephemeral and public.pngs and "bob" in public.text, public.text
        rid = next(iter(D.REGIONS))
        name = translate(D.name("region", rid), "fr")
        offered = await bob.autocomplete("mesopotamia zoom", "region", name[:4],
                                         channel=w.channel)
        assert {"name": name, "value": rid} in offered, offered
        zoom = await (await bob.slash("mesopotamia zoom", channel=w.channel,
                                      region=rid)).final()
        assert zoom.ephemeral and zoom.pngs and name in zoom.text, zoom.text
        lost = await (await bob.slash("mesopotamia zoom", channel=w.channel,
                                      region="Atlantis")).final()
        assert lost.ephemeral and not lost.pngs and "Atlantis" in lost.text
        assert "choisissez une des régions" in lost.text, lost.text
        nobody = await (await eve.slash("mesopotamia board", channel=w.channel,
                                        player="zed")).final()
        assert nobody.ephemeral and not nobody.pngs and "choose one of the names" in nobody.text


def test_a_seat_reads_its_quest_names_on_the_map_and_texts_on_the_board() -> None:
    """The map names a seat's own quests only (two a line, so that it keeps within its
    height), even a hand grown by events; the player's board keeps their texts."""
    state = states(7, 3)[-1]
    hand = [q for q in D.QUESTS if q not in state["quests"]["hands"][0]][:6]
    state["quests"]["hands"][0] = hand
    view = GAME.view(state, 0)
    ctx = RenderContext(("ann", "bob", "cid"), "en")
    names = picture._quest_lines(view, ctx, None, 0)
    texts = picture._quest_lines(view, ctx, 600)
    assert all(translate(D.name("quest", q), "en") in names for q in hand)
    assert len(texts) > len(names)
    image = Image.open(io.BytesIO(picture.RENDERER.png(view, ctx)))
    assert image.size[1] == picture.height(3, len(names) - 1) <= 1_400


@pytest.mark.parametrize(("n", "lang"), [(5, "en"), (6, "fr")])
def test_at_five_and_six_a_seat_reads_its_quests_in_the_legends_row(
        n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issues 25 and 28: at 5-6 players a seat's own view is no taller than the public one
    (1,400 px at 6): its quests' names, uncut, in one strip where the public board has its
    legend; a hand grown by events is cut to equal shares, never taller; the rest of the
    picture is the public one's."""
    from tests.test_mesopotamia_setup import random_setup
    texts = _drawn_texts(monkeypatch, picture)
    sizes = font_sizes(monkeypatch)
    state, _ = random_setup(n, n)
    ctx = RenderContext((*NAMES, "Ezekiel", "Fatima")[:n], lang)
    kit = picture.MesopotamiaRenderer()
    public = kit.image(GAME.view(state, None), ctx)
    texts.clear()
    own = kit.image(GAME.view(state, 0), ctx)
    names = [translate(D.name("quest", q), lang) for q in state["quests"]["hands"][0]]
    assert names and all(name in texts for name in names)
    assert tr(lang, "mesopotamia.render.changed") not in texts
    assert own.size == public.size and public.size[1] == picture.height(n) <= 1_400
    strip = (0, picture.MAP_TOP + picture.MAP_HEIGHT, picture.WIDTH,
             picture.MAP_TOP + picture.MAP_HEIGHT + picture.LEGEND)
    assert own.crop(strip).tobytes() != public.crop(strip).tobytes()
    below = (0, strip[3], picture.WIDTH, public.size[1])
    assert own.crop((0, 0, picture.WIDTH, strip[1])).tobytes() == \
        public.crop((0, 0, picture.WIDTH, strip[1])).tobytes()
    assert own.crop(below).tobytes() == public.crop(below).tobytes()
    state["quests"]["hands"][0] = list(D.QUESTS)[:6]
    grown = kit.image(GAME.view(state, 0), ctx)
    assert grown.size == public.size
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_names_under_the_map_fit_uncut(lang: str) -> None:
    """The tracks' and the Hanging Gardens' names fit their room at the smallest size, so no
    ellipsis cuts them in either language."""
    face = fonts.font(picture.TEXT_MIN, True)
    for track in D.TRACKS:
        name = tr(lang, f"mesopotamia.render.track_short.{track}")
        assert face.getlength(name) <= picture._track_cells(track)[0] - picture.MARGIN - 6
    gardens = tr(lang, "mesopotamia.render.gardens")
    assert face.getlength(gardens) <= picture.GARDEN_X - picture.MARGIN - 8


def automaton_states(seed: int, n: int, steps: int = 600) -> list[State]:
    """A game with the Automaton in the last seat (played by its cards, the others at random),
    sampled once the rounds began."""
    rng = random.Random(seed)
    state = GAME.setup(seed, n, {"automaton": "anunnaki"})
    found = []
    for _ in range(steps):
        active = GAME.active(state)
        if not active or GAME.outcome(state) is not None:
            break
        seat = active[0]
        step = automaton.next_step(state, seat) if automaton.plays(state, seat) else \
            rng.choice(GAME.legal(state, seat)).notation
        state = GAME.apply(state, seat, step)
        if state.get("round") and rng.random() < 0.05:
            found.append(state)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("n", "lang"), [(2, "fr"), (4, "en")])
def test_an_automaton_panel_shows_its_cards_readable_and_kept(
        n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: an Automaton's panel adds a line, its difficulty and face-up Strategy cards
    with their Amphorae, readable on a phone; at 4 seats the public board stays 1,400 px tall
    at most (a seat's own, with its quests, that line more); kept panels (their key holds that
    line) draw what a fresh renderer draws."""
    sizes = font_sizes(monkeypatch)
    kit = picture.MesopotamiaRenderer()
    ctx = RenderContext(NAMES[:n], lang)
    shown = automaton_states(n, n)
    assert len(shown) > 3
    for state, viewer in itertools.product(shown, (None, 0)):
        view = GAME.view(state, viewer)
        line = picture._automaton_line(view, ctx, n - 1)
        own = view["automata"][str(n - 1)]
        assert all(tr(lang, f"mesopotamia.automaton.title.{c}") in line for c in own["shown"])
        assert not picture._automaton_line(view, ctx, 0)
        png = kit.png(view, ctx)
        image = Image.open(io.BytesIO(png))
        tallest = 1_400 + (0 if viewer is None else picture.AUTOMATON_ROW)
        assert len(png) <= 120_000 and image.size[1] <= tallest
        assert png == picture.MesopotamiaRenderer().png(view, ctx)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT
