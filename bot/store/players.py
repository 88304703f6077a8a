"""Players: each finished game's result and the ratings it makes, the members who
follow a game, the members' preferences (DM reminders, language) and who is away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.ratings import Rating
from bot.shards import ALL, Shards
from bot.store.commit import StoreCore
from bot.store.rows import ResultRow


class PlayersMixin(StoreCore):
    """Results, ratings, followers, preferences and absences of :class:`~bot.store.Store`."""

    # -- results and ratings ----------------------------------------------------------

    async def unrated_games(self, shards: Shards = ALL) -> list[int]:
        """Finished games (of the guilds of ``shards``) whose result is not recorded yet."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'finished' AND NOT EXISTS"
            f" (SELECT 1 FROM results WHERE results.game_id = games.id){shards.sql()}"
            " ORDER BY id")
        return [int(r[0]) for r in rows]

    async def ratings(self, guild_id: int, game: str, user_ids: Iterable[int]
                      ) -> dict[int, Rating]:
        """The ratings at ``game`` on ``guild_id`` of those of ``user_ids`` who have one."""
        rows = await self._fetchall_in(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND game = ? AND user_id IN ({marks})", user_ids, guild_id, game)
        return {int(r[0]): Rating(r[1], r[2], r[3], r[4]) for r in rows}

    async def record_result(self, game_id: int, guild_id: int, game: str,
                            results: Sequence[ResultRow],
                            ratings: Mapping[int, tuple[str, Rating]]) -> bool:
        """Keep a finished game's result and the ratings it makes, at once; False (and
        nothing written) if it was recorded already."""
        async with self._transaction() as conn:
            # the game's row taken first: another process recording the same result waits,
            # then finds it recorded (PostgreSQL; SQLite's transactions take turns anyway)
            await conn.execute("UPDATE games SET posted_turn = posted_turn WHERE id = ?",
                               (game_id,))
            if await conn.execute_fetchall(
                    "SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (game_id,)):
                return False
            await conn.executemany(
                "INSERT INTO results (game_id, seat, user_id, place, score, won)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, r.seat, r.user_id, r.place, r.score, r.won) for r in results])
            await conn.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id)"
                " DO UPDATE SET name = excluded.name, mu = excluded.mu,"
                " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins",
                [(guild_id, game, uid, name, r.mu, r.sigma, r.games, r.wins)
                 for uid, (name, r) in ratings.items()])
        return True

    async def leaderboard(self, guild_id: int, game: str, limit: int
                          ) -> list[tuple[int, str, Rating]]:
        """The best rated members at ``game`` on ``guild_id`` (by ``mu - 3 sigma``)."""
        rows = await self._fetchall(
            "SELECT user_id, name, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC LIMIT ?",
            (guild_id, game, limit))
        return [(int(r[0]), str(r[1]), Rating(r[2], r[3], r[4], r[5])) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        """``user_id``'s rating at each game they finished on ``guild_id``."""
        rows = await self._fetchall(
            "SELECT game, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND user_id = ? ORDER BY game", (guild_id, user_id))
        return {str(r[0]): Rating(r[1], r[2], r[3], r[4]) for r in rows}

    async def recent_results(self, guild_id: int, user_id: int, limit: int
                             ) -> list[tuple[int, str, int, int, float | None]]:
        """``user_id``'s last finished games on ``guild_id``, newest first: game id, game,
        place, players, ended at."""
        rows = await self._fetchall(
            "SELECT g.id, g.game, r.place, (SELECT COUNT(*) FROM results o"
            " WHERE o.game_id = g.id), g.ended_at FROM results r JOIN games g"
            " ON g.id = r.game_id WHERE r.user_id = ? AND g.guild_id = ?"
            " ORDER BY g.ended_at DESC, g.id DESC LIMIT ?", (user_id, guild_id, limit))
        return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]), r[4]) for r in rows]

    # -- followers -----------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, lang: str, each_turn: bool) -> None:
        """``user_id`` follows ``game_id`` (told in ``lang`` when it ends, and after each
        turn if ``each_turn``)."""
        await self._write(
            "INSERT INTO followers (game_id, user_id, lang, each_turn) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET lang = excluded.lang,"
            " each_turn = excluded.each_turn", (game_id, user_id, lang, int(each_turn)))

    async def unfollow(self, game_id: int, user_id: int) -> None:
        """``user_id`` stops following ``game_id``."""
        await self._write("DELETE FROM followers WHERE game_id = ? AND user_id = ?",
                          (game_id, user_id))

    async def followers(self, game_id: int) -> list[tuple[int, str, bool]]:
        """Who follows ``game_id``: user id, language, told after each turn."""
        rows = await self._fetchall(
            "SELECT user_id, lang, each_turn FROM followers WHERE game_id = ? ORDER BY user_id",
            (game_id,))
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    async def followed_games(self) -> set[int]:
        """The games that someone follows."""
        return {int(r[0]) for r in await self._fetchall(
            "SELECT DISTINCT game_id FROM followers")}

    # -- preferences ----------------------------------------------------------------------

    async def set_notify(self, user_id: int, enabled: bool, lang: str | None = None) -> None:
        """Record whether ``user_id`` wants reminders by DM (and in which language)."""
        async with self._guard() as conn:
            await conn.execute(
                "INSERT INTO user_prefs (user_id, dm_notify, lang) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dm_notify = excluded.dm_notify,"
                " lang = coalesce(excluded.lang, user_prefs.lang)",
                (user_id, int(enabled), lang),
            )

    async def user_langs(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The language of the direct messages to those of ``user_ids`` who gave one."""
        rows = await self._fetchall_in(
            "SELECT user_id, lang FROM user_prefs WHERE lang IS NOT NULL"
            " AND user_id IN ({marks})", user_ids)
        return {int(u): str(lang) for u, lang in rows}

    async def notify_prefs(self, user_ids: Iterable[int]) -> dict[int, bool]:
        """The DM preference of those of ``user_ids`` who set one."""
        rows = await self._fetchall_in(
            "SELECT user_id, dm_notify FROM user_prefs WHERE user_id IN ({marks})", user_ids)
        return {int(u): bool(d) for u, d in rows}

    async def set_away(self, user_id: int, until: float) -> None:
        """``user_id`` is away until ``until`` (a time in the past: back)."""
        await self._write("INSERT INTO away (user_id, until) VALUES (?, ?)"
                          " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until",
                          (user_id, until))

    async def away_until(self, user_ids: Iterable[int]) -> dict[int, float]:
        """Until when each of ``user_ids`` who said so is (or was last) away."""
        rows = await self._fetchall_in(
            "SELECT user_id, until FROM away WHERE user_id IN ({marks})", user_ids)
        return {int(r[0]): float(r[1]) for r in rows}
