"""The Discord client: a ``commands.Bot`` that loads the cogs and holds the core services
(an ``AutoShardedBot`` serving the shards of ``DINGIR_SHARDS`` when it is set).

The cogs reach the game service, the scheduler and the settings through the
bot (``interaction.client``). ``setup_hook`` installs the command translator,
loads the cogs (which register the persistent dynamic button type and start
the reminders loop), and syncs the slash commands to the development guild
(instant) or globally.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from bot.config import Settings
from bot.engine import Seat
from bot.records import OpenPost, PostedBoard
from bot.service import GameService
from host import registry

if TYPE_CHECKING:
    from bot.backups import Backups
    from bot.deadlines import Deadlines
    from host.scheduler import Scheduler
    from host.workers import Workers

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.translator",
    "cogs.buttons",
    "cogs.lobby",
    "cogs.play",
    "cogs.help",
    "cogs.players",
    "cogs.reminders",
    "cogs.moved",
    "cogs.webpage",
)
"""The shared cogs loaded at start, in order (the translator and the tree's error handler
first, then buttons: the others register press handlers); each game's own commands come
from :func:`host.registry.extensions`."""


GC_THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds. Every interaction leaves garbage cycles (discord.py's
interaction and its response, a view and its buttons refer to each other). With
Python's default (700, 10, 10), those still in flight at a young collection are
promoted to the oldest generation, and at 200 steps/s the whole heap was collected
every 3 s (60-150 ms each, every answer waiting). A young generation 14 times larger
lets them die young: in the same 150 s load, 3 full collections instead of 62."""


class DingirBot(commands.Bot):
    """Dingir's Discord client."""

    def __init__(self, settings: Settings, service: GameService, scheduler: Scheduler,
                 workers: Workers, deadlines: Deadlines, backups: Backups) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            **self.sharding(settings),
        )
        self.settings = settings
        self.service = service
        self.scheduler = scheduler
        self.workers = workers
        self.deadlines = deadlines
        self.backups = backups
        self.posted_boards: dict[int, PostedBoard] = {}
        """The image of each game's latest turn message (cogs.posting), reused by panels."""
        self.open_posts: dict[tuple[int, Seat], OpenPost] = {}
        """The public message asking each (game, seat) to decide, until they answer
        (cogs.posting)."""
        self.answered_at: dict[tuple[int, Seat], float] = {}
        """When each (game, seat) answered such a message, until the game's next turn
        message (cogs.posting)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopping = False
        """True once :meth:`close` began (its commands are being unloaded, then the
        connection closed): interactions still arriving cannot be served."""
        logging.getLogger("discord.app_commands.tree").addFilter(self._cut_off_by_stop)

    @staticmethod
    def sharding(settings: Settings) -> dict[str, Any]:
        """The client's options for the shards it connects (none: one connection)."""
        return {}

    def _cut_off_by_stop(self, record: logging.LogRecord) -> bool:
        """Keep out of the log the suggestions (autocomplete) that could not be answered
        because the bot was stopping (discord.py logs them as errors, with no hook); one
        answered too late for Discord is a warning line, not a traceback."""
        error = record.exc_info[1] if record.exc_info else None
        if expired(error):
            log.warning("%s: answered after Discord's 3 s, dropped", record.getMessage())
            return False
        stopped = isinstance(error, aiohttp.ClientConnectionError | RuntimeError)
        return not (stopped and self.stopping)

    async def setup_hook(self) -> None:
        """Workers, translator, cogs, dynamic buttons and command sync (runs once,
        after login)."""
        await self.workers.start()
        for name in (*EXTENSIONS, *registry.extensions()):
            await self.load_extension(name)
        if self.settings.dev_guild is not None:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
        gc.collect()
        gc.freeze()  # modules, commands, catalogue: never garbage, never scanned again
        gc.set_threshold(*GC_THRESHOLDS)

    async def close(self) -> None:
        """Stop the decision clocks (the next start arms them again), disconnect, stop the
        background tasks (what they leave undone is picked up at the next start), then
        stop the workers."""
        self.stopping = True
        try:
            await self.deadlines.close()
            await super().close()
        finally:
            tasks = [t for t in self._tasks if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.workers.close()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        if self.stopping:         # its requests met the closed connection
            log.info("background task %s stopped with the bot: %r", task.get_name(),
                     task.exception())
        else:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())


class ShardedDingirBot(DingirBot, commands.AutoShardedBot):
    """Dingir's client serving some of the shards (``DINGIR_SHARDS``): one gateway
    connection per shard, for the guilds Discord gives each."""

    @staticmethod
    def sharding(settings: Settings) -> dict[str, Any]:
        """The shards of ``DINGIR_SHARDS``."""
        assert settings.shards is not None
        return {"shard_ids": list(settings.shards.ids), "shard_count": settings.shards.count}


UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction answered after its 3 seconds (or twice)."""


def expired(error: BaseException | None) -> bool:
    """True when ``error`` is Discord refusing an answer that came too late."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def client(settings: Settings, service: GameService, scheduler: Scheduler, workers: Workers,
           deadlines: Deadlines, backups: Backups) -> DingirBot:
    """The client the settings call for: one connection to Discord as today, or the shards
    of ``DINGIR_SHARDS``."""
    kind = DingirBot if settings.shards is None else ShardedDingirBot
    return kind(settings, service, scheduler, workers, deadlines, backups)
