"""Persistence of games, seats, the action log, preferences and reminders.

SQLite by default (:mod:`.sqlite`, one file), PostgreSQL when the bot is given a
``postgresql://`` address (:mod:`.postgres`, ``DINGIR_DATABASE_URL``): :func:`open_store`
picks by the address. Both run the same schema (:mod:`.schema`) and the same code.

:class:`Store` is the one object callers use; it combines a class per concern over
a shared core: :mod:`.commit` (the writer's lock and the group commit; a database that
cannot be used answers "try again"), :mod:`.schema` (the tables and their migrations),
:mod:`.games` (games, seats and the action log), :mod:`.clocks` (the scheduler's
clocks, reminders, time banks, skip votes and downtime) and :mod:`.players`
(results, ratings, followers, preferences, absences) and :mod:`.weblinks` (the
addresses of the games' web pages). :mod:`.rows` holds the rows
they take and return and the stored forms of a game row's columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.store.address import is_postgres, shown
from bot.store.base import Store
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
           "SchemaTooNew", "StepWrite", "Store", "StoredGame", "dumps", "is_postgres",
           "open_store", "shown"]


async def open_store(target: str | Path, *, lease: Sequence[int] = ()) -> Store:
    """The store at ``target``: a PostgreSQL address, or a SQLite file (a path, or
    ``sqlite:<path>``). ``lease``: the shards whose lease to hold on PostgreSQL for as long
    as the store is open (a SQLite file is held by :mod:`bot.instance` instead)."""
    if is_postgres(target):
        from bot.store.postgres import PgStore
        return await PgStore.connect(str(target), lease=lease)
    text = str(target)
    return await Store.open(text.removeprefix("sqlite:") if isinstance(target, str) else target)
