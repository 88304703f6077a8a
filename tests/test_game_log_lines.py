"""``/game log`` tells each step after its player's name in bold, in the third person, as the
turn summaries do ("**p1** takes Growth with the pawn", "**p1** gives p0 Augustus for their
Archimedes"), never as a command or to "you"; in English and French, as a player of the game
reads it (issue 28 §2): Mesopotamia and Civilizations, whose swaps have private words."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.civsets.engine import GAME as CIVSETS
from bot.games.mesopotamia.engine import GAME as MESOPOTAMIA
from bot.records import GameRecord, LogEntry, SeatInfo
from bot.replay import Step, iter_reports
from cogs.game_log import log_lines

LINE = {"en": re.compile(r"`\d+\.` turn 1 · \*\*p[012]\*\* [a-zé]+s\b"),
        "fr": re.compile(r"`\d+\.` tour 1 · \*\*p[012]\*\* [a-zéè']+")}
YOU = {"en": re.compile(r"\b(you|your|take|end)\b", re.I),
       "fr": re.compile(r"\b(vous|votre|vos|prenez|finissez)\b", re.I)}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["mesopotamia", "civsets"])
def test_the_log_tells_each_step_in_the_third_person(game: str, lang: str) -> None:
    engine = {"mesopotamia": MESOPOTAMIA, "civsets": CIVSETS}[game]
    state = start = engine.setup(2, 3, {})
    entries, rng = [], random.Random(1)
    while len(entries) < 60:
        seat = engine.active(state)[0]
        notation = rng.choice(engine.legal(state, seat)).notation
        entries.append(LogEntry(len(entries), seat, notation, 0, 0.0))
        state = engine.apply(state, seat, notation)
    reports = [r for r, _ in iter_reports(engine, start, [Step(e.seat, e.notation)
                                                         for e in entries])]
    record = GameRecord(id=1, guild_id=1, channel_id=1, game=game, status="running",
                        creator_id=1, options={}, seed=2,
                        seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(3)], state=state,
                        version=1, active=engine.active(state))
    lines = [line for viewer in range(3)
             for line in log_lines(record, entries, reports, lang, viewer=viewer)]
    steps = [line for line in "\n".join(lines).split("\n") if line.startswith("`")]
    assert len(steps) == 180
    assert all(LINE[lang].match(line) for line in steps), [
        line for line in steps if not LINE[lang].match(line)][:3]
    assert not [line for line in steps if YOU[lang].search(line)]
    said = {("mesopotamia", "en"): "** takes ", ("mesopotamia", "fr"): "** prend l'action ",
            ("civsets", "en"): "** gives p", ("civsets", "fr"): "** donne "}[game, lang]
    assert any(said in line for line in steps), steps[:5]
