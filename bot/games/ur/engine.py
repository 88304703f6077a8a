"""``GAME``: Ur behind the engine contract of :mod:`bot.engine`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import (
    Action,
    GameMeta,
    IllegalMove,
    NotYourTurn,
    Outcome,
    Prompt,
    Report,
    Seat,
    State,
    Text,
)
from bot.games.kit import ContractTuning, RulesGame, plain, typed
from bot.games.ur import effects, heuristic, texts
from bot.games.ur import state as st
from bot.games.ur.checks import reason
from bot.games.ur.narration import report
from bot.games.ur.notation import Move, parse_move
from bot.games.ur.options import legal_moves
from bot.games.ur.state import UrState
from bot.games.ur.view import public_view, ranking, scores, seat_score, state_from_view


class UrGame(RulesGame[UrState, Move]):
    """Ur for 3-4 players; states are the flat dicts described in :mod:`.state`."""

    meta = GameMeta(
        id="ur",
        name=Text.of("ur.name"),
        min_players=3,
        max_players=4,
        rules_summary=Text.of("ur.rules"),
    )
    tuning = ContractTuning(density=0.02, ai_games=1, ai_seats=1)
    """Ur's games are long: its thorough checks are sampled (its own property tests check
    more), and its AI takes 30 ms a step."""
    layout = st.LAYOUT

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        """A fresh game: seeded grid, hands, spare and first player."""
        if not self.meta.min_players <= n_players <= self.meta.max_players:
            raise ValueError(f"Ur is played by 3 or 4 players, not {n_players}")
        return plain(st.new_state(seed, n_players))

    def active(self, state: State) -> list[Seat]:
        """The seat to move, or nobody once the game is over."""
        current = typed(UrState, state)["current"]
        return [] if current < 0 else [current]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        """Every legal step of ``seat`` now."""
        ur = typed(UrState, state)
        return [texts.action(ur, m) for m in legal_moves(ur, seat)]

    def checked(self, state: UrState, seat: Seat, text: str) -> Move:
        """The legal move written ``text``; else the rule it breaks."""
        move = parse_move(text)
        if seat != state["current"]:
            raise NotYourTurn(Text.of("ur.err.not_your_turn"))
        why = reason(state, seat, move)
        if why is not None:
            raise IllegalMove(why)
        return move

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        """The legal action written ``text``."""
        ur = typed(UrState, state)
        return texts.action(ur, self.checked(ur, seat, text))

    def perform(self, before: UrState, seat: Seat, step: Move, after: UrState) -> None:
        """Carry out the checked move (:func:`bot.games.ur.effects.perform`)."""
        effects.perform(after, seat, step)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """The public view (Ur hides nothing)."""
        return public_view(typed(UrState, state))

    def outcome(self, state: State) -> Outcome | None:
        """Scores, ranking and tie-break once the game is over."""
        ur = typed(UrState, state)
        if ur["phase"] != "over":
            return None
        groups, tiebreak = ranking(ur)
        details = []
        for seat in range(ur["n"]):
            points, sizes = seat_score(ur, seat)
            details.append(Text.of("ur.detail", points=points,
                                   sets=" + ".join(str(s) for s in sizes) or "0"))
        return Outcome(tuple(scores(ur)), groups, tiebreak, tuple(details))

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's points if the game ended now."""
        return tuple(Text.of("core.points", n=points) for points in scores(typed(UrState, state)))

    def turn_number(self, state: State) -> int:
        """Turns ended so far (placement and setup-exchange turns included)."""
        return typed(UrState, state)["turn"]

    def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        """The state rebuilt from the (complete) public view."""
        return state_from_view(view)

    def heuristic(self, state: State, seat: Seat) -> float:
        """See :func:`bot.games.ur.heuristic.heuristic`."""
        return heuristic.heuristic(typed(UrState, state), seat)

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """A cautious step for a player out of time: decline, pass, stop, end."""
        ur = typed(UrState, state)
        moves = legal_moves(ur, seat)
        if not moves:
            return None
        prefer = ("end", "pass", "war_done", "politics_done", "ziggurat_done", "decline_both",
                  "decline")
        for kind in prefer:
            for m in moves:
                if m.kind == kind:
                    return texts.action(ur, m)
        return texts.action(ur, moves[-1] if ur["step"] == "agriculture" else moves[0])


    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        """What the step did, in the third person (public: Ur hides nothing)."""
        return report(action)

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """What the current step asks of the player to move."""
        ur = typed(UrState, state)
        return Prompt(st.prompt(ur)) if seat == ur["current"] else None


GAME = UrGame()
