"""The After the Flood state (:class:`FloodState`): its shape, setup, and the queries the
rules share."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from bot import chance
from bot.engine import Seat
from bot.games.flood import data as D

Step = Literal["act", "pay", "rebase", "place", "put", "to", "trade", "raise", "extend",
               "battle", "bid", "vp", "lux"]
"""The decision asked (see :mod:`bot.games.flood` for the steps of a turn)."""


class Counts(TypedDict):
    """Workers or armies per seat: in the stock (``unavail``) and in hand (``avail``)."""

    unavail: list[int]
    avail: list[int]


class Battle(TypedDict):
    """A battle under way: where, against whom, how many armies march in if it is won."""

    region: str
    defender: int
    march: int


class Pending(TypedDict, total=False):
    """The action under way (``action``) and what its steps have done so far."""

    action: str
    """``build``, ``place``, ``trade``, ``empire``, ``extend``, ``pass`` or ``enlarge``."""
    owed: int
    """Items of the opportunity cost still to pay."""
    region: str
    """Build: the city's region; empire: where it starts."""
    id: str
    """Empire: which one."""
    gained: int
    """Empire: armies gained by initiating it."""
    recruited: int
    """Empire: armies recruited."""
    spent: str | None
    """Place: the resource spent for workers."""
    most: int
    """Place: workers that may still be placed."""
    did: bool
    moving: str | None
    """Place: where the scribe being moved comes from."""
    count: Any
    """Trade: goods bought per region (``dict[str, int]``); extend: invasions so far (``int``)."""
    got: dict[str, list[str]]
    """Trade: the goods bought in each region."""
    sippar: bool
    battle: Battle | None
    city: str
    """Enlarge: the city extended."""
    lux: list[str]
    """Enlarge: the luxuries added."""


class LastTurn(TypedDict):
    """The turn ended last and the places it changed, which the board highlights."""

    seat: int
    places: list[str]


class FloodState(TypedDict):
    """An After the Flood state. Seats are 0-based; resources are named as in ``data/flood``."""

    chance: dict[str, int]
    """The box of randomness (:mod:`bot.chance`)."""
    n: int
    round: int
    """1 to 5."""
    phase: Literal["actions", "vp", "over"]
    """Phases 1, 2, 4 and 6 run by themselves."""
    turn: int
    """Turns ended."""
    order: list[int]
    """The seats, first to last."""
    current: int
    """Who decides."""
    step: str
    """The decision asked (:data:`Step`)."""
    pending: Pending | None
    """The action under way."""
    res: list[dict[str, int]]
    """Each seat's resources."""
    bank: dict[str, int]
    """What the bank still holds."""
    pass_box: list[dict[str, int]]
    """Each seat's Passed box."""
    equip: list[dict[str, int]]
    """Each seat's Equipment box."""
    passed: list[int]
    """Seats in the order they passed this round."""
    workers: Counts
    armies: Counts
    on: dict[str, list[int]]
    """Placed workers: place (a region outside Sumer, or one of the four boxes) -> count per
    seat."""
    used: dict[str, list[int]]
    """Workers moved to the right of the Scribes and Toolmaking boxes, per seat."""
    troops: dict[str, list[int]]
    """Placed armies: invadable region -> count per seat."""
    cities: dict[str, list[Any]]
    """Sumer region -> ``[owner, extended]``."""
    moved: list[int]
    """Seats that moved a base this round."""
    empires: dict[str, int]
    """This round's empire -> its initiator."""
    initiated: list[int]
    """Seats in the order they initiated an empire this round."""
    vp: list[int]
    vp_from: list[dict[str, int]]
    """Per seat, where the points came from (``VP_SOURCES``)."""
    vp_left: list[int]
    """Seats still to decide in the Victory Points phase."""
    last: dict[str, Any] | None
    """The last combat roll or city extension, for the board."""
    events: list[dict[str, Any]]
    """What the automatic phases did at the end of the last step (``k`` says what)."""
    last_turn: NotRequired[LastTurn]
    turn_places: NotRequired[list[str]]
    """The places the turn under way changed."""


VP_SOURCES = ("armies", "nippur", "cities", "majorities")


def zero_res() -> dict[str, int]:
    """An empty set of resources."""
    return dict.fromkeys(D.RESOURCES, 0)


def new_state(seed: int) -> FloodState:
    """The installation: random order, 2 workers in hand and one in Irrigation and one in
    Weaving, the starting goods, score 0; then round 1 begins (collection)."""
    n = D.PLAYERS
    randomness = chance.start(seed)
    order = list(range(n))
    chance.Draw({chance.KEY: randomness}).shuffle(order)
    bank = dict(D.SUPPLY)
    res = []
    for _ in range(n):
        mine = zero_res()
        for r, k in D.START["resources"].items():
            take = min(int(k), bank[r])
            mine[r] += take
            bank[r] -= take
        res.append(mine)
    on: dict[str, list[int]] = {p: [0] * n for p in D.PLACES}
    for box, k in D.SETUP_BOXES.items():
        on[box] = [k] * n
    placed = sum(D.SETUP_BOXES.values())
    hand = int(D.START["workers_available"])
    return {
        "chance": randomness, "n": n, "round": 1, "phase": "actions", "turn": 0, "order": order,
        "current": order[0], "step": "act", "pending": None,
        "res": res, "bank": bank,
        "pass_box": [zero_res() for _ in range(n)], "equip": [zero_res() for _ in range(n)],
        "passed": [],
        "workers": {"unavail": [D.WORKERS - placed - hand] * n, "avail": [hand] * n},
        "armies": {"unavail": [D.ARMIES] * n, "avail": [0] * n},
        "on": on, "used": {"scribes": [0] * n, "toolmaking": [0] * n},
        "troops": {r: [0] * n for r in D.INVADABLE},
        "cities": {}, "moved": [], "empires": {}, "initiated": [],
        "vp": [0] * n, "vp_from": [dict.fromkeys(VP_SOURCES, 0) for _ in range(n)],
        "vp_left": [], "last": None, "events": [],
    }


# -- queries --------------------------------------------------------------------------


def others(state: FloodState, seat: Seat) -> list[Seat]:
    """The other seats."""
    return [s for s in range(state["n"]) if s != seat]


def placed_workers(state: FloodState, seat: Seat) -> int:
    """Workers of ``seat`` on the board (regions and boxes)."""
    return sum(counts[seat] for counts in state["on"].values())


def placed_armies(state: FloodState, seat: Seat) -> int:
    """Armies of ``seat`` on the board."""
    return sum(counts[seat] for counts in state["troops"].values())


def ready(state: FloodState, seat: Seat, box: str) -> int:
    """Workers on the left of a box (Scribes or Toolmaking): usable this round."""
    return int(state["on"][box][seat] - state["used"][box][seat])


def army_holder(state: FloodState, region: str) -> Seat | None:
    """The seat with armies in ``region`` (never more than one), or None."""
    for seat, count in enumerate(state["troops"].get(region, ())):
        if count:
            return seat
    return None


def city_owner(state: FloodState, region: str) -> Seat | None:
    """The owner of the city in ``region``, or None."""
    city = state["cities"].get(region)
    return None if city is None else int(city[0])


def cities_of(state: FloodState, seat: Seat) -> list[str]:
    """The regions of ``seat``'s cities, in map order."""
    cities = state["cities"]
    return [r for r in D.CITY_SITES if r in cities and int(cities[r][0]) == seat]


def owns(state: FloodState, seat: Seat, region: str) -> bool:
    """True if ``seat`` owns the city in ``region`` (its particularity is theirs)."""
    return city_owner(state, region) == seat


def equipment_value(state: FloodState, seat: Seat) -> int:
    """The total value of ``seat``'s Equipment box."""
    return sum(D.VALUES[r] * k for r, k in state["equip"][seat].items())


def pass_value(state: FloodState, seat: Seat) -> int:
    """The total value of ``seat``'s Passed box."""
    return sum(D.VALUES[r] * k for r, k in state["pass_box"][seat].items())


def ranking(state: FloodState) -> list[Seat]:
    """The seats that initiated an empire this round, best equipped first (A, B, C); equal
    amounts: the earlier initiator ranks higher."""
    started = state["initiated"]
    return sorted(started, key=lambda s: (-equipment_value(state, s), started.index(s)))


def rank_of(state: FloodState, seat: Seat) -> str | None:
    """``seat``'s equipment rank letter this round, or None."""
    ranked = ranking(state)
    return D.RANKS[ranked.index(seat)] if seat in ranked else None


def next_order(state: FloodState) -> list[Seat]:
    """The turn order phase 4 sets from the Passed boxes as they are now: the highest value
    first, ties keeping the present order."""
    order: list[Seat] = state["order"]
    return sorted(order, key=lambda s: (-pass_value(state, s), order.index(s)))


def cost_due(state: FloodState) -> int:
    """Items owed before a non-pass action: 0 until someone has passed."""
    return D.OPPORTUNITY.get(len(state["passed"]), 0) if state["passed"] else 0
