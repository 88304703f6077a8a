"""The export document of a game, its validation and its replay.

Format (JSON object, ``format_version`` 1)::

    {
      "format": "dingir-game",
      "format_version": 1,
      "game": "ur",                      # engine id
      "options": {"name": "value"},      # setup options
      "seed": 123456789,                 # setup seed
      "seats": [{"seat": 0, "name": "Ann", "user_id": 42 | null, "resigned": false}],
      "settings": {"reminder_hours": 24.0, ...},
      "lang": "en",
      "status": "running" | "finished" | "paused" | "aborted",
      "log": [{"seat": 0, "notation": "place B3", "turn": 0}],   # effective steps, in order
      "state_sha256": "...",             # digest of the final state (canonical JSON)
      "outcome": {"scores": [...], "winners": [...], ...}   # a finished game's result
    }

The state is never exported: importing replays ``log`` from
``setup(seed, len(seats), options)`` through the engine, and refuses the
document (naming the failing log line, 1-based) if a step does not apply or if
the replayed state's digest differs from ``state_sha256``.

A game exports complete (the form above) when it has finished, when it hides nothing
(``meta.hidden_information`` False) or when it never started (a lobby: its seed is not
drawn yet). A game with hidden information (hands, decks, sealed bids, future draws)
that has not finished, running, paused or aborted, is exported only as its caller may
see it: ``"complete": false``, no seed, no digest, each step as ``{"seat", "turn",
"text"}`` (what the caller may read of it, plus ``"notation"`` for the caller's own
steps) and the caller's ``"view"``. Such a document cannot be imported; nor can any
document of a game with hidden information whose log does not replay to the game's end,
whatever its ``status`` says (the seed and the log would let its holder play on knowing
every hand and draw).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Action, Game, GameError, Seat, State, Text
from bot.records import ServiceError

FORMAT = "dingir-game"
FORMAT_VERSION = 1
ID_LIMIT = 2**63
"""Seeds and user ids are below this (SQLite's integers; Discord's ids)."""


class DocumentError(ServiceError):
    """An export document that cannot be imported; ``reason`` says why."""


@dataclass(frozen=True)
class SeatEntry:
    """A seat of an exported game."""

    seat: Seat
    name: str
    user_id: int | None
    resigned: bool = False


@dataclass(frozen=True)
class LogLine:
    """One exported step."""

    seat: Seat
    notation: str


@dataclass(frozen=True)
class Document:
    """A validated export document."""

    game: str
    options: dict[str, str]
    seed: int
    seats: tuple[SeatEntry, ...]
    settings: dict[str, Any]
    lang: str
    status: str
    log: tuple[LogLine, ...]
    state_sha256: str | None


@dataclass(frozen=True)
class ReplayedStep:
    """A log line as replayed: the action, the turn it was played in, whether reversible."""

    seat: Seat
    action: Action
    turn: int
    reversible: bool


@dataclass(frozen=True)
class Replayed:
    """The result of replaying a document's log."""

    state: State
    turn_start_state: State
    steps: tuple[ReplayedStep, ...]
    start_state: State


def state_digest(state: State) -> str:
    """SHA-256 of the canonical JSON of ``state``."""
    canonical = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def build(
    *,
    game: str,
    options: Mapping[str, str],
    seed: int,
    seats: Sequence[SeatEntry],
    settings: Mapping[str, Any],
    lang: str,
    status: str,
    log: Sequence[LogLine],
    state: State | None,
    outcome: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The export document (see the module docstring)."""
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game,
        "options": dict(options),
        "seed": seed,
        "seats": [
            {"seat": s.seat, "name": s.name, "user_id": s.user_id, "resigned": s.resigned}
            for s in seats
        ],
        "settings": dict(settings),
        "lang": lang,
        "status": status,
        "log": [{"seat": line.seat, "notation": line.notation} for line in log],
        "state_sha256": state_digest(state) if state is not None else None,
    }
    if outcome is not None:
        document["outcome"] = outcome
    return document


def build_partial(
    *,
    game: str,
    options: Mapping[str, str],
    seats: Sequence[SeatEntry],
    settings: Mapping[str, Any],
    lang: str,
    status: str,
    log: Sequence[dict[str, Any]],
    view: dict[str, Any],
) -> dict[str, Any]:
    """The export of a running game as its caller may see it (see the module docstring)."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "complete": False,
        "game": game,
        "options": dict(options),
        "seats": [
            {"seat": s.seat, "name": s.name, "user_id": s.user_id, "resigned": s.resigned}
            for s in seats
        ],
        "settings": dict(settings),
        "lang": lang,
        "status": status,
        "log": list(log),
        "view": view,
    }


def _bad(field: str) -> DocumentError:
    return DocumentError(Text.of("service.import_bad_field", field=field))


def _int(value: Any, field: str, low: int = 0, high: int = ID_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise _bad(field)
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(field)
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise _bad(field)
    return value


def _seat(value: Any, index: int) -> SeatEntry:
    where = f"seats[{index}]"
    if not isinstance(value, dict):
        raise _bad(where)
    user = value.get("user_id")
    if user is not None:
        user = _int(user, f"{where}.user_id", low=1)
    _int(value.get("seat"), f"{where}.seat", low=index, high=index + 1)
    return SeatEntry(index, _str(value.get("name"), f"{where}.name")[:100], user,
                     _bool(value.get("resigned", False), f"{where}.resigned"))


def _distinct(seats: tuple[SeatEntry, ...]) -> tuple[SeatEntry, ...]:
    """The seats, unless one person holds two of them (refused, naming both seats: a
    refusal never quotes a user id, which would mention them)."""
    seen: dict[int, Seat] = {}
    for seat in seats:
        if seat.user_id is not None:
            if seat.user_id in seen:
                raise DocumentError(Text.of("service.import_same_player",
                                            first=seen[seat.user_id] + 1, second=seat.seat + 1))
            seen[seat.user_id] = seat.seat
    return seats


def _line(value: Any, index: int, n_seats: int) -> LogLine:
    where = f"log[{index}]"
    if not isinstance(value, dict):
        raise _bad(where)
    seat = _int(value.get("seat"), f"{where}.seat", high=n_seats)
    return LogLine(seat, _str(value.get("notation"), f"{where}.notation"))


def parse(document: Any) -> Document:
    """Check the shape of an export document; raises DocumentError naming the bad field."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError(Text.of("service.import_not_export"))
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        shown = str(version) if type(version) is int and abs(version) < 1000 else "?"
        raise DocumentError(Text.of("service.import_version", version=shown))
    if document.get("complete", True) is not True:
        raise DocumentError(Text.of("service.import_incomplete"))
    options = document.get("options", {})
    if not isinstance(options, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in options.items()
    ):
        raise _bad("options")
    seats = document.get("seats")
    if not isinstance(seats, list) or not seats:
        raise _bad("seats")
    log = document.get("log")
    if not isinstance(log, list):
        raise _bad("log")
    settings = document.get("settings", {})
    if not isinstance(settings, dict):
        raise _bad("settings")
    digest = document.get("state_sha256")
    if digest is not None:
        digest = _str(digest, "state_sha256")
    return Document(
        game=_str(document.get("game"), "game"),
        options=dict(options),
        seed=_int(document.get("seed"), "seed"),
        seats=_distinct(tuple(_seat(s, i) for i, s in enumerate(seats))),
        settings=settings,
        lang=_str(document.get("lang", "en"), "lang"),
        status=_str(document.get("status", "running"), "status"),
        log=tuple(_line(line, i, len(seats)) for i, line in enumerate(log)),
        state_sha256=digest,
    )


def replay(engine: Game, document: Document) -> Replayed:
    """Replay the document's log from setup; raises DocumentError at the first bad line
    (1-based ``line``) or when the final state's digest differs from the document's."""
    state = start = engine.setup(document.seed, len(document.seats), document.options)
    turn_start = state
    steps: list[ReplayedStep] = []
    for number, line in enumerate(document.log, start=1):
        turn = engine.turn_number(state)
        try:
            action = engine.parse(state, line.seat, line.notation)
            reversible = engine.is_reversible(state, line.seat, action)
            state = engine.apply(state, line.seat, action)
        except GameError as error:
            raise DocumentError(
                Text.of("service.import_bad_step", line=number, notation=line.notation,
                        reason=error.reason)
            ) from error
        steps.append(ReplayedStep(line.seat, action, turn, reversible))
        if engine.turn_number(state) != turn:
            turn_start = state
    if document.state_sha256 is not None and state_digest(state) != document.state_sha256:
        raise DocumentError(Text.of("service.import_digest"))
    return Replayed(state, turn_start, tuple(steps), start)
