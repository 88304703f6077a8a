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

from itertools import combinations
from typing import Any

from bot.engine import Seat, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import strategy
from bot.games.mesopotamia.state import seal_case, seal_order, tech_level, units_of

SOURCES: tuple[str, ...] = ("event", "population", "gardens", "amphorae", "event_tokens",
                            "colonies", "quests", "regions")
PLACE_VP: tuple[int, ...] = (9, 6, 3)
"""« 1re place : 9 PV », « 2e place : 6 PV », « 3e place : 3 PV »; a lower place gives 0."""
QUEST_VP = int(D.QUEST_DATA["rules"]["vp"]["per_quest"])
QUEST_MAX = int(D.QUEST_DATA["rules"]["vp"]["max"])
QUEST_CONDITION: dict[str, dict[str, Any]] = {c["id"]: c["condition"]
                                              for c in D.QUEST_DATA["cards"]}
GARDEN_VP: dict[str, int] = {t["id"]: int(t["vp"]) for t in D.GARDEN_DATA["tiles"]}
TOKEN_VP: dict[str, int] = {t["id"]: int(t["vp"]) for t in D.TRADE_DATA["tokens"]}


def controller(state: State, region: str) -> Seat | None:
    """R-control: the only empire with land units in ``region``; with no land unit there, the
    owner of its Colony; else nobody (a contested region is controlled by nobody)."""
    present = {int(u[0]) for u in state["units"] if u[2] == region and u[1] != "ship"}
    if len(present) == 1:
        return present.pop()
    if present:
        return None
    return next((s for s, p in enumerate(state["players"]) if region in p["colonies"]), None)


def occupied(state: State, seat: Seat) -> set[str]:
    """« Une région est occupée quand elle compte une Unité ou une Colonie vous appartenant.
    Les Navires ne peuvent pas occuper de région. »"""
    player = state["players"][seat]
    return {str(u[2]) for u in units_of(state, seat) if u[1] != "ship"} | set(player["colonies"])


def track_place_vp(state: State, track: str, seat: Seat) -> int:
    """The VP of ``seat``'s final place on ``track`` (the top of a pile is ahead)."""
    place = seal_order(state, track).index(seat)
    return PLACE_VP[place] if place < len(PLACE_VP) else 0


def _meets(state: State, seat: Seat, condition: dict[str, Any]) -> bool:
    """True when ``seat`` meets every part of ``condition`` but ``hold``."""
    player = state["players"][seat]
    colonies = [r for r in player["colonies"] if controller(state, r) == seat]
    counts: dict[str, int] = {
        "colonies": len(colonies),
        "population": seal_case(state, "population", seat),
        "ziggurat": int(player["ziggurat"]),
        "ramparts": len(player["ramparts"]),
        "amphorae": sum(1 for s in state.get("amphorae", {}).values() if s == seat),
        "garden_storeys": len(player.get("gardens", [])),
        "events_resolved": int(player.get("events_resolved", 0)),
        "regions": len(occupied(state, seat) - {player["start"]}),
        "colonies_with_rampart": len(set(player["colonies"]) & set(player["ramparts"])),
    }
    for key, want in condition.items():
        if key == "hold":
            continue
        if key == "tech":
            if any(tech_level(state, seat, a) < int(lv) for a, lv in want.items()):
                return False
        elif key == "units":
            if any(len(units_of(state, seat, k)) < int(n) for k, n in want.items()):
                return False
        elif counts[key] < int(want):
            return False
    return True


def completed_quests(state: State, seat: Seat) -> list[str]:
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


def breakdown(state: State, seat: Seat) -> dict[str, int]:
    """``seat``'s VP per source (:data:`SOURCES`)."""
    player = state["players"][seat]
    vp_tokens: dict[str, int] = state.get("vp_tokens", {})
    return {
        "event": track_place_vp(state, "event", seat),
        "population": track_place_vp(state, "population", seat),
        "gardens": sum(GARDEN_VP[t] for t in player.get("gardens", [])),
        "amphorae": sum(TOKEN_VP[state["trade"][slot]] for slot, s in
                        state.get("amphorae", {}).items()
                        if s == seat and state["trade"].get(slot) in TOKEN_VP),
        "event_tokens": sum(int(vp) for r, vp in vp_tokens.items()
                            if controller(state, r) == seat),
        "colonies": sum(1 for r in player["colonies"] if controller(state, r) == seat),
        "quests": min(QUEST_MAX, QUEST_VP * len(completed_quests(state, seat))),
        "regions": len(occupied(state, seat) - {player["start"]}),
    }


def scores(state: State) -> list[int]:
    """Every seat's total VP."""
    return [sum(breakdown(state, s).values()) for s in range(state["n"])]


def ranking(state: State) -> list[list[Seat]]:
    """The seats best first: by VP, a tie broken by the Population track (R-tie-break), so that
    no two seats are ever tied."""
    totals = scores(state)
    pop = seal_order(state, "population")
    order = sorted(range(state["n"]), key=lambda s: (-totals[s], pop.index(s)))
    return [[s] for s in order]


def heuristic_worth(state: State, seat: Seat) -> float:
    """``seat``'s worth for the AI (:func:`bot.games.mesopotamia.strategy.worth`): the VP it
    would score now, its progress towards later VP, what its action under way will bring."""
    return strategy.worth(state, seat, lambda s, x: float(sum(breakdown(s, x).values())),
                          lambda s: ranking(s)[0][0])
