"""« MODE SIÈGE D'UR »: one player against the Defenders of Ur, a seat that is no player.

The Defenders' box is ``state["siege"]`` (:func:`enlist`): ``seat``, ``ladder`` (the units still
beside the Population track, by kind), ``last`` (their last turn: the two Action cards and what
each did, for the channel and the board) and ``result`` (``won`` or ``lost`` once the game is
over). The places are designed on our map (``data/mesopotamia/siege.json``, R-siege-map).

- Setup (:func:`place_starts`, :func:`set_up_defenders`): your empire in the start region of the
  data (R-siege-start), theirs not set up by its rules: the completed Ziggurat in Ur, seals on
  the first box of both tracks (yours always on top, R-siege-seals), the Ramparts, Colonies,
  Ships and units of the map.
- Their turn is two steps: ``defend`` reveals 2 Action cards and does each one's effect
  (:func:`defend`), then ``end``; an event they explore waits for its option in between.
- The end (:func:`check_end`): you win as soon as a Ram of yours stands in Ur with no Defender
  in it (R-siege-victory); you lose as soon as their seal reaches the last box of the Event or
  Population track (R-siege-defeat).
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from bot.chance import Draw
from bot.engine import Seat
from bot.games import content
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.exploration import closed
from bot.games.mesopotamia.state import (
    MesopotamiaState,
    Player,
    advance_seal,
    defenders,
    seal_case,
    units_of,
)

DATA: dict[str, Any] = content.load("mesopotamia", "siege")
UR: str = DATA["ur"]
START: str = DATA["start"]
ACTIONS: tuple[str, ...] = tuple(DATA["actions"])
LADDER: dict[str, int] = {kind: int(box) for kind, box, _ in DATA["ladder"]}
"""Unit -> the Population box it stands beside."""
QUESTS_DEALT = int(DATA["quests_dealt"])
QUESTS_KEPT = QUESTS_DEALT - 1
XY: dict[str, tuple[float, float]] = {r["id"]: (float(r["x"]), float(r["y"]))
                                      for r in D.MAP["regions"]}


def box(state: MesopotamiaState) -> dict[str, Any] | None:
    """The Defenders' box, or None outside the Siege."""
    return state.get("siege")


def defends(state: MesopotamiaState, seat: Seat) -> bool:
    """True when ``seat`` is the Defenders of Ur."""
    return seat == defenders(state)


def you(state: MesopotamiaState) -> Seat:
    """The player's seat in the Siege."""
    return 1 - int(box_of(state)["seat"])


def box_of(state: MesopotamiaState) -> dict[str, Any]:
    """The Defenders' box, where the rules know it is a Siege."""
    own = box(state)
    assert own is not None
    return own


def enlist(state: MesopotamiaState) -> None:
    """Make the last seat the Defenders: roles A (you) and B (them), then your empire's
    choice."""
    if state["n"] != 2:
        raise ValueError("the Siege of Ur is one player and the Defenders")
    state["siege"] = {"seat": 1, "ladder": {kind: int(n) for kind, _, n in DATA["ladder"]},
                      "last": None, "result": None}
    for seat, role in enumerate(D.ROLES[:2]):
        state["players"][seat]["role"] = role
    state["phase"], state["current"] = "empires", 0


def place_starts(state: MesopotamiaState) -> None:
    """« Commencez la partie dans la région » (R-siege-start); the Defenders take the first
    empire nobody chose, for its colour only (« ses règles de mise en place sont ignorées »)."""
    human, them = state["players"][you(state)], state["players"][box_of(state)["seat"]]
    human["start"] = START
    them["empire"] = next(e for e in D.EMPIRES if e != human["empire"])
    them["start"] = UR


def set_up_defenders(state: MesopotamiaState, seat: Seat, player: Player) -> None:
    """« Mise en place de la cité d'Ur »: the completed Ziggurat, the Ramparts, Colonies, Ships
    and units of the map (R-siege-map), where no neutral tribe stays (Ur's own lands); their
    empire's technologies for the rules that read them, no resources, no dice."""
    empire = D.EMPIRES[str(player["empire"])]
    levels = dict(empire.technologies)
    board = {D.TECH_CARD[tech][0]: card for card, tech in empire.card_tech
             if D.TECH_CARD[tech][1] == levels[D.TECH_CARD[tech][0]]}
    player["tech"] = {a: board[a] for a in D.ACTIONS}
    player["ziggurat"] = D.PIECES["ziggurat_storeys"]
    player["ramparts"] = list(DATA["ramparts"])
    player["colonies"] = list(DATA["colonies"])
    state["units"] += [[seat, "ship", s] for s in DATA["ships"]]
    state["units"] += [[seat, kind, region] for kind, region in DATA["units"]]
    for region in {*player["ramparts"], *player["colonies"], *(r for _, r in DATA["units"])}:
        state["tribes"].pop(region, None)


# -- the Defenders' turn -----------------------------------------------------------------


def defend(state: MesopotamiaState, seat: Seat) -> None:
    """« révélez deux cartes Action du paquet Action et réalisez les actions correspondantes.
    Remettez ensuite les cartes dans le paquet Action et mélangez. »"""
    cards = list(ACTIONS)
    Draw(state).shuffle(cards)
    shown = cards[: int(DATA["revealed"])]
    box_of(state)["last"] = {"cards": shown, "did": [play_card(state, seat, c) for c in shown]}


def play_card(state: MesopotamiaState, seat: Seat, card: str) -> dict[str, Any]:
    """Do the effect of the Defenders' Action card ``card``; what it did, for the channel
    (:mod:`.siege_words`) and the board."""
    if card == "harvest_trade":
        slot = _amphora(state, seat)
        return {"card": card, "slot": slot, "token": None if slot is None else state["trade"][slot]}
    if card == "war":
        return {"card": card, **_war(state, seat)}
    if card == "exploration":
        return {"card": card, **_explore(state, seat)}
    if card == "growth":
        advance_seal(state, "population", seat)
        return {"card": card, "case": seal_case(state, "population", seat)}
    return {"card": card}


def trade_limit(state: MesopotamiaState) -> int:
    """The highest Trade section the Defenders reach: « un niveau [au-dessus de] celui de votre
    Technologie Récolte et Échange »."""
    card = state["players"][you(state)]["tech"]["harvest_trade"]
    return int(D.CARD_EFFECT[card]["trade_level"]) + 1


def _amphora(state: MesopotamiaState, seat: Seat) -> str | None:
    """« une Amphore dans l'emplacement disponible le plus à droite de la section Échange »
    (R-siege-trade): the free slot of the highest section they reach, the rightmost in it."""
    amphorae = state.setdefault("amphorae", {})
    if sum(1 for s in amphorae.values() if s == seat) >= D.PIECES["amphora"]:
        return None
    free = [s for s in state["trade"] if s not in amphorae
            and D.SLOT_LEVEL[s] <= trade_limit(state)]
    if not free:
        return None
    slot = max(free, key=lambda s: (D.SLOT_LEVEL[s], s))
    amphorae[slot] = seat
    return slot


def blocked_slots(state: MesopotamiaState) -> set[str]:
    """« Vous ne pouvez pas choisir une option d'Échange surplombée d'une Amphore des Défenseurs
    d'Ur. »"""
    return {slot for slot, s in (state.get("amphorae") or {}).items() if defends(state, s)}


def phalanxes(case: int) -> int:
    """« un nombre de Phalanges égal à leur position sur la piste Population divisée par 3
    (arrondi à la hausse) »."""
    return math.ceil(case / int(DATA["war_divisor"]))


def _war(state: MesopotamiaState, seat: Seat) -> dict[str, Any]:
    """Phalanxes, then the most advanced unit of the ladder at or below their Population box,
    in its place (R-siege-war)."""
    case = seal_case(state, "population", seat)
    gained = phalanxes(case)
    state["players"][seat]["res"]["phalanx"] += gained
    ladder = box_of(state)["ladder"]
    kinds = [k for k in sorted(LADDER, key=LADDER.__getitem__, reverse=True)
             if LADDER[k] <= case and ladder[k] > 0
             and len(units_of(state, seat, k)) < D.FIGURES[k]]
    if not kinds:
        return {"phalanxes": gained, "unit": None, "region": None}
    kind = kinds[0]
    region = war_region(state, seat, kind)
    ladder[kind] -= 1
    state["units"].append([seat, kind, region])
    return {"phalanxes": gained, "unit": kind, "region": region}


def war_region(state: MesopotamiaState, seat: Seat, kind: str) -> str:
    """Where a unit of ``kind`` goes: a Spearman to a Colony of theirs, an Archer to a Rampart
    of theirs, each the one nearest your units; a Horseman or a Chariot to the region next to
    your units that is nearest Ur, ties to the rightmost (R-siege-war); Ur when none fits."""
    player = state["players"][seat]
    near = distances(_your_units(state))
    if kind in ("spearman", "archer"):
        places = player["colonies"] if kind == "spearman" else player["ramparts"]
        return min(places, key=lambda r: (near.get(r, 99), *XY[r]), default=UR)
    next_to = {n for r in _your_units(state) for n in D.REGIONS[r].neighbours
               if _open(state, seat, n)}
    to_ur = distances({UR})
    return min(next_to, key=lambda r: (to_ur[r], -XY[r][0], XY[r][1]), default=UR)


def _your_units(state: MesopotamiaState) -> set[str]:
    return {u[2] for u in units_of(state, you(state)) if u[1] in D.LAND}


def _open(state: MesopotamiaState, seat: Seat, region: str) -> bool:
    """A region the Defenders may stand in: one their units may enter (no ziggurat token, no
    other start region), no blocker, no tribe, none of your units, not your start region nor
    next to it (« Ils ne viendront jamais près de votre Région de départ »)."""
    return not closed(state, seat, region) and region not in state["blockers"] and \
        not state["tribes"].get(region) and region not in _your_units(state) and \
        region not in _near_start(state)


def _near_start(state: MesopotamiaState) -> set[str]:
    start = str(state["players"][you(state)]["start"])
    return {start, *D.REGIONS[start].neighbours}


def distances(targets: set[str]) -> dict[str, int]:
    """Steps from every region to the nearest of ``targets``."""
    far = dict.fromkeys(targets, 0)
    queue = deque(sorted(targets))
    while queue:
        region = queue.popleft()
        for n in D.REGIONS[region].neighbours:
            if n not in far:
                far[n] = far[region] + 1
                queue.append(n)
    return far


def _unexplored(state: MesopotamiaState, region: str) -> bool:
    """A face-down event they may explore (a blocker covers its region's event)."""
    site = state["sites"].get(region)
    return site is not None and not site[1] and region not in state["blockers"]


def _explore(state: MesopotamiaState, seat: Seat) -> dict[str, Any]:
    """« Exploration et Événements », its four steps (R-siege-explore): an event where one of
    their units stands, nearest your units first, ties left to right then top to bottom; else
    a unit into a next region with an event, the top-left one first; never near your start
    region; once every event is explored, a unit one region towards Ur."""
    land = [u for u in units_of(state, seat) if u[1] in D.LAND]
    near = distances(_your_units(state))
    here = sorted({u[2] for u in land if _unexplored(state, u[2])
                   and u[2] not in _near_start(state)},
                  key=lambda r: (near.get(r, 99), *XY[r]))
    if here:
        state.setdefault("pending_events", []).append([seat, here[0]])
        return {"explore": here[0], "moved": None}
    steps = sorted(((XY[n][1], XY[n][0], n, i) for i, u in enumerate(state["units"])
                    if u in land for n in D.REGIONS[u[2]].neighbours
                    if _unexplored(state, n) and _open(state, seat, n)))
    if steps:
        _, _, region, i = steps[0]
        moved = [state["units"][i][2], region]
        state["units"][i][2] = region
        state.setdefault("pending_events", []).append([seat, region])
        return {"explore": region, "moved": moved}
    if any(_unexplored(state, r) for r in state["sites"]) or not land:
        return {"explore": None, "moved": None}
    return {"explore": None, "moved": _towards_ur(state, seat)}


def _towards_ur(state: MesopotamiaState, seat: Seat) -> list[str] | None:
    """« déplacez l'une de leurs Unités vers la cité d'Ur »: the unit farthest from Ur, one
    region nearer (R-siege-explore)."""
    to_ur = distances({UR})
    options = sorted(((-to_ur[u[2]], i) for i, u in enumerate(state["units"])
                      if u[0] == seat and u[1] in D.LAND and u[2] != UR))
    for _, i in options:
        at = state["units"][i][2]
        nearer = sorted(n for n in D.REGIONS[at].neighbours
                        if to_ur[n] < to_ur[at] and _open(state, seat, n))
        if nearer:
            state["units"][i][2] = nearer[0]
            return [at, nearer[0]]
    return None


# -- the end -----------------------------------------------------------------------------


def check_end(state: MesopotamiaState) -> None:
    """End a Siege that is won or lost (the phase ``over``, nobody active)."""
    own = box(state)
    if own is None or state["phase"] == "over":
        return
    result = result_now(state)
    if result is not None:
        own["result"] = result
        state["phase"], state["current"], state["t"] = "over", None, None


def result_now(state: MesopotamiaState) -> str | None:
    """``lost`` when the Defenders' seal is on the last box of a track (R-siege-defeat), ``won``
    when a Ram of yours stands in Ur with no Defender's land unit (R-siege-victory), else
    None."""
    seat = box_of(state)["seat"]
    if any(seal_case(state, track, seat) >= D.TRACK_CASES[track] for track in D.TRACKS):
        return "lost"
    rams = any(u[1] == "ram" and u[2] == UR for u in units_of(state, you(state)))
    guarded = any(u[1] in D.LAND and u[2] == UR for u in units_of(state, seat))
    return "won" if rams and not guarded else None


def ranking(state: MesopotamiaState) -> list[list[Seat]] | None:
    """The Siege's ranking once it is over: you first when you won, the Defenders first when
    you lost; None outside the Siege."""
    own = box(state)
    if own is None:
        return None
    order = [you(state), int(own["seat"])]
    return [[s] for s in (order if own["result"] == "won" else order[::-1])]
