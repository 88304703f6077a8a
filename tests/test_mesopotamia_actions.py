"""Mesopotamia's action phase, rule by rule: each test cites the sentence of the French
rulebook (seed 004) or the ruling of ``data/mesopotamia/RULINGS.md`` it checks; then random
legal playouts check the invariants. Games are set up and played through ``GAME`` with the
notation of the steps; a few scenarios set a seat's dice or resources by hand first.

The random playouts go through three whole rounds (action phase, combat phase, end of the
round) and replay each round's log.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot import chance
from bot.engine import IllegalMove, State, Text
from bot.games.mesopotamia import construction, exploration, texts, trade
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import can_advance, seal_case, seal_order, unit_limit, units_of
from bot.i18n import LANGUAGES, translate
from host.registry import GameEntry
from tests.contract import NAMES, hidden_from, playout

# -- helpers -----------------------------------------------------------------------------


def ready(n: int = 4, seed: int = 3, options: dict[str, str] | None = None) -> State:
    """A game set up with the first option of each step (seat s takes role s and the s-th
    empire: Sumerians, Babylonians, Akkadians, Elamites; white die, no Elamite colony), in
    the action phase of round 1."""
    state = GAME.setup(seed, n, options or {})
    while state["phase"] != "actions":
        seat = GAME.active(state)[0]
        options_ = [a.notation for a in GAME.legal(state, seat)]
        state = GAME.apply(state, seat,
                           next((o for o in options_ if o in ("die white", "decline")),
                                options_[0]))
    return state


def legal(state: State) -> list[str]:
    """The current seat's legal notations."""
    return [a.notation for a in GAME.legal(state, state["current"])]


def play(state: State, *steps: str) -> State:
    """Apply ``steps`` by the current seat."""
    for step in steps:
        state = GAME.apply(state, state["current"], step)
    return state


def set_dice(state: State, *faces: str) -> State:
    """The current seat's dice, by hand: one die per face (of a colour that has it)."""
    state = json.loads(json.dumps(state))
    seat = state["current"]
    state["players"][seat]["dice"] = [next(c for c in D.COLOURS if f in D.DIE_FACES[c])
                                      for f in faces]
    state["t"]["dice"], state["t"]["used"] = list(faces), [False] * len(faces)
    return state


def card_signs(state: State, action: str) -> tuple[str, ...]:
    """The signs of the current seat's card of ``action``."""
    return D.TECH_SIGNS[D.CIV_TECH[state["players"][state["current"]]["tech"][action]]]


def set_card(state: State, seat: int, action: str, level: int) -> None:
    """Put ``seat``'s civilization card of ``action`` at ``level`` on its board (by hand; when
    the empire has none of that level, another empire's card without a variant)."""
    player = state["players"][seat]
    tech = D.TECH_AT[(action, level)]
    own = [c for c, t in D.EMPIRES[player["empire"]].card_tech if t == tech]
    card = own[0] if own else next(c for c, t in D.CIV_TECH.items()
                                   if t == tech and c not in D.VARIANT_CARDS)
    player["civ"] = [c for c in player["civ"] if c != card]
    player["tech"][action] = card


# -- the round and the turn ------------------------------------------------------------------


def test_turns_follow_the_population_track() -> None:
    """« Pendant la Phase d'action, les joueurs jouent leur Tour dans l'ordre de la piste
    Population. Le joueur le plus avancé commence, suivi des autres par ordre décroissant. »
    The Babylonians (2nd case) play first, then the pile of case 1 from its top."""
    state = ready(4)
    assert [state["players"][s]["empire"] for s in state["order"]] == [
        "babylonian", "sumerian", "elamite", "akkadian"]
    assert state["order"] == seal_order(state, "population")
    assert GAME.active(state) == [state["order"][0]] and state["round"] == 1


def test_the_order_stays_fixed_for_the_round() -> None:
    """« L'ordre des Tours est déterminé au début de chaque Manche, et reste fixe pour toute sa
    durée. » The Sumerians grow onto the Babylonians' case, on top of them: they lead the
    track, but the Elamites still play next."""
    state = ready(4)
    state = play(state, "use war pawn", "stop", "end")        # the Babylonians
    assert state["current"] == 0
    state["players"][0]["res"]["food"] = 3
    state = play(state, "use growth pawn", "grow")
    assert seal_order(state, "population")[0] == 0 and seal_case(state, "population", 0) == 2
    state = play(state, "end")
    assert state["current"] == 3 and state["order"] == [1, 0, 3, 2]


def test_the_pawn_activates_any_action_once_a_turn() -> None:
    """« Chaque Tour, vous choisissez toujours au moins une action à effectuer. Pour cela,
    placez simplement votre pion Sélection d'action sur l'action désirée. » (R-pawn) — the
    pawn needs no sign; the turn cannot end before an action."""
    state = set_dice(ready(4))
    options = legal(state)
    assert "end" not in options
    assert {f"use {a} pawn" for a in ("research", "harvest_trade", "war", "growth")} <= \
        set(options)
    state = play(state, "use growth pawn", "stop")
    assert not [o for o in legal(state) if o.endswith(" pawn")] and "end" in legal(state)


def test_two_dice_give_a_second_action() -> None:
    """« l'Empire babylonien lance l'action Routes commerciales en plaçant son pion Sélection
    d'action sur l'action correspondante. Il utilise également deux dés Dingir en reproduisant
    les symboles montrés sur l'action Exploration, et gagne ainsi une deuxième action dans le
    même Tour. » (the same with a written action: the pawn on Harvest, two dice on War)."""
    state = ready(4)
    set_card(state, 1, "war", 2)
    signs = card_signs(state, "war")
    assert len(signs) == 2      # « Aux niveaux supérieurs, elles requièrent deux signes »
    state = set_dice(state, signs[1], "ash" if "ash" not in signs else "u", signs[0])
    state = play(state, "use harvest_trade pawn", "stop")
    assert "use war 1 3" in legal(state) and "use war 1 2" not in legal(state)
    state = play(state, "use war 1 3")
    assert state["t"]["used"] == [True, False, True] and state["t"]["done"] == [
        "harvest_trade", "war"]


def test_one_sign_for_level_one() -> None:
    """« Activer des Technologies de niveau 1 ne requiert qu'un seul signe. »"""
    state = ready(4)
    set_card(state, 1, "growth", 1)
    (sign,) = card_signs(state, "growth")
    state = set_dice(state, sign)
    assert "use growth 1" in legal(state)


def test_the_star_stands_for_one_sign() -> None:
    """« Il s'agit d'un signe joker pouvant activer n'importe quelle action. » (R-star-one-sign:
    a two-sign card needs two stars, or a star and its other sign)."""
    state = ready(4)
    set_card(state, 1, "war", 2)
    signs = card_signs(state, "war")
    other = next(s for s in ("ash", "u", "ki", "e") if s not in signs)
    assert "use war 1 2" in legal(set_dice(state, D.STAR, signs[1]))
    assert "use war 1 2" in legal(set_dice(state, D.STAR, D.STAR))
    assert not [o for o in legal(set_dice(state, D.STAR, other)) if o.startswith("use war")
                and not o.endswith("pawn")]
    assert "use war 1" not in legal(set_dice(state, D.STAR))


def test_never_two_actions_of_one_type() -> None:
    """« Vous ne pouvez pas effectuer deux actions du même type dans un même Tour. Vous ne
    pouvez pas effectuer deux actions Recherche, même en vous servant de votre première action
    pour gagner un niveau d'action Recherche. »"""
    state = ready(4)
    state["players"][1]["res"].update(tablet=1, clay=0)   # no conversion left to make
    state = set_dice(state, D.STAR, D.STAR, D.STAR)
    state = play(state, "use research pawn", "discover research")
    assert state["t"]["act"] is None     # nothing left: the action ended by itself
    assert not [o for o in legal(state) if o.startswith("use research")]
    with pytest.raises(IllegalMove):
        play(state, "use research 1 2")


def test_upgrade_then_use_in_the_same_turn() -> None:
    """« Vous pouvez améliorer une Technologie en tant qu'action, puis utiliser la nouvelle
    action comme deuxième action dans le même Tour. » — the dice asked are the new card's."""
    state = ready(4)
    state["players"][1]["res"].update(tablet=1, clay=0)   # no conversion left to make
    before = state["players"][1]["tech"]["war"]
    state = set_dice(state, *D.TECH_SIGNS[D.TECH_AT[("war", 2)]])
    state = play(state, "use research pawn", "discover war")
    card = state["players"][1]["tech"]["war"]
    assert card != before and D.TECH_CARD[D.CIV_TECH[card]] == ("war", 2)
    assert before not in state["players"][1]["civ"]
    assert "use war 1 2" in legal(state)
    state = play(state, "use war 1 2", "phalanx")
    assert state["players"][1]["res"]["phalanx"] == D.CARD_EFFECT[card]["phalanxes"]


def test_rerolls_cost_a_tablet_three_times_a_turn() -> None:
    """« Vous pouvez relancer autant de dés Dingir que vous souhaitez au prix d'1 Tablette. »
    « Le nombre de relances est limité à trois par Tour. » — only dice not yet used; a roll
    draws from the state's chance box, so it cannot be undone, and a replay is exact."""
    state = ready(4)
    state["players"][1]["res"]["tablet"] = 5
    state = set_dice(state, "u", "ki", "ash")
    assert {"reroll 1", "reroll 2 3", "reroll 1 2 3"} <= set(legal(state))
    assert len([o for o in legal(state) if o.startswith("reroll")]) == 7
    action = GAME.parse(state, 1, "reroll 1 3")
    assert not GAME.is_reversible(state, 1, action)
    after = play(state, "reroll 1 3")
    assert chance.drew(state, after) and after["players"][1]["res"]["tablet"] == 4
    assert after == play(state, "reroll 1 3")
    after = play(after, "reroll 2", "reroll 1 2 3")
    assert after["t"]["rerolls"] == 3 and after["players"][1]["res"]["tablet"] == 2
    assert not [o for o in legal(after) if o.startswith("reroll")]
    no_tablet = set_dice(ready(4), "u")
    assert not [o for o in legal(no_tablet) if o.startswith("reroll")]


def test_no_chance_variant_sets_the_dice() -> None:
    """« Vous ne lancez plus les dés Dingir. À la place, tout le monde définit ses dés sur les
    signes désirés, sauf l'Étoile. » (R-no-chance: a face of the die's own colour)."""
    state = ready(4, options={"dice": "no_chance"})
    state = play(state, "use growth pawn", "stop", "end")        # the Babylonians: no die
    assert state["current"] == 0 and state["t"]["dice"] == [None]
    colour = state["players"][0]["dice"][0]
    assert legal(state) == [f"set {s}" for s in dict.fromkeys(D.DIE_FACES[colour])
                            if s != D.STAR]
    state = play(state, legal(state)[0])
    assert None not in state["t"]["dice"]
    assert not [o for o in legal(state) if o.startswith("reroll")]


def test_a_new_turn_rolls_the_dice_and_cannot_be_undone() -> None:
    """R-roll-timing: the bot rolls a player's dice at the start of the turn; the step that
    ends the previous turn draws them, so it cannot be undone."""
    state = play(ready(4), "use growth pawn", "stop")
    action = GAME.parse(state, 1, "end")
    assert not GAME.is_reversible(state, 1, action)
    after = GAME.apply(state, 1, action)
    assert after["current"] == 0 and None not in after["t"]["dice"]
    assert set(after["t"]["dice"]) <= set(D.DIE_FACES[after["players"][0]["dice"][0]])
    fresh = ready(4)
    assert GAME.is_reversible(fresh, 1, GAME.parse(fresh, 1, "use war pawn"))


def test_the_action_phase_ends_after_every_turn() -> None:
    """« Quand tous les joueurs ont terminé leur Tour, la Phase d'action prend fin. » — then
    the combat phase: with no combat and no colony to attack, the next round begins."""
    state = ready(2)
    for _ in range(2):
        state = play(state, *(["set u"] if None in state["t"]["dice"] else []))
        state = play(state, "use growth pawn", "stop", "end")
    assert state["phase"] == "actions" and state["round"] == 2


# -- the actions -------------------------------------------------------------------------------


def test_growth_spends_the_cards_food() -> None:
    """« dépensez la quantité de Nourriture indiquée sur votre carte de Technologie Croissance
    actuelle » « après avoir dépensé la Nourriture requise, votre Population augmente d'un
    niveau. » (R-growth-food: 3, 2, 1 Food; Brassage 2 Food for two steps)."""
    for level, food, steps in ((1, 3, 1), (2, 2, 1), (3, 1, 1), (4, 2, 2)):
        state = ready(4)
        set_card(state, 1, "growth", level)
        state["players"][1]["res"]["food"] = food
        case = seal_case(state, "population", 1)
        state = play(state, "use growth pawn")
        assert legal(state) == ["grow", "stop"]
        state = play(state, "grow")
        assert state["players"][1]["res"]["food"] == 0
        assert seal_case(state, "population", 1) == case + steps
    state = ready(4)
    set_card(state, 1, "growth", 1)
    state["players"][1]["res"]["food"] = 2
    idle = play(state, "use growth pawn")     # nothing to do: it ends at once (R-idle-action)
    assert idle["t"]["act"] is None and idle["t"]["done"] == ["growth"]
    assert legal(idle) == ["end"] and play(state, "use growth pawn", "stop") == \
        {**idle, "t": {k: v for k, v in idle["t"].items() if k != "closed"}}


def test_sumerian_agriculture_spends_two_food() -> None:
    """The Sumerians' Agriculture is a variant: 2 Food for a step, not 3 (« maîtres de … l'art
    délicat de l'irrigation »; R-sumerian-agriculture)."""
    state = ready(2)
    assert state["players"][0]["empire"] == "sumerian" and state["current"] == 1
    state = play(state, *(["set u"] if None in state["t"]["dice"] else []))
    state = play(state, "use growth pawn", "stop", "end")
    assert state["current"] == 0
    state["players"][0]["res"]["food"] = 2
    case = seal_case(state, "population", 0)
    state = play(state, *(["set u"] if None in state["t"]["dice"] else []))
    state = play(state, "use growth pawn", "grow")
    assert state["players"][0]["res"]["food"] == 0
    assert seal_case(state, "population", 0) == case + 1


def test_a_player_reads_what_each_card_does() -> None:
    """The board's cards and an action's prompt say what the card does, with the empire's
    variant (the designed cards are not in the rulebook: a player has nowhere else to read
    them), in the reader's language."""
    state = ready(4)
    sumer = [translate(line, "en") for line in texts.card_lines(state, 0)]
    assert len(sumer) == len(D.ACTIONS)
    assert "Agriculture (level 1): Spend 2 Food: move up 1 step on the Population track." \
        in sumer
    babylon = [translate(line, "fr").replace("\u00a0", " ")      # French spacing
               for line in texts.card_lines(state, 1)]
    assert "Irrigation (niv. 2) : Dépensez 2 Nourritures : avancez d'une case sur la piste " \
        "Population." in babylon
    assert "Maçonnerie (niv. 1) : Construction 2 : construisez 2 structures, différentes ou " \
        "identiques : un Rempart ou un étage de Ziggurat." in babylon
    state = play(state, *(["set u"] if None in state["t"]["dice"] else []))
    state["players"][1]["res"]["food"] = 2
    prompt = GAME.prompt(play(state, "use growth pawn"), 1)
    assert prompt is not None
    first, how = translate(prompt.text, "en").split("\n")
    assert first == "Irrigation (level 2): Spend 2 Food: move up 1 step on the Population track."
    assert how.startswith("Spend Food")


def test_the_last_population_case_holds_one_seal() -> None:
    """« La dernière case de chaque piste ne peut compter qu'un seul Sceau. »
    (R-brewing-two-steps: Brassage's second step stops below a last case already taken)."""
    state = ready(4)
    last = D.TRACK_CASES["population"]
    state["seals"]["population"] = [[0, last], [1, last - 2], [2, 1], [3, 1]]
    set_card(state, 1, "growth", 4)
    state["players"][1]["res"]["food"] = 4
    state = play(state, "use growth pawn", "grow")
    assert seal_case(state, "population", 1) == last - 1
    assert state["t"]["act"] is None and not can_advance(state, "population", 1)


def test_research_converts_once_and_discovers() -> None:
    """« Vous activez Littérature (niv. 3) avec un pion Sélection d'action. Littérature vous
    permet de réaliser jusqu'à deux Découvertes. … Vous avez 1 Tablette et choisissez donc de
    ne faire qu'une Découverte. Vous améliorez Littérature en Codes juridiques (niv. 4), alors
    que vous êtes en train d'utiliser Littérature. » (R-conversion-once: 2 Clay give 3
    Tablets with Littérature)."""
    state = ready(4)
    set_card(state, 1, "research", 3)
    state["players"][1]["res"].update(tablet=1, clay=4)
    state = play(state, "use research pawn", "discover research")
    assert D.CIV_TECH[state["players"][1]["tech"]["research"]] == "law_codes"
    assert state["players"][1]["res"]["tablet"] == 0
    assert legal(state) == ["convert", "stop"]
    state = play(state, "convert")
    assert state["players"][1]["res"]["clay"] == 2 and state["players"][1]["res"]["tablet"] == 3
    assert "convert" not in legal(state)                  # once, at the activated card's rate
    assert state["t"]["act"]["discoveries"] == 1          # the allowance of Littérature


def test_war_gives_phalanxes_and_creates_units() -> None:
    """« En choisissant l'action Guerre qui octroie des Phalanges, vous obtenez la quantité
    indiquée sur la carte de la Technologie. » « vous devez dépenser 1 Bois pour créer une
    Unité. » « Si vous possédez Élevage (niv. 3), vous pouvez créer un Cavalier (niv. 3) ou
    toute autre Unité de niveau inférieur » « L'Unité créée est placée dans votre Région de
    départ, ou toute autre région où vous possédez une Colonie. »"""
    state = ready(4)
    set_card(state, 1, "war", 3)
    state["players"][1]["res"]["wood"] = 2
    start = state["players"][1]["start"]
    state = play(state, "use war pawn")
    assert {f"create {k} {start}" for k in ("spearman", "archer", "cavalry")} == {
        o for o in legal(state) if o.startswith("create")}
    state = play(state, "create cavalry " + start)
    assert [1, "cavalry", start] in state["units"] and state["players"][1]["res"]["wood"] == 1
    assert legal(state) == ["phalanx", "stop"]         # one unit with this card
    state = play(state, "phalanx")
    assert state["players"][1]["res"]["phalanx"] == 3 and state["t"]["act"] is None


def test_units_are_limited_by_the_population_track() -> None:
    """« Une position avancée augmente la limite d'Unités » — no unit beyond the limit beside
    the Population level (R-unit-create)."""
    state = ready(4)
    start = state["players"][1]["start"]
    limit = unit_limit(state, 1)
    state["units"] += [[1, "archer", start]] * (limit - len(units_of(state, 1)))
    state["players"][1]["res"]["wood"] = 3
    assert legal(play(state, "use war pawn")) == ["phalanx", "stop"]


def test_harvest_sources() -> None:
    """« Sélectionnez votre Région de départ pour y récolter la ressource de votre choix »
    « Toute Unité occupant une région avec un symbole de ressource peut récolter celle-ci. »
    « Si plusieurs Unités occupent une même région, chacune d'entre elles peut récolter la
    ressource qui s'y trouve une fois. » « Les Régions de départ, Colonies, Unités ou Navires ne
    peuvent être sélectionnés qu'une fois par action Récolte » (R-harvest-counts: 4 with
    Monnaie)."""
    state = ready(4)
    set_card(state, 1, "harvest_trade", 4)
    start = state["players"][1]["start"]
    field = next(r for r in D.REGIONS[start].neighbours if D.REGIONS[r].resource)
    kind = D.REGIONS[field].resource
    blocked = next(r for r in D.REGIONS.values() if r.blocker and r.resource).id
    state["blockers"].append(blocked)
    state["units"] += [[1, "spearman", field], [1, "archer", field], [1, "archer", blocked]]
    state = play(state, "use harvest_trade pawn")
    assert harvests(state) == {*(f"harvest {start} {k}" for k in D.BASE_RESOURCES),
                               f"harvest {field} {kind}"}
    before = dict(state["players"][1]["res"])
    state = play(state, f"harvest {start} clay", f"harvest {field} {kind}")
    assert harvests(state) == {f"harvest {field} {kind}"}
    state = play(state, f"harvest {field} {kind}")
    res = state["players"][1]["res"]
    assert res["clay"] == before["clay"] + 1 + (kind == "clay")
    assert res[kind] == before[kind] + 2 + (kind == "clay")
    assert harvests(state) == set()


def harvests(state: State) -> set[str]:
    """The current seat's harvest steps."""
    return {o for o in legal(state) if o.startswith("harvest")}


def open_path(state: State, seat: int) -> tuple[str, str, str]:
    """Three regions in a row from ``seat``'s start region, each open to its units, the last
    two without a tribe or a blocker, and their event tokens taken off (a unit stopping on one
    would reveal it at once, R-reveal-timing)."""
    start = state["players"][seat]["start"]
    quiet = [r for r in D.REGIONS if not exploration.closed(state, seat, r)
             and r not in state["tribes"] and r not in state["blockers"]]
    for a in D.REGIONS[start].neighbours:
        for b in D.REGIONS[a].neighbours:
            if a in quiet and b in quiet and b != start:
                state["sites"].pop(a, None)
                state["sites"].pop(b, None)
                return start, a, b
    raise AssertionError("no quiet path")


def test_exploration_moves_a_unit_by_its_speed() -> None:
    """« Chaque Unité activée peut se déplacer un nombre de fois égal à sa Vitesse. » « Un
    Cavalier activé deux fois peut se déplacer 4 fois (2 Vitesse x 2 activations) » « Un
    Lancier et un Cavalier activés une fois peuvent se déplacer 1 fois et 2 fois
    respectivement » (R-activation)."""
    state = ready(4)
    set_card(state, 1, "exploration", 2)
    start, a, b = open_path(state, 1)
    state["units"].append([1, "cavalry", start])
    state = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {a}")
    assert f"move {b}" in legal(state) and "halt" in legal(state) and "stop" not in legal(state)
    state = play(state, f"move {b}")
    count = D.CARD_EFFECT[state["players"][1]["tech"]["exploration"]]["activations"]
    assert count == 3                       # the Babylonian Astronomie (R-variants)
    assert state["t"]["act"]["unit"] is None and state["t"]["act"]["activations"] == 2
    assert [1, "cavalry", b] in state["units"]
    state = play(state, f"activate spearman {start}", f"move {a}")
    assert [1, "spearman", a] in state["units"] and state["t"]["act"]["activations"] == 1


def test_no_entry_into_another_start_region_or_a_ziggurat_region() -> None:
    """« Vous ne pouvez ni attaquer ni traverser la Région de départ d'un autre Empire. » —
    nor a region holding a ziggurat token (the map's reading of [Q-ziggurat-tokens])."""
    state = ready(4)
    others = {p["start"] for s, p in enumerate(state["players"]) if s != 1}
    for region in D.REGIONS:
        for target in exploration.moves_from(state, 1, region):
            assert target not in others and target not in state["ziggurats"]
    assert exploration.closed(state, 1, next(iter(others)))
    assert not exploration.closed(state, 1, state["players"][1]["start"])


def test_an_enemy_unit_blocks_an_entering_unit() -> None:
    """« Si une Unité entre dans une région comptant une Unité ennemie, elle doit s'arrêter
    immédiatement. » « Exception : Si le nombre d'Unités alliées déjà présentes dans la région
    est supérieur ou égal au nombre d'Unités ennemies tous Empires confondus, l'Unité qui y
    entre n'est pas bloquée et peut poursuivre son déplacement. »"""
    state = ready(4)
    set_card(state, 1, "exploration", 2)
    start, a, b = open_path(state, 1)
    state["units"] += [[1, "cavalry", start], [0, "archer", a]]
    blocked = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {a}")
    assert blocked["t"]["act"]["unit"] is None and [1, "cavalry", a] in blocked["units"]
    state["units"].append([1, "archer", a])           # one ally already there: 1 >= 1
    free = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {a}")
    assert f"move {b}" in legal(free)


def test_the_blocking_example() -> None:
    """« Deux Unités sumériennes vont attaquer trois Unités babyloniennes … Les deux Unités
    sumériennes peuvent bloquer jusqu'à deux Unités babyloniennes. La troisième Unité
    babylonienne n'est donc pas bloquée et peut se déplacer librement. … le Cavalier
    babylonien se déplace hors de la région. Le joueur est alors incapable de déplacer son
    Archer, car ses deux Unités babyloniennes restantes sont bloquées » (R-leave)."""
    state = ready(4)
    set_card(state, 1, "exploration", 2)
    _, a, b = open_path(state, 1)
    state["units"] = [u for u in state["units"] if u[0] != 1]
    state["units"] += [[1, "cavalry", a], [1, "archer", a], [1, "spearman", a],
                       [0, "cavalry", a], [0, "spearman", a]]
    state = play(state, "use exploration pawn")
    assert {f"activate {k} {a}" for k in ("cavalry", "archer", "spearman")} <= set(legal(state))
    state = play(state, f"activate cavalry {a}", f"move {b}", "halt")
    assert not [o for o in legal(state) if o.startswith("activate") and o.endswith(f" {a}")]
    assert f"activate cavalry {b}" in legal(state)


def test_ziggurat_storeys_follow_the_population_track() -> None:
    """« Vous ne pouvez pas construire un nombre d'étages de Ziggurat supérieur à votre niveau
    sur la piste Population. » « Vous gagnez un dé Dingir pour chaque étage construit » « Pour
    les 2e et 3e étages, choisissez une couleur que vous ne possédez pas déjà. » — and the
    Babylonian Maçonnerie is « Construction 2 » (R-construction-2): two storeys at case 2."""
    state = ready(4)
    assert D.CARD_EFFECT[state["players"][1]["tech"]["construction"]]["builds"] == 2
    state["players"][1]["res"].update(stone=3, clay=3)
    state = play(state, "use construction pawn")
    assert {"build storey white", "build storey silver", "build storey black"} <= \
        set(legal(state))
    state = play(state, "build storey silver")
    storeys = [o for o in legal(state) if o.startswith("build storey")]
    assert storeys == ["build storey white", "build storey black"]
    state = play(state, "build storey black")
    player = state["players"][1]
    assert player["ziggurat"] == 2 and player["dice"] == ["silver", "black"]
    assert player["res"]["stone"] == 1 and player["res"]["clay"] == 3   # 1 Stone a storey
    assert state["t"]["act"] is None and state["t"]["dice"] == []   # rolled next turn
    assert construction.storey_colours(state, 1) == []              # case 2: 2 storeys


def test_ramparts_and_colonies() -> None:
    """« Rempart et Colonie : constructibles dans toute région où vous possédez au moins une
    Unité. Ne peuvent être construits dans la Région de départ. » (R-rampart-place,
    R-colony-place: one of each per region, none with an enemy unit or a tribe for a Colony)
    — the Colony is unlocked by Urbanisation (niv. 3)."""
    state = ready(4)
    start, a, b = open_path(state, 1)
    state["units"] += [[1, "spearman", a], [1, "archer", b], [0, "archer", b]]
    state["players"][1]["res"].update(stone=9, wood=9, clay=9, food=9)
    level1 = play(state, "use construction pawn")
    assert {o for o in legal(level1) if o.startswith("build rampart")} == {
        f"build rampart {a}", f"build rampart {b}"}
    assert not [o for o in legal(level1) if o.startswith("build colony")]
    set_card(state, 1, "construction", 3)
    state = play(state, "use construction pawn")
    assert {o for o in legal(state) if o.startswith("build colony")} == {f"build colony {a}"}
    state = play(state, f"build colony {a}")
    assert state["players"][1]["colonies"] == [a]
    assert f"{a}" in construction.rampart_regions(state, 1)
    assert a not in construction.colony_regions(state, 1)
    assert start not in construction.rampart_regions(state, 1)


def test_trade_tokens_by_level_and_amphorae() -> None:
    """« vous devez utiliser une Technologie dont le niveau est supérieur ou égal à celui de la
    section Échange où se trouve le jeton. » « si un jeton Échange surplombe un symbole Navire,
    vous devez posséder au moins un Navire » « placez l'une de vos Amphores au-dessus … dépensez
    les ressources indiquées sur la partie gauche du jeton ; gagnez les ressources indiquées sur
    la partie droite. » « vous donnez ces ressources au propriétaire de l'Amphore »"""
    state = ready(4)
    set_card(state, 1, "harvest_trade", 1)
    rich = dict.fromkeys(D.BASE_RESOURCES, 9)
    for player in state["players"]:
        player["res"].update(rich)
    state = play(state, "use harvest_trade pawn")
    offered = [o.split()[1] for o in legal(state) if o.startswith("trade")]
    slots = {t: s for s, t in state["trade"].items()}
    assert offered and all(D.SLOT_LEVEL[slots[t]] == 1 and slots[t] not in D.SHIP_SLOTS
                           for t in offered)
    assert {t for s, t in state["trade"].items()
            if D.SLOT_LEVEL[s] == 1 and s not in D.SHIP_SLOTS} == set(offered)
    token = trade.TOKENS[offered[0]]
    state = play(state, f"trade {offered[0]}")
    assert state["amphorae"] == {slots[offered[0]]: 1}
    for kind in D.RESOURCES:
        change = token["gain"].get(kind, 0) - token["pay"].get(kind, 0)
        assert state["players"][1]["res"][kind] == (9 if kind in rich else 0) + change
    state = play(state, *(["stop"] if state["t"]["act"] else []), "end")
    assert state["current"] == 0
    before = json.loads(json.dumps(state["players"]))
    set_card(state, 0, "harvest_trade", 1)
    state = play(state, "use harvest_trade pawn", f"trade {offered[0]}")
    for kind, count in token["pay"].items():
        assert state["players"][1]["res"][kind] == before[1]["res"][kind] + count
        assert state["players"][0]["res"][kind] == before[0]["res"][kind] - count + \
            token["gain"].get(kind, 0)
    assert state["amphorae"] == {slots[offered[0]]: 1}


def test_ships_are_built_sail_and_harvest() -> None:
    """« Navire : constructible sur toute section fluviale adjacente à votre Région de départ »
    « On considère qu'un Navire s'est déplacé lorsqu'il passe d'une section fluviale à une
    autre en traversant un embranchement » (speed 3) « Un Navire peut récolter une ressource
    dans l'une des régions adjacentes à la section fluviale où il se trouve. » « les Navires ne
    se bloquent pas » — and a ship opens the Trade slots marked with a ship."""
    state = set_dice(ready(4), D.STAR, D.STAR, D.STAR)
    start = state["players"][1]["start"]
    set_card(state, 1, "construction", 2)
    state["players"][1]["res"].update(wood=4, stone=0, clay=0)
    state = play(state, "use construction pawn")
    sections = {o.split()[2] for o in legal(state) if o.startswith("build ship")}
    assert sections == {s.id for s in D.SECTIONS.values() if start in s.banks}
    home = sorted(sections)[0]
    state = play(state, f"build ship {home}")
    assert [1, "ship", home] in state["units"] and state["players"][1]["res"]["wood"] == 2
    state = play(state, *(["stop"] if state["t"]["act"] else []))
    state["units"].append([0, "ship", D.SECTION_NEXT[home][0]])   # an enemy ship: no block
    state = play(state, "use exploration 1", f"activate ship {home}")
    path = [home]
    for _ in range(3):
        options = [o.split()[1] for o in legal(state) if o.startswith("move")]
        assert set(options) == set(D.SECTION_NEXT[path[-1]])
        path.append(options[0])
        state = play(state, f"move {options[0]}")
    assert state["t"]["act"] is None or state["t"]["act"]["unit"] is None
    assert [1, "ship", path[-1]] in state["units"] and state["pending_events"] == []
    set_card(state, 1, "harvest_trade", 2)
    state = play(state, "use harvest_trade 2 3")
    banks = {D.REGIONS[b].resource for b in D.SECTIONS[path[-1]].banks
             if D.REGIONS[b].resource and b not in state["blockers"]}
    assert {o.split()[2] for o in legal(state) if o.startswith(f"harvest {path[-1]}")} == banks
    shipped = {t for slot, t in state["trade"].items() if slot in D.SHIP_SLOTS
               and D.SLOT_LEVEL[slot] <= 2}
    state["players"][1]["res"].update(dict.fromkeys(D.BASE_RESOURCES, 9))
    assert shipped <= {o.split()[1] for o in legal(state) if o.startswith("trade")}


# -- random playouts ------------------------------------------------------------------------


def random_rounds(n: int, seed: int, rounds: int = 3) -> None:
    """Random legal steps from the setup through ``rounds`` whole rounds, checking the
    invariants at every step and the replay of each round's log."""
    rng = random.Random(f"{n}:{seed}")
    options = {"dice": "no_chance"} if seed % 3 == 0 else {}
    state = GAME.setup(seed, n, options)
    log: list[tuple[int, str]] = []
    for number in range(1, rounds + 1):
        start = state
        while GAME.active(state) and state.get("round", number) == number:
            seat = GAME.active(state)[0]
            action = rng.choice(GAME.legal(state, seat))
            after = GAME.apply(state, seat, action)
            report = GAME.report(state, seat, action, after)
            check(after, number, report_texts=[report.for_seat(r) for r in (None, *range(n))])
            log.append((seat, action.notation))
            state = after
        assert state["phase"] == "actions" and state["round"] == number + 1
        again = start
        for seat, notation in log:
            again = GAME.apply(again, seat, notation)
        assert again == state
        log = []


def check(state: State, number: int, report_texts: list[Text]) -> None:
    """The invariants of a state of the rounds."""
    n = state["n"]
    for seat, player in enumerate(state["players"]):
        assert all(v >= 0 for v in player["res"].values()), player["res"]
        if state["phase"] in ("actions", "combat"):
            assert len(units_of(state, seat)) <= max(unit_limit(state, seat), 1)
            kinds = Counter(u[1] for u in units_of(state, seat))
            assert all(kinds[k] <= D.FIGURES[k] for k in kinds)
            assert sorted(player["tech"]) == sorted(D.ACTIONS)
            assert len(player["dice"]) == player["ziggurat"] <= seal_case(
                state, "population", seat)
            assert len(player["colonies"]) <= D.PIECES["colony"]
            assert len(player["ramparts"]) <= D.PIECES["rampart"]
            assert not set(player["tech"].values()) & set(player["civ"])
    assert all(not exploration.closed(state, s, at) for s, kind, at in state["units"]
               if kind != "ship")
    assert all(at in D.SECTIONS for _, kind, at in state["units"] if kind == "ship")
    amphorae = Counter(state.get("amphorae", {}).values())
    assert all(count <= D.PIECES["amphora"] for count in amphorae.values())
    assert set(state.get("amphorae", {})) <= set(state["trade"])
    for pieces in ("colonies", "ramparts"):
        placed = [r for p in state["players"] for r in p[pieces]]
        assert len(placed) == len(set(placed))
    pending = state.get("pending_events", [])
    assert len(pending) == len({tuple(p) for p in pending})
    assert all(not state["sites"][r][1] and r not in state["blockers"] for _, r in pending)
    last = D.TRACK_CASES["population"]
    assert [c for _, c in state["seals"]["population"]].count(last) <= 1
    cases = [c for _, c in state["seals"]["population"]]
    assert cases == sorted(cases, reverse=True)
    if state["phase"] == "actions":
        t = state["t"]
        assert state["round"] in (number, number + 1) and t["rerolls"] <= D.MAX_REROLLS
        assert len(t["done"]) == len(set(t["done"]))
        assert t["pawn"] or t["done"]
    hands = state["quests"]["hands"]
    for seat in (None, *range(n)):
        shown = GAME.view(state, seat)
        assert chance.KEY not in shown and "deck" not in shown["quests"]
        assert "hands" not in shown["quests"]
        assert shown["quests"]["hand"] == (None if seat is None else hands[seat])
    secrets = list(GAME.secrets(state))
    for reader, told in zip((None, *range(n)), report_texts, strict=True):
        read = " ".join(translate(told, lang, NAMES).lower() for lang in LANGUAGES)
        assert not [s for s in hidden_from(secrets, reader, n) if s in read]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_rounds_hold_every_invariant(n: int) -> None:
    """Random legal playouts through three action phases, with and without chance."""
    for seed in range(12):
        random_rounds(n, seed)


@pytest.mark.slow
def test_contract_holds_through_a_whole_game_without_chance() -> None:
    """The contract's checks hold through a whole game of the no-chance variant, which ends
    (« Une fois les cinq étages des Jardins suspendus construits … la partie prend fin. »);
    games with chance are ``tests/test_contract.py``'s."""
    entry = GameEntry(GAME, renderer=None)  # type: ignore[arg-type]  # no pictures here
    result = playout(entry, 2, 7, options={"dice": "no_chance"}, images=0, density=0.02,
                     max_steps=60_000)
    assert result.outcome is not None
