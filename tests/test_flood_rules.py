"""After the Flood, rule by rule: each test cites the sentence of the French summary (seed
001) or the ruling of ``data/flood/RULINGS.md`` it checks. States are built with
``setup`` and small edits; dice are chosen by setting the state's box of randomness."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import chance
from bot.engine import IllegalMove, State
from bot.games.flood import data as D
from bot.games.flood import rounds
from bot.games.flood.engine import GAME
from bot.games.flood.options import destroy_cost, trade_capacity
from bot.games.flood.state import placed_workers, rank_of
from bot.i18n import catalogue, translate
from tests.flood_properties import broken, busy_steps, playout, total_armies, total_workers

NAMES = ("Avery", "Blake", "Casey")


# -- helpers -----------------------------------------------------------------------------


def fresh(seed: int = 1) -> State:
    """A new game whose order is seat 0, 1, 2."""
    state = GAME.setup(seed, 3, {})
    state["order"] = [0, 1, 2]
    state["current"] = 0
    return state


def turn(state: State, seat: int) -> State:
    """It is ``seat``'s turn to choose an action."""
    state.update(current=seat, step="act", pending=None)
    return state


def give(state: State, seat: int, **res: int) -> State:
    """Set ``seat``'s resources (the bank makes up the difference)."""
    for name, count in res.items():
        state["bank"][name] -= count - state["res"][seat][name]
        state["res"][seat][name] = count
    return state


def nothing(state: State, seat: int) -> State:
    """``seat`` holds no resource."""
    return give(state, seat, **dict.fromkeys(D.RESOURCES, 0))


def workers_at(state: State, seat: int, place: str, count: int) -> State:
    """Put ``count`` of ``seat``'s workers in ``place`` (from the unavailable stock)."""
    delta = count - state["on"][place][seat]
    state["on"][place][seat] = count
    state["workers"]["unavail"][seat] -= delta
    return state


def empire(state: State, seat: int, armies: int = 0, equip: int = 0,
           troops: dict[str, int] | None = None) -> State:
    """``seat`` has initiated an empire this round: ``armies`` available, ``troops`` on the
    map, ``equip`` grain in its Equipment box."""
    free = [e for e in D.empires_of(state["round"]) if e not in state["empires"]]
    state["empires"][free[-1]] = seat          # the first (Akkad...) stays free
    state["initiated"].append(seat)
    state["armies"]["avail"][seat] += armies
    state["armies"]["unavail"][seat] -= armies
    for region, count in (troops or {}).items():
        state["troops"][region][seat] = count
        state["armies"]["unavail"][seat] -= count
    state["equip"][seat]["grain"] = equip
    state["bank"]["grain"] -= equip
    return state


def legal(state: State, seat: int | None = None) -> list[str]:
    return [a.notation for a in GAME.legal(state, state["current"] if seat is None else seat)]


def play(state: State, *steps: str) -> State:
    for step in steps:
        state = GAME.apply(state, state["current"], step)
    return state


def pass_all(state: State) -> State:
    """Everyone passes (putting nothing in the Passed box) until the round is over."""
    rnd = state["round"]
    while state["round"] == rnd and state["phase"] == "actions":
        state = play(state, "done" if state["step"] == "bid" else "pass")
    return state


def roll_next(state: State, wanted: Any) -> list[int]:
    """Set the state's dice so that the next roll's total satisfies ``wanted``."""
    seed = state[chance.KEY]["seed"]
    for count in range(5000):
        box = {chance.KEY: {"seed": seed, "count": count}}
        dice = chance.Draw(box).dice(D.DICE, D.SIDES)
        if wanted(sum(dice)):
            state[chance.KEY]["count"] = count
            return dice
    raise AssertionError("no such roll")


def says(state_before: State, step: str, after: State, lang: str = "en") -> str:
    action = GAME.parse(state_before, state_before["current"], step)
    report = GAME.report(state_before, state_before["current"], action, after)
    return translate(report.public, lang, NAMES)


# -- installation and collection ---------------------------------------------------------


def test_installation_and_first_collection() -> None:
    # « Chaque joueur place un ouvrier dans la case Irrigation et un autre dans la case
    # Tissage. » « Chaque joueur reçoit également 2 ouvriers, 1 cube bois, 1 cube métal, un
    # disque outil et un disque or. » « Chaque joueur reçoit 8 ouvriers »
    state = GAME.setup(7, 3, {})
    assert sorted(state["order"]) == [0, 1, 2]
    for seat in range(3):
        assert state["on"]["irrigation"][seat] == 1 and state["on"]["weaving"][seat] == 1
        assert state["workers"]["avail"][seat] == 10
        assert total_workers(state, seat) == D.WORKERS == 25
        assert state["armies"]["unavail"][seat] == D.ARMIES == 20     # « pas disponibles »
        # 1-1-1 in both boxes: everyone takes the third rank (3 grain, 2 cloth)
        assert state["res"][seat] == {"grain": 3, "cloth": 2, "wood": 1, "metal": 1, "oil": 0,
                                      "tools": 1, "gold": 1, "lapis": 0}
        assert state["vp"][seat] == 0                  # « dans la case 0 de la piste »
    assert state["round"] == 1 and state["step"] == "act"
    assert state["current"] == state["order"][0]
    assert broken(state) is None


def test_setup_needs_exactly_three_players() -> None:
    with pytest.raises(ValueError):
        GAME.setup(1, 4, {})


@pytest.mark.parametrize("table", ["grain_table", "cloth_table"])
def test_rank_tables_with_ties_and_the_one_worker_minimum(table: str) -> None:
    # « pour obtenir des ressources, un joueur doit posséder au moins 1 ouvrier dans la case
    # ad hoc » and the tie rule of RULINGS (worst shared rank)
    by_rank = {int(k): v for k, v in D.TABLES[table]["by_rank"].items()}
    for example in D.TABLES[table]["ties"]["examples"]:
        assert rounds.ranked_amounts(by_rank, example["workers"]) == example["receive"]


def test_collection_ur_cloth_even_without_weavers_and_income_cap() -> None:
    # « Collectez un cube tissus supplémentaire si vous possédez une cité à Ur » (even with
    # no weaver, RULINGS); « un joueur ne peut avoir plus de 25 ouvriers en jeu »
    state = fresh()
    state["cities"]["ur"] = [1, False]
    workers_at(state, 1, "weaving", 0)           # the weaver went back to the stock
    workers_at(state, 0, "mari", 15)             # seat 0: 15 + 2 placed, 8 unavailable
    state["workers"]["avail"][0] = 5
    state["workers"]["unavail"][0] = 25 - 5 - placed_workers(state, 0)
    nothing(state, 0)
    nothing(state, 1)
    rounds.collect(state)
    assert state["res"][1]["cloth"] == 1                  # Ur only: no weaver, no table
    assert state["res"][0]["cloth"] == D.CLOTH_BY_RANK[2]  # tied with seat 2 for ranks 1-2
    assert state["workers"]["avail"][0] == 8              # only 3 more: 25 in play
    assert total_workers(state, 0) == 25


def test_the_bank_pays_in_turn_order_until_it_runs_out() -> None:
    # « Le nombre total de cubes/disques constitue également une limite maximum
    # disponible. » (RULINGS: collection pays in turn order)
    state = fresh()
    state["order"] = [2, 0, 1]
    nothing(state, 0)
    nothing(state, 1)
    nothing(state, 2)
    state["bank"]["grain"] = 4
    rounds.collect(state)
    assert [state["res"][s]["grain"] for s in (2, 0, 1)] == [3, 1, 0]


# -- decline --------------------------------------------------------------------------------


def test_decline_in_rounds_two_and_four() -> None:
    # « Tous les ouvriers sont retirés de la région de Dilmun. » « Chaque joueur retire 1 de
    # ses ouvriers de chaque région en dehors de Sumer. » « Le (ou les) joueur(s) possédant le
    # plus d'ouvriers dans la case Irrigation les retirent tous sauf 2. Les autres joueurs
    # doivent retirer de la case Irrigation ce même nombre d'ouvriers. » « Chaque joueur
    # retire 1 de ses ouvriers de la case Scribes. » « ... de la case Fabrication d'Outils »
    state = fresh()
    for seat, (irr, wea) in enumerate(((6, 3), (4, 3), (1, 1))):
        workers_at(state, seat, "irrigation", irr)
        workers_at(state, seat, "weaving", wea)
    workers_at(state, 0, "dilmun", 3)
    workers_at(state, 1, "mari", 2)
    workers_at(state, 2, "mari", 1)
    workers_at(state, 0, "scribes", 2)
    workers_at(state, 1, "toolmaking", 3)
    before = [total_workers(state, s) for s in range(3)]
    unavail = list(state["workers"]["unavail"])
    rounds.decline(state)
    assert state["on"]["dilmun"] == [0, 0, 0]
    assert state["on"]["mari"] == [0, 1, 0]
    assert state["on"]["irrigation"] == [2, 0, 0]          # 6-4-1: the leader removed 4
    assert state["on"]["weaving"] == [2, 2, 0]             # tied leaders keep 2, the other 1-1
    assert state["on"]["scribes"][0] == 1 and state["on"]["toolmaking"][1] == 2
    assert [total_workers(state, s) for s in range(3)] == before   # all became unavailable
    assert state["workers"]["unavail"][0] == unavail[0] + 3 + 4 + 1 + 1


def test_decline_happens_at_the_start_of_round_two_only() -> None:
    # « Phase 2 : déclin (tours 2 & 4 uniquement) »
    state = fresh()
    workers_at(state, 0, "mari", 2)
    for seat in (0, 1, 2):
        nothing(state, seat)
    state = pass_all(state)
    assert state["round"] == 2 and state["on"]["mari"][0] == 1
    state = pass_all(state)
    assert state["round"] == 3 and state["on"]["mari"][0] == 1


# -- actions in general -------------------------------------------------------------------


def test_every_action_is_offered_and_passing_always() -> None:
    # « Les actions possibles sont : Construire une Cité, Placer des ouvriers, Commercer,
    # Initier un Empire, Étendre un Empire, Passer »
    state = fresh()
    workers_at(state, 0, "mari", 1)
    options = legal(state)
    assert "build uruk" in options and "place" in options and "trade" in options
    assert "empire mari" in options and "pass" in options
    assert any(o.startswith("empire akkad ") for o in options)
    assert "extend" not in options                   # no army yet


def test_notations_round_trip_and_garbage_is_refused() -> None:
    state = fresh()
    for action in GAME.legal(state, 0):
        assert GAME.parse(state, 0, action.notation.upper()) == action
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "build dilmun")


def test_opportunity_cost_after_someone_passed() -> None:
    # « Dès qu'un joueur a passé, il y a un coût d'opportunité pour les autres joueurs
    # lorsque ceux-ci décident d'effectuer une action : ils doivent auparavant payer quelque
    # chose (une ressource, une armée ou un ouvrier) à la banque. »
    state = fresh()
    nothing(state, 0)
    state = play(state, "pass")
    assert state["current"] == 1 and state["passed"] == [0]
    before = state
    state = play(state, "build uruk")
    assert state["step"] == "pay"
    options = legal(state)
    assert "pay worker" in options and "pay grain" in options and "pay army" not in options
    prompt = GAME.prompt(before, 1)
    assert prompt is not None and "costs 1 item" in translate(prompt.text, "en", NAMES)
    hand = state["workers"]["avail"][1]
    state = play(state, "pay worker")
    assert state["workers"]["avail"][1] == hand - 1        # the worker became unavailable
    assert state["cities"]["uruk"][0] == 1 and state["current"] == 2
    # passing is free
    goods = dict(state["res"][2])
    state = play(state, "pass")
    assert state["step"] == "bid" and state["res"][2] == goods and state["passed"] == [0, 2]


def test_no_payment_possible_means_passing() -> None:
    # RULINGS: « a player ... unable to pay the opportunity cost passes »
    state = fresh()
    nothing(state, 0)
    state = play(state, "pass")
    nothing(state, 1)
    state["workers"]["unavail"][1] += state["workers"]["avail"][1]
    state["workers"]["avail"][1] = 0
    assert legal(state) == ["pass"]


def test_a_payment_never_makes_the_chosen_action_impossible() -> None:
    # RULINGS « only payments that leave the chosen action possible »
    state = fresh()
    nothing(state, 0)
    state = play(state, "pass")
    nothing(state, 1)
    give(state, 1, grain=1)
    state = play(state, "place", )
    assert "pay grain" not in legal(state) and "pay worker" in legal(state)


# -- build a city -------------------------------------------------------------------------


def test_each_action_is_one_turn_and_passes_the_hand_on() -> None:
    # « Chaque joueur, à tour de rôle, effectue une action » : the turn counter moves on by
    # one with each action (the channel posts a turn message each time).
    state = fresh()
    for expected, seat in enumerate([0, 1, 2, 0], start=1):
        assert state["current"] == seat
        state = play(state, next(s for s in legal(state) if s.startswith("build ")))
        assert GAME.turn_number(state) == expected


def test_build_in_an_empty_region_or_one_with_your_army() -> None:
    # « placer une base de cité dans la région Sumer de votre choix, ne contenant pas déjà
    # une cité : la région choisie doit être vide ou contenir une de vos armées »
    state = fresh()
    state["cities"]["nippur"] = [1, False]
    empire(state, 1, troops={"umma": 1})
    empire(state, 0, troops={"lagash": 1})
    options = legal(state)
    assert "build nippur" not in options and "build umma" not in options
    assert "build lagash" in options and "build babylon" in options
    assert not any(o in options for o in ("build dilmun", "build mari"))   # Sumer only
    state = play(state, "build lagash")
    assert state["cities"]["lagash"] == [0, False] and state["current"] == 1


def test_with_all_bases_placed_a_base_is_moved_once_a_round() -> None:
    # « Si toutes vos bases ont déjà été placées, vous pouvez en retirer une d'ailleurs. »
    # (RULINGS: at most once per round)
    state = fresh()
    for region in ("ur", "umma", "lagash", "nippur"):
        state["cities"][region] = [0, region == "ur"]
    state = play(state, "build uruk")
    assert state["step"] == "rebase"
    assert sorted(legal(state)) == ["from lagash", "from nippur", "from umma", "from ur"]
    state = play(state, "from ur")
    assert "ur" not in state["cities"] and state["cities"]["uruk"] == [0, False]
    turn(state, 0)
    assert not any(o.startswith("build") for o in legal(state))


def test_eridu_toolmaker_is_ready_and_uruk_scribe_waits() -> None:
    # « Eridu : vous obtenez aussitôt un ouvrier supplémentaire que vous placez dans la case
    # Fabrication d'outils. » « Uruk : ... dans la case Scribes. » (RULINGS: the scribe
    # enters on the right; no bonus beyond 2 scribes)
    state = fresh()
    unavail = state["workers"]["unavail"][0]
    state = play(state, "build eridu")
    assert state["on"]["toolmaking"][0] == 1 and state["used"]["toolmaking"][0] == 0
    assert state["workers"]["unavail"][0] == unavail - 1
    turn(state, 0)
    state = play(state, "build uruk")
    assert state["on"]["scribes"][0] == 1 and state["used"]["scribes"][0] == 1
    turn(state, 1)
    workers_at(state, 1, "scribes", 2)
    state["cities"].pop("uruk")
    state = play(state, "build uruk")
    assert state["on"]["scribes"][1] == 2                # « ne peut pas posséder plus de 2 »


# -- place workers and scribes ---------------------------------------------------------------


def test_a_resource_places_its_value_in_workers_in_one_place() -> None:
    # « vous pouvez dépenser un cube ou un disque ressource et placer un nombre d'ouvriers de
    # la valeur correspondante » « ceux-ci doivent tous être placés dans la même
    # région/case (mais vous pouvez en placer moins) »
    state = give(fresh(), 0, lapis=1)
    state = play(state, "place")
    assert "spend lapis" in legal(state)
    state = play(state, "spend lapis")
    options = legal(state)
    assert "place mari 5" in options and "fewer" in options and len(options) == 15
    assert "place scribes 2" in options                   # « pas plus de 2 ... Scribes »
    assert not any(o.startswith("place uruk") for o in options)      # never in Sumer
    fewer = play(state, "fewer", "fewer", "fewer", "fewer")
    assert "place mari 1" in legal(fewer) and "fewer" not in legal(fewer)
    hand = state["workers"]["avail"][0]
    state = play(state, "place mari 5")
    assert state["on"]["mari"][0] == 5 and state["workers"]["avail"][0] == hand - 5
    assert state["step"] in ("place", "act")
    if state["step"] == "place":                        # no scribe: nothing more to do
        assert legal(state) == ["done"]


def test_scribes_place_and_move_but_not_in_the_round_they_arrive() -> None:
    # « pour chaque ouvrier que vous déplacez de gauche à droite dans la case Scribes, vous
    # pouvez déplacer ou placer un ouvrier » « Vous ne pouvez pas utiliser un scribe qui vient
    # juste d'être placé. »
    state = nothing(fresh(), 0)
    give(state, 0, cloth=1)
    state = play(state, "place", "spend cloth", "place scribes 2")
    assert state["used"]["scribes"][0] == 2              # placed on the right: not ready
    assert state["current"] == 1                          # nothing more: the action ended
    # next round they are moved left and ready (round 3: no decline)
    state["round"] = 2
    rounds._end_round(state)
    turn(state, 0)
    nothing(state, 0)
    workers_at(state, 0, "elam", 1)
    state = play(state, "place")
    options = legal(state)
    assert "scribe mari" in options and "move elam" in options and "move scribes" in options
    assert not any(o.startswith("spend") for o in options)
    state = play(state, "move elam")
    assert "to elam" not in legal(state) and "to stock" in legal(state)
    state = play(state, "to zagros", "scribe irrigation")
    assert state["on"]["zagros"][0] == 1 and state["on"]["elam"][0] == 0
    assert state["used"]["scribes"][0] == 2 and state["current"] == 1


# -- trade ----------------------------------------------------------------------------------


def test_trade_one_exchange_per_worker_and_per_good() -> None:
    # « chaque ouvrier ne vous permet d'échanger qu'une seule ressource et une seule
    # ressource de chaque type disponible peut être échangée au cours d'une même action »
    state = give(fresh(), 0, grain=3, cloth=3, tools=0)
    workers_at(state, 0, "mari", 3)                       # Mari: oil, lapis
    state = play(state, "trade")
    options = legal(state)
    assert "buy oil mari grain" in options and "buy lapis mari cloth" in options
    assert "buy lapis mari grain" not in options          # the Trade table
    state = play(state, "buy oil mari grain")
    assert not any(o.startswith("buy oil mari") for o in legal(state))
    state = play(state, "buy lapis mari cloth")
    assert state["res"][0]["oil"] == 1 and state["res"][0]["lapis"] == 1
    assert state["current"] == 1                           # both goods taken: action over
    assert broken(state) is None


def test_armies_trade_and_block() -> None:
    # « vous ne pouvez commercer dans une région contenant une armée ennemie » « dans une
    # région contenant une de vos armées, vos ouvriers ne peuvent pas commercer et seule
    # votre armée le peut » « Vous pouvez commercer avec vos armées (1 armée = 1 ouvrier). »
    state = give(fresh(), 0, grain=3, cloth=3)
    workers_at(state, 0, "mari", 3)
    workers_at(state, 0, "amurru", 2)
    empire(state, 1, troops={"mari": 1})
    empire(state, 0, troops={"lebanon": 1})
    state = play(state, "trade")
    options = legal(state)
    assert not any(" mari " in o for o in options)
    assert any(" lebanon " in o for o in options) and any(" amurru " in o for o in options)
    assert trade_capacity(state, 0, "lebanon") == 1
    state = play(state, "buy wood lebanon grain")
    assert not any(" lebanon " in o for o in legal(state))   # one army, one exchange


def test_toolmaking_then_trading_the_tools_at_once() -> None:
    # « vous pouvez convertir 1 cube pour chaque ouvrier possédé dans la case Fabrication
    # d'outils » « Les cubes obtenus ou convertis pendant une action Commercer peuvent
    # aussitôt être échangés. »
    state = nothing(fresh(), 0)
    give(state, 0, metal=2)
    workers_at(state, 0, "toolmaking", 1)
    workers_at(state, 0, "elam", 1)                     # Elam: gold, lapis for cloth/tools
    state = play(state, "trade")
    assert legal(state) == ["tool"]
    state = play(state, "tool")
    assert state["res"][0]["tools"] == 1 and state["used"]["toolmaking"][0] == 1
    assert "tool" not in legal(state)                      # one toolmaker, one metal
    state = play(state, "buy gold elam tools")
    assert state["res"][0]["gold"] == 1 and state["res"][0]["metal"] == 1


def test_sippar_one_extra_exchange() -> None:
    # « Sippar : lorsque vous choisissez l'action Commercer, vous pouvez effectuer un échange
    # supplémentaire dans une région (en dépensant la ressource correspondante). »
    state = give(fresh(), 0, grain=4)
    state["cities"]["sippar"] = [0, False]
    workers_at(state, 0, "lebanon", 1)
    before = play(state, "trade", "buy wood lebanon grain")
    assert "buy wood lebanon grain" in legal(before)      # again, beyond one worker
    after = play(before, "buy wood lebanon grain")
    assert after["res"][0]["wood"] == 3
    assert "Sippar" in says(before, "buy wood lebanon grain", after)
    assert after["current"] == 1


# -- initiate an empire -----------------------------------------------------------------


def test_initiating_needs_as_many_workers_as_anyone_but_not_in_sumer() -> None:
    # « il faut détenir au moins autant d'ouvrier dans sa région de départ que n'importe quel
    # autre joueur (et au moins 1 ouvrier). Exception : ... vous n'avez pas besoin de
    # posséder d'ouvrier dans cette région pour y initier un empire. »
    state = fresh()
    assert "empire mari" not in legal(state) and "empire awan" not in legal(state)
    assert sum(o.startswith("empire akkad ") for o in legal(state)) == 9
    workers_at(state, 0, "mari", 2)
    workers_at(state, 1, "mari", 2)
    workers_at(state, 2, "elam", 3)
    workers_at(state, 0, "elam", 2)
    assert "empire mari" in legal(state) and "empire awan" not in legal(state)


def test_initiating_armies_purchases_babylon_and_the_cap() -> None:
    # « Step 1 : prenez dans le stock non disponible le nombre d'armées correspondant »
    # « Step 2 : ... chaque cube Grains / cube Métal / disque Outils dépensé vous permet
    # d'acquérir 1/2/3 armée(s) supplémentaire(s). Le nombre total d'armées est limité à 20. »
    # « Babylon : lorsque vous initiez un Empire, vous recevez 2 armées supplémentaires. »
    akkad = D.EMPIRES["akkad"].armies
    state = give(fresh(), 0, grain=2, metal=6, tools=3)
    state["cities"]["babylon"] = [0, False]
    state = play(state, "empire akkad uruk")
    assert state["armies"]["avail"][0] == akkad + 2 and state["step"] == "raise"
    state = play(state, "recruit tools", "recruit tools", "recruit grain")
    assert state["armies"]["avail"][0] == akkad + 2 + 3 + 3 + 1
    while "recruit metal" in legal(state):
        state = play(state, "recruit metal")
    assert state["armies"]["avail"][0] == 20                   # capped
    assert not any(o.startswith("recruit") for o in legal(state))
    state = play(state, "equip grain")
    assert rank_of(state, 0) == "A"
    state = play(state, "march 2")
    assert state["troops"]["uruk"][0] == 2 and state["armies"]["avail"][0] == 18
    assert total_armies(state, 0) == 20 and state["current"] == 1


def test_equipment_ranks_ties_go_to_the_earlier_empire() -> None:
    # « Les montants comparés de chacun des 3 joueurs détermineront la valeur relative (A, B
    # & C) d'équipement de chaque armée. » (RULINGS: equal amounts, earlier ranks higher)
    state = fresh()
    empire(state, 2, equip=1)
    empire(state, 0, equip=3)
    empire(state, 1, equip=1)
    assert [rank_of(state, s) for s in (0, 2, 1)] == ["A", "B", "C"]


def test_march_removes_the_initiators_workers_only() -> None:
    # « retirez tous vos ouvriers de la région de départ de votre empire puis placez y 1 ou 2
    # de vos armées disponibles »
    state = fresh()
    workers_at(state, 0, "mari", 3)
    workers_at(state, 1, "mari", 1)
    state = play(state, "empire mari")
    assert legal(state)[-2:] == ["march 1", "march 2"]
    unavail = state["workers"]["unavail"][0]
    state = play(state, "march 1")
    assert state["on"]["mari"] == [0, 1, 0] and state["troops"]["mari"][0] == 1
    assert state["workers"]["unavail"][0] == unavail + 3


def test_one_empire_a_player_and_each_empire_once() -> None:
    # « Chaque joueur peut initier un (seul) empire à chaque tour. »
    state = fresh()
    state = play(state, "empire akkad ur", "march 1")
    assert not any(o.startswith("empire akkad") for o in legal(state))    # seat 1
    turn(state, 0)
    assert not any(o.startswith("empire") for o in legal(state))


def test_initiating_into_an_enemy_army_is_a_battle() -> None:
    # « Si cette région est déjà occupée par une armée adverse, un combat se produit
    # aussitôt. » « Vous pouvez initier un empire dans toute région de Sumer, même occupée par
    # une cité ou armée ennemie. »
    state = fresh()
    empire(state, 1, equip=5, troops={"nippur": 1})
    state = play(state, "empire akkad nippur")
    roll_next(state, lambda total: total >= 7)              # worse equipped: 7+ needed
    before = state
    state = play(before, "march 2")
    assert state["troops"]["nippur"] == [2, 0, 0]
    text = says(before, "march 2", state)
    assert "needs 7" in text and "takes Nippur" in text


# -- extend an empire and combat -----------------------------------------------------------


def test_invasion_targets_follow_borders_and_arrows_and_never_dilmun() -> None:
    # « vous pouvez envahir une région qui est adjacente à une région où vous possédez une
    # armée » « Certaines régions comportent une flèche indiquant que l'expansion d'un empire
    # ne peut se faire que dans cette direction. Dilmun ... ne peut donc pas être envahi. »
    state = fresh()
    empire(state, 0, armies=5, troops={"nippur": 1, "ur": 1})
    state = play(state, "extend")
    options = legal(state)
    assert "invade babylon" in options and "invade eridu" in options
    assert "invade zagros" not in options                 # the arrow points Zagros -> Nippur
    assert "invade dilmun" not in options
    assert "reinforce nippur" in options


def test_invading_an_empty_region_and_repeating_for_one_army() -> None:
    # « si la région envahie ne contient pas d'armée ennemie, vous placez simplement une
    # nouvelle armée disponible dans cette région » « vous devez dépenser une armée disponible
    # puis effectuer à nouveau cette action »
    state = fresh()
    empire(state, 0, armies=3, troops={"nippur": 1})
    state = play(state, "extend", "invade babylon")
    assert state["troops"]["babylon"][0] == 1 and state["armies"]["avail"][0] == 2
    assert state["step"] == "extend" and "done" in legal(state)
    state = play(state, "invade sippar")                   # 1 to repeat + 1 placed
    assert state["troops"]["sippar"][0] == 1 and state["armies"]["avail"][0] == 0
    assert state["current"] == 1                           # no army left: the action ends
    assert total_armies(state, 0) == 20


def test_reinforce_never_more_than_two_armies_in_a_region() -> None:
    # « Renforcer une région : ... placer 1 armée dans une région où vous en possédez déjà
    # une. Un joueur ne peut jamais placer plus de 2 armées dans la même région. »
    state = fresh()
    empire(state, 0, armies=5, troops={"nippur": 2, "ur": 1})
    state = play(state, "extend")
    assert "reinforce nippur" not in legal(state) and "reinforce ur" in legal(state)
    state = play(state, "reinforce ur")
    assert state["troops"]["ur"][0] == 2


@pytest.mark.parametrize(("better", "total", "wins"), [
    (True, 5, True), (True, 4, False), (False, 6, False), (False, 7, True)])
def test_combat_two_dice_against_equipment(better: bool, total: int, wins: bool) -> None:
    # « si votre armée est mieux équipée que celle du défenseur et si le résultat obtenu est
    # ≥ 5 , vous détruisez une armée ennemie » « si votre armée est moins bien équipée ... ≥ 7 »
    # « dans tous les autres cas, vous perdez une armée qui devient non disponible »
    state = fresh()
    empire(state, 1, equip=2, troops={"babylon": 2})
    empire(state, 0, armies=4, equip=5 if better else 0, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda t: t == total)
    before = state
    state = play(state, "invade babylon")
    if wins:
        assert state["troops"]["babylon"][1] == 1 and state["armies"]["avail"][0] == 4
        assert state["armies"]["unavail"][1] == 20 - 1 - 0
    else:
        assert state["troops"]["babylon"][1] == 2 and state["armies"]["avail"][0] == 3
    assert state["step"] == "battle" and legal(state) == ["go on", "stop"]
    report = GAME.report(before, 0, GAME.parse(before, 0, "invade babylon"), state)
    assert not report.announce and not report.quiet     # the turn message tells it, once
    text = translate(report.public, "en", NAMES)
    assert f"rolls {total} " in text and f"needs {5 if better else 7}" in text


def test_a_battle_goes_on_until_the_defender_falls_or_the_attacker_stops() -> None:
    # « Le combat se poursuit jusqu'à ce que les armées du défenseur soient détruites ou
    # jusqu'à ce que vous décidiez de suspendre l'invasion. En cas de succès, placez une de vos
    # armées disponible dans la région envahie. »
    state = fresh()
    empire(state, 1, troops={"babylon": 2})
    empire(state, 0, armies=4, equip=5, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda t: t >= 5)
    state = play(state, "invade babylon")
    roll_next(state, lambda t: t >= 5)
    state = play(state, "go on")
    assert state["troops"]["babylon"] == [1, 0, 0] and state["armies"]["avail"][0] == 3
    assert state["step"] == "extend"                        # may repeat
    # stopping ends the action, losses stand
    state = fresh()
    empire(state, 1, troops={"babylon": 2})
    empire(state, 0, armies=4, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda t: t < 7)
    state = play(state, "invade babylon", "stop")
    assert state["troops"]["babylon"] == [0, 2, 0] and state["armies"]["avail"][0] == 3
    assert state["current"] == 1


def test_each_repeat_of_an_extension_costs_an_army_more() -> None:
    # « Pour ce faire, vous devez dépenser une armée disponible puis effectuer à nouveau
    # cette action » (a repeat within the same action: the first extension is free of it,
    # each next one spends an army besides the one it places)
    state = fresh()
    empire(state, 0, armies=4, troops={"nippur": 1})
    state = play(state, "extend", "reinforce nippur")
    assert state["armies"]["avail"][0] == 3 and state["troops"]["nippur"][0] == 2
    state = play(state, "invade umma")                     # an empty region
    assert state["armies"]["avail"][0] == 3 - D.REPEAT_COST - 1
    assert state["troops"]["umma"][0] == 1
    # one army left: a repeat would need two, so the action ends by itself
    state = fresh()
    empire(state, 0, armies=2, troops={"nippur": 1})
    state = play(state, "extend", "reinforce nippur")
    assert state["armies"]["avail"][0] == 1 and state["current"] == 1


def test_an_attacker_with_no_army_left_is_repelled() -> None:
    state = fresh()
    empire(state, 1, troops={"babylon": 1})
    empire(state, 0, armies=1, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda t: t < 7)
    state = play(state, "invade babylon")
    assert state["troops"]["babylon"] == [0, 1, 0] and state["current"] == 1


def test_destroying_a_city_costs_two_armies_three_behind_shuruppak() -> None:
    # « Pour ce faire, vous devez dépenser 2 armées disponibles ; la cité détruite (et son
    # éventuelle extension) est rendue à son propriétaire. » « Shuruppak : ... il doit
    # dépenser 3 armées au lieu de 2 si vous possédez au moins 2 cités sur le plateau. »
    state = fresh()
    state["cities"]["nippur"] = [1, True]
    empire(state, 0, armies=2, troops={"nippur": 1})
    state = play(state, "extend")
    state = play(state, "destroy nippur")
    assert "nippur" not in state["cities"] and state["troops"]["nippur"][0] == 1
    assert state["armies"]["avail"][0] == 0
    state = fresh()
    state["cities"]["nippur"] = [1, False]
    state["cities"]["shuruppak"] = [1, False]
    empire(state, 0, armies=2, troops={"nippur": 1})
    state = play(state, "extend")
    assert "destroy nippur" not in legal(state)
    assert destroy_cost(state, 1) == 3
    state["armies"]["avail"][0] = 3
    state["armies"]["unavail"][0] -= 1
    state = play(state, "destroy nippur")
    assert state["armies"]["avail"][0] == 0
    assert "destroy" not in " ".join(legal(turn(fresh(), 0)))


# -- passing and the next order ------------------------------------------------------------


def test_passing_with_resources_sets_the_next_order_ties_keep_the_old_one() -> None:
    # « la valeur relative des ressources placées dans ces cases servira à déterminer
    # l'ordre du prochain tour » « le joueur ayant placé le montant le plus élevé jouera le
    # 1er, etc. En cas d'égalité, l'ordre relatif précédent est conservé. »
    state = fresh()
    state = play(state, "pass", "bid grain", "done")          # seat 0: 1
    state = play(state, "pass", "bid gold", "done")           # seat 1: 4
    state = play(state, "pass")
    assert state["step"] == "bid"
    state = play(state, "bid grain", "done")                  # seat 2: 1 (tie with 0)
    assert state["round"] == 2 and state["order"] == [1, 0, 2]
    assert state["pass_box"][1]["gold"] == 0 and broken(state) is None


# -- victory points and the end of a round --------------------------------------------------


def test_victory_points_for_armies_nippur_and_city_extensions() -> None:
    # « Vous obtenez 2 PV pour chaque région où vous possédez au moins 1 armée. » « Nippur :
    # vous obtenez 1 PV supplémentaire pour chaque région de Sumer occupée par une de vos
    # armées » « ceci nécessite la dépense de 2 cubes bois et de 0 à 4 ressources de luxe ...
    # vous ne pouvez dépenser qu'une seule ressource de luxe de chaque type par cité »
    state = fresh()
    state["cities"]["nippur"] = [0, False]
    state["cities"]["ur"] = [0, False]
    empire(state, 0, troops={"nippur": 2, "ur": 1, "elam": 1})
    nothing(state, 0)
    give(state, 0, wood=2, gold=2, lapis=1)
    nothing(state, 1)
    nothing(state, 2)
    state = pass_all(state)
    assert state["vp"][0] == 3 * 2 + 2                       # 3 regions, 2 in Sumer
    assert state["phase"] == "vp" and state["current"] == 0
    assert legal(state) == ["enlarge nippur", "enlarge ur", "done"]
    state = play(state, "enlarge ur", "add gold")
    assert legal(state) == ["add lapis", "done"]              # one gold per city
    state = play(state, "add lapis")
    assert state["vp"][0] == 8 + D.CITY_VP[2] and state["cities"]["ur"][1]
    assert state["round"] == 2                                # no more wood: round over
    assert state["vp_from"][0] == {"armies": 6, "nippur": 2, "cities": 11, "majorities": 0}


def test_end_of_round_clears_armies_boxes_and_moves_workers_left() -> None:
    # « Tous les joueurs retirent leurs armées du plateau ... Tous les ouvriers et armées non
    # placés deviennent également non disponibles. » « Toutes les ressources placées dans
    # les cases Passé et Équipement retournent au stock. » « Tous les ouvriers placés dans
    # les cases Scribes et Fabrication d'outils sont déplacés sur la gauche. »
    state = fresh()
    empire(state, 0, armies=3, equip=2, troops={"nippur": 1})
    workers_at(state, 1, "scribes", 2)
    state["used"]["scribes"][1] = 2
    for seat in range(3):
        nothing(state, seat)
    state = play(state, "pass", "pass", "pass")
    assert state["round"] == 2
    assert all(sum(c) == 0 for c in state["troops"].values())
    assert state["armies"]["avail"] == [0, 0, 0] and state["armies"]["unavail"] == [20] * 3
    assert state["equip"][0]["grain"] == 0 and broken(state) is None
    assert state["used"]["scribes"] == [0, 0, 0] and state["on"]["scribes"][1] == 1  # decline
    assert state["empires"] == {} and state["passed"] == []


# -- the end ----------------------------------------------------------------------------------


def last_round(seed: int = 1) -> State:
    state = fresh(seed)
    state["round"] = D.ROUNDS
    for seat in range(3):
        nothing(state, seat)
    return state


def test_final_majorities_ties_score_nothing() -> None:
    # « le joueur possédant le plus d'ouvriers dans une région/case indiquant un nombre de PV
    # reçoivent ce nombre de PV. En cas d'égalité, aucun PV n'est attribué. »
    state = last_round()
    workers_at(state, 0, "lebanon", 3)
    workers_at(state, 1, "lebanon", 2)
    workers_at(state, 0, "egypt", 1)
    workers_at(state, 2, "egypt", 1)
    workers_at(state, 2, "irrigation", 2)
    state = play(state, "pass", "pass", "pass")
    assert GAME.outcome(state) is not None
    assert state["vp"][0] == D.PLACE_VP["lebanon"]             # Egypt tied; weaving 1-1-1
    assert state["vp"][2] == D.PLACE_VP["irrigation"]
    assert state["vp"][1] == 0


def test_the_winner_and_the_turn_order_tie_break() -> None:
    # « Le joueur détenant le plus de PV est le vainqueur : en cas d'égalité c'est le joueur
    # le 1er dans l'ordre du tour de jeu. » (the order set in phase 4 of round 5)
    state = last_round()
    state["vp"] = [10, 10, 4]
    give(state, 1, grain=1)
    state = play(state, "pass", "pass", "bid grain", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and state["order"] == [1, 0, 2]
    assert outcome.scores == (10, 10, 4)
    assert outcome.ranking == ((1,), (0,), (2,)) and outcome.winners == (1,)
    assert outcome.tiebreak is not None
    assert "Blake" in translate(outcome.tiebreak, "en", NAMES)
    assert GAME.active(state) == [] and legal(state, 0) == []


# -- whole games ------------------------------------------------------------------------------


def test_random_games_keep_pieces_and_goods_and_end_after_five_rounds() -> None:
    # « Le jeu se termine à la fin du 5ème tour de jeu. »; the caps and the conservation
    # of pieces and goods are checked after every step (tests/flood_properties.py).
    for seed in range(6):
        figures = playout(seed)
        assert figures.ended and figures.rounds == D.ROUNDS
        assert figures.most_in_play <= D.MAX_WORKERS and figures.most_armies <= D.ARMIES


def test_the_property_check_sees_a_broken_state() -> None:
    state = fresh()
    assert broken(state) is None
    state["res"][0]["gold"] += 1
    assert "gold" in (broken(state) or "")
    state = fresh()
    state["troops"]["elam"] = [1, 1, 0]
    state["armies"]["unavail"][:2] = [D.ARMIES - 1, D.ARMIES - 1]
    assert "elam" in (broken(state) or "")
    state = fresh()
    state["on"]["scribes"][2] = 3
    state["workers"]["unavail"][2] -= 3
    assert "scribes" in (broken(state) or "")


def test_every_step_speaks_both_languages() -> None:
    for state, seat, action, after in busy_steps(5):
        prompt = GAME.prompt(state, seat)
        for lang in ("en", "fr"):
            for text in (GAME.report(state, seat, action, after).public, action.label,
                         *([prompt.text] if prompt is not None else [])):
                assert not translate(text, lang, NAMES).startswith("flood.")
    outcome = GAME.outcome(after)
    assert outcome is not None
    for detail in outcome.details:
        assert "VP" in translate(detail, "en", NAMES)
        assert "PV" in translate(detail, "fr", NAMES)


def test_every_name_the_engine_uses_is_in_the_catalogue() -> None:
    root = Path(__file__).resolve().parent.parent
    data = json.loads((root / "data" / "flood" / "map.json").read_text(encoding="utf-8"))
    for lang in ("en", "fr"):
        known = catalogue(lang)
        for region in data["regions"]:
            assert known[f"flood.region.{region['id']}"] == region["name"][lang]
            if region["city_bonus"]:
                assert known[f"flood.bonus.{region['id']}"] == region["city_bonus"]["name"][lang]
                assert known[f"flood.bonus_text.{region['id']}"] == region["city_bonus"][
                    "text"][lang]
        families = {
            "box": D.BOXES, "res": D.RESOURCES, "some": D.RESOURCES, "empire": D.EMPIRES,
            "the_empire": D.EMPIRES, "render.phase": ("actions", "vp", "over"),
            "the": D.REGION_IDS, "of": D.CITY_SITES,
            **{form: (*D.PLACES, *D.SUMER) for form in ("in", "to", "from")},
        }
        missing = [f"flood.{family}.{item}" for family, items in families.items()
                   for item in items if f"flood.{family}.{item}" not in known]
        missing += [f"flood.act.done_{step}" for step in ("bid", "vp", "lux")
                    if f"flood.act.done_{step}" not in known]
        assert missing == [], (lang, missing)


# -- the AI -------------------------------------------------------------------------------------


def ai_step(state: State) -> str:
    import random

    from bot import ai

    seat = state["current"]
    action = ai.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                       random.Random(3), ai.FAST_BUDGET)
    return action.notation


def test_the_ai_acts_rather_than_passing_at_the_start() -> None:
    assert ai_step(fresh()) != "pass"


def test_the_ai_invades_empty_regions_and_extends_its_cities() -> None:
    state = fresh()
    empire(state, 0, armies=4, troops={"nippur": 1})
    state = play(state, "extend")
    assert ai_step(state).startswith("invade")
    state = last_round()
    state["cities"]["ur"] = [0, False]
    give(state, 0, wood=2, gold=1, oil=1)
    state = pass_all(state)
    assert state["phase"] == "vp" and ai_step(state) == "enlarge ur"
    state = play(state, "enlarge ur")
    assert ai_step(state).startswith("add")


def test_the_ai_fights_on_when_the_odds_favour_it() -> None:
    # better equipped (5+ on 2d6: 5 chances in 6), many armies in hand, the defender down to
    # one army in a region worth points: the AI goes on
    state = fresh()
    empire(state, 1, troops={"babylon": 2})
    empire(state, 0, armies=8, equip=5, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda t: t >= 5)
    state = play(state, "invade babylon")
    assert state["troops"]["babylon"][1] == 1 and state["step"] == "battle"
    assert ai_step(state) == "go on"
