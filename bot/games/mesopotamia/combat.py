"""Building blocks of the combat phase (driven as steps by :mod:`bot.games.mesopotamia.battles`).

« Après la Phase d'action survient la Phase de combat. Les joueurs s'intéressent alors aux
sections fluviales et régions contenant des Unités d'autres Empires. » This module holds the
parts every combat shares, as pure functions over the state:

- :func:`clashing_ships`: « Si, suite à un déplacement, 2 Navires d'Empires différents occupent
  la même section fluviale à la fin d'une Manche, les deux sont automatiquement détruits en
  début de Phase de combat. »;
- :func:`order_chooser`: « Le joueur le plus avancé sur la piste Événement décide de l'ordre
  dans lequel tous les combats sont résolus. »;
- :func:`tie_winner`: « c'est l'Empire le plus avancé sur la piste qui est considéré comme
  vainqueur » … « Les Tribus neutres perdent toujours les égalités. »;
- :func:`tribe_controller` and :func:`tribe_phalanxes` (R-tribe-controller, R-tribe-die);
- the rulebook's « Mode de combat simplifié » (:func:`simplified_value`,
  :func:`resolve_simplified`), a variant with one sealed bid per side and no combat cards.

The standard combat (three compartments, combat cards, lines) is
:mod:`bot.games.mesopotamia.standard`; the steps (the order of combats, sealed bids, the
colonies after the combats) are :mod:`bot.games.mesopotamia.battles`.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState, seal_order

UNIT_VALUE: dict[str, int] = {k: int(v) for k, v in
                              D.COMBAT_DATA["rules"]["simplified_variant_values"].items()
                              if not k.startswith("_")}
"""« 1 pour chaque Lancier ; 2 pour chaque Archer ; 3 pour chaque Cavalier ; 4 pour chaque
Char. »"""
TRIBE = "tribe"
"""The side of a neutral tribe in a combat."""
Side = int | str


def clashing_ships(state: MesopotamiaState) -> list[str]:
    """The river sections holding ships of two empires or more (map order)."""
    out: list[str] = []
    for section in D.SECTIONS:
        owners = {int(u[0]) for u in state["units"] if u[1] == "ship" and u[2] == section}
        if len(owners) > 1:
            out.append(section)
    return out


def destroy_clashing_ships(state: MesopotamiaState) -> list[str]:
    """Remove the ships of :func:`clashing_ships`; the sections where it happened."""
    sections = clashing_ships(state)
    state["units"] = [u for u in state["units"] if not (u[1] == "ship" and u[2] in sections)]
    return sections


def order_chooser(state: MesopotamiaState) -> Seat:
    """The seat that orders the combats: the first on the Event track (a pile's top first)."""
    return seal_order(state, "event")[0]


def tie_winner(state: MesopotamiaState, a: Side, b: Side) -> Side:
    """The winner of a tie between ``a`` and ``b``: a neutral tribe always loses it, else the
    seat ahead on the Event track when the combat is resolved."""
    if a == TRIBE:
        return b
    if b == TRIBE:
        return a
    order = seal_order(state, "event")
    return a if order.index(int(a)) < order.index(int(b)) else b


def tribe_controller(state: MesopotamiaState, attacker: Seat) -> Seat:
    """« Si vous n'êtes pas dernier de la piste Événement, c'est le joueur derrière vous qui la
    contrôle. Si vous êtes dernier, c'est le joueur devant. » (R-tribe-controller)."""
    order = seal_order(state, "event")
    i = order.index(attacker)
    return order[i + 1] if i + 1 < len(order) else order[i - 1]


def tribe_phalanxes(die: int, figures: int) -> int:
    """« lancez un dé Événement ; ajoutez 2 pour chaque Unité que la Tribu neutre possède
    actuellement. » — a tribe always bids all of them."""
    return die + 2 * figures


def fighters(state: MesopotamiaState, region: str) -> dict[Side, list[str]]:
    """The land units of each side in ``region``: seats, and the tribe if it has figures."""
    sides: dict[Side, list[str]] = {}
    for seat, kind, at in state["units"]:
        if at == region and kind in UNIT_VALUE:
            sides.setdefault(int(seat), []).append(str(kind))
    tribe = state["tribes"].get(region) or {}
    kinds = [k for k, n in tribe.items() for _ in range(int(n))]
    if kinds:
        sides[TRIBE] = kinds
    return sides


def simplified_value(kinds: list[str], bid: int) -> int:
    """« Votre valeur de combat totale sera égale à la somme des Phalanges mises, plus » the
    value of each unit."""
    return bid + sum(UNIT_VALUE[k] for k in kinds)


def simplified_winner(state: MesopotamiaState, region: str, bids: dict[Side, int],
                      pair: tuple[Side, Side] | None = None) -> tuple[Side, Side, dict[Side, int]]:
    """The winner, the loser and both values of the simplified combat of ``pair`` (by default
    the two sides in ``region``) with their revealed ``bids`` (ties: :func:`tie_winner`)."""
    sides = fighters(state, region)
    a, b = pair or sorted(sides, key=str)
    value = {s: simplified_value(sides[s], bids.get(s, 0)) for s in (a, b)}
    winner: Side = tie_winner(state, a, b)
    if value[a] != value[b]:
        winner = a if value[a] > value[b] else b
    return winner, (b if winner == a else a), value


def resolve_simplified(state: MesopotamiaState, region: str, bids: dict[Side, int],
                       sacrifice: str | None = None,
                       pair: tuple[Side, Side] | None = None) -> dict[str, Any]:
    """Resolve the simplified combat of ``pair`` (by default the two sides in ``region``) with
    their revealed ``bids`` (a seat's bid is taken from its phalanxes; a tribe's is
    :func:`tribe_phalanxes`).

    « Le joueur remportant le combat perd toutes les Phalanges mises, et doit détruire l'une de
    ses Unités impliquées dans le combat, sauf s'il s'agit de sa dernière. Le joueur perdant le
    combat récupère la moitié des Phalanges mises, arrondie à la baisse, et retire toutes ses
    Unités impliquées dans le combat. » The winner destroys a unit of kind ``sacrifice`` (its
    choice), by default its weakest. Returns the winner, the loser and both values."""
    kinds = fighters(state, region)
    winner, loser, value = simplified_winner(state, region, bids, pair)
    for side in (winner, loser):
        if side != TRIBE:
            bid = bids.get(side, 0)
            refund = bid // 2 if side == loser else 0
            state["players"][int(side)]["res"]["phalanx"] -= bid - refund
    remove_side(state, region, loser)
    if len(kinds[winner]) > 1:
        kind = sacrifice or min(kinds[winner], key=lambda k: UNIT_VALUE[k])
        remove_one(state, region, winner, kind)
    return {"winner": winner, "loser": loser, "values": value}


def remove_side(state: MesopotamiaState, region: str, side: Side) -> None:
    """Take every land unit (or tribe figure) of ``side`` out of ``region``."""
    if side == TRIBE:
        state["tribes"][region] = {}
        return
    state["units"] = [u for u in state["units"]
                      if not (u[0] == side and u[2] == region and u[1] in UNIT_VALUE)]


def remove_one(state: MesopotamiaState, region: str, side: Side, kind: str) -> None:
    if side == TRIBE:
        tribe = state["tribes"][region]
        tribe[kind] -= 1
        if not tribe[kind]:
            del tribe[kind]
        return
    at = next(i for i, u in enumerate(state["units"])
              if u[0] == side and u[2] == region and u[1] == kind)
    del state["units"][at]
