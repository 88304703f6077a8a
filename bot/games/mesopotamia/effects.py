"""What a step of Mesopotamia does to the state (a copy): the module of the setup or of the
phase under way carries it out; entering the combat phase removes clashing ships
(R-ship-clash) and starts the combats."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.mesopotamia import battles, combat, events, rounds, setup, siege, turn
from bot.games.mesopotamia.state import PHASES, MesopotamiaState


def apply(state: MesopotamiaState, seat: Seat, checked: str) -> None:
    """Carry out ``seat``'s legal step ``checked`` on ``state`` (the rules alone: the turn
    counter and the regions changed are the engine's)."""
    phase = state["phase"]
    if "guardians" in state:
        state["guardians"]["news"] = []
    if phase in PHASES:
        setup.apply(state, seat, checked)
        if state["phase"] == "ready":
            turn.begin_round(state)
        return
    state["log"], state["resolved"] = [], []
    state.pop("clashed", None)
    state.pop("solo_over", None)
    if phase == "events":
        events.apply(state, seat, checked)
    elif phase == "combat":
        battles.apply(state, seat, checked)
    elif phase == "end":
        rounds.apply(state, seat, checked)
    else:
        turn.apply(state, seat, checked)
    if phase == "actions" and state["phase"] == "combat":
        combat.destroy_clashing_ships(state)
    if phase != "combat" and state["phase"] == "combat":
        battles.resume(state)
    siege.check_end(state)
