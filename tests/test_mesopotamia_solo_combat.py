"""« COMBAT EN SOLO » (seed 004, p. 48-49): the Automaton's answer by the rules A-E, and the
rulebook's worked example, clash by clash, with every number it gives.

The example's cards are in ``combat.json`` with their printed values: your Archer and the
Automaton's Archer draw ``archer_01``/``archer_03`` (Force 2 printed: « L'Archer a 3 en Force »
with 1 placed, « L'Automate alloue 2 Phalanges en Force »), your Spearman ``spearman_03``
(Force 2, Tactics 1 printed: « Le Lancier a 4 en Force et 1 en Tactique » with 2 placed), the
Automaton's Spearman ``spearman_02`` (Force 0 and four Force slots: « Valeur de combat
théorique maximum = 4 »). You place 6 of your 7 phalanxes: 1 Force, 2 Tactics and 1 Mobility on
the Archer, 2 Force on the Spearman (R-solo-example).
"""

from __future__ import annotations

import pytest

from bot.chance import Draw, start
from bot.games.mesopotamia.automaton.solo_combat import (
    AUTOMATON,
    YOU,
    SoloCombat,
    Unit,
    draw_cards,
    response,
)
from bot.games.mesopotamia.standard import CARDS


def example() -> SoloCombat:
    """« Vous contrôlez 1 Archer et 1 Lancier, et disposez de 7 Phalanges. Vous devancez
    l'Automate sur la piste Événement. L'Automate contrôle 1 Archer et 1 Lancier, et dispose de
    4 Phalanges. »"""
    units = [Unit(YOU, "archer", "archer_01"), Unit(YOU, "spearman", "spearman_03"),
             Unit(AUTOMATON, "archer", "archer_03"), Unit(AUTOMATON, "spearman", "spearman_02")]
    combat = SoloCombat(units, {YOU: 7, AUTOMATON: 4}, you_lead=True)
    combat.place(0, "force", 1)
    combat.place(0, "tactic", 2)
    combat.place(0, "mobility", 1)
    combat.place(1, "force", 2)
    return combat


def test_the_example_placements() -> None:
    """« Vous enchérissez 6 Phalanges » … « L'Archer a 3 en Force, 2 en Tactique et 1 en
    Mobilité. » « Le Lancier a 4 en Force et 1 en Tactique. »"""
    combat = example()
    archer, spearman = combat.units[0], combat.units[1]
    assert combat.placed == 6
    assert [archer.value(r) for r in ("force", "tactic", "mobility")] == [3, 2, 1]
    assert [spearman.value(r) for r in ("force", "tactic")] == [4, 1]


def test_the_worked_example_clash_by_clash() -> None:
    """The three clashes of « Exemple » with every number the book gives."""
    combat = example()
    your_archer, your_spearman, its_archer, its_spearman = range(4)
    # « Vous placez votre Archer face au Lancier de l'Automate pour commencer. »
    one = combat.clash(your_archer, its_spearman, fatigue="tactic")
    # « Votre Archer : Valeur de combat totale = 3 Force + 2 Tactique = 5 »
    assert one.your_total == 5
    # « Lancier Automate : Valeur de combat théorique maximum = 4 »
    assert one.response.maximum == 4
    # « L'Automate n'alloue aucune Phalange en Force ou Tactique, car il ne peut pas gagner,
    # mais il alloue 1 Phalange en Mobilité puisqu'il peut tout de même fuir. »
    assert (one.response.force, one.response.tactic, one.response.mobility) == (0, 0, 1)
    assert one.response.rule == "D"
    # « Le Lancier parvient à s'échapper, et vous défaussez la Phalange allouée en Tactique. »
    assert one.winner == YOU and one.loser_fate == "fled" and one.fatigue == "tactic"
    assert combat.units[its_spearman].out == "fled"
    assert combat.units[your_archer].value("tactic") == 1
    assert combat.phalanxes[AUTOMATON] == 3

    two = combat.clash(your_archer, its_archer)
    # « Votre Archer : Valeur de combat totale = 3 Force »
    assert two.your_total == 3
    # « L'Automate alloue 2 Phalanges en Force pour tenter de gagner. »
    assert (two.response.force, two.response.tactic) == (2, 0)
    assert two.its_total == 4 and two.winner == AUTOMATON
    # « Il reste 1 Phalange à l'Automate, ce qui ne lui permet pas de gagner la Phase Mobilité
    # (il lui en faudrait 2), et votre Archer peut donc battre en retraite. »
    assert combat.phalanxes[AUTOMATON] == 1
    assert two.response.mobility == 0
    assert combat.units[your_archer].value("mobility") + 1 == 2
    assert two.loser_fate == "fled"
    # « L'Archer de l'Automate perd 1 Phalange allouée en Force, car il est fatigué. »
    assert two.fatigue == "force"
    assert combat.units[its_archer].alloc["force"] == 1

    three = combat.clash(your_spearman, its_archer)
    # « Votre Lancier : Valeur de combat totale = 4 Force » « Archer Automate : Valeur de combat
    # totale = 3 Force »
    assert three.your_total == 4 and three.its_total == 3
    # « a encore 1 Phalange ; mais vous êtes en tête sur la piste Événement. Même si l'Automate
    # alloue sa dernière Phalange en Tactique pour jouer l'égalité, il perdra le départage. »
    assert three.response.maximum == 4
    # « À la place, il l'alloue en Mobilité pour battre en retraite. »
    assert (three.response.force, three.response.tactic, three.response.mobility) == (0, 0, 1)
    assert three.loser_fate == "fled" and three.winner == YOU
    # « Vous gagnez le combat et prenez le contrôle de la région. Vous défaussez les 6 Phalanges
    # utilisées. »
    assert combat.winner() == YOU
    assert combat.losses()[YOU] == 6
    assert combat.settle() == {YOU: 1, AUTOMATON: 0}


def test_the_example_ahead_on_the_event_track_or_with_one_more_phalanx() -> None:
    """« L'Automate aurait cherché à gagner le combat s'il avait été devant vous sur la piste
    Événement, ou s'il avait eu 1 Phalange de plus pour son Lancier. »: in the third clash its
    Archer ties at 4 in Tactics and wins while ahead; with one more phalanx it would win
    outright (its Tactics first, since it has the advantage over the Spearman)."""
    spearman = Unit(YOU, "spearman", "spearman_03", {"force": 2, "tactic": 0, "mobility": 0})
    archer = Unit(AUTOMATON, "archer", "archer_03", {"force": 1, "tactic": 0, "mobility": 0})
    ahead = response(spearman, archer, 1, automaton_leads=True)
    assert (ahead.rule, ahead.tactic, ahead.force) == ("A", 1, 0)
    more = response(spearman, archer, 2, automaton_leads=False)
    assert (more.rule, more.tactic, more.force) == ("A", 2, 0)


def test_rule_b_mobility_only_if_it_destroys() -> None:
    """« S'il lui reste des Phalanges après avoir misé en Tactique et Force, il les alloue en
    Mobilité. Ne faites ceci que si l'Automate a suffisamment de Phalanges pour détruire votre
    Unité. »: its Cavalry (advantage over your Archer: Tactics first) wins with 1 in Tactics;
    with 3 more it chases (2 Mobility against your 1), with 1 more it keeps it."""
    yours = Unit(YOU, "archer", "archer_01", {"force": 1, "tactic": 0, "mobility": 1})
    its = Unit(AUTOMATON, "cavalry", "cavalry_01")
    chase = response(yours, its, 4, automaton_leads=False)
    assert (chase.force, chase.tactic, chase.mobility, chase.rule) == (0, 1, 2, "B")
    keep = response(yours, its, 2, automaton_leads=False)
    assert (keep.force, keep.tactic, keep.mobility, keep.rule) == (0, 1, 0, "A")


def test_rule_c_and_e_nothing_wasted_and_the_unit_destroyed() -> None:
    """« S'il ne peut pas gagner, il n'alloue pas de Phalanges en Tactique et en Force. » « S'il
    ne peut pas fuir, il n'alloue aucune Phalange en Mobilité ; à la place, il défausse 1 Phalange
    et l'Unité est détruite. »: its Archer's card has one Mobility slot, your Cavalry 2
    Mobility."""
    strong = Unit(YOU, "cavalry", "cavalry_01", {"force": 2, "tactic": 2, "mobility": 2})
    its = Unit(AUTOMATON, "archer", "archer_03")
    answer = response(strong, its, 3, automaton_leads=False)
    assert (answer.force, answer.tactic, answer.mobility, answer.discard) == (0, 0, 0, 1)
    assert answer.rule == "E"
    combat = SoloCombat([strong, its], {YOU: 6, AUTOMATON: 3}, you_lead=False)
    clash = combat.clash(0, 1)
    assert clash.loser_fate == "dead" and combat.phalanxes[AUTOMATON] == 2
    assert combat.winner() == YOU and clash.fatigue is None


def test_you_place_only_on_your_cards_within_slots_and_stock() -> None:
    """« Placez autant de Phalanges que vous souhaitez dans les emplacements libres de vos
    cartes Combat. »"""
    combat = SoloCombat([Unit(YOU, "archer", "archer_06"), Unit(AUTOMATON, "archer",
                                                                 "archer_01")],
                        {YOU: 2, AUTOMATON: 0}, you_lead=True)
    with pytest.raises(ValueError):
        combat.place(0, "force", 2)         # archer_06 has one Force slot
    with pytest.raises(ValueError):
        combat.place(1, "force", 1)         # the Automaton's card
    combat.place(0, "tactic", 2)
    with pytest.raises(ValueError):
        combat.place(0, "mobility", 1)      # no phalanx left


def test_cards_are_drawn_through_chance_one_per_unit_of_its_type() -> None:
    """« Piochez 1 carte Combat au hasard face visible pour chacune de vos Unités. »: the same
    box draws the same cards; each card is of its unit's type, never twice."""
    box = {"chance": start(11)}
    kinds = ["archer", "archer", "spearman", "chariot"]
    cards = draw_cards(Draw(box), kinds)
    again = draw_cards(Draw({"chance": start(11)}), kinds)
    assert cards == again and len(set(cards)) == 4
    assert [CARDS[c]["unit"] for c in cards] == kinds
