"""``/help [game]``: the commands, how a turn works, and a game's rules summary."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.catalogue import player_count
from bot.i18n import tr, translate
from cogs.common import Guarded, Interaction, lang_of, loc, reply
from host.client import DingirBot
from host.registry import CATALOGUE


def help_text(lang: str, game: str | None) -> str:
    """The help page in ``lang``: commands and turn flow, or one game's rules summary."""
    if game is None:
        games = ", ".join(
            f"`{g}` ({translate(CATALOGUE.meta(g).name, lang)})" for g in CATALOGUE.games()
        )
        return tr(lang, "discord.help.general", games=games)
    meta = CATALOGUE.meta(game)
    return tr(lang, "discord.help.game", name=translate(meta.name, lang), id=meta.id,
              players=player_count(meta), rules=translate(meta.rules_summary, lang))


class Help(Guarded, commands.Cog):
    """The ``/help`` command."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("discord.cmd.help.name"),
                          description=loc("discord.cmd.help.description"))
    @app_commands.rename(game=loc("discord.cmd.help.game.name"))
    @app_commands.describe(game=loc("discord.cmd.help.game.description"))
    @app_commands.choices(game=[
        Choice(name=loc(CATALOGUE.meta(g).name.key), value=g) for g in CATALOGUE.games()
    ])
    async def help(self, interaction: Interaction, game: str | None = None) -> None:
        """Show the help, in the reader's language, privately."""
        if game is not None:
            self.bot.service.core.engine(game)       # refuses a game Dingir does not host
        await reply(interaction, help_text(lang_of(interaction), game)[:2000])



async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Help(bot))
