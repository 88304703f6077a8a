"""Mesopotamia alone against the game itself, played by our AI many times: how often does it
win, and how long is a game?

Usage::

    python benchmarks/solo_modes.py [--games N] [--variant automaton=emperor ...]
        [--workers W] [--budget quick|fast|full] [--json FILE]

Each ``--variant`` is a set of game options (``NAME=VALUE`` joined by commas; default: the
Duel of Kings at each difficulty, Emperor, Igigi and Anunnaki, which the rulebook calls easy,
medium and hard, then the Siege of Ur). A game seats one AI player (``bot.ai`` at
``--budget``) and the game's own opponent, played by its script as the bot plays it
(:class:`bot.scripted.Script`), from setup to the end. Per variant it prints the AI's win
rate with its 95% interval, rounds per game (median and largest), the AI's steps per game
(what a member plays), and CPU seconds per game.
``--json`` writes the figures (default ``benchmarks/results/solo_modes.json``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import BUDGETS, command_line, play_ai_game, save, wilson
from host.registry import CATALOGUE

GAME = "mesopotamia"
VARIANTS = ("automaton=emperor", "automaton=igigi", "automaton=anunnaki", "mode=siege")
RESULTS = Path(__file__).resolve().parent / "results" / "solo_modes.json"
MAX_STEPS = 20_000


def options_of(variant: str) -> dict[str, str]:
    """The game's options with those of ``variant`` (``NAME=VALUE,...``) set."""
    options = {spec.name: spec.default for spec in CATALOGUE.meta(GAME).options}
    for pair in filter(None, variant.split(",")):
        name, _, value = pair.partition("=")
        options[name.strip()] = value.strip()
    return options


def play_one(variant: str, seed: int, budget: str) -> dict[str, Any]:
    """One game of ``variant`` from setup ``seed``: who won, rounds, steps, CPU seconds."""
    started = time.process_time()
    engine, options = CATALOGUE.engine(GAME), options_of(variant)
    scripts = [s for s in CATALOGUE.scripts if s.game == GAME]
    seats = 1 + sum(script.seats(options) for script in scripts)
    state = engine.setup(seed, seats, options)
    counted: dict[str, int] = {"mine": 0}

    def observe(before: Any, seat: int, action: Any, after: Any) -> None:
        counted["mine"] += seat == 0

    state, steps = play_ai_game(engine, state, random.Random(seed), BUDGETS[budget], MAX_STEPS,
                                observe, scripts)
    outcome = engine.outcome(state)
    return {"seed": seed, "won": outcome is not None and outcome.seat_won(0),
            "ended": outcome is not None, "rounds": state.get("round", 0), "steps": steps,
            "own_steps": counted["mine"], "cpu": time.process_time() - started}


def summary(variant: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of ``variant`` over its ``games``."""
    n, wins = len(games), sum(g["won"] for g in games)
    low, high = wilson(wins, n)
    rounds = [g["rounds"] for g in games]
    return {"variant": variant, "games": n, "unfinished": sum(not g["ended"] for g in games),
            "win_rate": wins / n if n else 0.0, "interval": [low, high],
            "rounds_median": statistics.median(rounds) if rounds else 0,
            "rounds_max": max(rounds, default=0),
            "own_steps_median": statistics.median(g["own_steps"] for g in games) if n else 0,
            "cpu_per_game": statistics.mean(g["cpu"] for g in games) if n else 0.0}


def line(figures: dict[str, Any]) -> str:
    """One printed row of :func:`summary`."""
    low, high = figures["interval"]
    return (f"{figures['variant']:<22} {figures['games']:>6} games  AI wins "
            f"{100 * figures['win_rate']:5.1f}% [{100 * low:.1f}-{100 * high:.1f}]  rounds "
            f"median {figures['rounds_median']} max {figures['rounds_max']}  AI steps median "
            f"{figures['own_steps_median']}  CPU {figures['cpu_per_game']:.2f} s/game"
            + (f"  unfinished {figures['unfinished']}" if figures["unfinished"] else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="quick")
    parser.add_argument("--json", type=Path, default=RESULTS)
    opts = parser.parse_args(argv)
    variants = opts.variant or list(VARIANTS)
    print(command_line("solo_modes.py", argv))
    figures = []
    with ProcessPoolExecutor(opts.workers) as pool:
        for variant in variants:
            games = list(pool.map(play_one, [variant] * opts.games, range(opts.games),
                                  [opts.budget] * opts.games))
            figures.append(summary(variant, games))
            print(line(figures[-1]), flush=True)
    save(opts.json, {"command": command_line("solo_modes.py", argv), "variants": figures})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
