"""The words of Civilizations: each step's label, what each step did (public and private)
and what a panel asks. Only :class:`~bot.engine.Text` values: the catalogue holds the
words (``data/locales/<lang>/civsets.json`` and the cards' ``civsets_cards.json``).
"""

from __future__ import annotations

from functools import lru_cache

from bot.engine import Action, Prompt, Report, Seat, State, Text, TextArg, seat_ref
from bot.games.civsets.cards import CARDS, CIVS, RULES, civ_name
from bot.games.civsets.state import holding

GROUPS = {"place": "map", "wild": "map", "sell": "map", "play": "bonus", "end": "end"}


def card_name(card: str) -> Text:
    """A card's name."""
    return CARDS[card].name


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"civsets.{key}", **args)


def label(state: State, seat: Seat, notation: str) -> Text:
    """How a legal step reads in the panel and in autocomplete."""
    verb = notation.split(" ", 1)[0]
    if verb == "place":
        civ = notation.split()[1]
        return _t("act.place", civ=civ_name(civ), n=len(holding(state, seat, civ)))
    if verb == "answer":
        k = int(notation.split()[1])
        return _t("act.answer", k=k, text=CARDS[state["pending"]["card"]].option(k - 1))
    if verb in ("pay", "refuse") and state["step"] == "sale":
        pending = state["pending"]
        return _t(f"act.{verb}_sale", who=seat_ref(pending["by"]), civ=civ_name(pending["civ"]),
                  price=RULES["sell_price"])
    return _fixed_label(notation)


@lru_cache(maxsize=4096)
def _fixed_label(notation: str) -> Text:
    """The label of a step that reads the same whatever the state (most of them)."""
    words = notation.split()
    verb = words[0]
    if verb in ("wild", "sell"):
        return _t(f"act.{verb}", civ=civ_name(words[1]), price=RULES["sell_price"])
    if verb == "play":
        target = seat_ref(int(words[2]) - 1) if len(words) > 2 else None
        return _t("act.play", card=card_name(f"bonus-{words[1]}"),
                  what=_t(f"bonus.{words[1]}", who=target))
    if verb in ("trade", "buy"):
        return _t(f"act.{verb}", who=seat_ref(int(words[1]) - 1), civ=civ_name(words[2]),
                  price=RULES["buy_price"])
    if verb in ("offer", "give", "accept"):
        return _t(f"act.{verb}", card=card_name(words[1]))
    if verb == "challenge":
        return _t("act.challenge", who=seat_ref(int(words[1]) - 1))
    if verb == "pick":
        return _t("act.pick", k=int(words[1]))
    return _t(f"act.{verb}")


def action(state: State, seat: Seat, notation: str) -> Action:
    """A legal step with its label and group."""
    verb = notation.split(" ", 1)[0]
    if verb in ("place", "answer", "pay", "refuse"):
        return Action(notation, label(state, seat, notation), GROUPS.get(verb, verb))
    return _fixed_action(notation)


@lru_cache(maxsize=4096)
def _fixed_action(notation: str) -> Action:
    verb = notation.split(" ", 1)[0]
    return Action(notation, _fixed_label(notation), GROUPS.get(verb, verb))


def report(before: State, seat: Seat, notation: str, after: State) -> Report:
    """What the step did: in public, and for the seats that know more."""
    words = notation.split()
    verb = words[0]
    done = _completed(before, after)
    if verb in ("place", "wild"):
        civ = words[1]
        moved = len(holding(before, seat, civ)) if verb == "place" else 1
        gained = after["points"][seat] - before["points"][seat]
        text = _t(f"did.{verb}", civ=civ_name(civ), n=moved, points=gained)
        return Report(_with(text, done), announce=bool(done))
    if verb == "sell":
        return Report(_t("did.sell", civ=civ_name(words[1]), who=seat_ref(after["pending"]["to"]),
                         price=RULES["sell_price"]))
    if verb == "pay" or (verb == "refuse" and before["step"] == "sale"):
        pending = before["pending"]
        text = _t(f"did.{verb}_sale", who=seat_ref(pending["by"]), civ=civ_name(pending["civ"]),
                  price=RULES["sell_price"])
        return Report(_with(text, done), announce=bool(done))
    if verb == "play":
        kind = words[1]
        target = int(words[2]) - 1 if len(words) > 2 else None
        public = _t("did.play", card=card_name(f"bonus-{kind}"),
                    what=_t(f"bonus.{kind}", who=seat_ref(target) if target is not None
                            else None))
        if kind == "spy" and target is not None:
            seen = tuple(card_name(c) for c in after["spied"][seat][str(target)])
            return Report(public, ((seat, _t("did.spy_own", who=seat_ref(target),
                                             cards=seen)),))
        if kind == "library":
            drawn = after["hands"][seat][len(before["hands"][seat]) - 1:]
            return Report(public, ((seat, _t("did.library_own", cards=tuple(
                card_name(c) for c in drawn if c not in before["hands"][seat]))),))
        return Report(public)
    if verb == "draw":
        return Report(_t("did.draw"), ((seat, _t("did.draw_own",
                                                 card=card_name(after["hands"][seat][-1]))),))
    if verb in ("trade", "buy"):
        target = int(words[1]) - 1
        return Report(_t(f"did.{verb}", who=seat_ref(target), civ=civ_name(words[2]),
                         price=RULES["buy_price"]))
    if verb == "offer":
        pending = after["pending"]
        card = card_name(words[1])
        return Report(_t("did.offer"), (
            (seat, _t("did.offer_own", card=card, who=seat_ref(pending["to"]))),
            (pending["to"], _t("did.offer_to_you", card=card, civ=civ_name(pending["civ"])))))
    if verb in ("give", "decline", "accept", "refuse"):
        return _deal_report(before, seat, verb, words[1] if len(words) > 1 else None)
    if verb == "challenge":
        return Report(_t("did.challenge", who=seat_ref(int(words[1]) - 1)))
    if verb == "pick":
        card = after["pending"]["card"]
        return Report(_t("did.pick", k=int(words[1]), who=seat_ref(after["pending"]["to"]),
                         card=card_name(card), civ=civ_name(CARDS[card].civ or "")),
                      announce=True)
    if verb in ("answer", "skip"):
        return _quiz_report(after, verb)
    return Report(_t("did.end"))


def _with(text: Text, done: list[str]) -> Text:
    if not done:
        return text
    return _t("did.completed", step=text, civ=civ_name(done[0]))


def _completed(before: State, after: State) -> list[str]:
    return [c for c in after["closed"] if c not in before["closed"]]


def _deal_report(before: State, seat: Seat, verb: str, card: str | None) -> Report:
    pending = before["pending"]
    buyer = before["current"]
    public = _t(f"did.{verb}", who=seat_ref(buyer), price=RULES["buy_price"])
    if card is None:
        return Report(public)
    if pending["kind"] == "trade":
        got, gave = card_name(pending["card"]), card_name(card)
        return Report(public, ((seat, _t("did.give_own", gave=gave, got=got)),
                               (buyer, _t("did.give_to_you", got=gave, gave=got))))
    sold = card_name(card)
    return Report(public, ((seat, _t("did.accept_own", card=sold, price=RULES["buy_price"])),
                           (buyer, _t("did.accept_to_you", card=sold))))


def _quiz_report(after: State, verb: str) -> Report:
    last = after["last"]
    card = CARDS[last["card"]]
    right = card.option(card.answer)
    if last["right"]:
        text = _t("did.right", card=card.name, answer=right, points=RULES["challenge_reward"],
                  why=card.explanation())
    else:
        text = _t("did.wrong" if verb == "answer" else "did.timeout", card=card.name,
                  answer=right, why=card.explanation())
    return Report(text, announce=True)


def prompt(state: State, seat: Seat) -> Prompt | None:
    """The quiz question (public), an offer or a purchase to answer, or the seat's hand."""
    if state["over"]:
        return None
    pending = state["pending"]
    if state["step"] == "quiz" and seat == state["current"]:
        card = CARDS[pending["card"]]
        return Prompt(_t("prompt.quiz", card=card.name, who=seat_ref(pending["to"]),
                         question=card.question()), public=True)
    if state["step"] == "sale" and seat == pending["to"]:
        return Prompt(_t("prompt.sale", who=seat_ref(pending["by"]), civ=civ_name(pending["civ"]),
                         price=RULES["sell_price"]))
    if state["step"] in ("trade", "buy") and seat == pending["to"]:
        key = "prompt.trade" if state["step"] == "trade" else "prompt.buy"
        return Prompt(_t(key, who=seat_ref(state["current"]), civ=civ_name(pending["civ"]),
                         card=card_name(pending["card"]) if "card" in pending else None,
                         price=RULES["buy_price"]))
    return Prompt(hand_text(state, seat))


def hand_text(state: State, seat: Seat) -> Text:
    """A seat's hand, grouped by civilization (then its Bonus cards)."""
    hand = state["hands"][seat]
    groups = []
    for civ in CIVS:
        cards = tuple(card_name(c) for c in hand if CARDS[c].civ == civ)
        if cards:
            groups.append(_t("hand.group", civ=civ_name(civ), n=len(cards), cards=cards))
    bonus = tuple(card_name(c) for c in hand if CARDS[c].civ is None)
    if bonus:
        groups.append(_t("hand.bonus", cards=bonus))
    return _t("hand", groups=tuple(groups)) if groups else _t("hand.empty")
