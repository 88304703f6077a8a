"""A short run of the bad-input fuzzer (benchmarks/fuzz_interactions.py) so it keeps working.

Some hundreds of bad interactions against ``python -m bot``: the bot stays up, answers
each one Discord could send privately and clearly, changes no game, logs no traceback.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks import fuzz_interactions


async def test_bad_input_changes_nothing_and_gets_private_answers(tmp_path: Path) -> None:
    opts = fuzz_interactions.options([
        "--count", "300", "--tables", "3", "--seed", "5", "--workdir", str(tmp_path),
    ])
    result = await fuzz_interactions.run(opts)
    assert result["bot_alive"]
    assert result["interactions"] == 300
    assert result["valid_sent"] > 150
    assert result["problems"] == [], result["problems"]
    assert result["db_changed"] == [], result.get("db_diff")
    assert result["tracebacks_valid_phase"] == []
    done, total = result["tables_answering"].split("/")
    assert done == total
    assert fuzz_interactions.passed(result)
