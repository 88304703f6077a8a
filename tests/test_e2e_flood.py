"""End to end: After the Flood through the real bot and the local Discord stand-in.

Two people and one AI seat play a whole game of five rounds through Discord interactions
only (Bob first looks at the tables with ``/flood tables``): the humans by ``/play`` with
its autocomplete on odd turns and by "Take my turn" and the private panel on even ones
(random steps, passing often so that rounds stay short), the AI seat by itself. Every
turn message carries a board image; the last one names the three players with their
scores.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
from collections.abc import MutableSequence, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PIL import Image

from tests.test_e2e_game import (
    MAX_TURNS,
    open_game,
    player_of,
    turn_by_buttons,
    turn_by_play,
    world,
)

pytestmark = pytest.mark.slow

T = TypeVar("T")


class Hasty(random.Random):
    """Random choices, but ``pass`` (an autocomplete answer) a third of the time it is
    offered: random players who never pass make rounds of a hundred steps."""

    def choice(self, seq: Sequence[T] | MutableSequence[T]) -> T:
        passes = [c for c in seq if isinstance(c, dict) and c.get("value") == "pass"]
        if passes and self.random() < 1 / 3:
            found: Any = passes[0]
            return found  # type: ignore[no-any-return]
        return super().choice(seq)


async def test_two_people_and_an_ai_play_a_whole_game(tmp_path: Path) -> None:
    rng = Hasty(12)
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob", locale="fr")]
        tables = await (await users[1].slash("flood tables", channel=w.channel)).final()
        assert tables.ephemeral and len(tables.pngs) == 2, tables.text
        assert "Les tables" in tables.text
        post = await open_game(w, users[0], users[1:], ai=1, game="flood",
                               title="After the Flood")
        turns = {"play": 0, "buttons": 0}
        if player_of(post, users) is None and "Game over" not in post.text:   # the AI begins
            post = await w.fake.wait_for_channel_message(
                w.channel, lambda m: bool(m.pngs) and any(m.mentions(u.id) for u in users),
                after=post.seq)
        while (player := player_of(post, users)) is not None:
            assert post.pngs and post.button("Take my turn"), post.text
            assert sum(turns.values()) < MAX_TURNS
            with Image.open(io.BytesIO(post.pngs[0])) as board:
                assert board.size[0] >= 800 and len(post.pngs[0]) <= 100_000
            mark = w.fake.mark()
            if sum(turns.values()) % 2:
                done = await turn_by_buttons(w, player, post, rng)
                turns["buttons"] += 1
            else:
                done = await turn_by_play(w, player, rng)
                turns["play"] += 1
            assert "✅" in done, done
            post = await w.next_board(mark)
        assert "Game over" in post.text, post.text
        assert all(user.name in post.text for user in users) and "AI" in post.text
        assert post.pngs
        assert turns["play"] > 5 and turns["buttons"] > 5
        with sqlite3.connect(tmp_path / "dingir.sqlite3") as db:
            state = json.loads(db.execute("SELECT state FROM games").fetchone()[0])
            ai_seat = db.execute("SELECT seat FROM seats WHERE user_id IS NULL").fetchone()[0]
            by_ai = db.execute("SELECT notation FROM actions WHERE seat = ? AND undone = 0",
                               (ai_seat,)).fetchall()
        assert state["phase"] == "over" and state["round"] == 5
        verbs = {notation.split()[0] for (notation,) in by_ai}
        assert {"place", "pass"} <= verbs and verbs & {"build", "trade", "empire"}, verbs
