"""The words of After the Flood: each step's label, what each step did and what a panel
asks. Only :class:`~bot.engine.Text` values: the catalogue holds the words
(``data/locales/<lang>/flood.json``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot import chance
from bot.engine import Action, Prompt, Report, Seat, State, Text, TextArg, seat_ref
from bot.games.flood import data as D
from bot.games.flood.rules import destroy_cost, trade_capacity
from bot.games.flood.state import cost_due, equipment_value, pass_value, rank_of

GROUPS = {
    "build": "build", "from": "build", "place": "place", "spend": "place", "scribe": "place",
    "move": "place", "to": "place", "fewer": "place", "trade": "trade", "buy": "trade",
    "tool": "trade",
    "empire": "empire", "recruit": "empire", "equip": "empire", "march": "empire",
    "extend": "extend", "invade": "extend", "reinforce": "extend", "destroy": "extend",
    "go": "battle", "stop": "battle", "pass": "pass", "bid": "pass", "pay": "cost",
    "enlarge": "vp", "add": "vp", "done": "end",
}


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"flood.{key}", **args)


def _item(kind: str) -> Text:
    """A thing paid: a resource, an army or a worker."""
    return _t(f"item.{kind}") if kind in ("army", "worker") else D.res_name(kind)


# -- labels ---------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def label(step: str, notation: str) -> Text:
    """How a legal step reads in the panel and in autocomplete (the same in every state
    with the same step)."""
    words = notation.split()
    verb, args = words[0], words[1:]
    if verb == "build":
        region = args[0]
        if D.REGIONS[region].bonus:
            return _t("act.build_bonus", region=D.region_name(region),
                      bonus=D.bonus_name(region))
        return _t("act.build", region=D.region_name(region))
    if verb == "empire":
        empire = D.EMPIRES[args[0]]
        region = args[1] if len(args) > 1 else empire.starts[0]
        return _t("act.empire", empire=D.empire_name(empire.id), region=D.region_name(region),
                  n=empire.armies)
    if verb == "pay":
        return _t("act.pay", item=_item(args[0]))
    if verb in ("from", "invade", "reinforce", "destroy", "enlarge"):
        return _t(f"act.{verb}", region=D.region_name(args[0]))
    if verb == "spend":
        return _t("act.spend", res=D.res_name(args[0]), n=D.VALUES[args[0]])
    if verb == "place" and args:
        return _t("act.put", where=D.place_name(args[0]), n=int(args[1]))
    if verb in ("scribe", "move"):
        return _t(f"act.{verb}", where=D.place_name(args[0]))
    if verb == "to":
        if args[0] == "stock":
            return _t("act.to_stock")
        return _t("act.to", where=D.place_name(args[0]))
    if verb == "buy":
        want, region, give = args
        return _t("act.buy", get=D.res_name(want), region=D.region_name(region),
                  give=D.res_name(give))
    if verb == "recruit":
        return _t("act.recruit", res=D.res_name(args[0]), n=D.PURCHASE[args[0]])
    if verb in ("equip", "bid"):
        return _t(f"act.{verb}", res=D.res_name(args[0]), value=D.VALUES[args[0]])
    if verb == "march":
        return _t("act.march", n=int(args[0]))
    if verb == "add":
        return _t("act.add", res=D.res_name(args[0]))
    if verb == "go":
        return _t("act.go_on")
    if verb == "fewer":
        return _t("act.fewer")
    if verb == "done":
        return _t(f"act.done_{step}" if step in ("bid", "vp", "lux") else "act.done")
    return _t(f"act.{verb}")


def action(state: State, notation: str) -> Action:
    """A legal step with its label and group."""
    return _action(state["step"], notation)


@lru_cache(maxsize=8192)
def _action(step: str, notation: str) -> Action:
    return Action(notation, label(step, notation), GROUPS.get(notation.split(" ", 1)[0], ""))


# -- reports ----------------------------------------------------------------------------------


def _join(parts: list[Text]) -> Text:
    text = parts[0]
    for part in parts[1:]:
        text = _t("did.join", a=text, b=part)
    return text


def _dice(dice: list[int]) -> str:
    return "+".join(str(d) for d in dice)


def _roll(last: dict[str, Any]) -> Text:
    """A roll of a battle, as everyone reads it."""
    result = _t("roll.win" if last["won"] else "roll.lose")
    if last["result"] in ("took", "repelled"):
        result = _join([result, _t(f"roll.{last['result']}")])
    return _t("did.roll", who=seat_ref(last["defender"]), region=D.region_name(last["region"]),
              mine=last["ranks"][0] or "-", theirs=last["ranks"][1] or "-",
              dice=_dice(last["dice"]), total=sum(last["dice"]), need=last["need"],
              result=result)


def _events(after: State) -> list[Text]:
    """What the automatic phases did at the end of the step."""
    found: list[Text] = []
    for event in after.get("events", []):
        kind = event["k"]
        if kind == "order":
            found.append(_t("ev.order", order=tuple(seat_ref(s) for s in event["order"])))
        elif kind == "army_vp":
            found.append(_t("ev.army_vp", who=seat_ref(event["seat"]), n=event["regions"],
                            vp=event["vp"]))
        elif kind == "round":
            found.append(_t("ev.round", round=event["round"]))
        elif kind == "majority":
            found.append(_t("ev.majority", who=seat_ref(event["seat"]),
                            place=D.place_name(event["place"]), vp=event["vp"]))
        elif kind == "over":
            found.append(_t("ev.over"))
    return found


def _did(before: State, seat: Seat, notation: str, after: State) -> list[Text]:
    """What the step itself did (its consequences are added by :func:`report`)."""
    words = notation.split()
    verb, args = words[0], words[1:]
    step = before["step"]
    rolled = chance.drew(before, after)
    if step == "act":
        if verb == "pass":
            return [_t("did.pass")]
        done = _built(before, seat, after) or (
            seat in after["initiated"] and seat not in before["initiated"])
        return [] if done else [_t("did.choose", what=label(step, notation))]
    if step == "pay":
        return [_t("did.pay", item=_item(args[0]))]
    if verb == "march":
        region = before["pending"]["region"]
        return [] if rolled else [_t("did.march", region=D.region_name(region),
                                     n=int(args[0]))]
    simple = {"from": "region", "invade": "region", "reinforce": "region", "enlarge": "region",
              "scribe": "where", "move": "where", "add": "res"}
    if verb in simple:
        if verb == "invade" and rolled:
            return []
        name = D.place_name(args[0]) if simple[verb] != "res" else D.res_name(args[0])
        return [_t(f"did.{verb}", **{simple[verb]: name})]
    if verb == "spend":
        return [_t("did.spend", res=D.res_name(args[0]), n=D.VALUES[args[0]])]
    if verb == "place":
        return [_t("did.place", where=D.place_name(args[0]), n=int(args[1]))]
    if verb == "to":
        return [_t("did.to_stock") if args[0] == "stock"
                else _t("did.to", where=D.place_name(args[0]))]
    if verb == "buy":
        key = "did.buy_sippar" if used_sippar(before, seat, args) else "did.buy"
        return [_t(key, get=D.res_name(args[0]), region=D.region_name(args[1]),
                   give=D.res_name(args[2]))]
    if verb == "recruit":
        gained = after["armies"]["avail"][seat] - before["armies"]["avail"][seat]
        return [_t("did.recruit", res=D.res_name(args[0]), n=gained)]
    if verb in ("equip", "bid"):
        value = (equipment_value(after, seat) if verb == "equip"
                 else pass_value(before, seat) + D.VALUES[args[0]])
        return [_t(f"did.{verb}", res=D.res_name(args[0]), value=value)]
    if verb == "destroy":
        owner = before["cities"][args[0]][0]
        return [_t("did.destroy", who=seat_ref(owner), region=D.region_name(args[0]),
                   n=destroy_cost(before, owner))]
    if verb == "stop":
        region = before["pending"]["battle"]["region"]
        return [_t("did.stop", region=D.region_name(region))]
    if verb == "done":
        return [_t(f"did.done_{step}" if step in ("bid", "vp", "lux") else "did.done")]
    if verb == "tool":
        return [_t("did.tool")]
    if verb == "fewer":
        return [_t("did.fewer", n=before["pending"]["most"] - 1)]
    return []          # go on: the roll says it all


def _built(before: State, seat: Seat, after: State) -> list[str]:
    """The cities ``seat`` built in this step."""
    return [r for r, city in after["cities"].items() if city[0] == seat
            and (r not in before["cities"] or before["cities"][r][0] != seat)]


def _consequences(before: State, seat: Seat, after: State) -> list[Text]:
    """A city built, an empire initiated, a roll, a city extended: whatever step did it."""
    parts: list[Text] = []
    for region in _built(before, seat, after):
        box = D.BUILD_BONUS.get(region)
        gained = box is not None and after["on"][box][seat] > before["on"][box][seat]
        parts.append(_t("did.build_bonus" if gained else "did.build",
                        region=D.region_name(region), box=D.place_name(box) if box else None))
    if seat not in before["initiated"] and seat in after["initiated"]:
        empire = next(e for e, s in after["empires"].items() if s == seat)
        parts.append(_t("did.empire", empire=D.empire_name(empire),
                        n=after["armies"]["avail"][seat] - before["armies"]["avail"][seat]))
    if chance.drew(before, after) and after["last"] and "dice" in after["last"]:
        parts.append(_roll(after["last"]))
    if after["vp_from"][seat]["cities"] > before["vp_from"][seat]["cities"]:
        last = after["last"]
        parts.append(_t("did.enlarged", region=D.region_name(last["enlarged"]),
                        n=len(last["lux"]), vp=last["vp"]))
    return parts


def used_sippar(before: State, seat: Seat, args: list[str]) -> bool:
    """True if the exchange ``args`` in ``before``'s Trade action goes beyond the normal
    limits (Sippar's extra exchange)."""
    want, region, _ = args
    pending = before["pending"]
    count = pending["count"].get(region, 0)
    got = pending["got"].get(region, [])
    return not (count < trade_capacity(before, seat, region) and want not in got)


def report(before: State, seat: Seat, notation: str, after: State) -> Report:
    """What the step did, for everyone (nothing is secret in this game); a roll of the
    dice is announced."""
    parts = _did(before, seat, notation, after) + _consequences(before, seat, after)
    parts += _events(after)
    return Report(_join(parts) if parts else _t("did.done"), announce=chance.drew(before, after))


# -- prompts ----------------------------------------------------------------------------------


def prompt(state: State, seat: Seat) -> Prompt | None:
    """What the current decision asks, beside its options."""
    if state["phase"] == "over" or seat != state["current"]:
        return None
    step, pending = state["step"], state["pending"]
    if step == "act":
        owed = cost_due(state)
        if owed:
            return Prompt(_t("prompt.act_cost", round=state["round"], n=owed,
                             who=tuple(seat_ref(s) for s in state["passed"])))
        return Prompt(_t("prompt.act", round=state["round"]))
    if step == "pay":
        return Prompt(_t("prompt.pay", n=pending["owed"]))
    if step == "battle":
        battle = pending["battle"]
        region, defender = battle["region"], battle["defender"]
        return Prompt(_t("prompt.battle", region=D.region_name(region), who=seat_ref(defender),
                         mine=state["armies"]["avail"][seat],
                         theirs=state["troops"][region][defender],
                         need=state["last"]["need"] if state["last"] else D.WORSE_ROLL))
    if step == "raise":
        return Prompt(_t("prompt.raise", empire=D.empire_name(pending["id"]),
                         region=D.region_name(pending["region"]),
                         n=state["armies"]["avail"][seat], value=equipment_value(state, seat),
                         rank=rank_of(state, seat) or "-"))
    if step == "put":
        return Prompt(_t("prompt.put", res=D.res_name(pending["spent"]), n=pending["most"]))
    if step == "extend":
        return Prompt(_t("prompt.extend", n=state["armies"]["avail"][seat],
                         extra=D.REPEAT_COST if pending["count"] else 0))
    if step == "vp":
        return Prompt(_t("prompt.vp", n=state["res"][seat]["wood"]))
    if step == "lux":
        return Prompt(_t("prompt.lux", region=D.region_name(pending["city"]),
                         n=len(pending["lux"]), vp=D.CITY_VP[len(pending["lux"])]))
    if step == "bid":
        return Prompt(_t("prompt.bid", value=pass_value(state, seat)))
    return None
