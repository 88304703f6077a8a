"""The Exploration action for land units: activations, moves and blocking.

« Chaque Unité activée peut se déplacer un nombre de fois égal à sa Vitesse. » An activation
(R-activation) is ``activate <unit> <region>`` (one of the seat's units of that kind there),
then ``move <region>`` to an adjacent region up to its speed, or ``halt``. A ship moves the
same way from river section to river section (``activate ship <section>``, ``move
<section>``: « On considère qu'un Navire s'est déplacé lorsqu'il passe d'une section fluviale à
une autre en traversant un embranchement »); ships never block nor are blocked (« les Navires
ne se bloquent pas », R-ship-moves) and never reveal an event. A ship may sail through, never
end its move on, a section holding another of its empire's ships (« Un joueur ne peut pas
placer de second Navire sur une section fluviale comptant déjà un Navire lui appartenant. »,
R-ship-stack): no ``halt`` there, no ``move`` there unless it can go on to another section.
The last land unit to enter each region this round is recorded (:func:`entered`,
R-attacker).

A ram is never activated; a land unit activated in a region holding its empire's ram may take
one along, ``activate <unit> <region> ram`` (R-ram-bind): « Le Bélier se déplace
automatiquement avec l'Unité avec laquelle il est lié. » It moves with each of the unit's moves
and stays where the unit stops, or where the unit leaves it on the way, ``drop``.

- « Vous ne pouvez ni attaquer ni traverser la Région de départ d'un autre Empire. », and a
  region holding a ziggurat token is closed the same way (the map's reading of
  [Q-ziggurat-tokens]);
- « aucune Unité ennemie ne pourra entrer dans cette région à moins d'être accompagnée d'un
  Bélier »: a region holding another empire's Rampart is closed to a unit, unless it carries
  a ram, one of its empire's rams stands there, or one entered it this round
  (``state["breaches"]``: ``[seat, region, round]``; R-ram-enter); ships never meet ramparts;
- « Si une Unité entre dans une région comptant une Unité ennemie, elle doit s'arrêter
  immédiatement. Les défenseurs dans la région sont eux aussi bloqués. » « Exception : Si le
  nombre d'Unités alliées déjà présentes dans la région est supérieur ou égal au nombre
  d'Unités ennemies tous Empires confondus, l'Unité qui y entre n'est pas bloquée » (R-leave);
- « Si une Unité termine son déplacement dans une région avec un Événement non découvert,
  celui-ci est alors révélé et résolu. »: the region is recorded in
  ``state["pending_events"]`` and revealed by the same step (``events.reveal``), never in a
  blocker region nor where a tribe still stands (R-tribe-crossing).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState, defenders

VERBS = frozenset({"activate", "move", "halt", "drop"})


def _speed(kind: str) -> int:
    """How many moves a unit of ``kind`` makes (a ram has no speed of its own)."""
    return D.SPEEDS[kind] or 0


def _land(state: MesopotamiaState, region: str, seat: Seat, own: bool) -> int:
    """How many land units of ``seat`` (``own``) or of its enemies stand in ``region``."""
    return sum(1 for s, kind, at in state["units"]
               if at == region and kind in D.LAND and (s == seat) == own)


def closed(state: MesopotamiaState, seat: Seat, region: str) -> bool:
    """True when ``seat``'s units may not enter ``region``: a ziggurat token's, or another
    empire's start region, but the besieged Ur of the Siege (R-siege-victory)."""
    start = D.REGIONS[region].start is not None
    defender = defenders(state)
    besieged = None if defender is None else state["players"][defender]["start"]
    return region in state["ziggurats"] or (
        start and region not in (state["players"][seat]["start"], besieged))


def can_leave(state: MesopotamiaState, seat: Seat, region: str) -> bool:
    """R-leave: a unit leaves a region holding enemy units only while its side there
    outnumbers them (the enemies block as many of its units as they are)."""
    enemies = _land(state, region, seat, own=False)
    return enemies == 0 or _land(state, region, seat, own=True) > enemies


def walled(state: MesopotamiaState, seat: Seat, region: str) -> bool:
    """True when another empire's Rampart closes ``region`` to ``seat``'s units that carry no
    ram: no ram of ``seat`` stands there nor entered it this round (R-ram-enter)."""
    if not any(region in p["ramparts"] for s, p in enumerate(state["players"]) if s != seat):
        return False
    return [seat, "ram", region] not in state["units"] and \
        [seat, region, state.get("round", 0)] not in state.get("breaches", [])


def moves_from(state: MesopotamiaState, seat: Seat, region: str, ram: bool = False) -> list[str]:
    """The regions a unit of ``seat`` in ``region`` may move to now (``ram``: it carries a
    ram)."""
    if not can_leave(state, seat, region):
        return []
    return [r for r in D.REGIONS[region].neighbours
            if not closed(state, seat, r) and (ram or not walled(state, seat, r))]


def _moves(state: MesopotamiaState, seat: Seat, kind: str, at: str, left: int,
           ram: bool = False) -> list[str]:
    """Where a unit of ``kind`` at ``at`` with ``left`` moves (carrying a ram, ``ram``) may move
    now."""
    if kind != "ship":
        return moves_from(state, seat, at, ram)
    docked = [u[2] for u in state["units"] if u[0] == seat and u[1] == "ship"]
    docked.remove(at)                   # the ship on the move
    return [s for s in D.SECTION_NEXT[at] if _may_end(s, left - 1, docked)]


def _may_end(section: str, left: int, docked: list[str]) -> bool:
    """R-ship-stack: True when a ship entering ``section`` with ``left`` moves after it can end
    its move on a section holding none of its empire's other ships (``docked``); it may sail
    through such a section."""
    return section not in docked or (left > 0 and any(
        _may_end(s, left - 1, docked) for s in D.SECTION_NEXT[section]))


def _may_halt(state: MesopotamiaState, seat: Seat, kind: str, at: str) -> bool:
    """False for a ship on a section holding another of its empire's ships (R-ship-stack)."""
    return kind != "ship" or state["units"].count([seat, "ship", at]) < 2


def legal(state: MesopotamiaState, seat: Seat, act: dict[str, Any]) -> list[str]:
    """The next steps of an Exploration under way (``stop`` is added by the caller)."""
    if act["unit"] is not None:
        _, kind, at = state["units"][act["unit"]]
        ram = bool(act.get("ram"))      # an activation begun before rams were written has none
        return [*(f"move {r}" for r in _moves(state, seat, kind, at, act["moves"], ram)),
                *(["halt"] if _may_halt(state, seat, kind, at) else []),
                *(["drop"] if ram and act["moved"] else [])]
    if not act["activations"]:
        return []
    pairs = dict.fromkeys((kind, at) for s, kind, at in state["units"]
                          if s == seat and (kind in D.LAND or kind == "ship"))
    out = [f"activate {kind} {at}" for kind, at in pairs
           if _moves(state, seat, kind, at, _speed(kind))]
    return out + [f"activate {kind} {at} ram" for kind, at in pairs
                  if kind in D.LAND and [seat, "ram", at] in state["units"]
                  and _moves(state, seat, kind, at, _speed(kind), ram=True)]


def apply(state: MesopotamiaState, seat: Seat, act: dict[str, Any], verb: str,
          args: list[str]) -> None:
    """Play ``activate``, ``move``, ``halt`` or ``drop``."""
    if verb == "activate":
        kind, at, *ram = args
        act["unit"] = next(i for i, (s, k, r) in enumerate(state["units"])
                           if s == seat and k == kind and r == at)
        act["moves"] = _speed(kind)
        act["moved"] = False
        act["ram"] = bool(ram)
        act["activations"] -= 1
        return
    if verb == "drop":
        act["ram"] = False
        return
    unit = state["units"][act["unit"]]
    if verb == "move":
        ship = unit[1] == "ship"
        allies = 0 if ship else _land(state, args[0], seat, own=True)
        enemies = 0 if ship else _land(state, args[0], seat, own=False)
        if act.get("ram"):
            _carry(state, seat, unit[2], args[0])
        unit[2] = args[0]
        if not ship:
            entered(state, seat, args[0])
        act["moved"] = True
        act["moves"] -= 1
        if enemies > allies:
            act["moves"] = 0
        if act["moves"] and _moves(state, seat, unit[1], unit[2], act["moves"],
                                   bool(act.get("ram"))):
            return
    if act["moved"] and unit[1] != "ship":
        _stopped(state, seat, unit[2])
    act["unit"] = None


def _carry(state: MesopotamiaState, seat: Seat, start: str, region: str) -> None:
    """A ram of ``seat`` goes from ``start`` to ``region`` with its unit; entering a region
    walled against ``seat`` opens it to ``seat``'s units for the round (R-ram-enter)."""
    breach = walled(state, seat, region)
    next(u for u in state["units"] if u == [seat, "ram", start])[2] = region
    if breach:
        now = state.get("round", 0)
        state["breaches"] = [b for b in state.get("breaches", []) if b[2] == now]
        state["breaches"].append([seat, region, now])


def entered(state: MesopotamiaState, seat: Seat, region: str) -> None:
    """Record that a land unit of ``seat`` entered ``region`` (``state["entered"]``, this
    round's last arrival per region: the attacker of Q-rout (a), R-attacker)."""
    state.setdefault("entered", {})[region] = seat


def _stopped(state: MesopotamiaState, seat: Seat, region: str) -> None:
    """A unit ended its move in ``region``: a face-down event there is recorded for its
    reveal, unless a blocker or a tribe stands there."""
    site = state["sites"].get(region)
    if site is None or site[1] or region in state["blockers"] or state["tribes"].get(region):
        return
    if [seat, region] not in state["pending_events"]:
        state["pending_events"].append([seat, region])
