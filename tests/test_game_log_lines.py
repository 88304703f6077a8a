"""``/game log`` tells each step after its player's name in bold, in the third person, as the
turn summaries do ("**p1** takes Growth with the pawn"), never as a command or to "you"; in
English and French, as a player of the game reads it (issue 28 §2)."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.mesopotamia.engine import GAME
from bot.records import GameRecord, LogEntry, SeatInfo
from bot.replay import Step, iter_reports
from cogs.game_log import log_lines

LINE = {"en": re.compile(r"`\d+\.` turn 1 · \*\*p[012]\*\* (then round \d+ )?[a-zé]+s\b"),
        "fr": re.compile(r"`\d+\.` tour 1 · \*\*p[012]\*\* (puis )?[a-zéè']+")}
YOU = {"en": re.compile(r"\b(you|your|take|end)\b", re.I),
       "fr": re.compile(r"\b(vous|votre|vos|prenez|finissez)\b", re.I)}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_log_tells_each_step_in_the_third_person(lang: str) -> None:
    state = start = GAME.setup(2, 3, {})
    entries, rng = [], random.Random(1)
    while len(entries) < 60:
        seat = GAME.active(state)[0]
        notation = rng.choice(GAME.legal(state, seat)).notation
        entries.append(LogEntry(len(entries), seat, notation, 0, 0.0))
        state = GAME.apply(state, seat, notation)
    reports = [r for r, _ in iter_reports(GAME, start, [Step(e.seat, e.notation)
                                                         for e in entries])]
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="mesopotamia", status="running",
                        creator_id=1, options={}, seed=2,
                        seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(3)], state=state,
                        version=1, active=GAME.active(state))
    lines = log_lines(record, entries, reports, lang, viewer=0)
    steps = [line for line in "\n".join(lines).split("\n") if line.startswith("`")]
    assert len(steps) == 60
    assert all(LINE[lang].match(line) for line in steps), [
        line for line in steps if not LINE[lang].match(line)][:3]
    assert not [line for line in steps if YOU[lang].search(line)]
    takes = {"en": "** takes ", "fr": "** prend l'action "}[lang]
    assert any(takes in line for line in steps), steps[:5]
