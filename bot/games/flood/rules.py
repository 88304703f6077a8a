"""The steps of After the Flood: which are legal now, and what each does to the state.

A round runs by itself through collection (phase 1) and decline (phase 2, rounds 2 and
4), then asks the players in turn order for one action each (phase 3) until all have
passed; the next order (phase 4) and the armies' points (phase 5) follow by themselves,
then each player in the new order may extend cities, and phase 6 clears the board for the
next round. After round 5 the worker majorities score and the game is over.

A turn is one action in small steps (``step``):

- ``act``: ``build <region>``, ``place``, ``trade``, ``empire <id> [<region>]``,
  ``extend`` or ``pass``. Once someone has passed, a non-pass action first asks ``pay``:
  ``pay <resource>``, ``pay army`` or ``pay worker`` (the opportunity cost).
- Build a City: done at once, or ``rebase`` (``from <region>``) when all bases are placed.
- Place Workers (``place``): ``spend <resource>`` then ``put`` (``place <where> <k>``, or
  ``fewer`` first to place fewer than the resource's value);
  scribes: ``scribe <where>`` (a worker from the stock) or ``move <from>`` then ``to``
  (``to <where>`` or ``to stock``); ``done``.
- Trade (``trade``): ``buy <get> <region> <give>``, ``tool`` (one metal into tools),
  ``done``.
- Initiate an Empire (``raise``): ``recruit grain|metal|tools``, ``equip <resource>``, then
  ``march 1`` or ``march 2``; an enemy army there means a battle.
- Extend an Empire (``extend``): ``invade <region>``, ``reinforce <region>``,
  ``destroy <region>``, ``done``; a battle (``battle``) rolls at once, then ``go on`` or
  ``stop`` after each roll (stopping ends the action).
- Pass (``bid``): ``bid <resource>`` into the Passed box, ``done``.
- Victory Points phase: ``vp`` (``enlarge <city>``, ``done``) and ``lux``
  (``add <luxury>``, ``done``).

An action's steps end it by themselves when nothing more is possible. Every rule is cited
in ``data/flood/RULINGS.md``.
"""

from __future__ import annotations

from typing import Any

from bot import chance
from bot.engine import Seat, State
from bot.games.flood import data as D
from bot.games.flood.state import (
    army_holder,
    cities_of,
    city_owner,
    cost_due,
    next_order,
    owns,
    placed_armies,
    placed_workers,
    rank_of,
    ranking,
    ready,
)

ACTIONS = ("build", "place", "trade", "empire", "extend")


# -- small moves of pieces and goods --------------------------------------------------------


def _take_bank(state: State, seat: Seat, res: str, count: int) -> int:
    """Give ``seat`` up to ``count`` of ``res`` from the bank; how many it got."""
    got = min(count, state["bank"][res])
    state["bank"][res] -= got
    state["res"][seat][res] += got
    return int(got)


def _to_bank(state: State, seat: Seat, res: str, count: int = 1) -> None:
    state["res"][seat][res] -= count
    state["bank"][res] += count


def _lose_workers(state: State, seat: Seat, place: str, count: int) -> int:
    """Remove up to ``count`` of ``seat``'s workers from ``place`` to the unavailable stock
    (workers on the right of a box first)."""
    count = min(count, state["on"][place][seat])
    if count <= 0:
        return 0
    state["on"][place][seat] -= count
    if place in state["used"]:
        used = state["used"][place]
        used[seat] = max(0, used[seat] - count)
    state["workers"]["unavail"][seat] += count
    return int(count)


def _put_worker(state: State, seat: Seat, place: str, count: int = 1) -> None:
    """Put ``count`` workers of ``seat`` in ``place`` (from wherever the caller took them):
    a new scribe enters on the right (used this round), a toolmaker on the left."""
    state["on"][place][seat] += count
    if place == "scribes":
        state["used"]["scribes"][seat] += count


def _place_armies(state: State, seat: Seat, region: str, count: int) -> None:
    state["armies"]["avail"][seat] -= count
    state["troops"][region][seat] += count


def _spend_armies(state: State, seat: Seat, count: int) -> None:
    """Available armies spent: they become unavailable."""
    state["armies"]["avail"][seat] -= count
    state["armies"]["unavail"][seat] += count


# -- what can be done ----------------------------------------------------------------------


def build_targets(state: State, seat: Seat) -> list[str]:
    """Sumer regions where ``seat`` may build: no city and no other player's army; with all
    bases placed, only if no base was moved this round."""
    if len(cities_of(state, seat)) >= D.BASES and seat in state["moved"]:
        return []
    return [r for r in D.CITY_SITES if r not in state["cities"]
            and army_holder(state, r) in (None, seat)]


def _can_receive(state: State, seat: Seat, place: str) -> bool:
    return place != "scribes" or state["on"]["scribes"][seat] < D.SCRIBE_CAP


def place_options(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
    """The steps of a Place Workers action (``done`` once something was done)."""
    opts: list[str] = []
    hand = state["workers"]["avail"][seat]
    if pending["spent"] is None and hand >= 1:
        opts += [f"spend {r}" for r in D.RESOURCES if state["res"][seat][r] >= 1]
    if ready(state, seat, "scribes") >= 1:
        if hand >= 1:
            opts += [f"scribe {p}" for p in D.PLACES if _can_receive(state, seat, p)]
        for place in D.PLACES:
            mine = state["on"][place][seat]
            if mine >= (2 if place == "scribes" else 1):
                opts.append(f"move {place}")
    if pending["did"]:
        opts.append("done")
    return opts


def put_options(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
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


def to_options(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
    """Where a scribe sends the worker it moves."""
    origin = pending["moving"]
    return [f"to {p}" for p in D.PLACES if p != origin and _can_receive(state, seat, p)] + [
        "to stock"]


def trade_capacity(state: State, seat: Seat, region: str) -> int:
    """Exchanges ``seat`` may make in ``region`` per Trade action: its workers there, or its
    armies where it has some; none where another player has an army."""
    holder = army_holder(state, region)
    if holder is None:
        return int(state["on"][region][seat])
    return int(state["troops"][region][seat]) if holder == seat else 0


def trade_options(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
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


def empire_options(state: State, seat: Seat) -> list[str]:
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


def destroy_cost(state: State, owner: Seat) -> int:
    """Armies to destroy a city of ``owner``: more behind Shuruppak's walls."""
    if owns(state, owner, D.SHURUPPAK) and len(cities_of(state, owner)) >= D.WALLS_CITIES:
        return D.WALLS_COST
    return D.DESTROY_COST


def extend_options(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
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


def raise_options(state: State, seat: Seat) -> list[str]:
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


def _fresh(action: str, **args: Any) -> dict[str, Any]:
    """A new pending action."""
    pending: dict[str, Any] = {"action": action, **args}
    if action == "place":
        pending.update(spent=None, did=False, moving=None)
    elif action == "trade":
        pending.update(count={}, got={}, sippar=False, did=False)
    elif action == "extend":
        pending.update(count=0, battle=None)
    return pending


def _possible(state: State, seat: Seat, pending: dict[str, Any]) -> bool:
    """True if the chosen action can be carried out (its first steps exist)."""
    action = pending["action"]
    if action == "place":
        return bool(place_options(state, seat, pending))
    if action == "trade":
        return bool(trade_options(state, seat, pending))
    if action == "extend":
        return bool(extend_options(state, seat, pending))
    return True


def payments(state: State, seat: Seat) -> list[str]:
    """What may pay one item of the opportunity cost."""
    kinds = [r for r in D.RESOURCES if state["res"][seat][r] >= 1]
    if state["armies"]["avail"][seat] >= 1:
        kinds.append("army")
    if state["workers"]["avail"][seat] >= 1:
        kinds.append("worker")
    return kinds


def _pay(state: State, seat: Seat, kind: str) -> None:
    if kind == "army":
        _spend_armies(state, seat, 1)
    elif kind == "worker":
        state["workers"]["avail"][seat] -= 1
        state["workers"]["unavail"][seat] += 1
    else:
        _to_bank(state, seat, kind)


def _paid(state: State, seat: Seat, kind: str) -> State:
    """``state`` as it would be after paying ``kind`` (only the touched parts copied)."""
    hypo = dict(state)
    hypo["res"] = [dict(r) for r in state["res"]]
    hypo["bank"] = dict(state["bank"])
    hypo["workers"] = {k: list(v) for k, v in state["workers"].items()}
    hypo["armies"] = {k: list(v) for k, v in state["armies"].items()}
    _pay(hypo, seat, kind)
    return hypo


def _affordable(state: State, seat: Seat, pending: dict[str, Any]) -> list[str]:
    """The payments after which the chosen action can still be carried out."""
    return [k for k in payments(state, seat)
            if _possible(_paid(state, seat, k), seat, pending)]


def act_options(state: State, seat: Seat) -> list[str]:
    """The actions ``seat`` may choose now (passing is always possible)."""
    due = cost_due(state) > 0
    opts: list[str] = []
    if not due or payments(state, seat):
        opts += [f"build {r}" for r in build_targets(state, seat)]
        for action in ("place", "trade"):
            pending = _fresh(action)
            if (_affordable(state, seat, pending) if due else _possible(state, seat, pending)):
                opts.append(action)
        opts += empire_options(state, seat)
        pending = _fresh("extend")
        if _affordable(state, seat, pending) if due else _possible(state, seat, pending):
            opts.append("extend")
    return [*opts, "pass"]


def vp_options(state: State, seat: Seat) -> list[str]:
    """The cities ``seat`` may extend now, and ``done``."""
    if state["res"][seat]["wood"] < D.EXTENSION_WOOD:
        return ["done"]
    return [f"enlarge {r}" for r in cities_of(state, seat)
            if not state["cities"][r][1]] + ["done"]


def lux_options(state: State, seat: Seat) -> list[str]:
    added = state["pending"]["lux"]
    if len(added) >= D.MAX_LUXURIES:
        return ["done"]
    return [f"add {r}" for r in D.LUXURIES
            if r not in added and state["res"][seat][r] >= 1] + ["done"]


def legal(state: State, seat: Seat) -> list[str]:
    """Every legal step of ``seat`` now, as notation."""
    if state["phase"] == "over" or seat != state["current"]:
        return []
    step, pending = state["step"], state["pending"]
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


# -- what each step does ----------------------------------------------------------------------


def apply(state: State, seat: Seat, notation: str) -> None:
    """Carry out the legal step ``notation`` of ``seat`` on ``state`` (a copy)."""
    words = notation.split()
    verb, args = words[0], words[1:]
    step = state["step"]
    if step == "act":
        _choose(state, seat, verb, args)
    elif step == "pay":
        _pay(state, seat, args[0])
        state["pending"]["owed"] -= 1
        if state["pending"]["owed"] <= 0:
            _start(state, seat)
    elif step == "rebase":
        del state["cities"][args[0]]
        state["moved"].append(seat)
        _build(state, seat, state["pending"]["region"])
        end_turn(state)
    elif step in ("place", "put", "to"):
        _place_step(state, seat, verb, args)
    elif step == "trade":
        _trade_step(state, seat, verb, args)
    elif step == "raise":
        _raise_step(state, seat, verb, args)
    elif step in ("extend", "battle"):
        _extend_step(state, seat, verb, args)
    elif step == "bid":
        if verb == "done":
            end_turn(state)
        else:
            state["res"][seat][args[0]] -= 1
            state["pass_box"][seat][args[0]] += 1
            if not any(state["res"][seat].values()):
                end_turn(state)
    else:
        _vp_step(state, seat, verb, args)


def _choose(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    """The action chosen in the ``act`` step; the opportunity cost first if it is due."""
    if verb == "pass":
        state["passed"].append(seat)
        state["pending"] = _fresh("pass")
        if any(state["res"][seat].values()):
            state["step"] = "bid"
        else:
            end_turn(state)
        return
    if verb == "build":
        pending = _fresh("build", region=args[0])
    elif verb == "empire":
        empire = args[0]
        region = args[1] if len(args) > 1 else D.EMPIRES[empire].starts[0]
        pending = _fresh("empire", id=empire, region=region)
    else:
        pending = _fresh(verb)
    state["pending"] = pending
    owed = cost_due(state)
    if owed > 0:
        pending["owed"] = owed
        state["step"] = "pay"
    else:
        _start(state, seat)


def _start(state: State, seat: Seat) -> None:
    """The chosen action begins (its cost, if any, paid)."""
    pending = state["pending"]
    action = pending["action"]
    if action == "build":
        if len(cities_of(state, seat)) >= D.BASES:
            state["step"] = "rebase"
        else:
            _build(state, seat, pending["region"])
            end_turn(state)
    elif action == "empire":
        _initiate(state, seat, pending["id"])
    else:
        state["step"] = action           # place, trade or extend


def _build(state: State, seat: Seat, region: str) -> None:
    """A base in ``region``; Eridu and Uruk bring a worker at once."""
    state["cities"][region] = [seat, False]
    box = D.BUILD_BONUS.get(region)
    if box is None or not _can_receive(state, seat, box):
        return
    workers = state["workers"]
    source = "unavail" if workers["unavail"][seat] > 0 else "avail"
    if workers[source][seat] <= 0:
        return
    workers[source][seat] -= 1
    _put_worker(state, seat, box)


# -- Place Workers ------------------------------------------------------------------------


def _use_scribe(state: State, seat: Seat) -> None:
    state["used"]["scribes"][seat] += 1


def _take_moved(state: State, seat: Seat, origin: str) -> None:
    """Take the worker a scribe moves out of ``origin``: out of Toolmaking a used one if
    any; out of Scribes another than the scribe moving it (already moved right), a used
    one if any."""
    state["on"][origin][seat] -= 1
    if origin not in state["used"]:
        return
    used = state["used"][origin]
    if origin == "scribes":
        if used[seat] >= 2:              # another used scribe besides the mover
            used[seat] -= 1
    elif used[seat] > 0:
        used[seat] -= 1


def _place_step(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    pending = state["pending"]
    hand = state["workers"]["avail"]
    if verb == "done":
        end_turn(state)
        return
    if verb == "spend":
        _to_bank(state, seat, args[0])
        pending["spent"] = args[0]
        pending["most"] = min(D.VALUES[args[0]], hand[seat])
        state["step"] = "put"
        return
    if verb == "fewer":
        pending["most"] -= 1
        return
    if verb == "place":
        count = int(args[1])
        hand[seat] -= count
        _put_worker(state, seat, args[0], count)
    elif verb == "scribe":
        _use_scribe(state, seat)
        hand[seat] -= 1
        _put_worker(state, seat, args[0])
    elif verb == "move":
        _use_scribe(state, seat)
        pending["moving"] = args[0]
        state["step"] = "to"
        return
    elif verb == "to":
        _take_moved(state, seat, pending["moving"])
        if args[0] == "stock":
            hand[seat] += 1
        else:
            _put_worker(state, seat, args[0])
        pending["moving"] = None
    pending["did"] = True
    state["step"] = "place"
    if place_options(state, seat, pending) == ["done"]:
        end_turn(state)


# -- Trade --------------------------------------------------------------------------------


def _trade_step(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    pending = state["pending"]
    if verb == "done":
        end_turn(state)
        return
    if verb == "buy":
        want, region, give = args
        cap = trade_capacity(state, seat, region)
        count = pending["count"].get(region, 0)
        got = pending["got"].setdefault(region, [])
        if count < cap and want not in got:
            pending["count"][region] = count + 1
            got.append(want)
        else:
            pending["sippar"] = True          # Sippar's extra exchange
        _to_bank(state, seat, give)
        _take_bank(state, seat, want, 1)
    else:
        _to_bank(state, seat, "metal")
        _take_bank(state, seat, "tools", 1)
        state["used"]["toolmaking"][seat] += 1
    pending["did"] = True
    if trade_options(state, seat, pending) == ["done"]:
        end_turn(state)


# -- Initiate an Empire -------------------------------------------------------------------------


def _gain_armies(state: State, seat: Seat, count: int) -> int:
    """Armies from the unavailable stock, never more than 20 available and placed."""
    armies = state["armies"]
    room = D.ARMY_CAP - armies["avail"][seat] - placed_armies(state, seat)
    got = max(0, min(count, room, armies["unavail"][seat]))
    armies["unavail"][seat] -= got
    armies["avail"][seat] += got
    return int(got)


def _initiate(state: State, seat: Seat, empire: str) -> None:
    """Step 1: the empire's armies (and Babylon's) become available."""
    state["empires"][empire] = seat
    state["initiated"].append(seat)
    count = D.EMPIRES[empire].armies
    if owns(state, seat, D.BABYLON):
        count += D.bonus_number(D.BABYLON, "armies")
    state["pending"]["gained"] = _gain_armies(state, seat, count)
    state["step"] = "raise"


def _raise_step(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    pending = state["pending"]
    if verb == "recruit":
        _to_bank(state, seat, args[0])
        pending["recruited"] = _gain_armies(state, seat, D.PURCHASE[args[0]])
    elif verb == "equip":
        state["res"][seat][args[0]] -= 1
        state["equip"][seat][args[0]] += 1
    else:
        region, count = pending["region"], int(args[0])
        if region in state["on"]:
            _lose_workers(state, seat, region, state["on"][region][seat])
        defender = army_holder(state, region)
        if defender is not None and defender != seat:
            pending["battle"] = {"region": region, "defender": defender, "march": count}
            _roll(state, seat)
        else:
            _place_armies(state, seat, region, count)
            end_turn(state)


# -- Extend an Empire and battles ------------------------------------------------------------


def _extend_step(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    pending = state["pending"]
    if verb == "done":
        end_turn(state)
        return
    if verb == "go":
        _roll(state, seat)
        return
    if verb == "stop":                 # stopping an invasion ends the action
        state["last"] = dict(state["last"] or {}, result="stopped")
        end_turn(state)
        return
    if pending["count"] >= 1:
        _spend_armies(state, seat, D.REPEAT_COST)
    pending["count"] += 1
    region = args[0]
    if verb == "invade":
        defender = army_holder(state, region)
        if defender is not None:
            pending["battle"] = {"region": region, "defender": defender, "march": 1}
            _roll(state, seat)
            return
        _place_armies(state, seat, region, 1)
    elif verb == "reinforce":
        _place_armies(state, seat, region, 1)
    else:
        owner = city_owner(state, region)
        assert owner is not None
        _spend_armies(state, seat, destroy_cost(state, owner))
        del state["cities"][region]
    _extend_next(state, seat)


def _extend_next(state: State, seat: Seat) -> None:
    state["step"] = "extend"
    if extend_options(state, seat, state["pending"]) == ["done"]:
        end_turn(state)


def better_equipped(state: State, attacker: Seat, defender: Seat) -> bool:
    """True if ``attacker``'s equipment ranks above ``defender``'s (ranks never tie)."""
    ranked = ranking(state)
    return ranked.index(attacker) < ranked.index(defender)


def _roll(state: State, seat: Seat) -> None:
    """One roll of the battle under way: 2d6 against 5 (better equipped) or 7."""
    pending = state["pending"]
    battle = pending["battle"]
    region, defender = battle["region"], battle["defender"]
    dice = chance.Draw(state).dice(D.DICE, D.SIDES)
    need = D.BETTER_ROLL if better_equipped(state, seat, defender) else D.WORSE_ROLL
    won = sum(dice) >= need
    if won:
        state["troops"][region][defender] -= 1
        state["armies"]["unavail"][defender] += 1
    else:
        _spend_armies(state, seat, 1)
    last: dict[str, Any] = {
        "seat": seat, "region": region, "defender": defender, "dice": dice, "need": need,
        "won": won, "ranks": [rank_of(state, seat), rank_of(state, defender)],
        "left": state["troops"][region][defender], "result": None,
    }
    state["last"] = last
    if state["troops"][region][defender] == 0:
        count = min(battle["march"], state["armies"]["avail"][seat])
        _place_armies(state, seat, region, count)
        last["result"] = "took"
        _battle_over(state, seat)
    elif state["armies"]["avail"][seat] == 0:
        last["result"] = "repelled"
        _battle_over(state, seat)
    else:
        state["step"] = "battle"


def _battle_over(state: State, seat: Seat) -> None:
    pending = state["pending"]
    pending["battle"] = None
    if pending["action"] == "empire":
        end_turn(state)
    else:
        _extend_next(state, seat)


# -- phase 5: extending cities ------------------------------------------------------------------


def _vp_step(state: State, seat: Seat, verb: str, args: list[str]) -> None:
    if state["step"] == "vp":
        if verb == "done":
            end_turn(state)
            return
        _to_bank(state, seat, "wood", D.EXTENSION_WOOD)
        state["pending"] = {"action": "enlarge", "city": args[0], "lux": []}
        state["step"] = "lux"
        if lux_options(state, seat) != ["done"]:
            return
    elif verb == "add":
        _to_bank(state, seat, args[0])
        state["pending"]["lux"].append(args[0])
        if lux_options(state, seat) != ["done"]:
            return
    pending = state["pending"]
    points = D.CITY_VP[len(pending["lux"])]
    state["cities"][pending["city"]][1] = True
    _score(state, seat, "cities", points)
    state["last"] = {"enlarged": pending["city"], "lux": pending["lux"], "vp": points}
    state["pending"] = None
    state["step"] = "vp"
    if vp_options(state, seat) == ["done"]:
        end_turn(state)


def _score(state: State, seat: Seat, source: str, points: int) -> None:
    state["vp"][seat] += points
    state["vp_from"][seat][source] += points


# -- turns, rounds and the automatic phases ---------------------------------------------------


def end_turn(state: State) -> None:
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


def _end_actions(state: State) -> None:
    """Phases 4 and 5: the next order from the Passed boxes, the armies' points, then the
    city extensions in the new order."""
    state["order"] = next_order(state)
    state["events"].append({"k": "order", "order": list(state["order"])})
    for seat in state["order"]:
        before = state["vp"][seat]
        held = [r for r in D.INVADABLE if state["troops"][r][seat] > 0]
        if held:
            _score(state, seat, "armies", D.REGION_VP * len(held))
        if owns(state, seat, D.NIPPUR):
            sumer = sum(1 for r in held if D.REGIONS[r].in_sumer)
            if sumer:
                _score(state, seat, "nippur",
                       D.bonus_number(D.NIPPUR, "vp_per_sumer_region_with_army") * sumer)
        if held:
            state["events"].append({"k": "army_vp", "seat": seat, "regions": len(held),
                                    "vp": state["vp"][seat] - before})
    state["phase"] = "vp"
    state["vp_left"] = list(state["order"])
    state["current"] = state["order"][0]
    _next_vp(state, first=True)


def _next_vp(state: State, first: bool = False) -> None:
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


def _end_round(state: State) -> None:
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
    state.update(empires={}, initiated=[], passed=[], moved=[], vp_left=[])
    if state["round"] >= D.ROUNDS:
        _final_majorities(state)
        state.update(phase="over", step="over", pending=None)
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


def collect(state: State) -> None:
    """Phase 1: grain by Irrigation, cloth by Weaving (the bank pays in turn order), Ur's
    cloth, then 8 workers each (never more than 25 in play)."""
    for by_rank, box, res in ((D.GRAIN_BY_RANK, "irrigation", "grain"),
                              (D.CLOTH_BY_RANK, "weaving", "cloth")):
        amounts = ranked_amounts(by_rank, state["on"][box])
        for seat in state["order"]:
            _take_bank(state, seat, res, amounts[seat])
    owner = city_owner(state, D.UR)
    if owner is not None:
        _take_bank(state, owner, "cloth", D.bonus_number(D.UR, "cloth"))
    workers = state["workers"]
    for seat in range(state["n"]):
        room = D.MAX_WORKERS - workers["avail"][seat] - placed_workers(state, seat)
        gain = max(0, min(D.INCOME, workers["unavail"][seat], room))
        workers["unavail"][seat] -= gain
        workers["avail"][seat] += gain


def decline(state: State) -> None:
    """Phase 2 (rounds 2 and 4): Dilmun emptied, one worker off every other region outside
    Sumer, Irrigation and Weaving cut down to the leaders' 2, one scribe and one toolmaker
    off; every worker removed becomes unavailable."""
    n = state["n"]
    for seat in range(n):
        _lose_workers(state, seat, D.DECLINE_ALL, state["on"][D.DECLINE_ALL][seat])
    for region in D.OUTER:
        if region != D.DECLINE_ALL:
            for seat in range(n):
                _lose_workers(state, seat, region, D.DECLINE_OUTER)
    for box in D.DECLINE_FIELDS:
        most = max(state["on"][box])
        removed = most - D.LEADER_KEEPS
        if removed > 0:
            for seat in range(n):
                _lose_workers(state, seat, box, removed)
    for seat in range(n):
        _lose_workers(state, seat, "scribes", D.DECLINE_SCRIBES)
        _lose_workers(state, seat, "toolmaking", D.DECLINE_TOOLS)


def _final_majorities(state: State) -> None:
    """The end: whoever has the most workers in a region or box printing points scores
    them; a tie scores nothing."""
    for place in D.PLACES:
        points = D.PLACE_VP[place]
        counts = state["on"][place]
        best = max(counts)
        if points <= 0 or best <= 0 or counts.count(best) > 1:
            continue
        seat = counts.index(best)
        _score(state, seat, "majorities", points)
        state["events"].append({"k": "majority", "seat": seat, "place": place, "vp": points})


def start_game(state: State) -> None:
    """Round 1 after the installation: its collection (no decline)."""
    collect(state)
    state["events"] = []
