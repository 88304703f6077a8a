"""The Automaton's cards against the rulebook: the counts of its component list, the three
printed Strategy cards as printed, the difficulty tables as printed, every text in both
languages (``data/mesopotamia/automaton``, R-auto-deck, R-auto-action-cards)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import cards as C
from bot.i18n import LANGUAGES, catalogue

SEED = (Path(__file__).resolve().parents[2] / "shared" / "seeds" /
        "004_5aa664732721ab18.txt")
if not SEED.exists():       # the worktrees sit beside main; the shared folder beside them
    SEED = Path("/work/shared/seeds/004_5aa664732721ab18.txt")
TEXT = SEED.read_text(encoding="utf-8") if SEED.exists() else ""
needs_seed = pytest.mark.skipif(not TEXT, reason="the rulebook text is not here")


@needs_seed
def test_the_component_list_counts() -> None:
    """« 7 cartes Action (mode solo) » « 18 cartes Stratégie (mode solo) » « Il existe 10 cartes
    Stratégie de base et 8 cartes spécifiques aux Empires. »"""
    assert "7 cartes Action\n(mode solo)" in TEXT and "18 cartes Stratégie\n(mode solo)" in TEXT
    assert "Il existe 10 cartes Stratégie de base et 8 cartes spécifiques aux Empires." in TEXT
    assert len(C.ACTION_CARDS) == 7
    assert len(C.STRATEGIES) == 18
    assert len(C.BASE) == 10
    per_empire = Counter(s.empire for s in C.STRATEGIES.values() if s.empire)
    assert per_empire == dict.fromkeys(D.EMPIRES, 2)


@pytest.mark.parametrize("empire", sorted(D.EMPIRES))
def test_each_deck_is_8_base_cards_and_2_of_the_empire(empire: str) -> None:
    """« gardez 8 cartes Stratégie de base ; ajoutez les 2 cartes spécifiques à l'Empire contre
    qui vous jouez. Placez le paquet de 10 cartes près de vous. » An empire card replaces a base
    card (« la carte « Progrès sumérien » remplace la carte « Progrès » de base »)."""
    deck = C.deck_for(empire)
    assert len(deck) == len(set(deck)) == 10
    own = [c for c in deck if C.STRATEGIES[c].empire == empire]
    assert len(own) == 2 and len([c for c in deck if c in C.BASE]) == 8
    replaced = {C.STRATEGIES[c].replaces for c in own}
    assert len(replaced) == 2 and replaced <= set(C.BASE) and not replaced & set(deck)


def test_sumerian_progress_replaces_progress() -> None:
    """« Par exemple, la carte « Progrès sumérien » remplace la carte « Progrès » de base. »"""
    assert C.STRATEGIES["sc11"].replaces == "sc1"
    assert catalogue("fr")["mesopotamia.automaton.title.sc1"] == "PROGRÈS"
    assert catalogue("fr")["mesopotamia.automaton.title.sc11"] == "PROGRÈS SUMÉRIEN"


PRINTED = {"sc11": (3, 13, "research", "growth"), "sc9": (8, 20, "construction", "harvest_trade"),
           "sc5": (9, 19, "construction", "exploration")}


@needs_seed
@pytest.mark.parametrize("card", sorted(PRINTED))
def test_the_printed_cards_are_transcribed(card: str) -> None:
    """SUMERIAN PROGRESS (« Si c'est vrai → Priorité haute : 3 », « Si c'est faux → Priorité
    basse : 13 »), DEVELOPMENT (« 8  20 ») and ATTACK (« 9  19 ») with their English texts as
    printed (R-auto-warfare: WARFARE is a Construction, R-auto-research: the p. 45 text)."""
    high, low, left, right = PRINTED[card]
    strategy = C.STRATEGIES[card]
    assert strategy.origin == "printed"
    assert (strategy.high, strategy.low) == (high, low)
    assert f"{high}  {low}" in TEXT or f"Priorité haute : {high}" in TEXT
    assert [s.action for s in strategy.slots] == [left, right]
    en = catalogue("en")
    for key in (f"title.{card}", f"condition.{card}", f"slot.{card}_left", f"slot.{card}_right",
                f"slot_text.{card}_left", f"slot_text.{card}_right"):
        text = en[f"mesopotamia.automaton.{key}"]
        assert isinstance(text, str) and text in TEXT, text
    assert f"SC{strategy.number}" in TEXT


def test_the_other_fifteen_are_marked_designed() -> None:
    """Three cards are printed; the fifteen others were designed for this project."""
    designed = [c for c, s in C.STRATEGIES.items() if s.origin == "designed"]
    assert len(designed) == 15 and set(C.STRATEGIES) - set(designed) == set(PRINTED)
    assert "designed" in C.STRATEGY_DATA["designed_for"]


def test_strategy_cards_are_well_formed() -> None:
    """Two actions a card, each an engine action with a plan; conditions known; high priority
    a lower value than low priority."""
    tests = set(C.STRATEGY_DATA["conditions"])
    for card, s in C.STRATEGIES.items():
        assert s.condition["test"] in tests, card
        assert s.high < s.low, card
        assert all(slot.action in D.ACTIONS for slot in s.slots), card
        assert C.number(card) == int(card[2:])


def test_the_action_cards_are_one_per_action_and_the_star() -> None:
    """« une carte Recherche, et une carte Récolte et Échange » … « une carte Étoile faisant
    office de joker » (R-auto-action-cards)."""
    assert sorted(a for a in C.ACTION_CARDS.values() if a) == sorted(D.ACTIONS)
    assert C.ACTION_CARDS[C.STAR] is None


@needs_seed
def test_the_difficulty_tables_are_the_rulebook_s() -> None:
    """« Empereur – Facile », « Igigi – Moyen », « Anunnaki – Difficile »: Action cards drawn by
    Ziggurat storey, read from the text itself."""
    names = {"emperor": "Empereur – Facile", "igigi": "Igigi – Moyen",
             "anunnaki": "Anunnaki – Difficile"}
    for difficulty, heading in names.items():
        after = TEXT[TEXT.index(heading):]
        rows = re.findall(r"^(\d)\t(\d) \+ action de Priorité haute$", after, re.M)[:7]
        assert [int(s) for s, _ in rows] == list(range(7))
        assert C.DRAWS[difficulty] == tuple(int(n) for _, n in rows)
        assert [C.draws(difficulty, s) for s in range(7)] == [int(n) for _, n in rows]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_text_is_in_both_languages(lang: str) -> None:
    """Titles, conditions, action names and texts, Action cards and difficulties."""
    known = catalogue(lang)
    for card in C.STRATEGIES:
        for key in (f"title.{card}", f"condition.{card}"):
            assert f"mesopotamia.automaton.{key}" in known
        for side in ("left", "right"):
            assert f"mesopotamia.automaton.slot.{card}_{side}" in known
            assert f"mesopotamia.automaton.slot_text.{card}_{side}" in known
    for card in C.ACTION_CARDS:
        assert f"mesopotamia.automaton.card.{card}" in known
    for difficulty in C.DIFFICULTIES:
        assert f"mesopotamia.automaton.difficulty.{difficulty}" in known
