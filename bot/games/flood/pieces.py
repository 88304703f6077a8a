"""The small moves of pieces and goods that the steps and the automatic phases share:
resources to and from the bank, workers and armies placed, spent or lost, points scored."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.flood.state import FloodState


def take_bank(state: FloodState, seat: Seat, res: str, count: int) -> int:
    """Give ``seat`` up to ``count`` of ``res`` from the bank; how many it got."""
    got = min(count, state["bank"][res])
    state["bank"][res] -= got
    state["res"][seat][res] += got
    return int(got)


def to_bank(state: FloodState, seat: Seat, res: str, count: int = 1) -> None:
    state["res"][seat][res] -= count
    state["bank"][res] += count


def lose_workers(state: FloodState, seat: Seat, place: str, count: int) -> int:
    """Remove up to ``count`` of ``seat``'s workers from ``place`` to the unavailable stock
    (workers on the right of a box first)."""
    count = min(count, state["on"][place][seat])
    if count <= 0:
        return 0
    state["on"][place][seat] -= count
    if place in state["used"]:
        used = state["used"][place]
        used[seat] = max(0, used[seat] - count)
    state["workers"]["unavail"][seat] += count
    return int(count)


def put_worker(state: FloodState, seat: Seat, place: str, count: int = 1) -> None:
    """Put ``count`` workers of ``seat`` in ``place`` (from wherever the caller took them):
    a new scribe enters on the right (used this round), a toolmaker on the left."""
    state["on"][place][seat] += count
    if place == "scribes":
        state["used"]["scribes"][seat] += count


def place_armies(state: FloodState, seat: Seat, region: str, count: int) -> None:
    state["armies"]["avail"][seat] -= count
    state["troops"][region][seat] += count


def spend_armies(state: FloodState, seat: Seat, count: int) -> None:
    """Available armies spent: they become unavailable."""
    state["armies"]["avail"][seat] -= count
    state["armies"]["unavail"][seat] += count


def pay(state: FloodState, seat: Seat, kind: str) -> None:
    if kind == "army":
        spend_armies(state, seat, 1)
    elif kind == "worker":
        state["workers"]["avail"][seat] -= 1
        state["workers"]["unavail"][seat] += 1
    else:
        to_bank(state, seat, kind)


def score(state: FloodState, seat: Seat, source: str, points: int) -> None:
    state["vp"][seat] += points
    state["vp_from"][seat][source] += points
