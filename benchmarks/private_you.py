"""Whether a player's panel speaks to them: the private transcripts of
``benchmarks/narration.py --out DIR`` read per game and language.

Usage::

    python benchmarks/private_you.py DIR

For each ``<game>-<lang>.private.md`` of ``DIR`` (every private answer the game's creator
got), prints how many notes of a step they took ("✓ …") there are and how many begin with
"You" / « Vous », how many lines of their own turn summaries ("🎲 …") do, and how many lines
still name them as the one who acts ("🎲 **alice** places", "alice places"); then a few of
the lines that do not speak to them.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

YOU = re.compile(r"(You|Vous) ")
SHOWN = 5
"""Lines shown per file that do not speak to the player."""


def figures(path: Path) -> tuple[str, list[str]]:
    """One file's line of figures, and the lines that do not speak to its member."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"private answers of (\S+)", text)
    if found is None:
        raise SystemExit(f"{path}: not a private transcript of benchmarks/narration.py")
    me = found.group(1)
    lines = [line[2:] for line in text.split("\n") if line.startswith("> ")]
    notes = [line for line in lines if line.startswith("✓ ")]
    wrong = [line for line in notes if not YOU.match(line[2:])]
    own = [line for line in lines if line.startswith("🎲 ") and YOU.match(line[2:])]
    named = [line for line in lines if line.startswith(f"🎲 **{me}**")
             or re.search(rf"\b{re.escape(me)} [a-zà-ÿ]", line)]
    return (f"{path.name:28} step notes {len(notes):4}, to you {len(notes) - len(wrong):4}; "
            f"own turn lines to you {len(own):4}; naming the player as who acts "
            f"{len(named):3}", [*wrong, *named])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="the --out folder of benchmarks/narration.py")
    folder = parser.parse_args().folder
    for path in sorted(folder.glob("*.private.md")):
        line, wrong = figures(path)
        print(line)
        for text in wrong[:SHOWN]:
            print("    " + text[:160])


if __name__ == "__main__":
    main()
