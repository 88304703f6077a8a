"""End to end, through the local Discord stand-in: export and import as an attacker would
use them (issue 24, items 4, 6 and 7).

An admin aborts a game of Civilizations, exports it and imports it again with its status
edited, hoping to play on knowing every hand; import files that seat someone twice, a
stranger, or quote mentions and junk; and an import that is allowed, announced in the
channel. Every refusal is private, mentions nobody and stores nothing.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import export
from bot.i18n import tr
from tests.fakediscord import FakeUser, Message, Upload
from tests.test_e2e_game import World, open_game, world
from tests.test_export import as_file, document_of, played_out

pytestmark = pytest.mark.slow

MENTION = re.compile(r"<@[!&]?\d|@everyone|@here")
INTERNAL_ERROR = tr("en", "discord.internal_error")


def database(tmp_path: Path) -> Path:
    return tmp_path / "dingir.sqlite3"


def stored(path: Path) -> list[tuple[Any, ...]]:
    """Every game row and every action row of the bot's database, as stored."""
    with sqlite3.connect(path) as db:
        return [*db.execute("SELECT * FROM games ORDER BY id"),
                *db.execute("SELECT * FROM actions ORDER BY game_id, idx")]


def complete_export(tmp_path: Path) -> dict[str, Any]:
    """The complete document of the latest game, made from the database as the bot's export
    made it for an aborted game before: seed, seats, every step, the digest."""
    with sqlite3.connect(database(tmp_path)) as db:
        game_id, game, seed, options, state = db.execute(
            "SELECT id, game, seed, options, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        seats = db.execute("SELECT seat, name, user_id FROM seats WHERE game_id = ?"
                           " ORDER BY seat", (game_id,)).fetchall()
        log = db.execute("SELECT seat, notation FROM actions WHERE game_id = ? AND undone = 0"
                         " ORDER BY idx", (game_id,)).fetchall()
    return as_file(export.build(
        game=game, options=json.loads(options), seed=seed,
        seats=[export.SeatEntry(*seat) for seat in seats], settings={}, lang="en",
        status="aborted", log=[export.LogLine(*line) for line in log],
        state=json.loads(state)))


async def import_file(w: World, user: FakeUser, content: bytes) -> Message:
    """``/game import`` of ``content``; the answer after the deferral."""
    result = await user.slash("game import", channel=w.channel,
                              file=Upload("game.json", content))
    return await result.final()


def assert_quiet_refusal(answer: Message, says: str) -> None:
    """A private refusal that says ``says``, quotes no mention and may ping nobody."""
    assert answer.ephemeral, answer.text
    assert says in answer.text and INTERNAL_ERROR not in answer.text, answer.text
    assert not MENTION.search(answer.text), answer.text
    assert answer.history[-1]["allowed_mentions"]["parse"] == [], answer.history[-1]


async def test_an_aborted_game_with_secrets_cannot_be_played_on_after_an_export(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann = w.fake.user("ann", guild=w.guild, manage_guild=True)
        bob, cid = w.user("bob"), w.user("cid")
        await open_game(w, ann, [bob, cid], game="civsets", title="Civilizations")
        aborted = await (await ann.slash("game abort", channel=w.channel)).final()
        assert "ann" in aborted.text, aborted.text

        exported = await (await ann.slash("game export", channel=w.channel)).final()
        assert exported.ephemeral and "cannot be imported" in exported.text, exported.text
        document = json.loads(exported.attachments[0].data)
        assert document["complete"] is False and document["status"] == "aborted"
        assert "seed" not in document and "state_sha256" not in document

        # the export edited, then the complete document the bot used to give
        complete = complete_export(tmp_path)
        attempts = [(dict(document, status="running"), "cannot be imported")] + [
            (dict(complete, status=status), "knowing every hand")
            for status in ("running", "finished", "aborted")]
        before = stored(database(tmp_path))
        mark = w.fake.mark()
        for attempt, says in attempts:
            answer = await import_file(w, ann, json.dumps(attempt).encode())
            assert_quiet_refusal(answer, says)
        assert not w.posts(mark)
        assert stored(database(tmp_path)) == before     # the aborted game as it was, alone


async def test_import_refusals_are_private_and_ping_nobody(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        admin = w.fake.user("root", guild=w.guild, manage_guild=True)
        bob, cid = w.user("bob"), w.user("cid")
        log, state = played_out("ur", 3, steps=20)
        good = document_of("ur", 3, log, state, [("root", admin.id), ("bob", bob.id),
                                                 ("cid", cid.id)], status="running")
        loud = f"@everyone <@{bob.id}>"

        def edited(change: dict[str, Any]) -> bytes:
            return json.dumps({**good, **change}).encode()

        twice = [dict(s, user_id=bob.id) if s["seat"] == 2 else s for s in good["seats"]]
        stranger = [dict(s, user_id=987654321012345678, name=loud) if s["seat"] == 1 else s
                    for s in good["seats"]]
        attempts = [
            (edited({"seats": twice}), "seats 2 and 3 to the same player"),
            (edited({"seats": stranger}), "seat 2 ("),
            (edited({"log": [{"seat": log[0].seat, "notation": loud}]}), "line 1 of the log"),
            (edited({"game": loud}), "everyone"),
            (edited({"format_version": loud}), "format version ?"),
            (edited({"seed": "²"}), "'seed'"),
            (edited({"seats": [dict(s, seat=-1) for s in good["seats"]]}), "'seats[0].seat'"),
            (b"[" * 100_000, "not a Dingir export"),
            (b"\xff\xfe{not json", "not a Dingir export"),
            (json.dumps([loud]).encode(), "not a Dingir game export"),
            (b" " * ((16 << 20) + 1), "too large"),
        ]
        before = stored(database(tmp_path))
        mark = w.fake.mark()
        for content, says in attempts:
            assert_quiet_refusal(await import_file(w, admin, content), says)
        assert not w.posts(mark) and stored(database(tmp_path)) == before


async def test_a_finished_game_with_secrets_imports_and_is_announced(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ann = w.fake.user("ann", guild=w.guild, manage_guild=True)
        bob = w.user("bob")
        log, state = played_out("civsets", 4)
        document = document_of("civsets", 4, log, state,
                               [("ann", ann.id), ("bob", bob.id), ("AI ²", None)], lang="fr")
        mark = w.fake.mark()
        result = await ann.slash("game import", channel=w.channel,
                                 file=Upload("game.json", json.dumps(document).encode()))
        done = await result.final()
        assert done.ephemeral and "You imported the game of Civilizations" in done.text
        announced = await w.fake.wait_for_channel_message(
            w.channel, lambda m: "📥" in m.text, after=mark)
        assert not announced.ephemeral and "Partie de Civilisations importée" in announced.text
        assert "ann" in announced.text and "AI ²" in announced.text, announced.text
        assert announced.history[-1]["allowed_mentions"]["parse"] == []
        with sqlite3.connect(database(tmp_path)) as db:
            status, stored_state = db.execute(
                "SELECT status, state FROM games ORDER BY id DESC LIMIT 1").fetchone()
        assert status == "finished" and json.loads(stored_state) == state
