"""The shared core of the store: the writer's lock, the group commit and the reads.

An accepted step is the hot path: :meth:`Store.apply_step` is ONE statement (the
dialect's step statement: SQLite's view with an ``INSTEAD OF`` trigger, PostgreSQL's
data-modifying ``WITH``) that checks the expected version, updates the game row and
appends the log row; a statement is atomic, fully written or not at all. Such
one-statement writes (steps, the last posted message) are committed in groups: those
that arrive while a commit is under way go together in the next transaction, so a busy
bot pays one commit (and one disk flush) for many steps instead of queueing them one
commit at a time. A statement that fails (a stale version) fails alone; each caller
returns only once its write is committed. Rarer writes (lobby, start, undo, import) use
an explicit transaction of a few statements; an asyncio lock keeps other coroutines'
statements out of an open transaction.

The backends (:mod:`.sqlite`, :mod:`.postgres`) supply the connections: a :class:`Tx`
that runs statements written with ``?`` marks, how a transaction begins and ends, how a
group is committed and which errors mean "try again": those raise
:class:`~bot.records.StoreUnavailable` and roll back whatever was being written; a
constraint that refuses a statement raises :class:`Conflict`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.records import StoreUnavailable

Statement = tuple[str, Sequence[Any]]
Outcome = BaseException | int
"""A statement's error, or how many rows it changed."""


class Conflict(Exception):
    """A constraint of the database refused a statement (its message names it)."""


class Tx(Protocol):
    """A connection as the store's parts use it: statements with ``?`` marks."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run one statement; its rows."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each of ``rows``."""


@dataclass(frozen=True)
class Dialect:
    """What differs between the SQL of the two databases, beyond the schema's types."""

    name: str
    seat_rows: str
    """A game's seats as one JSON array of ``[seat, user_id, name, resigned]`` (a
    subquery of ``games``)."""
    same: str
    """The comparison that is true for two NULLs."""
    step: str
    """The one statement of an accepted step (see :meth:`Store.apply_step`)."""
    step_counts: bool
    """True: the step statement changes no row for a stale version (it raises else)."""


def _own_copy(error: BaseException) -> BaseException:
    """A "try again" of its own for each waiting writer (one exception object raised in
    several tasks would mix their tracebacks)."""
    return StoreUnavailable(error.detail) if isinstance(error, StoreUnavailable) else error


def _settle(group: Sequence[tuple[str, Sequence[Any], asyncio.Future[int]]],
            outcome: Sequence[Outcome]) -> None:
    """Wake the writers of ``group``: each with its error, or its count of rows."""
    for (_, _, done), result in zip(group, outcome, strict=True):
        if done.done():
            continue
        if isinstance(result, BaseException):
            done.set_exception(result)   # its writer may be gone (stopping): no warning then
            done.add_done_callback(lambda f: f.exception())
        else:
            done.set_result(result)


class StoreCore:
    """What every part of :class:`~bot.store.Store` stands on: the writing connection and
    its lock, the group commit and the reads; a backend fills in the connections."""

    dialect: Dialect
    path: Path | str
    """The database file, or the database's address without its password."""

    def __init__(self) -> None:
        self.lost = False
        """True once the database was found replaced or this process's hold on it lost:
        nothing is written any more (each write answers "try again"), see
        :meth:`check_file`."""
        self._lock = asyncio.Lock()
        self._queued: list[tuple[str, Sequence[Any], asyncio.Future[int]]] = []
        self._committing = False
        self._committer: asyncio.Task[None] | None = None

    # -- what a backend provides ------------------------------------------------------------

    @property
    def _tx(self) -> Tx:
        """The writing connection."""
        raise NotImplementedError

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        """Availability errors -> StoreUnavailable, constraint errors -> Conflict."""
        raise NotImplementedError

    def _in_transaction(self) -> bool:
        raise NotImplementedError

    async def _begin(self) -> None:
        raise NotImplementedError

    async def _rollback(self) -> None:
        raise NotImplementedError

    async def _commit_group(self, statements: Sequence[Statement]) -> list[Outcome]:
        """Several statements in one transaction: each its own outcome (a failed statement
        fails alone), or an exception for all (nothing of the group is written)."""
        raise NotImplementedError

    async def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows of a read-only query, on the reading connection(s)."""
        raise NotImplementedError

    async def _reconnect(self) -> None:
        """Before a write: a backend whose writing connection was lost opens a new one (and
        sets :attr:`lost` if it may not write any more)."""

    def check_file(self) -> bool:
        """True while this store may write: the database is the one it opened and still its
        own; once not, the store stops writing for good (its steps would go where nobody
        sees them, or beside another process's)."""
        return not self.lost

    # -- shared -------------------------------------------------------------------------------

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[Tx]:
        """Exclusive use of the writing connection; a failed transaction is rolled back and
        availability errors become StoreUnavailable."""
        async with self._lock:
            await self._reconnect()
            if not self.check_file():     # checked at every write: none goes astray
                raise StoreUnavailable("the database was replaced or is no longer this "
                                       "process's")
            try:
                with self._errors():
                    yield self._tx
            except BaseException:
                if self._in_transaction():
                    with contextlib.suppress(Exception):   # it may be rolled back already
                        await self._rollback()
                raise

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Tx]:
        """A transaction (that takes the write lock at once), rolled back on any error."""
        async with self._guard() as tx:
            await self._begin()
            yield tx
            await tx.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any]) -> int:
        """Run one statement, at once if no commit is under way, else in the next group
        commit; returns (how many rows it changed) once it is committed.

        Raises the statement's own error (e.g. the stale-version check), or
        StoreUnavailable if its group could not be committed (nothing of it is written).
        """
        if self._committing:
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            self._queued.append((sql, params, done))
            return await done
        self._committing = True
        try:
            async with self._guard() as tx:  # alone: a statement is its own transaction
                return await tx.execute(sql, params)
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
                    async with self._guard():
                        outcome = await self._commit_group([(s, p) for s, p, _ in group])
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
        with self._errors():
            return await self._read(sql, params)
