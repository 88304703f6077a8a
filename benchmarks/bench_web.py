"""Requests per second and latency of the games' web pages, with many readers polling.

Usage: ``python benchmarks/bench_web.py [--game ur] [--readers 100] [--seconds 10]
[--turn-every 1.0] [--workers 2] [--poll 1.0] [--first-view STEPS]``

One game is played through the service (every seat a human playing random legal steps)
while ``--readers`` readers poll its page as ``page.js`` does, but every ``--poll`` seconds
instead of 5: each asks ``data.json?since=<version it has>``, and when the game moved on,
fetches the page and the new board, as a browser would. A step is played every
``--turn-every`` seconds. Prints the requests per second, the median and p99 latency per
kind of request, and the boards drawn against the turns the game went through (the goal:
one board per turn, whatever the number of readers). The readers run in
the same process and event loop as the server: the figures are a floor of what the server
alone does.

With ``--first-view STEPS``: a game of ``STEPS`` steps read for the first time (the page
built from its whole history), then read again after one more step; prints how long each
took and the event loop's longest stall meanwhile (a ticker task that wakes every
millisecond measures how late it wakes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from aiohttp import ClientSession, TCPConnector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.workers import Workers
from tests import web_games
from web import server


async def reader(http: ClientSession, base: str, stop: float,
                 times: dict[str, list[float]], poll: float) -> None:
    """One reader: polls every ``poll`` seconds (0: at once), and on a new version reads the
    page and its latest board."""
    version = -1
    await asyncio.sleep(random.random() * poll)
    while time.perf_counter() < stop:
        await asyncio.sleep(poll)
        t0 = time.perf_counter()
        async with http.get(f"{base}data.json?lang=en&since={version}") as answer:
            body = await answer.read()
        times["poll"].append(time.perf_counter() - t0)
        if answer.status != 200:
            continue
        data = json.loads(body)
        version = data["version"]
        t0 = time.perf_counter()
        async with http.get(f"{base}?lang=en") as answer:
            await answer.read()
        times["page"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        async with http.get(base + data["frames"][-1]["src"]) as answer:
            await answer.read()
        times["board"].append(time.perf_counter() - t0)


async def bench(game: str, players: int, readers: int, seconds: float, turn_every: float,
                processes: int, poll: float) -> None:
    folder = Path(tempfile.mkdtemp())
    service = await web_games.open_service(folder / "dingir.sqlite3")
    record = await web_games.start(service, game, players)
    rng = random.Random(1)
    record = await web_games.play(service, record, 30, rng)
    workers = Workers(processes)
    await workers.start()
    await asyncio.gather(*(w.ready.wait() for w in workers._workers))  # warmed up
    runner, pages = await server.start(service, workers, "127.0.0.1", 0)
    port = runner.addresses[0][1]
    token = await service.web.token(record.id)
    base = f"http://127.0.0.1:{port}/g/{token}/"
    times: dict[str, list[float]] = defaultdict(list)
    start_version, start_turn = record.version, record.turn
    try:
        async with ClientSession(connector=TCPConnector(limit=0)) as http:
            await reader(http, base, time.perf_counter(), defaultdict(list), 0)  # warm up
            stop = time.perf_counter() + seconds
            tasks = [asyncio.create_task(reader(http, base, stop, times, poll))
                     for _ in range(readers)]
            while time.perf_counter() < stop and record.status == "running":
                await asyncio.sleep(turn_every)
                record = await web_games.play(service, record, 1, rng)
            await asyncio.gather(*tasks)
    finally:
        await runner.cleanup()
        await workers.close()
        await service.core.store.close()
    total = sum(len(v) for v in times.values())
    print(f"{game}: {readers} readers polling every {poll} s for {seconds:.0f} s, a step every "
          f"{turn_every} s, {processes} worker processes")
    print(f"requests: {total} ({total / seconds:.0f} per s)")
    for kind in ("poll", "page", "board"):
        found = sorted(times[kind])
        if not found:
            continue
        p99 = found[min(len(found) - 1, int(len(found) * 0.99))]
        print(f"  {kind:5}: {len(found):6} requests, median {statistics.median(found) * 1000:6.1f}"
              f" ms, p99 {p99 * 1000:6.1f} ms")
    versions = record.version - start_version + 1
    print(f"boards drawn: {pages.renders - 1} for {record.turn - start_turn} new turns "
          f"({versions - 1} new versions) of the game")


class Ticker:
    """Wakes every millisecond and keeps how late it woke at worst: the event loop's
    longest stall."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            self.worst = max(self.worst, time.perf_counter() - t0 - 0.001)

    async def measure(self, http: ClientSession, address: str) -> tuple[float, float]:
        """Seconds taken by a GET of ``address`` and the loop's longest stall meanwhile."""
        await asyncio.sleep(0.05)
        self.worst = 0.0
        t0 = time.perf_counter()
        async with http.get(address) as answer:
            await answer.read()
        return time.perf_counter() - t0, self.worst


async def first_view(game: str, players: int, steps: int, processes: int) -> None:
    folder = Path(tempfile.mkdtemp())
    service = await web_games.open_service(folder / "dingir.sqlite3")
    record = await web_games.start(service, game, players)
    rng = random.Random(1)
    record = await web_games.play(service, record, steps, rng)
    workers = Workers(processes)
    await workers.start()
    await asyncio.gather(*(w.ready.wait() for w in workers._workers))  # warmed up
    runner, _ = await server.start(service, workers, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/g/{await service.web.token(record.id)}/"
    ticker = Ticker()
    try:
        async with ClientSession() as http:
            first = await ticker.measure(http, f"{base}?lang=en")
            record = await web_games.play(service, record, 1, rng)
            again = await ticker.measure(http, f"{base}data.json?lang=en&since=0")
    finally:
        ticker.task.cancel()
        await runner.cleanup()
        await workers.close()
        await service.core.store.close()
    print(f"{game}: first view of a game of {steps} steps ({record.turn} turns), "
          f"{processes} worker processes")
    for name, (took, stall) in (("first page", first), ("after a step", again)):
        print(f"  {name:12}: {took * 1000:6.1f} ms, event loop's longest stall "
              f"{stall * 1000:5.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="ur")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--readers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--turn-every", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between two polls of a reader (the page: 5; 0: at once)")
    parser.add_argument("--first-view", type=int, metavar="STEPS",
                        help="time the first view of a game of STEPS steps instead")
    args = parser.parse_args()
    if args.first_view:
        asyncio.run(first_view(args.game, args.players, args.first_view, args.workers))
        return
    asyncio.run(bench(args.game, args.players, args.readers, args.seconds, args.turn_every,
                      args.workers, args.poll))


if __name__ == "__main__":
    main()
