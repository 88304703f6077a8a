"""Playing: legal steps, one step through the engine and the store, undo.

Every step goes load -> check seat/turn/version -> engine.apply -> save state
and log row in one transaction, under a per-game lock, so two simultaneous
clicks apply exactly one step. A retried step carrying its ``expected_version``
is never applied twice.
"""

from __future__ import annotations

from bot.engine import Action, Seat
from bot.records import GameRecord, StaleVersion, StepResult
from bot.service.core import ServiceCore, _fail, _Live
from bot.store import StepWrite


class TurnsMixin(ServiceCore):
    """Turns part of :class:`bot.service.GameService`."""

    async def legal(self, channel_id: int, user_id: int) -> tuple[GameRecord, Seat, list[Action]]:
        """The caller's record, seat and legal steps (empty when it is not their turn)."""
        record = await self.get(channel_id)
        if record is None:
            raise _fail("service.no_game")
        seat = self.seat_of(record, user_id)
        if seat is None:
            raise _fail("service.not_seated")
        if record.status != "running" or record.state is None:
            return record, seat, []
        return record, seat, self.engine(record.game).legal(record.state, seat)

    async def play(
        self, channel_id: int, user_id: int, notation: str, expected_version: int | None = None
    ) -> StepResult:
        """Play one step typed or chosen by ``user_id`` in the channel's game.

        ``expected_version`` (the version the player saw, carried by buttons) makes a
        retried or doubled request harmless: once the step is applied the version has
        moved on, so the retry gets :class:`StaleVersion` instead of a second step.
        Engine errors (GameError with its Text) propagate unchanged.
        """
        return await self.play_by_id(
            await self._channel_game_id(channel_id), user_id, notation, expected_version
        )

    async def play_by_id(
        self, game_id: int, user_id: int, notation: str, expected_version: int | None = None
    ) -> StepResult:
        """:meth:`play` for a game known by id (buttons)."""
        async with self._lock(game_id):
            live = await self._must_live(game_id)
            record = live.record
            self._check_running(record)
            if expected_version is not None and expected_version != record.version:
                raise StaleVersion()
            seat = self.seat_of(record, user_id)
            if seat is None:
                raise _fail("service.not_seated")
            if seat not in record.active:
                raise _fail("service.not_your_turn", players=self._names(record, record.active))
            assert record.state is not None
            action = self.engine(record.game).parse(record.state, seat, notation)
            return await self._apply(live, seat, action)

    async def _turn_steps(self, live: _Live) -> list[Action]:
        """The actions of the current turn so far (rebuilt from the log after a restart)."""
        if live.turn_steps is None:
            record = live.record
            engine = self.engine(record.game)
            state = live.turn_start_state
            steps: list[Action] = []
            for row in await self.store.actions(record.id, since_turn=record.turn):
                assert state is not None
                action = engine.parse(state, row.seat, row.notation)
                state = engine.apply(state, row.seat, action)
                steps.append(action)
            live.turn_steps = steps
        return live.turn_steps

    async def _apply(self, live: _Live, seat: Seat, action: Action) -> StepResult:
        """Apply and persist one checked step (caller holds the game's lock)."""

        record = live.record
        engine = self.engine(record.game)
        assert record.state is not None
        steps = await self._turn_steps(live)
        reversible = engine.is_reversible(record.state, seat, action)
        state = engine.apply(record.state, seat, action)
        now = self.clock.now()
        turn = engine.turn_number(state)
        active = engine.active(state)
        turn_ended = turn != record.turn
        outcome = engine.outcome(state)
        finished = outcome is not None or not active
        moved = turn_ended or active != record.active
        new = self._bump(
            record, state=state, turn=turn, active=active,
            status="finished" if finished else "running",
            ended_at=now if finished else None,
            turn_started_at=now if moved else record.turn_started_at,
        )
        try:
            await self.store.apply_step(StepWrite(
                game_id=record.id, expected_version=record.version, state=state, active=active,
                status=new.status, turn=turn, turn_started_at=new.turn_started_at,
                turn_ended=turn_ended, ended_at=new.ended_at, seat=seat,
                notation=action.notation, step_turn=record.turn, reversible=reversible, at=now,
            ))
        except StaleVersion:
            self._cache.pop(record.id, None)
            raise
        turn_steps = (*steps, action)
        self._remember(live, new)
        if turn_ended:
            live.turn_start_state = state
            live.turn_steps = []
        else:
            steps.append(action)
        return StepResult(new, seat, action, turn_ended, turn_steps,
                          self._final_outcome(engine, new) if finished else None)

    async def undo(self, channel_id: int, user_id: int) -> GameRecord:
        """Take back the last step: only your own, in the current turn, and never a step
        that drew randomness or revealed a secret. Replays the turn from its snapshot."""
        async with self._locked(channel_id) as live:
            record = live.record
            self._check_running(record)
            seat = self.seat_of(record, user_id)
            if seat is None:
                raise _fail("service.not_seated")
            rows = await self.store.actions(record.id, since_turn=record.turn)
            if not rows:
                raise _fail("service.nothing_to_undo")
            last = rows[-1]
            if last.seat != seat:
                raise _fail("service.undo_not_yours")
            if not last.reversible:
                raise _fail("service.undo_irreversible")
            engine = self.engine(record.game)
            state = live.turn_start_state
            assert state is not None
            steps: list[Action] = []
            for row in rows[:-1]:
                action = engine.parse(state, row.seat, row.notation)
                state = engine.apply(state, row.seat, action)
                steps.append(action)
            active = engine.active(state)
            new = self._bump(
                record, state=state, active=active,
                turn_started_at=record.turn_started_at if active == record.active
                else self.clock.now(),
            )
            saved = await self._save(live, new, undone=[last.idx])
            live.turn_steps = steps
            return saved

