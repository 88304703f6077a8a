"""The words of Civilizations: each step's label and choices, what each step did (public
and private) and what a panel asks. Only :class:`~bot.engine.Text` values: the catalogue
holds the words (``data/locales/<lang>/civsets.json`` and the cards' ``civsets_cards.json``).

Public reports read after the player's name, in the third person ("places 4 Greek cards
on the Greek territory"); a quiz answer also carries the whole story of the question as
its ``detail`` (the answer given, the right one, the explanation), told once, in the
question's own post.
"""

from __future__ import annotations

from functools import lru_cache

from bot.engine import Action, Prompt, Report, Seat, State, Text, TextArg, seat_ref
from bot.games.civsets.cards import CARDS, CIVS, RULES, a_card, civ_adj, civ_name, territory
from bot.games.civsets.state import CIV_SET, holding

GROUPS = {"place": "map", "wild": "map", "sell": "map", "play": "bonus", "end": "end"}


def card_name(card: str) -> Text:
    """A card's name."""
    return CARDS[card].name


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"civsets.{key}", **args)


def _seat(word: str) -> Seat:
    return int(word) - 1


def label(state: State, seat: Seat, notation: str) -> Text:
    """How a legal step reads in the panel and in autocomplete."""
    words = notation.split()
    verb = words[0]
    if verb == "place":
        civ = words[1]
        n = len(holding(state, seat, civ))
        return _t("act.place", n=n, adj=civ_adj(civ, n), territory=territory(civ),
                  points=n * RULES["points_per_placed_card"])
    if verb == "answer":
        k = int(words[1])
        return _t("act.answer", k=k, text=CARDS[state["pending"]["card"]].option(k - 1))
    if verb in ("pay", "refuse") and state["step"] == "sale":
        pending = state["pending"]
        return _t(f"act.{verb}_sale", who=seat_ref(pending["by"]),
                  a_card=a_card(pending["civ"]), price=RULES["sell_price"])
    return _fixed_label(notation)


@lru_cache(maxsize=4096)
def _fixed_label(notation: str) -> Text:
    """The label of a step that reads the same whatever the state (most of them)."""
    words = notation.split()
    verb = words[0]
    if verb in ("wild", "sell"):
        return _t(f"act.{verb}", territory=territory(words[1]), price=RULES["sell_price"])
    if verb == "play":
        kind, target = words[1], seat_ref(_seat(words[2])) if len(words) > 2 else None
        return _t("act.play", card=card_name(f"bonus-{kind}"),
                  what=_t(f"bonus.{kind}", who=target, points=RULES.get(f"{kind}_points"),
                          n=RULES["library_cards"]))
    if verb in ("trade", "buy"):
        return _t(f"act.{verb}", who=seat_ref(_seat(words[1])), a_card=a_card(words[2]),
                  price=RULES["buy_price"])
    if verb in ("offer", "give", "accept"):
        return _t(f"act.{verb}", card=card_name(words[1]), price=RULES["buy_price"])
    if verb == "challenge":
        return _t("act.challenge", who=seat_ref(_seat(words[1])))
    if verb == "pick":
        return _t("act.pick", k=int(words[1]))
    return _t(f"act.{verb}")


@lru_cache(maxsize=4096)
def _path(notation: str) -> tuple[Text, ...]:
    """The choices that lead to a step in a panel, broadest first: a challenge behind
    "challenge a player", then whom; a swap or a purchase behind its kind, then whom, then
    which civilization; the King's Eye behind its card, then whose hand."""
    words = notation.split()
    verb = words[0]
    if verb == "challenge":
        return _t("choice.challenge"), seat_ref(_seat(words[1]))
    if verb in ("trade", "buy"):
        who = seat_ref(_seat(words[1]))
        return (_t(f"choice.{verb}", price=RULES["buy_price"]), _t(f"choice.{verb}_who", who=who),
                _t("choice.ask", a_card=a_card(words[2])))
    if verb == "play" and len(words) > 2:
        return _t("choice.spy", card=card_name("bonus-spy")), seat_ref(_seat(words[2]))
    return ()


def action(state: State, seat: Seat, notation: str) -> Action:
    """A legal step with its label, group and choices."""
    verb = notation.split(" ", 1)[0]
    if verb in ("place", "answer", "pay", "refuse"):
        return Action(notation, label(state, seat, notation), GROUPS.get(verb, verb))
    return _fixed_action(notation)


@lru_cache(maxsize=4096)
def _fixed_action(notation: str) -> Action:
    verb = notation.split(" ", 1)[0]
    return Action(notation, _fixed_label(notation), GROUPS.get(verb, verb), _path(notation),
                  offered=verb != "skip")


def report(before: State, seat: Seat, notation: str, after: State) -> Report:
    """What the step did: in public, and for the seats that know more."""
    words = notation.split()
    verb = words[0]
    if verb in ("place", "wild"):
        return Report(_with(_placed(before, seat, words[1], verb, after), before, after))
    if verb == "sell":
        civ = words[1]
        return Report(_t("did.sell", who=seat_ref(after["pending"]["to"]),
                         adj=civ_adj(civ, 2), territory=territory(civ),
                         price=RULES["sell_price"]))
    if verb == "pay" or (verb == "refuse" and before["step"] == "sale"):
        pending = before["pending"]
        text = _t(f"did.{verb}_sale", who=seat_ref(pending["by"]),
                  a_card=a_card(pending["civ"]), price=RULES["sell_price"])
        return Report(_with(text, before, after))
    if verb == "play":
        return _bonus_report(before, seat, words, after)
    if verb == "draw":
        return Report(_t("did.draw"), ((seat, _t("did.draw_own",
                                                 card=card_name(after["hands"][seat][-1]))),))
    if verb in ("trade", "buy"):          # a swap is told by its offer, which follows
        return Report(_t(f"did.{verb}", who=seat_ref(_seat(words[1])),
                         a_card=a_card(words[2]), price=RULES["buy_price"]),
                      quiet=verb == "trade")
    if verb == "offer":
        pending = after["pending"]
        card, who, wanted = card_name(words[1]), seat_ref(pending["to"]), a_card(pending["civ"])
        return Report(_t("did.offer", who=who, a_card=wanted), (
            (seat, _t("did.offer_own", card=card, who=who, a_card=wanted)),
            (pending["to"], _t("did.offer_to_you", card=card,
                               adj=civ_adj(pending["civ"], 2)))))
    if verb in ("give", "decline", "accept", "refuse"):
        return _deal_report(before, seat, verb, words[1] if len(words) > 1 else None)
    if verb == "challenge":               # told with the card picked, which follows
        return Report(_t("did.challenge", who=seat_ref(_seat(words[1]))), quiet=True)
    if verb == "pick":
        card = after["pending"]["card"]
        return Report(_t("did.pick", who=seat_ref(after["pending"]["to"]),
                         card=card_name(card), a_card=a_card(CARDS[card].civ or "")))
    if verb in ("answer", "skip"):
        return _quiz_report(seat, words, after)
    return Report(_t("did.end"), quiet=True)


def _placed(before: State, seat: Seat, civ: str, verb: str, after: State) -> Text:
    """Cards placed on a territory (or a deity added to it), and the points they earned."""
    if verb == "wild":
        return _t("did.wild", card=card_name(f"wild-{civ}"), territory=territory(civ))
    n = len(holding(before, seat, civ))
    return _t("did.place", n=n, adj=civ_adj(civ, n), territory=territory(civ),
              points=after["points"][seat] - before["points"][seat])


def _with(text: Text, before: State, after: State) -> Text:
    """``text``, and the set it completed if it completed one."""
    done = [c for c in after["closed"] if c not in before["closed"]]
    return _t("did.completed", step=text, adj=civ_adj(done[0])) if done else text


def _bonus_report(before: State, seat: Seat, words: list[str], after: State) -> Report:
    kind = words[1]
    target = _seat(words[2]) if len(words) > 2 else None
    who = seat_ref(target) if target is not None else None
    public = _t("did.play", card=card_name(f"bonus-{kind}"),
                what=_t(f"bonus_did.{kind}", who=who, points=RULES.get(f"{kind}_points"),
                        n=RULES["library_cards"]))
    if kind == "spy" and target is not None:
        seen = tuple(card_name(c) for c in after["spied"][seat][str(target)])
        return Report(public, ((seat, _t("did.spy_own", who=seat_ref(target), cards=seen)),))
    if kind == "library":
        drawn = tuple(card_name(c) for c in after["hands"][seat]
                      if c not in before["hands"][seat])
        return Report(public, ((seat, _t("did.library_own", cards=drawn)),))
    return Report(public)


def _deal_report(before: State, seat: Seat, verb: str, card: str | None) -> Report:
    pending = before["pending"]
    buyer = before["current"]
    public = _t(f"did.{verb}", who=seat_ref(buyer), a_card=a_card(pending["civ"]),
                price=RULES["buy_price"])
    if card is None:
        return Report(public)
    if pending["kind"] == "trade":
        got, gave = card_name(pending["card"]), card_name(card)
        return Report(public, ((seat, _t("did.give_own", gave=gave, got=got)),
                               (buyer, _t("did.give_to_you", got=gave, gave=got))))
    sold = card_name(card)
    return Report(public, ((seat, _t("did.accept_own", card=sold, price=RULES["buy_price"])),
                           (buyer, _t("did.accept_to_you", card=sold))))


def _quiz_report(seat: Seat, words: list[str], after: State) -> Report:
    """A challenge answered: a short public line for the turn summary, and the whole story
    (the answer given, the right one, what it won, the explanation) as its detail."""
    last = after["last"]
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
    public = _t(f"did.{kind}", card=card.name, who=facts["owner"], points=facts["points"])
    return Report(public, announce=True, detail=_t(f"quiz.{kind}", **facts))


def prompt(state: State, seat: Seat) -> Prompt | None:
    """The quiz question (public), an offer or a purchase to answer, the card to offer or
    to pick, or the seat's hand."""
    if state["over"]:
        return None
    pending, step = state["pending"], state["step"]
    if step == "quiz" and seat == state["current"]:
        card = CARDS[pending["card"]]
        return Prompt(_t("prompt.quiz", card=card.name, a_card=a_card(card.civ or ""),
                         who=seat_ref(pending["to"]), seconds=state["quiz_seconds"],
                         question=card.question()), public=True)
    if step == "sale" and seat == pending["to"]:
        return Prompt(_t("prompt.sale", who=seat_ref(pending["by"]),
                         a_card=a_card(pending["civ"]), price=RULES["sell_price"]))
    if step in ("trade", "buy") and seat == pending["to"]:
        return Prompt(_t(f"prompt.{step}", who=seat_ref(state["current"]),
                         adj=civ_adj(pending["civ"], 2), price=RULES["buy_price"],
                         card=card_name(pending["card"]) if "card" in pending else None))
    if step == "offer" and seat == state["current"]:
        return Prompt(_t("prompt.offer", who=seat_ref(pending["to"]),
                         a_card=a_card(pending["civ"]), hand=hand_text(state, seat)))
    if step == "pick" and seat == state["current"]:
        held = sum(c in CIV_SET for c in state["hands"][pending["to"]])
        return Prompt(_t("prompt.pick", who=seat_ref(pending["to"]), n=held,
                         seconds=state["quiz_seconds"]))
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
    return _t("hand", n=len(hand), groups=tuple(groups)) if groups else _t("hand.empty")
