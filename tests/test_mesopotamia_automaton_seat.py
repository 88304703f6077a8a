"""The Automaton's seat in the service: a game with the ``automaton`` option gives it the
last seat, its kind (the registry's :class:`~bot.service.seats.ScriptedSeat`) takes that seat's
steps in the turn loop, and whole games end with the engine's invariants, its log replaying."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.engine import Action, Game, Seat, Text
from bot.games.mesopotamia.automaton import deck
from bot.games.mesopotamia.engine import GAME
from bot.records import GameRecord, Player, ServiceError, StepResult
from bot.replay import replay
from bot.service import GameService
from bot.store import open_store
from host import registry
from tests.test_mesopotamia_automaton_playout import check_automaton

CHANNEL = 11
ANN = Player(1, "Ann")


async def greedy(game: str, engine: Game, view: object, legal: list[Action], seat: Seat,
                 seed: str) -> Action:
    """The AI's quick judgement (the heuristic's best step) on a guess of what it cannot see;
    never asked for the Automaton's seat."""
    assert isinstance(view, dict) and not deck.plays(view, seat)
    rng = random.Random(seed)
    return engine.ai_step(engine.determinize(view, seat, rng), seat, legal, rng) or legal[0]


class Told:
    """A front end that keeps what the loop tells it."""

    def __init__(self) -> None:
        self.steps: list[StepResult] = []

    async def show_missing(self, record: GameRecord) -> None:
        """Nothing to show here."""

    async def tell(self, steps: Sequence[StepResult]) -> None:
        self.steps += steps


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await open_store(tmp_path / "dingir.sqlite3")
    try:
        yield GameService(store, FakeClock(), seed_source=lambda: 3,
                          catalogue=registry.CATALOGUE, ai_search=greedy)
    finally:
        await store.close()


async def test_the_automaton_takes_the_last_seat_of_a_solo_lobby(games: GameService) -> None:
    lobby = await games.lobby.create(None, CHANNEL, ANN, "mesopotamia", {"automaton": "igigi"})
    assert [s.user_id for s in lobby.seats] == [ANN.user_id]        # alone in the lobby
    record = await games.lobby.start(CHANNEL, ANN.user_id)
    assert [(s.user_id, s.name) for s in record.seats] == [(ANN.user_id, "Ann"),
                                                            (None, "Automaton")]
    assert record.state is not None and deck.plays(record.state, 1)
    assert not deck.plays(record.state, 0) and games.core.is_ai(record, 1)
    for player in (Player(2, "Bob"), None):         # nobody takes its seat, not the AI
        with pytest.raises(ServiceError) as refused:
            await games.admin.replace_seat(CHANNEL, ANN.user_id, True, 1, player)
        assert refused.value.reason == Text.of("service.replace_scripted", seat=2,
                                               name="Automaton")


def test_players_and_difficulty_ask_for_the_automaton(games: GameService) -> None:
    assert games.lobby.with_opponent("mesopotamia", {}, 1, 0, None) == {"automaton": "igigi"}
    assert games.lobby.with_opponent("mesopotamia", {"automaton": "none"}, 1, 0, None) == \
        {"automaton": "igigi"}
    assert games.lobby.with_opponent("mesopotamia", {}, 1, 0, "anunnaki") == \
        {"automaton": "anunnaki"}
    assert games.lobby.with_opponent("mesopotamia", {}, 3, 0, "emperor") == {"automaton": "emperor"}
    assert games.lobby.with_opponent("mesopotamia", {"dice": "chance"}, 1, 1, None) == \
        {"dice": "chance"}                          # one person and an AI: enough players
    with pytest.raises(ServiceError) as refused:
        games.lobby.with_opponent("ur", {}, 1, 0, None)
    assert refused.value.reason == Text.of("service.no_opponent", min=3)


async def test_a_full_lobby_leaves_the_automaton_its_seat(games: GameService) -> None:
    await games.lobby.create(None, CHANNEL, ANN, "mesopotamia", {"automaton": "emperor"},
                             ai_seats=4)              # 6 seats at most (R-players-5-6)
    with pytest.raises(ServiceError, match="game_full"):
        await games.lobby.add_ai(CHANNEL, ANN.user_id)


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["emperor", "anunnaki"])
async def test_the_automaton_plays_whole_games_in_the_loop(games: GameService,
                                                           difficulty: str) -> None:
    record = await games.lobby.open_table(CHANNEL, "mesopotamia", {"automaton": difficulty}, [None])
    assert len(record.seats) == 2 and record.seats[1].name == "Automaton"
    told = Told()
    for _ in range(200):
        await games.loop.move_on(record.id, told)
        record = await games.core.get_by_id(record.id) or record
        if record.status == "finished":
            break
    assert record.status == "finished" and record.state is not None
    check_automaton(record.state, 1)
    _, log = await games.history.log(CHANNEL)
    assert {e.seat for e in log} == {0, 1}
    assert [(r.seat, r.action.notation) for r in told.steps] == [(e.seat, e.notation)
                                                               for e in log]
    game = games.core.engine("mesopotamia")
    assert replay(game, record.seed, 2, record.options, log) == record.state


async def test_all_against_the_automaton_win_or_lose_together(games: GameService) -> None:
    """R-solo-team: two seats and the Automaton, ``team=yes``: the outcome says the players won
    together when one of them ranks above the Automaton, else that they lost together."""
    record = await games.lobby.open_table(CHANNEL, "mesopotamia",
                                    {"automaton": "emperor", "team": "yes"}, [None, None])
    assert [s.name for s in record.seats][2] == "Automaton"
    for _ in range(300):
        await games.loop.move_on(record.id, Told())
        record = await games.core.get_by_id(record.id) or record
        if record.status == "finished":
            break
    assert record.status == "finished" and record.state is not None
    outcome = games.core.engine("mesopotamia").outcome(record.state)
    assert outcome is not None
    assert outcome.together == ("lost" if 2 in outcome.winners else "won")
    assert all(outcome.seat_won(s) == (outcome.together == "won") for s in (0, 1))


def test_without_the_automaton_the_team_option_changes_nothing() -> None:
    state = GAME.setup(1, 2, {"team": "yes"})
    assert not state["team"] and "automata" not in state
