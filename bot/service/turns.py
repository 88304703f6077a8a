"""Playing: legal steps, one step through the engine and the store, undo.

Every step goes load -> check seat/turn/version -> engine.apply -> save state
and log row in one transaction, under a per-game lock, so two simultaneous
clicks apply exactly one step. A retried step carrying its ``expected_version``
is never applied twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import chance
from bot.engine import Action, Game, GameError, Seat, State, Text, seat_ref
from bot.notation import parse_typed
from bot.records import GameRecord, Played, Question, StaleVersion, StepResult
from bot.service.core import Live, ServiceCore, bump, check_running, fail
from bot.store import StepWrite


def _replayed(engine: Game, state: State, steps: Sequence[tuple[Seat, str]]
              ) -> tuple[State, list[Played]]:
    """``steps`` applied from ``state``: the state reached and each step with its report."""
    played = []
    for seat, notation in steps:
        action = engine.parse(state, seat, notation)
        after = engine.apply(state, seat, action)
        played.append(Played(seat, action, state, after, engine))
        state = after
    return state, played


def _asked(engine: Game, record: GameRecord, actor: Seat) -> tuple[Seat, ...]:
    """Seats to which the latest change of ``record`` put a new decision: others, and the
    actor itself only when that decision is a public question on a clock of seconds
    (posted in the channel with its answer buttons)."""
    assert record.state is not None
    asked = []
    for seat in record.active:
        if record.seat_version(seat) != record.version:
            continue
        if seat != actor or _question(engine, record, seat) is not None:
            asked.append(seat)
    return tuple(asked)


def _question(engine: Game, record: GameRecord, seat: Seat) -> Question | None:
    """``seat``'s decision in ``record`` when it is a public question on a clock of
    seconds (posted in the channel with its answer buttons), else None."""
    state = record.state
    assert state is not None
    deadline = engine.deadline(state, seat)
    if deadline is None or deadline.seconds is None:
        return None
    prompt = engine.prompt(state, seat)
    if prompt is None or not prompt.public:
        return None
    return Question(prompt.text, tuple(engine.legal(state, seat)),
                    record.seat_version(seat))


class Turns:
    """The turns part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def legal(self, channel_id: int, user_id: int) -> tuple[GameRecord, Seat, list[Action]]:
        """The caller's record, seat and legal steps (empty when it is not their turn)."""
        record = await self.core.get(channel_id)
        if record is None:
            raise fail("service.no_game")
        seat = self.core.seat_of(record, user_id)
        if seat is None:
            raise fail("service.not_seated")
        if record.status != "running" or record.state is None:
            return record, seat, []
        return record, seat, self.core.catalogue.legal(record.game, record.state, seat)

    async def decision_version(self, channel_id: int, user_id: int) -> int | None:
        """The version of ``user_id``'s current decision in the channel's game (None when
        there is no game or they have no seat), to play a typed step on."""
        record = await self.core.get(channel_id)
        seat = None if record is None else self.core.seat_of(record, user_id)
        return None if record is None or seat is None else record.seat_version(seat)

    async def play(
        self, channel_id: int, user_id: int, notation: str, expected_version: int | None = None,
        *, lang: str | None = None,
    ) -> StepResult:
        """Play one step typed or chosen by ``user_id`` in the channel's game.

        ``expected_version`` (the version the player saw, carried by buttons) makes a
        retried or doubled request harmless: once the step is applied the version has
        moved on, so the retry gets :class:`StaleVersion` instead of a second step.
        Engine errors (GameError with its Text) propagate unchanged. A step typed in the
        player's ``lang`` is read back to the canonical notation (:mod:`bot.notation`).
        """
        return await self.play_by_id(
            await self.core.channel_game_id(channel_id), user_id, notation, expected_version,
            lang=lang,
        )

    async def play_by_id(
        self, game_id: int, user_id: int, notation: str, expected_version: int | None = None,
        *, lang: str | None = None,
    ) -> StepResult:
        """:meth:`play` for a game known by id (buttons).

        ``expected_version`` is the version of the caller's decision (see
        :meth:`GameRecord.seat_version`): another seat's step does not make it stale when
        the caller's own decision stayed the same. A press on a decision whose clock ran
        out is refused as too late, never applied to the next decision.
        """
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            record = live.record
            check_running(record)
            seat = self.core.seat_of(record, user_id)
            if expected_version is not None and (
                    seat is None or expected_version != record.seat_version(seat)):
                if seat is not None and self.core.expired(game_id, seat, expected_version):
                    raise StaleVersion(Text.of("service.too_late"))
                raise StaleVersion()
            if seat is None:
                raise fail("service.not_seated")
            if seat not in record.active:
                raise fail("service.not_your_turn",
                           players=Text.list_and([seat_ref(s) for s in record.active]))
            assert record.state is not None
            engine = self.core.engine(record.game)
            if self.core.overdue(engine, record, seat):
                raise StaleVersion(Text.of("service.too_late"))
            action = parse_typed(engine, record.state, seat, notation, lang)
            return await self.apply(live, seat, action)

    def stale_reason(self, record: GameRecord, seat: Seat, version: int) -> Text | None:
        """Why a button made for ``seat``'s decision at ``version`` no longer plays (the
        board moved on, or the decision's clock ran out), or None if it still does."""
        if record.status != "running" or record.state is None:
            return Text.of("service.stale_version")
        current = record.seat_version(seat) == version and seat in record.active
        if current and not self.core.overdue(self.core.engine(record.game), record, seat):
            return None
        if current or self.core.expired(record.id, seat, version):
            return Text.of("service.too_late")
        return Text.of("service.stale_version")

    async def _turn_steps(self, live: Live) -> list[Played]:
        """The steps of the current turn so far (rebuilt from the log after a restart)."""
        if live.turn_steps is None:
            record = live.record
            assert live.turn_start_state is not None
            rows = await self.core.store.actions(record.id, since_turn=record.turn)
            live.turn_steps = _replayed(self.core.engine(record.game), live.turn_start_state,
                                             [(r.seat, r.notation) for r in rows])[1]
        return live.turn_steps

    async def latest(self, game_id: int) -> StepResult | None:
        """The last step of the turn under way, rebuilt from the log as :meth:`apply`
        returned it (without the public question it answered): for a process that did not
        take it to tell it (a step taken through another process). None when the game is
        not running or its turn has no step yet."""
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            record = live.record
            if record.status != "running" or record.state is None:
                return None
            steps = await self._turn_steps(live)
            if not steps:
                return None
            last = steps[-1]
            return StepResult(record, last.seat, last.action, False, tuple(steps), None,
                              _asked(self.core.engine(record.game), record, last.seat))

    async def apply(self, live: Live, seat: Seat, action: Action) -> StepResult:
        """Apply and persist one checked step (caller holds the game's lock)."""
        record = live.record
        engine = self.core.engine(record.game)
        before = record.state
        assert before is not None
        steps = await self._turn_steps(live)
        state = engine.apply(before, seat, action)
        reversible = engine.is_reversible(before, seat, action) and not chance.drew(before, state)
        now = self.core.clock.now()
        turn = engine.turn_number(state)
        active = engine.active(state)
        turn_ended = turn != record.turn
        outcome = engine.outcome(state)
        finished = outcome is not None or not active
        moved = turn_ended or active != record.active
        waiting = self.core.waiting(record, state, active, seat, record.version + 1,
                                    fresh=turn_ended)
        new = bump(
            record, state=state, turn=turn, active=active,
            status="finished" if finished else "running",
            ended_at=now if finished else None,
            turn_started_at=now if moved else record.turn_started_at, waiting=waiting,
        )
        try:
            await self.core.store.apply_step(StepWrite(
                game_id=record.id, expected_version=record.version, state=state, active=active,
                status=new.status, turn=turn, turn_started_at=new.turn_started_at,
                turn_ended=turn_ended, ended_at=new.ended_at, seat=seat,
                notation=action.notation, step_turn=record.turn, reversible=reversible, at=now,
                waiting=waiting,
            ))
        except StaleVersion:
            self.core.drop(record.id)
            raise
        played = Played(seat, action, before, state, engine)
        turn_steps = (*steps, played)
        self.core.remember(live, new)
        if record.settings.time_bank_hours:
            await self._spend_banks(record, new, seat, turn_ended)
        if turn_ended:
            live.turn_start_state = state
            live.turn_steps = []
        else:
            steps.append(played)
        return StepResult(new, seat, action, turn_ended, turn_steps,
                          self.core.outcome(new) if finished else None,
                          () if finished else _asked(engine, new, seat),
                          _question(engine, record, seat))

    async def _spend_banks(self, before: GameRecord, after: GameRecord, actor: Seat,
                           turn_ended: bool) -> None:
        """With time banks: each human seat whose decision ended with this step (the
        actor's always) spends the time it took (not the time its player was away), and
        the actor gets the bonus when its turn ended."""
        left = await self.core.banks_left(before)
        if not left:
            return
        now = self.core.clock.now()
        ended = [s for s in before.active if s in left and (
            s == actor or after.waiting.get(s) != before.waiting.get(s))]
        away = await self.core.store.away_until(
            before.seats[s].user_id or 0 for s in ended)
        spent = {}
        for seat in ended:
            start = max(before.seat_since(seat), away.get(before.seats[seat].user_id or 0, 0.0))
            bonus = before.settings.bank_bonus_hours * 3600 if seat == actor and turn_ended \
                else 0.0
            spent[seat] = max(0.0, left[seat] - max(0.0, now - start)) + bonus
        await self.core.store.set_banks(before.id, spent)

    async def undoable_step(self, record: GameRecord, seat: Seat) -> int | None:
        """The log index of ``seat``'s step that :meth:`undo` would take back now (its
        last step of this turn, if that step and every later one are undoable), or None."""
        rows = await self.core.store.actions(record.id, since_turn=record.turn)
        mine = [i for i, row in enumerate(rows) if row.seat == seat]
        if not mine or not all(row.reversible for row in rows[mine[-1]:]):
            return None
        return rows[mine[-1]].idx

    async def undo(self, channel_id: int, user_id: int, step: int | None = None) -> GameRecord:
        """Take back your last step of the current turn.

        Ruling (Board Game Arena's, widened to decisions taken at once): the step must be
        yours and in this turn, must not have drawn randomness or revealed a secret, and
        every later step of the turn (another seat's sealed bid, say) must still apply
        without it and be undoable itself; then the turn is replayed without the step.
        So a sealed choice can be taken back until the reveal, and an offer once answered
        cannot. With ``step`` (the log index a button was made for), only that step is
        taken back: a second press of the same button does nothing more.
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            check_running(record)
            seat = self.core.seat_of(record, user_id)
            if seat is None:
                raise fail("service.not_seated")
            rows = await self.core.store.actions(record.id, since_turn=record.turn)
            mine = [i for i, row in enumerate(rows) if row.seat == seat]
            if not mine:
                raise fail("service.undo_not_yours" if rows else "service.nothing_to_undo")
            last = rows[mine[-1]]
            if step is not None and last.idx != step:
                raise StaleVersion()
            later = rows[mine[-1] + 1:]
            if not last.reversible or any(not row.reversible for row in later):
                raise fail("service.undo_irreversible")
            engine = self.core.engine(record.game)
            assert live.turn_start_state is not None
            kept = [(r.seat, r.notation) for r in rows if r.idx != last.idx]
            try:
                state, played = _replayed(engine, live.turn_start_state, kept)
            except GameError:
                raise fail("service.undo_answered") from None
            if seat not in engine.active(state):
                raise fail("service.undo_answered")
            active = engine.active(state)
            new = bump(
                record, state=state, active=active,
                waiting=self.core.waiting(record, state, active, seat, record.version + 1),
                turn_started_at=record.turn_started_at if active == record.active
                else self.core.clock.now())
            saved = await self.core.save(live, new, undone=[last.idx])
            live.turn_steps = played
            return saved
