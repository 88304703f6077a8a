"""Reminders and turn clocks: a loop asks the scheduler what is due and posts it."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DingirBot


async def setup(bot: commands.Bot) -> None:
    """Extension entry point (placeholder until the scheduler exists)."""
    assert isinstance(bot, DingirBot)
