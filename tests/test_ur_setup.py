"""Ur setup: the grid, the tiles, the placement rounds and the setup exchange."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import IllegalMove
from bot.games.ur.board import CELL_NAMES, CELLS, FACES, NEIGHBOURS, PAIRS, build_grid
from bot.games.ur.engine import GAME
from tests.test_ur_support import at, notations, play


def _tiles(state: dict) -> list[frozenset[int]]:
    tiles = [frozenset((state["face"][c], state["back"][c])) for c in range(CELLS)]
    tiles += [frozenset(h) for h in state["hand"]]
    if state["spare"] is not None:
        tiles.append(frozenset(state["spare"]))
    return tiles


def _placed(seed: int = 1, n: int = 3, cells: tuple[str, ...] = ("A1", "C3", "F6")) -> dict:
    """A game after the first placement round on ``cells`` (one per seat, in turn order)."""
    state = GAME.setup(seed, n, {})
    for cell in cells[:n]:
        state = play(state, f"place {cell}", "end")
    return state


def test_no_two_adjacent_tiles_show_the_same_face() -> None:
    for seed in range(300):
        state = GAME.setup(seed, 3 + seed % 2, {})
        for c in range(CELLS):
            assert all(state["face"][c] != state["face"][nb] for nb in NEIGHBOURS[c])


def test_grid_construction_always_succeeds() -> None:
    for seed in range(2000):
        faces, _, leftovers = build_grid(random.Random(seed))
        assert len(faces) == CELLS and len(leftovers) == 4
        assert all(faces[c] != faces[nb] for c in range(CELLS) for nb in NEIGHBOURS[c])


@pytest.mark.parametrize("n", [3, 4])
def test_forty_tiles_are_the_ten_pairs_four_times_each(n: int) -> None:
    tiles = _tiles(GAME.setup(11, n, {}))
    assert len(tiles) == 40
    assert Counter(tiles) == {frozenset(p): 4 for p in PAIRS}
    assert all(len(t) == 2 for t in tiles)


def test_each_player_gets_a_tile_and_three_players_have_a_spare() -> None:
    three, four = GAME.setup(3, 3, {}), GAME.setup(3, 4, {})
    assert len(three["hand"]) == 3 and three["spare"] is not None
    assert len(four["hand"]) == 4 and four["spare"] is None
    assert GAME.view(three, None)["spare"] is not None


def test_setup_is_seeded_and_the_first_player_random() -> None:
    assert GAME.setup(42, 4, {}) == GAME.setup(42, 4, {})
    assert GAME.setup(42, 4, {}) != GAME.setup(43, 4, {})
    assert {GAME.setup(seed, 4, {})["first"] for seed in range(40)} == {0, 1, 2, 3}
    for seed in range(10):
        state = GAME.setup(seed, 3, {})
        assert GAME.active(state) == [state["first"]]
        assert state["phase"] == "placement"


def test_setup_refuses_other_player_counts() -> None:
    with pytest.raises(ValueError):
        GAME.setup(1, 2, {})
    assert (GAME.meta.id, GAME.meta.min_players, GAME.meta.max_players) == ("ur", 3, 4)


def test_first_round_any_free_tile_then_clockwise() -> None:
    state = GAME.setup(1, 3, {})
    first = state["first"]
    assert len(notations(state)) == CELLS
    state = play(state, "place C3")
    assert at(state, "C3") == (first, 1) and notations(state) == ["end"]
    state = play(state, "end")
    assert state["current"] == (first + 1) % 3 and GAME.turn_number(state) == 1
    assert "place C3" not in notations(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, state["current"], "place C3")
    assert err.value.reason.key == "ur.err.place_free"


def test_rounds_two_and_three_own_tile_or_adjacent_free_tile() -> None:
    state = _placed()
    first = state["first"]
    assert state["current"] == first
    assert sorted(notations(state)) == ["place A1", "place A2", "place B1"]
    for cell in ("D4", "C3"):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, first, f"place {cell}")
        assert err.value.reason.key == "ur.err.place_adjacent"
    state = play(state, "place B1", "end")
    state = play(state, "place C3", "end", "place F6", "end")
    assert sorted(notations(state)) == ["place A1", "place A2", "place B1", "place B2", "place C1"]
    state = play(state, "place A1", "end", "place C3", "end", "place E6", "end")
    assert at(state, "A1") == (first, 2) and at(state, "C3") == ((first + 1) % 3, 3)
    assert state["phase"] == "setup_exchange" and state["current"] == first
    assert state["supply"][first] == 17


def test_setup_exchange_is_optional_with_any_free_tile_and_the_spare() -> None:
    state = _placed()
    for _ in range(6):
        state = play(state, notations(state)[0], "end")
    first = state["first"]
    assert state["phase"] == "setup_exchange"
    legal = notations(state)
    assert "pass" in legal and any(n.startswith("exchange spare") for n in legal)
    # Ruling 19: no different-pair requirement during the setup exchange.
    free = next(c for c in range(CELLS) if state["owner"][c] < 0)
    face, back = state["face"][free], state["back"][free]
    state["hand"][first] = [back, face]
    cell = CELL_NAMES[free]
    state = play(state, f"exchange {cell} face {FACES[back]}")
    assert state["hand"][first] == [back, face]
    assert (state["face"][free], state["back"][free]) == (back, face)  # shown as it was in hand
    state = play(state, "end")
    state = play(state, "pass", "end")
    spare = list(state["spare"])
    seat = state["current"]
    old = list(state["hand"][seat])
    state = play(state, f"exchange spare face {FACES[spare[1]]}", "end")
    assert state["hand"][seat] == [spare[1], spare[0]] and state["spare"] == old
    assert state["phase"] == "turn" and state["current"] == first
    assert state["step"] == "choose"
