"""« MODE GARDIENS D'ASSUR » (seed 004, pp. 52-53), sentence by sentence: the setup, the wave
table, the enemy's march and each of its tie-breaks, what it destroys on its way, combat
without retreat, the waves, the end of the game, its narration (R-guard-*)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.engine import Text
from bot.games.kit import typed
from bot.games.mesopotamia import combat, construction, scoring
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.automaton.solo_combat import AUTOMATON, YOU, SoloCombat, Unit, response
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.guardians import mode, routes
from bot.games.mesopotamia.setup import blocker_regions
from bot.games.mesopotamia.state import PHASES, MesopotamiaState, seal_case, seal_order
from bot.i18n import translate

OPTIONS = {"mode": "guardians"}
ENEMY = 1
BLOCKED = frozenset(blocker_regions(2))


def ready(seed: int = 1, empire: str = "akkadian") -> dict[str, Any]:
    """A Guardians game past its setup (your empire ``empire``), at your first turn."""
    state = GAME.setup(seed, 2, OPTIONS)
    state = GAME.apply(state, 0, f"empire {empire}")
    while state["phase"] in PHASES:
        seat = GAME.active(state)[0]
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0].notation)
    return state


def ms(state: dict[str, Any]) -> MesopotamiaState:
    return typed(MesopotamiaState, copy.deepcopy(state))


def enemy_units(state: MesopotamiaState | dict[str, Any]) -> list[list[Any]]:
    return [u for u in state["units"] if u[0] == ENEMY]


def ground(**changes: Any) -> routes.Ground:
    base = {"blockers": BLOCKED, "tribes": frozenset(), "ramparts": frozenset(),
            "running": frozenset(), "ram": False}
    return routes.Ground(**{**base, **changes})


# -- setup ----------------------------------------------------------------------------------


def test_the_wave_table_is_the_rulebooks() -> None:
    """« Vagues Lanciers Archers Béliers Cavaliers Chars »: the six rows, and 2 + wave
    phalanxes."""
    table = [tuple(w[k] for k in ("spearman", "archer", "ram", "cavalry", "chariot"))
             for w in mode.WAVES]
    assert table == [(1, 1, 0, 0, 0), (2, 1, 1, 0, 0), (2, 2, 1, 0, 0), (2, 2, 1, 1, 0),
                     (2, 2, 2, 1, 1), (2, 2, 2, 2, 2)]
    assert [mode.BASE_PHALANXES + n for n in range(1, 7)] == [3, 4, 5, 6, 7, 8]


def test_setup_places_both_ziggurats_and_the_first_wave() -> None:
    """Blockers as for 2 players; your Ziggurat in Ur, the enemy's in Nineveh where all its
    units start; your empire by its rules; the enemy's seal only on the Event track, at its
    case; 3 quests, keep 2; the enemy takes no setup step."""
    state = GAME.setup(4, 2, OPTIONS)
    assert GAME.active(state) == [0] and state["phase"] == "empires"
    assert state["blockers"] == blocker_regions(2)
    state = GAME.apply(state, 0, "empire babylonian")
    while state["phase"] != "quests":
        assert GAME.active(state) == [0]
        state = GAME.apply(state, 0, GAME.legal(state, 0)[0].notation)
    assert GAME.active(state) == [0]
    hand = state["quests"]["hands"][0]
    assert len(hand) == 3 and state["quests"]["hands"][ENEMY] == []
    state = GAME.apply(state, 0, f"return {hand[0]}")
    assert len(state["quests"]["hands"][0]) == 2 and hand[0] in state["quests"]["deck"]
    mine, enemy = state["players"]
    assert mine["start"] == "ur" and enemy["start"] == "nineveh" and enemy["empire"] is None
    assert sorted(u[1] for u in enemy_units(state)) == ["archer", "spearman"]
    assert {u[2] for u in enemy_units(state)} == {"nineveh"}
    assert {u[2] for u in state["units"] if u[0] == 0} == {"ur"}
    assert enemy["res"]["phalanx"] == 3 and state["guardians"]["wave"] == 1
    assert seal_case(ms(state), "event", ENEMY) == mode.EVENT_CASE
    assert seal_order(ms(state), "population") == [0]
    assert state["phase"] == "actions" and state["order"] == [0, ENEMY]


def test_the_enemy_takes_no_action_only_its_march() -> None:
    """« n'effectue aucune action »: its one step is ``advance``, after yours; the scripted
    seat plays it; a player cannot."""
    state = ready()
    assert automaton.plays(state, ENEMY) and not automaton.plays(state, 0)
    assert automaton.seats(OPTIONS) == 1
    while GAME.active(state) == [0]:
        state = GAME.apply(state, 0, "end" if any(a.notation == "end" for a in
                                                  GAME.legal(state, 0))
                           else GAME.legal(state, 0)[0].notation)
    assert GAME.active(state) == [ENEMY]
    assert [a.notation for a in GAME.legal(state, ENEMY)] == ["advance"]
    assert automaton.next_step(state, ENEMY) == "advance"
    assert GAME.legal(state, 0) == []


def test_each_solo_mode_is_one_player_against_its_enemy() -> None:
    for solo_mode in ("guardians", "siege"):
        with pytest.raises(ValueError, match="one player"):
            GAME.setup(1, 3, {"mode": solo_mode})


# -- the march: each tie-break ---------------------------------------------------------------


def test_spearmen_and_archers_go_top_down_chariots_and_horsemen_bottom_up() -> None:
    """From Assur three ways are as short (Arbela, Jazira, Wadi Tharthar, top to bottom)."""
    for kind in ("spearman", "archer"):
        assert routes.step(kind, "assur", "ur", ground()) == "arbela"
    for kind in ("chariot", "cavalry"):
        assert routes.step(kind, "assur", "ur", ground()) == "wadi_tharthar"


def test_a_way_with_an_active_six_round_event_comes_first() -> None:
    """« Priorisez celui où un Événement en 6 Manches est actif. », in the next region or
    further on the way."""
    assert routes.step("spearman", "assur", "ur", ground(running=frozenset({"jazira"}))) \
        == "jazira"
    assert routes.step("chariot", "assur", "ur", ground(running=frozenset({"arbela"}))) \
        == "arbela"
    assert routes.step("spearman", "assur", "ur", ground(running=frozenset({"hit"}))) \
        == "jazira"


def test_a_ram_takes_the_way_nearest_a_rampart() -> None:
    assert routes.step("ram", "assur", "ur", ground(ramparts=frozenset({"babylon"}),
                                                    ram=True)) == "jazira"
    assert routes.step("ram", "kish", "ur", ground(ramparts=frozenset({"der"}), ram=True)) \
        == "der"


def test_tribes_are_avoided_if_possible() -> None:
    assert routes.step("spearman", "kish", "ur", ground()) == "der"
    assert routes.step("spearman", "kish", "ur", ground(tribes=frozenset({"der"}))) \
        == "babylon"


def test_ramparts_are_avoided_only_without_a_ram() -> None:
    walls = frozenset({"der"})
    assert routes.step("spearman", "kish", "ur", ground(ramparts=walls)) == "babylon"
    assert routes.step("spearman", "kish", "ur", ground(ramparts=walls, ram=True)) == "der"


def test_all_ways_blocked_by_tribes_they_cross_one() -> None:
    """« ses Unités traversent la Tribu »: with a tribe on every region around Ur, the
    shortest way through a tribe (from Yamutbal: Eridu or Umma)."""
    around = frozenset(D.REGIONS["ur"].neighbours)
    assert routes.step("spearman", "yamutbal", "ur", ground(tribes=around)) == "umma"
    assert routes.step("chariot", "yamutbal", "ur", ground(tribes=around)) == "eridu"
    assert routes.step("spearman", "yamutbal", "ur",
                       ground(tribes=frozenset({"eridu", "umma"}))) == "der"    # if possible


# -- the march on the map --------------------------------------------------------------------


def place(state: MesopotamiaState, units: list[list[Any]]) -> None:
    state["units"] = [u for u in state["units"] if u[0] != ENEMY] + units


def test_the_enemy_moves_one_region_a_round_towards_your_ziggurat() -> None:
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "nineveh"], [ENEMY, "archer", "nineveh"]])
    mode.march(state)
    assert sorted(u[2] for u in enemy_units(state)) == ["arbela", "arbela"]
    far = routes.distances(["ur"], BLOCKED)
    assert far["arbela"] == far["nineveh"] - 1


def test_a_ram_is_bound_to_a_unit_and_does_not_move_alone() -> None:
    state = ms(ready())
    state["tribes"] = {}
    place(state, [[ENEMY, "ram", "assur"], [ENEMY, "chariot", "assur"],
                  [ENEMY, "spearman", "assur"]])
    state["players"][0]["ramparts"] = ["babylon"]
    mode.march(state)
    where = {u[1]: u[2] for u in enemy_units(state)}
    assert where["ram"] == where["spearman"] == "jazira"   # bound: it follows the ram
    assert where["chariot"] == "wadi_tharthar"
    alone = ms(ready())
    place(alone, [[ENEMY, "ram", "assur"]])
    mode.march(alone)
    assert enemy_units(alone) == [[ENEMY, "ram", "assur"]]


def test_crossing_a_tribe_destroys_it_and_its_event() -> None:
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "yamutbal"]])
    state["tribes"] = {r: {"spearman": 1} for r in D.REGIONS["ur"].neighbours}
    state["sites"]["umma"] = ["plain_01", False]
    mode.march(state)
    assert enemy_units(state) == [[ENEMY, "spearman", "umma"]]
    assert not state["tribes"]["umma"] and "umma" not in state["sites"]
    assert state["tribes"]["eridu"] == {"spearman": 1}
    assert ["tribe", {"region": "umma"}] in state["guardians"]["news"]


def test_passing_your_active_six_round_event_destroys_it() -> None:
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "kish"]])
    state["running"] = [{"seat": 0, "card": "plain_01", "option": 0, "region": "babylon",
                         "face": 1}]
    mode.march(state)
    assert enemy_units(state) == [[ENEMY, "spearman", "babylon"]]    # the event first
    assert state["running"] == []


def test_an_undiscovered_event_stays_face_down() -> None:
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "nineveh"]])
    site = copy.deepcopy(state["sites"]["arbela"])
    assert site[1] is False
    mode.march(state)
    assert enemy_units(state) == [[ENEMY, "spearman", "arbela"]]
    assert state["sites"]["arbela"] == site and not state.get("event")


def test_defeat_when_an_enemy_unit_enters_your_undefended_ziggurat() -> None:
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "uruk"]])
    state["units"] = [u for u in state["units"] if u[0] == ENEMY]
    mode.march(state)
    assert state["phase"] == "over" and state["guardians"]["result"] == "lost"
    outcome = GAME.outcome(dict(state))
    assert outcome is not None and outcome.together is None and not outcome.seat_won(0)
    defended = ms(ready())
    place(defended, [[ENEMY, "spearman", "uruk"]])
    mode.march(defended)
    assert defended["phase"] == "actions" and defended["guardians"]["result"] is None
    beaten = ms(ready())        # it won the combat there: your defenders are gone
    place(beaten, [[ENEMY, "spearman", "ur"]])
    beaten["units"] = [u for u in beaten["units"] if u[0] == ENEMY]
    assert mode.end_of_round(beaten) and beaten["guardians"]["result"] == "lost"


# -- combat ---------------------------------------------------------------------------------


def test_the_enemy_never_flees_its_beaten_units_are_destroyed() -> None:
    """« l'ennemi n'utilise jamais sa Mobilité pour fuir »: the Automaton would flee (rule D),
    the enemy spends nothing and its unit is destroyed even with Mobility to spare."""
    yours = Unit(YOU, "spearman", "spearman_01", {"force": 12, "tactic": 0, "mobility": 0})
    its = Unit(AUTOMATON, "archer", "archer_01")
    assert response(yours, its, 5, False).rule == "D"
    held = response(yours, its, 5, False, holds=True)
    assert (held.rule, held.force, held.tactic, held.mobility, held.discard) == \
        ("E", 0, 0, 0, 0)
    fast = Unit(AUTOMATON, "cavalry", "cavalry_01", {"force": 0, "tactic": 0, "mobility": 3})
    fight = SoloCombat([Unit(YOU, "spearman", "spearman_01",
                             {"force": 12, "tactic": 0, "mobility": 0}), fast],
                       {YOU: 0, AUTOMATON: 0}, True, holds=True)
    record = fight.clash(0, 1)
    assert record.winner == YOU and record.loser_fate == "dead"


def test_a_tie_goes_to_the_enemy_while_it_leads_the_event_track() -> None:
    state = ms(ready())
    assert combat.tie_winner(state, 0, ENEMY) == ENEMY
    state["seals"]["event"] = [[0, mode.EVENT_CASE + 1], [ENEMY, mode.EVENT_CASE]]
    assert combat.tie_winner(state, 0, ENEMY) == 0


# -- waves and the end ------------------------------------------------------------------------


def test_a_wave_goes_on_while_the_enemy_has_units_and_phalanxes() -> None:
    state = ms(ready())
    assert not mode.end_of_round(state) and state["guardians"]["wave"] == 1


def test_a_wave_repelled_gives_the_next_gardens_tile_and_launches_the_next() -> None:
    """No units left: the next wave, its 2 + 2 phalanxes added to those left
    (« il peut les utiliser pour la suivante »), and your Hanging Gardens tile."""
    state = ms(ready())
    place(state, [])
    state["players"][ENEMY]["res"]["phalanx"] = 2
    first = state["gardens"][0][0]
    assert not mode.end_of_round(state)
    assert state["guardians"]["wave"] == 2 and state["players"][ENEMY]["res"]["phalanx"] == 6
    assert state["players"][0]["gardens"] == [first] and state["gardens"][1][1] is True
    assert sorted(u[1] for u in enemy_units(state)) == ["archer", "ram", "spearman", "spearman"]
    out = ms(ready())
    out["players"][ENEMY]["res"]["phalanx"] = 0
    assert not mode.end_of_round(out) and out["guardians"]["wave"] == 2
    assert len(enemy_units(out)) == 2 + 4    # the first wave's units stay on the map


def test_the_sixth_wave_repelled_wins_and_scores() -> None:
    state = ms(ready())
    state["guardians"]["wave"] = 6
    place(state, [])
    assert mode.end_of_round(state) and state["phase"] == "over"
    outcome = GAME.outcome(dict(state))
    assert outcome is not None and outcome.together is None and outcome.seat_won(0)
    assert outcome.scores[0] == sum(scoring.breakdown(state, 0).values()) > 0
    assert outcome.scores[ENEMY] == 0


def test_you_cannot_build_the_gardens_they_come_from_the_waves() -> None:
    state = ms(ready())
    state["gardens"][0][1] = True
    for key in state["players"][0]["res"]:
        state["players"][0]["res"][key] = 20
    card = next(c for c, e in D.CARD_EFFECT.items()
                if "hanging_gardens_storey" in e.get("can_build", ()))
    act = {"builds": 1, "card": card}
    assert not [n for n in construction.legal(state, 0, act) if "garden" in n]
    base = ms(ready())
    del base["guardians"]
    base["gardens"][0][1] = True
    base["players"][0]["res"] = dict(state["players"][0]["res"])
    assert construction.garden_tile(base, 0) is None or \
        [n for n in construction.legal(base, 0, act) if "garden" in n]


# -- narration ----------------------------------------------------------------------------------


def test_each_enemy_step_is_told_in_english_and_french() -> None:
    state = ready()
    while GAME.active(state) == [0]:
        legal = [a.notation for a in GAME.legal(state, 0)]
        state = GAME.apply(state, 0, "end" if "end" in legal else legal[0])
    after = GAME.apply(state, ENEMY, "advance")
    report = GAME.report(state, ENEMY, GAME.legal(state, ENEMY)[0], after)
    en, fr = translate(report.public, "en"), translate(report.public, "fr")
    assert "the Enemy Army's Spearman moves from Nineveh to Arbela" in en
    assert "le Lancier de l'Armée ennemie quitte Ninive pour Arbèles" in fr
    wave = Text.of("mesopotamia.guardians.news.wave", n=2, phalanxes=4)
    assert translate(wave, "en") == "wave 2 begins: the Enemy Army gains 4 Phalanxes"
    assert translate(wave, "fr").replace("\u202f", " ").replace("\u00a0", " ") == \
        "la vague 2 commence : l'Armée ennemie gagne 4 Phalanges"
    ram = Text.of("mesopotamia.guardians.news.move", kind=D.name("unit", "ram"),
                  **{"from": D.name("region", "babylon"), "to": D.name("region", "uruk")})
    assert translate(ram, "en") == "the Enemy Army's Ram moves from Babylon to Uruk"


def test_a_combat_against_the_enemy_names_the_enemy_not_the_automaton() -> None:
    """The march is told first, then the combat it begins, in the enemy's words."""
    state = ms(ready())
    place(state, [[ENEMY, "spearman", "uruk"]])
    mine = {"ur"}
    assert {u[2] for u in state["units"] if u[0] == 0} == mine
    before = dict(state)
    before["current"], before["index"] = ENEMY, 1
    before["t"] = {"dice": [], "used": [], "rerolls": 0, "pawn": False, "done": [], "act": None}
    after = GAME.apply(before, ENEMY, "advance")
    report = GAME.report(before, ENEMY, GAME.legal(before, ENEMY)[0], after)
    for lang in ("en", "fr"):
        text = translate(report.public, lang)
        assert "Automat" not in text and ("Enemy Army" in text or "Armée ennemie" in text)
    en = translate(report.public, "en")
    assert en.index("moves from Uruk to Ur") < en.index("fights the Enemy Army in Ur")


def test_the_contract_suite_plays_every_solo_mode() -> None:
    """The contract's variants (``tests/test_contract.py``) include each mode of the game."""
    variants = [dict(v) for v in GAME.tuning.variants]
    assert {v.get("mode") for v in variants} >= {"siege", "guardians"}
