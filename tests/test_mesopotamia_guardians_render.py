"""The Guardians' board: the enemy's panel shows its wave and its units, whole and readable on
a phone (400 px), in English and French."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import State
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.engine import GAME
from render import fonts
from render import mesopotamia as picture
from render.context import RenderContext
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

ENEMY = 1


def states(seed: int) -> list[State]:
    """Sampled states of a game (you at random, the enemy scripted) once the rounds began."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 2, {"mode": "guardians"})
    found: list[State] = []
    while GAME.active(state):
        seat = GAME.active(state)[0]
        step = automaton.next_step(state, seat) if automaton.plays(state, seat) else \
            rng.choice(GAME.legal(state, seat)).notation
        state = GAME.apply(state, seat, step)
        if state.get("round") and rng.random() < 0.2:
            found.append(state)
    return [*found, state]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_enemy_panel_shows_its_wave_and_units_readable(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = font_sizes(monkeypatch)
    kit = picture.MesopotamiaRenderer()
    ctx = RenderContext(("Alice", "Enemy"), lang)
    shown = states(2)
    for state in shown:
        view = GAME.view(state, None)
        line = picture._automaton_line(view, ctx, ENEMY)
        assert f"{state['guardians']['wave']}/6" in line and not picture._automaton_line(
            view, ctx, 0)
        image = Image.open(io.BytesIO(kit.png(view, ctx)))
        assert image.size[1] <= 1_400
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_sixth_waves_line_fits_whole(lang: str) -> None:
    """The longest line (every kind of unit) is not cut."""
    view = {"guardians": {"seat": ENEMY, "wave": 6},
            "units": [[ENEMY, k, "ur"] for k in ("spearman", "archer", "ram", "cavalry",
                                                  "chariot") for _ in range(2)]}
    line = picture._automaton_line(view, RenderContext(("A", "B"), lang), ENEMY)
    assert "2" in line and line.count(",") == 4
    shown, size = fonts.fit(line, picture.WIDTH - 2 * picture.MARGIN - 32, picture.TEXT_MIN,
                            picture.TEXT_MIN, False)
    assert shown == line and size == picture.TEXT_MIN


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_enemy_army_is_drawn_apart_with_its_ziggurat(lang: str) -> None:
    """Its own colour (no empire: not a seat's grey, which a tribe's disc resembles), its
    Ziggurat in its region (its start: Nineveh), its stats without a Population box or a unit
    limit it does not have (R-guard-other)."""
    view = GAME.view(states(4)[0], None)
    ctx = RenderContext(("Alice", "Enemy"), lang)
    assert picture.colour(view, ENEMY) == picture.ENEMY_COLOUR != picture.colour(view, 0)
    assert view["players"][ENEMY]["start"] == "nineveh"
    line = picture._stats_line(view, ctx, ENEMY)
    assert "/" not in line and "Pop" not in line and "Zig" not in line
    assert "/" in picture._stats_line(view, ctx, 0)
