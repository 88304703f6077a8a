"""What each user received from the bot, searched for secrets they were never allowed to see.

:func:`received` gathers every payload a user of the stand-in could see: public
channel messages (each version, with their buttons), the answers to their own
interactions (ephemeral panels included), their direct messages, files that are not
images, and their autocomplete choices. :func:`never_readable` replays a game's log
from the database and lists, per seat, the secret strings (as the engine declares
them) that the seat could not read in any state of the game.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.engine import Game, Seat
from bot.replay import Step, iter_states
from tests.contract import secret_texts
from tests.fakediscord import FakeDiscord, FakeUser, Message
from tests.fakediscord.model import ChannelType

IMAGE_MAGIC = (b"\x89PNG", b"GIF8")


def _payloads(message: Message) -> list[str]:
    texts = [json.dumps(version, ensure_ascii=False) for version in message.history]
    texts += [json.dumps(message.embeds, ensure_ascii=False), message.content,
              json.dumps(message.components, ensure_ascii=False)]
    texts += [a.data.decode("utf-8", "replace") for a in message.attachments
              if a.data and not a.data.startswith(IMAGE_MAGIC)]
    return texts


def received(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """Every payload ``user`` could see (see the module docstring)."""
    found: list[str] = []
    for message in fake.messages.values():
        channel = message.channel
        if channel.type == ChannelType.DM:
            mine = channel.id == user.dm.id
        elif message.ephemeral:
            mine = message.interaction is not None and message.interaction.user.id == user.id
        else:
            mine = True
        if mine:
            found += _payloads(message)
    for record in fake.interactions:
        if record.user.id == user.id and record.type == 4 and record.callback_data:
            found.append(json.dumps(record.callback_data, ensure_ascii=False))
    return found


def never_readable(db_path: Path, game: Game) -> dict[Seat, set[str]]:
    """Per seat, the secret strings it could not read in any state of the database's last
    game (replayed from its log)."""
    with sqlite3.connect(db_path) as db:
        game_id, seed, options = db.execute(
            "SELECT id, seed, options FROM games ORDER BY id DESC LIMIT 1").fetchone()
        seats = db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?",
                           (game_id,)).fetchone()[0]
        steps = [Step(s, n) for s, n in db.execute(
            "SELECT seat, notation FROM actions WHERE game_id = ? AND undone = 0 ORDER BY idx",
            (game_id,))]
    start = game.setup(seed, seats, json.loads(options))
    secrets = {secret for state in [start, *iter_states(game, start, steps)]
               for secret in game.secrets(state)}
    everything = {text for secret in secrets for text in secret_texts(secret)}
    readable: dict[Seat, set[str]] = {seat: set() for seat in range(seats)}
    for secret in secrets:
        for seat in secret.readers:
            readable[seat].update(secret_texts(secret))
    return {seat: everything - readable[seat] for seat in range(seats)}


def leaks(payloads: list[str], forbidden: set[str]) -> list[tuple[str, str]]:
    """(secret, payload) for every payload that contains a forbidden secret."""
    found = []
    for payload in payloads:
        lowered = payload.lower()
        found += [(text, payload[:300]) for text in sorted(forbidden) if text in lowered]
    return found

