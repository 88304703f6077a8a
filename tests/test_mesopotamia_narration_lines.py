"""How the channel reads the Automaton's turns and combats, in English and French: the next
player's roll a sentence on its own line (never "… and then Avery rolls"), the Automaton's
reasons as clauses (« (priority 5: it has fewer than 3 units) »), and a combat against the
Automaton begun and ended within one step told whole (its cards drawn, then revealed)."""

from __future__ import annotations

import pytest

from bot.engine import State
from bot.games.kit import clone
from bot.games.mesopotamia import solo
from bot.games.mesopotamia.automaton import cards as C
from bot.games.mesopotamia.automaton import explain, play
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.words import in_region
from bot.i18n import catalogue, translate
from tests.contract import NAMES
from tests.test_mesopotamia_automaton_rules import AUTO, at_automaton_turn
from tests.test_mesopotamia_solo_engine import against_automaton

NBSP = "\N{NO-BREAK SPACE}"
"""French puts it before « : »."""


def test_the_next_players_roll_is_a_sentence_of_its_own() -> None:
    """The Automaton's last step ends its turn; Avery's roll follows on its own line, a
    sentence of its own, not joined to the Automaton's words."""
    state = at_automaton_turn()
    while True:
        (step,) = play.next_steps(state, AUTO).steps
        after = GAME.apply(state, AUTO, step)
        if after["current"] != AUTO:
            break
        state = after
    report = GAME.report(state, AUTO, GAME.parse(state, AUTO, step), after)
    assert step == "end" and report.quiet
    assert translate(report.public, "en", NAMES) == \
        "ends the turn\nAvery rolls Ash on the Dingir dice."
    assert translate(report.public, "fr", NAMES) == \
        "finit son tour\nAvery obtient Ash aux dés Dingir."


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "(priority 5: it has fewer than 3 units)"),
    ("fr", f"(priorité 5{NBSP}: il a moins de 3 unités)"),
])
def test_the_automatons_reason_reads_as_a_clause(lang: str, said: str) -> None:
    """« (priority 5: it has fewer than 3 units) », not the card's printed sentence « (priority
    5: If the Automaton has less than 3 units.) »."""
    record = {"conditions": {"sc3": True}, "values": {"sc3": 5}}
    title = translate(C.title("sc3"), lang)
    assert translate(explain.card_priority(record, "sc3"), lang) == f"{title} {said}"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_reason_is_a_clause(lang: str) -> None:
    """Each Strategy card's reason begins in lower case, ends without a full stop and does not
    speak to "you"."""
    known = catalogue(lang)
    for card in C.STRATEGIES:
        reason = known[f"mesopotamia.automaton.reason.{card}"]
        assert reason[0].islower() and not reason.endswith("."), reason
        assert "your" not in reason and "votre" not in reason, reason


def opened_and_ended() -> tuple[State, State]:
    """A combat against the Automaton begun and ended at once (no phalanx: a single clash),
    and the state before it began."""
    after, _ = against_automaton(["archer"], ["spearman"], (0, 0), seed=4)
    assert "solo" not in after and len(after["solo_over"]) == 1
    before = clone(after)
    for key in ("solo_over", "clashed"):
        before.pop(key)
    return before, after


def test_a_combat_begun_and_ended_in_one_step_is_told_whole() -> None:
    """Its cards drawn, the Automaton's revealed, then the clash, in both languages."""
    before, after = opened_and_ended()
    fight = after["solo_over"][0]
    where = {lang: translate(in_region(fight["region"]), lang) for lang in ("en", "fr")}
    told = {lang: [translate(x, lang, NAMES) for x in solo.told(before, after, False)]
            for lang in ("en", "fr")}
    assert told["en"][0] == f"Avery fights the Automaton {where['en']}, without bids: their " \
        "combat cards are drawn face up, the Automaton's face down"
    assert told["fr"][0] == f"Avery affronte l'Automate {where['fr']}, sans enchères{NBSP}:" \
        " ses cartes Combat sont piochées face visible, celles de l'Automate face cachée"
    assert told["en"][1].startswith("the Automaton turns its cards face up: the Automaton's "
                                    "Spearman (2)")
    assert told["fr"][1].startswith(f"l'Automate retourne ses cartes{NBSP}:")
    assert len(told["en"]) == 3 and "Archer" in told["en"][2]
