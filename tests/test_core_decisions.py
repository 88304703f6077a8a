"""The core's decisions by other seats, sealed choices, chance, clocks and secrets, on the
test game Bazaar (issue: the core for games with secrets, reactions, sealed bids...)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot import chance
from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.deadlines import Deadlines
from bot.engine import Action, Game, Outcome, Seat, Text
from bot.export import DocumentError, parse
from bot.records import GameRecord, Player, ServiceError, StaleVersion, StepResult
from bot.service import GameService, in_thread
from bot.store import Store, open_store
from tests.bazaar.engine import GAME as BAZAAR

CHANNEL = 20
ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")
USERS = {0: ANN, 1: BOB, 2: CID}


def first_legal(game: Game, view: dict[str, Any], legal: list[Action], seat: Seat,
                rng: random.Random) -> Action:
    """A predictable AI: always the first legal step."""
    return legal[0]


@dataclass
class Env:
    clock: FakeClock
    store: Store
    service: GameService


@pytest.fixture
async def env(database: str) -> AsyncIterator[Env]:
    """A service over Bazaar, on each store."""
    clock = FakeClock()
    store = await open_store(database)
    service = GameService(store, clock, seed_source=lambda: 99,
                          catalogue=Catalogue({"bazaar": BAZAAR}),
                          ai_search=in_thread(first_legal))
    try:
        yield Env(clock, store, service)
    finally:
        await store.close()


async def started(service: GameService, options: dict[str, str] | None = None) -> GameRecord:
    """A running 3-player game seated Ann, Bob, Cid in that order."""
    await service.lobby.create(1, CHANNEL, ANN, "bazaar", options or {"rounds": "1"})
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.join(CHANNEL, CID)
    return await service.lobby.start(CHANNEL, ANN.user_id, order=[0, 1, 2])


def user(record: GameRecord, seat: Seat) -> int:
    user_id = record.seats[seat].user_id
    assert user_id is not None
    return user_id


async def play(service: GameService, seat: Seat, notation: str,
               version: int | None = None) -> StepResult:
    record = await service.core.get(CHANNEL)
    assert record is not None
    return await service.turns.play(CHANNEL, user(record, seat), notation, version)


async def to_auction(service: GameService) -> GameRecord:
    """Every seat rolls, passes and ends: the round's auction starts."""
    for seat in range(3):
        for step in ("roll", "pass", "end"):
            result = await play(service, seat, step)
    assert result.record.active == [0, 1, 2]
    return result.record


async def test_the_seed_is_drawn_at_the_start_not_when_the_lobby_opens(env: Env) -> None:
    lobby = await env.service.lobby.create(1, CHANNEL, ANN, "bazaar", {})
    assert lobby.seed == 0
    document = await env.service.history.export(CHANNEL, ANN.user_id)
    assert document["seed"] == 0
    await env.service.lobby.join(CHANNEL, BOB)
    record = await env.service.lobby.start(CHANNEL, ANN.user_id)
    assert record.seed == 99


async def test_a_sealed_bid_leaves_the_other_bidders_panels_valid(env: Env) -> None:
    await started(env.service)
    record = await to_auction(env.service)
    versions = {seat: record.seat_version(seat) for seat in range(3)}
    since = {seat: record.seat_since(seat) for seat in range(3)}
    env.clock.advance(60)
    first = await play(env.service, 0, "bid 2", versions[0])
    assert first.asked == ()   # nobody new is asked: the others were deciding already
    assert first.record.seat_version(1) == versions[1]       # Bob's panel is not stale
    assert first.record.seat_since(1) == since[1]            # nor his clock restarted
    second = await play(env.service, 1, "bid 1", versions[1])
    assert second.record.active == [2]
    with pytest.raises(StaleVersion):                         # Ann's decision is over
        await play(env.service, 0, "bid 3", versions[0])


async def test_a_seat_takes_back_its_sealed_bid_until_the_reveal(env: Env) -> None:
    await started(env.service, {"rounds": "2"})
    await to_auction(env.service)
    await play(env.service, 0, "bid 2")
    await play(env.service, 1, "bid 1")
    undone = await env.service.turns.undo(CHANNEL, ANN.user_id)   # Bob's bid stays
    assert undone.active == [0, 2]
    assert undone.state is not None and undone.state["bids"] == [None, 1, None]
    await play(env.service, 0, "bid 3")
    reveal = await play(env.service, 2, "bid 0")
    assert reveal.report.announce and reveal.record.state is not None
    assert reveal.record.state["last_auction"]["bids"] == [3, 1, 0]
    with pytest.raises(ServiceError) as error:              # never past the reveal
        await env.service.turns.undo(CHANNEL, ANN.user_id)
    assert error.value.reason.key == "service.nothing_to_undo"   # a new turn began


async def test_an_offer_asks_the_other_seat_and_cannot_be_taken_back(env: Env) -> None:
    record = await started(env.service)
    await play(env.service, 0, "roll")
    assert record.state is not None
    good = record.state["hands"][0][0]
    env.clock.advance(30)
    offer = await play(env.service, 0, f"offer {good} to 2")
    assert offer.record.active == [1] and offer.asked == (1,)
    assert offer.record.seat_since(1) == env.clock.now()
    # the report tells Bob which good, everyone else only that an offer was made
    assert offer.report.for_seat(1) != offer.report.public
    assert good not in repr(offer.report.public)
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, ANN.user_id)
    assert error.value.reason.key == "service.undo_irreversible"
    answer = await play(env.service, 1, "decline")
    assert answer.record.active == [0]


async def test_a_roll_cannot_be_undone(env: Env) -> None:
    await started(env.service)
    result = await play(env.service, 0, "roll")
    assert result.record.state is not None and chance.KEY in result.record.state
    with pytest.raises(ServiceError) as error:
        await env.service.turns.undo(CHANNEL, ANN.user_id)
    assert error.value.reason.key == "service.undo_irreversible"


async def test_a_timed_question_expires_once_and_a_late_answer_is_refused(env: Env) -> None:
    await started(env.service)
    await play(env.service, 0, "roll")
    quiz = await play(env.service, 0, "quiz")
    assert quiz.asked == (0,)          # a public question: posted with its buttons
    version = quiz.record.seat_version(0)
    assert await env.service.autoplay.expire(quiz.record.id, 0, version) == []   # not yet due
    env.clock.advance(61)
    late = env.service.turns.stale_reason(quiz.record, 0, version)
    assert late is not None and late.key == "service.too_late"
    with pytest.raises(StaleVersion) as error:    # a press after the deadline, before the timer
        await play(env.service, 0, "answer 1", version)
    assert error.value.reason.key == "service.too_late"
    expired = await env.service.autoplay.expire(quiz.record.id, 0, version)
    assert [r.action.notation for r in expired] == ["skip"]
    assert await env.service.autoplay.expire(quiz.record.id, 0, version) == []   # exactly once
    with pytest.raises(StaleVersion) as error:    # and never applied to the next decision
        await play(env.service, 0, "end", version)
    assert error.value.reason.key == "service.too_late"


async def test_the_ai_policy_gives_an_offer_its_default_not_the_ais_choice(env: Env) -> None:
    record = await started(env.service)
    assert record.state is not None
    await play(env.service, 0, "roll")
    offer = await play(env.service, 0, f"offer {record.state['hands'][0][0]} to 2")
    steps = await env.service.autoplay.play_out_turn(offer.record.id, 1, offer.record.seat_since(1))
    assert [s.action.notation for s in steps] == ["decline"]   # the AI would have given


async def test_a_running_game_with_secrets_exports_what_the_caller_may_see(env: Env) -> None:
    record = await started(env.service)
    assert record.state is not None
    await play(env.service, 0, "roll")
    await play(env.service, 0, "draw")
    document = await env.service.history.export(CHANNEL, BOB.user_id)
    assert document["complete"] is False and "seed" not in document
    assert all("notation" not in line for line in document["log"])   # none is Bob's
    assert document["view"]["hand"] == record.state["hands"][1]
    text = json.dumps(document)
    for good in record.state["hands"][0] + record.state["deck"]:
        assert good not in text
    own = await env.service.history.export(CHANNEL, ANN.user_id)
    assert [line.get("notation") for line in own["log"]] == ["roll", "draw"]
    with pytest.raises(DocumentError):
        parse(document)


async def test_a_finished_game_exports_everything(env: Env) -> None:
    await started(env.service)
    await to_auction(env.service)
    for seat in range(3):
        result = await play(env.service, seat, "bid 0")
    assert result.outcome is not None
    document = await env.service.history.export(CHANNEL, BOB.user_id)
    assert document.get("complete", True) and document["seed"] == 99
    assert len(document["log"]) == 12
    assert document["outcome"] == result.outcome.to_json()


class ReadClock:
    """A :class:`FakeClock` as the timers see it, counting their reads (each is a wake-up)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.reads = 0
        self.read = asyncio.Event()

    def now(self) -> float:
        self.reads += 1
        self.read.set()
        return self.clock.now()

    async def wakes(self, n: int) -> None:
        """Wait until the clock has been read ``n`` more times."""
        until = self.reads + n
        while self.reads < until:
            self.read.clear()
            await asyncio.wait_for(self.read.wait(), 5)


async def test_the_deadline_timer_fires_once_at_its_time(env: Env) -> None:
    fired: list[tuple[int, Seat, int]] = []
    done = asyncio.Event()
    clock = ReadClock(env.clock)
    deadlines = Deadlines(clock, {"bazaar": BAZAAR}.__getitem__)
    env.service.core.watchers.append(deadlines.watch)

    async def fire(game_id: int, seat: Seat, version: int) -> None:
        fired.append((game_id, seat, version))
        await env.service.autoplay.expire(game_id, seat, version)
        done.set()

    deadlines.start(fire)
    await started(env.service, {"rounds": "1", "quiz_seconds": "2"})
    await play(env.service, 0, "roll")
    quiz = await play(env.service, 0, "quiz")
    assert deadlines.pending() == 1
    await clock.wakes(1)                    # the timer looked at the time and waits
    assert fired == []
    env.clock.advance(2)                    # the clock jumps past the due time
    deadlines.check()
    await asyncio.wait_for(done.wait(), 5)
    assert fired == [(quiz.record.id, 0, quiz.record.seat_version(0))]
    assert deadlines.pending() == 0 and len(deadlines.lateness) == 1
    record = await env.service.core.get(CHANNEL)
    assert record is not None and record.state is not None and record.state["phase"] == "turn"
    await deadlines.close()


async def test_a_timer_woken_before_the_clock_says_due_waits_on(env: Env) -> None:
    """A sleep can end before the service's clock says the time is due (uvloop wakes up to
    a millisecond early; a time sync can slow the wall clock): the timer must wait on, not
    fire early, be refused and be lost."""
    fired: list[Seat] = []
    done = asyncio.Event()
    clock = ReadClock(env.clock)
    deadlines = Deadlines(clock, {"bazaar": BAZAAR}.__getitem__)
    env.service.core.watchers.append(deadlines.watch)

    async def fire(game_id: int, seat: Seat, version: int) -> None:
        if await env.service.autoplay.expire(game_id, seat, version):
            fired.append(seat)
        done.set()

    deadlines.start(fire)
    await started(env.service, {"rounds": "1", "quiz_seconds": "2"})
    await play(env.service, 0, "roll")
    await play(env.service, 0, "quiz")
    env.clock.advance(1.99)                 # the loop will sleep 0.01 s of its own time
    await clock.wakes(3)                    # ... and wake twice while the clock stands still
    assert fired == [] and deadlines.pending() == 1
    env.clock.advance(0.01)
    await asyncio.wait_for(done.wait(), 5)
    assert fired == [0] and deadlines.pending() == 0
    await deadlines.close()


def test_an_outcome_ranks_a_non_player_side_and_a_shared_result() -> None:
    automaton = Outcome((12, 15), ((1,), (0,)), sides=(Text.of("core.seat", seat=7),))
    assert automaton.n_seats == 1 and automaton.side(1) is not None
    assert automaton.winners == (1,) and not automaton.seat_won(0)
    assert automaton.to_json()["sides"] == ["core.seat"]
    together = Outcome((30, 30), ((0, 1),), together="lost", team_score=30)
    assert not together.seat_won(0) and together.to_json()["together"] == "lost"
