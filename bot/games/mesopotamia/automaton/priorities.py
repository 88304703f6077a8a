"""A Strategy card's priority: its condition read on the board (R-auto-conditions).

« Chaque carte Stratégie a une condition de Priorité : si la condition est remplie, on suit la
Priorité haute de la carte ; si elle n'est pas remplie, on suit la Priorité basse. » « Triez les
trois cartes de la Priorité la plus haute (valeur faible) à la plus basse (valeur élevée). »
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton.cards import STRATEGIES, number
from bot.games.mesopotamia.state import MesopotamiaState, seal_order, tech_level, units_of
from bot.games.mesopotamia.trade import TOKENS


def holds(state: MesopotamiaState, seat: Seat, condition: dict[str, Any]) -> bool:
    """True when ``condition`` (a Strategy card's, ``strategy.json``) holds for ``seat``."""
    test = condition["test"]
    player = state["players"][seat]
    if test == "lacks_tech":
        action, level = D.TECH_CARD[condition["tech"]]
        return tech_level(state, seat, action) < level
    if test == "fewer":
        return _count(state, seat, condition["what"]) < int(condition["than"])
    if test == "opponent_occupies":
        return any(u[0] != seat and u[1] in D.LAND and u[2] in _occupied_marks(state)
                   for u in state["units"])
    if test == "enemy_near":
        home = {r for r in (player["start"], *player["colonies"]) if r is not None}
        near = home | {n for r in home for n in D.REGIONS[r].neighbours}
        return any(u[0] != seat and u[1] in D.LAND and u[2] in near for u in state["units"])
    if test == "behind":
        order = seal_order(state, condition["track"])
        return order.index(seat) > 0
    if test == "free_vp_token":
        claimed = state.get("amphorae") or {}
        return any(int(TOKENS[t]["vp"]) > 0 and s not in claimed
                   for s, t in state["trade"].items())
    raise ValueError(f"unknown condition {test!r}")


def _count(state: MesopotamiaState, seat: Seat, what: str) -> int:
    player = state["players"][seat]
    if what == "colonies":
        return len(player["colonies"])
    if what == "storeys":
        return int(player["ziggurat"])
    if what == "units":
        return len(units_of(state, seat))
    return int(player["res"][what])


def _occupied_marks(state: MesopotamiaState) -> set[str]:
    """Regions holding a Colony or an event (a token face down or up, a running event)."""
    colonies = {r for p in state["players"] for r in p["colonies"]}
    events = set(state["sites"]) | set(state.get("vp_tokens") or {}) | \
        {e["region"] for e in state.get("running") or []}
    return colonies | events


def priority(state: MesopotamiaState, seat: Seat, card: str) -> tuple[int, bool]:
    """``card``'s priority for ``seat`` now, and whether its condition holds."""
    strategy = STRATEGIES[card]
    true = holds(state, seat, strategy.condition)
    return (strategy.high if true else strategy.low), true


def ranked(values: dict[str, int]) -> list[str]:
    """Cards from the highest priority (lowest value) to the lowest; equal values by card
    number (R-auto-priority-tie)."""
    return sorted(values, key=lambda c: (values[c], number(c)))
