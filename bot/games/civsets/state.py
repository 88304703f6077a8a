"""The Civilizations state: setup and the queries the rules share.

The state is a JSON dict:

- ``hands`` (card ids per seat), ``deck`` (Civilization cards, top first), ``bonus``
  (the Bonus deck, top first), ``used`` (Bonus cards played, public);
- ``points``, ``sets`` (civilizations completed per seat), ``closed`` (completed
  territories), ``map`` (per civilization, the placed cards as ``[seat, card]`` in the
  order they were placed);
- the turn: ``round``, ``turn`` (turns ended), ``current``, ``step`` (``act``,
  ``offer``, ``trade``, ``buy``, ``sale``, ``pick``, ``quiz``), ``actions`` (main actions still
  allowed this turn), ``bought`` (who bought this round), ``shield`` (who may be
  neither challenged nor bought from until their next turn), ``pending`` (the offer,
  purchase, sale or challenge under way), ``offered`` (territories whose cards the
  player has offered for sale this turn: once a turn each), ``last`` (the last
  challenge, public) and ``last_deal`` (the last swap, purchase or sale);
- what everyone saw happen: ``turn_log`` (the public events of the turn under way: cards
  placed, a draw, a swap or a purchase asked and whether it was made, a challenge and its
  card, a Bonus card played) and ``last_turn`` (``{"seat": ..., "events": [...]}``, the turn
  ended last), which the board highlights;
- what seats know: ``known`` (card -> seats that know where it is, besides its holder:
  a card offered, traded, revealed by a challenge or seen by a spy) and ``spied``
  (per seat, the hands it has seen with the King's Eye);
- ``options``: ``quiz_seconds`` and ``ai_skill``; ``over``.
"""

from __future__ import annotations

from typing import Any

from bot import chance
from bot.engine import Seat, State
from bot.games.civsets.cards import BONUS_CARDS, CIV_CARDS, CIVS, RULES, civ_of

STEPS = ("act", "offer", "trade", "buy", "sale", "pick", "quiz")
CIV_SET = frozenset(CIV_CARDS)
"""The 72 Civilization cards (the others are Bonus cards)."""


def new_state(seed: int, n_players: int, quiz_seconds: int, ai_skill: int) -> State:
    """A shuffled deck, 12 cards dealt to each player, the Bonus deck shuffled."""
    state: State = {chance.KEY: chance.start(seed)}
    draw = chance.Draw(state)
    deck, bonus = list(CIV_CARDS), list(BONUS_CARDS)
    draw.shuffle(deck)
    draw.shuffle(bonus)
    size = RULES["hand_size"]
    state.update({
        "n": n_players,
        "hands": [deck[i * size:(i + 1) * size] for i in range(n_players)],
        "deck": deck[n_players * size:], "bonus": bonus, "used": [],
        "points": [RULES["start_points"]] * n_players, "sets": [[] for _ in range(n_players)],
        "closed": [], "map": {civ: [] for civ in CIVS},
        "round": 1, "turn": 0, "current": 0, "step": "act", "actions": 1,
        "bought": [False] * n_players, "shield": [False] * n_players,
        "pending": None, "last": None, "last_deal": None, "known": {}, "offered": [],
        "turn_log": [], "last_turn": None,
        "spied": [{} for _ in range(n_players)],
        "quiz_seconds": quiz_seconds, "ai_skill": ai_skill, "over": False,
    })
    return state


def holding(state: State, seat: Seat, civ: str) -> list[str]:
    """The Civilization cards of ``civ`` in ``seat``'s hand (not its wild card)."""
    return [c for c in state["hands"][seat] if c in CIV_SET and civ_of(c) == civ]


def placed(state: State, seat: Seat, civ: str) -> list[str]:
    """The cards ``seat`` has placed on ``civ``'s territory."""
    return [card for owner, card in state["map"][civ] if owner == seat]


def occupants(state: State, civ: str) -> list[Seat]:
    """The seats with cards on ``civ``'s territory, in the order they first placed."""
    found: list[Seat] = []
    for owner, _ in state["map"][civ]:
        if owner not in found:
            found.append(owner)
    return found


def controller(state: State, civ: str) -> Seat | None:
    """Who controls a territory: most cards on it; a tie goes to whoever placed first."""
    seats = occupants(state, civ)
    if not seats:
        return None
    return max(seats, key=lambda s: (len(placed(state, s, civ)), -seats.index(s)))


def learn(state: State, card: str, *seats: Seat) -> None:
    """``seats`` now know where ``card`` is."""
    state["known"][card] = sorted({*state["known"].get(card, ()), *seats})


def log_event(state: State, kind: str, **facts: Any) -> None:
    """Add a public event of the turn under way to ``turn_log`` (a state stored before
    the log existed gets one)."""
    state.setdefault("turn_log", []).append({"kind": kind, **facts})


def named_seat(word: str) -> Seat:
    """The seat a notation's 1-based number names (``trade 2 greeks``: seat 1)."""
    return int(word) - 1


def others(state: State, seat: Seat) -> list[Seat]:
    """Every other seat, in turn order after ``seat``."""
    n = state["n"]
    return [(seat + k) % n for k in range(1, n)]


def score_key(state: State, seat: Seat) -> tuple[int, int]:
    """What ranks a seat: completed sets, then points."""
    return len(state["sets"][seat]), state["points"][seat]
