"""Mesopotamia played by the generic AI in every seat: the game ends, and the AI builds.

« Les Manches s'enchaînent jusqu'à la construction complète des Jardins suspendus. Une fois les
jardins terminés, la partie s'achève à la fin de la manche en cours. » A game only ends when the
players build the five storeys of the Hanging Gardens, which needs « la Technologie
Architecture » (Construction level 4): an AI judged by the final score alone never researched
it and played on for ever. The AI's heuristic (:mod:`bot.games.mesopotamia.heuristic`) values
that progress; these games, at the quick budget of the balance runs, must end.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from benchmarks.balance import QUICK_BUDGET, play_ai_game
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import heuristic
from bot.games.mesopotamia.actions import next_card
from bot.games.mesopotamia.construction import GARDEN
from bot.games.mesopotamia.engine import GAME
from tests.test_mesopotamia_actions import legal, play, set_card
from tests.test_mesopotamia_end import bare, free_regions

MAX_ROUNDS = 45
"""The bound of these games. In the samples of ``benchmarks/mesopotamia_balance.py`` (quick
budget, 20 games per player count, after the pace tuning of 2026-11-26, see
``data/mesopotamia/README.md`` → « Pace (AI self-play) ») the medians were 30, 23 and 21 rounds
(2, 3, 4 players) and the longest game lasted 40 rounds; these three games last 21, 18 and 22
rounds. A real game lasts about 6-12 rounds: this AI is still a slow player, and the bound
guards against games that stall at the last storeys."""
MAX_STEPS = 5_000


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 1), (4, 2)])
def test_ai_games_end_and_build_the_gardens(players: int, seed: int) -> None:
    """« Une fois les cinq étages des Jardins suspendus construits et la Manche actuelle
    terminée (permettant à tous les joueurs de finir leur Tour), la partie prend fin. »: AI
    games end within :data:`MAX_ROUNDS`, every storey built by the AI seats."""
    rng = random.Random(f"mesopotamia-ai:{players}:{seed}")
    state = GAME.setup(rng.getrandbits(63), players, {})
    state, _ = play_ai_game(GAME, state, rng, QUICK_BUDGET, MAX_STEPS)
    assert GAME.outcome(state) is not None
    assert state["round"] <= MAX_ROUNDS
    assert sum(len(p.get("gardens", [])) for p in state["players"]) == 5


def test_architecture_is_progress() -> None:
    """« Pour participer à la construction des Jardins suspendus, vous devez avoir découvert la
    Technologie Architecture. »: the heuristic values each Construction level towards it more
    than the Tablet a discovery spends (« dépenser 1 Tablette à chaque amélioration de
    Technologie »)."""
    state = bare(2)
    state["players"][0]["res"]["tablet"] = 1
    before = GAME.heuristic(state, 0)
    card = next_card(state, 0, "construction")
    assert card is not None
    state["players"][0]["tech"]["construction"] = card
    state["players"][0]["res"]["tablet"] = 0
    assert GAME.heuristic(state, 0) > before


def test_the_seat_ahead_wants_the_gardens_finished() -> None:
    """« Une fois les jardins terminés, la partie s'achève à la fin de la manche en cours. »:
    once the fifth storey is built, progress is worth nothing and the seat ahead on VP counts
    nearly a win, so it wants to build the last storey and the seat behind does not."""
    state = bare(2)
    tiles = [tile for tile, _ in state["gardens"]]
    state["players"][0]["gardens"] = tiles[:4]
    assert GAME.heuristic(state, 0) < heuristic.FINISH / 2
    state["players"][0]["gardens"] = tiles
    assert GAME.heuristic(state, 0) > heuristic.FINISH
    assert GAME.heuristic(state, 1) < -heuristic.FINISH


def test_the_seat_ahead_sees_the_last_storey_in_its_action_under_way() -> None:
    """« Une fois les jardins terminés, la partie s'achève à la fin de la manche en cours. »:
    a seat ahead on VP that has activated Architecture and can build the fifth storey counts
    the finish in what its action under way brings (:func:`heuristic.action_gain`), although
    the build ends its progress; otherwise the look-ahead would not pick that action."""
    state = bare(2)
    seat = state["current"]
    tiles = [tile for tile, _ in state["gardens"]]
    state["players"][seat]["gardens"] = tiles[:4]
    state["gardens"][4][1] = True
    state["units"] = [[seat, "spearman", r] for r in free_regions(state, 5)]
    state["players"][seat]["res"].update(wood=9, clay=9, stone=9, food=9)
    set_card(state, seat, "construction", 4)
    for kind, want in GARDEN[tiles[4]]["conditions"].items():
        if kind == "colonies":
            state["players"][seat]["colonies"] = free_regions(state, want)
        else:
            track = "population" if kind == "population" else "event"
            state["seals"][track] = sorted(([s, want if s == seat else 1] for s in range(2)),
                                           key=lambda entry: -entry[1])
    state = play(state, "use construction pawn")
    assert f"build garden {tiles[4]}" in legal(state)
    assert GAME.heuristic(state, seat) > heuristic.FINISH


def test_the_way_to_an_event_or_population_condition_counts(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """A tile asking Event case 2 or Population 2 that the seat does not meet: a land unit next
    to a face-down Event no tribe guards, an Event found and not resolved, the Food of a Growth
    bring it nearer (before, such a tile waited up to 15 rounds: neither seat explored). A unit
    standing on that Event is not nearer: « Si une Unité termine son déplacement dans une région
    avec un Événement non découvert, celui-ci est alors révélé », so it must leave and come back
    (before, two seats whose units stood on Events waited 20 rounds)."""
    state = bare(2)
    tile = "event_tile"
    monkeypatch.setitem(GARDEN, tile, {**GARDEN["storey2_3"], "id": tile,
                                       "conditions": {"event_track": 2}})
    state["gardens"][0] = [tile, True]
    state["units"] = []
    state["tribes"] = {}
    empty = heuristic.garden_readiness(state, 0, 0)
    site = next(r for r, (_, up) in state["sites"].items()
                if not up and r not in state["blockers"])
    state["sites"] = {r: [token, r != site] for r, (token, _) in state["sites"].items()}
    state["units"] = [[0, "spearman", site]]
    assert heuristic.garden_readiness(state, 0, 0) == empty
    state["units"] = [[0, "spearman", D.REGIONS[site].neighbours[0]]]
    nearer = heuristic.garden_readiness(state, 0, 0)
    assert nearer > empty
    state["pending_events"] = [[0, site]]
    assert heuristic.garden_readiness(state, 0, 0) > nearer
    state["pending_events"] = [[1, site]]
    assert heuristic.garden_readiness(state, 0, 0) == nearer
    monkeypatch.setitem(GARDEN, tile, {**GARDEN[tile], "conditions": {"population": 2}})
    before = heuristic.garden_readiness(state, 0, 0)
    state["players"][0]["res"]["food"] = 3
    assert heuristic.garden_readiness(state, 0, 0) > before


def test_the_food_a_tile_costs_is_not_also_the_food_of_a_growth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A tile costing Food and asking Population 2: the Food it costs does not also count as
    the way to Population 2, so a seat holding just that much still wants the Food of a Growth
    (before, a seat on Population 1 with 2 Food, for the tile or the Growth, waited 10 rounds:
    more Food looked worth nothing, and a Growth lowered its readiness)."""
    state = bare(2)
    tile = "population_tile"
    monkeypatch.setitem(GARDEN, tile, {**GARDEN["storey2_3"], "id": tile,
                                       "cost": {"stone": 1, "food": 1},
                                       "conditions": {"population": 2}})
    state["gardens"][0] = [tile, True]
    growth = int(D.CARD_EFFECT[state["players"][0]["tech"]["growth"]]["food"])
    readiness = []
    for food in range(growth + 2):
        state["players"][0]["res"]["food"] = food
        readiness.append(heuristic.garden_readiness(state, 0, 0))
    assert readiness == sorted(set(readiness)), readiness   # each Food up to cost + Growth counts
    state["players"][0]["res"]["food"] = growth + 2
    assert heuristic.garden_readiness(state, 0, 0) == readiness[-1]


def test_before_architecture_the_clay_of_a_tablet_counts() -> None:
    """Before Architecture, each Clay towards the Tablet of the next Discovery (« convertir 2
    Argiles en 1 Tablette », « dépenser 1 Tablette à chaque amélioration ») is worth more than
    a Clay after it, up to a Tablet's worth (before, a seat with Urbanisation spent each Clay
    it harvested on a Colony and took 10 rounds to reach Architecture)."""
    state = bare(2)
    player = state["players"][0]
    convert = D.CARD_EFFECT[player["tech"]["research"]]["convert"]

    def clay_gains() -> list[float]:
        gains = []
        for clay in range(int(convert["clay"]) + 1):
            player["res"]["clay"] = clay
            gains.append(heuristic.progress(state, 0))
        player["res"]["clay"] = 0
        return [b - a for a, b in pairwise(gains)]

    set_card(state, 0, "construction", 3)
    before = clay_gains()
    player["res"]["tablet"] = D.DISCOVERY_TABLETS
    holding_a_tablet = clay_gains()        # one Tablet is all a Discovery needs
    assert min(before) > max(holding_a_tablet)
    assert holding_a_tablet == pytest.approx([heuristic.RESOURCE_WORTH["clay"]] * len(before))
    player["res"]["tablet"] = 0
    assert heuristic.discovery_readiness(state, 0) == 0.0
    player["res"]["clay"] = int(convert["clay"])
    assert heuristic.discovery_readiness(state, 0) == min(
        1.0, int(convert["tablet"]) / D.DISCOVERY_TABLETS)


def test_a_seat_without_a_unit_values_the_wood_of_one() -> None:
    """A seat that lost its land units counts its first Wood more (the Wood a War needs to
    create a unit); with a unit, Wood is worth what any resource is."""
    state = bare(2)
    state["units"] = [u for u in state["units"] if u[0] != 0]
    without = heuristic.progress(state, 0)
    state["players"][0]["res"]["wood"] += 1
    gain_alone = heuristic.progress(state, 0) - without
    state["units"].append([0, "spearman", state["players"][0]["start"]])
    with_unit = heuristic.progress(state, 0)
    state["players"][0]["res"]["wood"] -= 1
    assert gain_alone > with_unit - heuristic.progress(state, 0) > 0


def test_a_seat_without_a_land_unit_wants_one_more_than_its_wood() -> None:
    """Without a land unit a seat can explore no Event (a Gardens tile may ask for an Event
    case): its first land unit is worth more than a later one, and more than the Wood it
    costs, so a War creates it (two seats that had lost theirs waited 40 rounds)."""
    state = bare(2)
    state["units"] = [u for u in state["units"] if u[0] != 0]
    player = state["players"][0]
    player["res"]["wood"] = 1
    before = heuristic.progress(state, 0)
    player["res"]["wood"] = 0
    state["units"].append([0, "spearman", player["start"]])
    first = heuristic.progress(state, 0) - before
    second = heuristic.progress(dict(state, units=[*state["units"], [0, "archer",
                                                                     player["start"]]]), 0)
    assert first > second - heuristic.progress(state, 0) > 0
    assert first > 1


def test_a_colony_condition_values_the_colony_cost_held(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """« un certain nombre de Colonies »: when the face-up Hanging Gardens tile asks for a
    Colony the seat lacks, the resources of a Colony (« Colonie : 1 Pierre, 1 Bois, 1 Argile,
    1 Nourriture ») bring it nearer to the storey; before, a seat without a Colony saw no gain
    in holding them and spent its Wood on units, and games stalled for dozens of rounds. (No
    tile of ours asks for a Colony since R-garden-pace; a printed copy's may: a tile made so.)"""
    state = bare(2)
    tile = "colony_tile"
    monkeypatch.setitem(GARDEN, tile, {**GARDEN["storey2_3"], "id": tile,
                                       "conditions": {"colonies": 1}})
    state["gardens"][0] = [tile, True]
    player = state["players"][0]
    empty = heuristic.garden_readiness(state, 0, 0)
    player["res"].update(wood=1, food=1)
    assert heuristic.garden_readiness(state, 0, 0) > empty
    player["res"].update(stone=1, clay=1)
    almost = heuristic.garden_readiness(state, 0, 0)
    player["colonies"] = free_regions(state, 1)
    player["res"].update(stone=0, wood=0, clay=0, food=0)
    assert heuristic.garden_readiness(state, 0, 0) == empty + 0.5
    assert almost > empty
