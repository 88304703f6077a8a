"""End to end: Mesopotamia at six seats through the real bot and the local Discord stand-in
(issue 28 §2, R-players-5-6).

Four people (Cid reads French) and two AI seats open ``/game new game:mesopotamia`` with its
default options (both expansions in play at 6), draft roles A-F, empires among the eight and
start regions, then play at least two whole rounds; the people play like the quick AI, as in
:mod:`tests.test_e2e_mesopotamia` (whose helpers this reuses). Checked: every board posted is at
most 1,400 px tall and as wide as at 4 players; ``/mesopotamia board`` shows each person their
own board in their language; no payload a person received holds a secret their seat could not
read; the turn posts ping only who must act; Cid's private answers are in French. And a table of
five with ``options: expansions=none`` is refused at the start, in its creator's language, with
the message naming the options that seat five, the lobby unchanged.
"""

from __future__ import annotations

import io
import random
import re
import sqlite3
from itertools import chain
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.balance import QUICK_BUDGET
from bot import ai
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.i18n import tr
from render import mesopotamia as picture
from tests.contract import secret_texts
from tests.fakediscord import FakeUser, Message
from tests.secret_scan import leaks, received
from tests.test_e2e_game import World, open_game, world
from tests.test_e2e_mesopotamia import (
    Snapshot,
    Watch,
    boards_show_the_cards,
    by_panel,
    by_play,
    channel_reads_well,
    no_bid_shown,
    seats_of,
    settled,
)

pytestmark = pytest.mark.slow
"""About 20 s on the shared machine (14 s the six seats, 2 s the five, a bot process each)."""

SEED = 42
ROUNDS = 2
"""Whole rounds played after the draft."""
PANEL_EVERY = 5
"""One step in this many (and every sealed bid) goes through the private panel."""
MAX_DECISIONS = 600
ENGLISH = re.compile(r"\b(you|your|the|turn|not)\b", re.I)
"""Words an English answer holds and a French one does not."""


def boards(w: World) -> list[Image.Image]:
    """Every board image the bot posted in the channel (the first picture of a post)."""
    return [Image.open(io.BytesIO(m.pngs[0])) for m in w.posts() if m.pngs]


def answers_to(w: World, user: FakeUser) -> list[Message]:
    """The private answers ``user`` received (panels and replies to their commands)."""
    return [m for m in w.fake.messages.values() if m.ephemeral and m.interaction is not None
            and m.interaction.user.id == user.id and m.text]


def nothing_hidden_shown(w: World, now: Snapshot, people: dict[int, FakeUser]) -> int:
    """No payload a person received holds a secret of ``now`` their seat may not read; the
    number of such secrets looked for."""
    looked = 0
    for seat, user in people.items():
        forbidden = {text for secret in GAME.secrets(now.state) if seat not in secret.readers
                     for text in secret_texts(secret)}
        looked += len(forbidden)
        found = leaks(received(w.fake, user), forbidden)
        assert not found, (user.name, found[:3])
    return looked


def pinged_to_act(w: World, now: Snapshot, people: dict[int, FakeUser], after: int) -> int:
    """The bot's newest public post (if newer than ``after``) pings only people who must act
    in ``now``; the newest post's number."""
    posts = w.posts(after=after)
    if not posts:
        return after
    acting = {people[s].id for s in GAME.active(now.state) if s in people}
    pinged = {u.id for u in people.values() if posts[-1].mentions(u.id)}
    assert pinged <= acting, (posts[-1].text, GAME.active(now.state))
    return posts[-1].seq


async def test_four_people_and_two_ais_draft_and_play_two_rounds(tmp_path: Path) -> None:
    async with world(tmp_path, seed=SEED) as w:
        ann, bob, cid, dee = (w.user("ann"), w.user("bob"), w.user("cid", locale="fr"),
                              w.user("dee"))
        await open_game(w, ann, [bob, cid, dee], ai=2, game="mesopotamia", title="Mesopotamia")
        by_user, names = seats_of(tmp_path)
        assert len(names) == 6
        people = {by_user[u.id]: u for u in (ann, bob, cid, dee)}
        ai_seats = set(range(6)) - set(people)
        counts = {"play": 0, "panel": 0, "bid": 0}
        now = await settled(tmp_path)
        boards_seen, watch, scanned, scans, seen = False, Watch(), set(), 0, 0
        verbs: set[str] = set()
        while now.state["phase"] != "over" and now.state.get("round", 0) <= ROUNDS:
            assert sum(counts.values()) < MAX_DECISIONS, counts
            if not boards_seen and now.state["phase"] == "actions":
                await boards_show_the_cards(w, people, now.state)
                boards_seen = True
            seen = pinged_to_act(w, now, people, seen)
            active = GAME.active(now.state)
            if ai_seats & set(active) or not active:   # the AIs decide first (also a bid)
                now = await settled(tmp_path, now.version)
                continue
            if (now.state["phase"], now.state.get("round")) not in scanned:
                scanned.add((now.state["phase"], now.state.get("round")))
                scans += nothing_hidden_shown(w, now, people)
            seat = active[0]
            no_bid_shown(w, watch, now, people, names)
            legal = GAME.legal(now.state, seat)
            action = ai.choose(GAME, GAME.view(now.state, seat), legal, seat,
                               random.Random(f"{now.version}:{seat}"), QUICK_BUDGET)
            kind = "bid" if action.notation.startswith("bid ") else \
                "panel" if sum(counts.values()) % PANEL_EVERY == 0 else "play"
            if kind == "play":
                await by_play(w, people[seat], action.notation)
            else:
                await by_panel(w, people[seat], legal, legal.index(action))
            counts[kind] += 1
            verbs.add(action.notation.split()[0])
            now = await settled(tmp_path, now.version)
        print(f"\n{counts}, {now.version} steps, round {now.state.get('round')}, "
              f"{GAME.turn_number(now.state)} turns, {len(w.posts())} posts, {scans} secrets looked"
              f" for, {watch.scans} bid scans")

        setup = now.state["players"]
        empires = {p["empire"] for p in setup}
        assert boards_seen and sorted(p["role"] for p in setup) == list("abcdef")
        assert len(empires) == 6 and empires <= set(D.EMPIRES) | set(chain(*D.EXPANSIONS.values()))
        assert len({p["start"] for p in setup}) == 6
        assert now.state["round"] > ROUNDS or now.state["phase"] == "over"
        assert {"role", "empire", "start"} <= verbs, verbs      # the people drafted too
        assert counts["play"] > 10 and counts["panel"] > 2, counts

        shown = boards(w)
        assert len(shown) > 10
        assert all(b.size[0] == picture.WIDTH and b.size[1] <= 1_400 for b in shown), \
            {b.size for b in shown}

        scans += nothing_hidden_shown(w, now, people)
        assert scans > 0 and len(scanned) > ROUNDS, (scans, scanned)

        channel_reads_well(w, GAME.turn_number(now.state))

        french = answers_to(w, cid)
        assert len(french) > 5
        english = [m.text for m in french if ENGLISH.search(re.sub(r"<[^>]*>|`[^`]*`|\*\*[^*]*"
                                                                   r"\*\*", "", m.text))]
        assert not english, english[:3]
        assert any(re.search(r"\b(vous|votre)\b", m.text, re.I) for m in french)
        print(f"{len(french)} private answers to cid, e.g. {french[-1].text[:120]!r}")


async def test_five_players_without_expansions_are_refused_at_the_start(
        tmp_path: Path) -> None:
    async with world(tmp_path, seed=SEED) as w:
        cid, ann = w.user("cid", locale="fr"), w.user("ann")
        created = await (await cid.slash("game new", channel=w.channel, game="mesopotamia",
                                         ai=3, options="expansions=none")).final()
        await (await ann.slash("game join", channel=w.channel)).final()

        def lobby() -> list[tuple[object, ...]]:
            with sqlite3.connect(tmp_path / "dingir.sqlite3") as db:
                return db.execute("SELECT g.status, g.options, s.seat, s.user_id, s.name FROM"
                                  " games g JOIN seats s ON s.game_id = g.id ORDER BY s.seat"
                                  ).fetchall()

        post = w.fake.messages[created.id]
        before, mark = lobby(), w.fake.mark()
        assert len(before) == 5 and before[0][0] == "lobby", before
        refused = await (await cid.slash("game start", channel=w.channel)).final()
        said = tr("fr", "mesopotamia.large.too_few_empires", n=5, empires=4, base=4)
        assert refused.ephemeral and said in refused.text, refused.text
        assert "expansions assyrians_hittites" in said and "both" in said
        assert lobby() == before
        assert not w.posts(after=mark)
        assert "`/game start`" in post.text and "🤖 AI 3" in post.text   # still the lobby's post
