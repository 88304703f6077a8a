"""Turns, rounds and the automatic phases: the next seat or phase at the end of a turn,
collection (phase 1), decline (phase 2), the order and the armies' points (phases 4 and 5),
the end of a round (phase 6) and the final majorities."""

from __future__ import annotations

from bot.games.flood import data as D
from bot.games.flood.options import vp_options
from bot.games.flood.pieces import lose_workers, score, take_bank
from bot.games.flood.state import (
    FloodState,
    city_owner,
    next_order,
    owns,
    placed_workers,
)


def end_turn(state: FloodState) -> None:
    """The current seat's turn is over: the next seat's turn, or the next phase."""
    state["turn"] += 1
    state["pending"] = None
    if state["phase"] == "vp":
        _next_vp(state)
        return
    order = state["order"]
    at = order.index(state["current"])
    for k in range(1, len(order) + 1):
        seat = order[(at + k) % len(order)]
        if seat not in state["passed"]:
            state["current"], state["step"] = seat, "act"
            return
    _end_actions(state)


def _end_actions(state: FloodState) -> None:
    """Phases 4 and 5: the next order from the Passed boxes, the armies' points, then the
    city extensions in the new order."""
    state["order"] = next_order(state)
    state["events"].append({"k": "order", "order": list(state["order"])})
    for seat in state["order"]:
        before = state["vp"][seat]
        held = [r for r in D.INVADABLE if state["troops"][r][seat] > 0]
        if held:
            score(state, seat, "armies", D.REGION_VP * len(held))
        if owns(state, seat, D.NIPPUR):
            sumer = sum(1 for r in held if D.REGIONS[r].in_sumer)
            if sumer:
                score(state, seat, "nippur",
                       D.bonus_number(D.NIPPUR, "vp_per_sumer_region_with_army") * sumer)
        if held:
            state["events"].append({"k": "army_vp", "seat": seat, "regions": len(held),
                                    "vp": state["vp"][seat] - before})
    state["phase"] = "vp"
    state["vp_left"] = list(state["order"])
    state["current"] = state["order"][0]
    _next_vp(state, first=True)


def _next_vp(state: FloodState, first: bool = False) -> None:
    """The next seat (in the new order) that may extend a city, or phase 6."""
    left = state["vp_left"]
    if not first and left:
        left.pop(0)
    while left:
        seat = left[0]
        if vp_options(state, seat) != ["done"]:
            state["current"], state["step"] = seat, "vp"
            return
        left.pop(0)
    _end_round(state)


def _end_round(state: FloodState) -> None:
    """Phase 6, then the next round's phases 1 and 2 (or the end of the game)."""
    n = state["n"]
    armies, workers = state["armies"], state["workers"]
    for counts in state["troops"].values():
        for seat in range(n):
            armies["unavail"][seat] += counts[seat]
            counts[seat] = 0
    for seat in range(n):
        armies["unavail"][seat] += armies["avail"][seat]
        armies["avail"][seat] = 0
        workers["unavail"][seat] += workers["avail"][seat]
        workers["avail"][seat] = 0
        for box in ("pass_box", "equip"):
            for res, count in state[box][seat].items():
                state["bank"][res] += count
                state[box][seat][res] = 0
        for box in state["used"]:
            state["used"][box][seat] = 0
    state["empires"], state["initiated"], state["passed"] = {}, [], []
    state["moved"], state["vp_left"] = [], []
    if state["round"] >= D.ROUNDS:
        _final_majorities(state)
        state["phase"], state["step"], state["pending"] = "over", "over", None
        state["events"].append({"k": "over"})
        return
    state["round"] += 1
    state["phase"] = "actions"
    state["events"].append({"k": "round", "round": state["round"],
                            "order": list(state["order"])})
    collect(state)
    if state["round"] in D.DECLINE_ROUNDS:
        decline(state)
    state["current"], state["step"], state["pending"] = state["order"][0], "act", None


def ranked_amounts(by_rank: dict[int, int], counts: list[int]) -> list[int]:
    """Goods per seat from a rank table: rank 1 has the most workers; tied seats get the
    worst rank they share; no worker, nothing."""
    out = []
    for mine in counts:
        if mine < D.COLLECTION_MIN:
            out.append(0)
            continue
        better = sum(1 for c in counts if c > mine)
        tied = sum(1 for c in counts if c == mine)
        out.append(by_rank[better + tied])
    return out


def collect(state: FloodState) -> None:
    """Phase 1: grain by Irrigation, cloth by Weaving (the bank pays in turn order), Ur's
    cloth, then 8 workers each (never more than 25 in play)."""
    for by_rank, box, res in ((D.GRAIN_BY_RANK, "irrigation", "grain"),
                              (D.CLOTH_BY_RANK, "weaving", "cloth")):
        amounts = ranked_amounts(by_rank, state["on"][box])
        for seat in state["order"]:
            take_bank(state, seat, res, amounts[seat])
    owner = city_owner(state, D.UR)
    if owner is not None:
        take_bank(state, owner, "cloth", D.bonus_number(D.UR, "cloth"))
    workers = state["workers"]
    for seat in range(state["n"]):
        room = D.MAX_WORKERS - workers["avail"][seat] - placed_workers(state, seat)
        gain = max(0, min(D.INCOME, workers["unavail"][seat], room))
        workers["unavail"][seat] -= gain
        workers["avail"][seat] += gain


def decline(state: FloodState) -> None:
    """Phase 2 (rounds 2 and 4): Dilmun emptied, one worker off every other region outside
    Sumer, Irrigation and Weaving cut down to the leaders' 2, one scribe and one toolmaker
    off; every worker removed becomes unavailable."""
    n = state["n"]
    for seat in range(n):
        lose_workers(state, seat, D.DECLINE_ALL, state["on"][D.DECLINE_ALL][seat])
    for region in D.OUTER:
        if region != D.DECLINE_ALL:
            for seat in range(n):
                lose_workers(state, seat, region, D.DECLINE_OUTER)
    for box in D.DECLINE_FIELDS:
        most = max(state["on"][box])
        removed = most - D.LEADER_KEEPS
        if removed > 0:
            for seat in range(n):
                lose_workers(state, seat, box, removed)
    for seat in range(n):
        lose_workers(state, seat, "scribes", D.DECLINE_SCRIBES)
        lose_workers(state, seat, "toolmaking", D.DECLINE_TOOLS)


def _final_majorities(state: FloodState) -> None:
    """The end: whoever has the most workers in a region or box printing points scores
    them; a tie scores nothing."""
    for place in D.PLACES:
        points = D.PLACE_VP[place]
        counts = state["on"][place]
        best = max(counts)
        if points <= 0 or best <= 0 or counts.count(best) > 1:
            continue
        seat = counts.index(best)
        score(state, seat, "majorities", points)
        state["events"].append({"k": "majority", "seat": seat, "place": place, "vp": points})


def start_game(state: FloodState) -> None:
    """Round 1 after the installation: its collection (no decline)."""
    collect(state)
    state["events"] = []
