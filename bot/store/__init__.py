"""SQLite persistence of games, seats, the action log, preferences and reminders.

One aiosqlite connection in autocommit mode (``isolation_level=None``), WAL,
``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout.

:class:`Store` is the one object callers use; it combines a class per concern over
a shared core: :mod:`.commit` (the connections, the writer's lock and the group
commit; a database that cannot be used answers "try again"), :mod:`.schema` (the
tables and their migrations; opening, closing and backing up the file),
:mod:`.games` (games, seats and the action log), :mod:`.clocks` (the scheduler's
clocks, reminders, time banks, skip votes and downtime) and :mod:`.players`
(results, ratings, followers, preferences, absences) and :mod:`.weblinks` (the
addresses of the games' web pages). :mod:`.rows` holds the rows
they take and return and the stored forms of a game row's columns.
"""

from __future__ import annotations

from bot.store.clocks import ClocksMixin
from bot.store.games import GamesMixin
from bot.store.players import PlayersMixin
from bot.store.rows import (
    ActionRow,
    ClockRow,
    MemberLoad,
    ReminderRow,
    ResultRow,
    StepWrite,
    StoredGame,
    dumps,
)
from bot.store.schema import MIGRATIONS, SchemaMixin, SchemaTooNew
from bot.store.weblinks import WebLinksMixin

__all__ = ["MIGRATIONS", "ActionRow", "ClockRow", "MemberLoad", "ReminderRow", "ResultRow",
           "SchemaTooNew", "StepWrite", "Store", "StoredGame", "dumps"]


class Store(SchemaMixin, GamesMixin, ClocksMixin, PlayersMixin, WebLinksMixin):
    """The database of one bot process. Open with :meth:`open`, close with :meth:`close`.

    Two connections, each with its own aiosqlite thread: one writes (every write and
    transaction, serialised by an asyncio lock), one only reads (WAL readers never
    wait for the writer, so boards and autocomplete keep working while a write waits
    for a lock held by another process).
    """
