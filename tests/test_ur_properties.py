"""Property tests: a seeded fuzzer plays 1,000 random legal Ur games (500 of 3, 500 of 4 players).

Every step: some legal step exists while the game is on, at most 5 tokens and
one colour per tile, tokens conserved (supply + tiles + ziggurat markers = 20).
Every 30th step and at the end: the input state is not mutated, JSON and
view/determinize round trips, notation round trip of every legal step, each
legal step passes the rule check. At the end: the game ended under the step cap,
the outcome is consistent, and replaying the log from the seed reproduces the state.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Action, BadNotation, State
from bot.games.ur.board import CELLS, MAX_TOKENS, NEIGHBOURS, TOKENS
from bot.games.ur.checks import reason
from bot.games.ur.engine import GAME
from bot.games.ur.notation import Move, format_move, parse_move
from bot.games.ur.options import legal_moves

GAMES_PER_SIZE = 500
STEP_CAP = 5000
SAMPLE_EVERY = 30


def _check_invariants(state: State) -> None:
    owner, tokens, zig = state["owner"], state["tokens"], state["zig"]
    for c in range(CELLS):
        assert 0 <= tokens[c] <= MAX_TOKENS
        if zig[c]:
            assert tokens[c] == 0 and owner[c] >= 0
        else:
            assert (owner[c] < 0) == (tokens[c] == 0)
    held = [0] * state["n"]
    for c in range(CELLS):
        if owner[c] >= 0:
            held[owner[c]] += tokens[c]
    for seat in range(state["n"]):
        assert state["supply"][seat] >= 0
        assert state["supply"][seat] + held[seat] + state["zigs"][seat] == TOKENS
    assert sum(state["zigs"]) + state["zigs_left"] == 5


def _check_sample(state: State, seat: int, legal: list[Action]) -> None:
    assert json.loads(json.dumps(state)) == state
    view = GAME.view(state, seat)
    assert GAME.determinize(json.loads(json.dumps(view)), seat, random.Random(0)) == state
    assert GAME.default_action(state, seat) in (legal or [None])
    for action in legal:
        assert GAME.parse(state, seat, action.notation) == action
        assert format_move(parse_move(action.notation.upper())) == action.notation
    if not GAME.active(state):
        return
    moves = legal_moves(state, seat)
    assert all(reason(state, seat, m) is None for m in moves)
    rng = random.Random(len(moves))
    for move in _random_moves(rng, moves):
        assert (reason(state, seat, move) is None) == (move in moves), move


_KINDS = ("place", "action", "decline", "decline_both", "bonus", "bonus_done", "war",
          "war_done", "politics", "politics_done", "agriculture", "ziggurat", "ziggurat_done",
          "exchange", "pass", "end")


def _random_moves(rng: random.Random, legal: list[Move]) -> list[Move]:
    """Random well-formed moves, half of them small changes to legal ones."""
    out = []
    for _ in range(12):
        out.append(Move(rng.choice(_KINDS), rng.randrange(CELLS + 1), rng.randrange(CELLS),
                        rng.randrange(10), rng.randrange(5)))
        if legal:
            m = rng.choice(legal)
            out.append(m._replace(n=max(m.n + rng.choice((-1, 1)), 0) if m.n >= 0 else -1))
            if m.cell >= 0:
                near = NEIGHBOURS[m.cell][0] if m.cell < CELLS else 0
                out.append(m._replace(cell2=near) if m.cell2 >= 0 else m._replace(cell=near))
    return [n for n in map(_normalised, out) if n is not None]


def _normalised(m: Move) -> Move | None:
    """The move the notation of ``m`` denotes, or None if it cannot be written."""
    try:
        return parse_move(format_move(m))
    except (KeyError, IndexError, BadNotation):
        return None


def _choose(rng: random.Random, legal: list[Action], spread: bool) -> Action:
    """A random legal step; ``spread`` games favour new tiles, so boards fill up."""
    if spread:
        for action in legal:
            if action.notation == "decline both" and rng.random() < 0.6:
                return action
        free = [a for a in legal if a.label.key == "ur.act.bonus_free"]
        if free:
            return rng.choice(free)
    done = [a for a in legal if a.notation.endswith("done")]
    if done and rng.random() < 0.3:
        return done[0]
    return rng.choice(legal)


def _play(seed: int, n: int) -> tuple[State, list[tuple[int, str]]]:
    rng = random.Random(seed * 7 + n)
    state = GAME.setup(seed, n, {})
    log: list[tuple[int, str]] = []
    while GAME.active(state):
        assert len(log) < STEP_CAP, "the game did not end"
        (seat,) = GAME.active(state)
        legal = GAME.legal(state, seat)
        assert legal, f"dead end at step {state['step']}"
        action = _choose(rng, legal, spread=seed % 2 == 1)
        if len(log) % SAMPLE_EVERY == 0:
            _check_sample(state, seat, legal)
            before = json.loads(json.dumps(state))
            new = GAME.apply(state, seat, action)
            assert state == before
        else:
            new = GAME.apply(state, seat, action)
        assert GAME.turn_number(new) == GAME.turn_number(state) + (action.notation == "end")
        if new["phase"] == "turn" and state["phase"] == "setup_exchange":
            assert new["supply"] == [TOKENS - 3] * n  # three placement rounds
        state = new
        _check_invariants(state)
        log.append((seat, action.notation))
    return state, log


def _check_end(seed: int, n: int, state: State, log: list[tuple[int, str]]) -> None:
    outcome = GAME.outcome(state)
    assert outcome is not None and state["phase"] == "over"
    assert sorted(s for group in outcome.ranking for s in group) == list(range(n))
    assert GAME.view(state, None)["winners"] == list(outcome.winners)
    _check_sample(state, 0, [])
    replay = GAME.setup(seed, n, {})
    for seat, notation in log:
        replay = GAME.apply(replay, seat, notation)
    assert replay == state


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_random_games(n: int) -> None:
    ends = {"stuck": 0, "ziggurats": 0}
    for seed in range(GAMES_PER_SIZE):
        state, log = _play(seed, n)
        _check_end(seed, n, state, log)
        ends["ziggurats" if state["zigs_left"] == 0 else "stuck"] += 1
    assert ends["stuck"] and ends["ziggurats"], ends
