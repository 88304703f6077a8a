"""Steps played without a human: AI seats, clocks that ran out, votes to skip a turn.

Rulings: the "ai" timeout policy lets the AI finish that turn only, except that a
decision the engine gives a default (a quiz answer counts as wrong, an offer is
declined) gets that default, never the AI's choice; vote_skip needs a strict
majority of the other seated humans once the turn limit has passed.
"""

from __future__ import annotations

from bot.engine import Action, Seat
from bot.records import GameRecord, SkipVote, StepResult
from bot.service.core import MAX_AUTO_STEPS, ServiceCore, check_running, fail
from bot.service.seats import Ask
from bot.service.turns import Turns


class Autoplay:
    """The autoplay part of :class:`bot.service.GameService`: steps of seats the service
    plays, through :meth:`Turns.apply`."""

    def __init__(self, core: ServiceCore, turns: Turns) -> None:
        self.core = core
        self.turns = turns

    def _ask(self, record: GameRecord, seat: Seat) -> Ask:
        """``seat``'s decision in ``record``; its kind's random generator is seeded with
        ``f"{seed}:{version}"``, so the same game makes the same choices."""
        assert record.state is not None
        return Ask(record.game, self.core.engine(record.game), record.state, seat,
                   f"{record.seed}:{record.version}")

    async def play_seats(self, game_id: int) -> list[StepResult]:
        """Let every active seat the service plays (the AI's, a scripted seat's) take its
        steps, each kind asked the same way (:mod:`bot.service.seats`), until a member is
        to decide or the game stops; its steps are logged like any other."""
        results: list[StepResult] = []
        for _ in range(MAX_AUTO_STEPS):
            async with self.core.lock(game_id):
                live = await self.core.live(game_id)
                record = live.record
                if record.status != "running":
                    break
                step = await self._next_step(record)
                if step is None:
                    break
                results.append(await self.turns.apply(live, *step))
        return results

    async def _next_step(self, record: GameRecord) -> tuple[Seat, Action] | None:
        """The step of the first active seat whose kind takes one now (None: members
        decide)."""
        for seat in record.active:
            action = await self.core.seat_kinds.of(record, seat).step(self._ask(record, seat))
            if action is not None:
                return seat, action
        return None

    async def play_out_turn(
        self, game_id: int, seat: Seat, since: float, *, use_default: bool = False
    ) -> list[StepResult]:
        """Finish ``seat``'s part of the current turn for it. A decision with a deadline
        gets the engine's default step; otherwise the engine's ``default_action``
        (``use_default``; the AI decides where the engine has none) or the AI.

        ``since`` is the seat's ``seat_since`` the caller saw: if the seat's decision
        moved on since, nothing is played (so a repeated timeout does nothing twice).
        """
        results: list[StepResult] = []
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            start = live.record
            if (start.status != "running" or seat not in start.active
                    or start.seat_since(seat) != since):
                return results
            engine = self.core.engine(start.game)
            for _ in range(MAX_AUTO_STEPS):
                record = live.record
                if (record.status != "running" or seat not in record.active
                        or record.turn != start.turn):
                    break
                assert record.state is not None
                deadline = engine.deadline(record.state, seat)
                action = deadline.default if deadline is not None else (
                    engine.default_action(record.state, seat) if use_default else None)
                chosen = action or await self.core.seat_kinds.ai.step(self._ask(record, seat))
                results.append(await self.turns.apply(live, seat, chosen))
        return results

    async def expire(self, game_id: int, seat: Seat, version: int) -> list[StepResult]:
        """Apply the default step of ``seat``'s decision put at ``version`` if its clock of
        seconds has run out; nothing if the decision was taken meanwhile (a timer that
        fires twice, or late after a restart, applies it at most once)."""
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            record = live.record
            if (record.status != "running" or seat not in record.active
                    or record.seat_version(seat) != version):
                return []
            engine = self.core.engine(record.game)
            assert record.state is not None
            deadline = engine.deadline(record.state, seat)
            if deadline is None or not self.core.overdue(engine, record, seat):
                return []
            self.core.mark_expired(game_id, seat, version)
            return [await self.turns.apply(live, seat, deadline.default)]

    async def vote_skip(self, channel_id: int, user_id: int) -> SkipVote:
        """Vote to skip the turn of the player whose time limit ran out.

        Ruling: only with the ``vote_skip`` policy, once the active human seat's turn
        limit has passed; voters are the other seated, non-resigned humans; a strict
        majority of them (``n // 2 + 1``) skips the turn, which is then played out with
        the engine's ``default_action`` steps (the AI where there is none). The player
        keeps the seat for the next turns. Votes count per stretch of that turn. A player
        away (``/away``) cannot be skipped; once back, their time counts from their return.
        """
        game_id = await self.core.channel_game_id(channel_id)
        record = await self.core.live(game_id)
        rec = record.record
        check_running(rec)
        banks = await self.core.banks_left(rec)
        limit = rec.settings.turn_limit_hours
        if rec.settings.timeout_policy != "vote_skip" or not (limit or banks):
            raise fail("service.skip_not_enabled")
        seat = next((s for s in rec.active if not self.core.is_ai(rec, s)), None)
        if seat is None:
            raise fail("service.skip_nobody")
        voter = self.core.seat_of(rec, user_id)
        if voter is None:
            raise fail("service.not_seated")
        if voter == seat:
            raise fail("service.skip_own_turn")
        player = rec.seats[seat]
        user = player.user_id or 0                  # a human seat: always a member
        back = (await self.core.store.away_until([user])).get(user, 0.0)
        if self.core.clock.now() < back:
            raise fail("service.skip_away", player=player.name)
        since = max(rec.seat_since(seat), back)     # back from being away: counted from then
        if self.core.clock.now() < since + (banks[seat] if banks else (limit or 0) * 3600):
            raise fail("service.skip_too_early", player=rec.seats[seat].name)
        voters = [s for s in rec.seats if s.seat != seat and not self.core.is_ai(rec, s.seat)]
        needed = len(voters) // 2 + 1
        votes = await self.core.store.add_skip_vote(game_id, since, seat, user_id)
        steps: list[StepResult] = []
        if votes >= needed:
            steps = await self.play_out_turn(game_id, seat, since, use_default=True)
        latest = await self.core.live(game_id)
        return SkipVote(latest.record, seat, votes, needed, tuple(steps))

