"""Image figures of any game: render time and bytes of its public and private views, and of
the extra pictures of its turn messages (a renderer's optional ``details``).

Usage::

    python benchmarks/bench_images.py GAME [--views N] [--players P] [--seed S] [--json FILE]

Views are taken at random moments of random playouts (``P`` players, the game's
minimum by default); each is drawn as PNG for the public and for one seat's private
view, and the public view's ``details`` when the renderer has them (the time of all of a
turn message's extra pictures, drawn right after its board as the workers do, for the views
that have some; the size is per picture), and
each picture a command of the game draws for a seat (a registered picture taking ``view, ctx,
seat``, such as a player's board), from the seat's private view.
The public board is also drawn at every turn of random playouts, in order, as a game's turn
messages show it ("turn by turn": what a renderer keeps from one turn to the next counts).
Prints the median and 95th percentile render time (ms), the median and largest size (KB),
and the image size in pixels, for each kind; for the board, the machine's limit in the same
run: the median time of a bare PNG level 1 encode of the same picture. Timings use the wall clock
(benchmarks only; tests never time anything).
"""

from __future__ import annotations

import argparse
import inspect
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host import registry
from render.context import RenderContext

NAMES = ("Ninsun", "Gilgamesh", "Enkidu", "Shamhat", "Utnapishtim", "Siduri")


def views(game_id: str, count: int, players: int, seed: int) -> list[tuple[Any, Any, int]]:
    """(public view, a seat's view, that seat) at random moments of random playouts."""
    engine = registry.get(game_id).engine
    rng = random.Random(seed)
    found: list[tuple[Any, Any, int]] = []
    while len(found) < count:
        state = engine.setup(rng.getrandbits(63), players, {})
        while engine.outcome(state) is None and len(found) < count:
            seat = rng.choice(engine.active(state))
            state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
            if rng.random() < 0.05:
                who = rng.randrange(players)
                found.append((engine.view(state, None), engine.view(state, who), who))
    return found


def turn_views(game_id: str, count: int, players: int, seed: int) -> list[Any]:
    """The public view at each turn of random playouts, in order (the boards a game's turn
    messages show, one after another)."""
    engine = registry.get(game_id).engine
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = engine.setup(rng.getrandbits(63), players, {})
        turn = engine.turn_number(state)
        while engine.outcome(state) is None and len(found) < count:
            seat = rng.choice(engine.active(state))
            state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
            if engine.turn_number(state) != turn:
                turn = engine.turn_number(state)
                found.append(engine.view(state, None))
    return found


def measure(game_id: str, count: int, players: int, seed: int, lang: str) -> dict[str, Any]:
    """The figures of one game."""
    renderer = registry.get(game_id).renderer
    ctx = RenderContext(NAMES[:players], lang)
    results: dict[str, Any] = {}
    samples = views(game_id, count, players, seed)
    for kind, index in (("public", 0), ("private", 1)):
        times, sizes, bare = [], [], []
        shape = (0, 0)
        for sample in samples:
            started = time.perf_counter()
            png = renderer.png(sample[index], ctx)
            times.append(1000 * (time.perf_counter() - started))
            sizes.append(len(png) / 1024)
            drawn = Image.open(io.BytesIO(png))
            drawn.load()
            shape = drawn.size
            started = time.perf_counter()
            drawn.save(io.BytesIO(), format="PNG", compress_level=1)
            bare.append(1000 * (time.perf_counter() - started))
        results[kind] = {**_figures(times, sizes, shape), "limit_ms": statistics.median(bare)}
    times, sizes = [], []
    for view in turn_views(game_id, count, players, seed):
        started = time.perf_counter()
        png = renderer.png(view, ctx)
        times.append(1000 * (time.perf_counter() - started))
        sizes.append(len(png) / 1024)
    results["turn by turn"] = _figures(times, sizes, Image.open(io.BytesIO(png)).size)
    details = getattr(renderer, "details", None)
    if details is not None:
        times, sizes = [], []
        for sample in samples:
            renderer.png(sample[0], ctx)    # as a turn message's job: the board, then these
            started = time.perf_counter()
            files = details(sample[0], ctx)
            if files:                   # a view with nothing to zoom on draws nothing
                times.append(1000 * (time.perf_counter() - started))
                sizes += [len(png) / 1024 for _, png in files]
                shape = Image.open(io.BytesIO(files[0][1])).size
        if sizes:
            results["details"] = _figures(times, sizes, shape)
    for picture in seat_pictures(game_id):
        times, sizes = [], []
        for _, private, seat in samples:
            started = time.perf_counter()
            png = picture(private, ctx, seat)
            times.append(1000 * (time.perf_counter() - started))
            sizes.append(len(png) / 1024)
            shape = Image.open(io.BytesIO(png)).size
        results[picture.__name__] = _figures(times, sizes, shape)
    return results


def seat_pictures(game_id: str) -> list[Callable[[Any, RenderContext, int], bytes]]:
    """The registered pictures of ``game_id`` drawn for a seat: ``(view, ctx, seat) -> PNG``."""
    return [p for p in registry.get(game_id).pictures
            if list(inspect.signature(p).parameters) == ["view", "ctx", "seat"]]


def _figures(times: list[float], sizes: list[float], shape: tuple[int, int]) -> dict[str, Any]:
    """Median and 95th percentile time, median and largest size, pixels of the last one."""
    times = sorted(times)
    return {"median_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))],
            "median_kb": statistics.median(sizes), "max_kb": max(sizes), "pixels": shape}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=registry.ids())
    parser.add_argument("--views", type=int, default=100)
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    players = args.players or registry.get(args.game).engine.meta.min_players
    figures = measure(args.game, args.views, players, args.seed, args.lang)
    for kind, f in figures.items():
        limit = f" (machine limit, a bare PNG level 1 encode of the same picture: median" \
            f" {f['limit_ms']:.1f} ms)" if "limit_ms" in f else ""
        print(f"{args.game} {kind} image ({players} players, {f['pixels'][0]}x{f['pixels'][1]}):"
              f" render median {f['median_ms']:.1f} ms, p95 {f['p95_ms']:.1f} ms; size median"
              f" {f['median_kb']:.0f} KB, max {f['max_kb']:.0f} KB{limit}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
