"""What each seat may see of a Civilizations state, what is secret, and what the AI guesses.

Public: points, completed sets, the map (placed cards are face up), the number of
cards in each hand and in each deck, the Bonus cards played, whose decision it is,
what is being traded or bought (not the cards that change hands), the card challenged
and its question once picked, the last challenge, the events of this turn and the last.
A seat also sees its own hand, the cards of a deal it is part of, and the hands it has
spied on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot import chance
from bot.engine import Seat, Secret, State
from bot.games.civsets.cards import BONUS_CARDS, CIV_CARDS, CIVS, RULES
from bot.games.civsets.state import CIV_SET, CivsetsState, Deal, controller
from bot.games.civsets.texts import card_name
from bot.games.kit import clone

PUBLIC_KEYS = ("n", "points", "sets", "closed", "map", "round", "turn", "current", "step",
               "actions", "bought", "shield", "used", "last", "over", "quiz_seconds",
               "ai_skill", "offered")


LOGS: dict[str, Any] = {"turn_log": [], "last_turn": None}
"""The public events of this turn and of the last (absent from states stored before them)."""


def _shown(deal: Deal | None, seat: Seat | None) -> dict[str, Any] | None:
    """An offer, purchase or challenge as ``seat`` may see it: the cards a trade or a sale
    moves are for its two sides only; a challenged card is everybody's once picked."""
    if deal is None:
        return None
    shown: dict[str, Any] = {k: v for k, v in deal.items() if k not in ("card", "answer")}
    if "answer" in deal:
        shown["accepted"] = deal["answer"] is not None
    if deal["kind"] == "challenge" or seat in (deal["by"], deal["to"]):
        shown.update({k: deal[k] for k in ("card", "answer") if k in deal})
    return shown


def view(state: CivsetsState, seat: Seat | None) -> dict[str, Any]:
    """What ``seat`` sees (None: everybody): the public facts, and for a seat its hand,
    the deal it is part of and the hands it has spied on."""
    fields: Mapping[str, Any] = state
    shown = {key: clone(fields[key]) for key in PUBLIC_KEYS}
    shown.update({key: clone(fields.get(key, empty)) for key, empty in LOGS.items()})
    shown.update(
        hand_sizes=[len(h) for h in state["hands"]],
        civ_sizes=[sum(c in CIV_SET for c in h) for h in state["hands"]],
        deck_size=len(state["deck"]),
        bonus_size=len(state["bonus"]), pending=_shown(state["pending"], seat),
        last_deal=_shown(state["last_deal"], seat),
        controllers={civ: controller(state, civ) for civ in CIVS},
        max_rounds=RULES["max_rounds"], you=seat,
    )
    if seat is not None:
        shown["hand"] = list(state["hands"][seat])
        shown["spied"] = clone(state["spied"][seat])
    return shown


def secrets(state: CivsetsState) -> list[Secret]:
    """Every card not on the map, by name and id, readable by its holder and by whoever
    learnt where it is (everybody, once a challenge showed it)."""
    found: list[Secret] = []

    def hidden(card: str, readers: frozenset[Seat]) -> None:
        found.extend((Secret(card_name(card), readers), Secret(card, readers)))

    for seat, hand in enumerate(state["hands"]):
        for card in hand:
            hidden(card, frozenset({seat, *state["known"].get(card, ())}))
    for card in (*state["deck"], *state["bonus"]):
        hidden(card, frozenset(state["known"].get(card, ())))
    return found


def determinize(view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
    """A full state consistent with ``seat``'s view: the cards it cannot place dealt at
    random to the other hands and the decks, and an unknown future."""
    state: State = {key: clone(view[key]) for key in (*PUBLIC_KEYS, *LOGS)}
    pending = clone(view["pending"])
    hands: list[list[str]] = [[] for _ in range(view["n"])]
    hands[seat] = list(view["hand"])
    fixed: dict[int, list[str]] = {}    # (a spy's look may be stale: it is not used)
    if pending is not None and "card" in pending:
        owner = pending["to"] if pending["kind"] == "challenge" else pending["by"]
        fixed.setdefault(owner, []).append(pending["card"])
    on_map = {card for rows in view["map"].values() for _, card in rows}
    taken = set(hands[seat]) | on_map | set(view["used"])
    for other, cards in fixed.items():
        if other != seat:
            keep = [c for c in dict.fromkeys(cards) if c not in taken]
            hands[other] = keep[:view["hand_sizes"][other]]
            taken |= set(hands[other])
    civ_pool = [c for c in CIV_CARDS if c not in taken]
    bonus_pool = [c for c in BONUS_CARDS if c not in taken]
    rng.shuffle(civ_pool)
    rng.shuffle(bonus_pool)
    deck, bonus_deck = civ_pool[:view["deck_size"]], bonus_pool[:view["bonus_size"]]
    civ_left, bonus_left = civ_pool[view["deck_size"]:], bonus_pool[view["bonus_size"]:]
    for other in range(view["n"]):
        civs = sum(c in CIV_SET for c in hands[other])
        while civs < view["civ_sizes"][other] and civ_left:
            hands[other].append(civ_left.pop())
            civs += 1
        while len(hands[other]) < view["hand_sizes"][other] and bonus_left:
            hands[other].append(bonus_left.pop())
    if pending is not None and pending["kind"] == "trade" and "card" not in pending \
            and state["step"] == "trade":
        pending["card"] = hands[pending["by"]][0]      # an offer this seat cannot see
    state.update(
        {chance.KEY: chance.resample(rng), "hands": hands, "deck": deck, "bonus": bonus_deck,
         "pending": pending, "last_deal": None, "known": {},
         "spied": [{} for _ in range(view["n"])]},
    )
    return state
