"""The Automaton's turn, sentence by sentence against « MODE DUEL DES ROIS » (seed 004,
pp. 44-47), and its steps through the engine (R-auto-*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import State
from bot.games.kit import typed
from bot.games.mesopotamia import bids
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import cards as C
from bot.games.mesopotamia.automaton import deck, explain, play, priorities, supply
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import MesopotamiaState
from bot.i18n import translate
from tests.test_mesopotamia_actions import set_card

AUTO = 1


def at_automaton_turn(seed: int = 3, difficulty: str = "igigi", empire: str | None = None
                      ) -> State:
    """A 2-player game, seat 1 an Automaton, at the start of its first turn (seat 0 takes the
    first options of the setup and one Growth with its pawn)."""
    state = GAME.setup(seed, 2, {})
    deck.enlist(state, AUTO, difficulty)
    while not (state["phase"] == "actions" and state["current"] == AUTO):
        seat = GAME.active(state)[0]
        options = [a.notation for a in GAME.legal(state, seat)]
        if seat == AUTO:
            step = play.next_steps(state, seat).steps[0]
        elif empire and f"empire {empire}" in options:
            step = f"empire {empire}"
        else:
            step = next((o for o in options if o in ("die white", "decline", "end")),
                        options[0])
        state = GAME.apply(state, seat, step)
    return state


def own(state: State) -> dict:
    box = deck.box(state, AUTO)
    assert box is not None
    return box


# -- Paquet Stratégie ---------------------------------------------------------------------


def test_its_deck_is_made_for_its_empire() -> None:
    """« ajoutez les 2 cartes spécifiques à l'Empire contre qui vous jouez. » (R-auto-deck):
    the 10 cards of its empire's deck are its deck, its 3 face-up cards and its discard."""
    state = at_automaton_turn()
    box = own(state)
    empire = state["players"][AUTO]["empire"]
    held = box["deck"] + box["shown"] + box["discard"] + box["top"]
    assert sorted(held, key=C.number) == C.deck_for(empire)


def test_it_draws_3_strategy_cards_face_up() -> None:
    """« 1. Piochez 3 cartes Stratégie et placez-les face visible. »"""
    box = own(at_automaton_turn())
    assert len(box["shown"]) == C.IN_PLAY == 3 and len(box["deck"]) == 7
    assert box["turn"]["order"] == box["shown"]


def test_priority_follows_the_condition() -> None:
    """« si la condition est remplie, on suit la Priorité haute de la carte ; si elle n'est pas
    remplie, on suit la Priorité basse. » « Si c'est vrai → Priorité haute : 3 » « Si c'est faux
    → Priorité basse : 13 »"""
    state = at_automaton_turn()
    assert priorities.priority(state, AUTO, "sc11") == (3, True)
    set_card(state, AUTO, "research", 4)            # Codes juridiques discovered
    assert priorities.priority(state, AUTO, "sc11") == (13, False)


def test_the_rulebook_example_priorities() -> None:
    """« l'Automate n'a pas encore découvert Codes juridiques, n'a pas construit 2 Colonies, et
    le joueur n'occupe aucun Événement ni Colonie. Cela signifie que la carte Stratégie Progrès
    sumérien a une Priorité de 3, la carte Développement une Priorité de 8, et la carte Attaque
    une priorité de 19. L'Automate les dispose de haut en bas »"""
    state = at_automaton_turn()
    state["players"][AUTO]["colonies"] = []
    state["units"] = [u for u in state["units"] if u[0] == AUTO]
    values = {c: priorities.priority(state, AUTO, c)[0] for c in ("sc5", "sc9", "sc11")}
    assert values == {"sc11": 3, "sc9": 8, "sc5": 19}
    assert priorities.ranked(values) == ["sc11", "sc9", "sc5"]


def test_the_opponent_occupying_a_colony_or_event_raises_attack() -> None:
    """« If your human opponent occupies a Settlement or Event. » (R-auto-conditions)"""
    state = at_automaton_turn()
    site = next(r for r, (_, up) in state["sites"].items() if not up)
    state["units"] = [u for u in state["units"] if u[0] == AUTO] + [[0, "spearman", site]]
    assert priorities.priority(state, AUTO, "sc5") == (9, True)


def test_sorted_from_the_highest_priority_ties_by_number() -> None:
    """« Triez les trois cartes de la Priorité la plus haute (valeur faible) à la plus basse
    (valeur élevée). » (R-auto-priority-tie)"""
    assert priorities.ranked({"sc9": 8, "sc3": 15, "sc2": 8}) == ["sc2", "sc9", "sc3"]


# -- Cartes Action --------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", C.DIFFICULTIES)
def test_action_cards_drawn_by_ziggurat_storey(difficulty: str) -> None:
    """« Le nombre de cartes Action piochées dépend de la Ziggurat de l'Automate. »"""
    state = at_automaton_turn(difficulty=difficulty)
    for storeys in range(7):
        probe = json.loads(json.dumps(state))
        probe["players"][AUTO]["ziggurat"] = storeys
        box = own(probe)
        box["turn"], box["marks"] = None, {c: [False, False] for c in box["shown"]}
        deck.begin_turn(probe, AUTO)
        record = own(probe)["turn"]
        assert len(record["drawn"]) == C.DRAWS[difficulty][storeys]
        assert record["storeys"] == storeys
        assert len(set(record["drawn"])) == len(record["drawn"])


def test_the_rulebook_assignment_example() -> None:
    """« L'Automate pioche ensuite deux cartes Action : une carte Recherche, et une carte
    Récolte et Échange. Il assigne la carte Action Recherche à Progrès sumérien, […] puis la
    carte Action Récolte et Échange à Développement, deuxième en Priorité. Enfin, l'Automate
    effectue son action bonus, Croissance et Pioche, sur la carte Progrès sumérien »"""
    assigned, bonus = deck.assign(["sc11", "sc9", "sc5"], {}, ["research", "harvest_trade"])
    assert assigned == [("research", ("sc11", 0)), ("harvest_trade", ("sc9", 1))]
    assert bonus == ("sc11", 1)
    assert C.STRATEGIES["sc11"].slots[1].action == "growth"


def test_an_action_on_no_card_is_lost() -> None:
    """« Si l'action ne correspond à aucune de celles des cartes Stratégie de l'Automate, alors
    l'action est perdue »"""
    assigned, _ = deck.assign(["sc11", "sc9", "sc5"], {}, ["war"])
    assert assigned == [("war", None)]


def test_several_cards_with_the_action_highest_priority_first() -> None:
    """« Si plusieurs cartes Stratégie ont la même action, résolvez-les de la plus haute
    Priorité à la plus basse. » (DEVELOPMENT's BUILD and ATTACK's WARFARE are Constructions,
    R-auto-warfare)"""
    assigned, _ = deck.assign(["sc5", "sc9"], {}, ["construction"])
    assert assigned == [("construction", ("sc5", 0))]
    assigned, _ = deck.assign(["sc5", "sc9"], {"sc5": [True, False]}, ["construction"])
    assert assigned == [("construction", ("sc9", 0))]


def test_never_the_same_action_twice() -> None:
    """« L'Automate ne peut pas réaliser une même action deux fois dans le même Tour. »: the
    Star and the bonus skip Construction once it was taken."""
    assigned, bonus = deck.assign(["sc5", "sc9", "sc11"], {}, ["construction", "star"])
    assert assigned == [("construction", ("sc5", 0)), ("star", ("sc5", 1))]
    assert bonus == ("sc9", 1)          # sc9's BUILD is a Construction, already taken


def test_the_star_is_assigned_last_leftmost_by_priority() -> None:
    """« Elle est toujours la dernière carte Action à être assignée, et doit être placée sur
    l'action non résolue de gauche d'une carte Stratégie, en respectant la Priorité […] Ceci
    intervient avant que l'Automate n'effectue son action bonus. »"""
    assigned, bonus = deck.assign(["sc11", "sc9", "sc5"], {}, ["star", "research"])
    assert assigned == [("research", ("sc11", 0)), ("star", ("sc11", 1))]
    assert bonus == ("sc9", 0)


def test_the_bonus_is_the_leftmost_unresolved_action_of_the_first_card() -> None:
    """« Ensuite, l'Automate effectue une action bonus : l'action non résolue de gauche de la
    carte Stratégie ayant la Priorité la plus haute. » (an Amphora from an earlier turn
    resolves an action)"""
    assert deck.assign(["sc9", "sc5"], {}, [])[1] == ("sc9", 0)
    assert deck.assign(["sc9", "sc5"], {"sc9": [True, False]}, [])[1] == ("sc9", 1)


def test_the_turn_plans_its_actions_and_marks_them() -> None:
    """« a. placez une Amphore […] sur le symbole de cette action ; b. effectuez l'action »: the
    engine offers the planned actions one by one (R-auto-activation), each marked."""
    state = at_automaton_turn()
    record = own(state)["turn"]
    t = state["t"]
    assert t["dice"] == [] and not t["pawn"]
    assert t["cards"] == [a for a, _, _ in record["plan"]]
    for _, card, slot in record["plan"]:
        assert own(state)["marks"][card][slot]
    assert [a.notation for a in GAME.legal(state, AUTO)] == [f"use {t['cards'][0]} card"]


# -- Conclusion du tour ----------------------------------------------------------------------


def test_end_of_turn_discards_refills_and_reshuffles() -> None:
    """« Toutes les cartes Stratégie dont les deux actions ont été réalisées […] sont défaussées
    face visible dans un paquet à part. » « Piochez jusqu'à avoir 3 cartes Stratégie face visible
    en jeu. » « Si le paquet Stratégie est vide, mélangez la défausse et créez un nouveau
    paquet. »"""
    state = at_automaton_turn()
    box = own(state)
    first, second, third = box["shown"]
    box["marks"] = {first: [True, True], second: [True, False], third: [False, False]}
    box["turn"]["plan"] = []
    box["discard"], box["deck"] = box["deck"], []
    deck.end_turn(state, AUTO)
    box = own(state)
    assert first in box["last"]["discarded"] and len(box["shown"]) == 3
    assert box["shown"][:2] == [second, third] and box["marks"][second] == [True, False]
    assert first not in box["shown"]
    assert len(box["deck"]) + len(box["discard"]) + 3 == 10 and box["deck"]


def test_grow_and_draw_finds_a_research_card() -> None:
    """« Draw and discard Strategy cards until you find one with the Research action. »
    (R-auto-grow-draw): the card found is drawn by the next refill."""
    state = at_automaton_turn(empire="babylonian")
    box = own(state)
    box["shown"] = [c for c in box["shown"]][:3]
    card = box["shown"][0]
    box["marks"] = {c: [True, True] if c == card else [False, False] for c in box["shown"]}
    box["turn"]["plan"] = [["growth", "sc11", 1]]
    deck.end_turn(state, AUTO)
    box = own(state)
    found = box["last"]["found"]
    assert found is not None
    assert any(s.action == "research" for s in C.STRATEGIES[found].slots)
    assert found in box["shown"]
    assert all(not any(s.action == "research" for s in C.STRATEGIES[c].slots)
               for c in box["last"]["discarded"] if c != card)


# -- the engine ------------------------------------------------------------------------------


def test_a_whole_automaton_turn_through_the_engine_replays_exactly() -> None:
    """Every step the Automaton names is legal and reported; its turn ends with ``end``, which
    runs the end of its turn; the log replays to the same state (its draws are the game's
    chance)."""
    state = at_automaton_turn()
    start = json.loads(json.dumps(state))
    log: list[str] = []
    rounds = state["round"]
    while state["phase"] == "actions" and state["current"] == AUTO and \
            state["round"] == rounds:
        decision = play.next_steps(state, AUTO)
        (step,) = decision.steps
        action = next(a for a in GAME.legal(state, AUTO) if a.notation == step)
        after = GAME.apply(state, AUTO, action)
        for lang in ("en", "fr"):     # the channel's line for each step
            assert translate(GAME.report(state, AUTO, action, after).for_seat(None), lang)
        state = after
        log.append(step)
    assert log[-1] == "end" and own(state)["turn"] is None and own(state)["last"]
    again = start
    for step in log:
        again = GAME.apply(again, AUTO, step)
    assert again == state


def test_the_explanation_names_the_cards_and_priorities() -> None:
    """« The Automaton draws Development (priority 8, …) »: the record read aloud in English and
    French names its cards, their priorities and the Action cards drawn."""
    state = at_automaton_turn()
    record = own(state)["turn"]
    for lang in ("en", "fr"):
        text = translate(explain.turn_summary(record), lang)
        for card in record["order"]:
            assert str(record["values"][card]) in text
        assert all(translate(C.action_card(c), lang) in text for c in record["drawn"])
    step = play.next_steps(state, AUTO)
    assert step.reason is not None and translate(step.reason, "en")
    assert step.summary == explain.turn_summary(record)


def test_no_global_random_in_the_automaton() -> None:
    """All its randomness goes through :mod:`bot.chance` (the state's box)."""
    folder = Path(deck.__file__).parent
    for path in folder.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "import random" not in source and "from random" not in source, path.name


def test_a_player_seat_is_not_an_automaton() -> None:
    """Without :func:`deck.enlist` every seat rolls its dice as before."""
    state = GAME.setup(3, 2, {})
    assert not deck.plays(state, 0) and not deck.plays(state, 1)
    with pytest.raises(ValueError):
        deck.enlist(state, 1, "titan")
    assert D.ACTIONS


def test_it_harvests_what_its_next_actions_lack() -> None:
    """R-auto-trade: with no Food and a Growth to come, the Automaton harvests Food before the
    resource it holds least of."""
    state = at_automaton_turn()
    box = own(state)
    card = next(c for c in C.STRATEGIES if any(s.action == "growth"
                                               for s in C.STRATEGIES[c].slots))
    box["shown"], box["marks"] = [card], {card: [False, False]}
    state["players"][AUTO]["res"].update(stone=3, wood=3, clay=0, food=0)
    assert play.needs(state, AUTO)["food"] > 0
    start = state["players"][AUTO]["start"]
    act = {"action": "harvest_trade"}
    legal = [f"harvest {start} {k}" for k in ("stone", "wood", "clay", "food")]
    assert play._part(state, AUTO, {**act}, {}, legal) == f"harvest {start} food"


def test_its_build_takes_what_it_lacks_from_the_supply() -> None:
    """R-auto-supply (« tente de réaliser les actions, si elles sont possibles »): when its turn
    begins the Automaton takes from the supply what it lacks for its planned BUILD (the cost of
    its first goal, once per build its card allows), Growth (its card's Food) and the
    discoveries its Research card allows (a Tablet each); what it holds counts; War and Harvest
    take nothing."""
    state = typed(MesopotamiaState, at_automaton_turn())
    player = state["players"][AUTO]
    res = player["res"]
    res.update(stone=0, wood=0, clay=1, food=0, tablet=0)
    development = C.STRATEGIES["sc9"].slots[0].plan     # 6 levels of Ziggurat first
    builds = int(D.CARD_EFFECT[player["tech"]["construction"]]["builds"])
    food = int(D.CARD_EFFECT[player["tech"]["growth"]]["food"])
    planned = [("construction", development), ("research", {"discover": ["research"]}),
               ("growth", {}), ("war", {}), ("harvest_trade", {})]
    taken = supply.take(state, AUTO, planned)
    expected = {"food": food, "stone": builds, "tablet": 1}   # a storey costs 1 Stone
    assert taken == expected
    assert (res["stone"], res["clay"], res["food"], res["tablet"], res["wood"]) == \
        (builds, 1, food, 1, 0)
    assert supply.take(state, AUTO, planned) == {}
    assert {"construction", "growth", "research"} == C.SUPPLIED
    player["tech"]["research"] = f"{player['empire']}_law_codes"   # 3 discoveries a Research
    res["tablet"] = 0
    assert supply.take(state, AUTO, [("research", {})]) == {"tablet": 3}


def test_what_it_takes_from_the_supply_is_told() -> None:
    """Every Automaton step is shown: the turn's summary says what it took from the supply."""
    record = dict(own(at_automaton_turn())["turn"], taken={"stone": 1, "clay": 2})
    assert "1 Stone and 2 Clay" in translate(explain.turn_summary(record), "en")
    assert "réserve" in translate(explain.turn_summary(record), "fr")


def test_the_automaton_bids_one_more_than_its_rivals_could_in_its_first_compartment() -> None:
    """R-auto-bids: one phalanx more than the other side's stake, at most all it may, in the
    first compartment; the least it must in the others."""
    state = typed(MesopotamiaState, {})
    bids.open_bids(state, {0: 5, 1: 7}, 3)
    assert play._bid(state, 1, bids.legal(state, 1)) == "bid 6"
    bids.commit(state, 1, "bid 6")
    assert play._bid(state, 1, bids.legal(state, 1)) == "bid 0"
    bids.open_bids(state, {0: 5, 1: 3}, 3, need={1: 1})
    assert play._bid(state, 1, bids.legal(state, 1)) == "bid 3"
