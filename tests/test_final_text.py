"""The end-of-game text is one (bot.service.final): each front end words its lines."""

from __future__ import annotations

import pytest

from bot.engine import Outcome, Text, seat_ref
from bot.i18n import LANGUAGES, catalogue, translate
from bot.service.final import FINAL_KEYS, final_lines


@pytest.mark.parametrize("section", ["discord", "local"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_front_end_words_every_line(section: str, lang: str) -> None:
    assert all(f"{section}.{key}" in catalogue(lang) for key in FINAL_KEYS)


def test_the_lines_come_in_one_order() -> None:
    outcome = Outcome((3, 5, 1, 9), ((3,), (1,), (0, 2)), sides=(Text.of("core.seat", seat=8),),
                      tiebreak=Text.of("core.seat", seat=6),
                      details=(seat_ref(0), seat_ref(1), seat_ref(2)))
    names = ("Ann", "Bob", "Cid")
    lines = [translate(line, "en", names) for line in final_lines(outcome, "local")]
    assert lines == ["Game over.", "1. Seat 9: 9 points", "2. Bob: 5 points",
                     "3. Ann: 3 points", "3. Cid: 1 point", "Winner: Seat 9",
                     "Tie-break: Seat 7", "· Bob: Bob", "· Ann: Ann", "· Cid: Cid"]
