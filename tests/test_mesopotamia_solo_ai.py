"""The AI in a combat against the Automaton (:mod:`bot.games.mesopotamia.solo_policy`): it
places phalanxes where they win clashes, from what its seat sees (never the Automaton's cards
before ``reveal``), orders its clashes and chooses its fatigue rows.

The win rate over many seeded combats is ``benchmarks/solo_combat_ai.py`` (its figure is in
``data/mesopotamia/automaton/README.md``)."""

from __future__ import annotations

import random

from bot import ai
from bot.engine import State
from bot.games.mesopotamia import solo_policy, standard
from bot.games.mesopotamia.engine import GAME
from tests.test_mesopotamia_solo_engine import EXAMPLE, against_automaton, example, with_cards

KINDS = tuple(standard.DECKS)


def random_combat(seed: int) -> State:
    """A combat of 1-3 units a side, 0-8 phalanxes for the seat and 0-6 for the Automaton,
    either ahead on the Event track, the cards drawn with ``seed``."""
    rng = random.Random(seed)
    yours, its = (rng.choices(KINDS, k=rng.randint(1, 3)) for _ in range(2))
    phalanxes = (rng.randint(0, 8), rng.randint(0, 6))
    return against_automaton(yours, its, phalanxes, rng.random() < 0.5, seed)[0]


def ai_wins(state: State, seed: int) -> bool:
    """True when seat 0, played by the AI (the fast budget of simulations), wins the combat."""
    rng = random.Random(seed)
    while "solo" in state:
        legal = GAME.legal(state, 0)
        state = GAME.apply(state, 0, ai.choose(GAME, GAME.view(state, 0), legal, 0, rng,
                                               ai.FAST_BUDGET))
    return bool(state["resolved"][-1]["winner"] == 0)


def win_rate(combats: int) -> float:
    """The share of ``combats`` seeded combats (seeds 0, 1, …) that the AI's seat wins."""
    return sum(ai_wins(random_combat(seed), seed) for seed in range(combats)) / combats


def test_the_ai_places_phalanxes_and_wins_the_worked_example() -> None:
    """The rulebook's example (7 phalanxes against 4): the AI places some, not all, and wins."""
    state, _ = example()
    placed = 0
    while "solo" in state:
        step = ai.choose(GAME, GAME.view(state, 0), GAME.legal(state, 0), 0, random.Random(1))
        placed += step.notation.startswith("place")
        state = GAME.apply(state, 0, step)
    assert 0 < placed < 7 and state["resolved"][-1]["winner"] == 0


def test_the_ai_does_not_read_the_automatons_cards_before_they_are_revealed() -> None:
    """Two combats alike but for the Automaton's face-down cards: the same placements."""
    state, _ = example()
    other = with_cards(example()[0], (*EXAMPLE[:2], "archer_05", "spearman_07"))
    steps = [a.notation for a in GAME.legal(state, 0)]
    assert GAME.view(other, 0) == GAME.view(state, 0)
    assert solo_policy.choose(GAME.view(other, 0)["solo"], steps) == \
        solo_policy.choose(GAME.view(state, 0)["solo"], steps)
    assert GAME.ai_step(other, 0, GAME.legal(other, 0), random.Random(1)) == \
        GAME.ai_step(state, 0, GAME.legal(state, 0), random.Random(2))


def test_the_ai_wins_more_combats_than_revealing_at_once() -> None:
    """Over 30 seeded combats the AI wins more than a seat that places nothing and clashes in
    the order offered."""
    def plain(state: State) -> bool:
        while "solo" in state:
            state = GAME.apply(state, 0, GAME.legal(state, 0)[-1])
        return bool(state["resolved"][-1]["winner"] == 0)

    seeds = range(30)
    ai_won = sum(ai_wins(random_combat(s), s) for s in seeds)
    assert ai_won > sum(plain(random_combat(s)) for s in seeds)

