"""The properties every After the Flood state keeps, and a random playout that checks them.

Used by ``tests/test_flood_rules.py`` (a few games) and ``benchmarks/flood_properties.py``
(a thousand and more, with the figures): pieces and goods are conserved (25 workers and
20 armies per player, the bank's supply), the caps hold (2 scribes, 2 armies a region,
one player's armies a region, none in Dilmun), there is no dead end and the five rounds
end.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.engine import Action, Seat, State
from bot.games.flood import data as D
from bot.games.flood.engine import GAME
from bot.games.flood.state import placed_armies, placed_workers

MAX_STEPS = 20_000
"""A random game longer than this is an engine bug (a round that never ends)."""


class BrokenProperty(AssertionError):
    """A state that breaks a property; the message names the seed and step."""


def total_workers(state: State, seat: int) -> int:
    """All of ``seat``'s workers: unavailable, available and placed."""
    w = state["workers"]
    return int(w["unavail"][seat] + w["avail"][seat] + placed_workers(state, seat))


def total_armies(state: State, seat: int) -> int:
    """All of ``seat``'s armies: unavailable, available and placed."""
    a = state["armies"]
    return int(a["unavail"][seat] + a["avail"][seat] + placed_armies(state, seat))


def broken(state: State) -> str | None:
    """The first property ``state`` breaks, or None."""
    for s in range(D.PLAYERS):
        workers, armies = total_workers(state, s), total_armies(state, s)
        if workers != D.WORKERS or armies != D.ARMIES:
            return f"seat {s} has {workers} workers, {armies} armies"
        if min(state["workers"]["avail"][s], state["armies"]["avail"][s],
               state["workers"]["unavail"][s], state["armies"]["unavail"][s]) < 0:
            return f"seat {s} has a negative stock"
        if state["on"]["scribes"][s] > D.SCRIBE_CAP:
            return f"seat {s} has {state['on']['scribes'][s]} scribes"
        if not all(0 <= state["used"][b][s] <= state["on"][b][s] for b in state["used"]):
            return f"seat {s} has more used workers than workers in a box"
        if len([r for r in state["cities"].values() if r[0] == s]) > D.BASES:
            return f"seat {s} has more than {D.BASES} cities"
    for res, supply in D.SUPPLY.items():
        held = sum(state["res"][s][res] + state["pass_box"][s][res] + state["equip"][s][res]
                   for s in range(D.PLAYERS))
        if held + state["bank"][res] != supply or state["bank"][res] < 0 or min(
                state["res"][s][res] for s in range(D.PLAYERS)) < 0:
            return f"{res}: {held} held and {state['bank'][res]} in the bank, not {supply}"
    for region, counts in state["troops"].items():
        if max(counts) > D.REGION_ARMY_CAP or sum(c > 0 for c in counts) > 1:
            return f"{region} holds armies {counts}"
        if not D.REGIONS[region].invadable and sum(counts):
            return f"{region} holds armies but cannot be invaded"
    if not 1 <= state["round"] <= D.ROUNDS:
        return f"round {state['round']}"
    return None


@dataclass
class Figures:
    """What one playout saw (for the figures of the big runs)."""

    steps: int = 0
    rounds: int = 0
    ended: bool = False
    most_in_play: int = 0
    """The most workers one player had in play (available and placed)."""
    most_armies: int = 0
    """The most armies one player had available and placed."""
    full_regions: int = 0
    """Steps ending with a region holding 2 armies."""
    full_scribes: int = 0
    """Steps ending with a player holding 2 scribes."""
    verbs: Counter[str] = field(default_factory=Counter)


def busy_steps(seed: int, busy: float = 0.8) -> Iterator[tuple[State, Seat, Action, State]]:
    """The steps of one game of random legal steps (an action other than passing or
    ``done`` chosen with probability ``busy`` when there is one), as (state before, seat,
    action, state after); raises BrokenProperty on a dead end or a game that does not end."""
    rng = random.Random(seed)
    state = GAME.setup(seed, D.PLAYERS, {})
    for step in itertools.count():
        if GAME.outcome(state) is not None:
            return
        if step >= MAX_STEPS:
            raise BrokenProperty(f"seed {seed}, step {step}: the game does not end")
        (seat,) = GAME.active(state)
        options = GAME.legal(state, seat)
        if not options:
            raise BrokenProperty(f"seed {seed}, step {step}: seat {seat} is active with no "
                                 "legal step")
        lively = [a for a in options if a.notation not in ("pass", "done")]
        action = rng.choice(lively if lively and rng.random() < busy else options)
        after = GAME.apply(state, seat, action)
        yield state, seat, action, after
        state = after


def playout(seed: int, busy: float = 0.8) -> Figures:
    """One game of :func:`busy_steps`, every state checked; raises BrokenProperty."""
    figures = Figures()
    rounds: set[int] = set()
    state: State = {}
    for before, _, action, state in busy_steps(seed, busy):
        where = f"seed {seed}, step {figures.steps}"
        rounds.add(before["round"])
        figures.steps += 1
        figures.verbs[action.notation.split()[0]] += 1
        if (problem := broken(state)) is not None:
            raise BrokenProperty(f"{where} ({action.notation}): {problem}")
        rounds.add(state["round"])
        for s in range(D.PLAYERS):
            in_play = state["workers"]["avail"][s] + placed_workers(state, s)
            figures.most_in_play = max(figures.most_in_play, in_play)
            figures.most_armies = max(figures.most_armies,
                                      state["armies"]["avail"][s] + placed_armies(state, s))
        figures.full_regions += any(max(c) == D.REGION_ARMY_CAP
                                    for c in state["troops"].values())
        figures.full_scribes += max(state["on"]["scribes"]) == D.SCRIBE_CAP
    if sorted(rounds) != list(range(1, D.ROUNDS + 1)) or state.get("phase") != "over":
        raise BrokenProperty(f"seed {seed}: the game ended after rounds {sorted(rounds)}")
    figures.rounds = len(rounds)
    figures.ended = True
    return figures
