"""End to end: the limits on new games (issue: hardening). A member who may not open
threads gets no thread from the bot; a member at a limit gets a clear private refusal and
no empty thread; a lobby nobody starts closes by itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakediscord import Perm
from tests.test_e2e_game import World, world

pytestmark = pytest.mark.slow


def travel(w: World, seconds: float) -> None:
    """Move the bot's clock to ``seconds`` after the start (it reads the file at every
    look at the time: DINGIR_CLOCK_RECHECK=0)."""
    w.clock_file.write_text(str(seconds))


async def test_no_thread_for_a_member_or_a_bot_who_may_not_open_one(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.user("alice"), w.user("bob")
        await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        everyone = w.guild.roles[w.guild.id]
        everyone.permissions &= ~Perm.CREATE_PUBLIC_THREADS
        refused = await (await bob.slash("game new", channel=w.channel, game="ur",
                                         thread=True)).final()
        assert refused.ephemeral and "may not open threads" in refused.text, refused.text
        everyone.permissions |= Perm.CREATE_PUBLIC_THREADS
        w.channel.bot_denied = Perm.SEND_MESSAGES_IN_THREADS
        refused = await (await bob.slash("game new", channel=w.channel, game="ur",
                                         thread=True)).final()
        assert refused.ephemeral and "Send Messages in Threads" in refused.text, refused.text
        assert not [c for c in w.guild.channels.values() if c.is_thread]
        w.channel.bot_denied = 0
        opened = await (await bob.slash("game new", channel=w.channel, game="ur",
                                        thread=True)).final()
        thread = next(c for c in w.guild.channels.values() if c.is_thread)
        assert thread.mention in opened.text


async def test_a_member_at_a_limit_is_told_and_gets_no_empty_thread(tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_NEW_GAME_COOLDOWN_SECONDS="30",
                     DINGIR_MAX_LOBBIES_PER_MEMBER="1") as w:
        alice = w.user("alice")
        await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        refused = await (await alice.slash("game new", channel=w.channel, game="ur",
                                           thread=True)).final()
        assert refused.ephemeral and "wait" in refused.text and " s " in refused.text, \
            refused.text
        travel(w, 31)
        refused = await (await alice.slash("game new", channel=w.channel, game="ur",
                                           thread=True)).final()
        assert refused.ephemeral and "1 lobbies waiting" in refused.text, refused.text
        assert not [c for c in w.guild.channels.values() if c.is_thread]
        elsewhere = w.guild.text_channels()[1]
        french = w.user("amélie", locale="fr")
        travel(w, 62)
        await (await french.slash("game new", channel=elsewhere, game="ur")).final()
        refused = await (await french.slash("game new", channel=w.channel, game="ur",
                                            thread=True)).final()
        assert refused.ephemeral and "attendez 30 s" in refused.text, refused.text
        travel(w, 93)
        refused = await (await french.slash("game new", channel=w.channel, game="ur",
                                            thread=True)).final()
        assert refused.ephemeral and "parties ouvertes" in refused.text, refused.text


async def test_a_lobby_nobody_starts_closes_after_two_days(tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_LOBBY_EXPIRY_HOURS="48") as w:
        alice = w.user("alice")
        lobby = await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        assert lobby.buttons
        mark = w.fake.mark()
        travel(w, 49 * 3600)
        told = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "Nobody started" in m.text, after=mark)
        assert "48 hours" in told.text
        await w.fake.wait_until(lambda: not lobby.buttons, what="the lobby closed")
        status = await (await alice.slash("game status", channel=w.channel)).final()
        assert status.ephemeral and "no game" in status.text.lower(), status.text
        again = await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        assert again.buttons                                  # the channel is free again
