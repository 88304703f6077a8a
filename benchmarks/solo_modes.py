"""Mesopotamia alone against the game itself, played by our AI many times: how often does it
win, and how long is a game?

Usage::

    python benchmarks/solo_modes.py [--games N] [--variant automaton=emperor ...]
        [--workers W] [--budget quick|fast|full] [--json FILE] [--records FILE] [--adopt K]

Each ``--variant`` is a set of game options (``NAME=VALUE`` joined by commas; default: the
Duel of Kings at each difficulty, Emperor, Igigi and Anunnaki, which the rulebook calls easy,
medium and hard, then the Siege of Ur and the Guardians of Assur). A game seats one AI player
(``bot.ai`` at ``--budget``) and the game's own opponent, played by its script as the bot plays
it (:class:`bot.scripted.Script`), from setup to the end. Per variant it prints the AI's win
rate with its 95% interval, rounds per game (median and largest), the AI's steps per game
(what a member plays), CPU seconds per game, and the mean of what the mode measures beside
its result (:func:`bot.games.mesopotamia.modes.figures`: in the Siege, regions from your Ram
nearest Ur to it, over the games that end with a Ram; in the Guardians, the wave reached).
``--json`` writes the figures (default ``benchmarks/results/solo_modes.json``).

Each game is appended to ``--records`` (JSON lines, default
``benchmarks/results/solo_games.jsonl``) with the fingerprint of the code that played it and
the variant, so that a run stopped half-way (or spread over several sittings) resumes where it
stopped and counts only games of the same code. ``--adopt K``: when the code changed since
games were recorded (a change elsewhere in the game's files), replay K of another code's
records of each variant (with those it adopted; played with the same budget), the newest code
first; if every one of them is played exactly as recorded (winner, rounds, steps), that code's
records count for the new code (else the next older code is tried; the check is written in
the file: :func:`benchmarks.balance.adopt`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import (
    BUDGETS,
    adopt,
    append_record,
    command_line,
    counted_games,
    fingerprint,
    load_lines,
    play_ai_game,
    rules_code,
    save,
    wilson,
)
from bot.games.kit import typed
from bot.games.mesopotamia.modes import figures
from bot.games.mesopotamia.state import MesopotamiaState
from host.registry import CATALOGUE

GAME = "mesopotamia"
VARIANTS = ("automaton=emperor", "automaton=igigi", "automaton=anunnaki", "mode=siege",
            "mode=guardians")
RESULTS = Path(__file__).resolve().parent / "results" / "solo_modes.json"
RECORDS = Path(__file__).resolve().parent / "results" / "solo_games.jsonl"
CODE = (*rules_code(GAME), "bot/scripted.py", "benchmarks/balance.py", "benchmarks/solo_modes.py")
"""The files that decide how a solo game played by the AI goes."""
PLAYED = ("won", "ended", "rounds", "steps", "own_steps")
"""What a replayed game must repeat for its records to count for newer code."""
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
            "own_steps": counted["mine"], "cpu": time.process_time() - started,
            "extra": figures(typed(MesopotamiaState, state))}


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
            "cpu_per_game": statistics.mean(g["cpu"] for g in games) if n else 0.0,
            "extra": extras(games)}


def extras(games: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each extra figure of the ``games`` (records older than them have none): its mean, least,
    largest and over how many games."""
    found: dict[str, list[float]] = {}
    for game in games:
        for name, value in game.get("extra", {}).items():
            found.setdefault(name, []).append(float(value))
    return {name: {"mean": statistics.mean(v), "min": min(v), "max": max(v), "games": len(v)}
            for name, v in found.items()}


def line(figures: dict[str, Any]) -> str:
    """One printed row of :func:`summary`."""
    low, high = figures["interval"]
    return (f"{figures['variant']:<22} {figures['games']:>6} games  AI wins "
            f"{100 * figures['win_rate']:5.1f}% [{100 * low:.1f}-{100 * high:.1f}]  rounds "
            f"median {figures['rounds_median']} max {figures['rounds_max']}  AI steps median "
            f"{figures['own_steps_median']}  CPU {figures['cpu_per_game']:.2f} s/game"
            + (f"  unfinished {figures['unfinished']}" if figures["unfinished"] else "")
            + "".join(f"  {name} mean {e['mean']:.2f} [{e['min']:g}-{e['max']:g}] over "
                      f"{e['games']}" for name, e in figures.get("extra", {}).items()))


def play(pool: Executor, variant: str, budget: str, seeds: list[int]) -> Iterator[dict[str, Any]]:
    """The games of ``variant`` from each setup of ``seeds`` (:func:`play_one`), in order."""
    return pool.map(play_one, [variant] * len(seeds), seeds, [budget] * len(seeds))


def replay(pool: Executor, variant: str, budget: str,
           records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The games of ``records`` played again (:func:`benchmarks.balance.adopt`)."""
    return play(pool, variant, budget, [r["seed"] for r in records])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="quick")
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--adopt", type=int, default=0, metavar="K")
    opts = parser.parse_args(argv)
    variants = opts.variant or list(VARIANTS)
    print(command_line("solo_modes.py", argv))
    code = f"{fingerprint(CODE)}:{BUDGETS[opts.budget]}"
    figures = []
    with ProcessPoolExecutor(opts.workers) as pool:
        for variant in variants:
            group = {"variant": variant}
            if opts.adopt:
                adopt(opts.records, code, group, opts.adopt,
                      partial(replay, pool, variant, opts.budget), PLAYED)
            done = {r["seed"]: r for r in counted_games(load_lines(opts.records), code, group)
                    if r["seed"] < opts.games}
            missing = [seed for seed in range(opts.games) if seed not in done]
            for game in play(pool, variant, opts.budget, missing):
                done[game["seed"]] = game
                append_record(opts.records, {**game, "variant": variant, "code": code})
            figures.append(summary(variant, [done[seed] for seed in range(opts.games)]))
            print(line(figures[-1]), flush=True)
    save(opts.json, {"command": command_line("solo_modes.py", argv), "variants": figures})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
