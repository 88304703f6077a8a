"""After the Flood in the terminal (``python -m dingir.local flood ...``)."""

from __future__ import annotations

import functools
import io
import json
import sys

import pytest

from bot import ai
from dingir import local


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         argv: list[str], stdin: str = "") -> tuple[int, list[str]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = local.main(argv)
    return status, capsys.readouterr().out.splitlines()


@pytest.mark.slow
def test_an_all_ai_game_plays_five_rounds_and_prints_the_json_result_last(
        tmp_path, capsys, monkeypatch) -> None:
    # the full AI takes 20 s a game: the terminal's loop is the same with the fast one
    monkeypatch.setattr(local.ai, "choose", functools.partial(ai.choose,
                                                              budget=ai.FAST_BUDGET))
    status, out = _run(capsys, monkeypatch, ["flood", "--players", "3", "--seed", "1",
                                             "--ai", "all", "--out", str(tmp_path)])
    assert status == local.EXIT_OK
    assert out[0] == "After the Flood, 3 players, seed 1."
    result = json.loads(out[-1])
    scores = result["scores"]
    assert set(scores) == {"1", "2", "3"} and len(result["winners"]) == 1
    assert scores[str(result["winners"][0])] == max(scores.values()) > 0
    assert any(": build " in line for line in out)        # cities were built
    assert any(": empire " in line for line in out)       # empires initiated
    assert any("Round 5 of 5 begins" in line for line in out)
    assert (tmp_path / "final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_human_seat_sees_its_steps_and_a_refusal(capsys, monkeypatch) -> None:
    status, out = _run(capsys, monkeypatch, ["flood", "--seed", "3", "--ai", "2,3"],
                       "build atlantis\nhelp\nquit\n")
    assert status == local.EXIT_STOPPED
    assert any(line.startswith("'build atlantis' refused: ") for line in out)
    assert any(line.startswith("  build sippar ") for line in out)
    # AI 2 initiated Akkad in Uruk: « ne contenant pas de cité ni d'armée ennemie »
    assert any(line.startswith("AI 2: march 1 → places 1 army in Uruk") for line in out)
    assert not any(line.startswith("  build uruk ") for line in out)
    assert any(line.startswith("  pass ") for line in out)
    assert out[-1] == "Game abandoned."
