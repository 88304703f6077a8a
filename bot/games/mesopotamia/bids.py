"""Sealed bids in the Standard of Ur.

« vous décidez en secret du nombre de Phalanges à investir : aucune, une partie, ou tout. »
Every side of a combat decides at once and in secret (R-secret-bids): while the bids are open,
every seat that still seals a bid is active. A bid is sealed one compartment at a time (one in
the simplified combat, Force / Tactics / Mobility in the standard one): ``bid <n>``, at most
the stake left, the last compartment at least what must be spent (the naval bonus,
R-ship-bonus; a tribe's whole stake, R-tribe-die). A sealed part is seen by its bidder only,
the others see how many compartments are sealed, and the last part of the last bid reveals them
all (so that step cannot be undone). A neutral tribe's bid is sealed by its controller
(R-tribe-controller).

The state is ``state["bids"]``: ``parts`` (how many compartments), and per side (a seat as a
string, or ``tribe``): ``stake`` (the phalanxes it may bid), ``need`` (the least it must bid),
``by`` (the seat that seals it) and ``sealed`` (the compartments sealed so far).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat, Secret, Text, seat_ref
from bot.games.kit import clone, typed
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE, Side
from bot.games.mesopotamia.state import MesopotamiaState

ROWS: tuple[str, ...] = tuple(D.COMBAT_DATA["rules"]["rows"]["ids"])
"""The compartments of the standard combat, in order (:data:`standard.ROWS`)."""


def open_bids(state: MesopotamiaState, stakes: dict[Side, int], parts: int,
              need: dict[Side, int] | None = None, by: dict[Side, Seat] | None = None) -> None:
    """Open the bids of the sides of ``stakes`` (side -> phalanxes it may bid); ``need``: the
    least each must bid (0 if not given); ``by``: the seat sealing a side (a seat seals its
    own)."""
    keys = {str(s): s for s in stakes}
    state["bids"] = {"parts": parts, "stake": {k: int(stakes[s]) for k, s in keys.items()},
                     "need": {k: int((need or {}).get(s, 0)) for k, s in keys.items()},
                     "by": {k: int((by or {}).get(s, s)) for k, s in keys.items()},
                     "sealed": {k: [] for k in keys}}


def side(key: str) -> Side:
    """The side a JSON key names."""
    return key if key == TRIBE else int(key)


def _open(bids: dict[str, Any]) -> list[str]:
    """The sides whose bid is not wholly sealed."""
    return [k for k, b in bids["sealed"].items() if len(b) < bids["parts"]]


def sealing(state: MesopotamiaState, seat: Seat) -> str | None:
    """The side ``seat`` seals now, if any."""
    bids = state.get("bids")
    return None if not bids else next((k for k in _open(bids) if bids["by"][k] == seat), None)


def active(state: MesopotamiaState) -> list[Seat]:
    """The seats still to seal a bid (every one of them decides now)."""
    bids = state.get("bids")
    return [] if not bids else sorted({int(bids["by"][k]) for k in _open(bids)})


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """``bid <n>`` for the next compartment of the bid ``seat`` seals: at most the stake left,
    the last compartment at least what must still be spent."""
    key = sealing(state, seat)
    if key is None:
        return []
    bids = state["bids"]
    sealed = bids["sealed"][key]
    left = int(bids["stake"][key]) - sum(sealed)
    last = len(sealed) == int(bids["parts"]) - 1
    low = max(0, int(bids["need"][key]) - sum(sealed)) if last else 0
    return [f"bid {n}" for n in range(low, left + 1)]


def commit(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Seal the legal part ``notation`` of the bid ``seat`` seals."""
    key = sealing(state, seat)
    state["bids"]["sealed"][key].append(int(notation.split()[1]))


def revealed(state: MesopotamiaState) -> dict[Side, list[int]] | None:
    """Every bid once the last one is sealed, else None."""
    bids = state.get("bids")
    if not bids or _open(bids):
        return None
    return {side(k): list(b) for k, b in bids["sealed"].items()}


def seal_forced(state: MesopotamiaState) -> None:
    """Seal by themselves the parts that have a single possible value."""
    for seat in active(state):
        while len(options := legal(state, seat)) == 1:
            commit(state, seat, options[0])


def reveals(state: MesopotamiaState, seat: Seat, notation: str) -> bool:
    """True when ``seat`` sealing ``notation`` reveals every bid: it is the last part left but
    for parts with a single possible value (so that step cannot be undone)."""
    trial = typed(MesopotamiaState, {"bids": clone(state["bids"])})
    commit(trial, seat, notation)
    seal_forced(trial)
    return revealed(trial) is not None


def view(state: MesopotamiaState, seat: Seat | None) -> dict[str, Any] | None:
    """The bids as ``seat`` sees them: stakes, how many compartments each side sealed, the
    parts ``seat`` sealed itself, and all of them once revealed."""
    bids = state.get("bids")
    if not bids:
        return None
    shown = revealed(state) is not None
    return {"parts": bids["parts"], "stake": dict(bids["stake"]), "need": dict(bids["need"]),
            "by": dict(bids["by"]), "count": {k: len(b) for k, b in bids["sealed"].items()},
            "sealed": {k: list(b) if shown or bids["by"][k] == seat else None
                       for k, b in bids["sealed"].items()}}


def guess(shown: dict[str, Any] | None) -> dict[str, Any] | None:
    """Bids that fit a :func:`view`: a hidden bid put wholly in its first compartment."""
    if shown is None:
        return None
    sealed = {k: b if b is not None else
              [int(shown["need"][k]), *[0] * (int(shown["count"][k]) - 1)][:shown["count"][k]]
              for k, b in shown["sealed"].items()}
    return {"parts": shown["parts"], "stake": dict(shown["stake"]),
            "need": dict(shown["need"]), "by": dict(shown["by"]), "sealed": sealed}


def secrets(state: MesopotamiaState) -> list[Secret]:
    """Each bid sealed (even in part) before the reveal, read by its bidder only; a bid with a
    single possible value (no stake; one compartment that must take the whole stake) is no
    secret."""
    bids = state.get("bids")
    if not bids or revealed(state) is not None:
        return []
    return [Secret(sealed_text(side(k), b, int(bids["parts"])), frozenset({int(bids["by"][k])}))
            for k, b in bids["sealed"].items() if b and not _forced(bids, k)]


def _forced(bids: dict[str, Any], key: str) -> bool:
    stake = int(bids["stake"][key])
    return stake == 0 or (bids["parts"] == 1 and stake == int(bids["need"][key]))


def who(side_: Side) -> Text:
    """A side as read: a seat, or the neutral tribe."""
    return Text.of("mesopotamia.tribe") if side_ == TRIBE else seat_ref(int(side_))


def sealed_text(side_: Side, bid: list[int], parts: int) -> Text:
    """What ``side_`` sealed in a combat of ``parts`` compartments: « Alice bid 3 Phalanxes »,
    or « Alice bid 3 on Force, 1 on Tactics » (every compartment sealed so far, in order; what
    only the bidder may read before the reveal)."""
    if parts == 1:
        return Text.of("mesopotamia.sealed_one", who=who(side_),
                       phalanxes=Text.of("mesopotamia.amount.phalanx", n=bid[0]))
    return Text.of("mesopotamia.sealed", who=who(side_), parts=tuple(
        Text.of("mesopotamia.on_row", n=n, row=Text.of(f"mesopotamia.fight.row.{row}"))
        for n, row in zip(bid, ROWS, strict=False)))
