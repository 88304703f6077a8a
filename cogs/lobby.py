"""``/game ...``: opening, joining and starting games, and everything around a running game.

One active game per channel or thread. In a channel that already has one,
``/game new`` offers a button that opens a thread for the new game
(``thread:true`` does it directly).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import math
import time
import weakref

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.engine import Text
from bot.export import SeatEntry
from bot.i18n import LANGUAGES, tr, translate
from bot.notation import whole_number
from bot.records import GameRecord, Player, ServiceError, StepResult
from cogs import buttons, posting, seats, webpage
from cogs.buttons import Press, on_press
from cogs.common import (
    Guarded,
    Interaction,
    bot_of,
    game_title,
    in_time,
    lang_of,
    language,
    loc,
    reply,
    safe,
    seat_name,
)
from cogs.game_log import log_page
from cogs.game_texts import lobby_text, seats_text, status_text
from cogs.options import parse_options, parse_order
from cogs.play import build_panel, send_panel
from host.client import DingirBot
from host.registry import CATALOGUE

log = logging.getLogger(__name__)

MAX_AI = 5
MAX_IMPORT_BYTES = 16 << 20
"""The largest export file ``/game import`` reads."""


def _game_choices() -> list[Choice[str]]:
    return [
        Choice(name=loc(CATALOGUE.meta(g).name.key), value=g) for g in CATALOGUE.games()
    ]


def _level_choices() -> list[Choice[str]]:
    """The levels of the hosted games' own opponents (Mesopotamia's Automaton)."""
    return [Choice(name=loc(label.key), value=value)
            for script in CATALOGUE.scripts for value, label in script.levels]


def lobby_view(record: GameRecord, lang: str) -> discord.ui.View:
    """Join and Start buttons under a lobby announcement."""
    return buttons.view_of(
        buttons.button(record.id, 0, "join", label=tr(lang, "discord.join"),
                       style=discord.ButtonStyle.primary),
        buttons.button(record.id, 0, "start", label=tr(lang, "discord.start"),
                       style=discord.ButtonStyle.success),
    )


def is_admin(interaction: Interaction) -> bool:
    """Whether the caller may manage the server (abort, import, other people's games)."""
    return bool(interaction.permissions.manage_guild)


def player_of(interaction: Interaction) -> Player:
    """The caller as the service knows players."""
    return Player(interaction.user.id, interaction.user.display_name)


async def start_game(bot: DingirBot, interaction: Interaction, channel_id: int,
                     order: str = "") -> None:
    """Start the lobby of ``channel_id`` (creator only), announce the seats and who plays
    first (in the channel's language), post the board."""
    seats = parse_order(order)
    record = await in_time(interaction,
                           bot.service.lobby.start(channel_id, interaction.user.id, seats),
                           ephemeral=False)
    lang = record.lang
    first = tr(lang, "core.list_separator").join(seat_name(record, s, lang)
                                                 for s in record.active)
    await reply(interaction, tr(lang, "discord.started", seats=seats_text(record, lang),
                                first=first), ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none())
    bot.spawn(_first_post(bot, record), f"start-{record.id}")


async def _first_post(bot: DingirBot, record: GameRecord) -> None:
    await refresh_lobby(bot, record)
    async with bot.service.loop.telling(record.id):
        await posting.post_board(bot, record)
    await posting.advance(bot, None, record.id)


class LobbyEdits:
    """When each lobby message was last edited, and which have an edit waiting: joins and
    leaves in a burst fold into one edit (Discord's rate limits, and the channel's calm)."""

    def __init__(self) -> None:
        self.last: dict[int, float] = {}
        self.waiting: set[int] = set()


_EDITS: weakref.WeakKeyDictionary[DingirBot, LobbyEdits] = weakref.WeakKeyDictionary()
LOBBY_EDIT_GAP = 2.0
"""Seconds between two edits of one lobby message; what changes meanwhile waits for one."""


async def refresh_lobby(bot: DingirBot, record: GameRecord) -> None:
    """Edit the game's one lobby message to show its seats now (and, once the game has
    started or closed, without its Join and Start buttons). Within :data:`LOBBY_EDIT_GAP`
    of the last edit, one later edit shows the seats as they are then."""
    edits = _EDITS.setdefault(bot, LobbyEdits())
    message_id = record.last_message_id
    if record.id in edits.waiting or message_id is None:
        return
    now = time.monotonic()
    if len(edits.last) > 1000:
        edits.last = {g: t for g, t in edits.last.items() if t > now - LOBBY_EDIT_GAP}
    due = edits.last.get(record.id, 0.0) + LOBBY_EDIT_GAP
    if now >= due:
        edits.last[record.id] = now
        await _edit_lobby(bot, record, message_id)
        return
    edits.waiting.add(record.id)
    bot.spawn(_edit_lobby_later(bot, record.id, message_id, due - now), f"lobby-{record.id}")


async def _edit_lobby_later(bot: DingirBot, game_id: int, message_id: int,
                            delay: float) -> None:
    edits = _EDITS.setdefault(bot, LobbyEdits())
    await asyncio.sleep(delay)
    edits.waiting.discard(game_id)
    edits.last[game_id] = time.monotonic()
    record = await bot.service.core.get_by_id(game_id)      # as it is now
    if record is not None:
        await _edit_lobby(bot, record, message_id)


async def _edit_lobby(bot: DingirBot, record: GameRecord, message_id: int) -> None:
    lang = record.lang
    open_ = record.status == "lobby"
    content = lobby_text(record, lang) if open_ else tr(
        lang, "discord.lobby_closed", game=game_title(record, lang),
        seats=seats_text(record, lang), status=tr(lang, f"discord.status.{record.status}"))
    try:
        channel = await posting.resolve_channel(bot, record.channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            await channel.get_partial_message(message_id).edit(
                content=content, view=lobby_view(record, lang) if open_ else buttons.view_of())
    except discord.HTTPException:
        log.info("could not edit the lobby message of game %s", record.id)


async def join_game(bot: DingirBot, interaction: Interaction, channel_id: int) -> None:
    """Take a seat in the lobby of ``channel_id``: the Join button edits the lobby message in
    place; ``/game join`` answers privately and edits the lobby message."""
    pressed = interaction.type == discord.InteractionType.component
    record = await in_time(interaction, bot.service.lobby.join(channel_id, player_of(interaction)),
                           update=pressed)
    lang = record.lang
    if pressed:
        content, view = lobby_text(record, lang), lobby_view(record, lang)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view)
        else:
            await interaction.response.edit_message(content=content, view=view)
        return
    await reply(interaction, tr(lang_of(interaction), "discord.joined",
                                seats=seats_text(record, lang)))
    await refresh_lobby(bot, record)


async def new_game(bot: DingirBot, interaction: Interaction, channel_id: int, game: str,
                   ai: int, options: dict[str, str]) -> None:
    """Open a game in ``channel_id`` and announce it there."""
    lang = language(interaction.guild_locale, bot.settings.language)   # the server's
    record = await in_time(interaction, bot.service.lobby.create(
        interaction.guild_id, channel_id, player_of(interaction), game, options,
        ai_seats=ai, lang=lang,
    ), ephemeral=channel_id != interaction.channel_id)
    if channel_id == interaction.channel_id:
        await reply(interaction, lobby_text(record, lang), ephemeral=False,
                    view=lobby_view(record, lang))
        message: discord.Message | None = await interaction.original_response()
    else:
        channel = await posting.resolve_channel(bot, channel_id)
        message = None if channel is None else await channel.send(
            lobby_text(record, lang), view=lobby_view(record, lang))
        await reply(interaction, tr(lang, "discord.thread_opened", thread=f"<#{channel_id}>"))
    if message is not None:                 # the one lobby message, edited as seats change
        await bot.service.admin.set_message(record.id, message.id, -1)


async def open_thread(bot: DingirBot, interaction: Interaction, game: str, ai: int,
                      options: dict[str, str]) -> int:
    """A new public thread under the caller's channel, named after the game: only for a
    member who may open threads and write in them there, and who may open this game
    (everything about it is checked before the thread is opened)."""
    lang = lang_of(interaction)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise ServiceError(Text.of("discord.no_thread_here"))
    allowed = interaction.permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        raise ServiceError(Text.of("discord.thread_forbidden"))
    mine = interaction.app_permissions
    if not (mine.create_public_threads and mine.send_messages_in_threads):
        raise ServiceError(Text.of("discord.thread_bot_forbidden"))
    await bot.service.lobby.check_new(interaction.guild_id, interaction.user.id, game, options, ai)
    title = translate(CATALOGUE.meta(game).name, lang)
    name = tr(lang, "discord.thread_name", game=title, player=interaction.user.display_name)
    thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                         auto_archive_duration=10080)
    return thread.id


@on_press("join")
async def press_join(interaction: Interaction, press: Press) -> None:
    """The Join button of a lobby."""
    bot = bot_of(interaction)
    record = await bot.service.core.get_by_id(press.game_id)
    await join_game(bot, interaction, record.channel_id if record else 0)


@on_press("start")
async def press_start(interaction: Interaction, press: Press) -> None:
    """The Start button of a lobby."""
    bot = bot_of(interaction)
    record = await bot.service.core.get_by_id(press.game_id)
    await start_game(bot, interaction, record.channel_id if record else 0)


@on_press("rematch")
async def press_rematch(interaction: Interaction, press: Press) -> None:
    """"Rematch" under a final message: a lobby of the same game in the same place, the
    other players invited to press Join."""
    bot = bot_of(interaction)
    record, invited = await in_time(interaction, bot.service.lobby.rematch(
        press.game_id, player_of(interaction)), ephemeral=False)
    lang = record.lang
    text = lobby_text(record, lang)
    if invited:
        text += "\n" + tr(lang, "discord.rematch_invite",
                          mentions=" ".join(f"<@{user}>" for user in invited))
    await reply(interaction, text, ephemeral=False, view=lobby_view(record, lang))
    message = await interaction.original_response()
    await bot.service.admin.set_message(record.id, message.id, -1)


@on_press("thread")
async def press_thread(interaction: Interaction, press: Press) -> None:
    """"Open a thread" offered by ``/game new`` in a busy channel: ``thread:<game>:<ai>``."""
    bot = bot_of(interaction)
    game, _, ai_text = press.arg.removeprefix(":").partition(":")
    ai = whole_number(ai_text, MAX_AI)
    if game not in CATALOGUE.games() or ai is None:
        raise buttons.unknown_button()
    await interaction.response.defer(ephemeral=True, thinking=True)
    thread_id = await open_thread(bot, interaction, game, ai, {})
    await new_game(bot, interaction, thread_id, game, ai, {})


class Lobby(Guarded, commands.GroupCog, group_name=loc("discord.cmd.game.name"),
            group_description=loc("discord.cmd.game.description")):
    """The ``/game`` command group."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        super().__init__()


    async def _record(self, interaction: Interaction, *, ephemeral: bool = True) -> GameRecord:
        record = await in_time(interaction, self.bot.service.core.get(interaction.channel_id or 0),
                               ephemeral=ephemeral)
        if record is None:
            raise ServiceError(Text.of("discord.no_game"))
        return record

    @app_commands.command(name=loc("discord.cmd.new.name"),
                          description=loc("discord.cmd.new.description"))
    @app_commands.rename(game=loc("discord.cmd.new.game.name"),
                         ai=loc("discord.cmd.new.ai.name"),
                         options=loc("discord.cmd.new.options.name"),
                         thread=loc("discord.cmd.new.thread.name"),
                         players=loc("discord.cmd.new.players.name"),
                         difficulty=loc("discord.cmd.new.difficulty.name"))
    @app_commands.describe(game=loc("discord.cmd.new.game.description"),
                           ai=loc("discord.cmd.new.ai.description"),
                           options=loc("discord.cmd.new.options.description"),
                           thread=loc("discord.cmd.new.thread.description"),
                           players=loc("discord.cmd.new.players.description"),
                           difficulty=loc("discord.cmd.new.difficulty.description"))
    @app_commands.choices(game=_game_choices(), difficulty=_level_choices())
    @app_commands.guild_only()
    async def new(self, interaction: Interaction, game: str,
                  ai: app_commands.Range[int, 0, MAX_AI] = 0, options: str = "",
                  thread: bool = False, players: app_commands.Range[int, 1, MAX_AI] | None = None,
                  difficulty: str | None = None) -> None:
        """Open a game here (or in a new thread); ``players`` fewer than the game's minimum,
        or a ``difficulty``, seat the game's own opponent (Mesopotamia's Automaton)."""
        lang = lang_of(interaction)
        self.bot.service.core.engine(game)           # refuses a game Dingir does not host
        parsed = self.bot.service.lobby.with_opponent(game, parse_options(options), players, ai,
                                                      difficulty)
        channel_id = interaction.channel_id or 0
        busy = await in_time(interaction, self.bot.service.core.get(channel_id), ephemeral=True)
        if busy is not None and not thread:
            offer = []
            if isinstance(interaction.channel, discord.TextChannel) and not parsed:
                offer = [buttons.button(0, 0, "thread", f":{game}:{ai}",
                                        label=tr(lang, "discord.open_thread"),
                                        style=discord.ButtonStyle.primary)]
            await reply(interaction, tr(lang, "discord.channel_busy"),
                        view=buttons.view_of(*offer))
            return
        if thread:
            if not interaction.response.is_done():    # the busy check may have deferred
                await interaction.response.defer(ephemeral=True, thinking=True)
            channel_id = await open_thread(self.bot, interaction, game, ai, parsed)
        await new_game(self.bot, interaction, channel_id, game, ai, parsed)

    @app_commands.command(name=loc("discord.cmd.join.name"),
                          description=loc("discord.cmd.join.description"))
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        """Take a seat in the game of this channel."""
        await join_game(self.bot, interaction, interaction.channel_id or 0)

    @app_commands.command(name=loc("discord.cmd.leave.name"),
                          description=loc("discord.cmd.leave.description"))
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        """Leave the lobby of this channel (answered privately: the lobby message shows
        who is seated)."""
        lang = lang_of(interaction)
        record = await in_time(interaction, self.bot.service.lobby.leave(
            interaction.channel_id or 0, interaction.user.id))
        await reply(interaction, tr(lang, "discord.left", seats=seats_text(record, lang)))
        await refresh_lobby(self.bot, record)

    @app_commands.command(name=loc("discord.cmd.start.name"),
                          description=loc("discord.cmd.start.description"))
    @app_commands.rename(order=loc("discord.cmd.start.order.name"))
    @app_commands.describe(order=loc("discord.cmd.start.order.description"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, order: str = "") -> None:
        """Start the game (creator): seats in random order, or in the order given."""
        await start_game(self.bot, interaction, interaction.channel_id or 0, order)

    @app_commands.command(name=loc("discord.cmd.status.name"),
                          description=loc("discord.cmd.status.description"))
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        """Whose turn, since when, scores so far."""
        record = await self._record(interaction)
        health = self.bot.workers.health() if is_admin(interaction) else None
        away = await self.bot.service.members.away(s.user_id for s in record.seats if s.user_id)
        banks = await self.bot.service.core.banks_left(record)
        lang = lang_of(interaction)
        await reply(interaction, status_text(record, lang, health, away, banks)
                    + await webpage.status_line(self.bot, record, lang),
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=loc("discord.cmd.panel.name"),
                          description=loc("discord.cmd.panel.description"))
    @app_commands.guild_only()
    async def panel(self, interaction: Interaction) -> None:
        """Your private panel: your hand, your decisions, what you alone may see."""
        record = await self._record(interaction)
        await send_panel(interaction, build_panel(self.bot, record, interaction.user.id,
                                                  lang_of(interaction), board=True))

    @app_commands.command(name=loc("discord.cmd.board.name"),
                          description=loc("discord.cmd.board.description"))
    @app_commands.guild_only()
    async def board(self, interaction: Interaction) -> None:
        """Post the current board in the channel (privately when the caller had it posted
        here less than ``DINGIR_REPOST_SECONDS`` ago)."""
        wait = self.bot.service.members.repost_wait("board", interaction.channel_id or 0,
                                                    interaction.user.id)
        record = await self._record(interaction, ephemeral=bool(wait))
        lang = lang_of(interaction) if wait else record.lang
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=bool(wait), thinking=True)
        image = await posting.board_image(self.bot, record, lang)
        text = posting.turn_text(record, lang, buttons=False)
        if wait:
            text = tr(lang, "discord.board_private", seconds=math.ceil(wait)) + "\n" + text
        await interaction.followup.send(
            text, files=image.files, embeds=image.embeds, ephemeral=bool(wait),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name=loc("discord.cmd.log.name"),
                          description=loc("discord.cmd.log.description"))
    @app_commands.rename(page=loc("discord.cmd.log.page.name"))
    @app_commands.describe(page=loc("discord.cmd.log.page.description"))
    @app_commands.guild_only()
    async def log(self, interaction: Interaction,
                  page: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        """The readable history of the game, a page at a time."""
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, view = await log_page(self.bot, interaction.channel_id or 0,
                                       interaction.user.id, lang,
                                       None if page is None else page - 1)
        await interaction.followup.send(content, ephemeral=True, view=view)

    @app_commands.command(name=loc("discord.cmd.resign.name"),
                          description=loc("discord.cmd.resign.description"))
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        """Give up your seat; the game goes on without you (or ends)."""
        record = await in_time(interaction, self.bot.service.admin.resign(
            interaction.channel_id or 0, interaction.user.id), ephemeral=False)
        name = safe(interaction.user.display_name)
        if record.status == "aborted":      # nobody is left to play: say so, post no board
            await reply(interaction, tr(record.lang, "discord.resigned_last", name=name,
                                        game=game_title(record, record.lang)),
                        ephemeral=False)
            return
        await reply(interaction, tr(record.lang, "discord.resigned", name=name), ephemeral=False)
        seat = next(s.seat for s in record.seats if s.user_id == interaction.user.id)
        if seat in record.active:           # the AI plays on for them now; else nothing moves
            self.bot.spawn(posting.advance(self.bot, None, record.id), f"resign-{record.id}")

    @app_commands.command(name=loc("discord.cmd.follow.name"),
                          description=loc("discord.cmd.follow.description"))
    @app_commands.rename(each_turn=loc("discord.cmd.follow.each_turn.name"),
                         stop=loc("discord.cmd.follow.stop.name"))
    @app_commands.describe(each_turn=loc("discord.cmd.follow.each_turn.description"),
                           stop=loc("discord.cmd.follow.stop.description"))
    @app_commands.guild_only()
    async def follow(self, interaction: Interaction, each_turn: bool = False,
                     stop: bool = False) -> None:
        """Follow the channel's game by direct message (anyone may), or stop."""
        lang = lang_of(interaction)
        record = await in_time(interaction, self.bot.service.members.follow(
            interaction.channel_id or 0, interaction.user.id, lang, each_turn, stop))
        key = ("discord.unfollowed" if stop else
               "discord.following_turns" if each_turn else "discord.following")
        await reply(interaction, tr(lang, key, game=game_title(record, lang)))

    @app_commands.command(name=loc("discord.cmd.replace.name"),
                          description=loc("discord.cmd.replace.description"))
    @app_commands.rename(seat=loc("discord.cmd.replace.seat.name"),
                         player=loc("discord.cmd.replace.player.name"))
    @app_commands.describe(seat=loc("discord.cmd.replace.seat.description"),
                           player=loc("discord.cmd.replace.player.description"))
    @app_commands.guild_only()
    async def replace(self, interaction: Interaction, seat: app_commands.Range[int, 1, 6],
                      player: discord.Member | discord.User | None = None) -> None:
        """Hand a seat to another member, or to the AI: your own seat, or an absent
        player's (the creator or an admin); a present player is asked instead."""
        record = await seats.replace(interaction, seat - 1, player)
        if record is not None and player is None and seat - 1 in record.active:
            self.bot.spawn(posting.advance(self.bot, None, record.id),   # the AI plays now
                           f"replace-{record.id}")

    async def _after_change(self, record: GameRecord) -> None:
        """Post the board after a resignation or an import, then let AI seats play."""
        async with self.bot.service.loop.telling(record.id):
            await posting.post_board(self.bot, record)
        await posting.advance(self.bot, None, record.id)

    @app_commands.command(name=loc("discord.cmd.skip.name"),
                          description=loc("discord.cmd.skip.description"))
    @app_commands.guild_only()
    async def skip(self, interaction: Interaction) -> None:
        """Vote to skip the turn of a player whose time ran out (vote_skip policy)."""
        vote = await in_time(interaction, self.bot.service.autoplay.vote_skip(
            interaction.channel_id or 0, interaction.user.id), ephemeral=False)
        lang = vote.record.lang
        name = seat_name(vote.record, vote.seat, lang)
        key = "discord.skipped" if vote.skipped else "discord.skip_vote"
        await reply(interaction, tr(lang, key, name=name, votes=vote.votes, n=vote.needed),
                    ephemeral=False)
        if vote.steps:
            self.bot.spawn(self._after_skip(vote.record.id, list(vote.steps)),
                           f"skip-{vote.record.id}")

    async def _after_skip(self, game_id: int, steps: list[StepResult]) -> None:
        async with self.bot.service.loop.telling(game_id):
            await posting.report_steps(self.bot, steps)
        await posting.advance(self.bot, None, game_id)

    @app_commands.command(name=loc("discord.cmd.abort.name"),
                          description=loc("discord.cmd.abort.description"))
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        """Cancel the game (creator or Manage Server)."""
        record = await in_time(interaction, self.bot.service.admin.abort(
            interaction.channel_id or 0, interaction.user.id, is_admin(interaction)),
            ephemeral=False)
        await reply(interaction, tr(record.lang, "discord.aborted",
                                    game=game_title(record, record.lang),
                                    name=safe(interaction.user.display_name)), ephemeral=False)
        if record.state is None:          # a lobby: its message loses its buttons
            await refresh_lobby(self.bot, record)

    @app_commands.command(name=loc("discord.cmd.pause.name"),
                          description=loc("discord.cmd.pause.description"))
    @app_commands.rename(paused=loc("discord.cmd.pause.paused.name"))
    @app_commands.describe(paused=loc("discord.cmd.pause.paused.description"))
    @app_commands.guild_only()
    async def pause(self, interaction: Interaction, paused: bool = True) -> None:
        """Pause the game (no reminders, no moves) or resume it (creator or Manage Server)."""
        record = await self._record(interaction)
        if record.creator_id != interaction.user.id and not is_admin(interaction):
            raise ServiceError(Text.of("discord.creator_only"))
        record = await in_time(interaction, self.bot.service.admin.pause(record.id, paused),
                               ephemeral=False)
        key = "discord.paused" if paused else "discord.resumed"
        await reply(interaction, tr(record.lang, key), ephemeral=False)
        if not paused:
            self.bot.spawn(self._after_change(record), f"resume-{record.id}")

    @app_commands.command(name=loc("discord.cmd.settings.name"),
                          description=loc("discord.cmd.settings.description"))
    @app_commands.rename(reminder_hours=loc("discord.cmd.settings.reminder.name"),
                         turn_limit_hours=loc("discord.cmd.settings.limit.name"),
                         timeout=loc("discord.cmd.settings.timeout.name"),
                         add_ai=loc("discord.cmd.settings.add_ai.name"),
                         language=loc("discord.cmd.settings.language.name"),
                         time_bank_hours=loc("discord.cmd.settings.bank.name"),
                         bank_bonus_hours=loc("discord.cmd.settings.bonus.name"))
    @app_commands.describe(reminder_hours=loc("discord.cmd.settings.reminder.description"),
                           turn_limit_hours=loc("discord.cmd.settings.limit.description"),
                           timeout=loc("discord.cmd.settings.timeout.description"),
                           add_ai=loc("discord.cmd.settings.add_ai.description"),
                           language=loc("discord.cmd.settings.language.description"),
                           time_bank_hours=loc("discord.cmd.settings.bank.description"),
                           bank_bonus_hours=loc("discord.cmd.settings.bonus.description"))
    @app_commands.choices(timeout=[
        Choice(name=loc(f"discord.policy.{p}"), value=p) for p in ("nothing", "vote_skip", "ai")
    ], language=[Choice(name=loc(f"discord.language.{lang}"), value=lang)
                 for lang in LANGUAGES])
    @app_commands.guild_only()
    async def settings(
        self, interaction: Interaction,
        reminder_hours: app_commands.Range[float, 1, 720] | None = None,
        turn_limit_hours: app_commands.Range[float, 0, 2160] | None = None,
        timeout: str | None = None,
        add_ai: app_commands.Range[int, 1, MAX_AI] | None = None,
        language: str | None = None,
        time_bank_hours: app_commands.Range[float, 0, 2160] | None = None,
        bank_bonus_hours: app_commands.Range[float, 0, 720] | None = None,
    ) -> None:
        """Reminder interval, turn time limit (0 = none), timeout policy, AI seats, the
        language of the channel's posts, time banks (0 = none) and their bonus per turn."""
        channel, user = interaction.channel_id or 0, interaction.user.id
        changes: dict[str, object] = {}
        for name, value in (("time_bank_hours", time_bank_hours),
                            ("bank_bonus_hours", bank_bonus_hours)):
            if value is not None:
                changes[name] = value
        if language is not None:
            changes["lang"] = language
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        if turn_limit_hours is not None:
            changes["turn_limit_hours"] = turn_limit_hours or None
        if timeout is not None:
            changes["timeout_policy"] = timeout
        admin = is_admin(interaction)

        async def change() -> GameRecord | None:
            record = await self.bot.service.core.get(channel)
            if changes:
                record = await self.bot.service.admin.update_settings(channel, user, admin,
                                                                      **changes)
            if add_ai:
                record = await self.bot.service.lobby.add_ai(channel, user, add_ai)
            return record

        record = await in_time(interaction, change(), ephemeral=False)
        if record is None:
            raise ServiceError(Text.of("discord.no_game"))
        await reply(interaction, status_text(record, lang_of(interaction)), ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())
        if add_ai:
            await refresh_lobby(self.bot, record)

    @app_commands.command(name=loc("discord.cmd.list.name"),
                          description=loc("discord.cmd.list.description"))
    @app_commands.guild_only()
    async def list(self, interaction: Interaction) -> None:
        """The games of this server."""
        lang = lang_of(interaction)
        records = await in_time(interaction, self.bot.service.core.list_games(
            interaction.guild_id or 0), ephemeral=True)
        lines = [
            tr(lang, "discord.list_line", channel=f"<#{r.channel_id}>",
               game=game_title(r, lang), status=tr(lang, f"discord.status.{r.status}"),
               n=len(r.seats))
            for r in records
        ]
        text = "\n".join([tr(lang, "discord.list_title", n=len(lines)), *lines])
        await reply(interaction, text[:2000])

    @app_commands.command(name=loc("discord.cmd.notify.name"),
                          description=loc("discord.cmd.notify.description"))
    @app_commands.rename(enabled=loc("discord.cmd.notify.enabled.name"))
    @app_commands.describe(enabled=loc("discord.cmd.notify.enabled.description"))
    async def notify(self, interaction: Interaction, enabled: bool) -> None:
        """Opt in or out of reminders by direct message."""
        await in_time(interaction, self.bot.service.members.set_notify(
            interaction.user.id, enabled, lang_of(interaction)),
                      ephemeral=True)
        key = "discord.notify_on" if enabled else "discord.notify_off"
        await reply(interaction, tr(lang_of(interaction), key))

    @app_commands.command(name=loc("discord.cmd.export.name"),
                          description=loc("discord.cmd.export.description"))
    @app_commands.guild_only()
    async def export(self, interaction: Interaction) -> None:
        """The game as a JSON file: seed, options, seats, action log (a game with secrets
        that has not finished: only what the caller may see)."""
        channel = interaction.channel_id or 0
        document = await in_time(interaction, self.bot.service.history.export(
            channel, interaction.user.id), ephemeral=True)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
        name = f"dingir-{document.get('game', 'game')}-{channel}.json"
        key = "discord.exported" if document.get("complete", True) else "discord.exported_partial"
        await reply(interaction, tr(lang_of(interaction), key),
                    file=discord.File(io.BytesIO(data), filename=name))

    @app_commands.command(name=loc("discord.cmd.import.name"),
                          description=loc("discord.cmd.import.description"))
    @app_commands.rename(file=loc("discord.cmd.import.file.name"))
    @app_commands.describe(file=loc("discord.cmd.import.file.description"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def import_(self, interaction: Interaction, file: discord.Attachment) -> None:
        """Replay an exported game here and continue it (Manage Server). A refusal is
        private and can mention nobody; only the imported game is announced publicly."""
        lang = lang_of(interaction)
        if not is_admin(interaction):
            raise ServiceError(Text.of("discord.admin_only"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            document = await self._read_import(file)
            record = await self.bot.service.history.import_game(
                interaction.guild_id, interaction.channel_id or 0, player_of(interaction),
                document, check_seats=lambda seats: self._check_members(interaction, seats))
        except ServiceError as refusal:     # it may quote the file: a name, a notation
            await reply(interaction, discord.utils.escape_mentions(
                translate(refusal.reason, lang)), allowed_mentions=discord.AllowedMentions.none())
            return
        await reply(interaction, tr(lang, "discord.import_done",
                                    game=game_title(record, lang)))
        here = record.lang                  # the channel hears it in the game's language
        await interaction.followup.send(
            tr(here, "discord.imported", game=game_title(record, here),
               seats=seats_text(record, here)),
            allowed_mentions=discord.AllowedMentions.none())
        if record.status == "running":
            self.bot.spawn(self._after_change(record), f"import-{record.id}")

    @staticmethod
    async def _read_import(file: discord.Attachment) -> object:
        """The JSON of an uploaded export file, decoded in a thread (it may be long)."""
        if file.size > MAX_IMPORT_BYTES:
            raise ServiceError(Text.of("discord.import_too_big", max=MAX_IMPORT_BYTES >> 20))
        try:
            return await asyncio.to_thread(json.loads, await file.read())
        except (ValueError, RecursionError, discord.HTTPException):
            raise ServiceError(Text.of("discord.bad_import")) from None

    @staticmethod
    async def _check_members(interaction: Interaction, seats: tuple[SeatEntry, ...]) -> None:
        """Refuse a document that seats someone who is not a member of this server, naming
        the seat and its escaped name (never a mention)."""
        guild = interaction.guild
        for seat in seats:
            if guild is None or seat.user_id is None:    # an AI seat
                continue
            try:
                await guild.fetch_member(seat.user_id)
            except discord.NotFound:
                raise ServiceError(Text.of("discord.import_not_member", seat=seat.seat + 1,
                                           name=safe(seat.name))) from None


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Lobby(bot))
