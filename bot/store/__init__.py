"""Persistence of games, seats, the action log, preferences and reminders.

SQLite by default (:mod:`.sqlite`, one file), PostgreSQL when the bot is given a
``postgresql://`` address (:mod:`.postgres`, ``DINGIR_DATABASE_URL``): :func:`open_store`
(:mod:`.opening`) picks by the address. Both run the same schema (:mod:`.schema`) and the same code.

:class:`Store` is the one object callers use; it combines a class per concern over
a shared core: :mod:`.commit` (the writer's lock and the group commit; a database that
cannot be used answers "try again"), :mod:`.schema` (the tables and their migrations),
:mod:`.games` (games, seats and the action log), :mod:`.clocks` (the scheduler's
clocks, reminders, time banks, skip votes and downtime) and :mod:`.players`
(results, ratings, followers, preferences, absences), :mod:`.weblinks` (the
addresses of the games' web pages) and :mod:`.processes` (shard heartbeats, games moved
for another process). :mod:`.rows` holds the rows
they take and return and the stored forms of a game row's columns.
"""

from __future__ import annotations

from bot.store.address import is_postgres, shown
from bot.store.base import Store
from bot.store.opening import open_store
from bot.store.processes import ShardBeat
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
from bot.store.schema import MIGRATIONS, SchemaTooNew

__all__ = ["MIGRATIONS", "ActionRow", "ClockRow", "MemberLoad", "ReminderRow", "ResultRow",
           "SchemaTooNew", "ShardBeat", "StepWrite", "Store", "StoredGame", "dumps", "is_postgres",
           "open_store", "shown"]

