"""Small helpers shared by the cogs: languages, replies, error answers, names."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import aiohttp
import discord
from discord import app_commands

from bot.engine import Action, GameError, Seat, Text
from bot.i18n import LANGUAGES, addressed, names_seats, told_to, tr, translate
from bot.notation import localized, whole_number
from bot.records import GameRecord, ServiceError, StaleVersion, StoreUnavailable
from host.client import expired
from host.registry import CATALOGUE
from host.workers import WorkerDied

if TYPE_CHECKING:
    from host.client import DingirBot

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER = 0.25
"""Work still running this long after an interaction arrived gets a deferral first: the
player sees "thinking" at once, and the answer beats Discord's 3 s deadline."""
MAX_ALTERNATIVES = 5
"""How many legal steps a rejection message lists before "/play to see all"."""

Interaction = discord.Interaction[Any]


def loc(key: str) -> app_commands.locale_str:
    """A command name/description string: English text, with its catalogue key for translation."""
    return app_commands.locale_str(tr("en", key), key=key)


def bot_of(interaction: Interaction) -> DingirBot:
    """The Dingir bot that received ``interaction``."""
    return cast("DingirBot", interaction.client)


def language(locale: discord.Locale | str | None, default: str = "en") -> str:
    """The catalogue language for a Discord locale, or ``default`` when unsupported."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return default


def lang_of(interaction: Interaction) -> str:
    """The language to answer ``interaction`` in (the user's Discord locale)."""
    return language(interaction.locale, bot_of(interaction).settings.language)


def safe(name: str) -> str:
    """A name as a message may show it: its markdown and mentions neutralised (a member
    called ``<@123…>`` or ``[x](link)`` neither pings nor misleads)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def game_title(record: GameRecord, lang: str) -> str:
    """The game's name in ``lang``."""
    return translate(CATALOGUE.meta(record.game).name, lang)


def seat_name(record: GameRecord, seat: Seat, lang: str, *, raw: bool = False) -> str:
    """A seat's display name for a message (``raw``: as drawn in an image); an AI seat
    ("AI 2") in the reader's language, marked; the game's own opponent by its name."""
    info = record.seats[seat]
    scripted = CATALOGUE.scripted_name(record, seat) if info.user_id is None else None
    if scripted is not None:
        return translate(scripted, lang)
    if info.user_id is None:
        number = whole_number(info.name.rsplit(" ", 1)[-1])
        if number is not None:
            return tr(lang, "discord.ai_seat", n=number)
        return tr(lang, "discord.ai_name", name=info.name if raw else safe(info.name))
    return info.name if raw else safe(info.name)


def mention(record: GameRecord, seat: Seat, lang: str) -> str:
    """A mention of a seat's player (or the AI's name)."""
    info = record.seats[seat]
    return f"<@{info.user_id}>" if info.user_id is not None else seat_name(record, seat, lang)


def listed(lang: str, items: Sequence[str]) -> str:
    """``items`` as a list read aloud: "a, b and c", with one "and" however the items read:
    a last item that holds its own "and" closes the list ("takes Growth, spends 2 Food and
    reaches case 3"); before a last item without one, an earlier item's "and" is set apart
    by a comma ("pays 1 Stone and gains 2 Food, and harvests"). The "and" of a name ("Harvest
    and Trade": a capital follows it) is no item's own."""
    if len(items) < 2:
        return "".join(items)
    separator, conjunction = tr(lang, "core.list_separator"), tr(lang, "core.list_and",
                                                                 items="", last="")
    if _joins(items[-1], conjunction):
        return separator.join(items)
    key = "core.list_and_apart" if any(_joins(i, conjunction) for i in items[:-1]) \
        else "core.list_and"
    return tr(lang, key, items=separator.join(items[:-1]), last=items[-1])


def _joins(item: str, conjunction: str) -> bool:
    """Whether ``item`` joins two of its own parts with ``conjunction`` (the word after it
    not capitalized: "spends 2 Food and reaches", not "Harvest and Trade")."""
    at = item.find(conjunction)
    while at >= 0:
        after = item[at + len(conjunction):at + len(conjunction) + 1]
        if not after.isupper():
            return True
        at = item.find(conjunction, at + 1)
    return False


def mentions(record: GameRecord, seats: Sequence[Seat], lang: str) -> str:
    """A mention of each of ``seats`` (AIs by name), as a list read aloud."""
    return listed(lang, [mention(record, s, lang) for s in seats])


def names_of(record: GameRecord, lang: str) -> tuple[str, ...]:
    """Every seat's display name, in seat order (what a Text's seats read as)."""
    return tuple(seat_name(record, s.seat, lang) for s in record.seats)


def text_of(text: Text, record: GameRecord, lang: str) -> str:
    """``text`` in ``lang``, the seats it names written as their players' names."""
    return translate(text, lang, names_of(record, lang) if names_seats(text) else ())


def said_to_actor(text: Text, record: GameRecord, seat: Seat, lang: str) -> str | None:
    """The words of ``seat``'s step (``text``, as ``seat`` reads them) said to its player, to
    be read after "You" (:func:`bot.i18n.addressed`); None when the game has no
    second-person form for them."""
    return addressed(text, lang, names_of(record, lang) if names_seats(text) else (), seat)


def read_by(text: Text, record: GameRecord, reader: Seat | None, lang: str) -> str:
    """The words of another player's step (``text``, as ``reader`` may read them) as
    ``reader`` reads them: "declines your swap" (:func:`bot.i18n.told_to`); as everyone
    reads them when ``reader`` is None."""
    if reader is None:
        return text_of(text, record, lang)
    return told_to(text, lang, names_of(record, lang) if names_seats(text) else (), reader)


def own_step(text: Text, record: GameRecord, seat: Seat, lang: str) -> str:
    """What the player of ``seat`` reads of their own step (``text``, as ``seat`` reads it):
    "You place a token on E2"; the third-person words when the game has no second-person
    form."""
    words = said_to_actor(text, record, seat, lang)
    if words is None:
        return text_of(text, record, lang)
    return tr(lang, "discord.you_did", step=words)


def label(action: Action, record: GameRecord, lang: str, limit: int = 100) -> str:
    """An action's label in ``lang`` (seats named by their players), cut to ``limit``
    characters."""
    return fit(text_of(action.label, record, lang), limit)


def alternatives(game: str, actions: list[Action], lang: str) -> str:
    """A short list of legal steps for a rejection message, as a player of ``lang`` types
    them."""
    shown = ", ".join(f"`{localized(game, a.notation, lang)}`"
                      for a in actions[:MAX_ALTERNATIVES])
    if len(actions) > MAX_ALTERNATIVES:
        shown += " " + tr(lang, "discord.more_with_play", n=len(actions) - MAX_ALTERNATIVES)
    return tr(lang, "discord.you_could", actions=shown)


def fit(content: str, limit: int = 2000) -> str:
    """``content`` cut to ``limit`` characters, ending with "…" when cut (Discord's message
    length by default: it may quote what a user typed)."""
    return content if len(content) <= limit else content[: limit - 1] + "…"


async def reply(
    interaction: Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer ``interaction`` whether or not it was already answered or deferred."""
    mentions = kwargs.pop("allowed_mentions", discord.AllowedMentions(users=True, roles=False))
    if interaction.response.is_done():
        await interaction.followup.send(
            fit(content), ephemeral=ephemeral, allowed_mentions=mentions, **kwargs
        )
    else:
        await interaction.response.send_message(
            fit(content), ephemeral=ephemeral, allowed_mentions=mentions, **kwargs
        )


def on_private_message(interaction: Interaction) -> bool:
    """Whether the pressed component is on a private (ephemeral) message, which the answer
    may then replace."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def in_time(interaction: Interaction, work: Awaitable[T], *, ephemeral: bool = True,
                  update: bool = False) -> T:
    """Await ``work``; if it is still running near Discord's answer deadline (a busy
    database), defer the interaction first: as a new message (``ephemeral``: how it will
    show) or, with ``update``, as an edit of the component's message. Fast work is then
    answered directly, one request instead of two."""
    if interaction.response.is_done():
        return await work
    elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    budget = min(DEFER_AFTER, max(0.05, DEFER_AFTER - elapsed))
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=budget)
    if not done:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


class UnknownOptions(app_commands.CheckFailure):
    """A command arrived with options it does not have, values they do not take, or without
    one it requires (an outdated Discord client)."""


_VALUES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def _accepts(param: app_commands.Parameter, value: Any) -> bool:
    """Whether Discord lets a user give ``value`` to ``param``: a value of its type, one of
    its choices, a number within its range, a text within its lengths."""
    kinds = _VALUES.get(param.type)
    if kinds is None:
        return True                     # a member, an attachment: Discord resolves them
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        return False
    if param.choices and value not in [c.value for c in param.choices]:
        return False
    size = len(value) if isinstance(value, str) else cast(float, value)
    low, high = param.min_value, param.max_value
    return (low is None or size >= low) and (high is None or size <= high)


def check_options(interaction: Interaction) -> bool:
    """Refuse a command whose options are not the command's own (nothing is run)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    data: dict[str, Any] = dict(interaction.data or {})
    options: list[dict[str, Any]] = list(data.get("options", []))
    while options and options[0].get("type") in (1, 2):    # down to the subcommand's options
        options = list(options[0].get("options", []))
    params = {p.display_name: p for p in command.parameters}
    for option in options:
        param = params.get(option.get("name", ""))
        if param is None or param.type.value != option.get("type") \
                or not _accepts(param, option.get("value")):
            raise UnknownOptions()
    given = {o.get("name") for o in options}
    if any(p.required and p.display_name not in given for p in command.parameters):
        raise UnknownOptions()
    return True


class Guarded:
    """Mixin for the cogs: unknown options are refused, and every error of a command gets
    a private answer (a rule, a lobby rule, a busy database, or a bug)."""

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Run only commands whose options are known."""
        return check_options(interaction)

    async def cog_app_command_error(self, interaction: Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Answer the failure privately."""
        await answer_error(interaction, getattr(error, "original", error))


async def on_tree_error(interaction: Interaction, error: app_commands.AppCommandError) -> None:
    """Errors outside the cogs (a command Discord still shows but the bot no longer has):
    a private answer, no traceback; errors already answered by a cog are left alone."""
    if interaction.response.is_done():
        return
    if bot_of(interaction).stopping:     # its commands are unloading: not "outdated"
        await answer_error(interaction, error)
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.info("outdated command from a client: %s", error)
        try:
            await reply(interaction, tr(lang_of(interaction), "discord.unknown_command"))
        except discord.HTTPException:
            log.warning("could not answer an outdated command", exc_info=True)
        return
    await answer_error(interaction, getattr(error, "original", error))


def error_text(error: BaseException, lang: str, record: GameRecord | None = None
               ) -> str | None:
    """The private message for an error a user can cause (a rule naming seats of
    ``record`` names their players), or None for a bug."""
    if isinstance(error, UnknownOptions):
        return tr(lang, "discord.unknown_options")
    if isinstance(error, StaleVersion):
        return tr(lang, "discord.moved_on")
    if isinstance(error, StoreUnavailable):
        log.warning("store unavailable: %s", error.detail)
        return tr(lang, "discord.store_unavailable")
    if isinstance(error, WorkerDied):
        log.warning("no worker could do the job: %s", error)
        return tr(lang, "discord.worker_busy")
    if isinstance(error, ServiceError | GameError):
        return text_of(error.reason, record, lang) if record else translate(error.reason, lang)
    return None


async def _record_named(interaction: Interaction, error: BaseException) -> GameRecord | None:
    """The channel's game when ``error`` names its seats (their players' names are then
    written); None otherwise, or when it cannot be read now."""
    if not isinstance(error, ServiceError | GameError) or not names_seats(error.reason):
        return None
    with contextlib.suppress(ServiceError, StoreUnavailable):
        return await bot_of(interaction).service.core.get(interaction.channel_id or 0)
    return None


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    """Tell the user privately what went wrong (a rule, a lobby rule, a busy database, a bug)."""
    if bot_of(interaction).stopping:
        if interaction.type != discord.InteractionType.autocomplete \
                and not interaction.client.is_closed():
            with contextlib.suppress(discord.HTTPException, RuntimeError,
                                     aiohttp.ClientError):
                await reply(interaction, tr(lang_of(interaction), "discord.restarting"))
        log.info("interaction %s left unanswered: the bot is stopping", interaction.id)
        return
    if expired(error):
        log.warning("interaction %s answered after Discord's 3 s, dropped", interaction.id)
        return
    lang = lang_of(interaction)
    text = error_text(error, lang, await _record_named(interaction, error))
    if text is None:
        log.error("unexpected error in %s", interaction.data, exc_info=error)
        text = tr(lang, "discord.internal_error")
    try:       # a refusal may quote what the user typed: it mentions nobody
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not send an error answer", exc_info=True)
