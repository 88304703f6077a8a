"""The words of After the Flood a panel shows: each step's label (and the choices a long
list is grouped behind) and what a decision asks. Only :class:`~bot.engine.Text` values:
the catalogue holds the words (``data/locales/<lang>/flood.json``); what a step did is
:mod:`bot.games.flood.narration`.
"""

from __future__ import annotations

from functools import lru_cache

from bot.engine import Action, Prompt, Seat, Text, TextArg, seat_ref
from bot.games.flood import data as D
from bot.games.flood.narration import city_of, some, the, where
from bot.games.flood.state import (
    FloodState,
    Pending,
    cost_due,
    equipment_value,
    pass_value,
    rank_of,
)
from bot.games.kit import known

GROUPS = {
    "build": "build", "from": "build", "place": "place", "spend": "place", "scribe": "place",
    "move": "place", "to": "place", "fewer": "place", "trade": "trade", "buy": "trade",
    "tool": "trade",
    "empire": "empire", "recruit": "empire", "equip": "empire", "march": "empire",
    "extend": "extend", "invade": "extend", "reinforce": "extend", "destroy": "extend",
    "go": "battle", "stop": "battle", "pass": "pass", "bid": "pass", "pay": "cost",
    "enlarge": "vp", "add": "vp", "done": "end",
}
GROUPED = ("build", "spend", "scribe", "move", "invade")
"""The verbs whose steps a panel offers behind one choice (``flood.choice.<verb>``)."""


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"flood.{key}", **args)


def _item(kind: str) -> Text:
    """A thing paid: a resource, an army or a worker."""
    return _t(f"item.{kind}") if kind in ("army", "worker") else some(kind)


# -- labels ---------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def label(step: str, notation: str) -> Text:
    """How a legal step reads in the panel and in autocomplete (the same in every state
    with the same step)."""
    verb, *args = notation.split()
    if verb == "build":
        if D.REGIONS[args[0]].bonus:
            return _t("act.build_bonus", where=where(args[0]), bonus=D.bonus_name(args[0]))
        return _t("act.build", where=where(args[0]))
    if verb == "empire":
        empire = D.EMPIRES[args[0]]
        region = args[1] if len(args) > 1 else empire.starts[0]
        return _t("act.empire", empire=_t(f"the_empire.{empire.id}"), where=where(region),
                  n=empire.armies)
    if verb == "pay":
        return _t("act.pay", item=_item(args[0]))
    if verb in ("invade", "reinforce"):
        return _t(f"act.{verb}", region=the(args[0]))
    if verb in ("destroy", "enlarge"):
        return _t(f"act.{verb}", of=city_of(args[0]))
    if verb in ("from", "move"):
        return _t(f"act.{verb}", src=_t(f"from.{args[0]}"))
    if verb == "spend":
        return _t("act.spend", res=some(args[0]), n=D.VALUES[args[0]])
    if verb == "place" and args:
        return _t("act.put", where=where(args[0]), n=int(args[1]))
    if verb == "scribe":
        return _t("act.scribe", where=where(args[0]))
    if verb == "to":
        return _t("act.to_stock") if args[0] == "stock" else _t("act.to",
                                                                 dst=_t(f"to.{args[0]}"))
    if verb == "buy":
        want, region, give = args
        return _t("act.buy", get=some(want), give=some(give), where=where(region))
    if verb == "recruit":
        return _t("act.recruit", res=some(args[0]), n=D.PURCHASE[args[0]])
    if verb in ("equip", "bid"):
        return _t(f"act.{verb}", res=some(args[0]), value=D.VALUES[args[0]])
    if verb == "march":
        return _t("act.march", n=int(args[0]))
    if verb == "add":
        return _t("act.add", res=some(args[0]))
    if verb == "go":
        return _t("act.go_on")
    if verb == "done":
        return _t(f"act.done_{step}" if step in ("bid", "vp", "lux") else "act.done")
    return _t(f"act.{verb}")


def path(notation: str) -> tuple[Text, ...]:
    """The choice a long list offers a step behind (the exchanges of one region, the
    regions of a Sumer-born empire, ...), then the step itself; () for a step offered
    as it is."""
    verb, *args = notation.split()
    if verb == "buy":
        first = _t("choice.buy", where=where(args[1]))
    elif verb == "empire" and len(args) > 1:
        first = _t("choice.empire", empire=_t(f"the_empire.{args[0]}"),
                   n=D.EMPIRES[args[0]].armies)
    elif verb in GROUPED:
        first = _t(f"choice.{verb}")
    else:
        return ()
    return first, label("", notation)


def action(state: FloodState, notation: str) -> Action:
    """A legal step with its label, group and choices."""
    return _action(state["step"], notation)


@lru_cache(maxsize=8192)
def _action(step: str, notation: str) -> Action:
    return Action(notation, label(step, notation), GROUPS.get(notation.split(" ", 1)[0], ""),
                  path(notation))


# -- prompts ----------------------------------------------------------------------------------


def prompt(state: FloodState, seat: Seat) -> Prompt | None:
    """What the current decision asks, beside its options."""
    if state["phase"] == "over" or seat != state["current"]:
        return None
    step, pending = state["step"], state["pending"] or Pending()
    if step == "act":
        owed = cost_due(state)
        if owed:
            return Prompt(_t("prompt.act_cost", round=state["round"], n=owed,
                             who=tuple(seat_ref(s) for s in state["passed"])))
        return Prompt(_t("prompt.act", round=state["round"]))
    if step == "pay":
        return Prompt(_t("prompt.pay", n=pending["owed"]))
    if step == "battle":
        battle = known(pending["battle"])
        region, defender = battle["region"], battle["defender"]
        return Prompt(_t("prompt.battle", region=the(region), who=seat_ref(defender),
                         mine=state["armies"]["avail"][seat],
                         theirs=state["troops"][region][defender],
                         need=state["last"]["need"] if state["last"] else D.WORSE_ROLL))
    if step == "raise":
        return Prompt(_t("prompt.raise", empire=_t(f"the_empire.{pending['id']}"),
                         where=where(pending["region"]),
                         n=state["armies"]["avail"][seat], value=equipment_value(state, seat),
                         rank=rank_of(state, seat) or "-"))
    if step == "put":
        return Prompt(_t("prompt.put", res=some(known(pending["spent"])), n=pending["most"]))
    if step == "extend":
        return Prompt(_t("prompt.extend", n=state["armies"]["avail"][seat],
                         extra=D.REPEAT_COST if pending["count"] else 0))
    if step == "vp":
        return Prompt(_t("prompt.vp", n=state["res"][seat]["wood"]))
    if step == "lux":
        return Prompt(_t("prompt.lux", of=city_of(pending["city"]),
                         n=len(pending["lux"]), vp=D.CITY_VP[len(pending["lux"])]))
    if step == "bid":
        return Prompt(_t("prompt.bid", value=pass_value(state, seat)))
    return None
