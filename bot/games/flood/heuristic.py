"""The AI's judgement of an After the Flood state (:meth:`bot.engine.Game.heuristic`)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.flood import data as D
from bot.games.flood.state import (
    FloodState,
    cities_of,
    owns,
    rank_of,
    ready,
)
from bot.games.kit import lead

RESOURCE_WORTH = 0.4
"""Points a resource is worth per point of value (what it places, buys or trades for)."""
PLAN_WORTH = 0.75
"""The share of the points a planned city extension is worth before it is made."""
ARMY_IN_HAND = 0.85
WORKER_IN_HAND = 0.12
RANK_WORTH = {"A": 1.2, "B": 0.5}


def heuristic(state: FloodState, seat: Seat) -> float:
    """How good the state looks for ``seat``: its strength minus the best rival's."""
    return lead([_strength(state, s) for s in range(state["n"])], seat)


def extension_plan(state: FloodState, seat: Seat) -> tuple[int, dict[str, int]]:
    """The points ``seat``'s goods would make by extending its open cities now (each with 2
    wood and as many different luxuries as it has), and the goods that takes."""
    open_cities = sum(1 for r in cities_of(state, seat) if not state["cities"][r][1])
    res = state["res"][seat]
    used: dict[str, int] = {}
    points = 0
    lux = {r: res[r] for r in D.LUXURIES}
    for _ in range(min(open_cities, res["wood"] // D.EXTENSION_WOOD)):
        kinds = [r for r in D.LUXURIES if lux[r] > 0][: D.MAX_LUXURIES]
        for r in kinds:
            lux[r] -= 1
            used[r] = used.get(r, 0) + 1
        used["wood"] = used.get("wood", 0) + D.EXTENSION_WOOD
        points += D.CITY_VP[len(kinds)]
    return points, used


def _empire_chance(state: FloodState, seat: Seat) -> float:
    """The armies of the best empire ``seat`` could still initiate this round."""
    if seat in state["initiated"] or state["phase"] != "actions":
        return 0.0
    best = 0
    for empire in D.empires_of(state["round"]):
        data = D.EMPIRES[empire]
        if empire in state["empires"]:
            continue
        for region in data.starts:
            if data.in_sumer:
                best = max(best, data.armies)
                continue
            mine = state["on"][region][seat]
            if mine >= 1 and all(state["on"][region][s] <= mine for s in range(state["n"])):
                best = max(best, data.armies)
    return float(best)


def _strength(state: FloodState, seat: Seat) -> float:
    rnd, phase = state["round"], state["phase"]
    later = D.ROUNDS - rnd                       # rounds still to come after this one
    acting = phase == "actions"
    value = float(state["vp"][seat])
    if phase == "over":
        return value
    res = state["res"][seat]
    plan, used = extension_plan(state, seat)
    spare = 0.0                                   # a hoard is worth less than a few
    for r, k in res.items():
        left = k - used.get(r, 0)
        spare += D.VALUES[r] * (min(left, 2) + 0.5 * max(0, left - 2))
    value += (RESOURCE_WORTH if later > 0 else 0.5 * RESOURCE_WORTH) * spare
    value += PLAN_WORTH * plan
    # cities: a city still open is a future extension; their particularities
    for region in cities_of(state, seat):
        value += 0.5 if state["cities"][region][1] else 2.0
        if region == D.UR:
            value += 0.8 * later
        elif region in (D.SIPPAR, D.NIPPUR, D.BABYLON, D.SHURUPPAK):
            value += 0.5 * (later + 1)
    if acting:
        # armies: points in the VP phase of this round; an empire still to initiate
        troops = state["troops"]
        held = [r for r in D.INVADABLE if troops[r][seat] > 0]
        value += 0.9 * D.REGION_VP * len(held)
        value += 0.3 * sum(1 for r in held if troops[r][seat] >= 2)
        if owns(state, seat, D.NIPPUR):
            value += 0.9 * sum(1 for r in held if D.REGIONS[r].in_sumer)
        hand = state["armies"]["avail"][seat]
        worth = ARMY_IN_HAND if held else 0.3    # with no region, no invasion from it
        value += worth * min(hand, 10) + 0.1 * max(0, hand - 10)
        value += 0.2 * _empire_chance(state, seat)
        value += RANK_WORTH.get(rank_of(state, seat) or "", 0.0) if len(
            state["initiated"]) > 1 else 0.0
        value += WORKER_IN_HAND * state["workers"]["avail"][seat]
    # workers: the majorities at the end, growing surer as the game goes on
    sure = 0.45 + 0.55 * (rnd - 1) / max(1, D.ROUNDS - 1)
    on = state["on"]
    for place in D.PLACES:
        counts = on[place]
        mine = counts[seat]
        if mine == 0:
            continue
        best_other = max(counts[:seat] + counts[seat + 1:])
        points = D.PLACE_VP[place]
        if mine > best_other:
            value += points * sure + 0.15 * min(mine - best_other, 2)
        elif mine == best_other:
            value += points * 0.25
        else:
            value += points * 0.1 * mine / (best_other + 1)
    # income in the rounds to come: grain and cloth, trade, tools and scribes
    if later > 0:
        for by_rank, box, worth in ((D.GRAIN_BY_RANK, "irrigation", 1),
                                    (D.CLOTH_BY_RANK, "weaving", 2)):
            counts = on[box]
            mine = counts[seat]
            if mine >= D.COLLECTION_MIN:
                better = sum(1 for c in counts if c > mine)
                tied = sum(1 for c in counts if c == mine)
                value += 0.35 * RESOURCE_WORTH * worth * by_rank[better + tied] * later
        traders = sum(min(on[r][seat], len(D.REGIONS[r].trade)) for r in D.OUTER)
        value += 0.25 * traders * min(later, 2)
        value += 0.3 * (on["toolmaking"][seat] + on["scribes"][seat])
    if acting:
        value += 0.25 * ready(state, seat, "toolmaking") * min(res["metal"], 1)
    return float(value)
