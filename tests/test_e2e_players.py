"""End to end: what players expect across a server (issue "What players found"):
``/mygames`` lists the games where it is your turn, with links, then the others;
``/game replace`` hands seats over; ``/away`` stops a member's clocks; a warning comes
before a time limit hands a turn on; each reader in their own language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_e2e_game import open_game, player_of, world
from tests.test_e2e_limits import travel

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


def seat_named(status: str, name: str) -> int:
    """The seat number ``/game status`` gives the line naming ``name``."""
    return next(int(line.split(".", 1)[0]) for line in status.split("\n")
                if line[:1].isdigit() and name in line)


async def test_seats_are_handed_to_a_member_or_to_the_ai(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob, dave = w.user("alice"), w.user("bob"), w.user("dave", locale="fr")
        post = await open_game(w, alice, [bob], ai=1)
        while player_of(post, [alice, bob]) is None:    # the AI is not mid-turn when its
            post = await w.next_board(post.seq)         # seat is handed over
        status = (await (await alice.slash("game status", channel=w.channel)).final()).text
        ai_seat, bob_seat = seat_named(status, "AI 1"), seat_named(status, "bob")
        refused = await (await bob.slash("game replace", channel=w.channel, seat=ai_seat,
                                         player=dave)).final()
        assert refused.ephemeral and "the game's creator" in refused.text, refused.text
        seated = await (await alice.slash("game replace", channel=w.channel, seat=ai_seat,
                                          player=bob)).final()
        assert seated.ephemeral and "already has a seat" in seated.text, seated.text
        handed = await (await alice.slash("game replace", channel=w.channel, seat=ai_seat,
                                          player=dave)).final()
        assert not handed.ephemeral and handed.mentions(dave.id), handed.text
        mine = await (await dave.slash("mygames", channel=w.channel)).final()
        assert w.channel.mention in mine.text and "partie" in mine.text, mine.text
        kept = await (await alice.slash("game replace", channel=w.channel,
                                        seat=bob_seat)).final()       # bob is here
        assert kept.ephemeral and "bob is still playing this seat" in kept.text, kept.text
        w.fake.remove_member(w.guild, bob)                            # now bob has left
        to_ai = await (await alice.slash("game replace", channel=w.channel,
                                         seat=bob_seat)).final()
        assert "(bob) is now played by 🤖 AI 1" in to_ai.text, to_ai.text
        w.fake.add_member(w.guild, bob)
        gone = await (await bob.slash("mygames", channel=w.channel)).final()
        assert "You are in no game" in gone.text, gone.text
        while player_of(post, [alice, dave]) is None:       # the AI plays bob's turns
            post = await w.next_board(post.seq, timeout=60)  # (its search may queue)
        assert not post.mentions(bob.id)


async def test_away_stops_the_clocks_others_see_it_and_a_warning_precedes_the_ai(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.user("alice"), w.user("bruno", locale="fr")
        post = await open_game(w, alice, [bob], ai=1)
        while (player := player_of(post, [alice, bob])) is None:
            post = await w.next_board(post.seq)
        other = bob if player is alice else alice
        await (await alice.slash("game settings", channel=w.channel, turn_limit_hours=48.0,
                                 timeout="ai")).final()
        away = await (await player.slash("away", channel=w.channel, days=3)).final()
        assert away.ephemeral and ("away until" in away.text or "absent" in away.text)
        status = await (await other.slash("game status", channel=w.channel)).final()
        assert ("away until" in status.text or "absent jusqu'au" in status.text), status.text
        mark = w.fake.mark()
        travel(w, 60 * 3600)                            # past the limit, but away
        await w.rounds()
        assert not [m for m in w.posts(after=mark) if "⏰" in m.text or "⏳" in m.text
                    or "run out" in m.text]
        back = await (await player.slash("away", channel=w.channel, days=0)).final()
        assert "Welcome back" in back.text or "Bon retour" in back.text
        travel(w, 60 * 3600 + 37 * 3600)                # 12 hours before the new limit
        warned = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "⏳" in m.text, after=mark)
        assert warned.mentions(player.id) and ("the AI plays your turn" in warned.text
                                               or "l'IA joue votre tour" in warned.text)


async def test_the_channel_speaks_the_servers_language_and_dms_the_readers(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.guild.locale = "fr"                        # a French server, an English creator
        alice, bob, cid = w.user("alice"), w.user("bruno", locale="fr"), w.user("cid")
        lobby = await (await alice.slash("game new", channel=w.channel, game="ur")).final()
        assert "ouvre une partie" in lobby.text, lobby.text
        for user in (bob, cid):
            await (await user.slash("game join", channel=w.channel)).final()
        changed = await (await alice.slash("game settings", channel=w.channel,
                                           language="en")).final()
        assert "waiting for players" in changed.text, changed.text
        mark = w.fake.mark()
        await (await alice.slash("game start", channel=w.channel)).final()
        post = await w.next_board(mark)
        assert "Take my turn" in str(post.buttons), post.text          # English posts now
        playing = player_of(post, [alice, bob, cid])
        assert playing is not None
        opted = await (await playing.slash("game notify", channel=w.channel,
                                           enabled=True)).final()
        assert opted.ephemeral
        travel(w, 25 * 3600)                         # the reminder by DM, in their language
        dm = await w.fake.wait_for_channel_message(playing.dm, lambda m: "⏰" in m.text)
        expected = "C'est toujours à vous" if playing is bob else "still your turn"
        assert expected in dm.text, dm.text


async def test_a_french_player_types_steps_in_french(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        amelie = w.user("amélie", locale="fr")
        post = await open_game(w, amelie, [], ai=2)
        while player_of(post, [amelie]) is None:                  # the AIs play first
            post = await w.next_board(post.seq)
        offered = await amelie.autocomplete("play", "action", "placer", channel=w.channel)
        assert offered and all(c["value"].startswith("place ") for c in offered), offered
        cell = offered[0]["value"].split()[1]
        played = await (await amelie.slash("play", channel=w.channel,
                                           action=f"Placer {cell.lower()}")).final()
        assert played.ephemeral and f"Vous placez un jeton sur {cell}" in played.text, played.text
        refused = await (await amelie.slash("play", channel=w.channel,
                                            action="voler A1")).final()
        assert "`fin`" in refused.text, refused.text          # alternatives as she types them
        ended = await (await amelie.slash("play", channel=w.channel, action="fin")).final()
        assert "✅" in ended.text, ended.text


async def test_a_time_bank_shows_in_the_status_in_each_language(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.user("alice"), w.user("bruno", locale="fr")
        await open_game(w, alice, [bob], ai=1)
        changed = await (await alice.slash("game settings", channel=w.channel,
                                           time_bank_hours=10.0, bank_bonus_hours=1.0,
                                           timeout="ai")).final()
        assert "a time bank of 10 hours per player, plus 1 hour per turn" in changed.text
        status = await (await bob.slash("game status", channel=w.channel)).final()
        assert status.text.count("banque 10.0 h") == 2, status.text     # the two humans
        assert "une banque de temps de 10 heures par joueur" in status.text, status.text
        refused = await (await alice.slash("game settings", channel=w.channel,
                                           bank_bonus_hours=0.5)).final()
        assert refused.ephemeral and "bonus per turn must be 0 or from 1" in refused.text
