"""What the balance scripts share: AI budgets, a whole AI game, win shares with 95% intervals,
records of finished games and their adoption by newer code.

``benchmarks/civsets_balance.py`` and ``benchmarks/flood_balance.py`` play many games with
every seat played by the generic AI (``bot.ai``) and print per-game figures of their own;
the loop of one game, the win shares and their printing are the same and live here.
``benchmarks/solo_modes.py`` and ``benchmarks/mesopotamia_balance.py`` keep each game in a
records file with the fingerprint of the code that played it, and ``--adopt K`` counts older
code's records when K of them replay alike (:func:`adopt`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
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


Record = dict[str, Any]
"""One line of a records file: a finished game (with its ``seed``) or an adoption (with
``adopted``), each with the ``code`` it counts for."""


def load_lines(path: Path) -> list[Record]:
    """Every line of the JSON-lines file ``path`` (none if it is missing)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def load_records(path: Path, code: str) -> list[Record]:
    """The games recorded in the JSON-lines file ``path`` by the code of fingerprint
    ``code`` (none if the file is missing)."""
    return [r for r in load_lines(path) if r.get("code") == code]


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Add one game's ``record`` to the JSON-lines file ``path`` (a run stopped half-way keeps
    the games it finished)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def _in_group(line: Record, group: Mapping[str, Any]) -> bool:
    """Whether ``line`` holds every field of ``group`` with the same value."""
    return all(line.get(name) == value for name, value in group.items())


def codes_counting_as(code: str, lines: Sequence[Record], group: Mapping[str, Any]) -> set[str]:
    """``code`` and every older code whose records of ``group`` (fields a record shares with
    the others it is counted with: a solo variant, a player count) were checked to count as
    it, through the adoption ``lines`` (one old code adopted by a newer one, and so on)."""
    codes, grown = {code}, True
    while grown:
        older = {line["adopted"] for line in lines if "adopted" in line
                 and _in_group(line, group) and line["code"] in codes}
        grown = not older <= codes
        codes |= older
    return codes


def counted_games(lines: Sequence[Record], code: str, group: Mapping[str, Any]) -> list[Record]:
    """The games of ``group`` among ``lines`` that count for ``code``: played by it or by a
    code it adopted."""
    codes = codes_counting_as(code, lines, group)
    return [r for r in lines if "seed" in r and _in_group(r, group) and r["code"] in codes]


def adopt(path: Path, code: str, group: Mapping[str, Any], count: int,
          replay: Callable[[list[Record]], Iterable[Record]], played: Sequence[str]) -> bool:
    """Replay ``count`` of the games of ``group`` that count for another code in the records
    file ``path`` (its own games and those it adopted), the newest first; when each repeats
    every field of ``played``, write that that code's games count for ``code`` and stop, else
    try the next older code (a newer one may be a design that was tried and left). Whether
    one was adopted.

    A code is a fingerprint then, after a colon, the run's settings (the AI budget ...): only
    codes of the same settings are adopted. ``replay`` plays the games of the records it is
    given again with the current code, in order (its results go through JSON as records do)."""
    lines = load_lines(path)
    mine, settings = codes_counting_as(code, lines, group), code.partition(":")[2]
    others = [line["code"] for line in lines if _in_group(line, group)
              and line["code"] not in mine and line["code"].partition(":")[2] == settings]
    name = ", ".join(f"{field} {value}" for field, value in group.items())
    for old in reversed(dict.fromkeys(others)):
        sample = counted_games(lines, old, group)[:count]
        if sample and _replays_alike(sample, replay(sample), played, name):
            append_record(path, {"adopted": old, "code": code, **group,
                                 "checked": [r["seed"] for r in sample]})
            print(f"{name}: {len(sample)} games replayed as recorded: records of {old} adopted",
                  flush=True)
            return True
    return False


def _replays_alike(sample: list[Record], replayed: Iterable[Record], played: Sequence[str],
                   name: str) -> bool:
    """Whether each game of ``sample`` was ``replayed`` with every field of ``played`` the
    same (says which seed differs)."""
    for record, again in zip(sample, replayed, strict=True):
        again = json.loads(json.dumps(again))
        if any(field not in record or again.get(field) != record[field] for field in played):
            print(f"{name}: seed {record['seed']} of {record['code']} plays differently",
                  flush=True)
            return False
    return True
