"""Channel posts of a game: the turn message, the start and the end (with a replay).

Every completed turn gets a NEW message: the board PNG (drawn by a worker
process; then any extra pictures the game's renderer offers, such as zoomed parts
of a big map), a short summary of the turn and a mention of the next player; the
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
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.engine import Action, Outcome, Seat
from bot.i18n import tr, translate
from bot.records import (
    GameRecord,
    OpenPost,
    Played,
    PostedBoard,
    StepResult,
    StoreUnavailable,
)
from bot.service.core import ServiceCore
from bot.service.final import final_lines
from cogs import buttons, webpage
from cogs.common import (
    game_title,
    listed,
    mentions,
    read_by,
    said_to_actor,
    seat_name,
    text_of,
)
from host.registry import CATALOGUE
from render.context import RenderContext

if TYPE_CHECKING:
    from host.client import DingirBot

log = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")

BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"
MAX_UPLOAD = 9_500_000
"""Bytes an animation may use (Discord's limit is 10 MB; keep a margin for the message)."""
NOTIFY_MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)
POSTED_BOARD_SECONDS = 6 * 3600
"""How long the image of a turn message stands in for a new render of the same board
(Discord's signed attachment addresses last about a day)."""
POSTED_BOARDS_KEPT = 20_000
"""Games whose latest image is remembered (about 300 bytes each): abandoned or aborted
games are forgotten in time."""
ANSWERED_LATELY = 300
"""Seconds since a member answered a request pinging them within which the turn message
that then hands them the turn names them without a second ping (:func:`just_answered`)."""
MAX_PUBLIC_OPTIONS = 20
"""Options a public question shows as buttons (4 rows of 5; more go to the panel)."""
MAX_DETAILS = 9
"""Extra pictures a turn message carries after its board (Discord allows 10 files)."""


def render_context(record: GameRecord, lang: str) -> RenderContext:
    """The names and language a renderer needs for ``record``."""
    return RenderContext(tuple(seat_name(record, s.seat, lang, raw=True) for s in record.seats),
                         lang)


async def board_png(bot: DingirBot, record: GameRecord, lang: str, seat: Seat | None = None,
                    *, preview: bool = False) -> bytes:
    """The board of ``record`` as ``seat`` sees it, drawn by the workers (smaller
    and cheaper with ``preview``, for private panels)."""
    return await bot.workers.png(record.game, CATALOGUE.view(record, seat),
                                 render_context(record, lang), preview=preview)


@dataclass
class BoardImage:
    """A board for a message: a new PNG to upload, or an embed of an image already posted."""

    files: list[discord.File] = field(default_factory=list)
    embeds: list[discord.Embed] = field(default_factory=list)


def posted_board_url(bot: DingirBot, record: GameRecord, lang: str,
                     seat: Seat | None) -> str | None:
    """The address of the turn message's image when it shows exactly the board ``seat``
    would see now in ``lang`` (same state, same language, and a seat that sees nothing
    more than the public: no hand, no sealed bid of its own)."""
    posted = bot.posted_boards.get(record.id)
    if posted is None or posted.version != record.version or posted.lang != lang \
            or time.monotonic() - posted.at > POSTED_BOARD_SECONDS or record.state is None:
        return None
    if seat is not None and hides_information(record) \
            and CATALOGUE.view(record, seat) != CATALOGUE.view(record):
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


async def turn_files(bot: DingirBot, record: GameRecord, lang: str) -> list[discord.File]:
    """The public board of a turn message, then its extra pictures when the game's renderer
    has some (its optional ``details``), at most :data:`MAX_DETAILS`: one job of the
    workers."""
    if record.state is None:
        raise ValueError(f"game {record.id} has no state yet")
    board, found = await bot.workers.turn(record.game, CATALOGUE.view(record),
                                          render_context(record, lang))
    return [board_file(board), *(discord.File(io.BytesIO(png), filename=name)
                                 for name, png in found[:MAX_DETAILS])]


def board_file(png: bytes) -> discord.File:
    """A PNG as a Discord attachment."""
    return discord.File(io.BytesIO(png), filename=BOARD_FILE)


def steps_text(record: GameRecord, steps: Sequence[Played], lang: str,
               viewer: Seat | None = None) -> str:
    """What ``viewer`` may read of a turn's steps (None: the public), a sentence per run of
    steps by the same player: "🎲 **Alice** draws a card and offers a trade." ("🎲 You draw
    a card and offer a trade." for the viewer's own steps; the steps that go without saying
    left out, unless the player did nothing else in these steps), then the further lines of
    its reports (what the game did by itself: a round ends), each on its own."""
    acted = {played.seat for played in steps if not played.report.quiet}
    runs: list[tuple[Seat, list[Played]]] = []
    for played in steps:
        if runs and runs[-1][0] == played.seat:
            runs[-1][1].append(played)
        else:
            runs.append((played.seat, [played]))
    lines = []
    for seat, run in runs:
        said = [p for p in run if not p.report.quiet] or ([] if seat in acted else run[-1:])
        own = _said_to_actor(record, run, lang) if seat == viewer else None
        texts, further = [], []
        for played, words in zip(run, own or [read_by(p.report.for_seat(viewer), record, viewer,
                                                      lang) for p in run], strict=True):
            first, *rest = words.split("\n")
            if played in said:
                texts.append(first)
            further += rest
        if not texts:
            lines += further
            continue
        summary = tr(lang, "discord.turn_summary_you", steps=listed(lang, texts)) if own else \
            tr(lang, "discord.turn_summary", name=seat_name(record, seat, lang),
               steps=listed(lang, texts))
        lines.append(sentence(lang, summary))
        lines += further
    return "\n".join(lines)


def _said_to_actor(record: GameRecord, run: Sequence[Played], lang: str) -> list[str] | None:
    """The words of each step of ``run`` (steps by one player) said to that player (see
    :func:`cogs.common.said_to_actor`); None when one has no second-person form."""
    words = [said_to_actor(p.report.for_seat(p.seat), record, p.seat, lang) for p in run]
    return None if None in words else [w for w in words if w is not None]


def sentence(lang: str, text: str) -> str:
    """``text`` ending as a sentence (a full stop unless it ends with one already)."""
    return text if text.endswith((".", "!", "?", "…")) else text + tr(lang, "core.full_stop")


def next_line(record: GameRecord, lang: str, *, buttons: bool = True,
              played: frozenset[Seat] = frozenset(), present: frozenset[Seat] = frozenset()
              ) -> str:
    """Who plays now: a mention of every active human (pointing at the turn message's
    button when it has one), or the AIs' names. A human who ``played`` every turn the
    message reports plays on in their panel: named, not pinged; so is a member
    ``present``: who took the last step reported in their panel (an answer that handed
    them the turn: the panel that took it shows them their turn), or who was just pinged
    to answer a request of this turn and answered it (:func:`just_answered`)."""
    if not record.active:
        return ""
    humans = [s for s in record.active if not ServiceCore.is_ai(record, s)]
    if not humans:
        names = listed(lang, [seat_name(record, s, lang) for s in record.active])
        return tr(lang, "discord.ai_thinking", name=names)
    if buttons and len(humans) == 1 and played == {*humans}:
        return tr(lang, "discord.plays_again", name=seat_name(record, humans[0], lang))
    if buttons and len(humans) == 1 and humans[0] in present:
        return tr(lang, "discord.your_turn",
                  mention=f"**{seat_name(record, humans[0], lang)}**")
    key = "discord.your_turn" if buttons else "discord.your_turn_no_button"
    return tr(lang, key, mention=mentions(record, humans, lang))


def _entry_name(record: GameRecord, outcome: Outcome, entry: int, lang: str) -> str:
    side = outcome.side(entry)
    return translate(side, lang) if side is not None else seat_name(record, entry, lang)


def final_text(record: GameRecord, outcome: Outcome, lang: str) -> str:
    """The end-of-game text (:func:`bot.service.final.final_lines`) in ``lang``."""
    return "\n".join(text_of(line, record, lang) for line in final_lines(outcome, "discord"))


def turn_text(record: GameRecord, lang: str, turns: Sequence[StepResult] = (),
              outcome: Outcome | None = None, *, buttons: bool = True,
              told: Sequence[str] = (), present: Seat | None = None,
              answered: frozenset[Seat] = frozenset()) -> str:
    """The text of a turn message: title, what the turns it reports did (as everyone may
    read it: one line per player's turn), the questions they answered that had no post
    of their own (``told``), who is next (or the final ``outcome``; ``present``: the
    member whose step in their panel is told, ``answered``: the members who just answered
    a request of these turns, see :func:`next_line`).
    Without ``buttons`` (``/game board``) it does not point at a "Take my turn" button."""
    title = tr(lang, "discord.turn_title", game=game_title(record, lang), turn=record.turn + 1)
    steps = [line for text in (*(steps_text(record, result.turn_steps, lang)
                                 for result in turns), *told)
             for line in text.split("\n") if line]
    outcome = outcome or (turns[-1].outcome if turns else None)
    played = frozenset(p.seat for result in turns for p in result.turn_steps)
    latest = turns[-1].turn_steps[-1].seat if turns and turns[-1].turn_steps else None
    here = answered | {s for s in (present,) if s is not None and s == latest}
    last = (final_text(record, outcome, lang) if outcome is not None
            else next_line(record, lang, buttons=buttons, played=played, present=here))
    return within_limit(title, steps, last)


def within_limit(title: str, steps: list[str], last: str, limit: int = 2000) -> str:
    """``title``, the ``steps`` lines and ``last`` (who plays next, or the final scores), one
    a line, in at most ``limit`` characters: the earliest steps give way (an ellipsis says
    so), so that the mention or the scores are never cut off."""
    room = limit - len(title) - len(last) - 4      # the line breaks and an ellipsis line
    kept: list[str] = []
    for line in reversed(steps):
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    if len(kept) < len(steps):
        kept.append("…" if kept else steps[-1][: max(0, room - 1)] + "…")
    return "\n".join(line for line in (title, *reversed(kept), last) if line)[:limit]


def hides_information(record: GameRecord) -> bool:
    """True when the game's seats see different things (hands, sealed bids)."""
    return CATALOGUE.meta(record.game).hidden_information


def panel_button(record: GameRecord, lang: str) -> buttons.GameComponent:
    """"My panel": any seated player's private view (a hand, a sealed bid, a decision)."""
    return buttons.button(record.id, record.version, "me", label=tr(lang, "discord.my_panel"))


def turn_view(record: GameRecord, lang: str) -> discord.ui.View:
    """The buttons of a turn message: "Take my turn" when a human is to play, and "My
    panel" in a game where players have something private to look at."""
    items = []
    if record.status == "running" and any(not ServiceCore.is_ai(record, s)
                                          for s in record.active):
        items.append(buttons.button(
            record.id, record.version, "turn", label=tr(lang, "discord.take_turn"),
            style=discord.ButtonStyle.primary))
    if record.status == "running" and hides_information(record):
        items.append(panel_button(record, lang))
    return buttons.view_of(*items)


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
    quiet: bool = False,
) -> discord.Message | None:
    """Post in the game's channel, trying again after Discord's server errors; a post
    whose files are refused goes out as text alone. On a deleted channel, lost
    permissions or a channel that refuses the text too, the game is paused and its
    creator told; after server errors the post is left to :func:`advance`'s next check.

    With ``remember`` the message becomes the game's current turn message; a ``quiet``
    post notifies nobody it mentions.
    """
    pings = discord.AllowedMentions.none() if quiet else NOTIFY_MENTIONS
    try:
        message = await _deliver(bot, record, content, files, view, pings)
    except discord.DiscordServerError as error:
        log.warning("posting in channel %s for game %s failed (%s %s): it will be tried"
                    " again", record.channel_id, record.id, error.status, error.text)
        return None
    except discord.HTTPException as error:
        await _refused(bot, record, error)
        return None
    if message is None:
        await _refused(bot, record, None)
        return None
    if remember:
        try:
            await bot.service.admin.set_message(record.id, message.id, record.turn)
        except StoreUnavailable:  # only bookkeeping: the post itself went out
            log.warning("could not record message %s of game %s", message.id, record.id)
    return message


async def _deliver(bot: DingirBot, record: GameRecord, content: str,
                   files: Sequence[discord.File], view: discord.ui.View | None,
                   pings: discord.AllowedMentions) -> discord.Message | None:
    """The posted message; None when the channel is gone or forbidden."""
    try:
        channel = await resolve_channel(bot, record.channel_id)
        if channel is None:
            return None
        try:
            return await _send_retrying(bot, channel, content, files, view, pings)
        except discord.HTTPException as error:
            if not files or isinstance(error, discord.Forbidden | discord.NotFound):
                raise
            log.warning("game %s: the post with files failed (%s %s): sending the text alone",
                        record.id, error.status, error.text)
            alone = f"{content}\n{tr(record.lang, 'discord.board_not_posted')}"
            return await _send_retrying(bot, channel, alone, (), view, pings)
    except (discord.Forbidden, discord.NotFound):
        return None


async def _send_retrying(bot: DingirBot, channel: discord.abc.Messageable, content: str,
                         files: Sequence[discord.File], view: discord.ui.View | None,
                         pings: discord.AllowedMentions) -> discord.Message:
    """``channel.send``, tried twice more (after the ``post_retry_seconds`` setting, then
    six times as long) when Discord answers with a server error after discord.py's own
    retries."""
    wait = bot.settings.post_retry_seconds
    for delay in (wait, 6 * wait, None):
        for file in files:
            file.reset()
        try:
            return await channel.send(content[:2000], files=list(files),
                                      allowed_mentions=pings,
                                      view=view or buttons.view_of())
        except discord.DiscordServerError as error:
            if delay is None:
                raise
            log.warning("Discord answered %s to a post: again in %s s", error.status, delay)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


async def _refused(bot: DingirBot, record: GameRecord,
                   error: discord.HTTPException | None) -> None:
    """Pause the game of a channel the bot cannot post in, and tell its creator why."""
    log.warning("cannot post in channel %s (%s): pausing game %s", record.channel_id,
                "gone or forbidden" if error is None else f"{error.status} {error.text}",
                record.id)
    if record.status == "running":
        await bot.service.admin.pause(record.id, True)
    lang, channel = record.lang, f"<#{record.channel_id}>"
    game = game_title(record, lang)
    await direct_message(bot, record.creator_id, tr(
        lang, "discord.paused_no_channel", game=game, channel=channel) if error is None
        else tr(lang, "discord.paused_refused", game=game, channel=channel,
                reason=error.text or str(error.status)))


async def post_board(bot: DingirBot, record: GameRecord,
                     turns: Sequence[StepResult] = (), told: Sequence[str] = (),
                     present: Seat | None = None) -> None:
    """Post the turn message of ``record``: after the ``turns`` it reports (one message
    for a run of turns, such as the AI seats playing one after another, with the questions
    they answered in ``told``; ``present`` as for :func:`turn_text`), or at the start."""
    if turns and turns[-1].outcome is not None:
        await post_final(bot, record, turns, told)
        return
    lang = record.lang
    files = await turn_files(bot, record, lang)
    view = await webpage.with_link(bot, record, turn_view(record, lang), lang)
    text = turn_text(record, lang, turns, told=told, present=present,
                     answered=just_answered(bot, record))
    message = await send(bot, record, text, files=files, view=view)
    if message is not None and message.attachments:
        remember(bot.posted_boards, record.id,
                 PostedBoard(record.version, lang, message.attachments[0].url))
    if message is not None:
        await tell_followers(bot, record, message, None)


async def tell_followers(bot: DingirBot, record: GameRecord, message: discord.Message,
                         outcome: Outcome | None) -> None:
    """DM the game's followers, each in their language: the end (``outcome``) to all, a
    new turn to those who asked for each turn; with a link to ``message``."""
    for user_id, lang, each_turn in await bot.service.members.followers(record.id):
        where = dict(game=game_title(record, lang), channel=f"<#{record.channel_id}>",
                     link=message.jump_url)
        if outcome is not None:
            names = listed(lang, [_entry_name(record, outcome, e, lang) for e in outcome.winners])
            await direct_message(bot, user_id, tr(lang, "discord.follow_over", **where,
                                                  names=names, n=len(outcome.winners)))
        elif each_turn:
            await direct_message(bot, user_id, tr(lang, "discord.follow_turn", **where,
                                                  turn=record.turn + 1))


def just_answered(bot: DingirBot, record: GameRecord) -> frozenset[Seat]:
    """The seats of ``record`` whose members answered a post asking them to decide (a
    swap offered to them) since its last turn message, less than :data:`ANSWERED_LATELY`
    seconds ago: pinged for it, they are in the channel, so the turn message that hands
    them the turn names them without pinging them again. Forgets the game's answers."""
    now = bot.service.core.clock.now()
    lately = set()
    for seat in range(len(record.seats)):
        when = bot.answered_at.pop((record.id, seat), None)
        if when is not None and now - when < ANSWERED_LATELY:
            lately.add(seat)
    return frozenset(lately)


def remember(store: dict[K, V], key: K, value: V) -> None:
    """Keep ``value`` for ``key`` as the latest entry of ``store``; past
    :data:`POSTED_BOARDS_KEPT` entries, the one kept longest ago is forgotten (an
    abandoned game's image or open question)."""
    store.pop(key, None)
    store[key] = value
    if len(store) > POSTED_BOARDS_KEPT:
        del store[next(iter(store))]


async def post_final(bot: DingirBot, record: GameRecord, turns: Sequence[StepResult] = (),
                     told: Sequence[str] = ()) -> None:
    """The final message: board, the last turns (when known), scores, ranking, tie-break,
    replay animation."""
    lang = record.lang
    bot.posted_boards.pop(record.id, None)
    outcome = turns[-1].outcome if turns else bot.service.core.outcome(record)
    files = [board_file(await board_png(bot, record, lang))]
    try:
        entries = await bot.service.history.log_of(record.id)
        animation = await bot.workers.replay(
            await bot.service.history.beginning(record),
            [(e.seat, e.notation) for e in entries], render_context(record, lang), MAX_UPLOAD)
    except Exception:  # a replay is a bonus: never lose the final message for it
        log.exception("replay of game %s failed", record.id)
        animation = None
    if animation is not None:
        files.append(discord.File(io.BytesIO(animation), filename=REPLAY_FILE))
    rematch = buttons.button(record.id, record.version, "rematch",
                             label=tr(lang, "discord.rematch"),
                             style=discord.ButtonStyle.primary)
    view = await webpage.with_link(bot, record, buttons.view_of(rematch), lang)
    try:    # before the post: a leaderboard asked as soon as it is read already counts it
        await bot.service.results.record_result(record.id)
    except StoreUnavailable:        # the scheduler's next round records it
        log.warning("could not record the result of game %s yet", record.id)
    message = await send(bot, record, turn_text(record, lang, turns, outcome, told=told),
                         files=files, view=view)
    if message is not None and outcome is not None:
        await tell_followers(bot, record, message, outcome)


async def announce(bot: DingirBot, result: StepResult) -> None:
    """Tell the channel at once what a step did (a reveal, a roll that matters now)."""
    record, lang = result.record, result.record.lang
    await send(bot, record, _announcement(result, lang), remember=False)


def _announcement(result: StepResult, lang: str) -> str:
    """What the channel is told of an announced step: its detail, else its public line
    after the player's name."""
    record, report = result.record, result.report
    if report.detail is not None:
        return text_of(report.detail, record, lang)
    return tr(lang, "discord.announce", name=seat_name(record, result.seat, lang),
              text=text_of(report.public, record, lang))


def _option_buttons(record: GameRecord, seat: Seat, version: int, options: Sequence[Action],
                    lang: str, *, chosen: str | None = None) -> list[buttons.GameComponent]:
    """The offered ``options`` of ``seat``'s decision as buttons on a public message (only
    that seat may press them; ``q<seat>:<index>``); once answered (``chosen`` is the step
    taken), disabled, the chosen one highlighted."""
    closed = chosen is not None
    return [buttons.button(record.id, version, "q", f"{seat}:{i}", row=k // 5,
                           label=text_of(action.label, record, lang)[:80], disabled=closed,
                           style=discord.ButtonStyle.primary if action.notation == chosen
                           else discord.ButtonStyle.secondary)
            for k, (i, action) in enumerate((i, a) for i, a in enumerate(options) if a.offered)]


def decision_view(record: GameRecord, seat: Seat, lang: str) -> discord.ui.View | None:
    """``seat``'s options as buttons on a public message, or None when they are too many
    for one message."""
    assert record.state is not None
    legal = CATALOGUE.legal_steps(record, seat)
    items = _option_buttons(record, seat, record.seat_version(seat), legal, lang)
    if not items or len(items) > MAX_PUBLIC_OPTIONS:
        return None
    return buttons.view_of(*items)


def deadline_text(record: GameRecord, seat: Seat, lang: str) -> str:
    """"answer before <time>" for a decision with a clock of seconds, else ""."""
    assert record.state is not None
    deadline = CATALOGUE.deadline(record, seat)
    if deadline is None or deadline.seconds is None:
        return ""
    due = int(record.seat_since(seat) + deadline.seconds + 0.999)
    return tr(lang, "discord.deadline", when=f"<t:{due}:R>")


def open_post(bot: DingirBot, game_id: int, seat: Seat, post: OpenPost) -> None:
    """Remember ``post`` as the message asking ``seat`` to decide, to close once they
    answer (the oldest forgotten past :data:`POSTED_BOARDS_KEPT`)."""
    remember(bot.open_posts, (game_id, seat), post)


def handed_back(result: StepResult) -> bool:
    """True when ``result`` answers the decision the player whose turn it is put to its
    player and only gives the decision back to them (a swap declined: the proposer's turn
    goes on); not when that player, just answered, asks again (a second offer)."""
    steps = result.turn_steps
    return (len(result.asked) == 1 and len(steps) >= 2
            and steps[0].seat == steps[-2].seat == result.asked[0] != result.seat)


async def post_decisions(bot: DingirBot, result: StepResult) -> None:
    """Tell the seats that ``result`` put a new decision to: a public question is posted
    with its answer buttons (its player mentioned, pinged unless the question follows
    their own step); the others are mentioned in one short message that opens their
    private panel (no board image). A decision only handed back (:func:`handed_back`)
    is not posted: the answer shows in the message that asked."""
    record, lang = result.record, result.record.lang
    assert record.state is not None
    if handed_back(result):
        return
    others = []
    for seat in result.asked:
        if ServiceCore.is_ai(record, seat):
            continue
        prompt = CATALOGUE.prompt(record, seat)
        view = decision_view(record, seat, lang) if prompt is not None and prompt.public \
            else None
        if prompt is None or view is None:
            others.append(seat)
            continue
        text = tr(lang, "discord.question", mention=mentions(record, [seat], lang),
                  prompt=text_of(prompt.text, record, lang))
        message = await send(bot, record, "\n".join((text, deadline_text(record, seat, lang))),
                             view=view, remember=False, quiet=seat == result.seat)
        if message is not None:
            open_post(bot, record.id, seat, OpenPost(message.id, text))
    if others:
        text = tr(lang, "discord.asked", mentions=mentions(record, others, lang),
                  name=seat_name(record, result.seat, lang), n=len(others),
                  step=text_of(result.report.public, record, lang))
        lines = [text, *(deadline_text(record, seat, lang) for seat in others)]
        message = await send(bot, record, "\n".join(line for line in lines if line),
                             view=buttons.view_of(panel_button(record, lang)), remember=False)
        if message is not None and len(others) == 1:
            open_post(bot, record.id, others[0], OpenPost(message.id, text))


async def close_question(bot: DingirBot, result: StepResult, post: OpenPost) -> bool:
    """Show in its own message how a public question was answered: the question, the
    answer and what it did, the options as disabled buttons, the chosen one highlighted;
    False when that message cannot be edited."""
    record, lang, question = result.record, result.record.lang, result.answered
    assert question is not None
    view = buttons.view_of(*_option_buttons(record, result.seat, question.version,
                                            question.options, lang,
                                            chosen=result.action.notation))
    return await _edit(bot, record, post.message_id,
                       f"{post.text}\n{_announcement(result, lang)}", view)


def answered_text(result: StepResult) -> str:
    """A public question with no post of its own (an AI's), as the turn message tells it:
    the question, then the answer and what it did."""
    record, lang, question = result.record, result.record.lang, result.answered
    assert question is not None
    asked = tr(lang, "discord.question", mention=seat_name(record, result.seat, lang),
               prompt=text_of(question.prompt, record, lang))
    return f"{asked}\n{_announcement(result, lang)}"


async def close_request(bot: DingirBot, result: StepResult, post: OpenPost) -> None:
    """Add the answer to the message that asked ``result``'s player to decide, and take
    its button away."""
    record, lang = result.record, result.record.lang
    answer = tr(lang, "discord.answered", name=seat_name(record, result.seat, lang),
                step=text_of(result.report.public, record, lang))
    await _edit(bot, record, post.message_id, f"{post.text}\n{answer}", None)


async def _edit(bot: DingirBot, record: GameRecord, message_id: int, content: str,
                view: discord.ui.View | None) -> bool:
    """Edit one of the game's channel messages (it notifies nobody); False when it is
    gone or cannot be edited."""
    try:
        channel = await resolve_channel(bot, record.channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return False
        await channel.get_partial_message(message_id).edit(content=content[:2000], view=view)
    except discord.HTTPException as error:
        log.info("could not edit message %s of game %s (%s)", message_id, record.id, error)
        return False
    return True


def asks_ai_only(result: StepResult) -> bool:
    """True when ``result``, a human's step within their turn, puts a decision to AI seats
    only (a swap offered to an AI): they answer at once, so the player waits for it."""
    record = result.record
    return (bool(result.asked) and not result.turn_ended and result.outcome is None
            and not ServiceCore.is_ai(record, result.seat)
            and all(ServiceCore.is_ai(record, s) for s in result.asked))


def needs_posting(result: StepResult) -> bool:
    """True when the channel must hear of ``result`` now (or an AI seat must play)."""
    record = result.record
    return (result.turn_ended or result.outcome is not None or result.report.announce
            or bool(result.asked) or result.answered is not None
            or any(ServiceCore.is_ai(record, s) for s in record.active))


def _posts_decision(result: StepResult) -> bool:
    """True when :func:`post_decisions` posts something for ``result``: a decision put to
    a human seat, not only handed back."""
    return not handed_back(result) and any(not ServiceCore.is_ai(result.record, s)
                                           for s in result.asked)


def _human_decides(record: GameRecord) -> bool:
    """True when a human seat is to decide now (the game waits for them)."""
    return any(not ServiceCore.is_ai(record, s) for s in record.active)


async def report_steps(bot: DingirBot, results: Sequence[StepResult],
                       present: Seat | None = None) -> None:
    """Tell the channel what ``results`` did: the answer to a public question or to a
    decision asked in the channel in the message that asked it (a question with no post,
    an AI's, in the turn message that follows), announcements at once, the decisions put
    to other seats, and the turns completed, one message for a run of turns until a human
    is to play (AI seats playing one after another make a single post). ``present``: the
    seat of a member who took the first step in their panel (named, not pinged, when it
    is their turn after it)."""
    turns: list[StepResult] = []
    told: list[str] = []
    for result in results:
        post = bot.open_posts.pop((result.record.id, result.seat), None)
        if post is not None:
            remember(bot.answered_at, (result.record.id, result.seat),
                     bot.service.core.clock.now())
        if result.answered is not None:
            if post is None or not await close_question(bot, result, post):
                told.append(answered_text(result))
        else:
            if post is not None:
                await close_request(bot, result, post)
            if result.report.announce:
                await announce(bot, result)
        if result.turn_ended or result.outcome is not None:
            turns.append(result)
            if result.outcome is not None or _human_decides(result.record):
                await post_board(bot, result.record, turns, told, present)
                turns, told = [], []
        elif result.asked:
            if turns and _posts_decision(result):    # the turns ended before the question
                await post_board(bot, turns[-1].record, turns, told)
                turns, told = [], []
            await post_decisions(bot, result)
    if turns or told:
        await post_board(bot, (turns or results)[-1].record, turns, told)


class Channel:
    """The game's channel as a front end of the service's turn loop
    (:class:`bot.service.Front`)."""

    def __init__(self, bot: DingirBot, present: Seat | None = None) -> None:
        self.bot = bot
        self.present = present

    async def show_missing(self, record: GameRecord) -> None:
        """Post the turn message, or the final message, lost to a crash."""
        if record.status == "finished":
            await post_final(self.bot, record)
        else:
            await post_board(self.bot, record)

    async def tell(self, steps: Sequence[StepResult]) -> None:
        """Tell the channel what ``steps`` did (:func:`report_steps`)."""
        await report_steps(self.bot, steps, self.present)


async def advance(bot: DingirBot, first: StepResult | None, game_id: int, *,
                  present: bool = False, missed: bool = False) -> list[StepResult]:
    """After a human step, or whenever the game may move on: the service's turn loop
    (:meth:`~bot.service.loop.Loop.move_on`: the AI seats play), told in the channel (one
    message for the human's turn and the AI turns that followed it). ``present``:
    ``first`` was taken by its member in their panel, which shows them what comes next;
    ``missed``: by another process, which told nothing. Returns the steps it told
    (``first`` and the AI's)."""
    seat = first.seat if present and first is not None else None
    return await bot.service.loop.move_on(game_id, Channel(bot, seat), first, missed=missed)
