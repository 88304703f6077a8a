"""Steps per second and latency of the store alone, on SQLite and on PostgreSQL.

Usage: ``python benchmarks/bench_store.py [--database sqlite|postgresql|URL ...]
[--steps 3000] [--games 1,64] [--state-bytes 5000] [--rounds 5] [--json out.json]``

For each database and each number of games written at once (``--games``: 1 is one
player at a time, 64 many tables playing together, where the group commit shares each
commit among the steps that arrive meanwhile), ``Store.apply_step`` of a state of
``--state-bytes`` plus its log row, each game's steps one after the other: steps per
second over the run, and each step's latency (median, p99). Beside it, ``bare``: one
transaction of the same size (``BEGIN``, ``UPDATE`` the state, ``INSERT`` a log row,
``COMMIT``) at a time on a connection of the database's own driver, the limit of one
commit at a time on this disk. Every measurement runs in ``--rounds`` parts, taken in
turn, so that all see the same drifts of the disk's speed.

``sqlite`` is a new file (WAL, synchronous=FULL) in a temporary folder; ``postgresql`` a
throwaway cluster started for the run with PostgreSQL's defaults (fsync and synchronous
commit on; tests/pgcluster.py, skipped if PostgreSQL is not installed); a
``postgresql://`` address uses that database (it must be empty: tables are created).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bot.records import GameRecord, SeatInfo
from bot.store import StepWrite, Store, dumps, is_postgres, open_store


def state(n: int, size: int) -> dict[str, Any]:
    return {"n": n, "pad": "x" * size}


async def running_game(store: Store, channel: int, size: int) -> int:
    record = GameRecord(id=0, guild_id=1, channel_id=channel, game="race", status="lobby",
                        creator_id=7, options={}, seed=5, state=None, version=0,
                        seats=[SeatInfo(0, 7, "Ann"), SeatInfo(1, 8, "Bob")])
    game_id = await store.insert_game(record)
    record.id, record.status, record.state, record.version = game_id, "running", state(0, size), 1
    await store.save_game(record, 0, turn_start_state=record.state)
    return game_id


async def play(store: Store, game_id: int, steps: int, size: int, latencies: list[float]
               ) -> None:
    for version in range(1, steps + 1):
        write = StepWrite(game_id=game_id, expected_version=version,
                          state=state(version, size), active=[version % 2], status="running",
                          turn=version // 4, turn_started_at=time.time(),
                          turn_ended=version % 4 == 0, ended_at=None, seat=version % 2,
                          notation="add 1", step_turn=version // 4, reversible=True,
                          at=time.time(), waiting={})
        t0 = time.perf_counter()
        await store.apply_step(write)
        latencies.append(time.perf_counter() - t0)


@dataclass
class Series:
    """The latencies and the wall time of one measurement, over all rounds."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def row(self, name: str) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {"name": name, "steps": len(ordered),
                "per_second": round(len(ordered) / self.seconds),
                "median_ms": round(statistics.median(ordered) * 1e3, 2),
                "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1e3, 2)}


class Target:
    """One database measured: its store, a bare connection of its driver, its series."""

    def __init__(self, store: Store, bare: Any, games: list[int]) -> None:
        self.store = store
        self.bare = bare
        self.series = {n: Series() for n in games}
        self.bare_series = Series()
        self.channel = 0
        self.idx = 0

    async def round(self, steps: int, size: int) -> None:
        for n, series in self.series.items():
            ids = []
            for _ in range(n):
                self.channel += 1
                ids.append(await running_game(self.store, self.channel, size))
            t0 = time.perf_counter()
            await asyncio.gather(*(play(self.store, g, steps // n, size, series.latencies)
                                   for g in ids))
            series.seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(steps):
            self.idx += 1
            t1 = time.perf_counter()
            await self.bare(dumps(state(self.idx, size)), self.idx)
            self.bare_series.latencies.append(time.perf_counter() - t1)
        self.bare_series.seconds += time.perf_counter() - t0

    def rows(self, driver: str) -> list[dict[str, Any]]:
        rows = [series.row(f"store, {n} game{'s' if n > 1 else ''} at once")
                for n, series in self.series.items()]
        return [*rows, self.bare_series.row(f"bare transaction ({driver})")]


BARE_TABLES = ("CREATE TABLE bare_games (id BIGINT PRIMARY KEY, state TEXT, version BIGINT);"
               "CREATE TABLE bare_log (game_id BIGINT, idx BIGINT, seat BIGINT, notation TEXT,"
               " at DOUBLE PRECISION, UNIQUE (game_id, idx));"
               "INSERT INTO bare_games VALUES (1, '', 0);")


async def bare_sqlite(stack: AsyncExitStack, path: Path) -> Callable[[str, int], Awaitable[None]]:
    """One transaction at a time with Python's sqlite3 (WAL, synchronous=FULL)."""
    conn = sqlite3.connect(path, isolation_level=None)
    stack.callback(conn.close)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.executescript(BARE_TABLES)

    async def one(text: str, idx: int) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE bare_games SET state = ?, version = ? WHERE id = 1", (text, idx))
        conn.execute("INSERT INTO bare_log VALUES (1, ?, 0, 'add 1', ?)", (idx, time.time()))
        conn.execute("COMMIT")
    return one


async def bare_postgres(stack: AsyncExitStack, url: str
                        ) -> Callable[[str, int], Awaitable[None]]:
    """One transaction at a time with asyncpg (PostgreSQL's defaults)."""
    conn = await asyncpg.connect(url)
    stack.push_async_callback(conn.close)
    await conn.execute(BARE_TABLES)

    async def one(text: str, idx: int) -> None:
        async with conn.transaction():
            await conn.execute("UPDATE bare_games SET state = $1, version = $2 WHERE id = 1",
                               text, idx)
            await conn.execute("INSERT INTO bare_log VALUES (1, $1, 0, 'add 1', $2)",
                               idx, time.time())
    return one


async def open_target(stack: AsyncExitStack, choice: str, folder: Path,
                      games: list[int]) -> Target:
    """The store and bare connection of ``choice``: a new SQLite file, a throwaway
    cluster (PostgreSQL's defaults: fsync and synchronous commit on), or an address."""
    where = choice
    if choice == "sqlite":
        where = str(folder / "bench.sqlite3")
    elif choice == "postgresql":
        from tests.pgcluster import Cluster
        cluster = Cluster.start(durable=True)
        stack.callback(cluster.stop)
        where = await cluster.create_database()
    store = await open_store(where)
    stack.push_async_callback(store.close)
    bare = await (bare_postgres(stack, where) if is_postgres(where)
                  else bare_sqlite(stack, folder / "bare.sqlite3"))
    return Target(store, bare, games)


async def measure(choices: list[str], games: list[int], steps: int, size: int, rounds: int
                  ) -> dict[str, list[dict[str, Any]]]:
    """Every measurement of every database, in ``rounds`` rounds taken in turn (the disk's
    speed drifts: each figure sees the same mix of it)."""
    with tempfile.TemporaryDirectory() as folder:
        async with AsyncExitStack() as stack:
            targets: dict[str, Target] = {}
            for choice in choices:
                try:
                    targets[choice] = await open_target(stack, choice, Path(folder), games)
                except RuntimeError as error:      # no PostgreSQL here
                    print(f"{choice}: skipped ({error})")
            for _ in range(rounds):
                for target in targets.values():
                    await target.round(steps // rounds, size)
            return {choice: target.rows("asyncpg" if is_postgres(target.store.path)
                                        else "sqlite3")
                    for choice, target in targets.items()}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", action="append",
                        help="sqlite, postgresql or a postgresql:// address (repeat it); "
                             "default: sqlite and postgresql")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--games", default="1,64")
    parser.add_argument("--state-bytes", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    games = [int(n) for n in args.games.split(",")]
    results = await measure(args.database or ["sqlite", "postgresql"], games, args.steps,
                            args.state_bytes, args.rounds)
    print(f"steps={args.steps} state={args.state_bytes} bytes")
    print(f"{'':12}{'':34}{'steps/s':>9}{'median ms':>11}{'p99 ms':>9}")
    for choice, rows in results.items():
        for r in rows:
            print(f"{choice[:11]:12}{r['name']:34}{r['per_second']:>9}{r['median_ms']:>11}"
                  f"{r['p99_ms']:>9}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
