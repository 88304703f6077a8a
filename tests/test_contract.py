"""The engine contract, checked for every registered game (and the test game Bazaar).

Each game gets random playouts for every player count it allows, some with AI seats,
through :func:`tests.contract.playout` (what it checks is listed there), as many as its
engine's ``tuning`` says (:class:`bot.games.kit.ContractTuning`). The big runs
(thousands of playouts) are ``benchmarks/contract_playouts.py``; this is a sample of
the same checks, sized so that the whole suite stays short.
"""

from __future__ import annotations

import pytest

from bot import ai
from bot.games.kit import tuning_of
from host import registry
from host.registry import GameEntry
from tests import bazaar
from tests.contract import playout

GAMES: dict[str, GameEntry] = {**registry.GAMES, "bazaar": bazaar.ENTRY}


def cases() -> list[tuple[str, int]]:
    """Every game with every player count it allows."""
    return [(game, n) for game, entry in sorted(GAMES.items())
            for n in range(entry.engine.meta.min_players, entry.engine.meta.max_players + 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), cases())
def test_random_playouts_keep_the_contract(game: str, players: int) -> None:
    entry = GAMES[game]
    tuning = tuning_of(entry.engine)
    ended = 0
    for seed in range(tuning.playouts):
        result = playout(entry, players, seed, density=tuning.density,
                         images=3 if seed % 10 == 0 else 0, max_steps=tuning.max_steps)
        ended += result.outcome is not None
    assert ended == tuning.playouts


def variants() -> list[tuple[str, dict[str, str]]]:
    """Every game with each option set its tuning names (``ContractTuning.variants``)."""
    return [(game, dict(variant)) for game, entry in sorted(GAMES.items())
            for variant in tuning_of(entry.engine).variants]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), variants())
def test_the_variants_keep_the_contract(game: str, options: dict[str, str]) -> None:
    """A random game and an AI game of each variant, at the fewest players (a game's own
    opponent seated by the options playing its seats)."""
    entry = GAMES[game]
    tuning = tuning_of(entry.engine)
    players = entry.engine.meta.min_players
    for ai_seats, budget in (((), ai.DEFAULT_BUDGET), (range(players), ai.FAST_BUDGET)):
        result = playout(entry, players, 20_000, options=options, ai_seats=ai_seats,
                         density=tuning.density, images=3, budget=budget,
                         max_steps=tuning.max_steps)
        assert result.outcome is not None


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), cases())
def test_the_ai_finishes_games(game: str, players: int) -> None:
    entry = GAMES[game]
    tuning = tuning_of(entry.engine)
    for seed in range(tuning.ai_games):
        result = playout(entry, players, 10_000 + seed,
                         ai_seats=range(tuning.ai_seats or players),
                         density=tuning.density, images=0,
                         budget=ai.FAST_BUDGET if tuning.fast_ai else ai.DEFAULT_BUDGET,
                         max_steps=tuning.max_steps)
        assert result.outcome is not None
