"""Steps typed in the player's language (issue "What players found", item 2): read back
to the canonical notation, every legal step of random Ur games in French included."""

from __future__ import annotations

import random

import pytest

from bot.engine import BadNotation, IllegalMove
from bot.games.ur.engine import GAME
from bot.i18n import LANGUAGES, catalogue
from bot.notation import canonical, localized, parse_typed


def test_french_words_read_back_to_the_canonical_notation() -> None:
    assert canonical("ur", "Placer c3", "fr") == "place c3"
    assert canonical("ur", "ÉCHANGER D5 face Guerre", "fr") == "exchange D5 face war"
    assert canonical("ur", "echanger reserve face culture", "fr") == \
        "exchange spare face culture"                     # without accents too
    assert canonical("ur", "place C3", "fr") == "place C3"   # canonical words stay
    assert localized("ur", "war B3>C3 move 2", "fr") == "guerre B3>C3 déplacer 2"
    assert localized("ur", "end", "en") == "end"


def test_a_word_means_one_thing_in_each_language() -> None:
    for lang in LANGUAGES:
        words = [w.casefold() for k, w in catalogue(lang).items() if k.startswith("ur.word.")]
        assert len(words) == len(set(words)) == 18, lang


@pytest.mark.parametrize("seed", range(5))
def test_every_legal_step_can_be_typed_in_french(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.setup(seed, 3, {})
    for _ in range(400):
        seat = GAME.active(state)[0]
        legal = GAME.legal(state, seat)
        for action in legal:
            typed = localized("ur", action.notation, "fr")
            assert parse_typed(GAME, state, seat, typed, "fr") == action, typed
        state = GAME.apply(state, seat, rng.choice(legal))
        if GAME.outcome(state) is not None:
            break


def test_an_unknown_word_is_refused_with_what_was_typed() -> None:
    state = GAME.setup(1, 3, {})
    with pytest.raises(BadNotation) as error:
        parse_typed(GAME, state, 0, "voler C3", "fr")
    assert "voler C3" in str(error.value.reason.kwargs)


def test_a_french_step_refused_is_quoted_in_the_words_typed() -> None:
    state = GAME.setup(1, 3, {})
    seat = GAME.active(state)[0]
    with pytest.raises(BadNotation) as error:
        parse_typed(GAME, state, seat, "guerre A4", "fr")        # misses its target
    assert error.value.reason.key == "ur.err.form"
    assert error.value.reason.kwargs["text"] == "guerre A4"
    with pytest.raises(IllegalMove) as refused:
        parse_typed(GAME, state, seat, "échanger A1 face guerre", "fr")   # not now
    assert refused.value.reason.key == "ur.err.when"
