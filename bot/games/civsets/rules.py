"""The steps of Civilizations: which are legal now, and what each does to the state.

A turn (``step`` ``act``): any number of free steps (place cards on a territory, add a
wild card, offer a placed card of a contested territory for sale to its controller,
who answers ``pay`` or ``refuse``; play a Bonus card) and exactly
one of the four actions of the rulebook (two with the Caravan): ``draw``; ``trade N
CIV`` then ``offer CARD`` (player N answers ``give CARD`` or ``decline``); ``buy N
CIV`` (player N answers ``accept CARD`` or ``refuse``); ``challenge N`` then ``pick K``
(the K-th card of N's hand, unseen) and ``answer 1-4`` or ``skip`` on the clock, which
ends the turn. Then ``end``. Seats are 1-based in the notation. Every rule here is
cited in ``data/civsets/RULINGS.md``.
"""

from __future__ import annotations

from bot import chance
from bot.engine import Seat, State
from bot.games.civsets.cards import CARDS, CIVS, OPTIONS, RULES
from bot.games.civsets.state import (
    CIV_SET,
    controller,
    holding,
    learn,
    log_event,
    occupants,
    others,
    placed,
)

FREE_KINDS = ("scribe", "caravan", "spy", "tribute", "library", "sanctuary")


def _seat(text: str) -> Seat:
    return int(text) - 1


def _targets(state: State, seat: Seat) -> list[Seat]:
    """Players who may be challenged or bought from (not shielded, holding a Civilization
    card)."""
    return [s for s in others(state, seat) if not state["shield"][s] and civ_cards(state, s)]


def civ_cards(state: State, seat: Seat) -> list[str]:
    """The Civilization cards of a hand, in its order (the cards a challenge picks from:
    Bonus cards carry no question)."""
    return [c for c in state["hands"][seat] if c in CIV_SET]


def map_steps(state: State, seat: Seat) -> list[str]:
    """Free steps on the map and Bonus cards: any number, any time during the turn."""
    steps = []
    for civ in CIVS:
        if civ in state["closed"]:
            continue
        mine, started = holding(state, seat, civ), bool(placed(state, seat, civ))
        if len(mine) >= (1 if started else RULES["min_to_start"]):
            steps.append(f"place {civ}")
        if started and f"wild-{civ}" in state["hands"][seat]:
            steps.append(f"wild {civ}")
        owner = controller(state, civ)
        if started and owner is not None and owner != seat and civ not in state["offered"] \
                and state["points"][owner] >= RULES["sell_price"]:
            steps.append(f"sell {civ}")
    for card in state["hands"][seat]:
        kind = CARDS[card].kind
        if kind == "spy":
            steps += [f"play spy {s + 1}" for s in others(state, seat)]
        elif kind in FREE_KINDS:
            steps.append(f"play {kind}")
    return steps


def action_steps(state: State, seat: Seat) -> list[str]:
    """The four actions of the rulebook, as far as they are possible now: a challenge
    first (the heart of the game), then draw, swaps and purchases."""
    steps = [f"challenge {other + 1}" for other in _targets(state, seat)]
    steps += ["draw"] if state["deck"] or state["bonus"] else []
    for other in others(state, seat):
        if state["hands"][other] and state["hands"][seat]:
            steps += [f"trade {other + 1} {civ}" for civ in CIVS if civ not in state["closed"]]
    if not state["bought"][seat] and state["points"][seat] >= RULES["buy_price"]:
        for other in _targets(state, seat):
            steps += [f"buy {other + 1} {civ}" for civ in CIVS if civ not in state["closed"]]
    return steps


def legal(state: State, seat: Seat) -> list[str]:
    """Every legal step of ``seat`` now, as notation."""
    if state["over"]:
        return []
    step, pending = state["step"], state["pending"]
    if step == "trade" and seat == pending["to"]:
        return [f"give {c}" for c in holding(state, seat, pending["civ"])] + ["decline"]
    if step == "buy" and seat == pending["to"]:
        return [f"accept {c}" for c in holding(state, seat, pending["civ"])] + ["refuse"]
    if step == "sale" and seat == pending["to"]:
        return ["pay", "refuse"]
    if seat != state["current"]:
        return []
    if step == "offer":
        return [f"offer {c}" for c in state["hands"][seat]]
    if step == "pick":
        return [f"pick {k + 1}" for k in range(len(civ_cards(state, pending["to"])))]
    if step == "quiz":
        return [f"answer {k + 1}" for k in range(OPTIONS)] + ["skip"]
    if step != "act":
        return []
    actions = action_steps(state, seat) if state["actions"] > 0 else []
    ending = ["end"] if state["actions"] == 0 or not actions else []
    challenges = [a for a in actions if a.startswith("challenge")]
    return [*challenges, *map_steps(state, seat), *actions[len(challenges):], *ending]


# -- what each step does ----------------------------------------------------------------


def apply(state: State, seat: Seat, notation: str) -> None:
    """Carry out the legal step ``notation`` of ``seat`` on ``state`` (a copy)."""
    words = notation.split()
    verb = words[0]
    if verb in ("place", "wild"):
        _map_step(state, seat, verb, words[1])
    elif verb == "sell":
        owner = controller(state, words[1])
        state["pending"] = {"kind": "sale", "by": seat, "to": owner, "civ": words[1]}
        state["step"] = "sale"
        state["offered"].append(words[1])          # one offer a territory a turn
    elif verb == "pay" or (verb == "refuse" and state["step"] == "sale"):
        _sale(state, verb == "pay")
    elif verb == "play":
        _play_bonus(state, seat, words[1], _seat(words[2]) if len(words) > 2 else None)
    elif verb == "draw":
        _draw(state, seat)
        state["actions"] -= 1
        log_event(state, "draw")
    elif verb in ("trade", "buy"):
        state["pending"] = {"kind": verb, "by": seat, "to": _seat(words[1]), "civ": words[2]}
        state["step"] = "offer" if verb == "trade" else "buy"
        if verb == "buy":
            state["actions"] -= 1
    elif verb == "offer":
        state["pending"]["card"] = words[1]
        learn(state, words[1], state["pending"]["to"])
        state["step"] = "trade"
        state["actions"] -= 1
    elif verb in ("give", "decline", "accept", "refuse"):
        _answer(state, seat, words[1] if len(words) > 1 else None)
    elif verb == "challenge":
        state["pending"] = {"kind": "challenge", "by": seat, "to": _seat(words[1])}
        state["step"] = "pick"
    elif verb == "pick":
        _pick(state, int(words[1]) - 1)
    elif verb in ("answer", "skip"):
        _resolve_challenge(state, seat, int(words[1]) - 1 if verb == "answer" else None)
    else:
        end_turn(state)


def _map_step(state: State, seat: Seat, verb: str, civ: str) -> None:
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


def _sale(state: State, paid: bool) -> None:
    """The controller of a territory answers a sale: it pays and takes the seller's last
    placed card there, or refuses."""
    pending = state["pending"]
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


def _check_complete(state: State, civ: str) -> None:
    """A territory holding the whole set (12 cards, a wild card among them or not) of one
    player is complete: that player takes its token, the territory closes."""
    seats = occupants(state, civ)
    if len(seats) == 1 and len(state["map"][civ]) >= RULES["set_size"]:
        state["sets"][seats[0]].append(civ)
        state["closed"].append(civ)


def _draw(state: State, seat: Seat, count: int = 1, bonus: bool = True) -> None:
    for _ in range(count):
        if state["deck"]:
            state["hands"][seat].append(state["deck"].pop(0))
        elif bonus and state["bonus"]:
            state["hands"][seat].append(state["bonus"].pop(0))


def _play_bonus(state: State, seat: Seat, kind: str, target: Seat | None) -> None:
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


def _answer(state: State, seat: Seat, card: str | None) -> None:
    """The other player answers an offer (``give``/``decline``) or a purchase
    (``accept``/``refuse``)."""
    pending = state["pending"]
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


def _pick(state: State, index: int) -> None:
    pending = state["pending"]
    card = civ_cards(state, pending["to"])[index]
    pending["card"] = card
    learn(state, card, *range(state["n"]))      # its question is read to everyone
    state["step"] = "quiz"


def _resolve_challenge(state: State, seat: Seat, answer: int | None) -> None:
    pending = state["pending"]
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


def end_turn(state: State) -> None:
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


def drew(before: State, after: State) -> bool:
    """True if the step took cards from a deck (they were secret: no undo)."""
    return (len(after["deck"]) < len(before["deck"]) or len(after["bonus"]) < len(before["bonus"])
            or chance.drew(before, after))

