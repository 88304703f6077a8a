"""What each step of After the Flood does to the state (a copy); an action's steps end it by
themselves when nothing more is possible."""

from __future__ import annotations

from typing import Any

from bot import chance
from bot.engine import Seat
from bot.games.flood import data as D
from bot.games.flood.options import (
    can_receive,
    destroy_cost,
    extend_options,
    fresh,
    lux_options,
    place_options,
    trade_capacity,
    trade_options,
    vp_options,
)
from bot.games.flood.pieces import (
    lose_workers,
    pay,
    place_armies,
    put_worker,
    score,
    spend_armies,
    take_bank,
    to_bank,
)
from bot.games.flood.rounds import end_turn
from bot.games.flood.state import (
    FloodState,
    army_holder,
    cities_of,
    city_owner,
    cost_due,
    owns,
    placed_armies,
    rank_of,
    ranking,
)
from bot.games.kit import known


def apply(state: FloodState, seat: Seat, notation: str) -> None:
    """Carry out the legal step ``notation`` of ``seat`` on ``state`` (a copy)."""
    words = notation.split()
    verb, args = words[0], words[1:]
    step = state["step"]
    if step == "act":
        _choose(state, seat, verb, args)
    elif step == "pay":
        pay(state, seat, args[0])
        known(state["pending"])["owed"] -= 1
        if known(state["pending"])["owed"] <= 0:
            _start(state, seat)
    elif step == "rebase":
        del state["cities"][args[0]]
        state["moved"].append(seat)
        _build(state, seat, known(state["pending"])["region"])
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


def _choose(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    """The action chosen in the ``act`` step; the opportunity cost first if it is due."""
    if verb == "pass":
        state["passed"].append(seat)
        state["pending"] = fresh("pass")
        if any(state["res"][seat].values()):
            state["step"] = "bid"
        else:
            end_turn(state)
        return
    if verb == "build":
        pending = fresh("build", region=args[0])
    elif verb == "empire":
        empire = args[0]
        region = args[1] if len(args) > 1 else D.EMPIRES[empire].starts[0]
        pending = fresh("empire", id=empire, region=region)
    else:
        pending = fresh(verb)
    state["pending"] = pending
    owed = cost_due(state)
    if owed > 0:
        pending["owed"] = owed
        state["step"] = "pay"
    else:
        _start(state, seat)


def _start(state: FloodState, seat: Seat) -> None:
    """The chosen action begins (its cost, if any, paid)."""
    pending = known(state["pending"])
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


def _build(state: FloodState, seat: Seat, region: str) -> None:
    """A base in ``region``; Eridu and Uruk bring a worker at once."""
    state["cities"][region] = [seat, False]
    box = D.BUILD_BONUS.get(region)
    if box is None or not can_receive(state, seat, box):
        return
    workers = state["workers"]
    source = workers["unavail"] if workers["unavail"][seat] > 0 else workers["avail"]
    if source[seat] <= 0:
        return
    source[seat] -= 1
    put_worker(state, seat, box)


# -- Place Workers ------------------------------------------------------------------------


def _use_scribe(state: FloodState, seat: Seat) -> None:
    state["used"]["scribes"][seat] += 1


def _take_moved(state: FloodState, seat: Seat, origin: str) -> None:
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


def _place_step(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    pending = known(state["pending"])
    hand = state["workers"]["avail"]
    if verb == "done":
        end_turn(state)
        return
    if verb == "spend":
        to_bank(state, seat, args[0])
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
        put_worker(state, seat, args[0], count)
    elif verb == "scribe":
        _use_scribe(state, seat)
        hand[seat] -= 1
        put_worker(state, seat, args[0])
    elif verb == "move":
        _use_scribe(state, seat)
        pending["moving"] = args[0]
        state["step"] = "to"
        return
    elif verb == "to":
        _take_moved(state, seat, known(pending["moving"]))
        if args[0] == "stock":
            hand[seat] += 1
        else:
            put_worker(state, seat, args[0])
        pending["moving"] = None
    pending["did"] = True
    state["step"] = "place"
    if place_options(state, seat, pending) == ["done"]:
        end_turn(state)


# -- Trade --------------------------------------------------------------------------------


def _trade_step(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    pending = known(state["pending"])
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
        to_bank(state, seat, give)
        take_bank(state, seat, want, 1)
    else:
        to_bank(state, seat, "metal")
        take_bank(state, seat, "tools", 1)
        state["used"]["toolmaking"][seat] += 1
    pending["did"] = True
    if trade_options(state, seat, pending) == ["done"]:
        end_turn(state)


# -- Initiate an Empire -------------------------------------------------------------------


def _gain_armies(state: FloodState, seat: Seat, count: int) -> int:
    """Armies from the unavailable stock, never more than 20 available and placed."""
    armies = state["armies"]
    room = D.ARMY_CAP - armies["avail"][seat] - placed_armies(state, seat)
    got = max(0, min(count, room, armies["unavail"][seat]))
    armies["unavail"][seat] -= got
    armies["avail"][seat] += got
    return int(got)


def _initiate(state: FloodState, seat: Seat, empire: str) -> None:
    """Step 1: the empire's armies (and Babylon's) become available."""
    state["empires"][empire] = seat
    state["initiated"].append(seat)
    count = D.EMPIRES[empire].armies
    if owns(state, seat, D.BABYLON):
        count += D.bonus_number(D.BABYLON, "armies")
    known(state["pending"])["gained"] = _gain_armies(state, seat, count)
    state["step"] = "raise"


def _raise_step(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    pending = known(state["pending"])
    if verb == "recruit":
        to_bank(state, seat, args[0])
        pending["recruited"] = _gain_armies(state, seat, D.PURCHASE[args[0]])
    elif verb == "equip":
        state["res"][seat][args[0]] -= 1
        state["equip"][seat][args[0]] += 1
    else:
        region, count = pending["region"], int(args[0])
        if region in state["on"]:
            lose_workers(state, seat, region, state["on"][region][seat])
        defender = army_holder(state, region)
        if defender is not None and defender != seat:
            pending["battle"] = {"region": region, "defender": defender, "march": count}
            _roll(state, seat)
        else:
            place_armies(state, seat, region, count)
            end_turn(state)


# -- Extend an Empire and battles ---------------------------------------------------------


def _extend_step(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    pending = known(state["pending"])
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
        spend_armies(state, seat, D.REPEAT_COST)
    pending["count"] += 1
    region = args[0]
    if verb == "invade":
        defender = army_holder(state, region)
        if defender is not None:
            pending["battle"] = {"region": region, "defender": defender, "march": 1}
            _roll(state, seat)
            return
        place_armies(state, seat, region, 1)
    elif verb == "reinforce":
        place_armies(state, seat, region, 1)
    else:
        owner = city_owner(state, region)
        assert owner is not None
        spend_armies(state, seat, destroy_cost(state, owner))
        del state["cities"][region]
    _extend_next(state, seat)


def _extend_next(state: FloodState, seat: Seat) -> None:
    state["step"] = "extend"
    if extend_options(state, seat, known(state["pending"])) == ["done"]:
        end_turn(state)


def better_equipped(state: FloodState, attacker: Seat, defender: Seat) -> bool:
    """True if ``attacker``'s equipment ranks above ``defender``'s (ranks never tie)."""
    ranked = ranking(state)
    return ranked.index(attacker) < ranked.index(defender)


def _roll(state: FloodState, seat: Seat) -> None:
    """One roll of the battle under way: 2d6 against 5 (better equipped) or 7."""
    pending = known(state["pending"])
    battle = known(pending["battle"])
    region, defender = battle["region"], battle["defender"]
    dice = chance.Draw(state).dice(D.DICE, D.SIDES)
    need = D.BETTER_ROLL if better_equipped(state, seat, defender) else D.WORSE_ROLL
    won = sum(dice) >= need
    if won:
        state["troops"][region][defender] -= 1
        state["armies"]["unavail"][defender] += 1
    else:
        spend_armies(state, seat, 1)
    last: dict[str, Any] = {
        "seat": seat, "region": region, "defender": defender, "dice": dice, "need": need,
        "won": won, "ranks": [rank_of(state, seat), rank_of(state, defender)],
        "left": state["troops"][region][defender], "result": None,
    }
    state["last"] = last
    if state["troops"][region][defender] == 0:
        count = min(battle["march"], state["armies"]["avail"][seat])
        place_armies(state, seat, region, count)
        last["result"] = "took"
        _battle_over(state, seat)
    elif state["armies"]["avail"][seat] == 0:
        last["result"] = "repelled"
        _battle_over(state, seat)
    else:
        state["step"] = "battle"


def _battle_over(state: FloodState, seat: Seat) -> None:
    pending = known(state["pending"])
    pending["battle"] = None
    if pending["action"] == "empire":
        end_turn(state)
    else:
        _extend_next(state, seat)


# -- phase 5: extending cities ------------------------------------------------------------


def _vp_step(state: FloodState, seat: Seat, verb: str, args: list[str]) -> None:
    if state["step"] == "vp":
        if verb == "done":
            end_turn(state)
            return
        to_bank(state, seat, "wood", D.EXTENSION_WOOD)
        state["pending"] = {"action": "enlarge", "city": args[0], "lux": []}
        state["step"] = "lux"
        if lux_options(state, seat) != ["done"]:
            return
    elif verb == "add":
        to_bank(state, seat, args[0])
        known(state["pending"])["lux"].append(args[0])
        if lux_options(state, seat) != ["done"]:
            return
    pending = known(state["pending"])
    points = D.CITY_VP[len(pending["lux"])]
    state["cities"][pending["city"]][1] = True
    score(state, seat, "cities", points)
    state["last"] = {"enlarged": pending["city"], "lux": pending["lux"], "vp": points}
    state["pending"] = None
    state["step"] = "vp"
    if vp_options(state, seat) == ["done"]:
        end_turn(state)
