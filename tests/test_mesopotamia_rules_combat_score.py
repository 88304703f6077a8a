"""Mesopotamia: the rule sentences of the combat, the two tracks, the quests and the final
score (rulebook seed 004, « ORDRE DE COMBAT ET DE RÉSOLUTION » to « SCORE FINAL ») that no
other test checked; COVERAGE.md names, row by row, the test that checks each sentence. Each
test quotes the sentence it checks."""

from __future__ import annotations

from bot.engine import State
from bot.games.mesopotamia import battles, scoring, standard, turn
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import advance_seal, can_advance, seal_order
from tests.test_mesopotamia_actions import legal, play, ready, set_card
from tests.test_mesopotamia_battles import at_war, no_tribe, seal, steps
from tests.test_mesopotamia_end import bare, free_regions
from tests.test_mesopotamia_standard import example_card, fight, set_cards

# -- the order of the combats (« ORDRE DE COMBAT ET DE RÉSOLUTION ») ---------------------------


def tribe_site(state: State) -> str:
    """A region with a neutral tribe on a face-down event, not a blocker region."""
    return next(str(r) for r, t in state["tribes"].items()
                if t and r in state["sites"] and not state["sites"][r][1]
                and r not in state["blockers"])


def test_a_tribe_event_keeps_the_combat_order_but_ties_follow_the_track_of_the_moment() -> None:
    """« Si l'ordre des joueurs change sur la piste Événement suite à un Événement révélé par un
    combat avec des Tribus neutres, l'ordre de résolution des combats reste inchangé. » « Si un
    combat finit sur une égalité, le vainqueur est le joueur le plus avancé sur la piste
    Événement au moment de la résolution du combat. »"""
    state = bare(2)
    leader, second = seal_order(state, "event")
    region = tribe_site(state)
    one, two = no_tribe(state, 2)
    state["tribes"][region] = {"spearman": 1}
    state["seals"]["event"] = [[leader, 1], [second, 1]]  # any advance puts second ahead
    state["units"] = [[second, "chariot", region], [second, "chariot", region],
                      [leader, "spearman", one], [second, "spearman", one],
                      [leader, "spearman", two], [second, "spearman", two]]
    state["combat_mode"] = "simplified"
    state["players"][second]["res"]["phalanx"] = 9
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert GAME.active(state) == [leader]
    state = GAME.apply(state, leader, f"fight {region}")
    state = seal(state, second, 9)              # 9 + 8 beats at most 6 + 2 + 1
    assert state["phase"] == "events" and GAME.active(state) == [second]
    state = GAME.apply(state, second, steps(state, second)[0])
    assert seal_order(state, "event")[0] == second
    # The order stays the leader's, though the second now leads the Event track.
    assert state["phase"] == "combat" and GAME.active(state) == [leader]
    assert steps(state, leader) == [f"fight {r}" for r in D.REGIONS if r in (one, two)]
    state = GAME.apply(state, leader, f"fight {one}")
    while state["phase"] == "combat" and "bids" in state:
        for seat in GAME.active(state):
            state = seal(state, seat, 0)
    # Spearman against spearman, no phalanx bid: the tie goes to the leader of the moment.
    assert [u[0] for u in state["units"] if u[2] == one] == [second]


def test_the_leader_may_order_first_a_combat_he_is_not_in() -> None:
    """« Il peut choisir n'importe quelle séquence, quels que soient les Empires impliqués dans
    chaque conflit. » — the rulebook's example (« Imaginons que deux régions soient en proie à
    des combats impliquant les Élamites. »): « Il peut décider que les Élamites résolvent
    d'abord leur autre bataille, et dépensent éventuellement des Phalanges , perdant ainsi en
    force. »"""
    probe = bare(4)
    leader, elam, third, _ = seal_order(probe, "event")
    assert [probe["players"][s]["empire"] for s in (leader, elam)] == ["akkadian", "elamite"]
    one, two = no_tribe(probe, 2)
    state = at_war(4, [[leader, "spearman", one], [elam, "spearman", one],
                       [elam, "spearman", two], [third, "archer", two]], phalanxes=0)
    state["players"][elam]["res"]["phalanx"] = 4
    assert GAME.active(state) == [leader]
    assert f"fight {two}" in steps(state, leader)
    state = GAME.apply(state, leader, f"fight {two}")
    assert GAME.active(state) == [elam]
    state = seal(state, elam, 3)                # spearman 1 + 3 beats archer 2 + 0
    # The Elamites come to the other battle with what they have left.
    assert state["battle"]["region"] == one
    assert state["bids"]["stake"][str(elam)] == 1


# -- the cards and the bids ---------------------------------------------------------------------


def test_the_combat_cards_lie_face_up_for_everyone() -> None:
    """« Placez les cartes piochées face visible devant leur Unité »: every seat (and the public
    view) sees every unit's card from the draw on, before the bids."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "archer", region]], mode="standard")
    cards = [u["card"] for u in state["fight"]["units"]]
    assert all(cards)
    for reader in (None, 0, 1):
        assert [u["card"] for u in GAME.view(state, reader)["fight"]["units"]] == cards


def test_every_seat_may_know_the_others_phalanx_totals() -> None:
    """« avant l'Enchère, chaque joueur peut demander aux autres le total de Phalanges dont ils
    disposent. »"""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "archer", region]], phalanxes=3)
    state["players"][0]["res"]["phalanx"] = 5
    for reader in (None, 1):
        assert GAME.view(state, reader)["players"][0]["res"]["phalanx"] == 5


# -- the clashes --------------------------------------------------------------------------------


def test_a_beaten_unit_leaves_the_map_before_the_next_clash() -> None:
    """« Dès que deux Unités ont fini de combattre, la séquence suivante a lieu : » … « L'Unité
    vaincue est immédiatement retirée de la carte. » — while the winner's fatigue is still to
    choose, the beaten archer is already off the map."""
    state, region = fight([(0, "spearman"), (1, "archer"), (1, "archer")])
    spear = example_card("seed_multiplayer_sumerian_spearman")
    weak = example_card("seed_multiplayer_babylonian_archer")
    set_cards(state, [spear, weak, weak])
    state["fight"]["units"][0]["alloc"] = {"force": 2, "tactic": 0, "mobility": 1}
    standard.settle(state, {0: [0, 0, 0], 1: [0, 0, 0]})
    standard.apply(state, 0, "lines done")
    assert "fight" in state and state["fight"]["pending"] == [["fatigue", 0]]
    assert sorted(u[1] for u in state["units"] if u[2] == region) == ["archer", "spearman"]


def test_a_unit_fleeing_onto_a_hidden_event_does_not_reveal_it() -> None:
    """« Si les Unités fuient vers une région avec un Événement non découvert, elles ne le
    révèlent pas. Celui-ci est révélé uniquement quand une autre Unité, alliée ou ennemie, finit
    son déplacement dans cette région. »"""
    probe = bare(2)
    free = set(free_regions(probe, 60))

    def hidden(r: str) -> bool:
        site = probe["sites"].get(r)
        return bool(site) and not site[1] and r not in probe["blockers"] and r in free

    region, haven = next((r, n) for r in free if r not in probe["sites"]
                         for n in D.REGIONS[r].neighbours if hidden(n))
    state, _ = fight([(0, "spearman"), (1, "cavalry")], region=region)
    set_cards(state, [example_card("seed_multiplayer_sumerian_spearman"),
                      example_card("seed_multiplayer_babylonian_cavalry")])
    state["fight"]["units"][0]["alloc"]["force"] = 1
    state["players"][1]["res"]["phalanx"] = 1
    # Spearman 1 + 1 + 1 (its advantage) beats the cavalry 2, which has 1 Mobility against 0.
    standard.settle(state, {0: [0, 0, 0], 1: [0, 0, 1]})
    if "fight" in state:
        standard.apply(state, 0, f"retreat {haven}")
    assert [1, "cavalry", haven] in state["units"]
    assert not state["sites"][haven][1] and not state.get("pending_events")
    assert not state.get("event")
    # Another unit ending its move there finds the event (recorded, or revealed at once).
    seat = state["current"]
    state["units"] = [[1, "cavalry", haven], [seat, "archer", region]]
    state = play(state, "use exploration pawn", f"activate archer {region}", f"move {haven}")
    assert [seat, haven] in state.get("pending_events", []) or state["sites"][haven][1]


def test_a_tribe_keeps_its_event_hidden_from_a_unit_stopping_there() -> None:
    """« L'Événement n'est révélé que lorsque la Tribu neutre est éliminée de la région. » — a
    unit ending its move on a tribe's face-down event neither reveals it nor has it recorded
    (the beaten tribe's event: ``test_a_beaten_tribe_reveals_its_event_before_the_next_combat``
    in ``tests/test_mesopotamia_battles.py``)."""
    state = bare(2)
    seat = state["current"]
    free = free_regions(state, 60)
    guarded = tribe_site(state)
    origin = next(r for r in D.REGIONS[guarded].neighbours if r in free)
    state["units"] = [[seat, "spearman", origin]]
    state = play(state, "use exploration pawn", f"activate spearman {origin}",
                 f"move {guarded}")
    assert [seat, "spearman", guarded] in state["units"]
    assert not state["sites"][guarded][1] and not state.get("event")
    assert not state.get("pending_events")


# -- ships ---------------------------------------------------------------------------------------


def test_land_units_never_attack_a_ship() -> None:
    """« Les Navires ne peuvent pas être attaqués par les Unités terrestres et ne craignent que
    les autres Navires . » — the side that loses the land combat keeps its supporting ship."""
    probe = bare(2)
    free = free_regions(probe, 60)
    section = next(s for s in D.SECTIONS.values() if all(b in free for b in s.banks))
    region = section.banks[0]
    state = at_war(2, [[0, "spearman", region], [1, "chariot", region],
                       [0, "ship", section.id]], phalanxes=0)
    # The ship's phalanx, the only bid: spearman 1 + 1 against chariot 4.
    assert state["units"] == [[1, "chariot", region], [0, "ship", section.id]]


def test_ships_sunk_at_the_start_of_the_combat_phase_give_no_phalanx() -> None:
    """« les deux sont détruits en début de Phase de combat sans offrir de Phalanges bonus. »
    … « Leur élimination survient avant toute résolution de combat sur la carte. »"""
    state = bare(2)
    free = free_regions(state, 60)
    section = next(s for s in D.SECTIONS.values() if all(b in free for b in s.banks))
    region = section.banks[0]
    for player in state["players"]:
        player["res"]["phalanx"] = 2
    state["units"] = [[0, "ship", section.id], [1, "ship", section.id],
                      [0, "spearman", region], [1, "spearman", region]]
    while state["phase"] == "actions":
        if None in state["t"]["dice"]:
            state = play(state, "set u")
        state = play(state, "use growth pawn", "stop", "end")
    assert state["phase"] == "combat" and state["battle"]["region"] == region
    assert not [u for u in state["units"] if u[1] == "ship"]
    assert state["bids"]["need"] == {"0": 0, "1": 0}
    assert state["bids"]["stake"] == {"0": 2, "1": 2}


# -- the simplified combat ------------------------------------------------------------------------


def test_the_simplified_combat_has_one_compartment_and_no_cards() -> None:
    """« réduisez l'Étendard d'Ur à un compartiment unique, et n'utilisez plus les cartes
    Combat. Vous pouvez alors miser autant de Phalanges que vous voulez dans votre Étendard
    d'Ur. »"""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "archer", region]], phalanxes=4)
    assert state["bids"]["parts"] == 1 and "fight" not in state
    assert steps(state, 0) == [f"bid {n}" for n in range(5)]


# -- the two tracks ------------------------------------------------------------------------------


def test_the_turn_order_changes_from_the_next_round() -> None:
    """« Tout changement affectant l'ordre des Tours survenant au cours de la Manche fera effet
    lors de la Manche suivante. » — « c'est le joueur le plus avancé sur la piste Population qui
    commence, puis les autres, par ordre décroissant. »"""
    state = ready(4)
    order = list(state["order"])
    last = order[-1]
    state["seals"]["population"] = [[last, 3], *([s, 1] for s in order if s != last)]
    assert state["order"] == order
    turn.begin_round(state)
    assert state["order"] == seal_order(state, "population") and state["order"][0] == last


def test_units_count_every_moving_figure_and_no_building() -> None:
    """« Les Unités sont toutes les figurines que vous pouvez déplacer (Navires , Béliers,
    Lanciers , etc.) » … « Les Ziggurats , Colonies et Remparts ne sont pas considérés comme
    Unités. » — and « le niv. 1 autorise un maximum de 2 Unités. Une fois au niv. 2, vous pourrez
    en posséder 4. »"""
    assert D.UNIT_LIMIT[:2] == (2, 4)
    state = ready(4)
    seat = state["current"]
    start = state["players"][seat]["start"]
    section = next(s.id for s in D.SECTIONS.values() if start in s.banks)
    state["seals"]["population"] = [[s, 1] for s in seal_order(state, "population")]
    state["units"] = [[seat, "ship", section], [seat, "ram", start]]
    state["players"][seat]["res"]["wood"] = 3
    assert legal(play(state, "use war pawn")) == ["phalanx", "stop"]
    state["units"] = [[seat, "spearman", start]]
    state["players"][seat]["colonies"] = free_regions(state, 3)
    state["players"][seat]["ramparts"] = free_regions(state, 3)
    assert any(o.startswith("create ") for o in legal(play(state, "use war pawn")))


def test_a_seal_reaching_a_taken_case_goes_on_top_and_leads() -> None:
    """« Si vous et un adversaire êtes au niveau 1 de Population et qu'il avance le premier au
    niv. 2, il place son Sceau sur la 2^e case. Quand vous arriverez vous aussi au niv. 2, vous
    placerez le vôtre par-dessus le sien, et prendrez ainsi la tête sur la piste. »"""
    state = bare(2)
    you, rival = 0, 1
    state["seals"]["population"] = [[you, 1], [rival, 1]]
    assert advance_seal(state, "population", rival)
    assert state["seals"]["population"] == [[rival, 2], [you, 1]]
    assert advance_seal(state, "population", you)
    assert state["seals"]["population"] == [[you, 2], [rival, 2]]
    assert seal_order(state, "population")[0] == you


def test_the_last_case_is_locked_the_one_before_is_shared() -> None:
    """« La dernière case de chaque piste ne peut compter qu'un seul Sceau. Elle est considérée
    comme verrouillée dès qu'un joueur y arrive, et plus personne ne peut y accéder. » …
    « Plusieurs joueurs peuvent occuper l'avant-dernière, mais la dernière est exclusive au
    premier qui l'atteint. » (on the Event track)"""
    state = bare(3)
    last = D.TRACK_CASES["event"]
    state["seals"]["event"] = [[0, last - 2], [1, last - 2], [2, last - 2]]
    for seat in (0, 1, 2):
        assert advance_seal(state, "event", seat)
    assert [case for _, case in state["seals"]["event"]] == [last - 1] * 3
    assert advance_seal(state, "event", 1)
    assert not can_advance(state, "event", 0) and not advance_seal(state, "event", 2)
    assert state["seals"]["event"] == [[1, last], [2, last - 1], [0, last - 1]]


# -- quests and the final score ------------------------------------------------------------------


def test_a_level_four_technology_meets_a_level_three_quest() -> None:
    """« Si vous avez déjà débloqué le niv. 4 pour celle-ci, on considère que la condition est
    remplie. » … « si vous possédez déjà Codes juridiques (niv. 4 de Recherche) et qu'une quête
    demande d'avoir Littérature (niv. 3 de Recherche). »"""
    quest = next(q["id"] for q in D.QUEST_DATA["cards"]
                 if q["condition"] == {"tech": {"research": 3, "growth": 3},
                                       "hold": {"tablet": 2}})
    state = bare(2)
    state["quests"]["hands"][0] = [quest]
    state["players"][0]["res"]["tablet"] = 2
    set_card(state, 0, "growth", 3)
    set_card(state, 0, "research", 2)
    assert scoring.completed_quests(state, 0) == []
    set_card(state, 0, "research", 4)
    assert scoring.completed_quests(state, 0) == [quest]


def test_the_highest_total_of_every_source_wins() -> None:
    """« À la fin de la partie, chaque joueur calcule ses Points de victoire en additionnant
    toutes les sources possibles. » « Le joueur ayant le total de Points de victoire le plus
    élevé est déclaré vainqueur. »"""
    state = bare(2)
    state["phase"] = "over"
    back = seal_order(state, "population")[1]
    a, b, c, d, e, f = free_regions(state, 6)
    state["units"] = [[back, "spearman", r] for r in (a, b, c, e, f)]
    state["players"][back]["colonies"] = [d]
    state["vp_tokens"] = {a: 2}
    got = scoring.breakdown(state, back)
    assert (got["regions"], got["colonies"], got["event_tokens"]) == (6, 1, 2)
    result = GAME.outcome(state)
    assert result is not None
    assert result.scores[back] == sum(got.values())
    assert result.scores[back] > result.scores[1 - back]
    assert result.winners == (back,) and result.tiebreak is None
