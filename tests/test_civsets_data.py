"""Data checks for the Civilizations (``civsets``) quiz deck: data/civsets/cards.json (the
deck: ids and right answers) and its texts in data/locales/<lang>/civsets_cards.json.

Pure data test: no network, no engine code. Every assertion message names the failing card.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "civsets" / "cards.json"
TEXTS = {lang: ROOT / "data" / "locales" / lang / "civsets_cards.json" for lang in ("en", "fr")}

LANGS = ("en", "fr")
CIV_IDS = ("sumerians", "babylonians", "egyptians", "greeks", "persians", "romans")
DEITIES = {
    "sumerians": ("Enki", "Enki"),
    "babylonians": ("Marduk", "Marduk"),
    "egyptians": ("Thoth", "Thot"),
    "greeks": ("Hermes", "Hermès"),
    "persians": ("Mithra", "Mithra"),
    "romans": ("Mercury", "Mercure"),
}
CARDS_PER_CIV = 12
NAME_MIN, NAME_MAX = 5, 24
QUESTION_MAX = 150
OPTION_MAX = 40
EXPLANATION_MAX = 200
ANSWER_MIN, ANSWER_MAX = 15, 21  # times each index 0-3 must be the right answer
ID_RE = re.compile(r"^(?P<civ>[a-z]+)-(?P<num>\d{2})$")
# French typography: a space (normal, no-break or narrow no-break) before ? ! : ;
FR_PUNCT_RE = re.compile(r"[^ \u00a0\u202f][?!:;]")


def _load() -> dict[str, Any]:
    """The deck with every text of each card and deity in both languages, as one document
    (the shape the checks below were written for)."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    texts = {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in TEXTS.items()}

    def field(key: str) -> dict[str, str]:
        return {lang: texts[lang][key] for lang in LANGS}

    for civ in data["civilizations"]:
        deity = "civsets.card." + civ["deity"].replace("-", "_")
        civ["name"] = field(f"civsets.civ.{civ['id']}")
        civ["deity"] = {"id": civ["deity"], "name": field(deity),
                        "epithet": field(deity + ".epithet")}
        for card in civ["cards"]:
            key = "civsets.card." + card["id"].replace("-", "_")
            card.update(name=field(key), question=field(key + ".q"),
                        options={lang: [texts[lang][f"{key}.a{i}"] for i in range(4)]
                                 for lang in LANGS},
                        explanation=field(key + ".why"))
    return data


DECK = _load()
CIVS: list[dict[str, Any]] = DECK["civilizations"]
CARDS: list[dict[str, Any]] = [card for civ in CIVS for card in civ["cards"]]


def _texts(card: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) for every text field of a card, both languages."""
    out: list[tuple[str, str]] = []
    for lang in LANGS:
        out.append((f"name.{lang}", card["name"][lang]))
        out.append((f"question.{lang}", card["question"][lang]))
        out.extend((f"options.{lang}[{i}]", o) for i, o in enumerate(card["options"][lang]))
        out.append((f"explanation.{lang}", card["explanation"][lang]))
    return out


def _norm(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ").casefold()


def test_header_and_civilizations() -> None:
    assert DECK.get("designed_for", "").startswith("Dingir"), "designed_for must credit Dingir"
    assert tuple(civ["id"] for civ in CIVS) == CIV_IDS, "civilization ids or order"
    for civ in CIVS:
        cid = civ["id"]
        for lang in LANGS:
            assert civ["name"][lang].strip(), f"{cid}: empty name.{lang}"
        deity = civ["deity"]
        assert deity["id"] == f"wild-{cid}", f"{cid}: deity id {deity['id']!r}"
        assert (deity["name"]["en"], deity["name"]["fr"]) == DEITIES[cid], f"{cid}: deity name"
        for lang in LANGS:
            assert deity["epithet"][lang].strip(), f"{cid}: empty deity epithet.{lang}"


def test_twelve_cards_per_civilization_with_well_formed_ids() -> None:
    for civ in CIVS:
        cid = civ["id"]
        ids = [card["id"] for card in civ["cards"]]
        assert len(ids) == CARDS_PER_CIV, f"{cid}: {len(ids)} cards"
        assert ids == [f"{cid}-{n:02d}" for n in range(1, CARDS_PER_CIV + 1)], f"{cid}: ids {ids}"
    all_ids = [card["id"] for card in CARDS]
    dupes = [i for i, n in Counter(all_ids).items() if n > 1]
    assert not dupes, f"duplicate card ids: {dupes}"
    for card in CARDS:
        m = ID_RE.match(card["id"])
        assert m and m["civ"] in CIV_IDS, f"{card['id']}: malformed id"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_card_fields(card: dict[str, Any]) -> None:
    cid = card["id"]
    assert set(card) == {"id", "name", "question", "options", "answer", "explanation"}, (
        f"{cid}: unexpected keys {sorted(card)}"
    )
    for field in ("name", "question", "explanation"):
        for lang in LANGS:
            value = card[field].get(lang)
            assert isinstance(value, str) and value.strip(), f"{cid}: empty {field}.{lang}"
            assert value == value.strip(), f"{cid}: stray whitespace in {field}.{lang}"
    for lang in LANGS:
        opts = card["options"].get(lang)
        assert isinstance(opts, list) and len(opts) == 4, f"{cid}: need 4 options in {lang}"
        assert all(isinstance(o, str) and o.strip() for o in opts), f"{cid}: empty option {lang}"
        assert len({_norm(o) for o in opts}) == 4, f"{cid}: repeated option in {lang}"
    answer = card["answer"]
    assert isinstance(answer, int) and not isinstance(answer, bool), f"{cid}: answer not an int"
    assert 0 <= answer <= 3, f"{cid}: answer {answer} out of range"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_card_lengths(card: dict[str, Any]) -> None:
    cid = card["id"]
    for lang in LANGS:
        name = card["name"][lang]
        assert NAME_MIN <= len(name) <= NAME_MAX, f"{cid}: name.{lang} {name!r} is {len(name)}"
        q = card["question"][lang]
        assert len(q) <= QUESTION_MAX, f"{cid}: question.{lang} is {len(q)} chars"
        assert q.endswith("?"), f"{cid}: question.{lang} should end with '?'"
        for i, opt in enumerate(card["options"][lang]):
            assert len(opt) <= OPTION_MAX, f"{cid}: options.{lang}[{i}] is {len(opt)} chars"
        e = card["explanation"][lang]
        assert len(e) <= EXPLANATION_MAX, f"{cid}: explanation.{lang} is {len(e)} chars"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_french_punctuation_spacing(card: dict[str, Any]) -> None:
    for label, text in _texts(card):
        if label.endswith(".fr") or ".fr[" in label:
            bad = FR_PUNCT_RE.search(text)
            assert bad is None, f"{card['id']}: {label} needs a space before {bad.group()[-1]!r}"


def test_answer_index_spread() -> None:
    spread = Counter(card["answer"] for card in CARDS)
    for index in range(4):
        assert ANSWER_MIN <= spread[index] <= ANSWER_MAX, (
            f"answer index {index} is right {spread[index]} times; "
            f"cards: {[c['id'] for c in CARDS if c['answer'] == index]}"
        )


def test_names_distinct() -> None:
    seen: dict[str, str] = {}
    for card in CARDS:
        for lang in LANGS:
            key = _norm(card["name"][lang])
            other = seen.get(key)
            assert other in (None, card["id"]), f"{card['id']}: name {key!r} also on {other}"
            seen[key] = card["id"]


def test_secrecy_card_names_do_not_leak() -> None:
    """No card name (either language) may appear in another card's text or in a civ/deity."""
    holders: list[tuple[str, str]] = []  # (where, text) for civilization and deity strings
    for civ in CIVS:
        for lang in LANGS:
            holders.append((f"civilization {civ['id']} name.{lang}", civ["name"][lang]))
            holders.append((f"deity {civ['deity']['id']} name.{lang}", civ["deity"]["name"][lang]))
            holders.append(
                (f"deity {civ['deity']['id']} epithet.{lang}", civ["deity"]["epithet"][lang])
            )
    problems: list[str] = []
    for card in CARDS:
        names = {_norm(card["name"][lang]) for lang in LANGS}
        for other in CARDS:
            if other is card:
                continue
            for label, text in _texts(other):
                problems.extend(
                    f"{card['id']} name {n!r} appears in {other['id']} {label}"
                    for n in names
                    if n in _norm(text)
                )
        for where, text in holders:
            problems.extend(
                f"{card['id']} name {n!r} appears in {where}" for n in names if n in _norm(text)
            )
    assert not problems, "\n".join(problems)


def test_secrecy_wild_card_names_do_not_leak() -> None:
    """Wild cards sit in hands too: no deity name may appear in any card's text."""
    problems = [
        f"deity {deity!r} appears in {card['id']} {label}"
        for pair in DEITIES.values()
        for deity in {_norm(d) for d in pair}
        for card in CARDS
        for label, text in _texts(card)
        if deity in _norm(text)
    ]
    assert not problems, "\n".join(problems)
