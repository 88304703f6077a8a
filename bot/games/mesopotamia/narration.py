"""What a Mesopotamia step did, as the channel reads it: words in the third person read after
its player's name ("**Alice** harvests 1 Clay in Ur", "trades with Reed Cutters: gives 2 Stone
for 2 Wood and 1 Food"), then what followed by itself (a forced choice, a round
that ends, a combat fought), and the next player's roll as a sentence on a line of its own.
Its player reads the same, with what only they may know (the quest card they returned, the
Phalanxes they sealed).

Nothing here is announced at once (``Report.announce``): every step that matters to the others
ends a turn or comes before the end of a turn, and the turn message tells it; an announcement
would be repeated word for word by that message. Ending a turn or an action goes without saying
(``Report.quiet``) unless something followed it ("ends the turn, then round 2 ends").
"""

from __future__ import annotations

from typing import Any

from bot.engine import Report, Seat, Text, seat_ref
from bot.games.kit import known
from bot.games.mesopotamia import battles, bids, events, modes, siege, siege_words, solo, standard
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import deck, explain
from bot.games.mesopotamia.combat import TRIBE, clashing_ships
from bot.games.mesopotamia.guardians import news
from bot.games.mesopotamia.rounds import contested
from bot.games.mesopotamia.state import PHASES, MesopotamiaState, seal_case
from bot.games.mesopotamia.words import (
    a_unit,
    amount,
    amounts,
    both,
    chain,
    dice_numbers,
    in_region,
    side_name,
    t,
    to_region,
)

QUIET = frozenset({"end", "stop"})
"""Steps that go without saying (``Report.quiet``): a summary tells only what followed them."""


def report(before: MesopotamiaState, seat: Seat, notation: str, after: MesopotamiaState) -> Report:
    """What ``seat``'s step ``notation`` did, publicly and for ``seat`` (see the module); ending
    a turn or an action is told with what followed it (a round that ends, the next roll), and
    is quiet when nothing did."""
    rest = _after(before, notation, after, False)
    roll = _roll(before, after)
    if notation.split()[0] in QUIET:
        if not rest:
            return Report(_then_roll(simple(notation), roll), quiet=True)
        return Report(_then_roll(t("report.next", step=simple(notation), what=chain(rest)), roll))
    public = _then_roll(chain([_step(before, seat, notation, after, False), *rest]), roll)
    own = _then_roll(chain([_step(before, seat, notation, after, True),
                            *_after(before, notation, after, True)]), roll)
    return Report(public, ((seat, own),) if own != public else ())


def _then_roll(text: Text, roll: Text | None) -> Text:
    """``text``, then the next player's roll (if any) as a sentence on its own line: a
    further line of the report, never joined to the step's words ("… and then Bob rolls")."""
    return text if roll is None else t("report.line", text=text, line=roll)


def _step(before: MesopotamiaState, seat: Seat, notation: str, after: MesopotamiaState,
          secret: bool) -> Text:
    """The sentence of the step itself (``secret``: with what only ``seat`` may read)."""
    verb, *args = notation.split()
    if verb in SIMPLE or (verb == "colony" and args[0] not in battles.COLONY_CHOICES):
        return simple(notation)
    if verb == "return":
        kept = modes.quests(before)[1]
        return t("did.return", kept=kept, quest=D.name("quest", args[0])) if secret \
            else t("did.returned", kept=kept)
    if verb == "bid":
        return _bid(before, seat, int(args[0]), secret)
    if verb in ("event", "reward"):
        return _event(before, seat, notation, after)
    if verb in solo.VERBS and "solo" in before:
        return solo.did(before, notation)
    if verb in standard.VERBS:
        return _fight(before, notation)
    if verb == "defend":
        return siege_words.did(known(after.get("siege"))["last"])
    if verb == "colony":
        owner = next(s for s, p in enumerate(before["players"]) if args[1] in p["colonies"])
        return t(f"did.colony_{args[0]}", owner=seat_ref(owner), where=in_region(args[1]))
    return _turn_step(before, seat, verb, args, after)


SIMPLE = frozenset({"role", "empire", "start", "die", "decline", "launch", "fight", "pair",
                    "sacrifice", "halt", "drop", "stop", "end", "advance"})
"""The verbs whose sentence needs nothing but the notation (and setup's ``colony``)."""


def simple(notation: str) -> Text:
    """The sentence of a step that needs no state to tell (also a forced step)."""
    verb, *args = notation.split()
    if verb == "role":
        return t("did.role", role=args[0].upper())
    if verb == "empire":
        return t("did.empire", empire=D.name("empire", args[0]))
    if verb == "start":
        return t("did.start", region=D.name("region", args[0]),
                 n=D.REGIONS[args[0]].start or 0)
    if verb == "die":
        return t("did.die", colour=D.name("colour", args[0]))
    if verb == "colony":
        return t("did.colony", where=in_region(args[0]))
    if verb == "launch":
        return t("did.launch", section=D.section_name(args[0]))
    if verb == "fight":
        return t("did.fight", where=in_region(args[0]))
    if verb == "pair":
        return t("did.pair", a=side_name(args[0]), b=side_name(args[1]))
    if verb == "sacrifice":
        return t("did.sacrifice", unit=a_unit(args[0]))
    return t(f"did.{verb}")


def _bid(before: MesopotamiaState, seat: Seat, n: int, secret: bool) -> Text:
    """A compartment sealed: which one (and, for its bidder, how many Phalanxes)."""
    sealing = before["bids"]
    key = next(k for k, b in sealing["sealed"].items()
               if sealing["by"][k] == seat and len(b) < sealing["parts"])
    part = t("bid_part.one") if sealing["parts"] == 1 else \
        t(f"bid_part.{standard.ROWS[len(sealing['sealed'][key])]}")
    tribe = "_tribe" if bids.side(key) == TRIBE else ""
    if secret:
        return t(f"did.bid_own{tribe}", part=part, phalanxes=amount("phalanx", n))
    return t(f"did.bid{tribe}", part=part)


def _fight(before: MesopotamiaState, notation: str) -> Text:
    """A step of the standard combat, its unit named by kind and number."""
    verb, *args = notation.split()
    units = before["fight"]["units"]
    if verb == "place":
        unit = units[int(args[0]) - 1]
        return t("did.place", unit=D.name("unit", unit["kind"]), n=int(args[0]),
                 row=t(f"fight.row.{args[1]}"))
    if verb == "line":
        unit = units[int(args[0]) - 1]
        return t("did.line", unit=D.name("unit", unit["kind"]), n=int(args[0]),
                 line=int(args[1]))
    if verb == "lines":
        return t("did.lines")
    n = before["fight"]["pending"][0][1]
    unit = D.name("unit", units[n]["kind"])
    if verb == "retreat":
        return t("did.retreat", unit=unit, n=n + 1, where=to_region(args[0]))
    return t("did.fatigue", unit=unit, n=n + 1, row=t(f"fight.row.{args[0]}"))


def _turn_step(before: MesopotamiaState, seat: Seat, verb: str, args: list[str],
               after: MesopotamiaState) -> Text:
    """A step of the action phase."""
    t_ = known(before["t"])
    if verb == "set":
        return t("did.set", n=t_["dice"].index(None) + 1, sign=D.name("sign", args[0]))
    if verb in ("reroll", "freeroll"):
        dice = [int(a) for a in args]
        shown = both([D.name("sign_short", known(known(after["t"])["dice"][d - 1])) for d in dice])
        return t(f"did.{verb}", dice=dice_numbers(dice), shown=shown)
    if verb == "use":
        return _use(before, args[0], args[1:], after)
    if verb == "convert":
        effect = D.CARD_EFFECT[known(t_["act"])["card"]]["convert"]
        return t("did.convert", paid=amount("clay", int(effect["clay"])),
                 got=amount("tablet", int(effect["tablet"])))
    if verb == "discover":
        card = after["players"][seat]["tech"][args[0]]
        tech = D.CIV_TECH[card]
        return t("did.discover", tech=D.name("tech", tech), action=D.name("action", args[0]),
                 level=D.TECH_CARD[tech][1])
    if verb == "harvest" and args[0] in D.SECTIONS:
        return t("did.harvest_ship", got=amount(args[1], 1), section=D.section_name(args[0]))
    if verb == "harvest":
        return t("did.harvest", got=amount(args[1], 1), where=in_region(args[0]))
    if verb == "create":
        return t("did.create", unit=a_unit(args[0]), where=in_region(args[1]),
                 paid=amount("wood", D.UNIT_WOOD))
    if verb == "phalanx":
        effect = D.CARD_EFFECT[known(t_["act"])["card"]]
        return t("did.phalanx", got=amount("phalanx", int(effect["phalanxes"])))
    if verb == "grow":
        return t("did.grow", paid=_paid(before, after, seat),
                 n=seal_case(after, "population", seat))
    if verb == "activate" and args[0] == "ship":
        return t("did.activate_ship", section=D.section_name(args[1]))
    if verb == "activate":
        return t("did.activate_ram" if args[2:] else "did.activate", unit=a_unit(args[0]),
                 where=in_region(args[1]))
    if verb == "move" and args[0] in D.SECTIONS:
        return t("did.sail", section=D.section_name(args[0]))
    if verb == "move":
        return t("did.move", where=to_region(args[0]))
    if verb == "trade":
        return _trade(before, seat, args[0], after)
    return _build(before, seat, args, after)


def _use(before: MesopotamiaState, action: str, how: list[str], after: MesopotamiaState) -> Text:
    """An action taken with the pawn or with dice; "(nothing to do)" when it ended at once."""
    name = D.name("action", action)
    idle = after["phase"] == "actions" and known(after["t"])["act"] is None and \
        after["current"] == before["current"]
    if how == ["pawn"]:
        return t("did.use_pawn_idle" if idle else "did.use_pawn", action=name)
    if how == ["card"]:     # the Automaton (R-auto-activation)
        return _use_card(before, action, idle)
    dice = [int(d) for d in how]
    signs = both([D.name("sign_short", known(known(before["t"])["dice"][d - 1])) for d in dice])
    return t("did.use_dice_idle" if idle else "did.use_dice", action=name,
             dice=dice_numbers(dice), signs=signs)


def _use_card(before: MesopotamiaState, action: str, idle: bool) -> Text:
    """The Automaton's action, with the Strategy action it was planned for and why; its
    turn's first one followed, on a line of its own, by the turn's summary (its Strategy cards
    by priority, the Action cards drawn and where they went: :mod:`.automaton.explain`)."""
    own = known(deck.box(before, known(before["current"])))
    reason = explain.step_reason(own, action)
    name = D.name("action", action)
    took = t("did.use_card_for_idle" if idle else "did.use_card_for", action=name,
             reason=reason) if reason is not None else \
        t("did.use_card_idle" if idle else "did.use_card", action=name)
    if known(before["t"])["done"] or own["turn"] is None:
        return took
    return t("did.use_card_first", step=took, summary=explain.turn_summary(own["turn"]))


def _delta(before: MesopotamiaState, after: MesopotamiaState, seat: Seat) -> tuple[dict[str, int],
           dict[str, int]]:
    """What ``seat`` paid and gained between ``before`` and ``after`` (resource -> count)."""
    old, new = before["players"][seat]["res"], after["players"][seat]["res"]
    paid = {k: old[k] - new[k] for k in D.RESOURCES if new[k] < old[k]}
    gained = {k: new[k] - old[k] for k in D.RESOURCES if new[k] > old[k]}
    return paid, gained


def _paid(before: MesopotamiaState, after: MesopotamiaState, seat: Seat) -> Text:
    """What ``seat`` paid (nothing: "nothing")."""
    return amounts(_delta(before, after, seat)[0]) or t("nothing")


def exchange(paid: dict[str, int], gained: dict[str, int]) -> Text | None:
    """"pays 1 Stone and gains 2 Food", "pays 1 Stone", "gains 2 Food", or None."""
    pay, gain = amounts(paid), amounts(gained)
    if pay is not None and gain is not None:
        return t("did.pays_gains", paid=pay, gained=gain)
    if pay is not None:
        return t("did.pays", paid=pay)
    return None if gain is None else t("did.gains", gained=gain)


def _trade(before: MesopotamiaState, seat: Seat, token: str, after: MesopotamiaState) -> Text:
    """A trade: the token, what was paid and gained, and the Amphora it leaves."""
    slot = next(s for s, tk in before["trade"].items() if tk == token)
    owner = before.get("amphorae", {}).get(slot)
    placed = owner is None and after.get("amphorae", {}).get(slot) == seat
    paid, gained = _delta(before, after, seat)
    what = exchange(paid, gained) or t("nothing")
    if owner is not None and owner != seat:
        return t("did.trade_owner", name=t(f"trade.{token}"), what=what, owner=seat_ref(owner))
    return t("did.trade_amphora" if placed else "did.trade", name=t(f"trade.{token}"),
             what=what)


def _build(before: MesopotamiaState, seat: Seat, args: list[str], after: MesopotamiaState) -> Text:
    """A build, with what it cost."""
    what, where = args
    paid = _paid(before, after, seat)
    if what == "garden":
        built = sum(len(p.get("gardens", [])) for p in after["players"])
        return t("did.build_garden", n=built, tile=D.name("garden", where), paid=paid)
    if what == "storey":
        return t("did.build_storey", n=after["players"][seat]["ziggurat"], paid=paid,
                 colour=D.name("colour", where))
    if what == "ship":
        return t("did.build_ship", section=D.section_name(where), paid=paid)
    return t(f"did.build_{what}", where=in_region(where), paid=paid)


def _event(before: MesopotamiaState, seat: Seat, notation: str, after: MesopotamiaState) -> Text:
    """An event's option chosen, or a final reward taken, and what it brought."""
    verb, card = notation.split()[:2]
    effects = effects_of(before, after, seat)
    event = D.name("event", card)
    if verb == "reward":
        return t("did.reward", event=event, what=effects)
    _, i, _, drop = events.parse(notation)
    option = events.CARDS[card]["options"][i]
    region = known(before["event"])["region"]
    named = t(f"event_name.{card}.{i + 1}")
    if option["kind"] == "vp_token":
        kept: Text = t("did.token_kept", vp=int(option["token_vp"]), where=in_region(region))
    elif option["kind"] == "control_6_rounds":
        kept = t("did.six_rounds", where=in_region(region))
    else:
        kept = t("did.token_gone")
    if drop is not None:
        kept = t("did.event_drop", kept=kept, dropped=D.name("event", drop))
    if effects == t("nothing"):
        return t("did.event_only", option=named, event=event, kept=kept)
    return t("did.event", option=named, event=event, what=effects, kept=kept)


def effects_of(before: MesopotamiaState, after: MesopotamiaState, seat: Seat) -> Text:
    """What a card gave ``seat``, read from the state: resources, track cases, technologies,
    units, Colonies, Ramparts, Ziggurat storeys and quest cards ("nothing" when none)."""
    paid, gained = _delta(before, after, seat)
    old, new = before["players"][seat], after["players"][seat]
    found = [x for x in (exchange(paid, gained),) if x is not None]
    for track in D.TRACKS:
        case = seal_case(after, track, seat)
        if case != seal_case(before, track, seat):
            found.append(t(f"did.case_{track}", n=case))
    found += [t("did.discovers", tech=D.name("tech", D.CIV_TECH[new["tech"][a]]))
              for a in D.ACTIONS if new["tech"][a] != old["tech"][a]]
    for kind in D.FIGURES:
        n = sum(1 for u in after["units"] if u[0] == seat and u[1] == kind) - \
            sum(1 for u in before["units"] if u[0] == seat and u[1] == kind)
        if n > 0:
            found.append(t("did.units", units=t(f"units.{kind}", n=n)))
    for piece in ("colonies", "ramparts"):
        if len(new[piece]) > len(old[piece]):
            found.append(t(f"did.new_{piece}", n=len(new[piece]) - len(old[piece])))
    if new["ziggurat"] > old["ziggurat"]:
        found.append(t("did.storeys", n=new["ziggurat"] - old["ziggurat"]))
    drawn = len(after["quests"]["hands"][seat]) - len(before["quests"]["hands"][seat])
    if drawn > 0:
        found.append(t("did.quests_drawn", n=drawn))
    return both(found) if found else t("nothing")


# -- what followed the step -------------------------------------------------------------------


def _after(before: MesopotamiaState, notation: str, after: MesopotamiaState,
           own: bool) -> list[Text]:
    """What happened by itself after the step, in order (``own``: as the seat's player reads
    it)."""
    found: list[Text] = news.told(after, True)
    if before["phase"] not in PHASES and after["phase"] not in PHASES:
        found += _revealed(before, after)
    if before["phase"] == "actions" and (after["phase"] != "actions"
                                         or after["round"] != before["round"]):
        if contested(before):      # else the round's end says "without combat"
            found.append(t("report.phase_over", n=before["round"]))
        found += [t("report.ships_sunk", section=D.section_name(s))
                  for s in clashing_ships(before)]
    opened = _bids_opened(before, after)
    found += [_forced(s, n) for s, n in after["log"]
              if not (opened and n.startswith("fight "))]    # the bids name the region
    if after["phase"] == "quests" and before["phase"] != "quests":
        found.append(t("report.dealt", n=modes.quests(after)[0]))
    found += solo.told(before, after, own)
    found += _combats(after)
    found += opened
    found += news.told(after, False)
    if before["phase"] in PHASES and after["phase"] not in PHASES:
        found += [t("report.ready"), t("report.round", n=after["round"])]
    elif after["phase"] == "over" and after.get("siege"):
        found.append(t(f"siege.{known(after.get('siege'))['result']}",
                       who=seat_ref(siege.you(after))))
    elif after["phase"] == "over" and "guardians" in after:
        pass                        # the enemy's news tell the end
    elif after["phase"] == "over" or after.get("round", 0) != before.get("round", 0):
        found += _round_end(before, after)
    return found


def _forced(seat: Seat, notation: str) -> Text:
    """A step the engine took for a seat that had one choice."""
    if notation.startswith("fight "):
        return t("report.fight", where=in_region(notation.split()[1]))
    return t("report.forced", who=seat_ref(seat), step=simple(notation))


def _revealed(before: MesopotamiaState, after: MesopotamiaState) -> list[Text]:
    """An event revealed, or a running event reset for the empire now controlling its region
    (R-event-reset)."""
    event = after.get("event")
    if not event or event == before.get("event"):
        return []
    args: dict[str, Any] = {"who": seat_ref(event["seat"]), "where": in_region(event["region"]),
                            "event": D.name("event", event["card"])}
    if "from" in event:
        return [t("report.event_reset", owner=seat_ref(event["from"]), **args)]
    return [t("report.event_revealed", **args)]


def _combats(after: MesopotamiaState) -> list[Text]:
    """The combats this step ended: who won, and the bids revealed (the winner's first; a
    combat against the Automaton had none)."""
    found = []
    for c in after.get("resolved", []):
        if c["bids"] is None:
            found.append(t("report.solo_combat", winner=bids.who(c["winner"]),
                           loser=bids.who(c["loser"]), where=in_region(c["region"])))
            continue
        shown = {bids.side(k): b for k, b in c["bids"].items()}
        first, second = (bids.sealed_text(s, shown[s], len(shown[s])) if s in shown
                         else t("nothing") for s in (c["winner"], c["loser"]))
        found.append(t("report.combat", winner=bids.who(c["winner"]),
                       loser=bids.who(c["loser"]), where=in_region(c["region"]), a=first,
                       b=second))
    return found


def _bids_opened(before: MesopotamiaState, after: MesopotamiaState) -> list[Text]:
    """A combat whose sides now seal their bids: who fights whom, where."""
    battle = after.get("battle")
    if not after.get("bids") or not battle or (
            before.get("bids") and (before.get("battle") or {}).get("pair") == battle["pair"]):
        return []
    a, b = (bids.who(s) for s in battle["pair"])
    return [t("report.bids_open", a=a, b=b, where=in_region(battle["region"]))]


def _round_end(before: MesopotamiaState, after: MesopotamiaState) -> list[Text]:
    """The end of the round (and of the game), the six-round events that ended with it, the
    next round."""
    quiet = before["phase"] == "actions" and not contested(before)
    found = [t("report.round_quiet" if quiet else "report.round_over", n=before["round"])]
    running = {r["card"] for r in after.get("running", [])}
    found += [t("report.event_final", event=D.name("event", r["card"]), who=seat_ref(r["seat"]))
              for r in before.get("running", []) if r["card"] not in running]
    found.append(t("report.game_over") if after["phase"] == "over"
                 else t("report.round", n=after["round"]))
    return found


def _roll(before: MesopotamiaState, after: MesopotamiaState) -> Text | None:
    """The roll that begins the next player's turn, if the step began one."""
    if after["phase"] != "actions" or after.get("event"):
        return None
    new_turn = before["phase"] != "actions" or after["current"] != before["current"] or \
        after.get("round") != before.get("round")
    faces = known(after["t"])["dice"]
    if not new_turn or not faces or None in faces:
        return None
    return t("report.roll", who=seat_ref(known(after["current"])),
             signs=both([D.name("sign_short", known(f)) for f in faces]))
