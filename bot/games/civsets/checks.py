"""Why a Civilizations step is refused: the rule that forbids it and what is allowed
instead, in the words of the catalogue (``civsets.err.*``).

:func:`refusal` is asked only about a step that is not legal now (``options.legal``); it
looks at the step the way a player thinks of it (whose decision this is, what the turn
is waiting for, then the step's own conditions) and names the first rule it breaks.
"""

from __future__ import annotations

from bot.engine import GameError, IllegalMove, NotYourTurn, Seat, Text, TextArg, seat_ref
from bot.games.civsets import options
from bot.games.civsets.cards import CARDS, CIVS, RULES, a_card, civ_adj, territory
from bot.games.civsets.state import CivsetsState, Deal, controller, holding, others, placed
from bot.games.civsets.texts import card_name
from bot.games.kit import known

FORMS = {"place": 2, "wild": 2, "sell": 2, "draw": 1, "trade": 3, "offer": 2, "give": 2,
         "decline": 1, "buy": 3, "accept": 2, "refuse": 1, "challenge": 2, "pick": 2,
         "answer": 2, "skip": 1, "end": 1, "pay": 1}
"""How many words each step has (``play`` has 2, or 3 for the King's Eye)."""
WRITTEN = {"place": "place greeks", "wild": "wild greeks", "sell": "sell greeks",
           "trade": "trade 2 greeks", "offer": "offer greeks-03", "give": "give greeks-05",
           "buy": "buy 2 romans", "accept": "accept romans-01", "challenge": "challenge 2",
           "pick": "pick 3", "answer": "answer 1", "play": "play scribe, play spy 2"}
"""An example of each step that takes words after its verb."""
BONUS_KINDS = ("scribe", "caravan", "spy", "tribute", "library", "sanctuary")
ACTIONS = frozenset({"draw", "trade", "buy", "challenge"})
REPLIES = {"give": "no_swap", "decline": "no_swap", "accept": "no_purchase",
           "refuse": "no_purchase", "pay": "no_sale", "offer": "offer_when",
           "pick": "pick_when", "answer": "answer_when", "skip": "answer_when"}
"""The reason a step that answers something is refused when nothing asks it."""


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"civsets.err.{key}", **args)


def refusal(state: CivsetsState, seat: Seat, notation: str) -> GameError:
    """The error refusing ``notation`` (lower-case words, a known verb) for ``seat``."""
    words = notation.split()
    verb = words[0]
    if state["over"]:
        return IllegalMove(_t("over"))
    if seat not in _deciding(state):
        return NotYourTurn(_waiting(state, seat))
    size = (3 if words[1:2] == ["spy"] else 2) if verb == "play" else FORMS[verb]
    if len(words) != size:
        return IllegalMove(_t("form", text=notation, form=WRITTEN.get(verb, verb)))
    return IllegalMove(_reason(state, seat, words))


def _deciding(state: CivsetsState) -> list[Seat]:
    if state["step"] in ("trade", "buy", "sale"):
        return [known(state["pending"])["to"]]
    return [state["current"]]


def _waiting(state: CivsetsState, seat: Seat) -> Text:
    """Why a seat whose decision it is not must wait."""
    if seat == state["current"] and state["step"] in ("trade", "buy", "sale"):
        return _t("wait_answer", who=seat_ref(known(state["pending"])["to"]),
                  deal=Text.of(f"civsets.deal.{state['step']}"))
    return _t("not_yours", who=seat_ref(state["current"]))


def _reason(state: CivsetsState, seat: Seat, words: list[str]) -> Text:
    """The rule a well-formed step of the deciding ``seat`` breaks."""
    step, pending, verb = state["step"], state["pending"] or Deal(), words[0]
    if step in ("trade", "buy", "sale"):
        return _answering(state, seat, words)
    if step == "offer":
        if verb == "offer":
            return _card_in_hand(state, seat, words[1])
        return _t("offer_first", who=seat_ref(pending["to"]), a_card=a_card(pending["civ"]))
    if step == "pick":
        held = len(options.civ_cards(state, pending["to"]))
        return _t("pick_range" if verb == "pick" else "pick_first",
                  who=seat_ref(pending["to"]), n=held)
    if step == "quiz":
        return _t("answer_first", card=card_name(pending["card"]))
    if verb in REPLIES:
        return _t(REPLIES[verb])
    if verb in ACTIONS:
        return _action(state, seat, words)
    if verb == "end":
        return _t("end_early", allowed=allowed(state, seat, ACTIONS))
    if verb == "play":
        return _bonus(state, seat, words)
    return _map_step(state, seat, words)


def _answering(state: CivsetsState, seat: Seat, words: list[str]) -> Text:
    """The seat asked for a card (a swap, a purchase) or to buy one (a sale) must answer."""
    step, pending, verb = state["step"], state["pending"] or Deal(), words[0]
    who = seat_ref(pending["by"])
    if (step, verb) in (("trade", "give"), ("buy", "accept")):
        card = words[1]
        if card not in CARDS:
            return _t("not_card", text=card)
        if card not in state["hands"][seat]:
            return _t("not_in_hand", card=card_name(card))
        return _t(f"{verb}_civ", who=who, a_card=a_card(pending["civ"]), card=card_name(card),
                  adj=civ_adj(pending["civ"], 2))
    return _t(f"answer_{step}", who=who, adj=civ_adj(pending["civ"], 2),
              a_card=a_card(pending["civ"]), price=RULES["buy_price"])


def _card_in_hand(state: CivsetsState, seat: Seat, card: str) -> Text:
    if card not in CARDS:
        return _t("not_card", text=card)
    return _t("not_in_hand", card=card_name(card))


def _action(state: CivsetsState, seat: Seat, words: list[str]) -> Text:
    """One of the four actions of the rulebook."""
    verb = words[0]
    if state["actions"] <= 0:
        return _t("action_spent", done=_done(state))
    if verb == "draw":
        return _t("decks_empty")
    target = _target(state, seat, words[1])
    if isinstance(target, Text):
        return target
    who = seat_ref(target)
    if verb in ("buy", "challenge"):
        if state["shield"][target]:
            return _t("shielded", who=who)
        if not options.civ_cards(state, target):
            return _t("no_civ_cards", who=who)
    if verb == "challenge":
        return _t("not_now", text=" ".join(words), allowed=allowed(state, seat))
    civ = _civ(state, words[2])
    if isinstance(civ, Text):
        return civ
    if verb == "trade":
        return _t("empty_hand") if not state["hands"][seat] else _t("hand_empty", who=who)
    if state["bought"][seat]:
        return _t("bought", round=state["round"])
    return _t("poor", price=RULES["buy_price"], points=state["points"][seat])


def _done(state: CivsetsState) -> Text:
    """The action already taken this turn, from its public events."""
    for event in reversed(state.get("turn_log", [])):
        if event["kind"] in ("draw", "trade", "buy"):
            who = seat_ref(event["to"]) if "to" in event else None
            return Text.of(f"civsets.done.{event['kind']}", who=who)
    return Text.of("civsets.done.draw")


def _target(state: CivsetsState, seat: Seat, word: str) -> Seat | Text:
    """The other seat ``word`` names (1-based), or why it names none."""
    target = int(word) - 1 if word.isascii() and word.isdigit() else -1
    if target in others(state, seat):
        return target
    return _t("no_seat", text=word, seats=tuple(_seat_choice(s) for s in others(state, seat)))


def _seat_choice(seat: Seat) -> Text:
    return Text.of("civsets.seat_choice", n=seat + 1, who=seat_ref(seat))


def _civ(state: CivsetsState, word: str) -> str | Text:
    """The civilization ``word`` names (still open), or why it names none."""
    if word not in CIVS:
        return _t("no_civ", text=word, civs=", ".join(CIVS))
    if word in state["closed"]:
        return _t("closed", territory=territory(word))
    return word


def _map_step(state: CivsetsState, seat: Seat, words: list[str]) -> Text:
    """Placing cards, adding a wild card or selling a placed card."""
    verb = words[0]
    civ = _civ(state, words[1])
    if isinstance(civ, Text):
        return civ
    mine = holding(state, seat, civ)
    started = bool(placed(state, seat, civ))
    if verb == "place":
        if not mine:
            return _t("place_none", adj=civ_adj(civ))
        return _t("place_four", min=RULES["min_to_start"], n=len(mine),
                  adj=civ_adj(civ, len(mine)))
    if verb == "wild":
        if f"wild-{civ}" not in state["hands"][seat]:
            return _t("no_wild", adj=civ_adj(civ))
        return _t("wild_start", territory=territory(civ))
    owner = controller(state, civ)
    if not started:
        return _t("sell_none", territory=territory(civ))
    if owner == seat:
        return _t("sell_own", territory=territory(civ))
    if civ in state["offered"]:
        return _t("sell_once", territory=territory(civ))
    return _t("sell_poor", who=seat_ref(owner if owner is not None else seat),
              price=RULES["sell_price"])


def _bonus(state: CivsetsState, seat: Seat, words: list[str]) -> Text:
    """Playing a Bonus card."""
    kind = words[1]
    if kind not in BONUS_KINDS:
        return _t("no_bonus_kind", text=kind, kinds=", ".join(BONUS_KINDS))
    card = card_name(f"bonus-{kind}")
    if f"bonus-{kind}" not in state["hands"][seat]:
        return _t("no_bonus", card=card)
    return _t("spy_target", card=card,
              seats=tuple(_seat_choice(s) for s in others(state, seat)))


def allowed(state: CivsetsState, seat: Seat, only: frozenset[str] | None = None) -> Text:
    """What ``seat`` may do now, as kinds of steps ("challenge a player, draw, ..."),
    among the verbs ``only`` when given (if any of them is legal)."""
    verbs = list(dict.fromkeys(n.split()[0] for n in options.legal(state, seat)))
    chosen = [v for v in verbs if only is None or v in only] or verbs
    return Text.of("civsets.allowed",
                   steps=tuple(Text.of(f"civsets.kind.{v}") for v in chosen))
