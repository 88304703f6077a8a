"""Reminders and turn clocks with a fake clock: schedule, growth, restarts, timeouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock, OffsetClock, clock_from_env
from bot.records import GameRecord, Player, ServiceError
from host.scheduler import (
    DOWNTIME_SECONDS,
    NOTICES_PER_ROUND,
    Event,
    LimitWarning,
    Reminder,
    Scheduler,
    StalledAI,
    Timeout,
    Unposted,
)
from tests.test_session import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    Env,
    current_user,
    reason,
    started,
)
from tests.test_session import env as env  # the shared fixture (a store closed at teardown)

HOUR = 3600.0


def scheduler(env: Env) -> Scheduler:
    return Scheduler(env.service, env.store, env.clock)


async def due(env: Env) -> list[Event]:
    """What is due, but the posts that a front end would have made (none here)."""
    return [e for e in await scheduler(env).due() if not isinstance(e, Unposted)]


async def reminders(env: Env) -> list[Reminder]:
    return [e for e in await due(env) if isinstance(e, Reminder)]


async def test_first_reminder_after_the_interval_then_doubling(env: Env) -> None:
    record = await started(env.service)
    start = env.clock.now()
    env.clock.set(start + 24 * HOUR - 1)
    assert await due(env) == []
    env.clock.set(start + 24 * HOUR)
    (event,) = await due(env)
    assert isinstance(event, Reminder)
    assert (event.user_id, event.count, event.dm) == (current_user(record), 1, False)
    assert event.seat == record.active[0] and event.game.id == record.id
    assert await scheduler(env).mark_sent(event)
    assert not await scheduler(env).mark_sent(event)  # never twice
    assert await due(env) == []
    sent = env.clock.now()
    for count, gap in ((2, 48), (3, 96), (4, 192)):
        env.clock.set(sent + gap * HOUR - 1)
        assert await due(env) == []
        env.clock.set(sent + gap * HOUR)
        (event,) = await reminders(env)
        assert event.count == count
        assert await scheduler(env).mark_sent(event)
        sent = env.clock.now()


async def test_missed_reminders_are_not_caught_up(env: Env) -> None:
    await started(env.service)
    env.clock.advance(hours=24 * 30)  # the bot was down for a month
    events = await reminders(env)
    assert [e.count for e in events] == [1]
    await scheduler(env).mark_sent(events[0])
    assert await due(env) == []


async def test_a_move_restarts_the_schedule_for_the_next_player(env: Env) -> None:
    record = await started(env.service)
    env.clock.advance(hours=24)
    (event,) = await reminders(env)
    await scheduler(env).mark_sent(event)
    env.clock.advance(hours=1)
    result = await env.service.turns.play(CHANNEL, current_user(record), "end")
    env.clock.advance(hours=23)
    assert await due(env) == []
    env.clock.advance(hours=1)
    (event,) = await reminders(env)
    assert event.count == 1 and event.user_id == current_user(result.record)


async def test_an_ai_seat_left_with_the_move_is_due_after_a_minute(env: Env) -> None:
    record = await started(env.service, (ANN,), ai=1)
    while all(record.seats[s].user_id is not None for s in record.active):
        record = (await env.service.turns.play(CHANNEL, current_user(record), "end")).record
    assert await due(env) == []  # it has just got the move
    env.clock.advance(59)
    assert await due(env) == []
    env.clock.advance(1)
    assert await due(env) == [StalledAI(record.id)]
    await env.service.autoplay.play_seats(record.id)  # what the bot then does: a person moves
    assert await due(env) == []


async def test_paused_and_finished_games_are_quiet(env: Env) -> None:
    record = await started(env.service)
    await env.service.admin.pause(record.id, True)
    env.clock.advance(hours=100)
    assert await due(env) == []
    await env.service.admin.pause(record.id, False)  # the clock restarts at the resume
    env.clock.advance(hours=23)
    assert await due(env) == []
    env.clock.advance(hours=1)
    assert len(await reminders(env)) == 1
    await env.service.admin.abort(CHANNEL, ANN.user_id, False)
    env.clock.advance(hours=100)
    assert await due(env) == []


async def test_ai_seats_get_no_reminders(env: Env) -> None:
    record = await started(env.service, (ANN,), ai=1)
    await env.service.autoplay.play_seats(record.id)
    env.clock.advance(hours=24)
    events = await reminders(env)
    assert [e.user_id for e in events] == [ANN.user_id]


async def test_dm_follows_the_players_opt_in(env: Env) -> None:
    record = await started(env.service)
    await env.service.members.set_notify(current_user(record), True)
    env.clock.advance(hours=24)
    (event,) = await reminders(env)
    assert event.dm
    text = event.text(env.service.core.engine("race").meta.name)
    assert text.key == "service.reminder" and text.kwargs["n"] == 1


async def test_reminders_survive_a_restart(env: Env) -> None:
    await started(env.service)
    env.clock.advance(hours=24)
    (event,) = await reminders(env)
    await scheduler(env).mark_sent(event)
    await env.reopen()
    assert await due(env) == []  # nothing resent after the restart
    env.clock.advance(hours=48)
    (event,) = await reminders(env)
    assert event.count == 2


async def limited(
    env: Env, policy: str, players: tuple[Player, ...] = (ANN, BOB)
) -> GameRecord:
    await started(env.service, players)
    return await env.service.admin.update_settings(
        CHANNEL, ANN.user_id, False, turn_limit_hours=48, timeout_policy=policy
    )


async def timeouts(env: Env) -> list[Timeout]:
    return [e for e in await due(env) if isinstance(e, Timeout)]


async def test_no_timeout_by_default(env: Env) -> None:
    await started(env.service)
    env.clock.advance(hours=1000)
    assert await timeouts(env) == []


async def test_timeout_nothing_is_told_once(env: Env) -> None:
    record = await limited(env, "nothing")
    env.clock.advance(hours=47)
    assert await timeouts(env) == []
    env.clock.advance(hours=1)
    (event,) = await timeouts(env)
    assert event.policy == "nothing" and event.seat == record.active[0]
    assert event.text().key == "service.timeout_nothing"
    assert await scheduler(env).apply_timeout(event) == []
    assert await timeouts(env) == []
    after = await env.service.core.get(CHANNEL)
    assert after is not None and after.version == record.version


async def test_timeout_ai_plays_the_turn_and_keeps_the_seat(env: Env) -> None:
    record = await limited(env, "ai")
    late = current_user(record)
    env.clock.advance(hours=48)
    (event,) = await timeouts(env)
    steps = await scheduler(env).apply_timeout(event)
    assert [s.action.notation for s in steps] == ["add 1", "add 1", "end"]
    assert steps[-1].turn_ended and all(s.seat == event.seat for s in steps)
    after = steps[-1].record
    assert env.service.core.seat_of(after, late) == event.seat  # still their seat
    assert await scheduler(env).apply_timeout(event) == []  # a repeat plays nothing
    assert await timeouts(env) == []


async def test_stale_timeout_plays_nothing(env: Env) -> None:
    record = await limited(env, "ai")
    env.clock.advance(hours=48)
    (event,) = await timeouts(env)
    await env.service.turns.play(CHANNEL, current_user(record), "end")  # the player woke up
    assert await scheduler(env).apply_timeout(event) == []


async def test_vote_skip(env: Env) -> None:
    record = await limited(env, "vote_skip", (ANN, BOB, CID))
    late = current_user(record)
    voters = [s.user_id or 0 for s in record.seats if s.user_id != late]
    with pytest.raises(ServiceError) as error:
        await env.service.autoplay.vote_skip(CHANNEL, voters[0])
    assert reason(error) == "service.skip_too_early"
    env.clock.advance(hours=48)
    (event,) = await timeouts(env)
    assert event.text().key == "service.timeout_vote_skip"
    assert await scheduler(env).apply_timeout(event) == []
    with pytest.raises(ServiceError) as error:
        await env.service.autoplay.vote_skip(CHANNEL, late)
    assert reason(error) == "service.skip_own_turn"
    first = await env.service.autoplay.vote_skip(CHANNEL, voters[0])
    assert (first.votes, first.needed, first.skipped, first.steps) == (1, 2, False, ())
    again = await env.service.autoplay.vote_skip(CHANNEL, voters[0])  # one vote per person
    assert again.votes == 1
    second = await env.service.autoplay.vote_skip(CHANNEL, voters[1])
    assert second.skipped
    assert [s.action.notation for s in second.steps] == ["end"]  # the default action
    assert second.record.active != record.active


async def test_no_vote_skips_a_member_away_and_their_time_counts_from_the_return(env: Env) -> None:
    record = await limited(env, "vote_skip", (ANN, BOB, CID))
    late = current_user(record)
    voter = next(s.user_id or 0 for s in record.seats if s.user_id != late)
    env.clock.advance(hours=47)
    await env.service.members.set_away(late, env.clock.now() + 24 * HOUR)
    env.clock.advance(hours=2)                   # past the limit, but away
    with pytest.raises(ServiceError) as error:
        await env.service.autoplay.vote_skip(CHANNEL, voter)
    assert reason(error) == "service.skip_away"
    env.clock.advance(hours=23)                  # back an hour ago: 47 h still to go
    with pytest.raises(ServiceError) as error:
        await env.service.autoplay.vote_skip(CHANNEL, voter)
    assert reason(error) == "service.skip_too_early"
    env.clock.advance(hours=48)
    assert (await env.service.autoplay.vote_skip(CHANNEL, voter)).votes == 1


async def test_vote_skip_needs_the_policy(env: Env) -> None:
    record = await limited(env, "nothing")
    env.clock.advance(hours=48)
    with pytest.raises(ServiceError) as error:
        await env.service.autoplay.vote_skip(CHANNEL, next(
            s.user_id or 0 for s in record.seats if s.seat not in record.active))
    assert reason(error) == "service.skip_not_enabled"


def test_offset_clock_reads_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = FakeClock(1000.0)
    path = tmp_path / "offset"
    clock = OffsetClock(base, path, recheck=0.0)
    assert clock.now() == 1000.0  # no file: no offset
    path.write_text("90000\n")
    assert clock.now() == 91000.0
    path.write_text("3600.5")
    base.advance(10)
    assert clock.now() == 4610.5
    path.write_text("soon")
    assert clock.now() == 1010.0  # unreadable: no offset
    monkeypatch.setenv("DINGIR_CLOCK_FILE", str(path))
    assert isinstance(clock_from_env(), OffsetClock)
    monkeypatch.delenv("DINGIR_CLOCK_FILE")
    assert not isinstance(clock_from_env(), OffsetClock)


def test_an_offset_clock_looks_at_its_file_as_often_as_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "offset"
    path.write_text("60")
    monkeypatch.setenv("DINGIR_CLOCK_RECHECK", "0")          # as the end-to-end tests run it
    at_once = OffsetClock(FakeClock(0.0), path)
    monkeypatch.delenv("DINGIR_CLOCK_RECHECK")
    default = OffsetClock(FakeClock(0.0), path)
    assert at_once.now() == default.now() == 60.0
    path.write_text("120")
    assert at_once.now() == 120.0 and default.now() == 60.0   # twice a second at most


async def test_a_missing_turn_message_is_due_a_minute_after_the_turn_started(
        env: Env) -> None:
    record = await started(env.service)           # nobody posted its first board
    env.clock.advance(59)
    assert Unposted(record.id) not in await scheduler(env).due()
    env.clock.advance(1)
    assert Unposted(record.id) in await scheduler(env).due()
    await env.service.admin.set_message(record.id, 99, record.turn)   # the post went out
    assert Unposted(record.id) not in await scheduler(env).due()
    result = await env.service.turns.play(CHANNEL, current_user(record), "end")
    env.clock.advance(60)
    assert Unposted(record.id) in await scheduler(env).due()   # the next turn's is missing
    await env.service.admin.set_message(record.id, 100, result.record.turn)
    assert Unposted(record.id) not in await scheduler(env).due()


async def test_a_missing_final_message_is_due_too(env: Env) -> None:
    record = await started(env.service, (ANN,), ai=1)
    while True:
        await env.service.autoplay.play_seats(record.id)
        record = await env.service.core.get_by_id(record.id) or record
        if record.status != "running":
            break
        record = (await env.service.turns.play(CHANNEL, current_user(record), "end")).record
    assert record.status == "finished"
    assert Unposted(record.id) not in await scheduler(env).due()
    env.clock.advance(61)
    assert Unposted(record.id) in await scheduler(env).due()
    await env.service.admin.set_message(record.id, 7, record.turn)
    assert Unposted(record.id) not in await scheduler(env).due()


async def test_downtime_moves_every_clock_forward(env: Env) -> None:
    record = await limited(env, "vote_skip", (ANN, BOB, CID))
    late = current_user(record)
    voters = [s.user_id or 0 for s in record.seats if s.user_id != late]
    env.clock.advance(hours=24)
    (event,) = await reminders(env)
    await scheduler(env).mark_sent(event)
    await scheduler(env).beat()
    env.clock.advance(hours=24 * 30)             # the bot was away for 30 days
    assert await scheduler(env).catch_up() == 24 * 30 * HOUR
    assert await due(env) == []                  # nobody lost a turn to it
    env.clock.advance(hours=24, seconds=-1)
    (warning,) = await due(env)                  # 12 hours before the limit: warned once
    assert isinstance(warning, LimitWarning) and warning.deadline == env.clock.now() + 1
    assert await scheduler(env).mark_sent(warning)
    assert await due(env) == []
    env.clock.advance(1)                         # 48 hours of the bot being up
    (timeout,) = await timeouts(env)
    await scheduler(env).apply_timeout(timeout)
    first = await env.service.autoplay.vote_skip(CHANNEL, voters[0])
    assert (first.votes, first.skipped) == (1, False)
    await scheduler(env).beat()
    env.clock.advance(hours=24 * 30)             # away again: the vote still counts
    await scheduler(env).catch_up()
    second = await env.service.autoplay.vote_skip(CHANNEL, voters[1])
    assert (second.votes, second.skipped) == (2, True)


async def test_a_quick_restart_moves_no_clock(env: Env) -> None:
    await started(env.service)
    await scheduler(env).beat()
    env.clock.advance(hours=24)
    assert await scheduler(env).catch_up() == 24 * HOUR   # away a day: clocks moved
    assert await reminders(env) == []
    env.clock.advance(hours=24)
    assert len(await reminders(env)) == 1
    await scheduler(env).beat()
    env.clock.advance(DOWNTIME_SECONDS)
    assert await scheduler(env).catch_up() == 0.0   # a 5-minute restart moves none
    assert len(await reminders(env)) == 1


async def test_a_backlog_of_reminders_is_spread_over_rounds(env: Env) -> None:
    games = NOTICES_PER_ROUND + 10
    for channel in range(games):
        await started(env.service, channel=CHANNEL + 1 + channel)
    env.clock.advance(hours=24)
    first = await reminders(env)
    assert len(first) == NOTICES_PER_ROUND
    for event in first:
        await scheduler(env).mark_sent(event)
    rest = await reminders(env)
    assert len(rest) == 10 and not {e.game.id for e in rest} & {e.game.id for e in first}


async def test_a_warning_comes_before_the_limit_hands_the_turn_on(env: Env) -> None:
    record = await limited(env, "ai")
    env.clock.advance(hours=35)
    (reminder,) = await due(env)                 # the reminder after 24 hours
    assert isinstance(reminder, Reminder) and await scheduler(env).mark_sent(reminder)
    env.clock.advance(hours=1)                   # a quarter of 48 h (at most 12 h) is left
    (warning,) = await due(env)
    assert isinstance(warning, LimitWarning) and warning.user_id == current_user(record)
    assert warning.deadline == warning.since + 48 * HOUR
    assert await scheduler(env).mark_sent(warning)
    assert not await scheduler(env).mark_sent(warning)       # claimed once
    env.clock.advance(hours=11)
    assert await due(env) == []                  # no reminder after the warning
    env.clock.advance(hours=1)
    assert [type(e) for e in await due(env)] == [Timeout]


async def test_no_warning_when_nothing_happens_at_the_limit(env: Env) -> None:
    await limited(env, "nothing")
    env.clock.advance(hours=47)
    assert not [e for e in await due(env) if isinstance(e, LimitWarning)]


async def test_a_member_away_gets_nothing_and_their_clocks_start_on_return(env: Env) -> None:
    record = await limited(env, "ai")
    player = current_user(record)
    await env.service.members.set_away(player, env.clock.now() + 72 * HOUR)
    env.clock.advance(hours=71)
    assert await due(env) == []                  # no reminder, warning or timeout
    env.clock.advance(hours=1)                   # back: counted from the return
    assert await due(env) == []
    env.clock.advance(hours=24)
    (reminder,) = await reminders(env)
    assert reminder.since == record.seat_since(reminder.seat)   # the turn is the same
    await scheduler(env).mark_sent(reminder)
    env.clock.advance(hours=24)
    assert [type(e) for e in await due(env)] == [Timeout]       # 48 h after the return


async def test_a_time_bank_is_spent_by_decisions_and_refilled_after_turns(env: Env) -> None:
    await started(env.service, (ANN, BOB))
    record = await env.service.admin.update_settings(CHANNEL, ANN.user_id, False,
                                                     time_bank_hours=10, bank_bonus_hours=2,
                                                     timeout_policy="ai")
    first = current_user(record)
    seat = record.active[0]
    env.clock.advance(hours=3)
    await env.service.turns.play(CHANNEL, first, "add 1")
    env.clock.advance(hours=1)
    record = (await env.service.turns.play(CHANNEL, first, "end")).record
    banks = await env.service.core.banks_left(record)
    assert banks[seat] == (10 - 3 - 1 + 2) * HOUR           # spent 4 h, got 2 h back
    other = record.active[0]
    assert banks[other] == 10 * HOUR                          # untouched: full
    env.clock.advance(hours=10, seconds=-1)
    assert not [e for e in await due(env) if isinstance(e, Timeout)]
    env.clock.advance(1)                                      # the bank is empty
    (timeout,) = [e for e in await due(env) if isinstance(e, Timeout)]
    assert timeout.seat == other
    await scheduler(env).apply_timeout(timeout)              # the AI plays that turn
    record = await env.service.core.get(CHANNEL) or record
    assert (await env.service.core.banks_left(record))[other] == 2 * HOUR   # empty, then bonus
