"""Mesopotamia's two expansions (« EXTENSION : ASSYRIENS ET HITTITES », « EXTENSION : MARIOTES ET
ÉBLAÏTES »): their counts against the component lists, the ``expansions`` option and the draft,
the four empires' setup bonuses sentence by sentence (« MISE EN PLACE DU PLATEAU DE JOUEUR »),
the Hittite reroll and the Eblaite Ship as steps, and the seal orders of all eight empires."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from bot.engine import IllegalMove, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import expansions, texts
from bot.games.mesopotamia.engine import GAME
from bot.i18n import LANGUAGES, catalogue, translate
from bot.replay import Step, replay
from tests.contract import NAMES, hidden_from

SEED = Path(os.environ.get(
    "MESOPOTAMIA_SEED",
    Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_5aa664732721ab18.txt"))
EXPANSION_EMPIRES = ("assyrian", "hittite", "mariote", "eblaite")


def rulebook() -> str:
    """The seed's text, whitespace collapsed (a list line is broken across lines there)."""
    if not SEED.exists():
        pytest.skip("the rulebook is not on this machine")
    return " ".join(SEED.read_text(encoding="utf-8").split())


def quoted(*pieces: str) -> None:
    """Each piece is a verbatim substring of the rulebook."""
    text = rulebook()
    for piece in pieces:
        assert " ".join(piece.split()) in text, piece


def set_up(empires: list[str], option: str = "both", seed: int = 5,
           until: str = "quests", dice: str = "chance") -> State:
    """A game whose seat i takes role i and ``empires[i]``; start regions the first free
    ones; bonuses the first option (a white die, the Elamites decline, the first river
    section); then every seat returns its first quest card when ``until`` is ``actions``."""
    state = GAME.setup(seed, len(empires), {"expansions": option, "dice": dice})
    while state["phase"] != until:
        seat = GAME.active(state)[0]
        options = [a.notation for a in GAME.legal(state, seat)]
        pick = {"roles": f"role {'abcd'[seat]}", "empires": f"empire {empires[seat]}"}.get(
            state["phase"])
        if pick is None or pick not in options:
            pick = next((o for o in options if o in ("die white", "decline")), options[0])
        state = GAME.apply(state, seat, pick)
    return state


def seat_of(state: State, empire: str) -> int:
    return next(s for s, p in enumerate(state["players"]) if p["empire"] == empire)


def levels(state: State, seat: int) -> dict[str, int]:
    """Each action's technology level on ``seat``'s board."""
    return {a: D.TECH_CARD[D.CIV_TECH[c]][1] for a, c in state["players"][seat]["tech"].items()}


def said(text: object) -> list[str]:
    return [translate(text, lang, NAMES) for lang in LANGUAGES]  # type: ignore[arg-type]


# -- the component lists ----------------------------------------------------------------------


def test_the_component_lists_counts() -> None:
    """« 24 cartes Civilisation hittite » … « 23 cartes Civilisation assyrienne » … « 23 cartes
    Civilisation éblaïte » … « 18 cartes Civilisation mariote »; per empire « 3 figurines Archer
    hittite » … « 3 Remparts hittites » … « 2 Sceaux hittites » … « 3 Colonies hittites » … « 6
    Amphores hittites » … « 3 dés Événement hittites » … « 1 Ziggurat hittite (7 pièces) »; per
    expansion « 6 cartes Quête » … « 8 jetons Échange » … « 2 jetons Événement Plaine »."""
    rules = D.EXPANSION_DATA["rules"]
    quoted(rules["civilization_cards"]["_source"].split(" … ")[0],
           *rules["figures_per_empire"]["_source"].split(" … "),
           *rules["pieces_per_empire"]["_source"].split(" … "),
           *rules["per_expansion"]["_source"].split(" … "))
    quoted("24 cartes Civilisation hittite", "23 cartes Civilisation assyrienne",
           "23 cartes Civilisation éblaïte", "18 cartes Civilisation mariote",
           "3 figurines Archer éblaïte", "2 figurines Béliet mariote", "3 Remparts mariotes",
           "2 Sceaux éblaïtes", "3 Colonies mariotes", "6 Amphores éblaïtes",
           "3 dés Événement mariotes", "1 Ziggurat éblaïte (7 pièces)")
    cards = {e: len(D.ALL_EMPIRES[e].civilization) for e in EXPANSION_EMPIRES}
    assert cards == {"hittite": 24, "assyrian": 23, "eblaite": 23, "mariote": 18}
    assert {k: v for k, v in rules["civilization_cards"].items() if k != "_source"} == cards
    for key in ("figures_per_empire", "pieces_per_empire"):
        plain = {k: v for k, v in rules[key].items() if not k.startswith("_")}
        assert plain == {k: v for k, v in D.EMPIRE_DATA["rules"][key].items()
                         if not k.startswith("_") and k != "ruling"}
    per = rules["per_expansion"]
    assert (per["quests"], per["events"], per["combat_cards"], per["garden_tiles"],
            per["trade_tokens"], per["standard_of_ur"]) == (6, 6, 6, 5, 8, 1)
    assert per["event_tokens"] == {"plain": 2, "mountain": 2, "desert": 2}
    assert per["dingir_dice"] == {"black": 4, "silver": 4, "white": 4}
    # the text's list has one such block per expansion
    assert rulebook().count("6 cartes Quête 6 cartes Événement 6 cartes Combat") == 2


def test_each_expansion_card_is_a_technology_once_and_says_it_was_designed() -> None:
    """The cards are the 24 technology cards minus the level-1 cards of the technologies the
    empire starts above level 1 (R-expansion-empires); the file says it was designed."""
    assert "designed for this project" in D.EXPANSION_DATA["designed_for"]
    for empire in EXPANSION_EMPIRES:
        e = D.ALL_EMPIRES[empire]
        start = dict(e.technologies)
        techs = [t for _, t in e.card_tech]
        assert len(set(techs)) == len(techs)
        assert set(techs) == {t for t, (a, lv) in D.TECH_CARD.items() if lv >= start[a]}
        assert all(card.startswith(f"{empire}_") for card in e.civilization)


def test_every_empire_has_a_name_in_both_languages() -> None:
    for lang in LANGUAGES:
        words = catalogue(lang)
        for empire in (*D.EMPIRES, *EXPANSION_EMPIRES):
            assert words[f"mesopotamia.empire.{empire}"]
        for expansion in D.EXPANSIONS:
            assert words[f"mesopotamia.expansion.{expansion}"]
        assert "both" in words["mesopotamia.option.expansions"]


# -- the option and the draft -----------------------------------------------------------------


def test_the_expansions_option_lists_its_values() -> None:
    spec = next(o for o in GAME.meta.options if o.name == "expansions")
    assert spec.choices == ("auto", "none", "assyrians_hittites", "mariotes_eblaites", "both")
    assert spec.default == "auto"


@pytest.mark.parametrize("option, extra", [
    ("none", []), ("assyrians_hittites", ["assyrian", "hittite"]),
    ("mariotes_eblaites", ["mariote", "eblaite"]),
    ("both", ["assyrian", "hittite", "mariote", "eblaite"])])
def test_the_draft_offers_the_empires_of_the_expansions_in_play(option: str,
                                                               extra: list[str]) -> None:
    state = GAME.setup(1, 2, {"expansions": option})
    state = GAME.apply(state, 0, "role a")
    offered = [a.notation for a in GAME.legal(state, GAME.active(state)[0])]
    assert offered == [f"empire {e}" for e in [*D.EMPIRES, *extra]]
    assert ("expansions" in state) == (option != "none")


def test_an_empire_of_an_expansion_not_in_play_is_refused_by_name() -> None:
    state = GAME.apply(GAME.setup(1, 2, {"expansions": "assyrians_hittites"}), 0, "role a")
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, "empire mariote")
    text = " ".join(said(refused.value.reason))
    assert "Mariotes and Eblaites" in text and "Mariotes et Éblaïtes" in text
    assert GAME.apply(state, 0, "empire hittite")["players"][0]["empire"] == "hittite"


# -- the four empires' setup ------------------------------------------------------------------


def test_assyrians_start_with_astronomy() -> None:
    """« Commence avec la Technologie d'Exploration niv. 2 : Astronomie »"""
    quoted("Commence avec la Technologie d'Exploration niv. 2 : Astronomie")
    state = set_up(["assyrian", "sumerian"])
    seat = seat_of(state, "assyrian")
    assert D.CIV_TECH[state["players"][seat]["tech"]["exploration"]] == "astronomy"
    assert levels(state, seat) == {**dict.fromkeys(D.ACTIONS, 1), "exploration": 2}
    assert "assyrian_cartography" not in state["players"][seat]["civ"]


def test_assyrian_seal_on_the_2nd_box_of_the_event_track() -> None:
    """« Commence avec son Sceau sur la 2e case de la piste Événement » / « Placez le Sceau
    assyrien sur la 2e case de la piste. »"""
    quoted("Commence avec son Sceau sur la 2e case de la piste Événement",
           "Placez le Sceau assyrien sur la 2e case de la piste.")
    state = set_up(["akkadian", "assyrian"])
    assert state["seals"]["event"] == [[1, 2], [0, 1]]
    assert state["seals"]["population"][0][1] == 1


def test_hittites_start_with_every_technology_at_level_1() -> None:
    """« Commence avec toutes les Technologies niveau 1 »"""
    quoted("Commence avec toutes les Technologies niveau 1")
    state = set_up(["hittite", "babylonian"])
    assert levels(state, 0) == dict.fromkeys(D.ACTIONS, 1)
    assert len(state["players"][0]["civ"]) == 24 - 6


def test_mariotes_start_with_every_technology_at_level_2() -> None:
    """« Commence avec toutes les Technologies niveau 2 »"""
    quoted("Commence avec toutes les Technologies niveau 2")
    state = set_up(["elamite", "mariote"])
    assert levels(state, 1) == dict.fromkeys(D.ACTIONS, 2)
    assert len(state["players"][1]["civ"]) == 18 - 6
    assert all(D.TECH_CARD[D.CIV_TECH[c]][1] > 2 for c in state["players"][1]["civ"])


def test_eblaites_start_with_woodworking() -> None:
    """« Commence avec la Technologie de Construction niv. 2 : Travail du bois »"""
    quoted("Commence avec la Technologie de Construction niv. 2 : Travail du bois")
    state = set_up(["eblaite", "akkadian"])
    assert D.CIV_TECH[state["players"][0]["tech"]["construction"]] == "woodworking"
    assert levels(state, 0) == {**dict.fromkeys(D.ACTIONS, 1), "construction": 2}


def test_eblaites_put_a_ship_on_a_river_next_to_their_start_region() -> None:
    """« Commence avec un Navire sur un fleuve près de sa Région de départ » (R-eblaite-ship):
    a choice among the sections one bank of which is the start region, in the bonuses."""
    quoted("Commence avec un Navire sur un fleuve près de sa Région de départ")
    state = set_up(["akkadian", "eblaite"], until="bonus")
    start = state["players"][1]["start"]
    assert GAME.active(state) == [1]
    prompt = GAME.prompt(state, 1)
    assert prompt is not None and "river" in said(prompt.text)[0]
    offered = [a.notation for a in GAME.legal(state, 1)]
    assert offered and all(D.SECTIONS[n.split()[1]].banks.count(start) == 1 for n in offered)
    assert offered == [f"launch {s}" for s in D.SECTIONS if start in D.SECTIONS[s].banks]
    far = next(s for s in D.SECTIONS if start not in D.SECTIONS[s].banks)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 1, f"launch {far}")
    assert "start region" in said(refused.value.reason)[0]
    after = GAME.apply(state, 1, offered[-1])
    assert [1, "ship", offered[-1].split()[1]] in after["units"]
    assert after["phase"] == "quests"
    public = GAME.report(state, 1, GAME.parse(state, 1, offered[-1]), after)
    assert all("Ship" in s or "Navire" in s for s in said(public.for_seat(None)))


@pytest.mark.parametrize("start", sorted(D.START_REGIONS.values()))
def test_every_start_region_has_a_river_for_the_eblaite_ship(start: str) -> None:
    assert any(start in s.banks for s in D.SECTIONS.values())


def test_only_the_eblaites_launch_a_ship() -> None:
    state = set_up(["assyrian", "hittite", "mariote", "sumerian"], until="quests")
    assert not [u for u in state["units"] if u[1] == "ship"]


# -- the Hittite reroll ---------------------------------------------------------------------


def quick(state: State, seat: int) -> str:
    """A short step: end the turn when allowed, else the pawn's Growth, else the first."""
    legal = [a.notation for a in GAME.legal(state, seat)]
    return next((n for n in ("end", "use growth pawn") if n in legal), legal[0])


def until_turn(state: State, seat: int, round_: int) -> State:
    """Short steps until ``seat``'s turn of round ``round_`` begins."""
    for _ in range(2000):
        if state["phase"] == "actions" and state["current"] == seat and \
                state["round"] == round_ and not state["t"]["done"]:
            return state
        current = GAME.active(state)[0]
        state = GAME.apply(state, current, quick(state, current))
    raise AssertionError("the turn never came")


def hittite_turn(empires: list[str], dice: str = "chance") -> tuple[State, int]:
    """The state at the start of the Hittites' first turn, two white dice given to them (as
    if two storeys were built: an empire starts without a die but the Sumerians)."""
    state = set_up(empires, until="actions", dice=dice)
    seat = seat_of(state, "hittite")
    state["players"][seat]["dice"] = ["white", "white"]
    return until_turn(state, seat, 1), seat


def test_hittites_reroll_any_dice_once_a_turn_for_free() -> None:
    """« Peut relancer le nombre de dés Dingir qu'il souhaite, une fois par Tour »
    (R-hittite-reroll): free, besides the three Tablet rerolls, once a turn."""
    quoted("Peut relancer le nombre de dés Dingir qu'il souhaite, une fois par Tour")
    state, seat = hittite_turn(["babylonian", "hittite"])
    state["t"].update(dice=["dingir", "dingir"], used=[False, False])
    offered = [a.notation for a in GAME.legal(state, seat) if a.notation.startswith("freeroll")]
    assert offered == ["freeroll 1", "freeroll 2", "freeroll 1 2"]
    tablets = state["players"][seat]["res"]["tablet"]
    after = GAME.apply(state, seat, "freeroll 1 2")
    assert after["players"][seat]["res"]["tablet"] == tablets
    assert after["t"]["rerolls"] == 0 and after["t"]["freeroll"] is True
    assert not [a for a in GAME.legal(after, seat) if a.notation.startswith("freeroll")]
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(after, seat, "freeroll 1")
    assert "once a turn" in said(refused.value.reason)[0]
    public = GAME.report(state, seat, GAME.parse(state, seat, "freeroll 1 2"), after)
    en, fr = said(public.for_seat(None))
    assert "for free" in en and "gratuitement" in fr


def test_a_used_die_is_not_rerolled_for_free() -> None:
    state, seat = hittite_turn(["babylonian", "hittite"])
    state["t"].update(dice=["dingir", "dingir"], used=[True, False])
    offered = [a.notation for a in GAME.legal(state, seat) if a.notation.startswith("freeroll")]
    assert offered == ["freeroll 2"]


def test_the_free_reroll_comes_back_next_turn() -> None:
    state, seat = hittite_turn(["hittite", "babylonian"])
    state = GAME.apply(state, seat, "freeroll 1")
    assert not any(a.notation == "freeroll 1" for a in GAME.legal(state, seat))
    state = until_turn(state, seat, 2)
    assert not state["t"].get("freeroll")
    assert any(a.notation == "freeroll 1" for a in GAME.legal(state, seat))


def test_other_empires_never_reroll_for_free() -> None:
    first = set_up(["babylonian", "hittite"], until="actions")
    other = first["current"]
    assert first["players"][other]["empire"] == "babylonian"
    first["players"][other]["dice"] = ["white"]       # a die to reroll, but not for free
    first["t"].update(dice=["dingir"], used=[False])
    assert not [a for a in GAME.legal(first, other) if a.notation.startswith("freeroll")]
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(first, other, "freeroll 1")
    assert "only the Hittites" in said(refused.value.reason)[0]


def test_no_free_reroll_without_chance() -> None:
    """The no-chance variant rolls no die: nothing to reroll (R-hittite-reroll)."""
    state, seat = hittite_turn(["hittite", "sumerian"], dice="no_chance")
    while None in state["t"]["dice"]:
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    assert not [a for a in GAME.legal(state, seat) if a.notation.startswith("freeroll")]


# -- the expansion empires' variant cards ---------------------------------------------------


def first_turn(empires: list[str], empire: str) -> tuple[State, int]:
    """The state at the start of ``empire``'s first turn, and its seat."""
    state = set_up(empires, until="actions")
    seat = seat_of(state, empire)
    return until_turn(state, seat, 1), seat


def test_the_hittite_agriculture_spends_two_food() -> None:
    """The Hittite Agriculture, a designed variant (R-variants, R-expansion-empires): 2 Food
    for a Population step, where the common card (the Akkadians') asks 3; the board reads the
    variant's text in both languages."""
    state, seat = first_turn(["hittite", "akkadian"], "hittite")
    assert state["players"][seat]["tech"]["growth"] == "hittite_agriculture"
    en, fr = said(texts.card_lines(state, seat)[D.ACTIONS.index("growth")])
    assert en == "Agriculture (level 1): Spend 2 Food: move up 1 step on the Population track."
    assert "Dépensez 2 Nourritures" in fr
    assert grows(["hittite", "akkadian"], "hittite", food=2)
    state, seat = first_turn(["hittite", "akkadian"], "akkadian")
    assert state["players"][seat]["tech"]["growth"] == "akkadian_agriculture"
    assert not grows(["hittite", "akkadian"], "akkadian", food=2)


def test_the_mariote_irrigation_spends_one_food() -> None:
    """The Mariote Irrigation (a designed variant): 1 Food for a Population step, where the
    common Irrigation (the Babylonians' start card) asks 2."""
    state, seat = first_turn(["mariote", "babylonian"], "mariote")
    assert state["players"][seat]["tech"]["growth"] == "mariote_irrigation"
    assert grows(["mariote", "babylonian"], "mariote", food=1)
    state, seat = first_turn(["mariote", "babylonian"], "babylonian")
    assert state["players"][seat]["tech"]["growth"] == "babylonian_irrigation"
    assert not grows(["mariote", "babylonian"], "babylonian", food=1)


def grows(empires: list[str], who: str, food: int) -> bool:
    """Whether ``who``'s Growth card, used with ``food`` Food on its first turn, moves its
    Population seal up one case for all of it (else nothing is spent)."""
    state, seat = first_turn(empires, who)
    state["players"][seat]["res"]["food"] = food
    before = dict(state["seals"]["population"])[seat]
    state = GAME.apply(state, seat, "use growth pawn")
    if state["t"]["act"] is None:                      # not enough Food: nothing to do
        assert state["players"][seat]["res"]["food"] == food
        return False
    state = GAME.apply(state, seat, "grow")
    assert state["players"][seat]["res"]["food"] == 0
    assert dict(state["seals"]["population"])[seat] == before + 1
    return True


# -- the seals of all eight empires ---------------------------------------------------------


def test_seal_orders_of_the_eight_empires() -> None:
    """« Tous les autres Sceaux sont sur la 1re case, dans l'ordre suivant : Akkadiens,
    Élamites, Sumériens, Babyloniens, Hittites, Mariotes et Éblaites. » … « Sumériens,
    Élamites, Akkadiens, Éblaites, Mariotes, Hittites et Assyriens. »"""
    quoted("Akkadiens, Élamites, Sumériens, Babyloniens, Hittites, Mariotes et Éblaites.",
           "Sumériens, Élamites, Akkadiens, Éblaites, Mariotes, Hittites et Assyriens.")
    assert D.STACK_ORDER["event"] == ("akkadian", "elamite", "sumerian", "babylonian",
                                      "hittite", "mariote", "eblaite")
    assert D.STACK_ORDER["population"] == ("sumerian", "elamite", "akkadian", "eblaite",
                                           "mariote", "hittite", "assyrian")
    state = set_up(["eblaite", "mariote", "hittite", "assyrian"])
    assert state["seals"]["event"] == [[3, 2], [2, 1], [1, 1], [0, 1]]
    assert state["seals"]["population"] == [[0, 1], [1, 1], [2, 1], [3, 1]]
    state = set_up(["hittite", "babylonian", "eblaite", "elamite"])
    assert [s for s, _ in state["seals"]["event"]] == [3, 1, 0, 2]
    assert state["seals"]["population"] == [[1, 2], [3, 1], [2, 1], [0, 1]]


# -- random games ---------------------------------------------------------------------------


def random_opening(seed: int, option: str, steps: int) -> tuple[State, list[Step]]:
    """``steps`` random legal steps from the setup, expansion empires drafted first."""
    rng = random.Random(f"expansions:{seed}")
    n = 2 + seed % 3
    state = GAME.setup(seed, n, {"expansions": option})
    log: list[Step] = []
    while GAME.outcome(state) is None and len(log) < steps:
        active = GAME.active(state)
        assert active
        seat = rng.choice(active)
        legal = [a.notation for a in GAME.legal(state, seat)]
        assert legal
        mine = [n for n in legal if n.split()[1:] and n.split()[1] in EXPANSION_EMPIRES]
        step = mine[0] if mine else rng.choice(legal)
        state = GAME.apply(state, seat, step)
        log.append(Step(seat, step))
    return state, log


@pytest.mark.parametrize("option", ["assyrians_hittites", "mariotes_eblaites", "both"])
def test_random_openings_replay_and_keep_secrets(option: str) -> None:
    """Random steps with the expansion empires: some seat always acts, the caps hold,
    replaying the log gives the same state, a seat's view holds no other seat's quests."""
    from tests.test_mesopotamia_battles import broken_caps
    for seed in range(3):
        state, log = random_opening(seed, option, 600)
        assert not broken_caps(state)
        assert {p["empire"] for p in state["players"]} & set(EXPANSION_EMPIRES)
        again = replay(GAME, seed, state["n"], {"expansions": option}, log)
        assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)
        for seat in range(state["n"]):
            seen = json.dumps(GAME.view(state, seat), ensure_ascii=False).lower()
            assert not [h for h in hidden_from(GAME.secrets(state), seat, state["n"])
                        if h in seen]


@pytest.mark.slow
@pytest.mark.parametrize("option", ["assyrians_hittites", "mariotes_eblaites", "both"])
def test_random_games_with_the_expansions_end(option: str) -> None:
    """Whole random games with each option end (phase ``over``)."""
    for seed in range(2):
        state, _ = random_opening(seed, option, 60_000)
        assert state["phase"] == "over"


def test_the_expansion_module_words() -> None:
    assert expansions.chosen("both") == list(D.EXPANSIONS)
    assert expansions.chosen("none") == []
    assert expansions.expansion_of("hittite") == "assyrians_hittites"
    assert expansions.expansion_of("sumerian") is None


# -- the expansions' designed decks -----------------------------------------------------------

@pytest.mark.parametrize("expansion", sorted(D.EXPANSIONS))
def test_each_expansion_deck_has_the_listed_counts(expansion: str) -> None:
    """« 6 cartes Quête » … « 5 tuiles Jardins suspendus » … « 8 jetons Échange »: the designed
    decks (R-expansion-decks), one Gardens tile per storey, two trade tokens per level."""
    quoted("6 cartes Quête", "5 tuiles Jardins suspendus", "8 jetons Échange")
    deck = D.EXPANSION_DATA["decks"][expansion]
    per = D.EXPANSION_DATA["rules"]["per_expansion"]
    assert len(deck["quests"]) == per["quests"] == 6
    assert len(deck["gardens"]) == per["garden_tiles"] == 5
    assert len(deck["trade_tokens"]) == per["trade_tokens"] == 8
    assert {s: len(t) for s, t in D.EXPANSION_GARDENS[expansion].items()} == \
        dict.fromkeys(range(1, 6), 1)
    assert {lv: len(t) for lv, t in D.EXPANSION_TRADE[expansion].items()} == \
        dict.fromkeys(range(1, 5), 2)
    assert "designed for this project" in D.EXPANSION_DATA["decks_grounding"].lower()


def test_the_designed_cards_have_the_base_forms_and_scales() -> None:
    """Same keys as the base cards; quest conditions of the known kinds; a Gardens tile worth
    what the base tiles of its storey are worth; unique ids; names and texts EN+FR."""
    base_quest = set(D.QUEST_DATA["cards"][0]) - {"_source"}
    keys = set(D.QUEST_DATA["condition_keys"])
    vp = {t["storey"]: t["vp"] for t in D.GARDEN_DATA["tiles"]}
    ids = [c["id"] for c in (*D.QUEST_CARDS, *D.GARDEN_TILE_DATA, *D.TRADE_TOKEN_DATA)]
    assert len(ids) == len(set(ids))
    for lang in LANGUAGES:
        words = catalogue(lang)
        for deck in D.EXPANSION_DATA["decks"].values():
            for q in deck["quests"]:
                assert set(q) - {"expansion"} == base_quest
                assert set(q["condition"]) <= keys and "hold" in q["condition"]
                assert words[f"mesopotamia.quest.{q['id']}"] == q["name"][lang]
                assert words[f"mesopotamia.quest_text.{q['id']}"] == q["text"][lang]
            for g in deck["gardens"]:
                assert g["vp"] == vp[g["storey"]]
                assert words[f"mesopotamia.garden.{g['id']}"] == g["name"][lang]
            for tok in deck["trade_tokens"]:
                assert sum(tok["gain"].values()) > sum(tok["pay"].values()) or tok["vp"]
                assert words[f"mesopotamia.trade.{tok['id']}"] == tok["name"][lang]
                assert words[f"mesopotamia.trade_text.{tok['id']}"] == tok["text"][lang]


@pytest.mark.parametrize("option", ["none", "assyrians_hittites", "both"])
def test_the_decks_of_the_expansions_in_play_are_shuffled_in(option: str) -> None:
    chosen = expansions.chosen(option)
    state = set_up(["sumerian", "akkadian", "elamite", "babylonian"], option=option)
    quests = sorted([*state["quests"]["deck"], *(q for h in state["quests"]["hands"] for q in h)])
    assert quests == sorted([*D.QUESTS, *(q for x in chosen for q in D.EXPANSION_QUESTS[x])])
    allowed_tiles = {t for x in chosen for ts in D.EXPANSION_GARDENS[x].values() for t in ts}
    allowed_tokens = {t for x in chosen for ts in D.EXPANSION_TRADE[x].values() for t in ts}
    for storey, (tile, _) in enumerate(state["gardens"], 1):
        assert tile in D.GARDEN_TILES[storey] or tile in allowed_tiles
    assert all(t in allowed_tokens or t in D.TRADE_TOKENS[D.SLOT_LEVEL[s]]
               for s, t in state["trade"].items())
    if option == "both":    # over a few seeds, the expansions' tiles and tokens come out
        seen_tiles, seen_tokens = set(), set()
        for seed in range(12):
            board = GAME.setup(seed, 4, {"expansions": option})
            seen_tiles |= {t for t, _ in board["gardens"]} & allowed_tiles
            seen_tokens |= set(board["trade"].values()) & allowed_tokens
        assert seen_tiles and seen_tokens


def test_the_board_draws_the_expansion_empires_in_their_colours() -> None:
    """The picture of a game of the four expansion empires, the Eblaite Ship afloat."""
    from render.context import RenderContext
    from render.mesopotamia import EMPIRE_COLOURS, RENDERER
    state = set_up(["assyrian", "hittite", "mariote", "eblaite"], until="actions")
    assert len({EMPIRE_COLOURS[e] for e in (*D.EMPIRES, *EXPANSION_EMPIRES)}) == 8
    for reader in (None, 0):
        assert RENDERER.png(GAME.view(state, reader), RenderContext(NAMES, "en"))


@pytest.mark.parametrize("expansion", sorted(D.EXPANSIONS))
def test_each_expansion_has_six_combat_cards_on_the_base_rules(expansion: str) -> None:
    """« 6 cartes Combat »: the designed cards follow combat.json's slot rule and the
    advantage of their unit's deck, and join that deck when the expansion is in play."""
    quoted("6 cartes Combat")
    cards = D.EXPANSION_DATA["decks"][expansion]["combat_cards"]
    assert len(cards) == D.EXPANSION_DATA["rules"]["per_expansion"]["combat_cards"] == 6
    base = D.COMBAT_DATA["decks"]
    for card in cards:
        assert card["slots"] == {"force": max(1, 4 - card["force"]),
                                 "tactic": max(1, 3 - card["tactic"]),
                                 "mobility": 2 if card["unit"] in ("cavalry", "chariot") else 1}
        assert card["advantage_over"] == base[card["unit"]]["advantage_over"]
        assert card["name"]["en"] and card["name"]["fr"]
    from bot.games.mesopotamia import standard
    from tests.test_mesopotamia_end import bare
    state = bare(2)
    state["expansions"] = [expansion]
    region = next(r for r in D.REGIONS if D.REGIONS[r].start is None and r not in
                  state["tribes"] and r not in state["blockers"])
    state["units"] += [[0, "chariot", region], [0, "cavalry", region], [0, "spearman", region],
                       [1, "chariot", region], [1, "cavalry", region], [1, "archer", region]]
    drawn: set[str] = set()
    for _ in range(40):
        standard.draw(state, region, (0, 1), 0)
        drawn |= {u["card"] for u in state["fight"]["units"]}
    assert drawn & {c["id"] for c in cards}
    assert all(c in standard.CARDS for c in drawn)


@pytest.mark.slow
@pytest.mark.parametrize("option", ["assyrians_hittites", "mariotes_eblaites", "both"])
def test_ai_games_with_the_expansions_keep_the_contract(option: str) -> None:
    """A whole AI game of 4 with each option under the engine contract (views, secrets in
    reports, every legal step parsed back, determinize): it ends."""
    from host import registry
    from tests.contract import playout
    played = playout(registry.GAMES["mesopotamia"], 4, 2, options={"expansions": option},
                     ai_seats=range(4), density=0.05, images=1)
    assert played.outcome is not None
