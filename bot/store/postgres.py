"""The PostgreSQL backend (asyncpg), chosen by a ``postgresql://`` address.

One connection writes (every write and transaction, serialised by the core's lock; a
group of steps is one ``BEGIN ... COMMIT``), a small pool reads. Statements keep the
store's ``?`` marks, turned into ``$1, $2 ...`` here. A step that fails inside a group
would abort the whole transaction on PostgreSQL: the group is then rolled back and each
of its statements run alone, so that it still fails alone.

The lease: the writing connection holds a PostgreSQL advisory lock per shard it serves
(``pg_try_advisory_lock``), so a second bot on the same shards is refused. A bot whose
connection dropped (its locks go with it) connects again at its next write and takes the
lease back; if another bot took it meanwhile, it writes no more (every write is checked
against the game's version, so a step is never written twice either way). Backups are
PostgreSQL's own (``pg_dump``, see README).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import asyncpg

from bot.instance import AlreadyRunning
from bot.records import StoreUnavailable
from bot.store.address import shown
from bot.store.base import Store
from bot.store.commit import Conflict, Dialect, Outcome, Statement, Tx
from bot.store.pgschema import STEP, STEPS, for_postgres
from bot.store.processes import CHANNEL
from bot.store.schema import MIGRATIONS, migrate

LOCK_CLASS = 0x44494E47
"""The first key of Dingir's advisory locks ("DING"); the second is a shard number,
:data:`MIGRATING` while one process migrates the schema, or :data:`COPYING`."""
MIGRATING = -1
COPYING = -2
"""The lock every bot holds shared with its lease and a tool that copies the whole database
holds exclusively (:meth:`PgStore.fence`): neither starts while the other runs."""

POSTGRES = Dialect(
    name="postgresql",
    seat_rows="(SELECT coalesce(json_agg(json_build_array(seat, user_id, name, resigned)"
              " ORDER BY seat), '[]')::text FROM seats WHERE seats.game_id = games.id)",
    same="IS NOT DISTINCT FROM",
    step=STEP,
    step_counts=True,
)

_UNAVAILABLE = (
    OSError,                                    # refused, reset, timed out
    asyncpg.InterfaceError,                     # the connection is closed
    asyncpg.PostgresConnectionError,            # class 08
    asyncpg.InsufficientResourcesError,         # class 53: disk full, out of memory
    asyncpg.OperatorInterventionError,          # class 57: shutting down, cancelled
    asyncpg.TransactionRollbackError,           # class 40: deadlock, serialization
    asyncpg.LockNotAvailableError,
    asyncpg.ReadOnlySQLTransactionError,        # a standby
    asyncpg.CannotConnectNowError,
)
_MARK = re.compile(r"\?")
_SETTINGS = {"application_name": f"dingir pid {os.getpid()}"}
"""Who holds a lease, as another process is told (see :func:`_holder`)."""
log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` marks numbered as PostgreSQL's ``$1, $2 ...``."""
    counter = iter(range(1, 10_000))
    return _MARK.sub(lambda _: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """The rows a command's status names (``UPDATE 3``, ``INSERT 0 1``), else 0."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _mapped(error: BaseException) -> BaseException:
    """What the store raises for ``error``: "try again", a conflict, or the error itself."""
    if isinstance(error, _UNAVAILABLE):
        return StoreUnavailable(str(error) or type(error).__name__)
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return Conflict(str(error))
    return error


@contextlib.contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        mapped = _mapped(error)
        if mapped is error:
            raise
        raise mapped from error


@contextlib.contextmanager
def _connect_errors() -> Iterator[None]:
    """Any error of PostgreSQL's while connecting (a wrong address, password, database)
    -> StoreUnavailable, which the bot reports in one line."""
    try:
        yield
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StoreUnavailable(f"{type(error).__name__}: {error}") from error


class _PgTx:
    """The store's view of an asyncpg connection (or pool)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        if not params:
            return _count(await self.conn.execute(sql))
        return _count(await self.conn.execute(numbered(sql), *params))

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self.conn.executemany(numbered(sql), rows)


async def _holder(conn: Any, shard: int) -> str:
    """Who holds the lease of ``shard`` (its application name, with its pid)."""
    name = await conn.fetchval(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2"
        " AND l.pid <> pg_backend_pid() LIMIT 1", LOCK_CLASS, shard & 0xFFFFFFFF)
    return str(name or "")


async def _take_lease(conn: Any, url: str, shards: Sequence[int]) -> None:
    """The advisory lock of each of ``shards``, and :data:`COPYING` shared, held by
    ``conn``'s session; raises AlreadyRunning (taking none) if another session holds one."""
    for shard in shards:
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LOCK_CLASS, shard):
            await _refuse(conn, url, shard)
    if shards and not await conn.fetchval("SELECT pg_try_advisory_lock_shared($1, $2)",
                                          LOCK_CLASS, COPYING):
        await _refuse(conn, url, COPYING)


async def _refuse(conn: Any, url: str, key: int) -> NoReturn:
    """Let go of every lock of ``conn``'s session and raise AlreadyRunning, naming the
    holder of the lock ``key``."""
    holder = await _holder(conn, key)
    await conn.execute("SELECT pg_advisory_unlock_all()")
    raise AlreadyRunning(shown(url), holder.removeprefix("dingir pid "),
                         setting="DINGIR_DATABASE_URL")


async def _writer(url: str, lease: Sequence[int]) -> Any:
    """A new writing connection to ``url``, holding the lease of the shards ``lease``."""
    with _connect_errors():
        conn = await asyncpg.connect(url, server_settings=_SETTINGS)
    try:
        with _connect_errors():
            await _take_lease(conn, url, lease)
    except BaseException:
        await conn.close()
        raise
    return conn


async def _migrate(conn: Any) -> None:
    """The schema brought up to date, one process at a time."""
    tx = _PgTx(conn)

    async def apply(script: str, number: int) -> None:
        async with conn.transaction():
            await conn.execute(for_postgres(script))
            await conn.execute("UPDATE schema_version SET version = $1", number)

    await conn.execute("SELECT pg_advisory_lock($1, $2)", LOCK_CLASS, MIGRATING)
    try:
        await migrate(tx, MIGRATIONS, apply)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", LOCK_CLASS, MIGRATING)


def _runs(statements: Sequence[Statement]) -> Iterator[tuple[str, list[Sequence[Any]]]]:
    """``statements`` cut into runs written in one round trip each: consecutive steps of
    different games (with :data:`STEPS`), or one other statement; each run's parameters."""
    run: list[Sequence[Any]] = []
    for sql, params in statements:
        if sql == STEP and all(params[0] != other[0] for other in run):
            run.append(params)
            continue
        if run:
            yield STEP, run
            run = []
        if sql == STEP:
            run.append(params)
        else:
            yield sql, [params]
    if run:
        yield STEP, run


class PgStore(Store):
    """The database of one bot process on PostgreSQL (see the module docstring)."""

    dialect = POSTGRES

    def __init__(self, writer: Any, readers: Any, url: str, lease: Sequence[int] = ()) -> None:
        super().__init__()
        self._lease = tuple(lease)
        self._conn = writer
        self._readers = readers
        self._writer = _PgTx(writer)
        self._reader = _PgTx(readers)
        self._listener: Any = None
        self.url = url
        self.path = shown(url)

    @classmethod
    async def connect(cls, url: str, *, lease: Sequence[int] = (), readers: int = 4
                      ) -> PgStore:
        """Connect to (and migrate) the database at ``url``; hold the lease of the shards
        ``lease`` (none: a tool, a test or a benchmark that shares the database)."""
        writer = await _writer(url, lease)
        try:
            with _connect_errors():
                await _migrate(writer)
                pool = await asyncpg.create_pool(url, min_size=1, max_size=readers,
                                                 server_settings=_SETTINGS)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, pool, url, lease)

    async def close(self) -> None:
        """Close the connections (the lease goes with the writing one)."""
        try:
            await self._readers.close()
            if self._listener is not None:
                await self._listener.close()
        finally:
            await self._conn.close()

    async def listen(self, woken: Callable[[], None]) -> bool:
        """Call ``woken`` at each NOTIFY of a moved game (on a connection of its own)."""
        with _connect_errors():
            self._listener = await asyncpg.connect(self.url, server_settings=_SETTINGS)
        await self._listener.add_listener(CHANNEL, lambda *_: woken())
        return True

    async def other_leases(self) -> list[tuple[int, str]]:
        """The shards leased by other sessions, with their holder's pid."""
        rows = await self._conn.fetch(
            "SELECT l.objid::bigint, a.application_name FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'"
            " AND l.granted AND l.classid = $1 AND l.pid <> pg_backend_pid()"
            " AND l.objid::bigint <> ALL($2::bigint[]) ORDER BY 1", LOCK_CLASS,
            [MIGRATING & 0xFFFFFFFF, COPYING & 0xFFFFFFFF])
        return [(int(shard), str(name or "").removeprefix("dingir pid "))
                for shard, name in rows]

    async def _wake(self, conn: Tx, game_id: int) -> None:
        await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, str(game_id)))

    async def fence(self) -> None:
        """Hold :data:`COPYING` exclusively until the store is closed: no bot starts
        meanwhile; raises AlreadyRunning while one runs."""
        if not await self._conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LOCK_CLASS,
                                         COPYING):
            await _refuse(self._conn, self.url, COPYING)

    async def backup(self, target: Path) -> None:
        """Not here: PostgreSQL's backups are ``pg_dump`` (README)."""
        raise NotImplementedError("back up PostgreSQL with pg_dump (see README)")

    async def _reconnect(self) -> None:
        """A lost writing connection (PostgreSQL restarted, the network cut) is opened again
        and takes the lease back; while PostgreSQL cannot be reached each write answers "try
        again". If another process took the lease meanwhile, this store stops writing for
        good (:attr:`lost`)."""
        if self.lost or not self._conn.is_closed():
            return
        try:
            self._conn = await _writer(self.url, self._lease)
        except AlreadyRunning:
            self.lost = True
            log.error("the lease of %s was taken by another process while the connection "
                      "was lost: this one writes no more", self.path)
            return
        self._writer = _PgTx(self._conn)
        log.warning("the connection to %s was lost: a new one holds the lease again",
                    self.path)

    async def tables(self) -> list[str]:
        rows = await self._fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
            " AND table_schema = current_schema() ORDER BY table_name")
        return [str(r[0]) for r in rows]

    async def columns(self, table: str) -> list[str]:
        rows = await self._fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
            " AND table_schema = current_schema() ORDER BY ordinal_position", (table,))
        return [str(r[0]) for r in rows]

    async def _after_copy(self, tx: Tx) -> None:
        """The identity columns continue after the ids copied in."""
        for table, column in await tx.execute_fetchall(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE is_identity = 'YES' AND table_schema = current_schema()"):
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" coalesce(max({column}), 0) + 1, false) FROM {table}")

    @property
    def _tx(self) -> _PgTx:
        return self._writer

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        return _errors()

    def _in_transaction(self) -> bool:
        return bool(self._conn.is_in_transaction())

    async def _begin(self) -> None:
        await self._conn.execute("BEGIN")

    async def _rollback(self) -> None:
        await self._conn.execute("ROLLBACK")

    async def _commit_group(self, statements: Sequence[Statement]) -> list[Outcome]:
        try:
            await self._begin()
            outcome: list[Outcome] = []
            for sql, run in _runs(statements):
                if len(run) > 1:
                    written = {r[0] for r in await self._conn.fetch(
                        STEPS, *(list(column) for column in zip(*run, strict=True)))}
                    outcome += [int(params[0] in written) for params in run]
                else:
                    outcome.append(await self._writer.execute(sql, run[0]))
            await self._conn.execute("COMMIT")
            return outcome
        except asyncpg.PostgresError as error:
            if isinstance(_mapped(error), StoreUnavailable):
                raise
        await self._rollback()             # one statement failed: each alone, then
        return [await self._alone(sql, params) for sql, params in statements]

    async def _alone(self, sql: str, params: Sequence[Any]) -> Outcome:
        try:
            return await self._writer.execute(sql, params)
        except asyncpg.PostgresError as error:
            mapped = _mapped(error)
            if isinstance(mapped, StoreUnavailable):
                raise
            return mapped

    async def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return await self._reader.execute_fetchall(sql, params)
