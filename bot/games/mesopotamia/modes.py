"""The game option ``mode`` (« MODE SOLO »): the base game or the Duel of Kings (``duel``, with
the ``automaton`` option), the Siege of Ur (:mod:`.siege`) and the Guardians of Assur
(:mod:`.guardians`). The hooks both solo modes share: the seat the mode plays against you
(no empire's setup, no quests, no bonus), the seats whose steps the game chooses, the quest
cards dealt and kept."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import siege
from bot.games.mesopotamia.automaton import deck
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import MesopotamiaState

DUEL = "duel"
MODES = (DUEL, "siege", guardians.MODE)
"""The values of the option ``mode``; each one but ``duel`` seats the mode's enemy last."""


def enlist(state: MesopotamiaState, mode: str) -> None:
    """Set up the two-seat ``state`` of a solo mode: the last seat is its enemy."""
    if mode == "siege":
        siege.enlist(state)
    elif mode == guardians.MODE:
        guardians.prepare(state)


def of(state: MesopotamiaState) -> str:
    """The mode of ``state``: ``siege`` or ``guardians`` (their box is in it), else ``duel``."""
    return next((m for m in MODES[1:] if m in state), DUEL)


def enemy(state: MesopotamiaState, seat: Seat) -> bool:
    """True when ``seat`` is a mode's enemy: the Defenders of Ur or the Guardians' enemy."""
    return siege.defends(state, seat) or guardians.plays(state, seat)


def scripted(state: MesopotamiaState, seat: Seat) -> bool:
    """True for a seat the game plays, which fights the solo combat's other side: an Automaton
    or a mode's enemy (« en suivant les règles de combat en solo »)."""
    return deck.plays(state, seat) or enemy(state, seat)


def figures(state: MesopotamiaState) -> dict[str, float]:
    """What a finished solo game measures beside its result (``benchmarks/solo_modes.py``):
    in the Siege, how many regions your Ram nearest Ur stands from it (none without a Ram);
    in the Guardians, the wave reached."""
    if siege.box(state) is not None:
        to_ur = siege.distances({siege.UR})
        rams = [to_ur[u[2]] for u in state["units"] if u[0] == siege.you(state)
                and u[1] == "ram" and u[2] in to_ur]
        return {"ram_to_ur": float(min(rams))} if rams else {}
    if guardians.on(state):
        return {"wave": float(state["guardians"]["wave"])}
    return {}


def quests(state: MesopotamiaState) -> tuple[int, int]:
    """How many quest cards a player is dealt and keeps: 3 and 2 in both solo modes (« Piochez
    3 cartes Quête, et choisissez-en 2 »), else the base game's."""
    if siege.box(state) is not None:
        return siege.QUESTS_DEALT, siege.QUESTS_KEPT
    if guardians.on(state):
        return guardians.QUESTS_DEALT, guardians.QUESTS_KEPT
    return D.QUEST_DEALT, D.QUEST_KEPT
