"""The stand-in's world: users, guilds, channels, messages, interactions and their payloads.

Payload builders return complete Discord API v10 objects, because discord.py caches
what it is sent and a missing key kills its event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7


class Perm:
    """Permission bits used by the stand-in."""

    ADD_REACTIONS = 1 << 6
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 53) - 1
    EVERYONE = (
        VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
        | ADD_REACTIONS | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
    )
    BOT = EVERYONE | MANAGE_THREADS | MANAGE_MESSAGES


class ChannelType:
    """Discord channel type numbers."""

    TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (11, 12)


_last_id = 0


def snowflake() -> int:
    """A new, strictly increasing snowflake whose timestamp is now."""
    global _last_id
    stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
    _last_id = max(_last_id + 1, stamp)
    return _last_id


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard (of ``count``) Discord sends a guild's events on (shard 0: no guild)."""
    return ((guild_id or 0) >> 22) % count


def snowflake_on(shard: int, count: int) -> int:
    """A new snowflake (a guild's) on ``shard`` of ``count``: a few milliseconds later."""
    global _last_id
    found = snowflake()
    _last_id = found + (((shard - shard_of(found, count)) % count) << 22)
    return _last_id


def iso_now() -> str:
    """The current time as Discord writes it."""
    return dt.datetime.now(dt.UTC).isoformat()


class Signal:
    """Wakes waiters whenever something they may be waiting for has changed."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        """Wake every current waiter."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float, what: str,
                       poll: float | None = None) -> Any:
        """Return the first truthy predicate() value, checked at each notify (and every
        `poll` seconds if given); TimeoutError naming `what` after `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), min(remaining, poll or remaining))
            except TimeoutError:
                continue


@dataclass(eq=False)
class User:
    """A Discord user (a person or the bot)."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    role_ids: list[int]
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, permissions: int | None = None) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread or a DM channel."""

    id: int
    type: int
    name: str
    guild: Guild | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    recipient: User | None = None
    bot_denied: int = 0          # permission bits denied to the bot here (lost permissions)
    deleted: bool = False
    messages: list[Message] = field(default_factory=list)
    signal: Signal = field(default_factory=Signal)

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, bot_id: int | None = None) -> JSON:
        if self.type == ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id), "type": 1, "last_message_id": self._last_id(),
                "recipients": [self.recipient.payload()], "flags": 0,
            }
        assert self.guild is not None
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": self._last_id(),
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id or 0),
                message_count=len(self.messages),
                total_message_sent=len(self.messages),
                member_count=1,
                thread_metadata={
                    "archived": False, "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(), "locked": False, "invitable": True,
                    "create_timestamp": iso_now(),
                },
            )
        else:
            overwrites = []
            if self.bot_denied and bot_id is not None:
                overwrites.append(
                    {"id": str(bot_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)}
                )
            data.update(
                topic=None, permission_overwrites=overwrites,
                default_auto_archive_duration=1440, default_thread_rate_limit_per_user=0,
            )
        return data

    def _last_id(self) -> str | None:
        return str(self.messages[-1].id) if self.messages else None


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)

    def permissions(self, user_id: int, channel: Channel | None = None, bot_id: int = 0) -> int:
        """The member's permissions (in `channel` if given), like Discord computes them."""
        if user_id == self.owner_id:
            return Perm.ALL
        member = self.members.get(user_id)
        bits = self.roles[self.id].permissions
        if member is not None:
            for role_id in member.role_ids:
                bits |= self.roles[role_id].permissions
        if bits & Perm.ADMINISTRATOR:
            return Perm.ALL
        if channel is not None and user_id == bot_id:
            base = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
            if base is not None:
                bits &= ~base.bot_denied
        return bits

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if not c.is_thread and not c.deleted]

    def payload(self, bot_id: int) -> JSON:
        """The full GUILD_CREATE payload (member_count == len(members), so nothing is chunked)."""
        channels = [c for c in self.channels.values() if not c.deleted]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None, "splash": None, "discovery_splash": None, "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [], "stickers": [],
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000, "vanity_url_code": None,
            "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False, "unavailable": False, "lazy": True,
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload(bot_id) for c in channels if not c.is_thread],
            "threads": [c.payload(bot_id) for c in channels if c.is_thread],
            "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    """A file the bot uploaded (bytes kept) or a user attached to a command."""

    id: int
    filename: str
    data: bytes    # only the first 64 bytes when the stand-in runs with keep_bytes=False
    content_type: str
    url: str
    description: str | None = None
    size: int = -1

    def __post_init__(self) -> None:
        if self.size < 0:
            self.size = len(self.data)

    def is_png(self) -> bool:
        return self.data[:8] == b"\x89PNG\r\n\x1a\n"

    def image(self) -> Any:
        """The file opened with Pillow (PIL.Image.Image)."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.data))

    def image_size(self) -> tuple[int, int] | None:
        """Width and height read from a PNG header, else None."""
        if not self.is_png() or len(self.data) < 24:
            return None
        return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id), "filename": self.filename, "size": self.size,
            "url": self.url, "proxy_url": self.url, "content_type": self.content_type,
            "description": self.description,
        }
        dims = self.image_size()
        if dims is not None:
            data["width"], data["height"] = dims
        return data


@dataclass(eq=False)
class Message:
    """A message the bot posted (channel post, interaction response, follow-up, DM)."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    seq: int = 0                        # order of creation across the whole stand-in
    interaction: InteractionRecord | None = None
    webhook_id: int | None = None
    timestamp: str = field(default_factory=iso_now)
    created_at: float = field(default_factory=time.monotonic)   # for latency figures
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)   # every payload that created/edited it

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def iter_components(self) -> Iterable[JSON]:
        """Every leaf component (buttons, selects) of the message."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            children = comp.get("components")
            if children:
                stack.extend(reversed(children))
            if comp.get("type") != 1:
                yield comp
            accessory = comp.get("accessory")
            if accessory:
                yield accessory

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def button(self, label: str) -> JSON:
        """The button whose label is `label` (else the only one containing it, any case)."""
        exact = [b for b in self.buttons if b.get("label") == label]
        loose = [b for b in self.buttons if label.lower() in (b.get("label") or "").lower()]
        found = exact or loose
        if len(found) != 1:
            raise LookupError(f"{len(found)} buttons match {label!r}: "
                              f"{[b.get('label') for b in self.buttons]}")
        return found[0]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    @property
    def pngs(self) -> list[bytes]:
        """The bytes of every PNG attachment."""
        return [a.data for a in self.attachments if a.is_png()]

    @property
    def image_urls(self) -> list[str]:
        """The addresses of embedded images (an image posted before, shown again)."""
        return [e["image"]["url"] for e in self.embeds if (e.get("image") or {}).get("url")]

    @property
    def shows_image(self) -> bool:
        """Whether the message shows a picture: an uploaded PNG or an embedded image."""
        return bool(self.pngs or self.image_urls)

    def png(self) -> bytes:
        """The bytes of the only (or first) PNG attachment; AssertionError if none."""
        pngs = self.pngs
        assert pngs, f"message {self.id} has no PNG attachment: {self.attachments}"
        return pngs[0]

    def mentions(self, user_id: int) -> bool:
        """Whether the content or an embed mentions the user."""
        return f"<@{user_id}>" in self.text or f"<@!{user_id}>" in self.text

    def payload(self, app_id: int) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": False,
            "flags": self.flags,
            "position": 0,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(app_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
        return data


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the stand-in dispatched and everything the bot answered to it."""

    id: int
    token: str
    type: int                     # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    payload: JSON
    component_message: Message | None = None
    sent_at: float | None = None          # time.monotonic() when dispatched
    answered_at: float | None = None      # time.monotonic() of the first answer (callback)
    callback_type: int | None = None
    callback_data: JSON | None = None
    callback_files: list[Attachment] = field(default_factory=list)
    original: Message | None = None       # the response message (or the component message)
    followups: list[Message] = field(default_factory=list)
    edits: list[JSON] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what the stand-in refused (4xx)
    signal: Signal = field(default_factory=Signal)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first answer."""
        if self.sent_at is None or self.answered_at is None:
            return None
        return self.answered_at - self.sent_at

    @property
    def name(self) -> str:
        """The full command name ("game new") or the custom_id."""
        data = self.payload["data"]
        if "custom_id" in data:
            return str(data["custom_id"])
        parts = [data["name"]]
        options = data.get("options", [])
        while options and options[0].get("type") in (1, 2):
            parts.append(options[0]["name"])
            options = options[0].get("options", [])
        return " ".join(parts)

    def metadata(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": {"0": str(self.channel.guild.id)}
            if self.channel.guild else {"1": str(self.user.id)},
            "name": self.name,
        }


class ValidationError(Exception):
    """A simulated interaction that Discord itself would refuse to send."""


OPTION_TYPES = {
    1: "SUB_COMMAND", 2: "SUB_COMMAND_GROUP", 3: "STRING", 4: "INTEGER", 5: "BOOLEAN",
    6: "USER", 7: "CHANNEL", 8: "ROLE", 9: "MENTIONABLE", 10: "NUMBER", 11: "ATTACHMENT",
}
NAME_RE = re.compile(r"^[-_'\w]{1,32}$")
MAX_SAFE_INT = 2**53


def _fail(errors: list[str], path: str, message: str) -> None:
    errors.append(f"{path}: {message}")


def validate_command_schema(cmd: JSON, where: str = "") -> list[str]:
    """Check an application command like Discord's bulk overwrite does; returns error strings."""
    errors: list[str] = []
    name = cmd.get("name", "")
    path = where or name
    ctype = cmd.get("type", 1)
    if ctype == 1 and (not NAME_RE.match(name) or name != name.lower()):
        _fail(errors, path, f"invalid name {name!r}")
    for locale, value in (cmd.get("name_localizations") or {}).items():
        if ctype == 1 and (not NAME_RE.match(value) or value != value.lower()):
            _fail(errors, path, f"invalid {locale} name {value!r}")
    if ctype == 1:
        desc = cmd.get("description", "")
        if not 1 <= len(desc) <= 100:
            _fail(errors, path, "description must be 1-100 characters")
        for locale, value in (cmd.get("description_localizations") or {}).items():
            if not 1 <= len(value) <= 100:
                _fail(errors, path, f"{locale} description must be 1-100 characters")
    options = cmd.get("options") or []
    if len(options) > 25:
        _fail(errors, path, "more than 25 options")
    seen_optional = False
    names: set[str] = set()
    for opt in options:
        opath = f"{path} {opt.get('name')}"
        if opt.get("name") in names:
            _fail(errors, opath, "duplicate option name")
        names.add(opt.get("name", ""))
        if opt.get("type") in (1, 2):
            errors += validate_command_schema({**opt, "type": 1}, opath)
            continue
        if opt.get("type") not in OPTION_TYPES:
            _fail(errors, opath, f"unknown option type {opt.get('type')}")
        errors += validate_command_schema({"name": opt.get("name", ""), "description":
                                           opt.get("description", ""), "type": 1,
                                           "name_localizations": opt.get("name_localizations"),
                                           "description_localizations":
                                           opt.get("description_localizations")}, opath)
        if opt.get("required"):
            if seen_optional:
                _fail(errors, opath, "required options must come before optional ones")
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            _fail(errors, opath, "more than 25 choices")
        if opt.get("choices") and opt.get("autocomplete"):
            _fail(errors, opath, "autocomplete and choices are exclusive")
    return errors


@dataclass
class ResolvedOption:
    """A user-supplied option value with its Discord option type."""

    type: int
    value: Any


def _check_value(opt: JSON, value: Any, path: str, errors: list[str]) -> None:
    otype = opt["type"]
    if otype == 3:
        if not isinstance(value, str):
            return _fail(errors, path, "expected a string")
        if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            _fail(errors, path, "string length out of range")
    elif otype in (4, 10):
        ok = isinstance(value, int) if otype == 4 else isinstance(value, int | float)
        if isinstance(value, bool) or not ok:
            return _fail(errors, path, f"expected {OPTION_TYPES[otype].lower()}")
        low = opt.get("min_value", -MAX_SAFE_INT)
        high = opt.get("max_value", MAX_SAFE_INT)
        if not low <= value <= high:
            _fail(errors, path, f"{value} out of range [{low}, {high}]")
    elif otype == 5 and not isinstance(value, bool):
        _fail(errors, path, "expected a boolean")
    if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
        _fail(errors, path, f"{value!r} is not one of the choices")


def find_command(commands: Iterable[JSON], name: str) -> JSON | None:
    return next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)


def resolve_path(command: JSON, path: list[str]) -> tuple[list[JSON], list[JSON]]:
    """Walk "group sub" under a command; returns (chain of subcommand options, leaf options).

    Raises ValidationError for unknown subcommands or a path that stops at a group.
    """
    chain: list[JSON] = []
    options = command.get("options") or []
    for part in path:
        sub = next((o for o in options if o["name"] == part and o["type"] in (1, 2)), None)
        if sub is None:
            raise ValidationError(f"unknown subcommand {part!r} of /{command['name']}")
        chain.append(sub)
        options = sub.get("options") or []
    if any(o["type"] in (1, 2) for o in options):
        raise ValidationError(f"/{' '.join([command['name'], *path])} needs a subcommand")
    return chain, options


def validate_options(
    schema: list[JSON], given: dict[str, ResolvedOption], focused: str | None = None
) -> None:
    """Check option values against the leaf option schema like Discord; raises ValidationError."""
    errors: list[str] = []
    by_name = {o["name"]: o for o in schema}
    for name, option in given.items():
        opt = by_name.get(name)
        if opt is None:
            _fail(errors, name, "unknown option")
            continue
        if opt["type"] != option.type:
            _fail(errors, name, f"is {OPTION_TYPES.get(opt['type'])}, got "
                                f"{OPTION_TYPES.get(option.type)}")
            continue
        if name == focused:
            if not opt.get("autocomplete"):
                _fail(errors, name, "has no autocomplete")
            continue
        _check_value(opt, option.value, name, errors)
    if focused is None:
        for opt in schema:
            if opt.get("required") and opt["name"] not in given:
                _fail(errors, opt["name"], "required option missing")
    elif focused not in given:
        _fail(errors, focused, "focused option not given")
    if errors:
        raise ValidationError("; ".join(errors))


_counter = itertools.count(1)


def new_token() -> str:
    """An interaction token (unique, URL safe)."""
    return f"aW50ZXJhY3Rpb24{next(_counter)}x{snowflake()}"
