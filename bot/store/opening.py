"""Opening the store that an address names: a SQLite file (:mod:`.sqlite`) or a PostgreSQL
database (:mod:`.postgres`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.store.address import is_postgres
from bot.store.base import Store
from bot.store.sqlite import SqliteStore


async def open_store(target: str | Path, *, lease: Sequence[int] = (),
                     busy_timeout_ms: int = 5000, durable: bool = True) -> Store:
    """The store at ``target`` (created if needed, and migrated): a PostgreSQL address, or a
    SQLite file (a path, or ``sqlite:<path>``).

    ``lease``: the shards whose lease to hold on PostgreSQL for as long as the store is
    open (a SQLite file is held by :mod:`bot.instance` instead). SQLite's own:
    ``busy_timeout_ms``, how long a statement waits for a lock held by another connection
    before :class:`~bot.records.StoreUnavailable` is raised; without ``durable``, a commit
    does not wait for the disk (a scratch database, as the terminal's).
    """
    if is_postgres(target):
        from bot.store.postgres import PgStore  # asyncpg, only for a PostgreSQL address
        return await PgStore.connect(str(target), lease=lease)
    path = target.removeprefix("sqlite:") if isinstance(target, str) else target
    return await SqliteStore.open_file(path, busy_timeout_ms=busy_timeout_ms, durable=durable)
