"""How often our AI wins a combat against Mesopotamia's Automaton (the solo combat).

Usage::

    python benchmarks/solo_combat_ai.py [--combats N]

Plays ``N`` seeded combats (1-3 units a side, 0-8 phalanxes for the AI's seat and 0-6 for
the Automaton, either side ahead on the Event track; seeds 0, 1, ...) with the AI's fast
budget, and prints the share the AI's seat wins (``data/mesopotamia/automaton/README.md``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_mesopotamia_solo_ai import win_rate


def main() -> None:
    """Print the AI seat's win rate over the seeded combats."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--combats", type=int, default=200)
    n = parser.parse_args().combats
    print(f"AI seat's combat win rate over {n} seeded combats: {win_rate(n):.1%}")


if __name__ == "__main__":
    main()
