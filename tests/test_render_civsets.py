"""The Civilizations pictures: a map with the cards on each territory, the last turn framed
and told, whose turn it is, scores; small, readable on a phone, one fixed palette, a hand
only in its player's picture."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.games.civsets.engine import GAME
from bot.i18n import catalogue
from render import civsets as picture
from render.context import RenderContext
from render.draw import legible
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

NAMES = ("A very long player name indeed", "Bob", "Cid", "Dee", "Éloïse", "Fatima")
MAX_BYTES = 120_000


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


def rgb(view: dict[str, Any], names: tuple[str, ...] = NAMES, lang: str = "en") -> Image.Image:
    png = picture.RENDERER.png(view, RenderContext(names[:view["n"]], lang))
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_view_is_small_and_readable_on_a_phone(players: int, lang: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = font_sizes(monkeypatch)
    renderer = picture.CivilizationsRenderer()      # fresh: every text is drawn again
    ctx = RenderContext(NAMES[:players], lang)
    for state in states(players):
        for seat in (None, 0):
            png = renderer.png(GAME.view(state, seat), ctx)
            image = Image.open(io.BytesIO(png))
            assert len(png) <= MAX_BYTES and image.width == picture.WIDTH
            assert image.mode == "P"                 # indexed: one fixed palette
    assert sizes and min(sizes) >= legible(picture.WIDTH)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_the_map_shows_each_card_in_its_space_in_its_players_colour() -> None:
    view = picture.sample_view()
    image = rgb(view)
    for civ, rows in view["map"].items():
        for number, (seat, _) in picture._spaces(rows).items():
            x, y = picture._slot_xy(civ, number)
            corner = image.getpixel((x + 6, y + 6))
            assert corner in (picture.SEAT_COLOURS[seat], picture.HIGHLIGHT), (civ, number)
    x, y = picture._slot_xy("sumerians", 12)            # an empty space
    assert image.getpixel((x + 6, y + 6)) not in picture.SEAT_COLOURS


def test_the_last_turns_cards_are_framed_and_told() -> None:
    view = picture.sample_view()
    image = rgb(view)
    framed = [picture._slot_xy("romans", n) for n in (1, 2)]
    plain = picture._slot_xy("romans", 3)
    assert all(image.getpixel((x + 2, y + SLOT_MIDDLE)) == picture.HIGHLIGHT for x, y in framed)
    assert image.getpixel((plain[0] + 2, plain[1] + SLOT_MIDDLE)) != picture.HIGHLIGHT
    view["last_turn"] = {"seat": 1, "events": []}
    assert rgb(view).getpixel((framed[0][0] + 2, framed[0][1] + SLOT_MIDDLE)) != \
        picture.HIGHLIGHT
    told = [picture.event_text(e, RenderContext(NAMES)) for e in picture.sample_view()[
        "last_turn"]["events"]]
    assert told == ["placed 2 Roman cards", "challenged Dee: Socrates ✓"]


SLOT_MIDDLE = picture.SLOT[1] // 2


def test_whose_turn_and_the_winners_are_marked() -> None:
    view = picture.sample_view()
    panels = {seat: (picture.MARGIN + (seat % picture.COLUMNS) * (picture.PANEL[0] + 8) + 40,
                     picture.PLAYERS_TOP + (seat // picture.COLUMNS) * picture.PANEL_STEP + 1)
              for seat in range(6)}
    image = rgb(view)
    assert image.getpixel(panels[2]) == picture.SEAT_COLOURS[2]          # deciding: bold edge
    assert image.getpixel(panels[1]) != picture.SEAT_COLOURS[1]
    view["over"] = True
    winner = max(range(6), key=lambda s: (len(view["sets"][s]), view["points"][s]))
    assert rgb(view).getpixel(panels[winner]) == picture.GOLD


def test_a_hand_shows_only_in_its_players_picture() -> None:
    state = states(3)[3]
    public = rgb(GAME.view(state, None))
    mine = rgb(GAME.view(state, 0))
    assert mine.height > public.height
    assert mine.crop((0, 0, public.width, public.height - picture.LEGEND)).tobytes() == \
        public.crop((0, 0, public.width, public.height - picture.LEGEND)).tobytes()
    text = picture.RENDERER.text(GAME.view(state, 0), RenderContext(NAMES[:3]))
    assert "Your hand" not in text     # the terminal shows the hand once, in the prompt


def test_the_text_board_names_territories_players_and_who_decides() -> None:
    state = states(3)[-1]
    text = picture.RENDERER.text(GAME.view(state, None), RenderContext(("Ann", "Bob", "Cid")))
    for word in ("Sumerians", "Romans", "Ann", "pts", "in hand", "round"):
        assert word in text


def test_the_same_view_gives_the_same_bytes_from_a_fresh_renderer() -> None:
    view = GAME.view(states(4)[5], None)
    ctx = RenderContext(NAMES[:4])
    assert picture.RENDERER.png(view, ctx) == picture.CivilizationsRenderer().png(view, ctx)


def test_render_texts_exist_in_both_languages() -> None:
    for lang in ("en", "fr"):
        keys = {k for k in catalogue(lang) if k.startswith("render.civsets.")}
        assert {"render.civsets.title", "render.civsets.last_turn",
                "render.civsets.legend.contest"} <= keys
    french = picture.event_text({"kind": "place", "civ": "greeks", "cards": ["greeks-01"] * 3},
                                RenderContext(NAMES, "fr"))
    assert french == "a posé 3 cartes grecques"
