"""Which steps of Civilizations are legal now (see :mod:`bot.games.civsets` for a turn's
steps)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.civsets.cards import CARDS, CIVS, OPTIONS, RULES
from bot.games.civsets.state import (
    CIV_SET,
    CivsetsState,
    Deal,
    controller,
    holding,
    others,
    placed,
)

FREE_KINDS = ("scribe", "caravan", "spy", "tribute", "library", "sanctuary")


def _targets(state: CivsetsState, seat: Seat) -> list[Seat]:
    """Players who may be challenged or bought from (not shielded, holding a Civilization
    card)."""
    return [s for s in others(state, seat) if not state["shield"][s] and civ_cards(state, s)]


def civ_cards(state: CivsetsState, seat: Seat) -> list[str]:
    """The Civilization cards of a hand, in its order (the cards a challenge picks from:
    Bonus cards carry no question)."""
    return [c for c in state["hands"][seat] if c in CIV_SET]


def map_steps(state: CivsetsState, seat: Seat) -> list[str]:
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


def action_steps(state: CivsetsState, seat: Seat) -> list[str]:
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


def legal(state: CivsetsState, seat: Seat) -> list[str]:
    """Every legal step of ``seat`` now, as notation."""
    if state["over"]:
        return []
    step, pending = state["step"], state["pending"] or Deal()
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
