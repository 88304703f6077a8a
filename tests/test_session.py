"""The game service on the toy game: lobby, turns, versions, undo, AI, resign, settings."""

from __future__ import annotations

import asyncio
import copy
import random
import sqlite3
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.engine import Action, BadNotation, Game, Seat, State
from bot.i18n import translate
from bot.records import GameRecord, Player, ServiceError, StaleVersion, StoreUnavailable
from bot.service import GameService, in_thread
from bot.store import Store, open_store
from tests.toy_game import GAME, RaceGame

CHANNEL = 10
GUILD = 1
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve")
ANN, BOB, CID, DAN, EVE = (Player(i, name) for i, name in enumerate(NAMES, 1))


class StickyRace(RaceGame):
    """The toy game where ``add 2`` cannot be undone (stands for a random draw)."""

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        return action.notation != "add 2"


class BulkyRace(RaceGame):
    """The toy game whose state grows by 5 KB a step (fills a capped database quickly)."""

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        new = super().apply(state, seat, action)
        new["pad"] = state.get("pad", "") + "x" * 5000
        return new


class DuetRace(StickyRace):
    """Every seat adds at once, twice a turn (as sealed bids are made): a seat's step may
    be followed in the same turn by another seat's ``add 2``, which cannot be undone."""

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        return {**super().setup(seed, n_players, options), "adds": [0] * n_players}

    def active(self, state: State) -> list[Seat]:
        return [] if state["winner"] is not None else [
            s for s, adds in enumerate(state["adds"]) if adds < 2]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        return [a for a in GAME.legal({**state, "adds": 0, "current": seat}, seat)
                if a.group == "add"] if seat in self.active(state) else []

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        act = self.parse(state, seat, action.notation if isinstance(action, Action) else action)
        new = copy.deepcopy(state)
        new["totals"][seat] += int(act.notation.split()[1])
        new["adds"][seat] += 1
        if min(new["adds"]) == 2:
            new["adds"] = [0] * len(new["adds"])
            new["turn"] += 1
            new["winner"] = next((s for s, t in enumerate(new["totals"])
                                  if t >= new["target"]), None)
        return new


STICKY = StickyRace()
ENGINES: dict[str, Game] = {"race": GAME, "sticky": STICKY, "bulky": BulkyRace(),
                            "duet": DuetRace()}


def first_legal(
    game: Game, view: dict[str, Any], legal: list[Action], seat: Seat, rng: random.Random
) -> Action:
    """A predictable AI: always the first legal step (add 1, add 1, end)."""
    return legal[0]


@dataclass
class Env:
    clock: FakeClock
    store: Store
    service: GameService
    path: Path
    """The SQLite file (on PostgreSQL: a path nothing uses)."""
    target: str = ""
    """Where the store is (:func:`~bot.store.open_store`): reopened at a restart."""

    async def reopen(self) -> None:
        """Close the store and open it again, with a new service (a restart)."""
        await self.store.close()
        self.store = await open_store(self.target)
        self.service = make_service(self.store, self.clock)


def make_service(store: Store, clock: FakeClock, seed: int = 1234) -> GameService:
    """A service over the toy engines with a fixed seed and the first-legal AI."""
    return GameService(
        store, clock, seed_source=lambda: seed, catalogue=Catalogue(ENGINES),
        ai_search=in_thread(first_legal),
    )


@pytest.fixture
async def env(database: str, tmp_path: Path) -> AsyncIterator[Env]:
    """A service over a new store, on each backend (see ``tests/conftest.py``)."""
    clock = FakeClock()
    store = await open_store(database)
    environment = Env(clock, store, make_service(store, clock), tmp_path / "dingir.sqlite3",
                      database)
    try:
        yield environment
    finally:
        await environment.store.close()  # tests may reopen the store (a restart)


async def started(
    service: GameService, players: tuple[Player, ...] = (ANN, BOB), ai: int = 0,
    game: str = "race", channel: int = CHANNEL,
) -> GameRecord:
    """A started game with ``players`` (the first creates it) and ``ai`` AI seats."""
    await service.lobby.create(GUILD, channel, players[0], game, {}, ai_seats=ai)
    for player in players[1:]:
        await service.lobby.join(channel, player)
    return await service.lobby.start(channel, players[0].user_id)


def user_of(record: GameRecord, seat: Seat) -> int:
    user = record.seats[seat].user_id
    assert user is not None
    return user


def current_user(record: GameRecord) -> int:
    return user_of(record, record.active[0])


def other_user(record: GameRecord) -> int:
    return next(s.user_id for s in record.seats if s.user_id and s.seat not in record.active)


def reason(error: pytest.ExceptionInfo[ServiceError]) -> str:
    return error.value.reason.key


# -- lobby ---------------------------------------------------------------------------------


async def test_one_active_game_per_channel_suggests_a_thread(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {})
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.create(GUILD, CHANNEL, BOB, "race", {})
    assert reason(error) == "service.channel_busy"
    other = await env.service.lobby.create(GUILD, CHANNEL + 1, BOB, "race", {})
    assert other.channel_id == CHANNEL + 1


async def test_join_rules(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {})
    record = await env.service.lobby.join(CHANNEL, BOB)
    assert [s.name for s in record.seats] == ["Ann", "Bob"]
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.join(CHANNEL, BOB)
    assert reason(error) == "service.already_joined"
    await env.service.lobby.join(CHANNEL, CID)
    await env.service.lobby.join(CHANNEL, DAN)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.join(CHANNEL, EVE)
    assert reason(error) == "service.game_full"
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.join(CHANNEL + 5, EVE)
    assert reason(error) == "service.no_game"


async def test_join_and_leave_only_in_the_lobby(env: Env) -> None:
    await started(env.service)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.join(CHANNEL, CID)
    assert reason(error) == "service.already_started"
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.leave(CHANNEL, BOB.user_id)
    assert reason(error) == "service.leave_started"


async def test_creator_leaving_passes_the_lobby_on_then_closes_it(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {}, ai_seats=1)
    await env.service.lobby.join(CHANNEL, BOB)
    record = await env.service.lobby.leave(CHANNEL, ANN.user_id)
    assert record.creator_id == BOB.user_id
    assert [(s.seat, s.name) for s in record.seats] == [(0, "AI 1"), (1, "Bob")]
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.leave(CHANNEL, ANN.user_id)
    assert reason(error) == "service.not_seated"
    record = await env.service.lobby.leave(CHANNEL, BOB.user_id)
    assert record.status == "aborted"
    assert await env.service.core.get(CHANNEL) is None
    await env.service.lobby.create(GUILD, CHANNEL, CID, "race", {})  # the channel is free again


async def test_add_ai_names_and_limits(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {}, ai_seats=1)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.add_ai(CHANNEL, BOB.user_id)
    assert reason(error) == "service.creator_only"
    record = await env.service.lobby.add_ai(CHANNEL, ANN.user_id, 2)
    assert [s.name for s in record.seats] == ["Ann", "AI 1", "AI 2", "AI 3"]
    assert all(s.user_id is None for s in record.seats[1:])
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.add_ai(CHANNEL, ANN.user_id)
    assert reason(error) == "service.game_full"


async def test_unknown_game_and_options_are_refused(env: Env) -> None:
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.create(GUILD, CHANNEL, ANN, "chess", {})
    assert reason(error) == "service.unknown_game"
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {"target": "11"})
    assert reason(error) == "service.bad_option"
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {"speed": "1"})
    assert reason(error) == "service.unknown_option"
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {}, ai_seats=4)
    assert reason(error) == "service.too_many_ai"
    record = await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {"target": "20"})
    assert record.options == {"target": "20"}


async def test_start_needs_the_creator_and_enough_players(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {})
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.start(CHANNEL, ANN.user_id)
    assert reason(error) == "service.not_enough_players"
    await env.service.lobby.join(CHANNEL, BOB)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.start(CHANNEL, BOB.user_id)
    assert reason(error) == "service.creator_only"
    record = await env.service.lobby.start(CHANNEL, ANN.user_id)
    assert record.status == "running"
    assert record.state == GAME.setup(record.seed, 2, record.options)
    assert record.active == GAME.active(record.state)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.start(CHANNEL, ANN.user_id)
    assert reason(error) == "service.already_started"


async def test_seat_order_is_the_seeded_shuffle(env: Env) -> None:
    players = (ANN, BOB, CID, DAN)
    names = [p.name for p in players]
    for seed in (1, 2, 3, 4, 5):
        service = make_service(env.store, env.clock, seed)
        record = await started(service, players, channel=100 + seed)
        expected = list(names)
        random.Random(seed).shuffle(expected)
        assert [s.name for s in record.seats] == expected
        assert [s.seat for s in record.seats] == [0, 1, 2, 3]
    orders = {tuple(s.name for s in (await env.service.core.get(100 + seed) or record).seats)
              for seed in (1, 2, 3, 4, 5)}
    assert len(orders) > 1  # the seed matters


async def test_explicit_seat_order(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {}, ai_seats=1)
    await env.service.lobby.join(CHANNEL, BOB)
    with pytest.raises(ServiceError) as error:
        await env.service.lobby.start(CHANNEL, ANN.user_id, order=[2, 2])
    assert reason(error) == "service.bad_order"
    record = await env.service.lobby.start(CHANNEL, ANN.user_id, order=[BOB.user_id, 0])
    assert [s.name for s in record.seats] == ["Bob", "Ann", "AI 1"]


# -- playing -------------------------------------------------------------------------------


async def test_only_the_active_seat_may_move(env: Env) -> None:
    record = await started(env.service)
    waiting = other_user(record)
    with pytest.raises(ServiceError) as error:
        await env.service.turns.play(CHANNEL, waiting, "add 1")
    assert reason(error) == "service.not_your_turn"
    names = tuple(s.name for s in record.seats)
    assert translate(error.value.reason, "en", names) == \
        f"It is not your turn: waiting for {names[record.active[0]]}."
    with pytest.raises(ServiceError) as error:
        await env.service.turns.play(CHANNEL, EVE.user_id, "add 1")
    assert reason(error) == "service.not_seated"
    _, seat, legal = await env.service.turns.legal(CHANNEL, waiting)
    assert legal == [] and seat not in record.active
    _, _, legal = await env.service.turns.legal(CHANNEL, current_user(record))
    assert [a.notation for a in legal] == ["add 1", "add 2", "end"]


async def test_engine_errors_propagate_and_change_nothing(env: Env) -> None:
    record = await started(env.service)
    with pytest.raises(BadNotation) as error:
        await env.service.turns.play(CHANNEL, current_user(record), "jump")
    assert error.value.reason.key == "toy.bad_notation"
    after = await env.service.core.get(CHANNEL)
    assert after is not None and after.version == record.version
    assert after.state == record.state
    assert (await env.service.history.log(CHANNEL))[1] == []


async def test_a_step_updates_state_version_and_log(env: Env) -> None:
    record = await started(env.service)
    user, seat = current_user(record), record.active[0]
    result = await env.service.turns.play(CHANNEL, user, "add 2", expected_version=record.version)
    assert result.record.version == record.version + 1
    assert result.record.state is not None and result.record.state["totals"][seat] == 2
    assert not result.turn_ended and [p.action.notation for p in result.turn_steps] == ["add 2"]
    end = await env.service.turns.play(CHANNEL, user, "end")
    assert end.turn_ended and [p.action.notation for p in end.turn_steps] == ["add 2", "end"]
    assert end.record.turn == 1 and end.record.active != record.active
    _, log = await env.service.history.log(CHANNEL)
    assert [(e.index, e.seat, e.notation, e.turn) for e in log] == [
        (0, seat, "add 2", 0), (1, seat, "end", 0)
    ]
    stored = await env.store.load(record.id)
    assert stored is not None and stored.record.state == end.record.state
    assert stored.record.version == end.record.version


async def test_stale_version_is_refused(env: Env) -> None:
    record = await started(env.service)
    user = current_user(record)
    await env.service.turns.play(CHANNEL, user, "add 1", expected_version=record.version)
    with pytest.raises(StaleVersion):  # the same button pressed again (a retry)
        await env.service.turns.play(CHANNEL, user, "add 1", expected_version=record.version)
    _, log = await env.service.history.log(CHANNEL)
    assert [e.notation for e in log] == ["add 1"]


async def test_two_simultaneous_plays_apply_exactly_one(env: Env) -> None:
    record = await started(env.service)
    user = current_user(record)
    results = await asyncio.gather(
        env.service.turns.play(CHANNEL, user, "add 1", expected_version=record.version),
        env.service.turns.play_by_id(record.id, user, "add 2", expected_version=record.version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    _, log = await env.service.history.log(CHANNEL)
    assert len(log) == 1
    after = await env.service.core.get(CHANNEL)
    assert after is not None and after.version == record.version + 1


async def test_a_game_plays_to_its_end(env: Env) -> None:
    record = await started(env.service)
    result = None
    while record.status == "running":
        user = current_user(record)
        _, _, legal = await env.service.turns.legal(CHANNEL, user)
        result = await env.service.turns.play(CHANNEL, user,
                                              legal[1 if len(legal) > 1 else 0].notation)
        record = result.record
    assert result is not None and result.outcome is not None
    assert record.status == "finished" and record.ended_at is not None
    assert await env.service.core.get(CHANNEL) is None
    with pytest.raises(ServiceError) as error:
        await env.service.turns.play_by_id(record.id, ANN.user_id, "end")
    assert reason(error) == "service.game_over"
    # the finished game's log is still there
    log_record, log = await env.service.history.log(CHANNEL)
    assert log_record.id == record.id and len(log) == record.version - 2


async def test_paused_game_refuses_moves(env: Env) -> None:
    record = await started(env.service)
    paused = await env.service.admin.pause(record.id, True)
    assert paused.status == "paused"
    with pytest.raises(ServiceError) as error:
        await env.service.turns.play(CHANNEL, current_user(record), "add 1")
    assert reason(error) == "service.paused"
    env.clock.advance(hours=5)
    resumed = await env.service.admin.pause(record.id, False)
    assert resumed.status == "running" and resumed.turn_started_at == env.clock.now()
    await env.service.turns.play(CHANNEL, current_user(record), "add 1")


async def test_state_survives_a_restart(env: Env) -> None:
    record = await started(env.service)
    user = current_user(record)
    await env.service.turns.play(CHANNEL, user, "add 1")
    await env.reopen()
    again = await env.service.core.get(CHANNEL)
    assert again is not None and again.version == record.version + 1
    result = await env.service.turns.play(CHANNEL, user, "end")
    # the turn's steps are rebuilt from the log
    assert [p.action.notation for p in result.turn_steps] == ["add 1", "end"]


# -- undo ----------------------------------------------------------------------------------


async def test_undo_own_steps_of_the_current_turn(env: Env) -> None:
    record = await started(env.service)
    user = current_user(record)
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, user)
    assert reason(error) == "service.nothing_to_undo"
    await env.service.turns.play(CHANNEL, user, "add 1")
    second = await env.service.turns.play(CHANNEL, user, "add 2")
    undone = await env.service.turns.undo(CHANNEL, user)
    assert undone.version == second.record.version + 1
    assert undone.state is not None and undone.state["totals"][record.active[0]] == 1
    assert undone.state["adds"] == 1
    _, log = await env.service.history.log(CHANNEL)
    assert [e.notation for e in log] == ["add 1"]
    end = await env.service.turns.play(CHANNEL, user, "end")
    assert [p.action.notation for p in end.turn_steps] == ["add 1", "end"]
    with pytest.raises(ServiceError) as error:  # never across the end of a turn
        await env.service.turns.undo(CHANNEL, user)
    assert reason(error) == "service.nothing_to_undo"
    next_user = current_user(end.record)
    await env.service.turns.play(CHANNEL, next_user, "add 1")
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, user)
    assert reason(error) == "service.undo_not_yours"


async def test_undo_never_past_an_irreversible_step(env: Env) -> None:
    record = await started(env.service, game="sticky")
    user = current_user(record)
    await env.service.turns.play(CHANNEL, user, "add 2")
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, user)
    assert reason(error) == "service.undo_irreversible"
    await env.service.turns.play(CHANNEL, user, "add 1")
    undone = await env.service.turns.undo(CHANNEL, user)  # the later, reversible step can go
    assert undone.state is not None and undone.state["totals"][record.active[0]] == 2


async def test_no_undo_under_another_seats_later_step_that_cannot_be_undone(env: Env) -> None:
    """The service itself refuses (not only a hidden button): Ann's step is followed in the
    turn by Bob's ``add 2``; taking Ann's back would rewrite a step that drew."""
    record = await started(env.service, game="duet")
    ann, bob = user_of(record, 0), user_of(record, 1)
    await env.service.turns.play(CHANNEL, ann, "add 1")
    after = (await env.service.turns.play(CHANNEL, bob, "add 2")).record
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, ann)
    assert reason(error) == "service.undo_irreversible"
    assert (await env.service.core.get(CHANNEL) or after).version == after.version


async def test_an_undo_made_for_an_older_step_takes_back_nothing_newer(env: Env) -> None:
    record = await started(env.service)
    user = current_user(record)
    await env.service.turns.play(CHANNEL, user, "add 1")
    second = (await env.service.turns.play(CHANNEL, user, "add 2")).record
    rows = await env.store.actions(record.id, since_turn=record.turn)
    with pytest.raises(StaleVersion):                  # the button of the first step
        await env.service.turns.undo(CHANNEL, user, rows[0].idx)
    kept = await env.service.core.get(CHANNEL)
    assert kept is not None and kept.version == second.version and kept.state == second.state
    undone = await env.service.turns.undo(CHANNEL, user, rows[1].idx)
    assert undone.state is not None and undone.state["totals"][record.active[0]] == 1


async def test_the_undo_button_names_the_seats_last_step_while_it_can_be_taken_back(
        env: Env) -> None:
    record = await started(env.service, game="duet")
    ann, bob = user_of(record, 0), user_of(record, 1)
    assert await env.service.turns.undoable_step(record, 0) is None          # nothing yet
    await env.service.turns.play(CHANNEL, ann, "add 1")
    after = (await env.service.turns.play(CHANNEL, ann, "add 1")).record
    rows = await env.store.actions(record.id, since_turn=record.turn)
    assert await env.service.turns.undoable_step(after, 0) == rows[1].idx     # the last of Ann's
    assert await env.service.turns.undoable_step(after, 1) is None            # Bob has none
    after = (await env.service.turns.play(CHANNEL, bob, "add 2")).record      # cannot be undone
    assert await env.service.turns.undoable_step(after, 0) is None


async def test_a_turns_clock_starts_when_the_deciding_seats_change(env: Env) -> None:
    """A seat's next step of the same turn keeps the turn's start (its reminders and limit
    count from it); a new turn, or taking a step back, does not restart it either."""
    record = await started(env.service)
    user = current_user(record)
    start = record.turn_started_at
    env.clock.advance(100)
    step = (await env.service.turns.play(CHANNEL, user, "add 1")).record
    assert step.turn_started_at == start
    env.clock.advance(100)
    undone = await env.service.turns.undo(CHANNEL, user)
    assert undone.turn_started_at == start
    env.clock.advance(100)
    ended = (await env.service.turns.play(CHANNEL, user, "end")).record
    assert ended.turn_started_at == start + 300


async def test_a_paused_game_offers_no_step(env: Env) -> None:
    record = await started(env.service)
    await env.service.admin.pause(record.id, True)
    _, _, legal = await env.service.turns.legal(CHANNEL, current_user(record))
    assert legal == []


# -- AI, resign, abort ---------------------------------------------------------------------


async def test_run_ai_plays_ai_seats_until_a_human_is_active(env: Env) -> None:
    record = await started(env.service, (ANN,), ai=2)
    results = await env.service.autoplay.play_seats(record.id)
    after = await env.service.core.get(CHANNEL)
    assert after is not None
    assert after.seats[after.active[0]].user_id == ANN.user_id
    assert all(env.service.core.is_ai(after, r.seat) for r in results)
    assert [r.action.notation for r in results[:3]] in ([], ["add 1", "add 1", "end"])
    _, log = await env.service.history.log(CHANNEL)
    assert len(log) == len(results)


async def test_default_ai_is_deterministic(env: Env) -> None:
    ends = []
    for channel in (50, 51):
        service = GameService(env.store, env.clock, seed_source=lambda: 99,
                              catalogue=Catalogue(ENGINES))
        record = await started(service, (ANN,), ai=3, channel=channel)
        await service.admin.resign(channel, ANN.user_id)  # all seats AI: the game is aborted
        record = await service.lobby.create(GUILD, channel + 10, ANN, "race", {}, ai_seats=3)
        record = await service.lobby.start(channel + 10, ANN.user_id)
        await service.autoplay.play_seats(record.id)
        ends.append([(e.seat, e.notation) for e in (await service.history.log(channel + 10))[1]])
    assert ends[0] == ends[1] and ends[0]


async def test_resign_hands_the_seat_to_the_ai_and_ranks_last(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    with pytest.raises(ServiceError) as error:
        await env.service.admin.resign(CHANNEL, EVE.user_id)
    assert reason(error) == "service.not_seated"
    quitter = current_user(record)
    resigned = await env.service.admin.resign(CHANNEL, quitter)
    seat = next(s.seat for s in resigned.seats if s.user_id == quitter)
    assert resigned.seats[seat].resigned and resigned.status == "running"
    assert env.service.core.seat_of(resigned, quitter) is None
    with pytest.raises(ServiceError) as error:
        await env.service.turns.play(CHANNEL, quitter, "end")
    assert reason(error) == "service.not_seated"
    results = await env.service.autoplay.play_seats(record.id)
    assert results and results[0].seat == seat
    record = results[-1].record
    last = None
    while record.status == "running":  # the humans add 2 twice a turn and win
        user = current_user(record)
        _, _, legal = await env.service.turns.legal(CHANNEL, user)
        last = await env.service.turns.play(CHANNEL, user,
                                            legal[1 if len(legal) > 1 else 0].notation)
        record = last.record
        if record.status == "running":
            played = await env.service.autoplay.play_seats(record.id)
            record = ([last.record] + [r.record for r in played])[-1]
    assert last is not None and last.outcome is not None
    assert last.outcome.ranking[-1] == (seat,)
    assert env.service.core.outcome(record) == last.outcome


async def test_a_creator_who_resigns_hands_control_to_the_next_human(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    ann = next(s.seat for s in record.seats if s.user_id == ANN.user_id)
    resigned = await env.service.admin.resign(CHANNEL, ANN.user_id)
    heir = resigned.seats[(ann + 1) % 3].user_id
    assert resigned.creator_id == heir
    with pytest.raises(ServiceError) as error:        # the resigned creator cannot abort
        await env.service.admin.abort(CHANNEL, ANN.user_id, is_admin=False)
    assert reason(error) == "service.abort_forbidden"
    assert (await env.service.admin.abort(CHANNEL, heir, is_admin=False)).status == "aborted"


async def test_last_human_resigning_aborts(env: Env) -> None:
    await started(env.service, (ANN, BOB))
    await env.service.admin.resign(CHANNEL, ANN.user_id)
    record = await env.service.admin.resign(CHANNEL, BOB.user_id)
    assert record.status == "aborted"


async def test_abort_permissions(env: Env) -> None:
    await started(env.service)
    with pytest.raises(ServiceError) as error:
        await env.service.admin.abort(CHANNEL, BOB.user_id, is_admin=False)
    assert reason(error) == "service.abort_forbidden"
    record = await env.service.admin.abort(CHANNEL, BOB.user_id, is_admin=True)
    assert record.status == "aborted"
    await started(env.service, channel=CHANNEL + 1)
    assert (await env.service.admin.abort(CHANNEL + 1, ANN.user_id, False)).status == "aborted"
    assert await env.service.core.list_games(GUILD) == []
    assert len(await env.service.core.list_games(GUILD, include_finished=True)) == 2


# -- settings and misc ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"reminder_hours": 0}, "service.settings_reminder_hours"),
        ({"reminder_hours": 1000}, "service.settings_reminder_hours"),
        ({"reminder_hours": "5"}, "service.settings_reminder_hours"),
        ({"turn_limit_hours": 0.5}, "service.settings_turn_limit"),
        ({"timeout_policy": "coin"}, "service.settings_policy"),
        ({"dm_reminders": "yes"}, "service.settings_bool"),
        ({"colour": "red"}, "service.settings_unknown"),
    ],
)
async def test_settings_validation(env: Env, changes: dict[str, Any], key: str) -> None:
    record = await started(env.service)
    with pytest.raises(ServiceError) as error:
        await env.service.admin.update_settings(CHANNEL, ANN.user_id, False, **changes)
    assert reason(error) == key
    after = await env.service.core.get(CHANNEL)
    assert after is not None and after.settings == record.settings


async def test_settings_update_and_permissions(env: Env) -> None:
    record = await started(env.service)
    with pytest.raises(ServiceError) as error:
        await env.service.admin.update_settings(CHANNEL, BOB.user_id, False, reminder_hours=2)
    assert reason(error) == "service.settings_forbidden"
    updated = await env.service.admin.update_settings(
        CHANNEL, BOB.user_id, True, reminder_hours=2, turn_limit_hours=48,
        timeout_policy="vote_skip", dm_reminders=True,
    )
    assert updated.settings.reminder_hours == 2.0 and updated.settings.turn_limit_hours == 48.0
    assert updated.version == record.version  # settings do not move the board
    updated = await env.service.admin.update_settings(CHANNEL, ANN.user_id, False,
                                                      turn_limit_hours=0)
    assert updated.settings.turn_limit_hours is None
    stored = await env.store.load(record.id)
    assert stored is not None and stored.record.settings == updated.settings


async def test_message_id_notify_and_running_games(env: Env) -> None:
    record = await started(env.service)
    assert env.service.core.board_missing(record)
    await env.service.admin.set_message(record.id, 555, record.turn)
    stored = await env.store.load(record.id)
    assert stored is not None and stored.record.last_message_id == 555
    assert stored.record.posted_turn == record.turn
    assert not env.service.core.board_missing(stored.record)
    await env.service.members.set_notify(ANN.user_id, True)
    assert await env.store.notify_prefs([ANN.user_id, BOB.user_id]) == {ANN.user_id: True}
    assert [g.id for g in await env.service.core.running_games()] == [record.id]
    await env.service.admin.pause(record.id, True)
    assert await env.service.core.running_games() == []


# -- database failures ---------------------------------------------------------------------


@pytest.mark.sqlite_only
async def test_locked_database_gives_store_unavailable_and_changes_nothing(env: Env) -> None:
    record = await started(env.service)
    await env.store.close()
    env.store = await open_store(env.path, busy_timeout_ms=50)
    env.service = make_service(env.store, env.clock)
    user = current_user(record)
    await env.service.turns.play(CHANNEL, user, "add 1")
    blocker = sqlite3.connect(env.path, isolation_level=None, timeout=0.05)
    try:
        blocker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreUnavailable) as error:
            await env.service.turns.play(CHANNEL, user, "add 2")
        assert error.value.reason.key == "service.store_unavailable"
        with pytest.raises(StoreUnavailable):
            await env.service.turns.undo(CHANNEL, user)
        reader = make_service(env.store, env.clock)  # reading still works meanwhile
        seen = await reader.core.get(CHANNEL)
        assert seen is not None and seen.version == record.version + 1
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    after = await env.service.core.get(CHANNEL)
    assert after is not None and after.version == record.version + 1
    assert after.state is not None and after.state["adds"] == 1
    _, log = await env.service.history.log(CHANNEL)
    assert [e.notation for e in log] == ["add 1"]
    result = await env.service.turns.play(CHANNEL, user, "add 2")  # the retry works
    assert result.record.version == record.version + 2
    fresh = make_service(env.store, env.clock)  # and the database agrees with the cache
    stored = await fresh.core.get(CHANNEL)
    assert stored is not None and stored.state == result.record.state


@pytest.mark.sqlite_only
async def test_full_disk_gives_store_unavailable_and_changes_nothing(env: Env) -> None:
    record = await started(env.service, game="bulky")
    user = current_user(record)
    first = await env.service.turns.play(CHANNEL, user, "add 1")
    writer = env.store._conn
    pages = list(await writer.execute_fetchall("PRAGMA page_count"))
    await writer.execute(f"PRAGMA max_page_count = {pages[0][0]}")  # the disk is full
    with pytest.raises(StoreUnavailable) as error:
        await env.service.turns.play(CHANNEL, user, "add 1")
    assert "full" in error.value.detail
    await writer.execute("PRAGMA max_page_count = 1000000")  # space was freed
    fresh = make_service(env.store, env.clock)
    stored = await fresh.core.get(CHANNEL)
    cached = await env.service.core.get(CHANNEL)
    assert stored is not None and cached is not None
    assert stored.version == cached.version == first.record.version
    assert stored.state == cached.state == first.record.state
    assert len((await env.service.history.log(CHANNEL))[1]) == 1
    retry = await env.service.turns.play(CHANNEL, user, "add 1", expected_version=cached.version)
    assert retry.record.state is not None and retry.record.state["adds"] == 2


async def test_followers_are_asked_of_the_database_only_while_someone_follows(env: Env) -> None:
    record = await started(env.service)
    asked: list[int] = []
    store_followers = env.store.followers

    async def counted(game_id: int) -> list[tuple[int, str, bool]]:
        asked.append(game_id)
        return await store_followers(game_id)

    env.store.followers = counted  # type: ignore[method-assign]
    assert await env.service.members.followers(record.id) == [] and asked == []   # nobody: no query
    await env.service.members.follow(CHANNEL, EVE.user_id, "fr", each_turn=True)
    assert await env.service.members.followers(record.id) == [(EVE.user_id, "fr", True)]
    await env.service.members.follow(CHANNEL, EVE.user_id, "fr", each_turn=False, stop=True)
    assert await env.service.members.followers(record.id) == []
    assert await env.service.members.followers(record.id) == []
    assert asked == [record.id, record.id]      # the last follower gone: no query after
