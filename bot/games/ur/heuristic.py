"""The AI's judgement of an Ur state (:meth:`bot.engine.Game.heuristic`)."""

from __future__ import annotations

from bot.engine import Seat
from bot.games.ur import state as st
from bot.games.ur.state import UrState
from bot.games.ur.view import scores


def heuristic(state: UrState, seat: Seat) -> float:
    """Score-if-ended-now lead over the best opponent, plus progress terms.

    Ziggurats and full tiles weigh enough that AI-only tables build the
    fifth ziggurat and so finish their games.
    """
    points = scores(state)
    best_other = max(p for s, p in enumerate(points) if s != seat)
    tokens = st.on_board(state, seat)
    full = sum(1 for cell in st.owned(state, seat) if state["tokens"][cell] == 5)
    return float(points[seat] - best_other + 0.1 * tokens + 3.0 * state["zigs"][seat] + full)
