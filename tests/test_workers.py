"""Worker processes: the same boards, pictures and AI steps as in the bot, a dead worker
replaced, no orphans."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import ai
from bot.games.mesopotamia import data as MESOPOTAMIA
from bot.records import SeatInfo
from host import registry
from host.workers import DEADLINES, JOBS, Workers, picture_name, render_png
from render.context import RenderContext
from render.flood_tables import PAGES, tables_png
from render.mesopotamia import crop_pngs
from render.mesopotamia_board import board_png

CTX = RenderContext(("Ninsun", "Gilgamesh", "Enkidu"))


def sample_view() -> dict[str, object]:
    engine = registry.get("ur").engine
    return engine.view(engine.setup(4, 3, {}), None)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] != "Z"


async def test_workers_draw_the_same_bytes_and_replace_a_dead_worker() -> None:
    view = sample_view()
    workers = Workers(1)
    await workers.start()
    try:
        assert await workers.png("ur", view, CTX) == render_png("ur", view, CTX, False)
        preview = await workers.png("ur", view, CTX, preview=True)
        assert preview == render_png("ur", view, CTX, True) != render_png("ur", view, CTX, False)
        first = workers._workers[0].process
        first.kill()
        await first.wait()
        assert await workers.png("ur", view, CTX) == render_png("ur", view, CTX, False)
        assert workers._workers[0].process is not first
        many = await asyncio.gather(*(workers.png("ur", view, CTX) for _ in range(5)))
        assert len(set(many)) == 1
    finally:
        await workers.close()
    assert workers._workers == []
    assert first.returncode is not None


async def test_zero_processes_draws_in_a_thread_of_the_bot() -> None:
    view = sample_view()
    assert await Workers(0).png("ur", view, CTX) == render_png("ur", view, CTX, False)


async def test_workers_choose_the_ai_step_the_bot_would_choose() -> None:
    engine = registry.get("ur").engine
    state = engine.setup(4, 3, {})
    rng = random.Random(5)
    for _ in range(6):      # into the game, where the AI has choices to weigh
        seat = engine.active(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
    while len(engine.legal(state, seat := engine.active(state)[0])) < 3:
        state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
    view, legal = engine.view(state, seat), engine.legal(state, seat)
    workers = Workers(1)
    await workers.start()
    try:
        for seed in ("4:7", "4:8", "9:7"):
            here = ai.choose(engine, view, legal, seat, random.Random(seed))
            assert await workers.ai_step("ur", engine, view, legal, seat, seed) == here
            assert await Workers(0).ai_step("ur", engine, view, legal, seat, seed) == here
    finally:
        await workers.close()


OWNER = """
import asyncio, sys
from host.workers import Workers
async def main():
    workers = Workers(1)
    await workers.start()
    print(workers._workers[0].process.pid, flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


@pytest.mark.slow
async def test_a_killed_bot_leaves_no_worker_behind() -> None:
    owner = await asyncio.create_subprocess_exec(
        sys.executable, "-c", OWNER, stdout=asyncio.subprocess.PIPE)
    assert owner.stdout is not None
    worker = int(await asyncio.wait_for(owner.stdout.readline(), 30))
    assert alive(worker)
    owner.send_signal(signal.SIGKILL)
    await owner.wait()
    deadline = time.monotonic() + 20
    while alive(worker) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not alive(worker)


@pytest.mark.slow
async def test_a_stopped_worker_is_replaced_and_the_job_still_done(monkeypatch) -> None:
    monkeypatch.setitem(DEADLINES, "png", 2.0)
    view = sample_view()
    workers = Workers(1)
    await workers.start()
    try:
        assert await workers.png("ur", view, CTX) == render_png("ur", view, CTX, False)
        stuck = workers._workers[0].process
        stuck.send_signal(signal.SIGSTOP)      # stopped: alive, but never answers
        assert await workers.png("ur", view, CTX) == render_png("ur", view, CTX, False)
        assert workers.health() == (1, 1)
        assert workers._workers[0].process is not stuck
        await asyncio.wait_for(stuck.wait(), 10)
    finally:
        await workers.close()


@pytest.mark.slow
async def test_a_busy_worker_is_not_taken_for_stuck(monkeypatch) -> None:
    monkeypatch.setitem(DEADLINES, "png", 0.3)
    views = [sample_view()] * 120               # a queue far longer than the deadline
    workers = Workers(1)
    await workers.start()
    try:
        started = time.monotonic()
        pngs = await asyncio.gather(*(workers.png("ur", v, CTX) for v in views))
        assert time.monotonic() - started > 0.3  # the last ones waited past the deadline
        assert len(set(pngs)) == 1 and workers.health() == (1, 0)    # nobody replaced
    finally:
        await workers.close()


class _Core:
    """The part of the game service's core the ``/mesopotamia`` commands read: one game,
    whose first seat is the user 100."""

    def __init__(self, record: object) -> None:
        self.record = record

    async def get(self, channel_id: int) -> object:
        return self.record

    def seat_of(self, record: object, user_id: int) -> int | None:
        return 0 if user_id == 100 else None

    def engine(self, game: str) -> object:
        return registry.get(game).engine


async def test_the_pictures_of_commands_are_drawn_by_the_worker_processes(monkeypatch) -> None:
    """``/mesopotamia board``, ``/mesopotamia zoom`` and ``/flood tables`` send their
    pictures to the workers as jobs, which a worker process draws (the job changed in this
    process only changes what ``Workers(0)`` draws, in a thread of this process): the same
    bytes as drawn directly. A function that is not a registered picture is refused."""
    from cogs.flood import pages
    from cogs.mesopotamia import Mesopotamia
    engine = registry.get("mesopotamia").engine
    state = engine.setup(3, 2, {})
    seats = [SeatInfo(s, 100 + s, CTX.names[s]) for s in range(2)]
    record = SimpleNamespace(id=1, game="mesopotamia", state=state, seats=seats)
    rid = next(iter(MESOPOTAMIA.REGIONS))
    user = SimpleNamespace(channel_id=5, user=SimpleNamespace(id=100))
    ctx = RenderContext(CTX.names[:2], "fr")
    monkeypatch.setitem(JOBS, "picture", lambda *args: b"drawn in the bot process")
    assert await Workers(0).picture(tables_png, "fr", 0) == b"drawn in the bot process"
    workers, sent = Workers(1), []
    submit = workers._run

    async def spy(job: str, *args: object) -> object:
        sent.append((job, args[0]))
        return await submit(job, *args)

    monkeypatch.setattr(workers, "_run", spy)
    await workers.start()
    try:
        service = SimpleNamespace(core=_Core(record))
        cog = Mesopotamia(SimpleNamespace(service=service, workers=workers))
        _, own = await cog._board(user, None, "fr")
        assert own == board_png(engine.view(state, 0), ctx, 0)
        _, zoom = await cog._zoom(user, rid, "fr")
        assert zoom == crop_pngs(engine.view(state, 0), ctx, [rid])[0][1]
        assert await pages(workers, "fr") == [tables_png("fr", p) for p in range(len(PAGES))]
        assert sent == [("picture", picture_name(f))
                        for f in (board_png, crop_pngs, tables_png, tables_png)]
        assert workers.health() == (1, 0)
        with pytest.raises(ValueError, match="not a registered picture"):
            await workers.picture(render_png, "ur", sample_view(), CTX, False)
    finally:
        await workers.close()
