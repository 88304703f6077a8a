"""Why an After the Flood step is refused: the rule that forbids it and what is allowed
instead, like python-chess's errors ("You cannot build a city in Nippur: Bob's army stands
there. You can: build a city in Ur, build a city in Eridu.").

:func:`why` is asked only about a step whose first word is a verb of the game, typed by the
seat that decides now, and that is not among its legal steps. A step of another moment (an
exchange while choosing an action) is told what the moment asks; a step of the right moment
what is wrong with it (a region out of reach, a resource not held, a box full); a step whose
words do not fit its verb what the verb takes. Each ends with the legal steps of the same
kind, or all of them. Pure: it only reads the state.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Seat, Text, seat_ref
from bot.games.flood import data as D
from bot.games.flood import options, texts
from bot.games.flood.narration import both, city_of, some, t, the, where
from bot.games.flood.state import (
    FloodState,
    Pending,
    army_holder,
    cities_of,
    city_owner,
    cost_due,
    ready,
)
from bot.games.flood.texts import label
from bot.games.kit import known

SHOWN = 6
"""Legal steps a refusal names at most (then "and N more")."""
MOMENTS: dict[str, tuple[str, ...]] = {
    "act": ("build", "place", "trade", "empire", "extend", "pass"),
    "pay": ("pay",), "rebase": ("from",), "place": ("spend", "scribe", "move", "done"),
    "put": ("place", "fewer"), "to": ("to",), "trade": ("buy", "tool", "done"),
    "raise": ("recruit", "equip", "march"), "extend": ("invade", "reinforce", "destroy", "done"),
    "battle": ("go", "stop"), "bid": ("bid", "done"), "vp": ("enlarge", "done"),
    "lux": ("add", "done"),
}
"""The verbs each decision (``state["step"]``) takes."""
REGION, PLACE, RES, EMPIRE, NUMBER, ITEM, TARGET = (
    "region", "place", "res", "empire", "number", "item", "target")
FORMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "build": ((REGION,),), "empire": ((EMPIRE,), (EMPIRE, REGION)), "pay": ((ITEM,),),
    "from": ((REGION,),), "spend": ((RES,),), "scribe": ((PLACE,),), "move": ((PLACE,),),
    "to": ((TARGET,),), "buy": ((RES, REGION, RES),), "recruit": ((RES,),), "equip": ((RES,),),
    "march": ((NUMBER,),), "invade": ((REGION,),), "reinforce": ((REGION,),),
    "destroy": ((REGION,),), "go": (("on",),), "bid": ((RES,),), "enlarge": ((REGION,),),
    "add": ((RES,),),
}
"""The words each verb takes (a verb missing here takes none; ``place`` takes none to
choose the action, a place and a number to put workers)."""


def why(state: FloodState, seat: Seat, notation: str) -> Text:
    """Why ``seat`` may not take the step ``notation`` now."""
    verb, *args = notation.split()
    step, allowed = state["step"], options.legal(state, seat)
    if state["phase"] == "over":
        return t("why.over")
    if verb not in MOMENTS.get(step, ()) or (verb == "place" and bool(args) != (step == "put")):
        return t("why.moment", act=t(f"why.verb.{_verb_key(verb, args)}"),
                 moment=_moment(state, seat), options=_listed(step, allowed))
    same = [n for n in allowed if n.split()[0] == verb] or allowed
    if not _fits(verb, args, step):
        key = _verb_key(verb, args)
        helped = verb in FORMS or key == "put"
        return t("why.form", help=t(f"why.help.{key}") if helped else t(
            "why.help.bare", act=t(f"why.verb.{key}")), options=_listed(step, same))
    return t("why.rule", act=label(step, notation), options=_listed(step, same),
             reason=CHECKS[verb](state, seat, args))


def _verb_key(verb: str, args: list[str]) -> str:
    """The catalogue name of what ``verb`` does (``place`` with words puts workers)."""
    return "put" if verb == "place" and args else verb


def _fits(verb: str, args: list[str], step: str) -> bool:
    """True if ``args`` are words ``verb`` takes (known ids, a number)."""
    if verb == "place":
        return (not args) if step != "put" else (
            len(args) == 2 and args[0] in D.PLACES and _is(NUMBER, args[1]))
    forms = FORMS.get(verb, ((),))
    return any(len(form) == len(args) and all(map(_is, form, args)) for form in forms)


def _is(kind: str, word: str) -> bool:
    """True if ``word`` is a word of ``kind``."""
    known: dict[str, Callable[[str], bool]] = {
        REGION: lambda w: w in D.REGIONS, PLACE: lambda w: w in D.PLACES,
        RES: lambda w: w in D.RESOURCES, EMPIRE: lambda w: w in D.EMPIRES,
        NUMBER: lambda w: w.isascii() and w.isdigit(),
        ITEM: lambda w: w in D.RESOURCES or w in ("army", "worker"),
        TARGET: lambda w: w in D.PLACES or w == "stock",
    }
    test = known.get(kind)
    return test(word) if test is not None else word == kind


def _listed(step: str, options: list[str]) -> Text:
    """The legal ``options`` by their labels, the first :data:`SHOWN` of them; options of
    several kinds by the choice each is behind (as a panel offers them: "build a city")."""
    heads = [(texts.path(n) or (label(step, n),))[0] for n in options]
    names = list(dict.fromkeys(heads)) if len(set(heads)) > 1 else [
        label(step, n) for n in options]
    shown = tuple(names[:SHOWN])
    more = len(names) - SHOWN
    return t("why.options_more", options=shown, n=more) if more > 0 else t(
        "why.options", options=shown)


def _moment(state: FloodState, seat: Seat) -> Text:
    """What the decision under way asks."""
    step, pending = state["step"], state["pending"] or Pending()
    if step == "act":
        return t("why.at.act", round=state["round"])
    if step == "pay":
        return t("why.at.pay", who=tuple(seat_ref(s) for s in state["passed"]),
                 n=pending["owed"])
    if step == "put":
        return t("why.at.put", res=some(known(pending["spent"])), n=pending["most"])
    if step == "to":
        return t("why.at.to", src=t(f"from.{pending['moving']}"))
    if step == "raise":
        return t("why.at.raise", empire=t(f"the_empire.{pending['id']}"))
    if step == "battle":
        battle = known(pending["battle"])
        return t("why.at.battle", region=the(battle["region"]), who=seat_ref(battle["defender"]))
    if step == "lux":
        return t("why.at.lux", of=city_of(pending["city"]))
    return t(f"why.at.{step}")


# -- the checks of each verb, in its own moment ----------------------------------------------


def _cost(state: FloodState, seat: Seat) -> Text:
    """Why an action that could be carried out cannot be chosen: the opportunity cost
    cannot be paid, or paying it would leave nothing to carry it out with."""
    if cost_due(state) and not options.payments(state, seat):
        return t("why.no_payment", who=tuple(seat_ref(s) for s in state["passed"]))
    return t("why.paid_out")


def _build(state: FloodState, seat: Seat, args: list[str]) -> Text:
    region = args[0]
    owner, holder = city_owner(state, region), army_holder(state, region)
    if not D.REGIONS[region].city_site:
        return t("why.build.outside", region=the(region))
    if owner is not None:
        return t("why.build.mine" if owner == seat else "why.build.taken", of=city_of(region),
                 who=seat_ref(owner))
    if holder not in (None, seat):
        return t("why.build.army", who=seat_ref(holder), where=where(region))
    if len(cities_of(state, seat)) >= D.BASES and seat in state["moved"]:
        return t("why.build.moved", n=D.BASES)
    return _cost(state, seat)


def _place(state: FloodState, seat: Seat, args: list[str]) -> Text:
    hand = state["workers"]["avail"][seat]
    if state["step"] == "put":
        place, count, most = args[0], int(args[1]), known(state["pending"])["most"]
        room = D.SCRIBE_CAP - state["on"]["scribes"][seat]
        if place == "scribes" and count > room:
            return t("why.scribes_full", n=D.SCRIBE_CAP, room=room)
        if count > most:
            return t("why.put.most", res=some(known(known(state["pending"])["spent"])), n=most)
        return t("why.put.exact", n=min(most, room) if place == "scribes" else most)
    if hand < 1 and ready(state, seat, "scribes") < 1:
        return t("why.place.nothing")
    return _cost(state, seat)


def _trade(state: FloodState, seat: Seat, args: list[str]) -> Text:
    markets = [r for r in D.OUTER if options.trade_capacity(state, seat, r) > 0]
    if not markets and not (ready(state, seat, "toolmaking") and state["res"][seat]["metal"]):
        return t("why.trade.nowhere")
    if markets and not (cost_due(state) and not options.payments(state, seat)):
        return t("why.trade.nothing", where=both([where(r) for r in markets]))
    return _cost(state, seat)


def _empire(state: FloodState, seat: Seat, args: list[str]) -> Text:
    empire = D.EMPIRES[args[0]]
    name = t(f"the_empire.{empire.id}")
    if empire.round != state["round"]:
        return t("why.empire.round", empire=name, n=empire.round, round=state["round"],
                 empires=both([t(f"the_empire.{e}") for e in D.empires_of(state["round"])]))
    if empire.id in state["empires"]:
        return t("why.empire.taken", empire=name, who=seat_ref(state["empires"][empire.id]))
    if seat in state["initiated"]:
        return t("why.empire.one", mine=t(f"the_empire.{_initiated(state, seat)}"))
    region = args[1] if len(args) > 1 else empire.starts[0]
    if empire.in_sumer and (len(args) < 2 or not D.REGIONS[region].in_sumer):
        return t("why.empire.sumer", empire=name)
    if not empire.in_sumer and len(args) > 1 and region not in empire.starts:
        return t("why.empire.start", empire=name, where=where(empire.starts[0]))
    if not empire.in_sumer:
        on = state["on"][region]
        rival = max(range(state["n"]), key=lambda s: (s != seat, on[s]))
        if on[seat] < 1:
            return t("why.empire.no_worker", empire=name, where=where(region))
        if on[rival] > on[seat]:
            return t("why.empire.workers", empire=name, where=where(region), mine=on[seat],
                     who=seat_ref(rival), theirs=on[rival])
    return _cost(state, seat)


def _initiated(state: FloodState, seat: Seat) -> str:
    return next(str(e) for e, s in state["empires"].items() if s == seat)


def _extend(state: FloodState, seat: Seat, args: list[str]) -> Text:
    if not any(counts[seat] for counts in state["troops"].values()):
        return t("why.extend.no_region")
    if state["armies"]["avail"][seat] < 1:
        return t("why.extend.no_army")
    return _cost(state, seat)


def _pay(state: FloodState, seat: Seat, args: list[str]) -> Text:
    kind = args[0]
    if kind in options.payments(state, seat):
        return t("why.pay.leaves", item=t(f"item.{kind}") if kind in ("army", "worker")
                 else some(kind))
    if kind == "army":
        return t("why.extend.no_army")
    return t("why.no_hand") if kind == "worker" else t("why.lack", res=some(kind))


def _from(state: FloodState, seat: Seat, args: list[str]) -> Text:
    return t("why.from", where=where(args[0]),
             cities=both([where(r) for r in cities_of(state, seat)]))


def _spend(state: FloodState, seat: Seat, args: list[str]) -> Text:
    pending = known(state["pending"])
    if pending["spent"] is not None:
        return t("why.spend.once", res=some(known(pending["spent"])))
    if state["workers"]["avail"][seat] < 1:
        return t("why.no_hand")
    return t("why.lack", res=some(args[0]))


def _scribe(state: FloodState, seat: Seat, args: list[str]) -> Text:
    if ready(state, seat, "scribes") < 1:
        return t("why.scribe.used")
    if state["workers"]["avail"][seat] < 1:
        return t("why.no_hand")
    return t("why.scribes_full", n=D.SCRIBE_CAP, room=0)


def _move(state: FloodState, seat: Seat, args: list[str]) -> Text:
    if ready(state, seat, "scribes") < 1:
        return t("why.scribe.used")
    return t("why.move.none", where=where(args[0]))


def _to(state: FloodState, seat: Seat, args: list[str]) -> Text:
    if args[0] == known(state["pending"])["moving"]:
        return t("why.to.same", src=t(f"from.{args[0]}"))
    return t("why.scribes_full", n=D.SCRIBE_CAP, room=0)


def _done(state: FloodState, seat: Seat, args: list[str]) -> Text:
    return t(f"why.done.{state['step']}")


def _fewer(state: FloodState, seat: Seat, args: list[str]) -> Text:
    return t("why.fewer")


def _buy(state: FloodState, seat: Seat, args: list[str]) -> Text:
    want, region, give = args
    offered = D.REGIONS[region].trade
    holder = army_holder(state, region)
    if not offered:
        return t("why.buy.sumer", where=where(region))
    if want not in offered:
        return t("why.buy.offer", of=city_of(region), goods=both([some(r) for r in offered]))
    if give not in D.PAY_WITH[want]:
        pay = [some(r) for r in D.PAY_WITH[want]]
        return t("why.buy.table", res=some(want), goods=t(
            "why.or", head=tuple(pay[:-1]), last=pay[-1]) if len(pay) > 1 else pay[0])
    if state["res"][seat][give] < 1:
        return t("why.lack", res=some(give))
    if holder not in (None, seat):
        return t("why.buy.army", who=seat_ref(holder), where=where(region))
    if options.trade_capacity(state, seat, region) < 1:
        return t("why.buy.nobody", where=where(region))
    if state["bank"][want] < 1:
        return t("why.bank", res=some(want))
    if want in known(state["pending"])["got"].get(region, []):
        return t("why.buy.kind", res=some(want), where=where(region))
    return t("why.buy.used", where=where(region),
             n=options.trade_capacity(state, seat, region))


def _tool(state: FloodState, seat: Seat, args: list[str]) -> Text:
    if ready(state, seat, "toolmaking") < 1:
        return t("why.tool.maker")
    if state["res"][seat]["metal"] < 1:
        return t("why.lack", res=some("metal"))
    return t("why.bank", res=some("tools"))


def _recruit(state: FloodState, seat: Seat, args: list[str]) -> Text:
    res = args[0]
    if res not in D.PURCHASE:
        return t("why.recruit.kind")
    if any(state["equip"][seat].values()):
        return t("why.recruit.order")
    if state["res"][seat][res] < 1:
        return t("why.lack", res=some(res))
    return t("why.recruit.cap", n=D.ARMY_CAP)


def _equip(state: FloodState, seat: Seat, args: list[str]) -> Text:
    return t("why.lack", res=some(args[0]))


def _march(state: FloodState, seat: Seat, args: list[str]) -> Text:
    count, hand = int(args[0]), state["armies"]["avail"][seat]
    if not 1 <= count <= D.INITIAL_MAX:
        return t("why.march.count", n=D.INITIAL_MAX)
    return t("why.march.hand", n=hand)


def _invade(state: FloodState, seat: Seat, args: list[str]) -> Text:
    region, troops = args[0], state["troops"]
    mine = [r for r in D.INVADABLE if troops[r][seat] > 0]
    if not D.REGIONS[region].invadable:
        return t("why.invade.never", region=the(region))
    if troops[region][seat] > 0:
        return t("why.invade.held", region=the(region))
    against = [r for r in mine if region in D.REGIONS[r].neighbours and (region, r) in D.ARROWS]
    if against and not any(region in D.INVADES[r] for r in mine):
        return t("why.invade.arrow", src=t(f"from.{against[0]}"), dst=t(f"to.{region}"))
    if not any(region in D.INVADES[r] for r in mine):
        return t("why.invade.far", region=the(region))
    return _hand(state, seat, 1)


def _hand(state: FloodState, seat: Seat, need: int) -> Text:
    """Too few available armies for an extension costing ``need`` (and the repeat's)."""
    extra = D.REPEAT_COST if known(state["pending"])["count"] >= 1 else 0
    return t("why.armies", n=need + extra, extra=extra, hand=state["armies"]["avail"][seat])


def _reinforce(state: FloodState, seat: Seat, args: list[str]) -> Text:
    count = state["troops"].get(args[0], [0] * state["n"])[seat]
    if count < 1:
        return t("why.reinforce.none", where=where(args[0]))
    if count >= D.REGION_ARMY_CAP:
        return t("why.reinforce.full", n=D.REGION_ARMY_CAP, where=where(args[0]))
    return _hand(state, seat, 1)


def _destroy(state: FloodState, seat: Seat, args: list[str]) -> Text:
    region = args[0]
    owner = city_owner(state, region)
    if owner is None:
        return t("why.destroy.none", where=where(region))
    if owner == seat:
        return t("why.destroy.mine", of=city_of(region))
    if state["troops"].get(region, [0] * state["n"])[seat] < 1:
        return t("why.destroy.far", where=where(region))
    return _hand(state, seat, options.destroy_cost(state, owner))


def _bid(state: FloodState, seat: Seat, args: list[str]) -> Text:
    return t("why.lack", res=some(args[0]))


def _enlarge(state: FloodState, seat: Seat, args: list[str]) -> Text:
    city = state["cities"].get(args[0])
    if city is None or city[0] != seat:
        return t("why.enlarge.none", where=where(args[0]))
    if city[1]:
        return t("why.enlarge.once", of=city_of(args[0]))
    return t("why.enlarge.wood", n=D.EXTENSION_WOOD, have=state["res"][seat]["wood"])


def _add(state: FloodState, seat: Seat, args: list[str]) -> Text:
    res = args[0]
    if res not in D.LUXURIES:
        return t("why.add.kind", goods=both([some(r) for r in D.LUXURIES]))
    if res in known(state["pending"])["lux"]:
        return t("why.add.once", res=some(res))
    return t("why.lack", res=some(res))


CHECKS: dict[str, Callable[[FloodState, Seat, list[str]], Text]] = {
    "build": _build, "place": _place, "trade": _trade, "empire": _empire, "extend": _extend,
    "pay": _pay, "from": _from, "spend": _spend, "scribe": _scribe, "move": _move, "to": _to,
    "done": _done, "fewer": _fewer, "buy": _buy, "tool": _tool, "recruit": _recruit,
    "equip": _equip, "march": _march, "invade": _invade, "reinforce": _reinforce,
    "destroy": _destroy, "bid": _bid, "enlarge": _enlarge, "add": _add,
}
"""What is wrong with a well-formed step of the right moment, per verb."""
