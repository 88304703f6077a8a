"""Data checks for After the Flood (``flood``): data/flood/map.json and data/flood/tables.json.

Pure data test: no network, no engine code. The contents were designed for this project (see
data/flood/README.md); these checks pin the invariants the engine relies on, so numbers can be
tuned freely without breaking the shape of the game.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import deque
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "flood"
LANGS = ("en", "fr")
RESOURCES = ("grain", "cloth", "wood", "metal", "tools", "gold", "oil", "lapis")
LUXURIES = ("tools", "oil", "gold", "lapis")
NAMED_SUMER = ("eridu", "uruk", "shuruppak", "ur", "nippur", "sippar", "babylon")
BONUS_CITIES = NAMED_SUMER  # the seed lists one particularity for each of these seven
BOX_IDS = ("irrigation", "weaving", "scribes", "toolmaking")
MIN_DRAW_DISTANCE = 0.05  # region centres closer than this would overlap when drawn


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


MAP = _load("map.json")
TABLES = _load("tables.json")
REGIONS: dict[str, dict[str, Any]] = {r["id"]: r for r in MAP["regions"]}
SUMER = [rid for rid, r in REGIONS.items() if r["in_sumer"]]
OUTER = [rid for rid, r in REGIONS.items() if not r["in_sumer"]]
ARROWS = [(a["from"], a["to"]) for a in MAP["arrows"]]
RULES: dict[str, dict[str, Any]] = TABLES["rules"]
EMPIRES: list[dict[str, Any]] = TABLES["empire_table"]["empires"]
VALUES: dict[str, int] = {k: v for k, v in TABLES["resource_values"].items() if k != "_source"}


def _components(nodes: list[str], edges: dict[str, set[str]]) -> list[set[str]]:
    seen: set[str] = set()
    parts: list[set[str]] = []
    for start in nodes:
        if start in seen:
            continue
        part = {start}
        queue = deque([start])
        while queue:
            for nxt in edges[queue.popleft()]:
                if nxt not in part:
                    part.add(nxt)
                    queue.append(nxt)
        seen |= part
        parts.append(part)
    return parts


def _invasion_targets(rid: str) -> set[str]:
    """Regions an army in ``rid`` may invade: a neighbour, not against an arrow, invadable."""
    return {
        n for n in REGIONS[rid]["neighbours"] if (n, rid) not in ARROWS and REGIONS[n]["invadable"]
    }


def _ranked_amounts(table: dict[str, Any], workers: list[int]) -> list[int]:
    """Goods per player with the 'lowest_shared_rank' tie rule, from the table's own numbers."""
    assert table["ties"]["rule"] == "lowest_shared_rank"
    by_rank = table["by_rank"]
    out = []
    for w in workers:
        if w < table["min_workers"]:
            out.append(0)
            continue
        better = sum(1 for o in workers if o > w)
        tied = sum(1 for o in workers if o == w)
        out.append(by_rank[str(better + tied)])
    return out


def _names(node: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every ``name`` and ``text`` value in a JSON tree, with its path."""
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name", "text", "why"):
                found.append((f"{path}/{key}", value))
            found.extend(_names(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_names(value, f"{path}[{i}]"))
    return found


# ------------------------------------------------------------------ headers


def test_designed_for_this_project() -> None:
    for data in (MAP, TABLES):
        assert data["designed_for"].startswith("Dingir"), "designed_for must credit Dingir"
        assert data["game"] == "flood"


def test_every_name_in_english_and_french() -> None:
    found = _names(MAP) + _names(TABLES)
    assert len(found) > 60, "names were not found"
    for path, value in found:
        assert isinstance(value, dict), f"{path}: not an en/fr object"
        for lang in LANGS:
            assert isinstance(value.get(lang), str), f"{path}: no {lang}"
            assert value[lang].strip(), f"{path}: empty {lang}"


# ------------------------------------------------------------------ map


def test_region_ids_unique_and_snake_case() -> None:
    ids = [r["id"] for r in MAP["regions"]]
    assert len(ids) == len(set(ids)), "duplicate region id"
    for rid in ids:
        assert rid.isascii() and rid.replace("_", "").isalpha() and rid == rid.lower(), rid


def test_nine_sumer_regions_with_the_seven_named() -> None:
    assert len(SUMER) == 9, SUMER
    for rid in NAMED_SUMER:
        assert rid in SUMER, f"{rid} must be a Sumer region"


def test_dilmun_outside_sumer_and_never_invaded() -> None:
    dilmun = REGIONS["dilmun"]
    assert not dilmun["in_sumer"]
    assert not dilmun["invadable"], "« Dilmun ... ne peut donc pas être envahi »"
    assert all(r["invadable"] for rid, r in REGIONS.items() if rid != "dilmun")
    assert all("dilmun" not in (a, b) for a, b in ARROWS), "« Dilmun ne comporte aucune flèche »"
    assert all("dilmun" not in e["start_regions"] for e in EMPIRES)


def test_neighbours_symmetric_and_known() -> None:
    for rid, region in REGIONS.items():
        nbs = region["neighbours"]
        assert len(nbs) == len(set(nbs)), f"{rid}: duplicate neighbour"
        assert rid not in nbs, f"{rid}: neighbour of itself"
        for n in nbs:
            assert n in REGIONS, f"{rid}: unknown neighbour {n}"
            assert rid in REGIONS[n]["neighbours"], f"{rid} -> {n} is not symmetric"


def test_arrows_lie_on_listed_borders() -> None:
    assert MAP["arrows_are_borders"] is True
    assert ARROWS, "the seed says some regions carry an arrow"
    assert len(ARROWS) == len(set(ARROWS))
    for a, b in ARROWS:
        assert a in REGIONS and b in REGIONS, (a, b)
        assert b in REGIONS[a]["neighbours"], f"arrow {a}->{b}: ends must be neighbours"
        assert (b, a) not in ARROWS, f"arrows {a}<->{b} would close the border both ways"


def test_sea_borders_are_neighbours() -> None:
    for a, b in MAP["sea_borders"]:
        assert b in REGIONS[a]["neighbours"], (a, b)


def test_every_region_reachable_ignoring_arrow_direction() -> None:
    edges = {rid: set(r["neighbours"]) for rid, r in REGIONS.items()}
    parts = _components(list(REGIONS), edges)
    assert len(parts) == 1, f"map split into {parts}"


def test_every_invadable_region_can_be_invaded_from_every_other() -> None:
    """Following arrows, an army anywhere can in principle reach any invadable region."""
    invadable = [rid for rid, r in REGIONS.items() if r["invadable"]]
    for start in invadable:
        seen = {start}
        queue = deque([start])
        while queue:
            for nxt in _invasion_targets(queue.popleft()):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        assert seen == set(invadable), f"from {start} unreachable: {set(invadable) - seen}"


def test_city_sites_and_bonuses() -> None:
    for rid, region in REGIONS.items():
        assert region["city_site"] is region["in_sumer"], f"{rid}: cities only in Sumer"
        bonus = region["city_bonus"]
        if rid in BONUS_CITIES:
            assert bonus is not None, f"{rid}: the seed lists a particularity"
            assert (
                bonus["id"]
                and bonus["when"]
                and bonus["_source"].startswith(REGIONS[rid]["name"]["en"])
            ), rid
        else:
            assert bonus is None, f"{rid}: no particularity in the seed"
    with_bonus = [rid for rid in SUMER if REGIONS[rid]["city_bonus"]]
    assert len(with_bonus) == 7, "« 7 des 9 régions de Sumer possèdent une particularité »"
    assert REGIONS["shuruppak"]["city_bonus"]["destroy_cost_armies"] == 3
    assert REGIONS["shuruppak"]["city_bonus"]["min_owner_cities"] == 2
    assert REGIONS["babylon"]["city_bonus"]["armies"] == 2
    assert REGIONS["ur"]["city_bonus"]["cloth"] == 1


def test_trade_offers() -> None:
    offered: dict[str, int] = dict.fromkeys(RESOURCES, 0)
    mixes = set()
    for rid, region in REGIONS.items():
        if region["in_sumer"]:
            assert region["trade"] == [], f"{rid}: Sumer regions offer no trade"
            continue
        assert region["trade"], f"{rid}: an outer region must offer something"
        assert len(region["trade"]) == len(set(region["trade"])), rid
        for res in region["trade"]:
            assert res in TABLES["trade_table"]["pay_with"], f"{rid}: {res} has no price"
            offered[res] += 1
        mixes.add(tuple(sorted(region["trade"])))
    assert len(mixes) == len(OUTER), "two outer regions offer the same mix"
    for res, count in offered.items():
        if res in TABLES["trade_table"]["pay_with"]:
            assert count >= 2, f"{res} offered in only {count} region(s)"


def test_trade_table() -> None:
    for res, pay in TABLES["trade_table"]["pay_with"].items():
        assert res in RESOURCES and pay, res
        for p in pay:
            assert p in RESOURCES and p != res, (res, p)


def test_printed_vp() -> None:
    for rid, region in REGIONS.items():
        if region["in_sumer"]:
            assert region["vp"] == 0, f"{rid}: no worker ever stands in Sumer"
        else:
            assert 1 <= region["vp"] <= 10, rid
    boxes = {b["id"]: b for b in MAP["boxes"]}
    assert tuple(boxes) == BOX_IDS
    assert all(1 <= b["vp"] <= 10 for b in boxes.values())
    assert boxes["scribes"]["max_per_player"] == RULES["scribes_cap"]["max_per_player"] == 2
    majority_vp = sum(r["vp"] for r in REGIONS.values()) + sum(b["vp"] for b in boxes.values())
    top_extension = max(TABLES["city_table"]["vp_by_luxuries"].values())
    # comparable with the cities: between 2 and 5 fully extended cities' worth on the board
    assert 2 * top_extension <= majority_vp <= 5 * top_extension, majority_vp


def test_coordinates_in_unit_square_and_apart() -> None:
    points = {r["id"]: (r["x"], r["y"]) for r in MAP["regions"]}
    points.update({b["id"]: (b["x"], b["y"]) for b in MAP["boxes"]})
    for key, (x, y) in points.items():
        assert 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0, key
    for (a, pa), (b, pb) in itertools.combinations(points.items(), 2):
        assert math.dist(pa, pb) >= MIN_DRAW_DISTANCE, f"{a} and {b} overlap"


def test_layout_is_geographic() -> None:
    def xy(rid: str) -> tuple[float, float]:
        return REGIONS[rid]["x"], REGIONS[rid]["y"]

    assert xy("dilmun")[0] > 0.8 and xy("dilmun")[1] > 0.8, "Dilmun in the Gulf (south-east)"
    assert xy("egypt")[0] < 0.2 and xy("lebanon")[0] < 0.25, "Mediterranean to the west"
    assert xy("anatolia")[0] < 0.3 and xy("anatolia")[1] < 0.2, "Anatolia north-west"
    assert xy("elam")[0] > 0.8 and xy("zagros")[0] > 0.7, "Zagros and Elam east"
    assert xy("sippar")[1] < xy("nippur")[1] < xy("ur")[1], "Sumer runs north to south"
    assert xy("eridu")[1] > xy("uruk")[1], "Eridu south of Uruk"


# ------------------------------------------------------------------ tables


def test_resource_values_for_all_eight() -> None:
    assert set(VALUES) == set(RESOURCES)
    assert set(TABLES["resources"]) == set(RESOURCES)
    for res, value in VALUES.items():
        assert isinstance(value, int) and value >= 1, res
    assert {r for r, d in TABLES["resources"].items() if d["luxury"]} == set(LUXURIES)
    assert set(TABLES["supply"]) - {"_source"} == set(RESOURCES)


def test_grain_and_cloth_tables_complete_with_ties() -> None:
    for key, box, res in (
        ("grain_table", "irrigation", "grain"),
        ("cloth_table", "weaving", "cloth"),
    ):
        table = TABLES[key]
        assert (table["box"], table["resource"]) == (box, res)
        assert table["min_workers"] == RULES["collection_minimum"]["workers"] == 1
        by_rank = table["by_rank"]
        assert sorted(by_rank) == ["1", "2", "3"], key
        assert by_rank["1"] > by_rank["2"] > by_rank["3"] > 0, key
        ties = table["ties"]
        assert ties["rule"] and ties["examples"], key
        assert any(len(set(ex["workers"])) < 3 for ex in ties["examples"]), "no tie example"
        for ex in ties["examples"]:
            assert _ranked_amounts(table, ex["workers"]) == ex["receive"], (key, ex)


def test_city_table_zero_to_four_luxuries() -> None:
    vp = TABLES["city_table"]["vp_by_luxuries"]
    assert sorted(vp) == ["0", "1", "2", "3", "4"]
    seq = [vp[str(n)] for n in range(5)]
    assert seq[0] == 4 and seq[-1] == 20, "« (0 à 4) ... (4 à 20) »"
    assert all(a < b for a, b in itertools.pairwise(seq)), seq
    ext = RULES["city_extension"]
    assert ext["wood"] == 2 and ext["max_luxuries"] == 4 and tuple(ext["luxuries"]) == LUXURIES


def test_fifteen_empires_three_per_round() -> None:
    assert len(EMPIRES) == 15
    ids = [e["id"] for e in EMPIRES]
    assert len(set(ids)) == 15, "duplicate empire id"
    rounds = RULES["rounds"]["count"]
    per_round = RULES["empires_per_round"]["count"]
    for rnd in range(1, rounds + 1):
        assert sum(e["round"] == rnd for e in EMPIRES) == per_round, f"round {rnd}"
    for empire in EMPIRES:
        assert isinstance(empire["armies"], int) and 1 <= empire["armies"] <= 20, empire["id"]
    first = [e for e in EMPIRES if e["round"] == 1]
    akkad = next(e for e in EMPIRES if e["id"] == "akkad")
    assert akkad["round"] == 1 and akkad["armies"] == max(e["armies"] for e in first)


def test_empire_start_regions() -> None:
    for empire in EMPIRES:
        starts = empire["start_regions"]
        assert starts, empire["id"]
        for rid in starts:
            assert rid in REGIONS, f"{empire['id']}: unknown start region {rid}"
        in_sumer = all(REGIONS[rid]["in_sumer"] for rid in starts)
        assert in_sumer is empire["rises_in_sumer"], empire["id"]
        if in_sumer:
            assert sorted(starts) == sorted(SUMER), "« toute région de Sumer »"
        else:
            assert len(starts) == 1 and REGIONS[starts[0]]["invadable"], empire["id"]


def test_two_empires_rise_in_sumer_over_the_game() -> None:
    """« au cours du jeu, 2 empires vont apparaître dans une région de Sumer »."""
    rising = [e for e in EMPIRES if e["rises_in_sumer"]]
    assert len(rising) == RULES["sumer_empires"]["count"] == 2
    assert len({e["round"] for e in rising}) == 2, "not both in the same round"
    for rnd in range(1, RULES["rounds"]["count"] + 1):
        assert sum(e["rises_in_sumer"] for e in EMPIRES if e["round"] == rnd) <= 1


def test_empire_starts_spread() -> None:
    outer_starts = [e["start_regions"][0] for e in EMPIRES if not e["rises_in_sumer"]]
    counts = {rid: outer_starts.count(rid) for rid in set(outer_starts)}
    assert max(counts.values()) <= 2, counts
    assert len(counts) >= 8, "empires should start all around Sumer"
    for rnd in range(1, RULES["rounds"]["count"] + 1):
        starts = [tuple(e["start_regions"]) for e in EMPIRES if e["round"] == rnd]
        assert len(set(starts)) == len(starts), f"round {rnd}: two empires share a start"


def test_rules_numbers_quote_the_seed() -> None:
    for key, group in RULES.items():
        assert isinstance(group.get("_source"), str) and group["_source"].strip(), key
        assert len(group) >= 2, f"{key}: no number next to the quote"
    comp = RULES["components"]
    assert (comp["workers"], comp["armies"], comp["city_bases"]) == (25, 20, 4)
    income = RULES["workers_income"]
    assert (income["per_round"], income["max_in_play"]) == (8, 25)
    assert RULES["army_cap"]["max"] == 20 and RULES["armies_per_region"]["max"] == 2
    assert RULES["decline_rounds"]["rounds"] == [2, 4]
    purchase = RULES["army_purchase"]
    assert (purchase["grain"], purchase["metal"], purchase["tools"]) == (1, 2, 3)
    assert RULES["combat_better"]["min_roll"] == 5 and RULES["combat_worse"]["min_roll"] == 7
    for key in ("resource_values", "supply", "starting", "equipment", "opportunity_cost"):
        assert TABLES[key]["_source"].strip(), key


def test_equipment_opportunity_cost_and_start() -> None:
    assert TABLES["equipment"]["ranks"] == ["A", "B", "C"]
    assert set(TABLES["equipment"]["allowed"]) == set(RESOURCES)
    cost = TABLES["opportunity_cost"]
    assert sorted(cost["items_by_players_passed"]) == ["1", "2"]
    assert all(n >= 1 for n in cost["items_by_players_passed"].values())
    assert set(cost["pay_with"]) == {"resource", "army", "worker"}
    start = TABLES["starting"]
    assert start["workers_available"] == 2
    assert start["resources"] == {"wood": 1, "metal": 1, "tools": 1, "gold": 1}
    assert set(start["resources"]) <= set(RESOURCES)
