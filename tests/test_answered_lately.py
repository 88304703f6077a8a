"""A member pinged to answer a request (a swap offered to them) who answered it is not
pinged again by the turn message that then hands them the turn, if it comes within
``ANSWERED_LATELY`` seconds of their answer; later, or in another game, they are."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.clock import FakeClock
from bot.records import GameRecord, SeatInfo
from cogs import posting


def bot_with(clock: FakeClock) -> Any:
    """The parts of the bot :func:`cogs.posting.just_answered` reads."""
    return SimpleNamespace(answered_at={}, service=SimpleNamespace(
        core=SimpleNamespace(clock=clock)))


def record(game_id: int = 1) -> GameRecord:
    """A running game of Ur whose turn is Blake's (seat 1)."""
    seats = [SeatInfo(0, 11, "Avery"), SeatInfo(1, 12, "Blake")]
    game = GameRecord(game_id, 1, 1, "ur", "running", 1, {}, 1, seats, {}, 0)
    game.active = [1]
    return game


def test_an_answer_just_given_spares_the_next_ping_once() -> None:
    clock = FakeClock()
    bot = bot_with(clock)
    bot.answered_at[(1, 1)] = clock.now()
    clock.advance(posting.ANSWERED_LATELY - 1)
    answered = posting.just_answered(bot, record())
    assert answered == {1}
    text = posting.turn_text(record(), "en", answered=answered)
    assert text.endswith("➡️ **Blake** to play.") and "<@" not in text
    assert posting.turn_text(record(), "fr", answered=answered).endswith(
        "➡️ À **Blake** de jouer.")
    assert posting.just_answered(bot, record()) == frozenset()     # forgotten once told


def test_an_answer_given_long_ago_or_elsewhere_spares_nothing() -> None:
    clock = FakeClock()
    bot = bot_with(clock)
    bot.answered_at[(1, 1)] = clock.now()
    bot.answered_at[(2, 1)] = clock.now()
    clock.advance(posting.ANSWERED_LATELY)
    assert posting.just_answered(bot, record()) == frozenset()
    assert posting.turn_text(record(), "en").endswith("➡️ <@12> to play.")
    assert (2, 1) in bot.answered_at                   # another game's answer is kept
