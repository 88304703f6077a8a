"""The replay animation of a finished game: drawn by the workers, one frame per turn (at most
MAX_FRAMES, evenly spaced), under the upload limit."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from bot.beginnings import Beginning
from bot.replay import Step, turn_states
from host import registry
from host.workers import Workers
from render.context import RenderContext
from render.replay import MAX_FRAMES, spaced

CTX = RenderContext(("Ann", "Bob", "Eve"), "en")


def finished_ur(seed: int) -> list[tuple[int, str]]:
    """The steps of a random game of Ur played to its end."""
    engine = registry.get("ur").engine
    rng = random.Random(seed)
    state, steps = engine.setup(seed, 3, {}), []
    while engine.outcome(state) is None:
        seat = rng.choice(engine.active(state))
        action = rng.choice(engine.legal(state, seat))
        steps.append((seat, action.notation))
        state = engine.apply(state, seat, action)
    return steps


def test_spaced_keeps_the_first_and_the_last_and_at_most_the_limit() -> None:
    assert spaced(list(range(5)), 10) == [0, 1, 2, 3, 4]
    picked = spaced(list(range(1000)), 10)
    assert len(picked) == 10 and picked[0] == 0 and picked[-1] == 999
    assert picked == sorted(set(picked))


@pytest.mark.slow
def test_the_workers_draw_one_frame_a_turn_under_the_limit() -> None:
    steps = finished_ur(3)
    engine = registry.get("ur").engine
    start = engine.setup(3, 3, {})
    turns = len(turn_states(engine, start, [Step(s, n) for s, n in steps]))

    async def draw(limit: int) -> bytes | None:
        return await Workers(0).replay(Beginning("ur", 3, 3, {}), steps, CTX, limit)

    gif = asyncio.run(draw(9_500_000))
    assert gif is not None and len(gif) <= 9_500_000
    animation = Image.open(io.BytesIO(gif))
    assert animation.format == "GIF"
    assert animation.n_frames == min(turns, MAX_FRAMES) and turns > 2
    assert asyncio.run(draw(1_000)) is None
