"""Which steps of Mesopotamia are legal now: those of the setup, or of the phase of the round
under way (each phase's module lists its own)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.mesopotamia import battles, events, rounds, setup, turn
from bot.games.mesopotamia.state import PHASES, MesopotamiaState


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The legal notations of ``seat``: a setup step, or a step of a round."""
    if state["phase"] in PHASES:
        return setup.legal(state, seat)
    if state["phase"] == "events":
        return events.legal(state, seat)
    if state["phase"] == "combat":
        return battles.legal(state, seat)
    if state["phase"] == "end":
        return rounds.legal(state, seat)
    return turn.legal(state, seat)
