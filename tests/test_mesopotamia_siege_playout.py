"""Random playouts of the Siege of Ur: the project's AI (or random steps) against the Defenders,
whose every step is the script's; invariants at every step, the game ends won or lost, its
log replays to its state and no view shows a secret to a seat that may not read it."""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter

import pytest

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import siege
from bot.games.mesopotamia.automaton import play
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import PHASES, units_of
from bot.i18n import translate
from dingir import local
from tests.contract import hidden_from

YOU, THEM = 0, 1
MAX_STEPS = 4_000
SEEDS = range(6)


def check(state: State) -> None:
    """The Siege's invariants."""
    for seat, player in enumerate(state["players"]):
        assert all(v >= 0 for v in player["res"].values()), player["res"]
        kinds = Counter(u[1] for u in units_of(state, seat))
        assert all(kinds[k] <= D.FIGURES[k] for k in kinds), kinds
        assert len(player["colonies"]) <= D.PIECES["colony"]
    ladder = state["siege"]["ladder"]
    assert all(0 <= ladder[kind] <= int(n) for kind, _, n in siege.DATA["ladder"])
    for track in D.TRACKS:
        pile = state["seals"][track]
        assert [c for _, c in pile] == sorted((c for _, c in pile), reverse=True)
        if pile[0][1] == pile[1][1]:
            assert pile[0][0] == YOU, pile       # R-siege-seals
    land = {u[2] for u in units_of(state, THEM) if u[1] in D.LAND}
    assert not land & set(state["ziggurats"])
    assert all(slot in state["trade"] for slot in state.get("amphorae", {}))


def no_leak(state: State) -> None:
    """No view shows a secret its reader may not read (your quest cards above all)."""
    secrets = GAME.secrets(state)
    for reader in (None, YOU, THEM):
        shown = json.dumps(GAME.view(state, reader), ensure_ascii=False).lower()
        assert not [s for s in hidden_from(secrets, reader, 2) if s in shown], reader


def playout(seed: int, ai: bool) -> tuple[State, list[tuple[int, str]], State]:
    rng = random.Random(f"siege:{seed}")
    start = GAME.setup(rng.getrandbits(63), 2, {"mode": "siege"})
    state, log = start, []
    while GAME.outcome(state) is None:
        assert len(log) < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} steps"
        (seat,) = GAME.active(state)[:1]
        legal = GAME.legal(state, seat)
        if play.plays(state, seat):
            step = play.next_step(state, seat)
            action = next(a for a in legal if a.notation == step)
        else:
            assert seat == YOU
            found = GAME.ai_step(state, seat, legal, rng) if ai else rng.choice(legal)
            assert found is not None
            action = found
        after = GAME.apply(state, seat, action)
        if after["phase"] not in PHASES:
            check(after)
            report = GAME.report(state, seat, action, after)
            for lang in ("en", "fr"):
                assert "mesopotamia." not in translate(report.public, lang)
        if len(log) % 7 == 0:
            no_leak(after)
        log.append((seat, action.notation))
        state = after
    return state, log, start


def test_playouts_end_won_or_lost_with_the_invariants_and_replay() -> None:
    """A few games, AI and random steps in turn; the first one's log replays to its state."""
    for seed in SEEDS:
        state, log, start = playout(seed, ai=seed % 2 == 0)
        outcome = GAME.outcome(state)
        assert outcome is not None and state["phase"] == "over"
        result = state["siege"]["result"]
        assert result in ("won", "lost") and outcome.seat_won(YOU) == (result == "won")
        assert result == siege.result_now(state)
        if seed == SEEDS.start:
            again = start
            for seat, step in log:
                again = GAME.apply(again, seat, step)
            assert again == state


def test_the_terminal_plays_a_whole_siege(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m dingir.local mesopotamia --players 1 --option mode=siege --ai all`` plays to
    the end: the Defenders named, their turns told, a JSON result line."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = local.main(["mesopotamia", "--players", "1", "--option", "mode=siege",
                         "--ai", "all", "--seed", "3"])
    out = capsys.readouterr().out.splitlines()
    assert status == local.EXIT_OK
    assert any(line.startswith("Garrison of Ur: defend → reveals ") for line in out)
    result = json.loads(out[-1])
    assert result["winners"] in ([1], [2]) and set(result["scores"]) == {"1", "2"}
    assert "together" not in result                       # one person: not a team (R-solo-one)
