"""Act as Discord users against the bot: slash commands, autocomplete, buttons, selects, modals.

    alice = fake.user("alice", guild=guild)
    result = await alice.slash("game new", game="ur", channel=channel)
    await result.response()            # the bot's first answer (callback)
    message = await result.final()     # the answer after any deferral
    choices = await alice.autocomplete("play", "action", typed="war", channel=channel)
    pressed = await alice.press(message, "end-turn")
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .model import (
    JSON,
    Channel,
    ChannelType,
    InteractionRecord,
    Message,
    ResolvedOption,
    Role,
    User,
    ValidationError,
    find_command,
    new_token,
    resolve_path,
    snowflake,
    validate_options,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

DEFAULT_TIMEOUT = 10.0


class InteractionFailed(Exception):
    """The stand-in refused the bot's answer to an interaction (Discord would show an error)."""


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to an ATTACHMENT option."""

    filename: str
    data: bytes


class InteractionResult:
    """An interaction sent as a user, and the bot's answers as they arrive.

    `await result` is `await result.response()`.
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    def __repr__(self) -> str:
        return (f"<InteractionResult {self.record.name!r} callback={self.callback_type} "
                f"followups={len(self.followups)}>")

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal; None yet."""
        return self.record.callback_type

    @property
    def deferred(self) -> bool:
        return self.record.callback_type in (5, 6)

    @property
    def followups(self) -> list[Message]:
        """Follow-up messages. After a deferral the first one replaces the loading message,
        so it is also `.message`."""
        return self.record.followups

    @property
    def message(self) -> Message | None:
        """The answer as the user sees it: the response message (after edits), the updated
        component message for 6/7, else the first follow-up; None while loading."""
        original = self.record.original
        if original is not None and not original.loading:
            return original
        return self.record.followups[0] if self.record.followups else None

    @property
    def messages(self) -> list[Message]:
        """Every message the bot produced for this interaction (response, then follow-ups)."""
        found = [m for m in [self.message, *self.followups] if m is not None]
        return list(dict.fromkeys(found))

    @property
    def ephemeral(self) -> bool:
        message = self.message or self.record.original
        return message is not None and message.ephemeral

    @property
    def content(self) -> str:
        message = self.message
        return message.text if message is not None else ""

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices ({"name", "value"}) answered by the bot."""
        if self.record.callback_type != 8 or self.record.callback_data is None:
            return []
        return list(self.record.callback_data.get("choices") or [])

    @property
    def modal(self) -> JSON | None:
        return self.record.callback_data if self.record.callback_type == 9 else None

    @property
    def latency(self) -> float | None:
        return self.record.latency

    def _check_failed(self) -> None:
        if self.record.errors and self.record.callback_type is None:
            raise InteractionFailed(f"{self.record.name}: {self.record.errors}")

    async def response(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionResult:
        """Wait for the bot's first answer; raises InteractionFailed if it was refused."""
        def answered() -> bool:
            self._check_failed()
            return self.record.callback_type is not None

        await self.record.signal.wait_for(answered, timeout,
                                          f"an answer to {self.record.name!r}")
        return self

    def __await__(self) -> Generator[Any, None, InteractionResult]:
        return self.response().__await__()

    async def final(self, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """Wait until the answer is a real (non-loading) message and return it."""
        await self.response(timeout)
        found: Message = await self.record.signal.wait_for(
            lambda: self.message, timeout, f"the final message of {self.record.name!r}")
        return found

    async def wait_followups(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT
                             ) -> list[Message]:
        """Wait until the bot has sent `count` follow-ups; returns them all."""
        await self.record.signal.wait_for(lambda: len(self.followups) >= count, timeout,
                                          f"{count} follow-up(s) to {self.record.name!r}")
        return self.followups


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, User | FakeUser):
        return 6
    if isinstance(value, Channel):
        return 7
    if isinstance(value, Role):
        return 8
    if isinstance(value, Upload):
        return 11
    return 3


class FakeUser:
    """A user the test acts as."""

    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.fake = fake
        self.user = user

    def __repr__(self) -> str:
        return f"<FakeUser {self.user.name} {self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def locale(self) -> str:
        return self.user.locale

    @locale.setter
    def locale(self, value: str) -> None:
        self.user.locale = value

    @property
    def dm(self) -> Channel:
        """The DM channel between this user and the bot."""
        return self.fake.dm_channel(self.user)

    def close_dms(self, closed: bool = True) -> None:
        """Refuse (or accept again) DMs from the bot: posts then get 403 code 50007."""
        self.user.dms_open = not closed

    # ------------------------------------------------------------ commands

    async def slash(self, command: str, *, channel: Channel, validate: bool = True,
                    **options: Any) -> InteractionResult:
        """Run `/command sub ... option=value` in `channel` (INTERACTION_CREATE type 2).

        With validate=True (default) the command, subcommand path and options are checked
        against the synced schema like Discord does; ValidationError instead of a dispatch.
        """
        data = self._command_data(command, channel, options, None, validate)
        return self._send(2, channel, data)

    async def send_autocomplete(self, command: str, option: str, typed: str = "", *,
                                channel: Channel, validate: bool = True,
                                **options: Any) -> InteractionResult:
        """Type `typed` into `option` of a command (INTERACTION_CREATE type 4)."""
        data = self._command_data(command, channel, {**options, option: typed}, option, validate)
        return self._send(4, channel, data)

    async def autocomplete(self, command: str, option: str, typed: str = "", *,
                           channel: Channel, validate: bool = True,
                           timeout: float = DEFAULT_TIMEOUT, **options: Any) -> list[JSON]:
        """The choices the bot offers for `option` when the user has typed `typed`."""
        result = await self.send_autocomplete(command, option, typed, channel=channel,
                                              validate=validate, **options)
        await result.response(timeout)
        return result.choices

    def _command_data(self, command: str, channel: Channel, options: dict[str, Any],
                      focused: str | None, validate: bool) -> JSON:
        name, *path = command.strip().lstrip("/").split()
        guild = channel.guild
        schema = None
        guild_command = False
        if guild is not None:
            schema = find_command(self.fake.commands.get(guild.id, []), name)
            guild_command = schema is not None
        schema = schema or find_command(self.fake.commands.get(None, []), name)
        leaf_schema: list[JSON] = []
        if schema is None:
            if validate:
                raise ValidationError(f"unknown command /{name}")
        else:
            try:
                _, leaf_schema = resolve_path(schema, path)
            except ValidationError:
                if validate:
                    raise
            if validate:
                self._check_access(schema, channel)
        by_name = {o["name"]: o for o in leaf_schema}
        given = {}
        for key, value in options.items():
            known = by_name.get(key)
            kind = _infer_type(value)
            if known is not None and (key == focused or self._compatible(known["type"], value)):
                kind = known["type"]
            given[key] = ResolvedOption(kind, value)
        if validate:
            validate_options(leaf_schema, given, focused)
        resolved: dict[str, dict[str, JSON]] = {}
        leaf = [self._option(key, opt, key == focused, resolved) for key, opt in given.items()]
        for depth, part in reversed(list(enumerate(path))):
            kind = 1 if depth == len(path) - 1 else 2       # subcommand, then its group
            leaf = [{"type": kind, "name": part, "options": leaf}]
        data: JSON = {"id": schema["id"] if schema else str(snowflake()), "name": name,
                      "type": 1, "options": leaf}
        if guild_command and guild is not None:
            data["guild_id"] = str(guild.id)
        if resolved:
            data["resolved"] = resolved
        return data

    @staticmethod
    def _compatible(kind: int, value: Any) -> bool:
        return kind == _infer_type(value) or (kind == 10 and _infer_type(value) == 4) or (
            kind == 9 and _infer_type(value) in (6, 8))

    def _check_access(self, schema: JSON, channel: Channel) -> None:
        guild = channel.guild
        contexts = schema.get("contexts")
        if guild is None:
            allowed = 1 in contexts if contexts else schema.get("dm_permission", True) is not False
            if not allowed:
                raise ValidationError(f"/{schema['name']} is not available in DMs")
            return
        if contexts and 0 not in contexts:
            raise ValidationError(f"/{schema['name']} is not available in servers")
        needed = schema.get("default_member_permissions")
        if needed is not None:
            perms = guild.permissions(self.user.id, channel, self.fake.bot.id)
            if perms & int(needed) != int(needed):
                raise ValidationError(f"/{schema['name']} needs permissions {needed}")

    def _option(self, name: str, option: ResolvedOption, focused: bool,
                resolved: dict[str, dict[str, JSON]]) -> JSON:
        value = option.value
        out: JSON = {"name": name, "type": option.type}
        if focused:
            out.update(value=str(value), focused=True)
            return out
        if isinstance(value, FakeUser | User):
            user = value if isinstance(value, User) else value.user
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            self._resolve_member(user, resolved)
            out["value"] = str(user.id)
        elif isinstance(value, Channel):
            perms = str(value.guild.permissions(self.user.id, value) if value.guild else 0)
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.payload(self.fake.bot.id), "permissions": perms}
            out["value"] = str(value.id)
        elif isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            out["value"] = str(value.id)
        elif isinstance(value, Upload):
            att = self.fake.new_attachment(value.filename, value.data)
            resolved.setdefault("attachments", {})[str(att.id)] = {
                **att.payload(), "ephemeral": True}
            out["value"] = str(att.id)
        else:
            out["value"] = value
        return out

    def _resolve_member(self, user: User, resolved: dict[str, dict[str, JSON]]) -> None:
        for guild in self.fake.guilds.values():
            member = guild.members.get(user.id)
            if member is not None:
                data = member.payload(permissions=guild.permissions(user.id))
                del data["user"]
                resolved.setdefault("members", {})[str(user.id)] = data
                return

    # ------------------------------------------------------------ components

    def _message(self, message: Message | int) -> Message:
        found = message if isinstance(message, Message) else self.fake.messages.get(message)
        if found is None:
            raise ValidationError(f"unknown message {message}")
        return found

    async def press(self, message: Message | int, custom_id: str, *,
                    validate: bool = True, channel: Channel | None = None
                    ) -> InteractionResult:
        """Press the button `custom_id` on a bot message (INTERACTION_CREATE type 3);
        `channel` forges where the press says it comes from (default: the message's)."""
        msg = self._message(message)
        if validate:
            comp = self._component(msg, custom_id, 2)
            if comp.get("style") == 5:
                raise ValidationError("link buttons do not send interactions")
        data = {"custom_id": custom_id, "component_type": 2}
        return self._send(3, channel or msg.channel, data, msg)

    async def select(self, message: Message | int, custom_id: str, values: list[str], *,
                     validate: bool = True, channel: Channel | None = None
                     ) -> InteractionResult:
        """Choose `values` in the select menu `custom_id` (INTERACTION_CREATE type 3);
        `channel` as for :meth:`press`."""
        msg = self._message(message)
        kind = 3
        if validate:
            comp = self._component(msg, custom_id, None)
            kind = int(comp["type"])
            low, high = comp.get("min_values", 1), comp.get("max_values", 1)
            if not low <= len(values) <= high:
                raise ValidationError(f"select {custom_id!r}: {len(values)} values, "
                                      f"allowed {low}-{high}")
            if kind == 3:
                allowed = {o["value"] for o in comp.get("options", [])}
                unknown = [v for v in values if v not in allowed]
                if unknown:
                    raise ValidationError(f"select {custom_id!r}: unknown values {unknown}")
        data = {"custom_id": custom_id, "component_type": kind, "values": list(values)}
        return self._send(3, channel or msg.channel, data, msg)

    @staticmethod
    def _component(message: Message, custom_id: str, kind: int | None) -> JSON:
        comp = message.component(custom_id)
        if comp is None:
            raise ValidationError(f"no component {custom_id!r} on message {message.id}; "
                                  f"it has {message.custom_ids}")
        if kind is not None and comp.get("type") != kind:
            raise ValidationError(f"component {custom_id!r} is type {comp.get('type')}")
        if kind is None and comp.get("type") not in (3, 5, 6, 7, 8):
            raise ValidationError(f"component {custom_id!r} is not a select menu")
        if comp.get("disabled"):
            raise ValidationError(f"component {custom_id!r} is disabled")
        return comp

    async def submit_modal(self, opened: InteractionResult, values: dict[str, str]
                           ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to `opened` (type 5)."""
        modal = opened.modal
        if modal is None:
            raise ValidationError("that interaction was not answered with a modal")
        components = []
        for row in modal.get("components") or []:
            if row.get("type") == 18:     # label wrapping one component
                inner = row["component"]
                components.append({"type": 18, "id": row.get("id", 0),
                                   "component": self._submitted(inner, values)})
            else:
                components.append({"type": row.get("type", 1), "id": row.get("id", 0),
                                   "components": [self._submitted(c, values)
                                                  for c in row.get("components") or []]})
        data = {"custom_id": modal["custom_id"], "components": components}
        return self._send(5, opened.record.channel, data, opened.record.component_message)

    @staticmethod
    def _submitted(component: JSON, values: dict[str, str]) -> JSON:
        custom_id = component.get("custom_id", "")
        out: JSON = {"type": component["type"], "id": component.get("id", 0),
                     "custom_id": custom_id}
        if component["type"] == 4:
            out["value"] = values.get(custom_id, component.get("value") or "")
        else:
            value = values.get(custom_id)
            out["values"] = [] if value is None else [value]
        return out

    # ------------------------------------------------------------ sending

    def _send(self, kind: int, channel: Channel, data: JSON,
              message: Message | None = None) -> InteractionResult:
        if channel.guild is not None and self.user.id not in channel.guild.members:
            raise ValidationError(f"{self.user.name} is not a member of {channel.guild.name}")
        if channel.type == ChannelType.DM:
            channel = self.fake.dm_channel(self.user)
        record = InteractionRecord(snowflake(), new_token(), kind, self.user, channel,
                                   {"data": data}, component_message=message)
        self.fake.send_interaction(record)
        return InteractionResult(self.fake, record)
