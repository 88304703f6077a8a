"""The engine contract over many playouts of a game, with the figures of the run.

Usage::

    python benchmarks/contract_playouts.py GAME [--games N] [--ai-games M] [--players 3,4]
        [--density D] [--max-steps S] [--workers W] [--json FILE] [--records FILE]

For each player count, ``N`` random playouts and ``M`` playouts with every seat played
by the AI (its fast budget) go through :func:`tests.contract.playout` (every check it
makes: no crash or dead end, the game ends, notations round-trip, garbage is refused,
deadline defaults are legal, no view, label, prompt or report shows a secret to a seat
that may not read it, determinize keeps the legal steps and not the future, images
within limits, replay reproduces the state). It prints, per player count: games, steps
and turns per game (median, max), how often each kind of step was played, wins per seat
with 95% intervals, and the time taken. A broken promise stops the run with the game,
seed and step.
``bazaar`` (the test game) is known here besides the registered games.

With ``--records FILE`` each finished playout is appended to that JSON-lines file with the
fingerprint of the code that played it (:func:`checked_code`: the engine core, the AI, the
game's rules, pictures, data and words, the contract): a run stopped half-way resumes where it
stopped, and the figures count every recorded playout of the same code among the first ``N``
and ``M`` seeds. A change elsewhere (the Discord layer, the service, another game) keeps them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import append_record, fingerprint, load_records, rules_code, wilson
from bot.ai import FAST_BUDGET
from host import registry
from host.registry import GameEntry
from tests import bazaar
from tests.contract import MAX_STEPS, playout

GAMES: dict[str, GameEntry] = {**registry.GAMES, "bazaar": bazaar.ENTRY}
AI_SEEDS = 1_000_000
"""The seeds of the AI playouts start here (the random ones at 0)."""
Job = tuple[str, int, str, int, float, int]
"""One playout to run: (game, players, ``random`` or ``ai``, seed, density, max steps)."""


def checked_code(game: str) -> tuple[str, ...]:
    """The files (glob patterns) whose code or content a playout of ``game`` runs: its rules
    code, and the words and pictures the contract checks."""
    return (*rules_code(game), "bot/i18n.py", "host/registry.py", "render/__init__.py",
            "render/context.py", "render/draw.py", "render/fonts.py", f"render/{game}*",
            "data/render", "data/locales/*/core.json", "data/locales/*/render.json",
            f"data/locales/*/{game}*.json", "tests/bazaar")


def one_playout(job: Job) -> dict[str, Any]:
    """Run the playout ``job``; the record of what it did."""
    game, players, kind, seed, density, max_steps = job
    started = time.process_time()
    if kind == "ai":
        result = playout(GAMES[game], players, AI_SEEDS + seed, ai_seats=range(players),
                         density=density, images=0, budget=FAST_BUDGET, max_steps=max_steps)
    else:
        result = playout(GAMES[game], players, seed, density=density,
                         images=3 if seed % 50 == 0 else 0, max_steps=max_steps)
    assert result.outcome is not None
    return {"game": game, "players": players, "kind": kind, "seed": seed,
            "steps": result.steps, "turns": result.turns,
            "winners": [w for w in result.outcome.winners if w < players],
            "actions": result.actions, "images": result.images,
            "seconds": time.process_time() - started}


def summary(records: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures of the playouts ``records`` of one player count."""
    wins = [0.0] * players
    for record in records:
        for seat in record["winners"]:
            wins[seat] += 1 / len(record["winners"])
    actions: Counter[str] = Counter()
    for record in records:
        actions.update(record["actions"])
    total = sum(actions.values())
    return {
        "games": len(records),
        "steps_median": statistics.median(r["steps"] for r in records),
        "steps_max": max(r["steps"] for r in records),
        "turns_median": statistics.median(r["turns"] for r in records),
        "turns_max": max(r["turns"] for r in records),
        "wins_by_seat": [{"share": w / len(records), "interval": wilson(w, len(records))}
                         for w in wins],
        "step_kinds": {k: v / total for k, v in actions.most_common()},
        "largest_image_bytes": max((max(r["images"]) for r in records if r["images"]),
                                   default=0),
        "seconds": sum(r["seconds"] for r in records),
    }


def run(jobs: list[Job], workers: int, records: list[dict[str, Any]],
        keep: Callable[[dict[str, Any]], None]) -> None:
    """Run ``jobs`` on ``workers`` processes, adding each record to ``records`` and giving it
    to ``keep``."""
    with ProcessPoolExecutor(workers) as pool:
        for record in pool.map(one_playout, jobs, chunksize=1):
            records.append(record)
            keep(record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ai-games", type=int, default=50)
    parser.add_argument("--players", default="", help="player counts, e.g. 3,4 (default: all)")
    parser.add_argument("--density", type=float, default=1.0,
                        help="share of steps with the thorough checks")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS,
                        help="steps after which a playout counts as endless")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--records", type=Path,
                        help="JSON-lines file of the finished playouts (to resume a run)")
    args = parser.parse_args(argv)
    meta = GAMES[args.game].engine.meta
    counts = [int(n) for n in args.players.split(",")] if args.players else list(
        range(meta.min_players, meta.max_players + 1))
    code = ":".join([fingerprint(checked_code(args.game)), str(args.density),
                     str(args.max_steps)])
    wanted = {"random": args.games, "ai": args.ai_games}
    records = [r for r in (load_records(args.records, code) if args.records else [])
               if r["game"] == args.game and r["players"] in counts
               and r["seed"] < wanted[r["kind"]]]
    done = {(r["players"], r["kind"], r["seed"]) for r in records}
    jobs = [(args.game, players, kind, seed, args.density, args.max_steps)
            for players in counts for kind in ("random", "ai") for seed in range(wanted[kind])
            if (players, kind, seed) not in done]
    run(jobs, args.workers, records,
        lambda r: append_record(args.records, {**r, "code": code}) if args.records else None)
    report: dict[str, Any] = {"game": args.game, "command": " ".join(sys.argv), "code": code,
                              "played_now": len(jobs)}
    for players in counts:
        figures = {kind: summary(part, players) if part else None for kind in ("random", "ai")
                   for part in [[r for r in records if r["players"] == players
                                 and r["kind"] == kind]]}
        report[str(players)] = figures
        for kind in ("random", "ai"):
            part = figures[kind]
            if part is None:
                continue
            seats = "  ".join(f"{100 * w['share']:.1f}% [{100 * w['interval'][0]:.1f}-"
                              f"{100 * w['interval'][1]:.1f}]" for w in part["wins_by_seat"])
            print(f"{args.game} {players}p {kind}: {part['games']} games, steps median "
                  f"{part['steps_median']:.0f} (max {part['steps_max']}), turns median "
                  f"{part['turns_median']:.0f} (max {part['turns_max']}), "
                  f"{part['seconds']:.1f} CPU s; wins by seat {seats}")
            kinds = ", ".join(f"{k} {100 * v:.1f}%" for k, v in
                              list(part["step_kinds"].items())[:12])
            print(f"    steps: {kinds}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print("contract kept in every playout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
