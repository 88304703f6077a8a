"""The presentation benchmarks (benchmarks/narration.py, benchmarks/refusals.py) keep
working: their measures on small known texts, a few turns of two games through the real
bot, and 50 refusals per game. The figures are only checked to be produced and sane: the
targets of the presentation issue live in the benchmarks' results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import narration, refusals
from benchmarks.wording import flags
from tests.fakediscord.model import Channel, Message, User


def message(content: str, allowed: dict[str, object] | None = None, embed: str = "") -> Message:
    """A bot message created with ``content`` (and ``allowed_mentions``, an embed)."""
    payload: dict[str, object] = {"content": content}
    if allowed is not None:
        payload["allowed_mentions"] = allowed
    made = Message(1, Channel(2, 0, "games"), User(3, "dingir"), content=content,
                   embeds=[{"description": embed}] if embed else [])
    made.history.append(payload)
    return made


def test_pings_are_counted_as_discord_notifies() -> None:
    text = "<@11> and <@!12>, your turn"
    assert narration.pinged_ids(message(text)) == {11, 12}
    assert narration.pinged_ids(message(text, {"parse": ["users"]})) == {11, 12}
    assert narration.pinged_ids(message(text, {"parse": []})) == set()
    assert narration.pinged_ids(message(text, {"parse": [], "users": ["12"]})) == {12}
    assert narration.pinged_ids(message("hello", embed="<@11>")) == set()   # embeds never


def test_shapes_hide_names_cells_numbers_and_game_names() -> None:
    names = narration.member_names(["alice", "bob"], "en")
    one = narration.shape("🎲 **alice**: place a token on E2 (E2 0→1)", "ur", "en", names)
    other = narration.shape("🎲 **bob**: place a token on B3 (B3 1→2)", "ur", "en", names)
    assert one == other == "🎲 **<name>**: place a token on <cell> (<cell> <n>→<n>)"
    assert narration.shape("@bob builds in Nippur with Grain", "flood", "en", names) == \
        "<name> builds in <region> with <res>"
    assert narration.clauses("title\n🎲 **a**: x; y") == ["title", "🎲 **a**: x", "y"]


def test_flags_and_repeated_lines() -> None:
    assert flags("➡️ @bob, your turn: press **Take my turn** or use `/play`.", "en") == \
        {"you", "command"}
    assert flags("place A2 (A2 0→2)", "en") == {"notation"}
    assert flags("bob pose une carte", "fr") == set()
    assert flags("bob plays the card", "fr") == {"untranslated"}
    assert flags("dans l'ordre des places", "fr") == set()      # French as well
    names = narration.member_names(["alice", "bob"], "en")

    def post(text: str) -> narration.Post:
        return narration.Post(0, text, [], [], [], True)

    told = post('📣 **alice** answers right, "Zeus": takes 5 points\n➡️ @bob, your turn now')
    again = post('🎲 **alice**: challenges bob; answers right, "Zeus": takes 5 points\n'
                 "➡️ @alice, your turn now")
    assert [line for _, line in narration.repeated_lines([told, again], names)] == [
        '📣 **alice** answers right, "Zeus": takes 5 points']


@pytest.mark.slow
async def test_a_few_narrated_turns_of_two_games(tmp_path: Path) -> None:
    opts = narration.parse_args(["--games", "ur,civsets", "--langs", "en", "--turns", "4",
                                 "--out", str(tmp_path), "--json", str(tmp_path / "n.json")])
    results = await narration.main_async(opts)
    assert json.loads((tmp_path / "n.json").read_text()) == results
    for fig in results:
        assert fig["turns"] >= 4 and not fig["problems"], fig
        assert 0 < fig["posts_per_turn"] < 10 and 0 < fig["pings_per_turn"] < 10, fig
        assert 0 < fig["chars"]["median"] <= fig["chars"]["p95"] <= fig["chars"]["max"] <= 2000
        assert fig["shapes"] == len(fig["shape_list"]) > 2
        assert fig["steps"].get("play", 0) + fig["steps"].get("panel", 0) > 0
        public = (tmp_path / f"{fig['game']}-en.md").read_text()
        assert "pings @" in public and "## Shapes" in public
        assert "**#1**" in (tmp_path / f"{fig['game']}-en.private.md").read_text()


@pytest.mark.slow
def test_fifty_refusals_per_game(tmp_path: Path) -> None:
    results = refusals.main(["--count", "50", "--seeds", "3", "--json",
                             str(tmp_path / "r.json")])
    assert [fig["game"] for fig in results] == list(refusals.GAMES)
    for fig in results:
        assert fig["drawn"] == 50 and sum(k["count"] for k in fig["by_key"]) == 50, fig
        assert fig["generic"] == sum(k["count"] for k in fig["by_key"] if k["generic"])
        assert all(k["en"] and k["fr"] and k["example"] for k in fig["by_key"]), fig
        assert set(fig["kinds"]) <= set(refusals.KINDS)
