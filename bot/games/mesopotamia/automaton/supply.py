"""What the Automaton's planned actions cost, and what it takes from the supply (R-auto-supply).

« L'Automate pioche le nombre de cartes Action spécifié et tente de réaliser les actions, si
elles sont possibles. » An action is possible when the board allows it (a place, a piece, a
technology card, a case on the track); the resources it lacks to pay for the parts its cards
plan it takes from the supply when its turn begins (:func:`take`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.actions import next_card
from bot.games.mesopotamia.automaton.cards import SUPPLIED
from bot.games.mesopotamia.construction import COST
from bot.games.mesopotamia.state import MesopotamiaState, can_advance, unit_limit, units_of

GARDEN_COST: dict[str, dict[str, int]] = {t["id"]: t["cost"] for t in D.GARDEN_TILE_DATA}
STRUCTURE = {"storey": "ziggurat_storey", "colony": "colony", "ram": "ram",
             "rampart": "rampart", "garden": "hanging_gardens_storey"}
"""A build goal (``strategy.json``) -> the structure a technology card lets build."""


def built(state: MesopotamiaState, seat: Seat) -> dict[str, int]:
    """How far the Automaton is with each kind of build goal (R-auto-goals)."""
    player = state["players"][seat]
    return {"storey": int(player["ziggurat"]), "colony": len(player["colonies"]),
            "ram": len(units_of(state, seat, "ram")), "rampart": len(player["ramparts"]),
            "garden": len(player.get("gardens") or [])}


def goal_cost(state: MesopotamiaState, seat: Seat, plan: dict[str, Any],
              can: list[str] | None = None) -> dict[str, int]:
    """The cost of the first goal of ``plan`` not reached (among the structures ``can`` lists,
    when given; nothing when all are reached)."""
    have = built(state, seat)
    for structure, target in plan.get("build", []):
        if have[structure] >= int(target) or (can is not None
                                               and STRUCTURE[structure] not in can):
            continue
        if structure == "garden":
            count = sum(len(p.get("gardens") or []) for p in state["players"])
            if count >= len(state["gardens"]):
                continue
            return dict(GARDEN_COST[state["gardens"][count][0]])
        return dict(COST[STRUCTURE[structure]])
    return {}


def cost(state: MesopotamiaState, seat: Seat, action: str, plan: dict[str, Any]) -> Counter[str]:
    """What one activation of ``action`` costs the Automaton for the parts ``plan`` wants:
    each build of its card (the first goal not reached its card can build), the Tablets of the
    discoveries its Research card allows (as many as are left), the Food of its Growth, the
    Wood of each unit it may create."""
    player = state["players"][seat]
    effect = D.CARD_EFFECT[player["tech"][action]]
    out: Counter[str] = Counter()
    if action == "construction":
        for kind, count in goal_cost(state, seat, plan, effect["can_build"]).items():
            out[kind] += count * int(effect["builds"])
    elif action == "research":
        left = sum(next_card(state, seat, a) is not None for a in D.ACTIONS)
        out["tablet"] += D.DISCOVERY_TABLETS * min(left, int(effect["discoveries"]))
    elif action == "growth" and can_advance(state, "population", seat):
        out["food"] += int(effect["food"])
    elif action == "war":
        room = unit_limit(state, seat) - len(units_of(state, seat))
        out["wood"] += D.UNIT_WOOD * max(0, min(int(effect["units"]), room))
    return out


def take(state: MesopotamiaState, seat: Seat,
         planned: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """Give the Automaton what it lacks for its ``planned`` actions (action, plan) of the
    kinds it is supplied for (``SUPPLIED``) from the supply; returns what it took
    (R-auto-supply)."""
    want: Counter[str] = Counter()
    for action, plan in planned:
        if action in SUPPLIED:
            want += cost(state, seat, action, plan)
    res = state["players"][seat]["res"]
    taken = {k: v - res[k] for k, v in sorted(want.items()) if v > res[k]}
    for kind, count in taken.items():
        res[kind] += count
    return taken
