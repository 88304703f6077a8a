"""The words of Mesopotamia's panels: each step's label (what a button says), the choices
that lead to it, and what a panel asks (the setup and the rounds); what a step did is
:mod:`bot.games.mesopotamia.narration`. Only :class:`~bot.engine.Text` values: the catalogue
holds the words (``data/locales/<lang>/mesopotamia.json``).
"""

from __future__ import annotations

from bot.engine import Action, Prompt, Seat, State, Text, TextArg, seat_ref
from bot.games.kit import known, typed
from bot.games.mesopotamia import battles, bids, events, modes, solo, standard
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState
from bot.games.mesopotamia.words import a_unit, both, dice_numbers, in_region, side_name

GROUPS = {"role": "role", "empire": "empire", "start": "region", "die": "bonus",
          "colony": "bonus", "decline": "bonus", "launch": "bonus", "return": "quest",
          "set": "dice", "reroll": "dice", "freeroll": "dice", "use": "action", "end": "end",
          "convert": "research",
          "discover": "research", "harvest": "harvest", "phalanx": "war", "create": "war",
          "grow": "growth", "stop": "action", "activate": "exploration",
          "move": "exploration", "halt": "exploration", "drop": "exploration",
          "build": "construction", "trade": "trade", "event": "event", "reward": "event",
          "fight": "combat", "pair": "combat", "bid": "combat", "sacrifice": "combat",
          "advance": "end"}


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
        return _t(f"act.colony_{args[0]}", where=in_region(args[1]))
    if verb == "colony":
        return _t("act.colony", region=D.name("region", args[0]))
    if verb == "decline":
        return _t("act.decline")
    if verb == "launch":
        return _t("act.launch", section=D.section_name(args[0]))
    if verb == "return":
        return _t("act.return", quest=D.name("quest", args[0]))
    if verb in ("event", "reward"):
        return _event_label(notation)
    if verb in battles.VERBS:
        return _combat_label(verb, args)
    if verb == "clash":
        return _t("act.clash_n", yours=int(args[0]), its=int(args[1]))
    if verb in standard.VERBS:
        return standard.label(notation)
    return _round_label(verb, args)


def brief(notation: str) -> Text:
    """A step in a list of steps: its label, but a trade without its token's text and an
    event's option by its name."""
    verb, *args = notation.split()
    if verb == "trade":
        return _t("act.trade_short", name=_t(f"trade.{args[0]}"))
    if verb == "event":
        card, i, _, _ = events.parse(notation)
        return _t("act.event_short", event=D.name("event", card),
                  option=_t(f"event_name.{card}.{i + 1}"))
    return label(notation)


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


def _combat_label(verb: str, args: list[str]) -> Text:
    """The label of a step of the combat phase."""
    if verb == "fight":
        return _t("act.fight", where=in_region(args[0]))
    if verb == "pair":
        return _t("act.pair", a=side_name(args[0]), b=side_name(args[1]))
    if verb == "bid":
        return _t("act.bid", n=int(args[0]))
    return _t("act.sacrifice", unit=a_unit(args[0]))


def _round_label(verb: str, args: list[str]) -> Text:
    """The label of a step of the action phase."""
    if verb == "set":
        return _t("act.set", sign=D.name("sign", args[0]))
    if verb in ("reroll", "freeroll"):
        return _t(f"act.{verb}", dice=dice_numbers([int(a) for a in args]))
    if verb == "use" and args[1:] == ["pawn"]:
        return _t("act.use_pawn", action=D.name("action", args[0]))
    if verb == "use" and args[1:] == ["card"]:     # the Automaton (R-auto-activation)
        return _t("act.use_card", action=D.name("action", args[0]))
    if verb == "use":
        return _t("act.use_dice", action=D.name("action", args[0]),
                  dice=dice_numbers([int(a) for a in args[1:]]))
    if verb == "discover":
        return _t("act.discover", action=D.name("action", args[0]))
    if verb == "harvest" and args[0] in D.SECTIONS:
        return _t("act.harvest_ship", resource=D.name("resource", args[1]),
                  section=D.section_name(args[0]))
    if verb == "harvest":
        return _t("act.harvest", resource=D.name("resource", args[1]),
                  region=D.name("region", args[0]))
    if verb == "create":
        return _t("act.create", unit=a_unit(args[0]), region=D.name("region", args[1]))
    if verb == "activate" and args[0] == "ship":
        return _t("act.activate_ship", section=D.section_name(args[1]))
    if verb == "move" and args[0] in D.SECTIONS:
        return _t("act.move_ship", section=D.section_name(args[0]))
    if verb == "build" and args[0] == "ship":
        return _t("act.build_ship", section=D.section_name(args[1]))
    if verb == "activate":
        return _t("act.activate_ram" if args[2:] else "act.activate",
                  unit=a_unit(args[0]), region=D.name("region", args[1]))
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


def action(notation: str, state: MesopotamiaState | None = None,
           closes_turn: bool = False) -> Action:
    """The :class:`Action` of a notation; with ``state``, the choices that lead to it in a
    panel (:func:`path`), and whether only ending the turn can follow it (``closes_turn``)."""
    verb, *args = notation.split()
    group = "combat" if verb == "colony" and args[0] in battles.COLONY_CHOICES else \
        GROUPS.get(verb, "combat")
    named = solo.label(state, notation) if state is not None and "solo" in state and \
        verb in solo.VERBS else label(notation)
    return Action(notation, named, group,
                  () if state is None else path(state, notation), closes_turn)


def path(state: MesopotamiaState, notation: str) -> tuple[Text, ...]:
    """The choices a panel asks before the step, broadest first, the last naming the step:
    the action, then the pawn or the dice; a harvest's place, then its resource; a build's
    structure, then where; a unit's kind, then where; a trade under "Trade"; a reroll under
    "Reroll"; a colony's region, then what to do with it; a battle-line move's unit, then its
    line; an event's option, then what it names."""
    verb, *args = notation.split()
    if verb == "use":
        return D.name("action", args[0]), _how(state, args[1:])
    if verb in ("reroll", "freeroll"):
        return _t(f"choice.{verb}"), dice_numbers([int(a) for a in args])
    if verb == "harvest":
        place = D.section_name(args[0]) if args[0] in D.SECTIONS else D.name("region", args[0])
        return place, D.name("resource", args[1])
    if verb == "trade":
        return _t("choice.trade"), _t(f"trade.{args[0]}")
    if verb == "create":
        return D.name("unit", args[0]), D.name("region", args[1])
    if verb == "activate" and args[0] != "ship":
        return D.name("unit", args[0]), _t("choice.with_ram" if args[2:] else "choice.region",
                                           where=in_region(args[1]))
    if verb == "build" and args[0] not in ("storey", "garden"):
        where = D.section_name(args[1]) if args[0] == "ship" else D.name("region", args[1])
        return _t(f"choice.build.{args[0]}"), where
    if verb == "colony" and args[0] in battles.COLONY_CHOICES:
        return D.name("region", args[1]), _t(f"choice.colony.{args[0]}")
    if verb == "line":
        return _t("choice.unit", n=int(args[0])), _t("choice.line", line=int(args[1]))
    if verb == "event":
        card, i, techs, drop = events.parse(notation)
        named = [*(D.name("action", a) for a in techs if a in D.ACTIONS),
                 *(D.name("colour", c) for c in techs if c in D.COLOURS)]
        if drop is not None:
            named.append(_t("choice.drop", event=D.name("event", drop)))
        return (_t(f"event_name.{card}.{i + 1}"), both(named)) if named else ()
    return ()


def _how(state: MesopotamiaState, how: list[str]) -> Text:
    """How an action is paid: the pawn, or dice and the signs they show."""
    if how == ["pawn"]:
        return _t("choice.pawn")
    if how == ["card"]:
        return _t("choice.card")
    dice = [int(d) for d in how]
    faces = known(state["t"])["dice"]
    return _t("choice.dice", dice=dice_numbers(dice),
              signs=both([D.name("sign_short", known(faces[d - 1])) for d in dice]))


def dice_texts(state: MesopotamiaState) -> tuple[Text, ...]:
    """The current seat's dice as read on the table: number, sign, used or not."""
    t = known(state["t"])
    return tuple(_t("die_used" if used else "die", n=i + 1,
                    sign=D.name("sign", face) if face else _t("unset"))
                 for i, (face, used) in enumerate(zip(t["dice"], t["used"], strict=True)))


def prompt(state: MesopotamiaState, seat: Seat) -> Prompt | None:
    """What ``seat``'s decision asks."""
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "roles":
        return Prompt(_t("prompt.role"))
    if phase == "empires":
        return Prompt(_t("prompt.empire", role=str(player["role"]).upper()))
    if phase == "regions":
        return Prompt(_t("prompt.start", empire=D.name("empire", known(player["empire"]))))
    if phase == "bonus":
        return Prompt(_t(f"prompt.{state['bonus'][0][1]}"))
    if phase == "quests" and state["quests"]["returned"][seat] is None:
        cards = tuple(_t("quest_line", quest=D.name("quest", q), text=D.name("quest_text", q))
                      for q in state["quests"]["hands"][seat])
        return Prompt(_t("prompt.quests", kept=modes.quests(state)[1], cards=cards))
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


def waiting(state: MesopotamiaState, seat: Seat) -> Prompt | None:
    """What a seat that has sealed its bid reads while others still seal theirs (their names
    are the panel's "waiting for" line), or None."""
    sealing = state.get("bids")
    battle = state.get("battle")
    if state["phase"] != "combat" or not sealing or not battle or \
            seat not in sealing["by"].values():
        return None
    return Prompt(_t("prompt.sealed", where=in_region(battle["region"])))


def _combat_prompt(state: MesopotamiaState, seat: Seat) -> Text | None:
    """What a step of the combat phase asks."""
    battle = state["battle"]
    stage = battle["stage"]
    if stage == "standard":
        return standard.prompt(state)
    if stage == "solo":
        return solo.prompt(state)
    if stage == "order":
        return _t("prompt.fight")
    if stage == "colonies":
        return _t("prompt.colonies")
    region = in_region(battle["region"])
    if stage == "pair":
        return _t("prompt.pair", where=region)
    if stage == "sacrifice":
        return _t("prompt.sacrifice", where=region)
    sealing = state["bids"]
    key = next(k for k, b in sealing["sealed"].items()
               if sealing["by"][k] == seat and len(b) < sealing["parts"])
    return _t("prompt.bid", where=region, who=bids.who(bids.side(key)),
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
    cards = typed(MesopotamiaState, state)["players"][seat]["tech"]
    return tuple(card_line(cards[action]) for action in D.ACTIONS if cards.get(action))


def _rerolls(state: MesopotamiaState, seat: Seat) -> bool:
    """Whether ``seat`` may still reroll a die this turn."""
    t = known(state["t"])
    return not state["no_chance"] and t["rerolls"] < D.MAX_REROLLS and \
        state["players"][seat]["res"]["tablet"] >= D.REROLL_TABLETS and not all(t["used"])


def _turn_prompt(state: MesopotamiaState, seat: Seat) -> Text:
    """What the current turn asks: set a die, choose an action, or a part of the action."""
    t = known(state["t"])
    player = state["players"][seat]
    if t["act"] is not None:
        return _t("prompt.act", card=card_line(t["act"]["card"]),
                  how=_t(f"prompt.act.{t['act']['action']}"))
    if None in t["dice"]:
        i = t["dice"].index(None)
        return _t("prompt.set", n=i + 1, colour=D.name("colour", player["dice"][i]))
    if t["done"] and not t["pawn"] and all(t["used"]) and not _rerolls(state, seat):
        return _t("prompt.turn_over", round=state["round"])
    return _t("prompt.turn", round=state["round"], dice=dice_texts(state) or (_t("no_dice"),),
              pawn=_t("pawn_free" if t["pawn"] else "pawn_used"), rerolls=t["rerolls"])

