"""Sealed bids in the Standard of Ur (not wired into the engine yet).

« vous décidez en secret du nombre de Phalanges à investir : aucune, une partie, ou tout. »
Every side of a combat decides at once and in secret (R-secret-bids): while the bids are open,
every seat that has not bid is active, its legal steps are ``bid <a> [<b> <c>]`` (one number per
compartment: one in the simplified combat, Force / Tactics / Mobility in the standard one, the
sum at most its stake), a committed bid is seen by its bidder only, and the last bid reveals
them all (so that step cannot be undone). The state is ``state["bids"]``: ``parts`` (how many
compartments), ``stake`` (seat -> the phalanxes it may bid) and ``sealed`` (seat -> its bid, or
None); seats are JSON keys (strings).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from bot.engine import Seat, Secret, State, Text, seat_ref


def open_bids(state: State, stakes: dict[Seat, int], parts: int) -> None:
    """Open the bids of the seats of ``stakes`` (seat -> phalanxes it may bid)."""
    state["bids"] = {"parts": parts, "stake": {str(s): int(n) for s, n in stakes.items()},
                     "sealed": {str(s): None for s in stakes}}


def active(state: State) -> list[Seat]:
    """The seats still to bid (every one of them decides now)."""
    bids = state.get("bids")
    return [] if not bids else sorted(int(s) for s, b in bids["sealed"].items() if b is None)


def legal(state: State, seat: Seat) -> list[str]:
    """Every bid ``seat`` may seal: any split of at most its stake over the compartments."""
    if seat not in active(state):
        return []
    bids = state["bids"]
    stake = int(bids["stake"][str(seat)])
    splits = (p for p in product(range(stake + 1), repeat=int(bids["parts"]))
              if sum(p) <= stake)
    return ["bid " + " ".join(str(n) for n in p) for p in splits]


def commit(state: State, seat: Seat, notation: str) -> None:
    """Seal ``seat``'s legal bid ``notation``."""
    state["bids"]["sealed"][str(seat)] = [int(n) for n in notation.split()[1:]]


def revealed(state: State) -> dict[Seat, list[int]] | None:
    """Every bid once the last one is sealed, else None."""
    bids = state.get("bids")
    if not bids or any(b is None for b in bids["sealed"].values()):
        return None
    return {int(s): list(b) for s, b in bids["sealed"].items()}


def reveals(state: State, seat: Seat) -> bool:
    """True when ``seat``'s bid is the last one (it reveals them all: no undo)."""
    return active(state) == [seat]


def view(state: State, seat: Seat | None) -> dict[str, Any] | None:
    """The bids as ``seat`` sees them: who has bid, its own bid, and all once revealed."""
    bids = state.get("bids")
    if not bids:
        return None
    shown = revealed(state)
    return {"parts": bids["parts"], "stake": dict(bids["stake"]),
            "in": {s: b is not None for s, b in bids["sealed"].items()},
            "sealed": {s: b for s, b in bids["sealed"].items() if b is not None and
                       (shown is not None or (seat is not None and s == str(seat)))}}


def secrets(state: State) -> list[Secret]:
    """Each sealed bid before the reveal, read by its bidder only."""
    bids = state.get("bids")
    if not bids or revealed(state) is not None:
        return []
    return [Secret(sealed_text(int(s), b), frozenset({int(s)}))
            for s, b in bids["sealed"].items() if b is not None]


def sealed_text(seat: Seat, bid: list[int]) -> Text:
    """« <who> bids <a>/<b>/<c> » (what only the bidder may read before the reveal)."""
    return Text.of("mesopotamia.sealed", who=seat_ref(seat), bid="/".join(str(n) for n in bid))
