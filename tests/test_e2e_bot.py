"""End to end: refusals, a SIGKILL in the middle of a game, lost channels, languages, AI seats,
export/import, reminders. Each test runs `python -m dingir` against the local Discord stand-in."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest

from tests.fakediscord import FakeUser, Message, Perm, Upload
from tests.fakediscord.model import ValidationError
from tests.test_e2e_game import (
    World,
    click,
    is_panel,
    open_game,
    player_of,
    restart_after_losing_posts,
    turn_by_play,
    world,
)

pytestmark = pytest.mark.slow


async def history(w: World, user: FakeUser) -> str:
    """The text of ``/game log`` (the latest page)."""
    return (await (await user.slash("game log", channel=w.channel)).final()).text


async def first_step(w: World, user: FakeUser, rng: random.Random) -> Message:
    """Play one step of ``user``'s turn with ``/play`` (not End turn if anything else is
    possible); the private panel that answers it."""
    choices = await user.autocomplete("play", "action", "", channel=w.channel)
    steps = [c for c in choices if not c["value"].startswith("end #v")] or choices
    answer = await (await user.slash("play", channel=w.channel,
                                     action=rng.choice(steps)["value"])).final()
    assert answer.ephemeral
    return answer


async def test_wrong_player_and_malformed_action_are_refused_privately(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        order = f"{users[2].mention} 1"      # carol first, then alice (lobby seat 1), then bob
        post = await open_game(w, users[0], users[1:], order=order)
        started = w.posts()[-2].text
        assert "1. carol, 2. alice, 3. bob" in started, started
        player = player_of(post, users)
        assert player is not None
        other = next(u for u in users if u is not player)
        before = await history(w, player)
        legal = await player.autocomplete("play", "action", "", channel=w.channel)
        mark = w.fake.mark()

        wrong = await (await other.slash("play", channel=w.channel,
                                         action=legal[0]["value"])).final()
        assert wrong.ephemeral and "not your turn" in wrong.text.lower(), wrong.text
        assert player.name in wrong.text

        bad = await (await player.slash("play", channel=w.channel, action="fly to the moon")
                     ).final()
        assert bad.ephemeral, bad.text
        notation = legal[0]["value"].split(" #v")[0]        # the choice carries a version
        assert "You could play" in bad.text and notation in bad.text, bad.text
        assert "/play" in bad.text

        half = await (await player.slash("play", channel=w.channel, action="\ud83d")).final()
        assert half.ephemeral and "You could play" in half.text, half.text   # half an emoji

        with pytest.raises(ValidationError, match="length"):   # Discord enforces the limit
            await player.slash("play", channel=w.channel, action="x" * 101)
        long = await (await player.slash("play", channel=w.channel, action="x" * 100)).final()
        assert long.ephemeral and len(long.content) <= 2000

        outdated = await (await player.slash("play", channel=w.channel, validate=False,
                                             action=legal[0]["value"], colour="red")).final()
        assert outdated.ephemeral and "outdated" in outdated.text, outdated.text
        gone = await (await player.slash("chess", channel=w.channel, validate=False)).final()
        assert gone.ephemeral and "reload Discord" in gone.text, gone.text

        nothing = await other.autocomplete("play", "action", "", channel=w.channel)
        assert nothing == []
        assert await history(w, player) == before
        assert await player.autocomplete("play", "action", "", channel=w.channel) == legal
        assert w.posts(after=mark) == []

        place = next(c["value"] for c in legal if c["value"].startswith("place "))
        typed = place.split()[1].lower()
        filtered = await player.autocomplete("play", "action", typed, channel=w.channel)
        assert filtered and all(typed in c["value"].lower() or typed in c["name"].lower()
                                for c in filtered)
        assert len(filtered) < len(legal)
        played = await (await player.slash("ur place", channel=w.channel, cell=typed)).final()
        assert played.ephemeral and is_panel(played), played.text
        assert f"✓ You place a token on {typed.upper()}" in played.text, played.text
        assert await history(w, player) != before


async def test_sigkill_in_the_middle_of_a_turn_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        for _ in range(4):   # a few whole turns, to reach turns with several steps
            player = player_of(post, users)
            assert player is not None
            mark = w.fake.mark()
            await turn_by_play(w, player, rng)
            post = await w.next_board(mark)
        player = player_of(post, users)
        assert player is not None
        panel = await (await player.press(post, post.button("Take my turn")["custom_id"])).final()
        assert is_panel(panel)
        answer = await first_step(w, player, rng)
        logged = await history(w, player)
        choices = await player.autocomplete("play", "action", "", channel=w.channel)

        await w.bot.restart()            # SIGKILL, then the same database
        await w.fake.wait_synced()

        assert await history(w, player) == logged
        assert await player.autocomplete("play", "action", "", channel=w.channel) == choices
        old_step = next(c for c in panel.custom_ids if ":a" in c)
        stale = await click(w, player, panel, old_step)
        assert "moved on" in stale.text and is_panel(stale), stale.text
        reopened = await (await player.press(post, post.button("Take my turn")["custom_id"])
                          ).final()
        assert reopened.ephemeral and is_panel(reopened), reopened.text
        if is_panel(answer):
            current = await click(w, player, answer, answer.custom_ids[0])
            assert "moved on" not in current.text, current.text
        mark = w.fake.mark()
        if player_of(post, users) is player and await player.autocomplete(
                "play", "action", "", channel=w.channel):
            await turn_by_play(w, player, rng)
        nxt = await w.next_board(mark)
        assert nxt.pngs and player.name in nxt.text


async def test_a_board_lost_to_a_crash_is_posted_on_restart(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        player = player_of(post, users)
        assert player is not None
        # the crash came after the turn's step was saved, before its board went out
        again = await w.next_board(await restart_after_losing_posts(w, tmp_path))
        assert again.mentions(player.id) and again.button("Take my turn"), again.text
        await w.fake.wait_until(lambda: w.query("SELECT last_message_id FROM games")
                                == [(again.id,)], what="the repost noted")
        mark = w.fake.mark()
        readies = w.bot.output().count("ready as")   # the first start may die before its own
        await w.bot.restart()    # once posted (and noted), a restart posts nothing more
        await w.fake.wait_synced()
        await w.fake.wait_until(lambda: w.bot.output().count("ready as") == readies + 1,
                                timeout=60, what="the resume of missing posts at ready")
        await turn_by_play(w, player, random.Random(1))   # told after a (wrong) repost
        nxt = await w.next_board(mark)                    # (which would be first)
        assert nxt.text.split("\n")[0] != again.text.split("\n")[0], (nxt.text, again.text)
        assert w.posts(mark) == [nxt], [m.text for m in w.posts(mark)]


async def test_lost_channel_pauses_the_game_and_tells_the_creator(tmp_path: Path) -> None:
    rng = random.Random(1)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        player = player_of(post, users)
        assert player is not None
        w.fake.set_bot_denied(w.channel, Perm.SEND_MESSAGES)
        await turn_by_play(w, player, rng)
        dm = await w.fake.wait_for_channel_message(w.fake.dm_channel(users[0].user))
        assert "paused" in dm.text and w.channel.mention in dm.text
        status = await (await users[1].slash("game status", channel=w.channel)).final()
        assert "paused" in status.text and "Workers" not in status.text
        admin = w.fake.user("root", guild=w.guild, manage_guild=True)
        seen = await (await admin.slash("game status", channel=w.channel)).final()
        assert "Workers: 2 up, replaced 0 times" in seen.text
        refused = await (await users[1].slash("play", channel=w.channel, action="end")).final()
        assert refused.ephemeral and "paused" in refused.text.lower()


async def test_a_french_player_gets_french_answers(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        synced = await w.fake.wait_synced()
        game = next(c for c in synced if c["name"] == "game")
        assert game["name_localizations"]["fr"] == "partie"
        assert game["description_localizations"]["fr"].startswith("Ouvrir")
        w.guild.locale = "fr"                    # a French server: the posts are French too
        amelie = w.user("amelie", locale="fr")
        helped = await (await amelie.slash("help", channel=w.channel)).final()
        assert helped.ephemeral and "Lancer une partie" in helped.text
        rules = await (await amelie.slash("help", channel=w.channel, game="ur")).final()
        assert "/partie nouvelle jeu:ur" in rules.text
        none = await (await amelie.slash("game status", channel=w.channel)).final()
        assert "Il n'y a pas de partie" in none.text

        post = await open_game(w, amelie, [], ai=2)   # AI seats play by themselves
        mark = w.fake.mark()
        player = player_of(post, [amelie])
        if player is None:                       # an AI begins: wait for amelie's turn
            post = await w.fake.wait_for_channel_message(
                w.channel, lambda m: m.mentions(amelie.id) and bool(m.pngs), after=mark)
        bad = await (await amelie.slash("play", channel=w.channel, action="voler")).final()
        assert "Vous pourriez jouer" in bad.text, bad.text
        panel = await (await amelie.press(post, post.button("Jouer mon tour")["custom_id"])
                       ).final()
        assert "À vous" in panel.text
        mark = w.fake.mark()
        rng = random.Random(2)
        for _ in range(6):    # until both AIs have played a turn (setup rounds may differ)
            await turn_by_play(w, amelie, rng)
            back = await w.fake.wait_for_channel_message(
                w.channel, lambda m: m.mentions(amelie.id) and bool(m.pngs), after=mark)
            posts = [m for m in w.posts(after=mark) if m.pngs]
            mark = back.seq
            if "🤖 IA 1" in back.text and "🤖 IA 2" in back.text:
                break
        # her turn and both AI turns after it make one post, which pings her once
        assert posts == [back] and "**amelie**" in back.text, [p.text for p in posts]
        assert back.text.count(f"<@{amelie.id}>") == 1
        assert "Jouer mon tour" in [b["label"] for b in back.buttons]


async def test_export_then_import_replays_the_game(tmp_path: Path) -> None:
    rng = random.Random(5)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        for _ in range(3):
            player = player_of(post, users)
            assert player is not None
            mark = w.fake.mark()
            await turn_by_play(w, player, rng)
            post = await w.next_board(mark)
        exported = await (await users[0].slash("game export", channel=w.channel)).final()
        document = json.loads(exported.attachments[0].data)
        assert document["game"] == "ur" and len(document["log"]) >= 3
        admin = w.fake.user("root", guild=w.guild, manage_guild=True)
        games = w.guild.text_channels()[1]
        refused = await (await users[1].slash(
            "game import", channel=games, validate=False,
            file=Upload("game.json", exported.attachments[0].data))).final()
        assert refused.ephemeral
        imported = await (await admin.slash(
            "game import", channel=games,
            file=Upload("game.json", exported.attachments[0].data))).final()
        assert imported.ephemeral and "You imported" in imported.text, imported.text
        announced = await w.fake.wait_for_channel_message(games, lambda m: "📥" in m.text)
        assert "Imported a game of Ur" in announced.text, announced.text
        board = await w.fake.wait_for_channel_message(games, lambda m: bool(m.pngs))
        assert player_of(board, users) is player_of(post, users)
        listed = await (await admin.slash("game list", channel=w.channel)).final()
        assert w.channel.mention in listed.text and games.mention in listed.text


async def test_a_reminder_fires_when_the_clock_passes_the_interval(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        player = player_of(post, users)
        assert player is not None
        mark = w.fake.mark()
        w.clock_file.write_text(str(25 * 3600))
        reminder = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "⏰" in m.text, after=mark)
        assert reminder.mentions(player.id)

        opted = await (await player.slash("game notify", channel=w.channel, enabled=True)).final()
        assert opted.ephemeral
        w.clock_file.write_text(str(25 * 3600 + 49 * 3600))
        dm = await w.fake.wait_for_channel_message(w.fake.dm_channel(player.user),
                                                   lambda m: "⏰" in m.text)
        assert w.channel.mention in dm.text

        player.close_dms()                 # DMs closed: the next reminder falls back
        mark = w.fake.mark()
        w.clock_file.write_text(str(25 * 3600 + 49 * 3600 + 97 * 3600))
        fallback = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "⏰" in m.text, after=mark)
        assert fallback.mentions(player.id)

        mark = w.fake.mark()               # a turn limit that has already run out: the AI plays
        changed = await (await users[0].slash("game settings", channel=w.channel,
                                              turn_limit_hours=1.0, timeout="ai")).final()
        assert "turn limit: 1 hour;" in changed.text
        told = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "time limit has run out" in m.text, after=mark)
        assert player.name in told.text
        played = await w.next_board(told.seq)
        assert f"**{player.name}**" in played.text and not played.mentions(player.id)


async def run_bot(tmp_path: Path, **env: str) -> tuple[int, str]:
    """Run ``python -m dingir`` from an empty folder (no .env) with ``env``; exit code, output."""
    import os
    import sys

    root = Path(__file__).resolve().parent.parent
    variables = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DINGIR_"))}
    variables.update(PYTHONPATH=str(root), DINGIR_DB=str(tmp_path / "db.sqlite3"), **env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dingir", cwd=tmp_path, env=variables,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_a_missing_token_gives_one_clear_line(tmp_path: Path) -> None:
    code, out = await run_bot(tmp_path)
    assert code != 0
    assert out.strip().count("\n") == 0 and "DISCORD_TOKEN is missing" in out
    assert ".env.example" in out and "Traceback" not in out


async def test_a_rejected_token_gives_one_clear_line_and_is_never_shown(tmp_path: Path) -> None:
    from tests.fakediscord import FakeDiscord

    secret = "MTIz.not-the-right-token.c2VjcmV0"
    async with FakeDiscord() as fake:
        code, out = await run_bot(tmp_path, DISCORD_TOKEN=secret, DINGIR_LOG_LEVEL="DEBUG",
                                  DINGIR_API_BASE=fake.api_base,
                                  DINGIR_GATEWAY_URL=fake.gateway_url)
    assert code != 0
    assert "Discord rejected the token" in out and "Traceback" not in out
    assert secret not in out and "not-the-right-token" not in out


async def test_a_busy_channel_offers_a_thread_for_the_new_game(tmp_path: Path) -> None:
    async with world(tmp_path, dev_guild=True) as w:
        assert w.fake.commands[None] == [] and w.fake.commands[w.guild.id]
        alice, bob = w.user("alice"), w.user("bob")
        await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        offer = await (await bob.slash("game new", channel=w.channel, game="ur", ai=2)).final()
        assert offer.ephemeral and "already" in offer.text
        mark = w.fake.mark()
        opened = await (await bob.press(offer, offer.button("Open a thread")["custom_id"])).final()
        thread = next(c for c in w.guild.channels.values() if c.is_thread)
        assert thread.mention in opened.text
        lobby = await w.fake.wait_for_channel_message(thread, after=mark)
        assert bob.mention in lobby.text and "AI 2" in lobby.text
        started = await (await bob.slash("game start", channel=thread)).final()
        assert "bob" in started.text
        board = await w.fake.wait_for_channel_message(thread, lambda m: bool(m.pngs), after=mark)
        assert board.pngs


async def test_an_unusable_database_gives_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "db.sqlite3").write_bytes(b"this is not a database" * 100)
    code, out = await run_bot(tmp_path, DISCORD_TOKEN="MTIz.x.y")
    assert code != 0
    assert "cannot open the database" in out and "Traceback" not in out


async def test_an_unreachable_postgresql_gives_one_clear_line(tmp_path: Path) -> None:
    url = f"postgresql://dingir:s3cret@/dingir?host={tmp_path}"   # no server on that socket
    code, out = await run_bot(tmp_path, DISCORD_TOKEN="MTIz.x.y", DINGIR_DATABASE_URL=url)
    assert code != 0 and out.strip().count("\n") == 0, out
    assert "cannot open the database" in out and "DINGIR_DATABASE_URL" in out
    assert "s3cret" not in out and "Traceback" not in out


async def test_a_locked_database_never_makes_an_answer_late(tmp_path: Path) -> None:
    async with world(tmp_path) as w:     # the stand-in refuses answers later than 3 s
        alice, bob = w.user("alice"), w.user("bob")
        await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        locker = sqlite3.connect(w.bot.db_path, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")          # another process holds the database
        try:
            joining = await bob.slash("game join", channel=w.channel)
            await joining.response()
            assert joining.deferred
            busy = await joining.final(timeout=15)
            assert "busy" in busy.text and "try again" in busy.text, busy.text
        finally:
            locker.execute("COMMIT")
            locker.close()
        joined = await (await bob.slash("game join", channel=w.channel)).final()
        assert "bob" in joined.text
