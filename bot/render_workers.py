"""Board rendering in worker processes, off the bot's event loop and its interpreter lock.

Drawing and PNG encoding cost milliseconds of CPU per board; done in threads of the
bot process they compete with the event loop for the interpreter lock, so every
interaction waits behind them. :class:`RenderWorkers` sends them to a few worker
processes instead (``DINGIR_RENDER_PROCESSES``, 2 by default; 0 renders in a thread
of the bot process).

A worker is ``python -m bot.render_workers``: it reads requests from its stdin and
writes the PNGs to its stdout, each a length-prefixed pickle, so the event loop talks
to it directly (no helper threads), and it exits as soon as its stdin closes, which
is also what happens when the bot is killed. A worker that dies is replaced and the
board drawn again; drawing is pure, so nothing else is at stake.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import itertools
import logging
import os
import pickle
import struct
import sys
from typing import Any, BinaryIO

from bot import registry
from render.context import RenderContext

log = logging.getLogger(__name__)

NICENESS = 5
"""Workers yield the CPU to the bot's event loop: on a busy machine, answers come first."""
PIPE_BYTES = 1 << 20
"""Pipe buffer asked for (Linux): a whole board fits, one write and one read per reply."""
HEADER = struct.Struct(">I")
"""Every message is its length (4 bytes, big-endian) then a pickle."""
Request = tuple[int, str, dict[str, Any], RenderContext, bool]
Reply = tuple[int, bytes | None, str]


class WorkerDied(Exception):
    """A render worker exited before answering."""


def render_png(game: str, view: dict[str, Any], ctx: RenderContext, preview: bool) -> bytes:
    """``view`` of ``game`` as PNG bytes (with the preview renderer if ``preview``)."""
    entry = registry.get(game)
    renderer = entry.preview_renderer if preview else entry.renderer
    return renderer.png(view, ctx)


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
    while (request := _read(requests)) is not None:
        number, game, view, ctx, preview = request
        try:
            reply: Reply = (number, render_png(game, view, ctx, preview), "")
        except Exception as error:  # the bot raises it for the board that failed
            reply = (number, None, f"{type(error).__name__}: {error}")
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            replies.write(HEADER.pack(len(data)) + data)
            replies.flush()
        except BrokenPipeError:  # the bot is gone (killed): so is the need for boards
            return


class _Worker:
    """One worker process and the requests it has not answered yet."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: dict[int, asyncio.Future[bytes]] = {}
        self.reader = asyncio.create_task(self._read_replies(), name="render-replies")

    @property
    def alive(self) -> bool:
        return self.process.returncode is None and not self.reader.done()

    async def _read_replies(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                size = HEADER.unpack(await stdout.readexactly(HEADER.size))[0]
                number, png, error = pickle.loads(await stdout.readexactly(size))
                done = self.waiting.pop(number, None)
                if done is None or done.done():
                    continue
                if png is None:
                    done.set_exception(RuntimeError(f"render failed: {error}"))
                else:
                    done.set_result(png)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            for done in self.waiting.values():
                if not done.done():
                    done.set_exception(WorkerDied())
            self.waiting.clear()

    async def render(self, request: Request) -> bytes:
        stdin = self.process.stdin
        assert stdin is not None
        done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.waiting[request[0]] = done
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            stdin.write(HEADER.pack(len(data)) + data)
            await stdin.drain()
        except (ConnectionError, RuntimeError) as error:
            self.waiting.pop(request[0], None)
            raise WorkerDied() from error
        return await done

    async def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
        await asyncio.gather(self.reader, return_exceptions=True)


class RenderWorkers:
    """Renders boards in ``processes`` worker processes (in a thread when 0)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._workers: list[_Worker] = []
        self._numbers = itertools.count()
        self._starting = asyncio.Lock()

    async def start(self) -> None:
        """Start the workers (each warms up while the bot connects)."""
        async with self._starting:
            self._workers = [w for w in self._workers if w.alive]
            while len(self._workers) < self.processes:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.render_workers",
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                self._workers.append(_Worker(process))

    async def png(self, game: str, view: dict[str, Any], ctx: RenderContext, *,
                  preview: bool = False) -> bytes:
        """The board as PNG bytes, from the least busy worker; drawn again by a fresh
        worker if the first one died."""
        if self.processes <= 0:
            return await asyncio.to_thread(render_png, game, view, ctx, preview)
        for attempt in (1, 2):
            if not all(w.alive for w in self._workers) or not self._workers:
                await self.start()
            worker = min(self._workers, key=lambda w: len(w.waiting))
            try:
                return await worker.render((next(self._numbers), game, view, ctx, preview))
            except WorkerDied:
                log.warning("a render worker died (attempt %d): starting a new one", attempt)
        raise WorkerDied()

    async def close(self) -> None:
        """Stop the workers (they finish what they were drawing)."""
        workers, self._workers = self._workers, []
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)


if __name__ == "__main__":
    replies = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but replies may reach the bot on stdout
    serve(sys.stdin.buffer, replies)
