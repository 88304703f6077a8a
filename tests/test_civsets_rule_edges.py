"""Civilizations at the edges of its rules: each test pins a behaviour that a one-line
change of the rules (a planted bug: ``>=`` made ``>``, a check dropped) would alter and
that the rule-by-rule tests (tests/test_civsets_rules.py) let through."""

from __future__ import annotations

from bot.games.civsets.cards import RULES
from tests.test_civsets_rules import cards_of, game, legal, play


def test_a_controller_with_exactly_the_price_can_be_offered_a_sale() -> None:
    # « You may sell cards you have already placed on the map for 100 Points/cards » to
    # the territory's controller, who pays: exactly 100 points is enough (R15).
    greeks = cards_of("greeks")
    state = game(s0=greeks[:5], s1=greeks[5:9])
    state = play(state, 0, "place greeks", "draw", "end")
    state = play(state, 1, "place greeks")
    state["points"][0] = RULES["sell_price"]
    assert "sell greeks" in legal(state, 1)
    state["points"][0] = RULES["sell_price"] - 1
    assert "sell greeks" not in legal(state, 1)


def test_one_purchase_a_round_holds_on_the_caravans_second_action() -> None:
    # « You may only purchase one card per round this way » (R9), even with the second
    # action of the Incense Caravan and points left for another purchase.
    romans = cards_of("romans")
    state = game(s0=["bonus-caravan"], s1=romans[:3], s2=cards_of("greeks")[:3])
    state["points"][0] = 3 * RULES["buy_price"]
    state = play(state, 0, "play caravan", "buy 2 romans")
    state = play(state, 1, f"accept {romans[0]}")
    assert state["points"][0] >= RULES["buy_price"] and state["actions"] >= 1
    assert "draw" in legal(state, 0)
    assert not any(step.startswith("buy") for step in legal(state, 0))


def test_only_the_first_placement_on_a_territory_draws_a_bonus_card() -> None:
    # « the first to start a territory draws a Bonus card » (R17): not a rival who
    # contests it, nor its starter placing more.
    greeks = cards_of("greeks")
    state = game(s0=greeks[:4], s1=greeks[4:8])
    state = play(state, 0, "place greeks", "draw", "end")
    bonus = list(state["bonus"])
    hand = len(state["hands"][1])
    state = play(state, 1, "place greeks")
    assert state["bonus"] == bonus and len(state["hands"][1]) == hand - 4


def test_a_contested_territory_is_no_completed_set() -> None:
    # A set is all 12 cards of a territory held by one player: six and six is not one.
    greeks = cards_of("greeks")
    state = game(s0=greeks[:6], s1=greeks[6:12])
    state = play(state, 0, "place greeks", "draw", "end")
    state = play(state, 1, "place greeks")
    assert len(state["map"]["greeks"]) == RULES["set_size"]
    assert "greeks" not in state["closed"] and state["sets"] == [[], [], []]


def test_tribute_never_takes_a_player_below_zero() -> None:
    state = game(s0=["bonus-tribute"])
    state["points"] = [100, 10, 0]
    state = play(state, 0, "play tribute")
    assert state["points"] == [110, 0, 0]


def test_the_temple_asylum_shield_ends_at_its_holders_next_turn() -> None:
    state = game(s0=["bonus-sanctuary", *cards_of("greeks")[:2]])
    state = play(state, 0, "play sanctuary", "draw", "end")
    assert "challenge 1" not in legal(state, 1)              # shielded for a round
    state = play(state, 1, "draw", "end")
    state = play(state, 2, "draw", "end")
    assert state["current"] == 0 and state["shield"][0] is False
    state = play(state, 0, "draw", "end")
    assert "challenge 1" in legal(state, 1)                  # open again


def test_a_player_with_no_action_left_to_take_may_end_the_turn() -> None:
    # No card to draw, nobody holding a card to swap, buy or win: the turn can still end.
    state = game(s0=[], s1=[], s2=[])
    state["deck"], state["bonus"] = [], []
    assert state["actions"] == 1 and legal(state, 0) == ["end"]


def test_a_new_round_gives_back_the_purchase_of_the_round() -> None:
    romans = cards_of("romans")
    state = game(s1=romans[:3], s2=cards_of("greeks")[:3])
    state["points"][0] = 3 * RULES["buy_price"]
    state = play(state, 0, "buy 2 romans")
    state = play(state, 1, f"accept {romans[0]}")
    state = play(state, 0, "end")
    state = play(state, 1, "draw", "end")
    state = play(state, 2, "draw", "end")
    assert state["round"] == 2 and any(s.startswith("buy") for s in legal(state, 0))
