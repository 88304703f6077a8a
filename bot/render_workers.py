"""Board rendering in worker processes, off the bot's event loop and its interpreter lock.

Drawing and PNG encoding cost milliseconds of CPU per board; done in threads of the
bot process they compete with the event loop for the interpreter lock, so every
interaction waits behind them. :class:`RenderWorkers` sends them to a small pool of
worker processes instead (``DINGIR_RENDER_PROCESSES``, 1 by default; 0 renders in a
thread of the bot process). A worker that dies is replaced and the board rendered
again; rendering is pure, so nothing else is at stake.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import registry
from render.context import RenderContext

log = logging.getLogger(__name__)


def render_png(game: str, view: dict[str, Any], ctx: RenderContext, preview: bool) -> bytes:
    """``view`` of ``game`` as PNG bytes (with the preview renderer if ``preview``)."""
    entry = registry.get(game)
    renderer = entry.preview_renderer if preview else entry.renderer
    return renderer.png(view, ctx)


def warm_up() -> None:
    """Worker start: draw one board of every game with each renderer, so that palettes and
    cached pieces are ready before the first real request."""
    for game in registry.ids():
        engine = registry.get(game).engine
        seats = engine.meta.min_players
        view = engine.view(engine.setup(0, seats, {}), None)
        ctx = RenderContext(tuple(f"Player {i + 1}" for i in range(seats)))
        for preview in (False, True):
            render_png(game, view, ctx, preview)


class RenderWorkers:
    """Renders boards in ``processes`` worker processes (in a thread when 0)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up)
        return self._pool

    async def png(self, game: str, view: dict[str, Any], ctx: RenderContext, *,
                  preview: bool = False) -> bytes:
        """The board as PNG bytes; retried once in a fresh pool if a worker died."""
        if self.processes <= 0:
            return await asyncio.to_thread(render_png, game, view, ctx, preview)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), render_png, game, view, ctx,
                                              preview)
        except BrokenProcessPool:
            log.warning("a render worker died: starting new ones")
            self.close()
            return await loop.run_in_executor(self._executor(), render_png, game, view, ctx,
                                              preview)

    def start(self) -> None:
        """Start the workers now (they warm up while the bot connects)."""
        if self.processes > 0:
            self._executor().submit(int)

    def close(self) -> None:
        """Stop the workers (queued renders are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
