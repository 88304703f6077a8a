"""End to end: turn messages that Discord refuses or fails to take. A refused image goes
out as text; a channel that refuses the text too pauses the game and its creator is told;
after server errors the post is tried again, and a missing turn message is posted again
by the periodic check."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.test_e2e_game import open_game, player_of, turn_by_play, world

pytestmark = pytest.mark.slow

POSTS = "POST /channels/*/messages"


async def test_a_refused_board_goes_out_as_text_and_the_game_goes_on(tmp_path: Path) -> None:
    rng = random.Random(2)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        player = player_of(await open_game(w, users[0], users[1:]), users)
        assert player is not None
        fault = w.fake.fail_next(POSTS, status=413)          # the file is too large
        mark = w.fake.mark()
        await turn_by_play(w, player, rng)
        text = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "could not be posted" in m.text, after=mark)
        assert fault.hits == 1 and not text.pngs and text.button("Take my turn")
        following = player_of(text, users)
        assert following is not None
        mark = w.fake.mark()
        await turn_by_play(w, following, rng)                 # the game goes on
        assert (await w.next_board(mark)).pngs


async def test_a_channel_that_refuses_posts_pauses_the_game_and_tells_the_creator(
        tmp_path: Path) -> None:
    rng = random.Random(2)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        player = player_of(await open_game(w, users[0], users[1:]), users)
        assert player is not None
        w.fake.fail_next(POSTS, status=400, count=2)          # a locked thread: no text either
        await turn_by_play(w, player, rng)
        dm = await w.fake.wait_for_channel_message(w.fake.dm_channel(users[0].user))
        assert "refuses my posts" in dm.text and w.channel.mention in dm.text, dm.text
        status = await (await users[1].slash("game status", channel=w.channel)).final()
        assert "paused" in status.text


async def test_a_post_lost_to_server_errors_is_posted_again_by_the_periodic_check(
        tmp_path: Path) -> None:
    rng = random.Random(2)
    async with world(tmp_path, DINGIR_POST_RETRY_SECONDS="0.05") as w:
        await w.fake.wait_until(lambda: "ready as" in w.bot.output(), timeout=60,
                                what="the bot's resume of missing posts at ready, done")
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        player = player_of(await open_game(w, users[0], users[1:]), users)
        assert player is not None
        fault = w.fake.fail_next(POSTS, status=503, count=6)  # board and text, 3 tries each
        mark = w.fake.mark()
        await turn_by_play(w, player, rng)
        await w.fake.wait_until(lambda: fault.hits == 6, what="six failed posts")
        await w.rounds()                                      # several rounds: too early
        assert w.posts(mark) == []
        w.clock_file.write_text("61")                         # a minute after the turn ended
        board = await w.next_board(mark)
        assert player_of(board, users) not in (None, player), board.text
        await w.rounds()
        assert [m for m in w.posts(mark) if m.pngs] == [board]    # posted once
