"""A generic AI seat, written only against the engine contract.

The AI sees what a player sees: its ``view`` and its ``legal`` steps. To look
ahead it rebuilds a full state with ``game.determinize`` and plays on copies.
A game may take some decisions itself for the AI (``ai_step``: a quiz answered
right with a set chance), in the AI's turn and in its look-ahead alike. For the rest
it applies every legal step; a step that ends its turn is judged at once.
For the most promising steps that leave the turn going, it completes the rest
of its own turn several times with a cheap rollout policy (the best of a few
random steps) and keeps the best ending found, sharing the rollouts by
successive halving. Where a turn ends is judged by ``heuristic``, or by the
outcome when the game is over (a win or a loss outweighs any heuristic),
minus a tiny cost per step so that the AI never wanders in circles.

In a game with hidden information (``meta.hidden_information``: hands, decks,
sealed bids, future draws) one guess of what the AI cannot see could mislead it, so
it judges every step on several determinizations and keeps the step whose average
is best.

Everything is bounded by counts (never the clock) and every random choice
comes from the ``rng`` argument, so a decision is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from bot.engine import Action, Game, Seat, State

Policy: TypeAlias = Callable[[Game, dict[str, Any], list[Action], Seat, random.Random], Action]
"""What ``choose`` and ``random_choice`` share: (game, view, legal, seat, rng) -> action."""

WIN_BONUS = 1000.0
"""Added to (or taken from) the value of a finished game, so outcomes beat heuristics."""


@dataclass(frozen=True)
class Budget:
    """How much look-ahead one decision may use (all counts, no clock).

    ``candidates``: only the best this many steps by a one-step look-ahead are
    examined further. ``rollouts``: turn completions shared among them by
    successive halving (the weaker half is dropped after each round).
    ``sample``: the rollout policy plays the best of this many random legal steps.
    ``max_steps``: cap on the steps of one rollout (a turn may have no bound).
    ``guesses``: determinizations averaged in a game with hidden information (the
    rollouts are shared among them). ``breadth``: judge at most this many legal steps,
    drawn at random (None: all of them), for a fast AI when thousands of games are
    simulated.
    """

    candidates: int = 6
    rollouts: int = 12
    sample: int = 2
    max_steps: int = 20
    guesses: int = 4
    breadth: int | None = None


DEFAULT_BUDGET = Budget()
FAST_BUDGET = Budget(candidates=3, rollouts=3, sample=2, max_steps=6, guesses=1, breadth=16)
"""Less look-ahead and a sample of the legal steps: for simulations of thousands of games."""

STEP_COST = 1e-3
"""Taken from a rollout's value per step, so that of two equal endings the
shorter wins and the AI never walks in circles (a Ur war may go on forever)."""


def random_choice(
    game: Game, view: dict[str, Any], legal: list[Action], seat: Seat, rng: random.Random
) -> Action:
    """The baseline player: a uniformly random legal step."""
    return rng.choice(legal)


def choose(
    game: Game,
    view: dict[str, Any],
    legal: list[Action],
    seat: Seat,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
) -> Action:
    """The AI's step for ``seat`` among ``legal`` (which must not be empty)."""
    if not legal:
        raise ValueError("no legal step to choose from")
    if len(legal) == 1:
        return legal[0]
    if budget.breadth is not None and len(legal) > budget.breadth:
        legal = rng.sample(legal, budget.breadth)
    guesses = max(1, budget.guesses) if game.meta.hidden_information else 1
    if guesses > 1:
        budget = replace(budget, rollouts=max(len(legal), budget.rollouts // guesses))
    planner = _Planner(game, seat, rng, budget)
    totals = [0.0] * len(legal)
    counted = [0] * len(legal)
    for guess in range(guesses):
        state = game.determinize(view, seat, rng)
        if guess == 0 and (forced := game.ai_step(state, seat, legal, rng)) is not None:
            return forced
        for i, score in enumerate(planner.scores(state, legal)):
            if score > -math.inf:
                totals[i] += score
                counted[i] += 1
    means = [totals[i] / counted[i] if counted[i] else -math.inf for i in range(len(legal))]
    top = max(means)
    best = [legal[i] for i, score in enumerate(means) if score >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


class _Planner:
    """Look-ahead within one decision of ``seat``."""

    def __init__(self, game: Game, seat: Seat, rng: random.Random, budget: Budget) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.budget = budget

    def scores(self, state: State, legal: list[Action]) -> list[float]:
        """The value of each of ``legal`` in ``state``: a step that ends the turn as it
        is; of the others, the most promising few by the best ending rollouts find, and
        -inf for the rest."""
        game, budget = self.game, self.budget
        turn = game.turn_number(state)
        after = [game.apply(state, self.seat, action) for action in legal]
        now = [self.value(s) for s in after]
        going = [i for i in range(len(legal)) if self.in_turn(after[i], turn)]
        scores = list(now)
        for i in going:
            scores[i] = -math.inf
        ranked = sorted(going, key=lambda i: (-now[i], self.rng.random()))[
            : max(1, budget.candidates)]
        self.halve(after, ranked, scores, turn)
        return scores

    def value(self, state: State) -> float:
        """How good ``state`` is for the seat: the outcome if over, else the heuristic."""
        outcome = self.game.outcome(state)
        if outcome is not None:
            mine = outcome.scores[self.seat]
            rival = max((s for i, s in enumerate(outcome.scores) if i != self.seat), default=0)
            if self.seat not in outcome.winners:
                bonus = -WIN_BONUS
            elif len(outcome.winners) == 1:
                bonus = WIN_BONUS
            else:
                bonus = 0.0
            return bonus + mine - rival
        return self.game.heuristic(state, self.seat)

    def in_turn(self, state: State, turn: int) -> bool:
        """True while ``state`` still belongs to the seat's current turn."""
        game = self.game
        return (
            game.turn_number(state) == turn
            and self.seat in game.active(state)
            and game.outcome(state) is None
        )

    def halve(self, after: list[State], ranked: list[int], scores: list[float], turn: int) -> None:
        """Successive halving: share the rollouts among ``ranked``, keep each one's best."""
        survivors = ranked
        rounds = max(1, math.ceil(math.log2(len(ranked)))) if ranked else 0
        for _ in range(rounds):
            each = max(1, self.budget.rollouts // (rounds * len(survivors)))
            for i in survivors:
                for _ in range(each):
                    scores[i] = max(scores[i], self.rollout(after[i], turn))
            survivors = sorted(survivors, key=lambda i: -scores[i])[: (len(survivors) + 1) // 2]

    def rollout(self, state: State, turn: int) -> float:
        """Finish the turn with the cheap policy; the value of where it ends."""
        steps = 0
        while steps < self.budget.max_steps and self.in_turn(state, turn):
            state = self.step(state)
            steps += 1
        return self.value(state) - STEP_COST * steps

    def step(self, state: State) -> State:
        """The rollout policy: the game's own choice for the AI where it has one, else the
        best of a few random legal steps."""
        legal = self.game.legal(state, self.seat)
        forced = self.game.ai_step(state, self.seat, legal, self.rng)
        if forced is not None:
            return self.game.apply(state, self.seat, forced)
        picks = self.rng.sample(legal, min(self.budget.sample, len(legal)))
        options = [self.game.apply(state, self.seat, action) for action in picks]
        if len(options) == 1:
            return options[0]
        return max(options, key=self.value)
