"""``GAME``: Mesopotamia behind the engine contract of :mod:`bot.engine` (setup only so far:
the game is not registered until the rounds are written)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import (
    Action,
    GameDefaults,
    GameMeta,
    Outcome,
    Prompt,
    Report,
    Seat,
    Secret,
    State,
    Text,
    checked_notation,
)
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import setup, texts, view
from bot.games.mesopotamia.state import clone


class MesopotamiaGame(GameDefaults):
    """Mesopotamia for 2 to 4 players (seed 004); see :mod:`bot.games.mesopotamia.setup`."""

    meta = GameMeta(
        id="mesopotamia",
        name=Text.of("mesopotamia.name"),
        min_players=D.MIN_PLAYERS,
        max_players=D.MAX_PLAYERS,
        rules_summary=Text.of("mesopotamia.rules"),
        hidden_information=True,
    )

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        return setup.new_state(seed, n_players)

    def active(self, state: State) -> list[Seat]:
        return setup.active(state)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        return [texts.action(n) for n in setup.legal(state, seat)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        notation = checked_notation("mesopotamia", text, setup.VERBS,
                                    seat in self.active(state), setup.legal(state, seat))
        return texts.action(notation)

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        notation = action.notation if isinstance(action, Action) else action
        checked = self.parse(state, seat, notation).notation
        new: State = clone(state)
        setup.apply(new, seat, checked)
        return new

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """None: the rounds, and so the end of the game, are not written yet."""
        return None

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """False for the step that deals the quest cards (it reveals hands)."""
        after = self.apply(state, seat, action)
        return not (after["phase"] == "quests" and state["phase"] != "quests")

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        """0: the setup alone gives the AI nothing to judge yet."""
        return 0.0

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        return texts.report(seat, action.notation, after)

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        return texts.prompt(state, seat) if seat in self.active(state) else None

    def secrets(self, state: State) -> list[Secret]:
        return view.secrets(state)


GAME = MesopotamiaGame()
