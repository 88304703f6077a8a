"""How Civilizations reads: the challenge first among the steps, swaps and purchases asked
one choice at a time, public texts about the players (never to "you"), refusals that name
their rule, and the grammar of the catalogue in English and French."""

from __future__ import annotations

import random
import re
import string
from collections import Counter

import pytest

from bot.engine import GameError, Seat, State, Text
from bot.games.civsets import checks, options
from bot.games.civsets.engine import GAME, VERBS
from bot.i18n import catalogue, translate
from bot.records import GameRecord, SeatInfo
from cogs import choices

NAMES = ("Alice", "Bob", "Éloïse", "Ugo", "Hélène", "Yann")
YOU = {"en": re.compile(r"\b(you|your)\b", re.I), "fr": re.compile(r"\b(vous|votre|vos)\b", re.I)}
NOT_ELIDED = re.compile(r"\b(?:[dD]e|[qQ]ue|[lL][ae]) [AEIOUYÉÈÊÀÂÎÔaeiouyéèêàâîô]")


def text(value: Text, lang: str = "en") -> str:
    return translate(value, lang, NAMES)


def positions(players: int = 4, seed: int = 3, every: int = 5) -> list[State]:
    """States met along random games."""
    rng = random.Random(seed)
    found = []
    for game in range(3):
        state = GAME.setup(seed + game, players, {})
        for k in range(2000):
            if GAME.outcome(state) is not None:
                break
            if k % every == 0:
                found.append(state)
            seat = rng.choice(GAME.active(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
    return found


def record_of(state: State) -> GameRecord:
    return GameRecord(id=1, guild_id=1, channel_id=1, game="civsets", status="running",
                      creator_id=1, options={}, seed=3,
                      seats=[SeatInfo(i, i + 1, NAMES[i]) for i in range(state["n"])],
                      state=state, version=9, active=GAME.active(state))


def test_the_challenge_comes_first_and_says_it_ends_the_turn() -> None:
    state = GAME.setup(1, 6, {})
    legal = GAME.legal(state, 0)
    assert [a.notation for a in legal[:5]] == [f"challenge {k}" for k in range(2, 7)]
    assert all(text(a.label).endswith("(ends your turn)") for a in legal[:5])
    assert text(legal[0].label, "fr").endswith("(votre tour s'achève)")
    record = record_of(state)
    options = [(i, a) for i, a in enumerate(legal) if a.group != "end"]
    _, top = choices.level_entries(record, options, (), "en")
    assert top[0].text == "challenge a player for a card (ends your turn)"
    assert top[0].choice is not None and len(top) <= 20          # all on the first page


def test_play_suggests_a_challenge_first_and_every_kind_of_step_in_its_25() -> None:
    state = GAME.setup(1, 6, {})
    suggested = choices.interleaved(a for a in GAME.legal(state, 0) if a.offered)[:25]
    assert suggested[0].notation == "challenge 2"
    kinds = {a.notation.split()[0] for a in suggested}
    assert {"challenge", "draw", "trade", "buy"} <= kinds
    assert sum(a.notation.startswith("challenge") for a in suggested) == 5


def test_a_swap_is_asked_whom_then_what_in_one_choice() -> None:
    state = GAME.setup(1, 6, {})
    legal = GAME.legal(state, 0)
    assert len(legal) > 60                          # 30 swaps and 30 purchases
    record = record_of(state)
    options = [(i, a) for i, a in enumerate(legal) if a.group != "end"]
    _, top = choices.level_entries(record, options, (), "en")
    texts = [e.text for e in top]
    assert texts.count("propose a swap") == 1 and texts.count("buy a card for 100 points") == 1
    swap = next(e.choice for e in top if e.text == "propose a swap")
    assert swap is not None
    _, whom = choices.level_entries(record, options, (swap,), "en")
    assert [e.text for e in whom] == [f"with {name}" for name in NAMES[1:]]
    _, what = choices.level_entries(record, options, (swap, 1), "en")
    assert [e.text for e in what][:3] == ["ask for a Sumerian card", "ask for a Babylonian card",
                                          "ask for an Egyptian card"]
    chosen = {legal[e.index].notation for e in what if e.index is not None}
    assert chosen == {f"trade 3 {civ}" for civ in ("sumerians", "babylonians", "egyptians",
                                                    "greeks", "persians", "romans")}


def test_public_texts_speak_of_the_players_never_to_you() -> None:
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    for state in positions():
        for seat in GAME.active(state):
            action = rng.choice(GAME.legal(state, seat))
            after = GAME.apply(state, seat, action)
            report = GAME.report(state, seat, action, after)
            public = [report.public, *([report.detail] if report.detail else [])]
            prompt = GAME.prompt(state, seat)
            if prompt is not None and prompt.public:
                public.append(prompt.text)
            for lang in ("en", "fr"):
                for value in public:
                    said = text(value, lang)
                    assert not YOU[lang].search(said), (action.notation, said)
                    assert "{" not in said and not re.search(r"\b[a-z]+-\d\d\b", said), said
            seen[action.notation.split()[0]] += 1
    assert len(seen) >= 12                # most kinds of steps were read


def test_a_quiz_answer_is_told_in_full_once_and_briefly_in_the_summary() -> None:
    state = GAME.setup(2, 3, {})
    state = GAME.apply(GAME.apply(state, 0, "challenge 2"), 0, "pick 1")
    card = state["pending"]["card"]
    from bot.games.civsets.cards import CARDS
    right = CARDS[card].answer + 1
    after = GAME.apply(state, 0, f"answer {right}")
    report = GAME.report(state, 0, GAME.parse(state, 0, f"answer {right}"), after)
    assert report.detail is not None
    for lang in ("en", "fr"):
        told = text(report.detail, lang)
        why = text(CARDS[card].explanation(), lang)
        assert told.startswith("✅ Alice ") and told.count(why) == 1
        assert why not in text(report.public, lang)
    assert text(report.public) == (f"answers correctly and wins {text(CARDS[card].name)} "
                                   "and 50 points")


ILLEGAL_SAMPLES = 1500


def test_every_refusal_names_its_rule() -> None:
    """Plausible illegal steps from random positions (verbs with the words of other
    positions, steps of other moments, steps of other seats): none is refused with a
    catch-all sentence, each text is filled in both languages and names its target."""
    rng = random.Random(11)
    states = positions(every=3)
    met: dict[str, set[str]] = {}
    for state in states:
        for seat in GAME.active(state):
            for action in GAME.legal(state, seat):
                met.setdefault(action.notation.split()[0], set()).add(action.notation)
    keys: Counter[str] = Counter()
    for _ in range(ILLEGAL_SAMPLES):
        state = rng.choice(states)
        seat: Seat = rng.randrange(state["n"])
        verb = rng.choice(sorted(met))
        notation = rng.choice(sorted(met[verb]))
        if notation in options.legal(state, seat):
            continue
        with pytest.raises(GameError) as caught:
            GAME.apply(state, seat, notation)
        reason = caught.value.reason
        keys[reason.key] += 1
        assert reason.key != "civsets.err.not_now", (notation, text(reason))
        for lang in ("en", "fr"):
            said = text(reason, lang)
            assert "{" not in said and "not possible" not in said, said
    assert len(keys) >= 15, keys


@pytest.mark.parametrize(("hand", "step", "key", "words"), [
    (["greeks-01", "greeks-02", "greeks-03"], "place greeks", "place_four",
     "at least 4 cards of its civilization: you hold 3 Greek cards"),
    ([], "place romans", "place_none", "You hold no Roman card"),
    (["wild-greeks"], "wild greeks", "wild_start", "own civilization's territory"),
    (["romans-01"], "play spy 2", "no_bonus", "King's Eye is not in your hand"),
    (["romans-01"], "give romans-01", "no_swap", "Nobody has offered you a swap"),
    (["romans-01"], "answer 1", "answer_when", "no question to answer"),
    (["romans-01"], "challenge 1", "no_seat", "choose 2 (Bob), 3 (Éloïse)"),
    (["romans-01"], "trade 2 vikings", "no_civ", "'vikings' is not a civilization"),
    (["romans-01"], "end", "end_early", "one action before it ends: you may challenge"),
])
def test_a_refusal_says_why_and_what_is_allowed(hand: list[str], step: str, key: str,
                                                words: str) -> None:
    state = GAME.setup(1, 3, {})
    for other in state["hands"]:
        for card in hand:
            if card in other:
                other.remove(card)
    state["hands"][0] = list(hand)
    with pytest.raises(GameError) as caught:
        GAME.apply(state, 0, step)
    assert caught.value.reason.key == f"civsets.err.{key}"
    assert words in text(caught.value.reason), text(caught.value.reason)
    assert text(caught.value.reason, "fr") != text(caught.value.reason)


def test_a_player_who_waits_is_told_for_whom() -> None:
    state = GAME.apply(GAME.apply(GAME.setup(1, 3, {}), 0, "trade 2 greeks"), 0,
                       f"offer {GAME.setup(1, 3, {})['hands'][0][0]}")
    refused = checks.refusal(state, 0, "draw")
    assert text(refused.reason) == ("Your turn goes on once Bob has answered your swap: "
                                    "wait for their answer.")
    assert text(checks.refusal(state, 2, "draw").reason).startswith("It is Alice's turn")


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_civilization_names_read_with_their_article_and_elision(lang: str) -> None:
    """Every Civilizations text, with every civilization and names starting with a vowel
    or not: no "a Egyptian", no « de Éloïse », in both languages."""
    for key, template in catalogue(lang).items():
        if not key.startswith("civsets.") or key.startswith("civsets.card."):
            continue
        for form in template.values() if isinstance(template, dict) else [template]:
            for civ in ("sumerians", "egyptians", "greeks", "persians"):
                for name in NAMES:
                    args: dict[str, str | Text] = {f: name for f in _fields(form)}
                    for field in ("a_card", "territory"):
                        if field in args:
                            args[field] = Text.of(f"civsets.{field}.{civ}")
                    if "adj" in args:
                        args["adj"] = Text.of(f"civsets.adj.{civ}", n=2)
                    said = translate(Text.of(key, **{**args, "n": 2}), lang)
                    if lang == "en":
                        assert not re.search(r"\ba [AEIOU]", said), (key, said)
                    else:
                        assert not NOT_ELIDED.search(said), (key, said)
    adjectives = [translate(Text.of(f"civsets.a_card.{civ}"), lang) for civ in
                  ("egyptians", "greeks")]
    assert adjectives == (["an Egyptian card", "a Greek card"] if lang == "en"
                          else ["une carte égyptienne", "une carte grecque"])


def test_every_step_has_a_verb_of_the_notation() -> None:
    assert set(checks.FORMS) | {"play"} == VERBS
