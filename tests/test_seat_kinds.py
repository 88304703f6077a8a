"""The turn loop and its seat kinds: a scripted seat plugged into a real game of Ur, and
the loop trying again when the database is unavailable."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.engine import Action, Game, Seat, State
from bot.records import GameRecord, Player, StepResult, StoreUnavailable
from bot.service import Ask, GameService, loop
from bot.service.seats import AiSeat
from bot.store import open_store
from host import registry

CHANNEL = 7
ANN = Player(1, "Ann")


class Scribe:
    """A scripted opponent that is no player: it takes Ur's seat 2 and a legal step drawn
    by the decision's seed."""

    def __init__(self) -> None:
        self.asked: list[tuple[Seat, str]] = []

    def plays(self, record: GameRecord, seat: Seat) -> bool:
        return record.game == "ur" and seat == 2

    async def step(self, ask: Ask) -> Action:
        action = random.Random(ask.seed).choice(ask.legal())
        self.asked.append((ask.seat, action.notation))
        return action


async def no_ai(game: str, engine: Game, view: object, legal: list[Action], seat: Seat,
                seed: str) -> Action:
    """The AI asked for the scripted seat would be a bug: seat 1 is the only AI's."""
    assert seat == 1, f"the AI was asked for seat {seat}"
    return random.Random(seed).choice(legal)


class Told:
    """A front end that keeps what the loop tells it."""

    def __init__(self) -> None:
        self.steps: list[StepResult] = []
        self.missing: list[GameRecord] = []

    async def show_missing(self, record: GameRecord) -> None:
        self.missing.append(record)

    async def tell(self, steps: Sequence[StepResult]) -> None:
        self.steps += steps


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[tuple[GameService, Scribe]]:
    store = await open_store(tmp_path / "dingir.sqlite3")
    scribe = Scribe()
    try:
        yield GameService(store, FakeClock(), seed_source=lambda: 5, ai_search=no_ai,
                          catalogue=registry.CATALOGUE,
                          scripted=[scribe]), scribe
    finally:
        await store.close()


async def test_a_scripted_seat_plays_its_turns_in_the_loop(
        service: tuple[GameService, Scribe]) -> None:
    games, scribe = service
    await games.lobby.create(None, CHANNEL, ANN, "ur", {}, ai_seats=2)
    record = await games.lobby.start(CHANNEL, ANN.user_id, order=[0, 1, 2])
    told = Told()
    await games.loop.move_on(record.id, told)              # the service's seats may play first
    assert [r.version for r in told.missing] == [record.version]   # no board was shown yet
    record = await games.core.get_by_id(record.id) or record
    for _ in range(40):                  # Ann takes her first legal step, for 40 steps
        _, seat, legal = await games.turns.legal(CHANNEL, ANN.user_id)
        assert seat in record.active
        result = await games.turns.play(CHANNEL, ANN.user_id, legal[0].notation)
        await games.loop.move_on(record.id, told, result)
        record = await games.core.get_by_id(record.id) or record
    _, log = await games.history.log(CHANNEL)
    scripted = [(e.seat, e.notation) for e in log if e.seat == 2]
    assert len(scripted) > 5 and scripted == scribe.asked  # each step of seat 2: the scribe's
    assert {e.seat for e in log} == {0, 1, 2}             # and the AI played seat 1
    assert [(r.seat, r.action.notation) for r in told.steps] == \
        [(e.seat, e.notation) for e in log]               # the front end was told each step
    assert games.core.is_ai(record, 2) and len(told.missing) == 1


class Flaky(Told):
    """A front end whose first report meets a database that is unavailable."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 1

    async def tell(self, steps: Sequence[StepResult]) -> None:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("database is locked")
        await super().tell(steps)


async def test_the_loop_tries_again_when_the_database_is_unavailable(
        service: tuple[GameService, Scribe], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop, "STORE_RETRY_SECONDS", (0,))
    games, _ = service
    await games.lobby.create(None, CHANNEL, ANN, "ur", {}, ai_seats=2)
    record = await games.lobby.start(CHANNEL, ANN.user_id, order=[0, 1, 2])   # the scribe first
    front = Flaky()
    told = await games.loop.move_on(record.id, front)
    # the AI's steps were saved before the failure: the second try finds the game moved on,
    # shows the board the front end has not shown and tells nothing twice
    assert told == front.steps == [] and len(front.missing) == 2
    _, log = await games.history.log(CHANNEL)
    assert log and (await games.core.get_by_id(record.id) or record).active == [0]


async def test_the_ai_searches_only_when_it_has_a_choice() -> None:
    """A decision with one legal step is taken without a search (:func:`bot.ai.choose`
    would take it at once): no job for the workers; with two, the search decides."""
    engine = registry.get("ur").engine
    state, rng = engine.setup(4, 3, {}), random.Random(3)
    found: dict[bool, tuple[State, Seat]] = {}
    while len(found) < 2:
        seat = engine.active(state)[0]
        legal = engine.legal(state, seat)
        found.setdefault(len(legal) == 1, (state, seat))
        state = engine.apply(state, seat, rng.choice(legal))
    searched: list[int] = []

    async def search(game: str, engine: Game, view: object, legal: list[Action], seat: Seat,
                     seed: str) -> Action:
        searched.append(len(legal))
        return legal[-1]

    for alone, (at, seat) in sorted(found.items()):
        legal = engine.legal(at, seat)
        chosen = await AiSeat(search).step(Ask("ur", engine, at, seat, "s"))
        assert chosen == legal[-1] and (len(legal) == 1) == alone
    assert len(searched) == 1 and searched[0] >= 2
