"""Plant one-line bugs in a module and see whether its tests notice (mutation testing).

Usage::

    python benchmarks/mutants.py bot/games/civsets/effects.py \\
        --tests tests/test_civsets_rules.py tests/test_civsets_rule_edges.py \\
        [--sample 40] [--seed 1] [--timeout 120] [--json FILE]

Each mutant changes one token of one line of the module: a comparison turned
(``>=`` to ``>``, ``<`` to ``<=``, ``==`` to ``!=``), ``and`` and ``or`` swapped, a
``not`` dropped, ``min`` and ``max`` swapped, ``+=`` made ``-=``, a small number moved by
one, ``True`` and ``False`` swapped. The mutants are drawn at random (``--sample`` of
them, ``--seed``) from every line of code that has such a token (docstrings and comments
left alone); each runs in a git worktree of the current commit with the given tests
(``pytest -x -q``), so the checkout you work in is never touched. A mutant is *caught*
when the tests fail, *survives* when they pass, and *times out* after ``--timeout``
seconds (counted as caught: an endless loop is noticed). Prints each survivor (the line
and the change) and the score; survivors are the tests to write.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SWAPS: tuple[tuple[str, str], ...] = (
    (r">=", ">"), (r"<=", "<"), (r"(?<![<>=!])>(?!=)", ">="), (r"(?<![<>=!])<(?!=)", "<="),
    (r"==", "!="), (r"!=", "=="), (r"\band\b", "or"), (r"\bor\b", "and"),
    (r"\bnot ", ""), (r"\bmin\(", "max("), (r"\bmax\(", "min("), (r"\+=", "-="),
    (r"\bTrue\b", "False"), (r"\bFalse\b", "True"),
    (r"(?<![\w.])0(?![\w.])", "1"), (r"(?<![\w.])1(?![\w.])", "2"),
    (r"(?<![\w.])2(?![\w.])", "1"),
)
"""(pattern, replacement): the one-token changes a mutant makes."""


@dataclass(frozen=True)
class Mutant:
    """One planted bug: the line (1-based), its text before and after."""

    line: int
    before: str
    after: str


def _code_lines(source: str) -> list[int]:
    """The 0-based indices of lines that are code (not docstrings, comments or blank)."""
    lines = source.split("\n")
    code, in_doc = [], False
    for i, line in enumerate(lines):
        stripped = line.strip()
        quotes = stripped.count('"""')
        if in_doc:
            in_doc = quotes % 2 == 0
            continue
        if stripped.startswith('"""'):
            in_doc = quotes == 1
            continue
        if stripped and not stripped.startswith(("#", "import ", "from ", "@")):
            code.append(i)
    return code


def mutants(source: str) -> list[Mutant]:
    """Every one-token mutant of ``source`` (see :data:`SWAPS`)."""
    lines = source.split("\n")
    found = []
    for i in _code_lines(source):
        text = lines[i].split("#", 1)[0]
        for pattern, replacement in SWAPS:
            for match in re.finditer(pattern, text):
                after = lines[i][:match.start()] + replacement + lines[i][match.end():]
                if after != lines[i]:
                    found.append(Mutant(i + 1, lines[i], after))
    return found


def run(module: Path, tests: list[str], plan: list[Mutant], timeout: float
        ) -> list[tuple[Mutant, str]]:
    """Each mutant's fate (caught, survived, timeout) in a worktree of HEAD."""
    results = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as temp:
        tree = Path(temp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree)],
                       check=True, capture_output=True)
        try:
            target = tree / module
            original = target.read_text(encoding="utf-8")
            base = _pytest(tree, tests, timeout)
            if base != "survived":
                raise SystemExit(f"the tests do not pass on the unchanged code ({base})")
            for mutant in plan:
                lines = original.split("\n")
                lines[mutant.line - 1] = mutant.after
                target.write_text("\n".join(lines), encoding="utf-8")
                results.append((mutant, _pytest(tree, tests, timeout)))
                target.write_text(original, encoding="utf-8")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=False, capture_output=True)
    return results


def _pytest(tree: Path, tests: list[str], timeout: float) -> str:
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                               "no:cacheprovider", *tests], cwd=tree, capture_output=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "caught"


def main(argv: list[str] | None = None) -> int:
    """Plant the mutants, run the tests, print the survivors and the score."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", type=Path, help="the module to plant bugs in")
    parser.add_argument("--tests", nargs="+", required=True, help="test files to run")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--json", type=Path)
    opts = parser.parse_args(argv)
    every = mutants((ROOT / opts.module).read_text(encoding="utf-8"))
    plan = sorted(random.Random(opts.seed).sample(every, min(opts.sample, len(every))),
                  key=lambda m: m.line)
    started = time.monotonic()
    results = run(opts.module, opts.tests, plan, opts.timeout)
    caught = sum(1 for _, fate in results if fate != "survived")
    for mutant, fate in results:
        if fate == "survived":
            print(f"survived {opts.module}:{mutant.line}: {mutant.before.strip()}  ->  "
                  f"{mutant.after.strip()}")
    print(f"{opts.module}: {caught}/{len(results)} mutants caught "
          f"({len(every)} possible, seed {opts.seed}, {time.monotonic() - started:.0f} s)")
    if opts.json:
        opts.json.write_text(json.dumps({
            "module": str(opts.module), "tests": opts.tests, "seed": opts.seed,
            "possible": len(every), "caught": caught,
            "results": [{**asdict(m), "fate": fate} for m, fate in results]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
