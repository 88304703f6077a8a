"""Private answers speak to "you" (issue 25 §1): what a player reads of their own steps in
their panel ("✓ You place a token on E2", « ✓ Vous placez un jeton sur E2 », the turn done)
is in the second person in English and French, in every game, and another player's answer
to them reads "declines your swap", while the channel reads the same steps in the third
person. The forms live in each game's ``<game>_you.json``: a report's ``<key>.you`` (words
read after "You") and ``<key>.you.<field>`` (a text naming the player in ``field``: "you
reveal…", "declines your swap")."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Mapping
from pathlib import Path

import pytest

from benchmarks import private_you
from benchmarks.wording import OTHER_LANGUAGE, PLACEHOLDER
from bot.engine import State, Text, seat_ref
from bot.games.civsets.engine import GAME as CIVSETS
from bot.games.civsets.texts import card_name
from bot.games.mesopotamia import modes
from bot.i18n import LANGUAGES, YOU, addressed, catalogue, translate
from bot.records import GameRecord, Played, SeatInfo
from cogs import posting
from cogs.common import own_step, text_of
from host.registry import GAMES
from tests.test_civsets_rules import cards_of, game
from tests.test_flood_texts import ur_extended

NAMES = ("Alice", "Bob", "Éloïse", "Ugo", "Hélène", "Yann")
SUBJECT = {"en": "You ", "fr": "Vous "}
ADDRESSED = ("ur.did.", "civsets.did.", "civsets.bonus_did.", "flood.did.", "flood.quiet.",
             "flood.roll.", "mesopotamia.did.", "mesopotamia.report.then",
             "mesopotamia.report.next", "mesopotamia.report.line")
"""The key families of what a step's report says of its player, read after their name."""
NEVER_ADDRESSED = frozenset({
    # what the seat a step is offered to, or paid by, reads of it
    "civsets.did.offer_to", "civsets.did.give_to", "civsets.did.accept_to",
    # what an event's card then does: a clause of its own
    "mesopotamia.did.token_kept", "mesopotamia.did.six_rounds", "mesopotamia.did.token_gone",
    "mesopotamia.did.event_drop",
    # the steps of the game's own opponents (the Automaton, the Garrison of Ur, the Enemy Army)
    "mesopotamia.did.use_card", "mesopotamia.did.use_card_idle", "mesopotamia.did.use_card_for",
    "mesopotamia.did.use_card_for_idle", "mesopotamia.did.use_card_first",
    "mesopotamia.did.defend", "mesopotamia.did.advance",
})


def fields(template: str | dict[str, str]) -> set[str]:
    """The ``{name}`` fields of a template (both plural forms)."""
    texts = template.values() if isinstance(template, dict) else [template]
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}


def test_every_step_said_to_its_player_has_its_you_form_in_both_languages() -> None:
    words = catalogue("en")
    assert words.keys() >= NEVER_ADDRESSED
    steps = [k for k in words if k.startswith(ADDRESSED) and YOU not in k
             and k not in NEVER_ADDRESSED]
    assert len(steps) > 150
    for lang in LANGUAGES:
        missing = [k for k in steps if k + YOU not in catalogue(lang)]
        assert not missing, f"{lang}: no second-person form for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_you_form_matches_the_text_it_stands_for(lang: str) -> None:
    """``<key>.you`` has the fields and plural forms of ``<key>``; ``<key>.you.<field>`` is
    the form of a ``<key>`` that has that field, and keeps only its fields; none speaks of
    the player in the third person."""
    words = catalogue(lang)
    forms = [k for k in words if YOU + "." in k or k.endswith(YOU)]
    assert len(forms) > 150
    for form in forms:
        base, _, field = form.partition(YOU)
        assert base in words, form
        if not field:
            assert fields(words[form]) == fields(words[base]), form
            assert isinstance(words[form], dict) == isinstance(words[base], dict), form
        else:
            assert field[1:] in fields(words[base]), form
            assert fields(words[form]) <= fields(words[base]), form


def test_the_parts_of_a_step_are_said_to_its_player_and_the_rest_as_usual() -> None:
    """A step of two parts reads both in the second person; what followed reads "you" where
    it names the player, their name where it names someone else."""
    step = Text.of("flood.did.join", a=Text.of("flood.did.pay", item=Text.of("flood.some.gold")),
                   b=Text.of("flood.did.build", where=Text.of("flood.in.ur")))
    assert addressed(step, "en", NAMES[:3], 0) == \
        "pay gold (opportunity cost), then build a city in Ur"
    assert addressed(step, "fr", NAMES[:3], 0) == \
        "payez de l'or (coût d'opportunité), puis construisez une cité à Ur"
    revealed = Text.of("mesopotamia.report.then",
                       step=Text.of("mesopotamia.did.move", where=Text.of("mesopotamia.to.ur")),
                       then=Text.of("mesopotamia.report.event_revealed", who=seat_ref(0),
                                    where=Text.of("mesopotamia.in.ur"),
                                    event=Text.of("mesopotamia.event.plain_01")))
    event = translate(Text.of("mesopotamia.event.plain_01"), "en")
    assert addressed(revealed, "en", NAMES[:2], 0) == \
        f"move it to Ur; you reveal {event} in Ur"
    assert addressed(revealed, "en", NAMES[:2], 1) == \
        f"move it to Ur; Alice reveals {event} in Ur"
    assert addressed(revealed, "fr", NAMES[:2], 0).startswith(
        "le déplacez vers Ur\u00a0; vous révélez ")
    gains = Text.list_and([
        Text.of("mesopotamia.did.gains", gained=Text.of("mesopotamia.amount.food", n=2)),
        Text.of("mesopotamia.did.case_event", n=3)])
    reward = Text.of("mesopotamia.did.reward", event=Text.of("mesopotamia.event.plain_01"),
                     what=gains)
    assert addressed(reward, "en", (), 0) == \
        f"take the final reward of {event}: you gain 2 Food and you reach Event case 3"


def test_a_step_without_a_you_form_keeps_its_third_person_words() -> None:
    """A game hosted without second-person forms (a test game, one in development) still
    answers its player, in the third person."""
    offered = Text.of("civsets.did.offer_to", who=seat_ref(0), card="Gilgamesh", adj="Sumerian")
    assert addressed(offered, "en", NAMES[:3], 1) is None
    record = _record("civsets", GAMES["civsets"].engine.setup(1, 3, {}))
    assert own_step(offered, record, 1, "en") == \
        "offers Alice Gilgamesh for one of their Sumerian cards"


CONFIGS: list[tuple[str, int, Mapping[str, str], int]] = [
    ("ur", 3, {}, 400), ("ur", 4, {}, 400),
    ("civsets", 3, {}, 600), ("civsets", 6, {}, 600),
    ("flood", 3, {}, 1500),
    ("mesopotamia", 2, {}, 2500), ("mesopotamia", 2, {"automaton": "igigi"}, 1500),
    ("mesopotamia", 2, {"mode": "siege"}, 800), ("mesopotamia", 2, {"mode": "guardians"}, 800),
    ("mesopotamia", 3, {"combat": "simplified"}, 800),
]


def _record(game: str, state: State, players: int = 3) -> GameRecord:
    """A game of ``players`` members named after :data:`NAMES`."""
    return GameRecord(1, 1, 1, game, "running", 11, {}, 1,
                      [SeatInfo(s, 11 + s, NAMES[s]) for s in range(players)], state, 0)


@pytest.mark.parametrize(("game", "players", "options", "steps"), CONFIGS)
def test_a_player_reads_their_own_random_steps_in_the_second_person(
        game: str, players: int, options: Mapping[str, str], steps: int) -> None:
    """Random legal steps of every seat a member plays: the panel's note begins with "You" /
    « Vous », never names its reader as someone who acts ("Alice places"), has no field left
    unfilled nor a word of the other language; the turn summary of the panel reads "🎲 You…"
    while the channel's reads "🎲 **Alice**…"."""
    engine = GAMES[game].engine
    rng = random.Random(players)
    state = engine.setup(1, players, options)
    record = _record(game, state, players)
    seen: set[str] = set()
    games = 1
    for _ in range(steps):
        if engine.outcome(state) is not None:      # a short game: another one
            games += 1
            state = engine.setup(games, players, options)
        seat = rng.choice(engine.active(state))
        action = rng.choice(engine.legal(state, seat))
        after = engine.apply(state, seat, action)
        if not (game == "mesopotamia" and modes.scripted(state, seat)):
            played = Played(seat, action, state, after, engine)
            seen.add(played.report.for_seat(seat).key)
            _check_note(record, played)
        state = after
    assert len(seen) >= {"ur": 10, "civsets": 12, "flood": 12, "mesopotamia": 15}[game], seen


def _check_note(record: GameRecord, played: Played) -> None:
    name = NAMES[played.seat]
    for lang in LANGUAGES:
        note = own_step(played.report.for_seat(played.seat), record, played.seat, lang)
        assert note.startswith(SUBJECT[lang]), note
        assert not re.search(rf"\b{name} [a-zà-ÿ]", note), note
        assert not PLACEHOLDER.search(note), note
        assert not OTHER_LANGUAGE[lang].search(note.replace("\u00a0", " ")), note
        if played.report.quiet:
            continue
        own = posting.steps_text(record, [played], lang, viewer=played.seat).split("\n")[0]
        public = posting.steps_text(record, [played], lang).split("\n")[0]
        assert own.startswith("🎲 " + SUBJECT[lang]) and public.startswith(f"🎲 **{name}** ")
        assert text_of(played.report.public, record, lang).split("\n")[0] in public


def test_the_panel_tells_a_turn_to_its_player_and_the_channel_of_them() -> None:
    """Bob extends Ur, then extends no more cities: his panel says so to him, the channel
    of him, and the new round on its own line for both."""
    start, steps, _ = ur_extended()
    record = _record("flood", start)
    round_two = posting.steps_text(record, steps, "en").split("\n")[1]
    assert posting.steps_text(record, steps, "en", viewer=1).split("\n") == [
        "🎲 You extend your city of Ur with gold (+7 VP).", round_two]
    assert posting.steps_text(record, steps, "en", viewer=0).split("\n") == [
        "🎲 **Bob** extends its city of Ur with gold (+7 VP).", round_two]
    french = posting.steps_text(record, steps, "fr", viewer=1)
    assert french.startswith("🎲 Vous étendez votre cité d'Ur avec de l'or (+7 PV).\n🌅")


def test_another_players_answer_names_its_reader_you() -> None:
    """Alice offers Bob a swap and Bob declines: Alice's panel reads her offer to "you" and
    Bob's answer as "declines your swap"; Carol's and the channel's name Alice."""
    mine = cards_of("greeks")[0]
    state = game(s0=[mine], s1=cards_of("romans")[:2])
    record = _record("civsets", state)
    steps = []
    for seat, step in ((0, "trade 2 romans"), (0, f"offer {mine}"), (1, "decline")):
        action = CIVSETS.parse(state, seat, step)
        after = CIVSETS.apply(state, seat, action)
        steps.append(Played(seat, action, state, after, CIVSETS))
        state = after
    card = translate(card_name(mine), "en")
    assert posting.steps_text(record, steps, "en", viewer=0).split("\n") == [
        f"🎲 You offer {card} to Bob in exchange for a Roman card.",
        "🎲 **Bob** declines your swap."]
    assert posting.steps_text(record, steps, "fr", viewer=0).split("\n")[1] == \
        "🎲 **Bob** refuse votre échange."
    for viewer in (2, None):
        assert posting.steps_text(record, steps, "en", viewer=viewer).split("\n")[1] == \
            "🎲 **Bob** declines Alice's swap."


def test_the_private_transcripts_are_counted_by_who_they_speak_to(tmp_path: Path) -> None:
    """``benchmarks/private_you.py``: a note that speaks to the player, one that does not, a
    turn line to them, one naming them, another player's answer to them."""
    path = tmp_path / "ur-en.private.md"
    path.write_text("# ur · en · private answers of alice\n\n> ✓ You place a token on E2\n"
                    "> ✓ places a token on B2\n> ✅ Turn done.\n> 🎲 You place a token on E2.\n"
                    "> 🎲 **alice** places a token on B2.\n> 🎲 **bob** declines your swap.\n",
                    encoding="utf-8")
    line, wrong = private_you.figures(path)
    assert "step notes    2, to you    1; own turn lines to you    1; naming the player " \
        "as who acts   1" in line, line
    assert wrong == ["✓ places a token on B2", "🎲 **alice** places a token on B2."]
