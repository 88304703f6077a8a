"""Whatever a player types to /play, every game answers with a rule error it can translate,
never with a crash: legal steps with a word changed, dropped, added or mistyped (odd numbers
such as ``²`` or ``-1``, other games' words), in English and in French, by the deciding seat
and by the others, at random moments of random games. ``benchmarks/fuzz_interactions.py``
sends the same kinds of text through the real bot; this is its quick engine-level sample."""

from __future__ import annotations

import random

import pytest

from benchmarks.fuzz_interactions import ODD, damaged
from bot.engine import Action, GameError, Seat, State
from bot.i18n import translate
from bot.notation import localized, parse_typed
from host import registry

GAMES = 3
"""Random games per game id."""
PROBES = 4
"""Junk texts tried at each state of those games."""


def junk(rng: random.Random, legal: list[Action]) -> str:
    """A legal step's notation, damaged the way a hurried player or the fuzzer damages it,
    or one of the fuzzer's odd texts."""
    return damaged(rng, legal) if rng.random() < 0.8 else rng.choice(ODD)


def answer(game: str, state: State, seat: Seat, text: str, lang: str, n: int) -> str:
    """What the bot would tell the player: the step's notation, or the refusal's text."""
    engine = registry.get(game).engine
    try:
        return parse_typed(engine, state, seat, text, lang).notation
    except GameError as error:
        return translate(error.reason, lang, tuple(f"P{i}" for i in range(n)))


@pytest.mark.parametrize("game", registry.ids())
def test_junk_typed_to_play_is_refused_with_a_reason(game: str) -> None:
    engine = registry.get(game).engine
    rng = random.Random(game)
    answers = 0
    for _ in range(GAMES):
        n = rng.randrange(engine.meta.min_players, engine.meta.max_players + 1)
        state = engine.setup(rng.randrange(10**6), n, {})
        for _ in range(rng.randrange(20, 120)):
            deciding = engine.active(state)
            if not deciding:
                break
            for _ in range(PROBES):
                legal = engine.legal(state, rng.choice(deciding))
                text = junk(rng, legal)
                seat = rng.randrange(n)
                for lang in ("en", "fr"):
                    typed = localized(game, text, lang) if lang == "fr" else text
                    assert answer(game, state, seat, typed, lang, n).strip()
                    answers += 1
            seat = rng.choice(deciding)
            state = engine.apply(state, seat, rng.choice(engine.legal(state, seat)))
    assert answers > 100
