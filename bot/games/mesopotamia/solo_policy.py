"""How the AI fights a combat against the Automaton (« COMBAT EN SOLO », :mod:`.solo`).

The heuristic values a whole position, not a card's slots: it would reveal without placing a
phalanx and lose its clashes. :func:`choose` plays these steps from what the seat sees (the
Automaton's cards face down until ``reveal``), the Automaton's answers (rules A-E,
:func:`~.automaton.solo_combat.response`) being known:

- placing: the Automaton's face-down cards are guessed :data:`GUESSES` times (from the cards of
  their decks not seen, :func:`.solo.guess`); a phalanx is placed on the slot where some number
  of phalanxes raises the mean :func:`worth` of the combat most, each phalanx costing
  :data:`PHALANX` (all are lost, R-solo-losses); when none is worth its cost, ``reveal``;
- clashing: each clash is judged by the combat played on to its end (:func:`play_out`), where
  every later clash is the one that looks best at once (:func:`_at_once`): won first, else one
  that drains the Automaton's phalanxes or lets its unit flee;
- fatigue: the row that counts least (:func:`tire_row`).

No deep search: a few hundred simulated clashes a step.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.games.mesopotamia import solo
from bot.games.mesopotamia.automaton.solo_combat import AUTOMATON, YOU, SoloCombat

GUESSES = 8
"""The Automaton's face-down cards are guessed this many times while placing."""
PHALANX = 0.02
"""A placed phalanx's cost, against a combat won (1) and a unit of yours kept (:data:`KEPT`)."""
KEPT = 0.3
"""The worth of each of your units not destroyed."""
KILLED = 0.1
"""The worth of each of the Automaton's units destroyed."""


def choose(shown: dict[str, Any], legal: list[str]) -> str:
    """The seat's step among ``legal`` in the combat ``shown`` (the seat's view of it)."""
    fight = solo.load(shown)
    if fight.tiring is not None:
        return f"fatigue {tire_row(fight, fight.tiring)}"
    if not shown["shown"]:
        return _place(shown, legal)
    return max(legal, key=lambda step: _clash_worth(fight, step))


def _place(shown: dict[str, Any], legal: list[str]) -> str:
    """The placement worth most on average over the guesses of the Automaton's cards (a slot
    judged by its best number of phalanxes), or ``reveal`` when none beats placing no more."""
    guesses = [solo.load(solo.guess(shown, random.Random(k))) for k in range(GUESSES)]

    def mean(unit: int, row: str, count: int) -> float:
        total = 0.0
        for guess in guesses:
            fight = _copy(guess)
            if count:
                fight.place(unit, row, count)
            total += worth(play_out(fight))
        return total / len(guesses) - PHALANX * count

    best, top = "reveal", mean(0, "force", 0) + 1e-9
    for step in legal:
        if step == "reveal":
            continue
        _, unit, row = step.split()
        mine = guesses[0].units[int(unit) - 1]
        left = guesses[0].phalanxes[YOU] - guesses[0].placed
        value = max(mean(int(unit) - 1, row, n) for n in range(1, min(mine.free(row), left) + 1))
        if value > top:
            best, top = step, value
    return best


def _clash_worth(fight: SoloCombat, step: str) -> float:
    """The combat's :func:`worth` after the clash ``step``, played on to its end."""
    _, a, b = step.split()
    after = _copy(fight)
    _clash(after, int(a) - 1, int(b) - 1)
    return worth(play_out(after))


def play_out(fight: SoloCombat) -> SoloCombat:
    """``fight`` played to its end, each clash the one :func:`_at_once` likes best."""
    while fight.winner() is None:
        pairs = [(i, j) for i in fight.fighting(YOU) for j in fight.fighting(AUTOMATON)]
        fight = max((_tried(fight, i, j) for i, j in pairs), key=_at_once)
    return fight


def _tried(fight: SoloCombat, you: int, its: int) -> SoloCombat:
    after = _copy(fight)
    _clash(after, you, its)
    return after


def _clash(fight: SoloCombat, you: int, its: int) -> None:
    """Your unit ``you`` against ``its``, your fatigue (if yours to choose) from
    :func:`tire_row`."""
    fight.clash(you, its)
    if fight.tiring is not None:
        fight.tire(tire_row(fight, fight.tiring))


def _at_once(fight: SoloCombat) -> float:
    """How good the last clash looks by itself: won (the more so when its unit is destroyed),
    else your unit fled rather than destroyed and the phalanxes the Automaton spent."""
    last = fight.clashes[-1]
    if last.winner == YOU:
        return 10.0 + (last.loser_fate == "dead")
    spent = last.response.force + last.response.tactic + last.response.mobility
    return 2.0 * (last.loser_fate == "fled") + 0.5 * spent


def worth(fight: SoloCombat) -> float:
    """A finished combat's worth to the seat: 1 if won, :data:`KEPT` per unit of yours not
    destroyed, :data:`KILLED` per unit of the Automaton's destroyed."""
    won = 1.0 if fight.winner() == YOU else 0.0
    kept = sum(u.out != "dead" for u in fight.units if u.side == YOU)
    killed = sum(u.out == "dead" for u in fight.units if u.side == AUTOMATON)
    return won + KEPT * kept + KILLED * killed


def tire_row(fight: SoloCombat, unit: int) -> str:
    """The row ``unit`` loses a phalanx from when it wins: Tactics when it has the advantage
    over none of the Automaton's units left, else Mobility (it only helps to flee), Tactics,
    Force (which always counts)."""
    mine = fight.units[unit]
    foes = [fight.units[j] for j in fight.fighting(AUTOMATON)]
    useless = not any(mine.beats_type(f) for f in foes)
    order = ("tactic", "mobility", "force") if useless else ("mobility", "tactic", "force")
    return next((r for r in order if mine.alloc[r] > 0), order[0])


def _copy(fight: SoloCombat) -> SoloCombat:
    """A copy to play on (the clashes' records are frozen)."""
    return replace(fight, units=[replace(u, alloc=dict(u.alloc)) for u in fight.units],
                   phalanxes=dict(fight.phalanxes), clashes=list(fight.clashes))
