"""What Mesopotamia's players read: the channel's narration (third person, words not notation,
no announcement repeated by the turn message), the refusals (the rule that forbids a step and
what is allowed), the panel's choices (long lists grouped, no "finish" press with nothing to
decide, a last step that also ends the turn), the standing, and both catalogues' grammar."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache

import pytest

from bot.engine import Action, GameError, IllegalMove, NotYourTurn, Seat, State, Text
from bot.games.mesopotamia import bids, checks, scoring, texts, turn
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME, VERBS
from bot.i18n import LOCALES_DIR, translate
from bot.records import GameRecord, Played, SeatInfo
from bot.replay import Step, replay
from cogs.common import listed
from cogs.game_texts import status_text
from cogs.play import _status_line
from cogs.posting import steps_text
from tests.contract import NAMES
from tests.test_mesopotamia_actions import legal, play, ready, set_dice

RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b(?:level|plain|mountain|desert)\d|\{|\}|\d/\d")
"""Notation or ids in a text a player reads: ``level1_4``, ``harvest_trade``, ``{field}``,
``3/1/0``."""
YOU = {"en": re.compile(r"\b(you|your)\b", re.I),
       "fr": re.compile(r"\b(vous|votre|vos|tu|ton|ta|tes)\b", re.I)}


@cache
def game_steps(seed: int, n: int, combat: str = "standard") -> tuple[tuple[State, Seat, Action,
                                                                            State], ...]:
    """A game of mostly AI steps (one step in five at random), as (before, seat, step,
    after), up to 700 steps."""
    rng = random.Random(seed)
    state = GAME.setup(seed, n, {"combat": combat})
    found = []
    for _ in range(700):
        active = GAME.active(state)
        if not active:
            break
        seat = rng.choice(active)
        options = GAME.legal(state, seat)
        step = rng.choice(options) if rng.random() < 0.2 else \
            GAME.ai_step(state, seat, options, rng)
        assert step is not None
        after = GAME.apply(state, seat, step)
        found.append((state, seat, step, after))
        state = after
    return tuple(found)


def all_steps() -> Iterator[tuple[State, Seat, Action, State]]:
    for seed, n, combat in ((1, 2, "standard"), (2, 3, "standard"), (3, 4, "simplified"),
                            (5, 4, "standard"), (7, 4, "standard")):
        yield from game_steps(seed, n, combat)


@pytest.mark.slow
def test_public_reports_are_third_person_words_and_never_announced() -> None:
    """« Alice places a token on E2 »: a public report is a sentence about its player (read after
    the name), never a command, never "you", never notation; nothing is announced at once, so no
    📣 line is ever told again by the turn message."""
    seen = 0
    for before, seat, step, after in all_steps():
        report = GAME.report(before, seat, step, after)
        assert not report.announce, step.notation
        for lang in ("en", "fr"):
            public = translate(report.public, lang, NAMES)
            assert not YOU[lang].search(public), (lang, step.notation, public)
            assert not RAW.search(public), (lang, step.notation, public)
            own = translate(report.for_seat(seat), lang, NAMES)
            assert not RAW.search(own), (lang, step.notation, own)
        first = translate(report.public, "en", NAMES).split()[0]
        if step.notation in ("end", "stop"):      # told with what followed, else quiet
            words = translate(report.public, "en", NAMES)
            assert first in ("ends", "finishes"), (step.notation, first)
            assert report.quiet != (", then " in words.split("\n")[0]), (step.notation, words)
        else:
            assert first.endswith("s") or first in NAMES, (step.notation, first)   # "takes"
            assert not report.quiet
        seen += 1
    assert seen > 1500


def test_a_turn_reads_as_sentences_in_both_languages() -> None:
    """The report of a step that ends a round tells what followed in words: the round's end,
    the next round and the next player's roll (not « Stone: -1 » nor « die 1: Gal »)."""
    state = ready(3)
    seat = state["current"]
    after = play(state, "use growth pawn")
    en = translate(GAME.report(state, seat, GAME.parse(state, seat, "use growth pawn"),
                               after).public, "en", NAMES)
    assert en.startswith("takes Growth with the pawn")
    harvest = play(ready(3), "use harvest_trade pawn")
    seat = harvest["current"]
    start = harvest["players"][seat]["start"]
    step = f"harvest {start} clay"
    got = play(harvest, step)
    words = {lang: translate(GAME.report(harvest, seat, GAME.parse(harvest, seat, step), got)
                             .public, lang, NAMES) for lang in ("en", "fr")}
    region = {lang: translate(D.name("region", start), lang) for lang in ("en", "fr")}
    assert words["en"] == f"harvests 1 Clay in {region['en']}"
    assert words["fr"].startswith("récolte 1 Argile ") and region["fr"] in words["fr"]


def test_combat_reports_tell_the_winner_and_every_bid_in_words() -> None:
    """A combat's report names the winner, the loser, the region and each side's bid per
    compartment ("3 on Force, 1 on Tactics"), the same words the bids' secrets use before the
    reveal."""
    told = 0
    for before, seat, step, after in all_steps():
        for fought in after.get("resolved", []):
            public = translate(GAME.report(before, seat, step, after).public, "en", NAMES)
            shown = {bids.side(k): b for k, b in fought["bids"].items()}
            for side, bid in shown.items():
                assert translate(bids.sealed_text(side, bid, len(bid)), "en", NAMES) in public
            assert " beats " in public
            told += 1
    assert told >= 3


def test_no_step_leaves_only_finish_the_action() -> None:
    """R-idle-action: an action with nothing left to decide ends by itself; no seat is ever
    offered "finish this action" as its only step."""
    checked = 0
    for before, _, _, _ in all_steps():
        for active in GAME.active(before):
            options = [a.notation for a in GAME.legal(before, active)]
            assert options != ["stop"], before["t"]
            checked += 1
    assert checked > 1500


def test_an_action_with_nothing_to_do_ends_at_once_and_old_logs_replay() -> None:
    """R-idle-action: Research with no Clay and no Tablet ends in its own step; a log of the
    code before, where a `stop` followed, replays to the same state (the `stop` is nothing)."""
    state = ready(3)
    seat = state["current"]
    state["players"][seat]["res"].update(clay=0, tablet=0)
    after = play(state, "use research pawn")
    assert after["t"]["act"] is None and after["t"]["done"] == ["research"]
    assert "stop" not in legal(after)
    report = GAME.report(state, seat, GAME.parse(state, seat, "use research pawn"), after)
    assert translate(report.public, "en", NAMES) == \
        "takes Research with the pawn, with nothing to do"
    old = play(after, "stop")
    assert "closed" not in old["t"] and {**after, "t": old["t"]} == old
    with pytest.raises(IllegalMove):
        play(old, "stop")            # only right after the action that ended by itself


def test_a_logged_game_of_the_code_before_replays() -> None:
    """A whole log written before R-idle-action (a `stop` after every action that had nothing
    to do) replays through the engine to the state the new log reaches."""
    steps, old = [], []
    state = GAME.setup(5, 2, {})
    rng = random.Random(5)
    while len(steps) < 300 and GAME.active(state):
        seat = GAME.active(state)[0]
        step = rng.choice(GAME.legal(state, seat))
        after = GAME.apply(state, seat, step)
        steps.append(Step(seat, step.notation))
        old.append(Step(seat, step.notation))
        if after.get("t") and after["t"].get("closed"):
            old.append(Step(seat, "stop"))
        state = after
    assert len(old) > len(steps)
    new_end, old_end = replay(GAME, 5, 2, {}, steps), replay(GAME, 5, 2, {}, old)
    assert json.dumps({**new_end, "t": {k: v for k, v in (new_end.get("t") or {}).items()
                                          if k != "closed"}}, sort_keys=True) == \
        json.dumps({**old_end, "t": {k: v for k, v in (old_end.get("t") or {}).items()
                                       if k != "closed"}}, sort_keys=True)


@pytest.mark.slow
def test_a_step_closes_the_turn_exactly_when_only_ending_it_follows() -> None:
    """``closes_turn``: the panel does the step and ends the turn in one press exactly when
    the step leaves nothing but `end`; `end` is the panel's End turn (its group is "end")."""
    closing = 0
    for before, _, _, _ in all_steps():
        if before["phase"] != "actions" or before.get("event"):
            continue
        seat = before["current"]
        for action in GAME.legal(before, seat):
            if action.notation == "end":
                assert action.group == "end" and not action.closes_turn
                continue
            only_end = [a.notation for a in GAME.legal(GAME.apply(before, seat, action),
                                                        seat)] == ["end"]
            assert action.closes_turn == only_end, action.notation
            closing += action.closes_turn
    assert closing > 50


def test_long_lists_are_asked_one_choice_at_a_time() -> None:
    """``Action.path``: an action is chosen, then the pawn or the dice; a harvest's place, then
    its resource; a reroll's dice behind "Reroll": no panel level offers more than 20 entries
    (a row of buttons each) where the whole list is longer."""
    def widths(options: list[Action]) -> tuple[int, int]:
        top = {a.path[0] if a.path else a.notation for a in options if a.group != "end"}
        return len(options), len(top)

    state = set_dice(ready(4), "u", "ki", "gal", "ash", "e")
    state["players"][state["current"]]["res"]["tablet"] = 3
    longest, widest = widths(GAME.legal(state, state["current"]))
    assert longest > 40 and widest <= 8, (longest, widest)   # 6 actions, Reroll, end
    for before, _, _, _ in all_steps():
        for seat in GAME.active(before):
            assert widths(GAME.legal(before, seat))[1] <= 20


def test_parse_gives_the_step_legal_gives() -> None:
    """The action a typed step parses to carries the same choices and closing as the panel's."""
    for before, seat, step, _ in list(all_steps())[::7]:
        assert GAME.parse(before, seat, step.notation) == step


def refused(state: State, seat: Seat, text: str) -> GameError:
    with pytest.raises(GameError) as caught:
        GAME.apply(state, seat, text)
    return caught.value


def test_refusals_name_the_rule_and_what_is_allowed() -> None:
    """python-chess's errors: every refusal of a well-formed step says why (never the generic
    « not possible now ») and, for a step of the right kind, names the steps of that kind that
    are allowed."""
    state = ready(3)
    seat = state["current"]
    start = state["players"][seat]["start"]
    far = next(r for r in D.REGIONS if r not in D.REGIONS[start].neighbours and r != start
               and D.REGIONS[r].start is None)
    cases = {
        "harvest ur clay": "You cannot harvest now, as it is part of the Harvest and Trade "
                           "action, which you take first",
        "end": "You cannot end the turn now, as you must take at least one action",
        "role a": "You cannot take a role now, as the setup is over",
        "bid 3": "You cannot seal a bid now, as combats are fought after each action phase",
    }
    for typed, start_of in cases.items():
        error = refused(state, seat, typed)
        assert translate(error.reason, "en", NAMES).startswith(start_of), typed
        assert "« " in translate(error.reason, "fr", NAMES) or \
            translate(error.reason, "fr", NAMES).startswith("Vous ne pouvez pas")
    exploring = play(state, "use exploration pawn")
    unit = next(u for u in exploring["units"] if u[0] == seat and u[1] in D.LAND)
    moving = play(exploring, f"activate {unit[1]} {unit[2]}")
    text = translate(refused(moving, seat, f"move {far}").reason, "en", NAMES)
    assert text.startswith(f"Not allowed: {translate(D.name('region', far), 'en')} does not "
                           "border") and "You can: move to " in text
    other = (seat + 1) % 3
    assert isinstance(refused(state, other, "end"), NotYourTurn)
    assert "Blake" in translate(refused(state, other, "end").reason, "en", NAMES) or \
        NAMES[seat] in translate(refused(state, other, "end").reason, "en", NAMES)


def test_no_refusal_is_generic() -> None:
    """Plausible illegal steps from the positions of real games (every verb, in turn): none is
    refused with a sentence that names neither a rule nor what is allowed, and each reads in
    both languages."""
    rng = random.Random(3)
    positions = [before for before, _, _, _ in all_steps()][::9]
    met: dict[str, set[str]] = {}
    for _, _, step, _ in all_steps():
        met.setdefault(step.notation.split()[0], set()).add(step.notation)
    assert set(met) >= VERBS - {"decline", "colony", "pair", "sacrifice", "drop", "halt",
                                "reward", "fatigue", "set", "die",
                                "reveal", "clash",   # against the Automaton: test_..._solo_engine
                                "defend",           # the Siege: test_mesopotamia_siege*
                                "advance",          # the Guardians: test_mesopotamia_guardians
                                "launch", "freeroll"}  # test_mesopotamia_expansions
    keys: set[str] = set()
    for state in positions:
        seat = rng.choice(GAME.active(state))
        options = {a.notation for a in GAME.legal(state, seat)}
        for verb in sorted(met):
            typed = rng.choice(sorted(met[verb]))
            if typed in options or turn.closed_stop(state, seat, typed):   # R-idle-action
                continue
            reason = refused(state, seat, typed).reason
            keys.add(reason.key)
            assert reason.key not in ("mesopotamia.err.illegal",), typed
            en, fr = translate(reason, "en", NAMES), translate(reason, "fr", NAMES)
            assert en != fr and not RAW.search(en.replace(typed, "")), (typed, en)
            assert "You can" in en and "Vous pouvez" in fr, (typed, en)
    assert len(keys) >= 2


@pytest.mark.slow
def test_the_standing_is_the_public_score_without_the_quests() -> None:
    """``standing``: each seat's VP if the game ended now, quests left out (they are secret):
    two states that differ only in the quest hands stand the same."""
    state = game_steps(2, 3)[-1][3]
    assert state["round"] > 3
    assert GAME.standing(GAME.setup(1, 3, {})) == ()
    standing = GAME.standing(state)
    assert len(standing) == state["n"]
    for seat, text in enumerate(standing):
        vp = sum(v for k, v in scoring.breakdown(state, seat).items() if k != "quests")
        assert translate(text, "en") == f"{vp} VP + quests"
        assert translate(text, "fr") == f"{vp} PV + quêtes"
    other = json.loads(json.dumps(state))
    other["quests"]["hands"] = [list(reversed(D.QUESTS))[:len(h)]
                                for h in other["quests"]["hands"]]
    assert GAME.standing(other) == standing


def test_a_sealed_bidder_reads_that_its_bid_is_sealed() -> None:
    """While others still seal their bids, a seat whose bid is sealed is told so in its panel
    (the panel adds "Waiting for Blake and Casey")."""
    for _, seat, step, after in all_steps():
        sealing = after.get("bids")
        if step.notation.startswith("bid") and sealing and seat not in GAME.active(after) \
                and GAME.active(after):
            prompt = GAME.prompt(after, seat)
            assert prompt is not None
            text = translate(prompt.text, "en", NAMES)
            assert text.startswith("Your bid for the combat in") and "sealed" in text
            return
    raise AssertionError("no seat waited for another's bid")


# -- the catalogues ------------------------------------------------------------------------------


def catalogue_file(lang: str) -> dict[str, str | dict[str, str]]:
    data: dict[str, str | dict[str, str]] = json.loads(
        (LOCALES_DIR / lang / "mesopotamia.json").read_text(encoding="utf-8"))
    return data


def templates(lang: str) -> Iterator[tuple[str, str]]:
    for key, value in catalogue_file(lang).items():
        for text in value.values() if isinstance(value, dict) else [value]:
            yield key, text


def test_french_puts_one_space_before_double_punctuation() -> None:
    """One rule for « ; : ! ? » in French: a plain space before each (as the rest of the
    catalogue writes them), and « manche » and « tour » in lower case inside a sentence."""
    for key, text in templates("fr"):
        assert not re.search(r"[^\s«\d/][;:!?]", text), (key, text)
        assert not re.search(r"[\u00a0\u202f][;:!?]", text), (key, text)
        assert not re.search(r"(?<=[a-zé,;:] )(Manches?|Tour)\b", text), (key, text)


def test_english_puts_no_space_before_punctuation_and_articles_fit() -> None:
    for key, text in templates("en"):
        assert not re.search(r" [;:!?]", text), (key, text)
        assert not re.search(r"\ba [AEIOU]", text), (key, text)    # "an Archer", never "a A"


def test_every_text_key_of_the_engine_exists() -> None:
    """The keys the engine builds (``t("did.role")``, families such as ``in.<region>``) are in
    both catalogues: every region, unit, resource and verb has its words."""
    for lang in ("en", "fr"):
        known = catalogue_file(lang)
        for rid in D.REGIONS:
            assert f"mesopotamia.in.{rid}" in known and f"mesopotamia.to.{rid}" in known
        for kind in D.FIGURES:
            assert f"mesopotamia.a_unit.{kind}" in known and f"mesopotamia.units.{kind}" in known
        for res in D.RESOURCES:
            assert f"mesopotamia.amount.{res}" in known
        for verb in VERBS:
            assert f"mesopotamia.verb.{verb}" in known
        for card in D.EVENT_DATA["cards"]:
            for i, option in enumerate(card["options"]):
                assert known[f"mesopotamia.event_name.{card['id']}.{i + 1}"] == \
                    option["name"][lang]


def test_labels_and_choices_read_in_both_languages() -> None:
    """Every label and choice of the steps met translates, without notation."""
    for before, _, _, _ in list(all_steps())[::5]:
        for seat in GAME.active(before):
            for action in GAME.legal(before, seat):
                for text in (action.label, *action.path):
                    for lang in ("en", "fr"):
                        shown = translate(text, lang, NAMES)
                        assert not RAW.search(shown), (action.notation, shown)


def test_refusals_module_lists_the_allowed_steps_by_their_labels() -> None:
    listed = translate(checks.listed(["role a", "role b"]), "en")
    assert listed == "take role A or take role B"
    many = translate(checks.listed([f"bid {n}" for n in range(9)]), "en")
    assert many.endswith("and 3 more")
    assert texts.label("create archer ur") == Text.of(
        "mesopotamia.act.create", region=D.name("region", "ur"),
        unit=Text.of("mesopotamia.a_unit.archer"))
    assert translate(texts.label("create archer ur"), "en") == "create an Archer in Ur (1 Wood)"


def test_status_shows_the_standing_and_a_panel_waits_for_every_bidder() -> None:
    """``/game status`` lists each seat's public VP; the panel of a seat that waits while two
    others seal their bids says "Waiting for p1 and p2" (the core's line for several deciders)."""
    state = game_steps(2, 3)[-1][3]
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="mesopotamia", status="running",
                        creator_id=1, options={}, seed=2,
                        seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(3)], state=state,
                        version=1, active=[1, 2])
    vp = [translate(text, "en") for text in GAME.standing(state)]
    assert f"1. p0: {vp[0]}" in status_text(record, "en").split("\n")
    assert _status_line(record, "en") == "Waiting for p1 and p2."
    assert _status_line(record, "fr") == "En attente de p1 et p2."
    record.active = [2]
    assert _status_line(record, "en") == "It is not your turn: p2 is playing."


def test_a_turn_with_nothing_left_asks_only_to_end_it() -> None:
    """With the pawn used and no die left, the panel says the turn is over (only `end` is
    legal), and the step that got there was offered as "... and end the turn"."""
    state = ready(3)
    seat = state["current"]
    state["players"][seat]["dice"] = []
    state["t"].update(dice=[], used=[])
    state["players"][seat]["res"].update(clay=0, tablet=0)
    (use,) = [a for a in GAME.legal(state, seat) if a.notation == "use research pawn"]
    assert use.closes_turn
    after = play(state, "use research pawn")
    assert legal(after) == ["end"]
    prompt = GAME.prompt(after, seat)
    assert prompt is not None
    assert translate(prompt.text, "en").startswith("Round 1: your pawn and your dice are used")


@pytest.mark.parametrize(("lang", "public", "own"), [
    ("en", "🎲 **p1** takes Growth with the pawn, spends 2 Food and reaches Population case 3.",
     "🎲 You take Growth with the pawn, spend 2 Food and reach Population case 3."),
    ("fr", "🎲 **p1** prend l'action Croissance avec le pion, dépense 2 Nourritures et atteint"
           " la case 3 de la piste Population.",
     "🎲 Vous prenez l'action Croissance avec le pion, dépensez 2 Nourritures et atteignez"
     " la case 3 de la piste Population."),
])
def test_a_turn_summary_says_and_once(lang: str, public: str, own: str) -> None:
    """Issue 28 §2: the steps of a turn read as "A, B and C" even when the last step's words
    hold their own "and" (never "takes Growth … and spends 2 Food and reaches …")."""
    state = ready(3)
    seat = state["current"]
    state["players"][seat]["res"].update(food=5)
    steps = []
    for notation in ("use growth pawn", "grow"):
        after = play(state, notation)
        steps.append(Played(seat, GAME.parse(state, seat, notation), state, after, GAME))
        state = after
    record = GameRecord(id=1, guild_id=1, channel_id=1, game="mesopotamia", status="running",
                        creator_id=1, options={}, seed=2,
                        seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(3)], state=state,
                        version=1, active=[seat])
    assert seat == 1
    assert steps_text(record, steps, lang) == public
    assert steps_text(record, steps, lang, viewer=seat) == own


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "pays 1 Stone and gains 2 Food, and harvests 1 Clay"),
    ("fr", "paie 1 Pierre et gagne 2 Nourritures, et récolte 1 Argile"),
])
def test_an_earlier_and_is_set_apart_by_a_comma(lang: str, said: str) -> None:
    """A list whose last item has no "and" of its own keeps its "and", set apart by a comma
    from an earlier item's "and"; a plain list reads "A, B and C"."""
    first = {"en": "pays 1 Stone and gains 2 Food", "fr": "paie 1 Pierre et gagne 2 Nourritures"}
    last = {"en": "harvests 1 Clay", "fr": "récolte 1 Argile"}
    assert listed(lang, [first[lang], last[lang]]) == said
    plain = {"en": "a, b and c", "fr": "a, b et c"}
    assert listed(lang, ["a", "b", "c"]) == plain[lang]


@pytest.mark.parametrize(("lang", "conjunction"), [("en", "and"), ("fr", "et")])
def test_the_and_of_a_name_is_no_items_own(lang: str, conjunction: str) -> None:
    """The "and" of an action's name ("Harvest and Trade": a capital follows it) is not an
    item's own: the list still says its "and" ("a, b" would read as a fragment), without a
    comma."""
    first = {"en": "takes War with the pawn", "fr": "prend la Guerre avec le pion"}[lang]
    last = {"en": "takes Harvest and Trade with die 1",
            "fr": "prend Récolte et Échange avec le dé 1"}[lang]
    assert listed(lang, [first, last]) == f"{first} {conjunction} {last}"
    assert listed(lang, [last, first]) == f"{last} {conjunction} {first}"
