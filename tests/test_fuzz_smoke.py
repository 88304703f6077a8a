"""A short run of the bad-input fuzzer (benchmarks/fuzz_interactions.py) so it keeps working.

Some hundreds of bad interactions per game, every registered game, against ``python -m dingir``:
the bot stays up, answers each one Discord could send privately and clearly, changes no game,
logs no traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import fuzz_interactions
from host import registry

pytestmark = pytest.mark.slow

COUNT = 120


async def test_bad_input_changes_nothing_and_gets_private_answers(tmp_path: Path) -> None:
    opts = fuzz_interactions.options([
        "--game", "all", "--count", str(COUNT), "--tables", "2", "--steps", "2", "--seed", "5",
        "--concurrency", "16", "--workdir", str(tmp_path),
    ])
    result = await fuzz_interactions.run(opts)
    assert result["bot_alive"]
    assert result["db_changed"] == []
    assert sorted(result["games"]) == registry.ids()
    for game, figures in result["games"].items():
        assert figures["interactions"] == COUNT, game
        assert figures["valid_sent"] > COUNT // 2, game
        assert figures["problems"] == [], (game, figures["problems"])
        slow_public = figures["counts"].get(fuzz_interactions.PUBLIC_WAIT, 0)
        assert figures["answered"] + slow_public == figures["valid_sent"], (game, figures)
        assert figures["db_changed"] == [], (game, figures.get("db_diff"))
        assert figures["tracebacks_valid_phase"] == [], game
        assert figures["counts"].get("forged_press", 0) > 0, game
    done, total = result["tables_answering"].split("/")
    assert done == total
    assert fuzz_interactions.passed(result)
