"""Data checks for Mesopotamia (``mesopotamia``): the Dingir dice, the technology cards and the
four base empires with their civilization cards (data/mesopotamia/dice.json,
technologies.json, empires.json); the civilization cards of the four expansion empires
(expansions.json) are held to the same checks.

Pure data test: no network, no engine code. The contents were designed for this project (the
rulebook gives the rules, not the printed faces and cards); these checks pin every number the
rulebook states and the invariants the engine relies on, so the designed numbers can be tuned
without breaking the shape of the game.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "mesopotamia"
SEED = Path(os.environ.get(
    "MESOPOTAMIA_SEED",
    Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_5aa664732721ab18.txt"))
LANGS = ("en", "fr")
DISPLAY_KEYS = ("name", "text", "people", "flavour", "summary")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
BASIC_RESOURCES = {"stone", "wood", "clay", "food"}
ACTION_IDS = ("exploration", "construction", "research", "harvest_trade", "war", "growth")

# The technology names, level by level, as the rulebook's tables give them.
TEXT_NAMES: dict[str, tuple[str, str, str, str]] = {
    "exploration": ("Cartographie", "Astronomie", "Calendrier", "Navigation à voile"),
    "construction": ("Maçonnerie", "Travail du bois", "Urbanisation", "Architecture"),
    "research": ("Cunéiforme", "Mathématiques", "Littérature", "Codes juridiques"),
    "harvest_trade": (
        "Récolte de ressources",
        "Poids et mesures",
        "Routes commerciales",
        "Monnaie",
    ),
    "war": ("Fonte du bronze", "Tir à l'arc", "Élevage", "Roue de char"),
    "growth": ("Agriculture", "Irrigation", "Poterie", "Brassage"),
}
# « Commence avec la Technologie de Recherche niv. 2 : Mathématiques » and the three others.
START_TECH = {
    "sumerian": "mathematics",
    "babylonian": "irrigation",
    "akkadian": "archery",
    "elamite": "weights_and_measures",
}
# Chance to activate each card when one die is rolled per sign, each die of a colour chosen
# uniformly (so every die shows one of the 18 faces of the three colours, equally likely); a
# star stands for one sign. Recorded here so that a change of faces or costs is deliberate.
ACTIVATION_ODDS: dict[str, Fraction] = {
    "cartography": Fraction(1, 3),
    "masonry": Fraction(1, 3),
    "cuneiform": Fraction(1, 3),
    "resource_gathering": Fraction(1, 3),
    "bronze_casting": Fraction(1, 3),
    "agriculture": Fraction(1, 3),
    "astronomy": Fraction(17, 108),
    "woodworking": Fraction(17, 108),
    "mathematics": Fraction(17, 108),
    "weights_and_measures": Fraction(17, 108),
    "archery": Fraction(17, 108),
    "irrigation": Fraction(17, 108),
    "calendar": Fraction(13, 108),
    "urbanisation": Fraction(41, 324),
    "literature": Fraction(13, 108),
    "trade_routes": Fraction(13, 108),
    "animal_husbandry": Fraction(13, 108),
    "pottery": Fraction(13, 108),
    "sailing": Fraction(31, 324),
    "architecture": Fraction(31, 324),
    "law_codes": Fraction(23, 324),
    "currency": Fraction(31, 324),
    "chariot_wheel": Fraction(31, 324),
    "brewing": Fraction(31, 324),
}


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


DICE = _load("dice.json")
TECH = _load("technologies.json")
EMP = _load("empires.json")
EXP = _load("expansions.json")
FILES = {"dice.json": DICE, "technologies.json": TECH, "empires.json": EMP,
         # the expansions' empires in the same form (their decks: test_mesopotamia_expansions)
         "expansions.json": {k: EXP[k] for k in ("designed_for", "game", "seed", "empires")}}
EVERY_EMPIRE: list[dict[str, Any]] = [*EMP["empires"], *EXP["empires"]]
"""The base empires, then the expansions' (expansions.json, in the same form)."""
CIV_CARDS: list[dict[str, Any]] = [c for e in EVERY_EMPIRE for c in e["civilization_cards"]]

SIGNS: dict[str, dict[str, Any]] = {s["id"]: s for s in DICE["signs"]}
STAR = next(sid for sid, s in SIGNS.items() if s["star"])
COLOURS: dict[str, list[str]] = {d["id"]: d["faces"] for d in DICE["dice"]}
TECHS: dict[str, dict[str, Any]] = {t["id"]: t for t in TECH["technologies"]}
BY_SLOT: dict[tuple[str, int], dict[str, Any]] = {
    (t["action"], t["level"]): t for t in TECH["technologies"]
}
EMPIRES: dict[str, dict[str, Any]] = {e["id"]: e for e in EMP["empires"]}


def _walk(node: Any, path: str = "") -> list[tuple[str, str, Any]]:
    """Every (path, key, value) in a JSON tree."""
    found: list[tuple[str, str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append((f"{path}/{key}", key, value))
            found.extend(_walk(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_walk(value, f"{path}[{i}]"))
    return found


def _resolved(card: dict[str, Any]) -> dict[str, Any]:
    """A civilization card as the engine sees it: its technology, with the variant applied."""
    base = TECHS[card["technology"]]
    out = dict(base)
    variant = card["variant"]
    if variant is not None:
        out["effect"] = {**base["effect"], **variant["effect"]}
        out["text"] = variant["text"]
        out["signs"] = variant.get("signs", base["signs"])
    return out


def _can_activate(faces: tuple[str, ...], signs: list[str]) -> bool:
    """One die per sign; a star die stands for any one sign."""
    left = list(faces)
    stars_needed = 0
    for sign in signs:
        if sign in left:
            left.remove(sign)
        else:
            stars_needed += 1
    return left.count(STAR) >= stars_needed


def _odds(pool: list[list[str]], signs: list[str]) -> Fraction:
    """Exact chance that rolling the dice of ``pool`` (lists of faces) can pay ``signs``."""
    # faces that are neither a needed sign nor the star are all alike: count them once
    dice = [Counter(f if f in signs or f == STAR else "" for f in faces) for faces in pool]
    good = 0
    for roll in itertools.product(*(list(d.items()) for d in dice)):
        if _can_activate(tuple(face for face, _ in roll), signs):
            weight = 1
            for _, n in roll:
                weight *= n
            good += weight
    total = 1
    for faces in pool:
        total *= len(faces)
    return Fraction(good, total)


def _face_share(sign: str) -> Fraction:
    faces = [f for fs in COLOURS.values() for f in fs]
    return Fraction(faces.count(sign), len(faces))


def _by_level(values: dict[str, Fraction]) -> dict[int, list[Fraction]]:
    out: dict[int, list[Fraction]] = {1: [], 2: [], 3: [], 4: []}
    for tid, value in values.items():
        out[TECHS[tid]["level"]].append(value)
    return out


def _strictly_falling(per_level: dict[int, list[Fraction]]) -> None:
    for level in (2, 3, 4):
        assert max(per_level[level]) < min(per_level[level - 1]), (
            f"a level-{level} card is as easy to activate as a level-{level - 1} card: {per_level}"
        )


# ------------------------------------------------------------------ headers and text


def test_designed_for_this_project() -> None:
    for name, data in FILES.items():
        assert data["designed_for"].startswith("Dingir"), name
        assert data["game"] == "mesopotamia", name
        assert data["seed"] == "004_5aa664732721ab18.txt", name


def test_every_displayed_string_in_english_and_french() -> None:
    found = [
        (f"{name}{path}", value)
        for name, data in FILES.items()
        for path, key, value in _walk(data)
        if key in DISPLAY_KEYS
    ]
    assert len(found) > 100, "displayed strings were not found"
    for path, value in found:
        assert isinstance(value, dict), f"{path}: not an en/fr object"
        assert set(value) == set(LANGS), f"{path}: languages {sorted(value)}"
        for lang in LANGS:
            assert isinstance(value[lang], str) and value[lang].strip(), f"{path}: empty {lang}"


def test_french_texts_are_french() -> None:
    for name, data in FILES.items():
        for path, key, value in _walk(data):
            if key in DISPLAY_KEYS and isinstance(value, dict):
                fr, en = value["fr"], value["en"]
                assert not re.search(r"\b(the|and|or|with|each)\b", fr), f"{name}{path}: {fr}"
                assert " :" not in en, f"{name}{path}: French colon spacing in English: {en}"
                if ":" in fr:
                    assert " :" in fr, f"{name}{path}: French needs a space before ':'"


def test_every_source_is_a_nonempty_quote() -> None:
    sources = [(n, p, v) for n, d in FILES.items() for p, k, v in _walk(d) if k == "_source"]
    assert len(sources) > 40
    for name, path, value in sources:
        assert isinstance(value, str) and len(value.strip()) > 10, f"{name}{path}"


def test_sources_are_verbatim_in_the_rulebook() -> None:
    if not SEED.is_file():
        pytest.skip(f"rulebook not available at {SEED} (set MESOPOTAMIA_SEED)")
    text = " ".join(SEED.read_text(encoding="utf-8").replace("**", "").split())
    checked = 0
    for name, data in FILES.items():
        for path, key, value in _walk(data):
            if key.endswith("_source"):
                for piece in value.split(" … "):
                    piece = " ".join(piece.split())
                    assert piece in text, f"{name}{path}: not in the rulebook: {piece!r}"
                    checked += 1
    assert checked > 60


def test_ids_unique_and_snake_case() -> None:
    groups: dict[str, list[str]] = {
        "signs": [s["id"] for s in DICE["signs"]],
        "dice": [d["id"] for d in DICE["dice"]],
        "actions": [a["id"] for a in TECH["actions"]],
        "structures": [s["id"] for s in TECH["structures"]],
        "technologies": [t["id"] for t in TECH["technologies"]],
        "empires": [e["id"] for e in EMP["empires"]],
        "civilization_cards": [c["id"] for c in CIV_CARDS],
        "bonuses": [b["id"] for e in EVERY_EMPIRE for b in e["bonuses"]],
    }
    for group, ids in groups.items():
        assert ids, group
        duplicates = [i for i, n in Counter(ids).items() if n > 1]
        assert not duplicates, f"{group}: duplicate ids {duplicates}"
        for i in ids:
            assert i.isascii() and SNAKE.match(i), f"{group}: {i!r} is not ascii snake_case"


# ------------------------------------------------------------------ Dingir dice


def test_three_colours_as_the_text_gives() -> None:
    rules = DICE["rules"]
    assert list(COLOURS) == ["white", "silver", "black"]
    assert rules["colours"]["ids"] == list(COLOURS)
    # « 8 dés Dingir blancs » … « 8 dés Dingir argentés » … « 8 dés Dingir noirs »
    assert {c: rules["supply"][c] for c in COLOURS} == {"white": 8, "silver": 8, "black": 8}


def test_six_faces_with_exactly_one_star() -> None:
    assert DICE["rules"]["faces_per_die"]["count"] == 6
    assert DICE["rules"]["star"]["faces_per_die"] == 1
    assert DICE["rules"]["star"]["sign"] == STAR
    assert [sid for sid, s in SIGNS.items() if s["star"]] == [STAR], "exactly one star sign"
    for colour, faces in COLOURS.items():
        assert len(faces) == 6, colour
        # « Les dés Dingir comptent tous une face avec une étoile »
        assert faces.count(STAR) == 1, f"{colour}: {faces.count(STAR)} star faces"
        for face in faces:
            assert face in SIGNS, f"{colour}: unknown sign {face}"


def test_every_sign_is_on_a_die_and_glyphs_are_cuneiform() -> None:
    on_dice = {f for faces in COLOURS.values() for f in faces}
    assert set(SIGNS) == on_dice, "a sign no die shows, or a face with no sign"
    for sid, sign in SIGNS.items():
        assert len(sign["glyph"]) == 1 and 0x12000 <= ord(sign["glyph"]) <= 0x1247F, sid


def test_dice_numbers_from_the_text() -> None:
    rules = DICE["rules"]
    assert rules["max_dice"]["count"] == 6  # « pour un maximum de 6 dés »
    assert rules["reroll"]["cost"] == {"tablet": 1}  # « au prix d'1 Tablette »
    assert rules["reroll"]["max_per_turn"] == 3  # « limité à trois par Tour »
    assert rules["reroll"]["dice"] == "any_number"
    assert {k: v for k, v in rules["signs_per_level"].items() if k != "_source"} == {
        "1": 1,
        "2": 2,
        "3": 2,
        "4": 2,
    }
    assert rules["one_die_per_sign"]["dice_per_sign"] == 1
    assert rules["star"]["replaces_signs"] == 1
    pawn = rules["action_selection_pawn"]
    assert pawn["activations_per_turn"] == 1 and pawn["min_actions_per_turn"] == 1
    assert pawn["needs_signs"] is False
    assert rules["one_action_per_type"]["max_per_type_per_turn"] == 1


def test_storey_colour_rules_end_with_two_of_each_colour() -> None:
    steps = DICE["rules"]["colour_per_storey"]["storeys"]
    assert [s["storey"] for s in steps] == [1, 2, 3, 4, 5, 6]
    valid = 0
    for picks in itertools.product(list(COLOURS), repeat=6):
        ok = True
        for i, step in enumerate(steps):
            if step["choose"] == "not_owned":
                ok = ok and picks[i] not in picks[:i]
            elif step["choose"] == "differs_from_storeys":
                ok = ok and all(picks[i] != picks[s - 1] for s in step["storeys"])
            else:
                assert step["choose"] == "any"
        if ok:
            valid += 1
            # « vous aurez ainsi deux dés Dingir de chaque couleur »
            assert Counter(picks) == dict.fromkeys(COLOURS, 2), picks
    assert valid == 36  # 3! orders of the first three storeys x 3! of the last three
    assert DICE["rules"]["colour_per_storey"]["final_per_colour"] == 2
    assert DICE["rules"]["supply"]["white"] >= 2 * 4, "two of each colour for 4 players"


def test_no_chance_variant_excludes_the_star() -> None:
    variant = DICE["variants"]["no_chance"]
    assert variant["set_to"] == "any_face_of_the_die_except_star"
    assert "sauf l'Étoile" in variant["_source"]


# ------------------------------------------------------------------ technology cards


def test_six_actions_four_levels() -> None:
    assert [a["id"] for a in TECH["actions"]] == list(ACTION_IDS)
    assert TECH["rules"]["actions"]["count"] == 6 == len(ACTION_IDS)
    assert TECH["rules"]["levels"]["count"] == 4
    assert len(TECHS) == 24
    assert set(BY_SLOT) == {(a, lv) for a in ACTION_IDS for lv in (1, 2, 3, 4)}


def test_technology_names_are_the_texts() -> None:
    for action, names in TEXT_NAMES.items():
        for level, name in enumerate(names, start=1):
            assert BY_SLOT[(action, level)]["name"]["fr"] == name, (action, level)


def test_every_cost_uses_signs_the_dice_have() -> None:
    per_level = DICE["rules"]["signs_per_level"]
    cards = list(TECHS.values()) + [_resolved(c) for c in CIV_CARDS]
    for card in cards:
        signs = card["signs"]
        assert len(signs) == per_level[str(card["level"])], card["id"]
        for sign in signs:
            assert sign in SIGNS and sign != STAR, f"{card['id']}: {sign}"
            assert any(sign in faces for faces in COLOURS.values()), f"{card['id']}: {sign}"


def test_activation_odds_are_the_recorded_ones_and_fall_with_level() -> None:
    pooled = [f for faces in COLOURS.values() for f in faces]
    odds = {tid: _odds([pooled] * len(t["signs"]), t["signs"]) for tid, t in TECHS.items()}
    assert odds == ACTIVATION_ODDS
    _strictly_falling(_by_level(odds))
    assert ACTIVATION_ODDS["cartography"] == Fraction(1, 3)  # 2 faces in 6: sign or star


def test_odds_fall_with_level_for_real_dice_sets() -> None:
    one_each = [COLOURS[c] for c in COLOURS]
    full = [COLOURS[c] for c in COLOURS for _ in range(2)]
    for pool in (one_each, full):
        odds = {tid: _odds(pool, t["signs"]) for tid, t in TECHS.items()}
        _strictly_falling(_by_level(odds))


def test_signs_become_rarer_with_level() -> None:
    # « deux signes, qui deviennent également plus rares à mesure que vous améliorez »
    mean = {
        tid: sum((_face_share(s) for s in t["signs"]), Fraction(0)) / len(t["signs"])
        for tid, t in TECHS.items()
    }
    per_level = _by_level(mean)
    assert max(per_level[2]) <= min(per_level[1])
    for level in (3, 4):
        assert max(per_level[level]) < min(per_level[level - 1]), per_level
    assert _face_share(STAR) == Fraction(1, 6)


def test_exploration_numbers_from_the_text() -> None:
    assert TECHS["cartography"]["effect"]["activations"] == 1  # « permet d'activer une Unité »
    assert TECHS["astronomy"]["effect"]["activations"] == 2  # « Unité 2 fois »
    counts = [BY_SLOT[("exploration", lv)]["effect"]["activations"] for lv in (1, 2, 3, 4)]
    assert counts == sorted(counts) and len(set(counts)) == 4


def test_construction_unlocks_from_the_text() -> None:
    expected = {
        1: ["rampart", "ziggurat_storey"],
        2: ["ram", "ship"],
        3: ["colony"],
        4: ["hanging_gardens_storey"],
    }
    seen: list[str] = []
    for level, unlocks in expected.items():
        effect = BY_SLOT[("construction", level)]["effect"]
        assert effect["unlocks"] == unlocks, level
        seen += unlocks
        assert effect["can_build"] == seen, f"level {level} must keep the lower builds"
        assert effect["builds"] == 1
    structures = {s["id"]: s for s in TECH["structures"]}
    assert set(structures) == set(seen)
    for sid, s in structures.items():
        level = next(lv for lv, ids in expected.items() if sid in ids)
        assert s["level"] == level, sid
        if sid == "hanging_gardens_storey":
            assert s["cost"] == "tile"  # « les ressources indiquées sur la tuile »
        else:
            assert s["cost"] and set(s["cost"]) <= BASIC_RESOURCES, sid
            assert all(isinstance(n, int) and n > 0 for n in s["cost"].values()), sid
    assert structures["ziggurat_storey"]["max_storeys"] == 6  # « La Ziggurat compte 6 étages »
    assert TECH["rules"]["construction_2"]["builds"] == 2
    assert TECH["rules"]["gardens_need_architecture"]["technology"] == "architecture"


def test_research_numbers_from_the_text() -> None:
    assert TECHS["cuneiform"]["effect"]["convert"] == {"clay": 2, "tablet": 1}
    assert TECHS["law_codes"]["effect"]["convert"] == {"clay": 2, "tablet": 4}
    assert TECHS["literature"]["effect"]["discoveries"] == 2  # « jusqu'à deux Découvertes »
    assert TECH["rules"]["discovery"]["cost"] == {"tablet": 1}  # « 1 Tablette à chaque »
    # Tablets a Research action can make: 1, 2, 3, 4 by level (Mathematics 2 Clay -> 1 Tablet
    # twice, designed: R-conversion-once, R-garden-pace)
    effects = [BY_SLOT[("research", lv)]["effect"] for lv in (1, 2, 3, 4)]
    assert [e["convert"]["tablet"] * e["conversions"] for e in effects] == [1, 2, 3, 4]
    assert TECHS["mathematics"]["effect"]["convert"] == {"clay": 2, "tablet": 1}
    assert TECHS["mathematics"]["effect"]["conversions"] == 2
    found = [BY_SLOT[("research", lv)]["effect"]["discoveries"] for lv in (1, 2, 3, 4)]
    assert found == sorted(found) and found[0] >= 1


def test_harvest_trade_numbers_from_the_text() -> None:
    assert TECHS["resource_gathering"]["effect"]["harvests"] == 1  # « Récoltez 1 ressource »
    for level in (1, 2, 3, 4):
        effect = BY_SLOT[("harvest_trade", level)]["effect"]
        # « supérieur ou égal à celui de la section Échange »; Monnaie reaches level 4
        assert effect["trade_level"] == level
        assert effect["harvests"] >= 1 and effect["trades"] >= 1
    assert TECHS["currency"]["effect"]["trade_level"] == 4


def test_war_numbers_from_the_text() -> None:
    units = ["spearman", "archer", "cavalry", "chariot"]
    phalanxes = []
    for level in (1, 2, 3, 4):
        effect = BY_SLOT[("war", level)]["effect"]
        assert effect["unlocks_unit"] == units[level - 1]
        assert effect["unit_types"] == units[:level]  # « ou toute autre Unité de niveau inférieur »
        assert effect["units"] == 1  # « créer une Unité »
        phalanxes.append(effect["phalanxes"])
    # « Les Technologies militaires de niveau plus élevé offrent davantage de Phalanges »
    assert phalanxes == sorted(phalanxes) and len(set(phalanxes)) == 4
    assert TECH["rules"]["unit_cost"]["cost"] == {"wood": 1}  # « dépenser 1 Bois »


def test_growth_numbers_from_the_text() -> None:
    per_step = []
    for level in (1, 2, 3, 4):
        effect = BY_SLOT[("growth", level)]["effect"]
        assert effect["food"] >= 1 and effect["population"] >= 1
        per_step.append(Fraction(effect["food"], effect["population"]))
    # « Les Technologies de Croissance avancées réduisent la quantité de Nourriture requise »
    assert per_step == sorted(per_step, reverse=True) and per_step[0] > per_step[-1]
    assert per_step[0] > per_step[1] > per_step[2]
    # « vous permet généralement d'avancer d'une case »: most cards move exactly one case
    steps = [BY_SLOT[("growth", lv)]["effect"]["population"] for lv in (1, 2, 3, 4)]
    assert steps.count(1) >= 3
    assert TECH["rules"]["growth_step"]["population"] == 1


def test_card_texts_state_the_card_numbers() -> None:
    cards = list(TECHS.values()) + [_resolved(c) for c in CIV_CARDS]
    for card in cards:
        numbers = [
            v
            for _, k, v in _walk(card["effect"])
            if isinstance(v, int) and not isinstance(v, bool) and k != "conversions"
        ]
        for n in numbers:
            if n >= 2:
                for lang in LANGS:
                    assert re.search(rf"\b{n}\b", card["text"][lang]), (
                        f"{card['id']}: {n} missing from the {lang} text"
                    )


# ------------------------------------------------------------------ empires


def test_four_base_empires() -> None:
    assert list(EMPIRES) == ["sumerian", "babylonian", "akkadian", "elamite"]
    assert EMP["rules"]["empires"]["ids"] == list(EMPIRES)
    fr = {e["people"]["fr"] for e in EMPIRES.values()}
    assert fr == {"Sumériens", "Babyloniens", "Akkadiens", "Élamites"}


def test_common_start_from_the_text() -> None:
    for eid, emp in EMPIRES.items():
        start = emp["start"]
        # « 1 Pierre 1 Bois 1 Argile 1 Nourriture »
        for res in BASIC_RESOURCES:
            assert start["resources"][res] == 1, (eid, res)
        assert sum(start["units"].values()) == 1, f"{eid}: one starting unit"
        levels = start["technologies"]
        assert set(levels) == set(ACTION_IDS)
        start_card = TECHS[START_TECH[eid]]
        assert levels[start_card["action"]] == 2 == start_card["level"]
        assert all(lv == 1 for a, lv in levels.items() if a != start_card["action"]), eid
        assert emp["start"]["dingir_dice"] == emp["start"]["ziggurat_storeys"]


def test_empire_bonuses_from_the_text() -> None:
    s, b, a, e = (EMPIRES[k]["start"] for k in EMPIRES)
    assert s["resources"]["tablet"] == 1  # « Commence avec 1 Tablette »
    assert s["ziggurat_storeys"] == 1 and s["dingir_dice"] == 1  # « premier étage »
    assert b["track"]["population"] == 2  # « sur la 2e case de la piste Population »
    assert a["resources"]["phalanx"] == 1  # « Commence avec 1 Phalange »
    assert a["units"] == {"archer": 1}  # « un Archer … au lieu d'un Lancier »
    for other in (s, b, e):
        assert other["units"] == {"spearman": 1}
        assert "phalanx" not in other["resources"]
    for other in (b, a, e):
        assert other["ziggurat_storeys"] == 0 and "tablet" not in other["resources"]
    for other in (s, a, e):
        assert other["track"]["population"] == 1
    for other in (s, b, a, e):
        assert other["track"]["event"] == 1
    elam = next(
        x["effect"]["start_placement"]
        for x in EMPIRES["elamite"]["bonuses"]
        if "start_placement" in x["effect"]
    )
    # « Peut placer 1 Colonie et 1 Rempart sur une même région adjacente à sa Région de départ »
    assert elam["pieces"] == {"colony": 1, "rampart": 1} and elam["same_region"] is True
    assert elam["optional"] is True and elam["region"] == "adjacent_to_start_region"
    assert elam["event_revealed"] is False  # « L'Événement de cette région n'est pas révélé »
    for emp in EMPIRES.values():
        for bonus in emp["bonuses"]:
            assert bonus["_source"].startswith(("Commence", "Peut")), bonus["id"]


def test_no_special_units_and_the_same_figures() -> None:
    figures = EMP["rules"]["figures_per_empire"]
    assert {k: v for k, v in figures.items() if k not in ("_source", "ruling")} == {
        "spearman": 3,
        "archer": 3,
        "cavalry": 2,
        "chariot": 2,
        "ship": 3,
        "ram": 2,
    }
    for eid, emp in EMPIRES.items():
        assert emp["special_units"] == [], f"{eid}: the rulebook gives no special unit"


def test_twenty_three_civilization_cards_per_empire() -> None:
    assert EMP["rules"]["civilization_cards_per_empire"]["count"] == 23
    assert EMP["rules"]["civilization_cards_expansions"] == {
        "hittite": 24,
        "mariote": 18,
        "_source": EMP["rules"]["civilization_cards_expansions"]["_source"],
    }
    # the reading: 24 cards minus the level-1 cards an empire never holds (Hittites start at
    # level 1 everywhere: 24; Mariotes at level 2 everywhere: 24 - 6 = 18)
    expansions = EMP["rules"]["civilization_cards_expansions"]
    assert expansions["hittite"] == len(TECHS)
    assert expansions["mariote"] == len(TECHS) - len(ACTION_IDS)
    # « 24 cartes Civilisation hittite … 23 cartes Civilisation assyrienne … »
    listed = {k: v for k, v in EXP["rules"]["civilization_cards"].items() if k != "_source"}
    counts = {**dict.fromkeys(EMPIRES, 23), **listed}
    assert sorted(counts) == sorted(e["id"] for e in EVERY_EMPIRE)
    for emp in EVERY_EMPIRE:
        eid, cards = emp["id"], emp["civilization_cards"]
        assert len(cards) == counts[eid], eid
        techs = [c["technology"] for c in cards]
        assert len(set(techs)) == len(techs) and set(techs) <= set(TECHS), eid
        missing = set(TECHS) - set(techs)
        above = {BY_SLOT[(a, 1)]["id"] for a, lv in emp["start"]["technologies"].items() if lv > 1}
        assert missing == above, f"{eid}: missing {missing}"
        if eid in START_TECH:
            assert missing == {BY_SLOT[(TECHS[START_TECH[eid]]["action"], 1)]["id"]}, eid
        for card in cards:
            assert card["id"] == f"{eid}_{card['technology']}"


COSTS = frozenset({"food", "clay"})
"""Effect numbers that a card spends (Food to grow, Clay to convert): a better card spends
less."""


def _numbers(effect: dict[str, Any]) -> dict[str, int]:
    """Every whole number of an effect, by its path (``/convert/tablet``)."""
    return {p: v for p, _, v in _walk(effect) if isinstance(v, int) and not isinstance(v, bool)}


def _others(effect: dict[str, Any]) -> dict[str, Any]:
    """Every value of an effect that is neither a number nor a group of values (the unit
    types, the structures it builds …), by its path."""
    return {p: v for p, _, v in _walk(effect)
            if p not in _numbers(effect) and not isinstance(v, dict)}


def test_variants_change_an_effect_and_keep_its_shape() -> None:
    """R-variants: a variant improves one number of the common card by one (more of what it
    gives, less of what it spends), with the same signs and the same other values; 3 to 5
    per empire, the expansion empires' too (R-expansion-empires), each said to be designed
    and led by its people's words in the rulebook."""
    variants = 0
    for emp in EVERY_EMPIRE:
        eid, count = emp["id"], 0
        for card in emp["civilization_cards"]:
            variant = card["variant"]
            if variant is None:
                continue
            count += 1
            base = TECHS[card["technology"]]
            assert variant["effect"], card["id"]
            assert set(variant["effect"]) <= set(base["effect"]), card["id"]
            assert "signs" not in variant, f"{card['id']}: a variant keeps the signs"
            effect = _resolved(card)["effect"]
            old, new = _numbers(base["effect"]), _numbers(effect)
            assert set(old) == set(new), f"{card['id']}: the same numbers as the common card"
            changed = [p for p in old if old[p] != new[p]]
            assert len(changed) == 1, f"{card['id']}: one number changed, not {changed}"
            gain = old[changed[0]] - new[changed[0]] if changed[0].rsplit("/", 1)[1] in COSTS \
                else new[changed[0]] - old[changed[0]]
            assert gain == 1, f"{card['id']}: a variant is a better card by one"
            assert _others(effect) == _others(base["effect"]), card["id"]
            assert variant["text"] != base["text"], card["id"]
            assert variant.get("_source") or variant.get("grounding"), card["id"]
            if eid not in EMPIRES:
                assert variant["grounding"].startswith("Designed for this project: «")
        assert 3 <= count <= 5, f"{eid}: {count} variants"
        variants += count
    assert variants >= 25


def test_expansion_variants_quote_their_people() -> None:
    """Each expansion variant is led by its people's description in the rulebook (« les
    Assyriens et leur discipline de fer … »): every «…» of its grounding is verbatim there."""
    if not SEED.is_file():
        pytest.skip(f"rulebook not available at {SEED} (set MESOPOTAMIA_SEED)")
    text = " ".join(SEED.read_text(encoding="utf-8").replace("**", "").split())
    quotes = 0
    for emp in EXP["empires"]:
        for card in emp["civilization_cards"]:
            if card["variant"]:
                for quote in re.findall(r"« (.+?) »", card["variant"]["grounding"]):
                    for piece in quote.split(" … "):
                        assert piece in text, f"{card['id']}: not in the rulebook: {piece!r}"
                        quotes += 1
    assert quotes >= 14


def test_construction_2_cards_say_so() -> None:
    found = 0
    for card in CIV_CARDS:
        resolved = _resolved(card)
        if resolved["action"] == "construction" and resolved["effect"]["builds"] == 2:
            found += 1
            # « Si une carte de Technologie d'un Empire indique « Construction 2 » »
            assert resolved["text"]["fr"].startswith("Construction 2 :"), card["id"]
            assert resolved["text"]["en"].startswith("Construction 2:"), card["id"]
    assert found >= 1, "the text says some empires have Construction 2 cards"


def test_sumerians_research_better() -> None:
    # « les Sumériens … peuvent utiliser l'action Recherche pour améliorer des Technologies
    # plus efficacement que les autres Empires »
    def research(eid: str) -> dict[int, int]:
        return {
            r["level"]: r["effect"]["discoveries"]
            for r in (_resolved(c) for c in EMPIRES[eid]["civilization_cards"])
            if r["action"] == "research"
        }

    sumer = research("sumerian")
    assert sorted(sumer) == [2, 3, 4]  # they start at Mathématiques
    for level, discoveries in sumer.items():
        assert discoveries > BY_SLOT[("research", level)]["effect"]["discoveries"], level
        for other in ("babylonian", "akkadian", "elamite"):
            assert discoveries > research(other)[level], (other, level)


def test_elamite_card_harvests_three() -> None:
    # « Le joueur Vert (Empire élamite) active une Technologie lui conférant :
    # « Récoltez 3 ressources. » »
    cards = [_resolved(c) for c in EMPIRES["elamite"]["civilization_cards"]]
    start = next(c for c in cards if c["id"] == START_TECH["elamite"])
    assert start["effect"]["harvests"] == 3
    assert "Récoltez 3 ressources" in start["text"]["fr"]


# ------------------------------------------------------------------ the other files' ids


MAP = _load("map.json")
COMBAT = _load("combat.json")
TRACKS: dict[str, dict[str, Any]] = MAP["tracks"]
MAP_REGIONS: dict[str, dict[str, Any]] = {r["id"]: r for r in MAP["regions"]}


def test_resources_and_units_are_those_of_the_map_and_the_decks() -> None:
    assert set(MAP["resources"]["kinds"]) == BASIC_RESOURCES
    stock = BASIC_RESOURCES | {"tablet", "phalanx"}
    units = set(COMBAT["decks"]) | {"ship", "ram"}
    figures = EMP["rules"]["figures_per_empire"]
    assert {k for k in figures if k not in ("_source", "ruling")} == units
    for tech in TECHS.values():
        effect = tech["effect"]
        for unit in effect.get("unit_types", []):
            assert unit in COMBAT["decks"], (tech["id"], unit)
        for res in effect.get("convert", {}):
            assert res in stock, (tech["id"], res)
        assert not set(effect.get("can_build", [])) & units - {"ship", "ram"}, tech["id"]
    # « Lancier 1 Archer 1 Cavalier 2 Char 2 Navire 3 »; a ram moves with its unit.
    speeds = {k: v for k, v in EMP["rules"]["speeds"].items() if k != "_source"}
    assert set(speeds) == units and speeds["ram"] is None
    assert speeds["ship"] == MAP["ships"]["speed"] == 3
    assert [speeds[u] for u in ("spearman", "archer", "cavalry", "chariot")] == [1, 1, 2, 2]
    pieces = {k: v for k, v in EMP["rules"]["pieces_per_empire"].items() if k != "_source"}
    # « 3 Colonies … 3 Remparts … 6 Amphores … 3 dés Événement … 2 Sceaux … 7 pièces »
    assert pieces == {
        "colony": 3,
        "rampart": 3,
        "amphora": 6,
        "event_die": 3,
        "seal": 2,
        "ziggurat_storeys": 6,
    }
    for eid, emp in EMPIRES.items():
        assert set(emp["start"]["resources"]) <= stock, eid
        assert set(emp["start"]["units"]) <= units, eid
        assert set(emp["start"]["technologies"]) == set(ACTION_IDS), eid


def test_start_cases_fit_the_tracks_of_the_map() -> None:
    pieces = EMP["rules"]["pieces_per_empire"]
    population = TRACKS["population"]
    limits = population["unit_limit"]
    # « le niv. 1 autorise un maximum de 2 Unités. Une fois au niv. 2, vous pourrez en posséder 4. »
    assert limits[:2] == [2, 4] and len(limits) == population["cases"]
    assert all(a < b for a, b in itertools.pairwise(limits))
    assert population["cases"] >= pieces["ziggurat_storeys"]  # storeys <= Population level
    storey = next(s for s in TECH["structures"] if s["id"] == "ziggurat_storey")
    assert pieces["ziggurat_storeys"] == storey["max_storeys"] == 6
    assert DICE["rules"]["max_dice"]["count"] == pieces["ziggurat_storeys"]
    order = EMP["rules"]["track_stack_order"]
    every = {**EMPIRES, **{e["id"]: e for e in _load("expansions.json")["empires"]}}
    for track in ("event", "population"):
        # the order names all eight empires, the expansions' too (expansions.json)
        cases = {eid: emp["start"]["track"][track] for eid, emp in every.items()}
        assert all(1 <= c < TRACKS[track]["cases"] for c in cases.values()), track
        # Every empire starting on case 1 has its place in the pile (Q-stack-order).
        assert sorted(order[track]) == sorted(e for e, c in cases.items() if c == 1), track
    for eid, emp in EMPIRES.items():
        start = emp["start"]
        level = start["track"]["population"]
        assert sum(start["units"].values()) <= limits[level - 1], eid
        assert start["ziggurat_storeys"] <= level, eid


def test_elamite_placement_is_possible_from_every_start_region() -> None:
    elam = next(
        b["effect"]["start_placement"]
        for b in EMPIRES["elamite"]["bonuses"]
        if "start_placement" in b["effect"]
    )
    assert set(elam["not_in"]) == {"start_region", "tribe", "blocker"}
    assert set(elam["pieces"]) <= {s["id"] for s in TECH["structures"]}
    for rid, region in MAP_REGIONS.items():
        if region["start"] is None:
            continue
        free = [
            n
            for n in region["neighbours"]
            if MAP_REGIONS[n]["start"] is None
            and not MAP_REGIONS[n]["tribe"]
            and not MAP_REGIONS[n]["blocker"]
        ]
        assert free, f"{rid}: no region for the Elamite colony and rampart"
