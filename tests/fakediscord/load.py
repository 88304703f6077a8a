"""The stand-in for long, busy runs (benchmarks/community.py, the fuzzer).

:class:`LoadDiscord` is a :class:`~tests.fakediscord.server.FakeDiscord` with bounded
memory (short channel history, a cap on kept interactions, no file bytes beyond the
PNG header) that also counts the bot's public board posts as they arrive, and builds
a whole community at once: many guilds, a channel per table, players per table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .model import JSON, Attachment, Channel, Guild, Message
from .server import FakeDiscord
from .users import FakeUser


@dataclass
class Table:
    """One channel of the community and the people who play there."""

    index: int
    guild: Guild
    channel: Channel
    players: list[FakeUser]
    ai: int = 0
    bystander: FakeUser | None = None


@dataclass
class BoardPost:
    """A public post with a board image (the bot's turn/start/final messages)."""

    channel_id: int
    seq: int
    created_at: float


def is_board(message: Message) -> bool:
    """A public channel post (not an interaction answer) carrying a PNG."""
    return (not message.ephemeral and message.interaction is None and not message.loading
            and bool(message.pngs))


@dataclass
class Counters:
    """What the stand-in saw, cheaply, for a long run."""

    board_posts: list[BoardPost] = field(default_factory=list)
    posts: int = 0
    pngs: int = 0              # PNG files the bot uploaded (posts, panels, edits)
    png_bytes: int = 0


class LoadDiscord(FakeDiscord):
    """FakeDiscord sized for thousands of users and hours of traffic."""

    def __init__(self, *, history_limit: int = 40, max_interactions: int = 20_000,
                 keep_bytes: bool = False, **kwargs: object) -> None:
        super().__init__(history_limit=history_limit, max_interactions=max_interactions,
                         keep_bytes=keep_bytes, **kwargs)  # type: ignore[arg-type]
        self.counters = Counters()

    def _store(self, message: Message) -> None:
        super()._store(message)
        if is_board(message):
            self.counters.board_posts.append(
                BoardPost(message.channel.id, message.seq, message.created_at))
        elif not message.ephemeral and message.interaction is None:
            self.counters.posts += 1

    def _uploads(self, data: JSON, files: dict[int, tuple[str, bytes]]) -> list[Attachment]:
        for _, blob in files.values():
            if blob[:8] == b"\x89PNG\r\n\x1a\n":
                self.counters.pngs += 1
                self.counters.png_bytes += len(blob)
        return super()._uploads(data, files)

    def community(self, tables: int, *, per_guild: int = 10, players: int | Sequence[int] = 3,
                  ai_every: int = 0, locale: str = "en-US",
                  bystanders: bool = False, shards: int = 1) -> list[Table]:
        """``tables`` channels spread over guilds of ``per_guild`` channels; each table gets
        ``players`` seats (a sequence: the seats of each table in turn, over and over),
        one of them an AI seat at every ``ai_every``-th table of each place in that
        sequence (0: never), the rest new users who are members of that guild; with
        ``bystanders`` one more member per table who never sits (for moves by unseated
        users). With ``shards``, the guilds go to the shards of that count in turn."""
        seats = [players] if isinstance(players, int) else list(players)
        out: list[Table] = []
        guild: Guild | None = None
        for index in range(tables):
            if index % per_guild == 0:
                number = index // per_guild
                guild = self.guild(f"Guild {number}", channels=(),
                                   shard=(number % shards, shards) if shards > 1 else None)
            assert guild is not None
            channel = self.text_channel(guild, f"table-{index}")
            nth = index // len(seats)
            ai = 1 if ai_every and nth % ai_every == ai_every - 1 else 0
            users = [self.user(f"p{index}-{k}", guild=guild, locale=locale)
                     for k in range(seats[index % len(seats)] - ai)]
            watcher = self.user(f"w{index}", guild=guild, locale=locale) if bystanders else None
            out.append(Table(index, guild, channel, users, ai, watcher))
        return out
