"""Mesopotamia: the building blocks of the combat phase (``combat.py``, ``bids.py``): ship
clashes, the order chooser, ties, neutral tribes, the rulebook's « Mode de combat simplifié »,
sealed bids; and the event options (``events.py``). Each test quotes the sentence it checks
(rulebook seed 004). The steps that drive all this are tested in
``tests/test_mesopotamia_battles.py``."""

from __future__ import annotations

from bot.engine import State
from bot.games.mesopotamia import combat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE
from bot.games.mesopotamia.state import seal_order
from tests.test_mesopotamia_end import bare, free_regions


def field(n: int = 2) -> tuple[State, str]:
    state = bare(n)
    for player in state["players"]:
        player["res"]["phalanx"] = 6
    return state, free_regions(state, 1)[0]


def test_ships_of_two_empires_on_one_section_are_destroyed() -> None:
    """« Si, suite à un déplacement, 2 Navires d'Empires différents occupent la même section
    fluviale à la fin d'une Manche, les deux sont automatiquement détruits en début de Phase de
    combat. »"""
    state, _ = field()
    one, two = list(D.SECTIONS)[:2]
    state["units"] = [[0, "ship", one], [1, "ship", one], [0, "ship", two]]
    assert combat.destroy_clashing_ships(state) == [one]
    assert state["units"] == [[0, "ship", two]]


def test_the_event_leader_orders_the_combats_and_wins_ties() -> None:
    """« Le joueur le plus avancé sur la piste Événement décide de l'ordre dans lequel tous les
    combats sont résolus. » « Si un combat finit sur une égalité, le vainqueur est le joueur le
    plus avancé sur la piste Événement » « Les Tribus neutres perdent toujours les égalités. »"""
    state, _ = field(3)
    first, second, third = seal_order(state, "event")
    assert combat.order_chooser(state) == first
    assert combat.tie_winner(state, third, first) == first
    assert combat.tie_winner(state, TRIBE, third) == third
    assert combat.tie_winner(state, second, TRIBE) == second


def test_the_tribe_is_played_by_the_seat_behind_or_ahead_when_last() -> None:
    """« Si vous n'êtes pas dernier de la piste Événement, c'est le joueur derrière vous qui la
    contrôle. Si vous êtes dernier, c'est le joueur devant. » — and its phalanxes: « lancez un dé
    Événement ; ajoutez 2 pour chaque Unité que la Tribu neutre possède actuellement. »"""
    state, _ = field(3)
    first, second, third = seal_order(state, "event")
    assert combat.tribe_controller(state, first) == second
    assert combat.tribe_controller(state, second) == third
    assert combat.tribe_controller(state, third) == second
    assert combat.tribe_phalanxes(4, 2) == 8


def test_simplified_combat_winner_and_loser() -> None:
    """« Votre valeur de combat totale sera égale à la somme des Phalanges mises, plus : 1 pour
    chaque Lancier ; 2 pour chaque Archer » … « Le joueur remportant le combat perd toutes les
    Phalanges mises, et doit détruire l'une de ses Unités impliquées dans le combat, sauf s'il
    s'agit de sa dernière. Le joueur perdant le combat récupère la moitié des Phalanges mises,
    arrondie à la baisse, et retire toutes ses Unités impliquées dans le combat. »"""
    state, region = field()
    state["units"] = [[0, "spearman", region], [0, "spearman", region], [1, "archer", region]]
    result = combat.resolve_simplified(state, region, {0: 2, 1: 3})
    # 2 spearmen + 2 = 4 against an archer + 3 = 5.
    assert result == {"winner": 1, "loser": 0, "values": {0: 4, 1: 5}}
    assert state["units"] == [[1, "archer", region]]  # its last unit: not destroyed
    assert state["players"][1]["res"]["phalanx"] == 3
    assert state["players"][0]["res"]["phalanx"] == 5  # 2 bid, 1 back


def test_an_odd_losing_bid_comes_back_halved_rounded_down() -> None:
    """« Le joueur perdant le combat récupère la moitié des Phalanges mises, arrondie à la
    baisse » : 3 phalanxes lost, 1 back."""
    state, region = field()
    state["units"] = [[0, "spearman", region], [0, "spearman", region], [1, "archer", region]]
    result = combat.resolve_simplified(state, region, {0: 3, 1: 5})
    assert result["loser"] == 0 and result["values"] == {0: 5, 1: 7}
    assert state["players"][0]["res"]["phalanx"] == 6 - 3 + 1


def test_simplified_combat_tie_and_sacrifice() -> None:
    """A tie goes to the seat ahead on the Event track; the winner destroys one of its units."""
    state, region = field()
    leader = seal_order(state, "event")[0]
    other = 1 - leader
    state["units"] = [[leader, "spearman", region], [leader, "cavalry", region],
                      [other, "chariot", region]]
    result = combat.resolve_simplified(state, region, {leader: 0, other: 0})
    assert result["winner"] == leader and result["values"] == {leader: 4, other: 4}
    assert state["units"] == [[leader, "cavalry", region]]


def test_simplified_combat_against_a_tribe() -> None:
    """« Les Tribus neutres misent toujours TOUTES leurs Phalanges disponibles. » and lose ties;
    a beaten tribe leaves the region."""
    state, _ = field()
    region = next(r for r in D.REGIONS if state["tribes"].get(r) == {"spearman": 1})
    state["units"] = [[0, "archer", region]]
    tribe_bid = combat.tribe_phalanxes(1, 1)  # 3: spearman 1 + 3 = 4
    result = combat.resolve_simplified(state, region, {0: 2, TRIBE: tribe_bid})
    assert result["values"] == {0: 4, TRIBE: 4} and result["winner"] == 0
    assert state["tribes"][region] == {} and state["units"] == [[0, "archer", region]]
    assert state["players"][0]["res"]["phalanx"] == 4


def test_a_winning_tribe_sacrifices_a_unit_and_forgets_a_kind_it_has_no_more() -> None:
    """« Le joueur remportant le combat ... doit détruire l'une de ses Unités impliquées » :
    a tribe of a spearman and an archer that wins keeps one unit, listed alone."""
    state, region = field()
    state["tribes"][region] = {"spearman": 1, "archer": 1}
    state["units"] = [[0, "spearman", region]]
    result = combat.resolve_simplified(state, region, {0: 0, TRIBE: 6}, sacrifice="spearman")
    assert result["winner"] == TRIBE
    assert state["tribes"][region] == {"archer": 1} and state["units"] == []


def test_entering_the_combat_phase_sinks_clashing_ships() -> None:
    """The last turn of the action phase ends it; the ships of two empires sharing a section
    are destroyed « en début de Phase de combat », and the report says so."""
    from bot.games.mesopotamia.engine import GAME
    from bot.i18n import translate
    from tests.contract import NAMES
    from tests.test_mesopotamia_actions import play

    state, _ = field(2)
    one = next(iter(D.SECTIONS))
    state["units"] = [[0, "ship", one], [1, "ship", one]]
    while True:
        if None in state["t"]["dice"]:
            state = play(state, "set u")
        seat = state["current"]
        after = play(state, "use growth pawn", "stop", "end")
        if after["round"] != state["round"]:
            break
        state = after
    assert after["units"] == []
    before = play(state, "use growth pawn", "stop")
    report = GAME.report(before, seat, GAME.parse(before, seat, "end"), after)
    assert "destroyed" in translate(report.for_seat(None), "en", NAMES)


def test_sealed_bids_show_nothing_before_the_reveal() -> None:
    """« vous décidez en secret du nombre de Phalanges à investir : aucune, une partie, ou
    tout. » — both seats bid at once, one compartment at a time; a sealed part is seen by its
    bidder only until the last part of the last bid reveals them all (R-secret-bids)."""
    from bot.games.mesopotamia import bids
    from bot.i18n import translate
    from tests.contract import NAMES

    state, _ = field(3)
    bids.open_bids(state, {0: 2, 2: 5}, parts=3)
    assert bids.active(state) == [0, 2] and bids.legal(state, 1) == []
    assert bids.legal(state, 0) == ["bid 0", "bid 1", "bid 2"]
    assert len(bids.legal(state, 2)) == 6
    for part in ("bid 1", "bid 3", "bid 1"):
        bids.commit(state, 2, part)
    assert bids.legal(state, 2) == []
    assert bids.active(state) == [0] and not bids.reveals(state, 0, "bid 0")
    assert bids.reveals(state, 0, "bid 2")     # then nothing is left: 0 and 0 seal themselves
    bids.commit(state, 0, "bid 0")
    bids.commit(state, 0, "bid 2")
    assert bids.legal(state, 0) == ["bid 0"] and bids.reveals(state, 0, "bid 0")
    assert bids.view(state, 1)["sealed"] == {"0": None, "2": None}
    assert bids.view(state, 2)["sealed"] == {"0": None, "2": [1, 3, 1]}
    assert bids.view(state, None)["count"] == {"0": 2, "2": 3}
    secrets = bids.secrets(state)
    assert [s.readers for s in secrets] == [frozenset({0}), frozenset({2})]
    assert "1/3/1" in translate(secrets[1].value, "en", NAMES)
    assert bids.revealed(state) is None
    bids.commit(state, 0, "bid 0")
    assert bids.revealed(state) == {0: [0, 2, 0], 2: [1, 3, 1]}
    assert bids.secrets(state) == [] and bids.active(state) == []
    assert bids.view(state, 1)["sealed"] == {"0": [0, 2, 0], "2": [1, 3, 1]}


# -- events -------------------------------------------------------------------------------------


def test_an_immediate_option_and_a_vp_token() -> None:
    """« Donnez ensuite la carte Événement au joueur qui l'a révélé, qui doit choisir entre
    l'option 1 et 2. » — Euphrates Flood: « Gagnez 2 Nourritures et 2 Argiles. Avancez d'une case
    sur la piste Événement. » or « Payez 1 Pierre. […] Le jeton reste face visible : en fin de
    partie, qui contrôle cette région gagne 3 PV. »"""
    from bot.games.mesopotamia import events, scoring
    from bot.games.mesopotamia.state import seal_case

    state, region = field(2)
    case = seal_case(state, "event", 0)
    assert not events.can_choose(state, 0, "plain_01", 1)  # no Stone
    events.choose(state, 0, region, "plain_01", 0)
    res = state["players"][0]["res"]
    assert (res["food"], res["clay"], seal_case(state, "event", 0)) == (2, 2, case + 1)
    res["stone"] = 1
    assert events.can_choose(state, 0, "plain_01", 1)
    events.choose(state, 0, region, "plain_01", 1)
    assert state["vp_tokens"] == {region: 3} and seal_case(state, "event", 0) == case + 3
    state["units"] = [[0, "spearman", region]]
    assert scoring.breakdown(state, 0)["event_tokens"] == 3
    assert state["players"][0]["events_resolved"] == 2


def test_granted_units_beyond_the_limit_give_phalanxes() -> None:
    """« Si vous ne pouvez pas les placer en raison d'une limite de Population ou d'un manque de
    figurines, vous gagnez 1 Phalange à la place. »"""
    from bot.games.mesopotamia import events
    from bot.games.mesopotamia.state import unit_limit

    state, region = field(2)
    home = state["players"][0]["start"]
    state["units"] = [[0, "spearman", home]] * unit_limit(state, 0)
    events.apply_effect(state, 0, region, {"units": {"archer": 1, "spearman": 1}})
    assert state["players"][0]["res"]["phalanx"] == 6 + 2
    state["units"] = []
    events.apply_effect(state, 0, region, {"units": {"archer": 1}})
    assert state["units"] == [[0, "archer", region]]


def test_a_six_round_event_gains_each_round_then_its_final_reward() -> None:
    """« Placez l'un de vos dés Événement à côté du jeton Événement sur la face 1 » « À la fin
    de chaque Manche, tournez le dé sur le chiffre suivant et résolvez l'effet pour cette
    Manche. » — six gains, then the final reward and the advance (Q-six-rounds (a))."""
    from bot.games.mesopotamia import events
    from bot.games.mesopotamia.state import seal_case

    state, region = field(2)
    card, option = next((c, i) for c, v in events.CARDS.items()
                        for i, o in enumerate(v["options"])
                        if o["kind"] == "control_6_rounds" and not o["effect"]
                        and o["per_round"] == {"gain": {"food": 2}})
    case = seal_case(state, "event", 0)
    events.choose(state, 0, region, card, option)
    assert seal_case(state, "event", 0) == case and len(events.running(state, 0)) == 1
    for _ in range(5):
        assert events.end_of_round(state) == []
    (done,) = events.end_of_round(state)
    assert state["players"][0]["res"]["food"] == 12 and state["running"] == []
    events.finish(state, done)
    opt = events.CARDS[card]["options"][option]
    assert seal_case(state, "event", 0) == case + int(opt["advance"])
