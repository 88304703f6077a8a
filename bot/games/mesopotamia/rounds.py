"""The end of a round and the end of the game.

« Les Manches s'enchaînent jusqu'à la construction complète des Jardins suspendus. Une fois les
jardins terminés, la partie s'achève à la fin de la manche en cours. »

:func:`contested` names the regions where the combat phase has a combat (R-combat-detection);
:func:`end_round` is called once the combat phase is over (:mod:`bot.games.mesopotamia.battles`):
the game ends (phase ``over``, nobody active) when every Hanging Gardens storey is built, else
the next round begins (R-game-end).
"""

from __future__ import annotations

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import turn

LAND = frozenset({"spearman", "archer", "cavalry", "chariot"})
"""The land units that fight (R-combat-detection: ships and rams alone never start a combat)."""


def contested(state: State) -> list[str]:
    """The regions where a combat happens, in map order: land units of two empires or more, or
    a land unit on a neutral tribe's region (R-combat-detection)."""
    out: list[str] = []
    for region in D.REGIONS:
        empires = {int(u[0]) for u in state["units"] if u[2] == region and u[1] in LAND}
        if len(empires) > 1 or (empires and state["tribes"].get(region)):
            out.append(region)
    return out


def built_storeys(state: State) -> int:
    """How many Hanging Gardens storeys are built (the tiles the seats keep)."""
    return sum(len(p.get("gardens", [])) for p in state["players"])


def gardens_complete(state: State) -> bool:
    """True when the five storeys of the Hanging Gardens are built."""
    return built_storeys(state) >= D.GARDEN_STOREYS


def end_round(state: State) -> None:
    """The end of the round: the end of the game once the Gardens are complete, else the next
    round's action phase (:func:`bot.games.mesopotamia.turn.begin_round`)."""
    if gardens_complete(state):
        state["phase"], state["current"], state["t"] = "over", None, None
        return
    turn.begin_round(state)
