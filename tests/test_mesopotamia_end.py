"""Mesopotamia: the final score, the end of the game and the outcome (rulebook seed 004,
« SCORE FINAL », « Gagner la partie », « Départage »; RULINGS R-track-ranks, R-quest-hold,
R-tie-break, R-combat-detection).

The scenarios put the pieces in place by hand, then score them; whole games that end are
``tests/test_contract.py``'s and the balance runs'."""

from __future__ import annotations

import pytest

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import rounds, scoring
from bot.games.mesopotamia.engine import GAME
from bot.i18n import LANGUAGES, translate
from tests.contract import NAMES
from tests.test_mesopotamia_actions import legal, play, ready, set_card


def bare(n: int) -> State:
    """A game in its first action phase with no unit, colony or amphora on the map."""
    state = ready(n)
    state["units"] = []
    for player in state["players"]:
        player["colonies"], player["ramparts"] = [], []
        player["res"] = dict.fromkeys(player["res"], 0)
    state["amphorae"] = {}
    state["quests"]["hands"] = [[] for _ in range(n)]
    return state


def free_regions(state: State, k: int) -> list[str]:
    """``k`` regions that are nobody's start region and hold no tribe."""
    starts = {p["start"] for p in state["players"]}
    return [r for r in D.REGIONS if r not in starts and not state["tribes"].get(r)][:k]


def test_track_places_score_9_6_3_and_nothing_below() -> None:
    """« 1re place : 9 PV » … « 3e place : 3 PV » on both tracks; a 4th place scores nothing
    (R-track-ranks); the top seal of a pile is ahead (R-stack-order)."""
    state = bare(4)
    for track in D.TRACKS:
        order = [int(s) for s, _ in state["seals"][track]]
        got = [scoring.track_place_vp(state, track, s) for s in order]
        assert got == [9, 6, 3, 0]
    state2 = bare(2)
    leader = int(state2["seals"]["population"][0][0])
    assert scoring.track_place_vp(state2, "population", leader) == 9
    assert scoring.track_place_vp(state2, "population", 1 - leader) == 6


def test_occupied_regions_score_one_each_but_not_the_start_region_nor_ships() -> None:
    """« Octroie 1 PV pour chaque région que vous occupez (n'inclut pas votre Région de
    départ). » … « Les Navires ne peuvent pas occuper de région. »"""
    state = bare(2)
    a, b = free_regions(state, 2)
    section = next(iter(D.SECTIONS))
    state["units"] = [[0, "spearman", a], [0, "archer", a], [0, "spearman", b],
                      [0, "spearman", state["players"][0]["start"]], [0, "ship", section]]
    assert scoring.breakdown(state, 0)["regions"] == 2


def test_colonies_score_for_their_controller_only() -> None:
    """« Octroie 1 PV pour chaque Colonie que vous contrôlez en fin de partie. » — with R-control
    an enemy unit alone in the Colony's region takes its control, while the owner still occupies
    the region (« une Unité ou une Colonie vous appartenant »)."""
    state = bare(2)
    a, b = free_regions(state, 2)
    state["players"][0]["colonies"] = [a, b]
    state["units"] = [[1, "spearman", b]]
    zero, one = scoring.breakdown(state, 0), scoring.breakdown(state, 1)
    assert (zero["colonies"], zero["regions"]) == (1, 2)
    assert (one["colonies"], one["regions"]) == (0, 1)
    assert scoring.controller(state, b) == 1 and scoring.controller(state, a) == 0


def test_amphorae_gardens_and_event_tokens() -> None:
    """« Octroie des PV pour chacune de vos Amphores placées au-dessus d'un jeton Échange qui en
    donne. » « Octroie le montant de PV indiqué sur l'étage des Jardins suspendus que vous avez
    construit. » « Octroie des PV pour chaque jeton Événement qui en donne dans une région que
    vous contrôlez. »"""
    state = bare(2)
    slot, token = next((s, t) for s, t in state["trade"].items() if scoring.TOKEN_VP[t])
    plain = next(s for s, t in state["trade"].items() if not scoring.TOKEN_VP[t])
    state["amphorae"] = {slot: 0, plain: 0}
    tile = D.GARDEN_TILES[1][0]
    state["players"][0]["gardens"] = [tile]
    a, b = free_regions(state, 2)
    state["units"] = [[0, "spearman", a], [0, "spearman", b], [1, "spearman", b]]
    state["vp_tokens"] = {a: 2, b: 3}
    got = scoring.breakdown(state, 0)
    assert got["amphorae"] == scoring.TOKEN_VP[token] > 0
    assert got["gardens"] == scoring.GARDEN_VP[tile] > 0
    assert got["event_tokens"] == 2  # b is contested: nobody controls it


def test_quests_hold_their_resources_apart_and_cap_at_6() -> None:
    """« si deux cartes Quête demandent 1 Pierre chacune, vous devez avoir 2 Pierres en tout »;
    « Chaque quête terminée octroie 2 Points de victoire, pour un maximum de 6 points »."""
    state = bare(2)
    player = state["players"][0]
    player["gardens"] = [D.GARDEN_TILES[1][0]]
    player["events_resolved"] = 4
    state["quests"]["hands"][0] = ["gardens", "events"]
    player["res"]["food"] = 2
    assert scoring.completed_quests(state, 0) == ["gardens"]
    assert scoring.breakdown(state, 0)["quests"] == 2
    player["res"]["food"] = 3
    assert scoring.breakdown(state, 0)["quests"] == 4
    a, b, c, d, e, f = free_regions(state, 6)
    state["units"] = [[0, "spearman", r] for r in (a, b, c, d, e, f)]
    player["res"].update(food=3, phalanx=1, clay=1, stone=1)
    player["ramparts"] = [a, b, c]
    state["amphorae"] = dict.fromkeys(list(state["trade"])[:3], 0)
    state["quests"]["hands"][0] = ["gardens", "events", "regions", "ramparts", "amphorae"]
    assert len(scoring.completed_quests(state, 0)) == 5
    assert scoring.breakdown(state, 0)["quests"] == 6
    player["res"]["food"] = 2  # the gardens or the events, not both
    assert len(scoring.completed_quests(state, 0)) == 4


def test_contested_regions() -> None:
    """« des combats ont lieu dans chaque région contenant les Unités d'au moins deux Empires »;
    a land unit on a tribe's region fights it; ships never start a combat (R-combat-detection)."""
    state = bare(2)
    a, b = free_regions(state, 2)
    tribe = next(r for r in D.REGIONS if state["tribes"].get(r))
    section = next(iter(D.SECTIONS))
    state["units"] = [[0, "spearman", a], [1, "archer", a], [0, "spearman", b],
                      [1, "ship", section], [0, "ship", section], [1, "cavalry", tribe]]
    assert rounds.contested(state) == sorted([a, tribe], key=list(D.REGIONS).index)


def test_the_game_ends_after_the_round_completing_the_gardens() -> None:
    """« Une fois les jardins terminés, la partie s'achève à la fin de la manche en cours. »"""
    state = bare(3)
    state["phase"], state["current"], state["t"] = "combat", None, None
    rounds.end_round(state)
    assert state["phase"] == "actions" and state["round"] == 2 and GAME.outcome(state) is None
    state["phase"], state["current"], state["t"] = "combat", None, None
    state["players"][0]["gardens"] = [D.GARDEN_TILES[s][0] for s in range(1, 4)]
    state["players"][1]["gardens"] = [D.GARDEN_TILES[s][0] for s in range(4, 6)]
    rounds.end_round(state)
    assert state["phase"] == "over" and GAME.active(state) == []
    result = GAME.outcome(state)
    assert result is not None
    assert list(result.scores) == scoring.scores(state)
    assert sorted(s for (s,) in result.ranking) == [0, 1, 2]
    for lang in LANGUAGES:
        assert all(translate(d, lang, NAMES) for d in result.details)


def test_a_tie_goes_to_the_first_on_the_population_track() -> None:
    """« En cas d'égalité en fin de partie, le joueur en 1re position sur la piste Population
    l'emporte. »"""
    state = bare(2)
    state["phase"] = "over"
    first = int(state["seals"]["population"][0][0])
    other = 1 - first
    # Give the other seat exactly the VP that the places give the first one.
    gap = scoring.scores(state)[first] - scoring.scores(state)[other]
    state["vp_tokens"] = {}
    regions = free_regions(state, gap)
    state["units"] = [[other, "spearman", r] for r in regions]
    totals = scoring.scores(state)
    assert totals[0] == totals[1]
    result = GAME.outcome(state)
    assert result is not None and result.winners == (first,) and result.tiebreak is not None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_prefers_more_points(n: int) -> None:
    """The AI's heuristic follows the score: one more occupied region is better."""
    state = bare(n)
    before = GAME.heuristic(state, 0)
    state["units"] = [[0, "spearman", free_regions(state, 1)[0]]]
    assert GAME.heuristic(state, 0) > before


def test_a_hanging_gardens_storey_needs_architecture_and_reveals_the_next() -> None:
    """« Pour participer à la construction des Jardins suspendus, vous devez avoir découvert la
    Technologie Architecture. » « Les autres sont révélées à mesure que les joueurs bâtissent
    les étages » (R-garden-build)."""
    state = ready(2)
    seat = state["current"]
    state["players"][seat]["res"].update(wood=9, clay=9, stone=9, food=9)
    tile = state["gardens"][0][0]
    plain = play(state, "use construction pawn")
    assert not [o for o in legal(plain) if o.startswith("build garden")]
    set_card(state, seat, "construction", 4)
    state = play(state, "use construction pawn")
    assert f"build garden {tile}" in legal(state)
    step = GAME.parse(state, seat, f"build garden {tile}")
    assert not GAME.is_reversible(state, seat, step)
    after = play(state, f"build garden {tile}")
    assert after["players"][seat]["gardens"] == [tile]
    assert after["gardens"][1][1] and not state["gardens"][1][1]
    for k, v in \
            next(t for t in D.GARDEN_DATA["tiles"] if t["id"] == tile)["cost"].items():
        assert after["players"][seat]["res"][k] == 9 - v
    assert rounds.built_storeys(after) == 1
