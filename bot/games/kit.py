"""The kit every game package is built from: one copy of a state, one ``apply``, and the
tuning the contract suite gives a game.

A game's engine class derives from :class:`RulesGame`: it says how a step is checked
(:meth:`RulesGame.checked`) and what it does to a copy of the state
(:meth:`RulesGame.perform`); ``apply`` is the same for every game. See ``bot/games/README.md``.
"""

from __future__ import annotations

import marshal
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from bot.engine import Action, GameDefaults, Seat, State

T = TypeVar("T")
S = TypeVar("S")
StepT = TypeVar("StepT")

MARSHAL_VERSION = 2
"""``marshal``'s format 2 keeps no shared references: a copy is a tree like the stored JSON."""


@dataclass(frozen=True)
class Layout:
    """Which keys of a state hold what, for a faster :func:`clone`: ``flat`` keys hold lists of
    numbers or strings, ``nested`` keys anything else that is not a number, a string, a bool or
    None; every other key must hold one of those (a test checks it for Ur's states)."""

    flat: tuple[str, ...]
    nested: tuple[str, ...]


def clone(value: T, layout: Layout | None = None) -> T:
    """A deep copy of a JSON value (a state is copied at every step, and many times by the AI's
    look-ahead): a round trip through ``marshal``, several times faster than
    ``copy.deepcopy``. With a ``layout`` (Ur's flat state), only the keys that hold lists are
    copied, three times faster."""
    raw: Any = value
    if layout is None:
        return cast(T, marshal.loads(marshal.dumps(raw, MARSHAL_VERSION)))
    state: dict[str, Any] = raw
    new = dict(state)
    for key in layout.flat:
        new[key] = state[key].copy()
    nested = {key: state[key] for key in layout.nested}
    new.update(marshal.loads(marshal.dumps(nested, MARSHAL_VERSION)))
    return cast(T, new)


def typed(kind: type[S], state: State) -> S:
    """``state`` read as the game's own ``TypedDict`` ``kind`` (a state crosses the contract as
    a plain dict; nothing is copied or checked)."""
    return cast(S, state)


def plain(state: Mapping[str, Any]) -> State:
    """A game's typed state as the contract's plain dict (nothing is copied)."""
    return cast(State, state)


def known(value: T | None) -> T:
    """``value``, which the rules guarantee is set where it is read (the action under way of a
    step that belongs to one); a ValueError if it is not."""
    if value is None:
        raise ValueError("a value the rules need is missing")
    return value


def notation_of(action: Action | str) -> str:
    """The text of a step given as an :class:`Action` or as its notation."""
    return action.notation if isinstance(action, Action) else action


def lead(values: list[float], seat: Seat) -> float:
    """``seat``'s value minus the best of the others' (a heuristic's usual last line)."""
    return values[seat] - max(v for other, v in enumerate(values) if other != seat)


@dataclass(frozen=True)
class ContractTuning:
    """How hard ``tests/test_contract.py`` drives a game (its checks are the same for all):
    ``playouts`` random games per player count; ``density``, the share of their steps that get
    the thorough checks (views, every legal step parsed back, determinize); ``ai_games`` games
    with ``ai_seats`` AI seats (None: all) on the fast look-ahead if ``fast_ai`` (the full one
    takes seconds a step in some games); ``max_steps`` before a game counts as endless;
    ``variants``, option sets (as ``(name, value)`` pairs) also played, each in one random and
    one AI game at the fewest players (a game's own scripted opponent seated by them plays its
    seats)."""

    playouts: int = 100
    density: float = 1.0
    ai_games: int = 3
    ai_seats: int | None = None
    fast_ai: bool = False
    max_steps: int = 20_000
    variants: tuple[tuple[tuple[str, str], ...], ...] = ()


DEFAULT_TUNING = ContractTuning()


def tuning_of(game: object) -> ContractTuning:
    """The contract tuning of a game (the default for a game that declares none)."""
    found = getattr(game, "tuning", DEFAULT_TUNING)
    return found if isinstance(found, ContractTuning) else DEFAULT_TUNING


class RulesGame(GameDefaults, ABC, Generic[S, StepT]):
    """The parts of the contract written once for every game: ``apply`` checks the step
    (:meth:`checked`, which raises the game's refusal), copies the state and lets the rules
    change the copy (:meth:`perform`). ``S`` is the game's state type (its ``TypedDict``),
    ``StepT`` what a checked step is for the rules (the canonical notation, or a parsed
    move)."""

    tuning: ClassVar[ContractTuning] = DEFAULT_TUNING
    """How hard the contract suite drives the game (see :class:`ContractTuning`)."""
    layout: ClassVar[Layout | None] = None
    """The layout of the game's states, if its copy needs to be faster (see :func:`clone`)."""

    @abstractmethod
    def checked(self, state: S, seat: Seat, text: str) -> StepT:
        """The step ``text`` of ``seat``, checked legal; raises the GameError that says why
        not."""

    @abstractmethod
    def perform(self, before: S, seat: Seat, step: StepT, after: S) -> None:
        """Carry out the checked ``step`` on ``after``, a copy of ``before``."""

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        """A new state after the step; raises a GameError and changes nothing."""
        before = cast(S, state)
        step = self.checked(before, seat, notation_of(action))
        new = clone(state, self.layout)
        self.perform(before, seat, step, cast(S, new))
        return new
