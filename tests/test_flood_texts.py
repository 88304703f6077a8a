"""What After the Flood says: public reports in the third person and in words, one phrase for
an action's steps, the round's end on lines of its own, turn messages that fit Discord, and
refusals that name the rule and what is allowed instead, in English and French."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest

from benchmarks.wording import NOTATION, OTHER_LANGUAGE, PLACEHOLDER, YOU
from bot import ai
from bot.engine import Action, IllegalMove, Report, State
from bot.games.flood import checks
from bot.games.flood.engine import GAME
from bot.i18n import translate
from bot.records import GameRecord, Played, SeatInfo, StepResult
from cogs import posting
from tests.flood_properties import busy_steps
from tests.test_flood_rules import (
    NAMES,
    empire,
    fresh,
    give,
    nothing,
    pass_all,
    play,
    roll_next,
    turn,
    workers_at,
)

LANGS = ("en", "fr")


def plain(text: str) -> str:
    """``text`` with its no-break spaces as plain ones (French typography is tested in
    tests/test_french.py; here the words count)."""
    return text.replace("\u00a0", " ")


def told(before: State, step: str, lang: str = "en") -> tuple[str, Report]:
    """What the channel reads of ``step`` played by the seat deciding in ``before``."""
    seat = before["current"]
    action = GAME.parse(before, seat, step)
    report = GAME.report(before, seat, action, GAME.apply(before, seat, action))
    return plain(translate(report.public, lang, NAMES)), report


def reports(seed: int) -> Iterator[tuple[State, Action, Report]]:
    """Every step of a game played at random with a bias for actions, and its report."""
    for state, seat, action, after in busy_steps(seed, busy=0.85):
        yield state, action, GAME.report(state, seat, action, after)


@pytest.mark.parametrize("lang", LANGS)
def test_public_reports_speak_of_the_player_in_words(lang: str) -> None:
    found = 0
    for seed in (1, 2):
        for _, action, report in reports(seed):
            text = translate(report.public, lang, NAMES)
            found += 1
            assert not YOU[lang].search(text), text
            assert not NOTATION.search(text) and not PLACEHOLDER.search(text), text
            assert " " not in action.notation or action.notation not in text, text
            assert not OTHER_LANGUAGE[lang].search(text), text
            assert not report.announce        # the turn message tells every roll, once
    assert found > 300


def test_an_action_reads_as_one_phrase_its_choice_left_out() -> None:
    state = give(fresh(), 0, gold=1)
    text, report = told(state, "place")
    assert report.quiet and text == "chooses to place workers"      # the log's words
    state = play(state, "place")
    _, report = told(state, "spend gold")
    assert report.quiet
    state = play(state, "spend gold")
    assert told(state, "place irrigation 4")[0] == "spends gold to place 4 workers in Irrigation"
    assert told(state, "place lebanon 4", "fr")[0] == \
        "dépense de l'or pour placer 4 ouvriers au Liban"


def test_the_opportunity_cost_and_the_city_built_in_one_line() -> None:
    state = turn(fresh(), 1)
    state["passed"] = [0]
    state = give(state, 1, grain=1)
    assert told(state, "build lagash")[1].quiet
    state = play(state, "build lagash")
    text, report = told(state, "pay grain")
    assert text == "pays grain (opportunity cost), then builds a city in Lagash"
    assert not report.quiet
    assert told(state, "pay grain", "fr")[0] == \
        "paie du grain (coût d'opportunité), puis construit une cité à Lagash"


def test_a_pass_tells_its_bids_once_when_it_ends() -> None:
    state = nothing(fresh(), 0)
    state = give(state, 0, grain=1, cloth=2)
    assert told(state, "pass")[1].quiet
    state = play(state, "pass", "bid grain")
    assert told(state, "bid cloth")[1].quiet
    state = play(state, "bid cloth")
    assert told(state, "done")[0] == "passes and puts grain and cloth in the Passed box (value 3)"
    assert told(state, "done", "fr")[0] == \
        "passe et met du grain et du tissu dans sa case Passé (valeur 3)"
    assert told(nothing(fresh(), 0), "pass")[0] == "passes"


def test_a_battle_is_told_roll_by_roll() -> None:
    state = fresh()
    empire(state, 1, troops={"babylon": 2})
    empire(state, 0, armies=4, equip=5, troops={"nippur": 1})
    state = play(state, "extend")
    roll_next(state, lambda total: total == 6)
    text, report = told(state, "invade babylon")
    assert text == ("attacks Blake in Babylon (equipment A against B, needs 5) and rolls 6 "
                    "(destroys an army)") and not report.quiet and not report.announce
    state = play(state, "invade babylon")
    roll_next(state, lambda total: total == 9)
    assert told(state, "go on")[0] == \
        "rolls 9 (destroys the last defender and takes Babylon)"
    assert told(state, "go on", "fr")[0] == \
        "fait 9 (détruit le dernier défenseur et prend Babylone)"


def test_the_end_of_the_actions_and_the_next_round_stand_on_lines_of_their_own() -> None:
    state = empire(fresh(), 1, troops={"elam": 1, "umma": 2})
    for seat in range(3):
        nothing(state, seat)
    state = play(state, "pass", "pass")
    lines = told(state, "pass")[0].split("\n")
    assert lines[0] == "passes"
    assert lines[1] == ("🏁 Round 1: everyone has passed. Order of the next round: Avery, "
                        "Blake, Casey. Armies score: Blake +4 VP (2 regions).")
    assert lines[2].startswith("🌅 Round 2 of 5 begins with a decline: Dilmun is emptied")
    french = told(state, "pass", "fr")[0].split("\n")
    assert french[1].startswith("🏁 Manche 1 : tout le monde a passé. Ordre de la prochaine")


def test_the_final_majorities_are_told_per_player() -> None:
    state = fresh()
    while state["round"] < 5:
        state = pass_all(state)
    workers_at(state, 0, "elam", 3)
    workers_at(state, 0, "weaving", 9)
    workers_at(state, 1, "scribes", 2)
    for seat in range(3):
        nothing(state, seat)
    state = play(state, "pass", "pass")
    text = told(state, "pass")[0]
    assert "👷 Final majorities: Avery +11 VP (Elam 5, Weaving 6) and Blake +3 VP (Scribes 3)." \
        in text.split("\n")


@pytest.mark.slow
def test_turn_messages_fit_discord_without_cutting() -> None:
    """A human seat and two AI seats: every turn message (the human's turn and the AI turns
    after it, folded as :func:`cogs.posting.report_steps` folds them) fits in one post."""
    longest = 0
    for seed in (3, 4):
        rng = random.Random(seed)
        state = GAME.setup(seed, 3, {})
        record = GameRecord(1, 1, 1, "flood", "running", 1, {}, seed,
                            [SeatInfo(0, 11, "Avery"), SeatInfo(1, None, "AI 1"),
                             SeatInfo(2, None, "AI 2")], state, 0)
        turns: list[StepResult] = []
        steps: list[Played] = []
        while GAME.outcome(state) is None:
            seat = GAME.active(state)[0]
            options = GAME.legal(state, seat)
            action = rng.choice(options) if seat == 0 else ai.choose(
                GAME, GAME.view(state, seat), options, seat, rng, ai.FAST_BUDGET)
            after = GAME.apply(state, seat, action)
            steps.append(Played(seat, action, state, after, GAME))
            if GAME.turn_number(after) != GAME.turn_number(state):
                record.state, record.active = after, GAME.active(after)
                turns.append(StepResult(record, seat, action, True, tuple(steps), None))
                steps = []
                if 0 in record.active:
                    for lang in LANGS:
                        text = posting.turn_text(record, lang, turns)
                        longest = max(longest, len(text))
                        assert len(text) <= 2000 and "…" not in text, text
                    turns = []
            state = after
    assert longest > 300


# -- refusals --------------------------------------------------------------------------------


def refused(state: State, step: str, lang: str = "en") -> str:
    """The reason ``step`` by the seat deciding in ``state`` is refused."""
    with pytest.raises(IllegalMove) as error:
        GAME.parse(state, state["current"], step)
    return plain(translate(error.value.reason, lang, NAMES))


def test_building_where_an_enemy_army_stands_names_the_army_and_the_free_sites() -> None:
    state = empire(fresh(), 1, troops={"nippur": 1})
    text = refused(state, "build nippur")
    assert text.startswith("You cannot build a city in Nippur (Sacred city): Blake's army "
                           "stands in Nippur. You can: build a city in Sippar"), text
    assert "Nippur" not in text.split("You can:")[1]
    french = refused(state, "build nippur", "fr")
    assert french.startswith("Vous ne pouvez pas construire une cité à Nippur (Cité sainte) : "
                             "Blake a une armée à Nippur. Vous pouvez : construire une cité à "
                             "Sippar"), french


@pytest.mark.parametrize(("setup", "step", "en", "fr"), [
    (lambda s: s, "invade umma", "You cannot invade now. You are choosing your action for "
     "round 1. You can: build a city, place workers",
     "Vous ne pouvez pas envahir maintenant. Vous choisissez votre action de la manche 1."),
    (lambda s: play(empire(s, 0, armies=3, troops={"nippur": 1}), "extend"), "invade sippar",
     "You cannot invade Sippar: Sippar is not next to a region where you have an army. "
     "You can: invade Babylon", "Sippar n'est voisin d'aucune région où vous avez une armée"),
    (lambda s: play(empire(s, 0, armies=3, troops={"nippur": 1}), "extend"), "invade zagros",
     "You cannot invade the Zagros: an arrow forbids crossing from Nippur to the Zagros.",
     "une flèche interdit de passer de Nippur dans le Zagros"),
    (lambda s: s, "empire gutians", "the Gutians rises in round 2; the empires of round 1 are "
     "Akkad, Elam of Awan and Mari", "l'empire des Gutis naît à la manche 2"),
    (lambda s: s, "empire mari", "initiating Mari needs at least 1 worker in Mari, and you "
     "have none", "initier le royaume de Mari demande au moins 1 ouvrier à Mari"),
    (lambda s: play(give(workers_at(nothing(s, 0), 0, "zagros", 1), 0, grain=1), "trade"),
     "buy gold zagros grain", "You cannot get gold for grain in the Zagros: the market of the "
     "Zagros offers only wood and lapis lazuli. You can: get wood for grain in the Zagros.",
     "le marché du Zagros n'offre que du bois et du lapis-lazuli"),
    (lambda s: s, "build", "To build a city, name a region of Sumer. You can: build a city",
     "Pour construire une cité, nommez une région de Sumer."),
])
def test_a_refusal_names_the_rule_and_what_is_allowed(setup: Callable[[State], State], step: str,
                                                      en: str, fr: str) -> None:
    state = setup(fresh())
    assert step not in [a.notation for a in GAME.legal(state, state["current"])]
    english, french = refused(state, step), refused(state, step, "fr")
    assert "You can:" in english and "Vous pouvez :" in french
    assert en in english, english
    assert fr in french, french


def test_no_refusal_is_a_generic_sentence_and_each_speaks_the_readers_language() -> None:
    """Illegal steps drawn as the refusals benchmark draws them: the step of another
    position, of another moment, or a verb with other words."""
    rng = random.Random(3)
    positions = [state for seed in (5, 6) for state, _, _ in reports(seed)][::7]
    steps = sorted({a.notation for state in positions
                    for a in GAME.legal(state, state["current"])})
    keys = set()
    for _ in range(400):
        state = rng.choice(positions)
        verb = rng.choice(steps).split()[0]
        words = rng.choice(steps).split()[1:] if rng.random() < 0.3 else []
        step = " ".join([verb, *words]) if words else rng.choice(steps)
        if step in [a.notation for a in GAME.legal(state, state["current"])]:
            continue
        english, french = refused(state, step), refused(state, step, "fr")
        keys.add(checks.why(state, state["current"], step).key)
        assert "not possible now" not in english and not PLACEHOLDER.search(english + french)
        assert ("You can:" in english) == ("Vous pouvez :" in french)
        assert not OTHER_LANGUAGE["fr"].search(french.replace(step, "")), french
        assert re.match(r"(You cannot|To )", english), english
    assert {"flood.why.moment", "flood.why.rule", "flood.why.form"} <= keys


def test_a_turn_message_leaves_quiet_steps_out_and_names_a_player_who_plays_again() -> None:
    """Everyone else has passed: Avery's turn is told in one phrase, and the next turn, hers
    again, names her without a ping (she plays on in her panel)."""
    state = give(turn(fresh(), 0), 0, gold=1)
    state["passed"] = [1, 2]
    record = GameRecord(1, 1, 1, "flood", "running", 1, {}, 1,
                        [SeatInfo(0, 11, "Avery"), SeatInfo(1, 12, "Blake"),
                         SeatInfo(2, None, "AI 1")], state, 0)
    steps = []
    for step in ("place", "pay worker", "spend gold", "place irrigation 4"):
        action = GAME.parse(state, 0, step)
        after = GAME.apply(state, 0, action)
        steps.append(Played(0, action, state, after, GAME))
        state = after
    record.state, record.active = state, GAME.active(state)
    assert record.active == [0]
    text = posting.turn_text(record, "en", [StepResult(record, 0, action, True, tuple(steps),
                                                        None)])
    assert "🎲 **Avery** pays a worker (opportunity cost) and spends gold to place 4 workers " \
        "in Irrigation." in text and "chooses" not in text
    assert text.endswith("➡️ **Avery** plays again.") and "<@" not in text
    record.active = [1]
    assert posting.turn_text(record, "en", []).endswith("➡️ <@12> to play.")


def test_a_member_whose_own_answer_hands_them_the_turn_is_named_not_pinged() -> None:
    """Blake's step is the last one the turn message tells and it is his turn now: he took
    it in his panel, which shows him his turn, so the message names him without a ping (in
    both languages); told after someone else's step, or by the clock, he is pinged."""
    state = turn(fresh(), 0)
    action = GAME.parse(state, 0, "place")
    after = GAME.apply(state, 0, action)
    record = GameRecord(1, 1, 1, "flood", "running", 1, {}, 1,
                        [SeatInfo(0, 11, "Avery"), SeatInfo(1, 12, "Blake")], after, 0)
    record.active = [1]
    steps = (Played(0, action, state, after, GAME), Played(1, action, state, after, GAME))
    told = [StepResult(record, 1, action, True, steps, None)]          # Avery's, then his
    assert posting.turn_text(record, "en", told, present=1).endswith("➡️ **Blake** to play.")
    assert posting.turn_text(record, "fr", told, present=1).endswith("➡️ À **Blake** de jouer.")
    assert "<@" not in posting.turn_text(record, "en", told, present=1)
    assert posting.turn_text(record, "en", told).endswith("➡️ <@12> to play.")   # the clock
    theirs = [StepResult(record, 0, action, True, steps[::-1], None)]   # his, then Avery's
    assert posting.turn_text(record, "en", theirs, present=0).endswith("➡️ <@12> to play.")


def test_long_lists_are_grouped_for_the_panel() -> None:
    """The exchanges of a Trade action are offered region by region, a Sumer-born empire's
    regions behind the empire, the builds behind "build a city"; a short list stays flat."""
    state = give(workers_at(workers_at(nothing(fresh(), 0), 0, "lebanon", 2), 0, "elam", 1),
                 0, grain=1, cloth=2, tools=1)
    state = play(state, "trade")
    actions = GAME.legal(state, 0)
    heads = {translate(a.path[0], "en") for a in actions if a.path}
    assert heads == {"trade in Lebanon", "trade in Elam"}
    assert all(a.path[-1] == a.label for a in actions if a.path)
    first = GAME.legal(fresh(), 0)
    akkad = [a for a in first if a.notation.startswith("empire akkad")]
    assert len(akkad) == 9 and {translate(a.path[0], "fr") for a in akkad} == {
        "initier l'empire d'Akkad (6 armées)"}
    assert {translate(a.path[0], "en") for a in first if a.notation.startswith("build")} == {
        "build a city"}
    assert not any(a.path for a in first if a.notation in ("place", "trade", "pass"))


def test_the_board_keeps_the_places_of_the_last_turn() -> None:
    state = give(fresh(), 0, gold=1)
    state = play(state, "place", "spend gold")
    assert state["turn_places"] == [] and "last_turn" not in state
    state = play(state, "place mari 4")
    assert state["last_turn"] == {"seat": 0, "places": ["mari"]} and state["turn_places"] == []
    state = play(state, "build uruk")
    assert state["last_turn"] == {"seat": 1, "places": ["uruk"]}


def ur_extended() -> tuple[State, list[Played], State]:
    """Seat 1, with Ur, Eridu, wood and gold, extends Ur with gold at the end of round 1
    (everyone else has passed), then no more city, which ends the round: the state before,
    the three steps, the state after."""
    state = empire(fresh(), 1, troops={"elam": 1})
    state["cities"]["ur"] = [1, False]
    state["cities"]["eridu"] = [1, False]
    for seat in range(3):
        nothing(state, seat)
    give(state, 1, wood=4, gold=1)
    state = play(state, "pass", "pass", "done", "pass")
    assert state["phase"] == "vp" and state["current"] == 1
    start, steps = state, []
    for step in ("enlarge ur", "add gold", "done"):
        action = GAME.parse(state, 1, step)
        after = GAME.apply(state, 1, action)
        steps.append(Played(1, action, state, after, GAME))
        state = after
    return start, steps, state


def test_a_round_that_ends_after_a_quiet_step_is_told_on_its_own_line() -> None:
    """Blake extends Ur, then extends no more cities: the turn summary tells the extension,
    then the new round on a line of its own, without "extends no city"."""
    start, steps, state = ur_extended()
    record = GameRecord(1, 1, 1, "flood", "running", 1, {}, 1,
                        [SeatInfo(s, 10 + s, n) for s, n in enumerate(NAMES)], start, 0)
    assert steps[-1].report.quiet and state["round"] == 2
    assert posting.steps_text(record, steps, "en").split("\n") == [
        "🎲 **Blake** extends its city of Ur with gold (+7 VP).",
        "🌅 Round 2 of 5 begins with a decline: Dilmun is emptied, every other region outside "
        "Sumer loses a worker of each player, the leaders in Irrigation and Weaving keep 2 and "
        "the others lose as many, and each player loses a scribe and a toolmaker."]


@pytest.mark.parametrize("step", ["march ²", "march ٣", "march 𝟙", "place mari ²"])
def test_a_number_written_in_other_digits_gets_the_form_of_the_step(step: str) -> None:
    """Python calls ², ٣ and 𝟙 digits but cannot read them as numbers: the refusal
    explains how the step is written instead of failing (a fuzzed /play found it)."""
    state = fresh()
    workers_at(state, 0, "mari", 3)
    state = play(state, "empire mari") if step.startswith("march") else state
    english = refused(state, step)
    assert "You can:" in english and "²" not in english.split("You can:")[1], english
    assert "Vous pouvez :" in refused(state, step, "fr")
