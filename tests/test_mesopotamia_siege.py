"""« MODE SIÈGE D'UR », sentence by sentence (seed l. 2915-3003; the places on our map and
the symbols lost from the text are ruled in RULINGS.md, R-siege-*)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import IllegalMove, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import modes, rounds, siege, solo, trade
from bot.games.mesopotamia.automaton import play
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import advance_seal, seal_case, seal_order, units_of
from bot.i18n import translate
from host.registry import CATALOGUE

YOU, THEM = 0, 1


def new(seed: int = 7, empire: str = "sumerian") -> State:
    """A Siege after the setup, at the start of round 1 (your empire ``empire``)."""
    state = GAME.setup(seed, 2, {"mode": "siege"})
    state = GAME.apply(state, YOU, f"empire {empire}")
    while state["phase"] != "actions":
        (seat,) = GAME.active(state)
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    return state


def defenders_turn(state: State) -> State:
    """``state`` at the start of the Defenders' turn (yours ended)."""
    while state["current"] != THEM:
        state = GAME.apply(state, YOU, "use growth pawn") if not state["t"]["done"] else \
            GAME.apply(state, YOU, "end")
        while state["phase"] == "actions" and state["t"]["act"] is not None:
            state = GAME.apply(state, YOU, "stop")
    return state


def clear_units(state: State, *units: tuple[int, str, str]) -> None:
    """Only ``units`` on the land (ships stay)."""
    state["units"] = [u for u in state["units"] if u[1] == "ship"] + [list(u) for u in units]


def on_box(state: State, track: str, seat: int, case: int) -> None:
    state["seals"][track] = sorted(
        ([s, case if s == seat else c] for s, c in state["seals"][track]),
        key=lambda e: (-e[1], e[0] == THEM))


def test_the_mode_option_sets_up_each_mode() -> None:
    """The option ``mode`` (duel, siege, guardians; duel by default): each solo mode sets up
    its own enemy's box, the Duel neither."""
    spec = next(o for o in GAME.meta.options if o.name == "mode")
    assert spec.choices == ("duel", "siege", "guardians") and spec.default == "duel"
    plain_game = GAME.setup(1, 2, {})
    assert "siege" not in plain_game and "guardians" not in plain_game
    assert "siege" in GAME.setup(1, 2, {"mode": "siege"})
    assert "guardians" in GAME.setup(1, 2, {"mode": "guardians"})


def test_one_player_and_the_defenders_seat() -> None:
    """players:1 gives 2 seats, the last the Defenders', played by the game's own script and
    named Garrison of Ur, the rulebook's Defenders (R-siege-name; the ``automaton`` option
    seats nobody else)."""
    script = CATALOGUE.scripts[0]
    assert script.seats({"mode": "siege", "automaton": "igigi"}) == 1
    assert script.seats({"mode": "guardians"}) == 1
    state = new()
    assert play.plays(state, THEM) and not play.plays(state, YOU)
    assert translate(play.seat_name(state, THEM), "en") == "Garrison of Ur"
    assert translate(play.seat_name(state, THEM), "fr") == "Garnison d'Ur"


def test_the_defenders_ignore_their_empire_setup() -> None:
    """« N'importe quel Empire peut représenter les Défenseurs d'Ur, mais ses règles de mise en
    place sont ignorées. »: an empire you did not take, no resources, no dice, no quests; you
    alone choose an empire."""
    state = GAME.setup(3, 2, {"mode": "siege"})
    assert GAME.active(state) == [YOU]
    state = GAME.apply(state, YOU, "empire babylonian")
    them = state["players"][THEM]
    assert them["empire"] not in (None, "babylonian") and them["dice"] == []
    assert all(v == 0 for v in them["res"].values())
    state = new(3)
    assert state["quests"]["hands"][THEM] == []


def test_you_start_in_the_ruled_region_with_your_seal_on_top() -> None:
    """« Commencez la partie dans la région » (R-siege-start: Nineveh); « Installez votre
    Empire selon ses règles de mise en place »; « Vous placez toujours votre Sceau d'Empire
    par-dessus celui des Défenseurs d'Ur. »"""
    state = new(empire="akkadian")
    you = state["players"][YOU]
    assert you["start"] == "nineveh" and you["empire"] == "akkadian"
    assert units_of(state, YOU) == [[YOU, "archer", "nineveh"]]
    for track in D.TRACKS:
        assert state["seals"][track] == [[YOU, 1], [THEM, 1]]
    on_box(state, "event", YOU, 3)
    state["seals"]["event"] = [[YOU, 3], [THEM, 2]]
    assert advance_seal(state, "event", THEM)
    assert state["seals"]["event"] == [[YOU, 3], [THEM, 3]]


def test_three_quests_dealt_two_kept() -> None:
    """« Piochez 3 cartes Quête, et choisissez-en 2 à garder. »"""
    state = GAME.setup(5, 2, {"mode": "siege"})
    state = GAME.apply(state, YOU, "empire akkadian")
    assert state["phase"] == "quests" and GAME.active(state) == [YOU]
    hand = state["quests"]["hands"][YOU]
    assert len(hand) == 3
    prompt = GAME.prompt(state, YOU)
    assert prompt is not None and "Keep 2 of" in translate(prompt.text, "en")
    state = GAME.apply(state, YOU, f"return {hand[0]}")
    assert state["phase"] == "actions" and state["quests"]["hands"][YOU] == hand[1:]
    assert hand[0] in state["quests"]["deck"]


def test_the_city_of_ur_is_set_up() -> None:
    """« Mise en place de la cité d'Ur »: events face down on every site (R-siege-events), the
    completed Ziggurat in Ur, seals on the first box of both tracks, the ladder of units
    beside the Population track, the 3 Ramparts, 3 Colonies, 2 Ships, 1 Spearman, 1 Archer
    and 1 Horseman of the map (R-siege-map)."""
    state = new()
    them = state["players"][THEM]
    assert all(not up for _, up in state["sites"].values())
    assert set(state["sites"]) == {r for r, reg in D.REGIONS.items() if reg.event_site}
    assert them["start"] == "ur" and them["ziggurat"] == D.PIECES["ziggurat_storeys"]
    assert seal_case(state, "event", THEM) == seal_case(state, "population", THEM) == 1
    assert siege.LADDER == {"spearman": 1, "archer": 3, "cavalry": 5, "chariot": 7}
    assert state["siege"]["ladder"] == {"spearman": 2, "archer": 2, "cavalry": 1, "chariot": 1}
    assert sorted(them["ramparts"]) == ["umma", "ur", "uruk"]
    assert sorted(them["colonies"]) == ["babylon", "eridu", "lagash"]
    kinds = sorted(u[1] for u in units_of(state, THEM))
    assert kinds == ["archer", "cavalry", "ship", "ship", "spearman"]
    assert all(u[2] in them["colonies"] for u in units_of(state, THEM, "spearman"))
    assert all(u[2] in them["ramparts"] for u in units_of(state, THEM, "archer"))
    assert siege.ACTIONS == ("harvest_trade", "war", "exploration", "growth", "star")


def test_the_population_leader_plays_first() -> None:
    """« le joueur en tête sur la piste Population joue en premier »: you on a tie (your seal
    is on top); the Defenders when they lead."""
    state = new()
    assert state["order"] == [YOU, THEM] and state["current"] == YOU
    state["seals"]["population"] = [[THEM, 3], [YOU, 2]]
    assert seal_order(state, "population") == [THEM, YOU]


def test_the_defenders_turn_reveals_two_cards_then_ends() -> None:
    """« révélez deux cartes Action du paquet Action et réalisez les actions correspondantes.
    Remettez ensuite les cartes dans le paquet Action et mélangez. »: two different cards each
    turn, from the whole deck every time; then ``end``."""
    state = defenders_turn(new())
    assert [a.notation for a in GAME.legal(state, THEM)] == ["defend"]
    seen: set[str] = set()
    for seed in range(40):
        state["chance"] = new(seed)["chance"]
        after = GAME.apply(state, THEM, "defend")
        cards = after["siege"]["last"]["cards"]
        assert len(cards) == 2 and len(set(cards)) == 2 and set(cards) <= set(siege.ACTIONS)
        seen |= set(cards)
        if not after.get("event") and after["phase"] == "actions":
            assert [a.notation for a in GAME.legal(after, THEM)] == ["end"]
    assert seen == set(siege.ACTIONS)


def test_harvest_and_trade_amphora_rightmost_one_level_above_yours() -> None:
    """« placent une Amphore dans l'emplacement disponible le plus à droite de la section
    Échange. Ils peuvent placer leur Amphore dans une section dépassant d'un niveau celui de
    votre Technologie » (R-siege-trade)."""
    state = new(empire="sumerian")
    level = int(D.CARD_EFFECT[state["players"][YOU]["tech"]["harvest_trade"]]["trade_level"])
    assert siege.trade_limit(state) == level + 1
    done = siege.play_card(state, THEM, "harvest_trade")
    reach = [s for s in state["trade"] if D.SLOT_LEVEL[s] <= level + 1]
    top = max(D.SLOT_LEVEL[s] for s in reach)
    expected = max(s for s in reach if D.SLOT_LEVEL[s] == top)
    assert done["slot"] == expected and state["amphorae"][expected] == THEM
    second = siege.play_card(state, THEM, "harvest_trade")["slot"]
    assert second != expected and D.SLOT_LEVEL[second] <= level + 1
    assert (D.SLOT_LEVEL[second], second) < (D.SLOT_LEVEL[expected], expected)


def test_you_cannot_trade_under_their_amphora() -> None:
    """« Vous ne pouvez pas choisir une option d'Échange surplombée d'une Amphore des Défenseurs
    d'Ur. »: not offered, and refused with that rule."""
    state = new()
    slot = next(s for s in state["trade"] if D.SLOT_LEVEL[s] == 1)
    token = state["trade"][slot]
    state["players"][YOU]["res"].update(dict.fromkeys(D.RESOURCES, 9))
    state = GAME.apply(state, YOU, "use harvest_trade pawn")
    act = state["t"]["act"]
    act["harvests"] = 0
    act["card"] = next(c for c, e in D.CARD_EFFECT.items() if e.get("trade_level") == 2)
    assert f"trade {token}" in trade.legal(state, YOU, act)
    state["amphorae"][slot] = THEM
    assert f"trade {token}" not in trade.legal(state, YOU, act)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, YOU, f"trade {token}")
    assert "Amphora" in translate(refused.value.reason, "en")
    assert "Amphore" in translate(refused.value.reason, "fr")


@pytest.mark.parametrize(("case", "gained"), [(1, 1), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3),
                                              (8, 3)])
def test_war_phalanxes_are_population_over_three_rounded_up(case: int, gained: int) -> None:
    """« un nombre de Phalanges égal à leur position sur la piste Population divisée par 3
    (arrondi à la hausse) »."""
    state = new()
    on_box(state, "population", THEM, case)
    before = state["players"][THEM]["res"]["phalanx"]
    assert siege.play_card(state, THEM, "war")["phalanxes"] == gained == siege.phalanxes(case)
    assert state["players"][THEM]["res"]["phalanx"] == before + gained


def test_war_places_the_most_advanced_unit_in_its_place() -> None:
    """« une Unité disponible du même type que celui de cette position ou d'une position
    inférieure …, choisissant la plus avancée »: Spearmen to Colonies, Archers to Ramparts,
    each the one nearest your units (R-siege-war); an empty rung gives the next one down."""
    state = new()
    clear_units(state, (YOU, "spearman", "hit"))
    on_box(state, "population", THEM, 2)
    done = siege.play_card(state, THEM, "war")
    assert (done["unit"], done["region"]) == ("spearman", "babylon")
    on_box(state, "population", THEM, 4)
    done = siege.play_card(state, THEM, "war")
    assert (done["unit"], done["region"]) == ("archer", "uruk")
    state["siege"]["ladder"]["archer"] = 0
    done = siege.play_card(state, THEM, "war")
    assert done["unit"] == "spearman"
    state["siege"]["ladder"]["spearman"] = 0
    done = siege.play_card(state, THEM, "war")
    assert done["unit"] is None and done["phalanxes"] == 2


def test_no_tribe_stays_in_the_defenders_lands() -> None:
    """R-siege-map: the regions of the Defenders' pieces hold no neutral tribe (Umma's tribe,
    R-start-balance, is Ur's own people in the Siege); the other tribes stay."""
    state = new()
    assert D.REGIONS["umma"].tribe
    lands = {*siege.DATA["ramparts"], *siege.DATA["colonies"], *(r for _, r in siege.DATA["units"])}
    assert "umma" in lands and not lands & set(state["tribes"])
    assert set(state["tribes"]) == {r.id for r in D.REGIONS.values() if r.tribe} - lands


def test_the_war_example_box_7_three_phalanxes_a_chariot() -> None:
    """« Les Défenseurs d'Ur sont sur la case de la piste Population et peuvent placer un Char.
    Ils gagnent 3 en Force (7 / 3 = 2,3, arrondi à 3), et placent ce Char dans la région
    adjacente aux Unités ennemies la plus à droite. » On our map the region next to your unit
    in Der that bars the way to Ur is Umma (R-siege-war)."""
    state = new()
    clear_units(state, (YOU, "spearman", "der"))
    on_box(state, "population", THEM, 7)
    done = siege.play_card(state, THEM, "war")
    assert done == {"card": "war", "phalanxes": 3, "unit": "chariot", "region": "umma"}
    assert [THEM, "chariot", "umma"] in state["units"]
    assert state["players"][THEM]["res"]["phalanx"] == 3
    again = siege.play_card(state, THEM, "war")
    assert again["unit"] == "cavalry" and again["region"] == "umma"


def test_growth_and_star() -> None:
    """« Croissance : Les Défenseurs d'Ur avancent d'une case sur la piste Population. »
    « Étoile : Les Défenseurs d'Ur ne font rien. »"""
    state = new()
    assert siege.play_card(state, THEM, "growth") == {"card": "growth", "case": 2}
    assert seal_case(state, "population", THEM) == 2
    before = {k: v for k, v in state.items() if k != "siege"}
    assert siege.play_card(state, THEM, "star") == {"card": "star"}
    assert {k: v for k, v in state.items() if k != "siege"} == before


def test_exploration_step_1_an_event_where_they_stand_nearest_your_units() -> None:
    """« si l'une de leurs Unités occupe une région avec un Événement non découvert, elle
    l'Explore. Ils commencent avec les Événements dans les régions les plus proches de vos
    Unités. »"""
    state = new()
    clear_units(state, (YOU, "spearman", "der"), (THEM, "archer", "eridu"),
                (THEM, "spearman", "umma"))
    done = siege.play_card(state, THEM, "exploration")
    assert done == {"card": "exploration", "explore": "umma", "moved": None}
    assert state["pending_events"] == [[THEM, "umma"]]


def test_exploration_ties_left_to_right() -> None:
    """« En cas d'égalité, le choix de l'Événement se fait de gauche à droite et de haut en
    bas sur la carte. »: Umma before Yamutbal (to its right), both next to your unit in Der."""
    state = new()
    clear_units(state, (YOU, "spearman", "der"), (THEM, "archer", "yamutbal"),
                (THEM, "spearman", "umma"))
    near = siege.distances({"der"})
    assert near["umma"] == near["yamutbal"] == 1
    assert siege.XY["umma"][0] < siege.XY["yamutbal"][0]
    assert siege.play_card(state, THEM, "exploration")["explore"] == "umma"
    state["sites"]["umma"][1] = True
    assert siege.play_card(state, THEM, "exploration")["explore"] == "yamutbal"


def test_exploration_step_2_a_move_into_the_top_left_event() -> None:
    """« déplacez l'une de leurs Unités dans une région adjacente comptant un Événement non
    découvert, en commençant par la région la plus en haut à gauche. »"""
    state = new()
    clear_units(state, (YOU, "spearman", "nineveh"), (THEM, "archer", "ur"))
    done = siege.play_card(state, THEM, "exploration")
    tops = sorted(["eridu", "umma", "uruk"], key=lambda r: (siege.XY[r][1], siege.XY[r][0]))
    assert done["moved"] == ["ur", tops[0]] and done["explore"] == tops[0]
    assert [THEM, "archer", tops[0]] in state["units"]


def test_exploration_step_3_never_near_your_start_region() -> None:
    """« Ils ne viendront jamais près de votre Région de départ, même si un Événement s'y
    trouve. »: a unit next to Nineveh's neighbours does not step into them."""
    state = new()
    clear_units(state, (YOU, "spearman", "hit"), (THEM, "archer", "jazira"))
    for region in ("terqa", "hit", "wadi_tharthar", "sinjar", "assur", "jazira"):
        state["sites"].pop(region, None)
    state["sites"]["sinjar"] = ["x", False]
    state["sites"]["assur"] = ["y", False]
    done = siege.play_card(state, THEM, "exploration")
    assert done["moved"] is None and done["explore"] is None
    assert [THEM, "archer", "jazira"] in state["units"]


def test_exploration_step_4_all_explored_towards_ur() -> None:
    """« Si tous les Événements sont Explorés, déplacez l'une de leurs Unités vers la cité
    d'Ur »: the one farthest from Ur, one region nearer."""
    state = new()
    clear_units(state, (YOU, "spearman", "der"), (THEM, "archer", "babylon"),
                (THEM, "spearman", "uruk"))
    for region, site in state["sites"].items():
        site[1] = region not in state["blockers"]      # a blocker's event is never explored
    assert any(not up for _, up in state["sites"].values())
    done = siege.play_card(state, THEM, "exploration")
    assert done["moved"] == ["babylon", "uruk"] and done["explore"] is None


def test_combat_against_the_defenders_is_the_solo_combat() -> None:
    """« résolvez les combats, s'il y en a, en suivant les règles de combat en solo »: no bids,
    the solo combat's steps, the Defenders on the Automaton's side."""
    state = new()
    assert solo.applies(state, (YOU, THEM)) and modes.scripted(state, THEM)
    clear_units(state, (YOU, "spearman", "hamad"), (THEM, "archer", "hamad"))
    state["tribes"].pop("hamad", None)
    state = defenders_turn(state)
    state["t"]["done"] = ["defend"]
    state["players"][YOU]["res"]["phalanx"] = 3
    after = GAME.apply(state, THEM, "end")
    assert after["phase"] == "combat" and "solo" in after and "bids" not in after
    assert after["solo"]["you"] == YOU and after["solo"]["it"] == THEM
    assert any(a.notation.startswith("place ") for a in GAME.legal(after, YOU))


def test_defeat_on_the_last_box_even_where_you_stand() -> None:
    """« Vous perdez dès que les Défenseurs d'Ur atteignent la case sur la piste Événement ou
    sur la piste Population. Les Défenseurs peuvent atteindre la case même si vous vous y
    trouvez déjà. » (R-siege-defeat: the last box of each track)."""
    for track in D.TRACKS:
        state = defenders_turn(new())
        last = D.TRACK_CASES[track]
        state["seals"][track] = [[YOU, last], [THEM, last - 1]]
        assert advance_seal(state, track, THEM)
        assert state["seals"][track] == [[YOU, last], [THEM, last]]
        state["t"]["done"] = ["defend"]
        after = GAME.apply(state, THEM, "end")
        assert after["phase"] == "over" and after["siege"]["result"] == "lost"
        outcome = GAME.outcome(after)
        assert outcome is not None and outcome.together is None       # R-solo-one
        assert outcome.ranking == ((THEM,), (YOU,)) and not outcome.seat_won(YOU)
        assert GAME.active(after) == []
    state = defenders_turn(new())
    state["seals"]["population"] = [[YOU, 8], [THEM, 7]]
    state["chance"] = _chance_showing(state, "growth")
    after = GAME.apply(state, THEM, "defend")
    assert after["phase"] == "over" and after["siege"]["result"] == "lost"


def _chance_showing(state: State, card: str) -> Any:
    """A box of chance whose Defenders' draw shows ``card``."""
    for seed in range(500):
        state["chance"] = new(seed)["chance"]
        if card in GAME.apply(state, THEM, "defend")["siege"]["last"]["cards"]:
            return state["chance"]
    raise AssertionError(card)


def test_victory_with_a_ram_in_ur() -> None:
    """« Si vous parvenez à atteindre la cité d'Ur, vous gagnez immédiatement et comptez vos
    Points. » (R-siege-victory: a Ram of yours in Ur, no Defender left in it)."""
    state = new()
    state["units"] = [u for u in state["units"] if u[2] != "ur"]
    state["units"] += [[YOU, "spearman", "ur"], [YOU, "ram", "ur"]]
    state["units"].append([THEM, "archer", "ur"])
    assert siege.result_now(state) is None
    state["units"].remove([THEM, "archer", "ur"])
    assert siege.result_now(state) == "won"
    after = GAME.apply(state, YOU, "use growth pawn")
    assert after["phase"] == "over" and after["siege"]["result"] == "won"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.together is None and outcome.seat_won(YOU)
    assert outcome.ranking == ((YOU,), (THEM,)) and outcome.scores[YOU] > 0


def test_a_ram_carried_into_ur_wins_the_siege() -> None:
    """Ur, the Defenders' start region, is open to your units (R-siege-victory), walled: a unit
    enters it only with a Ram; with none of their units there, you win at once; with one, the
    combat at the end of the round decides."""
    state = new()
    clear_units(state, (YOU, "spearman", "uruk"), (YOU, "ram", "uruk"), (THEM, "archer", "eridu"))
    state = GAME.apply(state, YOU, "use exploration pawn")
    alone = GAME.apply(state, YOU, "activate spearman uruk")
    assert "move ur" not in [a.notation for a in GAME.legal(alone, YOU)]
    state = GAME.apply(state, YOU, "activate spearman uruk ram")
    won = GAME.apply(state, YOU, "move ur")
    assert won["phase"] == "over" and won["siege"]["result"] == "won"
    state["units"].append([THEM, "archer", "ur"])
    guarded = GAME.apply(state, YOU, "move ur")
    assert guarded["phase"] == "actions" and guarded["siege"]["result"] is None
    assert "ur" in rounds.contested(guarded)


def test_the_defenders_turn_is_told_in_both_languages() -> None:
    """Each card of the Defenders' turn as a short third-person clause, in English and
    French."""
    state = defenders_turn(new())
    clear_units(state, (YOU, "spearman", "der"))
    on_box(state, "population", THEM, 7)
    state["chance"] = _chance_for(state, ["war", "growth"])
    after = GAME.apply(state, THEM, "defend")
    report = GAME.report(state, THEM, GAME.parse(state, THEM, "defend"), after)
    en = translate(report.public, "en")
    fr = translate(report.public, "fr")
    assert "reveals " in en and "it gains 3 Phalanxes and places a Chariot in Umma" in en
    assert "it reaches Population box 8" in en
    assert "elle gagne 3 Phalanges et place un Char à Umma" in fr
    assert after["phase"] == "over"
    assert "loses the Siege" in en and "perd le Siège" in fr and "you" not in en.lower()


def _chance_for(state: State, cards: list[str]) -> Any:
    """A box of chance whose Defenders' draw shows ``cards`` (in any order)."""
    for seed in range(500):
        state["chance"] = new(seed)["chance"]
        drawn = GAME.apply(state, THEM, "defend")["siege"]["last"]["cards"]
        if sorted(drawn) == sorted(cards):
            return state["chance"]
    raise AssertionError(cards)
