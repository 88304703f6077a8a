"""Mesopotamia: the standard combat of two sides in one region (``standard.py``): combat cards,
the three compartments of the Standard of Ur, bonus phalanxes, lines, engagements, Mobility,
rout and fatigue. Each test quotes the sentence it checks (rulebook seed 004, « COMBAT »), and
the rulebook's worked example (3 Babylonian units against 2 Sumerian) is replayed whole."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot.chance import KEY
from bot.engine import State
from bot.games.kit import clone
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import standard
from bot.games.mesopotamia.combat import TRIBE, Side, tribe_controller
from bot.games.mesopotamia.state import seal_order
from bot.i18n import LANGUAGES, translate
from tests.contract import NAMES
from tests.test_mesopotamia_end import bare, free_regions

EXAMPLE_CARDS = ("seed_multiplayer_babylonian_spearman", "seed_multiplayer_babylonian_archer",
                 "seed_multiplayer_babylonian_cavalry", "seed_multiplayer_sumerian_archer",
                 "seed_multiplayer_sumerian_spearman")
"""The worked example's cards, in the order of its units (RULINGS, combat cards)."""


def example_card(tag: str) -> str:
    """The combat card of the worked example tagged ``tag`` (RULINGS, combat cards)."""
    return next(str(c["id"]) for c in D.COMBAT_DATA["cards"] if tag in c.get("examples", []))


def fight(units: list[tuple[Side, str]], n: int = 2, region: str | None = None,
          attacker: Side | None = None) -> tuple[State, str]:
    """A game with ``units`` (side, kind) in ``region`` (a free one by default) and the cards
    drawn; the sides are the seats (and the tribe) in the order of ``units``."""
    state = bare(n)
    where = region or free_regions(state, 1)[0]
    state["tribes"][where] = {}
    for side, kind in units:
        if side == TRIBE:
            state["tribes"][where][kind] = state["tribes"][where].get(kind, 0) + 1
        else:
            state["units"].append([side, kind, where])
    sides = tuple(dict.fromkeys(side for side, _ in units))
    assert len(sides) == 2
    standard.draw(state, where, (sides[0], sides[1]),
                  sides[0] if attacker is None else attacker)
    return state, where


def set_cards(state: State, cards: list[str]) -> None:
    """Give the units of the fight these cards, in unit order."""
    for unit, card in zip(state["fight"]["units"], cards, strict=True):
        assert standard.CARDS[card]["unit"] == unit["kind"]
        unit["card"] = card


def play(state: State, *steps: str) -> None:
    """Take each step as the seat active for it."""
    for step in steps:
        (seat,) = standard.active(state)
        standard.apply(state, seat, step)


def test_each_unit_draws_a_card_of_its_type_face_up() -> None:
    """« Au début du combat, chaque Unité impliquée pioche une carte Combat correspondant à son
    type. » … « Un Lancier pioche une carte Combat du paquet Lancier . » — tribes too, from the
    same decks; the draw comes from the state's chance box."""
    state = bare(2)
    region = next(r for r, t in state["tribes"].items() if sum(t.values()) >= 2)
    state["units"] = [[0, "spearman", region], [0, "spearman", region], [0, "chariot", region]]
    before = state[KEY]["count"]
    standard.draw(state, region, (0, TRIBE), 0)
    units = state["fight"]["units"]
    assert state[KEY]["count"] > before
    assert [u["side"] for u in units][:3] == [0, 0, 0]
    assert {u["side"] for u in units[3:]} == {TRIBE}
    assert sum(1 for u in units if u["side"] == TRIBE) == sum(state["tribes"][region].values())
    for unit in units:
        assert standard.CARDS[unit["card"]]["unit"] == unit["kind"]
    drawn = [u["card"] for u in units]
    assert len(set(drawn)) == len(drawn)
    assert state["fight"]["controller"] == tribe_controller(state, 0)
    assert standard.active(state) == []  # the bids come first


def test_bids_pay_refund_half_to_the_loser_and_lose_ties() -> None:
    """« Le Sumérien remet la moitié de son enchère dans sa pile (arrondie à la baisse) » (in
    every compartment, Q-loser-half a); « Si 2 joueurs placent le même nombre de Phalanges dans
    un compartiment, ils perdent chacun la totalité de leur mise, et aucune Unité n'est renforcée
    dans ce compartiment. »"""
    state, _ = fight([(0, "spearman"), (0, "archer"), (1, "spearman"), (1, "archer")])
    for player in state["players"]:
        player["res"]["phalanx"] = 10
    standard.settle(state, {0: [4, 2, 3], 1: [1, 2, 0]})
    # Force: 0 wins (+3), 1 gets 0 back; Tactics tied: both lose 2; Mobility: 0 wins (+3).
    assert state["players"][0]["res"]["phalanx"] == 10 - 4 - 2 - 3
    assert state["players"][1]["res"]["phalanx"] == 10 - 1 - 2
    assert state["fight"]["bonus"] == {"force": [0, 3], "tactic": None, "mobility": [0, 3]}
    assert standard.active(state) == [0]


def test_a_tribe_pays_nothing_and_never_arranges_a_tie() -> None:
    """« Les Tribus neutres misent toujours TOUTES leurs Phalanges disponibles » (they are not
    a seat's); « Les Tribus neutres perdent toujours les égalités. »: with Tactics tied, the
    seat arranges the lines (Q-lines a)."""
    state, _ = fight([(0, "spearman"), (0, "archer"), (TRIBE, "cavalry"), (TRIBE, "archer")])
    state["players"][0]["res"]["phalanx"] = 5
    standard.settle(state, {0: [0, 1, 0], TRIBE: [3, 1, 0]})
    assert state["players"][0]["res"]["phalanx"] == 4
    fight_ = state["fight"]
    assert fight_["arranger"] == 0
    assert fight_["bonus"]["force"] == [TRIBE, 3]
    # The tribe's Force bonus is placed by its controller: « Le joueur contrôlant la Tribu
    # neutre en combat prend toutes les décisions »; it arranges the lines when the tribe wins
    # Tactics.
    assert standard.active(state) == [fight_["controller"]]
    state, _ = fight([(0, "spearman"), (0, "archer"), (TRIBE, "cavalry"), (TRIBE, "archer")])
    standard.settle(state, {0: [0, 0, 0], TRIBE: [0, 2, 0]})
    assert state["fight"]["arranger"] == TRIBE
    assert standard.active(state) == [state["fight"]["controller"]]
    assert "lines done" in standard.legal(state, state["fight"]["controller"])


def test_the_worked_example() -> None:
    """« Ici, 3 Unités babyloniennes attaquent 2 Unités sumériennes. » — « Il alloue 5 Phalanges
    en Force, 2 Phalanges en Tactique et 1 Phalange en Mobilité. » … « Il décide de les répartir
    équitablement en Force et en Tactique. » … « Cette différence de 2 indique le nombre de
    Phalanges bonus » … « Il récupère ainsi 1 Phalange » … « Le Sumérien gagne 1 Phalange à
    allouer en Tactique. » … « Le Babylonien récupère la moitié de son enchère (arrondie à la
    baisse) : 2 ÷ 2 = 1 » … « Il décide de l'allouer au Cavalier . » — then the clashes:
    « L'Archer sumérien a un total plus élevé (2 contre 1) », « Les deux Unités ont la même
    valeur de combat (2 contre 2). » … « Le Sumérien est plus avancé, et considéré comme
    vainqueur. », « Le Lancier sumérien a une valeur de combat totale plus élevée (3 contre 2) »
    … « Le Cavalier babylonien est vaincu, mais peut fuir grâce à sa Mobilité. » … « L'attaquant
    (joueur babylonien) choisit une région adjacente sans Unité ennemie vers laquelle fuir. »"""
    probe = bare(2)
    sumer = seal_order(probe, "event")[0]
    babylon = 1 - sumer
    state, region = fight([(babylon, "spearman"), (babylon, "archer"), (babylon, "cavalry"),
                           (sumer, "archer"), (sumer, "spearman")], region="tur_abdin")
    set_cards(state, [example_card(tag) for tag in EXAMPLE_CARDS])
    state["players"][babylon]["res"]["phalanx"] = 8
    state["players"][sumer]["res"]["phalanx"] = 6
    standard.settle(state, {babylon: [5, 2, 1], sumer: [3, 3, 0]})
    assert state["fight"]["bonus"]["force"] == [babylon, 2]
    assert state["fight"]["bonus"]["tactic"] == [sumer, 1]
    assert state["players"][babylon]["res"]["phalanx"] == 8 - 5 - (2 - 1) - 1
    assert state["players"][sumer]["res"]["phalanx"] == 6 - (3 - 1) - 3
    assert standard.active(state) == [babylon]
    # Steps number the units from 1 (Babylonian spearman, archer, cavalry, then the Sumerian
    # archer and spearman); the state's lines and clashes hold their indices, from 0.
    # « Le Babylonien place 1 Phalange sur la carte Combat de son Lancier et 1 Phalange sur
    # celle de son Archer , dans les emplacements de Force. »
    play(state, "place 1 force", "place 2 force")
    # « Cela lui permet de modifier la disposition des Unités alliées et ennemies »
    assert standard.active(state) == [sumer]
    play(state, "line 2 1", "line 3 2")
    assert state["fight"]["lines"] == [[[0, 1], [3]], [[2], [4]]]
    play(state, "lines done", "place 5 tactic", "place 3 mobility")
    clashes = (state.get("fight") or state["fought"])["clashes"]
    assert clashes[:3] == [[0, 3, 1, 2, 3], [1, 3, 2, 2, 3], [2, 4, 2, 3, 4]]
    # Harran (a blocker) and Nagar are open, so the Babylonian attacker chooses; no fatigue
    # after the last clash.
    assert standard.active(state) == [babylon]
    assert {"retreat harran", "retreat nagar"} <= set(standard.legal(state, babylon))
    play(state, "retreat nagar")
    assert standard.result(state) == {"winner": sumer, "loser": babylon}
    assert sorted(u[1] for u in state["units"] if u[2] == region) == ["archer", "spearman"]
    assert [u for u in state["units"] if u[0] == babylon] == [[babylon, "cavalry", "nagar"]]


def test_tactics_count_only_against_the_type_shown() -> None:
    """« Si ce Lancier combat un Cavalier toute Phalange imprimée ou allouée sur cette ligne fait
    effet. » « S'il affronte un Archer ou un autre Lancier , les Phalanges sur cette ligne sont
    ignorées. » — and « Le Char a l'avantage sur les trois autres Unités. » but not on a chariot
    (Q-chariot a)."""
    spear: dict[str, Any] = {"kind": "spearman",
                             "card": example_card("seed_multiplayer_sumerian_spearman"),
                             "alloc": {"force": 0, "tactic": 1, "mobility": 0}}
    chariot: dict[str, Any] = {"kind": "chariot", "card": standard.DECKS["chariot"][0],
                               "alloc": {"force": 0, "tactic": 0, "mobility": 0}}
    cavalry = {"kind": "cavalry", "card": standard.DECKS["cavalry"][0], "alloc": spear["alloc"]}
    assert standard.total(spear, cavalry) == 1 + 1 + 1
    assert standard.total(spear, {"kind": "archer"}) == 1
    printed = standard.CARDS[chariot["card"]]
    assert standard.total(chariot, spear) == printed["force"] + printed["tactic"]
    assert standard.total(chariot, chariot) == printed["force"]


def test_bonus_that_fits_no_free_slot_is_lost() -> None:
    """« Placez autant de Phalanges que vous souhaitez dans les emplacements libres de vos
    cartes Combat. »: the slots cap the bonus, the rest is lost; a single possible place is taken
    at once."""
    state, _ = fight([(0, "archer"), (1, "archer")], region="anshan")  # one retreat region
    card = standard.CARDS[state["fight"]["units"][0]["card"]]
    state["players"][0]["res"]["phalanx"] = 20
    standard.settle(state, {0: [card["slots"]["force"] + 3, 0, 0], 1: [0, 0, 0]})
    assert state["players"][0]["res"]["phalanx"] == 20 - card["slots"]["force"] - 3
    # Archer against archer: no Tactics; the Force row is full, the 3 others are lost.
    assert state["fought"]["clashes"][0][2] == card["force"] + card["slots"]["force"]


def test_place_steps_are_one_phalanx_on_own_units_with_free_slots() -> None:
    """« Le vainqueur (Babylonien) peut maintenant allouer les 2 Phalanges bonus à ses
    Unités. » — one phalanx per step, on the winner's own cards only."""
    state, _ = fight([(0, "spearman"), (0, "archer"), (1, "cavalry")])
    state["players"][0]["res"]["phalanx"] = 3
    standard.settle(state, {0: [2, 0, 0], 1: [0, 0, 0]})
    assert standard.legal(state, 0) == ["place 1 force", "place 2 force"]
    assert standard.legal(state, 1) == []
    with pytest.raises(ValueError):
        standard.apply(state, 0, "place 3 force")


def test_no_tactics_winner_the_event_leader_arranges_and_lines_follow_the_smaller_side() -> None:
    """« Les Unités affronteront celles qui se trouvent sur leur ligne. » — one line per unit of
    the smaller side, the others queued; with Tactics tied, « c'est l'Empire le plus avancé sur
    la piste qui est considéré comme vainqueur » arranges (Q-lines a)."""
    state, _ = fight([(0, "spearman"), (0, "archer"), (0, "archer"), (1, "cavalry"),
                      (1, "spearman")])
    assert state["fight"]["lines"] == [[[0, 2], [3]], [[1], [4]]]
    standard.settle(state, {0: [0, 0, 0], 1: [0, 0, 0]})
    leader = seal_order(state, "event")[0]
    assert standard.active(state) == [leader]
    moves = standard.legal(state, leader)
    assert moves[-1] == "lines done"
    # Steps number units and lines from 1; the state holds indices from 0.
    assert "line 1 1" in moves and "line 3 1" not in moves  # unit 3 is last on line 1 already
    play(state, "line 4 2")  # the cavalry joins the spearman's line: line 1 lacks a foe
    assert state["fight"]["lines"] == [[[0, 2], []], [[1], [4, 3]]]
    moves = standard.legal(state, leader)
    assert "lines done" not in moves and "line 4 1" not in moves  # moved once already
    assert [m for m in moves if m.split()[1] in ("4", "5")] == ["line 5 1"]  # line 1 needs it
    play(state, "line 5 1", "line 1 1")
    assert state["fight"]["lines"] == [[[2, 0], [4]], [[1], [3]]]
    assert "lines done" in standard.legal(state, leader)


def test_winner_with_more_mobility_destroys_the_beaten_unit() -> None:
    """« Si le vainqueur a gagné la résolution de Mobilité, l'Unité vaincue est éliminée. » —
    « L'Unité vaincue est immédiatement retirée de la carte. »"""
    state, region = fight([(0, "cavalry"), (1, "archer")])
    set_cards(state, [standard.DECKS["cavalry"][1], standard.DECKS["archer"][0]])
    state["players"][0]["res"]["phalanx"] = 4
    standard.settle(state, {0: [1, 0, 1], 1: [0, 0, 0]})
    assert standard.result(state) == {"winner": 0, "loser": 1}
    assert state["units"] == [[0, "cavalry", region]]
    assert "fight" not in state


def test_retreat_regions() -> None:
    """« L'attaquant choisit une région adjacente où les Unités vaincues battent en retraite. La
    région ne doit compter aucune Unité ennemie. » — nor a tribe, another empire's start region
    or an enemy Rampart; a blocker region and a hidden event are fine: « Si les Unités fuient
    vers une région avec un Événement non découvert, elles ne le révèlent pas. »
    (R-fight-retreat)"""
    state = bare(2)
    other_start = state["players"][0]["start"]
    region = "tur_abdin"
    assert other_start in D.REGIONS[region].neighbours
    havens = standard.havens(state, region, 1)
    assert "harran" in havens and "harran" in state["blockers"] and not state["sites"]["harran"][1]
    assert other_start not in havens
    assert not [r for r in havens if state["tribes"].get(r)]
    state["units"].append([0, "spearman", "nagar"])
    state["players"][0]["ramparts"].append("harran")
    assert "nagar" not in standard.havens(state, region, 1)
    assert "harran" not in standard.havens(state, region, 1)
    assert "nagar" in standard.havens(state, region, 0)


def test_a_routed_unit_with_no_retreat_region_is_destroyed_and_events_stay_hidden() -> None:
    """« Si aucune région n'est valide, les Unités en déroute sont détruites et retirées du
    plateau. » — « Si le perdant a gagné la résolution, l'Unité fuit selon les Règles de
    déroute. »"""
    for blocked in (False, True):
        state, _ = fight([(0, "spearman"), (1, "cavalry")], region="tur_abdin")
        set_cards(state, [example_card("seed_multiplayer_sumerian_spearman"),
                          example_card("seed_multiplayer_babylonian_cavalry")])
        state["units"] += [[0, "archer", "nagar"], [0, "spearman", "taurus"]]
        if blocked:
            state["players"][0]["ramparts"].append("harran")
        state["players"][1]["res"]["phalanx"] = 1
        state["fight"]["units"][0]["alloc"]["force"] = 1
        # Spearman 1 + 1 + 1 (it has the advantage) against 2: beaten, the cavalry has 1
        # Mobility against 0 and flees; harran is its only retreat region (nagar and taurus:
        # an enemy).
        standard.settle(state, {0: [0, 0, 0], 1: [0, 0, 1]})
        assert standard.result(state) == {"winner": 0, "loser": 1}
        cavalry = [u for u in state["units"] if u[1] == "cavalry"]
        assert cavalry == ([] if blocked else [[1, "cavalry", "harran"]])
        assert not state["sites"]["harran"][1]


def test_a_tribe_never_flees() -> None:
    """« Les combats contre les Tribus neutres suivent les règles des combats entre joueurs »,
    but a beaten tribe unit is always removed (Q-tribe-controller a)."""
    state, region = fight([(0, "spearman"), (TRIBE, "cavalry")], region="tur_abdin")
    set_cards(state, [example_card("seed_multiplayer_sumerian_spearman"),
                      example_card("seed_multiplayer_babylonian_cavalry")])
    state["fight"]["units"][1]["alloc"]["mobility"] = 2
    standard.settle(state, {0: [0, 0, 0], TRIBE: [0, 0, 0]})
    assert standard.result(state) == {"winner": 0, "loser": TRIBE}
    assert state["tribes"][region] == {}


def test_fatigue_removes_one_allocated_phalanx_of_the_owners_choice() -> None:
    """« Le joueur qui la contrôle doit retirer l'une des Phalanges qu'il lui avait
    attribuées. » … « La fatigue n'affecte pas les Phalanges imprimées. » (Q-fatigue a: the owner
    chooses the row when there is a choice) — « La nouvelle Unité combat alors l'Unité
    victorieuse fatiguée. »"""
    state, _ = fight([(0, "spearman"), (1, "archer"), (1, "archer")])
    spear = example_card("seed_multiplayer_sumerian_spearman")
    weak = example_card("seed_multiplayer_babylonian_archer")
    set_cards(state, [spear, weak, weak])
    units = state["fight"]["units"]
    units[0]["alloc"] = {"force": 2, "tactic": 0, "mobility": 1}
    standard.settle(state, {0: [0, 0, 0], 1: [0, 0, 0]})
    play(state, "lines done")  # one line: the spearman against the archers
    # Spearman 1 + 2 = 3 against archer 1 + 1 (it has the advantage): it wins, mobility 1 > 0.
    assert state["fight"]["clashes"] == [[0, 1, 3, 2, 0]]
    assert standard.legal(state, 0) == ["fatigue force", "fatigue mobility"]
    play(state, "fatigue mobility")
    assert units[0]["alloc"] == {"force": 2, "tactic": 0, "mobility": 0}
    # Fatigued: 1 + 2 = 3 against 2 again (the printed Force stays).
    assert (state.get("fight") or state["fought"])["clashes"][1] == [0, 2, 3, 2, 0]


def test_lines_are_rearranged_until_one_empire_is_left() -> None:
    """« Si les Unités gagnant sur leur ligne appartiennent à différents joueurs, le joueur qui
    avait gagné l'enchère Tactique réorganise les lignes, et le combat continue jusqu'à ce que
    la région ne compte plus que des Unités d'un seul Empire. »"""
    probe = bare(2)
    lead = seal_order(probe, "event")[0]
    other = 1 - lead
    state, region = fight([(lead, "spearman"), (lead, "archer"), (other, "cavalry"),
                           (other, "spearman")], region="anshan")
    state["tribes"].pop("awan")             # the Awan warriors gone: an open neighbour
    spear = example_card("seed_multiplayer_sumerian_spearman")
    archer = example_card("seed_multiplayer_sumerian_archer")
    cavalry = example_card("seed_multiplayer_babylonian_cavalry")
    set_cards(state, [spear, archer, cavalry, spear])
    state["players"][other]["res"]["phalanx"] = 1
    standard.settle(state, {lead: [0, 0, 0], other: [0, 1, 0]})
    assert standard.active(state) == [other]  # the Tactics winner arranges
    play(state, "line 3 2", "line 4 1", "lines done", "place 3 tactic")
    # Line 0: spearman against spearman, 1 against 1, to the Event-track leader.
    # Line 1: cavalry 2 + 1 + 1 against archer 2: the archer flees (Mobility 0 against 0, the
    # tie to its owner), to awan, anshan's only open neighbour (susa holds a Ziggurat).
    # The lines are formed again: spearman 1 + 1 against the fatigued cavalry 2, to the leader.
    assert state["fought"]["clashes"] == [[0, 3, 1, 1, 0], [1, 2, 2, 4, 2], [0, 2, 2, 2, 0]]
    assert standard.result(state) == {"winner": lead, "loser": other}
    assert sorted(state["units"]) == sorted([[lead, "spearman", region],
                                             [lead, "archer", "awan"]])


def random_plan(seed: int) -> tuple[State, dict[str, Any], random.Random]:
    """A random combat: 2 seats, or a seat and a tribe, some units around, random bids."""
    rng = random.Random(seed)
    state = bare(rng.choice((2, 3)))
    region = rng.choice(free_regions(state, 30))
    kinds = list(standard.DECKS)
    tribe = rng.random() < 0.3
    sides: tuple[Side, Side] = (0, TRIBE if tribe else 1)
    state["tribes"][region] = {}
    for side in sides:
        for _ in range(rng.randint(1, 4)):
            if side == TRIBE:
                kind = rng.choice(kinds[:3])
                state["tribes"][region][kind] = state["tribes"][region].get(kind, 0) + 1
            else:
                state["units"].append([side, rng.choice(kinds), region])
    for r in D.REGIONS[region].neighbours:
        if rng.random() < 0.3:
            state["units"].append([rng.choice((0, 1)), "spearman", r])
    bids: dict[Side, list[int]] = {}
    for side in sides:
        stake = rng.randint(0, 8)
        if side != TRIBE:
            state["players"][int(side)]["res"]["phalanx"] = stake
        split = sorted(rng.randint(0, stake) for _ in range(2))
        bids[side] = [split[0], split[1] - split[0], stake - split[1]]
    plan = {"region": region, "sides": sides, "bids": bids,
            "attacker": 0 if tribe else rng.choice(sides)}
    return state, plan, rng


def fight_out(state: State, plan: dict[str, Any], pick: Callable[[list[str]], str]) -> list[str]:
    """Play the combat of ``plan``, each step picked by ``pick``; the steps taken."""
    standard.draw(state, plan["region"], plan["sides"], plan["attacker"])
    standard.settle(state, plan["bids"])
    taken: list[str] = []
    for _ in range(500):
        if "fight" not in state:
            break
        (seat,) = standard.active(state)
        options = standard.legal(state, seat)
        assert len(options) > 1
        taken.append(pick(options))
        standard.apply(state, seat, taken[-1])
    return taken


def check_units(start: State, end: State, plan: dict[str, Any]) -> None:
    """Units are only removed or moved from the region to a valid retreat region."""
    region = plan["region"]
    outcome = standard.result(end)
    assert outcome is not None
    before = Counter(tuple(u) for u in start["units"])
    after = Counter(tuple(u) for u in end["units"])
    outside = Counter(u for u in before.elements() if u[2] != region)
    assert not outside - after
    for seat, kind, at in (after - outside).elements():
        assert before[(seat, kind, region)]
        if at != region:
            assert at in D.REGIONS[region].neighbours
            others = [u for u in end["units"] if u[0] != seat and u[2] == at]
            assert not others and not end["tribes"].get(at)
            assert at not in {r for s, p in enumerate(end["players"]) if s != seat
                              for r in p["ramparts"]}
            assert at in standard.havens(end, region, seat)
    loser, winner = outcome["loser"], outcome["winner"]
    held: dict[Side, int] = {TRIBE: sum(end["tribes"][region].values())}
    held |= {s: sum(1 for u in end["units"] if u[0] == s and u[2] == region)
             for s in plan["sides"] if s != TRIBE}
    assert held[loser] == 0 and held[winner] > 0


@pytest.mark.parametrize("seed", range(80))
def test_random_fights_keep_the_invariants(seed: int) -> None:
    """Random combats always end, phalanxes never go negative, units are only removed or moved
    to a retreat region, the active seat always has two steps or more, an arrangement of the
    lines takes at most one step per unit, replays are exact."""
    state, plan, rng = random_plan(seed)
    start = clone(state)
    steps = fight_out(state, plan, rng.choice)
    units = len(start["units"]) + sum(start["tribes"][plan["region"]].values())
    runs = "".join("l" if step.startswith("line ") else " " for step in steps).split()
    assert all(len(run) <= units for run in runs)
    assert "fight" not in state
    assert all(p["res"]["phalanx"] >= 0 for p in state["players"])
    check_units(start, state, plan)
    again = clone(start)
    replayed = iter(steps)
    fight_out(again, plan, lambda options: next(replayed))
    assert again == state


def test_steps_and_prompts_read_in_every_language() -> None:
    """Each step's label and each decision's prompt come from the catalogue, in both
    languages, with every placeholder filled."""
    seen: set[str] = set()
    for seed in range(20):
        state, plan, rng = random_plan(seed)

        def pick(options: list[str], state: State = state, rng: random.Random = rng) -> str:
            texts = [standard.prompt(state), *map(standard.label, options)]
            for text in texts:
                assert text is not None
                for lang in LANGUAGES:
                    read = translate(text, lang, NAMES)
                    assert read and "{" not in read and "mesopotamia." not in read, read
            seen.update(o.split()[0] for o in options)
            return rng.choice(options)

        fight_out(state, plan, pick)
        assert standard.prompt(state) is None
    assert seen == standard.VERBS
