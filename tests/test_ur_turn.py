"""Ur turn structure: actions, declining, bonus tokens, ziggurats, exchange, special turns."""

from __future__ import annotations

import pytest

from bot.engine import IllegalMove
from bot.games.ur.board import CELL_INDEX, FACE_INDEX
from bot.games.ur.engine import GAME
from tests.test_ur_support import at, make_state, notations, play


def _refused(state: dict, step: str, key: str) -> None:
    before = GAME.view(state, None)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, state["current"], step)
    assert err.value.reason.key == f"ur.err.{key}"
    assert GAME.view(state, None) == before


def test_turn_offers_each_action_declines_and_decline_both() -> None:
    state = make_state({"B3": "p03"}, hands=("c/u", "a/c", "a/c"))
    assert notations(state) == ["action commerce", "action culture", "decline commerce",
                                "decline culture", "decline both"]
    assert GAME.view(state, None)["step"] == "choose"


@pytest.mark.parametrize("order", [("commerce", "culture"), ("culture", "commerce")])
def test_both_actions_in_any_order(order: tuple[str, str]) -> None:
    # FR FAQ: "Les deux actions peuvent être effectuées dans n'importe quel ordre".
    state = make_state({"A1": "c01", "A2": "u01"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, f"action {order[0]}")
    assert notations(state) == [f"action {order[1]}", f"decline {order[1]}"]
    state = play(state, f"action {order[1]}")
    assert state["step"] == "exchange"
    # Commerce on A1: 2 border sides; Culture from A2 feeds A1 (+1) in either order.
    assert at(state, "A1") == (0, 4)


def test_same_action_cannot_be_carried_out_twice_and_only_the_held_tile_acts() -> None:
    state = play(make_state({"A1": "c01"}, hands=("c/u", "a/c", "a/c")), "action commerce")
    _refused(state, "action commerce", "action_twice")
    _refused(state, "decline commerce", "action_twice")
    _refused(state, "action war", "not_in_hand")
    _refused(state, "decline both", "decline_both")


def test_declining_one_action_gives_one_token_on_an_owned_tile_before_the_other() -> None:
    # FR FAQ: "Il est possible de placer un jeton avant d'effectuer une des deux actions".
    state = make_state({"B3": "p03", "E5": "p01"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, "decline commerce")
    assert sorted(notations(state)) == ["bonus B3", "bonus E5", "bonus done"]
    _refused(state, "bonus C1", "bonus_owned")
    state = play(state, "bonus E5")
    assert at(state, "E5") == (0, 2) and state["supply"][0] == 15
    assert notations(state) == ["action culture", "decline culture"]
    state = play(state, "action culture")
    assert state["step"] == "exchange"


def test_declining_both_gives_two_owned_tokens() -> None:
    state = make_state({"B3": "p03", "E5": "p01"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, "decline both", "bonus B3", "bonus B3")
    assert at(state, "B3") == (0, 5) and state["step"] == "exchange"


def test_declining_both_gives_one_token_on_a_free_tile_instead() -> None:
    state = make_state({"B3": "p03"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, "decline both")
    assert "bonus F6" in notations(state)
    state = play(state, "bonus F6")
    assert at(state, "F6") == (0, 1) and state["step"] == "exchange"
    # After one owned token, the free-tile option is gone.
    state = play(make_state({"B3": "p03"}, hands=("c/u", "a/c", "a/c")), "decline both", "bonus B3")
    _refused(state, "bonus F6", "bonus_owned")


def test_bonus_tokens_may_be_waived_and_respect_the_tile_limit() -> None:
    state = make_state({"B3": "p05", "E5": "p01"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, "decline commerce")
    _refused(state, "bonus B3", "full")
    state = play(state, "bonus done")
    assert at(state, "E5") == (0, 1) and state["step"] == "choose"


def test_bonus_is_skipped_when_the_supply_is_empty() -> None:
    cells = {"A1": "p05", "B1": "p05", "C1": "p05", "D1": "p05"}
    state = make_state(cells, hands=("c/u", "a/c", "a/c"))
    assert state["supply"][0] == 0
    state = play(state, "decline both")
    assert state["step"] == "exchange"


def test_ziggurat_needs_five_tokens_and_replaces_the_actions() -> None:
    cells = {"B3": "p05", "C3": "w05", "D3": "p04"}
    state = make_state(cells, hands=("c/u", "a/c", "a/c"))
    assert "ziggurat B3" in notations(state) and "ziggurat D3" not in notations(state)
    _refused(state, "ziggurat D3", "ziggurat_five")
    supply = state["supply"][0]
    state = play(state, "ziggurat B3")
    b3 = CELL_INDEX["B3"]
    assert state["zig"][b3] == 1 and state["owner"][b3] == 0 and state["tokens"][b3] == 0
    assert state["supply"][0] == supply + 4 and state["zigs"] == [1, 0, 0]
    assert state["zigs_left"] == 4
    assert notations(state) == ["ziggurat C3", "ziggurat done"]
    _refused(state, "action commerce", "when")
    state = play(state, "ziggurat done")
    # FR FAQ: the exchange is still due after sacrificing both actions.
    assert state["step"] == "exchange"
    view = GAME.view(state, None)
    assert view["grid"][2][1] == {"face": "politics", "back": "war", "owner": 0, "tokens": 0,
                                  "ziggurat": True}


def test_no_more_than_two_ziggurats_per_turn() -> None:
    cells = {"A1": "p05", "C1": "p05", "E1": "p05"}
    state = play(make_state(cells, hands=("c/u", "a/c", "a/c")), "ziggurat A1", "ziggurat C1")
    assert state["step"] == "exchange" and state["zigs"][0] == 2


def test_ziggurats_only_at_the_start_of_the_turn() -> None:
    state = make_state({"A1": "p05", "F6": "c01"}, hands=("c/u", "a/c", "a/c"))
    state = play(state, "action commerce")
    _refused(state, "ziggurat A1", "ziggurat_instead")


def test_no_ziggurat_after_the_fifth() -> None:
    # FR FAQ: "Si les 5 ziggurats ont été construites, cette action n'est pas possible".
    state = make_state({"A1": "p05"}, hands=("c/u", "a/c", "a/c"), zigs_left=0)
    assert not any(n.startswith("ziggurat") for n in notations(state))
    _refused(state, "ziggurat A1", "ziggurat_none_left")


def test_ziggurat_is_a_hole_for_every_action() -> None:
    cells = {"B2": "pZ1", "B3": "u03", "A2": "w05", "C2": "c11", "B1": "p11"}
    state = make_state(cells, hands=("w/u", "a/c", "a/c"))
    _refused(play(state, "decline war"), "bonus B2", "ziggurat_hole")
    war = play(state, "action war")
    _refused(war, "war A2>B2 move 1", "ziggurat_hole")
    culture = play(state, "action culture")
    assert culture["tokens"][CELL_INDEX["B2"]] == 0
    state = play(state, "decline both", "bonus done")
    _refused(state, "exchange B2 face politics", "ziggurat_hole")


def test_exchange_needs_a_different_pair_and_the_face_is_chosen() -> None:
    cells = {"B3": "p03", "D4": "a/c", "E4": "c/a"}
    state = play(make_state(cells, hands=("a/c", "a/c", "a/c")), "decline both", "bonus done")
    legal = notations(state)
    assert "exchange D4 face agriculture" not in legal and "exchange E4 face commerce" not in legal
    assert "exchange F6 face politics" in legal and "exchange F6 face war" in legal
    _refused(state, "exchange D4 face agriculture", "exchange_pair")
    _refused(state, "exchange B3 face politics", "exchange_free")
    _refused(state, "exchange F6 face culture", "exchange_face")
    _refused(state, "exchange spare face war", "no_spare")
    state = play(state, "exchange F6 face war")
    f6 = CELL_INDEX["F6"]
    assert state["hand"][0] == [FACE_INDEX["war"], FACE_INDEX["politics"]]
    # Ruling 17: the tile handed back shows the face it showed in hand.
    assert (state["face"][f6], state["back"][f6]) == (FACE_INDEX["agriculture"],
                                                      FACE_INDEX["commerce"])
    assert state["owner"][f6] == -1 and notations(state) == ["end"]


def test_the_spare_tile_can_be_exchanged_in_a_turn() -> None:
    state = make_state({"B3": "p03"}, hands=("a/c", "a/c", "a/c"), spare="u/p")
    state = play(state, "decline both", "bonus done", "exchange spare face politics")
    assert state["hand"][0] == [FACE_INDEX["politics"], FACE_INDEX["culture"]]
    assert state["spare"] == [FACE_INDEX["agriculture"], FACE_INDEX["commerce"]]
    assert GAME.view(state, None)["spare"] == {"face": "agriculture", "back": "commerce"}


def test_end_is_explicit_and_passes_the_turn_clockwise() -> None:
    state = make_state({"B3": "p03", "C5": "p11", "E1": "p21"}, hands=("a/c", "a/c", "a/c"))
    state = play(state, "decline both", "bonus B3", "bonus B3", "exchange F6 face war")
    assert GAME.active(state) == [0] and GAME.turn_number(state) == 0
    state = play(state, "end")
    assert GAME.active(state) == [1] and GAME.turn_number(state) == 1
    assert state["step"] == "choose"
    view = GAME.view(state, None)
    assert view["last_turn"] == {"seat": 0, "cells": ["B3"], "exchanged": "F6"}


def test_a_player_without_tokens_places_three_on_a_free_tile() -> None:
    state = make_state({"B3": "p13"}, hands=("a/c", "a/c", "a/c"))
    assert state["step"] == "start3"
    assert len(notations(state)) == 35
    _refused(state, "place B3", "special_free")
    _refused(state, "decline both", "when")
    state = play(state, "place C4")
    assert at(state, "C4") == (0, 3) and state["step"] == "exchange"


def test_a_player_with_tokens_only_on_ziggurats_places_one() -> None:
    # FR FAQ: "il est obligé de sacrifier ses deux actions pour placer un jeton unique".
    state = make_state({"B3": "pZ0", "A1": "p13"}, hands=("a/c", "a/c", "a/c"))
    assert state["step"] == "start1"
    state = play(state, "place C4")
    assert at(state, "C4") == (0, 1) and state["step"] == "exchange"
    assert state["supply"][0] == 18


def test_not_your_turn_and_bad_notation() -> None:
    from bot.engine import BadNotation, NotYourTurn

    state = make_state({"B3": "p03"})
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, "decline both")
    with pytest.raises(BadNotation) as err:
        GAME.apply(state, 0, "fly to B3")
    assert err.value.reason.key == "ur.err.notation"
    assert GAME.legal(state, 1) == []
