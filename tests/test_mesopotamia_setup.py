"""Mesopotamia's setup, rule by rule: each test cites the sentence of the French rulebook
(seed 004) or the ruling of ``data/mesopotamia/RULINGS.md`` it checks. Games are set up with
``GAME.setup`` and played through ``GAME.apply`` with the notation of the steps."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.engine import IllegalMove, NotYourTurn, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import by_role, seal_order, tech_level, unit_limit
from bot.i18n import LANGUAGES, catalogue, translate
from host.registry import GameEntry
from render.mesopotamia import RENDERER
from tests.contract import NAMES, hidden_from, playout

# -- helpers -----------------------------------------------------------------------------


def play(state: State, *steps: str) -> State:
    """Apply ``steps``, each by the first active seat."""
    for step in steps:
        state = GAME.apply(state, GAME.active(state)[0], step)
    return state


def random_setup(seed: int, n: int, options: dict[str, str] | None = None
                 ) -> tuple[State, list[tuple[int, str]]]:
    """A whole setup with random legal steps (and the game's ``options``), and the steps
    taken; every step's report tells each reader (and the public) no secret that reader may
    not read."""
    rng = random.Random(seed)
    state = GAME.setup(seed, n, options or {})
    steps = []
    while state["phase"] != "actions":
        seat = rng.choice(GAME.active(state))
        action = rng.choice(GAME.legal(state, seat))
        steps.append((seat, action.notation))
        after = GAME.apply(state, seat, action)
        report = GAME.report(state, seat, action, after)
        secrets = [*GAME.secrets(state), *GAME.secrets(after)]
        for reader in (None, *range(n)):
            told = " ".join(translate(report.for_seat(reader), lang, NAMES).lower()
                            for lang in LANGUAGES)
            assert not [s for s in hidden_from(secrets, reader, n) if s in told]
        state = after
    return state, steps


def to_quests(n: int, seed: int = 3) -> State:
    """Set up until the quest cards are dealt (roles by seat, first free empire and region;
    the Sumerian takes a white die, the Elamites decline their colony)."""
    state = GAME.setup(seed, n, {})
    while state["phase"] != "quests":
        seat = GAME.active(state)[0]
        options = [a.notation for a in GAME.legal(state, seat)]
        pick = next((o for o in options if o in ("die white", "decline")), options[0])
        state = GAME.apply(state, seat, pick)
    return state


def all_quests(quests: dict[str, list[str] | list[list[str]]]) -> list[str]:
    """The deck and the hands together, sorted."""
    return sorted([*quests["deck"], *(q for hand in quests["hands"] for q in hand)])


def strings(value: object) -> set[str]:
    """Every string value (not key) inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


def seen(state: State, seat: int | None) -> str:
    """Everything ``seat`` reads of a state: its view, and its prompt in every language."""
    texts = [json.dumps(GAME.view(state, seat), ensure_ascii=False)]
    prompt = GAME.prompt(state, seat) if seat is not None else None
    if prompt is not None:
        texts += [translate(prompt.text, lang, NAMES) for lang in LANGUAGES]
    return "\n".join(texts).lower()


# -- the board laid out before any decision ---------------------------------------------


@pytest.mark.parametrize("n, count", [(2, 8), (3, 4), (4, 0)])
def test_blockers_by_player_count(n: int, count: int) -> None:
    """« Dans une partie à 3 joueurs, placez un total de 4 jetons dans les régions avec le
    symbole . Dans une partie à 2 joueurs, placez un total de 8 jetons dans les régions avec le
    symbole ou . »"""
    state = GAME.setup(1, n, {})
    assert len(state["blockers"]) == count
    symbols = {D.REGIONS[r].blocker for r in state["blockers"]}
    assert symbols == {2: {"a", "b"}, 3: {"a"}, 4: set()}[n]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_event_tokens_face_down_by_terrain(n: int) -> None:
    """« Mélangez les jetons Événement Montagne triangulaires face cachée. Placez un jeton au
    hasard dans chacun des emplacements. » (and the same for deserts and plains)."""
    sites = GAME.setup(n, n, {})["sites"]
    assert len(sites) == sum(D.MAP["event_sites"]["by_terrain"].values()) == 30
    tokens = [token for token, _ in sites.values()]
    assert sorted(tokens) == sorted(t for ts in D.EVENTS.values() for t in ts)
    for region, (token, up) in sites.items():
        assert not up and D.REGIONS[region].event_site
        assert token.startswith(D.REGIONS[region].terrain)


def test_neutral_tribes_on_their_sites() -> None:
    """« Placez les figurines Tribu neutre comme indiqué par les symboles. Les Tribus neutres
    défendent les lieux Événement. » — all 3 cavalry, 9 spearmen and 6 archers."""
    tribes = GAME.setup(1, 3, {})["tribes"]
    total: Counter[str] = Counter()
    for region, figures in tribes.items():
        assert D.REGIONS[region].event_site
        total.update(figures)
    assert dict(total) == D.TRIBE_FIGURES == {"cavalry": 3, "spearman": 9, "archer": 6}


@pytest.mark.parametrize("n, per_level", [(2, [1, 2, 1, 2]), (3, [2, 2, 2, 3]),
                                          (4, [3, 3, 3, 3])])
def test_trade_tokens_by_player_count(n: int, per_level: list[int]) -> None:
    """« À 3 joueurs, seuls 9 jetons Échange sont utilisés. » … « 2 jetons pour chaque niveau
    … 1 jeton supplémentaire pour le niveau 4 »; « À 2 joueurs, seuls 6 jetons » … « 1 jeton
    pour chaque niveau … 1 jeton supplémentaire pour le niveau 2 - 1 jeton supplémentaire pour
    le niveau 4 »; at 4, « Pour chaque section, placez 3 jetons au hasard sur le niveau
    approprié »."""
    trade = GAME.setup(5, n, {})["trade"]
    levels = Counter(D.SLOT_LEVEL[slot] for slot in trade)
    assert [levels[lv] for lv in (1, 2, 3, 4)] == per_level
    assert len(set(trade.values())) == len(trade) == sum(per_level)
    for slot, token in trade.items():
        assert token in D.TRADE_TOKENS[D.SLOT_LEVEL[slot]]


def test_one_gardens_tile_per_storey_bottom_one_revealed() -> None:
    """« Choisissez une tuile Jardins suspendus au hasard pour chacun des cinq étages, et
    placez-les face cachée. Retournez la tuile du bas (niveau 1) face visible. »"""
    drawn = set()
    for seed in range(30):
        gardens = GAME.setup(seed, 2, {})["gardens"]
        assert [up for _, up in gardens] == [True, False, False, False, False]
        for storey, (tile, _) in enumerate(gardens, start=1):
            assert tile in D.GARDEN_TILES[storey]
            drawn.add(tile)
    assert len(drawn) == 15


def test_ziggurat_tokens_on_regions_5_and_6() -> None:
    """« Placez un jeton Ziggurat sur les régions 5 et 6, avec le chiffre face cachée. »"""
    assert GAME.setup(1, 4, {})["ziggurats"] == {"carchemish": 5, "eshnunna": 6}


def test_player_counts() -> None:
    """2 to 6 players; 5-6 need an expansion's empires (``tests/test_mesopotamia_large.py``)."""
    for n in (1, 7):
        with pytest.raises(ValueError):
            GAME.setup(1, n, {"expansions": "both"})


# -- the order of the decisions ---------------------------------------------------------


def test_roles_chosen_in_seat_order() -> None:
    """« Le premier joueur assis choisit le rôle disponible qu'il souhaite, puis le deuxième
    joueur et ainsi de suite. » The last seat gets the last role (R-forced-choice)."""
    state = GAME.setup(1, 4, {})
    assert GAME.active(state) == [0]
    assert [a.notation for a in GAME.legal(state, 0)] == ["role a", "role b", "role c", "role d"]
    state = GAME.apply(state, 0, "role c")
    assert GAME.active(state) == [1]
    assert "role c" not in [a.notation for a in GAME.legal(state, 1)]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, "role c")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, "role a")
    state = play(state, "role d", "role a")
    assert [p["role"] for p in state["players"]] == ["c", "d", "a", "b"]
    assert state["log"] == [[3, "role b"]]


@pytest.mark.parametrize("n, roles", [(2, ["a", "b"]), (3, ["a", "b", "c"])])
def test_fewer_players_use_the_first_roles(n: int, roles: list[str]) -> None:
    """« Lors d'une partie à 4, les joueurs reçoivent un rôle de A à D. » With fewer players,
    the first roles only (R-roles, Q-roles-2-3p reading a)."""
    state = GAME.setup(1, n, {})
    assert [a.notation.split()[1] for a in GAME.legal(state, 0)] == roles


def test_empires_a_to_d_then_regions_d_to_a() -> None:
    """« les joueurs choisissent leur Empire dans l'ordre suivant : A choisit en premier, suivi
    de B, puis C, et enfin D. » … « les joueurs élisent leur Région de départ, dans l'ordre
    inversé : D choisit en premier, suivi de C, puis B, et enfin A. »"""
    state = play(GAME.setup(1, 4, {}), "role d", "role b", "role a")  # seat 3 gets c
    assert by_role(state) == [2, 1, 3, 0]
    order = []
    for empire in ("elamite", "sumerian", "akkadian"):
        order.append(GAME.active(state)[0])
        state = play(state, f"empire {empire}")
    assert order == [2, 1, 3]
    assert state["players"][0]["empire"] == "babylonian"  # D's last empire is forced
    assert state["phase"] == "regions"
    order = []
    for region in ("ur", "susa", "nineveh"):
        order.append(GAME.active(state)[0])
        state = play(state, f"start {region}")
    assert order == [0, 3, 1]
    assert state["players"][2]["start"] == "mari"  # A's last region is forced


def test_taken_empire_or_region_is_refused() -> None:
    """Each player chooses among the empires and regions still free: « chaque joueur
    sélectionne l'une d'entre elles pendant son Tour »."""
    state = play(GAME.setup(1, 3, {}), "role a", "role b", "empire akkadian")
    assert "empire akkadian" not in [a.notation for a in GAME.legal(state, 1)]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, "empire akkadian")
    state = play(state, "empire babylonian", "empire sumerian", "start ur")
    assert GAME.active(state) == [1]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, "start ur")
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, "start carchemish")  # region 5: not a start region at 2-4


# -- the empires -----------------------------------------------------------------------


def four_empires() -> State:
    """Roles by seat; seat 0 Sumerians, 1 Babylonians, 2 Akkadians, 3 Elamites; regions
    Mari, Susa, Nineveh, Ur."""
    return play(GAME.setup(2, 4, {}), "role a", "role b", "role c", "empire sumerian",
                "empire babylonian", "empire akkadian", "start ur", "start nineveh",
                "start susa")


def test_every_empire_starts_as_the_rulebook_says() -> None:
    """« Tous les Empires commencent la partie avec les ressources et Unités suivantes : 1
    Pierre 1 Bois 1 Argile 1 Nourriture - 1 Lancier placé dans leur Région de départ », and
    each empire's own lines (« Commence avec 1 Tablette », « Commence avec 1 Phalange »,
    « Commence avec un Archer dans sa Région de départ au lieu d'un Lancier »)."""
    state = four_empires()
    sumer, babylon, akkad, elam = state["players"]
    assert [p["start"] for p in state["players"]] == ["mari", "susa", "nineveh", "ur"]
    basic = {"stone": 1, "wood": 1, "clay": 1, "food": 1}
    assert sumer["res"] == {**basic, "tablet": 1, "phalanx": 0}
    assert babylon["res"] == elam["res"] == {**basic, "tablet": 0, "phalanx": 0}
    assert akkad["res"] == {**basic, "tablet": 0, "phalanx": 1}
    assert sorted(state["units"]) == [[0, "spearman", "mari"], [1, "spearman", "susa"],
                                      [2, "archer", "nineveh"], [3, "spearman", "ur"]]
    assert sumer["ziggurat"] == 1 and [p["ziggurat"] for p in (babylon, akkad, elam)] == [0] * 3


@pytest.mark.parametrize("seat, action, card", [
    (0, "research", "sumerian_mathematics"), (1, "growth", "babylonian_irrigation"),
    (2, "war", "akkadian_archery"), (3, "harvest_trade", "elamite_weights_and_measures")])
def test_level_two_technologies(seat: int, action: str, card: str) -> None:
    """« Commence avec la Technologie de Recherche niv. 2 : Mathématiques » (and Irrigation,
    Tir à l'arc, Poids et mesures); the other five start at level 1, and the 17 other
    civilization cards wait beside the board (R-civ-cards-are-technologies)."""
    player = four_empires()["players"][seat]
    assert player["tech"][action] == card
    assert {a: tech_level(four_empires(), seat, a) for a in D.ACTIONS} == {
        a: 2 if a == action else 1 for a in D.ACTIONS}
    assert len(player["civ"]) == 17
    assert not set(player["civ"]) & set(player["tech"].values())


def test_seals_piled_in_the_rulebook_order() -> None:
    """« Placez le Sceau babylonien sur la 2e case de la piste. Tous les autres Sceaux sont sur
    la 1re case, dans l'ordre suivant : Sumériens, Élamites, Akkadiens » (Population) and
    « Akkadiens, Élamites, Sumériens, Babyloniens » (Event), top first (R-stack-order)."""
    state = four_empires()
    assert state["seals"]["event"] == [[2, 1], [3, 1], [0, 1], [1, 1]]
    assert state["seals"]["population"] == [[1, 2], [0, 1], [3, 1], [2, 1]]
    assert seal_order(state, "population") == [1, 0, 3, 2]
    assert unit_limit(state, 1) == 4 and unit_limit(state, 0) == 2


def test_ziggurat_tokens_on_start_regions_nobody_took() -> None:
    """« Dans chaque Région de départ où aucun joueur n'est présent, placez le jeton Ziggurat
    approprié. »"""
    state = play(GAME.setup(1, 2, {}), "role a", "empire akkadian", "empire elamite",
                 "start susa", "start ur")
    assert state["ziggurats"] == {"nineveh": 2, "mari": 4, "carchemish": 5, "eshnunna": 6}


def test_sumerian_die_and_elamite_colony() -> None:
    """« Commence avec le premier étage de Ziggurat construit, et reçoit donc un dé Dingir »
    (its colour chosen, R-sumerian-die), then « Peut placer 1 Colonie et 1 Rempart sur une
    même région adjacente à sa Région de départ » … « L'Événement de cette région n'est pas
    révélé » (R-elamite-placement), in role order."""
    state = four_empires()
    assert state["phase"] == "bonus" and GAME.active(state) == [0]
    assert [a.notation for a in GAME.legal(state, 0)] == ["die white", "die silver",
                                                          "die black"]
    state = GAME.apply(state, 0, "die black")
    assert state["players"][0]["dice"] == ["black"]
    assert GAME.active(state) == [3]
    options = [a.notation.split()[-1] for a in GAME.legal(state, 3)]
    assert options[-1] == "decline"
    regions = options[:-1]
    assert regions and set(regions) <= set(D.REGIONS["ur"].neighbours)
    for region in regions:
        assert D.REGIONS[region].start is None and not D.REGIONS[region].tribe
        assert region not in state["blockers"]
    site = next((r for r in regions if r in state["sites"]), regions[0])
    after = GAME.apply(state, 3, f"colony {site}")
    assert after["players"][3]["colonies"] == after["players"][3]["ramparts"] == [site]
    assert after["sites"] == state["sites"]  # nothing revealed
    assert GAME.apply(state, 3, "decline")["players"][3]["colonies"] == []
    assert after["phase"] == "quests"


# -- quests --------------------------------------------------------------------------------


def test_quests_four_dealt_three_kept_fourth_back_in_the_deck() -> None:
    """« Mélangez le paquet Quête et distribuez 4 cartes Quête au hasard à chaque joueur.
    Chacun en choisit 3 à garder, et remet la 4e dans le paquet. » All choose at once."""
    state = to_quests(3)
    quests = state["quests"]
    assert [len(h) for h in quests["hands"]] == [4, 4, 4]
    assert len(quests["deck"]) == 18 - 12
    assert GAME.active(state) == [0, 1, 2]
    returned = quests["hands"][1][2]
    state = GAME.apply(state, 1, f"return {returned}")
    assert GAME.active(state) == [0, 2] and GAME.legal(state, 1) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, f"return {state['quests']['hands'][1][0]}")
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, f"return {returned}")  # not in seat 0's hand
    state = play(state, f"return {state['quests']['hands'][0][0]}",
                 f"return {state['quests']['hands'][2][3]}")
    assert state["phase"] == "actions" and GAME.active(state) == [state["order"][0]]
    quests = state["quests"]
    assert [len(h) for h in quests["hands"]] == [3, 3, 3]
    assert returned in quests["deck"] and len(quests["deck"]) == 9
    assert all_quests(quests) == sorted(D.QUESTS)


def test_a_returned_quest_is_not_named_to_the_others() -> None:
    """The choice is secret: everyone reads that a card went back, only its owner which."""
    state = to_quests(2)
    quest = state["quests"]["hands"][0][0]
    action = GAME.parse(state, 0, f"return {quest}")
    report = GAME.report(state, 0, action, GAME.apply(state, 0, action))
    for lang in LANGUAGES:
        name = translate(D.name("quest", quest), lang)
        assert name not in translate(report.public, lang, NAMES)
        assert name in translate(report.for_seat(0), lang, NAMES)


# -- views and secrets ---------------------------------------------------------------------


def test_views_never_show_others_quests_nor_face_down_tokens() -> None:
    """Hands of quest cards are secret (« points cachés des quêtes »), and event tokens and
    upper Gardens tiles lie face down: no view and no prompt shows them to another seat."""
    state = to_quests(4)
    for seat in (None, 0, 1, 2, 3):
        text, values = seen(state, seat), strings(GAME.view(state, seat))
        for other, hand in enumerate(state["quests"]["hands"]):
            assert (other == seat) == (set(hand) <= values)
            assert (other == seat) == bool(set(hand) & values)
        assert not values & {token for token, _ in state["sites"].values()}
        assert values & {tile for tile, _ in state["gardens"]} == {state["gardens"][0][0]}
        for hidden in hidden_from(GAME.secrets(state), seat, 4):
            assert hidden not in text, (seat, hidden)
    mine = GAME.view(state, 2)["quests"]["hand"]
    assert mine == state["quests"]["hands"][2]


def test_secrets_declare_hands_deck_tokens_and_tiles() -> None:
    """Each hand is read by its holder only; the deck, the event tokens and the face-down
    tiles by nobody (the returner knows its card is in the deck)."""
    state = to_quests(2)
    state = play(state, f"return {state['quests']['hands'][0][0]}",
                 f"return {state['quests']['hands'][1][0]}")
    secrets = GAME.secrets(state)
    readers = {translate(s.value, "en") if not isinstance(s.value, str) else s.value:
               s.readers for s in secrets}
    for seat, hand in enumerate(state["quests"]["hands"]):
        for quest in hand:
            assert readers[translate(D.name("quest", quest), "en")] == {seat}
    back = state["quests"]["returned"]
    assert readers[translate(D.name("quest", back[1]), "en")] == {1}
    for token, _ in state["sites"].values():
        assert readers[token] == frozenset()
    assert sum(1 for tile, up in state["gardens"] if not up and readers[tile] == set()) == 4


# -- replay and random setups --------------------------------------------------------------


def test_replay_gives_the_same_state() -> None:
    """The same seed and the same steps give the same state; another seed another board."""
    state, steps = random_setup(11, 4)
    again = GAME.setup(11, 4, {})
    for seat, step in steps:
        again = GAME.apply(again, seat, step)
    assert again == state
    assert GAME.setup(12, 4, {})["sites"] != GAME.setup(11, 4, {})["sites"]


def test_quest_deal_cannot_be_undone() -> None:
    """The step that deals the quest cards reveals them: it cannot be undone."""
    state = four_empires()
    state = GAME.apply(state, 0, "die white")
    assert not GAME.is_reversible(state, 3, GAME.parse(state, 3, "decline"))
    assert GAME.is_reversible(four_empires(), 0, GAME.parse(four_empires(), 0, "die white"))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_setups_hold_every_invariant(n: int) -> None:
    """Random legal setups end in a state where every count of the setup holds."""
    for seed in range(40):
        state, steps = random_setup(seed * 7 + n, n)
        players = state["players"]
        assert state["phase"] == "actions" and GAME.active(state) == [state["order"][0]]
        assert sorted(p["role"] for p in players) == list(D.ROLES[:n])
        assert len({p["empire"] for p in players}) == n
        starts = {p["start"] for p in players}
        assert len(starts) == n and starts <= set(D.START_REGIONS.values())
        assert set(state["ziggurats"]) == set(D.NUMBERED.values()) - starts
        assert all(D.NUMBERED[k] == r for r, k in state["ziggurats"].items())
        assert len(state["units"]) == n
        assert len(state["blockers"]) <= D.BLOCKER_TOKENS
        assert len(set(state["trade"]) & D.SHIP_SLOTS) == (4 if n == 4 else 2)
        for seat, p in enumerate(players):
            assert [s for s, _, at in state["units"] if at == p["start"]] == [seat]
            assert sorted(p["tech"]) == sorted(D.ACTIONS) and len(p["civ"]) == 17
            assert len(p["dice"]) == p["ziggurat"] == (p["empire"] == "sumerian")
            assert len(p["colonies"]) <= 1 and p["colonies"] == p["ramparts"]
            assert len(p["colonies"]) <= D.PIECES["colony"]
            kinds = Counter(kind for s, kind, _ in state["units"] if s == seat)
            assert all(kinds[k] <= D.FIGURES[k] for k in kinds)
        for track in D.TRACKS:
            assert sorted(seal_order(state, track)) == list(range(n))
            assert all(1 <= case < D.TRACK_CASES[track] for _, case in state["seals"][track])
        hands = state["quests"]["hands"]
        assert [len(h) for h in hands] == [D.QUEST_KEPT] * n
        assert all_quests(state["quests"]) == sorted(D.QUESTS)
        assert json.loads(json.dumps(state)) == state
        empires = {p["empire"] for p in players}
        bonuses = len(empires & {"sumerian", "elamite"})
        free = n - (n == len(D.EMPIRES))  # the last empire and region are forced at 4
        assert len(steps) == (n - 1) + 2 * free + bonuses + n


@pytest.mark.slow
def test_every_label_and_prompt_reads_in_both_languages() -> None:
    """Every step's label and prompt is in the catalogue, and every notation parses back
    (the first 1,500 steps of random games: the setup, turns, events and combats)."""
    rng = random.Random(4)
    seen: set[str] = set()
    for n in (2, 3, 4):
        state = GAME.setup(n, n, {})
        for _ in range(1500):
            seen.add(state["phase"])
            seat = GAME.active(state)[0]
            prompt = GAME.prompt(state, seat)
            assert prompt is not None
            for lang in LANGUAGES:
                translate(prompt.text, lang, NAMES)
            for action in GAME.legal(state, seat):
                assert GAME.parse(state, seat, action.notation) == action
                for lang in LANGUAGES:
                    assert translate(action.label, lang, NAMES)
            state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
    assert {"roles", "actions", "events", "combat"} <= seen


def test_determinize_keeps_what_the_seat_knows() -> None:
    """A state guessed from a seat's view gives that seat the same hand and the same steps."""
    rng = random.Random(9)
    state = to_quests(3)
    guess = GAME.determinize(GAME.view(state, 1), 1, rng)
    assert guess["quests"]["hands"][1] == state["quests"]["hands"][1]
    assert GAME.legal(guess, 1) == GAME.legal(state, 1)
    assert all_quests(guess["quests"]) == sorted(D.QUESTS)
    done, _ = random_setup(5, 3)
    guess = GAME.determinize(GAME.view(done, 0), 0, rng)
    assert all_quests(guess["quests"]) == sorted(D.QUESTS)


@pytest.mark.parametrize("n", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4))])
def test_contract_holds_through_whole_games_of_simplified_combat(n: int) -> None:
    """The contract's checks (views, secrets in labels, reports and prompts, notation,
    determinize, replay) hold through a whole random game with the simplified combat, which
    reaches an outcome (« Une fois les cinq étages des Jardins suspendus construits et la
    Manche actuelle terminée … la partie prend fin. »); the standard combat's games, random
    and with an AI seat, are ``tests/test_contract.py``'s."""
    result = playout(GameEntry(GAME, RENDERER), n, 1, options={"combat": "simplified"},
                     density=0.02, images=0, max_steps=60_000)
    assert result.outcome is not None


def test_catalogue_names_are_those_of_the_data() -> None:
    """The names in the catalogue are the data's names (``{"en": ..., "fr": ...}``)."""
    families = [("region", D.MAP["regions"], "name"),
                ("empire", D.EMPIRE_DATA["empires"], "name"),
                ("quest", D.QUEST_DATA["cards"], "name"),
                ("quest_text", D.QUEST_DATA["cards"], "text"),
                ("event", D.EVENT_DATA["cards"], "title"),
                ("garden", D.GARDEN_DATA["tiles"], "name"),
                ("tech_text", D.TECH_DATA["technologies"], "text"),
                ("card_text", [{**c, **c["variant"]} for e in (*D.EMPIRE_DATA["empires"],
                                                             *D.EXPANSION_DATA["empires"])
                               for c in e["civilization_cards"] if c["variant"]], "text")]
    for lang in LANGUAGES:
        known = catalogue(lang)
        for family, items, field in families:
            for item in items:
                assert known[f"mesopotamia.{family}.{item['id']}"] == item[field][lang]
        for colour in D.COLOURS:
            assert f"mesopotamia.colour.{colour}" in known
