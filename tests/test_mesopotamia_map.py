"""Data checks for the Mesopotamia map (``mesopotamia``): data/mesopotamia/map.json.

Pure data test: no network, no engine code. The board was designed for this project (the
rulebook describes the printed board without giving it); these checks pin every count the
rulebook states (event sites by terrain, neutral tribe figures, blockers for 3 and 2 players,
start regions, ziggurat tokens, trade slots) and the invariants the engine relies on (a
symmetric, connected map; rivers made of sections between junctions), plus the fairness
figures of the four start regions, so that the map can be edited without breaking the game.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter, deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "mesopotamia"
SEED = Path(os.environ.get(
    "MESOPOTAMIA_SEED",
    Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_5aa664732721ab18.txt"))
LANGS = ("en", "fr")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
TERRAINS = ("plain", "mountain", "desert")
RESOURCES = ("stone", "wood", "clay", "food")
TRIBE_KINDS = ("cavalry", "spearman", "archer")
MIN_DRAW_DISTANCE = 0.05  # region centres closer than this would overlap when drawn

# Fairness tolerances for the four start regions (1-4), with paths that never cross another
# start region (« Vous ne pouvez ni attaquer ni traverser la Région de départ d'un autre
# Empire. »): how far apart the best and the worst start region may be.
EVENTS_WITHIN_2_SPREAD = 1  # event sites reachable in at most 2 steps (4, 3 and 2 players)
TRIBE_SITES_WITHIN_2_SPREAD = 1  # guarded event sites reachable in at most 2 steps
TRIBE_FIGURES_WITHIN_2_SPREAD = 1  # tribe figures on those sites
MIN_FREE_ADJACENT_EVENTS = 2  # unguarded event sites next to every start region (Ur 2, the
# others 3: R-start-balance)
SHIP_REACH_SPREAD = 5  # river sections a ship built there reaches in one activation (speed 3)


def _load() -> dict[str, Any]:
    with (DATA / "map.json").open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


MAP = _load()
REGIONS: dict[str, dict[str, Any]] = {r["id"]: r for r in MAP["regions"]}
ADJ: dict[str, set[str]] = {rid: set(r["neighbours"]) for rid, r in REGIONS.items()}
START_OF: dict[int, str] = {r["start"]: rid for rid, r in REGIONS.items() if r["start"] is not None}
BASE_STARTS = [START_OF[n] for n in (1, 2, 3, 4)]
ALL_STARTS = set(START_OF.values())
SECTIONS: dict[str, dict[str, Any]] = {s["id"]: s for s in MAP["river_sections"]}
JUNCTIONS: dict[str, dict[str, Any]] = {j["id"]: j for j in MAP["junctions"]}
TRIBES: dict[str, dict[str, Any]] = {rid: r["tribe"] for rid, r in REGIONS.items() if r["tribe"]}


def _blocked(players: int) -> set[str]:
    """Regions holding a blocker token in a game with ``players`` players (none from 4 up)."""
    rule = MAP["blockers"]["by_players"].get(str(players))
    if rule is None:
        return set()
    return {rid for rid, r in REGIONS.items() if r["blocker"] in rule["symbols"]}


def _distances(start: str) -> dict[str, int]:
    """Steps from ``start`` to every region, never entering another start region."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in ADJ[here]:
            if nxt not in dist and nxt not in ALL_STARTS:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def _within(start: str, steps: int) -> set[str]:
    return {rid for rid, d in _distances(start).items() if 0 < d <= steps}


def _connected(nodes: Iterable[str], edges: dict[str, set[str]]) -> bool:
    todo = set(nodes)
    if not todo:
        return True
    first = next(iter(todo))
    seen = {first}
    queue = deque([first])
    while queue:
        for nxt in edges[queue.popleft()]:
            if nxt in todo and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen == todo


def _section_graph() -> dict[str, set[str]]:
    """Two sections are linked when a ship can pass from one to the other: a shared junction."""
    at: dict[str, set[str]] = {}
    for sid, sec in SECTIONS.items():
        for end in sec["ends"]:
            at.setdefault(end, set()).add(sid)
    graph: dict[str, set[str]] = {sid: set() for sid in SECTIONS}
    for jid, sids in at.items():
        if JUNCTIONS[jid]["kind"] != "junction":
            continue
        for sid in sids:
            graph[sid] |= sids - {sid}
    return graph


def _ship_reach(region: str, moves: int) -> set[str]:
    """Sections a ship built next to ``region`` can reach in ``moves`` section changes."""
    graph = _section_graph()
    frontier = {sid for sid, s in SECTIONS.items() if region in s["regions"]}
    reach = set(frontier)
    for _ in range(moves):
        frontier = {n for sid in frontier for n in graph[sid]} - reach
        reach |= frontier
    return reach


def _names(node: Any, path: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "name":
                found.append((f"{path}/{key}", value))
            found.extend(_names(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_names(value, f"{path}[{i}]"))
    return found


def _sources(node: Any, path: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "_source":
                found.append((path, value))
            else:
                found.extend(_sources(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_sources(value, f"{path}[{i}]"))
    return found


def _spread(values: Iterable[int]) -> int:
    vals = list(values)
    return max(vals) - min(vals)


# ------------------------------------------------------------------ header, names, sources


def test_designed_for_this_project() -> None:
    assert MAP["designed_for"].startswith("Dingir")
    assert MAP["game"] == "mesopotamia"


def test_every_name_in_english_and_french() -> None:
    found = _names(MAP)
    assert len(found) >= len(REGIONS) + len(MAP["rivers"]), "names were not found"
    for path, value in found:
        assert isinstance(value, dict), f"{path}: not an en/fr object"
        for lang in LANGS:
            assert isinstance(value.get(lang), str) and value[lang].strip(), f"{path}: no {lang}"


def test_region_names_distinct() -> None:
    for lang in LANGS:
        names = [r["name"][lang] for r in REGIONS.values()]
        assert len(names) == len(set(names)), f"two regions share a {lang} name"


def test_sources_quote_the_rulebook() -> None:
    sources = _sources(MAP)
    assert len(sources) >= 8
    for path, text in sources:
        assert isinstance(text, str) and text.strip(), path
    if not SEED.is_file():
        pytest.skip(f"rulebook not available at {SEED} (set MESOPOTAMIA_SEED)")
    seed = " ".join(SEED.read_text(encoding="utf-8").replace("**", "").split())
    for path, text in sources:
        for piece in text.split(" … "):
            assert " ".join(piece.split()) in seed, f"{path}: not in the rulebook: {piece!r}"


# ------------------------------------------------------------------ graph


def test_ids_unique_and_snake_case() -> None:
    groups = {
        "regions": [r["id"] for r in MAP["regions"]],
        "sections": [s["id"] for s in MAP["river_sections"]],
        "junctions": [j["id"] for j in MAP["junctions"]],
        "rivers": [r["id"] for r in MAP["rivers"]],
    }
    every: list[str] = []
    for kind, ids in groups.items():
        assert len(ids) == len(set(ids)), f"duplicate id among {kind}"
        every.extend(ids)
    assert len(every) == len(set(every)), "an id is used by two kinds of thing"
    for ident in every:
        assert SNAKE.match(ident), ident


def test_region_count_leaves_room_for_every_site() -> None:
    # 30 event tokens, 18 tribe figures (on event sites), 8 blockers, 6 start/ziggurat regions.
    assert 30 <= len(REGIONS) <= 45
    assert len(REGIONS) >= sum(MAP["event_sites"]["by_terrain"].values()) + len(ALL_STARTS)


def test_neighbours_symmetric_no_self_loop() -> None:
    for rid, region in REGIONS.items():
        nbs = region["neighbours"]
        assert len(nbs) == len(set(nbs)), f"{rid}: duplicate neighbour"
        assert rid not in nbs, f"{rid}: neighbour of itself"
        assert nbs, f"{rid}: isolated"
        for n in nbs:
            assert n in REGIONS, f"{rid}: unknown neighbour {n}"
            assert rid in ADJ[n], f"{rid} -> {n} is not symmetric"


def test_map_connected() -> None:
    assert _connected(REGIONS, ADJ)


def test_connected_without_crossing_start_regions() -> None:
    # A foreign start region (and a closed one with its ziggurat token) cannot be crossed: the
    # rest of the map must still be one piece, and every start region must open onto it.
    others = [rid for rid in REGIONS if rid not in ALL_STARTS]
    assert _connected(others, ADJ)
    for rid in ALL_STARTS:
        assert ADJ[rid] - ALL_STARTS, f"{rid} is walled in by other start regions"


def test_terrain_known() -> None:
    for rid, region in REGIONS.items():
        assert region["terrain"] in TERRAINS, rid
    assert set(MAP["terrains"]) - {"_source"} == set(TERRAINS)
    shapes = {MAP["terrains"][t]["token_shape"] for t in TERRAINS}
    assert shapes == {"circle", "triangle", "square"}


def test_coordinates_in_range_and_apart() -> None:
    points = [(rid, r["x"], r["y"]) for rid, r in REGIONS.items()]
    for rid, x, y in points:
        assert 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0, rid
    for i, (a, ax, ay) in enumerate(points):
        for b, bx, by in points[i + 1 :]:
            assert math.dist((ax, ay), (bx, by)) >= MIN_DRAW_DISTANCE, f"{a} and {b} overlap"
    for jid, j in JUNCTIONS.items():
        assert 0.0 <= j["x"] <= 1.0 and 0.0 <= j["y"] <= 1.0, jid


# ------------------------------------------------------------------ start regions, ziggurat tokens


def test_four_start_regions_and_two_ziggurat_regions() -> None:
    # « Le plateau de jeu compte quatre Régions de départ possibles (1 à 4). »
    # « Placez un jeton Ziggurat sur les régions 5 et 6 »; « 6 jetons Ziggurat ».
    assert sorted(START_OF) == [1, 2, 3, 4, 5, 6]
    assert MAP["start_regions"]["numbers"] == [1, 2, 3, 4]
    assert MAP["start_regions"]["regions"] == {str(n): START_OF[n] for n in (1, 2, 3, 4)}
    tokens = MAP["ziggurat_tokens"]
    assert tokens["always"] == {"5": START_OF[5], "6": START_OF[6]}
    assert tokens["tokens"] == 6 == len(MAP["start_regions"]["numbers"]) + len(tokens["always"])
    assert tokens["on_empty_start_regions"] is True


def test_start_regions_are_clear() -> None:
    for rid in ALL_STARTS:
        region = REGIONS[rid]
        assert not region["event_site"], f"{rid}: event site in a start region"
        assert region["tribe"] is None, f"{rid}: tribe in a start region"
        assert region["blocker"] is None, f"{rid}: blocker in a start region"
        # « Sélectionnez votre Région de départ pour y récolter la ressource de votre choix »
        assert region["resource"] is None, f"{rid}: a start region yields any resource"
        assert not ADJ[rid] & ALL_STARTS, f"{rid} touches another start region"


def test_start_regions_far_enough_apart() -> None:
    for a in BASE_STARTS:
        dist = _distances(a)
        for b in BASE_STARTS:
            if a != b:
                near = min(dist[n] for n in ADJ[b] if n in dist) + 1
                assert near >= 3, f"{a} is {near} steps from {b}"


# ------------------------------------------------------------------ event sites, tribes, blockers


def test_event_sites_by_terrain() -> None:
    # « 12 jetons Événement Plaine … 8 jetons Événement Montagne … 10 jetons Événement Désert »
    expected = {"plain": 12, "mountain": 8, "desert": 10}
    assert MAP["event_sites"]["by_terrain"] == expected
    assert MAP["event_sites"]["per_region"] == 1
    sites = [r for r in REGIONS.values() if r["event_site"]]
    assert dict(Counter(r["terrain"] for r in sites)) == expected
    assert len(sites) == 30


def test_tribe_figures_as_the_box() -> None:
    # « 3 figurines Cavalier tribal … 9 figurines Lancier tribal … 6 figurines Archer tribal »
    expected = {"cavalry": 3, "spearman": 9, "archer": 6}
    assert MAP["neutral_tribes"]["figures"] == expected
    totals = {kind: sum(t[kind] for t in TRIBES.values()) for kind in TRIBE_KINDS}
    assert totals == expected
    for rid, tribe in TRIBES.items():
        assert sum(tribe[k] for k in TRIBE_KINDS) >= 1, f"{rid}: empty tribe"
        assert all(isinstance(tribe[k], int) and tribe[k] >= 0 for k in TRIBE_KINDS), rid


def test_tribes_defend_event_sites() -> None:
    # « Les Tribus neutres défendent les lieux Événement. »
    assert MAP["neutral_tribes"]["on_event_sites"] is True
    for rid in TRIBES:
        assert REGIONS[rid]["event_site"], f"{rid}: a tribe without an event to guard"
        assert REGIONS[rid]["blocker"] is None, f"{rid}: a tribe in a blocker region"


def test_blocker_sites_for_three_and_two_players() -> None:
    # « 9 jetons Bloqueur »; 3 players: « placez un total de 4 jetons »; 2 players: « 8 jetons ».
    blockers = MAP["blockers"]
    assert blockers["tokens"] == 9
    assert blockers["by_players"]["3"]["tokens"] == 4
    assert blockers["by_players"]["2"]["tokens"] == 8
    assert set(blockers["by_players"]) == {"2", "3"}, "no blockers from 4 players up"
    for players in (2, 3):
        rule = blockers["by_players"][str(players)]
        assert len(_blocked(players)) == rule["tokens"] <= blockers["tokens"]
    assert _blocked(3) < _blocked(2)
    assert {r["blocker"] for r in REGIONS.values()} == {None, "a", "b"}
    assert set(blockers["symbols"]) == {"a", "b"}


def test_blockers_leave_start_regions_free() -> None:
    for rid in _blocked(2):
        assert rid not in ALL_STARTS, rid
        for start in BASE_STARTS:
            assert rid not in ADJ[start], f"blocker {rid} next to start region {start}"


# ------------------------------------------------------------------ resources


def test_resource_symbols() -> None:
    assert set(MAP["resources"]["kinds"]) == set(RESOURCES)
    counts = Counter(r["resource"] for r in REGIONS.values())
    assert set(counts) <= {*RESOURCES, None}
    for kind in RESOURCES:
        assert 7 <= counts[kind] <= 12, f"{kind}: {counts[kind]} regions"


def test_every_start_region_touches_all_four_resources() -> None:
    for rid in ALL_STARTS:
        near = {REGIONS[n]["resource"] for n in ADJ[rid]}
        assert set(RESOURCES) <= near, f"{rid} lacks {set(RESOURCES) - near} next door"


# ------------------------------------------------------------------ fairness of the four starts


@pytest.mark.parametrize("players", [4, 3, 2])
def test_event_sites_within_two_steps_even(players: int) -> None:
    blocked = _blocked(players)
    counts = {
        s: len([r for r in _within(s, 2) if REGIONS[r]["event_site"] and r not in blocked])
        for s in BASE_STARTS
    }
    assert min(counts.values()) >= 8, counts
    assert _spread(counts.values()) <= EVENTS_WITHIN_2_SPREAD, counts


def test_tribes_within_two_steps_even() -> None:
    sites = {s: [r for r in _within(s, 2) if r in TRIBES] for s in BASE_STARTS}
    figures = {s: sum(TRIBES[r][k] for r in rs for k in TRIBE_KINDS) for s, rs in sites.items()}
    assert min(len(rs) for rs in sites.values()) >= 2, sites
    assert _spread(len(rs) for rs in sites.values()) <= TRIBE_SITES_WITHIN_2_SPREAD, sites
    assert _spread(figures.values()) <= TRIBE_FIGURES_WITHIN_2_SPREAD, figures


def test_free_events_next_to_every_start() -> None:
    for s in BASE_STARTS:
        free = [n for n in ADJ[s] if REGIONS[n]["event_site"] and n not in TRIBES]
        assert len(free) >= MIN_FREE_ADJACENT_EVENTS, (s, free)


def test_extra_start_regions_usable() -> None:
    # Regions 5 and 6 carry a ziggurat token with 2-4 players and serve as start regions with 5
    # or 6 players (a ruling): they are held to a looser standard than regions 1-4 (the corner
    # of Carchemish is poorer in events, the Diyala richer but better guarded).
    for number in (5, 6):
        rid = START_OF[number]
        events = [r for r in _within(rid, 2) if REGIONS[r]["event_site"]]
        assert len(events) >= 4, (rid, events)
        assert [n for n in ADJ[rid] if REGIONS[n]["event_site"] and n not in TRIBES], rid


def test_each_resource_within_two_steps_of_every_start() -> None:
    for s in BASE_STARTS:
        near = Counter(REGIONS[r]["resource"] for r in _within(s, 2))
        for kind in RESOURCES:
            assert near[kind] >= 2, f"{s}: {near[kind]} {kind} regions within 2 steps"


# ------------------------------------------------------------------ rivers


def test_rivers_named_and_used() -> None:
    rivers = {r["id"] for r in MAP["rivers"]}
    assert {"tigris", "euphrates"} <= rivers
    used = {s["river"] for s in SECTIONS.values()}
    assert used == rivers


def test_sections_lie_between_neighbours() -> None:
    # « sur des sections fluviales, représentées par les lignes frontalières blanches séparant
    # deux régions adjacentes »
    borders = set()
    for sid, sec in SECTIONS.items():
        a, b = sec["regions"]
        assert a != b and a in REGIONS and b in REGIONS, sid
        assert b in ADJ[a], f"{sid}: {a} and {b} are not neighbours"
        border = frozenset((a, b))
        assert border not in borders, f"{sid}: two sections on one border"
        borders.add(border)
        e1, e2 = sec["ends"]
        assert e1 != e2 and e1 in JUNCTIONS and e2 in JUNCTIONS, sid


def test_junctions_join_sections() -> None:
    at: dict[str, list[str]] = {jid: [] for jid in JUNCTIONS}
    for sid, sec in SECTIONS.items():
        for end in sec["ends"]:
            at[end].append(sid)
    for jid, sids in at.items():
        kind = JUNCTIONS[jid]["kind"]
        assert kind in ("junction", "end"), jid
        if kind == "end":
            assert len(sids) == 1, f"{jid}: a river end with {len(sids)} sections"
            continue
        assert len(sids) >= 2, f"{jid}: a junction with {len(sids)} sections"
        around = {r for sid in sids for r in SECTIONS[sid]["regions"]}
        assert around == set(JUNCTIONS[jid]["regions"]), jid
        for a in around:  # the regions meeting at a point all border each other
            for b in around - {a}:
                assert b in ADJ[a], f"{jid}: {a} and {b} meet at a junction but do not touch"
        for i, s1 in enumerate(sids):  # a ship turning at a junction keeps one bank
            for s2 in sids[i + 1 :]:
                assert set(SECTIONS[s1]["regions"]) & set(SECTIONS[s2]["regions"]), (jid, s1, s2)


def test_confluences() -> None:
    rivers_at: dict[str, set[str]] = {}
    for sec in SECTIONS.values():
        for end in sec["ends"]:
            rivers_at.setdefault(end, set()).add(sec["river"])
    confluences = {jid for jid, rs in rivers_at.items() if len(rs) >= 2}
    assert len(confluences) >= 3
    tigris_euphrates = [j for j in confluences if {"tigris", "euphrates"} <= rivers_at[j]]
    assert len(tigris_euphrates) == 1, "the Tigris and the Euphrates meet once"


def test_each_river_is_a_chain() -> None:
    for river in {s["river"] for s in SECTIONS.values()}:
        sids = [sid for sid, s in SECTIONS.items() if s["river"] == river]
        ends = Counter(e for sid in sids for e in SECTIONS[sid]["ends"])
        assert all(n <= 2 for n in ends.values()), f"{river} forks on itself"
        assert sum(1 for n in ends.values() if n == 1) == 2, f"{river} is not one line"
        assert _connected(sids, _section_graph()), f"{river} is broken"


def test_river_network_connected() -> None:
    assert len(SECTIONS) >= 12
    assert _connected(SECTIONS, _section_graph())


def test_ships_can_reach_every_start_region() -> None:
    # « constructible sur toute section fluviale adjacente à votre Région de départ »
    for rid in ALL_STARTS:
        assert _ship_reach(rid, 0), f"{rid}: no river section to build a ship on"
    reach = {s: len(_ship_reach(s, 3)) for s in BASE_STARTS}
    assert min(reach.values()) >= 4, reach
    assert _spread(reach.values()) <= SHIP_REACH_SPREAD, reach


def test_ship_rules_quoted() -> None:
    assert MAP["ships"]["speed"] == 3  # « Navire 3 »
    assert MAP["ships"]["per_section"] == 1  # « Seul 1 Navire à la fois »


# ------------------------------------------------------------------ trade area


def test_trade_levels_and_slots() -> None:
    trade = MAP["trade_area"]
    levels = trade["levels"]
    assert [lv["level"] for lv in levels] == [1, 2, 3, 4]
    slot_level = {s["id"]: lv["level"] for lv in levels for s in lv["slots"]}
    assert len(slot_level) == 12
    for lv in levels:
        assert len(lv["slots"]) == 3  # « Pour chaque section, placez 3 jetons »
        assert any(s["ship"] for s in lv["slots"]), f"level {lv['level']}: no ship slot"
    assert trade["tokens"]["total"] == 20 == 4 * trade["tokens"]["per_level"]
    expected = {"4": [3, 3, 3, 3], "3": [2, 2, 2, 3], "2": [1, 2, 1, 2]}
    ship = {s["id"] for lv in levels for s in lv["slots"] if s["ship"]}
    for players, per_level in expected.items():
        used = trade["used_slots"][players]
        assert len(used) == len(set(used)) and set(used) <= set(slot_level), players
        counts = Counter(slot_level[s] for s in used)
        assert [counts[lv] for lv in (1, 2, 3, 4)] == per_level, players
        assert set(used) & ship, f"{players} players: no slot needs a ship"
    assert sum(expected["3"]) == 9 and sum(expected["2"]) == 6  # « seuls 9 » / « seuls 6 »
