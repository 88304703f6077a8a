"""The Trade half of the Harvest and Trade action: ``trade <token>``.

« Sélectionner l'action Échange permet d'interagir avec l'un des jetons Échange disponibles. »
A token may be used when « vous devez utiliser une Technologie dont le niveau est supérieur ou
égal à celui de la section Échange où se trouve le jeton » and, on a slot marked with a ship,
when the seat has a ship.
Unclaimed or claimed by the seat itself: the seat puts an Amphora on it (while it has one
left, R-amphora-out), pays the left side to the supply and gains the right side. Claimed by
another: the seat pays the left side to the Amphora's owner and gains the right side. The
token's Victory Points go to the Amphora's owner at the end of the game (the scoring slice).
Each trade of one action uses a different token (R-trade-distinct, R-trade-pay).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import siege
from bot.games.mesopotamia.state import MesopotamiaState

VERBS = frozenset({"trade"})
TOKENS: dict[str, dict[str, Any]] = {t["id"]: t for t in D.TRADE_TOKEN_DATA}


def legal(state: MesopotamiaState, seat: Seat, act: dict[str, Any]) -> list[str]:
    """The tokens ``seat`` may use now with the card of ``act``."""
    if not act["trades"]:
        return []
    level = int(D.CARD_EFFECT[act["card"]]["trade_level"])
    res = state["players"][seat]["res"]
    ships = any(u[0] == seat and u[1] == "ship" for u in state["units"])
    walled = siege.blocked_slots(state)
    return [f"trade {token}" for slot, token in state["trade"].items()
            if D.SLOT_LEVEL[slot] <= level and slot not in walled
            and (ships or slot not in D.SHIP_SLOTS)
            and token not in act["traded"]
            and all(res[k] >= v for k, v in TOKENS[token]["pay"].items())]


def apply(state: MesopotamiaState, seat: Seat, act: dict[str, Any], token_id: str) -> None:
    """Use the token ``token_id``; its Amphora is kept by slot (``state["amphorae"]``)."""
    slot = next(s for s, t in state["trade"].items() if t == token_id)
    token = TOKENS[token_id]
    amphorae = state["amphorae"]
    owner = amphorae.get(slot)
    if owner is None and sum(1 for s in amphorae.values() if s == seat) < D.PIECES["amphora"]:
        amphorae[slot] = owner = seat
    res = state["players"][seat]["res"]
    for kind, count in token["pay"].items():
        res[kind] -= count
        if owner is not None and owner != seat:
            state["players"][owner]["res"][kind] += count
    for kind, count in token["gain"].items():
        res[kind] += count
    act["traded"].append(token_id)
    act["trades"] -= 1
