"""The Mesopotamia state: its shape and the queries the setup and the rounds share.

The state is a JSON dict (seats are 0-based):

- ``n`` (players), ``phase`` (``roles``, ``empires``, ``regions``, ``bonus``, ``quests``,
  then ``ready`` once the setup is done), ``current`` (the seat deciding a sequential step,
  or None), ``bonus`` (the setup bonuses still to decide: ``[seat, "die" | "colony"]``),
  ``turn`` (decisions completed), ``log`` (what the last step did by itself);
- ``players``: per seat ``role`` (``a``-``d``), ``empire``, ``start`` (region), ``res``
  (resources), ``tech`` (action -> level), ``civ`` (civilization cards not on the board),
  ``dice`` (Dingir die colours), ``ziggurat`` (storeys built), ``colonies`` and
  ``ramparts`` (regions);
- ``units``: ``[seat, kind, region]`` for every figure on the map;
- ``seals``: per track, ``[seat, case]`` from the most advanced seal to the least (a pile
  lists its top first);
- ``ziggurats`` (region -> token number), ``blockers`` (regions), ``tribes`` (region ->
  figures), ``sites`` (region -> ``[event token, face up]``), ``trade`` (slot -> token),
  ``gardens`` (per storey from the bottom: ``[tile, face up]``);
- ``quests``: ``deck`` (top first), ``hands`` (per seat), ``returned`` (per seat: the card
  put back, or None while the seat has not chosen).
"""

from __future__ import annotations

import marshal
from typing import Any

from bot.engine import Seat, State
from bot.games.mesopotamia import data as D

PHASES = ("roles", "empires", "regions", "bonus", "quests", "ready")
MARSHAL_VERSION = 2


def clone(value: Any) -> Any:
    """A deep copy of a JSON value (``marshal`` version 2 keeps no shared references)."""
    return marshal.loads(marshal.dumps(value, MARSHAL_VERSION))


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
