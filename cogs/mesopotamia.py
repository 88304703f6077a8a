"""``/mesopotamia board`` and ``/mesopotamia zoom``: a player's board, or a region of the map
with its neighbours, as a picture, privately, in the reader's language; the board comes with
what each of the seat's six technology cards does, written out (the designed cards are in no
rulebook).

A player of the game sees their own board with their quests; anyone else (or a player
looking at another seat) sees that seat's public board. Both commands read the game of the
channel they are typed in.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.engine import Seat, Text
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.texts import card_lines
from bot.i18n import tr, translate
from bot.notation import whole_number
from bot.records import GameRecord, ServiceError
from cogs.common import Guarded, Interaction, in_time, lang_of, loc, reply, seat_name
from cogs.posting import render_context
from host.client import DingirBot
from host.registry import CATALOGUE
from render.mesopotamia import crop_pngs
from render.mesopotamia_board import board_png

GAME = "mesopotamia"
MAX_CHOICES = 25
"""Autocomplete answers (Discord's limit)."""
AUTOCOMPLETE_SECONDS = 2.0
"""An autocomplete cannot be deferred: past this, answer with no choices."""


def region_of(typed: str, lang: str) -> str | None:
    """The region ``typed`` names: its id, or its name in ``lang`` or English."""
    needle = typed.strip().lower()
    for rid in D.REGIONS:
        names = {rid, *(translate(D.name("region", rid), la).lower() for la in (lang, "en"))}
        if needle in names:
            return rid
    return None


def seat_of_typed(record: GameRecord, typed: str, lang: str) -> Seat | None:
    """The seat ``typed`` names: its number (what the autocomplete sends) or its name."""
    value = typed.strip()
    number = whole_number(value, len(record.seats) - 1)
    if number is not None:
        return number
    return next((s.seat for s in record.seats
                 if seat_name(record, s.seat, lang, raw=True).lower() == value.lower()), None)


@app_commands.guild_only()
class Mesopotamia(Guarded, commands.GroupCog, group_name=loc("discord.cmd.mesopotamia.name"),
                  group_description=loc("discord.cmd.mesopotamia.description")):
    """The ``/mesopotamia`` command group."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        super().__init__()

    async def _record(self, interaction: Interaction) -> GameRecord:
        """The Mesopotamia game of the channel (refused when there is none)."""
        record = await self.bot.service.core.get(interaction.channel_id or 0)
        if record is None or record.game != GAME or record.state is None:
            raise ServiceError(Text.of("discord.mesopotamia.no_game"))
        return record

    async def _board(self, interaction: Interaction, player: str | None, lang: str
                     ) -> tuple[str, bytes]:
        record = await self._record(interaction)
        assert record.state is not None
        mine = self.bot.service.core.seat_of(record, interaction.user.id)
        seat = mine if player is None else seat_of_typed(record, player, lang)
        if seat is None and player is None:
            raise ServiceError(Text.of("discord.mesopotamia.which_player"))
        if seat is None:
            raise ServiceError(Text.of("discord.mesopotamia.unknown_player", name=player))
        view = CATALOGUE.view(record, seat if seat == mine else None)
        png = await self.bot.workers.picture(board_png, view, render_context(record, lang), seat)
        cards = "\n".join(translate(line, lang) for line in card_lines(record.state, seat))
        return tr(lang, "discord.mesopotamia.board", who=seat_name(record, seat, lang),
                  cards=cards), png

    async def _zoom(self, interaction: Interaction, region: str, lang: str
                    ) -> tuple[str, bytes]:
        record = await self._record(interaction)
        assert record.state is not None
        rid = region_of(region, lang)
        if rid is None:
            raise ServiceError(Text.of("discord.mesopotamia.unknown_region", name=region))
        seat = self.bot.service.core.seat_of(record, interaction.user.id)
        view = CATALOGUE.view(record, seat)
        crops = await self.bot.workers.picture(crop_pngs, view, render_context(record, lang),
                                               [rid])
        return tr(lang, "discord.mesopotamia.zoom",
                  region=translate(D.name("region", rid), lang)), crops[0][1]

    @app_commands.command(name=loc("discord.cmd.mesopotamia.board.name"),
                          description=loc("discord.cmd.mesopotamia.board.description"))
    @app_commands.rename(player=loc("discord.cmd.mesopotamia.player.name"))
    @app_commands.describe(player=loc("discord.cmd.mesopotamia.player.description"))
    async def board(self, interaction: Interaction,
                    player: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Show a player's board (your own, with your quests, when no player is given)."""
        lang = lang_of(interaction)
        content, png = await in_time(interaction, self._board(interaction, player, lang))
        await reply(interaction, content, files=[discord.File(io.BytesIO(png),
                                                              filename="player-board.png")])

    @app_commands.command(name=loc("discord.cmd.mesopotamia.zoom.name"),
                          description=loc("discord.cmd.mesopotamia.zoom.description"))
    @app_commands.rename(region=loc("discord.cmd.mesopotamia.region.name"))
    @app_commands.describe(region=loc("discord.cmd.mesopotamia.region.description"))
    async def zoom(self, interaction: Interaction,
                   region: app_commands.Range[str, 1, 100]) -> None:
        """Show a region of the map and its neighbours, zoomed."""
        lang = lang_of(interaction)
        content, png = await in_time(interaction, self._zoom(interaction, region, lang))
        await reply(interaction, content, files=[discord.File(io.BytesIO(png),
                                                              filename="zoom.png")])

    @board.autocomplete("player")
    async def player_choices(self, interaction: Interaction,
                             current: str) -> list[Choice[str]]:
        """The seats of the channel's game whose name contains what was typed."""
        try:
            record = await asyncio.wait_for(self._record(interaction), AUTOCOMPLETE_SECONDS)
        except (ServiceError, TimeoutError):
            return []
        lang, needle = lang_of(interaction), current.strip().lower()
        names = [(seat_name(record, s.seat, lang, raw=True), s.seat) for s in record.seats]
        return [Choice(name=name[:100], value=str(seat)) for name, seat in names
                if needle in name.lower()][:MAX_CHOICES]

    @zoom.autocomplete("region")
    async def region_choices(self, interaction: Interaction,
                             current: str) -> list[Choice[str]]:
        """The regions whose name, in the reader's language, contains what was typed."""
        lang, needle = lang_of(interaction), current.strip().lower()
        names = sorted((translate(D.name("region", rid), lang), rid) for rid in D.REGIONS)
        return [Choice(name=name, value=rid) for name, rid in names
                if needle in name.lower() or needle in rid][:MAX_CHOICES]


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Mesopotamia(bot))
