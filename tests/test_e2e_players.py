"""End to end: what players expect across a server (issue "What players found"):
``/mygames`` lists the games where it is your turn, with links, then the others, each
reader in their own language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_e2e_game import open_game, player_of, world

pytestmark = pytest.mark.slow


async def test_my_games_lists_my_turns_with_links_then_the_others(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, amelie = w.user("alice"), w.user("amélie", locale="fr")
        post = await open_game(w, alice, [amelie], ai=1)
        while player_of(post, [alice, amelie]) is None:      # an AI begins
            post = await w.next_board(post.seq)
        playing = player_of(post, [alice, amelie])
        assert playing is not None
        waiting = amelie if playing is alice else alice
        other = w.guild.text_channels()[1]
        await (await alice.slash("game new", channel=other, game="ur")).final()

        mine = await (await playing.slash("mygames", channel=other)).final()
        link = f"/channels/{w.guild.id}/{w.channel.id}/{post.id}"
        assert mine.ephemeral and link in mine.text, mine.text
        turn_title = "Your turn in 1 game" if playing is alice else "À vous de jouer dans 1"
        assert turn_title in mine.text, mine.text

        theirs = await (await waiting.slash("mygames", channel=other)).final()
        assert link not in theirs.text and w.channel.mention in theirs.text, theirs.text
        if waiting is amelie:
            assert "À vous de jouer dans 0" in theirs.text and "on attend" in theirs.text
        else:
            assert "Your turn in 0 games" in theirs.text and "waiting for" in theirs.text
            assert other.mention in theirs.text                  # alice's lobby too

        stranger = w.user("zoé", locale="fr")
        none = await (await stranger.slash("mygames", channel=w.channel)).final()
        assert none.ephemeral and "aucune partie" in none.text, none.text
