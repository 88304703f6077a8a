"""End to end: Civilizations through the real bot and the local Discord stand-in.

Three users play on from a prepared game (played into the bot's database: Ann has
gathered eleven or so Greek cards, see :mod:`tests.civsets_setup`): Ann completes the
Greek set; Bob contests her Roman territory; a swap is accepted and another declined (the
player asked is pinged, the proposer is not pinged back: the request shows the answer; Bob,
who answered, is not pinged again by the turn message that hands him the turn); a
purchase is made; three challenges are answered right, wrong, and not in time, each in
one question post edited in place (then pressed too late). Every message, embed, file and
autocomplete answer each user received is then searched for the cards they were never
allowed to see. An AI's challenge shows its question too, in the turn message.
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
from tests.test_e2e_game import World, open_game, world

pytestmark = pytest.mark.slow

CARD_BY_NAME = {translate(CARDS[c].name, "en"): c for c in CIV_CARDS}
AI_SEED = 7
"""The seed of the game whose AI seats are watched (any seed: the AI's choices follow it)."""


def current(tmp_path: Path) -> State:
    """The game's state as the bot stored it (the test knows everything)."""
    with sqlite3.connect(tmp_path / "dingir.sqlite3") as db:
        row = db.execute("SELECT state FROM games ORDER BY id DESC LIMIT 1").fetchone()
    state: State = json.loads(row[0])
    return state


def a_civ(hand: list[str], *but: str) -> str:
    """A civilization of a card in ``hand`` (not a Bonus card, not in ``but``)."""
    return next(civ for c in hand if (civ := CARDS[c].civ) is not None and civ not in but)


def pinged(message: Message) -> set[int]:
    """The members Discord notifies for ``message``: the mentions of its first content that
    its ``allowed_mentions`` lets through (edits notify nobody)."""
    first = message.history[0]
    written = {int(m) for m in re.findall(r"<@!?(\d+)>", first.get("content") or "")}
    allowed = first.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return written
    return written & {int(u) for u in allowed.get("users") or []}


def pings_of(w: World, user: FakeUser, after: int) -> list[Message]:
    """The public posts after ``after`` that notify ``user``."""
    return [m for m in w.posts(after) if user.id in pinged(m)]


async def play(w: World, user: FakeUser, notation: str) -> Message:
    """``/play`` a step; the private answer."""
    answer = await (await user.slash("play", channel=w.channel, action=notation)).final()
    assert answer.ephemeral, answer.text
    return answer


async def challenge(w: World, user: FakeUser, target: int, how: str) -> Message:
    """Challenge seat ``target`` (1-based) for its first card and answer ``right``,
    ``wrong`` or not at all (``late``); the question's post once it shows the answer.

    The question is one post: the card, the clock in words and as a countdown, four
    answers (no "no answer" button), its player mentioned but not pinged (the question
    follows their own step); once answered (or the time up) the same post shows the
    answer, the right one, the explanation once and disabled buttons, the chosen one
    highlighted, and no clock; a press that arrives later is told so."""
    await play(w, user, f"challenge {target}")
    mark = w.fake.mark()
    picked = await play(w, user, "pick 1")
    assert not any("Undo" in (b.get("label") or "") or "Annuler" in (b.get("label") or "")
                   for b in picked.buttons), picked.text      # nothing can be taken back
    question = await w.fake.wait_for_channel_message(
        w.channel, lambda m: m.mentions(user.id) and "❓" in m.text, after=mark)
    assert "10 seconds to answer" in question.text and "<t:" in question.text
    assert len(question.buttons) == 4 and not pinged(question), question.text
    name = re.search(r"❓ <@\d+>: (.+?), an? [A-Z]", question.text)
    assert name is not None, question.text
    card = CARD_BY_NAME[name.group(1)]
    right = CARDS[card].answer
    if how != "late":
        index = right if how == "right" else (right + 1) % 4
        await press(w, user, question, button(question, f"{index + 1}."))
    mark_of = {"right": "✅", "wrong": "❌", "late": "⌛"}[how]
    await w.fake.wait_until(lambda: mark_of in question.text, timeout=20, what="the answer")
    why = translate(CARDS[card].explanation(), "en")
    assert question.text.count(why) == 1 and "<t:" not in question.text, question.text
    assert translate(CARDS[card].option(right), "en") in question.text
    assert all(b.get("disabled") for b in question.buttons)
    chosen = [b["label"] for b in question.buttons if b.get("style") == 1]
    assert chosen == ([] if how == "late" else [f"{index + 1}. " + translate(
        CARDS[card].option(index), "en")])
    late = await press(w, user, question, question.buttons[0]["custom_id"], validate=False)
    expected = ("Too late", "Trop tard") if how == "late" else ("already been answered",
                                                               "déjà reçu sa réponse")
    assert late.ephemeral and any(e in late.text for e in expected), late.text
    return question


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

        # Ann completes the Greek set, then swaps with Bob (accepted): Bob is pinged to
        # answer, Ann is not pinged back (her turn simply goes on), the request shows the
        # answer
        mark = w.fake.mark()
        done = await play(w, ann, f"place {TARGET}")
        assert "You place" in done.text and "complete the Greek set" in done.text, done.text
        now = current(tmp_path)
        wanted = a_civ([c for c in now["hands"][1] if c in CIV_CARDS],
                       TARGET, CONTESTED)
        chosen = await play(w, ann, f"trade 2 {wanted}")
        assert any("Undo" in (b.get("label") or "") for b in chosen.buttons)   # a choice only
        offered = now["hands"][0][0]
        await play(w, ann, f"offer {offered}")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(bob.id),
                                                      after=mark)
        assert offered not in asked.text and pinged(asked) == {bob.id}, asked.text
        bob_panel = await open_panel(w, bob, asked)
        assert "offers you" in bob_panel.text, bob_panel.text
        await step(w, bob, bob_panel, "give")
        await w.fake.wait_until(lambda: "accepts ann's swap" in asked.text, what="the answer")
        assert not asked.buttons and not pings_of(w, ann, mark)
        await play(w, ann, "end")
        post = await w.next_board(mark)
        assert "completes the Greek set" in post.text and "accepts ann's swap" in post.text
        assert w.posts(mark) == [asked, post], post.text
        # the turn is Bob's: pinged for the swap a moment ago, he is named, not pinged again
        assert "➡️ **bob** to play." in post.text and not pinged(post), post.text

        # Bob contests Ann's Roman territory and challenges Cid: right; the challenge makes
        # two public posts, the question and the turn message, which does not tell the
        # explanation again
        contested = await play(w, bob, f"place {CONTESTED}")
        assert "You place" in contested.text, contested.text
        mark = w.fake.mark()
        question = await challenge(w, bob, 3, "right")
        post = await w.next_board(mark)
        assert w.posts(mark) == [question, post], [m.text for m in w.posts(mark)]
        assert "answers correctly and wins" in post.text and "📖" not in post.text

        # Cid buys a card from Ann (she agrees)
        await play(w, cid, f"buy 1 {a_civ(current(tmp_path)['hands'][0], TARGET)}")
        ann_panel = await open_panel(w, ann, post)
        sold = await step(w, ann, ann_panel, "sell")
        assert "You sell" in sold.text or "Your panel" in sold.text, sold.text
        mark = w.fake.mark()
        await play(w, cid, "end")
        post = await w.next_board(mark)
        assert "sells a" in post.text and "to cid for 100 points" in post.text, post.text

        # Ann proposes a swap to Cid, who declines: nobody pings Ann for it
        await play(w, ann, f"trade 3 {a_civ(current(tmp_path)['hands'][2])}")
        mark = w.fake.mark()
        await play(w, ann, f"offer {current(tmp_path)['hands'][0][0]}")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(cid.id),
                                                      after=mark)
        cid_panel = await open_panel(w, cid, asked)
        await step(w, cid, cid_panel, "refuser")
        await w.fake.wait_until(lambda: "declines ann's swap" in asked.text, what="the answer")
        assert not pings_of(w, ann, mark)
        await play(w, ann, "end")
        post = await w.next_board(mark)
        assert "declines ann's swap" in post.text, post.text
        assert w.posts(mark) == [asked, post]

        # Bob challenges Ann: wrong; Cid challenges Bob and lets the clock run out
        mark = w.fake.mark()
        await challenge(w, bob, 1, "wrong")
        post = await w.next_board(mark)
        mark = w.fake.mark()
        await challenge(w, cid, 2, "late")
        post = await w.next_board(mark)
        assert post.mentions(ann.id) and "does not answer in time" in post.text

        # the public map shows the set, the contest, the hands' sizes; never a hand
        log = await (await bob.slash("game log", channel=w.channel)).final()
        assert "completes the Greek set" in log.text or "history" in log.text

        forbidden = never_readable(tmp_path / "dingir.sqlite3", GAME)
        assert any(forbidden.values())
        for seat, user in enumerate((ann, bob, cid)):
            found = leaks(received(w.fake, user), forbidden[seat])
            assert not found, (user.name, found[:3])


async def test_an_ai_challenge_is_told_with_its_question_in_the_turn_message(
        tmp_path: Path) -> None:
    async with world(tmp_path, seed=AI_SEED) as w:
        ann = w.user("ann")
        post = await open_game(w, ann, [], ai=2, order="1 2 3", game="civsets",
                               title="Civilizations")
        for _ in range(30):             # Ann draws (or ends) until an AI challenges
            mark = w.fake.mark()
            for notation in ("draw", "end"):
                choices = await ann.autocomplete("play", "action", notation, channel=w.channel)
                if any(c["value"].startswith(notation) for c in choices):
                    await play(w, ann, notation)
            post = await w.next_board(mark, timeout=60)
            if "❓" in post.text:
                break
        assert "❓" in post.text, "no AI challenged in 30 rounds"
        assert any(mark in post.text for mark in ("✅", "❌")) and post.text.count("📖") == 1
        assert "challenges" in post.text and "<t:" not in post.text
        assert [m for m in w.posts(mark) if "❓" in m.text] == [post]   # no post of its own
        assert post.mentions(ann.id) and post.text.rstrip().endswith("to play.")


async def test_a_swap_offered_to_an_ai_is_answered_in_the_proposers_panel(
        tmp_path: Path) -> None:
    """An AI answers at once: the proposer's panel tells its answer and goes on with their
    turn; the channel hears of it in the turn message, not in a post of its own."""
    async with world(tmp_path, seed=AI_SEED) as w:
        ann = w.user("ann")
        await open_game(w, ann, [], ai=2, order="1 2 3", game="civsets", title="Civilizations")
        trades = await ann.autocomplete("play", "action", "trade", channel=w.channel)
        assert trades, "Ann has nothing to swap"
        await play(w, ann, trades[0]["value"])
        offers = await ann.autocomplete("play", "action", "offer", channel=w.channel)
        mark = w.fake.mark()
        panel = await play(w, ann, offers[0]["value"])
        assert re.search(r"↪️ \*\*🤖 AI \d\*\* (accepts|declines)", panel.text), panel.text
        assert panel.buttons and not w.posts(mark), [m.text for m in w.posts(mark)]
