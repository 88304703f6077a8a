"""Attacks on the real bot through the local Discord stand-in (the security issue).

Each test does what an attacker did — a creator taking a present player's seat, a member
of another server pressing forged buttons, a flood of refused thread requests, a
spectator re-posting the board, a burst of joins and leaves, a step sent twice at once —
and checks both the answer and that the game as stored did not change.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.games.civsets.engine import GAME as CIVSETS
from tests.contract import hidden_from
from tests.fakediscord import FakeUser, Message
from tests.secret_scan import leaks, received
from tests.test_e2e_game import World, open_game, player_of, world
from tests.test_e2e_limits import travel
from tests.test_e2e_players import seat_named

pytestmark = pytest.mark.slow

ELSEWHERE = "belongs to a game in another channel"
MOVED_ON = "This board has moved on"


def stored(w: World) -> tuple[Any, ...]:
    """The latest game as the bot stored it: status, version, state, seats, log length."""
    with sqlite3.connect(w.bot.db_path) as db:
        game_id, status, version, state = db.execute(
            "SELECT id, status, version, state FROM games ORDER BY id DESC LIMIT 1").fetchone()
        seats = db.execute("SELECT seat, user_id, resigned FROM seats WHERE game_id = ? "
                           "ORDER BY seat", (game_id,)).fetchall()
        steps = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone = 0",
                           (game_id,)).fetchone()[0]
    return status, version, state, seats, steps


def game_id_of(message: Message) -> int:
    """The game a bot message's buttons belong to."""
    return int(message.custom_ids[0].split(":")[1])


async def test_a_creator_cannot_take_a_present_players_seat(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob, carol, mallory = (w.user(n) for n in ("alice", "bob", "carol", "mallory"))
        await open_game(w, alice, [bob, carol], game="civsets", title="Civilizations")
        status = (await (await alice.slash("game status", channel=w.channel)).final()).text
        seat = seat_named(status, "bob")
        before = stored(w)
        mark = w.fake.mark()
        refused = await (await alice.slash("game replace", channel=w.channel, seat=seat,
                                           player=mallory)).final()
        assert refused.ephemeral and "bob is still playing this seat" in refused.text
        assert "has left the server" in refused.text and "72 h" in refused.text, refused.text
        request = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "asks you to hand seat" in m.text, after=mark)
        assert request.mentions(bob.id) and not request.mentions(mallory.id), request.text
        assert stored(w) == before

        panel = await (await mallory.slash("game panel", channel=w.channel)).final()
        assert panel.ephemeral and not [c for c in panel.custom_ids if ":a" in c or ":sel" in c]
        played = await (await mallory.slash("play", channel=w.channel, action="pass")).final()
        assert played.ephemeral and "not playing" in played.text, played.text
        not_hers = await (await mallory.press(request, request.button(
            "Hand over my seat")["custom_id"])).final()
        assert not_hers.ephemeral and "Only bob" in not_hers.text, not_hers.text
        assert stored(w) == before
        state = json.loads(before[2])
        secret = hidden_from(CIVSETS.secrets(state), None, len(before[3]))
        assert secret and leaks(received(w.fake, mallory), set(secret)) == []

        kept = await (await bob.press(request, request.button("Keep my seat")["custom_id"])
                      ).final()
        assert "bob keeps seat" in kept.text and not kept.custom_ids, kept.text
        assert stored(w) == before

        mark = w.fake.mark()
        await (await alice.slash("game replace", channel=w.channel, seat=seat,
                                 player=mallory)).final()
        again = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "asks you to hand seat" in m.text, after=mark)
        handed = await (await bob.press(again, again.button("Hand over my seat")["custom_id"])
                        ).final()
        assert not handed.ephemeral and handed.mentions(mallory.id), handed.text
        assert stored(w)[3][seat - 1][1] == mallory.id


async def test_buttons_work_only_in_their_games_channel(tmp_path: Path) -> None:
    """Real buttons of a game pressed with another server's or another channel's context
    (what a modified client could claim) are refused and change nothing."""
    async with world(tmp_path) as w:
        alice, bob, mallory = w.user("alice"), w.user("bob"), w.user("mallory")
        other = w.fake.guild("Elsewhere", channels=("general",))
        eve = w.fake.user("eve", guild=other)
        elsewhere, side = other.text_channels()[0], w.guild.text_channels()[1]
        attackers = ((eve, elsewhere), (mallory, side))
        lobby = await (await alice.slash("game new", channel=w.channel, game="ur",
                                         ai=1)).final()
        before = stored(w)
        for user, channel in attackers:
            for label in ("Join", "Start"):
                pressed = await (await user.press(lobby, lobby.button(label)["custom_id"],
                                                  channel=channel)).final()
                assert pressed.ephemeral and ELSEWHERE in pressed.text, pressed.text
        assert stored(w) == before

        await (await bob.slash("game join", channel=w.channel)).final()
        mark = w.fake.mark()
        await (await alice.slash("game start", channel=w.channel)).final()
        post = await w.next_board(mark)
        while (player := player_of(post, [alice, bob])) is None:
            post = await w.next_board(post.seq)
        panel = await (await player.press(post, post.button("Take my turn")["custom_id"])
                       ).final()
        before = stored(w)
        targets = [(post, c) for c in post.custom_ids] + [(panel, c) for c in panel.custom_ids]
        assert len(targets) >= 4
        for user, channel in attackers:
            for message, custom_id in targets:
                component = message.component(custom_id) or {}
                if component.get("type") == 3:
                    values = [component["options"][0]["value"]]
                    sent = await user.select(message, custom_id, values, channel=channel)
                else:
                    sent = await user.press(message, custom_id, channel=channel)
                pressed = await sent.final()
                assert pressed.ephemeral and ELSEWHERE in pressed.text, (custom_id,
                                                                         pressed.text)
        assert stored(w) == before


async def test_refused_games_open_no_thread_and_count_against_the_cooldown(
        tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_NEW_GAME_COOLDOWN_SECONDS="30") as w:
        alice = w.user("alice")
        answers = []
        for _ in range(5):
            answers.append(await (await alice.slash(
                "game new", channel=w.channel, game="ur", ai=5, thread=True)).final())
        for _ in range(3):
            answers.append(await (await alice.slash(
                "game new", channel=w.channel, game="ur", options="speed=fast",
                thread=True)).final())
        assert all(a.ephemeral for a in answers)
        assert all("at most 3" in a.text for a in answers[:3]), [a.text for a in answers[:3]]
        assert all("attempts to open a game were refused" in a.text for a in answers[3:]), \
            [a.text for a in answers[3:]]
        assert w.fake.requests["POST /channels/{id}/threads"] == 0
        with sqlite3.connect(w.bot.db_path) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
        travel(w, 31)
        opened = await (await alice.slash("game new", channel=w.channel, game="ur",
                                          thread=True)).final()
        assert "Your game is open in" in opened.text, opened.text
        assert w.fake.requests["POST /channels/{id}/threads"] == 1


async def test_the_board_is_reposted_once_a_minute_and_lobby_bursts_fold(
        tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_REPOST_SECONDS="60") as w:
        alice, bob, spectator = w.user("alice"), w.user("bob"), w.user("sam")
        lobby = await (await alice.slash("game new", channel=w.channel, game="ur",
                                         ai=1)).final()
        mark = w.fake.mark()
        patch = "PATCH /channels/{id}/messages/{id}"
        edits = w.fake.requests[patch]
        for _ in range(4):
            await (await bob.slash("game join", channel=w.channel)).final()
            left = await (await bob.slash("game leave", channel=w.channel)).final()
            assert left.ephemeral and "You left" in left.text, left.text
        await (await bob.slash("game join", channel=w.channel)).final()
        await w.fake.wait_until(lambda: w.fake.requests[patch] - edits >= 2,
                                what="the folded edit")
        assert w.posts(after=mark) == []
        assert w.fake.requests[patch] - edits == 2     # the first change, then the rest folded
        assert "bob" in w.fake.messages[lobby.id].text

        await (await alice.slash("game start", channel=w.channel)).final()
        await w.next_board(mark)
        mark = w.fake.mark()
        answers = [await (await spectator.slash("game board", channel=w.channel)).final()
                   for _ in range(12)]
        public = [m for m in w.posts(after=mark) if m.shows_image
                  and m.interaction is not None]           # not the AI's turn posts
        assert len(public) == 1 and not answers[0].ephemeral
        assert all(a.ephemeral and a.shows_image and "Only you see this board" in a.text
                   for a in answers[1:]), answers[1].text


async def test_a_step_sent_twice_at_once_is_played_once(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.user("alice"), w.user("bob")
        post = await open_game(w, alice, [bob], ai=1)
        for typed in (False, True):
            while (player := player_of(post, [alice, bob])) is None:
                post = await w.next_board(post.seq)
            choices = await player.autocomplete("play", "action", channel=w.channel)
            value = choices[0]["value"]
            assert " #v" in value and value.split(" #v")[0] not in ("", "undo")
            if typed:
                value = value.split(" #v")[0]
            steps = stored(w)[4]
            first = await player.slash("play", channel=w.channel, action=value)
            second = await player.slash("play", channel=w.channel, action=value)
            answers = [await first.final(), await second.final()]
            assert stored(w)[4] == steps + 1, [a.text for a in answers]
            texts = [a.text for a in answers]
            assert sum(t.startswith("✓") for t in texts) == 1, texts     # played once
            other = next(t for t in texts if not t.startswith("✓"))
            # a typed step has no version: sent after the first was played (a loaded machine),
            # it is judged on the new position and refused; with a version it has moved on
            assert MOVED_ON in other or (typed and "You could play:" in other), texts
            assert all(a.ephemeral for a in answers)
            mark = w.fake.mark()
            await finish_turn(w, player)
            post = await w.next_board(mark)


async def finish_turn(w: World, user: FakeUser) -> None:
    """Play the first offered step until the turn ends."""
    for _ in range(60):
        choices = await user.autocomplete("play", "action", channel=w.channel)
        if not choices:
            return
        end = next((c for c in choices if c["value"].startswith("end ")), choices[0])
        await (await user.slash("play", channel=w.channel, action=end["value"])).final()
