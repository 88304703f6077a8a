"""What a step of Civilizations did, as each reader may know it (:class:`bot.engine.Report`)."""

from __future__ import annotations

from bot.engine import Report, Seat, Text, TextArg, seat_ref
from bot.games.civsets.cards import CARDS, RULES, a_card, civ_adj, territory
from bot.games.civsets.state import CivsetsState, holding, named_seat
from bot.games.civsets.texts import card_name, tx
from bot.games.kit import known


def report(before: CivsetsState, seat: Seat, notation: str, after: CivsetsState) -> Report:
    """What the step did: in public, and for the seats that know more."""
    words = notation.split()
    verb = words[0]
    if verb in ("place", "wild"):
        return Report(_with(_placed(before, seat, words[1], verb, after), before, after))
    if verb == "sell":
        civ = words[1]
        return Report(tx("did.sell", who=seat_ref(known(after["pending"])["to"]),
                         adj=civ_adj(civ, 2), territory=territory(civ),
                         price=RULES["sell_price"]))
    if verb == "pay" or (verb == "refuse" and before["step"] == "sale"):
        pending = known(before["pending"])
        text = tx(f"did.{verb}_sale", who=seat_ref(pending["by"]),
                  a_card=a_card(pending["civ"]), price=RULES["sell_price"])
        return Report(_with(text, before, after))
    if verb == "play":
        return _bonus_report(before, seat, words, after)
    if verb == "draw":
        return Report(tx("did.draw"), ((seat, tx("did.draw_own",
                                                 card=card_name(after["hands"][seat][-1]))),))
    if verb in ("trade", "buy"):          # a swap is told by its offer, which follows
        return Report(tx(f"did.{verb}", who=seat_ref(named_seat(words[1])),
                         a_card=a_card(words[2]), price=RULES["buy_price"]),
                      quiet=verb == "trade")
    if verb == "offer":
        pending = known(after["pending"])
        card, who, wanted = card_name(words[1]), seat_ref(pending["to"]), a_card(pending["civ"])
        return Report(tx("did.offer", who=who, a_card=wanted), (
            (seat, tx("did.offer_own", card=card, who=who, a_card=wanted)),
            (pending["to"], tx("did.offer_to", who=who, card=card,
                               adj=civ_adj(pending["civ"], 2)))))
    if verb in ("give", "decline", "accept", "refuse"):
        return _deal_report(before, seat, verb, words[1] if len(words) > 1 else None)
    if verb == "challenge":               # told with the card picked, which follows
        return Report(tx("did.challenge", who=seat_ref(named_seat(words[1]))), quiet=True)
    if verb == "pick":
        picked = known(after["pending"])["card"]
        return Report(tx("did.pick", who=seat_ref(known(after["pending"])["to"]),
                         card=card_name(picked), a_card=a_card(CARDS[picked].civ or "")))
    if verb in ("answer", "skip"):
        return _quiz_report(seat, words, after)
    return Report(tx("did.end"), quiet=True)


def _placed(before: CivsetsState, seat: Seat, civ: str, verb: str, after: CivsetsState) -> Text:
    """Cards placed on a territory (or a deity added to it), and the points they earned."""
    if verb == "wild":
        return tx("did.wild", card=card_name(f"wild-{civ}"), territory=territory(civ))
    n = len(holding(before, seat, civ))
    return tx("did.place", n=n, adj=civ_adj(civ, n), territory=territory(civ),
              points=after["points"][seat] - before["points"][seat])


def _with(text: Text, before: CivsetsState, after: CivsetsState) -> Text:
    """``text``, and the set it completed if it completed one."""
    done = [c for c in after["closed"] if c not in before["closed"]]
    return tx("did.completed", step=text, adj=civ_adj(done[0])) if done else text


def _bonus_report(before: CivsetsState, seat: Seat, words: list[str],
                  after: CivsetsState) -> Report:
    kind = words[1]
    target = named_seat(words[2]) if len(words) > 2 else None
    who = seat_ref(target) if target is not None else None
    public = tx("did.play", card=card_name(f"bonus-{kind}"),
                what=tx(f"bonus_did.{kind}", who=who, points=RULES.get(f"{kind}_points"),
                        n=RULES["library_cards"]))
    if kind == "spy" and target is not None:
        seen = tuple(card_name(c) for c in after["spied"][seat][str(target)])
        return Report(public, ((seat, tx("did.spy_own", who=seat_ref(target), cards=seen)),))
    if kind == "library":
        drawn = tuple(card_name(c) for c in after["hands"][seat]
                      if c not in before["hands"][seat])
        return Report(public, ((seat, tx("did.library_own", cards=drawn)),))
    return Report(public)


def _deal_report(before: CivsetsState, seat: Seat, verb: str, card: str | None) -> Report:
    pending = known(before["pending"])
    buyer = before["current"]
    public = tx(f"did.{verb}", who=seat_ref(buyer), a_card=a_card(pending["civ"]),
                price=RULES["buy_price"])
    if card is None:
        return Report(public)
    if pending["kind"] == "trade":
        got, gave = card_name(pending["card"]), card_name(card)
        return Report(public, ((seat, tx("did.give_own", gave=gave, got=got)),
                               (buyer, tx("did.give_to", who=seat_ref(buyer), got=gave, gave=got))))
    sold = card_name(card)
    return Report(public, ((seat, tx("did.accept_own", card=sold, price=RULES["buy_price"])),
                           (buyer, tx("did.accept_to", who=seat_ref(buyer), card=sold))))


def _quiz_report(seat: Seat, words: list[str], after: CivsetsState) -> Report:
    """A challenge answered: a short public line for the turn summary, and the whole story
    (the answer given, the right one, what it won, the explanation) as its detail."""
    last = known(after["last"])
    card = CARDS[last["card"]]
    facts: dict[str, TextArg] = dict(
        who=seat_ref(seat), owner=seat_ref(last["to"]), card=card.name,
        answer=card.option(card.answer), why=card.explanation(),
        points=RULES["challenge_reward"])
    if last["right"]:
        kind = "right"
    elif words[0] == "answer":
        kind, facts["chosen"] = "wrong", card.option(int(words[1]) - 1)
    else:
        kind = "timeout"
    public = tx(f"did.{kind}", card=card.name, who=facts["owner"], points=facts["points"])
    return Report(public, announce=True, detail=tx(f"quiz.{kind}", **facts))
