"""Board image figures: the fast path against a naive full redraw, measured in the same run.

Usage::

    python benchmarks/bench_render.py [--views N] [--naive M] [--seed S] [--json FILE]
    python -m benchmarks.bench_render ...

Views come from two random legal Ur games (3 and 4 players, English and French
names/labels), N views in game order. Printed:

- fast path (``RENDERER.png``: cached indexed pieces, fixed palette, PNG level 1):
  the first image (palette and static layer built), then the median, p90 and
  max per image in game order with a fresh renderer (pieces are cached as they
  first appear, as in a real game), then the median of a second, warm pass;
- naive full redraw (``render.ur.render_naive``: everything drawn from
  scratch in RGB, default PNG) on M of those views, and the ratio of medians;
- bytes per image (median and max) for both;
- the machine limit: encoding the final image alone as PNG level 1, from RGB
  and from the indexed image the fast path saves.

Timings use the wall clock here (benchmarks only; tests never time anything).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.ur.engine import GAME
from render.context import RenderContext
from render.draw import png_bytes, to_palette
from render.ur import UrRenderer, render_naive

NAMES = ("Ninsun", "Gilgamesh", "Enkidu 🌙", "Shamhat")
View = dict[str, Any]
Job = tuple[View, RenderContext]


def playout(seed: int, players: int) -> list[View]:
    """Every public view of one random legal game."""
    rng = random.Random(seed)
    state = GAME.setup(seed, players, {})
    views = [GAME.view(state, None)]
    while GAME.active(state):
        seat = GAME.active(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
        views.append(GAME.view(state, None))
    return views


def spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items evenly spaced over ``items``, in order, first and last included."""
    if count >= len(items):
        return items
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def jobs(seed: int, count: int) -> list[Job]:
    """``count`` views from a 3-player game (English) then a 4-player game (French)."""
    three = spread(playout(seed, 3), count // 2)
    four = spread(playout(seed + 1, 4), count - count // 2)
    return ([(v, RenderContext(NAMES[:3], "en")) for v in three]
            + [(v, RenderContext(NAMES, "fr")) for v in four])


def timed(render: Callable[[View, RenderContext], bytes], work: list[Job]
          ) -> tuple[list[float], list[int]]:
    """Milliseconds and bytes of each render."""
    times, sizes = [], []
    for view, ctx in work:
        start = time.perf_counter()
        data = render(view, ctx)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    return times, sizes


def repeat_ms(action: Callable[[], object], times: int) -> float:
    """Median milliseconds of ``action`` over ``times`` runs."""
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def measure(count: int, naive_count: int, seed: int) -> dict[str, Any]:
    """All figures, as a JSON-ready dict."""
    work = jobs(seed, count)
    renderer = UrRenderer()
    first_ms, _ = timed(renderer.png, work[:1])
    cold, sizes = timed(renderer.png, work)
    warm, _ = timed(renderer.png, work)
    naive, naive_sizes = timed(render_naive, spread(work, naive_count))
    final = renderer.image(*work[-1])
    palette = renderer.palette()
    indexed = to_palette(final, palette)
    fast_ms = statistics.median(cold)
    naive_ms = statistics.median(naive)
    return {
        "width": final.width, "height": final.height, "views": len(work),
        "first_image_ms": first_ms[0],
        "fast_median_ms": fast_ms,
        "fast_p90_ms": statistics.quantiles(cold, n=10)[-1],
        "fast_max_ms": max(cold),
        "fast_warm_median_ms": statistics.median(warm),
        "fast_median_bytes": statistics.median(sizes), "fast_max_bytes": max(sizes),
        "naive_views": len(naive), "naive_median_ms": naive_ms,
        "naive_median_bytes": statistics.median(naive_sizes),
        "naive_over_fast": naive_ms / fast_ms,
        "encode_rgb_level1_ms": repeat_ms(lambda: png_bytes(final, 1), 20),
        "encode_rgb_level1_bytes": len(png_bytes(final, 1)),
        "encode_indexed_level1_ms": repeat_ms(lambda: png_bytes(indexed, 1), 20),
    }


def report(r: dict[str, Any]) -> str:
    """The figures as a short table."""
    kb = 1000
    return "\n".join([
        f"Ur board {r['width']}x{r['height']}, {r['views']} views from two random games",
        f"fast path   median {r['fast_median_ms']:6.2f} ms  p90 {r['fast_p90_ms']:.2f}"
        f"  max {r['fast_max_ms']:.2f}  warm median {r['fast_warm_median_ms']:.2f} ms"
        f"  (first image {r['first_image_ms']:.0f} ms)",
        f"            bytes median {r['fast_median_bytes'] / kb:.1f} KB"
        f"  max {r['fast_max_bytes'] / kb:.1f} KB",
        f"naive       median {r['naive_median_ms']:6.2f} ms over {r['naive_views']} views,"
        f"  bytes median {r['naive_median_bytes'] / kb:.1f} KB",
        f"ratio       naive / fast = {r['naive_over_fast']:.1f}x",
        f"machine     PNG level 1 of the final image alone: RGB {r['encode_rgb_level1_ms']:.2f}"
        f" ms ({r['encode_rgb_level1_bytes'] / kb:.1f} KB), indexed"
        f" {r['encode_indexed_level1_ms']:.2f} ms",
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--views", type=int, default=200, help="views rendered on the fast path")
    parser.add_argument("--naive", type=int, default=20, help="views redrawn naively")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = measure(max(args.views, 4), max(args.naive, 2), args.seed)
    print(report(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
