"""Reminders and turn clocks: a loop asks the scheduler what is due and tells the players.

Every ``DINGIR_SCHEDULER_SECONDS`` the loop calls ``Scheduler.due()``. A reminder
mentions the active player in the game's channel, or goes by DM to a player who
opted in with ``/game notify`` (back to the channel when their DMs are closed).
A timeout is announced in the channel and handled by the game's policy: nothing,
a vote to skip (``/game skip``), or the AI plays the rest of the turn. Each event
is marked sent once handled, so a restart never repeats or loses one. The loop
also restarts AI seats whose move was lost (a ``StalledAI`` event) and posts again
turn messages whose post failed (``Unposted``) and closes lobbies nobody started in
time (``StaleLobby``); each round beats the heartbeat, and
at start the clocks move forward by the time the bot was away.
"""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

from bot.engine import Seat
from bot.i18n import tr, translate
from bot.records import StoreUnavailable
from cogs import posting
from cogs.common import game_title
from cogs.lobby import refresh_lobby
from host.client import DingirBot
from host.scheduler import (
    Broken,
    LimitWarning,
    Reminder,
    StaleLobby,
    StalledAI,
    Timeout,
    Unposted,
)

log = logging.getLogger(__name__)


class Reminders(commands.Cog):
    """The background loop over due reminders and timeouts."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        self.tick.change_interval(seconds=bot.settings.scheduler_seconds)

    async def cog_load(self) -> None:
        """Move the clocks past the downtime, then start the loop (it waits for the
        gateway to be ready) and the decision clocks."""
        try:
            await self.bot.scheduler.catch_up()
        except StoreUnavailable as error:
            log.error("could not move the clocks past the downtime: %s", error.detail)
        self.tick.start()
        self.bot.deadlines.start(self.expire)

    async def cog_unload(self) -> None:
        """Stop the loop."""
        self.tick.cancel()

    @tasks.loop(seconds=60)
    async def tick(self) -> None:
        """Handle every due event; one failing event never stops the others or the loop."""
        self.bot.deadlines.check()
        if not await self.housekeeping():
            return
        try:
            await self.bot.scheduler.beat()
            await self.bot.service.results.record_missing_results()
            events = await self.bot.scheduler.due()
        except StoreUnavailable as error:
            log.warning("scheduler skipped a round: %s", error.detail)
            return
        except Exception:        # never the end of the loop: the next round tries again
            log.exception("scheduler round failed")
            return
        for event in events:
            try:
                if isinstance(event, Reminder | LimitWarning):
                    if await self.bot.scheduler.mark_sent(event):   # claimed once, then sent
                        await self.remind(event)
                elif isinstance(event, Timeout):
                    await self.time_out(event)    # marks it sent
                elif isinstance(event, Broken):
                    await self.quarantine(event)
                elif isinstance(event, StaleLobby):
                    await self.close_lobby(event)
                else:
                    self.move_on(event)
            except Exception:
                log.exception("could not handle %r", event)

    async def housekeeping(self) -> bool:
        """Check that the database file is still the one opened (False once it was deleted
        or replaced: nothing more is written, the log says so once) and take the backup
        that is due."""
        if not self.bot.service.core.database_usable():
            return False
        try:
            await self.bot.backups.maybe_run()
        except Exception:
            log.exception("the database backup failed")
        return True

    async def quarantine(self, event: Broken) -> None:
        """Pause a game whose row is damaged, log it once and tell its creator."""
        found = await self.bot.service.admin.quarantine(event.game_id)
        if found is None:
            return                               # already paused: said before
        creator, channel = found
        log.error("game %s is damaged (%s): paused", event.game_id, event.reason)
        await posting.direct_message(self.bot, creator, tr(
            self.bot.settings.language, "discord.quarantined", channel=f"<#{channel}>"))

    async def close_lobby(self, event: StaleLobby) -> None:
        """Close a lobby nobody started in time: its message loses its buttons and the
        channel is told."""
        record = await self.bot.service.lobby.close_stale_lobby(event.game_id)
        if record is None:
            return
        log.info("game %s: the lobby was never started; closed", record.id)
        await refresh_lobby(self.bot, record)
        await posting.send(self.bot, record, tr(
            record.lang, "discord.lobby_expired", game=game_title(record, record.lang),
            hours=f"{self.bot.service.core.limits.lobby_hours:g}"), remember=False)

    async def expire(self, game_id: int, seat: Seat, version: int) -> None:
        """A decision's clock of seconds ran out: apply the engine's default step and tell
        the channel (and let the AI seats play on)."""
        results = await self.bot.service.autoplay.expire(game_id, seat, version)
        if results:
            await posting.advance(self.bot, results[0], game_id)

    def move_on(self, event: StalledAI | Unposted) -> None:
        """Let an AI seat whose move was lost play, or post the missing turn message
        (unless the game is busy posting)."""
        if not self.bot.service.loop.telling(event.game_id).locked():
            log.warning("game %s: %s", event.game_id,
                        "the AI had lost its move; playing it now" if isinstance(
                            event, StalledAI) else "its last post is missing; posting it")
            self.bot.spawn(posting.advance(self.bot, None, event.game_id),
                           f"stalled-{event.game_id}")

    @tick.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def remind(self, event: Reminder | LimitWarning) -> None:
        """Mention the player in the channel, or DM them if they opted in: that it is their
        turn (since when), or that their time limit runs out soon (when, and what then)."""
        record = event.game
        key = "discord.reminder" if isinstance(event, Reminder) else "discord.warning"

        def text(lang: str, dm: bool) -> str:
            args = dict(game=game_title(record, lang), since=f"<t:{int(event.since)}:R>")
            if isinstance(event, LimitWarning):
                args.update(when=f"<t:{int(event.deadline)}:R>", then=tr(
                    lang, f"discord.warning_then.{record.settings.timeout_policy}"))
            if dm:
                return tr(lang, f"{key}_dm", channel=f"<#{record.channel_id}>", **args)
            return tr(lang, key, mention=f"<@{event.user_id}>", **args)

        if event.dm and await posting.direct_message(
                self.bot, event.user_id, text(event.lang or record.lang, True)):
            return
        await posting.send(self.bot, record, text(record.lang, False), remember=False)

    async def time_out(self, event: Timeout) -> None:
        """Announce a turn whose time ran out, apply the game's policy, post what it played."""
        record = event.game
        await posting.send(self.bot, record, translate(event.text(), record.lang), remember=False)
        steps = await self.bot.scheduler.apply_timeout(event)
        if steps:
            async with self.bot.service.loop.telling(record.id):
                await posting.report_steps(self.bot, steps)
            await posting.advance(self.bot, None, record.id)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Reminders(bot))
