"""Steps per second and latency of the store alone, on SQLite and on PostgreSQL.

Usage: ``python benchmarks/bench_store.py [--database sqlite|postgresql|URL ...]
[--steps 3000] [--games 1,64] [--state-bytes 5000] [--json out.json]``

For each database and each number of games written at once (``--games``: 1 is one
player at a time, 64 many tables playing together, where the group commit shares each
commit among the steps that arrive meanwhile), ``Store.apply_step`` of a state of
``--state-bytes`` plus its log row, each game's steps one after the other: steps per
second over the run, and each step's latency (median, p99). Beside it, ``bare``: one
transaction of the same size (``BEGIN``, ``UPDATE`` the state, ``INSERT`` a log row,
``COMMIT``) at a time on a connection of the database's own driver, the limit of one
commit at a time on this disk.

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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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


async def store_run(store: Store, games: int, steps: int, size: int, first_channel: int
                    ) -> dict[str, Any]:
    ids = [await running_game(store, first_channel + i, size) for i in range(games)]
    latencies: list[float] = []
    t0 = time.perf_counter()
    await asyncio.gather(*(play(store, g, steps // games, size, latencies) for g in ids))
    return row(f"store, {games} game{'s' if games > 1 else ''} at once", latencies,
               time.perf_counter() - t0)


def row(name: str, latencies: list[float], seconds: float) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {"name": name, "steps": len(ordered), "per_second": round(len(ordered) / seconds),
            "median_ms": round(statistics.median(ordered) * 1e3, 2),
            "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1e3, 2)}


BARE_TABLES = ("CREATE TABLE bare_games (id BIGINT PRIMARY KEY, state TEXT, version BIGINT);"
               "CREATE TABLE bare_log (game_id BIGINT, idx BIGINT, seat BIGINT, notation TEXT,"
               " at DOUBLE PRECISION, UNIQUE (game_id, idx));"
               "INSERT INTO bare_games VALUES (1, '', 0);")


async def bare_sqlite(path: Path, steps: int, size: int) -> dict[str, Any]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.executescript(BARE_TABLES)
    latencies = []
    start = time.perf_counter()
    for idx in range(1, steps + 1):
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE bare_games SET state = ?, version = ? WHERE id = 1",
                     (dumps(state(idx, size)), idx))
        conn.execute("INSERT INTO bare_log VALUES (1, ?, 0, 'add 1', ?)", (idx, time.time()))
        conn.execute("COMMIT")
        latencies.append(time.perf_counter() - t0)
    conn.close()
    return row("bare transaction (sqlite3)", latencies, time.perf_counter() - start)


async def bare_postgres(url: str, steps: int, size: int) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    await conn.execute(BARE_TABLES)
    latencies = []
    start = time.perf_counter()
    for idx in range(1, steps + 1):
        t0 = time.perf_counter()
        async with conn.transaction():
            await conn.execute("UPDATE bare_games SET state = $1, version = $2 WHERE id = 1",
                               dumps(state(idx, size)), idx)
            await conn.execute("INSERT INTO bare_log VALUES (1, $1, 0, 'add 1', $2)",
                               idx, time.time())
        latencies.append(time.perf_counter() - t0)
    await conn.close()
    return row("bare transaction (asyncpg)", latencies, time.perf_counter() - start)


@asynccontextmanager
async def database(choice: str, folder: Path) -> AsyncIterator[str]:
    """The address to measure: a new SQLite file, a throwaway cluster, or ``choice``."""
    if choice == "sqlite":
        yield str(folder / "bench.sqlite3")
    elif choice == "postgresql":
        from tests.pgcluster import Cluster
        cluster = Cluster.start(durable=True)
        try:
            yield await cluster.create_database()
        finally:
            cluster.stop()
    else:
        yield choice


async def measure(choice: str, games: list[int], steps: int, size: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        async with database(choice, Path(folder)) as where:
            store = await open_store(where)
            try:
                rows = [await store_run(store, n, steps, size, 1000 * i)
                        for i, n in enumerate(games)]
            finally:
                await store.close()
            rows.append(await bare_postgres(where, steps, size) if is_postgres(where)
                        else await bare_sqlite(Path(folder) / "bare.sqlite3", steps, size))
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", action="append",
                        help="sqlite, postgresql or a postgresql:// address (repeat it); "
                             "default: sqlite and postgresql")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--games", default="1,64")
    parser.add_argument("--state-bytes", type=int, default=5000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    games = [int(n) for n in args.games.split(",")]
    results: dict[str, list[dict[str, Any]]] = {}
    for choice in args.database or ["sqlite", "postgresql"]:
        try:
            results[choice] = await measure(choice, games, args.steps, args.state_bytes)
        except RuntimeError as error:      # no PostgreSQL here
            print(f"{choice}: skipped ({error})")
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
