"""Ur actions (War, Culture, Politics, Agriculture, Commerce) and the token limits."""

from __future__ import annotations

import pytest

from bot.engine import IllegalMove
from bot.games.ur.engine import GAME
from tests.test_ur_support import at, make_state, notations, play


def _refused(state: dict, step: str, key: str) -> None:
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, state["current"], step)
    assert err.value.reason.key == f"ur.err.{key}"


def _war(cells: dict[str, str], hands: tuple[str, ...] = ("w/u", "a/c", "a/c")) -> dict:
    return play(make_state(cells, hands=hands), "action war")


# ------------------------------------------------------------------ War


def test_war_needs_adjacent_tiles() -> None:
    # FR FAQ: "Les deux tuiles doivent être adjacentes".
    state = _war({"B3": "p05", "D3": "c11"})
    _refused(state, "war B3>D3 move 1", "war_adjacent")
    assert not any(n.startswith("war B3>D3") for n in notations(state))


def test_any_tile_can_attack_and_loses_an_extra_token_when_faces_differ() -> None:
    # FR FAQ: "La tuile attaquante n'est pas nécessairement une tuile guerre".
    state = _war({"B3": "p05", "C3": "c12"})
    assert [n for n in notations(state) if n.startswith("war B3>C3")] == [
        "war B3>C3 move 1", "war B3>C3 move 2"]
    _refused(state, "war B3>C3 move 3", "war_strength")
    supplies = list(state["supply"])
    state = play(state, "war B3>C3 move 2")
    # 2 removed from C3, 2 + 1 lost by B3, 2 moved: B3 is left empty and free.
    assert at(state, "C3") == (0, 2) and at(state, "B3") == (-1, 0)
    assert state["supply"][1] == supplies[1] + 2 and state["supply"][0] == supplies[0] + 3


def test_no_extra_loss_when_both_tiles_show_the_same_face() -> None:
    state = _war({"B3": "c05", "C3": "c12"})
    assert "war B3>C3 move 3" in notations(state)
    assert "war B3>C3 move 4" not in notations(state)


def test_no_extra_loss_when_the_attacker_shows_war() -> None:
    # Ruling 1: the French FAQ ("sauf si la tuile attaquante est une tuile guerre") wins
    # over the English text (which would take the extra token here).
    state = _war({"B3": "w05", "C3": "c12"})
    assert "war B3>C3 move 3" in notations(state)
    state = play(state, "war B3>C3 move 3")
    assert at(state, "B3") == (-1, 0) and at(state, "C3") == (0, 3)


def test_war_on_a_free_tile() -> None:
    state = _war({"B3": "p03", "C3": "c"})
    assert [n for n in notations(state) if n.startswith("war B3>C3")] == [
        "war B3>C3 move 1", "war B3>C3 move 2"]
    state = play(state, "war B3>C3 move 1")
    assert at(state, "B3") == (0, 1) and at(state, "C3") == (0, 1)


def test_war_cannot_move_tokens_onto_your_own_tile() -> None:
    # FR FAQ: "il faut utiliser l'action politique pour cela".
    state = _war({"B3": "p05", "C3": "c01"})
    _refused(state, "war B3>C3 move 1", "war_self")


def test_attacker_must_be_yours_and_must_move_at_least_one() -> None:
    state = _war({"B3": "p05", "C3": "c12", "D3": "c13"})
    _refused(state, "war C3>D3 move 1", "war_own")
    _refused(state, "war B3>C3 move 0", "war_move_one")


def test_unlimited_attacks_in_one_war_action() -> None:
    state = _war({"B3": "w05", "C3": "c"})
    state = play(state, "war B3>C3 move 2", "war C3>D3 move 1", "war B3>B4 move 2")
    assert state["step"] == "war"
    state = play(state, "war done")
    assert at(state, "D3") == (0, 1) and at(state, "B4") == (0, 2) and at(state, "B3") == (0, 1)
    assert state["step"] == "choose"


def test_war_with_no_possible_attack_ends_at_once() -> None:
    state = _war({"B3": "p02", "C3": "c12", "B2": "c12", "A3": "c12", "B4": "c12"})
    assert state["step"] == "choose"


def test_war_needs_no_war_tile() -> None:
    # FR FAQ: "Il n'est pas nécessaire de posséder une tuile guerre pour utiliser l'action".
    state = _war({"B3": "a03"})
    assert "war B3>C3 move 2" in notations(state)


# ------------------------------------------------------------------ Culture


def test_culture_gives_each_owned_neighbour_a_token_of_its_owner() -> None:
    cells = {"C3": "u02", "B3": "p11", "C2": "p03", "C4": "a24", "D3": "w"}
    state = play(make_state(cells, hands=("u/p", "a/c", "a/c")), "action culture")
    assert at(state, "B3") == (1, 2) and at(state, "C2") == (0, 4) and at(state, "C4") == (2, 5)
    assert at(state, "D3") == (-1, 0) and at(state, "C3") == (0, 2)


def test_a_tile_next_to_two_culture_tiles_gets_two() -> None:
    # FR FAQ: "Si une tuile est adjacente à deux tuiles culture, elle reçoit deux jetons".
    state = play(make_state({"B3": "u01", "D3": "u01", "C3": "p11"}, hands=("u/p", "a/c", "a/c")),
                 "action culture")
    assert at(state, "C3") == (1, 3)


def test_a_culture_tile_feeds_another() -> None:
    # FR FAQ: "Une tuile culture adjacente à une autre tuile culture peut bénéficier".
    state = play(make_state({"B3": "u01", "C3": "u/a02"}, hands=("u/p", "a/c", "a/c")),
                 "action culture")
    assert at(state, "B3") == (0, 2) and at(state, "C3") == (0, 3)


def test_other_players_culture_tiles_do_not_count() -> None:
    state = play(make_state({"B3": "u11", "C3": "p01"}, hands=("u/p", "a/c", "a/c")),
                 "action culture")
    assert at(state, "C3") == (0, 1) and at(state, "B3") == (1, 1)


def test_short_supply_never_stops_other_players_gaining_by_culture() -> None:
    # FR FAQ: "Le manque de cubes n'empêche pas les autres joueurs de bénéficier".
    cells = {"B2": "u05", "D5": "p05", "E6": "p05", "A2": "p04", "A5": "p01", "B3": "p12"}
    state = make_state(cells, hands=("u/p", "a/c", "a/c"))
    assert state["supply"][0] == 0
    state = play(state, "action culture")
    assert at(state, "A2") == (0, 4) and at(state, "B3") == (1, 3)


# ------------------------------------------------------------------ Politics


def test_politics_redistributes_may_empty_tiles_and_needs_no_politics_tile() -> None:
    # FR FAQ: "Il est possible de laisser des tuiles vides" / "Il n'est pas nécessaire de
    # posséder une tuile politique".
    cells = {"B3": "w03", "E5": "c02", "F1": "a01", "A6": "p01", "C3": "c11"}
    state = play(make_state(cells, hands=("p/u", "a/c", "a/c")), "action politics")
    assert "politics B3>E5 3" in notations(state)
    _refused(state, "politics B3>C3 1", "politics_own")
    _refused(state, "politics B3>D4 1", "politics_own")
    _refused(state, "politics B3>E5 4", "politics_count")
    state = play(state, "politics B3>E5 3")
    assert at(state, "B3") == (-1, 0) and at(state, "E5") == (0, 5)
    # Ruling 14: a tile gives or receives; the emptied tile is free.
    _refused(state, "politics E5>F1 1", "politics_flow")
    _refused(state, "politics F1>B3 1", "politics_own")
    state = play(state, "politics F1>A6 1")
    assert at(state, "F1") == (-1, 0) and at(state, "A6") == (0, 2)
    # Nothing left to move (every tile left has received): the action ends by itself.
    assert state["step"] == "choose"


def test_politics_ends_with_done() -> None:
    state = play(make_state({"B3": "w03", "E5": "c02"}, hands=("p/u", "a/c", "a/c")),
                 "action politics", "politics B3>E5 1")
    assert state["step"] == "politics" and "politics done" in notations(state)
    state = play(state, "politics done")
    assert at(state, "B3") == (0, 2) and at(state, "E5") == (0, 3) and state["step"] == "choose"


def test_politics_respects_the_tile_limit() -> None:
    state = play(make_state({"B3": "w03", "E5": "c04"}, hands=("p/u", "a/c", "a/c")),
                 "action politics")
    assert [n for n in notations(state) if n.startswith("politics B3")] == ["politics B3>E5 1"]
    _refused(state, "politics B3>E5 2", "full")


# ------------------------------------------------------------------ Agriculture


def test_agriculture_removes_from_unprotected_tiles_then_places_zero_to_two() -> None:
    cells = {"C3": "a02", "D3": "a/p02", "C4": "p02", "E5": "p03", "A1": "w01", "F1": "a01",
             "F6": "a/c02", "B2": "p12"}
    state = play(make_state(cells, hands=("a/c", "a/c", "a/c")), "action agriculture")
    # C3 and D3 protect each other, C3 protects C4; E5 and A1 lose one (A1 becomes free);
    # ruling 9: isolated Agriculture tiles lose one too (F1 becomes free, F6 keeps one);
    # other players are untouched.
    assert at(state, "C3") == (0, 2) and at(state, "D3") == (0, 2) and at(state, "C4") == (0, 2)
    assert at(state, "E5") == (0, 2) and at(state, "A1") == (-1, 0) and at(state, "F1") == (-1, 0)
    assert at(state, "F6") == (0, 1) and at(state, "B2") == (1, 2)
    # FR FAQ: "Il est possible de placer 0, 1 ou 2 jetons par tuile" - tiles in reading order.
    assert notations(state) == ["agriculture C3 0", "agriculture C3 1", "agriculture C3 2"]
    _refused(state, "agriculture D3 1", "agriculture_order")
    _refused(state, "agriculture C3 3", "agriculture_two")
    state = play(state, "agriculture C3 2", "agriculture D3 0")
    assert notations(state) == ["agriculture F6 0", "agriculture F6 1", "agriculture F6 2"]
    state = play(state, "agriculture F6 1")
    assert at(state, "C3") == (0, 4) and at(state, "D3") == (0, 2) and at(state, "F6") == (0, 2)
    assert state["step"] == "choose" and at(state, "F1") == (-1, 0)


def test_agriculture_without_agriculture_tiles_removes_everywhere() -> None:
    # Ruling 10: the removal applies to every tile when no Agriculture tile protects it.
    state = play(make_state({"B3": "p02", "E5": "c01"}, hands=("a/c", "a/c", "a/c")),
                 "action agriculture")
    assert at(state, "B3") == (0, 1) and at(state, "E5") == (-1, 0)
    assert state["step"] == "choose"


def test_agriculture_respects_the_tile_limit() -> None:
    state = play(make_state({"C3": "a04", "D3": "a01"}, hands=("a/c", "a/c", "a/c")),
                 "action agriculture")
    assert notations(state) == ["agriculture C3 0", "agriculture C3 1"]
    _refused(state, "agriculture C3 2", "full")


# ------------------------------------------------------------------ Commerce


def test_commerce_counts_border_sides_and_opponent_tiles() -> None:
    cells = {"A1": "c01", "B1": "p11", "C3": "c01", "C2": "p01", "B3": "p21", "C4": "uZ1"}
    state = play(make_state(cells, hands=("c/u", "a/c", "a/c")), "action commerce")
    # A1: 2 border sides + B1 (opponent) = 3; A2 free gives nothing.
    assert at(state, "A1") == (0, 4)
    # C3: B3 (opponent) = 1; C2 is own, D3 free, C4 a ziggurat hole (ruling 5).
    assert at(state, "C3") == (0, 2)


def test_commerce_stops_at_five_tokens_per_tile() -> None:
    state = play(make_state({"A1": "c04", "B1": "p11"}, hands=("c/u", "a/c", "a/c")),
                 "action commerce")
    assert at(state, "A1") == (0, 5)


def test_commerce_places_all_it_can_until_the_supply_runs_out() -> None:
    # FR FAQ: "Il faut placer tous les jetons possibles sauf en cas d'épuisement de la réserve".
    cells = {"A1": "c01", "F1": "c01", "C3": "p05", "D3": "p05", "C4": "p05", "D4": "p02"}
    state = make_state(cells, hands=("c/u", "a/c", "a/c"))
    assert state["supply"][0] == 1
    state = play(state, "action commerce")
    assert at(state, "A1") == (0, 2) and at(state, "F1") == (0, 1) and state["supply"][0] == 0


def test_the_last_token_of_the_supply_can_be_a_bonus() -> None:
    # Declining gives an extra token on a tile you own while your supply has one.
    cells = {"A1": "c01", "F1": "c01", "C3": "p05", "D3": "p05", "C4": "p05", "D4": "p02"}
    state = make_state(cells, hands=("c/u", "a/c", "a/c"))
    assert state["supply"][0] == 1
    state = play(state, "decline commerce")
    assert sorted(notations(state)) == ["bonus A1", "bonus D4", "bonus F1", "bonus done"]
    state = play(state, "bonus D4")
    assert at(state, "D4") == (0, 3) and state["supply"][0] == 0


def test_agriculture_is_limited_by_the_supply() -> None:
    protected = {"C3": "a01", "D3": "a05", "C4": "p05", "B3": "p05"}
    state = make_state({**protected, "C2": "p03"}, hands=("a/c", "a/c", "a/c"))
    assert state["supply"][0] == 1
    state = play(state, "action agriculture")
    assert notations(state) == ["agriculture C3 0", "agriculture C3 1"]
    _refused(state, "agriculture C3 2", "supply")
    state = play(make_state({**protected, "C2": "p04"}, hands=("a/c", "a/c", "a/c")),
                 "action agriculture")
    assert state["supply"][0] == 0 and state["step"] == "choose"
