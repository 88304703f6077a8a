"""The Civilizations state (:class:`CivsetsState`): setup and the queries the rules share."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot import chance
from bot.engine import Seat
from bot.games.civsets.cards import BONUS_CARDS, CIV_CARDS, CIVS, RULES, civ_of

STEPS = ("act", "offer", "trade", "buy", "sale", "pick", "quiz")
"""The decisions of a turn (``step``)."""


class Deal(TypedDict, total=False):
    """An offer (``trade``), a purchase (``buy``), a sale (``sale``) or a challenge under way
    (``pending``), or the last swap, purchase or sale (``last_deal``)."""

    kind: str
    by: int
    """Who asks."""
    to: int
    """Who answers (or is challenged)."""
    civ: str
    """The civilization asked for (or sold)."""
    card: str
    """The card offered, or the card challenged once picked."""
    answer: Any
    """What the other side answered: the card given, ``paid``, or None for a refusal."""


class LastTurn(TypedDict):
    """The turn ended last, which the board highlights."""

    seat: int
    events: list[dict[str, Any]]


class CivsetsState(TypedDict):
    """A Civilizations state. Seats are 0-based; cards are ids of ``data/civsets``."""

    chance: dict[str, int]
    """The box of randomness (:mod:`bot.chance`)."""
    n: int
    hands: list[list[str]]
    """Card ids per seat."""
    deck: list[str]
    """Civilization cards, top first."""
    bonus: list[str]
    """The Bonus deck, top first."""
    used: list[str]
    """Bonus cards played (public)."""
    points: list[int]
    sets: list[list[str]]
    """Civilizations completed per seat."""
    closed: list[str]
    """Completed territories."""
    map: dict[str, list[list[Any]]]
    """Per civilization, the placed cards as ``[seat, card]`` in the order they were placed."""
    round: int
    turn: int
    """Turns ended."""
    current: int
    step: str
    """One of :data:`STEPS`."""
    actions: int
    """Main actions still allowed this turn."""
    bought: list[bool]
    """Who bought this round."""
    shield: list[bool]
    """Who may be neither challenged nor bought from until their next turn."""
    pending: Deal | None
    last: dict[str, Any] | None
    """The last challenge (public)."""
    last_deal: Deal | None
    known: dict[str, list[int]]
    """Card -> seats that know where it is, besides its holder (a card offered, traded,
    revealed by a challenge or seen by a spy)."""
    offered: list[str]
    """Territories whose cards the player has offered for sale this turn (once a turn each)."""
    turn_log: NotRequired[list[dict[str, Any]]]
    """The public events of the turn under way (cards placed, a draw, a swap or a purchase
    asked and whether it was made, a challenge and its card, a Bonus card played); absent
    from states stored before it existed."""
    last_turn: NotRequired[LastTurn | None]
    spied: list[dict[str, list[str]]]
    """Per seat, the hands it has seen with the King's Eye (seat -> cards)."""
    quiz_seconds: int
    ai_skill: int
    """The options."""
    over: bool
CIV_SET = frozenset(CIV_CARDS)
"""The 72 Civilization cards (the others are Bonus cards)."""


def new_state(seed: int, n_players: int, quiz_seconds: int, ai_skill: int) -> CivsetsState:
    """A shuffled deck, 12 cards dealt to each player, the Bonus deck shuffled."""
    randomness = chance.start(seed)
    draw = chance.Draw({chance.KEY: randomness})
    deck, bonus = list(CIV_CARDS), list(BONUS_CARDS)
    draw.shuffle(deck)
    draw.shuffle(bonus)
    size = RULES["hand_size"]
    return {
        "chance": randomness, "n": n_players,
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
    }


def holding(state: CivsetsState, seat: Seat, civ: str) -> list[str]:
    """The Civilization cards of ``civ`` in ``seat``'s hand (not its wild card)."""
    return [c for c in state["hands"][seat] if c in CIV_SET and civ_of(c) == civ]


def placed(state: CivsetsState, seat: Seat, civ: str) -> list[str]:
    """The cards ``seat`` has placed on ``civ``'s territory."""
    return [card for owner, card in state["map"][civ] if owner == seat]


def occupants(state: CivsetsState, civ: str) -> list[Seat]:
    """The seats with cards on ``civ``'s territory, in the order they first placed."""
    found: list[Seat] = []
    for owner, _ in state["map"][civ]:
        if owner not in found:
            found.append(owner)
    return found


def controller(state: CivsetsState, civ: str) -> Seat | None:
    """Who controls a territory: most cards on it; a tie goes to whoever placed first."""
    seats = occupants(state, civ)
    if not seats:
        return None
    return max(seats, key=lambda s: (len(placed(state, s, civ)), -seats.index(s)))


def learn(state: CivsetsState, card: str, *seats: Seat) -> None:
    """``seats`` now know where ``card`` is."""
    state["known"][card] = sorted({*state["known"].get(card, ()), *seats})


def log_event(state: CivsetsState, kind: str, **facts: Any) -> None:
    """Add a public event of the turn under way to ``turn_log`` (a state stored before
    the log existed gets one)."""
    state.setdefault("turn_log", []).append({"kind": kind, **facts})


def named_seat(word: str) -> Seat:
    """The seat a notation's 1-based number names (``trade 2 greeks``: seat 1)."""
    return int(word) - 1


def others(state: CivsetsState, seat: Seat) -> list[Seat]:
    """Every other seat, in turn order after ``seat``."""
    n = state["n"]
    return [(seat + k) % n for k in range(1, n)]


def score_key(state: CivsetsState, seat: Seat) -> tuple[int, int]:
    """What ranks a seat: completed sets, then points."""
    return len(state["sets"][seat]), state["points"][seat]
