"""End to end: the Guardians of Assur through the real bot and the local Discord stand-in
(issue 27 §3). Ann opens ``/game new game:mesopotamia players:1 options:mode=guardians`` (the
lobby says the Enemy Army takes the last seat), starts it and plays it to its end like the
quick AI; the service plays the Enemy Army's seat, whose waves and marches are posted under
its name; the final post names the winner (Ann or the Enemy Army) and Ann's score, the game
counts in the Guardians' own ladder and not in Mesopotamia's ranking between members, and the
log replays to the stored state."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.mesopotamia.engine import GAME
from tests.test_e2e_game import world
from tests.test_e2e_mesopotamia import open_alone, play_alone, replays_to

pytestmark = pytest.mark.slow

SEED = 42


async def test_one_person_holds_against_the_waves_to_the_end(tmp_path: Path) -> None:
    async with world(tmp_path, seed=SEED) as w:
        ann = w.user("ann")
        created, now = await open_alone(w, ann, tmp_path, options="mode=guardians")
        assert "the Enemy Army (the rulebook's enemy, six waves from Nineveh) takes the last" \
               " seat (Guardians of Assur)" in created, created
        assert now.state["guardians"]["seat"] == 1
        now = await play_alone(w, ann, tmp_path, now, lambda s: s.state["phase"] == "over",
                               2_000)

        outcome = GAME.outcome(now.state)
        assert outcome is not None and outcome.together is None       # R-solo-one
        lines = [line for m in w.posts() for line in m.text.split("\n")]
        steps = [line for line in lines if line.startswith("🎲 **Enemy Army** marches")]
        assert steps and any("the Enemy Army's" in line and "moves from Nineveh" in line
                             for line in steps), lines[-30:]
        assert any("wave 1 begins: the Enemy Army gains 3 Phalanxes" in line
                   for line in lines), lines[:30]
        final = await w.fake.wait_for_channel_message(
            w.channel, lambda m: not m.ephemeral and "🏁" in m.text, timeout=60)
        winner = "ann" if outcome.seat_won(0) else "Enemy Army"
        assert f"The winner is **{winner}**" in final.text, final.text
        assert "together" not in final.text and str(outcome.scores[0]) in final.text
        print("\n" + "\n".join(steps[:3]) + "\n" + final.text)

        board = (await (await ann.slash("leaderboard", channel=w.channel,
                                        game="mesopotamia:guardians")).final())
        assert "Mesopotamia alone: the Guardians of Assur" in board.text, board.text
        assert "ann" in board.text and "1 game" in board.text, board.text
        members = await (await ann.slash("leaderboard", channel=w.channel,
                                          game="mesopotamia")).final()
        assert "Nobody has finished" in members.text, members.text

        assert replays_to(tmp_path, now.state)["mode"] == "guardians"
