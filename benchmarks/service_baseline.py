"""The game service alone (no Discord), and the machine limits it is compared with.

Usage::

    python benchmarks/service_baseline.py [--games N] [--steps S] [--seed X] [--json FILE]

The same work the bot does for one step of Ur, in this process, measured step by step:

- ``engine``: ``parse`` + ``apply`` alone, on the same state (part of ``service``);
- ``service``: ``service.turns.play_by_id`` (load from cache, check, ``engine.apply``, persist
  state + log row in one SQLite statement) on a fresh WAL database;
- ``render``: the public board the bot draws after a step that ends a turn (private
  previews are drawn only when a panel opens or on request, so not per step);

and the machine limits, each measured right after the work it bounds (so that both see
the same machine, on a shared and noisy one):

- ``bare_png``: encoding the same indexed board as PNG level 1 (no drawing);
- ``bare_sqlite``: one aiosqlite round trip writing a state of the same size and a log
  row in one transaction (WAL, synchronous=FULL, its own file), nothing else (the
  definition ``benchmarks/bench_service.py`` uses).

``ratio`` = (service + render) / (bare_sqlite + bare_png), all per step: the render and
PNG times of the boards spread over every step (goal: <= 1.5).
``benchmarks/community.py`` runs :func:`measure` after its load run, so both figures
come from the same run. Timings use the wall clock (benchmarks only).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite

from bot.clock import SystemClock
from bot.records import Player
from bot.service import GameService
from bot.store import dumps, open_store
from host import registry
from render.context import RenderContext
from render.draw import png_bytes, to_palette

PLAYERS = 3
NAMES = ("Ninsun", "Gilgamesh", "Enkidu")


def summary(values: list[float]) -> dict[str, float]:
    """Mean, median, p95 and max of ``values`` in milliseconds (seconds in)."""
    if not values:
        return {"n": 0, "mean_ms": 0.0, "p50_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)
    return {
        "n": len(values),
        "mean_ms": statistics.fmean(values) * 1000,
        "p50_ms": ordered[len(ordered) // 2] * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000,
        "max_ms": ordered[-1] * 1000,
    }


async def _steps(path: Path, bare_path: Path, games: int, steps: int, seed: int
                 ) -> tuple[dict[str, list[float]], int]:
    """Play ``steps`` random legal steps round-robin over ``games`` fresh games, each
    followed by its machine limits."""
    rng = random.Random(seed)
    entry = registry.get("ur")
    store = await open_store(path)
    bare = await _BareSqlite.open(bare_path)
    times: dict[str, list[float]] = {name: [] for name in
                                     ("service", "engine", "render", "bare_sqlite", "bare_png")}
    state_bytes = 0
    try:
        service = GameService(store, SystemClock(), seed_source=lambda: rng.getrandbits(62),
                              catalogue=registry.CATALOGUE)
        ids: list[int] = []
        for g in range(games):
            users = [Player(1_000_000 * (g + 1) + i, NAMES[i]) for i in range(PLAYERS)]
            await service.lobby.create(None, 10_000 + g, users[0], "ur", {})
            for user in users[1:]:
                await service.lobby.join(10_000 + g, user)
            ids.append((await service.lobby.start(10_000 + g, users[0].user_id)).id)
        warm = await service.core.get_by_id(ids[0])
        assert warm is not None and warm.state is not None
        for renderer in (entry.renderer, entry.preview_renderer):  # palettes, static layers
            renderer.png(entry.engine.view(warm.state, None), RenderContext(NAMES, "en"))
        done = 0
        while done < steps and ids:
            game_id = ids[done % len(ids)]
            record = await service.core.get_by_id(game_id)
            assert record is not None and record.state is not None
            if record.status != "running":
                ids.remove(game_id)
                continue
            seat = record.active[0]
            user_id = record.seats[seat].user_id
            assert user_id is not None
            action = rng.choice(entry.engine.legal(record.state, seat))
            start = time.perf_counter()
            entry.engine.apply(record.state, seat, entry.engine.parse(record.state, seat,
                                                                      action.notation))
            times["engine"].append(time.perf_counter() - start)
            start = time.perf_counter()
            result = await service.turns.play_by_id(game_id, user_id, action.notation,
                                                    record.version)
            times["service"].append(time.perf_counter() - start)
            assert result.record.state is not None
            size = len(dumps(result.record.state))
            state_bytes = max(state_bytes, size)
            times["bare_sqlite"].append(await bare.write(done + 1, size))
            if result.turn_ended or result.outcome is not None:
                view = entry.engine.view(result.record.state, None)
                ctx = RenderContext(tuple(s.name for s in result.record.seats), "en")
                start = time.perf_counter()
                entry.renderer.png(view, ctx)
                times["render"].append(time.perf_counter() - start)
                times["bare_png"].append(_bare_png(view, ctx))
            done += 1
    finally:
        await bare.close()
        await store.close()
    return times, state_bytes


def _bare_png(view: dict[str, Any], ctx: RenderContext) -> float:
    """Seconds to encode the very image the renderer produced (indexed, level 1), nothing
    else."""
    renderer = registry.get("ur").renderer
    palette = renderer.palette()  # type: ignore[attr-defined]
    indexed = to_palette(renderer.image(view, ctx), palette)
    start = time.perf_counter()
    png_bytes(indexed, 1)
    return time.perf_counter() - start


class _BareSqlite:
    """The machine limit of a step's write: one round trip to the aiosqlite thread running
    BEGIN; UPDATE a row with a state of the same size; INSERT a log row; COMMIT (WAL,
    synchronous=FULL, a fresh file) -- the definition ``benchmarks/bench_service.py`` uses."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, path: Path) -> _BareSqlite:
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.executescript(
            "CREATE TABLE bare_games (id INTEGER PRIMARY KEY, state TEXT, version INTEGER);"
            "CREATE TABLE bare_log (game_id INTEGER, idx INTEGER, seat INTEGER, notation TEXT,"
            " UNIQUE (game_id, idx)); INSERT INTO bare_games VALUES (1, '', 0);")
        return cls(conn)

    async def write(self, idx: int, state_bytes: int) -> float:
        """Seconds for one such transaction (log row ``idx``, a state of ``state_bytes``)."""
        script = (f"BEGIN IMMEDIATE; UPDATE bare_games SET state = '{'x' * state_bytes}', "
                  f"version = {idx} WHERE id = 1; "
                  f"INSERT INTO bare_log VALUES (1, {idx}, 0, 'place b3'); COMMIT;")
        start = time.perf_counter()
        await self.conn.executescript(script)
        return time.perf_counter() - start

    async def close(self) -> None:
        await self.conn.close()


async def measure(games: int = 50, steps: int = 2000, seed: int = 1,
                  workdir: Path | None = None) -> dict[str, Any]:
    """The in-process figures and the machine limits, as a JSON-friendly dict."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        times, state_bytes = await _steps(Path(tmp) / "service.sqlite3",
                                          Path(tmp) / "bare.sqlite3", games, steps, seed)
    figures: dict[str, Any] = {name: summary(values) for name, values in times.items()}
    figures["state_bytes"] = state_bytes
    boards_per_step = len(times["render"]) / max(1, len(times["service"]))
    figures["boards_per_step"] = boards_per_step
    per_step = figures["service"]["mean_ms"] + figures["render"]["mean_ms"] * boards_per_step
    limit = figures["bare_png"]["mean_ms"] * boards_per_step + figures["bare_sqlite"]["mean_ms"]
    figures["per_step_ms"] = per_step
    figures["limit_ms"] = limit
    figures["ratio"] = per_step / limit if limit else float("nan")
    figures["persist_ratio"] = (figures["service"]["p50_ms"] / figures["bare_sqlite"]["p50_ms"]
                                if figures["bare_sqlite"]["p50_ms"] else float("nan"))
    figures["render_ratio"] = (figures["render"]["p50_ms"] / figures["bare_png"]["p50_ms"]
                               if figures["bare_png"]["p50_ms"] else float("nan"))
    figures["steps_per_s"] = 1000 / per_step if per_step else 0.0
    return figures


async def concurrent(games: int = 100, seconds: float = 20.0, seed: int = 1, *,
                     cache_channels: bool = False, previews: bool = True,
                     workdir: Path | None = None) -> dict[str, Any]:
    """What-if experiment: the bot's per-step pattern without Discord, all games at once.

    Each game loops: ``legal`` by channel (the autocomplete), ``play`` by channel, the
    panel preview rendered in a worker thread (``previews``), and at a turn end the
    public board rendered and ``set_message`` written, as the bot does. With
    ``cache_channels`` the channel -> game lookup is answered from memory instead of a
    database round trip (the fix this experiment measures).
    """
    rng = random.Random(seed)
    entry = registry.get("ur")
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        store = await open_store(Path(tmp) / "concurrent.sqlite3")
        try:
            service = GameService(store, SystemClock(), seed_source=lambda: rng.getrandbits(62),
                                  catalogue=registry.CATALOGUE)
            players: dict[int, list[Player]] = {}
            for g in range(games):
                users = [Player(1_000_000 * (g + 1) + i, NAMES[i]) for i in range(PLAYERS)]
                await service.lobby.create(None, 10_000 + g, users[0], "ur", {})
                for user in users[1:]:
                    await service.lobby.join(10_000 + g, user)
                await service.lobby.start(10_000 + g, users[0].user_id)
                players[10_000 + g] = users
            if cache_channels:
                lookup = {c: await store.active_game_id(c) for c in players}

                async def cached(channel_id: int) -> int | None:
                    return lookup.get(channel_id)

                store.active_game_id = cached  # type: ignore[method-assign]
            legal_times: list[float] = []
            steps = 0
            end = time.perf_counter() + seconds

            async def one_game(channel: int) -> None:
                nonlocal steps
                while time.perf_counter() < end:
                    record = await service.core.get(channel)
                    if record is None or record.status != "running":
                        return
                    user = record.seats[record.active[0]].user_id
                    assert user is not None
                    start = time.perf_counter()
                    _, seat, legal = await service.turns.legal(channel, user)
                    legal_times.append(time.perf_counter() - start)
                    result = await service.turns.play(channel, user, rng.choice(legal).notation)
                    state = result.record.state
                    assert state is not None
                    ctx = RenderContext(tuple(s.name for s in result.record.seats), "en")
                    if previews and not result.turn_ended:
                        await asyncio.to_thread(entry.preview_renderer.png,
                                                entry.engine.view(state, seat), ctx)
                    if result.turn_ended:
                        await asyncio.to_thread(entry.renderer.png,
                                                entry.engine.view(state, None), ctx)
                        await service.admin.set_message(result.record.id, rng.getrandbits(60),
                                                        result.record.turn)
                    steps += 1

            started = time.perf_counter()
            await asyncio.gather(*(one_game(c) for c in players))
            elapsed = time.perf_counter() - started
        finally:
            await store.close()
    return {"games": games, "cache_channels": cache_channels, "previews": previews,
            "steps_per_s": steps / elapsed, "legal": summary(legal_times)}


def table(figures: dict[str, Any]) -> str:
    """The figures as a small text table."""
    rows = [f"{'in-process (ms)':<28}{'mean':>9}{'p50':>9}{'p95':>9}{'max':>9}"]
    for name in ("service", "engine", "render", "bare_sqlite", "bare_png"):
        s = figures[name]
        rows.append(f"{name:<28}{s['mean_ms']:9.2f}{s['p50_ms']:9.2f}{s['p95_ms']:9.2f}"
                    f"{s['max_ms']:9.2f}")
    rows.append(f"a board every {1 / max(figures['boards_per_step'], 1e-9):.1f} steps; "
                f"service+render per step {figures['per_step_ms']:.2f} ms vs machine limit "
                f"{figures['limit_ms']:.2f} ms: ratio {figures['ratio']:.2f} (goal <= 1.5); "
                f"persist/bare p50 {figures['persist_ratio']:.2f}, "
                f"render/bare p50 {figures['render_ratio']:.2f}; "
                f"{figures['steps_per_s']:.0f} steps/s in one process, one step at a time")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrent", type=float, default=0.0, metavar="SECONDS",
                        help="also run the what-if experiment (all games at once) this long, "
                             "as the bot does / with a channel cache / also without previews")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.games, args.steps, args.seed))
    print(table(figures))
    if args.concurrent:
        runs = []
        for cache, previews in ((False, True), (True, True), (True, False)):
            run = asyncio.run(concurrent(args.games, args.concurrent, args.seed,
                                         cache_channels=cache, previews=previews))
            runs.append(run)
            print(f"all {args.games} games at once, channel cache {cache!s:5}, previews "
                  f"{previews!s:5}: {run['steps_per_s']:6.1f} steps/s; legal() by channel "
                  f"p50 {run['legal']['p50_ms']:.2f} ms p95 {run['legal']['p95_ms']:.2f} ms")
        figures["concurrent"] = runs
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
