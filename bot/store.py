"""SQLite persistence of games, seats, the action log, preferences and reminders.

One aiosqlite connection in autocommit mode (``isolation_level=None``), WAL,
``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout. The schema is
built by :data:`MIGRATIONS`, an ordered list of SQL scripts; ``schema_version``
records how many have run, so opening an empty file builds everything and
reopening applies only what is new.

Tables: ``games`` (one row per game: lobby data, options, seed, current state,
version, settings, clocks; a partial unique index allows one lobby/running/
paused game per channel), ``turn_starts`` (the state at the start of the
current turn, for undo), ``seats``, ``actions`` (the append-only log; undo
only flags rows ``undone``), ``user_prefs`` (DM reminders opt-in),
``reminders`` (per game and seat: the stretch ``since``, reminders sent, next
due time, timeout handled) and ``skip_votes``.

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
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.engine import Seat, State, Text
from bot.ratings import Rating
from bot.records import (
    ACTIVE,
    GameRecord,
    GameSettings,
    SeatInfo,
    ServiceError,
    StaleVersion,
    StoreUnavailable,
    Waiting,
)

MIGRATIONS: tuple[str, ...] = (
    # 1: the whole initial schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL
            CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'aborted')),
        creator_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        settings TEXT NOT NULL,
        lang TEXT NOT NULL DEFAULT 'en',
        created_at REAL NOT NULL,
        turn_started_at REAL NOT NULL DEFAULT 0,
        turn INTEGER NOT NULL DEFAULT 0,
        active TEXT NOT NULL DEFAULT '[]',
        last_message_id INTEGER,
        ended_at REAL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running', 'paused');
    CREATE INDEX games_by_guild ON games (guild_id, created_at);
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE INDEX games_by_status ON games (status);

    CREATE TABLE turn_starts (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        state TEXT NOT NULL
    );

    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        resigned INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );

    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        turn INTEGER NOT NULL,
        reversible INTEGER NOT NULL DEFAULT 1,
        at REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        UNIQUE (game_id, idx)
    );

    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        dm_notify INTEGER NOT NULL
    );

    CREATE TABLE reminders (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        since REAL NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        last_sent_at REAL,
        next_due_at REAL,
        timeout_since REAL,
        PRIMARY KEY (game_id, seat)
    );

    CREATE TABLE skip_votes (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        since REAL NOT NULL,
        seat INTEGER NOT NULL,
        voter_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, since, seat, voter_id)
    );

    CREATE VIEW step_log AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS state, NULL AS active,
        NULL AS status, NULL AS turn, NULL AS turn_started_at, NULL AS turn_ended,
        NULL AS ended_at, NULL AS seat, NULL AS notation, NULL AS step_turn,
        NULL AS reversible, NULL AS at;

    CREATE TRIGGER step_log_insert INSTEAD OF INSERT ON step_log BEGIN
        SELECT RAISE(ABORT, 'dingir:stale') WHERE NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.game_id
                AND version = NEW.expected_version AND status = 'running');
        UPDATE games SET
            state = NEW.state,
            version = NEW.expected_version + 1,
            active = NEW.active,
            turn = NEW.turn,
            turn_started_at = NEW.turn_started_at,
            ended_at = NEW.ended_at
        WHERE id = NEW.game_id;
        UPDATE games SET status = NEW.status
        WHERE id = NEW.game_id AND status != NEW.status;
        INSERT OR REPLACE INTO turn_starts (game_id, state)
        SELECT NEW.game_id, NEW.state WHERE NEW.turn_ended;
        INSERT INTO actions (game_id, idx, seat, notation, turn, reversible, at)
        VALUES (NEW.game_id, NEW.expected_version + 1, NEW.seat, NEW.notation,
                NEW.step_turn, NEW.reversible, NEW.at);
    END;
    """,
    # 2: the turn whose board was last posted (a board lost to a crash is posted on restart).
    "ALTER TABLE games ADD COLUMN posted_turn INTEGER NOT NULL DEFAULT -1;",
    # 3: games that ended before the final message was tracked count as announced.
    "UPDATE games SET posted_turn = turn WHERE status IN ('finished', 'aborted');",
    # 4: each active seat's decision version and clock (``waiting``), written with every step.
    """
    ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '{}';
    DROP TRIGGER step_log_insert;
    DROP VIEW step_log;
    CREATE VIEW step_log AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS state, NULL AS active,
        NULL AS status, NULL AS turn, NULL AS turn_started_at, NULL AS turn_ended,
        NULL AS ended_at, NULL AS seat, NULL AS notation, NULL AS step_turn,
        NULL AS reversible, NULL AS at, NULL AS waiting;
    CREATE TRIGGER step_log_insert INSTEAD OF INSERT ON step_log BEGIN
        SELECT RAISE(ABORT, 'dingir:stale') WHERE NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.game_id
                AND version = NEW.expected_version AND status = 'running');
        UPDATE games SET
            state = NEW.state,
            version = NEW.expected_version + 1,
            active = NEW.active,
            turn = NEW.turn,
            turn_started_at = NEW.turn_started_at,
            ended_at = NEW.ended_at,
            waiting = NEW.waiting
        WHERE id = NEW.game_id;
        UPDATE games SET status = NEW.status
        WHERE id = NEW.game_id AND status != NEW.status;
        INSERT OR REPLACE INTO turn_starts (game_id, state)
        SELECT NEW.game_id, NEW.state WHERE NEW.turn_ended;
        INSERT INTO actions (game_id, idx, seat, notation, turn, reversible, at)
        VALUES (NEW.game_id, NEW.expected_version + 1, NEW.seat, NEW.notation,
                NEW.step_turn, NEW.reversible, NEW.at);
    END;
    """,
    # 5: the bot's heartbeat (clocks move forward by a downtime) and the games whose turn
    # message or final message is missing (the periodic check posts them again).
    """
    CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), at REAL NOT NULL);
    CREATE INDEX games_unposted ON games (status) WHERE posted_turn < turn;
    """,
    # 6: the limits on open lobbies and games per member (and the lobbies that expire).
    """
    CREATE INDEX games_by_creator ON games (creator_id, status);
    CREATE INDEX seats_by_user ON seats (user_id);
    """,
    # 7: each finished game's result (every seat's place) and the ratings per server and
    # game that the results make; the members who follow a game (told by DM); members
    # away (their clocks wait), the warning before a time limit, the players' time banks.
    """
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        place INTEGER NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_user ON results (user_id, game_id);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE followers (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        lang TEXT NOT NULL,
        each_turn INTEGER NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE away (user_id INTEGER PRIMARY KEY, until REAL NOT NULL);
    CREATE TABLE banks (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        remaining REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    ALTER TABLE user_prefs ADD COLUMN lang TEXT;
    ALTER TABLE reminders ADD COLUMN warned_since REAL;
    """,
)
"""Schema scripts in order; never edit a published one, append a new one."""

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

_SEAT_ROWS = (
    "(SELECT json_group_array(json_array(seat, user_id, name, resigned))"
    " FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat))"
)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, status, creator_id, options, seed, state, version,"
    " settings, lang, created_at, turn_started_at, last_message_id, turn, active, ended_at,"
    " posted_turn, waiting,"
    " (SELECT state FROM turn_starts WHERE turn_starts.game_id = games.id),"
    f" {_SEAT_ROWS}"
)

T = TypeVar("T")


class SchemaTooNew(Exception):
    """The database was written by a newer Dingir (more migrations than this code knows)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"the database has schema version {found}, this Dingir knows up to "
                         f"{known}: run the newer Dingir, or restore a backup made by this one")
        self.found = found
        self.known = known


@dataclass(frozen=True)
class StoredGame:
    """A game row: the record the service works with, plus the turn-start snapshot."""

    record: GameRecord
    turn_start_state: State | None


@dataclass(frozen=True)
class ActionRow:
    """One row of the action log as stored."""

    idx: int
    seat: Seat
    notation: str
    turn: int
    reversible: bool
    at: float
    undone: bool = False


@dataclass(frozen=True)
class StepWrite:
    """Everything one accepted step writes (see :meth:`Store.apply_step`)."""

    game_id: int
    expected_version: int
    state: State
    active: list[Seat]
    status: str
    turn: int
    turn_started_at: float
    turn_ended: bool
    ended_at: float | None
    seat: Seat
    notation: str
    step_turn: int
    reversible: bool
    at: float
    waiting: dict[Seat, Waiting]


@dataclass(frozen=True)
class ReminderRow:
    """Reminder bookkeeping of one seat's current stretch of activity (``since``)."""

    game_id: int
    seat: Seat
    since: float
    count: int
    last_sent_at: float | None
    next_due_at: float | None
    timeout_since: float | None
    warned_since: float | None = None


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in a finished game."""

    seat: Seat
    user_id: int | None
    place: int
    score: int
    won: bool


@dataclass(frozen=True)
class MemberLoad:
    """What one member and their server have open (see :meth:`Store.member_load`)."""

    lobbies: int
    games: int
    server_games: int
    last_created_at: float | None


@dataclass(frozen=True)
class ClockRow:
    """What the scheduler needs of a running game (no state)."""

    game_id: int
    settings: GameSettings
    active: list[Seat]
    turn_started_at: float
    seats: list[SeatInfo]
    waiting: dict[Seat, Waiting] = field(default_factory=dict)
    unposted: bool = False
    """The current turn's message was never posted."""

    def since(self, seat: Seat) -> float:
        """Since when ``seat`` has had its current decision."""
        found = self.waiting.get(seat)
        return self.turn_started_at if found is None else found.since


def dumps(value: Any) -> str:
    """Compact, deterministic JSON."""
    return json.dumps(value, separators=(",", ":"))


def _is_unavailable(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _UNAVAILABLE_CODES
    text = str(error).lower()
    return any(word in text for word in ("locked", "busy", "disk", "full", "i/o"))


def settings_from_json(text: str) -> GameSettings:
    """Settings from their stored JSON (unknown keys ignored, missing ones defaulted)."""
    data = json.loads(text)
    known = {f.name for f in fields(GameSettings)}
    return GameSettings(**{k: v for k, v in data.items() if k in known})


def waiting_json(waiting: dict[Seat, Waiting]) -> str:
    """The stored form of each active seat's decision version and clock (JSON, written
    by hand: it goes with every step)."""
    return "{" + ",".join(f'"{seat}":[{w.version},{w.since!r}]'
                          for seat, w in waiting.items()) + "}"


def waiting_from_json(text: str) -> dict[Seat, Waiting]:
    """Each active seat's decision version and clock, from their stored form."""
    return {int(seat): Waiting(int(v), float(s)) for seat, (v, s) in json.loads(text).items()}


def _seats(seat_rows: str) -> list[SeatInfo]:
    return [SeatInfo(s, u, n, bool(r)) for s, u, n, r in json.loads(seat_rows)]


def _record(row: sqlite3.Row | tuple[Any, ...]) -> StoredGame:
    (gid, guild, channel, game, status, creator, options, seed, state, version, settings,
     lang, created, turn_started, message, turn, active, ended, posted, waiting, turn_start,
     seat_rows) = row
    seats = _seats(seat_rows)
    record = GameRecord(
        id=gid, guild_id=guild, channel_id=channel, game=game, status=status,
        creator_id=creator, options=json.loads(options), seed=seed, seats=seats,
        state=json.loads(state) if state is not None else None, version=version,
        settings=settings_from_json(settings), lang=lang, created_at=created,
        turn_started_at=turn_started, last_message_id=message, turn=turn,
        active=json.loads(active), ended_at=ended, posted_turn=posted,
        waiting=waiting_from_json(waiting),
    )
    return StoredGame(record, json.loads(turn_start) if turn_start is not None else None)


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


class Store:
    """The database of one bot process. Open with :meth:`open`, close with :meth:`close`.

    Two connections, each with its own aiosqlite thread: one writes (every write and
    transaction, serialised by an asyncio lock), one only reads (WAL readers never
    wait for the writer, so boards and autocomplete keep working while a write waits
    for a lock held by another process).
    """

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

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        ``busy_timeout_ms``: how long a statement waits for a lock held by another
        connection before :class:`StoreUnavailable` is raised.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path, busy_timeout_ms, "journal_mode = WAL",
                                "synchronous = FULL", "foreign_keys = ON")
        try:
            await cls._migrate(writer)
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

    def check_file(self) -> bool:
        """True while the database file is the one this store opened; once it was deleted
        or replaced (another file moved to its path), the store stops writing for good:
        its steps would go to a file nobody sees."""
        if not self.lost and _identity(self.path) != self._identity:
            self.lost = True
        return not self.lost

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

    # -- plumbing -------------------------------------------------------------------------

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

    @staticmethod
    async def _migrate(conn: aiosqlite.Connection) -> None:
        with _unavailable_as_service_error():
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            rows = list(await conn.execute_fetchall("SELECT version FROM schema_version"))
            if not rows:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            current = rows[0][0] if rows else 0
            if current > len(MIGRATIONS):
                raise SchemaTooNew(current, len(MIGRATIONS))
            for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
                try:
                    await conn.executescript(
                        f"BEGIN IMMEDIATE;\n{script}\n"
                        f"UPDATE schema_version SET version = {number};\nCOMMIT;"
                    )
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        """How many migrations this database has run."""
        rows = await self._fetchall("SELECT version FROM schema_version")
        return int(rows[0][0])

    # -- games ----------------------------------------------------------------------------

    async def insert_game(
        self,
        record: GameRecord,
        turn_start_state: State | None = None,
        log: Iterable[ActionRow] = (),
    ) -> int:
        """Store a new game (with its seats and, for an import, its log); returns its id.

        Raises ServiceError ``service.channel_busy`` if the channel already has an
        active game.
        """
        try:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options,"
                    " seed, state, version, settings, lang, created_at,"
                    " turn_started_at, turn, active, ended_at, posted_turn, waiting)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.guild_id, record.channel_id, record.game, record.status,
                        record.creator_id, dumps(record.options), record.seed,
                        _state_json(record.state), record.version,
                        dumps(asdict(record.settings)), record.lang, record.created_at,
                        record.turn_started_at, record.turn, dumps(record.active),
                        record.ended_at, record.posted_turn, waiting_json(record.waiting),
                    ),
                )
                game_id = cursor.lastrowid
                assert game_id is not None
                if turn_start_state is not None:
                    await self._write_turn_start(conn, game_id, turn_start_state)
                await self._write_seats(conn, game_id, record.seats)
                await conn.executemany(
                    "INSERT INTO actions (game_id, idx, seat, notation, turn, reversible, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, a.idx, a.seat, a.notation, a.turn, a.reversible, a.at)
                     for a in log],
                )
        except sqlite3.IntegrityError as error:
            if "channel_id" in str(error):
                raise ServiceError(Text.of("service.channel_busy")) from error
            raise
        return game_id

    @staticmethod
    async def _write_turn_start(conn: aiosqlite.Connection, game_id: int, state: State) -> None:
        await conn.execute(
            "INSERT OR REPLACE INTO turn_starts (game_id, state) VALUES (?, ?)",
            (game_id, dumps(state)),
        )

    @staticmethod
    async def _write_seats(
        conn: aiosqlite.Connection, game_id: int, seats: Iterable[SeatInfo]
    ) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, resigned) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, int(s.resigned)) for s in seats],
        )

    async def load(self, game_id: int) -> StoredGame | None:
        """The game ``game_id`` with its seats, or None."""
        rows = await self._fetchall(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _record(rows[0]) if rows else None

    async def active_game_id(self, channel_id: int) -> int | None:
        """The id of the lobby/running/paused game in ``channel_id``, if any."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby','running','paused')",
            (channel_id,),
        )
        return int(rows[0][0]) if rows else None

    async def latest_game_id(self, channel_id: int) -> int | None:
        """The active game of ``channel_id``, else its most recent one, if any."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE channel_id = ?"
            " ORDER BY status IN ('lobby','running','paused') DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return int(rows[0][0]) if rows else None

    async def games(
        self, *, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE,
        unposted: bool = False, player: int | None = None,
    ) -> list[GameRecord]:
        """Games with one of ``statuses`` (of one guild if given; only those whose last
        turn was not posted if ``unposted``; only those where ``player`` sits, not
        resigned, if given), oldest first."""
        marks = ", ".join("?" for _ in statuses)
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks})"
        if unposted:
            sql += " AND posted_turn < turn"
        params: list[Any] = list(statuses)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if player is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND resigned = 0)"
            params.append(player)
        rows = await self._fetchall(sql + " ORDER BY id", params)
        return [_record(row).record for row in rows]

    async def save_game(
        self,
        record: GameRecord,
        expected_version: int,
        *,
        turn_start_state: State | None = None,
        seats: bool = False,
        undone: Sequence[int] = (),
    ) -> None:
        """Write every column of ``record`` (and its seats if ``seats``) if the stored version
        is still ``expected_version``; mark the log rows ``undone`` as undone.

        Raises StaleVersion when another writer got there first.
        """
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE games SET status = ?, creator_id = ?, state = ?, version = ?,"
                " settings = ?, lang = ?, turn_started_at = ?, turn = ?, active = ?,"
                " ended_at = ?, last_message_id = ?, posted_turn = ?, seed = ?, waiting = ?"
                " WHERE id = ? AND version = ?",
                (
                    record.status, record.creator_id, _state_json(record.state),
                    record.version, dumps(asdict(record.settings)), record.lang,
                    record.turn_started_at, record.turn, dumps(record.active),
                    record.ended_at, record.last_message_id, record.posted_turn, record.seed,
                    waiting_json(record.waiting), record.id, expected_version,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleVersion()
            if turn_start_state is not None:
                await self._write_turn_start(conn, record.id, turn_start_state)
            if seats:
                await self._write_seats(conn, record.id, record.seats)
            if undone:
                await conn.executemany(
                    "UPDATE actions SET undone = 1 WHERE game_id = ? AND idx = ?",
                    [(record.id, idx) for idx in undone],
                )

    async def apply_step(self, step: StepWrite) -> None:
        """Write one accepted step: new state + log row, in one statement (one round trip).

        Raises StaleVersion if the stored version is not ``step.expected_version`` or the
        game is not running; nothing is written then.
        """
        try:
            with _unavailable_as_service_error():
                await self._write(
                    "INSERT INTO step_log (game_id, expected_version, state, active, status,"
                    " turn, turn_started_at, turn_ended, ended_at, seat, notation, step_turn,"
                    " reversible, at, waiting)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        step.game_id, step.expected_version, dumps(step.state),
                        dumps(step.active), step.status, step.turn, step.turn_started_at,
                        int(step.turn_ended), step.ended_at, step.seat, step.notation,
                        step.step_turn, int(step.reversible), step.at,
                        waiting_json(step.waiting),
                    ),
                )
        except sqlite3.IntegrityError as error:
            if "dingir:stale" in str(error) or "UNIQUE" in str(error):
                raise StaleVersion() from error
            raise

    async def set_columns(self, game_id: int, **values: Any) -> None:
        """Update plain columns that do not change the board (settings, last message)."""
        allowed = {"settings", "last_message_id", "posted_turn", "lang"}
        if not values or not values.keys() <= allowed:
            raise ValueError(f"set_columns accepts only {sorted(allowed)}")
        assignments = ", ".join(f"{name} = ?" for name in values)
        params = [dumps(v) if name == "settings" else v for name, v in values.items()]
        with _unavailable_as_service_error():
            await self._write(f"UPDATE games SET {assignments} WHERE id = ?", [*params, game_id])

    # -- action log -----------------------------------------------------------------------

    async def actions(
        self, game_id: int, *, since_turn: int | None = None, include_undone: bool = False
    ) -> list[ActionRow]:
        """The log of ``game_id`` in order (from turn ``since_turn`` on if given)."""
        sql = (
            "SELECT idx, seat, notation, turn, reversible, at, undone FROM actions"
            " WHERE game_id = ?"
        )
        params: list[Any] = [game_id]
        if since_turn is not None:
            sql += " AND turn >= ?"
            params.append(since_turn)
        if not include_undone:
            sql += " AND undone = 0"
        rows = await self._fetchall(sql + " ORDER BY idx", params)
        return [ActionRow(i, s, n, t, bool(r), a, bool(u)) for i, s, n, t, r, a, u in rows]

    async def clock_rows(self) -> tuple[list[ClockRow], list[tuple[int, str]]]:
        """Timing facts of every running game, for the scheduler, and the games whose row
        cannot be read (game id, what is wrong): one damaged row never hides the others."""
        rows = await self._fetchall(
            f"SELECT id, settings, active, turn_started_at, {_SEAT_ROWS}, waiting,"
            " posted_turn < turn FROM games WHERE status = 'running' ORDER BY id"
        )
        found, broken = [], []
        for gid, settings, active, started, seats, waiting, unposted in rows:
            try:
                found.append(ClockRow(gid, settings_from_json(settings), json.loads(active),
                                      float(started), _seats(seats), waiting_from_json(waiting),
                                      bool(unposted)))
            except (ValueError, TypeError, KeyError) as error:
                broken.append((gid, f"{type(error).__name__}: {error}"))
        return found, broken

    async def unposted_finals(self, ended_before: float) -> list[int]:
        """Finished games, ended before ``ended_before``, whose final message never went
        out."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'finished' AND posted_turn < turn"
            " AND ended_at < ? ORDER BY id", (ended_before,))
        return [int(r[0]) for r in rows]

    async def member_load(self, user_id: int, guild_id: int | None) -> MemberLoad:
        """How many lobbies ``user_id`` opened and games they sit in (not ended), how many
        games ``guild_id`` has open, and when ``user_id`` last opened one."""
        rows = await self._fetchall(
            "SELECT"
            " (SELECT COUNT(*) FROM games WHERE creator_id = ?1 AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id"
            "   WHERE s.user_id = ?1 AND s.resigned = 0"
            "   AND g.status IN ('lobby','running','paused')),"
            " (SELECT COUNT(*) FROM games WHERE guild_id IS ?2"
            "   AND status IN ('lobby','running','paused')),"
            " (SELECT MAX(created_at) FROM games WHERE creator_id = ?1)",
            (user_id, guild_id))
        lobbies, games, server, last = rows[0]
        return MemberLoad(int(lobbies), int(games), int(server),
                          None if last is None else float(last))

    # -- results and ratings ----------------------------------------------------------

    async def unrated_games(self) -> list[int]:
        """Finished games whose result is not recorded yet."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM results WHERE results.game_id = games.id) ORDER BY id")
        return [int(r[0]) for r in rows]

    async def ratings(self, guild_id: int, game: str, user_ids: Iterable[int]
                      ) -> dict[int, Rating]:
        """The ratings at ``game`` on ``guild_id`` of those of ``user_ids`` who have one."""
        rows = await self._fetchall_in(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND game = ? AND user_id IN ({marks})", user_ids, guild_id, game)
        return {int(r[0]): Rating(r[1], r[2], r[3], r[4]) for r in rows}

    async def record_result(self, game_id: int, guild_id: int, game: str,
                            results: Sequence[ResultRow],
                            ratings: Mapping[int, tuple[str, Rating]]) -> bool:
        """Keep a finished game's result and the ratings it makes, at once; False (and
        nothing written) if it was recorded already."""
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (game_id,))
            if await cursor.fetchone() is not None:
                return False
            await conn.executemany(
                "INSERT INTO results (game_id, seat, user_id, place, score, won)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, r.seat, r.user_id, r.place, r.score, r.won) for r in results])
            await conn.executemany(
                "INSERT OR REPLACE INTO ratings (guild_id, game, user_id, name, mu, sigma,"
                " games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(guild_id, game, uid, name, r.mu, r.sigma, r.games, r.wins)
                 for uid, (name, r) in ratings.items()])
        return True

    async def leaderboard(self, guild_id: int, game: str, limit: int
                          ) -> list[tuple[int, str, Rating]]:
        """The best rated members at ``game`` on ``guild_id`` (by ``mu - 3 sigma``)."""
        rows = await self._fetchall(
            "SELECT user_id, name, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC LIMIT ?",
            (guild_id, game, limit))
        return [(int(r[0]), str(r[1]), Rating(r[2], r[3], r[4], r[5])) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        """``user_id``'s rating at each game they finished on ``guild_id``."""
        rows = await self._fetchall(
            "SELECT game, mu, sigma, games, wins FROM ratings WHERE guild_id = ?"
            " AND user_id = ? ORDER BY game", (guild_id, user_id))
        return {str(r[0]): Rating(r[1], r[2], r[3], r[4]) for r in rows}

    async def recent_results(self, guild_id: int, user_id: int, limit: int
                             ) -> list[tuple[int, str, int, int, float | None]]:
        """``user_id``'s last finished games on ``guild_id``, newest first: game id, game,
        place, players, ended at."""
        rows = await self._fetchall(
            "SELECT g.id, g.game, r.place, (SELECT COUNT(*) FROM results o"
            " WHERE o.game_id = g.id), g.ended_at FROM results r JOIN games g"
            " ON g.id = r.game_id WHERE r.user_id = ? AND g.guild_id = ?"
            " ORDER BY g.ended_at DESC, g.id DESC LIMIT ?", (user_id, guild_id, limit))
        return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]), r[4]) for r in rows]

    # -- followers -----------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, lang: str, each_turn: bool) -> None:
        """``user_id`` follows ``game_id`` (told in ``lang`` when it ends, and after each
        turn if ``each_turn``)."""
        await self._write(
            "INSERT OR REPLACE INTO followers (game_id, user_id, lang, each_turn)"
            " VALUES (?, ?, ?, ?)", (game_id, user_id, lang, int(each_turn)))

    async def unfollow(self, game_id: int, user_id: int) -> None:
        """``user_id`` stops following ``game_id``."""
        await self._write("DELETE FROM followers WHERE game_id = ? AND user_id = ?",
                          (game_id, user_id))

    async def followers(self, game_id: int) -> list[tuple[int, str, bool]]:
        """Who follows ``game_id``: user id, language, told after each turn."""
        rows = await self._fetchall(
            "SELECT user_id, lang, each_turn FROM followers WHERE game_id = ? ORDER BY user_id",
            (game_id,))
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    async def followed_games(self) -> set[int]:
        """The games that someone follows."""
        return {int(r[0]) for r in await self._fetchall(
            "SELECT DISTINCT game_id FROM followers")}

    async def stale_lobbies(self, created_before: float) -> list[int]:
        """Lobbies opened before ``created_before`` and never started."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'lobby' AND created_at < ? ORDER BY id",
            (created_before,))
        return [int(r[0]) for r in rows]

    # -- downtime -------------------------------------------------------------------------

    async def beat(self, now: float) -> None:
        """Record that the bot is up at ``now``."""
        async with self._guard() as conn:
            await conn.execute("INSERT OR REPLACE INTO heartbeat (id, at) VALUES (1, ?)",
                               (now,))

    async def last_beat(self) -> float | None:
        """When the bot was last known to be up (None for a new database)."""
        rows = await self._fetchall("SELECT at FROM heartbeat WHERE id = 1")
        return float(rows[0][0]) if rows else None

    async def shift_clocks(self, seconds: float, now: float) -> int:
        """Move every clock of the running games ``seconds`` forward (turns, decisions,
        reminders, skip votes) and beat at ``now``, in one transaction; the number of
        games shifted."""
        async with self._transaction() as conn:
            rows = list(await conn.execute_fetchall(
                "SELECT id, waiting FROM games WHERE status = 'running'"))
            for gid, waiting in rows:
                try:
                    moved = {seat: Waiting(w.version, w.since + seconds)
                             for seat, w in waiting_from_json(waiting).items()}
                except (ValueError, TypeError, AttributeError):
                    continue      # a damaged row: the scheduler quarantines it
                await conn.execute(
                    "UPDATE games SET turn_started_at = turn_started_at + ?, waiting = ?"
                    " WHERE id = ?", (seconds, waiting_json(moved), gid))
            running = "game_id IN (SELECT id FROM games WHERE status = 'running')"
            await conn.execute(
                "UPDATE reminders SET since = since + ?1, last_sent_at = last_sent_at + ?1,"
                " next_due_at = next_due_at + ?1, timeout_since = timeout_since + ?1,"
                " warned_since = warned_since + ?1"
                f" WHERE {running}", (seconds,))
            await conn.execute(f"UPDATE skip_votes SET since = since + ? WHERE {running}",
                               (seconds,))
            await conn.execute("INSERT OR REPLACE INTO heartbeat (id, at) VALUES (1, ?)",
                               (now,))
        return len(rows)

    async def quarantine(self, game_id: int) -> tuple[int, int] | None:
        """Pause a running game whose row is damaged (without reading the rest of it); its
        creator and channel, or None if it was not running."""
        async with self._guard() as conn:
            rows = list(await conn.execute_fetchall(
                "UPDATE games SET status = 'paused' WHERE id = ? AND status = 'running'"
                " RETURNING creator_id, channel_id", (game_id,)))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    # -- preferences ----------------------------------------------------------------------

    async def set_notify(self, user_id: int, enabled: bool, lang: str | None = None) -> None:
        """Record whether ``user_id`` wants reminders by DM (and in which language)."""
        async with self._guard() as conn:
            await conn.execute(
                "INSERT INTO user_prefs (user_id, dm_notify, lang) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dm_notify = excluded.dm_notify,"
                " lang = coalesce(excluded.lang, user_prefs.lang)",
                (user_id, int(enabled), lang),
            )

    async def user_langs(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The language of the direct messages to those of ``user_ids`` who gave one."""
        rows = await self._fetchall_in(
            "SELECT user_id, lang FROM user_prefs WHERE lang IS NOT NULL"
            " AND user_id IN ({marks})", user_ids)
        return {int(u): str(lang) for u, lang in rows}

    async def notify_prefs(self, user_ids: Iterable[int]) -> dict[int, bool]:
        """The DM preference of those of ``user_ids`` who set one."""
        rows = await self._fetchall_in(
            "SELECT user_id, dm_notify FROM user_prefs WHERE user_id IN ({marks})", user_ids)
        return {int(u): bool(d) for u, d in rows}

    # -- reminders and votes --------------------------------------------------------------

    async def reminder_rows(self, game_ids: Iterable[int]) -> dict[tuple[int, Seat], ReminderRow]:
        """Reminder rows of ``game_ids`` keyed by (game id, seat)."""
        rows = await self._fetchall_in(
            "SELECT game_id, seat, since, count, last_sent_at, next_due_at, timeout_since,"
            " warned_since FROM reminders WHERE game_id IN ({marks})", game_ids)
        return {(r[0], r[1]): ReminderRow(*r) for r in rows}

    async def mark_reminder(
        self, game_id: int, seat: Seat, since: float, count: int, sent_at: float, next_due: float
    ) -> bool:
        """Record reminder number ``count`` of the stretch ``since``; False if it (or a later
        one) was already recorded."""
        async with self._guard() as conn:
            cursor = await conn.execute(
                "INSERT INTO reminders (game_id, seat, since, count, last_sent_at, next_due_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " timeout_since = CASE WHEN reminders.since = excluded.since"
                "   THEN reminders.timeout_since END,"
                " warned_since = CASE WHEN reminders.since = excluded.since"
                "   THEN reminders.warned_since END,"
                " since = excluded.since, count = excluded.count,"
                " last_sent_at = excluded.last_sent_at, next_due_at = excluded.next_due_at"
                " WHERE reminders.since != excluded.since OR reminders.count = excluded.count - 1",
                (game_id, seat, since, count, sent_at, next_due),
            )
            return cursor.rowcount == 1

    async def mark_timeout(self, game_id: int, seat: Seat, since: float) -> bool:
        """Record that the timeout of the stretch ``since`` was handled; False if it was."""
        return await self._claim("timeout_since", game_id, seat, since)

    async def mark_warning(self, game_id: int, seat: Seat, since: float) -> bool:
        """Claim the warning before the time limit of the stretch ``since``; False if it
        was claimed already."""
        return await self._claim("warned_since", game_id, seat, since)

    async def _claim(self, column: str, game_id: int, seat: Seat, since: float) -> bool:
        """Set ``column`` (timeout_since or warned_since) to ``since`` unless it is set for
        that stretch already (a new stretch resets the other marks); True if it was set."""
        others = [c for c in ("last_sent_at", "next_due_at", "timeout_since", "warned_since")
                  if c != column]
        kept = "".join(f" {c} = CASE WHEN reminders.since = excluded.since"
                       f" THEN reminders.{c} END," for c in others)
        async with self._guard() as conn:
            cursor = await conn.execute(
                f"INSERT INTO reminders (game_id, seat, since, count, {column})"
                " VALUES (?, ?, ?, 0, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " count = CASE WHEN reminders.since = excluded.since"
                f"   THEN reminders.count ELSE 0 END,{kept}"
                f" since = excluded.since, {column} = excluded.since"
                f" WHERE reminders.since != excluded.since OR reminders.{column} IS NULL",
                (game_id, seat, since, since),
            )
            return cursor.rowcount == 1

    async def banks(self, game_ids: Iterable[int]) -> dict[tuple[int, Seat], float]:
        """The seconds left in each seat's time bank of ``game_ids`` (seats that spent
        nothing yet are missing: their bank is full)."""
        rows = await self._fetchall_in(
            "SELECT game_id, seat, remaining FROM banks WHERE game_id IN ({marks})", game_ids)
        return {(int(g), int(seat)): float(left) for g, seat, left in rows}

    async def set_banks(self, game_id: int, remaining: Mapping[Seat, float]) -> None:
        """Keep the seconds left in the banks of ``game_id``'s seats."""
        async with self._guard() as conn:
            await conn.executemany(
                "INSERT OR REPLACE INTO banks (game_id, seat, remaining) VALUES (?, ?, ?)",
                [(game_id, seat, left) for seat, left in remaining.items()])

    async def set_away(self, user_id: int, until: float) -> None:
        """``user_id`` is away until ``until`` (a time in the past: back)."""
        await self._write("INSERT OR REPLACE INTO away (user_id, until) VALUES (?, ?)",
                          (user_id, until))

    async def away_until(self, user_ids: Iterable[int]) -> dict[int, float]:
        """Until when each of ``user_ids`` who said so is (or was last) away."""
        rows = await self._fetchall_in(
            "SELECT user_id, until FROM away WHERE user_id IN ({marks})", user_ids)
        return {int(r[0]): float(r[1]) for r in rows}

    async def add_skip_vote(self, game_id: int, since: float, seat: Seat, voter_id: int) -> int:
        """Record a vote to skip ``seat``'s stretch starting at ``since``; returns the votes."""
        async with self._guard() as conn:
            await conn.execute(
                "INSERT OR IGNORE INTO skip_votes (game_id, since, seat, voter_id)"
                " VALUES (?, ?, ?, ?)",
                (game_id, since, seat, voter_id),
            )
            rows = list(
                await conn.execute_fetchall(
                    "SELECT COUNT(*) FROM skip_votes WHERE game_id = ? AND since = ? AND seat = ?",
                    (game_id, since, seat),
                )
            )
            return int(rows[0][0])


def _identity(path: Path) -> tuple[int, int] | None:
    """What tells one file from another at the same path (device, inode)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _state_json(state: State | None) -> str | None:
    return dumps(state) if state is not None else None
