"""``/game log``: the readable history of a game, a page at a time."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import Report, Seat
from bot.i18n import tr
from bot.records import GameRecord, LogEntry
from cogs import buttons
from cogs.buttons import Press, on_press
from cogs.common import (
    Interaction,
    bot_of,
    fit,
    game_title,
    lang_of,
    on_private_message,
    seat_name,
    text_of,
)
from host.client import DingirBot

LOG_PAGE = 15
"""Log entries per page of ``/game log``."""


def log_lines(record: GameRecord, entries: Sequence[LogEntry], reports: Sequence[Report],
              lang: str, viewer: Seat | None = None) -> list[str]:
    """Readable log lines as ``viewer`` may read them (None: the public), from what each
    step did (:meth:`~bot.service.history.History.reports`)."""
    lines = []
    for entry, report in zip(entries, reports, strict=False):
        lines.append(tr(lang, "discord.log_line", index=entry.index + 1, turn=entry.turn + 1,
                        name=seat_name(record, entry.seat, lang),
                        step=text_of(report.for_seat(viewer), record, lang)))
    return lines


async def log_page(bot: DingirBot, channel_id: int, user_id: int, lang: str, page: int | None,
                   game_id: int | None = None) -> tuple[str, discord.ui.View]:
    """One page of the log of the channel's game as ``user_id`` may read it (the last page
    when ``page`` is None)."""
    record, entries = await bot.service.history.log(channel_id)
    if game_id is not None and record.id != game_id:
        return tr(lang, "discord.moved_on"), buttons.view_of()
    if record.state is None:                 # a lobby: nothing played yet
        return tr(lang, "discord.log_empty"), buttons.view_of()
    viewer = bot.service.core.seat_of(record, user_id)
    reports = await bot.service.history.reports(record, entries)
    lines = log_lines(record, entries, reports, lang, viewer)
    if not lines:
        return tr(lang, "discord.log_empty"), buttons.view_of()
    pages = (len(lines) + LOG_PAGE - 1) // LOG_PAGE
    index = pages - 1 if page is None else max(0, min(page, pages - 1))
    body = "\n".join(lines[index * LOG_PAGE:(index + 1) * LOG_PAGE])
    title = tr(lang, "discord.log_title", game=game_title(record, lang),
               page=index + 1, pages=pages)
    items = []
    if index > 0:
        items.append(buttons.button(record.id, 0, "log", index - 1,
                                    label=tr(lang, "discord.page_prev")))
    if index < pages - 1:
        items.append(buttons.button(record.id, 0, "log", index + 1,
                                    label=tr(lang, "discord.page_next")))
    return fit(f"{title}\n{body}"), buttons.view_of(*items)


@on_press("log")
async def press_log(interaction: Interaction, press: Press) -> None:
    """Another page of ``/game log`` (edits the private message in place; pressed on a
    public message, a new private one)."""
    bot, lang, page = bot_of(interaction), lang_of(interaction), press.number
    await interaction.response.defer(ephemeral=True,
                                     thinking=not on_private_message(interaction))
    record = await bot.service.core.get_by_id(press.game_id)
    if record is None:
        raise buttons.unknown_button()
    content, view = await log_page(bot, record.channel_id, interaction.user.id, lang,
                                   page, record.id)
    await interaction.edit_original_response(content=content, view=view)
