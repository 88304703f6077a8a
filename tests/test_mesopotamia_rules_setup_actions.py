"""Mesopotamia, rulebook sections « MISE EN PLACE » to « ACTION CROISSANCE »: the rules that no
other test file checked yet (``data/mesopotamia/COVERAGE.md`` names, row by row, the test of
each rule). Each test cites the French sentence (seed 004) or the ruling of
``data/mesopotamia/RULINGS.md`` it checks; the scenarios start from ``ready`` (seat 1
Babylonians, 0 Sumerians, 3 Elamites, 2 Akkadians, playing in that order) and set a few pieces
by hand."""

from __future__ import annotations

import pytest

from bot.engine import State
from bot.games.mesopotamia import construction, rounds, scoring
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import seal_case
from tests.test_mesopotamia_actions import (
    harvests,
    legal,
    open_path,
    play,
    ready,
    set_card,
    set_dice,
)
from tests.test_mesopotamia_end import bare, free_regions

# -- helpers -----------------------------------------------------------------------------


def card_tech(state: State, seat: int, action: str) -> str:
    """The technology of ``seat``'s card of ``action``."""
    return D.CIV_TECH[state["players"][seat]["tech"][action]]


def pass_turn(state: State) -> State:
    """The current seat takes the pawn on Growth, does nothing and ends its turn."""
    return play(state, "use growth pawn", "stop", "end")


def use_dice(state: State, action: str) -> State:
    """The current seat activates ``action`` with the first dice that pay it."""
    step = next(o for o in legal(state) if o.startswith(f"use {action} ")
                and not o.endswith("pawn"))
    return play(state, step)


def quiet(state: State) -> set[str]:
    """The regions with no unit, tribe, blocker, ziggurat token nor start region."""
    full = {u[2] for u in state["units"]} | set(state["blockers"]) | set(state["ziggurats"])
    return {r for r, region in D.REGIONS.items()
            if r not in full and not state["tribes"].get(r) and region.start is None}


def calm_path(state: State, seat: int) -> tuple[str, str, str]:
    """``seat``'s start region and two regions in a row from it, both :func:`quiet` and with no
    event token (so that stopping there reveals nothing)."""
    start = state["players"][seat]["start"]
    calm = quiet(state) - set(state["sites"])
    return next((start, a, b) for a in D.REGIONS[start].neighbours if a in calm
                for b in D.REGIONS[a].neighbours if b in calm)


def moves(state: State) -> list[str]:
    """The regions of the current seat's ``move`` steps."""
    return [o.split()[1] for o in legal(state) if o.startswith("move ")]


# -- 5. setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("n, event, population", [
    (2, [[0, 1], [1, 1]], [[1, 2], [0, 1]]),
    (3, [[2, 1], [0, 1], [1, 1]], [[1, 2], [0, 1], [2, 1]])])
def test_only_the_chosen_empires_seals_are_piled(n: int, event: list[list[int]],
                                                 population: list[list[int]]) -> None:
    """« Placez uniquement les Sceaux des Empires sélectionnés, dans l'ordre suivant, de haut
    en bas. » — with 2 or 3 players (Sumerians, Babylonians, then Akkadians) only their seals
    are on the tracks, in the rulebook's order (R-stack-order)."""
    state = ready(n)
    assert [state["players"][s]["empire"] for s in range(n)] == \
        ["sumerian", "babylonian", "akkadian"][:n]
    assert state["seals"]["event"] == event
    assert state["seals"]["population"] == population


def test_the_supply_is_shared_and_unlimited() -> None:
    """« Placez toutes les ressources dans une réserve partagée accessible pour tous les joueurs.
    Les ressources sont tirées ici lorsqu'elles sont récoltées et déposées lorsqu'elles sont
    utilisées. » (R-supply: no limit of 40 pawns, Q-supply-limit reading a) — a seat harvests
    from it while every seat holds 40 Wood, and spends into it, taking nothing from another."""
    state = ready(4)
    for player in state["players"]:
        player["res"]["wood"] = 40
    start = state["players"][1]["start"]
    state = play(state, "use harvest_trade pawn", f"harvest {start} wood")
    assert [p["res"]["wood"] for p in state["players"]] == [40, 41, 40, 40]
    state = play(state, *(["stop"] if state["t"]["act"] else []))
    state = use_dice(set_dice(state, D.STAR), "war")
    state = play(state, f"create spearman {start}")
    assert [p["res"]["wood"] for p in state["players"]] == [40, 40, 40, 40]


# -- 6. blockers ---------------------------------------------------------------------------


def test_a_blocker_region_allows_only_moves_and_combats() -> None:
    """« Aucune action n'est possible dans les régions contenant un Bloqueur. » « Les Événements
    ne sont pas révélés, et vous ne pouvez ni récolter, ni placer de Colonie ou Rempart. Dans
    ces régions, les Unités ne peuvent que se déplacer ou combattre. » (Q-blockers reading
    a) — a unit enters it; nothing is harvested, built or revealed there; a combat
    happens there."""
    state = ready(4)
    start = state["players"][1]["start"]
    free = quiet(state)
    region = next((r for r in D.REGIONS[start].neighbours if r in free and r in state["sites"]
                   and D.REGIONS[r].resource), None) or \
        next(r for r in D.REGIONS[start].neighbours if r in free and D.REGIONS[r].resource)
    state["blockers"].append(region)
    state["players"][1]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    set_card(state, 1, "construction", 3)
    state = set_dice(state, D.STAR, D.STAR, D.STAR)
    state = play(state, "use exploration pawn", f"activate spearman {start}", f"move {region}")
    assert [1, "spearman", region] in state["units"]
    assert not state["sites"].get(region, ["", False])[1] and not state.get("pending_events")
    assert not [o for o in legal(state) if o.startswith("event ")]
    state = use_dice(play(state, *(["stop"] if state["t"]["act"] else [])), "harvest_trade")
    assert not [o for o in harvests(state) if o.split()[1] == region]
    state = use_dice(play(state, "stop"), "construction")
    assert not [o for o in legal(state) if o.startswith("build") and o.endswith(region)]
    state["units"].append([0, "spearman", region])
    assert region in rounds.contested(state)


# -- 8. the actions ------------------------------------------------------------------------


def test_the_babylonian_example_pawn_on_trade_routes_two_dice_on_exploration() -> None:
    """« l'Empire babylonien lance l'action Routes commerciales en plaçant son pion Sélection
    d'action sur l'action correspondante. Il utilise également deux dés Dingir en reproduisant
    les symboles montrés sur l'action Exploration, et gagne ainsi une deuxième action dans le
    même Tour. »"""
    state = ready(4)
    assert state["players"][1]["empire"] == "babylonian"
    set_card(state, 1, "harvest_trade", 3)
    set_card(state, 1, "exploration", 2)
    assert card_tech(state, 1, "harvest_trade") == "trade_routes"
    signs = D.TECH_SIGNS[card_tech(state, 1, "exploration")]
    assert len(signs) == 2
    state = set_dice(state, *signs)
    state = play(state, "use harvest_trade pawn", "stop", "use exploration 1 2")
    assert state["t"]["done"] == ["harvest_trade", "exploration"]
    assert state["t"]["used"] == [True, True] and not state["t"]["pawn"]


def test_as_many_actions_as_the_dice_allow() -> None:
    """« Vous pouvez effectuer autant d'actions que possible lors de votre Tour, selon les
    ressources disponibles et d'autres conditions. » — the pawn and five stars: all six
    actions in one turn, each once."""
    state = set_dice(ready(4), *[D.STAR] * 5)
    state = play(state, "use growth pawn", "stop")
    for action in ("exploration", "construction", "research", "harvest_trade", "war"):
        state = use_dice(state, action)
        state = play(state, *(["stop"] if state["t"]["act"] else []))
    assert sorted(state["t"]["done"]) == sorted(D.ACTIONS)
    assert legal(state) == ["end"]


def test_resources_gained_are_spent_in_the_same_turn() -> None:
    """« Vous pouvez effectuer une action pour gagner des ressources, et les utiliser
    immédiatement pour en effectuer une autre dans le même Tour. » — Wood harvested in the
    start region creates a unit in the same turn."""
    state = ready(4)
    state["players"][1]["res"]["wood"] = 0
    start = state["players"][1]["start"]
    state = play(set_dice(state, D.STAR), "use harvest_trade pawn", f"harvest {start} wood")
    state = use_dice(play(state, *(["stop"] if state["t"]["act"] else [])), "war")
    state = play(state, f"create spearman {start}")
    assert state["players"][1]["res"]["wood"] == 0
    assert state["units"].count([1, "spearman", start]) == 2


def test_six_action_types_open_to_every_empire_from_the_start() -> None:
    """« Il existe six types d'actions au total. » … « sont accessibles pour tous les Empires dès
    le début de la partie. » « L'action Exploration niveau 1 est représentée par la Technologie
    antique Cartographie, que tous les Empires connaissent en début de partie. »"""
    state = ready(4)
    assert len(D.ACTIONS) == 6
    for seat, player in enumerate(state["players"]):
        assert sorted(player["tech"]) == sorted(D.ACTIONS)
        assert card_tech(state, seat, "exploration") == "cartography"
    assert {f"use {a} pawn" for a in D.ACTIONS} <= set(legal(state))


def test_cartography_activates_one_unit_astronomy_any_unit_twice() -> None:
    """« l'action Exploration niveau 1 (Cartographie) permet d'activer une Unité. Une fois au
    niveau 2 (Astronomie), vous pouvez activer n'importe quelle Unité deux fois. » « Un Lancier
    activé deux fois peut se déplacer 2 fois » « Un Cavalier activé deux fois peut se déplacer
    4 fois » « Un Lancier et un Cavalier activés une fois peuvent se déplacer 1 fois et 2 fois
    respectivement » (R-activation) — with the Sumerian cards."""
    state = pass_turn(ready(4))
    assert state["current"] == 0 and state["players"][0]["empire"] == "sumerian"
    start, a, b = calm_path(state, 0)
    state["units"].append([0, "cavalry", start])
    one = play(state, "use exploration pawn", f"activate spearman {start}", f"move {a}")
    assert one["t"]["act"] is None
    set_card(state, 0, "exploration", 2)
    assert D.CARD_EFFECT[state["players"][0]["tech"]["exploration"]]["activations"] == 2
    twice = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {a}",
                 f"move {b}", f"activate cavalry {b}", f"move {a}", f"move {b}")
    assert [0, "cavalry", b] in twice["units"] and twice["t"]["act"] is None
    walk = play(state, "use exploration pawn", f"activate spearman {start}", f"move {a}",
                f"activate spearman {a}", f"move {b}")
    assert [0, "spearman", b] in walk["units"] and walk["t"]["act"] is None
    both = play(state, "use exploration pawn", f"activate spearman {start}", f"move {a}")
    both = play(both, f"activate cavalry {start}", f"move {a}", f"move {b}")
    assert [0, "spearman", a] in both["units"] and [0, "cavalry", b] in both["units"]


# -- 8.5 the ziggurat and its dice -----------------------------------------------------------


def test_six_storeys_and_six_dice_at_most() -> None:
    """« Vous devez ensuite construire les six pièces restantes par-dessus. » « Vous gagnez un dé
    Dingir pour chaque étage construit, pour un maximum de 6 dés. » « La Ziggurat compte 6
    étages » — at Population 8 a sixth storey is built, never a seventh."""
    state = ready(4)
    player = state["players"][1]
    state["seals"]["population"] = [[1, 8], [0, 1], [3, 1], [2, 1]]
    player["ziggurat"], player["dice"] = 5, ["white", "silver", "black", "white", "silver"]
    assert construction.storey_colours(state, 1) == ["black"]
    player["ziggurat"], player["dice"] = 6, [*player["dice"], "black"]
    assert construction.storey_colours(state, 1) == []
    player["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    state = play(set_dice(state, *[D.STAR] * 6), "use construction pawn")
    assert not [o for o in legal(state) if o.startswith("build storey")]


def test_storeys_four_to_six_choose_their_colours() -> None:
    """« Pour le 4e étage, choisissez à nouveau n'importe quelle couleur. » « Au 5e étage,
    choisissez un dé Dingir d'une couleur différente de celle choisie au 4e étage. » « Au 6e
    étage, choisissez un dé Dingir d'une couleur différente de celles choisies aux 4e et 5e
    étages. » (R-dice-colours) — hence two dice of each colour."""
    state = ready(4)
    player = state["players"][1]
    state["seals"]["population"] = [[1, 8], [0, 1], [3, 1], [2, 1]]
    player["ziggurat"], player["dice"] = 3, ["black", "white", "silver"]
    assert construction.storey_colours(state, 1) == list(D.COLOURS)
    player["ziggurat"], player["dice"] = 4, [*player["dice"], "silver"]
    assert construction.storey_colours(state, 1) == ["white", "black"]
    player["ziggurat"], player["dice"] = 5, [*player["dice"], "white"]
    assert construction.storey_colours(state, 1) == ["black"]


# -- 9. exploration ------------------------------------------------------------------------


def test_a_unit_stopping_on_a_face_down_event_reveals_it_passing_does_not() -> None:
    """« Si une Unité termine son déplacement dans une région avec un Événement non découvert,
    celui-ci est alors révélé et résolu. » « Vous y piocherez la carte Événement indiquée par
    un jeton Événement révélé. » (Q-reveal-timing reading a: at once, to the seat whose unit
    stopped) — a cavalry passing through the token's region leaves it face down."""
    state = ready(4)
    start = state["players"][1]["start"]
    free = quiet(state)
    site, beyond = next((a, b) for a in D.REGIONS[start].neighbours
                        if a in free and a in state["sites"]
                        for b in D.REGIONS[a].neighbours if b in free and b not in state["sites"])
    state["units"].append([1, "cavalry", start])
    token = state["sites"][site][0]
    passing = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {site}",
                   f"move {beyond}")
    assert not passing["sites"][site][1] and [1, "cavalry", beyond] in passing["units"]
    stopping = play(state, "use exploration pawn", f"activate spearman {start}",
                    f"move {site}")
    assert stopping["sites"][site] == [token, True] and GAME.active(stopping) == [1]
    options = legal(stopping)
    assert options and all(o.startswith(f"event {token} ") for o in options)
    assert token in D.EVENTS[D.REGIONS[site].terrain]


@pytest.mark.parametrize("kind, speed", [("spearman", 1), ("archer", 1), ("cavalry", 2),
                                         ("chariot", 2)])
def test_each_unit_moves_its_speed_to_adjacent_regions(kind: str, speed: int) -> None:
    """« Lancier 1 Archer 1 Cavalier 2 Char 2 » « Une Unité se déplace en passant d'une région à
    une autre région adjacente. » « une Unité avec Vitesse 2 peut se déplacer sur une région
    adjacente, puis continuer vers une autre. »"""
    state = pass_turn(ready(4))
    start = state["players"][0]["start"]
    state["units"].append([0, kind, start])
    free = quiet(state) - set(state["sites"])
    state = play(state, "use exploration pawn", f"activate {kind} {start}")
    at, made = start, 0
    while state["t"]["act"] is not None and state["t"]["act"]["unit"] is not None:
        options = moves(state)
        assert set(options) <= set(D.REGIONS[at].neighbours)
        at = next(r for r in options if r in free)
        state = play(state, f"move {at}")
        made += 1
    assert made == speed and [0, kind, at] in state["units"]


def test_the_sumerian_cavalry_is_blocked_by_three_babylonians() -> None:
    """« Deux Unités sumériennes vont attaquer trois Unités babyloniennes dans une région
    adjacente. » … « Puisque les Sumériens sont moins nombreux (2 contre 3), le Cavalier est
    bloqué et ne peut pas effectuer son deuxième déplacement. »"""
    state = pass_turn(ready(4))
    assert state["players"][0]["empire"] == "sumerian"
    start, a, _ = calm_path(state, 0)
    set_card(state, 0, "exploration", 2)
    state["units"] += [[0, "cavalry", start], *([1, k, a] for k in ("spearman", "archer",
                                                                   "cavalry"))]
    state = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {a}")
    assert state["t"]["act"]["unit"] is None and [0, "cavalry", a] in state["units"]
    state = play(state, f"activate spearman {start}", f"move {a}")
    assert {tuple(u) for u in state["units"] if u[2] == a and u[0] == 0} == {
        (0, "cavalry", a), (0, "spearman", a)}
    assert a in rounds.contested(state)


def test_control_by_a_unit_or_a_colony_and_nobody_while_contested() -> None:
    """« Pour contrôler une région, vous devez y posséder une Ziggurat, une Unité ou une
    Colonie. » « Tant que le combat n'est pas résolu, aucun joueur ne contrôle la région. »
    (R-control)"""
    state = bare(2)
    a, b, c = free_regions(state, 3)
    state["units"] = [[0, "spearman", a], [1, "archer", c], [0, "archer", c]]
    state["players"][1]["colonies"] = [b]
    assert scoring.controller(state, a) == 0 and scoring.controller(state, b) == 1
    assert scoring.controller(state, c) is None


def test_the_start_region_stays_controlled_by_its_ziggurat() -> None:
    """« Pour contrôler une région, vous devez y posséder une Ziggurat » « Vous ne pouvez pas
    perdre le contrôle de votre région de départ. » — even with no unit there; a Ziggurat
    token of an unused start region is nobody's Ziggurat; and the start region still scores no
    region VP (« n'inclut pas votre Région de départ ») (R-start-control)."""
    state = bare(2)
    assert all(scoring.controller(state, p["start"]) == s
               for s, p in enumerate(state["players"]))
    assert state["ziggurats"] and all(scoring.controller(state, r) is None
                                      for r in state["ziggurats"])
    start = state["players"][0]["start"]
    state["units"] = [[0, "spearman", start]]
    assert scoring.controller(state, start) == 0 and scoring.breakdown(state, 0)["regions"] == 0


# -- 10. ships -----------------------------------------------------------------------------


def test_no_second_own_ship_on_a_section() -> None:
    """« Seul 1 Navire à la fois peut occuper une section fluviale. Un joueur ne peut pas placer
    de second Navire sur une section fluviale comptant déjà un Navire lui appartenant. »
    (R-ship-stack, Q-ship-stack reading a: no build there)."""
    state = ready(4)
    set_card(state, 1, "construction", 2)
    state["players"][1]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    home = construction.ship_sections(state, 1)[0]
    state["units"].append([1, "ship", home])
    assert home not in construction.ship_sections(state, 1)


def test_a_ship_sails_through_but_never_ends_on_its_own_ship() -> None:
    """« Seul 1 Navire à la fois peut occuper une section fluviale. Un joueur ne peut pas placer
    de second Navire sur une section fluviale comptant déjà un Navire lui appartenant. »
    (R-ship-stack, Q-ship-stack reading a: no move ends there; a rival's ship may share) — a
    speed-3 ship crosses its own ship's section, may not halt there, and its last move may end
    on a rival ship's section but not on its own."""
    state = ready(4)
    here = next(s for s, near in D.SECTION_NEXT.items() if len(near) >= 3)
    own, rival = D.SECTION_NEXT[here][:2]
    state["units"] = [u for u in state["units"] if u[1] != "ship"]
    state["units"] += [[1, "ship", here], [1, "ship", own], [0, "ship", rival]]
    state = play(state, "use exploration pawn", f"activate ship {here}", f"move {own}")
    assert "halt" not in legal(state) and f"move {here}" in legal(state)
    state = play(state, f"move {here}")
    assert "halt" in legal(state) and f"move {own}" not in legal(state)
    assert f"move {rival}" in legal(state)
    state = play(state, f"move {rival}")
    assert [1, "ship", rival] in state["units"] and [0, "ship", rival] in state["units"]
    assert state["t"]["act"] is None or state["t"]["act"]["unit"] is None


def test_ships_are_built_next_to_a_colony() -> None:
    """« Navire : constructible sur toute section fluviale adjacente à votre Région de départ, ou
    à une région dans laquelle vous contrôlez une Colonie. » (R-ship-build)"""
    state = ready(4)
    start = state["players"][1]["start"]
    colony = next(s.banks[0] for s in D.SECTIONS.values()
                  if start not in s.banks and s.banks[0] in free_regions(state, 40))
    before = set(construction.ship_sections(state, 1))
    state["players"][1]["colonies"] = [colony]
    after = set(construction.ship_sections(state, 1))
    assert after - before == {s.id for s in D.SECTIONS.values()
                              if colony in s.banks and start not in s.banks}


# -- 12. construction ----------------------------------------------------------------------


def test_construction_needs_and_spends_the_resources_two_structures() -> None:
    """« L'action Construction permet de bâtir l'une des Structures ou Unités disponibles, à
    condition d'avoir les ressources nécessaires (qui sont alors dépensées). » « Construction
    2 » … « construire deux structures différentes » — the Babylonian Maçonnerie builds a
    Rampart and a storey; with nothing to pay it builds nothing."""
    state = ready(4)
    _, a, _ = open_path(state, 1)
    state["units"].append([1, "spearman", a])
    state["players"][1]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 0))
    assert legal(play(state, "use construction pawn")) == ["end"]    # R-idle-action
    cost = {k: construction.COST["rampart"].get(k, 0) +
            construction.COST["ziggurat_storey"].get(k, 0) for k in D.BASE_RESOURCES}
    state["players"][1]["res"].update(cost)
    state = play(state, "use construction pawn", f"build rampart {a}", "build storey white")
    player = state["players"][1]
    assert player["ramparts"] == [a] and player["ziggurat"] == 1
    assert all(v == 0 for v in player["res"].values()) and state["t"]["act"] is None


def test_a_ram_is_built_in_the_start_region_or_a_colony() -> None:
    """« Bélier : constructible dans votre Région de départ ou toute Colonie que vous
    contrôlez. » — unlocked by Travail du bois (niv. 2), not by Maçonnerie."""
    state = ready(4)
    colony = free_regions(state, 1)[0]
    state["players"][1]["colonies"] = [colony]
    state["players"][1]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    rams = {o for o in legal(play(state, "use construction pawn")) if o.startswith("build ram ")}
    assert rams == set()
    set_card(state, 1, "construction", 2)
    state = play(state, "use construction pawn")
    start = state["players"][1]["start"]
    assert {o for o in legal(state) if o.startswith("build ram ")} == {
        f"build ram {start}", f"build ram {colony}"}


# -- 13. the Hanging Gardens -------------------------------------------------------------


def test_gardens_conditions_are_met_not_spent_and_any_empire_builds_the_next() -> None:
    """« Les Jardins suspendus sont constitués de cinq étages, chacun pouvant être érigé par
    n'importe quel Empire. » « un niveau de Population minimum » … « ces conditions doivent
    être remplies, mais n'impliquent aucune dépense. » (R-garden-build)"""
    state = ready(4)
    first = state["gardens"][0][0]
    state["gardens"][1] = ["storey3_1", False]
    assert next(t for t in D.GARDEN_DATA["tiles"]
                if t["id"] == "storey3_1")["conditions"] == {"population": 2}
    for seat in (0, 1):
        set_card(state, seat, "construction", 4)
        state["players"][seat]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    state = play(state, "use construction pawn", f"build garden {first}")
    state = play(state, *(["stop"] if state["t"]["act"] else []), "end")
    assert state["current"] == 0 and seal_case(state, "population", 0) == 1
    assert construction.garden_tile(state, 0) is None          # Population 1 < 2
    state["seals"]["population"] = [[1, 2], [0, 2], [3, 1], [2, 1]]
    state = play(state, "use construction pawn", "build garden storey3_1")
    assert state["players"][0]["gardens"] == ["storey3_1"]
    assert seal_case(state, "population", 0) == 2


# -- 14. research --------------------------------------------------------------------------


def test_mathematics_is_replaced_by_literature() -> None:
    """« Pour améliorer Mathématiques (niv. 2), vous devez la remplacer par Littérature
    (niv. 3). » — the Sumerians start with it and 1 Tablet."""
    state = pass_turn(ready(4))
    assert card_tech(state, 0, "research") == "mathematics"
    state = play(state, "use research pawn", "discover research")
    assert card_tech(state, 0, "research") == "literature"
    assert state["players"][0]["res"]["tablet"] == 0


def test_a_technology_then_its_next_level_at_once() -> None:
    """« Vous pouvez découvrir une Technologie (comme Construction niv. 2), puis son niveau
    suivant immédiatement après (Construction niv. 3). » — two discoveries of Littérature."""
    state = ready(4)
    set_card(state, 1, "research", 3)
    state["players"][1]["res"]["tablet"] = 2
    state = play(state, "use research pawn", "discover construction", "discover construction")
    assert card_tech(state, 1, "construction") == "urbanisation"
    assert state["players"][1]["res"]["tablet"] == 0


# -- 14-18. the two parts of an action -----------------------------------------------------


@pytest.mark.parametrize("action, first, second", [
    ("research", "convert", "discover"), ("harvest_trade", "harvest", "trade"),
    ("war", "phalanx", "create")])
def test_the_two_parts_of_an_action_back_to_back(action: str, first: str, second: str) -> None:
    """« Vous pouvez faire l'une ou l'autre, ou les deux. Si vous optez pour les deux, vous
    devez les exécuter de manière consécutive, sans réaliser d'autre action au milieu. »
    (Recherche, Récolte et Échange, Guerre) — both parts in one activation, no other action
    between them, none after ``stop``."""
    state = ready(4)
    state["players"][1]["res"].update({**dict.fromkeys(D.BASE_RESOURCES, 9), "tablet": 1})
    state = play(state, f"use {action} pawn")
    steps = legal(state)
    assert {o.split()[0] for o in steps} >= {first, second}
    assert not [o for o in steps if o.split()[0] in ("use", "end", "reroll")]
    state = play(state, next(o for o in steps if o.split()[0] == first))
    assert [o for o in legal(state) if o.split()[0] == second]
    state = play(state, "stop")
    assert not [o for o in legal(state) if o.split()[0] in (first, second)]
    assert not [o for o in legal(state) if o.startswith(f"use {action}")]


# -- 16. harvest ---------------------------------------------------------------------------


def test_harvest_one_resource_with_the_first_card() -> None:
    """« si celle-ci précise « Récoltez 1 ressource », vous pouvez choisir une ressource à
    récolter et une source éligible où le faire. »"""
    state = ready(4)
    set_card(state, 1, "harvest_trade", 1)
    start = state["players"][1]["start"]
    state = play(state, "use harvest_trade pawn", f"harvest {start} food")
    assert state["players"][1]["res"]["food"] == 2 and harvests(state) == set()


def test_the_elamite_harvests_in_the_four_ways() -> None:
    """« Le joueur Vert (Empire élamite) active une Technologie lui conférant : « Récoltez 3
    ressources. » » … « la Colonie élamite se trouve dans une région dotée d'un symbole Bois.
    Le joueur peut choisir d'y récolter du Bois. » … « toutes les Unités, sauf les Navires
    peuvent récolter la ressource de la région où elles se trouvent. » … « le Navire élamite
    est sur une section fluviale adjacente à une région produisant du Bois, et une autre
    produisant de la Nourriture. » — and « L'éventuelle présence d'Unités ennemies dans la
    région ne change rien. »"""
    state = pass_turn(pass_turn(ready(4)))
    assert state["current"] == 3 and state["players"][3]["empire"] == "elamite"
    assert D.CARD_EFFECT[state["players"][3]["tech"]["harvest_trade"]]["harvests"] == 3
    start = state["players"][3]["start"]
    free = free_regions(state, 40)
    woods = [r for r in free if D.REGIONS[r].resource == "wood"]
    section = next(s for s in D.SECTIONS.values()
                   if {D.REGIONS[b].resource for b in s.banks} == {"wood", "food"})
    colony, field = [r for r in woods if r not in section.banks][:2]
    state["players"][3]["colonies"] = [colony]
    state["units"] = [u for u in state["units"] if u[0] != 3]
    state["units"] += [[3, "spearman", field], [0, "archer", field], [3, "ship", section.id]]
    state = play(state, "use harvest_trade pawn")
    assert harvests(state) == {*(f"harvest {start} {k}" for k in D.BASE_RESOURCES),
                               f"harvest {colony} wood", f"harvest {field} wood",
                               f"harvest {section.id} wood", f"harvest {section.id} food"}
    wood = state["players"][3]["res"]["wood"]
    state = play(state, f"harvest {colony} wood", f"harvest {field} wood",
                 f"harvest {section.id} food")
    assert state["players"][3]["res"]["wood"] == wood + 2 and harvests(state) == set()


# -- 18. war -------------------------------------------------------------------------------


def test_a_unit_is_created_where_a_colony_stands() -> None:
    """« L'Unité créée est placée dans votre Région de départ, ou toute autre région où vous
    possédez une Colonie. »"""
    state = ready(4)
    colony = free_regions(state, 1)[0]
    state["players"][1]["colonies"] = [colony]
    state = play(state, "use war pawn")
    start = state["players"][1]["start"]
    assert {o for o in legal(state) if o.startswith("create")} == {
        f"create spearman {start}", f"create spearman {colony}"}
    state = play(state, f"create spearman {colony}")
    assert [1, "spearman", colony] in state["units"]

