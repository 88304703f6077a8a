"""The balance runs keep each game they finish and resume where they stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import mesopotamia_balance, solo_modes
from benchmarks.balance import ROOT, append_record, fingerprint, load_records
from benchmarks.contract_playouts import checked_code
from host import registry


def test_records_are_counted_only_for_the_code_that_played_them(tmp_path: Path) -> None:
    """A record of other code (another fingerprint) is not loaded; a missing file is none."""
    path = tmp_path / "games.jsonl"
    assert load_records(path, "a") == []
    append_record(path, {"seed": 0, "code": "a"})
    append_record(path, {"seed": 1, "code": "b"})
    assert load_records(path, "a") == [{"seed": 0, "code": "a"}]


def test_a_fingerprint_covers_files_and_folders() -> None:
    """A file named by itself and a folder's files both count: leaving either out changes the
    fingerprint."""
    code = ("bot/games/mesopotamia/data.py", "data/mesopotamia")
    assert fingerprint(code) != fingerprint(code[:1]) != fingerprint(code[1:])
    assert fingerprint(["bot/games/mesopotamia/**/*.py"]) == fingerprint(["bot/games/mesopotamia"])


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_a_contract_record_names_the_games_rules_pictures_and_words(game: str) -> None:
    """Every pattern of a registered game's checked code names files (a renamed module is not
    silently left out); the game's rules, renderer and words are among them, the Discord layer
    and the other games are not."""
    files = {p.relative_to(ROOT).as_posix() for pattern in checked_code(game)
             for p in ROOT.glob(pattern)}
    assert all(any(ROOT.glob(pattern)) for pattern in checked_code(game))
    assert {f"bot/games/{game}", f"data/{game}", f"render/{game}.py",
            f"data/locales/fr/{game}.json"} <= files
    others = set(registry.GAMES) - {game}
    assert not [f for f in files if f.startswith("cogs/") or "service" in f
                or any(f"/{other}" in f for other in others)]


@pytest.mark.slow
def test_a_balance_run_resumes_from_its_records(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A second run of the same games plays none of them again and reports the same figures,
    among them the wins by start region."""
    args = ["--games", "1", "--players", "2", "--workers", "1",
            "--json", str(tmp_path / "figures.json"), "--records", str(tmp_path / "g.jsonl")]
    mesopotamia_balance.main(args)
    first = json.loads((tmp_path / "figures.json").read_text())
    mesopotamia_balance.main(args)
    second = json.loads((tmp_path / "figures.json").read_text())
    assert (first["played_now"], second["played_now"]) == (1, 0)
    assert first["by_players"] == second["by_players"]
    regions = first["by_players"]["2"]["wins_by_start"]   # the winner's start region won its game
    assert first["by_players"]["2"]["start_games"] == {r: 1 for r in regions} and len(regions) == 2
    assert sorted(r["share"] for r in regions.values()) == [0.0, 1.0]
    assert len((tmp_path / "g.jsonl").read_text().splitlines()) == 1
    assert "1 games (0 played now" in capsys.readouterr().out


def test_a_solo_run_resumes_and_adopts_only_what_replays_alike(tmp_path: Path) -> None:
    """A second solo run plays no game the first recorded; records of other code count only
    once a replay repeats them (winner, rounds, steps), and only for their variant."""
    path, args = tmp_path / "solo.jsonl", ["--variant", "mode=siege", "--workers", "1"]
    out = ["--json", str(tmp_path / "solo.json"), "--records", str(path)]
    assert solo_modes.main(["--games", "2", *args, *out]) == 0
    assert solo_modes.main(["--games", "2", *args, *out]) == 0
    lines = solo_modes.load(path)
    assert [line["seed"] for line in lines] == [0, 1]
    path.write_text("".join(json.dumps({**line, "code": "old"}) + "\n" for line in lines))
    forged = {**lines[1], "code": "old", "seed": 2, "rounds": lines[1]["rounds"] + 1}
    append_record(path, forged)
    assert solo_modes.main(["--games", "2", "--adopt", "2", *args, *out]) == 0
    code = solo_modes.load(path)[-1]["code"]
    assert "old" in solo_modes.codes_counting_as(code, solo_modes.load(path), "mode=siege")
    assert solo_modes.codes_counting_as(code, solo_modes.load(path), "automaton=igigi") == {code}
    assert len(solo_modes.load(path)) == 4              # adopted: no game played again
    adopt = solo_modes.adopt(path, "new", "mode=siege", 3, "quick")
    assert not adopt                                    # seed 2 was forged: not adopted
