"""End to end: `python -m dingir` against the local Discord stand-in, played like people would.

Three users open, join and start a game of Ur and play it to the end through
Discord interactions only: some turns by typing ``/play`` and picking from its
autocomplete, the others with the "Take my turn" button and the private turn
panel (buttons or select menu, Undo, End turn). Every turn message carries a PNG
board; the last one has the scores and a replay animation.

The helpers here are shared with the other ``test_e2e_*`` modules.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, tr
from bot.store import is_postgres, open_store
from tests.fakediscord import (
    NO_LIMITS,
    BotProcess,
    Channel,
    FakeDiscord,
    FakeUser,
    Guild,
    Message,
)

pytestmark = pytest.mark.slow

MAX_STEPS_PER_TURN = 60
MAX_TURNS = 400
GIF = b"GIF8"


@dataclass
class World:
    """A stand-in Discord with one server, its channels and a running bot process."""

    fake: FakeDiscord
    guild: Guild
    channel: Channel
    bot: BotProcess
    clock_file: Path
    database: str
    """The bot's database: its SQLite file, or a PostgreSQL address."""

    def user(self, name: str, locale: str = "en-US") -> FakeUser:
        """A member of the server."""
        return self.fake.user(name, guild=self.guild, locale=locale)

    def posts(self, after: int = 0) -> list[Message]:
        """The bot's public posts in the game channel (after a ``fake.mark()``)."""
        return [m for m in self.fake.channel_messages(self.channel)
                if m.seq > after and not m.ephemeral and not m.loading]

    async def next_board(self, after: int, timeout: float = 20.0) -> Message:
        """The first public post with a board image after ``after``."""
        return await self.fake.wait_for_channel_message(
            self.channel, lambda m: not m.ephemeral and bool(m.pngs), timeout=timeout,
            after=after)

    def query(self, sql: str) -> list[tuple[object, ...]]:
        """Rows of the bot's database, read while it runs (SQLite only)."""
        assert not is_postgres(self.database)
        with closing(sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)) as db:
            return db.execute(sql).fetchall()

    def heartbeat(self) -> object:
        """The bot's last heartbeat: each scheduler round beats it."""
        return self.query("SELECT at FROM heartbeat")

    async def rounds(self, n: int = 3, timeout: float = 20.0) -> None:
        """Wait until the bot's scheduler has run ``n`` more rounds (a "nothing happens"
        check waits for this instead of a time)."""
        seen = [self.heartbeat()]

        def beaten() -> bool:
            if (at := self.heartbeat()) != seen[-1]:
                seen.append(at)
            return len(seen) > n

        await self.fake.wait_until(beaten, timeout, f"{n} scheduler rounds")


@asynccontextmanager
async def world(tmp_path: Path, *, dev_guild: bool = False, seed: int | None = None,
                locale: str = "en-US", database: str | None = None,
                **env: str) -> AsyncIterator[World]:
    """A fresh stand-in and bot process (database and clock file under ``tmp_path``); with
    ``dev_guild`` the commands are synced to the server only (DINGIR_DEV_GUILD); with
    ``seed`` every game the bot starts gets that seed (:mod:`tests.seeded_bot`); ``locale``
    is the server's preferred locale; ``database`` a PostgreSQL address for the bot's
    store (else a SQLite file under ``tmp_path``)."""
    fake = FakeDiscord(enforce_3s=True)    # an answer later than 3 s is refused, like Discord
    await fake.start()
    guild = fake.guild("Tavern", locale=locale, channels=("general", "games"))
    channel = guild.text_channels()[0]
    clock_file = tmp_path / "clock"
    settings = {"DINGIR_SCHEDULER_SECONDS": "0.2", "DINGIR_LOG_LEVEL": "INFO",
                "DINGIR_DEV_GUILD": str(guild.id) if dev_guild else "", **NO_LIMITS, **env}
    args = ("-m", "dingir") if seed is None else ("-m", "tests.seeded_bot", str(seed))
    if database is not None and is_postgres(database):
        settings["DINGIR_DATABASE_URL"] = database
    bot = BotProcess(fake, db_path=tmp_path / "dingir.sqlite3", clock_file=clock_file,
                     args=args, env=settings, log_path=tmp_path / "bot.log")
    try:
        await bot.start()
        await fake.wait_synced(guild if dev_guild else None)
        yield World(fake, guild, channel, bot, clock_file,
                    settings.get("DINGIR_DATABASE_URL") or str(bot.db_path))
        assert not fake.server_errors, fake.server_errors
        assert not fake.unknown_routes, fake.unknown_routes
        late = [r for r in fake.refused if "Unknown interaction" in r]
        assert not late, late
        assert not [r for r in fake.refused if not r.startswith(("403", "404"))], fake.refused
        assert "Traceback" not in bot.output(), bot.output()[-4000:]
        assert "\x1b[" not in bot.output()      # a log file gets no terminal colour codes
    finally:
        await bot.stop()
        await fake.stop()


async def open_game(w: World, creator: FakeUser, others: Sequence[FakeUser],
                    ai: int = 0, order: str = "", game: str = "ur",
                    title: str = "Ur", options: str = "") -> Message:
    """``/game new`` of ``game`` (whose name is ``title``, with ``options`` if any), joins (by
    command and by the Join button), ``/game start`` (seats in random order, or ``order``);
    the first board post."""
    chosen_options = {"options": options} if options else {}
    created = await (await creator.slash("game new", channel=w.channel, game=game,
                                         ai=ai, **chosen_options)).final()
    assert not created.ephemeral and title in created.text
    for i, user in enumerate(others):
        if i % 2:
            joined = await (await user.press(created, created.button("Join")["custom_id"])).final()
        else:
            joined = await (await user.slash("game join", channel=w.channel)).final()
        assert user.name in joined.text
    mark = w.fake.mark()
    chosen = {"order": order} if order else {}
    started = await (await creator.slash("game start", channel=w.channel, **chosen)).final()
    assert all(u.name in started.text for u in [creator, *others])
    return await w.next_board(mark)


def named_to_play(post: Message, user: FakeUser) -> bool:
    """True when ``post`` names ``user`` as playing without pinging them: again after their
    own turn, or after their own answer (they were just here)."""
    return any(tr(lang, key, name=user.name, mention=f"**{user.name}**") in post.text
               for lang in LANGUAGES for key in ("discord.plays_again", "discord.your_turn"))


def player_of(post: Message, users: Sequence[FakeUser]) -> FakeUser | None:
    """The user a turn message asks to play (None when an AI plays or the game is over):
    mentioned, or named when they play on in their panel (:func:`named_to_play`)."""
    found = [u for u in users if post.mentions(u.id)] or [
        u for u in users if named_to_play(post, u)]
    assert len(found) <= 1, post.text
    return found[0] if found else None


def is_panel(message: Message) -> bool:
    """A turn panel has step components (or choices that lead to steps); "turn done" and
    refusals have none."""
    return any(":a" in c or ":sel" in c or ":grp" in c for c in message.custom_ids)


def turn_over(message: Message) -> bool:
    """True when a private answer says the turn is done (with the next turn's options when
    the player plays again), or offers no step."""
    return not is_panel(message) or "✅" in message.text


def pick_component(panel: Message, rng: random.Random) -> tuple[str, list[str] | None]:
    """A random step of a panel: a step button (End turn included) or a select value."""
    for comp in panel.iter_components():
        if comp.get("type") == 3:
            values = [o["value"] for o in comp["options"]]
            steps = [c for c in panel.custom_ids if c.split(":")[3][:1] == "a"]
            if steps and rng.random() < 0.2:   # End turn is also on a select panel
                return rng.choice(steps), None
            return comp["custom_id"], [rng.choice(values)]
    steps = [c for c in panel.custom_ids if c.split(":")[3][:1] == "a"
             or (c.split(":")[3].startswith("grp") and c.split(":")[3] != "grp")]
    return rng.choice(steps), None


async def click(w: World, user: FakeUser, panel: Message, custom_id: str,
                values: list[str] | None = None) -> Message:
    """Press a panel component and wait until the bot edited the panel in place."""
    edits = len(panel.history)
    if values is None:
        pressed = await user.press(panel, custom_id)
    else:
        pressed = await user.select(panel, custom_id, values)
    await pressed.response()
    await w.fake.wait_until(lambda: len(panel.history) > edits, what="the panel edit")
    return panel


async def restart_after_losing_posts(w: World, tmp_path: Path) -> int:
    """SIGKILL the bot as if its last post had been lost to the crash (nothing recorded as
    posted), start it again; the stand-in's mark from before the start."""
    w.bot.kill()
    await w.bot.wait()
    store = await open_store(w.database)
    try:
        async with store._guard() as tx:
            await tx.execute("UPDATE games SET posted_turn = -1")
    finally:
        await store.close()
    mark = w.fake.mark()
    await w.bot.start()
    return mark


async def turn_by_buttons(w: World, user: FakeUser, post: Message, rng: random.Random,
                          try_undo: bool = False) -> str:
    """Play a whole turn with "Take my turn" and the private panel; the last panel text
    (``try_undo``: once the bot has noted its post, see :func:`noted`)."""
    opened = await user.press(post, post.button("Take my turn")["custom_id"])
    panel = await opened.final()
    assert panel.ephemeral and panel.shows_image and "moved on" not in panel.text, panel.text
    if try_undo:   # the panel opens on the turn message's own image: no render, no upload
        assert panel.image_urls == [post.attachments[0].url] and not panel.pngs, panel.text
    for _ in range(MAX_STEPS_PER_TURN):
        if turn_over(panel):
            return panel.text
        pages = [c for c in panel.custom_ids if c.endswith(":pg1")]
        if pages and rng.random() < 0.3:     # a long list: look at the next page first
            panel = await click(w, user, panel, pages[0])
            assert "Page 2/" in panel.text, panel.text
        custom_id, values = pick_component(panel, rng)
        before = panel.custom_ids
        panel = await click(w, user, panel, custom_id, values)
        board = [c for c in panel.custom_ids if c.endswith(":board")]
        if board and is_panel(panel):
            assert not panel.shows_image, panel.text   # no image after a step...
            if try_undo:                                # ...until "Board" asks for one
                steps = panel.custom_ids
                panel = await click(w, user, panel, board[0])
                assert panel.pngs and panel.custom_ids == steps, panel.text
        undo = [c for c in panel.custom_ids if c.endswith(":undo")]
        if try_undo and undo and is_panel(panel):
            panel = await click(w, user, panel, undo[0])
            assert "↩" in panel.text and is_panel(panel), panel.text
            assert panel.custom_ids[0].split(":")[2] != before[0].split(":")[2]  # new version
            try_undo = False
    raise AssertionError(f"turn of {user.name} did not end: {panel.text}")


async def turn_by_play(w: World, user: FakeUser, rng: random.Random) -> str:
    """Play a whole turn with ``/play``, choosing among its autocomplete answers."""
    for _ in range(MAX_STEPS_PER_TURN):
        choices = await user.autocomplete("play", "action", "", channel=w.channel)
        assert 0 < len(choices) <= 25
        answer = await (await user.slash("play", channel=w.channel,
                                         action=rng.choice(choices)["value"])).final()
        assert answer.ephemeral
        if turn_over(answer):
            return answer.text
    raise AssertionError(f"turn of {user.name} did not end")


async def noted(w: World, follower: FakeUser, post: Message) -> None:
    """Wait until the bot has noted its turn message ``post``: it then tells the followers of
    each turn (``follower`` is one)."""
    link = f"/channels/{w.guild.id}/{w.channel.id}/{post.id}"
    await w.fake.wait_for_channel_message(follower.dm, lambda m: link in m.text)


async def followers_are_told(w: World, watcher: FakeUser, fan: FakeUser, final: Message,
                             turns: int) -> None:
    """A follower of each turn got a DM per turn message, in French; the other only the
    end; both with the final message's link."""
    over = await w.fake.wait_for_channel_message(fan.dm, lambda m: "🏁" in m.text)
    link = f"/channels/{w.guild.id}/{w.channel.id}/{final.id}"
    assert link in over.text and "is over" in over.text, over.text
    assert [m for m in fan.dm.messages if "👀" in m.text] == []
    end = await w.fake.wait_for_channel_message(watcher.dm, lambda m: "🏁" in m.text)
    assert "est terminée" in end.text, end.text
    each = [m for m in watcher.dm.messages if "👀" in m.text]
    assert len(each) >= turns - 1 and "le tour" in each[-1].text, len(each)


async def rematch_in_the_same_place(w: World, users: Sequence[FakeUser], final: Message
                                    ) -> None:
    """"Rematch" on the final message: refused to a stranger; a player opens a lobby of
    the same game in the channel, mentioning the others, who join with its button."""
    stranger = w.user("zed")
    refused = await (await stranger.press(final, final.button("Rematch")["custom_id"])).final()
    assert refused.ephemeral and "Only the players" in refused.text, refused.text
    opener, *others = users[1], users[0], users[2]
    lobby = await (await opener.press(final, final.button("Rematch")["custom_id"])).final()
    assert not lobby.ephemeral and "Rematch!" in lobby.text, lobby.text
    assert all(lobby.mentions(u.id) for u in others) and lobby.button("Join")
    await (await others[0].press(lobby, lobby.button("Join")["custom_id"])).response()
    await w.fake.wait_until(lambda: others[0].name in lobby.text, what="the lobby edit")
    again = await (await opener.press(final, final.button("Rematch")["custom_id"])).final()
    assert again.ephemeral and "already open" in again.text, again.text


async def stats_follow_the_result(w: World, users: Sequence[FakeUser], final: Message) -> None:
    """``/leaderboard`` ranks the players as the final message did (once, although the
    final message was posted twice); ``/stats`` shows a player's rating and last game, in
    the reader's language."""
    ranking = final.text[final.text.index("Game over"):]
    ranked = sorted(users, key=lambda u: ranking.index(u.name))
    board = await (await users[0].slash("leaderboard", channel=w.channel, game="ur")).final()
    assert board.ephemeral and "Ur" in board.text, board.text
    listed = board.text.split("\n")[1:]
    assert len(listed) == 3 and listed[0].startswith(f"1. {ranked[0].name}:"), board.text
    assert all("(1 game," in line for line in listed), board.text
    french = w.user("zoé", locale="fr")
    stats = await (await french.slash("stats", channel=w.channel, player=ranked[0])).final()
    assert stats.ephemeral and ranked[0].name in stats.text, stats.text
    assert "classement" in stats.text and "1 partie, 1 gagnée" in stats.text, stats.text
    assert "place 1 sur 3" in stats.text, stats.text
    none = await (await french.slash("stats", channel=w.channel)).final()
    assert "aucune partie" in none.text, none.text


async def test_three_players_play_a_whole_game_of_ur(tmp_path: Path, database: str) -> None:
    rng = random.Random(3)
    async with world(tmp_path, database=database) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        watcher, fan = w.user("wanda", locale="fr"), w.user("fanny")
        follows = await (await watcher.slash("game follow", channel=w.channel,
                                             each_turn=True)).final()
        assert follows.ephemeral and "après chaque tour" in follows.text, follows.text
        await (await fan.slash("game follow", channel=w.channel)).final()
        turns = 0
        ways = {"play": 0, "buttons": 0}
        while (player := player_of(post, users)) is not None:
            assert post.pngs and post.button("Take my turn"), post.text
            turns += 1
            assert turns < MAX_TURNS
            mark = w.fake.mark()
            if turns % 2:
                done = await turn_by_play(w, player, rng)
                ways["play"] += 1
            else:
                if turns == 2:
                    await noted(w, watcher, post)
                done = await turn_by_buttons(w, player, post, rng, try_undo=turns == 2)
                ways["buttons"] += 1
            assert "✅" in done, done
            post = await w.next_board(mark)
        final = post
        assert "Game over" in final.text
        await followers_are_told(w, watcher, fan, final, turns)
        assert final.pngs
        assert any(a.data.startswith(GIF) for a in final.attachments)
        for user in users:
            assert user.name in final.text
        assert ways["play"] > 5 and ways["buttons"] > 5
        again = await w.next_board(await restart_after_losing_posts(w, tmp_path))
        assert "Game over" in again.text and again.text.split("\n")[1:] == final.text.split(
            "\n")[2:], (again.text, final.text)
        await stats_follow_the_result(w, users, final)
        log = await (await users[0].slash("game log", channel=w.channel)).final()
        assert log.ephemeral and "history" in log.text
        pages = log.text.split("/", 1)[1].split(")", 1)[0]
        assert f"(page {pages}/{pages})" in log.text and int(pages) > 5
        earlier = await click(w, users[0], log, log.button("Previous")["custom_id"])
        assert f"(page {int(pages) - 1}/{pages})" in earlier.text
        await rematch_in_the_same_place(w, users, again)
        assert (tmp_path / "dingir.sqlite3").exists() != is_postgres(database)  # the one used
        empty = await (await users[0].slash("game log", channel=w.channel)).final()
        assert "Nothing has been played yet" in empty.text, empty.text   # the new lobby's
