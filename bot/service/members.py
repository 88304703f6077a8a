"""What concerns members across their games: the games they sit in, the games they
follow, their absences, their reminders, and how often they may have the bot repost."""

from __future__ import annotations

from collections.abc import Iterable

from bot.limiter import Limiter
from bot.records import GameRecord
from bot.service.core import ServiceCore, fail


class Members:
    """The members part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._followed: set[int] | None = None
        self._reposts: dict[str, Limiter] = {}

    async def my_games(self, guild_id: int, user_id: int) -> list[GameRecord]:
        """The lobbies and games not ended of a server where ``user_id`` sits (not
        resigned), oldest first."""
        return await self.core.store.games(guild_id=guild_id, player=user_id)

    async def follow(self, channel_id: int, user_id: int, lang: str, each_turn: bool,
                     stop: bool = False) -> GameRecord:
        """``user_id`` follows the channel's game (or stops, with ``stop``): anyone may,
        to be told by direct message when it ends (and after each turn)."""
        record = await self.core.get(channel_id)
        if record is None:
            raise fail("service.no_game")
        followed = await self._followed_games()
        if stop:
            await self.core.store.unfollow(record.id, user_id)
        else:
            await self.core.store.follow(record.id, user_id, lang, each_turn)
            followed.add(record.id)
        return record

    async def followers(self, game_id: int) -> list[tuple[int, str, bool]]:
        """Who follows ``game_id`` (user id, language, after each turn); no query for the
        games nobody follows."""
        followed = await self._followed_games()
        if game_id not in followed:
            return []
        rows = await self.core.store.followers(game_id)
        if not rows:                 # the last follower stopped: no query for it any more
            followed.discard(game_id)
        return rows

    async def _followed_games(self) -> set[int]:
        if self._followed is None:
            self._followed = await self.core.store.followed_games()
        return self._followed

    async def set_away(self, user_id: int, until: float) -> None:
        """``user_id`` is away until ``until`` (a time in the past: back): in all their
        games, their reminders, warnings and time limits wait, then count from their
        return."""
        await self.core.store.set_away(user_id, until)

    async def away(self, user_ids: Iterable[int]) -> dict[int, float]:
        """Until when those of ``user_ids`` who are away now are away."""
        now = self.core.clock.now()
        return {u: t for u, t in (await self.core.store.away_until(user_ids)).items()
                if t > now}

    async def set_notify(self, user_id: int, enabled: bool, lang: str | None = None) -> None:
        """Opt in or out of reminders by direct message (written in ``lang``)."""
        await self.core.store.set_notify(user_id, enabled, lang)

    def repost_wait(self, kind: str, channel_id: int, user_id: int) -> float:
        """0 when ``user_id`` may have the bot post ``kind`` (``"board"``, ``"handover"``)
        publicly in the channel now, which counts; else the seconds before they may again
        (see :attr:`~bot.records.Limits.repost_seconds`)."""
        limiter = self._reposts.get(kind)
        if limiter is None:
            limiter = self._reposts[kind] = Limiter(self.core.clock,
                                                    self.core.limits.repost_seconds)
        return limiter.take((channel_id, user_id))
