"""``GAME``: Ur behind the engine contract of :mod:`bot.engine`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bot.engine import (
    Action,
    GameDefaults,
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
from bot.games.ur import state as st
from bot.games.ur.board import CELL_NAMES, NO_BOARD_TOKENS
from bot.games.ur.checks import reason
from bot.games.ur.effects import perform
from bot.games.ur.notation import SPARE, Move, format_move, parse_move
from bot.games.ur.options import legal_moves
from bot.games.ur.report import report
from bot.games.ur.view import public_view, ranking, scores, seat_score, state_from_view

_GROUPS = {"decline_both": "decline", "bonus_done": "bonus", "war_done": "war",
           "politics_done": "politics", "ziggurat_done": "ziggurat"}


def _variant(state: State, move: Move) -> Any:
    """The part of ``state`` a label depends on (for the label cache)."""
    kind = move.kind
    if kind == "place":
        return state["step"]
    if kind == "bonus":
        return state["owner"][move.cell] < 0
    if kind == "war":
        return st.war_loss(state, move.cell, move.cell2)
    if kind == "exchange":
        tile = st.exchange_tile(state, move.cell)
        return None if tile is None else tuple(tile)
    if kind == "end":
        return state["stuck"]
    return None


@lru_cache(maxsize=65536)
def _label(move: Move, variant: Any) -> Text:
    kind = move.kind
    key = "ur.act." + kind
    cell = CELL_NAMES[move.cell] if 0 <= move.cell < SPARE else None
    if kind == "place":
        if variant != "place":
            return Text.of(key + "_free", cell=cell,
                           n=NO_BOARD_TOKENS if variant == "start3" else 1)
        return Text.of(key, cell=cell)
    if kind in ("action", "decline"):
        return Text.of(key, face=st.face_text(move.face))
    if kind == "bonus":
        return Text.of(key + ("_free" if variant else ""), cell=cell)
    if kind in ("war", "politics"):
        return Text.of(key, src=cell, dst=CELL_NAMES[move.cell2], n=move.n, loss=variant or 0)
    if kind in ("agriculture", "ziggurat"):
        return Text.of(key, cell=cell, n=move.n)
    if kind == "exchange":
        back = variant[1] if variant[0] == move.face else variant[0]
        return Text.of(key + ("_spare" if cell is None else ""), cell=cell,
                       face=st.face_text(move.face), back=st.face_text(back))
    if kind == "end" and variant:
        return Text.of("ur.act.end_stuck")
    return Text.of(key)


def _path(move: Move, variant: Any) -> tuple[Text, ...]:
    """An exchange is chosen tile first, then the face to show."""
    if move.kind != "exchange":
        return ()
    cell = CELL_NAMES[move.cell] if move.cell < SPARE else None
    faces = tuple(st.face_text(f) for f in sorted(variant))
    tile = Text.of("ur.choice.spare" if cell is None else "ur.choice.tile", cell=cell,
                   faces=faces)
    return tile, Text.of("ur.choice.face", face=st.face_text(move.face))


@lru_cache(maxsize=65536)
def _cached_action(move: Move, variant: Any) -> Action:
    closes = move.kind in ("exchange", "pass") or (move.kind == "place" and variant == "place")
    return Action(format_move(move), _label(move, variant), _GROUPS.get(move.kind, move.kind),
                  _path(move, variant), closes)


def label(state: State, move: Move) -> Text:
    """The readable label of a legal ``move`` in ``state``."""
    return _label(move, _variant(state, move))


def _action(state: State, move: Move) -> Action:
    return _cached_action(move, _variant(state, move))


class UrGame(GameDefaults):
    """Ur for 3-4 players; states are the flat dicts described in :mod:`.state`."""

    meta = GameMeta(
        id="ur",
        name=Text.of("ur.name"),
        min_players=3,
        max_players=4,
        rules_summary=Text.of("ur.rules"),
    )

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        """A fresh game: seeded grid, hands, spare and first player."""
        if not self.meta.min_players <= n_players <= self.meta.max_players:
            raise ValueError(f"Ur is played by 3 or 4 players, not {n_players}")
        return st.new_state(seed, n_players)

    def active(self, state: State) -> list[Seat]:
        """The seat to move, or nobody once the game is over."""
        return [] if state["current"] < 0 else [state["current"]]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        """Every legal step of ``seat`` now."""
        return [_action(state, m) for m in legal_moves(state, seat)]

    def _check(self, state: State, seat: Seat, text: str) -> Move:
        move = parse_move(text)
        if seat != state["current"]:
            raise NotYourTurn(Text.of("ur.err.not_your_turn"))
        why = reason(state, seat, move)
        if why is not None:
            raise IllegalMove(why)
        return move

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        """The legal action written ``text``."""
        return _action(state, self._check(state, seat, text))

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        """The state after ``action``; ``state`` itself is left unchanged."""
        move = self._check(state, seat, action.notation if isinstance(action, Action) else action)
        new = st.clone(state)
        perform(new, seat, move)
        return new

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """The public view (Ur hides nothing)."""
        return public_view(state)

    def outcome(self, state: State) -> Outcome | None:
        """Scores, ranking and tie-break once the game is over."""
        if state["phase"] != "over":
            return None
        groups, tiebreak = ranking(state)
        details = []
        for seat in range(state["n"]):
            points, sizes = seat_score(state, seat)
            details.append(Text.of("ur.detail", points=points,
                                   sets=" + ".join(str(s) for s in sizes) or "0"))
        return Outcome(tuple(scores(state)), groups, tiebreak, tuple(details))

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's points if the game ended now."""
        return tuple(Text.of("core.points", n=points) for points in scores(state))

    def turn_number(self, state: State) -> int:
        """Turns ended so far (placement and setup-exchange turns included)."""
        return int(state["turn"])

    def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        """The state rebuilt from the (complete) public view."""
        return state_from_view(view)

    def heuristic(self, state: State, seat: Seat) -> float:
        """Score-if-ended-now lead over the best opponent, plus progress terms.

        Ziggurats and full tiles weigh enough that AI-only tables build the
        fifth ziggurat and so finish their games.
        """
        points = scores(state)
        best_other = max(p for s, p in enumerate(points) if s != seat)
        tokens = st.on_board(state, seat)
        full = sum(1 for cell in st.owned(state, seat) if state["tokens"][cell] == 5)
        return float(points[seat] - best_other + 0.1 * tokens + 3.0 * state["zigs"][seat] + full)

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """A cautious step for a player out of time: decline, pass, stop, end."""
        moves = legal_moves(state, seat)
        if not moves:
            return None
        prefer = ("end", "pass", "war_done", "politics_done", "ziggurat_done", "decline_both",
                  "decline")
        for kind in prefer:
            for m in moves:
                if m.kind == kind:
                    return _action(state, m)
        return _action(state, moves[-1] if state["step"] == "agriculture" else moves[0])


    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        """What the step did, in the third person (public: Ur hides nothing)."""
        return report(action)

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """What the current step asks of the player to move."""
        return Prompt(st.prompt(state)) if seat == state["current"] else None


GAME = UrGame()
