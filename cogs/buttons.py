"""The one persistent component type of Dingir, and the routing of its presses.

Every button and select menu the bot sends has a custom_id
``dg:<game id>:<version>:<action>`` (under 100 characters). The version is the
game's state version when the component was made, so a press on an old board
is recognised. ``action`` is a short word (``turn``, ``undo``, ``pg2``...) or
``a<i>``: the i-th legal step at that version (notations can be long, indices
are not). The class is registered with ``bot.add_dynamic_items`` when this
extension loads, so components keep working after a restart.

Cogs register what a kind of action does with :func:`on_press`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.engine import Text
from bot.notation import whole_number
from bot.records import ServiceError
from cogs.common import Interaction, answer_error, bot_of

PREFIX = "dg"
TEMPLATE = re.compile(
    r"dg:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18}):(?P<action>[a-z]+)(?P<arg>[0-9:a-z_]*)")
FOREIGN = re.compile(rf"(?!(?:{TEMPLATE.pattern})\Z)dg(?::.*)?", re.DOTALL)
"""A custom_id in Dingir's namespace that :data:`TEMPLATE` does not read (an old format,
or a forged one)."""
MAX_CUSTOM_ID = 100


@dataclass(frozen=True)
class Press:
    """A decoded press: which game, at which version, what action and argument."""

    game_id: int
    version: int
    action: str
    arg: str
    values: tuple[str, ...] = ()

    @property
    def number(self) -> int:
        """The argument as a whole number (an index, a page); refused (see
        :func:`unknown_button`) when it is not one."""
        number = whole_number(self.arg)
        if number is None:
            raise unknown_button()
        return number


def unknown_button() -> ServiceError:
    """The refusal of a press Dingir cannot read: an action it does not know, a malformed
    argument or custom_id (an old format, or a forged one)."""
    return ServiceError(Text.of("discord.unknown_button"))


Handler = Callable[[Interaction, Press], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}


def on_press(action: str) -> Callable[[Handler], Handler]:
    """Register the coroutine run when a component with ``action`` is pressed."""

    def register(handler: Handler) -> Handler:
        HANDLERS[action] = handler
        return handler

    return register


async def refuse_unknown(interaction: Interaction, press: Press) -> None:
    """The handler of an action no cog registered."""
    raise unknown_button()


def custom_id(game_id: int, version: int, action: str, arg: str | int = "") -> str:
    """The custom_id of a component; raises ValueError if it would be too long."""
    value = f"{PREFIX}:{game_id}:{version}:{action}{arg}"
    if len(value) > MAX_CUSTOM_ID or not TEMPLATE.fullmatch(value):
        raise ValueError(f"bad custom_id {value!r}")
    return value


class GameComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """A button or select menu of a game; decoded from its custom_id on every press."""

    def __init__(self, item: discord.ui.Item[Any], press: Press) -> None:
        super().__init__(item)
        self.press = press

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameComponent:
        press = Press(
            int(match["game"]), int(match["version"]), match["action"], match["arg"]
        )
        return cls(item, press)

    async def callback(self, interaction: Interaction) -> None:
        press = self.press
        if isinstance(self.item, discord.ui.Select):
            press = Press(press.game_id, press.version, press.action, press.arg,
                          tuple(self.item.values))
        handler = HANDLERS.get(press.action, refuse_unknown)
        try:
            if press.game_id:           # 0: a button of no game yet (open a thread)
                await _check_bound(interaction, press.game_id)
            await handler(interaction, press)
        except Exception as error:  # every failure gets a private answer
            await answer_error(interaction, error)


async def _check_bound(interaction: Interaction, game_id: int) -> None:
    """Refuse a press that does not come from its game's own channel (or thread) and
    server: a component copied or forged elsewhere changes nothing."""
    record = await bot_of(interaction).service.core.get_by_id(game_id)
    if record is None:
        raise unknown_button()
    if record.channel_id != interaction.channel_id or record.guild_id != interaction.guild_id:
        raise ServiceError(Text.of("discord.button_elsewhere"))


class ForeignComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=FOREIGN):
    """A component whose custom_id starts like Dingir's but does not read as one."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForeignComponent:
        return cls(item)

    async def callback(self, interaction: Interaction) -> None:
        await answer_error(interaction, unknown_button())


def button(
    game_id: int,
    version: int,
    action: str,
    arg: str | int = "",
    *,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
    disabled: bool = False,
) -> GameComponent:
    """A game button (label cut to Discord's 80 characters)."""
    cid = custom_id(game_id, version, action, arg)
    item = discord.ui.Button[Any](
        label=label if len(label) <= 80 else label[:79] + "…",
        style=style,
        custom_id=cid,
        row=row,
        disabled=disabled,
    )
    return GameComponent(item, Press(game_id, version, action, str(arg)))


def select(
    game_id: int,
    version: int,
    action: str,
    options: list[discord.SelectOption],
    *,
    placeholder: str,
    arg: str | int = "",
    row: int | None = None,
) -> GameComponent:
    """A game select menu (at most 25 options)."""
    cid = custom_id(game_id, version, action, arg)
    item = discord.ui.Select[Any](
        custom_id=cid, options=options[:25], placeholder=placeholder[:150], row=row
    )
    return GameComponent(item, Press(game_id, version, action, str(arg)))


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding ``items``, to send. Presses reach :class:`GameComponent` by their
    custom_id, never through the view, so the view is stopped at once: discord.py then
    keeps nothing of it (it would keep every private panel, with a timer, for 15 minutes)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: listen for every game component, now and after restarts."""
    bot.add_dynamic_items(GameComponent, ForeignComponent)
