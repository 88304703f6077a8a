"""Each finished game's result, and the ratings per server and game it makes.

A game is recorded once (the front end asks when it posts the final message, and the
scheduler's rounds catch any it missed); :mod:`bot.ratings` says how ratings move.
"""

from __future__ import annotations

from bot.ratings import GAME_ITSELF, Place, Rating, rate
from bot.service.core import ServiceCore, fail
from bot.store import ResultRow


class Results:
    """The results and ratings part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def record_result(self, game_id: int) -> bool:
        """Keep the result of finished game ``game_id`` and update its players' ratings;
        False if it is not finished or was recorded already."""
        record = await self.core.get_by_id(game_id)
        outcome = None if record is None else self.core.outcome(record)
        if record is None or outcome is None or record.status != "finished":
            return False
        rows: list[ResultRow] = []
        place = 1
        for group in outcome.ranking:
            seats = [e for e in group if e < outcome.n_seats]
            rows += [ResultRow(seat, record.seats[seat].user_id, place, outcome.scores[seat],
                               outcome.seat_won(seat)) for seat in seats]
            place += len(group)
        members = [(r, record.seats[r.seat].name) for r in rows if r.user_id is not None]
        ranking = self.core.catalogue.ranking(record)
        ratings: dict[int, tuple[str, Rating]] = {}
        if record.guild_id is not None and members:
            before = await self.core.store.ratings(record.guild_id, ranking,
                                                   (r.user_id or 0 for r, _ in members))
            places = [Place(r.user_id or 0, r.place, r.won) for r, _ in members]
            if ranking != record.game:          # a solo ladder: against the game itself
                places += [Place(GAME_ITSELF, r.place, r.won) for r in rows
                           if r.user_id is None][:1]
            after = rate(before, places, together=outcome.together is not None)
            ratings = {r.user_id or 0: (name, after[r.user_id or 0]) for r, name in members}
        return await self.core.store.record_result(record.id, record.guild_id or 0, ranking,
                                                   rows, ratings)

    async def record_missing_results(self) -> int:
        """Record every finished game (of this process's shards) whose result is missing
        (lost to a crash); how many."""
        return sum([await self.record_result(g)
                    for g in await self.core.store.unrated_games(self.core.shards)])

    async def leaderboard(self, guild_id: int, ranking: str, limit: int = 10
                          ) -> list[tuple[int, str, Rating]]:
        """The best rated members of ``ranking`` (a game, or one of its solo ladders:
        :meth:`bot.catalogue.Catalogue.rankings`) on the server: user id, name, rating."""
        try:
            self.core.catalogue.ranking_name(ranking)
        except KeyError:
            raise fail("service.unknown_game", game=ranking) from None
        return await self.core.store.leaderboard(guild_id, ranking, limit)

    async def player_stats(self, guild_id: int, user_id: int
                           ) -> tuple[dict[str, Rating], list[tuple[int, str, int, int,
                                                                    float | None]]]:
        """A member's rating at each game on the server, and their last 5 results (game
        id, game, place, players, ended at)."""
        return (await self.core.store.player_ratings(guild_id, user_id),
                await self.core.store.recent_results(guild_id, user_id, 5))
