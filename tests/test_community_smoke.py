"""Short runs of the community harness (benchmarks/community.py) so it keeps working.

A few tables play Ur against ``python -m dingir`` for some seconds while the bot is
SIGKILLed and restarted once, the gateway is dropped, requests get 429/500 answers and
another process locks the database for a few seconds; then a table of each game plays
(``--mix``). The figures are not checked (performance lives in the benchmark); what is
checked is what must always hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import community


@pytest.mark.slow
async def test_a_short_community_run_loses_nothing(tmp_path: Path) -> None:
    opts = community.options([
        "--games", "3", "--duration", "20", "--think", "0.05", "--seed", "7",
        "--kills", "1", "--faults", "--lock-seconds", "6", "--baseline-steps", "60",
        "--workdir", str(tmp_path),
    ])
    result = await community.run(opts)
    checks = result["verify"]
    assert result["failed_interactions"] == 0, result["failures"]
    assert checks["acknowledged"] > 20
    assert checks["in_log_once"] == checks["acknowledged"], checks
    assert checks["lost"] == 0 and checks["doubled"] == 0, checks
    assert not checks["stuck_games"] and not checks["corrupt_games"], checks
    faults = result["faults"]
    assert faults["kills"] == 1
    assert faults["resumes"] >= faults["gateway_drops"] > 0
    assert faults["lock_windows_s"], "the database lock did not happen"
    assert faults["busy_outside_lock"] == 0
    assert faults["reminders"]["reminded"] == faults["reminders"]["channels_checked"] > 0
    assert result["bot_log"]["tracebacks"] == 0
    stand_in = result["stand_in"]
    assert stand_in["server_errors"] == stand_in["unknown_routes"] == stand_in["refused"] == 0
    assert community.passed(result)
    assert result["in_process"]["service"]["n"] > 0


@pytest.mark.slow
async def test_a_short_mixed_run_plays_every_game_and_loses_nothing(tmp_path: Path) -> None:
    """A table of each game, each with an AI seat: whoever the bot mentions acts (a trade
    offered to another player, sealed bids by several at once), nothing is lost."""
    opts = community.options([
        "--games", "4", "--duration", "20", "--think", "0.05", "--seed", "5",
        "--mix", "ur,civsets,flood,mesopotamia", "--ai-every", "1", "--no-baseline",
        "--workdir", str(tmp_path),
    ])
    result = await community.run(opts)
    assert result["failed_interactions"] == 0, result["failures"]
    assert community.passed(result)
    for game, figures in result["games"].items():
        assert figures["tables"] == 1 and figures["acknowledged"] > 10, (game, figures)
        assert figures["in_log_once"] == figures["acknowledged"], (game, figures)
        assert figures["latency"]["board"]["n"] > 0, game
    assert result["games"]["civsets"]["counts"]["calls_by_decision"] > 0   # decisions out of turn
    assert result["bot_log"]["tracebacks"] == 0


@pytest.mark.slow
async def test_two_processes_on_postgresql_lose_nothing(tmp_path: Path,
                                                        pg_database: str) -> None:
    opts = community.options([
        "--games", "6", "--duration", "15", "--think", "0.3", "--seed", "5", "--kills", "1",
        "--processes", "2", "--database", pg_database, "--no-baseline",
        "--workdir", str(tmp_path),
    ])
    both = await community.compared(opts)
    assert both["bare"]["postgresql"]["per_s"] > 0 and both["bare"]["sqlite"]["per_s"] > 0
    for name in ("sqlite", "postgresql"):
        result = both[name]
        checks = result["verify"]
        assert result["failed_interactions"] == 0, result["failures"]
        assert checks["acknowledged"] > 10 and community.passed(result), checks
        assert result["faults"]["kills"] == 1
        reminders = result["faults"]["reminders"]
        assert reminders["reminded"] == reminders["channels_checked"] > 0, reminders
        assert reminders["reminded_twice"] == 0, reminders
        assert result["bot_log"]["tracebacks"] == 0
    pg = both["postgresql"]
    assert pg["options"]["processes"] == 2
    assert "replay to their state" in pg["migration_check"][1]
    assert "PostgreSQL" in community.comparison(both)
