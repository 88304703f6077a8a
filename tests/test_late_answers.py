"""An answer that reaches Discord after its 3 seconds is refused (``404 Unknown
interaction``): the bot logs one warning line for it, not a traceback (a loaded bot meets
many; see README's overloaded community run)."""

from __future__ import annotations

import logging
import sys
from types import SimpleNamespace

import discord
import pytest

from host.client import DingirBot, expired


def refused(code: int) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": "Unknown"})  # type: ignore[arg-type]


def test_only_an_unknown_interaction_is_an_expired_answer() -> None:
    assert expired(refused(10062))
    assert not expired(refused(10008))               # an unknown message: a real problem
    assert not expired(None) and not expired(RuntimeError("x"))


def test_a_late_suggestion_is_a_warning_line_not_a_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise refused(10062)
    except discord.NotFound:
        late = logging.LogRecord("discord.app_commands.tree", logging.ERROR, __file__, 1,
                                 "Ignoring exception in autocomplete for %r", ("play",),
                                 sys.exc_info())
    bot = SimpleNamespace(stopping=False)
    with caplog.at_level(logging.WARNING):
        assert DingirBot._cut_off_by_stop(bot, late) is False        # type: ignore[arg-type]
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "'play': answered after Discord's 3 s" in caplog.text and not caplog.records[0].exc_info
    try:
        raise refused(10008)
    except discord.NotFound:
        other = logging.LogRecord("discord.app_commands.tree", logging.ERROR, __file__, 1,
                                  "Ignoring exception in autocomplete", (), sys.exc_info())
    assert DingirBot._cut_off_by_stop(bot, other) is True            # type: ignore[arg-type]
