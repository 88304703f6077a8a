"""Ramparts and Rams (« REMPARTS ET BÉLIERS », seed lines 2226-2257, and the Construction
table): a Rampart closes its region to other empires' units, a Ram opens it; building a Ram,
binding it to a unit, moving it, and what a combat in a fortified region does to both. Each
test quotes the sentence it checks and names the ruling of ``data/mesopotamia/RULINGS.md``.
The scenarios are set up by hand on a game in its first action phase (no face-down event, so
that no reveal interferes)."""

from __future__ import annotations

import random

import pytest

from bot.engine import State
from bot.games.mesopotamia import (
    actions,
    battles,
    combat,
    construction,
    exploration,
    focus,
    rounds,
    scoring,
    texts,
)
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import unit_limit, units_of
from bot.i18n import LANGUAGES, translate
from render import mesopotamia as picture
from render.context import RenderContext
from tests.contract import NAMES
from tests.test_mesopotamia_actions import legal, play, set_card
from tests.test_mesopotamia_battles import seal
from tests.test_mesopotamia_end import bare, free_regions


def scene() -> tuple[State, int, int]:
    """A 2-player game in the first action phase, no piece on the map, no face-down event;
    the seat to play and the other."""
    state = bare(2)
    state["sites"] = {}
    me = int(state["current"])
    return state, me, 1 - me


def path(state: State) -> tuple[str, str, str]:
    """Three free regions in a row (no start region, tribe, blocker nor ziggurat token)."""
    free = [r for r in free_regions(state, 60)
            if r not in state["blockers"] and r not in state["ziggurats"]]
    for x in free:
        for y in D.REGIONS[x].neighbours:
            for z in D.REGIONS[y].neighbours:
                if y in free and z in free and z != x:
                    return x, y, z
    raise AssertionError("no free path")


def exploring(state: State, activations: int = 3) -> State:
    """``state`` with the current seat's Exploration activated (``activations`` of them)."""
    state = play(state, "use exploration pawn")
    state["t"]["act"]["activations"] = activations
    return state


def building(state: State, level: int = 2) -> State:
    """``state`` with the current seat's Construction card of ``level`` activated."""
    set_card(state, int(state["current"]), "construction", level)
    return play(state, "use construction pawn")


def where(state: State, seat: int, kind: str) -> list[str]:
    """The regions of ``seat``'s units of ``kind``."""
    return [u[2] for u in units_of(state, seat, kind)]


# -- ramparts ----------------------------------------------------------------------------------


def test_a_rampart_goes_where_the_seat_has_a_unit_or_a_colony() -> None:
    """« Après avoir construit un Rempart 🧱 placez-le dans une région comptant au moins 1 de
    vos Unités ou Colonies 🏠. » — a ram is no such unit (R-rampart-place, R-ram-unit)."""
    state, me, _ = scene()
    x, y, z = path(state)
    state["players"][me]["colonies"] = [y]
    state["units"] = [[me, "spearman", x], [me, "ram", z]]
    state["players"][me]["res"]["stone"] = 2
    ramparts = [o for o in legal(building(state, 1)) if o.startswith("build rampart")]
    assert ramparts == [f"build rampart {r}" for r in D.REGIONS if r in (x, y)]
    after = play(building(state, 1), f"build rampart {x}")
    assert after["players"][me]["ramparts"] == [x] and after["players"][me]["res"]["stone"] == 0


def test_a_rampart_closes_its_region_to_enemy_units() -> None:
    """« Dès lors, aucune Unité ennemie ne pourra entrer dans cette région à moins d'être
    accompagnée d'un Bélier. » — only another empire's Rampart closes a region; one's own
    does not (R-ram-enter)."""
    state, me, foe = scene()
    x, y, _ = path(state)
    state["units"] = [[me, "spearman", x]]
    state["players"][foe]["ramparts"] = [y]
    moving = play(exploring(state), f"activate spearman {x}")
    assert f"move {y}" not in legal(moving) and exploration.walled(state, me, y)
    assert y not in exploration.moves_from(state, me, x)
    state["players"][foe]["ramparts"], state["players"][me]["ramparts"] = [], [y]
    moving = play(exploring(state), f"activate spearman {x}")
    assert f"move {y}" in legal(moving) and not exploration.walled(state, me, y)


def test_a_ram_lets_its_unit_then_every_unit_of_its_empire_in_this_round() -> None:
    """« Un Bélier permet : à l'Unité liée, et à toutes les autres Unités du même Empire
    d'entrer dans les régions fortifiées par des Remparts » — once a ram of yours is in the
    fortified region, any of your units may enter it this round (Q-ram (a), R-ram-enter); the
    other empires' units stay out."""
    state, me, foe = scene()
    x, y, z = path(state)
    state["units"] = [[me, "spearman", x], [me, "ram", x], [me, "archer", x]]
    state["players"][foe]["ramparts"] = [y]
    state = exploring(state)
    assert f"activate spearman {x} ram" in legal(state)
    state = play(state, f"activate spearman {x} ram")
    assert f"move {y}" in legal(state)
    state = play(state, f"move {y}")
    assert where(state, me, "ram") == [y] and where(state, me, "spearman") == [y]
    assert f"activate archer {x}" in legal(state)
    archer = play(state, f"activate archer {x}")
    assert f"move {y}" in legal(archer)
    state = play(state, f"activate spearman {y} ram", f"move {z}")
    assert where(state, me, "ram") == [z]
    assert not exploration.walled(state, me, y)          # the breach lasts the round
    assert state["breaches"] == [[me, y, state["round"]]]
    state["round"] += 1
    assert exploration.walled(state, me, y)               # the next round it is closed again
    third = bare(3)
    third["players"][0]["ramparts"] = [y]
    third["units"] = [[1, "ram", y]]
    assert exploration.walled(third, 2, y) and not exploration.walled(third, 1, y)


# -- building a ram ----------------------------------------------------------------------------


def test_a_ram_is_built_with_woodworking_in_the_start_region_or_a_colony() -> None:
    """« 2 Travail du bois Bélier » … « Bélier : constructible dans votre Région de départ ou
    toute Colonie que vous contrôlez. » … « Après avoir construit un Bélier, placez-le dans une
    région où vous possédez une Colonie, ou dans votre Région de départ. » — for 2 Wood
    (R-build-costs, R-ram-build); Masonry builds no ram."""
    state, me, foe = scene()
    x, y, _ = path(state)
    player = state["players"][me]
    player["colonies"] = [x]
    state["players"][foe]["colonies"] = [y]
    state["units"] = [[foe, "spearman", x]]            # a colony held by nobody still counts
    player["res"]["wood"] = 3
    rams = [o for o in legal(building(state)) if o.startswith("build ram")]
    assert rams == [f"build ram {r}" for r in D.REGIONS if r in (player["start"], x)]
    assert not [o for o in legal(building(state, 1)) if o.startswith("build ram")]
    after = play(building(state), f"build ram {x}")
    assert after["players"][me]["res"]["wood"] == 1 and [me, "ram", x] in after["units"]
    player["res"]["wood"] = 1
    assert not [o for o in legal(building(state)) if o.startswith("build ram")]


def test_rams_are_limited_to_two_figures_and_count_in_the_unit_limit() -> None:
    """« 2 figurines Bélier sumérien » and « Les Unités sont toutes les figurines que vous
    pouvez déplacer (Navires , Béliers, Lanciers , etc.) » — no third ram, and no ram beyond
    the unit limit, which rams fill like any unit (R-unit-limit, R-ram-build)."""
    state, me, _ = scene()
    start = state["players"][me]["start"]
    state["units"] = [[me, "ram", start], [me, "ram", start]]
    assert D.FIGURES["ram"] == 2 and construction.ram_regions(state, me) == []
    state["units"] = [[me, "spearman", start]] * (unit_limit(state, me) - 1)
    assert construction.ram_regions(state, me) == [start]
    state["units"].append([me, "ram", start])
    assert construction.ram_regions(state, me) == []
    assert construction.ship_sections(state, me) == []
    state["players"][me]["res"]["wood"] = 5
    assert not [o for o in legal(play(state, "use war pawn")) if o.startswith("create")]


# -- binding and moving ------------------------------------------------------------------------


def test_a_unit_there_when_the_ram_is_built_or_entering_its_region_takes_it() -> None:
    """« Pour lier un Bélier à une Unité, celle-ci doit entrer dans sa région, ou s'y trouver
    au moment de sa construction. » (R-ram-bind)"""
    state, me, _ = scene()
    x, y, _ = path(state)
    start = state["players"][me]["start"]
    state["players"][me]["res"]["wood"] = 2
    state["units"] = [[me, "spearman", start], [me, "cavalry", x], [me, "ram", y]]
    state = play(building(state), f"build ram {start}")
    state["t"]["pawn"] = True                  # by hand: the pawn again, for the Exploration
    state = exploring(state)
    assert f"activate spearman {start} ram" in legal(state)
    assert f"activate cavalry {x} ram" not in legal(state)          # no ram where it stands
    state = play(state, f"activate cavalry {x}", f"move {y}", "halt")
    assert f"activate cavalry {y} ram" in legal(state)


def test_a_ram_binds_to_another_unit_at_any_moment() -> None:
    """« Le Bélier peut se lier à une autre Unité à n'importe quel moment. » — a unit leaves
    its ram on the way (``drop``) where another unit takes it later (R-ram-bind)."""
    state, me, _ = scene()
    x, y, z = path(state)
    state["units"] = [[me, "cavalry", x], [me, "ram", x], [me, "spearman", y]]
    state = play(exploring(state), f"activate cavalry {x} ram")
    assert "drop" not in legal(state)              # not taking it is the plain activation
    state = play(state, f"move {y}")
    assert "drop" in legal(state) and f"move {z}" in legal(state)
    state = play(state, "drop", f"move {z}")
    assert where(state, me, "cavalry") == [z] and where(state, me, "ram") == [y]
    assert f"activate spearman {y} ram" in legal(state)
    assert f"activate cavalry {z} ram" not in legal(state)


def test_a_ram_moves_with_its_unit_at_the_unit_speed() -> None:
    """« Le Bélier se déplace automatiquement avec l'Unité avec laquelle il est lié. » … « Il
    se déplace à la même vitesse que l'Unité à laquelle il est lié. » — two moves with a
    cavalry (speed 2), one with a spearman (speed 1) (R-ram-bind)."""
    state, me, _ = scene()
    x, y, z = path(state)
    state["units"] = [[me, "cavalry", x], [me, "ram", x], [me, "spearman", x], [me, "ram", x]]
    state = play(exploring(state), f"activate cavalry {x} ram", f"move {y}", f"move {z}")
    assert where(state, me, "cavalry") == [z] and sorted(where(state, me, "ram")) == sorted([x, z])
    assert state["t"]["act"]["unit"] is None
    state = play(state, f"activate spearman {x} ram", f"move {y}")
    assert sorted(where(state, me, "ram")) == sorted([y, z])
    assert state["t"]["act"]["unit"] is None                 # its one move is made


def test_a_ram_is_never_activated_and_never_moves_alone() -> None:
    """« Il n'a pas besoin d'être activé. » … « Il ne peut pas se déplacer seul. » — no step
    activates a ram; a unit activated without it leaves it where it is (R-activation,
    R-ram-bind)."""
    state, me, _ = scene()
    x, y, _ = path(state)
    state["units"] = [[me, "ram", x]]
    alone = play(state, "use exploration pawn")
    assert alone["t"]["act"] is None    # nothing to activate: it ends at once (R-idle-action)
    state["units"].append([me, "spearman", x])
    state = exploring(state)
    assert [o for o in legal(state) if o.startswith("activate")] == \
        [f"activate spearman {x}", f"activate spearman {x} ram"]
    state = play(state, f"activate spearman {x}", f"move {y}")
    assert where(state, me, "ram") == [x] and where(state, me, "spearman") == [y]


# -- the ram in the map and in combat ----------------------------------------------------------


def test_a_ram_never_fights_blocks_occupies_nor_harvests() -> None:
    """« Les Unités sont toutes les figurines que vous pouvez déplacer (Navires , Béliers,
    Lanciers , etc.) » — a ram counts in the unit limit, but it never fights, never blocks,
    never starts a combat, and it occupies, controls or harvests nothing: it cannot be killed,
    so it must not hold a region (Q-ram (a), R-ram-unit)."""
    state, me, foe = scene()
    x, y, z = path(state)
    field = next(r for r in free_regions(state, 60)
                 if D.REGIONS[r].resource and r not in state["blockers"])
    state["players"][foe]["colonies"] = [x]
    state["units"] = [[me, "ram", x], [foe, "ram", y], [me, "cavalry", z], [me, "ram", field]]
    assert len(units_of(state, me)) == 3
    assert rounds.contested(state) == [] and combat.fighters(state, x) == {}
    assert x not in scoring.occupied(state, me) and scoring.controller(state, x) == foe
    assert field not in actions.harvest_sources(state, me)
    assert y in construction.colony_regions({**state, "units": [[me, "spearman", y],
                                                                [foe, "ram", y]]}, me)
    moving = play(exploring(state), f"activate cavalry {z}", f"move {y}")
    assert f"move {x}" in legal(moving)                   # the enemy ram did not stop it
    state["units"].append([me, "spearman", field])
    assert actions.harvest_sources(state, me)[field][1] == 1


def test_a_combat_in_a_fortified_region_removes_the_ram_and_the_ramparts() -> None:
    """« À la fin d'un combat dans une région fortifiée : Le Bélier est retiré du plateau du
    jeu. Les Remparts sont détruits, quelle que soit l'issue du combat. » — the ram brought in
    is the attacker's (R-attacker); with no combat both stay (Q-ram (a), R-ram)."""
    state, me, foe = scene()
    x, y, _ = path(state)
    state["players"][foe]["ramparts"] = [y]
    state["units"] = [[me, "spearman", x], [me, "ram", x], [foe, "archer", y]]
    state = play(exploring(state), f"activate spearman {x} ram", f"move {y}")
    assert state["entered"] == {y: me} and where(state, me, "ram") == [y]
    quiet = {**state, "units": [u for u in state["units"] if u[0] == me]}
    quiet["combat_mode"] = "simplified"
    quiet.update(phase="combat", current=None, t=None, log=[])
    battles.resume(quiet)
    assert where(quiet, me, "ram") == [y] and quiet["players"][foe]["ramparts"] == [y]
    state["combat_mode"] = "simplified"
    for player in state["players"]:
        player["res"]["phalanx"] = 1
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    state = seal(seal(state, 0, 0), 1, 0)
    assert where(state, me, "ram") == [] and state["players"][foe]["ramparts"] == []


def test_rams_show_in_the_view_the_focus_the_picture_and_the_steps() -> None:
    """« Après avoir construit un Bélier, placez-le dans une région où vous possédez une
    Colonie, ou dans votre Région de départ. » — a ram is a piece of the map: every view shows
    it, a region whose rams changed is a changed region, the map draws it, the text board
    names it, and its steps read in every language."""
    state, me, _ = scene()
    x, y, _ = path(state)
    state["units"] = [[me, "spearman", x], [me, "ram", x]]
    moved = play(exploring(state), f"activate spearman {x} ram", f"move {y}")
    assert focus.changed_regions(state, moved) == [r for r in D.REGIONS if r in (x, y)]
    alone = {**moved, "units": [[me, "spearman", y]]}
    assert focus.changed_regions(alone, moved) == [y]
    for seat in (None, 0, 1):
        assert [me, "ram", y] in GAME.view(moved, seat)["units"]
    ctx = RenderContext(NAMES, "en")
    view = GAME.view(moved, None)
    assert any("Ram ×1" in line for line in picture.lines(view, ctx))
    drawn = picture.RENDERER.map_image(view, ctx)
    bare_map = picture.RENDERER.map_image(GAME.view(alone, None), ctx)
    assert drawn.tobytes() != bare_map.tobytes()
    for step in (f"activate spearman {x} ram", "drop", f"build ram {x}"):
        for lang in LANGUAGES:
            text = translate(texts.label(step), lang)
            assert "{" not in text and "mesopotamia." not in text
        assert texts.action(step).group in ("exploration", "construction")


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_keeps_rams_on_the_map_and_within_their_figures(seed: int) -> None:
    """« 2 figurines Bélier » — in play leaning to rams, with Woodworking and Wood for every
    seat, rams get built and carried, never more than two per empire, always in a region, each
    where a unit of its empire took it or where it was built (R-ram-build, R-ram-bind)."""
    rng = random.Random(seed)
    state = bare(2)
    state["sites"] = {}
    for seat, player in enumerate(state["players"]):
        set_card(state, seat, "construction", 2)
        player["res"].update(wood=12, stone=4)
        state["units"].append([seat, "spearman", player["start"]])
    built = carried = 0
    for _ in range(400):
        active = GAME.active(state)
        if not active:
            break
        options = [a.notation for a in GAME.legal(state, active[0])]
        rams = [o for o in options if "ram" in o.split() or o == "use construction pawn"]
        choice = rng.choice(rams) if rams and rng.random() < 0.7 else rng.choice(options)
        built += choice.startswith("build ram")
        carried += choice.endswith(" ram") and choice.startswith("activate")
        state = GAME.apply(state, active[0], choice)
        for seat in range(2):
            assert len(units_of(state, seat, "ram")) <= D.FIGURES["ram"]
        assert all(u[2] in D.REGIONS for u in state["units"] if u[1] == "ram")
    assert built and carried
