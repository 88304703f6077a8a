"""Handing a seat over (``/game replace``), and asking a present player to hand theirs.

The service rules who may hand a seat over (:meth:`bot.service.admin.Admin.replace_seat`):
the seat's own player, or the creator or an admin when the player is absent. This module
tells the service whether the seat's player left the server, and when the creator asks
for a present player's seat, posts the request in the channel with two buttons only that
player may press: **Hand over my seat** and **Keep my seat**.
"""

from __future__ import annotations

import logging

import discord

from bot.engine import Seat, Text
from bot.i18n import tr
from bot.notation import whole_number
from bot.records import GameRecord, Player, SeatHeld, SeatInfo, ServiceError
from cogs import buttons, posting
from cogs.buttons import Press, on_press, unknown_button
from cogs.common import Interaction, bot_of, in_time, lang_of, reply, safe, seat_name, text_of

log = logging.getLogger(__name__)

REQUEST = "handover"
"""The action of **Hand over my seat**: ``handover<seat>:<user id of the newcomer>``."""
KEEP = "keep"
"""The action of **Keep my seat**: ``keep<seat>``."""


async def has_left(interaction: Interaction, user_id: int | None) -> bool:
    """True when ``user_id`` is no longer a member of the interaction's server."""
    guild = interaction.guild
    if guild is None or user_id is None:
        return False
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound:
        return True
    return False


def replaced_text(record: GameRecord, seat: Seat, old: SeatInfo, lang: str) -> str:
    """The public line that says who plays ``seat`` now (and whose turn it is)."""
    before = safe(old.name) if old.user_id is not None else seat_name(record, seat, lang)
    new = record.seats[seat]
    if new.user_id is None:
        return tr(lang, "discord.replaced_ai", seat=seat + 1, old=before,
                  ai=seat_name(record, seat, lang))
    text = tr(lang, "discord.replaced", seat=seat + 1, old=before, new=f"<@{new.user_id}>")
    if seat in record.active:
        text += "\n" + tr(lang, "discord.replaced_your_turn")
    return text


async def replace(interaction: Interaction, seat: Seat,
                  player: discord.Member | discord.User | None) -> GameRecord | None:
    """``/game replace``: hand ``seat`` (0-based) over and say so in the channel; the new
    record, or None when the seat's player is present and was asked instead."""
    bot = bot_of(interaction)
    if player is not None and player.bot:
        raise ServiceError(Text.of("discord.replace_bot"))
    newcomer = None if player is None else Player(player.id, player.display_name)
    channel = interaction.channel_id or 0
    current = await bot.service.core.get(channel)
    held = current.seats[seat] if current is not None and 0 <= seat < len(current.seats) \
        else None
    left = held is not None and held.user_id != interaction.user.id and not held.resigned \
        and await has_left(interaction, held.user_id)
    try:
        record, old = await in_time(interaction, bot.service.admin.replace_seat(
            channel, interaction.user.id, bool(interaction.permissions.manage_guild), seat,
            newcomer, player_left=left), ephemeral=False)
    except SeatHeld as error:
        assert current is not None
        await _ask(interaction, current, error, newcomer)
        return None
    await reply(interaction, replaced_text(record, seat, old, record.lang), ephemeral=False)
    return record


async def _ask(interaction: Interaction, record: GameRecord, error: SeatHeld,
               newcomer: Player | None) -> None:
    """Tell the caller privately why the seat stays, and (once a while, for a member)
    ask its player in the channel."""
    bot, lang = bot_of(interaction), lang_of(interaction)
    refusal = text_of(error.reason, record, lang)
    wait = 1.0 if newcomer is None else bot.service.members.repost_wait(
        "handover", record.channel_id, interaction.user.id)
    if newcomer is None:
        await reply(interaction, refusal + "\n" + tr(lang, "discord.handover_ai_hint"))
        return
    if wait:
        await reply(interaction, refusal)
        return
    await reply(interaction, refusal + "\n" + tr(lang, "discord.handover_asked",
                                                 who=seat_name(record, error.seat, lang)))
    channel_lang = record.lang
    text = tr(channel_lang, "discord.handover_request", player=f"<@{error.user_id}>",
              creator=safe(interaction.user.display_name), seat=error.seat + 1,
              new=safe(newcomer.name))
    view = buttons.view_of(
        buttons.button(record.id, 0, REQUEST, f"{error.seat}:{newcomer.user_id}",
                       label=tr(channel_lang, "discord.handover_yes"),
                       style=discord.ButtonStyle.primary),
        buttons.button(record.id, 0, KEEP, error.seat,
                       label=tr(channel_lang, "discord.handover_no")))
    await posting.send(bot, record, text, view=view, remember=False)


async def _answering_seat(interaction: Interaction, press: Press, seat: Seat) -> GameRecord:
    """The game, when the presser holds ``seat``; else a private refusal."""
    bot = bot_of(interaction)
    record = await bot.service.core.get_by_id(press.game_id)
    if record is None or record.status not in ("running", "paused") \
            or not 0 <= seat < len(record.seats):
        raise ServiceError(Text.of("discord.handover_over"))
    if bot.service.core.seat_of(record, interaction.user.id) != seat:
        raise ServiceError(Text.of("discord.handover_not_yours",
                                   who=seat_name(record, seat, lang_of(interaction))))
    return record


@on_press(REQUEST)
async def press_hand_over(interaction: Interaction, press: Press) -> None:
    """**Hand over my seat**: the seat's own player agrees; the channel is told (the new
    player mentioned) and the request loses its buttons."""
    seat_text, _, user_text = press.arg.partition(":")
    seat, newcomer_id = whole_number(seat_text), whole_number(user_text)
    if seat is None or newcomer_id is None:
        raise unknown_button()
    record = await _answering_seat(interaction, press, seat)
    guild = interaction.guild
    try:
        member = await guild.fetch_member(newcomer_id) if guild is not None else None
    except discord.NotFound:
        member = None
    if member is None:
        raise ServiceError(Text.of("discord.handover_gone"))
    bot = bot_of(interaction)
    record, old = await in_time(interaction, bot.service.admin.replace_seat(
        record.channel_id, interaction.user.id, False, seat,
        Player(member.id, member.display_name)), ephemeral=False)
    await reply(interaction, replaced_text(record, seat, old, record.lang), ephemeral=False)
    if interaction.message is not None:
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            log.info("could not close the hand-over request %s", interaction.message.id)


@on_press(KEEP)
async def press_keep(interaction: Interaction, press: Press) -> None:
    """**Keep my seat**: the seat's player declines; the request says so."""
    record = await _answering_seat(interaction, press, press.number)
    seat = press.number
    await interaction.response.edit_message(
        content=tr(record.lang, "discord.handover_kept", who=seat_name(record, seat, record.lang),
                   seat=seat + 1),
        view=buttons.view_of(), allowed_mentions=discord.AllowedMentions.none())
