"""The engine contract, checked for every registered game (and the test game Bazaar).

Each game gets random playouts for every player count it allows, some with AI seats,
through :func:`tests.contract.playout` (what it checks is listed there). The big runs
(thousands of playouts) are ``benchmarks/contract_playouts.py``; this is a sample of
the same checks, sized so that the whole suite stays short.
"""

from __future__ import annotations

import pytest

from bot import ai, registry
from bot.registry import GameEntry
from tests import bazaar, contract
from tests.contract import playout

GAMES: dict[str, GameEntry] = {**registry.GAMES, "bazaar": bazaar.ENTRY}
PLAYOUTS = {"ur": 100, "bazaar": 200, "flood": 100, "mesopotamia": 1}
"""Random playouts per player count (Ur's games are long: its thorough checks are
sampled, and its own property tests check more; random Mesopotamia games last hundreds of
rounds: ``tests/test_mesopotamia_battles.py`` plays more of them)."""
DENSITY = {"ur": 0.02, "civsets": 0.03, "flood": 0.5, "mesopotamia": 0.02}
AI_GAMES = {"ur": 1, "bazaar": 10, "civsets": 2, "flood": 3, "mesopotamia": 1}
AI_SEATS = {"ur": 1, "mesopotamia": 1}
FAST_AI = {"civsets", "flood", "mesopotamia"}
MAX_STEPS = {"mesopotamia": 60_000}
"""Steps a playout may take before it counts as endless (default: the contract's)."""
"""Games whose AI test plays with the fast budget (the full one takes 20 s a game)."""
"""AI seats in those games (all by default; Ur's AI takes 30 ms a step)."""


def cases() -> list[tuple[str, int]]:
    """Every game with every player count it allows."""
    return [(game, n) for game, entry in sorted(GAMES.items())
            for n in range(entry.engine.meta.min_players, entry.engine.meta.max_players + 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), cases())
def test_random_playouts_keep_the_contract(game: str, players: int) -> None:
    entry = GAMES[game]
    ended = 0
    for seed in range(PLAYOUTS.get(game, 100)):
        result = playout(entry, players, seed, density=DENSITY.get(game, 1.0),
                         images=3 if seed % 10 == 0 else 0,
                         max_steps=MAX_STEPS.get(game, contract.MAX_STEPS))
        ended += result.outcome is not None
    assert ended == PLAYOUTS.get(game, 100)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), cases())
def test_the_ai_finishes_games(game: str, players: int) -> None:
    entry = GAMES[game]
    for seed in range(AI_GAMES.get(game, 3)):
        result = playout(entry, players, 10_000 + seed,
                         ai_seats=range(AI_SEATS.get(game, players)),
                         density=DENSITY.get(game, 1.0), images=0,
                         budget=ai.FAST_BUDGET if game in FAST_AI else ai.DEFAULT_BUDGET,
                         max_steps=MAX_STEPS.get(game, contract.MAX_STEPS))
        assert result.outcome is not None
