"""What each step of Civilizations does to the state (a copy). Every rule here is cited in
``data/civsets/RULINGS.md``."""

from __future__ import annotations

from bot import chance
from bot.engine import Seat
from bot.games.civsets.cards import CARDS, CIVS, RULES
from bot.games.civsets.options import civ_cards
from bot.games.civsets.state import (
    CivsetsState,
    controller,
    holding,
    learn,
    log_event,
    named_seat,
    occupants,
    others,
)
from bot.games.kit import known


def apply(state: CivsetsState, seat: Seat, notation: str) -> None:
    """Carry out the legal step ``notation`` of ``seat`` on ``state`` (a copy)."""
    words = notation.split()
    verb = words[0]
    if verb in ("place", "wild"):
        _map_step(state, seat, verb, words[1])
    elif verb == "sell":
        owner = known(controller(state, words[1]))
        state["pending"] = {"kind": "sale", "by": seat, "to": owner, "civ": words[1]}
        state["step"] = "sale"
        state["offered"].append(words[1])          # one offer a territory a turn
    elif verb == "pay" or (verb == "refuse" and state["step"] == "sale"):
        _sale(state, verb == "pay")
    elif verb == "play":
        _play_bonus(state, seat, words[1], named_seat(words[2]) if len(words) > 2 else None)
    elif verb == "draw":
        _draw(state, seat)
        state["actions"] -= 1
        log_event(state, "draw")
    elif verb in ("trade", "buy"):
        state["pending"] = {"kind": verb, "by": seat, "to": named_seat(words[1]), "civ": words[2]}
        state["step"] = "offer" if verb == "trade" else "buy"
        if verb == "buy":
            state["actions"] -= 1
    elif verb == "offer":
        known(state["pending"])["card"] = words[1]
        learn(state, words[1], known(state["pending"])["to"])
        state["step"] = "trade"
        state["actions"] -= 1
    elif verb in ("give", "decline", "accept", "refuse"):
        _answer(state, seat, words[1] if len(words) > 1 else None)
    elif verb == "challenge":
        state["pending"] = {"kind": "challenge", "by": seat, "to": named_seat(words[1])}
        state["step"] = "pick"
    elif verb == "pick":
        _pick(state, int(words[1]) - 1)
    elif verb in ("answer", "skip"):
        _resolve_challenge(state, seat, int(words[1]) - 1 if verb == "answer" else None)
    else:
        end_turn(state)


def _map_step(state: CivsetsState, seat: Seat, verb: str, civ: str) -> None:
    rows = state["map"][civ]
    if verb == "place":
        cards = holding(state, seat, civ)
        first = not rows
        for card in cards:
            state["hands"][seat].remove(card)
            rows.append([seat, card])
        state["points"][seat] += RULES["points_per_placed_card"] * len(cards)
        if first and state["bonus"]:       # the first to claim a territory draws a Bonus card
            state["hands"][seat].append(state["bonus"].pop(0))
    else:
        cards = [f"wild-{civ}"]
        state["hands"][seat].remove(cards[0])
        rows.append([seat, cards[0]])
    log_event(state, verb, civ=civ, cards=cards)
    _check_complete(state, civ)


def _sale(state: CivsetsState, paid: bool) -> None:
    """The controller of a territory answers a sale: it pays and takes the seller's last
    placed card there, or refuses."""
    pending = known(state["pending"])
    seller, owner, civ = pending["by"], pending["to"], pending["civ"]
    moved = []
    if paid:
        rows = state["map"][civ]
        index = max(i for i, (s, _) in enumerate(rows) if s == seller)
        rows[index][0] = owner
        moved.append(rows[index][1])
        state["points"][seller] += RULES["sell_price"]
        state["points"][owner] -= RULES["sell_price"]
    log_event(state, "sale", civ=civ, to=owner, done=paid, cards=moved)
    if paid:
        _check_complete(state, civ)
    pending["answer"] = "paid" if paid else None
    state["last_deal"] = pending
    state["pending"] = None
    state["step"] = "act"


def _check_complete(state: CivsetsState, civ: str) -> None:
    """A territory holding the whole set (12 cards, a wild card among them or not) of one
    player is complete: that player takes its token, the territory closes."""
    seats = occupants(state, civ)
    if len(seats) == 1 and len(state["map"][civ]) >= RULES["set_size"]:
        state["sets"][seats[0]].append(civ)
        state["closed"].append(civ)


def _draw(state: CivsetsState, seat: Seat, count: int = 1, bonus: bool = True) -> None:
    for _ in range(count):
        if state["deck"]:
            state["hands"][seat].append(state["deck"].pop(0))
        elif bonus and state["bonus"]:
            state["hands"][seat].append(state["bonus"].pop(0))


def _play_bonus(state: CivsetsState, seat: Seat, kind: str, target: Seat | None) -> None:
    card = f"bonus-{kind}"
    state["hands"][seat].remove(card)
    state["used"].append(card)
    log_event(state, "bonus", card=card, to=target)
    if kind == "scribe":
        state["points"][seat] += RULES["scribe_points"]
    elif kind == "caravan":
        state["actions"] += 1
    elif kind == "tribute":
        for other in others(state, seat):
            paid = min(RULES["tribute_points"], state["points"][other])
            state["points"][other] -= paid
            state["points"][seat] += paid
    elif kind == "library":
        _draw(state, seat, RULES["library_cards"], bonus=False)
    elif kind == "sanctuary":
        state["shield"][seat] = True
    else:
        assert target is not None
        hand = state["hands"][target]
        state["spied"][seat][str(target)] = list(hand)
        for seen in hand:
            learn(state, seen, seat)


def _answer(state: CivsetsState, seat: Seat, card: str | None) -> None:
    """The other player answers an offer (``give``/``decline``) or a purchase
    (``accept``/``refuse``)."""
    pending = known(state["pending"])
    buyer = state["current"]
    if card is not None:
        state["hands"][seat].remove(card)
        state["hands"][buyer].append(card)
        learn(state, card, seat, buyer)
        if pending["kind"] == "trade":
            offered = pending["card"]
            state["hands"][buyer].remove(offered)
            state["hands"][seat].append(offered)
            learn(state, offered, seat, buyer)
        else:
            state["points"][buyer] -= RULES["buy_price"]
            state["points"][seat] += RULES["buy_price"]
            state["bought"][buyer] = True        # "one card per round": a card bought
    pending["answer"] = card
    log_event(state, pending["kind"], to=seat, civ=pending["civ"], done=card is not None)
    state["step"] = "act"
    state["last_deal"] = pending
    state["pending"] = None


def _pick(state: CivsetsState, index: int) -> None:
    pending = known(state["pending"])
    card = civ_cards(state, pending["to"])[index]
    pending["card"] = card
    learn(state, card, *range(state["n"]))      # its question is read to everyone
    state["step"] = "quiz"


def _resolve_challenge(state: CivsetsState, seat: Seat, answer: int | None) -> None:
    pending = known(state["pending"])
    card = pending["card"]
    right = answer is not None and answer == CARDS[card].answer
    if right:
        state["hands"][pending["to"]].remove(card)
        state["hands"][seat].append(card)
        state["points"][seat] += RULES["challenge_reward"]
    state["last"] = {"by": seat, "to": pending["to"], "card": card, "answer": answer,
                     "right": right}
    log_event(state, "challenge", to=pending["to"], card=card, right=right,
              answered=answer is not None)
    state["pending"] = None
    end_turn(state)           # "in either case, your turn ends"


def end_turn(state: CivsetsState) -> None:
    """The next player's turn; at the end of a round, maybe the end of the game."""
    state["last_turn"] = {"seat": state["current"], "events": state.get("turn_log", [])}
    state["turn_log"] = []
    state["turn"] += 1
    state["step"], state["actions"], state["pending"] = "act", 1, None
    state["offered"] = []
    nxt = (state["current"] + 1) % state["n"]
    state["current"] = nxt
    state["shield"][nxt] = False
    if nxt != 0:
        return
    if (any(len(s) >= RULES["sets_to_end"] for s in state["sets"])
            or state["round"] >= RULES["max_rounds"] or len(state["closed"]) == len(CIVS)):
        state["over"] = True
        return
    state["round"] += 1
    state["bought"] = [False] * state["n"]


def drew(before: CivsetsState, after: CivsetsState) -> bool:
    """True if the step took cards from a deck (they were secret: no undo)."""
    return (len(after["deck"]) < len(before["deck"]) or len(after["bonus"]) < len(before["bonus"])
            or chance.drew(before, after))
