"""End to end: the test game Bazaar through the real bot and the local Discord stand-in.

Three users play a whole game that needs everything Ur never did: hidden hands seen
in private panels opened at any time, a swap offered to another player (declined,
then accepted) who is mentioned at once and answers in their own panel, a quiz on a
clock of seconds posted in the channel with answer buttons only its player may
press (answered right once, left to time out once, then pressed too late), and
sealed bids from everybody at once (one taken back; another player's open panel
stays valid). At the end, every message, embed, file and autocomplete answer each
user received is searched for the goods and bids they were never allowed to see.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bazaar.engine import GAME as BAZAAR
from tests.fakediscord import FakeUser, Message
from tests.secret_scan import leaks, never_readable, received
from tests.test_e2e_game import World, world

pytestmark = pytest.mark.slow


def button(message: Message, *words: str) -> str:
    """The custom_id of the first button whose label holds all ``words`` (any case)."""
    found = [b["custom_id"] for b in message.buttons
             if all(w.lower() in (b.get("label") or "").lower() for w in words)]
    assert found, (words, [b.get("label") for b in message.buttons], message.text)
    return found[0]


async def press(w: World, user: FakeUser, message: Message, custom_id: str, *,
                validate: bool = True) -> Message:
    """Press a button; the message the bot answered with (a new one, or the edited one).
    Without ``validate``, a disabled button is pressed too (a press that left before the
    message was edited)."""
    edits = len(message.history)
    pressed = await user.press(message, custom_id, validate=validate)
    await pressed.response()
    if pressed.callback_type in (6, 7):      # the pressed message was edited in place
        await w.fake.wait_until(lambda: len(message.history) > edits, what="the edit")
        return message
    return await pressed.final()


async def open_panel(w: World, user: FakeUser, post: Message) -> Message:
    """The user's private panel, opened from a public message."""
    label = "Take my turn" if any(b.get("label") == "Take my turn" for b in post.buttons) \
        and post.mentions(user.id) else "My panel"
    panel = await press(w, user, post, post.button(label)["custom_id"])
    assert panel.ephemeral, panel.text
    return panel


async def step(w: World, user: FakeUser, panel: Message, *words: str) -> Message:
    """Press the panel's first button whose label holds all ``words``."""
    return await press(w, user, panel, button(panel, *words))


async def test_a_game_with_secrets_offers_quizzes_and_sealed_bids(tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_EXTRA_GAMES="tests.bazaar") as w:
        ann, bob, cid = w.user("ann"), w.user("bob"), w.user("cid", locale="fr")
        created = await (await ann.slash("game new", channel=w.channel, game="bazaar",
                                         options="rounds=2 quiz_seconds=5")).final()
        assert "Bazaar" in created.text
        for user in (bob, cid):
            await (await user.slash("game join", channel=w.channel)).final()
        mark = w.fake.mark()
        await (await ann.slash("game start", channel=w.channel, order="1 2 3")).final()
        post = await w.next_board(mark)
        assert post.mentions(ann.id) and not post.mentions(bob.id)

        # Bob looks at his hand although it is not his turn
        bob_panel = await open_panel(w, bob, post)
        assert "Your goods" in bob_panel.text and bob_panel.pngs, bob_panel.text

        # Ann rolls and offers a good to Bob, who is mentioned at once and declines
        panel = await open_panel(w, ann, post)
        panel = await step(w, ann, panel, "roll the die")
        mark = w.fake.mark()
        panel = await step(w, ann, panel, "offer", "to bob")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(bob.id),
                                                      after=mark)
        assert not asked.pngs and "offers a swap to bob" in asked.text, asked.text
        bob_panel = await open_panel(w, bob, asked)
        assert "offers you" in bob_panel.text, bob_panel.text
        assert "Refresh" in [b.get("label") for b in panel.buttons]   # Ann waits for Bob
        await step(w, bob, bob_panel, "decline")
        mark = w.fake.mark()
        await step(w, ann, await open_panel(w, ann, post), "End turn")
        post = await w.next_board(mark)
        # his turn now: pinged for the offer a moment ago, Bob is named, not pinged again
        assert "declines" in post.text and "➡️ **bob** to play." in post.text, post.text

        # Bob offers a good to Cid, who accepts
        panel = await step(w, bob, await open_panel(w, bob, post), "roll the die")
        mark = w.fake.mark()
        await step(w, bob, panel, "offer", "to cid")
        asked = await w.fake.wait_for_channel_message(w.channel, lambda m: m.mentions(cid.id),
                                                      after=mark)
        cid_panel = await open_panel(w, cid, asked)
        await step(w, cid, cid_panel, "donner")
        mark = w.fake.mark()
        await step(w, bob, await open_panel(w, bob, post), "End turn")
        post = await w.next_board(mark)
        assert "accepts the swap" in post.text and "➡️ **cid** to play." in post.text, post.text

        # Cid takes a quiz and lets it time out; Ann may not answer it; too late is too late
        panel = await step(w, cid, await open_panel(w, cid, post), "lancer le dé")
        mark = w.fake.mark()
        await step(w, cid, panel, "répondre à un quiz")
        question = await w.fake.wait_for_channel_message(
            w.channel, lambda m: m.mentions(cid.id) and "Quiz" in m.text, after=mark)
        assert "<t:" in question.text and len(question.buttons) == 5, question.text
        refused = await press(w, ann, question, question.custom_ids[0])
        assert refused.ephemeral and "This question is for cid" in refused.text, refused.text
        expired = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "n'a pas trouvé" in m.text or "did not find" in m.text,
            after=mark, timeout=15)
        assert "📣" in expired.text and expired is question     # told in the question's post
        assert all(b.get("disabled") for b in question.buttons) and "<t:" not in question.text
        late = await press(w, cid, question, question.custom_ids[1], validate=False)
        assert "Trop tard" in late.text, late.text
        mark = w.fake.mark()
        await step(w, cid, await open_panel(w, cid, post), "Finir le tour")
        post = await w.next_board(mark)
        assert all(post.mentions(u.id) for u in (ann, bob, cid)), post.text   # the auction

        # Sealed bids: Bob's panel, opened before Ann bids, stays valid; Ann takes hers back
        bob_panel = await open_panel(w, bob, post)
        ann_panel = await open_panel(w, ann, post)
        ann_panel = await step(w, ann, ann_panel, "bid 0")
        bob_panel = await step(w, bob, bob_panel, "bid 1")
        assert "moved on" not in bob_panel.text, bob_panel.text
        ann_panel = await step(w, ann, ann_panel, "Undo")
        ann_panel = await step(w, ann, await open_panel(w, ann, post), "bid 1")
        mark = w.fake.mark()
        await step(w, cid, await open_panel(w, cid, post), "miser 0")
        revealed = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "bids revealed" in m.text, after=mark)
        assert "ann 1" in revealed.text and "bob 1" in revealed.text, revealed.text
        post = await w.next_board(mark)

        # Round 2: Ann answers a quiz right; Bob draws; Cid passes; everyone bids 0
        panel = await step(w, ann, await open_panel(w, ann, post), "roll the die")
        mark = w.fake.mark()
        await step(w, ann, panel, "take a quiz")
        question = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "Quiz" in m.text and m.mentions(ann.id), after=mark)
        a, b = map(int, re.findall(r"(\d+) \+ (\d+)", question.text)[0])
        answered = await press(w, ann, question, question.button(f"answer {a + b}")["custom_id"])
        assert answered.ephemeral
        right = await w.fake.wait_for_channel_message(w.channel, lambda m: "right!" in m.text,
                                                      after=mark)
        assert "ann" in right.text
        assert right is question and "<t:" not in question.text      # closed in place
        chosen = [x["label"] for x in question.buttons if x.get("style") == 1]
        assert all(x.get("disabled") for x in question.buttons)
        assert chosen == [f"answer {a + b}"]
        mark = w.fake.mark()
        await step(w, ann, await open_panel(w, ann, post), "End turn")
        post = await w.next_board(mark)
        choices = await bob.autocomplete("play", "action", "dr", channel=w.channel)
        assert [c["value"] for c in choices] == [] or all("draw" in c["value"] for c in choices)
        await (await bob.slash("play", channel=w.channel, action="roll")).final()
        drawn = await (await bob.slash("play", channel=w.channel, action="draw")).final()
        assert drawn.ephemeral and "✓ draws " in drawn.text, drawn.text
        mark = w.fake.mark()
        await (await bob.slash("play", channel=w.channel, action="end")).final()
        post = await w.next_board(mark)
        for notation in ("roll", "pass"):
            await (await cid.slash("play", channel=w.channel, action=notation)).final()
        mark = w.fake.mark()
        await (await cid.slash("play", channel=w.channel, action="end")).final()
        post = await w.next_board(mark)
        mark = w.fake.mark()
        for user in (ann, bob, cid):
            await (await user.slash("play", channel=w.channel, action="bid 0")).final()
        final = await w.next_board(mark)
        assert "Game over" in final.text, final.text

        log = await (await ann.slash("game log", channel=w.channel)).final()
        assert "**bob** draws a good" in log.text, log.text

        # nobody ever received a good or a bid they were never allowed to see
        forbidden = never_readable(tmp_path / "dingir.sqlite3", BAZAAR)
        assert any(forbidden.values())
        for seat, user in enumerate((ann, bob, cid)):
            found = leaks(received(w.fake, user), forbidden[seat])
            assert not found, (user.name, found[:3])

        # once the game is over, its export is complete (seed and every step)
        exported = await (await bob.slash("game export", channel=w.channel)).final()
        document = exported.attachments[0].data.decode()
        assert '"seed"' in document and '"notation": "draw"' in document


async def test_a_question_that_ran_out_while_the_bot_was_down_expires_once(
        tmp_path: Path) -> None:
    async with world(tmp_path, DINGIR_EXTRA_GAMES="tests.bazaar") as w:
        ann, bob = w.user("ann"), w.user("bob")
        await (await ann.slash("game new", channel=w.channel, game="bazaar",
                               options="rounds=1 quiz_seconds=30")).final()
        await (await bob.slash("game join", channel=w.channel)).final()
        mark = w.fake.mark()
        await (await ann.slash("game start", channel=w.channel, order="1 2")).final()
        post = await w.next_board(mark)
        panel = await step(w, ann, await open_panel(w, ann, post), "roll the die")
        mark = w.fake.mark()
        await step(w, ann, panel, "take a quiz")
        question = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "Quiz" in m.text, after=mark)
        w.bot.kill()
        await w.bot.wait()
        w.clock_file.write_text("60")             # the bot was away past the deadline
        mark = w.fake.mark()
        await w.bot.start()
        expired = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "did not find" in m.text, after=mark, timeout=15)
        assert "ann" in expired.text
        await w.rounds()                          # several scheduler rounds later...
        again = [m for m in w.posts(mark) if "did not find" in m.text]
        assert again == [expired]                 # ...it fired once
        late = await press(w, ann, question, question.custom_ids[0])
        assert "Too late" in late.text, late.text
