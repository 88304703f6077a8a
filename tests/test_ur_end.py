"""Ur game end, scoring and ranking."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.games.ur.board import CELL_NAMES, FACES, SET_POINTS
from bot.games.ur.engine import GAME
from bot.games.ur.scoring import best_sets, score_sets
from tests.test_ur_support import make_state, notations, play


def _pass_turn(state: dict) -> dict:
    """The current player declines both actions, waives the bonus, exchanges, ends."""
    while state["step"] != "end":
        step = state["step"]
        if step == "choose":
            state = play(state, "decline both")
        elif step.startswith("bonus"):
            state = play(state, "bonus done")
        else:
            state = play(state, notations(state)[0])
    return play(state, "end")


def _full_board(spare: str | None = None) -> dict:
    """Every tile owned except A1 (Agriculture/Commerce); seat 0 holds the same pair."""
    cells = {name: f"p{i % 3}1" for i, name in enumerate(CELL_NAMES) if name != "A1"}
    cells["A1"] = "a/c"
    return make_state(cells, hands=("a/c", "p/w", "p/w"), spare=spare)


def test_the_game_ends_at_once_when_a_player_cannot_exchange() -> None:
    state = play(_full_board(), "decline both", "bonus done")
    assert state["step"] == "end" and notations(state) == ["end"]
    assert GAME.legal(state, 0)[0].label.key == "ur.act.end_stuck"
    assert GAME.view(state, None)["prompt"]["key"] == "ur.step.end_stuck"
    assert GAME.outcome(state) is None
    state = play(state, "end")
    assert GAME.active(state) == [] and state["phase"] == "over"
    assert GAME.outcome(state) is not None and GAME.view(state, None)["over"] is True


def test_the_spare_keeps_the_game_going() -> None:
    # Ruling 18: the spare counts as an exchangeable tile.
    state = play(_full_board(spare="u/p"), "decline both", "bonus done")
    assert state["step"] == "exchange"
    assert notations(state) == ["exchange spare face culture", "exchange spare face politics"]


def _ziggurat_race(builder: int) -> dict:
    cells = {"A6": "pZ1", "B6": "pZ2", "C6": "pZ1", "D6": "pZ2",
             "A1": "p01", "C1": "p11", "E1": "p21", "B3": f"p{builder}5"}
    state = make_state(cells, hands=("a/c", "a/c", "a/c"), first=0, current=builder)
    assert state["zigs_left"] == 1
    return play(state, "ziggurat B3", notations(play(state, "ziggurat B3"))[0], "end")


def test_the_fifth_ziggurat_ends_the_game_after_the_last_player_of_the_round() -> None:
    state = _ziggurat_race(builder=0)
    assert state["final"] and GAME.active(state) == [1]
    state = _pass_turn(state)
    assert GAME.active(state) == [2]
    state = _pass_turn(state)
    assert GAME.active(state) == [] and GAME.outcome(state) is not None


def test_the_last_player_building_the_fifth_ziggurat_ends_the_game() -> None:
    state = _ziggurat_race(builder=2)
    assert GAME.active(state) == [] and state["phase"] == "over"


def test_the_middle_player_building_the_fifth_ziggurat() -> None:
    state = _pass_turn(_ziggurat_race(builder=1))
    assert GAME.active(state) == []


# ------------------------------------------------------------------ scoring


def test_rulebook_example_scores_32() -> None:
    faces = ["agriculture"] * 3 + ["commerce"] * 2 + ["war"] * 2 + ["politics", "culture"]
    assert score_sets(faces, ("war", "politics"), 1) == 32
    assert best_sets([3, 2, 1, 1, 2], (4, 3), 1) == (32, (6, 4, 1))


def test_set_table() -> None:
    assert list(SET_POINTS[1:]) == [1, 3, 6, 10, 15, 21]
    assert score_sets(list(FACES), None, 0) == 15
    assert score_sets(list(FACES), None, 1) == 21
    assert score_sets(["war"] * 3, None, 0) == 3
    assert score_sets([], None, 0) == 0


def test_the_held_tile_face_is_chosen_freely() -> None:
    assert score_sets(["war"], ("war", "politics"), 0) == 3
    assert score_sets(["politics"], ("war", "politics"), 0) == 3


def test_one_ziggurat_per_set_and_a_lone_ziggurat_is_a_set_of_one() -> None:
    # FR FAQ: "Une seule tuile avec ziggourat par ensemble"; ruling 8 for the lone one.
    assert score_sets(["war"], None, 2) == 3 + 1
    assert score_sets([], None, 1) == 1
    assert score_sets(["war", "war"], None, 2) == 3 + 3


def _brute_force(faces: list[int], zigs: int) -> int:
    items = faces + [-1] * zigs
    best = 0

    def walk(i: int, sets: list[list[int]]) -> None:
        nonlocal best
        if i == len(items):
            best = max(best, sum(SET_POINTS[len(s)] for s in sets))
            return
        for s in sets:
            if items[i] not in s:
                s.append(items[i])
                walk(i + 1, sets)
                s.pop()
        sets.append([items[i]])
        walk(i + 1, sets)
        sets.pop()

    walk(0, [])
    return best


def test_partition_is_exact() -> None:
    rng = random.Random(5)
    for _ in range(300):
        faces = [rng.randrange(5) for _ in range(rng.randrange(8))]
        zigs = rng.randrange(3)
        hand = (rng.randrange(5), rng.randrange(5)) if rng.random() < 0.5 else None
        names = [FACES[f] for f in faces]
        expected = (_brute_force(faces, zigs) if hand is None else
                    max(_brute_force([*faces, f], zigs) for f in hand))
        held = None if hand is None else (FACES[hand[0]], FACES[hand[1]])
        assert score_sets(names, held, zigs) == expected, (names, held, zigs)


def test_partition_is_not_greedy_on_mixed_counts() -> None:
    # Every multiset of up to 8 faces with 0-2 ziggurats matches the brute force.
    for counts in itertools.product(range(3), repeat=4):
        faces = [f for f, n in enumerate(counts) for _ in range(n)]
        assert score_sets([FACES[f] for f in faces], None, 1) == _brute_force(faces, 1)


# ------------------------------------------------------------------ ranking


def _over(tokens0: int, tokens1: int) -> dict:
    state = make_state({"A1": f"p0{tokens0}", "C1": f"p1{tokens1}"},
                       hands=("a/c", "a/c", "a/c"))
    state.update(phase="over", step="over", current=-1)
    return state


def test_tied_scores_are_broken_by_tokens_on_the_board() -> None:
    outcome = GAME.outcome(_over(3, 1))
    assert outcome is not None
    assert outcome.scores == (3, 3, 1)
    assert outcome.ranking == ((0,), (1,), (2,)) and outcome.winners == (0,)
    assert outcome.tiebreak is not None and outcome.tiebreak.key == "ur.tiebreak.tokens"
    assert [d.key for d in outcome.details] == ["ur.detail"] * 3


def test_still_tied_players_share_the_win() -> None:
    state = _over(2, 2)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1)
    assert outcome.tiebreak is not None and outcome.tiebreak.key == "ur.tiebreak.shared"
    assert GAME.view(state, None)["winners"] == [0, 1]
    assert outcome.to_json() == {"scores": [3, 3, 1], "winners": [0, 1]}


def test_no_tiebreak_without_a_tie() -> None:
    state = make_state({"A1": "p03", "B1": "w/a01"}, hands=("a/c", "a/c", "a/c"))
    state.update(phase="over", step="over", current=-1)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.tiebreak is None and outcome.winners == (0,)


@pytest.mark.parametrize("seed", [1, 2])
def test_scores_in_the_view_are_the_score_if_ended_now(seed: int) -> None:
    state = GAME.setup(seed, 3, {})
    view = GAME.view(state, None)
    assert view["scores"] == [1, 1, 1]


def test_a_ziggurat_scores_as_an_extra_and_hides_its_tile() -> None:
    # FR FAQ: "compte comme une tuile lors du décompte final"; ruling 8: the covered face
    # does not count.
    state = make_state({"B3": "wZ0", "A6": "p11"}, hands=("a/c", "a/c", "a/c"))
    assert GAME.view(state, None)["scores"][0] == 3  # held tile + ziggurat
