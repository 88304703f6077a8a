"""The six actions, once activated: their parts as small steps.

An activated action is ``state["t"]["act"]``: the action, the card that was activated and what
is left of it (so an upgrade during the action changes nothing of it, R-discovery-allowance).
Its parts are steps of the same seat; ``stop`` ends the action, which also ends by itself once
nothing of it can be done:

- Research: ``convert`` (2 Clay into the card's Tablets, once: R-conversion-once) and
  ``discover <action>`` (1 Tablet: that action's card becomes the next level's card);
- Harvest and Trade: ``harvest <region> <resource>``, each from a different source
  (R-harvest-counts, R-harvest-sources), and ``trade <token>``
  (:mod:`bot.games.mesopotamia.trade`);
- War: ``phalanx`` (the card's Phalanxes) and ``create <unit> <region>`` (1 Wood);
- Growth: ``grow`` (the card's Food, then one Population step, two for Brassage);
- Exploration: :mod:`bot.games.mesopotamia.exploration` (land units and ships);
- Construction: :mod:`bot.games.mesopotamia.construction` (Ramparts, storeys, Colonies,
  ships).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import construction, exploration, trade
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import (
    MesopotamiaState,
    action_under_way,
    advance_seal,
    can_advance,
    unit_limit,
    units_of,
)

VERBS = frozenset({"convert", "discover", "harvest", "phalanx", "create", "grow",
                   "stop"}) | exploration.VERBS | construction.VERBS | trade.VERBS


def activate(state: MesopotamiaState, seat: Seat, action: str) -> dict[str, Any]:
    """The record of ``action`` just activated by ``seat``, with its card's allowances."""
    card = state["players"][seat]["tech"][action]
    effect = D.CARD_EFFECT[card]
    act: dict[str, Any] = {"action": action, "card": card}
    if action == "exploration":
        act.update(activations=int(effect["activations"]), unit=None, moves=0, moved=False)
    elif action == "construction":
        act.update(builds=int(effect["builds"]))
    elif action == "research":
        act.update(convert=int(effect["conversions"]), discoveries=int(effect["discoveries"]))
    elif action == "harvest_trade":
        act.update(harvests=int(effect["harvests"]), sources=[], trades=int(effect["trades"]),
                   traded=[])
    elif action == "war":
        act.update(phalanx=1, units=int(effect["units"]))
    else:
        act.update(grow=1)
    return act


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The parts of the action under way that ``seat`` may play now, and ``stop``."""
    act = action_under_way(state)
    player = state["players"][seat]
    res = player["res"]
    effect = D.CARD_EFFECT[act["card"]]
    out: list[str] = []
    action = act["action"]
    if action == "exploration" and act["unit"] is not None:
        return exploration.legal(state, seat, act)     # a unit on the move: move or halt
    if action == "exploration":
        out += exploration.legal(state, seat, act)
    elif action == "construction":
        out += construction.legal(state, seat, act)
    elif action == "research":
        if act["convert"] and res["clay"] >= effect["convert"]["clay"]:
            out.append("convert")
        if act["discoveries"] and res["tablet"] >= D.DISCOVERY_TABLETS:
            out += [f"discover {a}" for a in D.ACTIONS if next_card(state, seat, a)]
    elif action == "harvest_trade":
        if act["harvests"]:
            out += [f"harvest {r} {k}"
                    for r, (kinds, count) in harvest_sources(state, seat).items()
                    if act["sources"].count(r) < count for k in kinds]
        out += trade.legal(state, seat, act)
    elif action == "war":
        if act["phalanx"]:
            out.append("phalanx")
        if act["units"] and res["wood"] >= D.UNIT_WOOD and \
                len(units_of(state, seat)) < unit_limit(state, seat):
            out += [f"create {kind} {r}" for kind in effect["unit_types"]
                    if len(units_of(state, seat, kind)) < D.FIGURES[kind]
                    for r in unit_regions(state, seat)]
    elif act["grow"] and res["food"] >= effect["food"] and \
            can_advance(state, "population", seat):
        out.append("grow")
    return [*out, "stop"]


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Play the part ``notation``; the action ends after ``stop`` or when nothing is left."""
    act = action_under_way(state)
    verb, *args = notation.split()
    res = state["players"][seat]["res"]
    effect = D.CARD_EFFECT[act["card"]]
    if verb == "stop":
        known(state["t"])["act"] = None
        return
    if verb in exploration.VERBS:
        exploration.apply(state, seat, act, verb, args)
    elif verb in construction.VERBS:
        construction.apply(state, seat, act, args)
    elif verb in trade.VERBS:
        trade.apply(state, seat, act, args[0])
    elif verb == "convert":
        res["clay"] -= effect["convert"]["clay"]
        res["tablet"] += effect["convert"]["tablet"]
        act["convert"] -= 1
    elif verb == "discover":
        _discover(state, seat, args[0])
        act["discoveries"] -= 1
    elif verb == "harvest":
        res[args[1]] += 1
        act["sources"].append(args[0])
        act["harvests"] -= 1
    elif verb == "phalanx":
        res["phalanx"] += int(effect["phalanxes"])
        act["phalanx"] = 0
    elif verb == "create":
        res["wood"] -= D.UNIT_WOOD
        state["units"].append([seat, args[0], args[1]])
        exploration.entered(state, seat, args[1])
        act["units"] -= 1
    else:
        res["food"] -= int(effect["food"])
        for _ in range(int(effect["population"])):
            advance_seal(state, "population", seat)
        act["grow"] = 0
    if legal(state, seat) == ["stop"]:
        known(state["t"])["act"] = None


def next_card(state: MesopotamiaState, seat: Seat, action: str) -> str | None:
    """The civilization card of ``seat`` one level above its ``action`` card, or None."""
    player = state["players"][seat]
    level = D.TECH_CARD[D.CIV_TECH[player["tech"][action]]][1]
    tech = D.TECH_AT.get((action, level + 1))
    return next((c for c in player["civ"] if D.CIV_TECH[c] == tech), None)


def _discover(state: MesopotamiaState, seat: Seat, action: str) -> None:
    """« la retirer de son emplacement ; la remplacer par le niveau suivant du même type de
    Technologie ; dépenser 1 Tablette à chaque amélioration de Technologie. »"""
    player = state["players"][seat]
    card = known(next_card(state, seat, action))
    player["civ"].remove(card)
    player["tech"][action] = card
    player["res"]["tablet"] -= D.DISCOVERY_TABLETS


REGION_ORDER: dict[str, int] = {r: i for i, r in enumerate(D.REGIONS)}
"""Region -> its place in map order."""


def harvest_sources(state: MesopotamiaState, seat: Seat) -> dict[str, tuple[list[str], int]]:
    """Place -> (the resources ``seat`` may harvest there, how many of its sources stand
    there). « Les Régions de départ, Colonies, Unités ou Navires ne peuvent être sélectionnés
    qu'une fois par action Récolte » and « Si plusieurs Unités occupent une même région,
    chacune d'entre elles peut récolter la ressource qui s'y trouve une fois. »: the start
    region (any of the four resources, once), in a region with a resource symbol its Colony
    and each of its land units, and on a river section each of its ships (« Un Navire peut
    récolter une ressource dans l'une des régions adjacentes à la section fluviale où il se
    trouve. »); never in a blocker region (« Aucune action n'est possible dans les régions
    contenant un Bloqueur »)."""
    player = state["players"][seat]
    sources: dict[str, tuple[list[str], int]] = {
        known(player["start"]): (list(D.BASE_RESOURCES), 1)}
    held = Counter([*player["colonies"],
                    *(u[2] for u in units_of(state, seat) if u[1] in D.LAND)])
    for rid in sorted(held, key=REGION_ORDER.__getitem__):
        resource = D.REGIONS[rid].resource
        if resource and rid not in state["blockers"]:
            sources[rid] = ([resource], held[rid])
    ships = [u[2] for u in units_of(state, seat, "ship")]
    for section in dict.fromkeys(ships):
        kinds = [D.REGIONS[b].resource for b in D.SECTIONS[section].banks
                 if b not in state["blockers"]]
        found = list(dict.fromkeys(k for k in kinds if k))
        if found:
            sources[section] = (found, ships.count(section))
    return sources


def unit_regions(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Where War places a unit: the start region or a region holding the seat's Colony, not a
    blocker region (R-unit-create)."""
    player = state["players"][seat]
    regions = [known(player["start"]), *player["colonies"]]
    return [r for r in dict.fromkeys(regions) if r not in state["blockers"]]
