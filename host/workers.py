"""Board drawing, the pictures commands draw on demand and AI searches in worker
processes, off the bot's event loop and its interpreter lock.

Drawing a board, encoding its PNG or searching an AI step costs milliseconds of CPU;
done in threads of the bot process, that work competes with the event loop for the
interpreter lock, so every interaction waits behind it. :class:`Workers` sends it to
a few worker processes instead (``DINGIR_WORKER_PROCESSES``, 2 by default; 0 runs it
in a thread of the bot process).

A worker is ``python -m host.workers``: it reads jobs from its stdin and writes the
results to its stdout, each a length-prefixed pickle, so the event loop talks to it
directly (no helper threads), and it exits as soon as its stdin closes, which is also
what happens when the bot is killed. A worker that dies is replaced and the job run
again; every job is pure (the AI's random generator comes with the job), so nothing
else is at stake.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import heapq
import itertools
import logging
import os
import pickle
import random
import struct
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO, NoReturn, ParamSpec, TypeVar

from bot import ai
from bot.beginnings import Beginning, first_state
from bot.engine import Action, Game, Seat
from bot.replay import Step, turn_states
from host import registry, timeline
from render.context import RenderContext
from render.replay import replay_gif

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger(__name__)

NICENESS = 5
"""Workers yield the CPU to the bot's event loop: on a busy machine, answers come first."""
PIPE_BYTES = 1 << 20
"""Pipe buffer asked for (Linux): a whole board fits, one write and one read per reply."""
HEADER = struct.Struct(">I")
"""Every message is its length (4 bytes, big-endian) then a pickle."""
Request = tuple[int, str, tuple[Any, ...]]
"""A job: its number, the name of its function in JOBS, the arguments."""
Reply = tuple[int, Any, str]
"""The job's number, its result (None on failure) and the failure."""


class WorkerDied(Exception):
    """A worker exited before answering, or missed its job's deadline (it was replaced)."""


DEADLINES = {"png": 15.0, "turn": 15.0, "picture": 15.0, "ai": 30.0, "replay": 120.0,
             "timeline": 120.0, "told": 120.0, "frame": 120.0}
"""Seconds a job may wait while its worker answers nothing at all before the worker is
taken for stuck (stopped, or looping): it is killed and replaced, and the job run once
more on another. A worker that keeps answering the jobs queued before it is busy, not
stuck: under load a job may wait longer than this."""
ALLOWANCES = {"png": 0.0, "turn": 0.0, "picture": 0.0, "frame": 0.0, "ai": 2.0,
              "replay": 5.0, "timeline": 5.0, "told": 5.0}
"""Seconds a job of each kind lets the jobs asked after it go first, when the workers are
all busy: a picture somebody waits for now goes before an AI's search, and both before
the long jobs of a finished game's replay or a web page's history (see :class:`_Queue`)."""
IN_FLIGHT = 4
"""Jobs a worker holds at once: the one it runs and the next ones, already in its pipe, so
that it does not wait for the bot between two jobs (a busy event loop reads a reply and
writes the next job tens of milliseconds later); the others wait in the bot, by due time."""
WARM_UP_DEADLINE = 120.0
"""Seconds a new worker may take to start and warm up (counted apart from the job's)."""
READY = -1
"""The number of the reply a worker sends once warmed up."""


def render_png(game: str, view: dict[str, Any], ctx: RenderContext, preview: bool) -> bytes:
    """``view`` of ``game`` as PNG bytes (with the preview renderer if ``preview``)."""
    entry = registry.get(game)
    renderer = entry.preview_renderer if preview else entry.renderer
    return renderer.png(view, ctx)


def render_turn(game: str, view: dict[str, Any], ctx: RenderContext
                ) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The pictures of a turn message of ``game``: its board as PNG bytes, then the extra
    pictures (the renderer's optional ``details``, as (file name, PNG); none when it has no
    such method, or when they fail: a bonus never costs the board). One job, so that a
    renderer draws the board once for both."""
    renderer = registry.get(game).renderer
    board = renderer.png(view, ctx)
    details = getattr(renderer, "details", None)
    if details is None:
        return board, []
    try:
        return board, list(details(view, ctx))
    except Exception:
        log.exception("the extra pictures of a board of %s failed", game)
        return board, []


def ai_index(game: str, view: dict[str, Any], legal: list[Action], seat: Seat,
             seed: str) -> int:
    """The index in ``legal`` of the AI's step for ``seat`` of ``game`` (its random
    generator seeded with ``seed``)."""
    action = ai.choose(registry.get(game).engine, view, legal, seat, random.Random(seed))
    return legal.index(action)


def render_replay(beginning: Beginning, steps: list[tuple[Seat, str]], ctx: RenderContext,
                  limit: int) -> bytes | None:
    """The replay GIF of the game that began as ``beginning`` and logged ``steps``, at most
    ``limit`` bytes (None when it cannot fit)."""
    entry = registry.get(beginning.game)
    engine = entry.engine
    start = first_state(engine, beginning)
    states = turn_states(engine, start, [Step(seat, notation) for seat, notation in steps])
    return replay_gif(entry.renderer, [engine.view(s, None) for s in states], ctx, limit)


def picture_name(picture: Callable[..., Any]) -> str:
    """The name ``picture`` is registered under in :data:`PICTURES`."""
    return f"{picture.__module__}.{picture.__qualname__}"


PICTURES: dict[str, Callable[..., Any]] = {
    picture_name(p): p for entry in registry.GAMES.values() for p in entry.pictures}
"""The pictures the games' commands draw on demand (:meth:`Workers.picture`), by name."""


def draw_picture(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``PICTURES[name](*args, **kwargs)``."""
    return PICTURES[name](*args, **kwargs)


JOBS: dict[str, Callable[..., Any]] = {"png": render_png, "turn": render_turn,
                                       "picture": draw_picture, "ai": ai_index,
                                       "replay": render_replay,
                                       "timeline": timeline.timeline,
                                       "told": timeline.told,
                                       "frame": timeline.board_png}
"""What a worker can be asked to run, by name."""


def warm_up() -> None:
    """Draw one board of every game with each renderer, so that palettes and cached
    pieces are ready before the first real request."""
    for game in registry.ids():
        engine = registry.get(game).engine
        seats = engine.meta.min_players
        view = engine.view(engine.setup(0, seats, {}), None)
        ctx = RenderContext(tuple(f"Player {i + 1}" for i in range(seats)))
        for preview in (False, True):
            render_png(game, view, ctx, preview)


def _read(stream: BinaryIO) -> Any:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    return pickle.loads(stream.read(HEADER.unpack(head)[0]))


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """The worker's loop: one reply per request, until ``requests`` ends."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not a pipe
        fcntl.fcntl(replies.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    os.nice(NICENESS)
    warm_up()
    reply: Reply = (READY, None, "")
    while True:
        try:
            _write(replies, reply)
        except BrokenPipeError:  # the bot is gone (killed): so is the need for results
            return
        if (request := _read(requests)) is None:
            return
        number, job, args = request
        try:
            reply = (number, JOBS[job](*args), "")
        except Exception as error:  # the bot raises it for the job that failed
            reply = (number, None, f"{type(error).__name__}: {error}")


def _write(replies: BinaryIO, reply: Reply) -> None:
    data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    replies.write(HEADER.pack(len(data)) + data)
    replies.flush()


class _Worker:
    """One worker process and the requests it has not answered yet."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.progress = time.monotonic()
        """When the worker last answered, or was given a job while idle."""
        self.killed = False
        self.ready = asyncio.Event()
        self.reader = asyncio.create_task(self._read_replies(), name="worker-replies")

    @property
    def alive(self) -> bool:
        return not self.killed and self.process.returncode is None and not self.reader.done()

    async def _read_replies(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                size = HEADER.unpack(await stdout.readexactly(HEADER.size))[0]
                number, result, error = pickle.loads(await stdout.readexactly(size))
                self.progress = time.monotonic()
                if number == READY:
                    self.ready.set()
                    continue
                done = self.waiting.pop(number, None)
                if done is None or done.done():
                    continue
                if error:
                    done.set_exception(RuntimeError(f"worker job failed: {error}"))
                else:
                    done.set_result(result)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.ready.set()     # nothing more will come: let waiting jobs find out
            for done in self.waiting.values():
                if not done.done():
                    done.set_exception(WorkerDied())
                    done.add_done_callback(lambda f: f.exception())  # its job may be gone
            self.waiting.clear()

    async def run(self, request: Request, deadline: float) -> Any:
        stdin = self.process.stdin
        assert stdin is not None
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if not self.waiting:
            self.progress = time.monotonic()
        self.waiting[request[0]] = done
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            await asyncio.wait_for(self.ready.wait(), WARM_UP_DEADLINE)
            if not self.alive:
                raise ConnectionError("the worker exited while warming up")
            stdin.write(HEADER.pack(len(data)) + data)
            await self._unless_silent(asyncio.ensure_future(stdin.drain()), request, deadline)
        except (ConnectionError, RuntimeError) as error:
            self.waiting.pop(request[0], None)
            raise WorkerDied() from error
        return await self._unless_silent(done, request, deadline)

    async def _unless_silent(self, work: asyncio.Future[Any], request: Request,
                             deadline: float) -> Any:
        """``work``'s result, waiting as long as the worker keeps answering; taken for
        stuck once it has answered nothing for ``deadline`` seconds."""
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(work), deadline)
            except TimeoutError:
                if time.monotonic() - self.progress >= deadline:
                    work.cancel()
                    self._stuck(request, deadline)

    def _stuck(self, request: Request, deadline: float) -> NoReturn:
        self.waiting.pop(request[0], None)
        log.error("worker %s missed the %.0f s deadline of a %s job: replacing it",
                  self.process.pid, deadline, request[1])
        self.kill()
        raise WorkerDied(f"worker {self.process.pid} stuck")

    def kill(self) -> None:
        """Kill the process (stopped or looping: it will not answer)."""
        self.killed = True
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
        await asyncio.gather(self.reader, return_exceptions=True)


class _Queue:
    """The jobs waiting for a place at a worker (:data:`IN_FLIGHT` per worker), served by
    due time: when the job was asked plus its kind's allowance (:data:`ALLOWANCES`), so
    that a waiting job is passed only by jobs of a more urgent kind, and never forever."""

    def __init__(self, places: int) -> None:
        self.free = places
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def take(self, due: float) -> None:
        """Wait for a free place, in turn by ``due``."""
        if self.free > 0:
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (due, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():    # given a place, gone: pass it on
                self.give()
            raise

    def give(self) -> None:
        """Free a place: to the first job still waiting for one."""
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


class Workers:
    """Runs board drawing, on-demand pictures and AI searches in ``processes`` worker
    processes (in a thread of the bot process when 0)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._workers: list[_Worker] = []
        self._numbers = itertools.count()
        self._starting = asyncio.Lock()
        self._closed = False
        self._queue = _Queue(processes * IN_FLIGHT)
        self.replaced = 0
        """Workers replaced since the start (died, or missed a deadline)."""
        self.last_replaced: float | None = None

    async def start(self) -> None:
        """Start the workers (each warms up while the bot connects)."""
        async with self._starting:
            self._workers = [w for w in self._workers if w.alive]
            while len(self._workers) < self.processes:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "host.workers",
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                self._workers.append(_Worker(process))

    async def _run(self, job: str, *args: Any) -> Any:
        """``JOBS[job](*args)`` on the least busy worker, in its turn (:class:`_Queue`);
        run again by a fresh worker if the first one died."""
        if self.processes <= 0:
            return await asyncio.to_thread(JOBS[job], *args)
        due = time.monotonic() + ALLOWANCES[job]
        for attempt in (1, 2):
            await self._queue.take(due)
            try:
                if self._closed:
                    raise WorkerDied("the workers are stopped")
                if not all(w.alive for w in self._workers) or not self._workers:
                    await self.start()
                worker = min(self._workers, key=lambda w: len(w.waiting))
                return await worker.run((next(self._numbers), job, args), DEADLINES[job])
            except WorkerDied:
                if self._closed:
                    raise
                self.replaced += 1
                self.last_replaced = time.time()
                log.warning("a worker died or was stuck (attempt %d): starting a new one",
                            attempt)
            finally:
                self._queue.give()
        raise WorkerDied()

    def health(self) -> tuple[int, int]:
        """How many workers are up, and how many were replaced since the start."""
        return sum(w.alive for w in self._workers), self.replaced

    async def png(self, game: str, view: dict[str, Any], ctx: RenderContext, *,
                  preview: bool = False) -> bytes:
        """The board as PNG bytes (drawn by the preview renderer if ``preview``)."""
        png: bytes = await self._run("png", game, view, ctx, preview)
        return png

    async def turn(self, game: str, view: dict[str, Any], ctx: RenderContext
                   ) -> tuple[bytes, list[tuple[str, bytes]]]:
        """The board and the extra pictures of a turn message (:func:`render_turn`)."""
        found: tuple[bytes, list[tuple[str, bytes]]] = await self._run("turn", game, view, ctx)
        return found

    async def picture(self, draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``draw(*args, **kwargs)``, a function registered in :data:`PICTURES` (a
        picture a command draws on demand); ValueError for any other function."""
        name = picture_name(draw)
        if PICTURES.get(name) is not draw:
            raise ValueError(f"{name} is not a registered picture")
        drawn: T = await self._run("picture", name, args, kwargs)
        return drawn

    async def ai_step(self, game: str, engine: Game, view: dict[str, Any], legal: list[Action],
                      seat: Seat, seed: str) -> Action:
        """The AI's step for ``seat`` (a :data:`bot.service.Searcher`; the worker finds
        ``engine`` again by the game's id)."""
        index: int = await self._run("ai", game, view, legal, seat, seed)
        return legal[index]

    async def replay(self, beginning: Beginning, steps: list[tuple[Seat, str]],
                     ctx: RenderContext, limit: int) -> bytes | None:
        """The replay GIF of a finished game (:func:`render_replay`)."""
        found: bytes | None = await self._run("replay", beginning, steps, ctx, limit)
        return found

    async def history(self, beginning: Beginning,
                      steps: list[tuple[Seat, str]]) -> timeline.Timeline:
        """The public history of a game, for its web page (:func:`host.timeline.timeline`)."""
        found: timeline.Timeline = await self._run("timeline", beginning, steps)
        return found

    async def told(self, beginning: Beginning, steps: list[tuple[Seat, str]],
                   turns: list[tuple[int, int]], narrate: timeline.Narrate) -> tuple[str, ...]:
        """The words of some turns of a game, for its web page (:func:`host.timeline.told`)."""
        found: tuple[str, ...] = await self._run("told", beginning, steps, turns, narrate)
        return found

    async def frame(self, beginning: Beginning, steps: list[tuple[Seat, str]], played: int,
                    ctx: RenderContext) -> bytes:
        """The public board after ``played`` of a game's ``steps`` (the start or the end
        of a turn), as PNG bytes (:func:`host.timeline.board_png`)."""
        png: bytes = await self._run("frame", beginning, steps, played, ctx)
        return png

    async def close(self) -> None:
        """Stop the workers (they finish what they were doing); no new job is taken."""
        self._closed = True
        workers, self._workers = self._workers, []
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)


if __name__ == "__main__":
    replies = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but replies may reach the bot on stdout
    serve(sys.stdin.buffer, replies)
