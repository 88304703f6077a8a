"""Bazaar: a small test game that needs every capability of the core that Ur does not.

2-4 players, a few rounds. Each player holds a hidden hand of goods (12 goods, worth
1 to 12 points; 3 dealt to each player, the rest a hidden deck). On your turn:

1. ``roll``: a die mid-turn (public), that many coins;
2. one action: ``draw`` (the top good of the deck, seen by you alone), ``offer <good>
   to <n>`` (player n answers in their own panel: ``give <good>`` to swap, or
   ``decline``; the offer has no clock of its own: the game's turn limit declines it),
   ``quiz`` (a sum to answer in 60 s, a game option: right gives 3 coins; ``skip`` or
   the clock running out gives nothing) or ``pass``;
3. ``end``.

After everyone's turn, a relic (worth a die's points) is auctioned: every player bids
0 to 5 coins (at most their coins) at once, sealed (``bid <n>``); when the last bid is
in, all are revealed, the highest single bid pays and takes the relic (a tie: nobody).
The game ends after the last round's auction; score = coins + goods in hand + relics.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from bot import chance
from bot.engine import (
    Action,
    BadNotation,
    Deadline,
    GameDefaults,
    GameMeta,
    IllegalMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Prompt,
    Report,
    Seat,
    Secret,
    Secrets,
    State,
    Text,
    seat_ref,
)
from bot.games.kit import ContractTuning

GOODS = ("saffron", "cedar", "lapis", "ivory", "amber", "copper", "myrrh", "indigo",
         "obsidian", "cinnamon", "turquoise", "papyrus")
VALUE = {good: i + 1 for i, good in enumerate(GOODS)}
HAND = 3
MAX_BID = 5
QUIZ_COINS = 3


def good_name(good: str) -> Text:
    """A good's name."""
    return Text.of(f"bazaar.good.{good}")


def _act(notation: str, key: str, group: str = "", **args: Any) -> Action:
    return Action(notation, Text.of(f"bazaar.act.{key}", **args), group)


class BazaarGame(GameDefaults):
    """The test game; see the module docstring. States are plain dicts."""

    meta = GameMeta(
        id="bazaar",
        name=Text.of("bazaar.name"),
        min_players=2,
        max_players=4,
        rules_summary=Text.of("bazaar.rules"),
        options=(
            OptionSpec("rounds", Text.of("bazaar.option_rounds"), ("1", "2", "3"), "2"),
            OptionSpec("quiz_seconds", Text.of("bazaar.option_quiz"), ("60", "30", "5", "2"),
                       "60"),
        ),
        hidden_information=True,
    )
    tuning = ContractTuning(playouts=200, ai_games=10)

    # -- setup and queries ----------------------------------------------------------------

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        state: State = {chance.KEY: chance.start(seed)}
        deck = list(GOODS)
        chance.Draw(state).shuffle(deck)
        state.update({
            "n": n_players,
            "rounds": int(options.get("rounds", "2")),
            "quiz_seconds": float(options.get("quiz_seconds", "60")),
            "hands": [deck[i * HAND:(i + 1) * HAND] for i in range(n_players)],
            "deck": deck[n_players * HAND:],
            "coins": [0] * n_players,
            "relics": [0] * n_players,
            "round": 1, "turn": 0, "current": 0,
            "phase": "turn", "rolled": False, "acted": False,
            "offer": None, "quiz": None, "lot": 0, "bids": [None] * n_players,
            "last_auction": None, "over": False, "known": {},
        })
        return state

    def active(self, state: State) -> list[Seat]:
        if state["over"]:
            return []
        if state["phase"] == "auction":
            return [s for s in range(state["n"]) if state["bids"][s] is None]
        if state["phase"] == "offer":
            return [state["offer"]["to"]]
        return [state["current"]]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.active(state):
            return []
        phase = state["phase"]
        if phase == "auction":
            top = min(MAX_BID, state["coins"][seat])
            return [_act(f"bid {n}", "bid", "bid", n=n) for n in range(top + 1)]
        if phase == "offer":
            wanted = good_name(state["offer"]["good"])
            gives = [_act(f"give {g}", "give", "trade", good=good_name(g), wanted=wanted)
                     for g in state["hands"][seat]]
            return [*gives, _act("decline", "decline", "trade")]
        if phase == "quiz":
            options = state["quiz"]["options"]
            answers = [_act(f"answer {i + 1}", "answer", "quiz", value=v)
                       for i, v in enumerate(options)]
            return [*answers, _act("skip", "skip", "quiz")]
        if not state["rolled"]:
            return [_act("roll", "roll")]
        if state["acted"]:
            return [_act("end", "end", "end")]
        actions = [_act("draw", "draw")] if state["deck"] else []
        for good in state["hands"][seat]:
            for other in range(state["n"]):
                if other != seat:
                    actions.append(_act(f"offer {good} to {other + 1}", "offer", "offer",
                                        good=good_name(good), who=seat_ref(other)))
        return [*actions, _act("quiz", "quiz"), _act("pass", "pass")]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        words = text.strip().lower().split()
        if not words or words[0] not in {"roll", "draw", "offer", "give", "decline", "quiz",
                                         "answer", "skip", "pass", "end", "bid"}:
            raise BadNotation(Text.of("bazaar.err.notation", text=text[:100]))
        notation = " ".join(words)
        if seat not in self.active(state):
            raise NotYourTurn(Text.of("bazaar.err.not_yours"))
        for action in self.legal(state, seat):
            if action.notation == notation:
                return action
        raise IllegalMove(Text.of("bazaar.err.illegal", text=notation))

    # -- steps ----------------------------------------------------------------------------

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        notation = action.notation if isinstance(action, Action) else action
        words = self.parse(state, seat, notation).notation.split()
        new = copy.deepcopy(state)
        verb = words[0]
        if verb == "roll":
            die = chance.Draw(new).die()
            new["coins"][seat] += die
            new["rolled"] = die
        elif verb == "draw":
            new["hands"][seat].append(new["deck"].pop(0))
            new["acted"] = True
        elif verb == "offer":
            target = int(words[3]) - 1
            new["offer"] = {"from": seat, "to": target, "good": words[1]}
            new["phase"] = "offer"
            new["known"][words[1]] = sorted({*new["known"].get(words[1], ()), target})
        elif verb in ("give", "decline"):
            self._answer_offer(new, seat, words[1] if verb == "give" else None)
        elif verb == "quiz":
            draw = chance.Draw(new)
            a, b = draw.die(9), draw.die(9)
            options = [a + b, a + b + 1, a + b - 1, a + b + 2]
            draw.shuffle(options)
            new["quiz"] = {"a": a, "b": b, "options": options, "right": None}
            new["phase"] = "quiz"
        elif verb in ("answer", "skip"):
            quiz = new["quiz"]
            right = verb == "answer" and quiz["options"][int(words[1]) - 1] == quiz["a"] + quiz["b"]
            if right:
                new["coins"][seat] += QUIZ_COINS
            quiz["right"] = right
            new["phase"], new["acted"] = "turn", True
        elif verb == "pass":
            new["acted"] = True
        elif verb == "end":
            self._end_turn(new)
        else:
            self._bid(new, seat, int(words[1]))
        return new

    @staticmethod
    def _answer_offer(state: State, seat: Seat, given: str | None) -> None:
        offer = state["offer"]
        if given is not None:
            mine, theirs = state["hands"][offer["from"]], state["hands"][seat]
            mine.remove(offer["good"])
            theirs.remove(given)
            mine.append(given)
            theirs.append(offer["good"])
            for good in (given, offer["good"]):     # both sides may name both goods ever after
                state["known"][good] = sorted({*state["known"].get(good, ()), seat,
                                               offer["from"]})
        offer["given"] = given
        state["phase"], state["acted"] = "turn", True

    def _end_turn(self, state: State) -> None:
        state["turn"] += 1
        state["rolled"] = state["acted"] = False
        state["offer"] = state["quiz"] = None
        if state["current"] + 1 < state["n"]:
            state["current"] += 1
            return
        state["phase"] = "auction"
        state["lot"] = chance.Draw(state).die()
        state["bids"] = [None] * state["n"]

    @staticmethod
    def _bid(state: State, seat: Seat, amount: int) -> None:
        state["bids"][seat] = amount
        if any(b is None for b in state["bids"]):
            return
        bids = state["bids"]
        top = max(bids)
        winners = [s for s, b in enumerate(bids) if b == top]
        winner = winners[0] if len(winners) == 1 and top > 0 else None
        if winner is not None:
            state["coins"][winner] -= top
            state["relics"][winner] += state["lot"]
        state["last_auction"] = {"bids": list(bids), "winner": winner, "lot": state["lot"]}
        state["turn"] += 1
        state["bids"] = [None] * state["n"]
        state["lot"] = 0
        if state["round"] == state["rounds"]:
            state["over"] = True
            return
        state["round"] += 1
        state["phase"], state["current"] = "turn", 0

    # -- what each seat sees --------------------------------------------------------------

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        offer = state["offer"]
        view = {
            "n": state["n"], "round": state["round"], "rounds": state["rounds"],
            "turn": state["turn"], "current": state["current"], "phase": state["phase"],
            "rolled": state["rolled"], "acted": state["acted"],
            "coins": list(state["coins"]), "relics": list(state["relics"]),
            "hand_sizes": [len(h) for h in state["hands"]], "deck_size": len(state["deck"]),
            "offer": None if offer is None else {"from": offer["from"], "to": offer["to"]},
            "quiz": copy.deepcopy(state["quiz"]), "lot": state["lot"],
            "bids_in": [b is not None for b in state["bids"]],
            "last_auction": copy.deepcopy(state["last_auction"]), "over": state["over"],
            "quiz_seconds": state["quiz_seconds"], "you": seat,
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
            view["my_bid"] = state["bids"][seat]
            if offer is not None and seat in (offer["from"], offer["to"]):
                view["offer"]["good"] = offer["good"]
        return view

    def secrets(self, state: State) -> Secrets:
        """Each good in a hand (read by its holder, and by whoever was offered it or traded
        it), the deck (by nobody) and each sealed bid (by its bidder); goods by their names
        and by their ids."""
        found = []
        for seat, hand in enumerate(state["hands"]):
            for good in hand:
                readers = frozenset({seat, *state["known"].get(good, ())})
                found += [Secret(good_name(good), readers), Secret(good, readers)]
        found += [Secret(value) for g in state["deck"] for value in (good_name(g), g)]
        found += [Secret(Text.of("bazaar.sealed", who=seat_ref(seat), n=bid), frozenset({seat}))
                  for seat, bid in enumerate(state["bids"]) if bid is not None]
        return found

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        if state["over"]:
            return None
        if state["phase"] == "quiz" and seat == state["current"]:
            quiz = state["quiz"]
            return Prompt(Text.of("bazaar.prompt.quiz", a=quiz["a"], b=quiz["b"]), public=True)
        if state["phase"] == "offer" and seat == state["offer"]["to"]:
            offer = state["offer"]
            return Prompt(Text.of("bazaar.prompt.offer", who=seat_ref(offer["from"]),
                                  good=good_name(offer["good"])))
        if state["phase"] == "auction" and state["bids"][seat] is None:
            return Prompt(Text.of("bazaar.prompt.auction", lot=state["lot"]))
        hand = tuple(good_name(g) for g in state["hands"][seat])
        return Prompt(Text.of("bazaar.prompt.hand", goods=hand))

    def deadline(self, state: State, seat: Seat) -> Deadline | None:
        if state["phase"] == "quiz" and seat == state["current"]:
            return Deadline(_act("skip", "skip", "quiz"), state["quiz_seconds"])
        if state["phase"] == "offer" and seat == state["offer"]["to"]:
            return Deadline(_act("decline", "decline", "trade"))
        return None

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        words = action.notation.split()
        verb, who = words[0], seat_ref(seat)
        if verb == "roll":
            return Report(Text.of("bazaar.did.roll", n=after["rolled"]))
        if verb == "draw":
            return Report(Text.of("bazaar.did.draw"), (
                (seat, Text.of("bazaar.did.draw_own", good=good_name(after["hands"][seat][-1]))),))
        if verb == "offer":
            target, good = int(words[3]) - 1, good_name(words[1])
            return Report(Text.of("bazaar.did.offer", to=seat_ref(target)), (
                (seat, Text.of("bazaar.did.offer_own", good=good, to=seat_ref(target))),
                (target, Text.of("bazaar.did.offer_to_you", good=good))))
        if verb in ("give", "decline"):
            offer = before["offer"]
            if verb == "decline":
                return Report(Text.of("bazaar.did.decline", to=seat_ref(offer["from"])))
            got, gave = good_name(offer["good"]), good_name(words[1])
            return Report(Text.of("bazaar.did.give", to=seat_ref(offer["from"])), (
                (seat, Text.of("bazaar.did.give_own", gave=gave, got=got)),
                (offer["from"], Text.of("bazaar.did.give_to_you", got=gave, gave=got))))
        if verb in ("answer", "skip"):
            quiz = after["quiz"] or before["quiz"]
            key = "right" if after["coins"][seat] > before["coins"][seat] else "wrong"
            return Report(Text.of(f"bazaar.did.{key}", answer=quiz["a"] + quiz["b"],
                                  coins=QUIZ_COINS), announce=True)
        if verb == "bid":
            if after["turn"] != before["turn"]:
                return self._reveal(after)
            sealed = Text.of("bazaar.sealed", who=who, n=int(words[1]))
            return Report(Text.of("bazaar.did.bid"), ((seat, sealed),))
        if verb == "end" and after["phase"] == "auction":
            return Report(Text.of("bazaar.did.end_round", lot=after["lot"]),
                          announce=True)
        return Report(Text.of(f"bazaar.did.{verb}"))

    @staticmethod
    def _reveal(after: State) -> Report:
        auction = after["last_auction"]
        bids = tuple(Text.of("bazaar.bid_of", who=seat_ref(s), n=b)
                     for s, b in enumerate(auction["bids"]))
        if auction["winner"] is None:
            return Report(Text.of("bazaar.did.reveal_none", bids=bids), announce=True)
        return Report(Text.of("bazaar.did.reveal", bids=bids, who=seat_ref(auction["winner"]),
                              lot=auction["lot"]), announce=True)

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """Drawing, offering and answering an offer reveal a good; the last bid reveals
        all of them (dice are seen by the core itself)."""
        verb = action.notation.split()[0]
        if verb == "bid":
            return sum(b is None for b in state["bids"]) > 1
        return verb not in ("draw", "offer", "give")

    # -- end and AI -----------------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        """Coins, goods in hand and relics of each seat."""
        return [state["coins"][s] + state["relics"][s] + sum(VALUE[g] for g in state["hands"][s])
                for s in range(state["n"])]

    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        points = self.scores(state)
        levels = sorted(set(points), reverse=True)
        ranking = tuple(tuple(s for s in range(state["n"]) if points[s] == p) for p in levels)
        return Outcome(tuple(points), ranking)

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def determinize(self, view: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        """A state consistent with ``seat``'s view: the goods it cannot see dealt at random
        to the other hands and the deck, and an unknown future for the dice."""
        offer = view["offer"]
        pending = offer if view["phase"] == "offer" and offer is not None and "good" in offer \
            else None   # an offered good still in its offerer's hand
        known = set(view["hand"]) | ({pending["good"]} if pending else set())
        unseen = [g for g in GOODS if g not in known]
        rng.shuffle(unseen)
        hands: list[list[str]] = []
        for other, size in enumerate(view["hand_sizes"]):
            if other == seat:
                hands.append(list(view["hand"]))
                continue
            hand = [pending["good"]] if pending is not None and pending["from"] == other else []
            while len(hand) < size:
                hand.append(unseen.pop())
            hands.append(hand)
        bids = [None if not placed else 0 for placed in view["bids_in"]]
        bids[seat] = view["my_bid"]
        state: State = {key: copy.deepcopy(view[key]) for key in (
            "n", "round", "rounds", "turn", "current", "phase", "rolled", "acted", "coins",
            "relics", "quiz", "lot", "last_auction", "over", "quiz_seconds")}
        state["known"] = {}
        state.update({chance.KEY: chance.resample(rng), "hands": hands, "deck": unseen,
                      "bids": bids, "offer": None if offer is None else {
                          "from": offer["from"], "to": offer["to"],
                          "good": offer.get("good") or hands[offer["from"]][0]}})
        return state

    def heuristic(self, state: State, seat: Seat) -> float:
        points = self.scores(state)
        return float(points[seat] - max(p for s, p in enumerate(points) if s != seat))

    def default_action(self, state: State, seat: Seat) -> Action | None:
        legal = self.legal(state, seat)
        for notation in ("decline", "skip", "pass", "end", "bid 0"):
            for action in legal:
                if action.notation == notation:
                    return action
        return legal[0] if legal else None


GAME = BazaarGame()
