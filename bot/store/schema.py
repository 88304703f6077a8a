"""The schema: the migrations, written once for both databases.

The schema is built by :data:`MIGRATIONS`, an ordered list of SQL scripts; ``schema_version``
records how many have run, so opening an empty database builds everything and
reopening applies only what is new. The scripts are SQLite's; PostgreSQL runs the same
scripts with its types and without SQLite's step view (:mod:`.pgschema`).

Tables: ``games`` (one row per game: lobby data, options, seed, current state,
version, settings, clocks; a partial unique index allows one lobby/running/
paused game per channel), ``turn_starts`` (the state at the start of the
current turn, for undo), ``start_states`` (each game's first state, for its history),
``seats``, ``actions`` (the append-only log; undo
only flags rows ``undone``), ``user_prefs`` (DM reminders opt-in),
``reminders`` (per game and seat: the stretch ``since``, reminders sent, next
due time, timeout handled), ``skip_votes`` and ``web_links`` (each game's web page
address).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.store.commit import StoreCore, Tx

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
    # 8: each game's web page: its random token (NULL: its creator turned the link off).
    """
    CREATE TABLE web_links (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        token TEXT UNIQUE
    );
    """,
    # 9: several processes on one database (shards): each shard's heartbeat (when its
    # process last beat, which process), and the games moved by a process that does not
    # serve their server, for the process that does (it posts the board).
    """
    CREATE TABLE shard_beats (
        shard INTEGER NOT NULL,
        shards INTEGER NOT NULL,
        at REAL NOT NULL,
        pid INTEGER NOT NULL,
        PRIMARY KEY (shards, shard)
    );
    CREATE TABLE moved (
        seq INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 10: each game's first state (its history replays from it, even after its contents
    # changed; :mod:`bot.beginnings`).
    """
    CREATE TABLE start_states (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        state TEXT NOT NULL
    );
    """,
)
"""Schema scripts in order; never edit a published one, append a new one."""


class SchemaTooNew(Exception):
    """The database was written by a newer Dingir (more migrations than this code knows)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"the database has schema version {found}, this Dingir knows up to "
                         f"{known}: run the newer Dingir, or restore a backup made by this one")
        self.found = found
        self.known = known


class SchemaMixin(StoreCore):
    """The schema's version, as :class:`~bot.store.Store` reports it."""

    async def schema_version(self) -> int:
        """How many migrations this database has run."""
        rows = await self._fetchall("SELECT version FROM schema_version")
        return int(rows[0][0])


async def migrate(tx: Tx, scripts: Sequence[str],
                  apply: Callable[[str, int], Awaitable[None]]) -> None:
    """Bring the database of ``tx`` to the last of ``scripts``: each new script is run by
    ``apply(script, number)``, which also records ``number`` in ``schema_version``, both in
    one transaction. Raises SchemaTooNew for a database that ran more scripts than known."""
    await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
    rows = await tx.execute_fetchall("SELECT version FROM schema_version")
    if not rows:
        await tx.execute("INSERT INTO schema_version (version) VALUES (0)")
    current = int(rows[0][0]) if rows else 0
    if current > len(scripts):
        raise SchemaTooNew(current, len(scripts))
    for number, script in enumerate(scripts[current:], start=current + 1):
        await apply(script, number)
