"""What an Ur step changed: tokens per tile and the player's points, for logs and panels.

Ur hides nothing, so the report is public; it adds to the step's label the tiles
whose tokens changed (``B3 2→4``, a ziggurat built, a tile taken or freed) and the
points of the player before and after when they moved.
"""

from __future__ import annotations

from bot.engine import Action, Report, Seat, State, Text
from bot.games.ur.board import CELL_NAMES, CELLS
from bot.games.ur.view import seat_score


def _cell_changes(before: State, after: State, seat: Seat) -> tuple[list[Text], bool]:
    """What changed on the board, and whether any of it touched ``seat``'s tiles."""
    changes = []
    mine = False
    old, new = before["tokens"], after["tokens"]
    for c in range(CELLS):
        built = after["zig"][c] and not before["zig"][c]
        if not built and old[c] == new[c] and before["owner"][c] == after["owner"][c]:
            continue
        mine = mine or seat in (before["owner"][c], after["owner"][c])
        if built:
            changes.append(Text.of("ur.effect.ziggurat", cell=CELL_NAMES[c]))
        elif old[c] != new[c]:
            changes.append(Text.of("ur.effect.tokens", cell=CELL_NAMES[c], a=old[c], b=new[c]))
    return changes, mine


def report(before: State, seat: Seat, action: Action, after: State) -> Report:
    """The label of the step followed by what it changed (the player's points are only
    counted again when their tiles, held tile or ziggurats changed)."""
    changes, mine = _cell_changes(before, after, seat)
    if mine or before["hand"][seat] != after["hand"][seat] \
            or before["zigs"][seat] != after["zigs"][seat]:
        points = seat_score(before, seat)[0], seat_score(after, seat)[0]
        if points[0] != points[1]:
            changes.append(Text.of("ur.effect.points", a=points[0], b=points[1]))
    if not changes:
        return Report(action.label)
    return Report(Text.of("ur.effect", step=action.label, changes=tuple(changes)))
