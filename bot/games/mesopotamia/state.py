"""The Mesopotamia state (:class:`MesopotamiaState`) and the queries the setup and the rounds
share."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import data as D

PHASES = ("roles", "empires", "regions", "bonus", "quests", "ready")
"""The phases of the setup (``ready`` once it is done: the engine then begins round 1 in the
same step, so ``ready`` is never a resting phase)."""


class Player(TypedDict):
    """A seat's board and pieces."""

    role: str | None
    """``a`` to ``d``."""
    empire: str | None
    start: str | None
    """Its start region."""
    res: dict[str, int]
    """Resources."""
    tech: dict[str, str]
    """Action -> its civilization card on the board."""
    civ: list[str]
    """Civilization cards not on the board."""
    dice: list[str]
    """Its Dingir dice, by colour."""
    ziggurat: int
    """Storeys built."""
    colonies: list[str]
    ramparts: list[str]
    """Regions."""
    gardens: NotRequired[list[str]]
    """The Hanging Gardens tiles built (:mod:`bot.games.mesopotamia.construction`)."""
    events_resolved: NotRequired[int]


class Quests(TypedDict):
    """The quest cards."""

    deck: list[str]
    """Top first."""
    hands: list[list[str]]
    """Per seat."""
    returned: list[str | None]
    """Per seat: the card put back, or None while the seat has not chosen."""


class Turn(TypedDict):
    """The action-phase turn under way (:mod:`bot.games.mesopotamia.turn`)."""

    dice: list[str | None]
    """Each Dingir die's face (its sign), None before it is rolled."""
    used: list[bool]
    rerolls: int
    pawn: bool
    """The pawn is still there (an action not taken yet may be taken with it)."""
    done: list[str]
    """The actions taken this turn."""
    act: dict[str, Any] | None
    """The action activated and not finished (:mod:`bot.games.mesopotamia.actions`)."""
    freeroll: NotRequired[bool]
    """The Hittites' free reroll was taken this turn (:mod:`bot.games.mesopotamia.expansions`)."""
    closed: NotRequired[bool]
    """An action ended by itself after an old log's ``stop`` (:func:`turn.closed_stop`)."""
    cards: NotRequired[list[str]]
    """An Automaton's turn: the actions of its Action cards, in the order it takes them
    (:mod:`bot.games.mesopotamia.automaton.deck`)."""


class MesopotamiaState(TypedDict):
    """A Mesopotamia state. Seats are 0-based; a key marked NotRequired appears with the rounds
    (or with the part of a round that needs it) and may be absent from states stored
    earlier."""

    expansions: NotRequired[list[str]]
    """The expansions in play (:mod:`bot.games.mesopotamia.expansions`); absent: none."""
    automata: NotRequired[dict[str, dict[str, Any]]]
    """Each Automaton seat's box by seat (its decks and difficulty,
    :mod:`bot.games.mesopotamia.automaton.deck`)."""
    chance: dict[str, int]
    """The box of randomness (:mod:`bot.chance`)."""
    guardians: NotRequired[dict[str, Any]]
    """The Guardians of Assur's box (:mod:`bot.games.mesopotamia.guardians.mode`)."""
    n: int
    phase: str
    """The setup's :data:`PHASES`, then ``actions``, ``events`` (a beaten tribe's or a reset
    running event's), ``combat`` (once every turn is played), ``end`` (while a final reward
    waits for its technology) and ``over``."""
    current: int | None
    """The seat deciding a sequential step, or None."""
    bonus: list[list[Any]]
    """The setup bonuses still to decide: ``[seat, "die" | "colony"]``."""
    turn: int
    """Turns completed (R-turn-count)."""
    log: list[list[Any]]
    """What the last step did by itself: ``[seat, notation]``."""
    players: list[Player]
    units: list[list[Any]]
    """``[seat, kind, place]`` for every figure on the map (a ship's place is a river section;
    a ram's is a region, R-ram-bind)."""
    seals: dict[str, list[list[int]]]
    """Per track, ``[seat, case]`` from the most advanced seal to the least (a pile lists its
    top first)."""
    ziggurats: dict[str, int]
    """Region -> token number."""
    blockers: list[str]
    """Regions."""
    tribes: dict[str, dict[str, int]]
    """Region -> its tribe's figures."""
    sites: dict[str, list[Any]]
    """Region -> ``[event token, face up]``."""
    trade: dict[str, str]
    """Slot -> trade token."""
    gardens: list[list[Any]]
    """Per storey from the bottom: ``[tile, face up]``."""
    quests: Quests
    no_chance: NotRequired[bool]
    """The variant without dice chance."""
    combat_mode: NotRequired[str]
    """The option ``combat``: ``standard`` or ``simplified``."""
    team: NotRequired[bool]
    """The option ``team`` with an Automaton: the players win or lose together against it
    (R-solo-team)."""
    amphorae: NotRequired[dict[str, int]]
    """Trade slot -> the seat whose Amphora claims it."""
    round: NotRequired[int]
    order: NotRequired[list[int]]
    """The seats' turns this round."""
    index: NotRequired[int]
    """Whose turn in ``order``."""
    t: NotRequired[Turn | None]
    pending_events: NotRequired[list[list[Any]]]
    """``[seat, region]`` where a unit stopped on a face-down event, revealed by the same
    step."""
    event: NotRequired[dict[str, Any] | None]
    """The revealed event being chosen: ``seat``, ``region``, ``card`` (and ``from``, its
    previous owner, for a running event reset); in the action phase, or in phase ``events``."""
    finals: NotRequired[list[dict[str, Any]]]
    """Finished six-round events whose final reward waits for its owner to name a technology."""
    vp_tokens: NotRequired[dict[str, int]]
    """Region -> VP of a token kept face up."""
    running: NotRequired[list[dict[str, Any]]]
    """Six-round events: ``seat``, ``card``, ``option``, ``region``, ``face`` of the Event
    die."""
    breaches: NotRequired[list[list[Any]]]
    """``[seat, region, round]`` where a ram of ``seat`` entered another empire's Rampart this
    round (R-ram-enter)."""
    entered: NotRequired[dict[str, int]]
    """Region -> the seat whose land unit entered it last this round."""
    battle: NotRequired[dict[str, Any]]
    """The combat phase under way (:mod:`bot.games.mesopotamia.battles`): stage, chooser,
    region, pair, attacker, ships that supported, colonies kept."""
    bids: NotRequired[dict[str, Any]]
    """The sealed bids (:mod:`bot.games.mesopotamia.bids`)."""
    fight: NotRequired[dict[str, Any]]
    """A standard combat under way (:mod:`bot.games.mesopotamia.standard`)."""
    siege: NotRequired[dict[str, Any]]
    """The Defenders of Ur in « MODE SIÈGE D'UR » (:mod:`bot.games.mesopotamia.siege`)."""
    solo: NotRequired[dict[str, Any]]
    """A combat against the Automaton under way (:mod:`bot.games.mesopotamia.solo`)."""
    clashed: NotRequired[list[dict[str, Any]]]
    """The clashes against the Automaton the last step fought, for its report."""
    solo_over: NotRequired[list[dict[str, Any]]]
    """The combats against the Automaton the last step ended (``solo``'s records), for its
    report."""
    fought: NotRequired[dict[str, Any]]
    """The standard combat the last step ended."""
    resolved: NotRequired[list[Any]]
    """The combats the last step ended, for its report."""
    changed: NotRequired[dict[str, Any]]
    """The regions the turn under way changed: ``turn``, ``regions``
    (:mod:`bot.games.mesopotamia.focus`)."""


def new_player() -> Player:
    """A seat before it has a role or an empire."""
    return {"role": None, "empire": None, "start": None,
            "res": dict.fromkeys(D.RESOURCES, 0), "tech": {}, "civ": [], "dice": [],
            "ziggurat": 0, "colonies": [], "ramparts": []}


def action_under_way(state: MesopotamiaState) -> dict[str, Any]:
    """The action activated and not finished (``t["act"]``, :mod:`bot.games.mesopotamia.actions`),
    where the rules know there is one."""
    return known(known(state["t"])["act"])


def pieces(player: Player, kind: str) -> list[str]:
    """A player's ``colonies`` or ``ramparts`` (``kind``)."""
    return player["colonies"] if kind == "colonies" else player["ramparts"]


def seat_of_role(state: MesopotamiaState, role: str) -> Seat | None:
    """The seat holding ``role``, or None."""
    for seat, player in enumerate(state["players"]):
        if player["role"] == role:
            return seat
    return None


def roles_in_play(state: MesopotamiaState) -> tuple[str, ...]:
    """The roles of this game: the first N (A-B, A-C, A-D)."""
    return D.ROLES[: state["n"]]


def by_role(state: MesopotamiaState) -> list[Seat]:
    """The seats in role order A, B, C, D (seats without a role are left out)."""
    seats = (seat_of_role(state, r) for r in roles_in_play(state))
    return [s for s in seats if s is not None]


def taken_regions(state: MesopotamiaState) -> set[str]:
    """The start regions already chosen."""
    return {p["start"] for p in state["players"] if p["start"] is not None}


def taken_empires(state: MesopotamiaState) -> set[str]:
    """The empires already chosen."""
    return {p["empire"] for p in state["players"] if p["empire"] is not None}


def seal_order(state: MesopotamiaState, track: str) -> list[Seat]:
    """The seats on ``track``, most advanced first."""
    return [int(seat) for seat, _ in state["seals"][track]]


def seal_case(state: MesopotamiaState, track: str, seat: Seat) -> int:
    """The case of ``seat``'s seal on ``track``."""
    return next(int(case) for s, case in state["seals"][track] if s == seat)


def unit_limit(state: MesopotamiaState, seat: Seat) -> int:
    """How many units ``seat`` may have: the limit beside its Population level."""
    return D.UNIT_LIMIT[seal_case(state, "population", seat) - 1]


def tech_level(state: MesopotamiaState, seat: Seat, action: str) -> int:
    """The level of ``seat``'s technology card of ``action`` (0 before its empire is set)."""
    card = state["players"][seat]["tech"].get(action)
    return 0 if card is None else D.TECH_CARD[D.CIV_TECH[card]][1]


def advance_seal(state: MesopotamiaState, track: str, seat: Seat) -> bool:
    """Move ``seat``'s seal one case on: on top of a pile already there (« Si la case où vous
    devez placer votre Sceau est déjà occupée, placez-le par-dessus celui qui s'y trouve. »),
    never onto a last case already taken (« La dernière case de chaque piste ne peut compter
    qu'un seul Sceau. »). False when it cannot move."""
    case = seal_case(state, track, seat) + 1
    if not can_advance(state, track, seat):
        return False
    pile = [entry for entry in state["seals"][track] if entry[0] != seat]
    at = next((i for i, (_, c) in enumerate(pile) if c <= case), len(pile))
    pile.insert(at, [seat, case])
    defender = defenders(state)
    if defender is not None:    # R-siege-seals: yours always on top of theirs
        pile.sort(key=lambda e: (-int(e[1]), e[0] == defender))
    state["seals"][track] = pile
    return True


def can_advance(state: MesopotamiaState, track: str, seat: Seat) -> bool:
    """True when ``seat``'s seal may move one case on ``track``."""
    case = seal_case(state, track, seat) + 1
    last = D.TRACK_CASES[track]
    return case < last or (case == last and (seat == defenders(state) or
                                             all(c != last for _, c in state["seals"][track])))


def defenders(state: MesopotamiaState) -> Seat | None:
    """The seat of the Defenders of Ur in the Siege (they may reach a last box you stand on:
    « Les Défenseurs peuvent atteindre la case même si vous vous y trouvez déjà. »), else None."""
    siege = state.get("siege")
    return None if siege is None else int(siege["seat"])


def units_of(state: MesopotamiaState, seat: Seat, kind: str | None = None) -> list[list[Any]]:
    """``seat``'s units (of ``kind`` only, if given)."""
    return [u for u in state["units"] if u[0] == seat and kind in (None, u[1])]
