"""The link to a game's web page (:mod:`web`): under its board posts, in ``/game status``,
and ``/webpage``, with which the game's creator may turn the page off or give it a new
address."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import tr
from bot.records import GameRecord, ServiceError
from cogs.common import Guarded, Interaction, game_title, in_time, lang_of, loc, reply
from host.client import DingirBot


def page_url(bot: DingirBot, token: str) -> str:
    """The public address of the page with ``token``."""
    base = bot.settings.web_url or f"http://localhost:{bot.settings.web_port}"
    return f"{base}/g/{token}/"


async def link(bot: DingirBot, record: GameRecord) -> str | None:
    """The address of ``record``'s web page; None when the bot serves none, or its
    creator turned it off (or the database cannot be read now: a link is a bonus)."""
    if not bot.settings.web_port:
        return None
    try:
        token = await bot.service.web.token(record.id)
    except ServiceError:
        return None
    return None if token is None else page_url(bot, token)


async def with_link(bot: DingirBot, record: GameRecord, view: discord.ui.View,
                    lang: str) -> discord.ui.View:
    """``view`` with a button that opens the game's web page, when it has one."""
    url = await link(bot, record)
    if url is not None and len(view.children) < 25:
        view.add_item(discord.ui.Button(label=tr(lang, "discord.web_button"), url=url))
    return view


async def status_line(bot: DingirBot, record: GameRecord, lang: str) -> str:
    """The line of ``/game status`` that gives the page's address (empty without one)."""
    url = await link(bot, record)
    return "" if url is None else "\n" + tr(lang, "discord.status_web", url=url)


class WebPage(Guarded, commands.Cog):
    """``/webpage``."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("discord.cmd.webpage.name"),
                          description=loc("discord.cmd.webpage.description"))
    @app_commands.rename(action=loc("discord.cmd.webpage.action.name"))
    @app_commands.describe(action=loc("discord.cmd.webpage.action.description"))
    @app_commands.choices(action=[
        Choice(name=loc("discord.cmd.webpage.action.show"), value="show"),
        Choice(name=loc("discord.cmd.webpage.action.off"), value="off"),
        Choice(name=loc("discord.cmd.webpage.action.new"), value="new"),
    ])
    @app_commands.guild_only()
    async def webpage(self, interaction: Interaction, action: str = "show") -> None:
        """The address of the game's web page; ``off`` or ``new`` (its creator, or Manage
        Server) withdraws it, giving it a new one with ``new``."""
        lang = lang_of(interaction)
        if not self.bot.settings.web_port:
            await reply(interaction, tr(lang, "discord.web_disabled"))
            return
        channel_id = interaction.channel_id or 0
        if action == "show":
            record = await in_time(interaction, self.bot.service.history.latest(channel_id))
            url = await link(self.bot, record)
            game = game_title(record, lang)
            key = "discord.web_link" if url is not None else "discord.web_is_off"
            await reply(interaction, tr(lang, key, game=game, url=url or ""))
            return
        record, token = await in_time(interaction, self.bot.service.web.set_link(
            channel_id, interaction.user.id, bool(interaction.permissions.manage_guild),
            on=action == "new"))
        game = game_title(record, lang)
        text = tr(lang, "discord.web_now_off", game=game) if token is None \
            else tr(lang, "discord.web_now_new", game=game, url=page_url(self.bot, token))
        await reply(interaction, text)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(WebPage(bot))
