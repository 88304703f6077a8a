"""Seat kinds: who takes a seat's steps, asked the same way for every kind.

A seat is a member's (the loop waits for them), the AI's (an AI seat, or a resigned
player's: :class:`AiSeat`), or a scripted opponent's that is no player (an automaton
that acts by its own rules). The turn loop (:meth:`bot.service.autoplay.Autoplay.play_seats`)
asks the first kind that plays an active seat for its step: :class:`Member` answers
None (wait), the others an action.

A scripted seat kind is the extension point: an object with :meth:`SeatKind.plays`
(which seats it takes, from the game, its options and state) and :meth:`SeatKind.step`,
given to the service (``GameService(..., scripted=[...])``); it is asked before the
member and AI kinds. Its seat is seated without a member (``user_id`` None), so the
front ends treat it as any seat no member plays. A game's own scripted opponent is a
:class:`Script` (pure functions of its rules, in the :class:`~bot.catalogue.Catalogue`) played by
:class:`ScriptedSeat`: its seats are added after the lobby's when the game starts, as many
as the game's options ask for (:meth:`SeatKinds.added`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.engine import Action, Game, Seat, State
from bot.records import GameRecord
from bot.scripted import Script

Searcher = Callable[[str, Game, dict[str, Any], list[Action], Seat, str], Awaitable[Action]]
"""Runs an AI policy somewhere off the event loop: (game id, its engine, the seat's view,
legal steps, seat, seed of the policy's random generator) -> action."""


@dataclass(frozen=True)
class Ask:
    """A decision put to a seat: the game, its state, the seat, and the seed of the
    random generator its kind may use (the same game asks the same way: same choices)."""

    game: str
    engine: Game
    state: State
    seat: Seat
    seed: str

    def legal(self) -> list[Action]:
        """The seat's legal steps."""
        return self.engine.legal(self.state, self.seat)

    def view(self) -> dict[str, Any]:
        """What the seat may see."""
        return self.engine.view(self.state, self.seat)


class SeatKind(Protocol):
    """One kind of seat: which seats it plays, and how it takes their steps."""

    def plays(self, record: GameRecord, seat: Seat) -> bool:
        """True if this kind plays ``seat`` of ``record``."""
        ...

    async def step(self, ask: Ask) -> Action | None:
        """The step ``ask``'s seat takes, or None when a member decides (the loop waits)."""
        ...


def member_plays(record: GameRecord, seat: Seat) -> bool:
    """True if a member plays ``seat`` (seated, not resigned)."""
    info = record.seats[seat]
    return info.user_id is not None and not info.resigned


class Member:
    """A member's seat: the loop waits for their step."""

    def plays(self, record: GameRecord, seat: Seat) -> bool:
        """True if a member sits at ``seat`` and has not resigned."""
        return member_plays(record, seat)

    async def step(self, ask: Ask) -> Action | None:
        """None: the member decides."""
        return None


class AiSeat:
    """The AI's seat (an AI seat, or a resigned player's): :mod:`bot.ai` searched by a
    :data:`Searcher` off the event loop."""

    def __init__(self, search: Searcher) -> None:
        self.search = search

    def plays(self, record: GameRecord, seat: Seat) -> bool:
        """True if no member plays ``seat``."""
        return not member_plays(record, seat)

    async def step(self, ask: Ask) -> Action:
        """The AI's choice among the seat's legal steps, from what the seat may see (the
        only one without a search, as :func:`bot.ai.choose` would take it)."""
        legal = ask.legal()
        if len(legal) == 1:
            return legal[0]
        return await self.search(ask.game, ask.engine, ask.view(), legal, ask.seat, ask.seed)


class ScriptedSeat:
    """The seat of a game's :class:`Script`: its step is the script's, parsed (so checked)
    by the engine."""

    def __init__(self, script: Script) -> None:
        self.script = script

    def plays(self, record: GameRecord, seat: Seat) -> bool:
        """True for a seat of a started game of the script's that the script plays."""
        return self.script.plays_seat(record, seat)

    async def step(self, ask: Ask) -> Action:
        """The script's step, as the engine parses it."""
        return ask.engine.parse(ask.state, ask.seat, self.script.step(ask.state, ask.seat))


class SeatKinds:
    """The kinds of seat a service knows: the scripted ones first, then members, then the
    AI (which plays every seat no member plays)."""

    def __init__(self, ai: AiSeat, scripted: Sequence[SeatKind] = ()) -> None:
        self.ai = ai
        self.kinds: tuple[SeatKind, ...] = (*scripted, Member(), ai)

    def script(self, game: str) -> Script | None:
        """The scripted opponent of ``game``, if it has one."""
        return next((kind.script for kind in self.kinds if isinstance(kind, ScriptedSeat)
                     and kind.script.game == game), None)

    def added(self, game: str, options: Mapping[str, str]) -> list[str]:
        """The names of the seats the scripted opponents of ``game`` take in a new game
        with ``options`` (added after the lobby's seats at the start)."""
        return [kind.script.name for kind in self.kinds if isinstance(kind, ScriptedSeat)
                and kind.script.game == game for _ in range(kind.script.seats(options))]

    def of(self, record: GameRecord, seat: Seat) -> SeatKind:
        """The kind that plays ``seat`` of ``record``."""
        return next(kind for kind in self.kinds if kind.plays(record, seat))
