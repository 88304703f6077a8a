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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

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

    @classmethod
    def list_and(cls, items: Sequence[Text]) -> Text:
        """``items`` read as one list: "A", "A and B", "A, B and C"."""
        if len(items) == 1:
            return items[0]
        return cls.of("core.list_and", items=tuple(items[:-1]), last=items[-1])

    @property
    def kwargs(self) -> dict[str, TextArg]:
        """The arguments as a dict."""
        return dict(self.args)


def seat_ref(seat: Seat) -> Text:
    """A seat inside a Text ("{who} offers a trade"): the front end writes its player's
    name (see :func:`bot.i18n.translate`)."""
    return Text.of("core.seat", seat=seat)


@dataclass(frozen=True)
class Action:
    """One legal step: its canonical notation and a readable label.

    ``notation`` round-trips through :meth:`Game.parse`. ``label`` is what a
    player reads in autocomplete, buttons and logs. ``group`` is a short,
    stable category (for example ``"war"``) that front ends may use to lay out
    buttons or per-game commands. ``path`` lets a panel ask a long list one choice
    at a time, broadest first, the last naming the step itself (``(tile A1, War face
    up)``): steps sharing a first choice are offered behind it. ``closes_turn`` says
    that nothing but ending the turn can follow the step: a panel may do both in one
    press. ``offered`` False marks a step nobody chooses, only a clock applies (no answer
    given in time): legal, but panels, question buttons and suggestions leave it out.
    """

    notation: str
    label: Text
    group: str = ""
    path: tuple[Text, ...] = ()
    closes_turn: bool = False
    offered: bool = True


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``scores`` has one entry per seat, then one per non-player side named in ``sides``
    (an automaton, the game itself): entry ``i`` is seat ``i`` for ``i < n_seats``, else
    side ``sides[i - n_seats]``. ``ranking`` lists groups of tied entries, best first;
    ``winners`` is ``ranking[0]``. ``together`` says that all the players won or lost
    together (cooperative or solo play), with ``team_score`` if the game gives one.
    ``tiebreak`` explains how a tie on score was broken (or that the win is shared), or
    is None when there was none. ``details`` holds per-seat explanations.
    """

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: Text | None = None
    details: tuple[Text, ...] = ()
    sides: tuple[Text, ...] = ()
    together: Literal["won", "lost"] | None = None
    team_score: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The entries ranked first (seats, or a side's index)."""
        return self.ranking[0] if self.ranking else ()

    @property
    def n_seats(self) -> int:
        """How many entries of ``scores`` are seats."""
        return len(self.scores) - len(self.sides)

    def side(self, entry: int) -> Text | None:
        """The name of the non-player side ``entry``, or None when it is a seat."""
        return self.sides[entry - self.n_seats] if entry >= self.n_seats else None

    def seat_won(self, seat: Seat) -> bool:
        """True if ``seat`` is among the winners (or all players won together)."""
        return self.together == "won" or (self.together is None and seat in self.winners)

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly summary: scores per seat and the winners (and, when the game
        has them, the non-player sides and the shared result)."""
        data: dict[str, Any] = {"scores": list(self.scores), "winners": list(self.winners)}
        if self.sides:
            data["sides"] = [s.key for s in self.sides]
        if self.together is not None:
            data["together"] = self.together
            data["team_score"] = self.team_score
        return data


@dataclass(frozen=True)
class Report:
    """What one step did, as each reader may know it.

    ``public`` is what everyone reads (the turn summary, ``/game log``, reminders);
    ``private`` gives some seats their own version instead. Like a label, a report is
    read after the player's name, in the third person ("Alice draws a card", "Alice draws
    Hammurabi" for Alice herself, "Bob rolls 5"), so it does not name the one who acted.
    ``announce`` asks the front end to tell the channel at once, not only in the turn
    summary (a reveal, a quiz answer, a roll that matters now). A ``quiet`` step goes
    without saying (ending the turn, stopping an action): a summary leaves it out when the
    player did something else. A report's further lines tell what the game then did by
    itself (a round ends): they stand on their own, a quiet step's too. ``detail``, when set,
    is told once where the step is announced (the post of the question it answers) instead
    of the public line, and never in turn summaries: a whole sentence (it names the player),
    such as a quiz answer with its explanation.
    """

    public: Text
    private: tuple[tuple[Seat, Text], ...] = ()
    announce: bool = False
    quiet: bool = False
    detail: Text | None = None

    def for_seat(self, seat: Seat | None) -> Text:
        """What ``seat`` reads (None: the public text)."""
        for owner, text in self.private:
            if owner == seat:
                return text
        return self.public


@dataclass(frozen=True)
class Prompt:
    """What a seat's panel asks now (the quiz question, the cards offered), beside the
    options that ``legal`` gives. A ``public`` prompt is also posted in the channel with
    the seat's options as buttons that only that seat may press."""

    text: Text
    public: bool = False


@dataclass(frozen=True)
class Deadline:
    """The clock of a pending decision: the step applied for the seat when it runs out.

    ``seconds`` counts from the moment the decision was put to the seat; None means the
    decision has no clock of its own and waits for the game's turn limit (whose "ai"
    policy then applies ``default``, not the AI's choice).
    """

    default: Action
    seconds: float | None = None


@dataclass(frozen=True)
class Secret:
    """A value (a card's name, a sealed bid) that only ``readers`` may read now; nobody
    when empty (a card in the deck). Tests search every view and every message sent to
    anyone else for it (a :class:`Text` in every language)."""

    value: str | Text
    readers: frozenset[Seat] = frozenset()


Secrets: TypeAlias = "Collection[Secret]"
"""What :meth:`Game.secrets` declares."""


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


def checked_notation(game: str, text: str, verbs: Collection[str], active: bool,
                     legal: Collection[str]) -> str:
    """``text`` as the canonical notation of a game whose steps are lower-case words, all
    legal steps listed in ``legal``: BadNotation (``<game>.err.notation``) when its first
    word is none of ``verbs``, NotYourTurn (``<game>.err.not_yours``) when the seat is not
    ``active``, IllegalMove (``<game>.err.illegal``) when the step is not legal now."""
    words = text.strip().lower().split()
    if not words or words[0] not in verbs:
        raise BadNotation(Text.of(f"{game}.err.notation", text=text[:100]))
    notation = " ".join(words)
    if not active:
        raise NotYourTurn(Text.of(f"{game}.err.not_yours"))
    if notation not in legal:
        raise IllegalMove(Text.of(f"{game}.err.illegal", text=notation))
    return notation


@dataclass(frozen=True)
class OptionSpec:
    """One setup option a game accepts (shown by ``/game new``)."""

    name: str
    description: Text
    choices: tuple[str, ...] = ()
    default: str = ""


@dataclass(frozen=True)
class Ladder:
    """A ranking of its own for the games one member plays alone against the game itself
    with ``options`` (names and values; an option missing from a record has its default):
    such a game changes no rating of the game's ranking between members."""

    key: str
    name: Text
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GameMeta:
    """Static facts about a game."""

    id: str
    name: Text
    min_players: int
    max_players: int
    rules_summary: Text
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)
    hidden_information: bool = False
    """True when some seat may not see everything (hands, decks, sealed bids, future
    draws): views then differ per seat, running games export only what the caller may
    see, and the AI averages over several guesses of what it cannot see."""
    ladders: tuple[Ladder, ...] = ()
    """The solo rankings, first match first (:class:`Ladder`)."""


@runtime_checkable
class Game(Protocol):
    """The engine contract: the core drives every game through it. Every method is pure."""

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
        """A cautious step for ``seat`` when its turn is skipped (a vote to skip), or None
        to let the AI decide."""
        ...

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        """What the step ``action`` of ``seat`` from ``before`` to ``after`` did: what
        everyone may read, and what some seats read instead (see :class:`Report`)."""
        ...

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """What ``seat``'s current decision asks, beside its legal options, or None."""
        ...

    def deadline(self, state: State, seat: Seat) -> Deadline | None:
        """The clock and default step of ``seat``'s current decision, or None."""
        ...

    def secrets(self, state: State) -> Secrets:
        """The values that only some seats (or nobody) may read now, for tests to search
        every view and message for."""
        ...

    def ai_step(self, state: State, seat: Seat, legal: list[Action],
                rng: random.Random) -> Action | None:
        """The step an AI seat takes in ``state`` (its guess of the game) when the game
        decides it rather than the AI's search (a quiz answered right with some chance),
        or None to let the search decide."""
        ...

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's score so far as everyone may read it ("12 points", "1 complete
        set, 350 points"), for ``/game status``; empty when the game shows none."""
        ...


class GameDefaults:
    """The usual answers to the parts of the contract that many games need not change:
    a game inherits them and overrides what it has."""

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """True: the core itself knows that a step which drew randomness is final."""
        return True

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """None: the AI decides for a skipped turn."""
        return None

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        """The step's label, for everyone (a game without secrets); ending the turn goes
        without saying."""
        return Report(action.label, quiet=action.group == "end")

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """No prompt beyond the options."""
        return None

    def deadline(self, state: State, seat: Seat) -> Deadline | None:
        """No clock beyond the game's turn limit."""
        return None

    def secrets(self, state: State) -> Secrets:
        """Nothing secret."""
        return ()

    def ai_step(self, state: State, seat: Seat, legal: list[Action],
                rng: random.Random) -> Action | None:
        """None: the AI's search decides every step."""
        return None

    def standing(self, state: State) -> tuple[Text, ...]:
        """No score before the end."""
        return ()
