"""What an Ur step changed: tokens per tile and the player's points, for logs and panels.

Ur hides nothing, so the report is public; it adds to the step's label the tiles
whose tokens changed (``B3 2→4``, a ziggurat built, a tile taken or freed) and the
points of the player before and after when they moved.
"""

from __future__ import annotations

from bot.engine import Action, Report, Seat, State, Text
from bot.games.ur.board import CELL_NAMES, CELLS
from bot.games.ur.view import seat_score


def _cell_changes(before: State, after: State) -> list[Text]:
    changes = []
    for c in range(CELLS):
        cell = CELL_NAMES[c]
        if after["zig"][c] and not before["zig"][c]:
            changes.append(Text.of("ur.effect.ziggurat", cell=cell))
        elif before["tokens"][c] != after["tokens"][c]:
            changes.append(Text.of("ur.effect.tokens", cell=cell, a=before["tokens"][c],
                                   b=after["tokens"][c]))
    return changes


def report(before: State, seat: Seat, action: Action, after: State) -> Report:
    """The label of the step followed by what it changed."""
    changes = _cell_changes(before, after)
    points = seat_score(before, seat)[0], seat_score(after, seat)[0]
    if points[0] != points[1]:
        changes.append(Text.of("ur.effect.points", a=points[0], b=points[1]))
    if not changes:
        return Report(action.label)
    return Report(Text.of("ur.effect", step=action.label, changes=tuple(changes)))
