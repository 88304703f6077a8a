"""The words of Mesopotamia: each step's label, what a step did and what a panel asks (the
setup and the rounds). Only :class:`~bot.engine.Text` values: the catalogue holds the words
(``data/locales/<lang>/mesopotamia.json``).
"""

from __future__ import annotations

from typing import Any

from bot import chance
from bot.engine import Action, Prompt, Report, Seat, State, Text, TextArg, seat_ref
from bot.games.mesopotamia import battles, bids, events, standard
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE, clashing_ships
from bot.games.mesopotamia.state import PHASES, seal_case

GROUPS = {"role": "role", "empire": "empire", "start": "region", "die": "bonus",
          "colony": "bonus", "decline": "bonus", "return": "quest", "set": "dice",
          "reroll": "dice", "use": "action", "end": "turn", "convert": "research",
          "discover": "research", "harvest": "harvest", "phalanx": "war", "create": "war",
          "grow": "growth", "stop": "action", "activate": "exploration",
          "move": "exploration", "halt": "exploration", "drop": "exploration",
          "build": "construction", "trade": "trade", "event": "event", "reward": "event",
          "fight": "combat", "pair": "combat", "bid": "combat", "sacrifice": "combat"}


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"mesopotamia.{key}", **args)


def label(notation: str) -> Text:
    """How a step reads in the panel, in autocomplete and in the log of its own seat."""
    verb, *args = notation.split()
    if verb == "role":
        return _t("act.role", role=args[0].upper())
    if verb == "empire":
        return _t("act.empire", empire=D.name("empire", args[0]))
    if verb == "start":
        number = D.REGIONS[args[0]].start or 0
        return _t("act.start", region=D.name("region", args[0]), n=number)
    if verb == "die":
        return _t("act.die", colour=D.name("colour", args[0]))
    if verb == "colony" and args[0] in battles.COLONY_CHOICES:
        return _t(f"act.colony_{args[0]}", region=D.name("region", args[1]))
    if verb == "colony":
        return _t("act.colony", region=D.name("region", args[0]))
    if verb == "decline":
        return _t("act.decline")
    if verb == "return":
        return _t("act.return", quest=D.name("quest", args[0]))
    if verb in ("event", "reward"):
        return _event_label(notation)
    if verb in battles.VERBS:
        return _combat_label(verb, args)
    if verb in standard.VERBS:
        return standard.label(notation)
    return _round_label(verb, args)


def _event_label(notation: str) -> Text:
    """The label of an event's option (with the technology it names, or the running event it
    gives up) or of a final reward's technology."""
    verb, card, *args = notation.split()
    event = D.name("event", card)
    if verb == "reward":
        if args and args[-1] in D.COLOURS:   # no final reward both discovers and builds
            return _t("act.reward_storey", event=event, colour=D.name("colour", args[-1]))
        return _t("act.reward", event=event, tech=_techs(args)) if args else \
            _t("act.reward_none", event=event)
    _, i, techs, drop = events.parse(notation)
    option = _t(f"event_option.{card}.{i + 1}")
    if drop is not None:
        return _t("act.event_drop", event=event, option=option, dropped=D.name("event", drop))
    if techs:
        return _t("act.event_tech", event=event, option=option, tech=_techs(techs))
    return _t("act.event", event=event, option=option)


def _techs(actions: list[str]) -> tuple[Text, ...]:
    """The technologies a step names, by their actions."""
    return tuple(D.name("action", a) for a in actions)


def _side(word: str) -> Text:
    """A side of a notation: an empire, or the neutral tribe."""
    return _t("tribe") if word == TRIBE else D.name("empire", word)


def _combat_label(verb: str, args: list[str]) -> Text:
    """The label of a step of the combat phase."""
    if verb == "fight":
        return _t("act.fight", region=D.name("region", args[0]))
    if verb == "pair":
        return _t("act.pair", a=_side(args[0]), b=_side(args[1]))
    if verb == "bid":
        return _t("act.bid", n=int(args[0]))
    return _t("act.sacrifice", unit=D.name("unit", args[0]))


def _round_label(verb: str, args: list[str]) -> Text:
    """The label of a step of the action phase."""
    if verb == "set":
        return _t("act.set", sign=D.name("sign", args[0]))
    if verb == "reroll":
        return _t("act.reroll", dice=", ".join(args))
    if verb == "use" and args[1:] == ["pawn"]:
        return _t("act.use_pawn", action=D.name("action", args[0]))
    if verb == "use":
        return _t("act.use_dice", action=D.name("action", args[0]), dice=", ".join(args[1:]))
    if verb == "discover":
        return _t("act.discover", action=D.name("action", args[0]))
    if verb == "harvest" and args[0] in D.SECTIONS:
        return _t("act.harvest_ship", resource=D.name("resource", args[1]),
                  section=D.section_name(args[0]))
    if verb == "harvest":
        return _t("act.harvest", resource=D.name("resource", args[1]),
                  region=D.name("region", args[0]))
    if verb == "create":
        return _t("act.create", unit=D.name("unit", args[0]), region=D.name("region", args[1]))
    if verb == "activate" and args[0] == "ship":
        return _t("act.activate_ship", section=D.section_name(args[1]))
    if verb == "move" and args[0] in D.SECTIONS:
        return _t("act.move_ship", section=D.section_name(args[0]))
    if verb == "build" and args[0] == "ship":
        return _t("act.build_ship", section=D.section_name(args[1]))
    if verb == "activate":
        return _t("act.activate_ram" if args[2:] else "act.activate",
                  unit=D.name("unit", args[0]), region=D.name("region", args[1]))
    if verb == "move":
        return _t("act.move", region=D.name("region", args[0]))
    if verb == "trade":
        return _t("act.trade", name=_t(f"trade.{args[0]}"), text=_t(f"trade_text.{args[0]}"))
    if verb == "build" and args[0] == "garden":
        return _t("act.build_garden", tile=D.name("garden", args[1]))
    if verb == "build" and args[0] == "storey":
        return _t("act.build_storey", colour=D.name("colour", args[1]))
    if verb == "build":
        return _t(f"act.build_{args[0]}", region=D.name("region", args[1]))
    return _t(f"act.{verb}")


def action(notation: str) -> Action:
    """The :class:`Action` of a notation."""
    verb, *args = notation.split()
    group = "combat" if verb == "colony" and args[0] in battles.COLONY_CHOICES else \
        GROUPS.get(verb, "combat")
    return Action(notation, label(notation), group)


def _public(notation: str) -> Text:
    """What everyone may read of a step: a returned quest card is not named, a sealed bid
    is not told."""
    if notation.startswith("bid "):
        return _t("act.bid_sealed")
    return _t("act.returned") if notation.startswith("return ") else label(notation)


def report(before: State, seat: Seat, notation: str, after: State) -> Report:
    """What the step did: its label, then the steps that were forced after it, the deal, the
    end of the setup, what a part of an action gave, a new turn and its roll."""
    forced = tuple(_t("report.forced", who=seat_ref(s), step=label(n))
                   for s, n in after["log"])
    extra: tuple[Text, ...] = forced
    if after["phase"] == "quests" and not notation.startswith("return "):
        extra += (_t("report.dealt", n=D.QUEST_DEALT),)
    extra += _combat_report(before, after)
    extra += _round_report(before, seat, notation, after)
    announce = chance.drew(before, after)
    if not extra:
        return Report(_public(notation), ((seat, label(notation)),), announce=announce)
    return Report(_t("report.then", step=_public(notation), then=extra),
                  ((seat, _t("report.then", step=label(notation), then=extra)),),
                  announce=announce)


def _round_report(before: State, seat: Seat, notation: str, after: State) -> tuple[Text, ...]:
    """What a step of the rounds brought: resources, a card, a roll, a new turn or phase."""
    extra: tuple[Text, ...] = ()
    new_round = before["phase"] not in PHASES and (
        after["phase"] == "over" or after["round"] != before["round"])
    if before["phase"] in PHASES and after["phase"] == "actions":
        extra += (_t("report.ready"), _t("report.round", n=after["round"]))
    if before["phase"] == "actions" and (after["phase"] != "actions" or new_round):
        extra += (_t("report.phase_over", n=before["round"]),)
        extra += tuple(_t("report.ships_sunk", section=D.section_name(s))
                       for s in clashing_ships(before))
    if new_round:
        extra += (_t("report.round_over", n=before["round"]),)
        extra += (_t("report.game_over"),) if after["phase"] == "over" else \
            (_t("report.round", n=after["round"]),)
    if after["phase"] not in ("actions", "combat", "events"):
        return extra
    verb, *args = notation.split()
    if verb in ("convert", "phalanx", "grow", "harvest", "create", "reroll", "trade", "build",
                "event"):
        extra += _changes(before, after, seat)
    if verb == "discover":
        card = after["players"][seat]["tech"][args[0]]
        extra += (_t("report.discovered", tech=D.name("tech", D.CIV_TECH[card])),)
    if verb == "reroll":
        extra += (_t("report.dice", dice=dice_texts(after)),)
    event = after.get("event")
    if event and event != before.get("event"):
        extra += (_event_report(event),)
    if after["phase"] in ("combat", "events"):
        return extra
    elif after["current"] != before["current"] or before["phase"] != "actions":
        extra += (_t("report.turn", who=seat_ref(after["current"])),)
        if None not in after["t"]["dice"] and after["t"]["dice"]:
            extra += (_t("report.dice", dice=dice_texts(after)),)
    return extra


def _event_report(event: dict[str, Any]) -> Text:
    """An event revealed, or a running event reset for the empire now controlling its region
    (R-event-reset)."""
    args: dict[str, TextArg] = {"who": seat_ref(event["seat"]),
                                "region": D.name("region", event["region"]),
                                "event": D.name("event", event["card"])}
    if "from" in event:
        return _t("report.event_reset", owner=seat_ref(event["from"]), **args)
    return _t("report.event_revealed", **args)


def _combat_report(before: State, after: State) -> tuple[Text, ...]:
    """The combats that ended in this step: the revealed bids, the winner and the loser."""
    return tuple(_t("report.combat", region=D.name("region", c["region"]),
                    bids=tuple(bids.sealed_text(bids.side(k), b) for k, b in c["bids"].items()),
                    winner=bids.who(c["winner"]), loser=bids.who(c["loser"]))
                 for c in after.get("resolved", []))


def _changes(before: State, after: State, seat: Seat) -> tuple[Text, ...]:
    """The resources of ``seat`` that changed, and its Population case."""
    old, new = before["players"][seat]["res"], after["players"][seat]["res"]
    out = tuple(_t("report.resource", n=f"{new[k] - old[k]:+d}", resource=D.name("resource", k))
                for k in D.RESOURCES if new[k] != old[k])
    case = seal_case(after, "population", seat)
    if case != seal_case(before, "population", seat):
        out += (_t("report.population", n=case),)
    return out


def dice_texts(state: State) -> tuple[Text, ...]:
    """The current seat's dice as read on the table: number, sign, used or not."""
    t = state["t"]
    return tuple(_t("die_used" if used else "die", n=i + 1,
                    sign=D.name("sign", face) if face else _t("unset"))
                 for i, (face, used) in enumerate(zip(t["dice"], t["used"], strict=True)))


def prompt(state: State, seat: Seat) -> Prompt | None:
    """What ``seat``'s decision asks."""
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "roles":
        return Prompt(_t("prompt.role"))
    if phase == "empires":
        return Prompt(_t("prompt.empire", role=str(player["role"]).upper()))
    if phase == "regions":
        return Prompt(_t("prompt.start", empire=D.name("empire", player["empire"])))
    if phase == "bonus":
        return Prompt(_t(f"prompt.{state['bonus'][0][1]}"))
    if phase == "quests" and state["quests"]["returned"][seat] is None:
        cards = tuple(_t("quest_line", quest=D.name("quest", q), text=D.name("quest_text", q))
                      for q in state["quests"]["hands"][seat])
        return Prompt(_t("prompt.quests", kept=D.QUEST_KEPT, cards=cards))
    event = state.get("event")
    if event and seat == state["current"]:
        args: dict[str, TextArg] = {"event": D.name("event", event["card"]),
                                    "region": D.name("region", event["region"])}
        if "from" in event:
            return Prompt(_t("prompt.event_reset", owner=seat_ref(event["from"]), **args))
        return Prompt(_t("prompt.event", **args))
    if phase == "actions" and seat == state["current"]:
        return Prompt(_turn_prompt(state, seat))
    if phase == "end" and seat == state["current"]:
        return Prompt(_t("prompt.reward", event=D.name("event", state["finals"][0]["card"])))
    if phase == "combat":
        text = _combat_prompt(state, seat)
        return None if text is None else Prompt(text)
    return None


def _combat_prompt(state: State, seat: Seat) -> Text | None:
    """What a step of the combat phase asks."""
    battle = state["battle"]
    stage = battle["stage"]
    if stage == "standard":
        return standard.prompt(state)
    if stage == "order":
        return _t("prompt.fight")
    if stage == "colonies":
        return _t("prompt.colonies")
    region = D.name("region", battle["region"])
    if stage == "pair":
        return _t("prompt.pair", region=region)
    if stage == "sacrifice":
        return _t("prompt.sacrifice", region=region)
    sealing = state["bids"]
    key = next(k for k, b in sealing["sealed"].items()
               if sealing["by"][k] == seat and len(b) < sealing["parts"])
    return _t("prompt.bid", region=region, who=bids.who(bids.side(key)),
              part=len(sealing["sealed"][key]) + 1, parts=sealing["parts"],
              left=int(sealing["stake"][key]) - sum(sealing["sealed"][key]),
              need=int(sealing["need"][key]))


def card_line(card: str) -> Text:
    """A civilization card as a player reads it: technology, level and what it does."""
    tech = D.CIV_TECH[card]
    return _t("card_line", tech=D.name("tech", tech), level=D.TECH_CARD[tech][1],
              text=D.card_text(card))


def card_lines(state: State, seat: Seat) -> tuple[Text, ...]:
    """The six technology cards on ``seat``'s board, one line each, in action order."""
    cards = state["players"][seat]["tech"]
    return tuple(card_line(cards[action]) for action in D.ACTIONS if cards.get(action))


def _turn_prompt(state: State, seat: Seat) -> Text:
    """What the current turn asks: set a die, choose an action, or a part of the action."""
    t = state["t"]
    player = state["players"][seat]
    if t["act"] is not None:
        return _t("prompt.act", card=card_line(t["act"]["card"]),
                  how=_t(f"prompt.act.{t['act']['action']}"))
    if None in t["dice"]:
        i = t["dice"].index(None)
        return _t("prompt.set", n=i + 1, colour=D.name("colour", player["dice"][i]))
    return _t("prompt.turn", round=state["round"], dice=dice_texts(state) or (_t("no_dice"),),
              pawn=_t("pawn_free" if t["pawn"] else "pawn_used"), rerolls=t["rerolls"])

