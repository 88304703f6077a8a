"""Civilizations, rule by rule: each test cites the rulebook sentence (seed 003) or the
ruling of ``data/civsets/RULINGS.md`` it checks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine import IllegalMove, State
from bot.games.civsets.cards import BONUS_CARDS, CARDS, CIV_CARDS, RULES
from bot.games.civsets.engine import GAME
from bot.i18n import translate

NAMES = ("Avery", "Blake", "Casey", "Devon")


def cards_of(civ: str) -> list[str]:
    return [c for c in CIV_CARDS if CARDS[c].civ == civ]


def game(n: int = 3, seed: int = 1, **hands: list[str]) -> State:
    """A fresh game; ``hands`` (``s0=[...]``) replace seats' hands (the cards are taken
    out of wherever they were)."""
    state = GAME.setup(seed, n, {})
    for key, cards in hands.items():
        seat = int(key[1:])
        for other in state["hands"]:
            for card in cards:
                if card in other:
                    other.remove(card)
        for card in cards:
            if card in state["deck"]:
                state["deck"].remove(card)
            if card in state["bonus"]:
                state["bonus"].remove(card)
        state["hands"][seat] = list(cards)
    return state


def play(state: State, seat: int, *steps: str) -> State:
    for step in steps:
        state = GAME.apply(state, seat, step)
    return state


def legal(state: State, seat: int) -> list[str]:
    return [a.notation for a in GAME.legal(state, seat)]


def text(value: Any, lang: str = "en") -> str:
    return translate(value, lang, NAMES)


# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_player_is_dealt_twelve_cards(n: int) -> None:
    # « Each player is then dealt a starting hand of twelve Civilization Cards. »
    state = GAME.setup(5, n, {})
    assert [len(h) for h in state["hands"]] == [12] * n
    assert len(state["deck"]) == 72 - 12 * n
    everything = sorted(state["deck"] + [c for h in state["hands"] for c in h])
    assert everything == sorted(CIV_CARDS)
    # « a Bonus Deck with 12 cards », shuffled separately
    assert sorted(state["bonus"]) == sorted(BONUS_CARDS)
    assert state["points"] == [RULES["start_points"]] * n        # R2


def test_a_turn_holds_exactly_one_action() -> None:
    # « On your turn, you must perform one of four possible actions. » (R4)
    state = game()
    assert "end" not in legal(state, 0)
    state = play(state, 0, "draw")
    after = legal(state, 0)
    assert "end" in after and "draw" not in after
    assert not any(s.startswith(("trade", "buy", "challenge")) for s in after)


def test_draw_takes_the_top_card_then_bonus_cards_when_the_deck_is_empty() -> None:
    # « Draw a card by taking the top card from the Civilization Deck. » (R5)
    state = game()
    top = state["deck"][0]
    state = play(state, 0, "draw")
    assert state["hands"][0][-1] == top
    state = GAME.setup(2, 6, {})           # six players: the deck starts empty
    assert state["deck"] == []
    bonus = state["bonus"][0]
    state = play(state, 0, "draw")
    assert state["hands"][0][-1] == bonus


# -- the swap ------------------------------------------------------------------------------


def test_a_swap_moves_one_card_each_way_when_the_other_player_agrees() -> None:
    # « Initiate a Trade by proposing a one-card swap with another player, which they must
    # agree to. » (R6)
    mine, wanted = cards_of("greeks")[0], cards_of("romans")[0]
    state = game(s0=[mine, *cards_of("egyptians")[:3]], s1=[wanted, *cards_of("persians")[:3]])
    state = play(state, 0, "trade 2 romans", f"offer {mine}")
    assert GAME.active(state) == [1]
    assert legal(state, 1) == [f"give {wanted}", "decline"]
    assert mine in json.dumps(GAME.view(state, 1)) and mine not in json.dumps(GAME.view(state, 2))
    state = play(state, 1, f"give {wanted}")
    assert wanted in state["hands"][0] and mine in state["hands"][1]
    assert GAME.active(state) == [0] and "end" in legal(state, 0)      # the action is spent


def test_a_declined_swap_moves_nothing_and_spends_the_action() -> None:
    mine = cards_of("greeks")[0]
    state = game(s0=[mine], s1=cards_of("romans")[:2])
    before = [list(h) for h in state["hands"]]
    state = play(state, 0, "trade 2 romans", f"offer {mine}", )
    state = play(state, 1, "decline")
    assert state["hands"][:2] == before[:2]
    assert legal(state, 0) == ["end"]


# -- the challenge -------------------------------------------------------------------------


def challenge(right: bool | None) -> tuple[State, State, str]:
    target = cards_of("babylonians")[:3]
    state = game(s1=target)
    state = play(state, 0, "challenge 2", "pick 1")
    card = state["pending"]["card"]
    answer = CARDS[card].answer + 1
    wrong = answer % 4 + 1
    step = "skip" if right is None else f"answer {answer if right else wrong}"
    return state, play(state, 0, step), card


def test_a_right_answer_wins_the_card_and_fifty_points_and_ends_the_turn() -> None:
    # « if you answer correctly, you win the card and 50 points … In either case, your turn
    # ends. » (R7, R8)
    before, after, card = challenge(True)
    assert card in after["hands"][0] and card not in after["hands"][1]
    assert after["points"][0] == before["points"][0] + RULES["challenge_reward"]
    assert after["current"] == 1


@pytest.mark.parametrize("right", [False, None])
def test_a_wrong_or_missing_answer_leaves_the_card(right: bool | None) -> None:
    # « if you are incorrect, the card stays with the opponent » (no answer in time: R7)
    before, after, card = challenge(right)
    assert card in after["hands"][1] and after["points"][0] == before["points"][0]
    assert after["current"] == 1
    step = "skip" if right is None else f"answer {(CARDS[card].answer + 1) % 4 + 1}"
    report = GAME.report(before, 0, GAME.parse(before, 0, step), after)
    right_answer = text(CARDS[card].option(CARDS[card].answer))
    assert report.announce and report.detail is not None
    told = text(report.detail)        # told once, in the question's post
    assert text(CARDS[card].explanation()) in told and right_answer in told
    assert told.startswith("⌛" if right is None else "❌")
    assert text(CARDS[card].explanation()) not in text(report.public)   # not in summaries


def test_the_question_is_public_with_a_clock_and_its_default_is_no_answer() -> None:
    state, _, card = challenge(True)
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and prompt.public
    assert text(CARDS[card].question()) in text(prompt.text)
    deadline = GAME.deadline(state, 0)
    assert deadline is not None and deadline.seconds == 60
    assert deadline.default.notation == "skip" and not deadline.default.offered
    assert text(GAME.prompt(state, 0).text).count("60 seconds") == 1   # type: ignore[union-attr]
    assert [a.notation for a in GAME.legal(state, 0) if a.offered] == [
        f"answer {k}" for k in range(1, 5)]                  # no "give no answer" button
    fast = GAME.setup(1, 3, {"quiz_seconds": "10"})
    fast = play(fast, 0, "challenge 2", "pick 1")
    assert GAME.deadline(fast, 0).seconds == 10      # type: ignore[union-attr]


def test_an_ai_answers_right_with_the_skill_of_the_game() -> None:
    state, _, card = challenge(True)
    legal_ = GAME.legal(state, 0)
    right = f"answer {CARDS[card].answer + 1}"
    rng = random.Random(3)
    picks = [GAME.ai_step(state, 0, legal_, rng) for _ in range(2000)]
    share = sum(p is not None and p.notation == right for p in picks) / len(picks)
    assert 0.56 < share < 0.64                          # 60% by default (R22)
    state["ai_skill"] = 100
    assert GAME.ai_step(state, 0, legal_, rng).notation == right   # type: ignore[union-attr]


# -- buying --------------------------------------------------------------------------------


def test_buying_moves_a_hundred_points_once_per_round() -> None:
    # « buy a card by paying 100 Points … if they agree. You may only purchase one card per
    # round this way. » (R9)
    wanted = cards_of("romans")[0]
    state = game(s1=[wanted, *cards_of("greeks")[:2]], s0=cards_of("persians")[:1])
    state = play(state, 0, "buy 2 romans")
    assert GAME.active(state) == [1] and legal(state, 1) == [f"accept {wanted}", "refuse"]
    state = play(state, 1, f"accept {wanted}")
    assert state["points"][:2] == [0, 200] and wanted in state["hands"][0]
    state["actions"] = 1                                   # as with the Incense Caravan
    assert not any(s.startswith("buy") for s in legal(state, 0))


def test_a_refused_purchase_spends_the_action_but_not_the_purchase_of_the_round() -> None:
    state = game(s1=cards_of("romans")[:2], s0=cards_of("persians")[:1])
    state = play(state, 0, "buy 2 romans")
    state = play(state, 1, "refuse")
    assert state["points"][:2] == [100, 100] and legal(state, 0) == ["end"]
    assert state["bought"][0] is False


def test_a_purchase_needs_a_hundred_points() -> None:
    state = game(s1=cards_of("romans")[:2])
    state["points"][0] = 99
    assert not any(s.startswith("buy") for s in legal(state, 0))


# -- the map -------------------------------------------------------------------------------


def test_placing_needs_four_cards_and_earns_fifty_points_each() -> None:
    # « you must place (minimum of 4) cards of the same civilization … You earn 50 Points
    # for every card you place on the map. » (R11, R13)
    greeks = cards_of("greeks")
    state = game(s0=greeks[:3])
    assert "place greeks" not in legal(state, 0)
    state = game(s0=greeks[:5])
    bonus = state["bonus"][0]
    state = play(state, 0, "place greeks")
    assert state["hands"][0] == [bonus]               # R17: the first to start draws a Bonus card
    assert [c for s, c in state["map"]["greeks"] if s == 0] == greeks[:5]
    assert state["points"][0] == RULES["start_points"] + 5 * 50


def test_a_rival_needs_four_cards_to_contest_and_the_majority_controls() -> None:
    # « any opponent may also place at least four cards of that same civilization to
    # challenge you for control of it. » (R12)
    greeks = cards_of("greeks")
    state = game(s0=greeks[:4], s1=greeks[4:7])
    state = play(state, 0, "place greeks", "draw", "end")
    assert "place greeks" not in legal(state, 1)        # three cards are not enough
    state["hands"][1].append(greeks[7])
    state = play(state, 1, "place greeks")
    assert GAME.view(state, None)["controllers"]["greeks"] == 0     # 4-4: the first placer
    assert "sell greeks" in legal(state, 1) and "sell greeks" not in legal(state, 0)


def test_a_placed_card_is_sold_to_the_controller_who_agrees_to_pay() -> None:
    # « You may sell cards you have already placed on the map for 100 Points/cards. » (R15)
    greeks = cards_of("greeks")
    state = game(s0=greeks[:5], s1=greeks[5:9])
    state = play(state, 0, "place greeks", "draw", "end")
    state = play(state, 1, "place greeks")
    points = list(state["points"])
    state = play(state, 1, "sell greeks")
    assert GAME.active(state) == [0] and legal(state, 0) == ["pay", "refuse"]
    state = play(state, 0, "pay")
    assert state["points"][1] == points[1] + RULES["sell_price"]
    assert state["points"][0] == points[0] - RULES["sell_price"]
    assert sum(1 for s, _ in state["map"]["greeks"] if s == 0) == 6
    assert "sell greeks" not in legal(state, 1)        # once a territory a turn


def test_a_refused_sale_moves_nothing() -> None:
    greeks = cards_of("greeks")
    state = game(s0=greeks[:5], s1=greeks[5:9])
    state = play(state, 0, "place greeks", "draw", "end")
    state = play(state, 1, "place greeks", "sell greeks")
    before = json.dumps(state["map"])
    state = play(state, 0, "refuse")
    assert json.dumps(state["map"]) == before and GAME.active(state) == [1]


def test_a_wild_card_needs_a_started_territory_and_completes_a_set() -> None:
    # « A Wild Card can only be used for a civilization if you already have cards of that
    # same civilization placed on the map. » (R14, R16)
    greeks = cards_of("greeks")
    state = game(s0=[*greeks[:11], "wild-greeks"])
    assert "wild greeks" not in legal(state, 0)
    state = play(state, 0, "place greeks")
    assert "wild greeks" in legal(state, 0)
    state = play(state, 0, "wild greeks")
    assert state["sets"][0] == ["greeks"] and "greeks" in state["closed"]   # a token


def test_the_game_ends_after_the_round_of_a_second_set() -> None:
    # « The player with the most completed Sets wins the game. » (R18, R19)
    state = game(s1=[*cards_of("greeks"), *cards_of("romans")])
    state = play(state, 0, "draw", "end")
    state = play(state, 1, "place greeks", "place romans", "draw", "end")
    assert state["sets"][1] == ["greeks", "romans"] and not state["over"]
    state = play(state, 2, "draw", "end")                  # the round ends
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


def test_ties_on_sets_go_to_points_then_are_shared() -> None:
    state = game()
    state["over"] = True
    state["points"] = [300, 500, 500]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranking == ((1, 2), (0,))
    assert outcome.tiebreak is not None and "shared" in text(outcome.tiebreak)
    state["points"] = [300, 500, 400]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.tiebreak is not None
    assert text(outcome.tiebreak) == "no completed set: most points wins"
    state["sets"][0] = ["greeks"]
    state["sets"][2] = ["romans"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranking == ((2,), (0,), (1,))
    assert text(outcome.tiebreak) == "tied on 1 set: most points wins"    # type: ignore[arg-type]


def test_the_game_ends_after_twenty_rounds() -> None:
    state = game()
    state["round"] = RULES["max_rounds"]
    for seat in range(3):
        state = play(state, seat, "draw", "end")
    assert state["over"]


# -- Bonus cards ---------------------------------------------------------------------------


def test_bonus_cards_do_what_they_say() -> None:
    state = game(s0=["bonus-scribe", "bonus-tribute", "bonus-caravan", "bonus-library",
                     "bonus-sanctuary", "bonus-spy"], s1=cards_of("romans")[:3])
    state = play(state, 0, "play scribe")
    assert state["points"][0] == 200
    state = play(state, 0, "play tribute")
    assert state["points"] == [260, 70, 70]
    deck = list(state["deck"][:2])
    state = play(state, 0, "play library")
    assert state["hands"][0][-2:] == deck
    state = play(state, 0, "play caravan", "draw")
    assert "draw" in legal(state, 0)                        # one more action
    state = play(state, 0, "play spy 2")
    assert GAME.view(state, 0)["spied"]["1"] == state["hands"][1]
    state = play(state, 0, "play sanctuary", "draw", "end")
    assert not any(s in legal(state, 1) for s in ("challenge 1", "buy 1 greeks"))


def test_garbage_and_illegal_steps_are_refused() -> None:
    state = game()
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "place greeks")            # only a few Greek cards
    assert GAME.apply(state, 0, "draw") is not state
