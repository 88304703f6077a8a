"""The Mesopotamia state: its shape and the queries the setup and the rounds share.

The state is a JSON dict (seats are 0-based):

- ``n`` (players), ``phase`` (``roles``, ``empires``, ``regions``, ``bonus``, ``quests``,
  then ``ready`` once the setup is done), ``current`` (the seat deciding a sequential step,
  or None), ``bonus`` (the setup bonuses still to decide: ``[seat, "die" | "colony"]``),
  ``turn`` (turns completed, R-turn-count), ``log`` (what the last step did by itself);
- ``players``: per seat ``role`` (``a``-``d``), ``empire``, ``start`` (region), ``res``
  (resources), ``tech`` (action -> its civilization card on the board), ``civ``
  (civilization cards not on the board), ``dice`` (Dingir die colours), ``ziggurat``
  (storeys built), ``colonies`` and ``ramparts`` (regions);
- ``units``: ``[seat, kind, region]`` for every figure on the map (a ship's place is a river
  section; a ram's is a region, R-ram-bind); ``breaches``: ``[seat, region, round]`` where a
  ram of ``seat`` entered another empire's Rampart this round (R-ram-enter);
- ``seals``: per track, ``[seat, case]`` from the most advanced seal to the least (a pile
  lists its top first);
- ``ziggurats`` (region -> token number), ``blockers`` (regions), ``tribes`` (region ->
  figures), ``sites`` (region -> ``[event token, face up]``), ``trade`` (slot -> token),
  ``gardens`` (per storey from the bottom: ``[tile, face up]``);
- ``quests``: ``deck`` (top first), ``hands`` (per seat), ``returned`` (per seat: the card
  put back, or None while the seat has not chosen);
- ``amphorae`` (trade slot -> the seat whose Amphora claims it);
- the rounds (:mod:`bot.games.mesopotamia.turn`): ``no_chance`` (the variant), then, since
  the engine begins round 1 in the step that ends the setup (``ready`` is never a resting
  phase), phase ``actions`` (then ``combat`` once every turn is played, and ``end`` while a
  final reward waits for its technology), ``round``,
  ``order`` (the seats' turns), ``index`` (whose turn in ``order``), ``t`` (the turn under
  way) and ``pending_events`` (``[seat, region]`` where a unit stopped on a face-down event,
  revealed by the same step);
- the events (:mod:`bot.games.mesopotamia.events`): ``event`` (the revealed event being
  chosen: ``seat``, ``region``, ``card``; in the action phase, or in phase ``events`` for a
  beaten tribe's, or for a running event reset, with ``from``, its previous owner),
  ``finals`` (finished six-round events whose final reward waits for its owner to name a
  technology), ``vp_tokens`` (region -> VP of a token kept
  face up), ``running`` (six-round events: ``seat``, ``card``, ``option``, ``region``, ``face``
  of the Event die), per seat ``events_resolved``; per seat ``gardens`` (the Hanging Gardens
  tiles built, :mod:`bot.games.mesopotamia.construction`);
- the combat phase (:mod:`bot.games.mesopotamia.battles`): ``combat_mode`` (the option
  ``combat``: ``standard`` or ``simplified``), ``entered`` (region -> the seat whose land unit
  entered it last this round), ``battle`` (the phase under way: stage, chooser, region, pair,
  attacker, ships that supported, colonies kept), ``bids`` (the sealed bids,
  :mod:`bot.games.mesopotamia.bids`), ``fight`` (a standard combat under way,
  :mod:`bot.games.mesopotamia.standard`), ``resolved`` (the combats the last step ended, for
  its report); then the next round, or phase ``over`` at the end of the game
  (:mod:`bot.games.mesopotamia.rounds`).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat, State
from bot.games.mesopotamia import data as D

PHASES = ("roles", "empires", "regions", "bonus", "quests", "ready")


def new_player() -> dict[str, Any]:
    """A seat before it has a role or an empire."""
    return {"role": None, "empire": None, "start": None,
            "res": dict.fromkeys(D.RESOURCES, 0), "tech": {}, "civ": [], "dice": [],
            "ziggurat": 0, "colonies": [], "ramparts": []}


def seat_of_role(state: State, role: str) -> Seat | None:
    """The seat holding ``role``, or None."""
    for seat, player in enumerate(state["players"]):
        if player["role"] == role:
            return seat
    return None


def roles_in_play(state: State) -> tuple[str, ...]:
    """The roles of this game: the first N (A-B, A-C, A-D)."""
    return D.ROLES[: state["n"]]


def by_role(state: State) -> list[Seat]:
    """The seats in role order A, B, C, D (seats without a role are left out)."""
    seats = (seat_of_role(state, r) for r in roles_in_play(state))
    return [s for s in seats if s is not None]


def taken_regions(state: State) -> set[str]:
    """The start regions already chosen."""
    return {p["start"] for p in state["players"] if p["start"] is not None}


def taken_empires(state: State) -> set[str]:
    """The empires already chosen."""
    return {p["empire"] for p in state["players"] if p["empire"] is not None}


def seal_order(state: State, track: str) -> list[Seat]:
    """The seats on ``track``, most advanced first."""
    return [int(seat) for seat, _ in state["seals"][track]]


def seal_case(state: State, track: str, seat: Seat) -> int:
    """The case of ``seat``'s seal on ``track``."""
    return next(int(case) for s, case in state["seals"][track] if s == seat)


def unit_limit(state: State, seat: Seat) -> int:
    """How many units ``seat`` may have: the limit beside its Population level."""
    return D.UNIT_LIMIT[seal_case(state, "population", seat) - 1]


def tech_level(state: State, seat: Seat, action: str) -> int:
    """The level of ``seat``'s technology card of ``action`` (0 before its empire is set)."""
    card = state["players"][seat]["tech"].get(action)
    return 0 if card is None else D.TECH_CARD[D.CIV_TECH[card]][1]


def advance_seal(state: State, track: str, seat: Seat) -> bool:
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
    state["seals"][track] = pile
    return True


def can_advance(state: State, track: str, seat: Seat) -> bool:
    """True when ``seat``'s seal may move one case on ``track``."""
    case = seal_case(state, track, seat) + 1
    last = D.TRACK_CASES[track]
    return case < last or (case == last and all(c != last for _, c in state["seals"][track]))


def units_of(state: State, seat: Seat, kind: str | None = None) -> list[list[Any]]:
    """``seat``'s units (of ``kind`` only, if given)."""
    return [u for u in state["units"] if u[0] == seat and kind in (None, u[1])]
