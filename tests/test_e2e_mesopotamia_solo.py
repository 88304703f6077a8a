"""End to end: Mesopotamia alone against the Automaton, through the real bot and the local
Discord stand-in (issue 27).

Cid may not play Ur alone (it has no opponent of its own: a private refusal); Ann opens
``/game new game:mesopotamia players:1`` (the lobby says the Automaton will take the
last seat, at the level for one person), starts it and plays the first rounds like the AI
(:mod:`tests.test_e2e_mesopotamia`'s people: ``/play`` with the step the quick AI picks from
the stored state). The service plays the Automaton's seat by its cards: each of its turns is
posted with the Strategy action each of its actions serves and the turn's summary (its cards by
priority, the Action cards drawn), in English in a server in English and in French in one in
French; the member of the other language reads the same in their own in ``/game log``.
Nothing any user received shows a secret their seat may not read, and the log replays to the
stored state.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.mesopotamia.automaton import deck
from bot.games.mesopotamia.engine import GAME
from tests.contract import secret_texts
from tests.secret_scan import leaks, received
from tests.test_e2e_game import world
from tests.test_e2e_mesopotamia import open_alone, play_alone, replays_to, seats_of, settled

pytestmark = pytest.mark.slow

SEED = 42
ROUNDS = 5
"""Ann plays until this round's action phase begins."""


WORDS = {
    "en": {"lobby": "At the start, the Automaton takes the last seat (Igigi (medium))",
           "takes": "🎲 **Automaton** takes ", "priority": "(priority ",
           "summary": "The Automaton's Strategy cards", "card": "Action card"},
    "fr": {"lobby": "Au début de la partie, l'Automate prend la dernière place (Igigi (moyen))",
           "takes": "🎲 **Automate** prend l'action ", "priority": "(priorité ",
           "summary": "Cartes Stratégie de l'Automate", "card": "carte Action"},
}
"""What the channel reads of the Automaton, in each language."""


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_one_person_plays_mesopotamia_against_the_automaton(tmp_path: Path,
                                                                  lang: str) -> None:
    """In a server whose language is ``lang`` (the channel's posts); the member of the other
    language reads the log in theirs."""
    ours, theirs = WORDS[lang], WORDS["fr" if lang == "en" else "en"]
    async with world(tmp_path, seed=SEED, locale="fr" if lang == "fr" else "en-US") as w:
        ann, cid = w.user("ann"), w.user("cid", locale="fr")
        refused = await (await cid.slash("game new", channel=w.channel, game="ur",
                                         players=1)).final()
        assert refused.ephemeral and "n'a pas d'adversaire" in refused.text, refused.text
        created = await (await ann.slash("game new", channel=w.channel, game="mesopotamia",
                                         players=1)).final()
        assert ours["lobby"] in created.text, created.text
        mark = w.fake.mark()
        await (await ann.slash("game start", channel=w.channel)).final()
        await w.next_board(mark)
        by_user, names = seats_of(tmp_path)
        assert by_user == {ann.id: 0} and names == ("ann", "Automaton")
        now = await settled(tmp_path)
        assert deck.plays(now.state, 1) and now.state["automata"]["1"]["difficulty"] == "igigi"
        now = await play_alone(w, ann, tmp_path, now, lambda s: s.state["phase"] == "over" or (
            s.state.get("round", 0) >= ROUNDS and s.state["phase"] == "actions"), 400)
        assert now.state["phase"] != "over"

        turns = [line for m in w.posts() if m.pngs for line in m.text.split("\n")]
        its = [line for line in turns if line.startswith(ours["takes"])
               and ours["priority"] in line]
        assert len(its) >= ROUNDS - 1, turns
        summaries = [line for line in turns if line.startswith(ours["summary"])]
        assert len(summaries) >= len(its) and all(ours["card"] in s for s in summaries)
        print("\n" + "\n".join([*its[:2], *summaries[:2]]))

        reader = cid if lang == "en" else ann
        log = (await (await reader.slash("game log", channel=w.channel)).final()).text
        assert theirs["summary"] in log and theirs["priority"] in log, log

        # what is secret now to Ann (the Automaton's quests, the events still face down)
        now = await settled(tmp_path)
        hidden = [secret for secret in GAME.secrets(now.state) if 0 not in secret.readers]
        assert hidden
        forbidden = {text for secret in hidden for text in secret_texts(secret)}
        assert not leaks(received(w.fake, ann), forbidden)
        assert not leaks(received(w.fake, cid), forbidden)
        replays_to(tmp_path, now.state)


async def test_a_solo_duel_is_played_to_the_end_and_counts_in_its_own_ladder(
        tmp_path: Path) -> None:
    """Ann plays a whole Duel of Kings against the Automaton (Emperor): the final post names
    the winner, the result counts in the ladder of that mode and difficulty
    (``/leaderboard``, ``/stats``) and not in Mesopotamia's ranking between members."""
    async with world(tmp_path, seed=SEED) as w:
        ann = w.user("ann")
        _, now = await open_alone(w, ann, tmp_path, difficulty="emperor")
        now = await play_alone(w, ann, tmp_path, now, lambda s: s.state["phase"] == "over",
                               2_000)
        outcome = GAME.outcome(now.state)
        assert outcome is not None, now.state["phase"]
        winner = "ann" if outcome.seat_won(0) else "Automaton"
        final = await w.fake.wait_for_channel_message(
            w.channel, lambda m: not m.ephemeral and "🏁" in m.text, timeout=60)
        assert f"🏆 The winner is **{winner}**" in final.text, final.text
        solo = "mesopotamia:duel-emperor"
        board = (await (await ann.slash("leaderboard", channel=w.channel, game=solo)).final())
        assert "Mesopotamia alone: Duel of Kings, Emperor (easy)" in board.text, board.text
        assert "ann" in board.text and "1 game" in board.text, board.text
        members = await (await ann.slash("leaderboard", channel=w.channel,
                                          game="mesopotamia")).final()
        assert "Nobody has finished" in members.text, members.text
        stats = (await (await ann.slash("stats", channel=w.channel)).final()).text
        assert "Duel of Kings, Emperor" in stats and "· Mesopotamia: rating" not in stats, stats
        combats = [line for m in w.posts() for line in m.text.split("\n")
                   if "Automaton" in line and ("clash" in line or "combat" in line)]
        print("\n".join(combats[:12]))
