"""dingir.local: terminal play of any registered game (the toy game here, Ur at the end)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from dingir import local
from host import registry
from render.context import RenderContext
from tests import bazaar
from tests.bazaar.engine import GAME as BAZAAR
from tests.toy_game import GAME, RaceGame

ROOT = Path(__file__).resolve().parent.parent


class _TinyRenderer:
    """A stand-in renderer: a small image whose width is the number of seats."""

    def image(self, view: dict[str, Any], ctx: RenderContext) -> Image.Image:
        return Image.new("RGB", (len(ctx.names), 1))

    def png(self, view: dict[str, Any], ctx: RenderContext) -> bytes:
        out = io.BytesIO()
        self.image(view, ctx).save(out, "PNG")
        return out.getvalue()

    def text(self, view: dict[str, Any], ctx: RenderContext) -> str:
        return " ".join(f"{name}={total}" for name, total in zip(ctx.names, view["totals"],
                                                                 strict=True))


def _host(monkeypatch: pytest.MonkeyPatch, entry: registry.GameEntry) -> None:
    """Host ``entry``'s game for this test (in the registry and its catalogue)."""
    monkeypatch.setitem(registry.GAMES, entry.engine.meta.id, entry)
    monkeypatch.setitem(registry.CATALOGUE.engines, entry.engine.meta.id, entry.engine)


@pytest.fixture(autouse=True)
def _race(monkeypatch: pytest.MonkeyPatch) -> None:
    _host(monkeypatch, registry.GameEntry(GAME, _TinyRenderer()))


def _run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str = "",
) -> tuple[int, list[str], str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = local.main(argv)
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def _first_seat(seed: int, players: int) -> int:
    """The 1-based seat that plays first in the toy game with ``seed``."""
    return int(GAME.active(GAME.setup(seed, players, {}))[0]) + 1


def test_an_all_ai_game_ends_with_a_json_line(capsys, monkeypatch) -> None:
    status, out, _ = _run(capsys, monkeypatch, ["race", "--players", "3", "--seed", "7",
                                                "--ai", "all"])
    assert status == local.EXIT_OK
    result = json.loads(out[-1])
    assert set(result["scores"]) == {"1", "2", "3"}
    assert len(result["winners"]) == 1
    assert result["scores"][str(result["winners"][0])] >= 10
    assert out[0] == "Race (test game), 3 players, seed 7."


def test_piped_steps_play_a_human_seat_to_the_end(capsys, monkeypatch) -> None:
    steps = "add 2\nadd 2\nend\n" * 5
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "3", "--ai", "2"], steps)
    assert status == local.EXIT_OK
    assert "Seat 1: add 2 → add 2" in out
    assert any(line.startswith("AI 2: ") for line in out)
    result = json.loads(out[-1])
    assert result["winners"] in ([1], [2])
    assert out[-2] in ("Winner: Seat 1", "Winner: AI 2")


def test_a_malformed_interactive_step_is_explained_and_asked_again(capsys, monkeypatch) -> None:
    steps = "jump 3\n" + "add 2\nadd 2\nend\n" * 5
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "3", "--ai", "2"], steps)
    refused = "'jump 3' refused: 'jump 3' is not a step: write 'add 1', 'add 2' or 'end'."
    assert any(line.startswith(refused) for line in out)
    assert status == local.EXIT_OK
    assert "Seat 1: add 2 → add 2" in out


def test_an_illegal_script_line_exits_naming_the_line(tmp_path, capsys, monkeypatch) -> None:
    script = tmp_path / "steps.txt"
    script.write_text("# seat 1 starts\n\nadd 2\nadd 1  # fine\nadd 2\nend\n", encoding="utf-8")
    seed = next(s for s in range(50) if _first_seat(s, 2) == 1)
    status, _, err = _run(capsys, monkeypatch, ["race", "--seed", str(seed), "--ai", "2",
                                                "--script", str(script)])
    assert status == local.EXIT_SCRIPT_ERROR
    assert f"{script}, line 5: 'add 2' refused: At most two adds per turn" in err


def test_a_script_that_runs_out_stops_with_a_message(tmp_path, capsys, monkeypatch) -> None:
    script = tmp_path / "steps.txt"
    script.write_text("add 1\n", encoding="utf-8")
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "2", "--script", str(script)])
    assert status == local.EXIT_STOPPED
    assert out[-1].startswith(f"The script {script} ended after line 1 but the game is not over")


def test_undo_takes_back_own_steps_of_this_turn_only(capsys, monkeypatch) -> None:
    seed = next(s for s in range(50) if _first_seat(s, 2) == 1)
    steps = "undo\nadd 1\nadd 1\nundo\nundo\nundo\nadd 2\nadd 2\nend\nquit\n"
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", str(seed), "--ai", "2"], steps)
    assert status == local.EXIT_STOPPED
    nothing = ("'undo' refused: There is nothing to undo in this turn. (type help to list "
               "the legal steps)")     # the service's undo rule and its words
    undo_lines = [line for line in out if line.startswith(("Undone", "'undo'"))]
    assert undo_lines == [nothing, "Undone: add 1.", "Undone: add 1.", nothing]
    # After the undos seat 1 could still add twice: its turn was fully restored.
    assert out.count("Seat 1: add 2 → add 2") == 2
    assert out[-1] == "Game abandoned."


def test_undo_never_crosses_the_end_of_a_turn(capsys, monkeypatch) -> None:
    seed = next(s for s in range(50) if _first_seat(s, 2) == 1)
    steps = "add 1\nend\nundo\nquit\n"
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", str(seed), "--ai", "2"], steps)
    assert status == local.EXIT_STOPPED
    assert any(line.startswith("'undo' refused: There is nothing to undo") for line in out)
    assert not any(line.startswith("Undone") for line in out)


def test_end_of_input_stops_with_a_message(capsys, monkeypatch) -> None:
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "1"], "")
    assert status == local.EXIT_STOPPED
    assert out[-1].startswith("The input ended before the game was over")


def test_help_lists_the_legal_steps_again(capsys, monkeypatch) -> None:
    seed = next(s for s in range(50) if _first_seat(s, 2) == 1)
    _, out, _ = _run(capsys, monkeypatch, ["race", "--seed", str(seed), "--ai", "2"],
                     "help\nquit\n")
    assert out.count("  end    end the turn") == 2


def test_out_writes_a_board_after_every_turn(tmp_path, capsys, monkeypatch) -> None:
    out_dir = tmp_path / "boards"
    status, out, _ = _run(capsys, monkeypatch, ["race", "--players", "4", "--seed", "5",
                                                "--ai", "all", "--out", str(out_dir)])
    assert status == local.EXIT_OK
    turns = sum(line.endswith(": end → end the turn") for line in out)
    files = sorted(p.name for p in out_dir.iterdir())
    assert files == ["final.png", *(f"turn-{t:03d}.png" for t in range(turns + 1))]
    with Image.open(out_dir / "final.png") as image:
        assert image.size == (4, 1)  # the renderer received the four seat names


def test_french_texts(capsys, monkeypatch) -> None:
    _, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "1", "--ai", "all",
                                           "--lang", "fr"])
    assert out[-2].startswith("Vainqueur\u00a0: IA ")   # French spacing
    assert any(line.startswith("1. IA ") and line.endswith(" points") for line in out)


@pytest.mark.parametrize(
    "argv",
    [
        ["chess"],
        ["race", "--players", "9"],
        ["race", "--ai", "3"],
        ["race", "--ai", "x"],
        ["race", "--option", "target=11"],
        ["race", "--option", "speed=2"],
    ],
)
def test_bad_command_lines_are_usage_errors(argv, capsys, monkeypatch) -> None:
    with pytest.raises(SystemExit) as caught:
        _run(capsys, monkeypatch, argv)
    assert caught.value.code == local.EXIT_USAGE


def test_a_wrong_count_of_players_says_the_games_count(capsys, monkeypatch) -> None:
    with pytest.raises(SystemExit):
        _run(capsys, monkeypatch, ["flood", "--players", "4"])
    assert "is played by 3 players" in capsys.readouterr().err


def test_options_reach_the_game(capsys, monkeypatch) -> None:
    _, out, _ = _run(capsys, monkeypatch, ["race", "--seed", "1", "--ai", "all",
                                           "--option", "target=20"])
    result = json.loads(out[-1])
    assert max(result["scores"].values()) >= 20


def test_parse_ai_is_one_based() -> None:
    assert local.parse_ai("2,3", 3) == frozenset({1, 2})
    assert local.parse_ai("all", 2) == frozenset({0, 1})
    assert local.parse_ai(None, 2) == frozenset()
    with pytest.raises(ValueError):
        local.parse_ai("0", 3)


def test_ur_from_the_command_line_shows_the_legal_steps(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dingir.local", "ur", "--players", "3", "--seed", "7",
         "--ai", "2,3", "--out", str(tmp_path)],
        cwd=ROOT, input="place Z9\nhelp\nquit\n", capture_output=True, text=True,
        timeout=300, check=False,
    )
    assert done.returncode == local.EXIT_STOPPED, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "Ur, 3 players, seed 7."
    assert any(line.startswith("  place A1  ") for line in out)
    assert any(line.startswith("'place Z9' refused: ") for line in out)
    assert out[-1] == "Game abandoned."
    assert (tmp_path / "turn-000.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_illegal_ur_script_line_names_the_line(tmp_path) -> None:
    script = tmp_path / "ur.txt"
    script.write_text("# first placement\nplace A1\nplace A1\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "dingir.local", "ur", "--players", "3", "--seed", "7",
         "--script", str(script), "--lang", "fr"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == local.EXIT_SCRIPT_ERROR
    assert f"{script}, ligne " in done.stderr
    assert "«\u00a0place A1\u00a0» refusé\u00a0: " in done.stderr


def test_a_whole_ur_game_writes_a_board_per_turn(tmp_path, capsys, monkeypatch) -> None:
    # Random play keeps this quick; the AI itself is covered by test_ai.
    monkeypatch.setattr(local.ai, "choose", local.ai.random_choice)
    status, out, _ = _run(capsys, monkeypatch, ["ur", "--players", "4", "--seed", "7",
                                                "--ai", "all", "--out", str(tmp_path)])
    assert status == local.EXIT_OK
    result = json.loads(out[-1])
    assert set(result["scores"]) == {"1", "2", "3", "4"}
    assert result["winners"]
    assert all(result["scores"][str(w)] == max(result["scores"].values())
               for w in result["winners"])
    boards = sorted(tmp_path.glob("turn-*.png"))
    assert len(boards) == sum(line.startswith("Board image: ") for line in out) - 1
    assert len(boards) > 10
    assert (tmp_path / "final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _DrawingRace(RaceGame):
    """The toy game where ``add 2`` counts as a random draw: it cannot be undone."""

    def is_reversible(self, state: Any, seat: int, action: Any) -> bool:
        return bool(action.notation != "add 2")


def test_undo_never_crosses_an_irreversible_step(capsys, monkeypatch) -> None:
    _host(monkeypatch, registry.GameEntry(_DrawingRace(), _TinyRenderer()))
    seed = next(s for s in range(50) if _first_seat(s, 2) == 1)
    steps = "add 2\nadd 1\nundo\nundo\nquit\n"
    status, out, _ = _run(capsys, monkeypatch, ["race", "--seed", str(seed), "--ai", "2"], steps)
    assert status == local.EXIT_STOPPED
    assert "Undone: add 1." in out
    assert any(line.startswith("'undo' refused: This step cannot be undone") for line in out)


def test_bazaar_asks_every_active_seat_and_shows_each_its_own_goods(
        capsys, monkeypatch) -> None:
    _host(monkeypatch, bazaar.ENTRY)
    seed = 5
    state = BAZAAR.setup(seed, 2, {"rounds": "1"})
    mine, theirs = state["hands"][0][0], state["hands"][1][0]
    steps = ["roll", f"offer {mine} to 2", "board", f"give {theirs}", "end",
             "roll", "pass", "end", "bid 0", "bid 0"]
    status, out, _ = _run(capsys, monkeypatch, ["bazaar", "--players", "2", "--seed", str(seed),
                                                "--option", "rounds=1"], "\n".join(steps))
    assert status == local.EXIT_OK, out
    text = "\n".join(out)
    assert "What only Seat 1 can see:" in text and "What only Seat 2 can see:" in text
    assert "Seat 2 to play." in text                 # asked to answer the offer
    assert f"Seat 1: offer {mine} to 2 → offers " in text    # what it did, as its player sees it
    assert "Seat 2: give" in text and " → gives " in text
    assert "Round 1/1" in text                       # the text board after a turn
    result = json.loads(out[-1])
    assert set(result["scores"]) == {"1", "2"}


def test_an_all_ai_bazaar_game_ends(capsys, monkeypatch) -> None:
    _host(monkeypatch, bazaar.ENTRY)
    status, out, _ = _run(capsys, monkeypatch, ["bazaar", "--players", "4", "--seed", "3",
                                                "--ai", "all"])
    assert status == local.EXIT_OK
    assert len(json.loads(out[-1])["scores"]) == 4
    assert not [line for line in out if "→ draws" in line and "a good" not in line]


def test_a_civilizations_player_sees_only_what_their_seat_may_see(capsys, monkeypatch) -> None:
    steps = "\n".join(["decline", "refuse", "draw", "end"] * 15)   # a few refused
    status, out, _ = _run(capsys, monkeypatch, ["civsets", "--players", "3", "--seed", "4",
                                                "--ai", "2,3"], steps)
    assert status == local.EXIT_STOPPED
    theirs = [line for line in out if line.startswith(("AI 2:", "AI 3:"))]
    card_id = re.compile(r"\b(?:[a-z]+-\d\d|wild-[a-z]+|bonus-[a-z]+)\b")
    assert theirs and not [line for line in theirs if card_id.search(line)]
    assert any(" offers " in line or "swap" in line for line in theirs)   # some deals made
    assert not [line for line in theirs if re.search(r"draws (?!a card|\d)", line)]
    assert any(line.startswith("Seat 1: draw → draws ") for line in out)    # your own card
    decisions = "\n".join(out).split("Legal steps")
    assert all(block.count("Your hand") <= 1 for block in decisions)
    assert sum("Your hand" in block for block in decisions) >= 12


@pytest.mark.slow
def test_a_civilizations_game_is_ranked_by_sets_then_points(capsys, monkeypatch) -> None:
    status, out, _ = _run(capsys, monkeypatch, ["civsets", "--players", "3", "--seed", "2",
                                                "--ai", "all"])
    assert status == local.EXIT_OK
    result = json.loads(out[-1])
    ranks = [line for line in out if re.match(r"^· AI \d: \d+ sets?, \d+ points$", line)]
    assert len(ranks) == 3, out[-12:]
    ranked = [int(line.split(":")[0].split()[-1]) for line in ranks]
    assert [seat for group in result["ranking"] for seat in group] == ranked
    assert result["winners"] == result["ranking"][0]
    keys = [tuple(map(int, re.findall(r"\d+", line.split(": ", 1)[1]))) for line in ranks]
    assert keys == sorted(keys, reverse=True)      # sets first, then points


@pytest.mark.slow
def test_one_seat_plays_mesopotamia_against_the_automaton(capsys, monkeypatch) -> None:
    """Issue 27: ``--players 1 --option automaton=…``: the Automaton takes the second seat,
    named, and the game ends; a game with no opponent of its own refuses one seat."""
    status, out, _ = _run(capsys, monkeypatch, ["mesopotamia", "--players", "1", "--option",
                                                "automaton=anunnaki", "--ai", "all",
                                                "--seed", "4"])
    assert status == local.EXIT_OK and set(json.loads(out[-1])["scores"]) == {"1", "2"}
    assert any(line.startswith("· Automaton: ") for line in out)
    with pytest.raises(SystemExit):
        local.main(["ur", "--players", "1", "--ai", "all"])


@pytest.mark.parametrize(("mode", "seat"), [("siege", "Garrison of Ur"),
                                           ("guardians", "Enemy Army")])
def test_mode_plays_a_whole_solo_game_of_mesopotamia(mode, seat, capsys, monkeypatch) -> None:
    """``--mode VALUE`` is ``--option mode=VALUE``: one seat against the mode's enemy, named,
    to the end (one of the two wins)."""
    status, out, _ = _run(capsys, monkeypatch, ["mesopotamia", "--players", "1", "--mode",
                                                mode, "--ai", "all", "--seed", "5"])
    result = json.loads(out[-1])
    assert status == local.EXIT_OK and result["winners"] in ([1], [2])
    assert any(line.startswith(f"· {seat}: ") for line in out)


def test_mode_is_refused_by_a_game_without_modes_naming_the_values(capsys, monkeypatch) -> None:
    for argv, said in ((["race", "--mode", "siege"], "invalid option 'mode=siege': write"
                        " NAME=VALUE with an option of Race (test game): target"),
                       (["mesopotamia", "--players", "1", "--mode", "nope"],
                        "mode is one of duel, siege, guardians"),
                       (["mesopotamia", "--option", "dice=loaded"], "dice is one of")):
        with pytest.raises(SystemExit) as caught:
            _run(capsys, monkeypatch, argv)
        assert caught.value.code == local.EXIT_USAGE and said in capsys.readouterr().err


def test_a_table_the_rules_refuse_is_told_not_a_traceback(capsys, monkeypatch) -> None:
    """Five players without an expansion: four empires for five (R-players-5-6)."""
    status, _, err = _run(capsys, monkeypatch, ["mesopotamia", "--players", "5", "--option",
                                                "expansions=none", "--ai", "all"])
    assert status == local.EXIT_USAGE and "Traceback" not in err
    assert err.startswith("this table cannot be set up: ") and "5" in err, err
