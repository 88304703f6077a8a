"""Data checks for Mesopotamia (``mesopotamia``): the card, tile and token decks.

Files: data/mesopotamia/combat.json, events.json, quests.json, gardens.json and
trade_tokens.json. Their contents were designed for this project (the rulebook, seed
``004_5aa664732721ab18.txt``, describes them without printing them). These checks pin every
count and example the rulebook gives, the shape the engine relies on, and the balance bands the
design promises, so numbers can be tuned without breaking the game. Pure data test: no network,
no engine code.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "mesopotamia"
SEED = Path(
    os.environ.get(
        "MESOPOTAMIA_SEED",
        Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_5aa664732721ab18.txt",
    )
)
LANGS = ("en", "fr")
RESOURCES = ("stone", "wood", "clay", "food", "tablet", "phalanx")
UNITS = ("spearman", "archer", "cavalry", "chariot", "ship", "ram")
COMBAT_UNITS = ("spearman", "archer", "cavalry", "chariot")
TECHS = ("exploration", "construction", "research", "harvest_trade", "war", "growth")
KINDS = ("immediate", "vp_token", "control_6_rounds")
EFFECT_KEYS = {
    "gain",
    "pay",
    "units",
    "discover",
    "population",
    "ziggurat_storey",
    "colony_here",
    "rampart_here",
    "quest_cards",
}
QUEST_KEYS = {
    "colonies",
    "tech",
    "population",
    "ziggurat",
    "ramparts",
    "units",
    "amphorae",
    "garden_storeys",
    "events_resolved",
    "regions",
    "colonies_with_rampart",
    "hold",
}
GARDEN_KEYS = {"population", "event_track", "colonies"}
FILES = ("combat.json", "events.json", "quests.json", "gardens.json", "trade_tokens.json")


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


ALL = {name: _load(name) for name in FILES}
COMBAT = ALL["combat.json"]
EVENTS = ALL["events.json"]
QUESTS = ALL["quests.json"]
GARDENS = ALL["gardens.json"]
TRADE = ALL["trade_tokens.json"]
CARDS: list[dict[str, Any]] = COMBAT["cards"]
EVENT_CARDS: list[dict[str, Any]] = EVENTS["cards"]
QUEST_CARDS: list[dict[str, Any]] = QUESTS["cards"]
TILES: list[dict[str, Any]] = GARDENS["tiles"]
TOKENS: list[dict[str, Any]] = TRADE["tokens"]
ITEMS = {
    "combat.json": CARDS,
    "events.json": EVENT_CARDS,
    "quests.json": QUEST_CARDS,
    "gardens.json": TILES,
    "trade_tokens.json": TOKENS,
}


def _walk(node: Any, keys: tuple[str, ...], path: str = "") -> list[tuple[str, Any]]:
    """Every value stored under one of ``keys`` in a JSON tree, with its path."""
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys:
                found.append((f"{path}/{key}", value))
            found.extend(_walk(value, keys, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_walk(value, keys, f"{path}[{i}]"))
    return found


def _resources_value(amounts: dict[str, int], scale: dict[str, float]) -> float:
    return sum(scale[res] * qty for res, qty in amounts.items())


def _effect_value(effect: dict[str, Any], scale: dict[str, float]) -> float:
    total = 0.0
    for key, value in effect.items():
        if key == "gain":
            total += _resources_value(value, scale)
        elif key == "pay":
            total -= _resources_value(value, scale)
        elif key == "units":
            total += _resources_value(value, scale)
        elif key == "discover":
            total += scale["discover"] * len(value)
        else:
            total += scale[key] * value
    return total


def _check_effect(effect: dict[str, Any], where: str) -> None:
    assert set(effect) <= EFFECT_KEYS, f"{where}: unknown keys {set(effect) - EFFECT_KEYS}"
    for key in ("gain", "pay"):
        for res, qty in effect.get(key, {}).items():
            assert res in RESOURCES, f"{where}: unknown resource {res}"
            assert isinstance(qty, int) and qty >= 1, f"{where}: {key} {res}={qty}"
    for unit, qty in effect.get("units", {}).items():
        assert unit in UNITS and isinstance(qty, int) and qty >= 1, f"{where}: units {unit}"
    for tech in effect.get("discover", []):
        assert tech in (*TECHS, "any"), f"{where}: unknown technology {tech}"
    for key in ("population", "ziggurat_storey", "colony_here", "rampart_here", "quest_cards"):
        if key in effect:
            assert isinstance(effect[key], int) and effect[key] >= 1, f"{where}: {key}"


# ------------------------------------------------------------------ all files


@pytest.mark.parametrize("name", FILES)
def test_designed_for_this_project(name: str) -> None:
    data = ALL[name]
    assert data["designed_for"].startswith("Dingir"), "designed_for must credit Dingir"
    assert data["game"] == "mesopotamia"
    assert data["seed"] == "004_5aa664732721ab18.txt"
    assert isinstance(data["grounding"], str) and data["grounding"].strip()


@pytest.mark.parametrize("name", FILES)
def test_ids_unique_ascii_snake_case(name: str) -> None:
    ids = [item["id"] for item in ITEMS[name]]
    assert len(ids) == len(set(ids)), f"{name}: duplicate id"
    for item_id in ids:
        assert item_id.isascii() and item_id == item_id.lower(), item_id
        assert item_id.replace("_", "").isalnum() and not item_id[0].isdigit(), item_id


@pytest.mark.parametrize("name", FILES)
def test_every_displayed_string_in_english_and_french(name: str) -> None:
    found = _walk(ALL[name], ("name", "text", "title", "context"))
    assert len(found) >= len(ITEMS[name]), f"{name}: names were not found"
    for path, value in found:
        assert isinstance(value, dict), f"{path}: not an en/fr object"
        assert set(value) == set(LANGS), f"{path}: languages {set(value)}"
        for lang in LANGS:
            assert isinstance(value[lang], str) and value[lang].strip(), f"{path}: empty {lang}"
        assert value["en"] != value["fr"] or len(value["en"]) < 12, f"{path}: not translated"


@pytest.mark.parametrize("name", FILES)
def test_rule_numbers_quote_the_rulebook(name: str) -> None:
    rules = ALL[name]["rules"]
    assert "count" in rules
    for key, group in rules.items():
        src = group.get("_source")
        quotes = src if isinstance(src, list) else [src]
        assert quotes and all(isinstance(q, str) and q.strip() for q in quotes), key
        assert len(group) >= 2, f"{name}/{key}: no number next to the quote"
    for path, src in _walk(ALL[name], ("_source",)):
        quotes = src if isinstance(src, list) else [src]
        assert all(isinstance(q, str) and q.strip() for q in quotes), path


@pytest.mark.parametrize("name", FILES)
def test_sources_are_verbatim_in_the_rulebook(name: str) -> None:
    if not SEED.is_file():
        pytest.skip(f"rulebook not available at {SEED} (set MESOPOTAMIA_SEED)")
    text = " ".join(SEED.read_text(encoding="utf-8").replace("**", "").split())
    for path, src in _walk(ALL[name], ("_source",)):
        for quote in src if isinstance(src, list) else [src]:
            for piece in quote.split(" … "):
                piece = " ".join(piece.split())
                assert piece in text, f"{name}{path}: not in the rulebook: {piece!r}"


@pytest.mark.parametrize(
    ("name", "count", "quote"),
    [
        ("combat.json", 26, "26 cartes Combat"),
        ("events.json", 30, "30 cartes Événement"),
        ("quests.json", 18, "18 cartes Quête"),
        ("gardens.json", 15, "15 tuiles Jardins suspendus"),
        ("trade_tokens.json", 20, "20 jetons Échange"),
    ],
)
def test_counts_from_the_material_list(name: str, count: int, quote: str) -> None:
    assert ALL[name]["rules"]["count"]["total"] == count
    assert ALL[name]["rules"]["count"]["_source"] == quote
    assert len(ITEMS[name]) == count


# ------------------------------------------------------------------ combat cards

TRIANGLE = {
    "spearman": ["cavalry"],
    "archer": ["spearman"],
    "cavalry": ["archer"],
    "chariot": ["spearman", "archer", "cavalry"],
}


def _card(card_id: str) -> dict[str, Any]:
    return next(c for c in CARDS if c["id"] == card_id)


def _with_example(key: str) -> list[dict[str, Any]]:
    return [c for c in CARDS if key in c.get("examples", [])]


def _combat_value(card: dict[str, Any], force: int, tactic: int, foe: str) -> int:
    """Force (printed + allocated), plus Tactics only against a type the card counters."""
    tactics = card["tactic"] + tactic if foe in card["advantage_over"] else 0
    return int(card["force"] + force + tactics)


def test_four_decks_by_unit_type() -> None:
    decks = Counter(c["unit"] for c in CARDS)
    assert set(decks) == set(COMBAT_UNITS)
    assert decks == {u: COMBAT["decks"][u]["size"] for u in COMBAT_UNITS}
    assert dict(decks) == {"spearman": 8, "archer": 8, "cavalry": 5, "chariot": 5}
    per_empire = COMBAT["rules"]["figures_per_empire"]
    for unit in COMBAT_UNITS:
        assert decks[unit] >= 2 * per_empire[unit], f"{unit}: two empires could empty the deck"
    assert COMBAT["rules"]["draw"]["cards_per_unit"] == 1


def test_tactic_row_symbol_follows_the_triangle() -> None:
    assert {u: COMBAT["rules"]["triangle"][u] for u in COMBAT_UNITS} == TRIANGLE
    for card in CARDS:
        assert card["advantage_over"] == TRIANGLE[card["unit"]], card["id"]
        assert card["advantage_over"] == COMBAT["decks"][card["unit"]]["advantage_over"]
    example = COMBAT["rules"]["tactic_row_shows_advantage"]
    assert TRIANGLE[example["example_unit"]] == [example["example_symbol"]] == ["cavalry"]


def test_card_rows_and_slots() -> None:
    assert COMBAT["rules"]["rows"]["ids"] == ["force", "tactic", "mobility"]
    for card in CARDS:
        for row in ("force", "tactic", "mobility"):
            assert isinstance(card[row], int) and card[row] >= 0, card["id"]
            assert isinstance(card["slots"][row], int) and card["slots"][row] >= 1, card["id"]
        assert card["mobility"] == COMBAT["rules"]["printed_mobility"]["value"] == 0
        assert card["force"] + card["tactic"] >= 1, f"{card['id']}: a blank card"


def test_weaker_cards_have_more_room() -> None:
    for unit in COMBAT_UNITS:
        deck = [c for c in CARDS if c["unit"] == unit]
        for a in deck:
            for b in deck:
                if a["force"] < b["force"]:
                    assert a["slots"]["force"] >= b["slots"]["force"], (a["id"], b["id"])
                if a["tactic"] < b["tactic"]:
                    assert a["slots"]["tactic"] >= b["slots"]["tactic"], (a["id"], b["id"])


def test_deck_strength_follows_the_simplified_combat_values() -> None:
    variant = COMBAT["rules"]["simplified_variant_values"]
    assert [variant[u] for u in COMBAT_UNITS] == [1, 2, 3, 4]
    means = []
    for unit in COMBAT_UNITS:
        mean = statistics.mean(c["force"] + c["tactic"] for c in CARDS if c["unit"] == unit)
        assert abs(mean - variant[unit]) <= 0.75, f"{unit}: mean printed {mean}"
        means.append(mean)
    assert means == sorted(means) and len(set(means)) == 4


def test_multiplayer_example_cards_and_clashes() -> None:
    sum_spear = _with_example("seed_multiplayer_sumerian_spearman")
    bab_spear = _with_example("seed_multiplayer_babylonian_spearman")
    sum_archer = _with_example("seed_multiplayer_sumerian_archer")
    bab_archer = _with_example("seed_multiplayer_babylonian_archer")
    bab_cav = _with_example("seed_multiplayer_babylonian_cavalry")
    for found in (sum_spear, bab_spear, sum_archer, bab_archer, bab_cav):
        assert len(found) == 1
    s_sp, b_sp, s_ar, b_ar, b_cav = (
        f[0] for f in (sum_spear, bab_spear, sum_archer, bab_archer, bab_cav)
    )
    assert (s_sp["unit"], s_sp["force"], s_sp["tactic"]) == ("spearman", 1, 1)
    assert (b_sp["unit"], b_sp["force"], b_sp["tactic"]) == ("spearman", 0, 1)
    assert (s_ar["unit"], s_ar["force"], s_ar["tactic"]) == ("archer", 2, 0)
    assert (b_ar["unit"], b_ar["force"]) == ("archer", 1)
    assert (b_cav["unit"], b_cav["force"], b_cav["tactic"]) == ("cavalry", 2, 1)
    # allocations of the example fit the empty slots
    assert b_sp["slots"]["force"] >= 1 and b_ar["slots"]["force"] >= 1
    assert s_sp["slots"]["tactic"] >= 1 and b_cav["slots"]["mobility"] >= 1
    # « (2 contre 1) » … « (2 contre 2) » … « (3 contre 2) »
    assert (_combat_value(s_ar, 0, 0, "spearman"), _combat_value(b_sp, 1, 0, "archer")) == (2, 1)
    assert (_combat_value(s_ar, 0, 0, "archer"), _combat_value(b_ar, 1, 0, "archer")) == (2, 2)
    assert (_combat_value(s_sp, 0, 1, "cavalry"), _combat_value(b_cav, 0, 0, "spearman")) == (3, 2)


def test_solo_example_fits_the_cards() -> None:
    """6 phalanxes: archer at 3 Force, 2 Tactics, 1 Mobility; spearman at 4 Force, 1 Tactics."""
    spear = _with_example("seed_solo_player_spearman")
    archers = _with_example("seed_solo_archers")
    automaton_spear = _with_example("seed_solo_automaton_spearman")
    assert len(spear) == 1 and len(archers) == 2 and len(automaton_spear) == 1
    sp = spear[0]
    sp_alloc = {"force": 4 - sp["force"], "tactic": 1 - sp["tactic"]}
    fits = []
    for mine in archers:
        auto = next(a for a in archers if a is not mine)
        ar_alloc = {"force": 3 - mine["force"], "tactic": 2 - mine["tactic"], "mobility": 1}
        total = sum(ar_alloc.values()) + sum(sp_alloc.values())
        fits.append(
            total == 6
            and all(0 <= q <= mine["slots"][row] for row, q in ar_alloc.items())
            and all(0 <= q <= sp["slots"][row] for row, q in sp_alloc.items())
            # the automaton's archer: 2 Force allocated, 3 Force once fatigued
            and auto["force"] + 2 - 1 == 3
            and auto["slots"]["force"] >= 2
        )
    assert any(fits)
    auto_sp = automaton_spear[0]
    assert auto_sp["force"] + min(4, auto_sp["slots"]["force"]) == 4, "« maximum = 4 »"


# ------------------------------------------------------------------ events


def test_event_cards_match_the_tokens() -> None:
    tokens = EVENTS["rules"]["tokens"]
    assert (tokens["plain"], tokens["mountain"], tokens["desert"]) == (12, 8, 10)
    for terrain in ("plain", "mountain", "desert"):
        numbers = sorted(c["number"] for c in EVENT_CARDS if c["terrain"] == terrain)
        assert numbers == list(range(1, tokens[terrain] + 1)), terrain
    for card in EVENT_CARDS:
        assert card["id"] == f"{card['terrain']}_{card['number']:02d}"


def test_two_options_each_of_a_known_kind() -> None:
    assert EVENTS["rules"]["options_per_card"]["count"] == 2
    assert tuple(EVENTS["rules"]["option_kinds"]["ids"]) == KINDS
    kinds: Counter[str] = Counter()
    pairs = set()
    for card in EVENT_CARDS:
        options = card["options"]
        assert len(options) == 2, card["id"]
        for option in options:
            assert option["kind"] in KINDS, card["id"]
            kinds[option["kind"]] += 1
        pairs.add(tuple(sorted(o["kind"] for o in options)))
    for kind in KINDS:
        assert kinds[kind] >= 15, f"only {kinds[kind]} options of kind {kind}"
    assert len(pairs) >= 4, "too few combinations of option kinds"


def test_option_fields_by_kind() -> None:
    for card in EVENT_CARDS:
        for option in card["options"]:
            where = f"{card['id']}/{option['kind']}"
            _check_effect(option["effect"], where)
            assert 1 <= option["advance"] <= 3, where
            assert ("token_vp" in option) is (option["kind"] == "vp_token"), where
            is_control = option["kind"] == "control_6_rounds"
            assert ("per_round" in option) is is_control and ("final" in option) is is_control
            if option["kind"] == "vp_token":
                assert isinstance(option["token_vp"], int) and 1 <= option["token_vp"] <= 3
                assert option["effect"], f"{where}: « offrant des ressources ou bonus »"
            elif is_control:
                _check_effect(option["per_round"], where + "/per_round")
                _check_effect(option["final"], where + "/final")
                assert option["per_round"] and option["final"], where
            else:
                assert option["effect"], where
            step = f"advance {option['advance']} on the event track"
            assert step in option["text"]["en"].lower(), where


def test_usual_advance_by_kind() -> None:
    usual = EVENTS["rules"]["usual_advance"]
    assert (usual["immediate"], usual["vp_token"], usual["control_6_rounds"]) == (1, 2, 3)
    rng = EVENTS["rules"]["advance_range"]
    assert (rng["min"], rng["max"]) == (1, 3)
    for kind in KINDS:
        steps = Counter(
            o["advance"] for c in EVENT_CARDS for o in c["options"] if o["kind"] == kind
        )
        assert steps.most_common(1)[0][0] == usual[kind], f"{kind}: « souvent » {steps}"


def test_every_event_can_be_chosen_without_paying() -> None:
    for card in EVENT_CARDS:
        assert any("pay" not in o["effect"] for o in card["options"]), card["id"]


def test_the_rulebook_event_is_in_the_deck() -> None:
    village = next(c for c in EVENT_CARDS if c["title"]["en"] == "Village with Ancient Wisdom")
    assert village["terrain"] == "desert", "« Deep in the desert »"
    protect, raid = village["options"]
    assert (
        protect["name"]["en"] == "Protect the Village" and raid["name"]["en"] == "Raid the Village"
    )
    assert protect["kind"] == raid["kind"] == "control_6_rounds", "« After 6 Rounds »"
    assert protect["per_round"] == {"gain": {"tablet": 1}}, "« gagnez 1 Tablette »"
    assert protect["final"]["colony_here"] == 1 and len(protect["final"]["discover"]) == 1
    assert protect["advance"] == 3, "« (souvent 3 ) »"
    assert raid["final"]["quest_cards"] == 1, "« you gain a Quest Card »"
    example = EVENTS["rules"]["example_final"]
    assert (example["colony_here"], example["discoveries"]) == (1, 1)


def test_event_options_balanced_by_kind() -> None:
    balance = EVENTS["balance"]
    scale = balance["value_of"]
    bands = balance["bands"]
    for card in EVENT_CARDS:
        for option in card["options"]:
            score = _effect_value(option["effect"], scale) + scale["event_step"] * option["advance"]
            if option["kind"] == "vp_token":
                score += scale["vp"] * option["token_vp"]
            if option["kind"] == "control_6_rounds":
                rounds = EVENTS["rules"]["control_rounds"]["rounds"]
                assert rounds == 6
                score += rounds * _effect_value(option["per_round"], scale)
                score += _effect_value(option["final"], scale)
            low, high = bands[option["kind"]]
            assert low <= score <= high, f"{card['id']}/{option['kind']}: {score}"
    assert bands["immediate"][1] < bands["vp_token"][1] < bands["control_6_rounds"][0]


# ------------------------------------------------------------------ quests


def test_quest_rules_numbers() -> None:
    rules = QUESTS["rules"]
    assert (rules["deal"]["dealt"], rules["deal"]["kept"]) == (4, 3)
    assert (rules["solo_deal"]["dealt"], rules["solo_deal"]["kept"]) == (3, 2)
    assert (rules["vp"]["per_quest"], rules["vp"]["max"]) == (2, 6)
    assert rules["vp"]["per_quest"] * rules["deal"]["kept"] == rules["vp"]["max"]


def test_quest_conditions_known_and_two_part() -> None:
    levels = QUESTS["technologies"]
    assert set(levels) == set(TECHS)
    seen = set()
    for quest in QUEST_CARDS:
        cond = quest["condition"]
        assert set(cond) <= QUEST_KEYS, f"{quest['id']}: {set(cond) - QUEST_KEYS}"
        assert set(cond) - {"hold"}, f"{quest['id']}: no goal besides resources"
        held = cond["hold"]
        assert all(r in RESOURCES for r in held), quest["id"]
        assert 1 <= sum(held.values()) <= 3, quest["id"]
        for tech, level in cond.get("tech", {}).items():
            assert tech in TECHS and 1 <= level <= 4, quest["id"]
        for unit in cond.get("units", {}):
            assert unit in UNITS, quest["id"]
        for key in cond.keys() - {"hold", "tech", "units"}:
            assert isinstance(cond[key], int) and cond[key] >= 1, (quest["id"], key)
        assert cond.get("colonies", 0) <= 3, "3 Colonies per empire"
        key = json.dumps(cond, sort_keys=True)
        assert key not in seen, f"{quest['id']}: duplicate quest"
        seen.add(key)


def test_the_three_rulebook_quests() -> None:
    conditions = [q["condition"] for q in QUEST_CARDS]
    assert {"colonies": 3, "hold": {"stone": 1}} in conditions
    assert {"tech": {"research": 3, "growth": 3}, "hold": {"tablet": 2}} in conditions
    assert {"population": 7, "hold": {"food": 1}} in conditions
    names = QUESTS["technologies"]
    assert names["research"]["levels"]["fr"][2] == "Littérature"
    assert names["growth"]["levels"]["fr"][2] == "Poterie"
    assert names["research"]["levels"]["fr"][3] == "Codes juridiques"


def test_quests_cover_every_technology() -> None:
    covered = {t for q in QUEST_CARDS for t in q["condition"].get("tech", {})}
    assert covered == set(TECHS)


# ------------------------------------------------------------------ hanging gardens


def test_three_tiles_per_storey() -> None:
    rules = GARDENS["rules"]
    assert rules["storeys"]["count"] == 5 and rules["first_face_up"]["storey"] == 1
    per_storey = Counter(t["storey"] for t in TILES)
    assert per_storey == dict.fromkeys(range(1, 6), rules["storeys"]["tiles_per_storey"])
    arch = rules["needs_architecture"]
    assert (arch["action"], arch["level"]) == ("construction", 4)
    assert arch["technology"] == "architecture"


def test_garden_conditions_known_and_rising() -> None:
    kinds = GARDENS["rules"]["condition_kinds"]["ids"]
    assert set(kinds) == GARDEN_KEYS
    for tile in TILES:
        assert set(tile["conditions"]) <= GARDEN_KEYS, tile["id"]
        assert all(r in RESOURCES for r in tile["cost"]), tile["id"]
        assert all(isinstance(v, int) and v >= 1 for v in tile["conditions"].values())
    # R-garden-pace: « Certaines tuiles possèdent des conditions »: one tile of storeys 2-4,
    # none on storey 1 nor on the storey that ends the game
    for storey in range(1, 6):
        asking = [t["id"] for t in TILES if t["storey"] == storey and t["conditions"]]
        assert len(asking) == (1 if 2 <= storey <= 4 else 0), (storey, asking)
    for kind in GARDEN_KEYS:
        thresholds = [t["conditions"][kind] for t in sorted(TILES, key=lambda t: t["storey"])
                      if kind in t["conditions"]]
        assert thresholds == sorted(thresholds), f"{kind}: {thresholds}"
    colonies = [t["conditions"].get("colonies", 0) for t in TILES]
    assert max(colonies) <= 3, "3 Colonies per empire"


def test_garden_cost_and_vp_by_storey() -> None:
    scale = {r: (1.5 if r == "tablet" else 1.0) for r in RESOURCES}
    vps, costs = [], []
    for storey in range(1, 6):
        tiles = [t for t in TILES if t["storey"] == storey]
        vp = {t["vp"] for t in tiles}
        cost = {_resources_value(t["cost"], scale) for t in tiles}
        assert len(vp) == 1, f"storey {storey}: VP differ {vp}"
        assert len(cost) == 1, f"storey {storey}: costs differ {cost}"
        vps.append(vp.pop())
        costs.append(cost.pop())
    assert all(a < b for a, b in itertools.pairwise(vps)), vps
    assert all(a <= b for a, b in itertools.pairwise(costs)) and costs[0] < costs[-1], costs
    assert {str(i + 1): c for i, c in enumerate(costs)} == GARDENS["balance"]["cost_by_storey"]


# ------------------------------------------------------------------ trade tokens


def test_five_tokens_per_level_and_layouts() -> None:
    rules = TRADE["rules"]
    per_level = Counter(t["level"] for t in TOKENS)
    assert per_level == dict.fromkeys(range(1, 5), 5)
    assert rules["levels"]["count"] == 4
    four = rules["four_players"]["per_level"]
    assert four == 3 and all(n >= four for n in per_level.values())
    for key, used in (("three_players", 9), ("two_players", 6)):
        layout = rules[key]
        assert layout["used"] == used == sum(layout["per_level"].values())
        assert all(per_level[int(lvl)] >= n for lvl, n in layout["per_level"].items())
    assert rules["three_players"]["per_level"] == {"1": 2, "2": 2, "3": 2, "4": 3}
    assert rules["two_players"]["per_level"] == {"1": 1, "2": 2, "3": 1, "4": 2}


def test_token_sides() -> None:
    for token in TOKENS:
        assert token["pay"] and token["gain"], token["id"]
        for side in ("pay", "gain"):
            for res, qty in token[side].items():
                assert res in RESOURCES and isinstance(qty, int) and qty >= 1, token["id"]
        assert "tablet" not in token["gain"], "« Le seul moyen d'obtenir des Tablettes »"
        assert not set(token["pay"]) & set(token["gain"]), (
            f"{token['id']}: trades a good for itself"
        )
        assert isinstance(token["vp"], int) and 0 <= token["vp"] <= 3, token["id"]
    assert any("phalanx" in t["gain"] for t in TOKENS), "« l'action Guerre ou aux Échanges »"


def test_trade_rate_rises_with_level() -> None:
    balance = TRADE["balance"]
    scale = balance["value_of"]
    bands = balance["bands"]
    for token in TOKENS:
        net = (
            _resources_value(token["gain"], scale)
            - _resources_value(token["pay"], scale)
            + scale["vp"] * token["vp"]
        )
        low, high = bands[str(token["level"])]
        assert low <= net <= high, f"{token['id']}: net {net}"
    lows = [bands[str(level)][0] for level in range(1, 5)]
    assert lows == sorted(lows) and len(set(lows)) == 4
    for level in range(1, 5):
        assert any(t["vp"] for t in TOKENS if t["level"] == level), f"level {level}: no VP token"


# ------------------------------------------------------------------ the files that define the ids

MAP = _load("map.json")
TECHNOLOGIES = _load("technologies.json")
EMPIRES = _load("empires.json")
FIGURES: dict[str, int] = {
    k: v
    for k, v in EMPIRES["rules"]["figures_per_empire"].items()
    if k not in ("_source", "ruling")
}
PIECES: dict[str, int] = {
    k: v for k, v in EMPIRES["rules"]["pieces_per_empire"].items() if not k.startswith("_")
}
TRACKS: dict[str, dict[str, Any]] = MAP["tracks"]


def _no_source(block: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if not k.startswith("_")}


def test_ids_are_those_of_the_defining_files() -> None:
    # Basic resources come from the map, units from the empires' figures, technologies from
    # the actions of technologies.json, terrains from the map.
    assert RESOURCES[:4] == tuple(MAP["resources"]["kinds"])
    assert set(UNITS) == set(FIGURES)
    assert set(COMBAT["decks"]) == set(COMBAT_UNITS) == set(UNITS) - {"ship", "ram"}
    assert tuple(a["id"] for a in TECHNOLOGIES["actions"]) == TECHS
    vocabulary = EVENTS["vocabulary"]
    assert tuple(vocabulary["resources"]) == RESOURCES
    assert tuple(vocabulary["units"]) == UNITS
    assert tuple(vocabulary["technologies"]) == TECHS
    assert tuple(vocabulary["terrains"]) == tuple(_no_source(MAP["terrains"]))
    assert set(QUESTS["technologies"]) == set(TECHS)


def test_names_are_those_of_the_defining_files() -> None:
    cards = {(t["action"], t["level"]): t["name"] for t in TECHNOLOGIES["technologies"]}
    for tech, entry in QUESTS["technologies"].items():
        for lang in LANGS:
            for level, name in enumerate(entry["levels"][lang], start=1):
                assert name == cards[(tech, level)][lang], (tech, level, lang, name)
    unit_names = {s: COMBAT["decks"][s]["name"] for s in COMBAT_UNITS}
    for card in CARDS:
        assert card["unit"] in unit_names, card["id"]
    # The same unit names in the War cards' texts as on the combat decks.
    for tech in TECHNOLOGIES["technologies"]:
        if tech["action"] == "war":
            for unit in tech["effect"]["unit_types"]:
                for lang in LANGS:
                    assert unit_names[unit][lang] in tech["text"][lang], (tech["id"], unit, lang)


def test_event_cards_match_the_sites_of_the_map() -> None:
    sites = Counter(r["terrain"] for r in MAP["regions"] if r["event_site"])
    cards = Counter(c["terrain"] for c in EVENT_CARDS)
    assert cards == sites == Counter(_no_source(MAP["event_sites"]["by_terrain"]))
    assert cards == Counter(_no_source(EVENTS["rules"]["tokens"]))
    for terrain, count in sites.items():
        numbers = sorted(c["number"] for c in EVENT_CARDS if c["terrain"] == terrain)
        assert numbers == list(range(1, count + 1)), terrain


def test_trade_tokens_fill_the_slots_of_the_map() -> None:
    area = MAP["trade_area"]
    per_level = Counter(t["level"] for t in TOKENS)
    assert [lv["level"] for lv in area["levels"]] == sorted(per_level)
    assert area["tokens"]["total"] == len(TOKENS) == TRADE["rules"]["count"]["total"]
    assert set(per_level.values()) == {area["tokens"]["per_level"]}
    slot_level = {s["id"]: lv["level"] for lv in area["levels"] for s in lv["slots"]}
    layouts = {
        "4": dict.fromkeys(range(1, 5), TRADE["rules"]["four_players"]["per_level"]),
        "3": {int(k): v for k, v in TRADE["rules"]["three_players"]["per_level"].items()},
        "2": {int(k): v for k, v in TRADE["rules"]["two_players"]["per_level"].items()},
    }
    for players, expected in layouts.items():
        used = Counter(slot_level[s] for s in area["used_slots"][players])
        assert dict(used) == expected, players
        assert all(per_level[lv] >= n for lv, n in used.items()), players


def test_combat_decks_hold_every_fight_the_map_allows() -> None:
    tribes = _no_source(MAP["neutral_tribes"]["figures"])
    rules = COMBAT["rules"]
    assert {u: n for u, n in rules["tribal_figures"].items() if n and u != "_source"} == tribes
    assert _no_source(rules["figures_per_empire"]) == {u: FIGURES[u] for u in COMBAT_UNITS}
    size = {u: COMBAT["decks"][u]["size"] for u in COMBAT_UNITS}
    for unit in COMBAT_UNITS:
        # Two empires, each with all its figures of that type, never empty the deck.
        assert 2 * FIGURES[unit] <= size[unit], unit
    for region in MAP["regions"]:
        for unit, count in _no_source(region["tribe"] or {}).items():
            if unit == "grounding":
                continue
            # A tribe site fought by one empire fielding all its figures of that type.
            assert count + FIGURES[unit] <= size[unit], (region["id"], unit)


def test_thresholds_fit_the_tracks_and_the_pieces() -> None:
    population = TRACKS["population"]["cases"]
    event = TRACKS["event"]["cases"]
    storeys = next(s for s in TECHNOLOGIES["structures"] if s["id"] == "ziggurat_storey")
    assert storeys["max_storeys"] == PIECES["ziggurat_storeys"] <= population
    for tile in TILES:
        cond = tile["conditions"]
        assert cond.get("population", 1) <= population, tile["id"]
        assert cond.get("event_track", 1) <= event, tile["id"]
        assert cond.get("colonies", 0) <= PIECES["colony"], tile["id"]
    for quest in QUEST_CARDS:
        cond = quest["condition"]
        assert cond.get("population", 1) <= population, quest["id"]
        assert cond.get("ziggurat", 0) <= PIECES["ziggurat_storeys"], quest["id"]
        assert cond.get("colonies", 0) <= PIECES["colony"], quest["id"]
        assert cond.get("colonies_with_rampart", 0) <= min(PIECES["colony"], PIECES["rampart"])
        assert cond.get("ramparts", 0) <= PIECES["rampart"], quest["id"]
        assert cond.get("amphorae", 0) <= PIECES["amphora"], quest["id"]
        assert cond.get("garden_storeys", 0) <= GARDENS["rules"]["storeys"]["count"]
        assert cond.get("events_resolved", 0) <= len(EVENT_CARDS), quest["id"]
        for unit, count in cond.get("units", {}).items():
            assert count <= FIGURES[unit], (quest["id"], unit)
        units = sum(cond.get("units", {}).values())
        assert units <= TRACKS["population"]["unit_limit"][-1], quest["id"]


def test_event_builds_are_structures_of_the_construction_table() -> None:
    structures = {s["id"] for s in TECHNOLOGIES["structures"]}
    builds = {
        "ziggurat_storey": "ziggurat_storey",
        "colony_here": "colony",
        "rampart_here": "rampart",
    }
    assert set(builds.values()) <= structures
    assert set(builds) <= EFFECT_KEYS
    for card in EVENT_CARDS:
        for option in card["options"]:
            for part in ("effect", "per_round", "final"):
                for unit in option.get(part, {}).get("units", {}):
                    assert unit in FIGURES, (card["id"], unit)
    # Six-round options need one of the empire's event dice (R-event-dice).
    assert EVENTS["rules"]["control_rounds"]["dice_per_empire"] == PIECES["event_die"]


def test_gardens_need_the_architecture_card() -> None:
    arch = GARDENS["rules"]["needs_architecture"]
    card = next(t for t in TECHNOLOGIES["technologies"] if t["id"] == arch["technology"])
    assert (card["action"], card["level"]) == (arch["action"], arch["level"])
    assert TECHNOLOGIES["rules"]["gardens_need_architecture"]["technology"] == card["id"]
    assert "hanging_gardens_storey" in card["effect"]["unlocks"]


def test_rulings_named_by_the_data_exist() -> None:
    rulings = (DATA / "RULINGS.md").read_text(encoding="utf-8")
    questions = (DATA / "QUESTIONS.md").read_text(encoding="utf-8")
    asked = set(re.findall(r"^### (Q-[a-z0-9-]+)", questions, flags=re.MULTILINE))
    assert len(asked) > 60
    for path in sorted(DATA.glob("*.json")):
        data = _load(path.name)
        for where, name in _walk(data, ("ruling",)):
            assert f"**{name}**" in rulings, f"{path.name}{where}: no ruling {name}"
    cited = set(re.findall(r"Q-[a-z0-9]+(?:-[a-z0-9]+)*", rulings))
    assert cited and cited <= asked, f"RULINGS.md cites unknown questions {cited - asked}"
