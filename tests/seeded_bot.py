"""``python -m tests.seeded_bot SEED``: the bot (``python -m dingir``), but every game it
starts gets the seed SEED instead of a random one, so that an end-to-end test plays a known
game (the bot itself offers no way to choose a seed)."""

from __future__ import annotations

import sys

from dingir.__main__ import main

if __name__ == "__main__":
    seed = int(sys.argv[1])
    sys.exit(main(lambda: seed))
