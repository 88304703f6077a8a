"""Replaying an action log: the state is always ``setup(seed)`` plus the logged steps.

Used by terminal play (``--script`` and undo) and by anything that rebuilds a
game from its log (undo, import, checks that a stored state is consistent).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Game, GameError, Report, Seat, State, Text


class LoggedStep(Protocol):
    """Anything that names a seat and the notation it played (e.g. a log row)."""

    @property
    def seat(self) -> Seat: ...

    @property
    def notation(self) -> str: ...


@dataclass(frozen=True)
class Step:
    """One logged step: the seat that played and its notation."""

    seat: Seat
    notation: str


class ReplayError(Exception):
    """A logged step the engine refused; ``index`` is its 0-based position in the log."""

    def __init__(self, index: int, step: LoggedStep, reason: Text) -> None:
        super().__init__(f"step {index} ({step.seat}: {step.notation!r}): {reason.key}")
        self.index = index
        self.step = step
        self.reason = reason


def _apply_one(game: Game, state: State, index: int, step: LoggedStep) -> State:
    try:
        return game.apply(state, step.seat, step.notation)
    except GameError as error:
        raise ReplayError(index, step, error.reason) from error


def iter_states(game: Game, state: State, steps: Iterable[LoggedStep]) -> Iterator[State]:
    """The states after each of ``steps``, applied in order from ``state``.

    Raises :class:`ReplayError` at the first step the engine refuses.
    """
    for index, step in enumerate(steps):
        state = _apply_one(game, state, index, step)
        yield state


def iter_reports(game: Game, state: State, steps: Iterable[LoggedStep]
                 ) -> Iterator[tuple[Report, State]]:
    """Each of ``steps`` applied in order from ``state``: its report and the state after.

    Raises :class:`ReplayError` at the first step the engine refuses.
    """
    for index, step in enumerate(steps):
        try:
            action = game.parse(state, step.seat, step.notation)
        except GameError as error:
            raise ReplayError(index, step, error.reason) from error
        after = _apply_one(game, state, index, step)
        yield game.report(state, step.seat, action, after), after
        state = after


def apply_steps(game: Game, state: State, steps: Iterable[LoggedStep]) -> State:
    """The state after applying ``steps`` to ``state`` (``state`` itself if there are none).

    Raises :class:`ReplayError` at the first step the engine refuses.
    """
    for index, step in enumerate(steps):
        state = _apply_one(game, state, index, step)
    return state


def turn_states(game: Game, start: State, steps: Iterable[LoggedStep]) -> list[State]:
    """``start``, then the state at the start of each later turn, then the last state (the
    frames of a replay).

    Raises :class:`ReplayError` at the first step the engine refuses.
    """
    frames, turn, last = [start], game.turn_number(start), start
    for state in iter_states(game, start, steps):
        last = state
        if game.turn_number(state) != turn:
            turn = game.turn_number(state)
            frames.append(state)
    if frames[-1] is not last:
        frames.append(last)
    return frames


def replay(
    game: Game,
    seed: int,
    n_players: int,
    options: Mapping[str, str],
    steps: Iterable[LoggedStep],
) -> State:
    """The state reached by replaying ``steps`` from ``game.setup(seed, n_players, options)``."""
    return apply_steps(game, game.setup(seed, n_players, options), steps)
