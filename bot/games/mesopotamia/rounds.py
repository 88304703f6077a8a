"""The end of a round and the end of the game.

« Les Manches s'enchaînent jusqu'à la construction complète des Jardins suspendus. Une fois les
jardins terminés, la partie s'achève à la fin de la manche en cours. »

:func:`contested` names the regions where the combat phase has a combat (R-combat-detection);
:func:`end_round` is called once the combat phase is over (:mod:`bot.games.mesopotamia.battles`):
a six-round event's final reward that names a technology is first its owner's step (phase
``end``: ``reward <card> <technology>``, R-round-end); then the game ends (phase ``over``,
nobody active) when every Hanging Gardens storey is built, else the next round begins
(R-game-end).
"""

from __future__ import annotations

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import events, turn
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import MesopotamiaState

VERBS = frozenset({"reward"})



def contested(state: MesopotamiaState) -> list[str]:
    """The regions where a combat happens, in map order: land units of two empires or more, or
    a land unit on a neutral tribe's region (R-combat-detection)."""
    out: list[str] = []
    for region in D.REGIONS:
        empires = {int(u[0]) for u in state["units"] if u[2] == region and u[1] in D.LAND}
        if len(empires) > 1 or (empires and state["tribes"].get(region)):
            out.append(region)
    return out


def built_storeys(state: MesopotamiaState) -> int:
    """How many Hanging Gardens storeys are built (the tiles the seats keep)."""
    return sum(len(p.get("gardens", [])) for p in state["players"])


def gardens_complete(state: MesopotamiaState) -> bool:
    """True when the five storeys of the Hanging Gardens are built."""
    return built_storeys(state) >= D.GARDEN_STOREYS


def end_round(state: MesopotamiaState) -> None:
    """The end of the round: the final rewards waiting for a technology (``state["finals"]``,
    their owners' steps), then the end of the game once the Gardens are complete, else the next
    round's action phase (:func:`bot.games.mesopotamia.turn.begin_round`)."""
    if state.get("finals"):
        state["phase"], state["current"], state["t"] = "end", state["finals"][0]["seat"], None
        return
    state.pop("finals", None)
    if guardians.on(state):     # its own end (R-guard-waves), not the Gardens'
        if not guardians.end_of_round(state):
            turn.begin_round(state)
        return
    if gardens_complete(state) and "siege" not in state:     # R-siege-end
        state["phase"], state["current"], state["t"] = "over", None, None
        return
    turn.begin_round(state)


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """``reward <card> <technology>… [<colour>]``: the technology the final reward of ``seat``'s
    finished event discovers, among those it can raise, and the colour of its free Ziggurat
    storey's die (R-round-end)."""
    if state["phase"] != "end" or seat != state["current"]:
        return []
    run = state["finals"][0]
    final = events.CARDS[run["card"]]["options"][run["option"]]["final"]
    return [" ".join(["reward", run["card"], *c])
            for c in events.reward_choices(state, seat, final)]


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Take the final reward with the named technology, then go on with the end of the round."""
    _, _, *techs = notation.split()
    events.finish(state, state["finals"].pop(0), techs)
    end_round(state)
