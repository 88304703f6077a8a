"""The AI's judgement of a Civilizations state (:meth:`bot.engine.Game.heuristic`)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.civsets.cards import CARDS, CIVS
from bot.games.civsets.state import CivsetsState
from bot.games.kit import lead


def heuristic(state: CivsetsState, seat: Seat) -> float:
    """How good the state looks for ``seat``: completed sets weigh most, then the cards it
    gathers of each civilization (on its territories above all), then points; minus the
    best rival's."""
    return lead(_strengths(state), seat)


def _strengths(state: CivsetsState) -> list[float]:
    n = state["n"]
    placed_count = [dict.fromkeys(CIVS, 0) for _ in range(n)]
    held = [dict.fromkeys(CIVS, 0.0) for _ in range(n)]
    for civ, rows in state["map"].items():
        for owner, _ in rows:
            placed_count[owner][civ] += 1
    for owner, hand in enumerate(state["hands"]):
        for card in hand:
            card_civ = CARDS[card].civ
            if card_civ is not None:
                held[owner][card_civ] += 1
    pending = state["pending"]
    if pending is not None and pending["kind"] in ("trade", "buy") \
            and state["step"] in ("trade", "buy"):
        held[pending["by"]][pending["civ"]] += 0.5      # an offer made: half a card hoped for
    strength = []
    for s in range(n):
        value = 1000.0 * len(state["sets"][s]) + float(state["points"][s]) / 10.0
        for civ in CIVS:
            if civ in state["closed"]:
                continue
            mine = placed_count[s][civ]
            total = mine + held[s][civ]
            rivals = len(state["map"][civ]) - mine
            value += total * total * (1.5 if mine else 1.0) - (4.0 * rivals if mine else 0.0)
        strength.append(value)
    return strength
