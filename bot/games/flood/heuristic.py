"""The AI's judgement of an After the Flood state (:meth:`bot.engine.Game.heuristic`)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.flood import data as D
from bot.games.flood.state import (
    FloodState,
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


_EMPIRES_BY_ROUND = {r: tuple(D.EMPIRES[e] for e in D.empires_of(r))
                     for r in range(1, D.ROUNDS + 1)}
_IN_SUMER = tuple(D.REGIONS[r].in_sumer for r in D.INVADABLE)
_PLACES = tuple((place, D.PLACE_VP[place]) for place in D.PLACES)
_TRADE_ROUTES = tuple((r, len(D.REGIONS[r].trade)) for r in D.OUTER)
_VALUES = D.VALUES
_PARTICULAR = frozenset((D.SIPPAR, D.NIPPUR, D.BABYLON, D.SHURUPPAK))
_OPEN, _EXTENDED = 2.0, 0.5
"""A city still open is a future extension; an extended one is worth a little."""


def heuristic(state: FloodState, seat: Seat) -> float:
    """How good the state looks for ``seat``: its strength minus the best rival's."""
    n = state["n"]
    cities: list[list[str]] = [[] for _ in range(n)]
    for region in D.CITY_SITES:        # each seat's cities in map order (cities_of)
        city = state["cities"].get(region)
        if city is not None:
            cities[int(city[0])].append(region)
    return lead([_strength(state, s, cities[s]) for s in range(n)], seat)


def extension_plan(state: FloodState, seat: Seat, cities: list[str]) -> tuple[int, dict[str, int]]:
    """The points ``seat``'s goods would make by extending its open ``cities`` now (each
    with 2 wood and as many different luxuries as it has), and the goods that takes."""
    built = state["cities"]
    open_cities = sum(1 for r in cities if not built[r][1])
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
    on, started = state["on"], state["empires"]
    for data in _EMPIRES_BY_ROUND[state["round"]]:
        if data.id in started:
            continue
        if data.in_sumer:
            if data.starts:
                best = max(best, data.armies)
            continue
        for region in data.starts:
            counts = on[region]
            mine = counts[seat]
            if mine >= 1 and max(counts) <= mine:
                best = max(best, data.armies)
    return float(best)


def _strength(state: FloodState, seat: Seat, cities: list[str]) -> float:
    rnd, phase = state["round"], state["phase"]
    later = D.ROUNDS - rnd                       # rounds still to come after this one
    acting = phase == "actions"
    value = float(state["vp"][seat])
    if phase == "over":
        return value
    res = state["res"][seat]
    plan, used = extension_plan(state, seat, cities)
    spare = 0.0                                   # a hoard is worth less than a few
    for r, k in res.items():
        left = k - used.get(r, 0)
        spare += _VALUES[r] * (min(left, 2) + 0.5 * max(0, left - 2))
    value += (RESOURCE_WORTH if later > 0 else 0.5 * RESOURCE_WORTH) * spare
    value += PLAN_WORTH * plan
    # cities: a city still open is a future extension; their particularities
    built = state["cities"]
    for region in cities:
        value += _EXTENDED if built[region][1] else _OPEN
        if region == D.UR:
            value += 0.8 * later
        elif region in _PARTICULAR:
            value += 0.5 * (later + 1)
    on = state["on"]
    if acting:
        # armies: points in the VP phase of this round; an empire still to initiate
        troops = state["troops"]
        held = 0
        doubled = 0
        in_sumer = 0
        for r, sumer in zip(D.INVADABLE, _IN_SUMER, strict=True):
            count = troops[r][seat]
            if count > 0:
                held += 1
                doubled += count >= 2
                in_sumer += sumer
        value += 0.9 * D.REGION_VP * held
        value += 0.3 * doubled
        if cities and D.NIPPUR in cities:
            value += 0.9 * in_sumer
        hand = state["armies"]["avail"][seat]
        worth = ARMY_IN_HAND if held else 0.3    # with no region, no invasion from it
        value += worth * min(hand, 10) + 0.1 * max(0, hand - 10)
        value += 0.2 * _empire_chance(state, seat)
        value += RANK_WORTH.get(rank_of(state, seat) or "", 0.0) if len(
            state["initiated"]) > 1 else 0.0
        value += WORKER_IN_HAND * state["workers"]["avail"][seat]
    # workers: the majorities at the end, growing surer as the game goes on
    sure = 0.45 + 0.55 * (rnd - 1) / max(1, D.ROUNDS - 1)
    for place, points in _PLACES:
        counts = on[place]
        mine = counts[seat]
        if mine == 0:
            continue
        best_other = max(c for s, c in enumerate(counts) if s != seat)
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
        traders = 0
        for r, routes in _TRADE_ROUTES:
            traders += min(on[r][seat], routes)
        value += 0.25 * traders * min(later, 2)
        value += 0.3 * (on["toolmaking"][seat] + on["scribes"][seat])
    if acting:
        value += 0.25 * ready(state, seat, "toolmaking") * min(res["metal"], 1)
    return float(value)

