"""The shared core of the store: its two connections, the writer's lock and the group commit.

An accepted step is the hot path: :meth:`Store.apply_step` is ONE ``INSERT``
into the view ``step_log`` whose ``INSTEAD OF`` trigger checks the expected
version, updates the game row and appends the log row; a statement is atomic,
fully written or not at all. Such one-statement writes (steps, the last posted
message) are committed in groups: those that arrive while a commit is under
way go together in the next ``BEGIN IMMEDIATE ... COMMIT``, sent to the
database thread in one go, so a busy bot pays one commit (and one disk flush)
for many steps instead of queueing them one commit at a time. A statement that
fails (a stale version) fails alone; each caller returns only once its write
is committed. Rarer writes (lobby, start, undo, import) use an explicit
transaction of a few statements; an asyncio lock keeps other coroutines'
statements out of an open transaction.

A locked or busy database (after the busy timeout), a full disk or an I/O
error raises :class:`~bot.records.StoreUnavailable` ("try again"); whatever
was being written is rolled back.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.records import StoreUnavailable

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

T = TypeVar("T")


def _is_unavailable(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _UNAVAILABLE_CODES
    text = str(error).lower()
    return any(word in text for word in ("locked", "busy", "disk", "full", "i/o"))


@contextlib.contextmanager
def _unavailable_as_service_error() -> Iterator[None]:
    """SQLite availability errors (locked, busy, full, I/O) -> StoreUnavailable."""
    try:
        yield
    except sqlite3.Error as error:
        if _is_unavailable(error):
            raise StoreUnavailable(str(error)) from error
        raise


def _own_copy(error: BaseException) -> BaseException:
    """A "try again" of its own for each waiting writer (one exception object raised in
    several tasks would mix their tracebacks)."""
    return StoreUnavailable(error.detail) if isinstance(error, StoreUnavailable) else error


def _commit_statements(db: sqlite3.Connection, statements: Sequence[tuple[str, Sequence[Any]]]
                       ) -> list[BaseException | None]:
    """In the writing thread: ``statements`` in one transaction, each with its outcome (a
    failed statement fails alone); a full disk or I/O error rolls back all and is raised."""
    db.execute("BEGIN IMMEDIATE")
    try:
        outcome: list[BaseException | None] = []
        for sql, params in statements:
            try:
                db.execute(sql, params)
                outcome.append(None)
            except sqlite3.Error as error:
                if _is_unavailable(error):
                    raise
                outcome.append(error)
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


def _settle(group: Sequence[tuple[str, Sequence[Any], asyncio.Future[None]]],
            outcome: Sequence[BaseException | None]) -> None:
    """Wake the writers of ``group``: each with its error, or done."""
    for (_, _, done), error in zip(group, outcome, strict=True):
        if done.done():
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)   # its writer may be gone (stopping): no warning then
            done.add_done_callback(lambda f: f.exception())


def _identity(path: Path) -> tuple[int, int] | None:
    """What tells one file from another at the same path (device, inode)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


class StoreCore:
    """What every part of :class:`~bot.store.Store` stands on: the writing and the
    reading connection, the lock of the writing one, the group commit and the reads."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 path: Path) -> None:
        self._conn = writer
        self._reader = reader
        self.path = path
        self._identity = _identity(path)
        self.lost = False
        """True once the database file was found deleted or replaced: nothing is written
        any more (each write answers "try again"), see :meth:`check_file`."""
        self._lock = asyncio.Lock()
        self._queued: list[tuple[str, Sequence[Any], asyncio.Future[None]]] = []
        self._committing = False
        self._committer: asyncio.Task[None] | None = None

    def check_file(self) -> bool:
        """True while the database file is the one this store opened; once it was deleted
        or replaced (another file moved to its path), the store stops writing for good:
        its steps would go to a file nobody sees."""
        if not self.lost and _identity(self.path) != self._identity:
            self.lost = True
        return not self.lost

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the writing connection; a failed transaction is rolled back and
        SQLite availability errors become StoreUnavailable."""
        async with self._lock:
            if not self.check_file():     # a stat per write: no step goes to a lost file
                raise StoreUnavailable("the database file was deleted or replaced")
            try:
                with _unavailable_as_service_error():
                    yield self._conn
            except BaseException:
                if self._conn.in_transaction:
                    await self._rollback()
                raise

    async def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
            await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error."""
        async with self._guard() as conn:
            await conn.execute("BEGIN IMMEDIATE")
            yield conn
            await conn.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any]) -> None:
        """Run one statement, at once if no commit is under way, else in the next group
        commit; returns once it is committed.

        Raises the statement's own error (e.g. the stale-version check), or
        StoreUnavailable if its group could not be committed (nothing of it is written).
        """
        if self._committing:
            done = asyncio.get_running_loop().create_future()
            self._queued.append((sql, params, done))
            await done
            return
        self._committing = True
        try:
            async with self._guard() as conn:  # alone: a statement is its own transaction
                await conn.execute(sql, params)
        finally:
            if self._queued:  # arrived meanwhile: committed together, in the background
                self._committer = asyncio.create_task(self._commit_groups(),
                                                      name="store-commit")
            else:
                self._committing = False

    async def _commit_groups(self) -> None:
        """Commit the queued statements, a group at a time, until none is left."""
        try:
            while self._queued:
                group, self._queued = self._queued, []
                try:
                    outcome = await self._commit_group(group)
                except asyncio.CancelledError as error:  # shutting down: nobody waits on
                    group += self._queued                 # a write that will not happen
                    self._queued = []
                    _settle(group, [error] * len(group))
                    raise
                except BaseException as error:
                    outcome = [_own_copy(error) for _ in group]
                _settle(group, outcome)
        finally:
            self._committing = False

    async def _commit_group(self, group: Sequence[tuple[str, Sequence[Any], asyncio.Future[None]]]
                            ) -> list[BaseException | None]:
        """Several statements in one transaction: each its own outcome (a failed statement
        fails alone), or an exception for all (nothing of the group is written)."""
        statements = [(sql, params) for sql, params, _ in group]
        async with self._guard() as conn:
            return await _in_thread(conn, _commit_statements, statements)

    async def _fetchall_in(self, sql: str, values: Iterable[Any], *params: Any) -> list[Any]:
        """Rows of ``sql`` whose ``{marks}`` is the list of ``values`` (bound after
        ``params``); none when ``values`` is empty."""
        items = list(values)
        if not items:
            return []
        marks = ", ".join("?" for _ in items)
        return await self._fetchall(sql.format(marks=marks), (*params, *items))

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of a read-only query, on the reading connection."""
        with _unavailable_as_service_error():
            return list(await self._reader.execute_fetchall(sql, params))
