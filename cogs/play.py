"""Playing: ``/play`` with autocomplete, and the private turn panel driven by buttons.

The public turn message carries "Take my turn". Pressing it opens the turn
panel, an ephemeral message for the active player: the board as they see it (the
turn message's own image when nothing changed since, else a new preview), the
current step's options as buttons (up to 20) or a paged select menu, Undo, Board
and End turn. Each click plays one step (saved at once) and
edits the panel in place, listing the turn's steps so far; "Board" shows the
preview again as it is now. When the turn ends the panel says so and a new
turn message is posted in the channel, then the AI seats (if any) play theirs.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import GameError, Seat, Text
from bot.i18n import tr
from bot.notation import localized, whole_number
from bot.records import GameRecord, ServiceError, StaleVersion, StepResult
from cogs import buttons, choices, posting
from cogs.buttons import Press, on_press, unknown_button
from cogs.common import (
    Guarded,
    Interaction,
    alternatives,
    bot_of,
    error_text,
    fit,
    game_title,
    in_time,
    label,
    lang_of,
    listed,
    loc,
    on_private_message,
    own_step,
    read_by,
    reply,
    seat_name,
    text_of,
)
from host.client import DingirBot
from host.registry import CATALOGUE

log = logging.getLogger(__name__)

STALE = Text.of("service.stale_version")
"""Why a button no longer plays when its decision was taken (not when its clock ran out)."""
MAX_CHOICES = 25
"""Autocomplete answers (Discord's limit)."""
AUTOCOMPLETE_SECONDS = 2.0
"""An autocomplete cannot be deferred: past this, answer with no choices."""
MAX_TYPED = 100
"""Longest step ``/play`` takes (Discord refuses longer text; notations are far shorter)."""
AI_ANSWER_WAIT = 5.0
"""How long a player's panel waits for the answer of an AI they asked to decide."""


@dataclass
class Panel:
    """The content of a turn panel (or of its replacement when there is nothing to do)."""

    content: str
    board: posting.BoardImage = field(default_factory=posting.BoardImage)
    view: discord.ui.View = field(default_factory=buttons.view_of)
    played: bool = False
    """True when the press that made this panel played a step."""


def _status_line(record: GameRecord | None, lang: str) -> str:
    if record is None:
        return tr(lang, "discord.no_game")
    if record.status == "lobby":
        return tr(lang, "discord.not_started")
    if record.status == "paused":
        return tr(lang, "discord.game_paused")
    if record.status != "running" or not record.active:
        return tr(lang, "discord.game_finished")
    names = [seat_name(record, s, lang) for s in record.active]
    if len(names) > 1:     # several decide at once (sealed bids): wait for them all
        return tr(lang, "discord.waiting_for", names=listed(lang, names))
    return tr(lang, "discord.not_your_turn_now", mention=names[0])


def _prompt_lines(record: GameRecord, seat: Seat, lang: str) -> list[str]:
    """What the seat's decision asks (the engine's prompt) and its clock, if any."""
    prompt = CATALOGUE.prompt(record, seat)
    lines = [text_of(prompt.text, record, lang)] if prompt is not None else []
    if seat in record.active:
        lines.append(posting.deadline_text(record, seat, lang))
    return lines


async def _private_image(bot: DingirBot, record: GameRecord, seat: Seat, lang: str,
                         board: bool) -> posting.BoardImage:
    """What the seat sees, when the panel opens or is asked for it (``board``): an image
    after every step would cost each step a render."""
    if board:
        return await posting.board_image(bot, record, lang, seat, preview=True)
    return posting.BoardImage()


async def build_panel(bot: DingirBot, record: GameRecord | None, user_id: int, lang: str,
                      *, page: int = 0, group: tuple[int, ...] = (), note: str = "",
                      board: bool = False) -> Panel:
    """The private panel of ``user_id`` for the current state of ``record``: their
    options when a decision is theirs (behind the choices ``group``, on ``page``; see
    :mod:`cogs.choices`), else what they may see and who is deciding. With ``board`` it
    carries a preview of the board as they see it (when it opens, or on request: a
    preview after every step would cost each step an image)."""
    head = f"{note}\n" if note else ""
    seat = bot.service.core.seat_of(record, user_id) if record is not None else None
    if record is not None and record.state is not None and seat is None \
            and record.status == "running":
        return await _spectator_panel(bot, record, lang, head, board)
    if record is None or record.state is None or seat is None or record.status != "running":
        return Panel(head + _status_line(record, lang))
    game = game_title(record, lang)
    if seat not in record.active:
        body = [head + tr(lang, "discord.panel_private", game=game, turn=record.turn + 1),
                *_prompt_lines(record, seat, lang), _status_line(record, lang)]
        image = await _private_image(bot, record, seat, lang, board)
        items = [buttons.button(record.id, record.version, "me",
                                label=tr(lang, "discord.refresh"))]
        step = await bot.service.turns.undoable_step(record, seat)
        if step is not None:   # a sealed choice can be taken back until the reveal
            items.append(buttons.button(record.id, record.version, "undo", step,
                                        label=tr(lang, "discord.undo")))
        return Panel("\n".join(x for x in body if x), image, buttons.view_of(*items))
    version = record.seat_version(seat)
    legal = CATALOGUE.legal_steps(record, seat)
    options = [(i, a) for i, a in enumerate(legal) if a.group != "end" and a.offered]
    ends = [i for i, a in enumerate(legal) if a.group == "end"]
    items, control_row, hint = choices.option_items(record, version, options, page, group,
                                                    lang)
    if await bot.service.turns.undoable_step(record, seat) is not None:
        items.append(buttons.button(record.id, version, "undo", row=control_row,
                                    label=tr(lang, "discord.undo")))
    items.append(buttons.button(record.id, version, "board", row=control_row,
                                label=tr(lang, "discord.show_board")))
    if ends:
        items.append(buttons.button(record.id, version, "a", ends[0], row=control_row,
                                    label=tr(lang, "discord.end_turn"),
                                    style=discord.ButtonStyle.success))
    title = tr(lang, "discord.panel_title", game=game, turn=record.turn + 1)
    choose = tr(lang, "discord.panel_choose", board=tr(lang, "discord.show_board"))
    body = [head + title, *_prompt_lines(record, seat, lang), choose, hint]
    image = await _private_image(bot, record, seat, lang, board)
    return Panel("\n".join(x for x in body if x), image, buttons.view_of(*items))


async def _spectator_panel(bot: DingirBot, record: GameRecord, lang: str, head: str,
                           board: bool) -> Panel:
    """What a member with no seat sees: that they are watching, the public board, whose
    turn it is, and a button to follow the game."""
    image = await posting.board_image(bot, record, lang) if board else posting.BoardImage()
    follow = buttons.button(record.id, 0, "follow", label=tr(lang, "discord.follow_button"),
                            style=discord.ButtonStyle.primary)
    names = tr(lang, "core.list_separator").join(seat_name(record, s, lang)
                                                 for s in record.active)
    text = "\n".join((head + tr(lang, "discord.spectator"),
                      tr(lang, "discord.now_playing", names=names)))
    return Panel(text, image, buttons.view_of(follow))


@on_press("follow")
async def press_follow(interaction: Interaction, press: Press) -> None:
    """"Follow this game" on a spectator's panel: a DM when the game ends."""
    bot, lang = bot_of(interaction), lang_of(interaction)
    record = await in_time(interaction, bot.service.members.follow(
        interaction.channel_id or 0, interaction.user.id, lang, each_turn=False))
    await reply(interaction, tr(lang, "discord.following",
                                game=game_title(record, lang)))


async def show_panel(interaction: Interaction, work: Awaitable[Panel]) -> None:
    """Replace the pressed panel with the one ``work`` builds (directly, or after a
    deferral if the work is slow); pressed on a public message, answer with a new private
    one instead (a public message is never edited into someone's panel)."""
    if not on_private_message(interaction):
        await send_panel(interaction, work)
        return
    panel = await in_time(interaction, work, update=True)
    content, board = fit(panel.content), panel.board
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, attachments=board.files,
                                                 embeds=board.embeds, view=panel.view)
    else:
        await interaction.response.edit_message(content=content, attachments=board.files,
                                                embeds=board.embeds, view=panel.view)


async def send_panel(interaction: Interaction, work: Awaitable[Panel]) -> None:
    """Answer ``interaction`` with the panel ``work`` builds, as a new private message
    (after a deferral if the work is slow)."""
    panel = await in_time(interaction, work)
    await reply(interaction, panel.content, files=panel.board.files, embeds=panel.board.embeds,
                view=panel.view)


def turn_done(bot: DingirBot, result: StepResult, seat: Seat, lang: str) -> Panel:
    """What the panel says once the turn ended; posts the turn in the background."""
    bot.spawn(posting.advance(bot, result, result.record.id, present=True),
              f"advance-{result.record.id}")
    steps = posting.steps_text(result.record, result.turn_steps, lang, viewer=seat)
    return Panel(tr(lang, "discord.turn_done", steps=steps))


async def after_step(bot: DingirBot, result: StepResult, user_id: int, lang: str) -> Panel:
    """The panel after an accepted step: the next options (or what the player waits for),
    or "turn done" (with the next options when the next turn is theirs too). Whatever the
    channel must hear of the step (a decision put to another player, an announcement, an
    AI seat to play) goes out in the background; the answer of an AI asked to decide
    (a swap offered to it) is waited for up to :data:`AI_ANSWER_WAIT` seconds and told."""
    if result.turn_ended or result.outcome is not None:
        done = turn_done(bot, result, result.seat, lang)
        if result.outcome is None and result.seat in result.record.active:   # theirs again
            return await build_panel(bot, result.record, user_id, lang, note=done.content)
        return done
    seat = result.seat
    note = tr(lang, "discord.step_done",
              step=own_step(result.report.for_seat(seat), result.record, seat, lang))
    if not posting.needs_posting(result):
        return await build_panel(bot, result.record, user_id, lang, note=note)
    moving_on = bot.spawn(posting.advance(bot, result, result.record.id, present=True),
                          f"advance-{result.record.id}")
    if not posting.asks_ai_only(result):
        return await build_panel(bot, result.record, user_id, lang, note=note)
    try:                     # the AI answers at once: the panel tells it, if it is quick
        told = await asyncio.wait_for(asyncio.shield(moving_on), AI_ANSWER_WAIT)
    except Exception:        # still thinking (TimeoutError), or failed (the task logs it)
        return await build_panel(bot, result.record, user_id, lang, note=note)
    record = await bot.service.core.get_by_id(result.record.id) or result.record
    answer = next((r for r in told if r.seat in result.asked), None)
    if answer is not None:
        note += "\n" + tr(lang, "discord.answered", name=seat_name(record, answer.seat, lang),
                          step=read_by(answer.report.for_seat(result.seat), record, result.seat,
                                       lang))
    return await build_panel(bot, record, user_id, lang, note=note)


async def _step_panel(bot: DingirBot, press: Press, index: int, user: int, lang: str,
                      seat_asked: Seat | None = None) -> Panel:
    """Play legal step ``index`` of the caller's decision the pressed panel was made at;
    the panel that follows (or the panel with the reason nothing was played)."""
    record = await bot.service.core.get_by_id(press.game_id)
    seat = bot.service.core.seat_of(record, user) if record is not None else None
    if record is not None and seat_asked is not None and seat != seat_asked:
        if seat_asked >= len(record.seats):        # no seat of this game: not our button
            return Panel(tr(lang, "discord.unknown_button"))
        return Panel(tr(lang, "discord.not_your_question",
                        name=seat_name(record, seat_asked, lang)))
    if record is None or seat is None or record.state is None:
        return await build_panel(bot, record, user, lang, note=tr(lang, "discord.moved_on"))
    stale = bot.service.turns.stale_reason(record, seat, press.version)
    legal = CATALOGUE.legal_steps(record, seat) if stale is None else []
    if not 0 <= index < len(legal):
        note = text_of(stale, record, lang) if stale else tr(lang, "discord.moved_on")
        return await build_panel(bot, record, user, lang, note=note)
    try:
        result = await bot.service.turns.play_by_id(
            record.id, user, legal[index].notation, expected_version=press.version
        )
        if legal[index].closes_turn:
            result = await _end_with(bot, result, user)
    except (ServiceError, GameError) as error:
        fresh = await bot.service.core.get_by_id(press.game_id)
        return await build_panel(bot, fresh, user, lang,
                                 note=error_text(error, lang, fresh) or "")
    panel = await after_step(bot, result, user, lang)
    panel.played = True
    return panel


async def _end_with(bot: DingirBot, result: StepResult, user: int) -> StepResult:
    """After a step that closes the turn, end it too when ending is all that is left (the
    panel's "... and end the turn"); the turn as it ended (or the step's result)."""
    record = result.record
    if result.turn_ended or record.state is None or result.seat not in record.active:
        return result
    left = CATALOGUE.legal_steps(record, result.seat)
    if len(left) != 1 or left[0].group != "end":
        return result
    return await bot.service.turns.play_by_id(record.id, user, left[0].notation,
                                              expected_version=record.seat_version(result.seat))


async def _play_index(interaction: Interaction, press: Press, index: int) -> None:
    bot, lang = bot_of(interaction), lang_of(interaction)
    work = _step_panel(bot, press, index, interaction.user.id, lang)
    await show_panel(interaction, work)


@on_press("a")
async def press_step(interaction: Interaction, press: Press) -> None:
    """A step button of the panel (``a<index>``)."""
    await _play_index(interaction, press, press.number)


@on_press("sel")
async def press_select(interaction: Interaction, press: Press) -> None:
    """The select menu of the panel: its value is a step's index, or a choice's (``g<k>``)
    behind the choices its menu was made in."""
    value = press.values[0] if press.values else ""
    if value.startswith("g"):
        group = (*choices.parse_group(press.arg), *choices.parse_group(value[1:]))
        work = _same_panel(bot_of(interaction), press, interaction.user.id,
                           lang_of(interaction), group=group)
        await show_panel(interaction, work)
        return
    index = whole_number(value)
    if index is None:
        raise unknown_button()
    await _play_index(interaction, press, index)


@on_press("grp")
async def press_choice(interaction: Interaction, press: Press) -> None:
    """A choice of the panel (or **Back**): the options behind it."""
    work = _same_panel(bot_of(interaction), press, interaction.user.id, lang_of(interaction),
                       group=choices.parse_group(press.arg))
    await show_panel(interaction, work)


def _moved_on(bot: DingirBot, record: GameRecord | None, user: int, press: Press) -> bool:
    """True when the caller's decision is no longer the one the pressed panel showed."""
    seat = bot.service.core.seat_of(record, user) if record is not None else None
    return record is None or seat is None or record.seat_version(seat) != press.version


async def _same_panel(bot: DingirBot, press: Press, user: int, lang: str, *, page: int = 0,
                      group: tuple[int, ...] = (), board: bool = False) -> Panel:
    record = await bot.service.core.get_by_id(press.game_id)
    moved = _moved_on(bot, record, user, press)
    note = tr(lang, "discord.moved_on") if moved else ""
    return await build_panel(bot, record, user, lang, page=0 if moved else page,
                             group=() if moved else group, note=note, board=board)


@on_press("pg")
async def press_page(interaction: Interaction, press: Press) -> None:
    """Another page of the panel's select menu (``pg<page>[:<choice>...]``)."""
    page, group = choices.parse_where(press.arg)
    work = _same_panel(bot_of(interaction), press, interaction.user.id, lang_of(interaction),
                       page=page, group=group)
    await show_panel(interaction, work)


@on_press("board")
async def press_board(interaction: Interaction, press: Press) -> None:
    """The panel again, with a preview of the board as it is now."""
    work = _same_panel(bot_of(interaction), press, interaction.user.id, lang_of(interaction),
                       board=True)
    await show_panel(interaction, work)


async def _undo_panel(bot: DingirBot, press: Press, user: int, lang: str) -> Panel:
    """Undo from a turn panel (made at the caller's decision version) or from a waiting
    panel (made for one step: ``undo<log index>``)."""
    record = await bot.service.core.get_by_id(press.game_id)
    step = press.number if press.arg else None
    if record is None or (step is None and _moved_on(bot, record, user, press)):
        note = tr(lang, "discord.moved_on")
    else:
        try:
            record = await bot.service.turns.undo(record.channel_id, user, step)
            note = tr(lang, "discord.undone")
        except (ServiceError, GameError) as error:
            note = error_text(error, lang) or ""
            record = await bot.service.core.get_by_id(press.game_id)
    return await build_panel(bot, record, user, lang, note=note)


@on_press("undo")
async def press_undo(interaction: Interaction, press: Press) -> None:
    """Undo the caller's last step of this turn, then show the panel again."""
    work = _undo_panel(bot_of(interaction), press, interaction.user.id, lang_of(interaction))
    await show_panel(interaction, work)


async def _opened_panel(bot: DingirBot, press: Press, message_id: int | None, user: int,
                        lang: str) -> Panel:
    record = await bot.service.core.get_by_id(press.game_id)
    # a message newer than the recorded one is the turn message still being recorded
    latest = record.last_message_id if record is not None else None
    stale = record is None or (latest is not None and (message_id or 0) < latest)
    return await build_panel(bot, record, user, lang, board=True,
                             note=tr(lang, "discord.moved_on") if stale else "")


@on_press("turn")
async def press_take_turn(interaction: Interaction, press: Press) -> None:
    """"Take my turn" on a public turn message: open a private panel."""
    message_id = interaction.message.id if interaction.message else None
    work = _opened_panel(bot_of(interaction), press, message_id, interaction.user.id,
                         lang_of(interaction))
    await send_panel(interaction, work)


@on_press("me")
async def press_my_panel(interaction: Interaction, press: Press) -> None:
    """"My panel" (on a turn message or a decision message) opens the caller's private
    panel; pressed on that panel itself ("Refresh"), it shows it again as it is now."""
    bot, lang, user = bot_of(interaction), lang_of(interaction), interaction.user.id
    await show_panel(interaction, _latest_panel(bot, press.game_id, user, lang))


async def _latest_panel(bot: DingirBot, game_id: int, user: int, lang: str) -> Panel:
    return await build_panel(bot, await bot.service.core.get_by_id(game_id), user, lang, board=True)


@on_press("q")
async def press_public_step(interaction: Interaction, press: Press) -> None:
    """An option button of a public question (``q<seat>:<index>``): only that seat may
    answer; the answer gets a private panel (the question's post then shows the answer,
    see :func:`cogs.posting.close_question`); a press on a question already answered is
    told so."""
    bot, lang = bot_of(interaction), lang_of(interaction)
    seat_text, _, index_text = press.arg.partition(":")
    seat, index = whole_number(seat_text), whole_number(index_text)
    if seat is None or index is None:
        raise unknown_button()
    panel = await in_time(interaction, _answer_panel(bot, press, seat, index,
                                                     interaction.user.id, lang))
    await reply(interaction, panel.content, files=panel.board.files, embeds=panel.board.embeds,
                view=panel.view)


async def _answer_panel(bot: DingirBot, press: Press, seat: Seat, index: int, user: int,
                        lang: str) -> Panel:
    """Answer the public question of ``seat`` made at ``press.version`` with its option
    ``index``: the panel after it, or why it cannot be answered any more."""
    record = await bot.service.core.get_by_id(press.game_id)
    if record is not None and bot.service.core.seat_of(record, user) == seat \
            and bot.service.turns.stale_reason(record, seat, press.version) == STALE:
        return Panel(tr(lang, "discord.already_answered"))
    return await _step_panel(bot, press, index, user, lang, seat_asked=seat)


async def refusal(bot: DingirBot, error: GameError, channel: int, user: int, lang: str) -> str:
    """The rule that refused a step, and legal alternatives when it is the caller's turn."""
    try:
        record, _, legal = await bot.service.turns.legal(channel, user)
    except (ServiceError, GameError):
        return error_text(error, lang) or ""
    text = error_text(error, lang, record) or ""
    offered = [a for a in legal if a.offered]
    return f"{text}\n{alternatives(record.game, offered, lang)}" if offered else text


UNDO_WORDS = frozenset({"undo", "annuler"})
"""What ``/play`` takes as "take my last step back", in every language."""


CHOSEN = re.compile(r"(?P<notation>.+) #v(?P<version>[0-9]{1,15})")
"""An autocomplete value of ``/play``: the step, and the version of the caller's decision
it was offered at (hidden from the player: Discord shows the choice's name)."""


def chosen_value(notation: str, version: int) -> str:
    """What ``/play``'s autocomplete sends back for a step offered at ``version``."""
    mark = f" #v{version}"
    return notation[:MAX_TYPED - len(mark)] + mark


async def _typed_panel(bot: DingirBot, channel: int, user: int, typed: str,
                       lang: str) -> Panel:
    """Play a typed step on the version of the caller's decision it was chosen at (the
    autocomplete's, else the one current when it arrived): a second copy of it sent at
    once, or a step typed while the board moved, is refused as stale."""
    found = CHOSEN.fullmatch(typed)
    notation = found["notation"] if found else typed
    version = int(found["version"]) if found else await bot.service.turns.decision_version(
        channel, user)
    if notation.strip().lower() in UNDO_WORDS:
        record = await bot.service.turns.undo(channel, user)
        return await build_panel(bot, record, user, lang, note=tr(lang, "discord.undone"))
    try:
        result = await bot.service.turns.play(channel, user, notation, version, lang=lang)
    except GameError as error:
        return Panel(await refusal(bot, error, channel, user, lang))
    except StaleVersion as error:
        latest = await bot.service.core.get(channel)
        if latest is None:
            raise
        return await build_panel(bot, latest, user, lang,
                                 note=error_text(error, lang) or "", board=True)
    return await after_step(bot, result, user, lang)


async def play_typed(interaction: Interaction, notation: str) -> None:
    """Play a typed step for the caller (``/play``, per-game commands): the private panel
    after it, or a private refusal naming the rule and some legal alternatives."""
    work = _typed_panel(bot_of(interaction), interaction.channel_id or 0, interaction.user.id,
                        notation, lang_of(interaction))
    await send_panel(interaction, work)


class Play(Guarded, commands.Cog):
    """``/play``: any legal step of the game in this channel, by typing."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        self._resumed = False

    @app_commands.command(name=loc("discord.cmd.play.name"),
                          description=loc("discord.cmd.play.description"))
    @app_commands.rename(action=loc("discord.cmd.play.action.name"))
    @app_commands.describe(action=loc("discord.cmd.play.action.description"))
    @app_commands.guild_only()
    async def play(self, interaction: Interaction,
                   action: app_commands.Range[str, 1, MAX_TYPED]) -> None:
        """Play one step; a refusal is private and lists legal alternatives."""
        await play_typed(interaction, action)

    @play.autocomplete("action")
    async def play_choices(self, interaction: Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal steps whose label or notation contains what they typed, every
        kind of step among the first (:func:`cogs.choices.interleaved`)."""
        try:
            record, seat, legal = await asyncio.wait_for(
                self.bot.service.turns.legal(interaction.channel_id or 0, interaction.user.id),
                AUTOCOMPLETE_SECONDS)
        except (ServiceError, GameError, TimeoutError):
            return []    # nothing to offer (or a busy database): an answer in time anyway
        lang, needle = lang_of(interaction), current.strip().lower()
        found = []
        for action in choices.interleaved(a for a in legal if a.offered):
            name = label(action, record, lang)
            typed = localized(record.game, action.notation, lang).lower()
            if needle in name.lower() or needle in action.notation.lower() or needle in typed:
                found.append(app_commands.Choice(
                    name=name, value=chosen_value(action.notation, record.seat_version(seat))))
            if len(found) == MAX_CHOICES:
                break
        return found


    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: post boards and final messages lost to a crash, and let AI
        seats whose turn it is play (in the games of this process's shards)."""
        if self._resumed:
            return
        self._resumed = True
        running = await self.bot.service.core.running_games()
        log.info("ready as %s: %d running game(s)", self.bot.user, len(running))
        for record in running:
            self.bot.deadlines.watch(record)
        finals = await self.bot.service.core.unannounced_finals()
        for record in [*running, *finals]:
            if self.bot.service.core.board_missing(record) or any(
                    self.bot.service.core.is_ai(record, s) for s in record.active):
                self.bot.spawn(posting.advance(self.bot, None, record.id), f"resume-{record.id}")


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Play(bot))
