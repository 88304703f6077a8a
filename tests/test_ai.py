"""bot.ai: a generic AI seat that only uses the engine contract."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from bot import ai
from bot.engine import Action, Game, Seat, State, Text
from tests.bazaar.engine import BazaarGame
from tests.toy_game import GAME


def _play(
    game: Game, seed: int, n: int, policies: dict[Seat, ai.Policy]
) -> tuple[State, list[str]]:
    """A whole game where ``policies`` (default: random) choose every step."""
    rng = random.Random(seed)
    state = game.setup(seed, n, {})
    notations: list[str] = []
    for _ in range(10_000):
        if game.outcome(state) is not None:
            break
        seat = game.active(state)[0]
        legal = game.legal(state, seat)
        policy = policies.get(seat, ai.random_choice)
        action = policy(game, game.view(state, seat), legal, seat, rng)
        assert action in legal
        state = game.apply(state, seat, action)
        notations.append(action.notation)
    assert game.outcome(state) is not None, "the game did not end"
    return state, notations


def test_the_ai_picks_one_of_the_legal_steps() -> None:
    state = GAME.setup(4, 3, {})
    seat = GAME.active(state)[0]
    legal = GAME.legal(state, seat)
    action = ai.choose(GAME, GAME.view(state, seat), legal, seat, random.Random(0))
    assert action in legal


def test_the_ai_prefers_the_bigger_add() -> None:
    state = GAME.setup(4, 3, {})
    seat = GAME.active(state)[0]
    for rng_seed in range(5):
        chosen = ai.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                           random.Random(rng_seed))
        assert chosen.notation == "add 2"


def test_a_single_legal_step_is_returned_without_looking_ahead() -> None:
    only = [Action("end", Text.of("toy.end"), "end")]
    rng = random.Random(1)
    before = rng.getstate()
    assert ai.choose(GAME, {}, only, 0, rng) is only[0]
    assert rng.getstate() == before


def test_no_legal_step_is_an_error() -> None:
    state = GAME.setup(0, 2, {})
    with pytest.raises(ValueError):
        ai.choose(GAME, GAME.view(state, 0), [], 0, random.Random(0))


def test_decisions_are_reproducible_for_a_given_rng() -> None:
    policies: dict[Seat, ai.Policy] = {0: ai.choose, 1: ai.choose}
    first = _play(GAME, 11, 3, policies)
    second = _play(GAME, 11, 3, policies)
    assert first == second


def test_the_ai_clearly_beats_random_play_on_the_toy_game() -> None:
    games = 60
    wins = 0
    for seed in range(games):
        seat = seed % 3
        state, _ = _play(GAME, seed, 3, {seat: ai.choose})
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += outcome.winners == (seat,)
    # A random seat wins about a third of the time; the AI should win far more.
    assert wins >= 0.8 * games


def test_the_random_baseline_only_returns_legal_steps() -> None:
    state = GAME.setup(2, 2, {})
    seat = GAME.active(state)[0]
    legal = GAME.legal(state, seat)
    picks = {ai.random_choice(GAME, {}, legal, seat, random.Random(i)).notation for i in range(30)}
    assert picks == {a.notation for a in legal}


def test_ur_games_with_an_ai_seat_complete() -> None:
    ur = importlib.import_module("bot.games.ur.engine").GAME
    for seed in range(2):
        state, notations = _play(ur, seed, 3, {seed % 3: ai.choose})
        assert ur.outcome(state) is not None
        assert notations


def test_under_hidden_information_the_ai_averages_several_guesses() -> None:
    class Counting(BazaarGame):
        guesses = 0

        def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
            Counting.guesses += 1
            return super().determinize(view, seat, rng)

    game = Counting()
    state = game.apply(game.setup(1, 3, {}), 0, "roll")
    legal = game.legal(state, 0)
    chosen = ai.choose(game, game.view(state, 0), legal, 0, random.Random(2))
    assert chosen in legal
    assert Counting.guesses == ai.DEFAULT_BUDGET.guesses
