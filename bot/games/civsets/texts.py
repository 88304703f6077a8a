"""The words of Civilizations: each step's label and choices, what each step did (public
and private) and what a panel asks. Only :class:`~bot.engine.Text` values: the catalogue
holds the words (``data/locales/<lang>/civsets.json`` and the cards' ``civsets_cards.json``).

Public reports read after the player's name, in the third person ("places 4 Greek cards
on the Greek territory"); a quiz answer also carries the whole story of the question as
its ``detail`` (the answer given, the right one, the explanation), told once, in the
question's own post."""

from __future__ import annotations

from functools import lru_cache

from bot.engine import Action, Prompt, Seat, Text, TextArg, seat_ref
from bot.games.civsets.cards import CARDS, CIVS, RULES, a_card, civ_adj, civ_name, territory
from bot.games.civsets.state import CIV_SET, CivsetsState, Deal, holding, named_seat
from bot.games.kit import known

GROUPS = {"place": "map", "wild": "map", "sell": "map", "play": "bonus", "end": "end"}


def card_name(card: str) -> Text:
    """A card's name."""
    return CARDS[card].name


def tx(key: str, **args: TextArg) -> Text:
    return Text.of(f"civsets.{key}", **args)


def label(state: CivsetsState, seat: Seat, notation: str) -> Text:
    """How a legal step reads in the panel and in autocomplete."""
    words = notation.split()
    verb = words[0]
    if verb == "place":
        civ = words[1]
        n = len(holding(state, seat, civ))
        return tx("act.place", n=n, adj=civ_adj(civ, n), territory=territory(civ),
                  points=n * RULES["points_per_placed_card"])
    if verb == "answer":
        k = int(words[1])
        return tx("act.answer", k=k, text=CARDS[known(state["pending"])["card"]].option(k - 1))
    if verb in ("pay", "refuse") and state["step"] == "sale":
        pending = known(state["pending"])
        return tx(f"act.{verb}_sale", who=seat_ref(pending["by"]),
                  a_card=a_card(pending["civ"]), price=RULES["sell_price"])
    return _fixed_label(notation)


@lru_cache(maxsize=4096)
def _fixed_label(notation: str) -> Text:
    """The label of a step that reads the same whatever the state (most of them)."""
    words = notation.split()
    verb = words[0]
    if verb in ("wild", "sell"):
        return tx(f"act.{verb}", territory=territory(words[1]), price=RULES["sell_price"])
    if verb == "play":
        kind, target = words[1], seat_ref(named_seat(words[2])) if len(words) > 2 else None
        return tx("act.play", card=card_name(f"bonus-{kind}"),
                  what=tx(f"bonus.{kind}", who=target, points=RULES.get(f"{kind}_points"),
                          n=RULES["library_cards"]))
    if verb in ("trade", "buy"):
        return tx(f"act.{verb}", who=seat_ref(named_seat(words[1])), a_card=a_card(words[2]),
                  price=RULES["buy_price"])
    if verb in ("offer", "give", "accept"):
        return tx(f"act.{verb}", card=card_name(words[1]), price=RULES["buy_price"])
    if verb == "challenge":
        return tx("act.challenge", who=seat_ref(named_seat(words[1])))
    if verb == "pick":
        return tx("act.pick", k=int(words[1]))
    return tx(f"act.{verb}")


@lru_cache(maxsize=4096)
def _path(notation: str) -> tuple[Text, ...]:
    """The choices that lead to a step in a panel, broadest first: a challenge behind
    "challenge a player", then whom; a swap or a purchase behind its kind, then whom, then
    which civilization; the King's Eye behind its card, then whose hand."""
    words = notation.split()
    verb = words[0]
    if verb == "challenge":
        return tx("choice.challenge"), seat_ref(named_seat(words[1]))
    if verb in ("trade", "buy"):
        who = seat_ref(named_seat(words[1]))
        return (tx(f"choice.{verb}", price=RULES["buy_price"]), tx(f"choice.{verb}_who", who=who),
                tx("choice.ask", a_card=a_card(words[2])))
    if verb == "play" and len(words) > 2:
        return tx("choice.spy", card=card_name("bonus-spy")), seat_ref(named_seat(words[2]))
    return ()


def action(state: CivsetsState, seat: Seat, notation: str) -> Action:
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


def prompt(state: CivsetsState, seat: Seat) -> Prompt | None:
    """The quiz question (public), an offer or a purchase to answer, the card to offer or
    to pick, or the seat's hand."""
    if state["over"]:
        return None
    pending, step = state["pending"] or Deal(), state["step"]
    if step == "quiz" and seat == state["current"]:
        card = CARDS[pending["card"]]
        return Prompt(tx("prompt.quiz", card=card.name, a_card=a_card(card.civ or ""),
                         who=seat_ref(pending["to"]), seconds=state["quiz_seconds"],
                         question=card.question()), public=True)
    if step == "sale" and seat == pending["to"]:
        return Prompt(tx("prompt.sale", who=seat_ref(pending["by"]),
                         a_card=a_card(pending["civ"]), price=RULES["sell_price"]))
    if step in ("trade", "buy") and seat == pending["to"]:
        return Prompt(tx(f"prompt.{step}", who=seat_ref(state["current"]),
                         adj=civ_adj(pending["civ"], 2), price=RULES["buy_price"],
                         card=card_name(pending["card"]) if "card" in pending else None))
    if step == "offer" and seat == state["current"]:
        return Prompt(tx("prompt.offer", who=seat_ref(pending["to"]),
                         a_card=a_card(pending["civ"]), hand=hand_text(state, seat)))
    if step == "pick" and seat == state["current"]:
        held = sum(c in CIV_SET for c in state["hands"][pending["to"]])
        return Prompt(tx("prompt.pick", who=seat_ref(pending["to"]), n=held,
                         seconds=state["quiz_seconds"]))
    return Prompt(hand_text(state, seat))


def hand_text(state: CivsetsState, seat: Seat) -> Text:
    """A seat's hand, grouped by civilization (then its Bonus cards)."""
    hand = state["hands"][seat]
    groups = []
    for civ in CIVS:
        cards = tuple(card_name(c) for c in hand if CARDS[c].civ == civ)
        if cards:
            groups.append(tx("hand.group", civ=civ_name(civ), n=len(cards), cards=cards))
    bonus = tuple(card_name(c) for c in hand if CARDS[c].civ is None)
    if bonus:
        groups.append(tx("hand.bonus", cards=bonus))
    return tx("hand", n=len(hand), groups=tuple(groups)) if groups else tx("hand.empty")
