"""The final score (« SCORE FINAL ») and the tie-break (« Départage »).

« À la fin de la partie, chaque joueur calcule ses Points de victoire en additionnant toutes les
sources possibles. » The sources, in the rulebook's order:

- ``event`` and ``population``: the final place on each track, 9 / 6 / 3 VP (R-track-ranks);
- ``gardens``: the VP of each Hanging Gardens tile the seat built (``players[s]["gardens"]``,
  the tiles it keeps, filled by the slice that builds the storeys);
- ``amphorae``: the VP of each trade token under one of the seat's Amphorae;
- ``event_tokens``: the VP of each event token kept on the map (``state["vp_tokens"]``,
  region -> VP, filled by the events slice) in a region the seat controls (R-control);
- ``colonies``: 1 VP per Colony the seat controls (R-control);
- ``quests``: 2 VP per completed quest card, 6 at most (R-quest-hold);
- ``regions``: 1 VP per region the seat occupies, its start region excluded.

« En cas d'égalité en fin de partie, le joueur en 1re position sur la piste Population
l'emporte. » (R-tie-break).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from bot.engine import Seat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import (
    MesopotamiaState,
    seal_case,
    seal_order,
    tech_level,
    units_of,
)

SOURCES: tuple[str, ...] = ("event", "population", "gardens", "amphorae", "event_tokens",
                            "colonies", "quests", "regions")
PLACE_VP: tuple[int, ...] = (9, 6, 3)
"""« 1re place : 9 PV », « 2e place : 6 PV », « 3e place : 3 PV »; a lower place gives 0."""
QUEST_VP = int(D.QUEST_DATA["rules"]["vp"]["per_quest"])
QUEST_MAX = int(D.QUEST_DATA["rules"]["vp"]["max"])
QUEST_CONDITION: dict[str, dict[str, Any]] = {c["id"]: c["condition"]
                                              for c in D.QUEST_CARDS}
GARDEN_VP: dict[str, int] = {t["id"]: int(t["vp"]) for t in D.GARDEN_TILE_DATA}
TOKEN_VP: dict[str, int] = {t["id"]: int(t["vp"]) for t in D.TRADE_TOKEN_DATA}


def controller(state: MesopotamiaState, region: str) -> Seat | None:
    """R-control: the empire whose start region (its Ziggurat) ``region`` is, whatever stands
    there (R-start-control); else the only empire with land units in ``region``; with no land
    unit there, the owner of its Colony; else nobody (a contested region is controlled by
    nobody)."""
    return controllers(state, [region])[region]


def controllers(state: MesopotamiaState, regions: list[str]) -> dict[str, Seat | None]:
    """Region -> its :func:`controller`, for each of ``regions`` (one pass over the units)."""
    present: dict[str, set[int]] = {r: set() for r in regions}
    for u in state["units"]:
        if u[1] in D.LAND and u[2] in present:
            present[u[2]].add(int(u[0]))
    colony = {r: s for s, p in reversed(list(enumerate(state["players"])))
              for r in p["colonies"]}
    start = {p["start"]: s for s, p in enumerate(state["players"]) if p["start"] is not None}
    held = {r: (next(iter(seats)) if len(seats) == 1 else None) if seats else colony.get(r)
            for r, seats in present.items()}
    return {r: start.get(r, seat) for r, seat in held.items()}


def controlled_colonies(state: MesopotamiaState, seat: Seat) -> int:
    """How many of ``seat``'s Colonies it controls (R-control)."""
    colonies = list(state["players"][seat]["colonies"])
    return sum(1 for s in controllers(state, colonies).values() if s == seat)


def occupied(state: MesopotamiaState, seat: Seat) -> set[str]:
    """« Une région est occupée quand elle compte une Unité ou une Colonie vous appartenant.
    Les Navires ne peuvent pas occuper de région. » Nor does a ram (R-ram-unit)."""
    player = state["players"][seat]
    return {str(u[2]) for u in units_of(state, seat) if u[1] in D.LAND} | set(player["colonies"])


def track_place_vp(state: MesopotamiaState, track: str, seat: Seat) -> int:
    """The VP of ``seat``'s final place on ``track`` (the top of a pile is ahead)."""
    place = seal_order(state, track).index(seat)
    return PLACE_VP[place] if place < len(PLACE_VP) else 0


COUNTS: dict[str, Callable[[MesopotamiaState, Seat], int]] = {
    "colonies": controlled_colonies,
    "population": lambda s, x: seal_case(s, "population", x),
    "ziggurat": lambda s, x: int(s["players"][x]["ziggurat"]),
    "ramparts": lambda s, x: len(s["players"][x]["ramparts"]),
    "amphorae": lambda s, x: sum(1 for o in s.get("amphorae", {}).values() if o == x),
    "garden_storeys": lambda s, x: len(s["players"][x].get("gardens", [])),
    "events_resolved": lambda s, x: int(s["players"][x].get("events_resolved", 0)),
    "regions": lambda s, x: len(occupied(s, x) - {s["players"][x]["start"]}),
    "colonies_with_rampart": lambda s, x: len(set(s["players"][x]["colonies"])
                                              & set(s["players"][x]["ramparts"])),
}
"""What a quest condition counts, each computed only when a condition asks it."""


def _meets(state: MesopotamiaState, seat: Seat, condition: dict[str, Any]) -> bool:
    """True when ``seat`` meets every part of ``condition`` but ``hold``."""
    for key, want in condition.items():
        if key == "hold":
            continue
        if key == "tech":
            if any(tech_level(state, seat, a) < int(lv) for a, lv in want.items()):
                return False
        elif key == "units":
            if any(len(units_of(state, seat, k)) < int(n) for k, n in want.items()):
                return False
        elif COUNTS[key](state, seat) < int(want):
            return False
    return True


def completed_quests(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The largest set of ``seat``'s quest cards completed together: every condition met, and
    the resources each one asks to hold owned separately (« si deux cartes Quête demandent
    1 Pierre chacune, vous devez avoir 2 Pierres en tout »); the first such set in hand order."""
    hand = [q for q in state["quests"]["hands"][seat] if _meets(state, seat, QUEST_CONDITION[q])]
    res = state["players"][seat]["res"]
    for k in range(len(hand), 0, -1):
        for chosen in combinations(hand, k):
            need: dict[str, int] = {}
            for q in chosen:
                for r, n in QUEST_CONDITION[q].get("hold", {}).items():
                    need[r] = need.get(r, 0) + int(n)
            if all(res.get(r, 0) >= n for r, n in need.items()):
                return list(chosen)
    return []


def breakdown(state: MesopotamiaState, seat: Seat) -> dict[str, int]:
    """``seat``'s VP per source (:data:`SOURCES`); none for the Guardians' enemy (it scores
    nothing: R-guard-waves)."""
    if guardians.plays(state, seat):
        return dict.fromkeys(SOURCES, 0)
    player = state["players"][seat]
    vp_tokens: dict[str, int] = state.get("vp_tokens", {})
    held = controllers(state, list(vp_tokens))
    return {
        "event": track_place_vp(state, "event", seat),
        "population": track_place_vp(state, "population", seat),
        "gardens": sum(GARDEN_VP[t] for t in player.get("gardens", [])),
        "amphorae": sum(TOKEN_VP[state["trade"][slot]] for slot, s in
                        state.get("amphorae", {}).items()
                        if s == seat and state["trade"].get(slot) in TOKEN_VP),
        "event_tokens": sum(int(vp) for r, vp in vp_tokens.items() if held[r] == seat),
        "colonies": controlled_colonies(state, seat),
        "quests": min(QUEST_MAX, QUEST_VP * len(completed_quests(state, seat))),
        "regions": len(occupied(state, seat) - {player["start"]}),
    }


def scores(state: MesopotamiaState) -> list[int]:
    """Every seat's total VP."""
    return [sum(breakdown(state, s).values()) for s in range(state["n"])]


def public(state: MesopotamiaState) -> list[int]:
    """Every seat's VP if the game ended now without its quests (secret until the end)."""
    return [sum(v for k, v in breakdown(state, s).items() if k != "quests")
            for s in range(state["n"])]


def ranking(state: MesopotamiaState) -> list[list[Seat]]:
    """The seats best first: by VP, a tie broken by the Population track (R-tie-break), so that
    no two seats are ever tied."""
    totals = scores(state)
    pop = seal_order(state, "population")
    order = sorted(range(state["n"]), key=lambda s: (-totals[s], pop.index(s)))
    return [[s] for s in order]
