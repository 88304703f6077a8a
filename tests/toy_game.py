"""A tiny game implementing the engine contract, for testing the core without Ur.

"Race": seats take turns; a turn is one or more steps ``add 1`` / ``add 2``
(at most two adds per turn) followed by ``end``. The first seat whose total
reaches ``target`` (option, default 10) wins at the end of its turn.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from bot.engine import (
    Action,
    BadNotation,
    GameDefaults,
    GameMeta,
    IllegalMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Seat,
    State,
    Text,
)


def _action(notation: str) -> Action:
    if notation == "end":
        return Action("end", Text.of("toy.end"), "end")
    return Action(notation, Text.of("toy.add", n=int(notation.split()[1])), "add")


class RaceGame(GameDefaults):
    """The toy game; see the module docstring."""

    meta = GameMeta(
        id="race",
        name=Text.of("toy.name"),
        min_players=2,
        max_players=4,
        rules_summary=Text.of("toy.rules"),
        options=(OptionSpec("target", Text.of("toy.option_target"), ("10", "20"), "10"),),
    )

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        rng = random.Random(seed)
        return {
            "target": int(options.get("target", "10")),
            "totals": [0] * n_players,
            "current": rng.randrange(n_players),
            "adds": 0,
            "turn": 0,
            "winner": None,
        }

    def active(self, state: State) -> list[Seat]:
        return [] if state["winner"] is not None else [state["current"]]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.active(state):
            return []
        adds = [] if state["adds"] >= 2 else [_action("add 1"), _action("add 2")]
        return [*adds, _action("end")]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        words = text.strip().lower().split()
        if words not in (["end"], ["add", "1"], ["add", "2"]):
            raise BadNotation(Text.of("toy.bad_notation", text=text))
        action = _action(" ".join(words))
        if seat not in self.active(state):
            raise NotYourTurn(Text.of("toy.not_your_turn"))
        if action not in self.legal(state, seat):
            raise IllegalMove(Text.of("toy.two_adds"))
        return action

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        notation = action.notation if isinstance(action, Action) else action
        act = self.parse(state, seat, notation)
        new = copy.deepcopy(state)
        if act.notation == "end":
            if new["totals"][seat] >= new["target"]:
                new["winner"] = seat
            new["current"] = (seat + 1) % len(new["totals"])
            new["adds"] = 0
            new["turn"] += 1
        else:
            new["totals"][seat] += int(act.notation.split()[1])
            new["adds"] += 1
        return new

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return copy.deepcopy(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        w = state["winner"]
        others = tuple(s for s in range(len(state["totals"])) if s != w)
        return Outcome(tuple(state["totals"]), ((w,), others) if others else ((w,),))

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return copy.deepcopy(view)

    def heuristic(self, state: State, seat: Seat) -> float:
        return float(state["totals"][seat])

    def default_action(self, state: State, seat: Seat) -> Action | None:
        return _action("end")


GAME = RaceGame()
