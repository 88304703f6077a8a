"""Why a Mesopotamia step is refused: the rule that forbids it and what is allowed instead, like
python-chess's errors ("You cannot build a Rampart in Nippur: a blocker stands there. You
can build one in: Ur, Eridu.").

:func:`why` is asked only about a well-formed step of a seat that decides now and that is not
among its legal steps. A step of another moment (a harvest while a unit is on the move) is
told what the moment is and which kinds of step it allows; a step of the right kind is told
what is wrong with it (a region too far, a cost not held, a die that does not show the sign)
and the steps of that kind it may take. Pure: it only reads the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine import Seat, Text, seat_ref
from bot.games.kit import known
from bot.games.mesopotamia import (
    actions,
    battles,
    construction,
    events,
    expansions,
    exploration,
    large,
    rounds,
    siege,
    solo,
    standard,
    trade,
)
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton.solo_combat import AUTOMATON, YOU
from bot.games.mesopotamia.combat import TRIBE, fighters
from bot.games.mesopotamia.state import (
    PHASES,
    MesopotamiaState,
    action_under_way,
    can_advance,
    roles_in_play,
    seal_case,
    seat_of_role,
    unit_limit,
    units_of,
)
from bot.games.mesopotamia.texts import brief
from bot.games.mesopotamia.words import amount, amounts, both, either, in_region, t
from bot.notation import whole_number

SHOWN = 6
"""Options a refusal names at most (then "and N more")."""
ACTION_OF = {"convert": "research", "discover": "research", "harvest": "harvest_trade",
             "trade": "harvest_trade", "phalanx": "war", "create": "war", "grow": "growth",
             "activate": "exploration", "move": "exploration", "halt": "exploration",
             "drop": "exploration", "build": "construction"}
"""The action whose part each step of an action is."""
Legal = Callable[[MesopotamiaState, Seat], list[str]]


def why(state: MesopotamiaState, seat: Seat, text: str, legal: Legal) -> Text:
    """Why ``seat`` may not take the step ``text`` now (``legal``: the engine's legal steps)."""
    verb, *args = text.strip().lower().split()
    options = legal(state, seat)
    same = [n for n in options if n.split()[0] == verb]
    if not same:
        return _moment(state, seat, verb, args, options)
    check = CHECKS.get(verb)
    found = check(state, seat, args) if check is not None else None
    return t("why.step", reason=found or t("why.not_option", verb=t(f"verb.{verb}")),
             allowed=listed(same))


def listed(notations: Sequence[str]) -> Text:
    """Up to :data:`SHOWN` steps by their labels, then how many more."""
    shown = either([brief(n) for n in notations[:SHOWN]])
    more = len(notations) - SHOWN
    return t("why.more", shown=shown, n=more) if more > 0 else shown


def _moment(state: MesopotamiaState, seat: Seat, verb: str, words: list[str],
            options: list[str]) -> Text:
    """The step is of a kind the current decision does not take: what the decision is, and
    the kinds of step it takes."""
    kinds = list(dict.fromkeys(n.split()[0] for n in options))
    allowed = either([t(f"verb.{k}") for k in kinds])
    return t("why.moment", verb=t(f"verb.{verb}"), moment=moment(state, seat, verb, words),
             allowed=allowed)


SETUP_VERBS = frozenset({"role", "empire", "start", "die", "decline", "return", "launch"})
COMBAT_VERBS = frozenset({"fight", "pair", "bid", "sacrifice", *standard.VERBS, *solo.VERBS})


def _elsewhere(state: MesopotamiaState, verb: str, words: Sequence[str]) -> Text | None:
    """Why a step that belongs to another part of the game is not taken now, or None."""
    phase = state["phase"]
    if verb in SETUP_VERBS and phase not in PHASES:
        return t("why.setup_over")
    combat = verb in COMBAT_VERBS or (verb == "colony" and bool(words)
                                      and words[0] in battles.COLONY_CHOICES)
    if combat and phase != "combat":
        return t("why.no_combat_now")
    if verb == "reward" and phase != "end":
        return t("why.no_reward")
    if verb == "event" and not state.get("event"):
        return t("why.no_event")
    return None


def moment(state: MesopotamiaState, seat: Seat, verb: str, words: Sequence[str] = ()) -> Text:
    """What the decision of ``seat`` is now, as the rule that frames it (``verb``, with
    ``words``: the step asked for)."""
    phase = state["phase"]
    elsewhere = _elsewhere(state, verb, words)
    if elsewhere is not None:
        return elsewhere
    if phase in PHASES:
        return t(f"why.phase.{phase}")
    event = state.get("event")
    if event:
        return t("why.phase.event", event=D.name("event", event["card"]),
                 where=in_region(event["region"]))
    if phase == "end":
        return t("why.phase.end", event=D.name("event", state["finals"][0]["card"]))
    if phase == "combat":
        return _combat_moment(state)
    t_ = known(state["t"])
    if None in t_["dice"]:
        return t("why.phase.set")
    act = t_["act"]
    wanted = ACTION_OF.get(verb)
    if verb == "end" and not t_["done"]:
        return t("why.end_first")
    if act is None and wanted is not None:
        if wanted in t_["done"]:
            return t("why.done", action=D.name("action", wanted))
        return t("why.take_first", action=D.name("action", wanted))
    if act is None and verb == "freeroll":
        hittite = D.ALL_EMPIRES[known(state["players"][seat]["empire"])].free_reroll
        return t("why.freeroll_used" if hittite else "why.freeroll_hittite")
    if act is None:
        return t("why.phase.choose")
    if act["action"] == "exploration" and act["unit"] is not None:
        _, kind, _ = state["units"][act["unit"]]
        return t("why.phase.moving", unit=D.name("unit", kind))
    return t("why.phase.act", action=D.name("action", act["action"]))


def _combat_moment(state: MesopotamiaState) -> Text:
    """What the combat phase asks now."""
    battle = state["battle"]
    stage = battle["stage"]
    where = in_region(battle["region"]) if battle.get("region") else t("nothing")
    fight = state.get("solo")
    if fight is not None and fight["tiring"] is not None:
        unit = fight["units"][fight["tiring"]]
        return t("why.phase.solo_fatigue", unit=D.name("unit", unit["kind"]),
                 n=fight["tiring"] + 1)
    if fight is not None and not fight["shown"]:
        return t("why.phase.solo_place", where=where,
                 n=fight["phalanxes"][YOU] - fight["placed"])
    return t(f"why.phase.{stage}", where=where)


# -- the checks, one per verb: the rule a step of the right kind breaks ----------------------

Check = Callable[[MesopotamiaState, Seat, list[str]], Text | None]


def _numbers(words: Sequence[str]) -> list[int]:
    """The words that are whole numbers written with 0-9, as numbers."""
    return [n for n in map(whole_number, words) if n is not None]


def _launch(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    if not args or args[0] not in D.SECTIONS:
        return t("why.unknown", what=" ".join(args))
    return t("why.eblaite_ship", section=D.section_name(args[0]))


def _role(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    role = args[0] if args else ""
    if role not in roles_in_play(state):
        return t("why.role_unknown", role=role.upper(), n=state["n"])
    return t("why.role_taken", role=role.upper(), who=_who(seat_of_role(state, role)))


def _empire(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    if not args or args[0] not in D.ALL_EMPIRES:
        return t("why.unknown", what=" ".join(args))
    expansion = expansions.expansion_of(args[0])
    if args[0] not in expansions.empires(state) and expansion is not None:
        return t("why.empire_expansion", empire=D.name("empire", args[0]),
                 expansion=D.name("expansion", expansion))
    owner = next((s for s, p in enumerate(state["players"]) if p["empire"] == args[0]), None)
    if owner is None:
        return None
    return t("why.empire_taken", empire=D.name("empire", args[0]), who=seat_ref(owner))


def _start(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    region = _region(args)
    if region is None:
        return t("why.unknown", what=" ".join(args))
    if region not in large.start_regions(state["n"]).values():
        return t("why.start_not", region=D.name("region", region))
    owner = next((s for s, p in enumerate(state["players"]) if p["start"] == region), None)
    if owner is None:
        return None
    return t("why.start_taken", region=D.name("region", region), who=seat_ref(owner))


def _colony(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    if state["phase"] == "bonus":
        region = _region(args)
        if region is None:
            return t("why.unknown", what=" ".join(args))
        return t("why.elamite_colony", region=D.name("region", region))
    region = _region(args[1:])
    if region is None or region not in battles.colony_targets(state, seat):
        return t("why.colony_target")
    return t("why.colony_take", n=D.PIECES["colony"])


def _return(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.quest_not_held")


def _set(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    t_ = known(state["t"])
    if None not in t_["dice"]:
        return None
    i = t_["dice"].index(None)
    colour = state["players"][seat]["dice"][i]
    if args and args[0] == D.STAR:
        return t("why.set_star")
    return t("why.set_face", n=i + 1, colour=D.name("colour", colour))


def _reroll(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    t_ = known(state["t"])
    dice = _numbers(args)
    if not dice or len(dice) != len(args) or len(set(dice)) != len(dice):
        return t("why.dice_numbers", n=len(t_["dice"]))
    bad = [d for d in dice if not 1 <= d <= len(t_["dice"])]
    if bad:
        return t("why.no_die", n=bad[0], count=len(t_["dice"]))
    used = [d for d in dice if t_["used"][d - 1]]
    return t("why.die_used", n=used[0]) if used else None


def _use(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    t_ = known(state["t"])
    action = args[0] if args else ""
    if action not in D.ACTIONS:
        return t("why.unknown", what=action)
    name = D.name("action", action)
    if action in t_["done"]:
        return t("why.done", action=name)
    how = args[1:]
    if how == ["pawn"]:
        return t("why.pawn_used")
    card = state["players"][seat]["tech"][action]
    signs = D.TECH_SIGNS[D.CIV_TECH[card]]
    need = both([D.name("sign", s) for s in signs])
    dice = _numbers(how)
    if len(dice) != len(how) or any(not 1 <= d <= len(t_["dice"]) for d in dice):
        return t("why.dice_numbers", n=len(t_["dice"]))
    if any(t_["used"][d - 1] for d in dice):
        return t("why.die_used", n=next(d for d in dice if t_["used"][d - 1]))
    shown = both([D.name("sign", known(t_["dice"][d - 1])) for d in dice]) if dice else t("nothing")
    return t("why.signs", action=name, tech=D.name("tech", D.CIV_TECH[card]), need=need,
             n=len(signs), shown=shown)


def _end(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.end_first")


def _convert(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    effect = D.CARD_EFFECT[act["card"]]["convert"]
    if not act["convert"]:
        return t("why.convert_once")
    return t("why.cost", need=amount("clay", int(effect["clay"])), have=_held(state, seat))


def _discover(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    if not act["discoveries"]:
        return t("why.discoveries_spent")
    if state["players"][seat]["res"]["tablet"] < D.DISCOVERY_TABLETS:
        return t("why.cost", need=amount("tablet", D.DISCOVERY_TABLETS),
                 have=_held(state, seat))
    action = args[0] if args else ""
    if action not in D.ACTIONS:
        return t("why.unknown", what=action)
    return t("why.top_level", action=D.name("action", action))


def _harvest(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    if not act["harvests"]:
        return t("why.harvests_spent")
    place, resource = [*args, "", ""][:2]
    sources = actions.harvest_sources(state, seat)
    if place not in D.REGIONS and place not in D.SECTIONS:
        return t("why.unknown", what=place)
    if place in state["blockers"]:
        return t("why.blocked", where=in_region(place))
    if place not in sources:
        return t("why.no_source", where=_place(place))
    kinds, count = sources[place]
    if resource not in kinds:
        return t("why.resource_here", where=_place(place),
                 kinds=both([D.name("resource", k) for k in kinds]))
    return t("why.source_used", where=_place(place), n=count)


def _trade(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    token = args[0] if args else ""
    if not act["trades"]:
        return t("why.trades_spent")
    slot = next((s for s, tk in state["trade"].items() if tk == token), None)
    if slot is None and token in trade.TOKENS:
        return t("why.token_absent", name=t(f"trade.{token}"))
    if slot is None:
        return t("why.unknown", what=token)
    name = t(f"trade.{token}")
    level = int(D.CARD_EFFECT[act["card"]]["trade_level"])
    if D.SLOT_LEVEL[slot] > level:
        return t("why.trade_level", name=name, n=D.SLOT_LEVEL[slot], level=level)
    if token in act["traded"]:
        return t("why.traded", name=name)
    if slot in siege.blocked_slots(state):
        return t("siege.refused_trade")
    if slot in D.SHIP_SLOTS and not units_of(state, seat, "ship"):
        return t("why.trade_ship", name=name)
    return t("why.cost", need=amounts(trade.TOKENS[token]["pay"]) or t("nothing"),
             have=_held(state, seat))


def _phalanx(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.phalanx_once")


def _create(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    kind = args[0] if args else ""
    effect = D.CARD_EFFECT[act["card"]]
    if not act["units"]:
        return t("why.units_spent")
    if kind not in effect["unit_types"]:
        return t("why.unit_level", unit=D.name("unit", kind) if kind in D.FIGURES
                 else t("nothing"), units=both([D.name("unit", k)
                                                for k in effect["unit_types"]]))
    if state["players"][seat]["res"]["wood"] < D.UNIT_WOOD:
        return t("why.cost", need=amount("wood", D.UNIT_WOOD), have=_held(state, seat))
    if len(units_of(state, seat)) >= unit_limit(state, seat):
        return t("why.unit_limit", n=unit_limit(state, seat),
                 case=seal_case(state, "population", seat))
    if len(units_of(state, seat, kind)) >= D.FIGURES[kind]:
        return t("why.figures", unit=D.name("unit", kind), n=D.FIGURES[kind])
    return t("why.unit_home")


def _grow(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    if not act["grow"]:
        return t("why.grow_once")
    if not can_advance(state, "population", seat):
        return t("why.track_end")
    food = int(D.CARD_EFFECT[act["card"]]["food"])
    return t("why.cost", need=amount("food", food), have=_held(state, seat))


def _activate(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    if not act["activations"]:
        return t("why.activations_spent")
    kind, where = [*args, "", ""][:2]
    if [seat, kind, where] not in state["units"]:
        return t("why.no_unit", unit=D.name("unit", kind) if kind in D.FIGURES else t("nothing"),
                 where=_place(where) if where in D.REGIONS or where in D.SECTIONS
                 else t("nothing"))
    if args[2:] and [seat, "ram", where] not in state["units"]:
        return t("why.no_ram", where=in_region(where))
    if kind != "ship" and not exploration.can_leave(state, seat, where):
        return t("why.pinned", where=in_region(where))
    return t("why.nowhere", where=_place(where))


def _move(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    to = args[0] if args else ""
    _, kind, at = state["units"][act["unit"]]
    if to not in D.REGIONS and to not in D.SECTIONS:
        return t("why.unknown", what=to)
    if kind == "ship":
        return t("why.sail", section=D.section_name(to) if to in D.SECTIONS else
                 D.name("region", to))
    if to not in D.REGIONS:
        return t("why.land_move", unit=D.name("unit", kind))
    name = D.name("region", to)
    if to not in D.REGIONS[at].neighbours:
        return t("why.not_adjacent", region=name, here=D.name("region", at))
    if D.REGIONS[to].start is not None and to not in state["ziggurats"]:
        return t("why.start_region", region=name)
    if to in state["ziggurats"]:
        return t("why.ziggurat_token", region=name)
    if exploration.walled(state, seat, to) and not act.get("ram"):
        return t("why.rampart", region=name)
    return t("why.pinned", where=in_region(at))


def _halt(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.halt_ship")


def _drop(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.drop")


BUILD_KEY = {"storey": "ziggurat_storey", "garden": "hanging_gardens_storey"}


def _build(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    act = action_under_way(state)
    what = args[0] if args else ""
    if not act["builds"]:
        return t("why.builds_spent")
    structure = BUILD_KEY.get(what, what)
    can = D.CARD_EFFECT[act["card"]]["can_build"]
    tech = D.name("tech", D.CIV_TECH[act["card"]])
    if structure not in construction.COST and what != "garden":
        return t("why.unknown", what=what)
    if structure not in can:
        return t("why.build_level", what=t(f"choice.build.{what}"), tech=tech)
    if what == "garden":
        return t("why.garden")
    if not all(state["players"][seat]["res"][k] >= v
               for k, v in construction.COST[structure].items()):
        return t("why.cost", need=amounts(construction.COST[structure]) or t("nothing"),
                 have=_held(state, seat))
    if what == "storey":
        return t("why.storey", n=state["players"][seat]["ziggurat"] + 1,
                 case=seal_case(state, "population", seat))
    return t(f"why.build_where.{what}")


def _event(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    event = state.get("event") or {}
    card = args[0] if args else ""
    if card != event.get("card"):
        return t("why.event_card", event=D.name("event", event["card"]))
    option = (whole_number(args[1]) or 0) - 1 if args[1:] else -1
    if not 0 <= option < 2:
        return t("why.event_option")
    pay = events.CARDS[card]["options"][option]["effect"].get("pay", {})
    if not events.can_choose(state, seat, card, option):
        return t("why.cost", need=amounts(pay) or t("nothing"), have=_held(state, seat))
    return t("why.event_names")


def _reward(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.reward", event=D.name("event", state["finals"][0]["card"]))


def _fight(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    region = _region(args)
    if region is None:
        return t("why.unknown", what=" ".join(args))
    return t("why.no_combat", where=in_region(region),
             regions=both([D.name("region", r) for r in rounds.contested(state)]))


def _pair(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    region = state["battle"]["region"]
    sides = [battles.token(state, s) for s in fighters(state, region)]
    names = [t("tribe") if s == TRIBE else D.name("empire", s) for s in sides]
    return t("why.pair", where=in_region(region), sides=both(names))


def _bid(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    options = [int(n.split()[1]) for n in battles.legal(state, seat)]
    n = whole_number(args[0]) if args else None
    n = -1 if n is None else n
    if n > max(options):
        return t("why.bid_high", n=max(options))
    return t("why.bid_low", n=min(options))


def _sacrifice(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    return t("why.sacrifice")


def _standard(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    fight = state["fight"]
    if fight["pending"]:
        kind, unit = fight["pending"][0]
        return t(f"why.fight_{kind}", unit=D.name("unit", fight["units"][unit]["kind"]),
                 n=unit + 1)
    stage = fight["stages"][0]
    if stage == "lines":
        return t("why.fight_lines")
    return t("why.fight_place", row=t(f"fight.row.{stage}"))


def _solo_unit(state: MesopotamiaState, word: str, side: str) -> Text | None:
    """Why ``word`` names no unit of ``side`` still in the combat against the Automaton, or
    None."""
    fight = state["solo"]
    units = fight["units"]
    n = whole_number(word)
    if n is None or not 1 <= n <= len(units) or units[n - 1]["side"] != side:
        return t(f"why.solo_not_{side}", what=word)
    unit = units[n - 1]
    if unit["out"]:
        return t("why.solo_out", unit=D.name("unit", unit["kind"]), n=n,
                 fate=t(f"solo.gone.{unit['out']}"))
    return None


def _placing(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    if "solo" not in state:
        return _standard(state, seat, args)
    unit, row = [*args, "", ""][:2]
    wrong = _solo_unit(state, unit, YOU)
    if wrong is not None:
        return wrong
    if row not in standard.ROWS:
        return t("why.unknown", what=row)
    fight = state["solo"]
    if fight["phalanxes"][YOU] <= fight["placed"]:
        return t("why.solo_no_phalanx")
    kind = fight["units"][int(unit) - 1]["kind"]
    return t("why.solo_full", unit=D.name("unit", kind), n=int(unit),
             row=t(f"fight.row.{row}"))


def _clash(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    yours, its = [*args, "", ""][:2]
    return _solo_unit(state, yours, YOU) or _solo_unit(state, its, AUTOMATON)


def _fatigue(state: MesopotamiaState, seat: Seat, args: list[str]) -> Text | None:
    if "solo" not in state:
        return _standard(state, seat, args)
    n = int(state["solo"]["tiring"])
    return t("why.fight_fatigue", unit=D.name("unit", state["solo"]["units"][n]["kind"]),
             n=n + 1)


CHECKS: dict[str, Check] = {
    "role": _role, "empire": _empire, "start": _start, "colony": _colony, "return": _return,
    "set": _set, "reroll": _reroll, "use": _use, "end": _end, "convert": _convert,
    "discover": _discover, "harvest": _harvest, "trade": _trade, "phalanx": _phalanx,
    "create": _create, "grow": _grow, "activate": _activate, "move": _move, "halt": _halt,
    "drop": _drop, "build": _build, "event": _event, "reward": _reward, "fight": _fight,
    "pair": _pair, "bid": _bid, "sacrifice": _sacrifice,
    **dict.fromkeys(standard.VERBS, _standard), "place": _placing, "fatigue": _fatigue,
    "clash": _clash, "launch": _launch,
}
"""The rule each kind of step may break."""


# -- helpers -------------------------------------------------------------------------------------


def _who(seat: Seat | None) -> Text:
    return t("nobody") if seat is None else seat_ref(seat)


def _region(args: list[str]) -> str | None:
    return args[0] if args and args[0] in D.REGIONS else None


def _place(where: str) -> Text:
    """A region or a river section, after "in"."""
    return t("on_section", section=D.section_name(where)) if where in D.SECTIONS \
        else in_region(where)


def _held(state: MesopotamiaState, seat: Seat) -> Text:
    """What ``seat`` holds of the basic and special resources ("nothing" when none)."""
    return amounts(state["players"][seat]["res"]) or t("nothing")


def not_yours(active: list[Seat]) -> Text:
    """The step of a seat that does not decide now: who decides (nobody once it is over)."""
    if not active:
        return t("why.over")
    return t("why.not_yours", who=both([seat_ref(s) for s in active]), n=len(active))
