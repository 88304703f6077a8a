"""What each seat sees of an After the Flood state.

Nothing is hidden in After the Flood but the future dice: every view is the state
without its box of randomness, plus a few derived facts for the renderers (equipment
ranks and amounts, Passed box values, the opportunity cost now due).
"""

from __future__ import annotations

import random
from typing import Any

from bot import chance
from bot.engine import Seat, State
from bot.games.flood import data as D
from bot.games.flood.state import (
    FloodState,
    cost_due,
    equipment_value,
    pass_value,
    rank_of,
)
from bot.games.kit import clone

DERIVED = ("ranks", "equip_values", "pass_values", "cost_due", "rounds")


def view(state: FloodState, seat: Seat | None) -> dict[str, Any]:
    """The same for everyone: the state without the dice to come."""
    shown: dict[str, Any] = clone({k: v for k, v in state.items() if k != chance.KEY})
    n = state["n"]
    shown.update(
        ranks=[rank_of(state, s) for s in range(n)],
        equip_values=[equipment_value(state, s) for s in range(n)],
        pass_values=[pass_value(state, s) for s in range(n)],
        cost_due=cost_due(state) if state["phase"] == "actions" else 0,
        rounds=D.ROUNDS,
    )
    return shown


def mark(before: FloodState, seat: Seat, notation: str, after: FloodState) -> None:
    """Keep in ``after`` the places the turn under way has named (``turn_places``) and, once
    it ends, those of the last turn with who played it (``last_turn``), for the board to
    frame: bookkeeping of the pictures, which no rule reads."""
    places = list(before.get("turn_places", []))
    verb, *args = notation.split()
    pending = before["pending"] or {}
    if verb == "buy":
        places.append(args[1])
    elif verb == "empire":
        places.append(args[1] if len(args) > 1 else D.EMPIRES[args[0]].starts[0])
    elif args and (args[0] in D.REGIONS or args[0] in D.PLACE_VP):
        places.append(args[0])
    if verb in ("march", "from"):
        places.append(pending["region"])
    found = list(dict.fromkeys(places))
    if after["turn"] != before["turn"]:
        after["last_turn"] = {"seat": seat, "places": found}
        found = []
    after["turn_places"] = found


def determinize(view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
    """The state of a view, with dice nobody knows yet."""
    state: State = clone({k: v for k, v in view_.items() if k not in DERIVED})
    state[chance.KEY] = chance.resample(rng)
    return state
