"""Mesopotamia: the expansions' events and event tokens (« 6 cartes Événement » … « 2 jetons
Événement Plaine » … per expansion; designed for this project, ``expansion_events.json``;
RULINGS R-expansion-events): their counts and forms, the setup that shuffles them with the base
tokens of their terrain, each option's effect played through the event step, and random
openings that reveal them under the engine contract."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import events, expansions, exploration
from bot.games.mesopotamia import view as mview
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import advance_seal, seal_case, tech_level
from bot.i18n import LANGUAGES, catalogue, translate
from bot.replay import Step, replay
from tests.contract import NAMES, hidden_from
from tests.test_mesopotamia_actions import play, ready, set_card
from tests.test_mesopotamia_decks import KINDS, _check_effect, _effect_value
from tests.test_mesopotamia_expansions import quoted

CARDS = D.EXPANSION_EVENT_DATA["cards"]
PEOPLE = {"assyrians_hittites": {"assyrian", "hittite"},
          "mariotes_eblaites": {"mariote", "eblaite"}}
EXPANSION_TOKENS = {c["id"] for c in CARDS}

# The event sites of a game without expansions (4 players), recorded from the code before the
# expansions' tokens existed: sites in sorted region order, their tokens. Recorded again when
# Ebla's event site replaced Sippar's (R-start-balance, 29 November): the plain tokens moved
# with the plain sites' order; the desert and mountain tokens are those of the first record.
BEFORE = {
    0: "desert_07 mountain_04 plain_04 plain_08 mountain_02 plain_09 plain_06 "
       "desert_08 mountain_05 desert_04 plain_01 desert_02 desert_10 desert_03 "
       "plain_07 mountain_07 desert_06 plain_05 plain_10 mountain_06 "
       "mountain_01 desert_09 mountain_03 desert_01 plain_03 mountain_08 "
       "plain_12 plain_02 desert_05 plain_11",
    7: "desert_09 mountain_02 plain_04 plain_03 mountain_06 plain_10 plain_02 "
       "desert_05 mountain_08 desert_08 plain_11 desert_01 desert_07 desert_06 "
       "plain_09 mountain_05 desert_03 plain_05 plain_12 mountain_01 "
       "mountain_03 desert_04 mountain_07 desert_10 plain_08 mountain_04 "
       "plain_07 plain_06 desert_02 plain_01",
    2026: "desert_03 mountain_02 plain_04 plain_07 mountain_08 plain_09 plain_08 "
          "desert_01 mountain_03 desert_02 plain_05 desert_05 desert_06 desert_10 "
          "plain_10 mountain_04 desert_04 plain_11 plain_12 mountain_06 "
          "mountain_01 desert_07 mountain_07 desert_09 plain_02 mountain_05 "
          "plain_01 plain_03 desert_08 plain_06",
}


# -- the component lists and the designed cards --------------------------------------------------

@pytest.mark.parametrize("expansion", sorted(D.EXPANSIONS))
def test_each_expansion_has_six_events_and_two_tokens_per_terrain(expansion: str) -> None:
    """« 6 cartes Événement » … « 2 jetons Événement Plaine » … « 2 jetons Événement
    Montagne » … « 2 jetons Événement Désert », for each expansion; one token per card, of
    the card's terrain and number (« cherchez la carte portant le même symbole et le même
    chiffre que sur le jeton »)."""
    quoted("6 cartes Événement", "2 jetons Événement Plaine", "2 jetons Événement Montagne",
           "2 jetons Événement Désert",
           "cherchez la carte portant le même symbole et le même chiffre que sur le jeton")
    mine = [c for c in CARDS if c["expansion"] == expansion]
    per = D.EXPANSION_DATA["rules"]["per_expansion"]
    assert len(mine) == per["events"] == D.EXPANSION_EVENT_DATA["rules"]["per_expansion"][
        "cards"] == 6
    tokens = {t: len(ids) for t, ids in D.EXPANSION_EVENTS[expansion].items()}
    assert tokens == {k: v for k, v in per["event_tokens"].items()} == \
        {"plain": 2, "mountain": 2, "desert": 2}
    numbering = D.EXPANSION_EVENT_DATA["rules"]["numbering"][expansion]
    for card in mine:
        assert card["id"] == f"{card['terrain']}_{card['number']:02d}"
        assert card["number"] in numbering[card["terrain"]]
        assert card["people"] in PEOPLE[expansion] and card["grounding"]


def test_the_tokens_of_a_terrain_go_on_from_its_base_numbers() -> None:
    """With both expansions every token of a terrain has its own number: the base game's
    1..n, then the Assyrians and Hittites', then the Mariotes and Eblaites'."""
    for terrain in D.TERRAINS:
        pool = expansions.event_tokens(terrain, list(D.EXPANSIONS))
        numbers = [events.CARDS[t]["number"] for t in pool]
        assert numbers == list(range(1, len(D.EVENTS[terrain]) + 5)), terrain
        assert all(events.CARDS[t]["terrain"] == terrain for t in pool)
    assert "designed for this project" in D.EXPANSION_EVENT_DATA["grounding"].lower()
    assert "designed for this project" in D.EXPANSION_EVENT_DATA["designed_for"].lower()


def test_the_designed_events_have_the_base_forms_and_value_bands() -> None:
    """The base deck's form (two options of the three kinds, « souvent 1 / 2 / 3 » cases on
    the Event track, one option without a cost), its effect vocabulary (no new effect kind) and
    its value bands (``events.json`` → ``balance``); titles, contexts, option names and texts in
    both languages in the catalogue."""
    balance = D.EVENT_DATA["balance"]
    scale, bands = balance["value_of"], balance["bands"]
    usual = D.EVENT_DATA["rules"]["usual_advance"]
    base_keys = set(D.EVENT_DATA["cards"][0])
    for card in CARDS:
        assert set(card) - {"expansion", "people"} == base_keys
        assert len(card["options"]) == 2
        assert any("pay" not in o["effect"] for o in card["options"]), card["id"]
        for option in card["options"]:
            where = f"{card['id']}/{option['kind']}"
            assert option["kind"] in KINDS and option["advance"] == usual[option["kind"]]
            _check_effect(option["effect"], where)
            score = _effect_value(option["effect"], scale) + option["advance"]
            if option["kind"] == "vp_token":
                assert option["effect"] and 1 <= option["token_vp"] <= 3
                score += scale["vp"] * option["token_vp"]
            if option["kind"] == "control_6_rounds":
                _check_effect(option["per_round"], where)
                _check_effect(option["final"], where)
                score += 6 * _effect_value(option["per_round"], scale)
                score += _effect_value(option["final"], scale)
            low, high = bands[option["kind"]]
            assert low <= score <= high, (where, score)
            step = f"advance {option['advance']} on the event track"
            assert step in option["text"]["en"].lower(), where
            assert "ship" not in option.get("effect", {}).get("units", {})
    for lang in LANGUAGES:
        words = catalogue(lang)
        for card in CARDS:
            assert words[f"mesopotamia.event.{card['id']}"] == card["title"][lang]
            assert card["context"][lang]
            for i, option in enumerate(card["options"], 1):
                name, text = option["name"][lang], option["text"][lang]
                assert words[f"mesopotamia.event_name.{card['id']}.{i}"] == name
                assert words[f"mesopotamia.event_option.{card['id']}.{i}"] == f"{name} — {text}"


def test_no_other_text_names_an_event() -> None:
    """A face-down token's card is a secret (its title too): no other text of the game holds an
    event's title, or a public line (a trade token, a quest, a civilization card) would seem to
    reveal it (the contract's leak check)."""
    for lang in LANGUAGES:
        words = {k: str(v).lower() for k, v in catalogue(lang).items()
                 if k.startswith("mesopotamia.")}
        for card in D.EVENT_CARDS:
            own = (f"mesopotamia.event.{card['id']}", f"mesopotamia.event_name.{card['id']}.",
                   f"mesopotamia.event_option.{card['id']}.")
            title = words[own[0]]
            assert not [k for k, v in words.items() if title in v and not k.startswith(own)], \
                (lang, card["id"])


# -- the setup ------------------------------------------------------------------------------------

def sites_in_order(state: State) -> str:
    return " ".join(state["sites"][r][0] for r in sorted(state["sites"]))


@pytest.mark.parametrize("seed", sorted(BEFORE))
def test_a_game_without_expansions_draws_its_sites_as_before(seed: int) -> None:
    """R-expansion-events: « Placez un jeton au hasard dans chacun des emplacements. » — with
    no expansion, the same seed lays the same tokens on the same sites as before the expansions'
    tokens existed (recorded games replay), with the option ``none`` or by default."""
    for options in ({}, {"expansions": "none"}):
        assert sites_in_order(GAME.setup(seed, 4, options)) == BEFORE[seed]
    assert sites_in_order(GAME.setup(seed, 2, {})) == BEFORE[seed]


@pytest.mark.parametrize("option", ["assyrians_hittites", "mariotes_eblaites", "both"])
def test_the_expansion_tokens_join_the_tokens_of_their_terrain(option: str) -> None:
    """« Mélangez les jetons Événement Plaine circulaires face cachée. Placez un jeton au hasard
    dans chacun des emplacements. » (R-expansion-events): each site holds one token of its
    terrain, from the base game's and the expansions' in play, never twice; over a few seeds
    every token of the expansions in play comes out, and no other expansion's."""
    chosen = expansions.chosen(option)
    allowed = {t for x in chosen for ts in D.EXPANSION_EVENTS[x].values() for t in ts}
    seen: set[str] = set()
    for seed in range(12):
        state = GAME.setup(seed, 4, {"expansions": option})
        tokens = [token for token, up in state["sites"].values() if not up]
        assert len(tokens) == len(set(tokens)) == sum(len(s) for s in D.EVENT_SITES.values())
        for region, (token, _) in state["sites"].items():
            terrain = D.REGIONS[region].terrain
            assert token in expansions.event_tokens(terrain, chosen)
        seen |= set(tokens) & EXPANSION_TOKENS
        left = set(expansions.event_tokens("plain", chosen)) - set(tokens)
        assert left and not any(t in json.dumps(state) for t in left)   # out of the game
    assert seen == allowed


def test_a_seat_guesses_the_face_down_tokens_among_those_of_the_game() -> None:
    """A seat's view shows no face-down token; a state guessed from it (for the AI) deals each
    face-down site a token of its terrain among the base game's and the expansions' in play,
    never one already face up."""
    state = GAME.setup(4, 4, {"expansions": "mariotes_eblaites"})
    region = next(iter(state["sites"]))
    state["sites"][region] = ["plain_15" if D.REGIONS[region].terrain == "plain" else
                              state["sites"][region][0], True]
    shown = GAME.view(state, 0)
    assert all(s["token"] is None for s in shown["sites"].values() if not s["up"])
    guessed: set[str] = set()
    for k in range(20):
        guess = mview.determinize(shown, 0, random.Random(k))
        face_down = [t for r, (t, up) in guess["sites"].items() if not up]
        assert len(face_down) == len(set(face_down))
        for r, (token, up) in guess["sites"].items():
            assert token in expansions.event_tokens(D.REGIONS[r].terrain, ["mariotes_eblaites"])
            assert up or token != state["sites"][region][0]
        guessed |= set(face_down) & EXPANSION_TOKENS
    assert guessed
    assert not guessed & {c["id"] for c in CARDS if c["expansion"] == "assyrians_hittites"}


def test_a_seat_guesses_face_down_tiles_and_quests_among_those_of_the_game() -> None:
    """The same for the face-down Hanging Gardens tiles and the quest cards a seat cannot see
    (R-expansion-decks): guessed among the base game's and the expansions' in play only."""
    state = GAME.setup(4, 4, {"expansions": "mariotes_eblaites"})
    shown = GAME.view(state, 0)
    tiles: set[str] = set()
    quests: set[str] = set()
    for k in range(20):
        guess = mview.determinize(shown, 0, random.Random(k))
        for storey, (tile, up) in enumerate(guess["gardens"], 1):
            assert tile in expansions.garden_tiles(storey, ["mariotes_eblaites"])
            tiles |= set() if up else {tile}
        quests |= set(guess["quests"]["deck"])
    for x, expected in (("mariotes_eblaites", True), ("assyrians_hittites", False)):
        theirs = {t for deck in D.EXPANSION_GARDENS[x].values() for t in deck}
        assert bool(tiles & theirs) is expected, x
        assert bool(quests & set(D.EXPANSION_QUESTS[x])) is expected, x


# -- each option, played ---------------------------------------------------------------------------

Effect = dict[str, Any]
RES, UNITS = "res", "units"
EXPECTED: dict[tuple[str, int], tuple[Effect, Effect, Effect]] = {
    # (card, option) -> (on choosing it, each end of round, the sixth end of round); each a dict
    # of what changes: res, units, population, event (cases), raised (technologies), colony,
    # rampart, quests, storeys, vp (token left face up).
    ("plain_13", 1): ({RES: {"food": -1, "wood": 2, "stone": 1, "tablet": 1}, "event": 1}, {}, {}),
    ("plain_13", 2): ({}, {RES: {"clay": 1}}, {RES: {"tablet": 2}, "colony": 1, "event": 3}),
    ("plain_14", 1): ({RES: {"food": 2, "clay": 1, "phalanx": 1}, "event": 1}, {}, {}),
    ("plain_14", 2): ({RES: {"tablet": 1}, "event": 2, "vp": 3}, {}, {}),
    ("mountain_09", 1): ({RES: {"stone": 1, "phalanx": 1}, UNITS: {"spearman": 1}, "event": 1},
                         {}, {}),
    ("mountain_09", 2): ({}, {RES: {"stone": 1}},
                         {UNITS: {"chariot": 1}, "raised": ["war"], "event": 3}),
    ("mountain_10", 1): ({RES: {"stone": 1, "tablet": 1}, "event": 2, "vp": 2}, {}, {}),
    ("mountain_10", 2): ({}, {RES: {"food": 1}},
                         {RES: {"stone": 1}, "storeys": 1, "population": 1, "event": 3}),
    ("desert_11", 1): ({RES: {"tablet": 2, "food": 1}, "event": 1}, {}, {}),
    ("desert_11", 2): ({}, {RES: {"food": 1}}, {RES: {"phalanx": 1}, UNITS: {"cavalry": 1},
                                                "raised": ["exploration"], "event": 3}),
    ("desert_12", 1): ({RES: {"food": 2}, UNITS: {"archer": 1}, "event": 1}, {}, {}),
    ("desert_12", 2): ({RES: {"stone": -1, "food": 2, "phalanx": 1}, "event": 2, "vp": 2},
                       {}, {}),
    ("plain_15", 1): ({RES: {"wood": 2, "stone": 1, "clay": 1}, "event": 1}, {}, {}),
    ("plain_15", 2): ({}, {RES: {"food": 1}},
                      {RES: {"wood": 2, "tablet": 1}, "colony": 1, "event": 3}),
    ("plain_16", 1): ({RES: {"tablet": 1}, "raised": ["research"], "event": 1}, {}, {}),
    ("plain_16", 2): ({RES: {"tablet": 2}, "event": 2, "vp": 2}, {}, {}),
    ("mountain_11", 1): ({RES: {"tablet": 1, "phalanx": 1}, "event": 2, "vp": 2}, {}, {}),
    ("mountain_11", 2): ({}, {RES: {"phalanx": 1}},
                         {RES: {"stone": 1}, UNITS: {"spearman": 1}, "rampart": 1, "event": 3}),
    ("mountain_12", 1): ({RES: {"food": 2, "tablet": 1}, "event": 1}, {}, {}),
    ("mountain_12", 2): ({RES: {"stone": -1, "food": 2, "clay": 1}, "event": 2, "vp": 2},
                         {}, {}),
    ("desert_13", 1): ({RES: {"food": -1}, UNITS: {"spearman": 1, "archer": 1}, "event": 1},
                       {}, {}),
    ("desert_13", 2): ({RES: {"food": 1, "phalanx": 1}, "event": 2, "vp": 2}, {}, {}),
    ("desert_14", 1): ({"raised": ["exploration"], "event": 1}, {}, {}),
    ("desert_14", 2): ({}, {RES: {"tablet": 1}}, {"quests": 1, "population": 1, "event": 3}),
}


def changes(before: State, after: State, seat: int, region: str) -> Effect:
    """What ``after`` gives ``seat`` more than ``before``, in the keys of :data:`EXPECTED`."""
    p0, p1 = before["players"][seat], after["players"][seat]
    out: Effect = {}
    res = {k: p1["res"][k] - p0["res"][k] for k in p1["res"] if p1["res"][k] != p0["res"][k]}
    mine = Counter(u[1] for u in after["units"] if u[0] == seat and u[2] == region)
    mine.subtract(u[1] for u in before["units"] if u[0] == seat and u[2] == region)
    found: Effect = {
        RES: res, UNITS: {k: n for k, n in mine.items() if n},
        "raised": [a for a in D.ACTIONS
                   if tech_level(after, seat, a) > tech_level(before, seat, a)],
        "colony": int(region in p1["colonies"]) - int(region in p0["colonies"]),
        "rampart": int(region in p1["ramparts"]) - int(region in p0["ramparts"]),
        "quests": len(after["quests"]["hands"][seat]) - len(before["quests"]["hands"][seat]),
        "storeys": p1["ziggurat"] - p0["ziggurat"],
        "vp": (after.get("vp_tokens") or {}).get(region, 0)
        - (before.get("vp_tokens") or {}).get(region, 0),
    }
    for track in D.TRACKS:
        found[track] = seal_case(after, track, seat) - seal_case(before, track, seat)
    out.update({k: v for k, v in found.items() if v})
    return out


def revealed(card: str) -> tuple[State, str, int]:
    """A game with ``card``'s expansion where the current seat (3 of each resource, Population
    case 4, Exploration level 2) has just moved a spearman onto ``card``'s face-down token, on a
    site of its terrain next to its start region when there is one: the state, the region and
    the seat."""
    state = ready(4, options={"expansions": events.CARDS[card]["expansion"]})
    seat = state["current"]
    state["players"][seat]["res"].update(dict.fromkeys(D.RESOURCES, 3))
    for _ in range(3):
        advance_seal(state, "population", seat)
    set_card(state, seat, "exploration", 2)
    start = state["players"][seat]["start"]
    open_sites = [r for r in exploration.moves_from(state, seat, start) if r in state["sites"]
                  and r not in state["blockers"] and not state["tribes"].get(r)]
    region = min(open_sites, key=lambda r: D.REGIONS[r].terrain != events.CARDS[card]["terrain"])
    state["sites"][region] = [card, False]
    state = play(state, "use exploration pawn", f"activate spearman {start}", f"move {region}")
    assert state["event"] == {"seat": seat, "region": region, "card": card}
    return state, region, seat


@pytest.mark.parametrize(("card", "option"), sorted(EXPECTED))
def test_each_expansion_event_option_does_what_its_card_says(card: str, option: int) -> None:
    """« Donnez ensuite la carte Événement au joueur qui l'a révélé, qui doit choisir entre
    l'option 1 et 2. » — each option of the designed cards, chosen by its revealer: its
    immediate effect and the token removed (« Le jeton Événement est retiré du plateau. »), or
    left face up worth its VP (« le jeton Événement reste sur le plateau face visible »), or six
    ends of round that give the per-round gain and then the final reward (« À la fin de la
    Manche 6 : gagnez la récompense finale ; retirez la carte et le jeton Événement du jeu ;
    avancez sur la piste Événement »)."""
    chosen, per_round, final = EXPECTED[(card, option)]
    state, region, seat = revealed(card)
    kind = events.CARDS[card]["options"][option - 1]["kind"]
    step = next(n for n in (a.notation for a in GAME.legal(state, seat))
                if n.split()[:3] == ["event", card, str(option)])
    label = translate(next(a.label for a in GAME.legal(state, seat) if a.notation == step),
                      "en", NAMES)
    assert events.CARDS[card]["options"][option - 1]["name"]["en"] in label
    done = GAME.apply(state, seat, step)
    assert changes(state, done, seat, region) == chosen
    assert done["players"][seat]["events_resolved"] == 1 and not done["event"]
    if kind == "immediate":
        assert region not in done["sites"]
    elif kind == "vp_token":
        assert done["sites"][region] == [card, True]
        assert GAME.view(done, None)["sites"][region]["token"] == card
    else:
        assert done["sites"][region] == [card, True]
        assert events.running(done, seat) == [
            {"seat": seat, "card": card, "option": option - 1, "region": region, "face": 1}]
        before = json.loads(json.dumps(done))
        for _ in range(5):
            start = json.loads(json.dumps(done))
            assert events.end_of_round(done) == []
            assert changes(start, done, seat, region) == per_round
        start = json.loads(json.dumps(done))
        finished = events.end_of_round(done)
        assert finished and region not in done["sites"] and not events.running(done, seat)
        reward = events.CARDS[card]["options"][option - 1]["final"]
        events.finish(done, finished[0], events.reward_choices(done, seat, reward)[0])
        last = changes(start, done, seat, region)   # the sixth gain, then the final reward
        res = Counter(last.pop(RES, {}))
        res.subtract(per_round[RES])
        if any(res.values()):
            last[RES] = {k: v for k, v in res.items() if v}
        assert last == final
        assert changes(before, done, seat, region)["event"] == 3


def test_a_revealed_expansion_event_is_told_and_drawn() -> None:
    """« Quand vous piochez une carte Événement, vous devez lire les éléments suivants à voix
    haute : 1. Le titre de l'Événement » — the revealer's prompt names the card in both
    languages, the public report of the choice names the option, and the board draws the token
    face up."""
    from render.context import RenderContext
    from render.mesopotamia import RENDERER
    state, region, seat = revealed("desert_13")
    prompt = GAME.prompt(state, seat)
    assert prompt is not None
    assert "Hanean Herdsmen" in translate(prompt.text, "en", NAMES)
    assert "Pasteurs hanéens" in translate(prompt.text, "fr", NAMES)
    action = GAME.parse(state, seat, "event desert_13 2")
    done = GAME.apply(state, seat, "event desert_13 2")
    report = GAME.report(state, seat, action, done)
    assert "Share the pastures" in translate(report.public, "en", NAMES)
    assert "Partager les pâturages" in translate(report.public, "fr", NAMES)
    public = GAME.view(done, None)
    assert public["sites"][region] == {"terrain": D.REGIONS[region].terrain,
                                       "token": "desert_13", "up": True}
    assert RENDERER.png(public, RenderContext(NAMES, "en"))


# -- random openings ------------------------------------------------------------------------------

def opening(seed: int, option: str, steps: int) -> tuple[State, list[Step], set[str]]:
    """``steps`` random legal steps of a game of 3 with ``option``, a move onto a face-down
    event token taken when there is one: the state, the log and the expansion events
    revealed."""
    rng = random.Random(f"expansion events:{seed}")
    state = GAME.setup(seed, 3, {"expansions": option})
    log: list[Step] = []
    shown: set[str] = set()
    while GAME.outcome(state) is None and len(log) < steps:
        seat = rng.choice(GAME.active(state))
        legal = [a.notation for a in GAME.legal(state, seat)]
        onto = [n for n in legal if n.startswith("move ") and n.split()[1] in state["sites"]
                and not state["sites"][n.split()[1]][1]]
        step = rng.choice(onto or legal)
        state = GAME.apply(state, seat, step)
        log.append(Step(seat, step))
        if state.get("event"):
            shown |= {state["event"]["card"]} & EXPANSION_TOKENS
    return state, log, shown


@pytest.mark.parametrize("option", ["assyrians_hittites", "mariotes_eblaites", "both"])
def test_random_openings_reveal_expansion_events_under_the_contract(option: str) -> None:
    """Random openings with each expansions value reveal expansion events; replaying the log
    gives the same state; no view holds a face-down token or the name of its card, nor a token
    left out of the game."""
    chosen = expansions.chosen(option)
    allowed = {c["id"] for c in CARDS if c["expansion"] in chosen}
    shown_all: set[str] = set()
    for seed in range(3):
        laid = {t for t, _ in GAME.setup(seed, 3, {"expansions": option})["sites"].values()}
        left = {t for terrain in D.TERRAINS for t in expansions.event_tokens(terrain, chosen)
                if t not in laid}
        assert len(left) == 6 * len(chosen)     # 2 per terrain and expansion are left out
        state, log, shown = opening(seed, option, 400)
        shown_all |= shown
        assert shown <= allowed
        again = replay(GAME, seed, 3, {"expansions": option}, log)
        assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)
        for seat in (None, *range(3)):
            seen = json.dumps(GAME.view(state, seat), ensure_ascii=False).lower()
            assert not [h for h in hidden_from(GAME.secrets(state), seat, 3) if h in seen]
            for token, up in state["sites"].values():
                assert up or f'"{token}"' not in seen
            assert not [t for t in left if f'"{t}"' in seen]
        assert not [t for t in left if t in json.dumps(state)]   # out of the game, unseen
        assert shown <= laid
    assert shown_all, "no expansion event revealed"
