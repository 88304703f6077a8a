"""The Automaton's turn on its two decks, inside the engine's state (R-auto-*).

An Automaton seat has a box in ``state["automata"][str(seat)]`` (:func:`enlist`):
``difficulty``; ``deck`` (the Strategy cards left to draw, as a sorted set: each draw takes one
at random through :mod:`bot.chance`, as from a shuffled deck) and ``top`` (cards known to be on
top, R-auto-grow-draw), ``discard``, ``shown`` (the face-up cards) and ``marks`` (per face-up
card, its two actions' Amphorae); ``turn`` (the turn under way: :func:`plan_turn`'s record) and
``last`` (the previous turn's record). None of it is secret: no card's order is stored before it
is drawn. The Action deck is shuffled whole at every turn (« Remettez les cartes Action
utilisées dans le paquet Action et mélangez-le. »), so it has no box.

:func:`begin_turn` and :func:`end_turn` are the engine's hooks (:mod:`bot.games.mesopotamia.turn`);
:func:`assign` is the pure assignment of drawn Action cards to the face-up Strategy cards.
"""

from __future__ import annotations

from typing import Any

from bot.chance import Draw
from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia.automaton import priorities, supply
from bot.games.mesopotamia.automaton.cards import (
    ACTION_CARDS,
    DIFFICULTIES,
    IN_PLAY,
    STAR,
    STRATEGIES,
    deck_for,
    draws,
    number,
)
from bot.games.mesopotamia.state import MesopotamiaState

Place = tuple[str, int]
"""A Strategy card and one of its actions (0 left, 1 right)."""


def enlist(state: MesopotamiaState, seat: Seat, difficulty: str) -> None:
    """Make ``seat`` an Automaton at ``difficulty`` (its decks are made at its first turn, once
    its empire is known: « ajoutez les 2 cartes spécifiques à l'Empire contre qui vous jouez »)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}")
    state.setdefault("automata", {})[str(seat)] = {
        "difficulty": difficulty, "deck": None, "top": [], "discard": [], "shown": [],
        "marks": {}, "turn": None, "last": None}


def box(state: MesopotamiaState, seat: Seat) -> dict[str, Any] | None:
    """``seat``'s Automaton box, or None for a seat that is a player."""
    boxes = state.get("automata")
    return None if not boxes else boxes.get(str(seat))


def plays(state: MesopotamiaState, seat: Seat) -> bool:
    """True when ``seat`` is an Automaton."""
    return box(state, seat) is not None


def assign(order: list[str], marks: dict[str, list[bool]],
           drawn: list[str]) -> tuple[list[tuple[str, Place | None]], Place | None]:
    """Where each drawn Action card goes, and the bonus action.

    ``order``: the face-up cards by priority; ``marks``: their Amphorae. A card goes to the
    highest-priority unresolved action of its kind (« Si plusieurs cartes Stratégie ont la même
    action, résolvez-les de la plus haute Priorité à la plus basse. »), never to an action
    already taken this turn (« L'Automate ne peut pas réaliser une même action deux fois dans
    le même Tour. »), else it is lost. Stars come last, each on the leftmost unresolved action by
    priority (« Elle est toujours la dernière carte Action à être assignée »). Then the bonus:
    « l'action non résolue de gauche de la carte Stratégie ayant la Priorité la plus haute »
    (R-auto-bonus)."""
    resolved = {c: list(marks.get(c, [False, False])) for c in order}
    taken: set[str] = set()
    out: list[tuple[str, Place | None]] = []

    def free(want: str | None) -> Place | None:
        for card in order:
            for slot in (0, 1):
                action = STRATEGIES[card].slots[slot].action
                if not resolved[card][slot] and action not in taken and want in (None, action):
                    return card, slot
        return None

    def take(place: Place | None) -> Place | None:
        if place is not None:
            resolved[place[0]][place[1]] = True
            taken.add(STRATEGIES[place[0]].slots[place[1]].action)
        return place

    for card in [c for c in drawn if c != STAR] + [c for c in drawn if c == STAR]:
        out.append((card, take(free(ACTION_CARDS[card]))))
    return out, take(free(None))


def begin_turn(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Start the Automaton's turn: its Strategy cards, their priorities, the Action cards drawn
    and assigned, the bonus; returns the actions it takes, in order (R-auto-activation)."""
    own = box(state, seat)
    assert own is not None
    rng = Draw(state)
    if own["deck"] is None:
        own["deck"] = deck_for(known(state["players"][seat]["empire"]))
    _refill(own, rng)
    values: dict[str, int] = {}
    conditions: dict[str, bool] = {}
    for card in own["shown"]:
        values[card], conditions[card] = priorities.priority(state, seat, card)
    order = priorities.ranked(values)
    own["shown"] = order
    storeys = int(state["players"][seat]["ziggurat"])
    actions = list(ACTION_CARDS)
    rng.shuffle(actions)
    drawn = actions[:draws(own["difficulty"], storeys)]
    assigned, bonus = assign(order, own["marks"], drawn)
    places = [p for _, p in assigned if p is not None] + ([bonus] if bonus else [])
    plan: list[list[Any]] = [[STRATEGIES[c].slots[s].action, c, s] for c, s in places]
    for _, card, slot in plan:
        own["marks"].setdefault(card, [False, False])[slot] = True
    taken = supply.take(state, seat, [(a, STRATEGIES[c].slots[s].plan) for a, c, s in plan])
    own["turn"] = {"order": order, "values": values, "conditions": conditions,
                   "storeys": storeys, "drawn": drawn,
                   "assigned": [[c, None if p is None else list(p)] for c, p in assigned],
                   "bonus": None if bonus is None else list(bonus), "plan": plan,
                   "taken": taken, "discarded": [], "found": None}
    return [entry[0] for entry in plan]


def end_turn(state: MesopotamiaState, seat: Seat) -> None:
    """« CONCLUSION DU TOUR »: the draws of Grow and Draw (R-auto-grow-draw), the discard of
    every Strategy card whose two actions are done, the refill to 3 (reshuffling the discard
    when the deck is empty); the Action cards need nothing (shuffled at each turn)."""
    own = box(state, seat)
    assert own is not None and own["turn"] is not None
    rng = Draw(state)
    turn = own["turn"]
    for _, card, slot in turn["plan"]:
        wanted = STRATEGIES[card].slots[slot].plan.get("draw_until")
        if wanted:
            turn["found"] = _draw_until(own, rng, wanted, turn["discarded"])
    for card in list(own["shown"]):
        if all(own["marks"].get(card, [False, False])):
            own["shown"].remove(card)
            own["marks"].pop(card, None)
            own["discard"].append(card)
            turn["discarded"].append(card)
    _refill(own, rng)
    own["last"], own["turn"] = turn, None


def _draw_one(own: dict[str, Any], rng: Draw) -> str | None:
    """The next Strategy card: a known top card, else one at random from the deck; an empty
    deck is made again from the discard (« Si le paquet Stratégie est vide, mélangez la
    défausse et créez un nouveau paquet. »)."""
    if own["top"]:
        card: str = own["top"].pop(0)
        return card
    if not own["deck"]:
        own["deck"], own["discard"] = sorted(own["discard"], key=number), []
    if not own["deck"]:
        return None
    card = own["deck"].pop(rng.below(len(own["deck"])))
    return card


def _refill(own: dict[str, Any], rng: Draw) -> None:
    while len(own["shown"]) < IN_PLAY:
        card = _draw_one(own, rng)
        if card is None:
            return
        own["shown"].append(card)
        own["marks"][card] = [False, False]


def _draw_until(own: dict[str, Any], rng: Draw, action: str, discarded: list[str]) -> str | None:
    """« Draw and discard Strategy cards until you find one with the Research action. »: the
    card found goes back on top of the deck; the others are discarded. At most one pass through
    the deck and the discard (none may hold such a card)."""
    budget = len(own["deck"]) + len(own["discard"]) + len(own["top"])
    for _ in range(budget):
        card = _draw_one(own, rng)
        if card is None:
            return None
        if any(s.action == action for s in STRATEGIES[card].slots):
            own["top"].insert(0, card)
            return card
        own["discard"].append(card)
        discarded.append(card)
    return None
