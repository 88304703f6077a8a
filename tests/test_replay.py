"""bot.replay: rebuilding a state from the seed and the action log."""

from __future__ import annotations

import copy
import random

import pytest

from bot.engine import IllegalMove
from bot.replay import ReplayError, Step, apply_steps, iter_states, replay
from tests.toy_game import GAME


def _random_log(seed: int, steps: int) -> tuple[list[Step], list[dict[str, object]]]:
    """A random legal log of the toy game and the states it goes through."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 3, {"target": "20"})
    log: list[Step] = []
    states = []
    while GAME.outcome(state) is None and len(log) < steps:
        seat = GAME.active(state)[0]
        action = rng.choice(GAME.legal(state, seat))
        state = GAME.apply(state, seat, action)
        log.append(Step(seat, action.notation))
        states.append(state)
    return log, states


def test_replay_reproduces_the_state_exactly() -> None:
    for seed in range(20):
        log, states = _random_log(seed, 1000)
        assert replay(GAME, seed, 3, {"target": "20"}, log) == states[-1]


def test_iter_states_yields_every_intermediate_state() -> None:
    log, states = _random_log(5, 12)
    start = GAME.setup(5, 3, {"target": "20"})
    assert list(iter_states(GAME, start, log)) == states


def test_no_steps_gives_the_setup_state() -> None:
    assert replay(GAME, 3, 2, {}, []) == GAME.setup(3, 2, {})


def test_apply_steps_continues_from_a_snapshot_without_changing_it() -> None:
    log, states = _random_log(9, 10)
    snapshot = states[3]
    kept = copy.deepcopy(snapshot)
    assert apply_steps(GAME, snapshot, log[4:]) == states[-1]
    assert snapshot == kept


def test_a_refused_step_names_its_index_and_reason() -> None:
    state = GAME.setup(1, 2, {})
    seat = GAME.active(state)[0]
    log = [Step(seat, "add 2"), Step(seat, "add 1"), Step(seat, "add 1")]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, 1, 2, {}, log)
    assert caught.value.index == 2
    assert caught.value.step == log[2]
    assert caught.value.reason.key == "toy.two_adds"
    assert isinstance(caught.value.__cause__, IllegalMove)


def test_a_step_by_the_wrong_seat_is_refused() -> None:
    state = GAME.setup(1, 2, {})
    other = 1 - GAME.active(state)[0]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, 1, 2, {}, [Step(other, "end")])
    assert caught.value.index == 0
    assert caught.value.reason.key == "toy.not_your_turn"
