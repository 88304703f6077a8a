"""``GAME``: After the Flood behind the engine contract of :mod:`bot.engine`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import (
    Action,
    GameMeta,
    IllegalMove,
    Outcome,
    Prompt,
    Report,
    Seat,
    State,
    Text,
    checked_notation,
    seat_ref,
)
from bot.games.flood import checks, effects, heuristic, narration, options, rounds, texts, view
from bot.games.flood import data as D
from bot.games.flood.state import VP_SOURCES, FloodState, new_state
from bot.games.kit import ContractTuning, RulesGame, plain, typed

VERBS = frozenset({
    "build", "place", "trade", "empire", "extend", "pass", "pay", "from", "spend", "scribe",
    "move", "to", "fewer", "buy", "tool", "done", "recruit", "equip", "march", "invade",
    "reinforce", "destroy", "go", "stop", "bid", "enlarge", "add",
})
CAUTIOUS = ("stop", "done", "pass", "march 1")
"""The steps a skipped turn takes, first found first."""


class FloodGame(RulesGame[FloodState, str]):
    """After the Flood for exactly 3 players (seed 001); see :mod:`bot.games.flood`."""

    meta = GameMeta(
        id="flood",
        name=Text.of("flood.name"),
        min_players=D.PLAYERS,
        max_players=D.PLAYERS,
        rules_summary=Text.of("flood.rules"),
        hidden_information=True,     # only the dice to come
    )
    tuning = ContractTuning(density=0.5, fast_ai=True)

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        if n_players != D.PLAYERS:
            raise ValueError(f"After the Flood is played by exactly {D.PLAYERS} players, "
                             f"not {n_players}")
        state = new_state(seed)
        rounds.start_game(state)
        return plain(state)

    def active(self, state: State) -> list[Seat]:
        fl = typed(FloodState, state)
        return [] if fl["phase"] == "over" else [fl["current"]]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        fl = typed(FloodState, state)
        return [texts.action(fl, n) for n in options.legal(fl, seat)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        """The legal step ``text``; a refusal names the rule and what is allowed instead
        (:mod:`bot.games.flood.checks`)."""
        fl = typed(FloodState, state)
        try:
            notation = checked_notation("flood", text, VERBS, seat in self.active(state),
                                        options.legal(fl, seat))
        except IllegalMove:
            raise IllegalMove(checks.why(fl, seat, " ".join(text.lower().split()))) \
                from None
        return texts.action(fl, notation)

    def checked(self, state: FloodState, seat: Seat, text: str) -> str:
        """The canonical notation of the legal step ``text`` (see :meth:`parse`)."""
        return self.parse(plain(state), seat, text).notation

    def perform(self, before: FloodState, seat: Seat, step: str, after: FloodState) -> None:
        """Carry out the checked step, then what the automatic phases did and the places the
        turn changed (:func:`bot.games.flood.view.mark`)."""
        after["events"] = []
        effects.apply(after, seat, step)
        view.mark(before, seat, step, after)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(typed(FloodState, state), seat)

    def outcome(self, state: State) -> Outcome | None:
        fl = typed(FloodState, state)
        if fl["phase"] != "over":
            return None
        order = fl["order"]
        scores = tuple(int(v) for v in fl["vp"])
        ranked = sorted(range(fl["n"]), key=lambda s: (-scores[s], order.index(s)))
        tied = len(set(scores)) < len(scores)
        tiebreak = Text.of("flood.tiebreak", order=tuple(
            seat_ref(s) for s in order)) if tied else None
        details = tuple(
            Text.of("flood.detail", n=scores[s], **{k: fl["vp_from"][s][k]
                                                     for k in VP_SOURCES})
            for s in range(fl["n"]))
        return Outcome(scores, tuple((s,) for s in ranked), tiebreak, details)

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's victory points so far."""
        return tuple(Text.of("flood.standing", n=int(v)) for v in typed(FloodState, state)["vp"])

    def turn_number(self, state: State) -> int:
        return int(typed(FloodState, state)["turn"])

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        return heuristic.heuristic(typed(FloodState, state), seat)

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """For a skipped turn: stop a battle, end the action, pass, or the first step."""
        fl = typed(FloodState, state)
        legal = options.legal(fl, seat)
        for notation in CAUTIOUS:
            if notation in legal:
                return texts.action(fl, notation)
        return texts.action(fl, legal[0]) if legal else None

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        return narration.report(typed(FloodState, before), seat, action.notation,
                                typed(FloodState, after))

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        return texts.prompt(typed(FloodState, state), seat)


GAME = FloodGame()
