"""Games another process moved (a bot run as several processes, ``DINGIR_SHARDS``).

An interaction can reach a process that does not serve its game's server (direct
messages all come through shard 0): that process takes the step on the shared database,
with the usual version check, and notes the game there
(:meth:`bot.store.Store.note_moved`) instead of telling the channel. This cog, in every
process, reads the notes as they come (PostgreSQL wakes it with ``NOTIFY``; on SQLite it
looks every :data:`POLL_SECONDS`), drops its cached copy of each of its own games noted
and moves it on (:func:`cogs.posting.advance`): the board of a turn that ended, the final
message, the last step of the turn under way (a decision it put to a player, an
announcement), the AI seats' steps, the decision clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from discord.ext import commands

from bot.records import StoreUnavailable
from cogs import posting
from host.client import DingirBot

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""How often a process looks for notes when the database cannot wake it (SQLite)."""
WOKEN_POLL_SECONDS = 10.0
"""How often it looks anyway when it can (a wake-up lost with its connection)."""


class Moved(commands.Cog):
    """Follows the notes of games moved by other processes (see the module docstring)."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Start following (only a bot run as several processes has anything to follow)."""
        if self.bot.settings.shards is not None:
            self._task = asyncio.create_task(self._follow(), name="moved")

    async def cog_unload(self) -> None:
        """Stop following."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _follow(self) -> None:
        store = self.bot.service.core.store
        pushed: bool | None = None
        seq: int | None = None
        while True:
            try:
                if pushed is None:
                    pushed = await store.listen(self._woken.set)
                seq = (await store.moved_since(None))[0] if seq is None else \
                    await self.take(seq)
            except StoreUnavailable as error:
                log.warning("could not read the games moved by other processes: %s",
                            error.detail)
            except Exception:
                log.exception("could not read the games moved by other processes")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(),
                                       WOKEN_POLL_SECONDS if pushed else POLL_SECONDS)
            self._woken.clear()

    async def take(self, seq: int) -> int:
        """Move on this process's games noted after note ``seq``; the last note's number."""
        core = self.bot.service.core
        seq, games = await core.store.moved_since(seq)
        for game_id in games:
            core.drop(game_id)
            record = await core.get_by_id(game_id)
            if record is not None and core.owns(record):
                log.info("game %s was moved by another process: telling it", game_id)
                latest = await self.bot.service.turns.latest(game_id)
                self.bot.spawn(posting.advance(self.bot, latest, game_id, missed=True),
                               f"moved-{game_id}")
        return seq


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Moved(bot))
