"""Which steps of After the Flood are legal now (see :mod:`bot.games.flood` for the
steps of a turn)."""

from __future__ import annotations

from typing import cast

from bot.engine import Seat
from bot.games.flood import data as D
from bot.games.flood.pieces import pay
from bot.games.flood.state import (
    FloodState,
    Pending,
    army_holder,
    cities_of,
    city_owner,
    cost_due,
    owns,
    placed_armies,
    ready,
)
from bot.games.kit import known


def build_targets(state: FloodState, seat: Seat) -> list[str]:
    """Sumer regions where ``seat`` may build: no city and no other player's army; with all
    bases placed, only if no base was moved this round."""
    if len(cities_of(state, seat)) >= D.BASES and seat in state["moved"]:
        return []
    return [r for r in D.CITY_SITES if r not in state["cities"]
            and army_holder(state, r) in (None, seat)]


def can_receive(state: FloodState, seat: Seat, place: str) -> bool:
    return place != "scribes" or state["on"]["scribes"][seat] < D.SCRIBE_CAP


def place_options(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """The steps of a Place Workers action (``done`` once something was done)."""
    opts: list[str] = []
    hand = state["workers"]["avail"][seat]
    if pending["spent"] is None and hand >= 1:
        opts += [f"spend {r}" for r in D.RESOURCES if state["res"][seat][r] >= 1]
    if ready(state, seat, "scribes") >= 1:
        if hand >= 1:
            opts += [f"scribe {p}" for p in D.PLACES if can_receive(state, seat, p)]
        for place in D.PLACES:
            mine = state["on"][place][seat]
            if mine >= (2 if place == "scribes" else 1):
                opts.append(f"move {place}")
    if pending["did"]:
        opts.append("done")
    return opts


def put_options(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """Where the workers of the spent resource go (as many as it places, or as ``fewer``
    lowered that number; the Scribes take at most 2 of a player's)."""
    most = pending["most"]
    opts = []
    for place in D.PLACES:
        cap = most if place != "scribes" else min(
            most, D.SCRIBE_CAP - state["on"]["scribes"][seat])
        if cap >= 1:
            opts.append(f"place {place} {cap}")
    return opts + (["fewer"] if most > 1 else [])


def to_options(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """Where a scribe sends the worker it moves."""
    origin = pending["moving"]
    return [f"to {p}" for p in D.PLACES if p != origin and can_receive(state, seat, p)] + [
        "to stock"]


def trade_capacity(state: FloodState, seat: Seat, region: str) -> int:
    """Exchanges ``seat`` may make in ``region`` per Trade action: its workers there, or its
    armies where it has some; none where another player has an army."""
    holder = army_holder(state, region)
    if holder is None:
        return int(state["on"][region][seat])
    return int(state["troops"][region][seat]) if holder == seat else 0


def trade_options(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """The exchanges and tool-making still possible in this Trade action."""
    opts: list[str] = []
    res, bank = state["res"][seat], state["bank"]
    sippar = owns(state, seat, D.SIPPAR) and not pending["sippar"]
    for region in D.OUTER:
        cap = trade_capacity(state, seat, region)
        if cap <= 0:
            continue
        count = pending["count"].get(region, 0)
        got = pending["got"].get(region, [])
        for want in D.REGIONS[region].trade:
            if bank[want] <= 0 or not ((count < cap and want not in got) or sippar):
                continue
            opts += [f"buy {want} {region} {give}" for give in D.PAY_WITH[want]
                     if res[give] >= 1]
    if ready(state, seat, "toolmaking") >= 1 and res["metal"] >= 1 and bank["tools"] >= 1:
        opts.append("tool")
    if pending["did"]:
        opts.append("done")
    return opts


def empire_options(state: FloodState, seat: Seat) -> list[str]:
    """The empires of the round ``seat`` may initiate (one per player per round)."""
    if seat in state["initiated"]:
        return []
    opts = []
    for empire in D.empires_of(state["round"]):
        if empire in state["empires"]:
            continue
        data = D.EMPIRES[empire]
        for region in data.starts:
            if not data.in_sumer:
                mine = state["on"][region][seat]
                if mine < 1 or any(state["on"][region][s] > mine for s in range(state["n"])):
                    continue
            opts.append(f"empire {empire} {region}" if len(data.starts) > 1
                        else f"empire {empire}")
    return opts


def destroy_cost(state: FloodState, owner: Seat) -> int:
    """Armies to destroy a city of ``owner``: more behind Shuruppak's walls."""
    if owns(state, owner, D.SHURUPPAK) and len(cities_of(state, owner)) >= D.WALLS_CITIES:
        return D.WALLS_COST
    return D.DESTROY_COST


def extend_options(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """Invasions, reinforcements and city destructions still possible this turn."""
    extra = D.REPEAT_COST if pending["count"] >= 1 else 0
    hand = state["armies"]["avail"][seat]
    troops = state["troops"]
    mine = [r for r in D.INVADABLE if troops[r][seat] > 0]
    opts: list[str] = []
    if hand >= extra + 1:
        targets = {t for r in mine for t in D.INVADES[r] if troops[t][seat] == 0}
        opts += [f"invade {t}" for t in D.INVADABLE if t in targets]
        opts += [f"reinforce {r}" for r in mine if troops[r][seat] < D.REGION_ARMY_CAP]
    for region in mine:
        owner = city_owner(state, region)
        if owner is not None and owner != seat and hand >= extra + destroy_cost(state, owner):
            opts.append(f"destroy {region}")
    if pending["count"] >= 1:
        opts.append("done")
    return opts


def raise_options(state: FloodState, seat: Seat) -> list[str]:
    """Steps 2 to 4 of initiating an empire."""
    opts: list[str] = []
    res = state["res"][seat]
    armies = state["armies"]
    total = armies["avail"][seat] + placed_armies(state, seat)
    if not any(state["equip"][seat].values()) and total < D.ARMY_CAP \
            and armies["unavail"][seat] > 0:
        opts += [f"recruit {r}" for r in D.PURCHASE if res[r] >= 1]
    opts += [f"equip {r}" for r in D.RESOURCES if res[r] >= 1]
    opts += [f"march {k}" for k in range(1, min(D.INITIAL_MAX, armies["avail"][seat]) + 1)]
    return opts


def fresh(action: str, **args: str) -> Pending:
    """A new pending action."""
    pending = cast(Pending, {"action": action, **args})
    if action == "place":
        pending["spent"], pending["did"], pending["moving"] = None, False, None
    elif action == "trade":
        pending["count"], pending["got"], pending["sippar"], pending["did"] = {}, {}, False, False
    elif action == "extend":
        pending["count"], pending["battle"] = 0, None
    return pending


def _possible(state: FloodState, seat: Seat, pending: Pending) -> bool:
    """True if the chosen action can be carried out (its first steps exist)."""
    action = pending["action"]
    if action == "place":
        return bool(place_options(state, seat, pending))
    if action == "trade":
        return bool(trade_options(state, seat, pending))
    if action == "extend":
        return bool(extend_options(state, seat, pending))
    return True


def payments(state: FloodState, seat: Seat) -> list[str]:
    """What may pay one item of the opportunity cost."""
    kinds = [r for r in D.RESOURCES if state["res"][seat][r] >= 1]
    if state["armies"]["avail"][seat] >= 1:
        kinds.append("army")
    if state["workers"]["avail"][seat] >= 1:
        kinds.append("worker")
    return kinds


def _paid(state: FloodState, seat: Seat, kind: str) -> FloodState:
    """``state`` as it would be after paying ``kind`` (only the touched parts copied)."""
    hypo = state.copy()
    hypo["res"] = [dict(r) for r in state["res"]]
    hypo["bank"] = dict(state["bank"])
    workers, armies = state["workers"], state["armies"]
    hypo["workers"] = {"unavail": list(workers["unavail"]), "avail": list(workers["avail"])}
    hypo["armies"] = {"unavail": list(armies["unavail"]), "avail": list(armies["avail"])}
    pay(hypo, seat, kind)
    return hypo


def _affordable(state: FloodState, seat: Seat, pending: Pending) -> list[str]:
    """The payments after which the chosen action can still be carried out."""
    return [k for k in payments(state, seat)
            if _possible(_paid(state, seat, k), seat, pending)]


def act_options(state: FloodState, seat: Seat) -> list[str]:
    """The actions ``seat`` may choose now (passing is always possible)."""
    due = cost_due(state) > 0
    opts: list[str] = []
    if not due or payments(state, seat):
        opts += [f"build {r}" for r in build_targets(state, seat)]
        for action in ("place", "trade"):
            pending = fresh(action)
            if (_affordable(state, seat, pending) if due else _possible(state, seat, pending)):
                opts.append(action)
        opts += empire_options(state, seat)
        pending = fresh("extend")
        if _affordable(state, seat, pending) if due else _possible(state, seat, pending):
            opts.append("extend")
    return [*opts, "pass"]


def vp_options(state: FloodState, seat: Seat) -> list[str]:
    """The cities ``seat`` may extend now, and ``done``."""
    if state["res"][seat]["wood"] < D.EXTENSION_WOOD:
        return ["done"]
    return [f"enlarge {r}" for r in cities_of(state, seat)
            if not state["cities"][r][1]] + ["done"]


def lux_options(state: FloodState, seat: Seat) -> list[str]:
    added = known(state["pending"])["lux"]
    if len(added) >= D.MAX_LUXURIES:
        return ["done"]
    return [f"add {r}" for r in D.LUXURIES
            if r not in added and state["res"][seat][r] >= 1] + ["done"]


def legal(state: FloodState, seat: Seat) -> list[str]:
    """Every legal step of ``seat`` now, as notation."""
    if state["phase"] == "over" or seat != state["current"]:
        return []
    step, pending = state["step"], state["pending"] or Pending()
    if step == "act":
        return act_options(state, seat)
    if step == "pay":
        return [f"pay {k}" for k in _affordable(state, seat, pending)]
    if step == "rebase":
        return [f"from {r}" for r in cities_of(state, seat)]
    if step == "place":
        return place_options(state, seat, pending)
    if step == "put":
        return put_options(state, seat, pending)
    if step == "to":
        return to_options(state, seat, pending)
    if step == "trade":
        return trade_options(state, seat, pending)
    if step == "raise":
        return raise_options(state, seat)
    if step == "extend":
        return extend_options(state, seat, pending)
    if step == "battle":
        return ["go on", "stop"]
    if step == "bid":
        return [f"bid {r}" for r in D.RESOURCES if state["res"][seat][r] >= 1] + ["done"]
    if step == "vp":
        return vp_options(state, seat)
    if step == "lux":
        return lux_options(state, seat)
    return []
