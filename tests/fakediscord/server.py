"""FakeDiscord: an aiohttp stand-in for Discord's REST API and gateway on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import logging
import mimetypes
import random
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .model import (
    EPHEMERAL,
    JSON,
    LOADING,
    Attachment,
    Channel,
    ChannelType,
    Guild,
    InteractionRecord,
    Member,
    Message,
    Perm,
    Role,
    Signal,
    User,
    iso_now,
    shard_of,
    snowflake,
    snowflake_on,
    validate_command_schema,
)

if TYPE_CHECKING:
    from .users import FakeUser

log = logging.getLogger("fakediscord")

FAKE_TOKEN = "ZmFrZQ.dingir.fake-bot-token"
ATTACHMENT_LIMIT = 10 * 1024 * 1024
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
JSON_HEADERS = {      # rate-limit headers that never make discord.py wait
    "Content-Type": "application/json",
    "X-RateLimit-Limit": "10000",
    "X-RateLimit-Remaining": "9999",
    "X-RateLimit-Reset-After": "1.0",
    "Via": "1.1 google",
}


class ApiError(Exception):
    """A Discord-style error answer: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass
class Fault:
    """An injected failure for the next `count` requests whose "METHOD /path" matches."""

    pattern: str
    status: int            # 0: only delay the request by retry_after seconds
    count: int
    retry_after: float
    is_global: bool = False
    hits: int = 0
    rate: float = 1.0
    rng: random.Random = field(default_factory=random.Random)
    processed: bool = False

    def matches(self, method: str, path: str) -> bool:
        target = self.pattern if " " in self.pattern else f"* {self.pattern}"
        return fnmatch.fnmatchcase(f"{method} {path}", target)


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    transport: asyncio.BaseTransport | None = None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: sequence numbers and the events kept for RESUME."""

    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)
    """IDENTIFY's [shard id, shard count]: the session gets the events of its guilds."""
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=20_000))
    conn: Connection | None = None

    def dispatch(self, event: str, data: Any) -> int:
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, frame))
        if self.conn is not None:
            self.conn.queue.put_nowait(frame)
        return self.seq


Handler = Callable[..., Awaitable[web.StreamResponse]]
_DISPOSITION = re.compile(rb'\b(name|filename)="([^"]*)"')
"""The field name and file name of a multipart part (aiohttp writes them unescaped)."""


def _headers(content: bool = True) -> dict[str, str]:
    headers = {**JSON_HEADERS, "X-RateLimit-Reset": f"{time.time() + 1.0:.3f}"}
    if not content:
        del headers["Content-Type"]
    return headers


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON answer with Content-Type exactly application/json (no charset)."""
    return web.Response(status=status, body=json.dumps(data).encode(), headers=_headers())


def _no_content() -> web.Response:
    return web.Response(status=204, headers=_headers(content=False))


def _guess_type(filename: str, data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


class FakeDiscord:
    """Discord's REST API and gateway on 127.0.0.1 with a Python API to play users.

    Build the world (guilds, channels, users) before or after the bot connects; act as
    users through `fake.user(...)` (see users.py); read what the bot did in `messages`,
    `interactions`, and the `wait_*` helpers.
    """

    def __init__(
        self,
        *,
        token: str = FAKE_TOKEN,
        bot_name: str = "Dingir",
        heartbeat_interval: float = 41.25,
        enforce_3s: bool = False,
        history_limit: int | None = None,
        max_interactions: int | None = None,
        keep_bytes: bool = True,
    ) -> None:
        self.token = token
        self.app_id = snowflake()
        self.bot = User(self.app_id, bot_name, bot=True)
        self.owner = User(snowflake(), "app-owner")
        self.heartbeat_interval = heartbeat_interval
        self.enforce_3s = enforce_3s          # refuse callbacks later than 3 s (10062)
        self.history_limit = history_limit    # keep at most this many messages per channel
        self.max_interactions = max_interactions  # keep at most this many interaction records
        self.keep_bytes = keep_bytes          # False: keep only the first 64 bytes of files
        self.port = 0
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.files: dict[int, Attachment] = {}
        self.commands: dict[int | None, list[JSON]] = {None: []}   # guild id (None = global)
        self.sync_count: Counter[int | None] = Counter()           # bulk overwrites per key
        self.interactions: list[InteractionRecord] = []
        self._by_token: dict[str, InteractionRecord] = {}
        self.requests: Counter[str] = Counter()      # "POST /channels/{id}/messages" -> count
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []           # exceptions raised inside handlers
        self.refused: list[str] = []                 # 4xx answers sent (validation, auth ...)
        self.faults: list[Fault] = []
        self.fault_hits: list[str] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None   # the latest identified session
        self.shard_sessions: dict[int, GatewaySession] = {}  # the latest of each shard
        self.recommended_shards = 1                  # what /gateway/bot answers
        self.interactions_shard: int | None = None
        """Send every interaction to this shard's connection, whatever its guild (as Discord
        does for direct messages, shard 0; a process serving another shard gets them)."""
        self.identify_count = 0
        self.resume_count = 0
        self.resume_allowed = True                   # False: answer RESUME with op 9
        self.signal = Signal()
        self._message_seq = 0
        self._dm_channels: dict[int, Channel] = {}
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._add_routes()

    # ----------------------------------------------------------------- lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and serve."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment_file)
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        """Close every gateway connection and the HTTP server."""
        for session in self.sessions.values():
            if session.conn is not None:
                with contextlib.suppress(Exception):
                    await session.conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ----------------------------------------------------------------- world building

    def guild(self, name: str = "Test Guild", *, locale: str = "en-US",
              channels: Iterable[str] = ("general",), owner: User | None = None,
              shard: tuple[int, int] | None = None) -> Guild:
        """Create a guild with the bot as member and text channels (its id on ``shard``, [id,
        count], if given); GUILD_CREATE if connected."""
        owner = owner or self.owner
        self.users.setdefault(owner.id, owner)
        guild = Guild(snowflake() if shard is None else snowflake_on(*shard), name, owner.id,
                      locale)
        guild.roles[guild.id] = Role(guild.id, "@everyone", Perm.EVERYONE, 0)
        bot_role = Role(snowflake(), self.bot.name, Perm.BOT, 1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(self.bot, [bot_role.id])
        guild.members[owner.id] = Member(owner, [])
        self.guilds[guild.id] = guild
        for position, channel_name in enumerate(channels):
            self._new_channel(guild, channel_name, ChannelType.TEXT, position=position)
        self.dispatch("GUILD_CREATE", guild.payload(self.bot.id), guild.id)
        return guild

    def text_channel(self, guild: Guild, name: str) -> Channel:
        """Add a text channel (CHANNEL_CREATE if connected)."""
        channel = self._new_channel(guild, name, ChannelType.TEXT, position=len(guild.channels))
        self.dispatch("CHANNEL_CREATE", channel.payload(self.bot.id))
        return channel

    def thread(self, parent: Channel, name: str, owner: User | None = None,
               thread_id: int | None = None, private: bool = False) -> Channel:
        """Add a thread under a text channel (THREAD_CREATE if connected)."""
        assert parent.guild is not None
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = self._new_channel(parent.guild, name, kind, parent_id=parent.id,
                                   owner_id=(owner or self.bot).id, channel_id=thread_id)
        data = {**thread.payload(self.bot.id), "newly_created": True}
        self.dispatch("THREAD_CREATE", data)
        return thread

    def role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(snowflake(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def user(self, name: str, *, locale: str = "en-US", guild: Guild | None = None,
             guilds: Iterable[Guild] = (), manage_guild: bool = False,
             dms_open: bool = True) -> FakeUser:
        """A new user (member of `guild`/`guilds`; with Manage Server if asked) to act as."""
        from .users import FakeUser

        user = User(snowflake(), name, locale=locale, dms_open=dms_open)
        self.users[user.id] = user
        for g in [*([guild] if guild else []), *guilds]:
            self.add_member(g, user, manage_guild=manage_guild)
        return FakeUser(self, user)

    def add_member(self, guild: Guild, user: User | FakeUser, *,
                   manage_guild: bool = False, roles: Iterable[Role] = ()) -> Member:
        """Make a user a member of a guild (GUILD_MEMBER_ADD if connected)."""
        user = user if isinstance(user, User) else user.user
        role_ids = [r.id for r in roles]
        if manage_guild:
            admin = next((r for r in guild.roles.values() if r.name == "Server Managers"), None)
            admin = admin or self.role(guild, "Server Managers", Perm.EVERYONE | Perm.MANAGE_GUILD)
            role_ids.append(admin.id)
        member = Member(user, role_ids)
        guild.members[user.id] = member
        self.dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def remove_member(self, guild: Guild, user: User | FakeUser) -> None:
        """A member leaves a guild (GUILD_MEMBER_REMOVE if connected); fetching them from
        that guild then answers 404 Unknown Member."""
        user = user if isinstance(user, User) else user.user
        guild.members.pop(user.id, None)
        self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.payload()})

    def dm_channel(self, user: User | FakeUser) -> Channel:
        """The DM channel between the bot and a user (created on first use)."""
        user = user if isinstance(user, User) else user.user
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(snowflake(), ChannelType.DM, "", recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel: later posts get 404 Unknown Channel; CHANNEL_DELETE dispatched."""
        channel.deleted = True
        if channel.guild is not None:
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            self.dispatch(event, channel.payload(self.bot.id))

    def set_bot_denied(self, channel: Channel, denied: int = Perm.SEND_MESSAGES) -> None:
        """Deny permission bits to the bot in a channel (posts then get 403 Missing Permissions)."""
        channel.bot_denied = denied
        if channel.guild is not None:
            self.dispatch("CHANNEL_UPDATE", channel.payload(self.bot.id))

    def _new_channel(self, guild: Guild, name: str, kind: int, *, position: int = 0,
                     parent_id: int | None = None, owner_id: int | None = None,
                     channel_id: int | None = None) -> Channel:
        channel = Channel(channel_id or snowflake(), kind, name, guild=guild, parent_id=parent_id,
                          owner_id=owner_id, position=position)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    # ----------------------------------------------------------------- gateway

    def dispatch(self, event: str, data: Any, guild_id: int | None = None) -> int | None:
        """Send a gateway event to the bot's current session of the shard of the event's
        guild (``guild_id``, else its ``guild_id``; shard 0 without one), kept for RESUME;
        its seq."""
        session = self._session_of({"guild_id": guild_id} if guild_id else data)
        if session is None:
            return None
        return session.dispatch(event, data)

    def _session_of(self, data: Any) -> GatewaySession | None:
        """The session that gets an event about ``data`` (by its ``guild_id``)."""
        if not self.shard_sessions:
            return None
        count = next(iter(self.shard_sessions.values())).shard[1]
        guild = data.get("guild_id") if isinstance(data, dict) else None
        return self.shard_sessions.get(shard_of(int(guild) if guild else None, count))

    @property
    def connected(self) -> bool:
        """Every shard identified has a connection."""
        return bool(self.shard_sessions) and all(
            s.conn is not None for s in self.shard_sessions.values())

    async def drop_gateway(self, code: int | None = 4000) -> None:
        """Close the bot's gateway socket (with `code`, or abruptly if None); events sent
        meanwhile are kept and replayed when the bot RESUMEs."""
        session = self.session
        if session is None or session.conn is None:
            return
        conn, session.conn = session.conn, None
        conn.queue.put_nowait(None)
        if code is None:
            if conn.transport is not None:
                conn.transport.close()
        else:
            await conn.ws.close(code=code, message=b"dropped by fakediscord")

    def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION: the bot must re-IDENTIFY (or RESUME if resumable)."""
        if self.session is not None and self.session.conn is not None:
            self.session.conn.queue.put_nowait(json.dumps({"op": 9, "d": resumable}))

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot closes and RESUMEs."""
        if self.session is not None and self.session.conn is not None:
            self.session.conn.queue.put_nowait(json.dumps({"op": 7, "d": None}))

    async def wait_ready(self, *, identifies: int = 1, timeout: float = 10.0) -> None:
        """Wait until the bot has IDENTIFIED `identifies` times in total and is connected."""
        await self.signal.wait_for(
            lambda: self.identify_count >= identifies and self.connected, timeout,
            f"{identifies} gateway IDENTIFY(s)")

    async def wait_resumed(self, *, resumes: int = 1, timeout: float = 10.0) -> None:
        """Wait until the bot has RESUMED `resumes` times in total and is connected."""
        await self.signal.wait_for(
            lambda: self.resume_count >= resumes and self.connected, timeout,
            f"{resumes} gateway RESUME(s)")

    async def wait_synced(self, guild: Guild | None = None, *, syncs: int = 1,
                          timeout: float = 10.0) -> list[JSON]:
        """Wait until commands were synced `syncs` times in total (globally, or for `guild`);
        returns the synced commands."""
        key = None if guild is None else guild.id
        await self.signal.wait_for(lambda: self.sync_count[key] >= syncs, timeout,
                                   f"command sync #{syncs}")
        return self.commands[key]

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request.transport)
        sender = asyncio.create_task(self._sender(conn))
        interval_ms = int(self.heartbeat_interval * 1000)
        conn.queue.put_nowait(json.dumps({"op": 10, "d": {"heartbeat_interval": interval_ms}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                await self._gateway_op(conn, payload.get("op"), payload.get("d"))
        finally:
            conn.queue.put_nowait(None)
            await asyncio.gather(sender, return_exceptions=True)
            for session in self.sessions.values():
                if session.conn is conn:
                    session.conn = None
            self.signal.notify()
        return ws

    async def _sender(self, conn: Connection) -> None:
        while True:
            frame = await conn.queue.get()
            if frame is None or conn.ws.closed:
                return
            try:
                await conn.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    async def _gateway_op(self, conn: Connection, op: int | None, data: Any) -> None:
        if op == 1:
            conn.queue.put_nowait(json.dumps({"op": 11}))
        elif op == 2:
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard") or (0, 1)
            self._identify(conn, int(data.get("intents", 0)), (int(shard[0]), int(shard[1])))
        elif op == 6:
            self._resume(conn, data)
        elif op == 8:
            self._members_chunk(data)

    def _identify(self, conn: Connection, intents: int, shard: tuple[int, int]) -> None:
        if any(s.shard[1] != shard[1] for s in self.shard_sessions.values()):
            self.shard_sessions = {}             # another shard count: every shard anew
        old = self.shard_sessions.get(shard[0])
        if old is not None and old.conn is not None and old.conn is not conn:
            old.conn.queue.put_nowait(None)
            old.conn = None
        session = GatewaySession(secrets.token_hex(16), intents, shard, conn=conn)
        self.shard_sessions[shard[0]] = session
        # the older sessions of the shard can no longer resume
        self.sessions = {s.id: s for s in self.shard_sessions.values()}
        self.session = session
        self.identify_count += 1
        guilds = [g for g in self.guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
        session.dispatch("READY", {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": list(shard),
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "auth": {},
        })
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild.payload(self.bot.id))
        self.signal.notify()

    def _resume(self, conn: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        ok = (session is not None and self.resume_allowed and data.get("token") == self.token
              and (not session.buffer or session.buffer[0][0] <= seq + 1))
        if not ok or session is None:
            conn.queue.put_nowait(json.dumps({"op": 9, "d": False}))
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.queue.put_nowait(None)
        for number, frame in session.buffer:
            if number > seq:
                conn.queue.put_nowait(frame)
        session.conn = conn
        self.resume_count += 1
        session.dispatch("RESUMED", {})
        self.signal.notify()

    def _members_chunk(self, data: JSON) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        self.dispatch("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0, "chunk_count": 1, "not_found": [], "presences": [],
            "nonce": data.get("nonce"),
        })

    # ----------------------------------------------------------------- interactions

    def interaction_payload(self, rec: InteractionRecord) -> JSON:
        """Complete INTERACTION_CREATE payload for a record whose `payload` holds only data."""
        channel, user, guild = rec.channel, rec.user, rec.channel.guild
        in_channel_perms = (Perm.ALL if guild is None
                            else guild.permissions(user.id, channel, self.bot.id))
        payload: JSON = {
            "id": str(rec.id),
            "application_id": str(self.app_id),
            "type": rec.type,
            "token": rec.token,
            "version": 1,
            "data": rec.payload["data"],
            "channel": {**channel.payload(self.bot.id), "permissions": str(in_channel_perms)},
            "channel_id": str(channel.id),
            "locale": user.locale,
            "app_permissions": str(
                Perm.BOT if guild is None else guild.permissions(self.bot.id, channel, self.bot.id)
            ),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_LIMIT,
            "context": 0 if guild is not None else 1,
        }
        if guild is not None:
            member = guild.members.get(user.id) or Member(user, [])
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=member.payload(permissions=in_channel_perms),
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(user=user.payload(), authorizing_integration_owners={"0": "0"})
        if rec.component_message is not None:
            payload["message"] = rec.component_message.payload(self.app_id)
        return payload

    def send_interaction(self, rec: InteractionRecord) -> InteractionRecord:
        """Record an interaction and dispatch INTERACTION_CREATE to the bot."""
        if self.session is None:
            raise RuntimeError("the bot has not connected to the fake gateway")
        full = self.interaction_payload(rec)
        rec.payload = full
        self.interactions.append(rec)
        self._by_token[rec.token] = rec
        if self.max_interactions is not None and len(self.interactions) > self.max_interactions:
            for old in self.interactions[: -self.max_interactions]:
                self._by_token.pop(old.token, None)
                self._forget(m for m in [old.original, *old.followups]
                             if m is not None and m.ephemeral)
            del self.interactions[: -self.max_interactions]
        rec.sent_at = time.monotonic()
        elsewhere = None if self.interactions_shard is None else \
            self.shard_sessions.get(self.interactions_shard)
        if elsewhere is not None:
            elsewhere.dispatch("INTERACTION_CREATE", full)
        else:
            self.dispatch("INTERACTION_CREATE", full)
        return rec

    # ----------------------------------------------------------------- waits and reading

    def mark(self) -> int:
        """A position in the stream of messages, for `wait_for_channel_message(after=...)`."""
        return self._message_seq

    def channel_messages(self, channel: Channel) -> list[Message]:
        """The channel's history as members see it (no deleted or ephemeral messages),
        oldest first. Ephemeral answers are on their InteractionResult."""
        return [m for m in channel.messages if not m.deleted]

    async def wait_for_channel_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = 10.0,
        after: int | Message | None = None,
    ) -> Message:
        """The first (oldest) public message in `channel` created after `after` (a mark()
        or a message; None: any) that matches `predicate`; waits for it up to `timeout`."""
        floor = after.seq if isinstance(after, Message) else (after or 0)

        def find() -> Message | None:
            found = None
            for m in reversed(channel.messages):
                if m.seq <= floor:
                    break
                if not m.deleted and not m.loading and (predicate is None or predicate(m)):
                    found = m
            return found

        found: Message = await channel.signal.wait_for(
            find, timeout, f"a message in #{channel.name or channel.id}")
        return found

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0,
                         what: str = "a condition", poll: float = 0.02) -> Any:
        """Re-check `predicate` at every request the stand-in serves and every `poll`
        seconds (for state outside the stand-in, like the bot's cache); its first truthy
        value."""
        return await self.signal.wait_for(predicate, timeout, what, poll)

    def fail_next(self, route_pattern: str, status: int = 429, count: int = 1,
                  retry_after: float = 0.05, *, is_global: bool = False, rate: float = 1.0,
                  seed: int = 0, processed: bool = False) -> Fault:
        """Answer the next `count` requests matching `route_pattern` with `status`.

        The pattern is an fnmatch glob over "METHOD /path" (path after /api/v10, no query),
        e.g. "POST /channels/*/messages" or "/interactions/*" (any method). 429 answers
        carry Retry-After and a JSON retry_after that discord.py honours; 500 makes
        discord.py retry after 1 s, 3 s, ... With rate < 1 each matching request fails
        with that probability (random.Random(seed)) until `count` failures happened.
        With processed=True the request is carried out first and only its answer is
        replaced by the error (a lost answer: a retry then meets the done work).
        """
        fault = Fault(route_pattern, status, count, retry_after, is_global, rate=rate,
                      rng=random.Random(seed), processed=processed)
        self.faults.append(fault)
        return fault

    def slow_next(self, route_pattern: str, delay: float, count: int = 1) -> Fault:
        """Delay the next `count` matching requests by `delay` seconds, then serve them."""
        fault = Fault(route_pattern, 0, count, delay)
        self.faults.append(fault)
        return fault

    async def _take_fault(self, method: str, path: str) -> Fault | None:
        """The fault (if any) that applies to this request; delays are served here."""
        for fault in self.faults:
            if fault.count > 0 and fault.matches(method, path) and (
                    fault.rate >= 1.0 or fault.rng.random() < fault.rate):
                fault.count -= 1
                fault.hits += 1
                if fault.status == 0:
                    await asyncio.sleep(fault.retry_after)
                    return None
                self.fault_hits.append(f"{fault.status} {method} {path}")
                if not fault.processed:
                    self._fault_on_interaction(fault.status, path)
                return fault
        return None

    @staticmethod
    def _fault_response(fault: Fault) -> web.Response:
        if fault.status != 429:
            return _json({"message": f"{fault.status}: Injected failure", "code": 0},
                         fault.status)
        headers = {**_headers(), "Retry-After": f"{fault.retry_after:.3f}",
                   "X-RateLimit-Remaining": "0",
                   "X-RateLimit-Scope": "global" if fault.is_global else "user"}
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                "global": fault.is_global, "code": 0}
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def _fault_on_interaction(self, status: int, path: str) -> None:
        """A final (non-retried) injected error on a callback fails its interaction."""
        parts = path.split("/")
        if status == 429 or status >= 500 or len(parts) < 4 or parts[1] != "interactions":
            return
        rec = self._by_token.get(parts[3])
        if rec is not None:
            rec.errors.append(f"{status} injected")
            rec.signal.notify()

    # ----------------------------------------------------------------- REST plumbing

    def _add_routes(self) -> None:
        s = r"(\d+)"
        t = r"([^/]+)"
        m = r"(@original|\d+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("GET", "/applications/@me", self._get_app),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", f"/users/{s}", self._get_user),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", f"/applications/{s}/commands", self._get_commands),
            ("PUT", f"/applications/{s}/commands", self._put_commands),
            ("GET", f"/applications/{s}/guilds/{s}/commands", self._get_commands),
            ("PUT", f"/applications/{s}/guilds/{s}/commands", self._put_commands),
            ("GET", f"/applications/{s}/guilds/{s}/commands/permissions", self._empty_list),
            ("POST", f"/interactions/{s}/{t}/callback", self._callback),
            ("POST", f"/webhooks/{s}/{t}", self._followup),
            ("GET", f"/webhooks/{s}/{t}/messages/{m}", self._webhook_get),
            ("PATCH", f"/webhooks/{s}/{t}/messages/{m}", self._webhook_edit),
            ("DELETE", f"/webhooks/{s}/{t}/messages/{m}", self._webhook_delete),
            ("GET", f"/channels/{s}", self._get_channel),
            ("GET", f"/channels/{s}/messages", self._get_messages),
            ("POST", f"/channels/{s}/messages", self._post_message),
            ("GET", f"/channels/{s}/messages/{s}", self._get_message),
            ("PATCH", f"/channels/{s}/messages/{s}", self._edit_message),
            ("DELETE", f"/channels/{s}/messages/{s}", self._delete_message),
            ("POST", f"/channels/{s}/threads", self._create_thread),
            ("POST", f"/channels/{s}/messages/{s}/threads", self._create_thread),
            ("POST", f"/channels/{s}/typing", self._no_op),
            ("PUT", f"/channels/{s}/messages/{s}/reactions/{t}/@me", self._no_op),
            ("DELETE", f"/channels/{s}/messages/{s}/reactions/{t}/{t}", self._no_op),
            ("PUT", f"/channels/{s}/thread-members/@me", self._no_op),
            ("PUT", f"/channels/{s}/pins/{s}", self._no_op),
            ("GET", f"/guilds/{s}", self._get_guild),
            ("GET", f"/guilds/{s}/channels", self._get_guild_channels),
            ("GET", f"/guilds/{s}/members/{s}", self._get_member),
            ("GET", f"/guilds/{s}/roles", self._get_roles),
        ]
        for method, pattern, handler in table:
            name = pattern.replace(s, "{id}").replace(t, "{token}").replace(m, "{message}")
            self._routes.append((method, f"{method} {name}", re.compile(f"^{pattern}$"),
                                 handler))

    def _authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        for route_method, name, regex, handler in self._routes:
            match = regex.match(path)
            if match is None or route_method != method:
                continue
            self.requests[name] += 1
            token_route = path.startswith(("/interactions/", "/webhooks/"))
            if not token_route and not self._authorised(request):
                self.refused.append(f"401 {method} {path}")
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            fault = await self._take_fault(method, path)
            if fault is not None and not fault.processed:
                return self._fault_response(fault)
            response = await self._handle(request, handler, match.groups())
            return response if fault is None else self._fault_response(fault)
        return await self._unknown(request)

    async def _handle(self, request: web.Request, handler: Handler, args: tuple[Any, ...]
                      ) -> web.StreamResponse:
        try:
            return await handler(request, *args)
        except ApiError as err:
            self.refused.append(f"{err.status} {request.method} {request.path}: {err.message} "
                                f"{err.errors or ''}")
            body: JSON = {"message": err.message, "code": err.code}
            if err.errors is not None:
                body["errors"] = err.errors
            return _json(body, err.status)
        except Exception as exc:
            log.exception("fakediscord handler failed: %s %s", request.method, request.path)
            self.server_errors.append(f"{request.method} {request.path}: {exc!r}")
            return _json({"message": "500: Internal Server Error", "code": 0}, 500)
        finally:
            self.signal.notify()

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        entry = f"{request.method} {request.path}"
        log.warning("fakediscord: unknown route %s", entry)
        self.unknown_routes.append(entry)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    async def _attachment_file(self, request: web.Request) -> web.StreamResponse:
        att = self.files.get(int(request.match_info["id"]))
        if att is None:
            return _json({"message": "404: Not Found", "code": 0}, 404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    def new_attachment(self, filename: str, data: bytes, description: str | None = None
                       ) -> Attachment:
        """An attachment served by the stand-in (bot uploads and users' command files)."""
        att_id = snowflake()
        att = Attachment(att_id, filename, data if self.keep_bytes else data[:64],
                         _guess_type(filename, data),
                         f"{self.base_url}/attachments/{att_id}/{filename}", description,
                         size=len(data))
        self.files[att_id] = att
        return att

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, tuple[str, bytes]]]:
        """The JSON payload and uploaded files by index, from JSON or multipart bodies."""
        files: dict[int, tuple[str, bytes]] = {}
        # The raw header: aiohttp's parsed content_type goes through the (slow) email parser,
        # and its multipart reader costs a busy run more than the bot's own upload does.
        content_type = request.headers.get("Content-Type", "")
        raw = await request.read()
        if not content_type.startswith("multipart/"):
            return (json.loads(raw) if raw else {}), files
        payload: JSON = {}
        boundary = b"--" + content_type.partition("boundary=")[2].strip('"').encode()
        for part in raw.split(boundary)[1:-1]:
            head, _, data = part.partition(b"\r\n\r\n")
            fields = {k.decode(): v.decode() for k, v in _DISPOSITION.findall(head)}
            name = fields.get("name", "")
            if name == "payload_json":
                payload = json.loads(data[:-2])     # each part ends with CRLF
            elif name.startswith("files["):
                index = int(name[6:-1])
                files[index] = (fields.get("filename") or f"file{index}", data[:-2])
        return payload, files

    # ----------------------------------------------------------------- messages

    def _check_message(self, data: JSON, files: dict[int, tuple[str, bytes]]) -> None:
        errors: list[str] = []
        if len(data.get("content") or "") > 2000:
            errors.append("content: must be 2000 or fewer in length")
        embeds = data.get("embeds") or []
        if len(embeds) > 10:
            errors.append("embeds: at most 10")
        total = 0
        for i, embed in enumerate(embeds):
            for key, limit in (("title", 256), ("description", 4096)):
                if len(embed.get(key) or "") > limit:
                    errors.append(f"embeds.{i}.{key}: longer than {limit}")
            fields = embed.get("fields") or []
            if len(fields) > 25:
                errors.append(f"embeds.{i}.fields: at most 25")
            for j, fld in enumerate(fields):
                if not fld.get("name") or not fld.get("value"):
                    errors.append(f"embeds.{i}.fields.{j}: name and value are required")
                if len(fld.get("name", "")) > 256 or len(fld.get("value", "")) > 1024:
                    errors.append(f"embeds.{i}.fields.{j}: too long")
            total += sum(len(str(embed.get(k) or "")) for k in ("title", "description"))
            total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        if total > 6000:
            errors.append("embeds: more than 6000 characters in total")
        errors += self._check_components(data.get("components") or [])
        if len(files) > 10:
            errors.append("files: at most 10")
        if sum(len(b) for _, b in files.values()) > ATTACHMENT_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": errors})

    def _check_components(self, rows: list[JSON]) -> list[str]:
        errors: list[str] = []
        if len(rows) > 5 and all(r.get("type") == 1 for r in rows):
            errors.append("components: at most 5 action rows")
        seen: set[str] = set()
        for r, row in enumerate(rows):
            children = row.get("components") or []
            if row.get("type") == 1 and not 1 <= len(children) <= 5:
                errors.append(f"components.{r}: an action row holds 1 to 5 components")
            for c, comp in enumerate(children):
                where = f"components.{r}.{c}"
                custom_id = comp.get("custom_id")
                if custom_id is not None:
                    if not 1 <= len(custom_id) <= 100:
                        errors.append(f"{where}.custom_id: must be 1-100 characters")
                    if custom_id in seen:
                        errors.append(f"{where}.custom_id: duplicate {custom_id!r}")
                    seen.add(custom_id)
                if comp.get("type") == 2:
                    if len(comp.get("label") or "") > 80:
                        errors.append(f"{where}.label: longer than 80")
                    if not comp.get("label") and not comp.get("emoji"):
                        errors.append(f"{where}: a button needs a label or an emoji")
                    if (comp.get("style") == 5) != ("url" in comp):
                        errors.append(f"{where}: link buttons (and only them) have a url")
                if comp.get("type") in (3, 5, 6, 7, 8):
                    options = comp.get("options") or []
                    if comp.get("type") == 3 and not 1 <= len(options) <= 25:
                        errors.append(f"{where}.options: 1 to 25 options")
                    for o, opt in enumerate(options):
                        if not 1 <= len(opt.get("label") or "") <= 100:
                            errors.append(f"{where}.options.{o}.label: must be 1-100 characters")
        return errors

    def _uploads(self, data: JSON, files: dict[int, tuple[str, bytes]]) -> list[Attachment]:
        wanted = {}
        for entry in data.get("attachments") or []:
            with contextlib.suppress(TypeError, ValueError):
                index = int(entry["id"])
                if index in files:
                    wanted[index] = entry
        result = []
        for index, (filename, blob) in sorted(files.items()):
            entry = wanted.get(index, {})
            name = entry.get("filename") or filename
            result.append(self.new_attachment(name, blob, entry.get("description")))
        return result

    def _new_message(self, channel: Channel, data: JSON, files: dict[int, tuple[str, bytes]], *,
                     rec: InteractionRecord | None = None, kind: int = 0,
                     allow_empty: bool = False) -> Message:
        self._check_message(data, files)
        attachments = self._uploads(data, files)
        flags = int(data.get("flags") or 0)
        if rec is None:
            flags &= ~EPHEMERAL
        message = Message(
            snowflake(), channel, self.bot,
            content=data.get("content") or "",
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            attachments=attachments,
            flags=flags,
            type=kind,
            interaction=rec,
            webhook_id=self.app_id if rec is not None else None,
        )
        message.history.append(data)
        if not allow_empty and not (message.content or message.embeds or message.attachments
                                    or message.components or data.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        self._store(message)
        return message

    def _store(self, message: Message) -> None:
        """Index a new message; public ones also go to their channel's history."""
        self._message_seq += 1
        message.seq = self._message_seq
        self.messages[message.id] = message
        channel = message.channel
        if not message.ephemeral:
            channel.messages.append(message)
            self._dispatch_message("MESSAGE_CREATE", message)
        if self.history_limit is not None and len(channel.messages) > self.history_limit:
            self._forget(channel.messages[: -self.history_limit])
            del channel.messages[: -self.history_limit]
        channel.signal.notify()
        self.signal.notify()

    def _forget(self, messages: Iterable[Message]) -> None:
        for old in messages:
            self.messages.pop(old.id, None)
            for att in old.attachments:
                self.files.pop(att.id, None)

    def _dispatch_message(self, event: str, message: Message) -> None:
        guild = message.channel.guild
        session = self._session_of({"guild_id": guild.id if guild is not None else None})
        if session is None or message.ephemeral:
            return
        wanted = INTENT_DIRECT_MESSAGES if message.channel.guild is None else INTENT_GUILD_MESSAGES
        if session.intents & wanted:
            self.dispatch(event, message.payload(self.app_id))

    def _apply_edit(self, message: Message, data: JSON,
                    files: dict[int, tuple[str, bytes]]) -> None:
        self._check_message(data, files)
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments += self._uploads(data, files)
        if "flags" in data and data["flags"] is not None:
            message.flags = (message.flags & EPHEMERAL) | (int(data["flags"]) & ~EPHEMERAL)
        message.flags &= ~LOADING
        message.edited_timestamp = iso_now()
        message.history.append(data)
        self._dispatch_message("MESSAGE_UPDATE", message)
        message.channel.signal.notify()
        if message.interaction is not None:
            message.interaction.signal.notify()
        self.signal.notify()

    def _channel(self, channel_id: str) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel: Channel, message_id: str) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.channel is not channel:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _check_can_post(self, channel: Channel, files: bool) -> None:
        if channel.type == ChannelType.DM:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        assert channel.guild is not None
        perms = channel.guild.permissions(self.bot.id, channel, self.bot.id)
        needed = Perm.VIEW_CHANNEL | (Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread
                                      else Perm.SEND_MESSAGES)
        if files:
            needed |= Perm.ATTACH_FILES
        if perms & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")

    # ----------------------------------------------------------------- REST handlers

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json({**self.bot.payload(), "verified": True, "mfa_enabled": False,
                      "locale": "en-US", "email": None})

    async def _get_app(self, request: web.Request) -> web.Response:
        return _json({
            "id": str(self.app_id), "name": self.bot.name, "icon": None,
            "description": "fake application", "summary": "", "type": None,
            "bot_public": True, "bot_require_code_grant": False,
            "owner": self.owner.payload(), "team": None,
            "verify_key": "0" * 64, "flags": 0, "tags": [],
            "bot": self.bot.payload(), "rpc_origins": [], "redirect_uris": [],
            "interactions_endpoint_url": None, "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
        })

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": self.recommended_shards,
                      "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def _get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return _json(user.payload())

    async def _empty_list(self, request: web.Request, *args: str) -> web.Response:
        return _json([])

    async def _no_op(self, request: web.Request, *args: str) -> web.Response:
        return _no_content()

    async def _create_dm(self, request: web.Request) -> web.Response:
        data = await request.json()
        user = self.users.get(int(data.get("recipient_id", 0)))
        if user is None:
            raise ApiError(400, 50035, "Invalid Form Body", {"recipient_id": "unknown user"})
        return _json(self.dm_channel(user).payload(self.bot.id))

    async def _get_commands(self, request: web.Request, app_id: str,
                            guild_id: str | None = None) -> web.Response:
        return _json(self.commands.get(None if guild_id is None else int(guild_id), []))

    async def _put_commands(self, request: web.Request, app_id: str,
                            guild_id: str | None = None) -> web.Response:
        if int(app_id) != self.app_id:
            raise ApiError(403, 50001, "Missing Access")
        key = None if guild_id is None else int(guild_id)
        if key is not None and key not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        payload = await request.json()
        errors = [e for cmd in payload for e in validate_command_schema(cmd)]
        names = [(c.get("type", 1), c.get("name")) for c in payload]
        if len(set(names)) != len(names):
            errors.append("duplicate command names")
        if len(payload) > 100:
            errors.append("more than 100 commands")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": errors})
        old = {(c.get("type", 1), c["name"]): c for c in self.commands.get(key, [])}
        synced = []
        for cmd in payload:
            previous = old.get((cmd.get("type", 1), cmd["name"]))
            entry = {
                "type": 1, "options": [], "default_member_permissions": None,
                "dm_permission": True, "nsfw": False, "contexts": None,
                "integration_types": [0], "name_localizations": None,
                "description_localizations": None, "description": "",
                **cmd,
                "id": previous["id"] if previous else str(snowflake()),
                "application_id": str(self.app_id),
                "version": str(snowflake()),
            }
            if key is not None:
                entry["guild_id"] = str(key)
            synced.append(entry)
        self.commands[key] = synced
        self.sync_count[key] += 1
        return _json(synced)

    def _record(self, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return rec

    async def _callback(self, request: web.Request, interaction_id: str, token: str
                        ) -> web.Response:
        rec = self._by_token.get(token)
        if rec is None or rec.id != int(interaction_id):
            raise ApiError(404, 10062, "Unknown interaction")
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        now = time.monotonic()
        if self.enforce_3s and rec.sent_at is not None and now - rec.sent_at > 3.0:
            rec.errors.append("answered after 3 s")
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        try:
            body = self._answer(rec, payload, files)
        except ApiError as err:
            rec.errors.append(f"{err.status} {err.message} {err.errors or ''}")
            rec.signal.notify()
            raise
        rec.answered_at = now
        rec.signal.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return _no_content()
        return _json(body)

    def _answer(self, rec: InteractionRecord, payload: JSON,
                files: dict[int, tuple[str, bytes]]) -> JSON:
        ctype = int(payload.get("type", 0))
        data: JSON = payload.get("data") or {}
        allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,), 5: (4, 5, 6, 7)}[rec.type]
        if ctype not in allowed:
            raise ApiError(400, 50035, "Invalid Form Body",
                           {"type": f"callback type {ctype} not valid for interaction {rec.type}"})
        message: Message | None = None
        kind = 20 if rec.type == 2 else 0
        if ctype == 4:
            message = self._new_message(rec.channel, data, files, rec=rec, kind=kind)
            rec.original = message
        elif ctype == 5:
            loading = {"flags": LOADING | (int(data.get("flags") or 0) & EPHEMERAL)}
            message = self._new_message(rec.channel, loading, {}, rec=rec, kind=kind,
                                        allow_empty=True)
            rec.original = message
        elif ctype in (6, 7):
            if rec.component_message is None:
                raise ApiError(400, 50035, "Invalid Form Body", {"type": "no message to update"})
            rec.original = rec.component_message
            if ctype == 7:
                self._apply_edit(rec.component_message, data, files)
                message = rec.component_message
        elif ctype == 8:
            self._check_choices(data.get("choices"))
        elif ctype == 9:
            self._check_modal(data)
        rec.callback_type = ctype
        rec.callback_data = data
        rec.callback_files = message.attachments if message is not None and ctype == 4 else []
        resource: JSON = {"type": ctype}
        if message is not None:
            resource["message"] = message.payload(self.app_id)
        return {
            "interaction": {
                "id": str(rec.id), "type": rec.type,
                "response_message_id": str(message.id) if message is not None else None,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            },
            "resource": resource,
        }

    @staticmethod
    def _check_choices(choices: Any) -> None:
        errors = []
        if not isinstance(choices, list) or len(choices) > 25:
            errors.append("choices: a list of at most 25")
        else:
            for i, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    errors.append(f"choices.{i}.name: must be 1-100 characters")
                value = choice.get("value")
                if isinstance(value, str) and len(value) > 100:
                    errors.append(f"choices.{i}.value: longer than 100")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": errors})

    @staticmethod
    def _check_modal(data: JSON) -> None:
        errors = []
        if not 1 <= len(data.get("title") or "") <= 45:
            errors.append("title: must be 1-45 characters")
        if not 1 <= len(data.get("custom_id") or "") <= 100:
            errors.append("custom_id: must be 1-100 characters")
        if not 1 <= len(data.get("components") or []) <= 5:
            errors.append("components: 1 to 5 rows")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": errors})

    async def _followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        rec = self._record(token)
        if rec.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        data, files = await self._read_body(request)
        original = rec.original
        if original is not None and original.loading:
            self._apply_edit(original, data, files)
            message = original
        else:
            message = self._new_message(rec.channel, data, files, rec=rec)
        rec.followups.append(message)
        rec.signal.notify()
        if request.query.get("wait") in ("true", "1", "True"):
            return _json(message.payload(self.app_id))
        return _no_content()

    def _webhook_message(self, rec: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            if rec.original is None or rec.original.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return rec.original
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.interaction is not rec:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _webhook_get(self, request: web.Request, app_id: str, token: str,
                           message_id: str) -> web.Response:
        rec = self._record(token)
        return _json(self._webhook_message(rec, message_id).payload(self.app_id))

    async def _webhook_edit(self, request: web.Request, app_id: str, token: str,
                            message_id: str) -> web.Response:
        rec = self._record(token)
        message = self._webhook_message(rec, message_id)
        data, files = await self._read_body(request)
        self._apply_edit(message, data, files)
        rec.edits.append(data)
        rec.signal.notify()
        return _json(message.payload(self.app_id))

    async def _webhook_delete(self, request: web.Request, app_id: str, token: str,
                              message_id: str) -> web.Response:
        rec = self._record(token)
        self._delete(self._webhook_message(rec, message_id))
        rec.signal.notify()
        return _no_content()

    def _delete(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral and self.session is not None:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            self.dispatch("MESSAGE_DELETE", data)
        message.channel.signal.notify()

    async def _get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        return _json(self._channel(channel_id).payload(self.bot.id))

    async def _get_messages(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [m for m in self.channel_messages(channel)
                 if (before is None or m.id < before) and (after is None or m.id > after)]
        chosen = found[:limit] if after is not None else found[-limit:]
        return _json([m.payload(self.app_id) for m in reversed(chosen)])

    async def _get_message(self, request: web.Request, channel_id: str,
                           message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        return _json(self._message(channel, message_id).payload(self.app_id))

    async def _post_message(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        data, files = await self._read_body(request)
        self._check_can_post(channel, bool(files))
        message = self._new_message(channel, data, files)
        return _json(message.payload(self.app_id))

    async def _edit_message(self, request: web.Request, channel_id: str,
                            message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        data, files = await self._read_body(request)
        self._apply_edit(message, data, files)
        return _json(message.payload(self.app_id))

    async def _delete_message(self, request: web.Request, channel_id: str,
                              message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        self._delete(self._message(channel, message_id))
        return _no_content()

    async def _create_thread(self, request: web.Request, channel_id: str,
                             message_id: str | None = None) -> web.Response:
        parent = self._channel(channel_id)
        if parent.guild is None or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        perms = parent.guild.permissions(self.bot.id, parent, self.bot.id)
        if not perms & Perm.CREATE_PUBLIC_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        data = await request.json()
        if message_id is not None:
            self._message(parent, message_id)
            if int(message_id) in self.channels:
                raise ApiError(400, 160004, "A thread has already been created for this message")
        name = str(data.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", {"name": "must be 1-100 characters"})
        private = message_id is None and int(data.get("type") or 11) == ChannelType.PRIVATE_THREAD
        thread = self.thread(parent, name, private=private,
                             thread_id=int(message_id) if message_id else None)
        return _json(thread.payload(self.bot.id))

    def _guild(self, guild_id: str) -> Guild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request, guild_id: str) -> web.Response:
        return _json(self._guild(guild_id).payload(self.bot.id))

    async def _get_guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return _json([c.payload(self.bot.id) for c in guild.text_channels()])

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str
                          ) -> web.Response:
        member = self._guild(guild_id).members.get(int(user_id))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return _json(member.payload())

    async def _get_roles(self, request: web.Request, guild_id: str) -> web.Response:
        return _json([r.payload() for r in self._guild(guild_id).roles.values()])

    # ----------------------------------------------------------------- checks for tests

    def assert_clean(self) -> None:
        """Raise AssertionError if any unknown route or handler crash happened."""
        problems = [f"unknown route {u}" for u in self.unknown_routes]
        problems += [f"server error {e}" for e in self.server_errors]
        if problems:
            raise AssertionError("fakediscord saw: " + "; ".join(problems))
