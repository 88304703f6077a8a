"""Which answered request goes without a post: only an answer that hands the decision back
to the player whose turn it is (their turn simply goes on), never a new request that this
player makes right after the answer (found by the mixed community run: a sale offered just
after a refused purchase was never posted, and nobody was asked to decide)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.posting import handed_back


def result(seats: list[int], asked: tuple[int, ...]) -> Any:
    """A step result whose turn so far was played by ``seats`` (the last one: this step)."""
    steps = tuple(SimpleNamespace(seat=s) for s in seats)
    return SimpleNamespace(seat=seats[-1], turn_steps=steps, asked=asked)


def test_an_answer_hands_the_decision_back_to_the_player_whose_turn_it_is() -> None:
    assert handed_back(result([1, 2], asked=(1,)))              # buy, refuse
    assert handed_back(result([1, 1, 2], asked=(1,)))           # draw, buy, refuse


def test_a_new_request_after_an_answer_is_not_handed_back() -> None:
    assert not handed_back(result([1, 2, 1], asked=(2,)))       # buy, refuse, sell
    assert not handed_back(result([1, 2], asked=(2,)))          # a question to oneself
    assert not handed_back(result([1], asked=(2,)))             # a first request


def test_an_answer_to_someone_else_than_the_turns_player_is_posted() -> None:
    assert not handed_back(result([1, 3, 2], asked=(3,)))
