"""Games and their seats, the turn-start snapshot and the action log.

Lobby, start, steps, undo and import write them; loading, listing and export read
them; the limits on open lobbies and games count them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from bot.engine import State, Text
from bot.records import ACTIVE, GameRecord, SeatInfo, ServiceError, StaleVersion
from bot.shards import ALL, Shards
from bot.store.commit import Conflict, Dialect, StoreCore, Tx
from bot.store.rows import (
    ActionRow,
    MemberLoad,
    StepWrite,
    StoredGame,
    _seats,
    dumps,
    settings_from_json,
    waiting_from_json,
    waiting_json,
)


@functools.cache
def _game_columns(dialect: Dialect) -> str:
    """The columns of a game row that :func:`_record` reads."""
    return (
        "id, guild_id, channel_id, game, status, creator_id, options, seed, state, version,"
        " settings, lang, created_at, turn_started_at, last_message_id, turn, active,"
        " ended_at, posted_turn, waiting,"
        " (SELECT state FROM turn_starts WHERE turn_starts.game_id = games.id),"
        f" {dialect.seat_rows}"
    )


def _record(row: Sequence[Any]) -> StoredGame:
    (gid, guild, channel, game, status, creator, options, seed, state, version, settings,
     lang, created, turn_started, message, turn, active, ended, posted, waiting, turn_start,
     seat_rows) = row
    seats = _seats(seat_rows)
    record = GameRecord(
        id=gid, guild_id=guild, channel_id=channel, game=game, status=status,
        creator_id=creator, options=json.loads(options), seed=seed, seats=seats,
        state=json.loads(state) if state is not None else None, version=version,
        settings=settings_from_json(settings), lang=lang, created_at=created,
        turn_started_at=turn_started, last_message_id=message, turn=turn,
        active=json.loads(active), ended_at=ended, posted_turn=posted,
        waiting=waiting_from_json(waiting),
    )
    return StoredGame(record, json.loads(turn_start) if turn_start is not None else None)


def _state_json(state: State | None) -> str | None:
    return dumps(state) if state is not None else None


class GamesMixin(StoreCore):
    """Games, seats and the action log of :class:`~bot.store.Store`."""

    async def insert_game(
        self,
        record: GameRecord,
        turn_start_state: State | None = None,
        log: Iterable[ActionRow] = (),
        start_state: State | None = None,
    ) -> int:
        """Store a new game (with its seats and, for an import, its log and first state);
        returns its id.

        Raises ServiceError ``service.channel_busy`` if the channel already has an
        active game.
        """
        try:
            async with self._transaction() as conn:
                rows = await conn.execute_fetchall(
                    "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options,"
                    " seed, state, version, settings, lang, created_at,"
                    " turn_started_at, turn, active, ended_at, posted_turn, waiting)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        record.guild_id, record.channel_id, record.game, record.status,
                        record.creator_id, dumps(record.options), record.seed,
                        _state_json(record.state), record.version,
                        dumps(asdict(record.settings)), record.lang, record.created_at,
                        record.turn_started_at, record.turn, dumps(record.active),
                        record.ended_at, record.posted_turn, waiting_json(record.waiting),
                    ),
                )
                game_id = int(rows[0][0])
                if turn_start_state is not None:
                    await self._write_state(conn, "turn_starts", game_id, turn_start_state)
                if start_state is not None:
                    await self._write_state(conn, "start_states", game_id, start_state)
                await self._write_seats(conn, game_id, record.seats)
                await conn.executemany(
                    "INSERT INTO actions (game_id, idx, seat, notation, turn, reversible, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, a.idx, a.seat, a.notation, a.turn, a.reversible, a.at)
                     for a in log],
                )
        except Conflict as error:
            if "channel" in str(error):
                raise ServiceError(Text.of("service.channel_busy")) from error
            raise
        return game_id

    @staticmethod
    async def _write_state(conn: Tx, table: str, game_id: int, state: State) -> None:
        """Keep ``state`` as the game's row of ``table`` (``turn_starts`` or
        ``start_states``)."""
        await conn.execute(
            f"INSERT INTO {table} (game_id, state) VALUES (?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET state = excluded.state",
            (game_id, dumps(state)),
        )

    async def start_state(self, game_id: int) -> State | None:
        """The first state of the game ``game_id``, as stored when it started (None for a
        lobby, or a game stored before first states were kept)."""
        rows = await self._fetchall("SELECT state FROM start_states WHERE game_id = ?",
                                    (game_id,))
        found: State | None = json.loads(rows[0][0]) if rows else None
        return found

    @staticmethod
    async def _write_seats(conn: Tx, game_id: int, seats: Iterable[SeatInfo]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, resigned) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, int(s.resigned)) for s in seats],
        )

    async def load(self, game_id: int) -> StoredGame | None:
        """The game ``game_id`` with its seats, or None."""
        rows = await self._fetchall(f"SELECT {_game_columns(self.dialect)} FROM games"
                                    " WHERE id = ?", (game_id,))
        return _record(rows[0]) if rows else None

    async def active_game_id(self, channel_id: int) -> int | None:
        """The id of the lobby/running/paused game in ``channel_id``, if any."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby','running','paused')",
            (channel_id,),
        )
        return int(rows[0][0]) if rows else None

    async def latest_game_id(self, channel_id: int) -> int | None:
        """The active game of ``channel_id``, else its most recent one, if any."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE channel_id = ?"
            " ORDER BY status IN ('lobby','running','paused') DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return int(rows[0][0]) if rows else None

    async def games(
        self, *, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE,
        unposted: bool = False, player: int | None = None, shards: Shards = ALL,
    ) -> list[GameRecord]:
        """Games with one of ``statuses`` (of one guild if given; only those whose last
        turn was not posted if ``unposted``; only those where ``player`` sits, not
        resigned, if given; of the guilds of ``shards``), oldest first."""
        marks = ", ".join("?" for _ in statuses)
        sql = (f"SELECT {_game_columns(self.dialect)} FROM games WHERE status IN ({marks})"
               f"{shards.sql()}")
        if unposted:
            sql += " AND posted_turn < turn"
        params: list[Any] = list(statuses)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if player is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND resigned = 0)"
            params.append(player)
        rows = await self._fetchall(sql + " ORDER BY id", params)
        return [_record(row).record for row in rows]

    async def save_game(
        self,
        record: GameRecord,
        expected_version: int,
        *,
        turn_start_state: State | None = None,
        start_state: State | None = None,
        seats: bool = False,
        undone: Sequence[int] = (),
    ) -> None:
        """Write every column of ``record`` (and its seats if ``seats``, its first state if
        ``start_state``) if the stored version is still ``expected_version``; mark the log
        rows ``undone`` as undone.

        Raises StaleVersion when another writer got there first.
        """
        async with self._transaction() as conn:
            count = await conn.execute(
                "UPDATE games SET status = ?, creator_id = ?, state = ?, version = ?,"
                " settings = ?, lang = ?, turn_started_at = ?, turn = ?, active = ?,"
                " ended_at = ?, last_message_id = ?, posted_turn = ?, seed = ?, waiting = ?"
                " WHERE id = ? AND version = ?",
                (
                    record.status, record.creator_id, _state_json(record.state),
                    record.version, dumps(asdict(record.settings)), record.lang,
                    record.turn_started_at, record.turn, dumps(record.active),
                    record.ended_at, record.last_message_id, record.posted_turn, record.seed,
                    waiting_json(record.waiting), record.id, expected_version,
                ),
            )
            if count != 1:
                raise StaleVersion()
            if turn_start_state is not None:
                await self._write_state(conn, "turn_starts", record.id, turn_start_state)
            if start_state is not None:
                await self._write_state(conn, "start_states", record.id, start_state)
            if seats:
                await self._write_seats(conn, record.id, record.seats)
            if undone:
                await conn.executemany(
                    "UPDATE actions SET undone = 1 WHERE game_id = ? AND idx = ?",
                    [(record.id, idx) for idx in undone],
                )

    async def apply_step(self, step: StepWrite) -> None:
        """Write one accepted step: new state + log row, in one statement (one round trip).

        Raises StaleVersion if the stored version is not ``step.expected_version`` or the
        game is not running; nothing is written then.
        """
        try:
            count = await self._write(self.dialect.step, (
                step.game_id, step.expected_version, dumps(step.state),
                dumps(step.active), step.status, step.turn, step.turn_started_at,
                int(step.turn_ended), step.ended_at, step.seat, step.notation,
                step.step_turn, int(step.reversible), step.at, waiting_json(step.waiting),
            ))
        except Conflict as error:
            if "dingir:stale" in str(error) or "unique" in str(error).lower():
                raise StaleVersion() from error
            raise
        if self.dialect.step_counts and count != 1:
            raise StaleVersion()

    async def set_columns(self, game_id: int, **values: Any) -> None:
        """Update plain columns that do not change the board (settings, last message)."""
        allowed = {"settings", "last_message_id", "posted_turn", "lang"}
        if not values or not values.keys() <= allowed:
            raise ValueError(f"set_columns accepts only {sorted(allowed)}")
        assignments = ", ".join(f"{name} = ?" for name in values)
        params = [dumps(v) if name == "settings" else v for name, v in values.items()]
        await self._write(f"UPDATE games SET {assignments} WHERE id = ?", [*params, game_id])

    async def stale_lobbies(self, created_before: float, shards: Shards = ALL) -> list[int]:
        """Lobbies (of the guilds of ``shards``) opened before ``created_before`` and never
        started."""
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE status = 'lobby' AND created_at < ?{shards.sql()}"
            " ORDER BY id", (created_before,))
        return [int(r[0]) for r in rows]

    async def unposted_finals(self, ended_before: float, shards: Shards = ALL) -> list[int]:
        """Finished games (of the guilds of ``shards``), ended before ``ended_before``, whose
        final message never went out."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'finished' AND posted_turn < turn"
            f" AND ended_at < ?{shards.sql()} ORDER BY id", (ended_before,))
        return [int(r[0]) for r in rows]

    async def member_load(self, user_id: int, guild_id: int | None) -> MemberLoad:
        """How many lobbies ``user_id`` opened and games they sit in (not ended), how many
        games ``guild_id`` has open, and when ``user_id`` last opened one."""
        rows = await self._fetchall(
            "SELECT"
            " (SELECT COUNT(*) FROM games WHERE creator_id = ? AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id"
            "   WHERE s.user_id = ? AND s.resigned = 0"
            "   AND g.status IN ('lobby','running','paused')),"
            f" (SELECT COUNT(*) FROM games WHERE guild_id {self.dialect.same} ?"
            "   AND status IN ('lobby','running','paused')),"
            " (SELECT MAX(created_at) FROM games WHERE creator_id = ?)",
            (user_id, user_id, guild_id, user_id))
        lobbies, games, server, last = rows[0]
        return MemberLoad(int(lobbies), int(games), int(server),
                          None if last is None else float(last))

    # -- action log -----------------------------------------------------------------------

    async def actions(
        self, game_id: int, *, since_turn: int | None = None, include_undone: bool = False
    ) -> list[ActionRow]:
        """The log of ``game_id`` in order (from turn ``since_turn`` on if given)."""
        sql = (
            "SELECT idx, seat, notation, turn, reversible, at, undone FROM actions"
            " WHERE game_id = ?"
        )
        params: list[Any] = [game_id]
        if since_turn is not None:
            sql += " AND turn >= ?"
            params.append(since_turn)
        if not include_undone:
            sql += " AND undone = 0"
        rows = await self._fetchall(sql + " ORDER BY idx", params)
        return [ActionRow(i, s, n, t, bool(r), a, bool(u)) for i, s, n, t, r, a, u in rows]
