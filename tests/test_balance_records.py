"""The balance runs keep each game they finish and resume where they stopped."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from benchmarks import mesopotamia_balance, solo_modes
from benchmarks.balance import (
    ROOT,
    adopt,
    append_record,
    codes_counting_as,
    counted_games,
    fingerprint,
    load_lines,
    load_records,
)
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
    among them the wins by start region; so does a run of newer code that adopts them."""
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
    record = load_lines(tmp_path / "g.jsonl")[0]                # older code: adopted once replayed
    old = {**record, "code": "old:" + record["code"].partition(":")[2]}
    (tmp_path / "g.jsonl").write_text(json.dumps(old) + "\n")
    mesopotamia_balance.main([*args, "--adopt", "1"])
    third = json.loads((tmp_path / "figures.json").read_text())
    assert third["played_now"] == 0 and third["by_players"] == first["by_players"]
    assert load_lines(tmp_path / "g.jsonl")[-1] == {"adopted": old["code"], "code": record["code"],
                                                    "players": 2, "checked": [0]}


def test_a_solo_run_resumes_and_adopts_only_what_replays_alike(tmp_path: Path) -> None:
    """A second solo run plays no game the first recorded; records of other code count only
    once a replay repeats them (winner, rounds, steps), and only for their variant."""
    path, args = tmp_path / "solo.jsonl", ["--variant", "mode=siege", "--workers", "1"]
    out = ["--json", str(tmp_path / "solo.json"), "--records", str(path)]
    assert solo_modes.main(["--games", "2", *args, *out]) == 0
    assert solo_modes.main(["--games", "2", *args, *out]) == 0
    lines = load_lines(path)
    assert [line["seed"] for line in lines] == [0, 1]
    settings = lines[0]["code"].partition(":")[2]
    old = f"old:{settings}"
    path.write_text("".join(json.dumps({**line, "code": old}) + "\n" for line in lines))
    forged = {**lines[1], "code": old, "seed": 2, "rounds": lines[1]["rounds"] + 1}
    append_record(path, forged)
    assert solo_modes.main(["--games", "2", "--adopt", "2", *args, *out]) == 0
    code = load_lines(path)[-1]["code"]
    assert old in codes_counting_as(code, load_lines(path), {"variant": "mode=siege"})
    assert codes_counting_as(code, load_lines(path), {"variant": "automaton=igigi"}) == {code}
    assert len(load_lines(path)) == 4                   # adopted: no game played again
    with ThreadPoolExecutor(1) as pool:
        replay = partial(solo_modes.replay, pool, "mode=siege", "quick")
        adopted = adopt(path, f"new:{settings}", {"variant": "mode=siege"}, 3, replay,
                        solo_modes.PLAYED)
    assert not adopted                                  # seed 2 was forged: not adopted


def _game(code: str, seed: int, players: int = 2) -> dict[str, Any]:
    return {"seed": seed, "players": players, "winners": [seed % players], "rounds": 10 + seed,
            "seconds": 1.5, "code": code}


def test_older_records_count_once_replays_of_their_group_repeat(tmp_path: Path) -> None:
    """The games of a group counting for the newest other code of the same settings are
    replayed (K of them, in order); when every named field repeats, an adoption line makes all
    of them count for the new code (not those of another group); a replay that differs in one
    field, or a field the records lack, adopts nothing."""
    path = tmp_path / "games.jsonl"
    for record in ([_game("a:s", seed) for seed in range(3)] + [_game("a:s", 0, players=3)]
                   + [_game("z:other", 0)]):
        append_record(path, record)
    asked: list[list[int]] = []

    def replay(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        asked.append([r["seed"] for r in records])
        return [{**r, "winners": tuple(r["winners"]), "seconds": 9.0, "code": "b:s"}
                for r in records]

    def late(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**r, "rounds": r["rounds"] + (r["seed"] == 1)} for r in records]

    played = ("winners", "rounds")
    assert not adopt(path, "b:s", {"players": 2}, 2, late, played)
    assert load_lines(path)[-1] == _game("z:other", 0)          # nothing written
    assert counted_games(load_lines(path), "b:s", {"players": 2}) == []
    assert adopt(path, "b:s", {"players": 2}, 2, replay, played)
    assert asked == [[0, 1]]
    assert load_lines(path)[-1] == {"adopted": "a:s", "code": "b:s", "players": 2,
                                    "checked": [0, 1]}
    lines = load_lines(path)
    assert counted_games(lines, "b:s", {"players": 2}) == [_game("a:s", s) for s in range(3)]
    assert counted_games(lines, "b:s", {"players": 3}) == []
    assert not adopt(path, "b:s", {"players": 2}, 2, replay, played)   # nothing older left
    assert not adopt(path, "c:s", {"players": 2}, 2, replay, ("turns",))  # never recorded
    assert adopt(path, "c:s", {"players": 2}, 3, replay, played)   # b, with what b adopted
    assert asked[-1] == [0, 1, 2] and load_lines(path)[-1]["adopted"] == "b:s"
    assert len(counted_games(load_lines(path), "c:s", {"players": 2})) == 3


def test_a_newer_code_that_plays_otherwise_does_not_hide_an_older_one(tmp_path: Path) -> None:
    """Records of a design tried and left (newest, plays otherwise) are passed over: the older
    code whose games replay alike is adopted."""
    path = tmp_path / "games.jsonl"
    for record in [_game("a:s", 0), _game("a:s", 1), _game("tried:s", 0)]:
        append_record(path, record)

    def replay(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**r, "rounds": r["rounds"] + (r["code"] == "tried:s")} for r in records]

    assert adopt(path, "b:s", {"players": 2}, 2, replay, ("winners", "rounds"))
    assert load_lines(path)[-1]["adopted"] == "a:s"
    assert counted_games(load_lines(path), "b:s", {"players": 2}) == [_game("a:s", 0),
                                                                      _game("a:s", 1)]


def test_adoptions_chain_from_code_to_code() -> None:
    """Code c adopted b which adopted a: a's games count for c, not for b's other group."""
    lines = [_game("a:s", 0), {"adopted": "a:s", "code": "b:s", "players": 2, "checked": [0]},
             {"adopted": "b:s", "code": "c:s", "players": 2, "checked": [0]},
             {"adopted": "x:s", "code": "b:s", "players": 3, "checked": [0]}]
    assert codes_counting_as("c:s", lines, {"players": 2}) == {"a:s", "b:s", "c:s"}
    assert codes_counting_as("c:s", lines, {"players": 3}) == {"c:s"}
    assert counted_games(lines, "c:s", {"players": 2}) == [_game("a:s", 0)]
