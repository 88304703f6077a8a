"""The contract every game implements, and the value types shared by all games.

A game is an object satisfying :class:`Game`. The core (session, store, cogs,
local play, AI, replay) drives games only through this interface, so it never
needs to know which game it runs.

States are JSON-serialisable dicts (the game's RNG state lives inside them);
engines never mutate a state they are given: ``apply`` returns a new one.
User-facing words are :class:`Text` values (a catalogue key plus arguments),
translated later by :mod:`bot.i18n`, so engines stay free of languages.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, runtime_checkable

State: TypeAlias = dict[str, Any]
"""A game state: a JSON-serialisable dict."""

Seat: TypeAlias = int
"""A seat index, 0-based, in turn order."""

TextArg: TypeAlias = "str | int | float | Text | tuple[Text, ...] | None"


@dataclass(frozen=True)
class Text:
    """A translatable message: a catalogue key and its named arguments.

    Arguments may themselves be :class:`Text` (translated recursively) or a
    tuple of :class:`Text` (translated and joined with the catalogue's
    list separator).
    """

    key: str
    args: tuple[tuple[str, TextArg], ...] = ()

    @classmethod
    def of(cls, key: str, **args: TextArg) -> Text:
        """Build a Text from keyword arguments."""
        return cls(key, tuple(sorted(args.items())))

    @property
    def kwargs(self) -> dict[str, TextArg]:
        """The arguments as a dict."""
        return dict(self.args)


@dataclass(frozen=True)
class Action:
    """One legal step: its canonical notation and a readable label.

    ``notation`` round-trips through :meth:`Game.parse`. ``label`` is what a
    player reads in autocomplete, buttons and logs. ``group`` is a short,
    stable category (for example ``"war"``) that front ends may use to lay out
    buttons or per-game commands.
    """

    notation: str
    label: Text
    group: str = ""


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``scores`` is indexed by seat. ``ranking`` lists groups of tied seats, best
    first; ``winners`` is ``ranking[0]``. ``tiebreak`` explains how a tie on
    score was broken (or that the win is shared), or is None when there was none.
    ``details`` holds per-seat explanations (for example the sets scored).
    """

    scores: tuple[int, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    tiebreak: Text | None = None
    details: tuple[Text, ...] = ()

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats ranked first."""
        return self.ranking[0] if self.ranking else ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly summary: scores per seat and the winners."""
        return {"scores": list(self.scores), "winners": list(self.winners)}


class GameError(Exception):
    """Base class of rule errors. ``reason`` is a translatable explanation."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.key)
        self.reason = reason


class IllegalMove(GameError):
    """A well-formed step that the rules forbid now; the state is unchanged."""


class BadNotation(GameError):
    """Text that is not a step of this game at all."""


class NotYourTurn(GameError):
    """A step by a seat that is not active."""


@dataclass(frozen=True)
class OptionSpec:
    """One setup option a game accepts (shown by ``/game new``)."""

    name: str
    description: Text
    choices: tuple[str, ...] = ()
    default: str = ""


@dataclass(frozen=True)
class GameMeta:
    """Static facts about a game."""

    id: str
    name: Text
    min_players: int
    max_players: int
    rules_summary: Text
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)


@runtime_checkable
class Game(Protocol):
    """The engine contract (see DESIGN.md). Every method is pure."""

    meta: GameMeta

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        """A fresh state for ``n_players`` seats; all randomness comes from ``seed``."""
        ...

    def active(self, state: State) -> list[Seat]:
        """The seats whose decision it is; empty when the game is over."""
        ...

    def legal(self, state: State, seat: Seat) -> list[Action]:
        """Every legal next step for ``seat`` (empty if it is not active)."""
        ...

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        """The legal action written ``text``; raises BadNotation or IllegalMove."""
        ...

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        """A new state after the step; raises a GameError and changes nothing."""
        ...

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (None = public). Hidden information is removed here."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """Final scores and ranking, or None while the game goes on."""
        ...

    def turn_number(self, state: State) -> int:
        """A counter that increases by one each time a turn ends.

        The front end posts a new turn message when it changes, and undo never
        crosses it.
        """
        ...

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """False if applying ``action`` in ``state`` draws randomness or reveals secrets."""
        ...

    def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        """A full state consistent with ``view`` (hidden parts sampled with ``rng``).

        Lets a generic AI search; for a game without hidden information this
        simply rebuilds the state from the view.
        """
        ...

    def heuristic(self, state: State, seat: Seat) -> float:
        """How good ``state`` looks for ``seat`` (higher is better); used by the AI."""
        ...

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """The step applied when ``seat``'s clock runs out, or None to use the policy."""
        ...
