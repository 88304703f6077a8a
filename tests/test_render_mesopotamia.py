"""The Mesopotamia pictures: within the size limits, readable on a phone, no secret in the
public image, the cards of the map apart, and a text board that names the phase and the
players."""

from __future__ import annotations

import io
import itertools
import random
import time

import pytest
from PIL import Image

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import clone
from bot.i18n import translate
from render import fonts
from render import mesopotamia as picture
from render.context import RenderContext
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

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
def test_every_view_is_small_fast_and_readable_on_a_phone(
        n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = font_sizes(monkeypatch)
    ctx = RenderContext(NAMES[:n], lang)
    slowest = 0.0
    for state in states(n * 7 + len(lang), n)[::2]:
        for seat in (None, 0):
            start = time.perf_counter()
            png = picture.RENDERER.png(GAME.view(state, seat), ctx)
            slowest = max(slowest, time.perf_counter() - start)
            image = Image.open(io.BytesIO(png))
            assert len(png) <= 100_000 and image.size[0] == picture.WIDTH
            assert max(image.size) <= 3000
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT
    assert slowest < 1.0


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


def test_the_map_cards_do_not_overlap_and_stay_on_the_map() -> None:
    cards = picture.layout()
    assert set(cards) == set(D.REGIONS)
    for key, (x, y, w, h) in cards.items():
        assert w / 2 <= x <= picture.WIDTH - w / 2, key
        assert h / 2 <= y <= picture.MAP_HEIGHT - h / 2, key
    for a, b in itertools.combinations(cards, 2):
        (x1, y1, w1, h1), (x2, y2, w2, h2) = cards[a], cards[b]
        assert abs(x1 - x2) >= (w1 + w2) / 2 or abs(y1 - y2) >= (h1 + h2) / 2, (a, b)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_region_name_fits_its_card(lang: str) -> None:
    for rid in D.REGIONS:
        width = fonts.font(picture.TEXT_MIN).getlength(picture.short_name(rid, lang))
        assert width <= picture.CARD[0] - 8, rid


def test_the_text_board_names_the_phase_and_the_players() -> None:
    ctx = RenderContext(("Ann", "Bob", "Cid"))
    setup = picture.RENDERER.text(GAME.view(GAME.setup(1, 3, {}), None), ctx)
    assert "setup" in setup and "roles" in setup and "Ann" in setup
    state = states(9, 3)[-1]
    text = picture.RENDERER.text(GAME.view(state, None), ctx)
    assert "round 1" in text
    assert any(f"· {phase}" in text for phase in ("actions", "combat", "events"))
    for word in ("Ann", "Bob", "Cid", "Population", "Event track", "Hanging Gardens",
                 "Stone", "Exploration"):
        assert word in text
    french = picture.RENDERER.text(GAME.view(state, None), RenderContext(("Ann", "Bob", "Cid"),
                                                                         "fr"))
    assert "manche 1" in french and "Jardins suspendus" in french and "Pierre" in french


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
        start = time.perf_counter()
        png = picture.RENDERER.png(view, ctx)
        assert time.perf_counter() - start < 1.0
        assert len(png) <= 100_000
        text = picture.RENDERER.text(view, ctx)
        assert NAMES[3] in text
