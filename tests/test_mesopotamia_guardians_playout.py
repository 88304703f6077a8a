"""Whole games of the Guardians of Assur: random playouts keep the mode's invariants, end with a
shared result, replay to the same state, and the public view hides every secret."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games.kit import typed
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.guardians import mode
from bot.games.mesopotamia.state import PHASES, MesopotamiaState, seal_order

OPTIONS = {"mode": "guardians"}
ENEMY = 1


def check(state: dict[str, Any]) -> None:
    """The invariants of a Guardians state."""
    ms = typed(MesopotamiaState, state)
    box = state["guardians"]
    assert state["players"][ENEMY]["empire"] is None
    if state["phase"] in PHASES:
        return
    assert 1 <= box["wave"] <= len(mode.WAVES)
    assert ENEMY not in seal_order(ms, "population") and ENEMY in seal_order(ms, "event")
    assert state["players"][ENEMY]["res"]["phalanx"] >= 0
    enemy = [u for u in state["units"] if u[0] == ENEMY]
    assert {u[1] for u in enemy} <= set(mode.DATA["kinds"])
    assert not [u for u in enemy if u[2] in state["blockers"]]
    for kind in mode.DATA["kinds"]:
        made = sum(w[kind] for w in mode.WAVES[: box["wave"]])
        assert sum(1 for u in enemy if u[1] == kind) <= made
    assert len(state["players"][0].get("gardens", [])) == min(box["wave"] - 1, D.GARDEN_STOREYS)
    assert (box["result"] is not None) == (state["phase"] == "over")


def secrets_hidden(state: dict[str, Any]) -> None:
    public = json.dumps(GAME.view(state, None), ensure_ascii=False)
    for secret in GAME.secrets(state):
        if isinstance(secret.value, str):
            assert secret.value not in public, secret.value


def play(seed: int, max_steps: int = 30_000) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A game where you play random legal steps and the enemy its scripted ones."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 2, OPTIONS)
    log: list[tuple[int, str]] = []
    for step in range(max_steps):
        active = GAME.active(state)
        if not active:
            return state, log
        seat = active[0]
        if automaton.plays(state, seat):
            notation = automaton.next_step(state, seat)
        else:
            legal = [a.notation for a in GAME.legal(state, seat)]
            ends = [n for n in legal if n == "end"]
            notation = ends[0] if ends and rng.random() < 0.3 else rng.choice(legal)
        state = GAME.apply(state, seat, notation)
        log.append((seat, notation))
        check(state)
        if step % 25 == 0:
            secrets_hidden(state)
    raise AssertionError(f"seed {seed}: no end after {max_steps} steps")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_invariants_end_and_replay(seed: int) -> None:
    state, log = play(seed)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.together is None
    assert outcome.scores[ENEMY] == 0
    again = GAME.setup(seed, 2, OPTIONS)
    for seat, notation in log:
        again = GAME.apply(again, seat, notation)
    assert again == state
    secrets_hidden(state)
