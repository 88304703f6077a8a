"""A game's public history for its web page: the public board at the start and at the end
of each turn (as the channel sees them) and the words of its turns, replayed from the
action log in a worker process.

A worker keeps the replays it made (:data:`KEPT` games): when a game moves on, the next
request only applies the new steps. Boards are kept as the JSON of the public view
(``engine.view(state, None)``): nothing a seat alone may see is ever kept or drawn.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.beginnings import Beginning, first_state
from bot.engine import Report, Seat, State
from bot.replay import Step, iter_reports
from host import registry
from render.context import RenderContext

KEPT = 32
"""Replays a worker keeps (the games whose pages were read last; a long game of
Mesopotamia takes a few MB)."""

Steps = Sequence[tuple[Seat, str]]
Narrate = Callable[[State, Sequence[tuple[Seat, Report]]], str]
"""The words of a turn's steps (their seats and public reports), given the game's latest
state."""


@dataclass(frozen=True)
class Timeline:
    """What a game's web page shows of its history: ``ends``, the number of steps played at
    the start and at the end of each turn (the boards the page steps through, with the
    current one after them when a turn is under way)."""

    ends: tuple[int, ...]


@dataclass
class _Replay:
    """One game replayed: its steps, their reports, the public board at each end of turn
    (JSON), the state at the start of the current turn and the latest state."""

    steps: list[tuple[Seat, str]]
    reports: list[Report]
    ends: list[int]
    boards: list[str]
    turn_start: State
    state: State
    turn: int = field(default=0)


_KEPT: OrderedDict[tuple[str, int, int, str, bool], _Replay] = OrderedDict()


def _board(game: str, state: State) -> str:
    return json.dumps(registry.get(game).engine.view(state, None), separators=(",", ":"))


def _fresh(beginning: Beginning) -> _Replay:
    engine = registry.get(beginning.game).engine
    start = first_state(engine, beginning)
    return _Replay([], [], [0], [_board(beginning.game, start)], start, start,
                   engine.turn_number(start))


def _replayed(beginning: Beginning, steps: Steps) -> _Replay:
    """The replay of ``steps`` from ``beginning``, extending a kept one when it is a prefix
    of them (or going back to the start of its turn after an undo)."""
    game = beginning.game
    key = (game, beginning.seed, beginning.players,
           json.dumps(beginning.options, sort_keys=True), beginning.state is not None)
    kept = _KEPT.pop(key, None)
    steps = list(steps)
    if kept is not None and kept.steps != steps[:len(kept.steps)]:
        start = kept.ends[-1]
        if kept.steps[:start] == steps[:start]:     # an undo within the current turn
            del kept.steps[start:], kept.reports[start:]
            kept.state = kept.turn_start
        else:
            kept = None
    replay = kept or _fresh(beginning)
    engine = registry.get(game).engine
    new = [Step(seat, notation) for seat, notation in steps[len(replay.steps):]]
    for step, (report, after) in zip(new, iter_reports(engine, replay.state, new),
                                     strict=True):
        replay.steps.append((step.seat, step.notation))
        replay.reports.append(report)
        replay.state = after
        if engine.turn_number(after) != replay.turn:
            replay.turn = engine.turn_number(after)
            replay.ends.append(len(replay.steps))
            replay.boards.append(_board(game, after))
            replay.turn_start = after
    _KEPT[key] = replay
    while len(_KEPT) > KEPT:
        _KEPT.popitem(last=False)
    return replay


def timeline(beginning: Beginning, steps: Steps) -> Timeline:
    """The public history of the game that began as ``beginning`` and logged ``steps`` (a
    worker job)."""
    return Timeline(tuple(_replayed(beginning, steps).ends))


def told(beginning: Beginning, steps: Steps, turns: Sequence[tuple[int, int]],
         narrate: Narrate) -> tuple[str, ...]:
    """The words ``narrate`` gives each of ``turns`` (spans of ``steps``: their start and
    end) from the steps' public reports (a worker job: ``narrate`` is a function of the
    front end's, or a ``functools.partial`` of one, which travels by reference)."""
    replay = _replayed(beginning, steps)
    return tuple(narrate(replay.state, list(zip([seat for seat, _ in replay.steps[start:end]],
                                                replay.reports[start:end], strict=True)))
                 for start, end in turns)


def board_after(beginning: Beginning, steps: Steps, played: int) -> dict[str, Any]:
    """The public view after the first ``played`` of ``steps``, the start or the end of a
    turn; ValueError for another number."""
    replay = _replayed(beginning, steps)
    if played not in replay.ends:
        raise ValueError(f"no turn ends after {played} steps")
    found: dict[str, Any] = json.loads(replay.boards[replay.ends.index(played)])
    return found


def board_png(beginning: Beginning, steps: Steps, played: int, ctx: RenderContext) -> bytes:
    """:func:`board_after` drawn by the game's board renderer as PNG bytes (a worker job)."""
    view = board_after(beginning, steps, played)
    return registry.get(beginning.game).renderer.png(view, ctx)
