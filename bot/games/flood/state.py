"""The After the Flood state: its shape, setup, and the queries the rules share.

The state is a JSON dict (seats are 0-based; ``order`` lists them first to last):

- ``round`` (1-5), ``phase`` (``actions``, ``vp`` or ``over``: phases 1, 2, 4 and 6 run by
  themselves), ``turn`` (turns ended), ``order``, ``current`` (who decides), ``step`` (the
  decision asked: ``act``, ``pay``, ``rebase``, ``place``, ``put``, ``to``, ``trade``,
  ``raise``, ``extend``, ``battle``, ``bid``, ``vp``, ``lux``) and ``pending`` (the action
  under way, or None);
- ``res`` (each seat's resources), ``bank`` (what the bank still holds), ``pass_box`` and
  ``equip`` (each seat's Passed and Equipment boxes), ``passed`` (seats in the order they
  passed this round);
- ``workers`` and ``armies``: per seat, ``unavail`` and ``avail`` counts; placed workers
  are in ``on`` (place -> count per seat: regions outside Sumer and the four boxes) with
  ``used`` (workers moved to the right of the Scribes and Toolmaking boxes); placed armies
  are in ``troops`` (invadable region -> count per seat);
- ``cities`` (Sumer region -> ``[owner, extended]``), ``moved`` (seats that moved a base
  this round), ``empires`` (this round's empire -> its initiator), ``initiated`` (seats in
  the order they initiated this round);
- ``vp`` and ``vp_from`` (per seat, where the points came from), ``last`` (the last combat
  roll), ``events`` (what the automatic phases did at the end of the last step).
"""

from __future__ import annotations

from bot import chance
from bot.engine import Seat, State
from bot.games.flood import data as D

STEPS = ("act", "pay", "rebase", "place", "put", "to", "trade", "raise", "extend",
         "battle", "bid", "vp", "lux")
VP_SOURCES = ("armies", "nippur", "cities", "majorities")


def zero_res() -> dict[str, int]:
    """An empty set of resources."""
    return dict.fromkeys(D.RESOURCES, 0)


def new_state(seed: int) -> State:
    """The installation: random order, 2 workers in hand and one in Irrigation and one in
    Weaving, the starting goods, score 0; then round 1 begins (collection)."""
    n = D.PLAYERS
    state: State = {chance.KEY: chance.start(seed)}
    order = list(range(n))
    chance.Draw(state).shuffle(order)
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
    state.update({
        "n": n, "round": 1, "phase": "actions", "turn": 0, "order": order,
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
    })
    return state


# -- queries --------------------------------------------------------------------------


def others(state: State, seat: Seat) -> list[Seat]:
    """The other seats."""
    return [s for s in range(state["n"]) if s != seat]


def placed_workers(state: State, seat: Seat) -> int:
    """Workers of ``seat`` on the board (regions and boxes)."""
    return sum(counts[seat] for counts in state["on"].values())


def placed_armies(state: State, seat: Seat) -> int:
    """Armies of ``seat`` on the board."""
    return sum(counts[seat] for counts in state["troops"].values())


def ready(state: State, seat: Seat, box: str) -> int:
    """Workers on the left of a box (Scribes or Toolmaking): usable this round."""
    return int(state["on"][box][seat] - state["used"][box][seat])


def army_holder(state: State, region: str) -> Seat | None:
    """The seat with armies in ``region`` (never more than one), or None."""
    for seat, count in enumerate(state["troops"].get(region, ())):
        if count:
            return seat
    return None


def city_owner(state: State, region: str) -> Seat | None:
    """The owner of the city in ``region``, or None."""
    city = state["cities"].get(region)
    return None if city is None else int(city[0])


def cities_of(state: State, seat: Seat) -> list[str]:
    """The regions of ``seat``'s cities, in map order."""
    return [r for r in D.CITY_SITES if city_owner(state, r) == seat]


def owns(state: State, seat: Seat, region: str) -> bool:
    """True if ``seat`` owns the city in ``region`` (its particularity is theirs)."""
    return city_owner(state, region) == seat


def equipment_value(state: State, seat: Seat) -> int:
    """The total value of ``seat``'s Equipment box."""
    return sum(D.VALUES[r] * k for r, k in state["equip"][seat].items())


def pass_value(state: State, seat: Seat) -> int:
    """The total value of ``seat``'s Passed box."""
    return sum(D.VALUES[r] * k for r, k in state["pass_box"][seat].items())


def ranking(state: State) -> list[Seat]:
    """The seats that initiated an empire this round, best equipped first (A, B, C); equal
    amounts: the earlier initiator ranks higher."""
    started = state["initiated"]
    return sorted(started, key=lambda s: (-equipment_value(state, s), started.index(s)))


def rank_of(state: State, seat: Seat) -> str | None:
    """``seat``'s equipment rank letter this round, or None."""
    ranked = ranking(state)
    return D.RANKS[ranked.index(seat)] if seat in ranked else None


def next_order(state: State) -> list[Seat]:
    """The turn order phase 4 sets from the Passed boxes as they are now: the highest value
    first, ties keeping the present order."""
    order: list[Seat] = state["order"]
    return sorted(order, key=lambda s: (-pass_value(state, s), order.index(s)))


def cost_due(state: State) -> int:
    """Items owed before a non-pass action: 0 until someone has passed."""
    return D.OPPORTUNITY.get(len(state["passed"]), 0) if state["passed"] else 0
