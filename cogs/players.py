"""What a player asks about themselves and others across a server: ``/mygames``,
``/away``, ``/stats``, ``/leaderboard``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import tr
from cogs.common import Guarded, Interaction, in_time, lang_of, loc, reply, safe
from cogs.game_texts import leaderboard_text, my_games_text, stats_text
from host.client import DingirBot
from host.registry import CATALOGUE

MAX_AWAY_DAYS = 30


class Players(Guarded, commands.Cog):
    """The commands about one player's games."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("discord.cmd.mygames.name"),
                          description=loc("discord.cmd.mygames.description"))
    @app_commands.guild_only()
    async def mygames(self, interaction: Interaction) -> None:
        """The games where it is the caller's turn (with links), then their other games."""
        records = await in_time(interaction, self.bot.service.members.my_games(
            interaction.guild_id or 0, interaction.user.id), ephemeral=True)
        text = my_games_text(records, interaction.user.id, lang_of(interaction))
        await reply(interaction, text[:2000])

    @app_commands.command(name=loc("discord.cmd.away.name"),
                          description=loc("discord.cmd.away.description"))
    @app_commands.rename(days=loc("discord.cmd.away.days.name"))
    @app_commands.describe(days=loc("discord.cmd.away.days.description"))
    async def away(self, interaction: Interaction,
                   days: app_commands.Range[int, 0, MAX_AWAY_DAYS]) -> None:
        """Declare yourself away for ``days`` in all your games (0: back now)."""
        until = self.bot.service.core.clock.now() + days * 86400
        await in_time(interaction, self.bot.service.members.set_away(interaction.user.id, until),
                      ephemeral=True)
        lang = lang_of(interaction)
        text = (tr(lang, "discord.away_on", until=f"<t:{int(until)}:F>") if days
                else tr(lang, "discord.away_off"))
        await reply(interaction, text)

    @app_commands.command(name=loc("discord.cmd.stats.name"),
                          description=loc("discord.cmd.stats.description"))
    @app_commands.rename(player=loc("discord.cmd.stats.player.name"))
    @app_commands.describe(player=loc("discord.cmd.stats.player.description"))
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction,
                    player: discord.Member | discord.User | None = None) -> None:
        """A member's rating at each game and their last results (the caller's by default)."""
        who = player or interaction.user
        ratings, recent = await in_time(interaction, self.bot.service.results.player_stats(
            interaction.guild_id or 0, who.id), ephemeral=True)
        await reply(interaction, stats_text(safe(who.display_name), ratings, recent,
                                            lang_of(interaction))[:2000])

    @app_commands.command(name=loc("discord.cmd.leaderboard.name"),
                          description=loc("discord.cmd.leaderboard.description"))
    @app_commands.rename(game=loc("discord.cmd.leaderboard.game.name"))
    @app_commands.describe(game=loc("discord.cmd.leaderboard.game.description"))
    @app_commands.choices(game=[
        Choice(name=loc(name.key), value=ranking) for ranking, name in CATALOGUE.rankings()
    ])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        """The ten best rated members at ``game`` (or one of its solo ladders) on this
        server."""
        board = await in_time(interaction, self.bot.service.results.leaderboard(
            interaction.guild_id or 0, game), ephemeral=True)
        await reply(interaction, leaderboard_text(game, board, lang_of(interaction))[:2000])


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Players(bot))
