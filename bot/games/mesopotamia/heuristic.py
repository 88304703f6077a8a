"""What a good player values in a Mesopotamia position, for the AI's look-ahead.

The AI (:mod:`bot.ai`, through ``MesopotamiaGame.ai_step``) takes each step after which
:func:`heuristic` values the position most: each seat's :func:`worth`, against the
best rival's. The final score alone rewards almost nothing a turn can do (a technology, a Ziggurat
storey or a harvest is worth no VP), so an AI judged by it never prepares the Hanging Gardens
and the game never ends. :func:`progress` is the worth, in VP-equivalents, of what leads to VP
later: technology levels (Construction most, towards Architecture, which the Gardens need),
Ziggurat storeys (one Dingir die each), Population and Event cases, units (a ram less: it
only opens Ramparts), Colonies and Ramparts, the resources one Harvest gives (the card's
harvests, at most one per source the seat has), resources (worth what they build, a pile worth
little) and, for a seat with Architecture, how near it is to build the next Hanging Gardens
storey (without it, how near it is to its next Discovery). An action activated and not
finished is worth what its best parts bring (:func:`action_gain`). The weights are design
content (``data/mesopotamia/ai.json``). Progress counts nothing once the fifth storey is
built: the game ends with that round, and the seat ahead then counts nearly a win, so a seat
ahead on VP wants to finish and a seat behind does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import Seat
from bot.games import content
from bot.games.kit import clone, known, lead
from bot.games.mesopotamia import actions, scoring, siege
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.actions import harvest_sources
from bot.games.mesopotamia.construction import COST, GARDEN
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import PHASES, MesopotamiaState, seal_case, tech_level

WEIGHTS: dict[str, Any] = content.load("mesopotamia", "ai")
TECH_WORTH: dict[str, list[float]] = {a: [float(v) for v in WEIGHTS["tech"][a]]
                                      for a in D.ACTIONS}
RESOURCE_WORTH: dict[str, float] = {k: float(v)
                                    for k, v in WEIGHTS["resources"]["value"].items()}
CAP = int(WEIGHTS["resources"]["cap"])
SURPLUS = float(WEIGHTS["resources"]["surplus"])
ARCHITECTURE = int(D.GARDEN_DATA["rules"]["needs_architecture"]["level"])
GARDEN_ACTION = str(D.GARDEN_DATA["rules"]["needs_architecture"]["action"])
ACT_PARTS = int(WEIGHTS["action_under_way"]["parts"])
INCOME: dict[str, float] = {k: float(WEIGHTS["income"][k]) for k in ("harvest", "part")}
STOREY_WORTH: list[float] = [float(v) for v in WEIGHTS["ziggurat_storey"]["by_storey"]]
MOST_HARVESTS = max(int(e.get("harvests", 0)) for e in D.CARD_EFFECT.values())
FINISH = float(WEIGHTS["endgame"]["finish"])
WAY = float(WEIGHTS["garden"]["way_to_condition"])
TOWARDS_ARCHITECTURE = float(WEIGHTS["research"]["towards_architecture"])
NO_UNIT_WOOD = float(WEIGHTS["no_unit_wood"]["value"])
FIRST_UNIT = float(WEIGHTS["no_unit_wood"]["first_unit"])
SIEGE: dict[str, float] = {k: float(v) for k, v in WEIGHTS["siege"].items() if k[0] != "_"}
TO_UR = siege.distances({siege.UR})
FAR = TO_UR[siege.START] + 1
Worth = Callable[[MesopotamiaState, Seat], float]
"""A seat's worth in a state (its VP; with :func:`progress`, its worth without the action
under way)."""


def worth(state: MesopotamiaState, seat: Seat, vp: Worth,
          leader: Callable[[MesopotamiaState], Seat]) -> float:
    """``seat``'s worth for the AI: its VP ``vp`` now, its :func:`progress` and what its action
    under way will bring (:func:`action_gain`); once the last Hanging Gardens storey is built
    (the game ends with the round), ``finish`` more for the seat ahead (``leader``), also when
    judging the parts of the action under way, so that building the last storey counts there."""
    def base(s: MesopotamiaState, x: Seat) -> float:
        ended = _built(s) >= D.GARDEN_STOREYS and leader(s) == x
        return vp(s, x) + progress(s, x) + (FINISH if ended else 0.0)

    return base(state, seat) + action_gain(state, seat, base)


def _built(state: MesopotamiaState) -> int:
    return sum(len(p.get("gardens", [])) for p in state["players"])


def action_gain(state: MesopotamiaState, seat: Seat, base: Worth) -> float:
    """What the action ``seat`` activated and has not finished is worth (``base``: its worth
    without it): the gain of its best parts, chosen greedily, at most
    ``action_under_way.parts`` of them; a part that changes nothing by itself (a unit
    activated) is judged by the best part after it. 0 when ``seat`` has no action under way.
    Without it every ``use <action>`` step would look alike to the look-ahead, which keeps
    only a few of them."""
    t = state.get("t")
    if state["phase"] != "actions" or state["current"] != seat or not t or t["act"] is None:
        return 0.0
    start = now = base(state, seat)
    for _ in range(ACT_PARTS):
        found = _best_part(state, seat, base, now, look=True)
        if found is None:
            break
        state, now = found
        if known(state["t"])["act"] is None:
            break
    return now - start


def _best_part(state: MesopotamiaState, seat: Seat, base: Worth, now: float,
               look: bool) -> tuple[MesopotamiaState, float] | None:
    """The state after the part of the action under way worth most (with one more part for a
    part that changes nothing, when ``look``), if it is worth more than ``now``."""
    best: tuple[MesopotamiaState, float] | None = None
    for part in actions.legal(state, seat):
        if part == "stop":
            continue
        after = clone(state)
        actions.apply(after, seat, part)
        value = base(after, seat)
        if look and value == now and known(after["t"])["act"] is not None:
            deeper = _best_part(after, seat, base, now, look=False)
            value = now if deeper is None else deeper[1]
        if value > now and (best is None or value > best[1]):
            best = (after, value)
    return best


def progress(state: MesopotamiaState, seat: Seat) -> float:
    """``seat``'s progress towards later VP, in VP-equivalents (0 once the game will end)."""
    built = _built(state)
    if built >= D.GARDEN_STOREYS:
        return 0.0
    player = state["players"][seat]
    total = sum(TECH_WORTH[a][tech_level(state, seat, a) - 1] for a in player["tech"])
    total += sum(STOREY_WORTH[: int(player["ziggurat"])])
    total += float(WEIGHTS["population_case"]) * seal_case(state, "population", seat)
    total += float(WEIGHTS["event_case"]) * seal_case(state, "event", seat)
    total += sum(float(WEIGHTS["ram" if u[1] == "ram" else "unit"])
                 for u in state["units"] if u[0] == seat)
    total += float(WEIGHTS["colony"]) * len(player["colonies"])
    total += float(WEIGHTS["rampart"]) * len(player["ramparts"])
    total += _resources(player["res"])
    if not any(u[0] == seat and u[1] in D.LAND for u in state["units"]):
        total += NO_UNIT_WOOD * min(1, player["res"]["wood"])
    else:
        total += FIRST_UNIT
    total += income(state, seat)
    if tech_level(state, seat, GARDEN_ACTION) >= ARCHITECTURE:
        total += float(WEIGHTS["garden"]["value"]) * garden_readiness(state, seat, built)
    else:
        total += TOWARDS_ARCHITECTURE * discovery_readiness(state, seat)
    return total + siege_progress(state, seat)


def siege_progress(state: MesopotamiaState, seat: Seat) -> float:
    """In the Siege of Ur, the player's way to Ur: its Rams (before the first, the share of
    its cost held), each region its land units and its escorted Rams came nearer Ur than its
    start region, and the result once the Siege is over (0 for the Defenders and outside the
    Siege)."""
    own = siege.box(state)
    if own is None or siege.defends(state, seat):
        return 0.0
    if own["result"] is not None:
        return SIEGE["result"] * (1 if own["result"] == "won" else -1)
    rams = sum(1 for u in state["units"] if u[0] == seat and u[1] == "ram")
    ready = _share(state["players"][seat]["res"], COST["ram"]) if not rams else 0.0
    total = SIEGE["ram_ready"] * ready
    escorted = {u[2] for u in state["units"] if u[0] == seat and u[1] in D.LAND}
    for _, kind, at in (u for u in state["units"] if u[0] == seat):
        closer = max(0, FAR - TO_UR.get(at, FAR))
        if kind == "ram":
            total += SIEGE["ram"] + SIEGE["march"] * closer * (at in escorted)
        elif kind in D.LAND:
            total += SIEGE["near_ur"] * closer
    return total


def income(state: MesopotamiaState, seat: Seat) -> float:
    """The worth of what one Harvest gives ``seat``: ``income.harvest`` per resource it gives
    now (its card's harvests, at most one per source it has, R-harvest-counts), and
    ``income.part`` per harvest of its card and per source (up to the most harvests a card
    gives), since either one alone is half of a better Harvest."""
    harvests = int(D.CARD_EFFECT[state["players"][seat]["tech"]["harvest_trade"]]["harvests"])
    sources = min(MOST_HARVESTS,
                  sum(count for _, count in harvest_sources(state, seat).values()))
    return INCOME["harvest"] * min(harvests, sources) + INCOME["part"] * (harvests + sources)


def discovery_readiness(state: MesopotamiaState, seat: Seat) -> float:
    """How near ``seat`` is to its next Discovery (0-1): the share of its Tablets, the Clay its
    Research card converts counting for the Tablets it gives."""
    effect = D.CARD_EFFECT[state["players"][seat]["tech"]["research"]]
    res = state["players"][seat]["res"]
    clay = res["clay"] / int(effect["convert"]["clay"]) * int(effect["convert"]["tablet"])
    return min(1.0, (res["tablet"] + clay) / D.DISCOVERY_TABLETS)


def _resources(res: dict[str, int]) -> float:
    """The resources' worth: each kind up to the cap at its value, the rest as surplus."""
    return sum(RESOURCE_WORTH.get(k, 0.0) * min(n, CAP) + SURPLUS * max(0, n - CAP)
               for k, n in res.items())


def garden_readiness(state: MesopotamiaState, seat: Seat, built: int) -> float:
    """How near ``seat`` is to build the next Hanging Gardens storey (0-1): the mean of the
    share of the face-up tile's cost it holds and the share of its conditions it meets, where
    the way to a condition counts (``garden.way_to_condition`` of a case: the Food of a Growth
    beyond the Food the tile costs, a unit next to a free Event; an Event found and not
    resolved, a whole case)."""
    if built >= len(state["gardens"]) or not state["gardens"][built][1]:
        return 0.0
    rule = GARDEN[state["gardens"][built][0]]
    player = state["players"][seat]
    res = player["res"]
    cost = _share(res, rule["cost"])
    growth = max(1, int(D.CARD_EFFECT[player["tech"]["growth"]]["food"]))
    spare_food = max(0, res["food"] - int(rule["cost"].get("food", 0)))
    have = {"population": seal_case(state, "population", seat)
            + WAY * min(1.0, spare_food / growth),
            "event_track": seal_case(state, "event", seat) + _events_found(state, seat)
            + WAY * _next_to_free_event(state, seat),
            "colonies": len(player["colonies"]) + _share(res, COST["colony"])}
    met = [min(1.0, have[k] / int(v)) for k, v in rule["conditions"].items()]
    return float(cost + (sum(met) / len(met) if met else 1.0)) / 2


def _events_found(state: MesopotamiaState, seat: Seat) -> int:
    """Events ``seat``'s units found that it has not resolved yet (revealed, or still to be):
    each will move its seal at least one Event case, so a move onto one counts at once."""
    shown = state.get("event") or {}
    return sum(1 for s, _ in state.get("pending_events", []) if s == seat) + \
        int(shown.get("seat") == seat)


def _next_to_free_event(state: MesopotamiaState, seat: Seat) -> bool:
    """Whether a land unit of ``seat`` stands next to a face-down event that no tribe guards
    and no blocker closes (one move of an Exploration away from an Event case). A unit on such
    an event (created there, or there when its tribe fell) does not count: it reveals the event
    only by ending a move there, so it must leave first."""
    at = {u[2] for u in state["units"] if u[0] == seat and u[1] in D.LAND}
    near = {n for r in at for n in D.REGIONS[r].neighbours}
    return any(not up and r in near and not state["tribes"].get(r) and r not in state["blockers"]
               for r, (_, up) in state["sites"].items())


def _share(res: dict[str, int], cost: dict[str, Any]) -> float:
    """The share of ``cost`` that the resources ``res`` pay."""
    need = sum(int(v) for v in cost.values())
    return sum(min(res[k], int(v)) for k, v in cost.items()) / need


def heuristic(state: MesopotamiaState, seat: Seat) -> float:
    """How good the state looks for ``seat``: its final score if the game ended now, minus
    the best rival's, plus a little for resources and units (material for later rounds)."""
    if state["phase"] in PHASES:
        return 0.0
    if guardians.on(state):     # you against the waves: no rival's score
        mine = guardians.you(state)
        value = worth(state, mine, lambda s, x: float(sum(scoring.breakdown(s, x).values()))
                      + guardians.safety(s), lambda s: mine)
        return value if seat == mine else -value
    return lead([heuristic_worth(state, s) for s in range(state["n"])], seat)


def heuristic_worth(state: MesopotamiaState, seat: Seat) -> float:
    """``seat``'s worth for the AI (:func:`worth`): the VP it would score now, its progress
    towards later VP, what its action under way will bring."""
    return worth(state, seat, lambda s, x: float(sum(scoring.breakdown(s, x).values())),
                 lambda s: scoring.ranking(s)[0][0])
