"""The jobs waiting for a worker: a picture somebody waits for goes before an AI's search,
no job waits for ever, and a place given to a job that is gone is passed on."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.engine import Action, Game, Seat
from host import registry
from host.workers import ALLOWANCES, IN_FLIGHT, Workers, _Queue
from render.context import RenderContext

CTX = RenderContext(("Ninsun", "Gilgamesh", "Enkidu"))


async def _taken(queue: _Queue, due: float, name: str, order: list[str]) -> None:
    await queue.take(due)
    order.append(name)


async def test_places_go_by_due_time_and_a_cancelled_job_passes_its_place_on() -> None:
    queue = _Queue(1)
    await queue.take(0.0)                       # the only place, taken
    order: list[str] = []
    late = asyncio.create_task(_taken(queue, 7.0, "ai asked first", order))
    gone = asyncio.create_task(_taken(queue, 1.0, "gone", order))
    soon = asyncio.create_task(_taken(queue, 2.0, "board asked later", order))
    await asyncio.sleep(0)
    assert order == [] and queue.free == 0
    gone.cancel()
    queue.give()
    await asyncio.sleep(0)
    assert order == ["board asked later"]
    queue.give()
    await asyncio.sleep(0)
    assert order == ["board asked later", "ai asked first"]
    queue.give()
    assert queue.free == 1 and late.done() and soon.done() and gone.cancelled()


async def test_a_place_given_to_a_job_cancelled_meanwhile_goes_to_the_next() -> None:
    queue = _Queue(1)
    await queue.take(0.0)
    order: list[str] = []
    first = asyncio.create_task(_taken(queue, 1.0, "first", order))
    second = asyncio.create_task(_taken(queue, 2.0, "second", order))
    await asyncio.sleep(0)
    queue.give()                                # to "first", which is cancelled before it runs
    first.cancel()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert order == ["second"] and first.cancelled() and second.done()


def _ur_decision() -> tuple[Game, dict[str, Any], list[Action], Seat]:
    engine = registry.get("ur").engine
    state = engine.setup(4, 3, {})
    rng = random.Random(5)
    for _ in range(6):
        seat = engine.active(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
    seat = engine.active(state)[0]
    return engine, engine.view(state, seat), engine.legal(state, seat), seat


async def test_a_board_asked_after_ai_searches_is_drawn_before_those_still_waiting() -> None:
    assert ALLOWANCES["ai"] > ALLOWANCES["turn"] == ALLOWANCES["png"] == 0
    engine, view, legal, seat = _ur_decision()
    public = engine.view(engine.setup(4, 3, {}), None)
    workers = Workers(1)
    await workers.start()
    done: list[str] = []

    async def ai(n: int) -> None:
        await workers.ai_step("ur", engine, view, legal, seat, f"4:{n}")
        done.append(f"ai {n}")

    async def board() -> None:
        await workers.png("ur", public, CTX)
        done.append("board")

    try:
        searches = 6
        await asyncio.gather(*(ai(n) for n in range(searches)), board())
        # the worker held IN_FLIGHT searches when the board was asked: it passed the rest
        assert done.index("board") == IN_FLIGHT, done
        assert len(done) == searches + 1
    finally:
        await workers.close()
