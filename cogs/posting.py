"""Channel posts of a game: the turn message, the start and the end (with a replay).

Every completed turn gets a NEW message: the board PNG (drawn by a worker
process), a short summary of the turn and a mention of the next player; the
final message has the scores, the ranking, the tie-break and an animated GIF of
the whole game rebuilt from the action log. If the channel is gone or the bot
lost its permissions, the game is paused and its creator is told by DM. The
address of each turn message's image is remembered, so that a panel opened on
the same board shows it again instead of drawing and uploading it anew.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from PIL import Image

from bot import registry
from bot.engine import Action, Outcome, Seat, State
from bot.i18n import tr, translate
from bot.records import GameRecord, LogEntry, PostedBoard, StepResult, StoreUnavailable
from bot.replay import Step, iter_states
from bot.service import GameService
from cogs import buttons
from cogs.common import mention, seat_name
from render.context import RenderContext

if TYPE_CHECKING:
    from bot.client import DingirBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"
MAX_UPLOAD = 9_500_000
"""Bytes an animation may use (Discord's limit is 10 MB; keep a margin for the message)."""
REPLAY_WIDTHS = (640, 480, 360, 240)
"""Frame widths tried in turn until the animation fits under MAX_UPLOAD."""
FRAME_MS, LAST_FRAME_MS = 700, 4000
NOTIFY_MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)
POSTED_BOARD_SECONDS = 6 * 3600
"""How long the image of a turn message stands in for a new render of the same board
(Discord's signed attachment addresses last about a day)."""
POSTED_BOARDS_KEPT = 20_000
"""Games whose latest image is remembered (about 300 bytes each): abandoned or aborted
games are forgotten in time."""
STORE_RETRY_SECONDS = (1, 2, 4, 8, 15, 30, 60)
"""Waits before the AI tries again when the database is locked or full (then it gives
up until the next restart)."""


def render_context(record: GameRecord, lang: str) -> RenderContext:
    """The names and language a renderer needs for ``record``."""
    return RenderContext(tuple(seat_name(record, s.seat, lang) for s in record.seats), lang)


async def board_png(bot: DingirBot, record: GameRecord, lang: str, seat: Seat | None = None,
                    *, preview: bool = False) -> bytes:
    """The board of ``record`` as ``seat`` sees it, drawn by the workers (smaller
    and cheaper with ``preview``, for private panels)."""
    if record.state is None:
        raise ValueError(f"game {record.id} has no state yet")
    view = registry.get(record.game).engine.view(record.state, seat)
    return await bot.workers.png(record.game, view, render_context(record, lang),
                                 preview=preview)


@dataclass
class BoardImage:
    """A board for a message: a new PNG to upload, or an embed of an image already posted."""

    files: list[discord.File] = field(default_factory=list)
    embeds: list[discord.Embed] = field(default_factory=list)


def posted_board_url(bot: DingirBot, record: GameRecord, lang: str,
                     seat: Seat | None) -> str | None:
    """The address of the turn message's image when it shows exactly the board ``seat``
    would see now in ``lang`` (same state, same language, nothing hidden from the public)."""
    posted = bot.posted_boards.get(record.id)
    if posted is None or posted.version != record.version or posted.lang != lang \
            or time.monotonic() - posted.at > POSTED_BOARD_SECONDS or record.state is None:
        return None
    engine = registry.get(record.game).engine
    if seat is not None and engine.view(record.state, seat) != engine.view(record.state, None):
        return None
    return posted.url


async def board_image(bot: DingirBot, record: GameRecord, lang: str, seat: Seat | None = None,
                      *, preview: bool = False) -> BoardImage:
    """The board of ``record`` as ``seat`` sees it: the turn message's own image when it
    shows exactly that (no render, no upload), else a new PNG (a preview if ``preview``)."""
    url = posted_board_url(bot, record, lang, seat)
    if url is not None:
        return BoardImage(embeds=[discord.Embed().set_image(url=url)])
    return BoardImage(files=[board_file(await board_png(bot, record, lang, seat,
                                                        preview=preview))])


def board_file(png: bytes) -> discord.File:
    """A PNG as a Discord attachment."""
    return discord.File(io.BytesIO(png), filename=BOARD_FILE)


def steps_text(steps: Sequence[Action], lang: str) -> str:
    """The translated labels of a turn's steps, joined."""
    return "; ".join(translate(a.label, lang) for a in steps)


def game_title(record: GameRecord, lang: str) -> str:
    """The game's name in ``lang``."""
    return translate(registry.get(record.game).engine.meta.name, lang)


def next_line(record: GameRecord, lang: str) -> str:
    """Who plays now: a mention of each active human, or the AI's name."""
    if not record.active:
        return ""
    seat = record.active[0]
    if GameService.is_ai(record, seat):
        return tr(lang, "discord.ai_thinking", name=seat_name(record, seat, lang))
    return tr(lang, "discord.your_turn", mention=mention(record, seat, lang))


def final_text(record: GameRecord, outcome: Outcome, lang: str) -> str:
    """Final scores and ranking (ties share a place), the tie-break and the details."""
    lines = [tr(lang, "discord.game_over")]
    place = 1
    for group in outcome.ranking:
        for seat in group:
            lines.append(
                tr(lang, "discord.rank_line", place=place, name=seat_name(record, seat, lang),
                   n=outcome.scores[seat])
            )
        place += len(group)
    winners = ", ".join(seat_name(record, s, lang) for s in outcome.winners)
    lines.append(tr(lang, "discord.winners", n=len(outcome.winners), names=winners))
    if outcome.tiebreak is not None:
        lines.append(tr(lang, "discord.tiebreak", reason=translate(outcome.tiebreak, lang)))
    lines.extend(f"· {translate(d, lang)}" for d in outcome.details)
    return "\n".join(lines)


def turn_text(record: GameRecord, lang: str, result: StepResult | None = None,
              outcome: Outcome | None = None) -> str:
    """The text of a turn message: title, what the last turn did, who is next (or the
    final ``outcome``)."""
    lines = [tr(lang, "discord.turn_title", game=game_title(record, lang), turn=record.turn + 1)]
    if result is not None:
        lines.append(
            tr(lang, "discord.turn_summary", name=seat_name(record, result.seat, lang),
               steps=steps_text(result.turn_steps, lang))
        )
    outcome = outcome or (result.outcome if result is not None else None)
    if outcome is not None:
        lines.append(final_text(record, outcome, lang))
    else:
        lines.append(next_line(record, lang))
    return "\n".join(line for line in lines if line)


def turn_view(record: GameRecord, lang: str) -> discord.ui.View:
    """The "Take my turn" button of a turn message (none when an AI or nobody plays)."""
    if record.status != "running" or not record.active:
        return buttons.view_of()
    if all(GameService.is_ai(record, s) for s in record.active):
        return buttons.view_of()
    take = buttons.button(
        record.id, record.version, "turn", label=tr(lang, "discord.take_turn"),
        style=discord.ButtonStyle.primary,
    )
    return buttons.view_of(take)


async def resolve_channel(bot: DingirBot, channel_id: int) -> discord.abc.Messageable | None:
    """The channel or thread ``channel_id`` (cached, else fetched); None if not a text channel."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def direct_message(bot: DingirBot, user_id: int, content: str) -> bool:
    """DM ``user_id``; False when that is impossible (DMs closed, unknown user)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(content)
    except discord.HTTPException:
        log.info("could not DM user %s", user_id)
        return False
    return True


async def send(
    bot: DingirBot,
    record: GameRecord,
    content: str,
    *,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
    remember: bool = True,
) -> discord.Message | None:
    """Post in the game's channel; on a deleted channel or lost permission pause the game.

    With ``remember`` the message becomes the game's current turn message.
    """
    message: discord.Message | None = None
    try:
        channel = await resolve_channel(bot, record.channel_id)
        if channel is not None:
            message = await channel.send(
                content[:2000], files=list(files), allowed_mentions=NOTIFY_MENTIONS,
                view=view or buttons.view_of(),
            )
    except (discord.Forbidden, discord.NotFound):
        pass
    if message is None:
        log.warning("cannot post in channel %s: pausing game %s", record.channel_id, record.id)
        if record.status == "running":
            await bot.service.pause(record.id, True)
        await direct_message(
            bot, record.creator_id,
            tr(record.lang, "discord.paused_no_channel", game=game_title(record, record.lang),
               channel=f"<#{record.channel_id}>"),
        )
        return None
    if remember:
        try:
            await bot.service.set_message(record.id, message.id, record.turn)
        except StoreUnavailable:  # only bookkeeping: the post itself went out
            log.warning("could not record message %s of game %s", message.id, record.id)
    return message


async def post_board(bot: DingirBot, record: GameRecord, result: StepResult | None = None) -> None:
    """Post the turn message of ``record`` (after ``result``, or at the start)."""
    if result is not None and result.outcome is not None:
        await post_final(bot, record, result)
        return
    lang = record.lang
    files = [board_file(await board_png(bot, record, lang))]
    message = await send(bot, record, turn_text(record, lang, result), files=files,
                         view=turn_view(record, lang))
    if message is not None and message.attachments:
        remember_board(bot.posted_boards, record.id,
                       PostedBoard(record.version, lang, message.attachments[0].url))


def remember_board(boards: dict[int, PostedBoard], game_id: int, posted: PostedBoard) -> None:
    """Keep ``posted`` as the latest image of ``game_id``; past :data:`POSTED_BOARDS_KEPT`
    games, the one posted longest ago is forgotten (its panels draw a preview again)."""
    boards.pop(game_id, None)
    boards[game_id] = posted
    if len(boards) > POSTED_BOARDS_KEPT:
        del boards[next(iter(boards))]


async def post_final(bot: DingirBot, record: GameRecord, result: StepResult | None = None
                     ) -> None:
    """The final message: board, last turn (when ``result`` is known), scores, ranking,
    tie-break, replay animation."""
    lang = record.lang
    bot.posted_boards.pop(record.id, None)
    outcome = result.outcome if result is not None else bot.service.outcome(record)
    files = [board_file(await board_png(bot, record, lang))]
    try:
        logged, entries = await bot.service.log(record.channel_id)
        if logged.id != record.id:
            raise LookupError(f"the log of channel {record.channel_id} is another game's")
        animation = await asyncio.to_thread(replay_gif, record, entries, lang)
    except Exception:  # a replay is a bonus: never lose the final message for it
        log.exception("replay of game %s failed", record.id)
        animation = None
    if animation is not None:
        files.append(discord.File(io.BytesIO(animation), filename=REPLAY_FILE))
    await send(bot, record, turn_text(record, lang, result, outcome), files=files)


def _frames(record: GameRecord, entries: Sequence[LogEntry]) -> list[State]:
    engine = registry.get(record.game).engine
    start = engine.setup(record.seed, len(record.seats), record.options)
    frames, turn = [start], engine.turn_number(start)
    steps = [Step(e.seat, e.notation) for e in entries]
    last: State = start
    for state in iter_states(engine, start, steps):
        last = state
        if engine.turn_number(state) != turn:
            turn = engine.turn_number(state)
            frames.append(state)
    if frames[-1] is not last:
        frames.append(last)
    return frames


def replay_gif(record: GameRecord, entries: Sequence[LogEntry], lang: str) -> bytes | None:
    """An animated GIF of the game, one frame per turn, under MAX_UPLOAD (None if impossible).

    Frames are shrunk and mapped to the palette of the final board as they are drawn
    (little memory); without dithering the encoder stores only what changed each turn.
    """
    entry = registry.get(record.game)
    ctx = render_context(record, lang)
    views = [entry.engine.view(s, None) for s in _frames(record, entries)]
    for width in REPLAY_WIDTHS:
        def shrink(view: dict[str, object], width: int = width) -> Image.Image:
            board = entry.renderer.image(view, ctx).convert("RGB")
            height = max(1, round(board.height * width / board.width))
            return board.resize((width, height), Image.Resampling.BILINEAR)

        palette = shrink(views[-1]).quantize(256, method=Image.Quantize.MEDIANCUT)
        frames = [shrink(v).quantize(palette=palette, dither=Image.Dither.NONE) for v in views]
        out = io.BytesIO()
        durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                       duration=durations, loop=0)
        if out.tell() <= MAX_UPLOAD:
            return out.getvalue()
    return None


async def report_turns(bot: DingirBot, results: Sequence[StepResult]) -> None:
    """Post one message per turn completed in ``results`` (the end included)."""
    for result in results:
        if result.turn_ended or result.outcome is not None:
            await post_board(bot, result.record, result)


async def advance(bot: DingirBot, first: StepResult | None, game_id: int) -> None:
    """After a human step: post its turn, then let the AI seats play and post theirs.

    Runs in the background under the game's lock, so posts stay in order.
    """
    async with bot.game_lock(game_id):
        if first is not None:
            await report_turns(bot, [first])
        missing = first is None
        for delay in (*STORE_RETRY_SECONDS, None):
            try:
                await _move_on(bot, game_id, missing)
                return
            except StoreUnavailable:
                if delay is None:
                    raise
                log.warning("database unavailable while game %s moves on: again in %s s",
                            game_id, delay)
                await asyncio.sleep(delay)
                missing = True   # what went out before the failure is checked again


async def _move_on(bot: DingirBot, game_id: int, missing: bool) -> None:
    """Post what the channel is missing (if ``missing``), then let the AI seats play."""
    record = await bot.service.get_by_id(game_id)
    if missing and record is not None and bot.service.board_missing(record):
        if record.status == "finished":   # the final message was lost to a crash
            await post_final(bot, record)
            return
        await post_board(bot, record)  # the turn's board was lost (crash before posting)
    if record is None or record.status != "running" or not record.active:
        return
    if not any(GameService.is_ai(record, s) for s in record.active):
        return
    results = await bot.service.run_ai(game_id)
    await report_turns(bot, results)
