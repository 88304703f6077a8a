"""End to end: Civilizations through the real bot and the local Discord stand-in.

Three users play on from a prepared game (played into the bot's database: Ann has
gathered eleven or so Greek cards, see :mod:`tests.civsets_setup`): Ann completes the
Greek set; Bob contests her Roman territory; a swap is accepted and another declined; a
purchase is made; three challenges are answered right, wrong, and not in time (then
pressed too late). Every message, embed, file and autocomplete answer each user received
is then searched for the cards they were never allowed to see.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from bot.clock import OffsetClock, SystemClock
from bot.engine import State
from bot.games.civsets.cards import CARDS, CIV_CARDS
from bot.games.civsets.engine import GAME
from bot.i18n import translate
from bot.records import Player
from tests.civsets_setup import CONTESTED, TARGET, prepare
from tests.fakediscord import FakeUser, Message
from tests.secret_scan import leaks, never_readable, received
from tests.test_e2e_bazaar import button, open_panel, press, step
from tests.test_e2e_game import World, world

pytestmark = pytest.mark.slow

CARD_BY_NAME = {translate(CARDS[c].name, "en"): c for c in CIV_CARDS}


def current(tmp_path: Path) -> State:
    """The game's state as the bot stored it (the test knows everything)."""
    with sqlite3.connect(tmp_path / "dingir.sqlite3") as db:
        row = db.execute("SELECT state FROM games ORDER BY id DESC LIMIT 1").fetchone()
    state: State = json.loads(row[0])
    return state


def a_civ(hand: list[str], *but: str) -> str:
    """A civilization of a card in ``hand`` (not a Bonus card, not in ``but``)."""
    return next(civ for c in hand if (civ := CARDS[c].civ) is not None and civ not in but)


async def play(w: World, user: FakeUser, notation: str) -> Message:
    """``/play`` a step; the private answer."""
    answer = await (await user.slash("play", channel=w.channel, action=notation)).final()
    assert answer.ephemeral, answer.text
    return answer


async def challenge(w: World, user: FakeUser, target: int, how: str) -> Message:
    """Challenge seat ``target`` (1-based) for its first card and answer ``right``,
    ``wrong`` or not at all (``late``); the announcement of the result."""
    await play(w, user, f"challenge {target}")
    mark = w.fake.mark()
    await play(w, user, "pick 1")
    question = await w.fake.wait_for_channel_message(
        w.channel, lambda m: m.mentions(user.id) and "❓" in m.text, after=mark)
    picked = await w.fake.wait_for_channel_message(
        w.channel, lambda m: "picks card 1" in m.text, after=mark)
    name = re.search(r": (.+) \(", picked.text.split("picks card 1", 1)[1])
    assert name is not None, picked.text
    card = CARD_BY_NAME[name.group(1)]
    right = CARDS[card].answer
    assert len(question.buttons) == 5, question.text
    if how != "late":
        index = right if how == "right" else (right + 1) % 4
        await press(w, user, question, button(question, f"{index + 1}."))
    result = await w.fake.wait_for_channel_message(
        w.channel, lambda m: "📣" in m.text and ("answers" in m.text or "no answer" in m.text),
        after=mark, timeout=20)
    if how == "late":
        late = await press(w, user, question, button(question, "1."))
        assert "Too late" in late.text or "Trop tard" in late.text, late.text
    return result


async def test_a_game_of_civilizations_with_every_kind_of_step(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann = w.fake.user("ann", guild=w.guild, manage_guild=True)
        bob, cid = w.user("bob"), w.user("cid", locale="fr")
        await w.bot.stop()              # the game is prepared in the bot's database
        await prepare(tmp_path / "dingir.sqlite3", OffsetClock(SystemClock(), w.clock_file),
                      w.guild.id, w.channel.id,
                      [Player(u.id, u.name) for u in (ann, bob, cid)],
                      {"quiz_seconds": "10", "ai_skill": "60"})
        mark = w.fake.mark()
        await w.bot.start()             # ...where it finds it and posts its board
        post = await w.next_board(mark)
        assert post.mentions(ann.id) and post.pngs

        # Bob sees his hand at any time, Cid too (in French)
        bob_panel = await open_panel(w, bob, post)
        assert "Your hand" in bob_panel.text and bob_panel.pngs, bob_panel.text
        cid_panel = await open_panel(w, cid, post)
        assert "Votre main" in cid_panel.text, cid_panel.text

        # Ann completes the Greek set, then swaps with Bob (accepted)
        mark = w.fake.mark()
        done = await play(w, ann, f"place {TARGET}")
        assert "completes the Greeks set" in done.text, done.text
        await w.fake.wait_for_channel_message(
            w.channel, lambda m: "completes the Greeks set" in m.text, after=mark)
        now = current(tmp_path)
        wanted = a_civ([c for c in now["hands"][1] if c in CIV_CARDS],
                       TARGET, CONTESTED)
        await play(w, ann, f"trade 2 {wanted}")
        mark = w.fake.mark()
        offered = now["hands"][0][0]
        await play(w, ann, f"offer {offered}")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(bob.id),
                                                      after=mark)
        assert offered not in asked.text
        bob_panel = await open_panel(w, bob, asked)
        assert "offers you" in bob_panel.text, bob_panel.text
        await step(w, bob, bob_panel, "give")
        mark = w.fake.mark()
        await play(w, ann, "end")
        post = await w.next_board(mark)
        assert "accepts the swap" in post.text and post.mentions(bob.id), post.text

        # Bob contests Ann's Roman territory and challenges Cid: right
        contested = await play(w, bob, f"place {CONTESTED}")
        assert "places" in contested.text
        mark = w.fake.mark()
        result = await challenge(w, bob, 3, "right")
        assert "answers right" in result.text, result.text
        post = await w.next_board(mark)

        # Cid buys a card from Ann (she agrees)
        await play(w, cid, f"buy 1 {a_civ(current(tmp_path)['hands'][0], TARGET)}")
        ann_panel = await open_panel(w, ann, post)
        sold = await step(w, ann, ann_panel, "sell")
        assert "sells" in sold.text or "Your panel" in sold.text, sold.text
        mark = w.fake.mark()
        await play(w, cid, "end")
        post = await w.next_board(mark)
        assert "sells a card to cid for 100 points" in post.text, post.text

        # Ann proposes a swap to Cid, who declines
        await play(w, ann, f"trade 3 {a_civ(current(tmp_path)['hands'][2])}")
        mark = w.fake.mark()
        await play(w, ann, f"offer {current(tmp_path)['hands'][0][0]}")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(cid.id),
                                                      after=mark)
        cid_panel = await open_panel(w, cid, asked)
        await step(w, cid, cid_panel, "refuser")
        mark = w.fake.mark()
        await play(w, ann, "end")
        post = await w.next_board(mark)
        assert "declines the swap" in post.text, post.text

        # Bob challenges Ann: wrong; Cid challenges Bob and lets the clock run out
        mark = w.fake.mark()
        result = await challenge(w, bob, 1, "wrong")
        assert "answers wrong" in result.text, result.text
        post = await w.next_board(mark)
        mark = w.fake.mark()
        result = await challenge(w, cid, 2, "late")
        assert "no answer in time" in result.text, result.text
        post = await w.next_board(mark)
        assert post.mentions(ann.id)

        # the public map shows the set, the contest, the hands' sizes; never a hand
        log = await (await bob.slash("game log", channel=w.channel)).final()
        assert "completes the Greeks set" in log.text or "history" in log.text

        forbidden = never_readable(tmp_path / "dingir.sqlite3", GAME)
        assert any(forbidden.values())
        for seat, user in enumerate((ann, bob, cid)):
            found = leaks(received(w.fake, user), forbidden[seat])
            assert not found, (user.name, found[:3])
