"""Random playouts: an Automaton seat plays whole base games against the project's AI, the
engine's invariants holding at every step (``tests.test_mesopotamia_actions.check``), its own
decks kept whole, every step it names legal, and a game's log replaying to its state."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.engine import State
from bot.games.mesopotamia.automaton import cards as C
from bot.games.mesopotamia.automaton import deck, play
from bot.games.mesopotamia.engine import GAME
from tests.test_mesopotamia_actions import check

MAX_STEPS = 12_000
GAMES = 30


def check_automaton(state: State, seat: int) -> None:
    """Its 10 Strategy cards all somewhere, 3 face up between turns, Amphorae only on face-up
    cards, a planned action never twice."""
    box = deck.box(state, seat)
    assert box is not None
    if box["deck"] is None:
        return
    held = box["deck"] + box["shown"] + box["discard"] + box["top"]
    assert Counter(held) == Counter(C.deck_for(state["players"][seat]["empire"]))
    assert len(box["shown"]) <= C.IN_PLAY and set(box["marks"]) <= set(box["shown"])
    if box["turn"] is not None:
        actions = [a for a, _, _ in box["turn"]["plan"]]
        assert len(actions) == len(set(actions))


def invariant_view(state: State, seat: int) -> State:
    """The state for the engine's shared ``check``, whose « pawn unused or an action done »
    reads for the Automaton « Action cards planned or an action done » (R-auto-activation)."""
    t = state.get("t")
    if state["phase"] == "actions" and t and "cards" in t:
        state = {**state, "t": {**t, "pawn": bool(t["cards"])}}
    return state


def playout(seed: int) -> tuple[State, list[tuple[int, str]], State]:
    """One game: seat ``seed % 2`` is the Automaton (difficulty by seed), seat 1 - it the AI."""
    auto = seed % 2
    rng = random.Random(f"automaton:{seed}")
    state = GAME.setup(rng.getrandbits(63), 2, {})
    deck.enlist(state, auto, C.DIFFICULTIES[seed % 3])
    start = json.loads(json.dumps(state))
    log: list[tuple[int, str]] = []
    while GAME.outcome(state) is None:
        assert len(log) < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} steps"
        (seat,) = GAME.active(state)[:1]
        legal = GAME.legal(state, seat)
        if seat == auto:
            (step,) = play.next_steps(state, seat).steps
            action = next((a for a in legal if a.notation == step), None)
            assert action is not None, (seed, step)
        else:
            action = GAME.ai_step(state, seat, legal, rng)
            assert action is not None
            step = action.notation
        after = GAME.apply(state, seat, action)
        if after["phase"] not in ("roles", "empires", "regions", "bonus", "quests"):
            report = GAME.report(state, seat, action, after)
            check(invariant_view(after, auto), int(after.get("round", 1)),
                  [report.for_seat(r) for r in (None, 0, 1)])
            check_automaton(after, auto)
        log.append((seat, step))
        state = after
    return state, log, start


def run(seeds: range) -> list[Any]:
    """Play ``seeds``; the first game's log is replayed."""
    results = []
    for seed in seeds:
        state, log, start = playout(seed)
        assert state["phase"] == "over" and GAME.outcome(state) is not None
        if seed == seeds.start:
            again = start
            for seat, step in log:
                again = GAME.apply(again, seat, step)
            assert again == state
        results.append((seed, state["round"], GAME.outcome(state)))
    return results


@pytest.mark.slow
def test_automaton_games_against_the_ai_end_with_the_invariants() -> None:
    """:data:`GAMES` games, both seats, the three difficulties (about 4 minutes here); the first
    game's log is replayed."""
    assert len(run(range(GAMES))) == GAMES
