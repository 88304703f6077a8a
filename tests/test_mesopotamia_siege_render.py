"""The board of a Siege of Ur: the Defenders' panel adds a line, their last two Action cards
and the units left beside the Population track, readable on a phone, within the image
limits."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import State
from bot.games.mesopotamia.automaton import play
from bot.games.mesopotamia.engine import GAME
from bot.i18n import tr
from render import mesopotamia as picture
from render.context import RenderContext
from render.draw import legible
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes

YOU, THEM = 0, 1


def siege_states(seed: int, every: int = 40) -> list[State]:
    """States of a Siege the AI plays, one in ``every`` steps."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 2, {"mode": "siege"})
    found: list[State] = []
    step = 0
    while GAME.outcome(state) is None:
        (seat,) = GAME.active(state)[:1]
        legal = GAME.legal(state, seat)
        if play.plays(state, seat):
            action = GAME.parse(state, seat, play.next_step(state, seat))
        else:
            chosen = GAME.ai_step(state, seat, legal, rng)
            assert chosen is not None
            action = chosen
        state = GAME.apply(state, seat, action)
        step += 1
        if state["phase"] == "actions" and step % every == 0:
            found.append(state)
    return [*found, state]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_defenders_panel_shows_their_cards_readable(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Their line names their last cards and the units left; yours has none; every text
    readable at 400 px; the image within 1,400 px and 120 KB."""
    sizes = font_sizes(monkeypatch)
    kit = picture.MesopotamiaRenderer()
    ctx = RenderContext(("Alice", "Garrison of Ur"), lang)
    shown = siege_states(5, every=15)
    assert len(shown) > 2
    for state in shown:
        for viewer in (None, YOU):
            view = GAME.view(state, viewer)
            line = picture._automaton_line(view, ctx, THEM)
            last = state["siege"]["last"] or {"cards": []}
            assert all(tr(lang, f"mesopotamia.siege.card.{c}") in line for c in last["cards"])
            assert not picture._automaton_line(view, ctx, YOU)
            png = kit.png(view, ctx)
            image = Image.open(io.BytesIO(png))
            assert len(png) <= 120_000 and image.size[1] <= 1_400
    assert min(sizes) >= legible(picture.WIDTH)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT


def test_the_units_left_shrink_as_they_are_placed() -> None:
    """The line lists only the rungs with a unit left."""
    state = siege_states(5)[0]
    ctx = RenderContext(("Alice", "Garrison of Ur"), "en")
    state["siege"]["ladder"] = {"spearman": 2, "archer": 0, "cavalry": 1, "chariot": 0}
    line = picture._automaton_line(GAME.view(state, None), ctx, THEM)
    assert "2 Spearmen" in line and "1 Cavalry unit" in line
    assert "Archer" not in line and "Chariot" not in line


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_defenders_stats_show_no_unit_limit(lang: str) -> None:
    """The Defenders count no unit limit (their units come from the ladder, R-siege-war): their
    panel shows their Population box, Event box and units, no « Units 9/8 »."""
    view = GAME.view(siege_states(2)[-1], None)
    ctx = RenderContext(("Alice", "Garrison"), lang)
    line = picture._stats_line(view, ctx, THEM)
    units = sum(1 for s, _, _ in view["units"] if s == THEM)
    assert "/" not in line and line.endswith(f" {units}") and "Pop" in line
    assert "/" in picture._stats_line(view, ctx, YOU)
