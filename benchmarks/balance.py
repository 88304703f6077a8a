"""What the balance scripts share: AI budgets, a whole AI game, win shares with 95% intervals.

``benchmarks/civsets_balance.py`` and ``benchmarks/flood_balance.py`` play many games with
every seat played by the generic AI (``bot.ai``) and print per-game figures of their own;
the loop of one game, the win shares and their printing are the same and live here.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bot import ai
from bot.engine import Game, State
from bot.scripted import Script
from tests.contract import Observer

QUICK_BUDGET = ai.Budget(candidates=2, rollouts=2, sample=1, max_steps=4, guesses=1, breadth=10)
"""A third of the fast budget's work (After the Flood: 0.8 CPU s a game against 2.6 s):
for balance runs of thousands of games on a shared machine."""
BUDGETS = {"quick": QUICK_BUDGET, "fast": ai.FAST_BUDGET, "full": ai.DEFAULT_BUDGET}
"""The AI budgets a run may use (``fast`` and ``quick``: less look-ahead, for thousands of
games)."""


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_ai_game(game: Game, state: State, rng: random.Random, budget: ai.Budget,
                 max_steps: int, observe: Observer | None = None,
                 scripts: Sequence[Script] = ()) -> tuple[State, int]:
    """Play ``state`` to its end (or ``max_steps``) with the AI in every seat but those the
    game's own ``scripts`` play: the last state and the number of steps."""
    steps = 0
    while game.outcome(state) is None and steps < max_steps:
        seat = game.active(state)[0]
        script = next((s for s in scripts if s.plays(state, seat)), None)
        if script is not None:
            action = game.parse(state, seat, script.step(state, seat))
        else:
            legal = game.legal(state, seat)
            action = ai.choose(game, game.view(state, seat), legal, seat, rng, budget)
        after = game.apply(state, seat, action)
        if observe is not None:
            observe(state, seat, action, after)
        state = after
        steps += 1
    return state, steps


def win_shares(winners: Iterable[Sequence[int]], places: int, games: int) -> list[dict[str, Any]]:
    """The share of ``games`` won by each of ``places`` (seats or seat positions), a shared
    win counted as a fraction, each with its 95% Wilson interval."""
    wins = [0.0] * places
    for won in winners:
        for place in won:
            wins[place] += 1 / len(won)
    return [{"share": w / games, "interval": wilson(w, games)} for w in wins]


def shares_line(shares: Sequence[dict[str, Any]]) -> str:
    """``41.0% [38.9-43.2]  ...``: the shares of :func:`win_shares` in percent."""
    return "  ".join(f"{100 * s['share']:.1f}% [{100 * s['interval'][0]:.1f}-"
                     f"{100 * s['interval'][1]:.1f}]" for s in shares)


def command_line(script: str, argv: Sequence[str] | None) -> str:
    """The command that ran ``benchmarks/<script>`` with ``argv`` (None: this process's)."""
    return shlex.join(["python", f"benchmarks/{script}",
                       *(sys.argv[1:] if argv is None else argv)])


def save(path: Path, figures: dict[str, Any]) -> None:
    """Write ``figures`` as JSON to ``path``, making its folder if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


ROOT = Path(__file__).resolve().parent.parent


def rules_code(game: str) -> tuple[str, ...]:
    """The files (glob patterns) that decide how a game of ``game`` played by the AI under the
    contract goes: the engine core, the AI, chance, replay, the shared game helpers, the
    game's rules and data, the contract."""
    return ("bot/engine.py", "bot/ai.py", "bot/chance.py", "bot/replay.py", "bot/games/*.py",
            f"bot/games/{game}*", f"data/{game}", "tests/contract.py")


def fingerprint(paths: Iterable[str]) -> str:
    """A short hash of the files under ``paths`` (relative to the project root, glob patterns
    allowed): records of games played by code with the same fingerprint can be counted
    together."""
    digest = hashlib.sha256()
    files = [p for pattern in paths for root in ROOT.glob(pattern)
             for p in ([root] if root.is_file() else root.rglob("*"))]
    for path in sorted({p for p in files if p.is_file() and p.suffix in (".py", ".json")}):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_records(path: Path, code: str) -> list[dict[str, Any]]:
    """The games recorded in the JSON-lines file ``path`` by the code of fingerprint
    ``code`` (none if the file is missing)."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [r for r in map(json.loads, filter(None, lines)) if r.get("code") == code]


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Add one game's ``record`` to the JSON-lines file ``path`` (a run stopped half-way keeps
    the games it finished)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
