"""``/flood tables``: the After the Flood tables as two pictures, privately, in the reader's
language, so that nobody needs the rulebook at hand."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import tr
from cogs.common import Guarded, Interaction, in_time, lang_of, loc, reply
from host.client import DingirBot
from host.workers import Workers
from render.flood_tables import PAGES, tables_png


async def pages(workers: Workers, lang: str) -> list[bytes]:
    """The pages of the tables in ``lang``, drawn by the workers (each once per language
    and worker)."""
    return list(await asyncio.gather(*(workers.picture(tables_png, lang, page)
                                       for page in range(len(PAGES)))))


class Flood(Guarded, commands.GroupCog, group_name=loc("discord.cmd.flood.name"),
            group_description=loc("discord.cmd.flood.description")):
    """The ``/flood`` command group."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=loc("discord.cmd.flood.tables.name"),
                          description=loc("discord.cmd.flood.tables.description"))
    async def tables(self, interaction: Interaction) -> None:
        """Show the tables (drawn by the workers)."""
        lang = lang_of(interaction)
        drawn = await in_time(interaction, pages(self.bot.workers, lang))
        files = [discord.File(io.BytesIO(png), filename=f"flood-tables-{i + 1}.png")
                 for i, png in enumerate(drawn)]
        await reply(interaction, tr(lang, "discord.flood.tables"), files=files)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Flood(bot))
