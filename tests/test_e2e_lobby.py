"""End to end: what players found in the lobby and around a turn (issue "What players
found"): one lobby message edited in place, resignations that move nothing or end the
game clearly, ``/game board`` without a button to press, ``/play undo``, and the final
message naming each player in ranking order."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Outcome, Text
from bot.records import GameRecord, SeatInfo
from cogs.posting import final_text
from tests.test_e2e_game import player_of, world

pytestmark = pytest.mark.slow


async def test_one_lobby_message_is_edited_as_players_join_and_start(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann, bob, cid = w.user("ann"), w.user("bob"), w.user("cid")
        lobby = await (await ann.slash("game new", channel=w.channel, game="ur")).final()
        joined = await (await bob.slash("game join", channel=w.channel)).final()
        assert joined.ephemeral and "bob" in joined.text
        pressed = await cid.press(lobby, lobby.button("Join")["custom_id"])
        await pressed.response()
        await w.fake.wait_until(lambda: "cid" in lobby.text, what="the lobby edit")
        assert "bob" in lobby.text and "cid" in lobby.text
        lobbies = [m for m in w.posts() if "Join" in [b.get("label") for b in m.buttons]]
        assert lobbies == [lobby]
        mark = w.fake.mark()
        await (await ann.slash("game start", channel=w.channel)).final()
        await w.next_board(mark)
        await w.fake.wait_until(lambda: not lobby.buttons, what="the lobby closed")


async def test_the_start_says_who_begins_and_a_spectator_is_told_they_watch(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann, bob, sam = w.user("ann"), w.user("bob", locale="fr"), w.user("sam")
        await (await ann.slash("game new", channel=w.channel, game="ur", ai=1)).final()
        await (await bob.slash("game join", channel=w.channel)).final()
        mark = w.fake.mark()
        started = await (await bob.slash("game start", channel=w.channel)).final()
        assert "Only the game's creator" in started.text or "Seul" in started.text
        started = await (await ann.slash("game start", channel=w.channel)).final()
        post = await w.next_board(mark)
        first = player_of(post, [ann, bob])
        name = first.name if first is not None else "AI 1"
        assert f"{name} plays first." in started.text, started.text
        while player_of(post, [ann, bob]) is None:        # an AI begins
            post = await w.next_board(post.seq)
        panel = await (await sam.press(post, post.button("Take my turn")["custom_id"])).final()
        assert panel.ephemeral and "You are watching this game" in panel.text, panel.text
        assert panel.shows_image and "Now playing:" in panel.text, panel.text
        follow = await (await sam.press(panel, panel.button("Follow this game")["custom_id"])
                        ).final()
        assert follow.ephemeral and "You follow" in follow.text, follow.text


async def test_resigning_out_of_turn_moves_nothing_and_the_last_human_ends_the_game(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann, bob = w.user("ann"), w.user("bob")
        await (await ann.slash("game new", channel=w.channel, game="ur", ai=1)).final()
        await (await bob.slash("game join", channel=w.channel)).final()
        mark = w.fake.mark()
        await (await ann.slash("game start", channel=w.channel)).final()
        post = await w.next_board(mark)
        while player_of(post, [ann, bob]) is None:        # an AI begins
            post = await w.next_board(post.seq)
        playing = player_of(post, [ann, bob])
        other = bob if playing is ann else ann
        mark = w.fake.mark()
        resigned = await (await other.slash("game resign", channel=w.channel)).final()
        assert "resigned" in resigned.text
        await (await other.slash("game status", channel=w.channel)).final()
        assert not [m for m in w.posts(after=mark) if m.pngs]      # no board, no new ping
        board = await (await playing.slash("game board", channel=w.channel)).final()
        assert "press **Take my turn**" not in board.text and "latest turn message" in board.text
        undone = await (await playing.slash("play", channel=w.channel, action="undo")).final()
        assert undone.ephemeral and "undo" in undone.text.lower()   # nothing to take back yet
        last = await (await playing.slash("game resign", channel=w.channel)).final()
        assert "no human player is left" in last.text and "without a result" in last.text


def test_the_final_message_names_each_player_in_ranking_order() -> None:
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="ur", status="finished",
                        creator_id=1, options={}, seed=1,
                        seats=[SeatInfo(0, 1, "Ann"), SeatInfo(1, None, "AI 1"),
                               SeatInfo(2, 3, "Cid")], state=None, version=1)
    details = tuple(Text.of("core.seat", seat=s) for s in range(3))
    outcome = Outcome((5, 9, 7), ((1,), (2,), (0,)), details=details)
    text = final_text(record, outcome, "en")
    lines = [line for line in text.splitlines() if line.startswith("·")]
    assert [line.split("**")[1] for line in lines] == ["🤖 AI 1", "Cid", "Ann"]
    assert "AI 1 (AI)" not in text
