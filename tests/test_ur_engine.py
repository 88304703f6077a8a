"""Ur engine contract: view format, determinize, purity, notation, labels, defaults."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Action, BadNotation, Game, IllegalMove, Text
from bot.games.ur.engine import GAME
from bot.games.ur.notation import SPARE, Move, format_move, parse_move
from bot.games.ur.state import LAYOUT, prompt
from bot.i18n import catalogue, translate
from tests.test_ur_support import make_state, notations, play

VIEW_KEYS = {"game", "players", "grid", "hands", "spare", "supply", "on_board", "ziggurats",
             "ziggurats_left", "scores", "current", "phase", "step", "turn", "first_player",
             "last_turn", "over", "winners"}
CELL_KEYS = {"face", "back", "owner", "tokens", "ziggurat"}


def _random_game(seed: int, n: int, steps: int) -> dict:
    rng = random.Random(seed)
    state = GAME.setup(seed, n, {})
    for _ in range(steps):
        if not GAME.active(state):
            break
        seat = GAME.active(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
    return state


def test_game_satisfies_the_protocol() -> None:
    assert isinstance(GAME, Game)
    assert GAME.meta.name == Text.of("ur.name")


@pytest.mark.parametrize("n", [3, 4])
def test_view_has_the_interface_format(n: int) -> None:
    state = _random_game(n, n, 80)
    view = GAME.view(state, 0)
    assert view.keys() >= VIEW_KEYS
    assert view["game"] == "ur" and view["players"] == n
    assert len(view["grid"]) == 6 and all(len(row) == 6 for row in view["grid"])
    assert all(cell.keys() == CELL_KEYS for row in view["grid"] for cell in row)
    assert all(h.keys() == {"face", "back"} for h in view["hands"]) and len(view["hands"]) == n
    assert (view["spare"] is None) == (n == 4)
    for key in ("supply", "on_board", "ziggurats", "scores"):
        assert len(view[key]) == n and all(isinstance(v, int) for v in view[key])
    assert view["current"] in range(n) and view["over"] is False and view["winners"] == []
    assert view["phase"] in ("placement", "setup_exchange", "turn")
    assert view["turn"] == GAME.turn_number(state)
    assert view["on_board"][0] == sum(c["tokens"] for row in view["grid"] for c in row
                                      if c["owner"] == 0)
    assert json.loads(json.dumps(view)) == view
    assert GAME.view(state, None) == view


def test_view_cell_naming_and_last_turn() -> None:
    state = make_state({"B3": "w/a03"}, hands=("a/c", "a/c", "a/c"))
    view = GAME.view(state, None)
    assert view["grid"][2][1] == {"face": "war", "back": "agriculture", "owner": 0, "tokens": 3,
                                  "ziggurat": False}
    assert view["last_turn"] is None
    state = play(state, "decline agriculture", "bonus B3", "action commerce",
                 "exchange C2 face war", "end")
    assert GAME.view(state, None)["last_turn"] == {"seat": 0, "cells": ["B3"],
                                                   "exchanged": "C2"}


@pytest.mark.parametrize("seed", range(6))
def test_determinize_rebuilds_the_state(seed: int) -> None:
    state = _random_game(seed, 3 + seed % 2, 40 * seed)
    view = json.loads(json.dumps(GAME.view(state, 1)))
    assert GAME.determinize(view, 1, random.Random(0)) == state


def test_apply_never_changes_its_input() -> None:
    state = _random_game(3, 3, 60)
    before = json.loads(json.dumps(state))
    for action in GAME.legal(state, state["current"]):
        GAME.apply(state, state["current"], action)
    with pytest.raises(IllegalMove):
        GAME.apply(state, state["current"], "end" if state["step"] != "end" else "pass")
    assert state == before


@pytest.mark.parametrize("seed", range(4))
def test_the_copy_layout_names_every_key_that_holds_a_list(seed: int) -> None:
    """Keys left out of ``LAYOUT`` are shared between a state and its copy: only plain values
    may be there, all along a game."""
    listed = {*LAYOUT.flat, *LAYOUT.nested}
    state = GAME.setup(seed, 3 + seed % 2, {})
    rng = random.Random(seed)
    while GAME.active(state):
        shared = {k for k, v in state.items() if k not in listed and isinstance(v, list | dict)}
        assert not shared, shared
        assert all(all(not isinstance(x, list | dict) for x in state[k]) for k in LAYOUT.flat)
        seat = GAME.active(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))


def test_every_legal_action_round_trips_and_has_a_translatable_label() -> None:
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.setup(seed, 3 + seed % 2, {})
        while GAME.active(state):
            seat = state["current"]
            legal = GAME.legal(state, seat)
            for action in legal:
                assert GAME.parse(state, seat, action.notation) == action
                assert action.group and action.notation == action.notation.strip()
                if (action.label.key, action.group) not in seen:
                    seen.add((action.label.key, action.group))
                    for lang in ("en", "fr"):
                        assert translate(action.label, lang)
            for lang in ("en", "fr"):
                assert translate(prompt(state), lang)
            state = GAME.apply(state, seat, rng.choice(legal))
    assert {key for key, _ in seen} >= {"ur.act.war", "ur.act.politics", "ur.act.exchange"}


def test_catalogues_have_the_same_ur_keys() -> None:
    en = {k for k in catalogue("en") if k.startswith("ur.")}
    fr = {k for k in catalogue("fr") if k.startswith("ur.")}
    assert en == fr and "ur.rules" in en
    for key in ("ur.rules", "ur.err.war_adjacent"):
        assert translate(Text.of(key), "fr") != translate(Text.of(key), "en")


def test_notation_is_case_and_space_tolerant() -> None:
    assert format_move(parse_move("  WAR b3 > c3   MOVE 2 ")) == "war B3>C3 move 2"
    assert format_move(parse_move("war b3>c3 2")) == "war B3>C3 move 2"
    assert format_move(parse_move("Politics B3 >C4 move 2")) == "politics B3>C4 2"
    assert format_move(parse_move("exchange d5 culture")) == "exchange D5 face culture"
    assert format_move(parse_move("EXCHANGE Spare face War")) == "exchange spare face war"
    assert format_move(parse_move("commerce")) == "action commerce"
    assert parse_move("bonus done") == Move("bonus_done")
    assert parse_move("exchange spare face war").cell == SPARE


@pytest.mark.parametrize(("text", "example"), [
    ("place G7", "place B3"), ("war B3-C3 move 2", "war B3>C3 move 2"),
    ("war B3>C3", "war B3>C3 move 2"), ("agriculture B3", "agriculture B3 2"),
    ("decline everything", "decline politics"),
    ("exchange D5 face gold", "exchange D5 face culture"),
])
def test_a_misspelt_step_says_how_its_verb_is_written(text: str, example: str) -> None:
    with pytest.raises(BadNotation) as err:
        parse_move(text)
    assert err.value.reason.key == "ur.err.form"
    english = translate(err.value.reason, "en")
    assert example in english and text in english


@pytest.mark.parametrize("text", ["", "fly B3", "attack B3"])
def test_an_unknown_step_lists_the_words_steps_start_with(text: str) -> None:
    with pytest.raises(BadNotation) as err:
        parse_move(text)
    assert err.value.reason.key == "ur.err.notation"
    assert "place, action, decline" in translate(err.value.reason, "en")
    assert "placer, action, refuser" in translate(err.value.reason, "fr")


def test_illegal_step_reason_names_the_rule() -> None:
    state = play(make_state({"B3": "p05", "D3": "c11"}, hands=("w/u", "a/c", "a/c")),
                 "action war")
    with pytest.raises(IllegalMove) as err:
        GAME.parse(state, 0, "war B3>D3 move 1")
    assert translate(err.value.reason, "en").startswith("War needs adjacent tiles")


def test_is_reversible_turn_number_and_action_type() -> None:
    state = make_state({"B3": "p03"})
    action = GAME.legal(state, 0)[0]
    assert isinstance(action, Action) and GAME.is_reversible(state, 0, action)
    assert GAME.apply(state, 0, action) == GAME.apply(state, 0, action.notation)


def test_heuristic_prefers_the_leading_seat() -> None:
    state = make_state({"A1": "a01", "B1": "c01", "C1": "u01", "D6": "p11"})
    assert GAME.heuristic(state, 0) > 0 > GAME.heuristic(state, 1)


def test_default_actions_are_legal_and_finish_the_turn() -> None:
    for seed in range(30):
        state = _random_game(seed, 3 + seed % 2, 7 * seed)
        if not GAME.active(state):
            assert GAME.default_action(state, 0) is None
            continue
        turn = GAME.turn_number(state)
        for _ in range(12):
            if GAME.turn_number(state) > turn:
                break
            seat = state["current"]
            action = GAME.default_action(state, seat)
            assert action is not None and action in GAME.legal(state, seat)
            state = GAME.apply(state, seat, action)
        assert GAME.turn_number(state) == turn + 1


def test_prompt_in_view_is_plain_json() -> None:
    state = make_state({"B3": "p03"}, hands=("w/u", "a/c", "a/c"))
    assert GAME.view(state, None)["prompt"] == {"key": "ur.step.choose",
                                                "args": {"a": "war", "b": "culture"}}
    assert notations(state)[0] == "action war"
