"""The SQLite backend: one file, opened with aiosqlite (the default store).

Two connections in autocommit mode (``isolation_level=None``), each with its own
aiosqlite thread: one writes (every write and transaction, serialised by the core's
lock), one only reads (WAL readers never wait for the writer, so boards and autocomplete
keep working while a write waits for a lock held by another process). WAL,
``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout. A group of steps is
committed in the writing thread in one hand-over; backups use SQLite's backup API.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.records import StoreUnavailable
from bot.store.base import Store
from bot.store.commit import Conflict, Dialect, Outcome, Statement
from bot.store.schema import MIGRATIONS, migrate

_UNAVAILABLE_CODES = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_READONLY,
    }
)

SQLITE = Dialect(
    name="sqlite",
    seat_rows="(SELECT json_group_array(json_array(seat, user_id, name, resigned))"
              " FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat))",
    same="IS",
    step="INSERT INTO step_log (game_id, expected_version, state, active, status,"
         " turn, turn_started_at, turn_ended, ended_at, seat, notation, step_turn,"
         " reversible, at, waiting)"
         " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    step_counts=False,
)

T = TypeVar("T")


def _is_unavailable(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _UNAVAILABLE_CODES
    text = str(error).lower()
    return any(word in text for word in ("locked", "busy", "disk", "full", "i/o"))


def _mapped(error: sqlite3.Error) -> BaseException:
    """What the store raises for ``error``: "try again", a conflict, or the error itself."""
    if _is_unavailable(error):
        return StoreUnavailable(str(error))
    if isinstance(error, sqlite3.IntegrityError):
        return Conflict(str(error))
    return error


@contextlib.contextmanager
def _unavailable_as_service_error() -> Iterator[None]:
    """SQLite availability errors (locked, busy, full, I/O) -> StoreUnavailable,
    constraint errors -> Conflict."""
    try:
        yield
    except sqlite3.Error as error:
        mapped = _mapped(error)
        if mapped is error:
            raise
        raise mapped from error


def _commit_statements(db: sqlite3.Connection, statements: Sequence[Statement]
                       ) -> list[Outcome]:
    """In the writing thread: ``statements`` in one transaction, each with its outcome (a
    failed statement fails alone); a full disk or I/O error rolls back all and is raised."""
    db.execute("BEGIN IMMEDIATE")
    try:
        outcome: list[Outcome] = []
        for sql, params in statements:
            try:
                outcome.append(db.execute(sql, params).rowcount)
            except sqlite3.Error as error:
                if _is_unavailable(error):
                    raise
                outcome.append(_mapped(error))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise
    return outcome


async def _in_thread(conn: aiosqlite.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(db, *args)`` with ``conn``'s sqlite3 connection, in ``conn``'s own thread:
    one hand-over between threads for a whole group of statements instead of one per
    statement (each costs the event loop a wake-up and waits for the interpreter lock
    while the loop is busy). aiosqlite has no public call for this; the tests of the
    group commit cover the two names it uses."""
    result: T = await conn._execute(work, conn._conn, *args)  # type: ignore[no-untyped-call]
    return result


def _identity(path: Path) -> tuple[int, int] | None:
    """What tells one file from another at the same path (device, inode)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


async def _connect(path: Path, busy_timeout_ms: int, *pragmas: str) -> aiosqlite.Connection:
    with _unavailable_as_service_error():
        conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        with _unavailable_as_service_error():
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            for pragma in pragmas:
                await conn.execute(f"PRAGMA {pragma}")
    except BaseException:
        await conn.close()
        raise
    return conn


class _SqliteTx:
    """The store's view of an aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.conn.execute(sql, params)
        return int(cursor.rowcount)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.conn.execute_fetchall(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)


async def _apply_script(conn: aiosqlite.Connection, script: str, number: int) -> None:
    """Migration ``number``: its script and the new version, in one transaction."""
    try:
        await conn.executescript(
            f"BEGIN IMMEDIATE;\n{script}\nUPDATE schema_version SET version = {number};\nCOMMIT;")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise


class SqliteStore(Store):
    """The database of one bot process in one SQLite file (see the module docstring)."""

    dialect = SQLITE
    path: Path

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 path: Path) -> None:
        super().__init__()
        self._conn = writer
        self._reader = reader
        self._writer = _SqliteTx(writer)
        self.path = path
        self._identity = _identity(path)

    @classmethod
    async def open_file(cls, path: str | Path, *, busy_timeout_ms: int = 5000,
                        durable: bool = True) -> SqliteStore:
        """Open (creating if needed) and migrate the database at ``path``.

        ``busy_timeout_ms``: how long a statement waits for a lock held by another
        connection before :class:`StoreUnavailable` is raised. Without ``durable``, a
        commit does not wait for the disk (a scratch database, as the terminal's).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path, busy_timeout_ms, "journal_mode = WAL",
                                f"synchronous = {'FULL' if durable else 'OFF'}",
                                "foreign_keys = ON")
        try:
            with _unavailable_as_service_error():
                await migrate(_SqliteTx(writer), MIGRATIONS,
                              lambda script, n: _apply_script(writer, script, n))
            reader = await _connect(path, busy_timeout_ms, "query_only = ON",
                                    "foreign_keys = ON")
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader, path)

    async def close(self) -> None:
        """Close both connections (pending work finishes first)."""
        try:
            await self._reader.close()
        finally:
            await self._conn.close()

    async def backup(self, target: Path) -> None:
        """An online copy of the database to ``target`` (SQLite's backup API: consistent
        while the bot keeps writing)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(target.suffix + ".part")

        def copy() -> None:
            source = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                destination = sqlite3.connect(partial)
                try:
                    source.backup(destination)
                finally:
                    destination.close()
            finally:
                source.close()
            partial.replace(target)

        with _unavailable_as_service_error():
            await asyncio.to_thread(copy)

    def check_file(self) -> bool:
        """True while the database file is the one this store opened; once it was deleted
        or replaced (another file moved to its path), the store stops writing for good:
        its steps would go to a file nobody sees."""
        if not self.lost and _identity(self.path) != self._identity:
            self.lost = True
        return not self.lost

    async def tables(self) -> list[str]:
        rows = await self._fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return [str(r[0]) for r in rows]

    async def columns(self, table: str) -> list[str]:
        rows = await self._fetchall("SELECT name FROM pragma_table_info(?) ORDER BY cid",
                                    (table,))
        return [str(r[0]) for r in rows]

    @property
    def _tx(self) -> _SqliteTx:
        return self._writer

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        return _unavailable_as_service_error()

    def _in_transaction(self) -> bool:
        return bool(self._conn.in_transaction)

    async def _begin(self) -> None:
        await self._conn.execute("BEGIN IMMEDIATE")

    async def _rollback(self) -> None:
        await self._conn.execute("ROLLBACK")

    async def _commit_group(self, statements: Sequence[Statement]) -> list[Outcome]:
        return await _in_thread(self._conn, _commit_statements, statements)

    async def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return list(await self._reader.execute_fetchall(sql, params))
