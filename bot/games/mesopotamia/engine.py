"""``GAME``: Mesopotamia behind the engine contract of :mod:`bot.engine`: the setup, then the
action phase of the first round (:mod:`bot.games.mesopotamia.turn`). The combat phase, the
events, the end of a round and the scoring are not written yet, so the game is not registered."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot import chance
from bot.engine import (
    Action,
    GameDefaults,
    GameMeta,
    OptionSpec,
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
from bot.games.mesopotamia import setup, texts, turn, view
from bot.games.mesopotamia.state import PHASES, clone


class MesopotamiaGame(GameDefaults):
    """Mesopotamia for 2 to 4 players (seed 004); see :mod:`bot.games.mesopotamia.setup`."""

    meta = GameMeta(
        id="mesopotamia",
        name=Text.of("mesopotamia.name"),
        min_players=D.MIN_PLAYERS,
        max_players=D.MAX_PLAYERS,
        rules_summary=Text.of("mesopotamia.rules"),
        options=(OptionSpec("dice", Text.of("mesopotamia.option.dice"),
                            ("chance", "no_chance"), "chance"),),
        hidden_information=True,
    )

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        state = setup.new_state(seed, n_players)
        state["no_chance"] = options.get("dice", "chance") == "no_chance"
        return state

    def active(self, state: State) -> list[Seat]:
        return setup.active(state)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        return [texts.action(n) for n in _legal(state, seat)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        notation = checked_notation("mesopotamia", text, setup.VERBS | turn.VERBS,
                                    seat in self.active(state), _legal(state, seat))
        return texts.action(notation)

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        notation = action.notation if isinstance(action, Action) else action
        checked = self.parse(state, seat, notation).notation
        new: State = clone(state)
        if state["phase"] in PHASES:
            setup.apply(new, seat, checked)
            if new["phase"] == "ready":
                turn.begin_round(new)
        else:
            new["log"] = []
            turn.apply(new, seat, checked)
            new["turn"] += 1
        return new

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """None: the end of a round, and so the end of the game, is not written yet."""
        return None

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """False for the step that deals the quest cards (it reveals hands) and for a step that
        rolls dice (the end of a turn rolls the next player's dice)."""
        after = self.apply(state, seat, action)
        dealt = after["phase"] == "quests" and state["phase"] != "quests"
        return not (dealt or chance.drew(state, after))

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        """0: nothing is scored yet (the scoring is a later slice)."""
        return 0.0

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        return texts.report(before, seat, action.notation, after)

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        return texts.prompt(state, seat) if seat in self.active(state) else None

    def secrets(self, state: State) -> list[Secret]:
        return view.secrets(state)


GAME = MesopotamiaGame()


def _legal(state: State, seat: Seat) -> list[str]:
    """The legal notations of ``seat``: a setup step, or a step of the action phase."""
    if state["phase"] in PHASES:
        return setup.legal(state, seat)
    return turn.legal(state, seat)
