"""Opening, joining and starting games.

Ruling: the creator leaving a lobby passes it on to the next human (or closes it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.records import GameRecord, Player, SeatInfo, ServiceError
from bot.service.core import Live, ServiceCore, bump, check_creator, check_options, fail

REFUSED_OPENS = 3
"""Refused attempts to open a game, within the cooldown, after which a member waits."""
REFUSALS_KEPT = 10_000
"""Members whose refused attempts are remembered at most (older ones are dropped first)."""


def seat_order(record: GameRecord, order: list[int] | None, seed: int) -> list[SeatInfo]:
    """Seats in play order: ``order`` first (lobby positions or user ids), the rest
    after in lobby order; without ``order``, shuffled by ``random.Random(seed)``."""
    seats = list(record.seats)
    if order is None:
        random.Random(seed).shuffle(seats)
    else:
        by_user = {s.user_id: i for i, s in enumerate(seats) if s.user_id is not None}
        picked: list[int] = []
        for item in order:
            position = item if 0 <= item < len(seats) else by_user.get(item)
            if position is None or position in picked:
                raise fail("service.bad_order")
            picked.append(position)
        picked += [i for i in range(len(seats)) if i not in picked]
        seats = [seats[i] for i in picked]
    return [replace(s, seat=i) for i, s in enumerate(seats)]


def _check_lobby(record: GameRecord) -> None:
    if record.status != "lobby":
        raise fail("service.already_started")


class Lobby:
    """The lobby part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._refused_opens: dict[int, list[float]] = {}

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        creator: Player,
        game: str,
        options: dict[str, str],
        ai_seats: int = 0,
        lang: str = "en",
    ) -> GameRecord:
        """Open a lobby in ``channel_id`` with ``creator`` seated first (and ``ai_seats`` AIs).

        One active game per channel: ServiceError ``service.channel_busy`` otherwise.
        """
        full_options = await self.check_new(guild_id, creator.user_id, game, options,
                                            ai_seats)
        if await self.core.channel_game(channel_id) is not None:
            raise fail("service.channel_busy")
        seats = [SeatInfo(0, creator.user_id, creator.name)]
        seats += [SeatInfo(i + 1, None, f"AI {i + 1}") for i in range(ai_seats)]
        return (await self._open(guild_id, channel_id, game, creator.user_id, full_options,
                                 seats, lang)).record

    async def _open(self, guild_id: int | None, channel_id: int, game: str, creator_id: int,
                    options: dict[str, str], seats: list[SeatInfo], lang: str) -> Live:
        """A new lobby, stored and cached as the channel's game."""
        record = GameRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, game=game, status="lobby",
            creator_id=creator_id, options=options, seed=0,
            seats=seats, state=None, version=0, lang=lang, created_at=self.core.clock.now(),
        )
        record.id = await self.core.store.insert_game(record)
        live = Live(record, None)
        self.core.keep(live)
        return live

    async def rematch(self, game_id: int, creator: Player) -> tuple[GameRecord, list[int]]:
        """Open, in the channel of finished game ``game_id``, a lobby of the same game and
        options with as many AI seats, ``creator`` (who played it) seated first; with the
        other members who played it, to invite (they confirm by joining)."""
        old = await self.core.get_by_id(game_id)
        if old is None or old.status != "finished":
            raise fail("service.rematch_not_over")
        if not any(s.user_id == creator.user_id for s in old.seats):
            raise fail("service.rematch_not_player")
        ai = sum(1 for s in old.seats if s.user_id is None) - \
            len(self.core.seat_kinds.added(old.game, old.options))
        record = await self.create(old.guild_id, old.channel_id, creator, old.game,
                                   old.options, ai_seats=ai, lang=old.lang)
        return record, [s.user_id for s in old.seats
                        if s.user_id is not None and s.user_id != creator.user_id]

    def with_opponent(self, game: str, options: dict[str, str], people: int | None,
                      ai_seats: int, level: str | None) -> dict[str, str]:
        """``options`` with the game's own scripted opponent asked for: at ``level``, and
        whenever ``people`` and the ``ai_seats`` are fewer than the game's minimum (at the
        level for one person unless one was given); ServiceError when the game has none."""
        engine = self.core.engine(game)
        few = people is not None and people + ai_seats < engine.meta.min_players
        if level is None and not few:
            return options
        script = self.core.seat_kinds.script(game)
        if script is None:
            raise fail("service.no_opponent", min=engine.meta.min_players)
        chosen = level or options.get(script.option) or script.solo
        if few and not script.seats({**options, script.option: chosen}):
            chosen = script.solo
        return {**options, script.option: chosen}

    async def check_new(self, guild_id: int | None, user_id: int, game: str,
                        options: dict[str, str], ai_seats: int) -> dict[str, str]:
        """Everything a new game is checked for before anything is opened for it (a thread
        included): the game, its options (all of them, filled in, are returned), the AI
        seats and the member's limits (:meth:`check_may_open`). A refused attempt counts:
        :data:`REFUSED_OPENS` of them within the cooldown make the member wait as after
        opening a game."""
        try:
            self._check_refused_opens(user_id)
            engine = self.core.engine(game)
            full_options = check_options(engine, options)
            room = engine.meta.max_players - len(self.core.seat_kinds.added(game, full_options))
            if not 0 <= ai_seats < room:
                raise fail("service.too_many_ai", max=room - 1)
            await self.check_may_open(guild_id, user_id)
        except ServiceError:
            self._refused_open(user_id)
            raise
        return full_options

    def _check_refused_opens(self, user_id: int) -> None:
        window = self.core.limits.cooldown_seconds
        refused = [t for t in self._refused_opens.get(user_id, [])
                   if t > self.core.clock.now() - window]
        if window and len(refused) >= REFUSED_OPENS:
            wait = refused[0] + window - self.core.clock.now()
            raise fail("service.limit_refused", n=len(refused), seconds=math.ceil(wait))

    def _refused_open(self, user_id: int) -> None:
        window = self.core.limits.cooldown_seconds
        if not window:
            return
        now = self.core.clock.now()
        if len(self._refused_opens) > REFUSALS_KEPT:
            self._refused_opens = {u: times for u, times in self._refused_opens.items()
                                   if times[-1] > now - window}
        recent = [t for t in self._refused_opens.get(user_id, []) if t > now - window]
        self._refused_opens[user_id] = [*recent, now][-REFUSED_OPENS:]

    async def check_may_open(self, guild_id: int | None, user_id: int) -> None:
        """Refuse a new game (before a thread is opened for it) to a member at their limit
        of open lobbies or games, within the cooldown after their last one, or in a server
        at its limit (see :class:`~bot.records.Limits`)."""
        limits = self.core.limits
        load = await self.core.store.member_load(user_id, guild_id)
        if limits.cooldown_seconds and load.last_created_at is not None:
            wait = load.last_created_at + limits.cooldown_seconds - self.core.clock.now()
            if wait > 0:
                raise fail("service.limit_cooldown", seconds=math.ceil(wait))
        if limits.lobbies_per_member and load.lobbies >= limits.lobbies_per_member:
            raise fail("service.limit_lobbies", max=limits.lobbies_per_member)
        self._check_member_games(load.games)
        if limits.games_per_server and load.server_games >= limits.games_per_server:
            raise fail("service.limit_server", max=limits.games_per_server)

    def _check_member_games(self, games: int) -> None:
        maximum = self.core.limits.games_per_member
        if maximum and games >= maximum:
            raise fail("service.limit_games", max=maximum)

    async def close_stale_lobby(self, game_id: int) -> GameRecord | None:
        """Close a lobby opened more than ``limits.lobby_hours`` ago and never started (the
        record, aborted); None if it started or closed meanwhile."""
        async with self.core.lock(game_id):
            live = await self.core.load(game_id)
            if live is None or live.record.status != "lobby":
                return None
            record = live.record
            closed = bump(record, status="aborted", ended_at=self.core.clock.now())
            return await self.core.save(live, closed)

    async def join(self, channel_id: int, player: Player) -> GameRecord:
        """Take a seat in the lobby (not twice, not beyond the game's maximum)."""
        async with self.core.locked(channel_id) as live:
            record = live.record
            _check_lobby(record)
            if any(s.user_id == player.user_id for s in record.seats):
                raise fail("service.already_joined")
            if self.core.limits.games_per_member:
                load = await self.core.store.member_load(player.user_id, record.guild_id)
                self._check_member_games(load.games)
            maximum = self._lobby_room(record)
            if len(record.seats) >= maximum:
                raise fail("service.game_full", max=maximum)
            seats = [*record.seats, SeatInfo(len(record.seats), player.user_id, player.name)]
            return await self.core.save(live, bump(record, seats=seats), seats=True)

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Leave the lobby before the start.

        Ruling: if the creator leaves, the lobby passes to the next human in join
        order; if no human is left, the lobby closes (status ``aborted``).
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            if record.status != "lobby":
                raise fail("service.leave_started")
            if not any(s.user_id == user_id for s in record.seats):
                raise fail("service.not_seated")
            kept = [s for s in record.seats if s.user_id != user_id]
            seats = [replace(s, seat=i) for i, s in enumerate(kept)]
            humans = [s for s in seats if s.user_id is not None]
            changes: dict[str, Any] = {"seats": seats}
            if user_id == record.creator_id:
                if humans:
                    assert humans[0].user_id is not None
                    changes["creator_id"] = humans[0].user_id
                else:
                    changes.update(status="aborted", ended_at=self.core.clock.now())
            return await self.core.save(live, bump(record, **changes), seats=True)


    async def add_ai(self, channel_id: int, user_id: int, count: int = 1) -> GameRecord:
        """Fill ``count`` more seats with AIs named "AI 1", "AI 2"... (creator only)."""
        async with self.core.locked(channel_id) as live:
            record = live.record
            _check_lobby(record)
            check_creator(record, user_id)
            maximum = self._lobby_room(record)
            if count < 1 or len(record.seats) + count > maximum:
                raise fail("service.game_full", max=maximum)
            taken = {s.name for s in record.seats if s.user_id is None}
            names = (f"AI {n}" for n in range(1, 100) if f"AI {n}" not in taken)
            seats = list(record.seats)
            for _ in range(count):
                seats.append(SeatInfo(len(seats), None, next(names)))
            return await self.core.save(live, bump(record, seats=seats), seats=True)

    def _lobby_room(self, record: GameRecord) -> int:
        """The seats a lobby may fill: the game's maximum but those its scripted opponents
        take at the start."""
        return self.core.engine(record.game).meta.max_players - \
            len(self.core.seat_kinds.added(record.game, record.options))

    async def start(
        self, channel_id: int, user_id: int, order: list[int] | None = None
    ) -> GameRecord:
        """Start the game (creator only, enough players).

        The seed is drawn now, not when the lobby opened, so that nobody can know it (and
        foresee the seat order or a deck) before the start; it stays secret until the game
        ends. Seats are shuffled with ``random.Random(seed)`` unless ``order`` lists lobby
        positions (0-based join order) or user ids to seat first, in that order.
        The front end should then call :meth:`bot.service.loop.Loop.move_on` in case an AI
        moves first.
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            _check_lobby(record)
            check_creator(record, user_id)
            min_players = self.core.engine(record.game).meta.min_players - \
                len(self.core.seat_kinds.added(record.game, record.options))
            if len(record.seats) < min_players:
                raise fail("service.not_enough_players", min=min_players,
                           n=len(record.seats))
            return await self._begin(live, order)

    async def _begin(self, live: Live, order: list[int] | None) -> GameRecord:
        """Draw the seed, seat the lobby's players (see :meth:`start`) and set the game up
        (caller holds the game's lock)."""
        record = live.record
        engine = self.core.engine(record.game)
        seed = self.core.seed_source()
        seats = seat_order(record, order, seed)
        seats += [SeatInfo(len(seats) + i, None, name)
                  for i, name in enumerate(self.core.seat_kinds.added(record.game, record.options))]
        state = engine.setup(seed, len(seats), record.options)
        active = engine.active(state)
        started = bump(
            record, seed=seed, seats=seats, status="running", state=state,
            turn=engine.turn_number(state), active=active, turn_started_at=self.core.clock.now(),
            waiting=self.core.waiting(record, state, active, None, record.version + 1),
        )
        live.turn_steps = []
        return await self.core.save(live, started, seats=True, turn_start_state=state,
                                    start_state=state)

    async def open_table(self, channel_id: int, game: str, options: dict[str, str],
                         seats: Sequence[Player | None], lang: str = "en") -> GameRecord:
        """A game of ``game`` started at once with ``seats`` in this order (a member, or
        None for the AI), for a front end without lobbies (the terminal); the options are
        checked, the player count is the caller's, no limits apply."""
        full_options = check_options(self.core.engine(game), options)
        if await self.core.channel_game(channel_id) is not None:
            raise fail("service.channel_busy")
        infos = [SeatInfo(i, None, f"AI {i + 1}") if player is None
                 else SeatInfo(i, player.user_id, player.name) for i, player in enumerate(seats)]
        creator = next((p.user_id for p in seats if p is not None), 0)
        live = await self._open(None, channel_id, game, creator, full_options, infos, lang)
        async with self.core.lock(live.record.id):
            return await self._begin(live, list(range(len(infos))))

