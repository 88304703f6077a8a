"""What an After the Flood step did, as the channel reads it: a phrase in the third person,
read after its player's name and joined with the player's other steps into a sentence
("🎲 **Bob** pays a worker (opportunity cost) and spends gold to place 4 workers in
Irrigation."), and what the game then did by itself on lines of their own (a round's end,
its scores, the next round, the final majorities).

A step that only leads to the next one (choosing an action, a resource put in a box one at
a time, the end of an action) is quiet (:class:`bot.engine.Report`): the turn summary leaves
it out, but for the lines of what the game did then, and the step that completes the action
tells the whole, from the state before it (the bids when the pass ends, the equipment when
the armies march). Nothing is announced at once: the turn message tells each battle, roll
by roll, once.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Report, Seat, Text, seat_ref
from bot.games.flood import data as D
from bot.games.flood.options import destroy_cost, trade_capacity
from bot.games.flood.state import FloodState, equipment_value
from bot.games.kit import known


def t(key: str, **args: Any) -> Text:
    """A flood catalogue text."""
    return Text.of(f"flood.{key}", **args)


both = Text.list_and
"""``items`` read as one list: "A", "A and B", "A, B and C" (:meth:`Text.list_and`)."""


def chain(parts: list[Text]) -> Text:
    """Phrases of one step, one after the other."""
    text = parts[0]
    for part in parts[1:]:
        text = t("did.join", a=text, b=part)
    return text


def some(res: str) -> Text:
    """A resource as a sentence names it ("gold", « de l'or »)."""
    return t(f"some.{res}")


def goods(box: dict[str, int]) -> Text:
    """The kinds of resources in a box, in the table's order."""
    return both([some(r) for r in D.RESOURCES if box.get(r, 0) > 0])


def where(place: str) -> Text:
    """In a place ("in Elam", « en Élam », « dans la case Scribes »)."""
    return t(f"in.{place}")


def the(region: str) -> Text:
    """A region as the object of a verb ("Elam", « l'Élam »)."""
    return t(f"the.{region}")


def city_of(region: str) -> Text:
    """Of a city's region ("of Uruk", « d'Uruk »)."""
    return t(f"of.{region}")


# -- reports ---------------------------------------------------------------------------------


def report(before: FloodState, seat: Seat, notation: str, after: FloodState) -> Report:
    """What ``seat``'s step ``notation`` did, for everyone (nothing is secret)."""
    verb, *args = notation.split()
    said = _said(before, seat, verb, args, after)
    text = chain(said) if said else _quiet(before, seat, verb, args)
    for line in _events(before, after):
        text = t("did.then", did=text, event=line)
    return Report(text, quiet=not said)


def _quiet(before: FloodState, seat: Seat, verb: str, args: list[str]) -> Text:
    """A quiet step in words (``/game log`` shows every step)."""
    step = before["step"]
    if step == "act":
        if verb == "pass":
            return t("did.pass")
        if verb == "build":
            return t("quiet.build", where=where(args[0]))
        if verb == "empire":
            return t("quiet.empire", empire=t(f"the_empire.{args[0]}"))
        return t(f"quiet.{verb}")
    if verb == "spend":
        return t("quiet.spend", res=some(args[0]),
                 n=min(D.VALUES[args[0]], before["workers"]["avail"][seat]))
    if verb == "fewer":
        return t("quiet.fewer", n=known(before["pending"])["most"] - 1)
    if verb == "move":
        return t("quiet.move", src=t(f"from.{args[0]}"))
    if verb in ("bid", "equip"):
        return t(f"quiet.{verb}", res=some(args[0]))
    if verb == "enlarge":
        return t("quiet.enlarge", of=city_of(args[0]))
    if verb == "add":
        return t("quiet.add", res=some(args[0]))
    return t("quiet.done_vp" if step == "vp" else "quiet.done")


def _said(before: FloodState, seat: Seat, verb: str, args: list[str],
          after: FloodState) -> list[Text]:
    """The phrases of a step that changes what the others see ([] for a quiet step)."""
    step = before["step"]
    if step == "act":
        if verb == "pass":
            return [] if after["step"] == "bid" and after["current"] == seat else [t("did.pass")]
        return _started(before, seat, after)
    if step == "pay":
        return [t("did.pay", item=t(f"item.{args[0]}") if args[0] in ("army", "worker")
                  else some(args[0])), *_started(before, seat, after)]
    if step == "rebase":
        return [_rebased(before, seat, args[0], after)]
    if step in ("place", "put", "to"):
        return _placed(before, verb, args)
    if step == "trade":
        return _traded(before, seat, verb, args)
    if step == "raise":
        return _raised(before, seat, verb, args, after)
    if step in ("extend", "battle"):
        return _extended(before, verb, args, after)
    if step == "bid":
        if verb == "bid" and after["current"] == seat and after["step"] == "bid":
            return []
        box = dict(before["pass_box"][seat])
        if verb == "bid":
            box[args[0]] = box.get(args[0], 0) + 1
        value = sum(D.VALUES[r] * k for r, k in box.items())
        return [t("did.bid", res=goods(box), value=value) if value else t("did.pass")]
    return _enlarged(before, seat, after)


def _started(before: FloodState, seat: Seat, after: FloodState) -> list[Text]:
    """A city built or an empire initiated as the action begins."""
    for region in _built(before, seat, after):
        return [_city(before, seat, region, after)]
    if seat in after["initiated"] and seat not in before["initiated"]:
        empire = next(e for e, s in after["empires"].items() if s == seat)
        region = known(after["pending"])["region"]
        return [t("did.empire", empire=t(f"the_empire.{empire}"), where=where(region),
                  n=after["armies"]["avail"][seat] - before["armies"]["avail"][seat])]
    return []


def _built(before: FloodState, seat: Seat, after: FloodState) -> list[str]:
    """The cities ``seat`` built in this step."""
    return [r for r, city in after["cities"].items() if city[0] == seat
            and (r not in before["cities"] or before["cities"][r][0] != seat)]


def _city(before: FloodState, seat: Seat, region: str, after: FloodState) -> Text:
    """A city built, with the worker Eridu or Uruk brings."""
    box = D.BUILD_BONUS.get(region)
    if box is not None and after["on"][box][seat] > before["on"][box][seat]:
        return t("did.build_bonus", where=where(region), box=where(box))
    return t("did.build", where=where(region))


def _rebased(before: FloodState, seat: Seat, origin: str, after: FloodState) -> Text:
    """A base moved to build a city, all four being placed."""
    region = known(before["pending"])["region"]
    box = D.BUILD_BONUS.get(region)
    gained = box is not None and after["on"][box][seat] > before["on"][box][seat]
    return t("did.rebase_bonus" if gained else "did.rebase", src=t(f"from.{origin}"),
             dst=t(f"to.{region}"), box=where(box) if box else None)


def _placed(before: FloodState, verb: str, args: list[str]) -> list[Text]:
    """Workers placed with a resource, or moved by a scribe."""
    if verb == "place":
        return [t("did.place", res=some(known(known(before["pending"])["spent"])), n=int(args[1]),
                  where=where(args[0]))]
    if verb == "scribe":
        return [t("did.scribe", where=where(args[0]))]
    if verb == "to":
        origin = t(f"from.{known(before['pending'])['moving']}")
        if args[0] == "stock":
            return [t("did.to_stock", src=origin)]
        return [t("did.to", src=origin, dst=t(f"to.{args[0]}"))]
    return []


def _traded(before: FloodState, seat: Seat, verb: str, args: list[str]) -> list[Text]:
    """An exchange, or tools made."""
    if verb == "buy":
        want, region, give = args
        key = "did.buy_sippar" if used_sippar(before, seat, args) else "did.buy"
        return [t(key, get=some(want), give=some(give), where=where(region))]
    return [t("did.tool")] if verb == "tool" else []


def used_sippar(before: FloodState, seat: Seat, args: list[str]) -> bool:
    """True if the exchange ``args`` in ``before``'s Trade action goes beyond the normal
    limits (Sippar's extra exchange)."""
    want, region, _ = args
    pending = known(before["pending"])
    count = pending["count"].get(region, 0)
    got = pending["got"].get(region, [])
    return not (count < trade_capacity(before, seat, region) and want not in got)


def _raised(before: FloodState, seat: Seat, verb: str, args: list[str], after: FloodState
            ) -> list[Text]:
    """Armies bought, or the empire's armies marching with their equipment."""
    if verb == "recruit":
        gained = after["armies"]["avail"][seat] - before["armies"]["avail"][seat]
        return [t("did.recruit", res=some(args[0]), n=gained)]
    if verb != "march":
        return []
    said = []
    if any(before["equip"][seat].values()):
        said.append(t("did.equip", res=goods(before["equip"][seat]),
                      value=equipment_value(before, seat)))
    region = known(before["pending"])["region"]
    if _rolled(before, after):
        return [*said, _attack(known(after["last"]))]
    return [*said, t("did.march", n=int(args[0]), where=where(region))]


def _rolled(before: FloodState, after: FloodState) -> bool:
    """True if the step rolled the dice of a battle."""
    last = after.get("last")
    return bool(last and "dice" in last and last != before.get("last"))


def _extended(before: FloodState, verb: str, args: list[str], after: FloodState) -> list[Text]:
    """An invasion (its first roll when there is a defender), a roll, a reinforcement or a
    city destroyed."""
    if verb == "invade":
        return [_attack(known(after["last"]))] if _rolled(before, after) else [
            t("did.invade", region=the(args[0]))]
    if verb == "go":
        return [_roll(known(after["last"]))]
    if verb == "stop":
        return [t("did.stop")]
    if verb == "reinforce":
        return [t("did.reinforce", dst=t(f"to.{args[0]}"))]
    if verb == "destroy":
        owner = before["cities"][args[0]][0]
        return [t("did.destroy", who=seat_ref(owner), of=city_of(args[0]),
                  n=destroy_cost(before, owner))]
    return []


def _attack(last: dict[str, Any]) -> Text:
    """The first roll of a battle, with who is attacked, where and the odds."""
    return t("did.attack", who=seat_ref(last["defender"]), where=where(last["region"]),
             mine=last["ranks"][0] or "-", theirs=last["ranks"][1] or "-", need=last["need"],
             roll=_roll(last))


def _roll(last: dict[str, Any]) -> Text:
    """One roll and what it did."""
    total = sum(last["dice"])
    if last["result"] == "took":
        return t("roll.took", total=total, region=the(last["region"]))
    if last["result"] == "repelled":
        return t("roll.repelled", total=total)
    return t("roll.win" if last["won"] else "roll.lose", total=total)


def _enlarged(before: FloodState, seat: Seat, after: FloodState) -> list[Text]:
    """A city extension completed in the Victory Points phase."""
    if after["vp_from"][seat]["cities"] <= before["vp_from"][seat]["cities"]:
        return []
    last = known(after["last"])
    luxuries = [some(r) for r in last["lux"]]
    if not luxuries:
        return [t("did.enlarged_bare", of=city_of(last["enlarged"]), vp=last["vp"])]
    return [t("did.enlarged", of=city_of(last["enlarged"]), res=both(luxuries),
              vp=last["vp"])]


# -- what the game does by itself ----------------------------------------------------------


def _events(before: FloodState, after: FloodState) -> list[Text]:
    """The automatic phases at the end of the step, a line each: the end of the actions
    (next order, the armies' points), a new round, the final majorities."""
    events = after.get("events", [])
    lines: list[Text] = []
    scored = [t("ev.army", who=seat_ref(e["seat"]), vp=e["vp"], n=e["regions"])
              for e in events if e["k"] == "army_vp"]
    majorities = [e for e in events if e["k"] == "majority"]
    for event in events:
        kind = event["k"]
        if kind == "order":
            armies = t("ev.armies", scores=both(scored)) if scored else t("ev.no_armies")
            last = "ev.passed_last" if before["round"] == D.ROUNDS else "ev.passed"
            lines.append(t(last, round=before["round"], armies=armies,
                           order=tuple(seat_ref(s) for s in event["order"])))
        elif kind == "round":
            key = "ev.round_decline" if event["round"] in D.DECLINE_ROUNDS else "ev.round"
            lines.append(t(key, round=event["round"], rounds=D.ROUNDS, keep=D.LEADER_KEEPS))
        elif kind == "over":
            lines.append(t("ev.majorities", scores=both(_majorities(majorities)))
                         if majorities else t("ev.no_majority"))
    return lines


def _majorities(events: list[dict[str, Any]]) -> list[Text]:
    """The final majorities, per player in the order they first scored."""
    seats = list(dict.fromkeys(e["seat"] for e in events))
    return [t("ev.majority", who=seat_ref(s), vp=sum(e["vp"] for e in events if e["seat"] == s),
              places=tuple(t("ev.place_vp", place=D.place_name(e["place"]), vp=e["vp"])
                           for e in events if e["seat"] == s))
            for s in seats]

