"""Steps per second of the game service (apply + persist) vs a bare SQLite transaction.

Usage: ``python benchmarks/bench_service.py [--game ur|race] [--steps 3000] [--json out.json]``

Measured in the same run, on a fresh database file (WAL, synchronous=FULL):

- ``service``: ``service.turns.play_by_id`` per step (load from cache, checks, engine
  parse + apply, JSON encoding, the one-statement write of state + log row);
- ``engine``: ``engine.parse`` + ``engine.apply`` of the same steps alone (CPU only);
- ``bare``: one transaction of the same size in one round trip to the aiosqlite
  thread (``BEGIN; UPDATE`` a row with the same state; ``INSERT`` a log row;
  ``COMMIT``), the machine limit the service is compared with. It runs right
  after each service step, so both see the same disk.

Prints medians per step and the ratio service / bare (goal: within 1.5x).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.catalogue import Catalogue
from bot.clock import SystemClock
from bot.engine import Game
from bot.records import Player
from bot.service import GameService
from bot.store import Store, dumps, open_store


def engine_of(game: str) -> Game:
    if game == "race":
        from tests.toy_game import GAME

        return GAME
    from host import registry

    return registry.get(game).engine


def _bare_transaction(conn: sqlite3.Connection, state: str, idx: int) -> None:
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE bare_games SET state = ?, version = ? WHERE id = 1", (state, idx))
    conn.execute(
        "INSERT INTO bare_log (game_id, idx, seat, notation, at) VALUES (1, ?, 0, 'place b3', ?)",
        (idx, time.time()),
    )
    conn.execute("COMMIT")


async def bare_setup(store: Store) -> None:
    """Tables of the bare baseline, in the same database file."""
    await store._conn.executescript(
        "CREATE TABLE bare_games (id INTEGER PRIMARY KEY, state TEXT, version INTEGER);"
        "CREATE TABLE bare_log (game_id INTEGER, idx INTEGER, seat INTEGER, notation TEXT,"
        " at REAL, UNIQUE (game_id, idx));"
        "INSERT INTO bare_games VALUES (1, '', 0);"
    )


async def bare(store: Store, state: str, idx: int) -> float:
    """Seconds of one bare transaction (BEGIN, UPDATE state, INSERT log row, COMMIT) run as
    one function on the aiosqlite thread the service uses: one round trip."""
    conn = store._conn
    t0 = time.perf_counter()
    await conn._execute(_bare_transaction, conn._conn, state, idx)
    return time.perf_counter() - t0


async def bench(
    store: Store, engine: Game, game: str, steps: int, seed: int
) -> dict[str, list[float]]:
    """Per-step seconds of the service, of the engine alone and of the bare transaction,
    interleaved step by step so that disk speed drifts affect all three alike."""
    service = GameService(store, SystemClock(), seed_source=lambda: seed,
                          catalogue=Catalogue({game: engine}))
    await bare_setup(store)
    rng = random.Random(seed)
    players = [Player(1000 + i, f"P{i}") for i in range(engine.meta.min_players)]
    times: dict[str, list[float]] = {"service": [], "engine": [], "bare": [], "size": []}
    channel = 0
    while len(times["service"]) < steps:
        channel += 1
        await service.lobby.create(1, channel, players[0], game, {})
        for player in players[1:]:
            await service.lobby.join(channel, player)
        record = await service.lobby.start(channel, players[0].user_id)
        while record.status == "running" and len(times["service"]) < steps:
            assert record.state is not None
            seat = record.active[0]
            user = record.seats[seat].user_id
            assert user is not None
            action = rng.choice(engine.legal(record.state, seat))
            t0 = time.perf_counter()
            parsed = engine.parse(record.state, seat, action.notation)
            engine.apply(record.state, seat, parsed)
            t1 = time.perf_counter()
            result = await service.turns.play_by_id(record.id, user, action.notation,
                                                    record.version)
            t2 = time.perf_counter()
            record = result.record
            state = dumps(record.state)
            times["engine"].append(t1 - t0)
            times["service"].append(t2 - t1)
            times["bare"].append(await bare(store, state, len(times["bare"]) + 1))
            times["size"].append(len(state))
    return times


def summary(name: str, times: list[float]) -> dict[str, Any]:
    median = statistics.median(times)
    return {
        "name": name,
        "n": len(times),
        "median_us": round(median * 1e6, 1),
        "p95_us": round(sorted(times)[int(len(times) * 0.95)] * 1e6, 1),
        "per_second": round(1 / median),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ur")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    engine = engine_of(args.game)
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.sqlite3")
        try:
            times = await bench(store, engine, args.game, args.steps, args.seed)
        finally:
            await store.close()
    size = round(statistics.median(times["size"]))
    service_times, engine_times, bare_times = times["service"], times["engine"], times["bare"]
    rows = [
        summary("service step (apply + persist)", service_times),
        summary("engine parse + apply only", engine_times),
        summary("bare 1-round-trip transaction", bare_times),
    ]
    ratio = rows[0]["median_us"] / rows[2]["median_us"]
    without_engine = (rows[0]["median_us"] - rows[1]["median_us"]) / rows[2]["median_us"]
    print(f"game={args.game} steps={args.steps} median state={size} bytes")
    print(f"{'':34}{'median us':>10}{'p95 us':>10}{'per s':>8}")
    for row in rows:
        print(f"{row['name']:34}{row['median_us']:>10}{row['p95_us']:>10}{row['per_second']:>8}")
    print(f"ratio service / bare: {ratio:.2f}  (service minus engine / bare: {without_engine:.2f})")
    if args.json:
        args.json.write_text(json.dumps(
            {"game": args.game, "state_bytes": size, "rows": rows, "ratio": ratio,
             "ratio_without_engine": without_engine}, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
