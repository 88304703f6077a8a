"""The Automaton's next step, in the engine's notation, chosen among the engine's legal steps.

:func:`next_steps` is what a driver asks (the service, a test, the terminal): the steps the
Automaton seat takes now (one at a time: each is played through ``GAME.apply``, so the engine
validates it) and why. In its action-phase turn it takes the actions its cards planned
(:mod:`.deck`), each part chosen as its Strategy card says (``plan`` in ``strategy.json``,
R-auto-goals, R-auto-research, R-auto-trade, R-auto-war, R-auto-explore). Decisions the
rulebook gives the Automaton no rule for (the setup, an event's option, a final reward, the
steps of a combat against a neutral tribe) take the engine's first legal step
(R-auto-other-steps); a sealed bid follows R-auto-bids. Against a seat it fights the solo
combat, where the engine answers for it (:mod:`bot.games.mesopotamia.solo`): it has no step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import Seat, State, Text
from bot.games.kit import plain, typed
from bot.games.mesopotamia import bids, modes, siege
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import deck, explain
from bot.games.mesopotamia.automaton.cards import DIFFICULTIES, STRATEGIES
from bot.games.mesopotamia.automaton.supply import built, goal_cost
from bot.games.mesopotamia.engine import GAME, automaton_seats
from bot.games.mesopotamia.state import MesopotamiaState, tech_level
from bot.games.mesopotamia.trade import TOKENS

STRONGEST = ("chariot", "cavalry", "archer", "spearman")
BUILD_WORD = {"storey": "storey", "colony": "colony", "garden": "garden", "ram": "ram",
              "rampart": "rampart"}


@dataclass(frozen=True)
class Decision:
    """The steps the Automaton takes now (engine notation), why (None: nothing to tell) and,
    at the first step of its turn, the turn's summary (its cards, their priorities, the Action
    cards drawn and where they went: :func:`.explain.turn_summary`)."""

    steps: tuple[str, ...]
    reason: Text | None = None
    summary: Text | None = None


def next_steps(state: MesopotamiaState, seat: Seat) -> Decision:
    """The Automaton seat's next step: () when it has no decision to take now."""
    if seat not in GAME.active(plain(state)):
        return Decision(())
    legal = [a.notation for a in GAME.legal(plain(state), seat)]
    if not legal:
        return Decision(())
    own = deck.box(state, seat)
    t = state.get("t")
    if own is None or state["phase"] != "actions" or state.get("event") or t is None \
            or "cards" not in t:
        return Decision((_bid(state, seat, legal) if legal[0].startswith("bid ")
                         else legal[0],))
    act = t["act"]
    if act is None:
        step = legal[0]
        reason = explain.step_reason(own, step.split()[1]) if step.startswith("use ") else None
        first = not t["done"] and own.get("turn") is not None
        return Decision((step,), reason, explain.turn_summary(own["turn"]) if first else None)
    plan = _plan(own, act["action"])
    return Decision((_part(state, seat, act, plan, legal),))


NAME = Text.of("mesopotamia.automaton.name")
"""What the channel calls the Automaton (« the Automaton »)."""
SEAT = Text.of("mesopotamia.automaton.seat")
"""Its seat's name, as a player's name is written (« Automaton », « Automate »)."""
OPTION = ("automaton", tuple((d, Text.of(f"mesopotamia.automaton.difficulty.{d}"))
                             for d in DIFFICULTIES), "igigi")
"""The game option that seats the Automaton, its difficulties with their names, and the one a
game for one person gets (« Igigi », the middle one)."""


def seats(options: Mapping[str, str]) -> int:
    """How many seats the Automaton takes in a new game with ``options``."""
    return len(automaton_seats(D.MAX_PLAYERS, options))


def plays(state: State, seat: Seat) -> bool:
    """True when ``seat`` of the plain ``state`` is an Automaton's or a mode's enemy: the
    Defenders of Ur (their steps: the engine's first legal one, R-siege-steps) or the Guardians'
    enemy (its one step, ``advance``; its other decisions: the engine's first legal step,
    R-guard-other-steps)."""
    return modes.scripted(typed(MesopotamiaState, state), seat)


def describe(options: Mapping[str, str]) -> tuple[Text, Text] | None:
    """What the lobby calls a mode's enemy and the mode (« the Garrison of Ur », « Siege of
    Ur »); None for the Automaton."""
    mode = options.get("mode", modes.DUEL)
    return None if mode == modes.DUEL else (Text.of(f"mesopotamia.{mode}.opponent"),
                                            Text.of(f"mesopotamia.{mode}.mode"))


def seat_name(state: State, seat: Seat) -> Text:
    """The seat's name: « Automaton », or the mode's enemy's (R-siege-name, R-guard-name)."""
    ms = typed(MesopotamiaState, state)
    return Text.of(f"mesopotamia.{modes.of(ms)}.seat") if modes.enemy(ms, seat) else SEAT


def next_step(state: State, seat: Seat) -> str:
    """The Automaton's next step in the plain ``state`` (the driver's question: it is asked
    only while the seat is to decide)."""
    (step,) = next_steps(typed(MesopotamiaState, state), seat).steps
    return step


def _bid(state: MesopotamiaState, seat: Seat, legal: list[str]) -> str:
    """R-auto-bids: in the first compartment, one phalanx more than the other sides could bid
    in all (so it wins that compartment whatever they bid), at most all it may; in the others,
    the least it must."""
    amounts = [int(n.split()[1]) for n in legal]
    box = state["bids"]
    side = bids.sealing(state, seat)
    if side is None or box["sealed"][side]:
        return f"bid {min(amounts)}"
    rivals = max((int(s) for k, s in box["stake"].items() if k != side), default=0)
    return f"bid {max(min(amounts), min(max(amounts), rivals + 1))}"


def _plan(own: dict[str, Any], action: str) -> dict[str, Any]:
    """The plan of the Strategy action the action under way was planned for."""
    turn = own.get("turn") or {}
    for planned, card, slot in turn.get("plan", []):
        if planned == action:
            return dict(STRATEGIES[card].slots[slot].plan)
    return {}


def _part(state: MesopotamiaState, seat: Seat, act: dict[str, Any], plan: dict[str, Any],
          legal: list[str]) -> str:
    """The part of the action under way the Automaton plays (``stop`` when none serves)."""
    action = act["action"]
    chosen: str | None
    if action == "research":
        chosen = _research(state, seat, plan, legal)
    elif action == "growth":
        chosen = "grow" if "grow" in legal else None
    elif action == "construction":
        chosen = _build(state, seat, plan, legal)
    elif action == "harvest_trade":
        chosen = _harvest_trade(state, seat, legal)
    elif action == "war":
        chosen = _war(state, seat, legal)
    else:
        chosen = _explore(state, seat, act, plan, legal)
    return chosen if chosen is not None else ("stop" if "stop" in legal else legal[0])


def _research(state: MesopotamiaState, seat: Seat, plan: dict[str, Any],
              legal: list[str]) -> str | None:
    """R-auto-research: « Discover the next Research Technology and the least upgraded
    Technologies. »: Research first, then the lowest technology (ties in action order);
    Clay into Tablets when no discovery can be paid."""
    order = list(plan.get("discover", ["research", "least"]))
    wanted = [a for a in order if a in D.ACTIONS]
    if "least" in order:
        wanted += sorted((a for a in D.ACTIONS if a not in wanted),
                         key=lambda a: (tech_level(state, seat, a), D.ACTIONS.index(a)))
    for action in wanted:
        if f"discover {action}" in legal:
            return f"discover {action}"
    return "convert" if "convert" in legal else None


def _build(state: MesopotamiaState, seat: Seat, plan: dict[str, Any],
           legal: list[str]) -> str | None:
    """R-auto-goals: the first goal not reached that can be built now."""
    player = state["players"][seat]
    have = built(state, seat)
    for structure, target in plan.get("build", []):
        if have[structure] >= int(target):
            continue
        options = [n for n in legal if n.startswith(f"build {BUILD_WORD[structure]} ")]
        if structure == "rampart":
            home = [player["start"], *player["colonies"]]
            options.sort(key=lambda n: home.index(n.split()[2]) if n.split()[2] in home
                         else len(home))
        if structure == "colony":
            options.sort(key=lambda n: _distance_to(state, seat, n.split()[2]))
        if options:
            return options[0]
    return None


def _harvest_trade(state: MesopotamiaState, seat: Seat, legal: list[str]) -> str | None:
    """R-auto-trade: harvest first what its face-up cards' next actions lack most
    (:func:`needs`), then what it holds least of; then « Place your Amphora on the Trade token
    offering the most VP. Otherwise, place it on the next best free slot. »"""
    res = state["players"][seat]["res"]
    harvests = [n for n in legal if n.startswith("harvest ")]
    if harvests:
        lack = needs(state, seat)
        return min(harvests, key=lambda n: (-lack[n.split()[2]], res[n.split()[2]],
                                            D.RESOURCES.index(n.split()[2])))
    trades = [n for n in legal if n.startswith("trade ")]
    if not trades:
        return None
    claimed = state.get("amphorae") or {}
    slot_of = {token: slot for slot, token in state["trade"].items()}
    return max(trades, key=lambda n: (int(TOKENS[n.split()[1]]["vp"]),
                                      slot_of[n.split()[1]] not in claimed))


def needs(state: MesopotamiaState, seat: Seat) -> Counter[str]:
    """What the Automaton lacks for its face-up cards' unresolved actions: the Food of its
    Growth card, and the cost of each Construction's first goal not reached (R-auto-trade)."""
    own = deck.box(state, seat) or {}
    player = state["players"][seat]
    want: Counter[str] = Counter()
    for card in own.get("shown", []):
        marks = own.get("marks", {}).get(card, [False, False])
        for slot, done in zip(STRATEGIES[card].slots, marks, strict=True):
            if done:
                continue
            if slot.action == "growth":
                effect = D.CARD_EFFECT[player["tech"]["growth"]]
                want["food"] = max(want["food"], int(effect.get("food", 0)))
            if slot.action == "construction":
                for kind, count in goal_cost(state, seat, slot.plan).items():
                    want[kind] = max(want[kind], count)
    return Counter({k: v - player["res"][k] for k, v in want.items() if v > player["res"][k]})


def _war(state: MesopotamiaState, seat: Seat, legal: list[str]) -> str | None:
    """R-auto-war: its Phalanxes first, then the strongest unit it may create, in the place
    nearest to an enemy unit."""
    if "phalanx" in legal:
        return "phalanx"
    creates = [n for n in legal if n.startswith("create ")]
    if not creates:
        return None
    return min(creates, key=lambda n: (STRONGEST.index(n.split()[1]),
                                       _distance_to(state, seat, n.split()[2])))


def _explore(state: MesopotamiaState, seat: Seat, act: dict[str, Any], plan: dict[str, Any],
             legal: list[str]) -> str | None:
    """R-auto-explore: one land unit at a time towards the first kind of target there is (an
    enemy Rampart, an enemy unit, an undiscovered event), each move bringing it nearer, and
    only a unit not already there."""
    targets = _targets(state, seat, plan.get("towards", ["enemy_unit"]))
    if not targets:
        return None
    far = siege.distances(targets)
    if act["unit"] is not None:
        at = state["units"][act["unit"]][2]
        moves = [n for n in legal if n.startswith("move ") and n.split()[1] in far]
        best = min(moves, key=lambda n: far[n.split()[1]], default=None)
        if best is not None and far[best.split()[1]] < far.get(at, 99):
            return best
        return "halt" if "halt" in legal else None
    options = [n for n in legal if n.startswith("activate ") and n.split()[1] in D.LAND
               and far.get(n.split()[2], 99) > 0]
    return min(options, key=lambda n: (far.get(n.split()[2], 99), len(n.split())),
               default=None)


def _targets(state: MesopotamiaState, seat: Seat, kinds: Iterable[str]) -> set[str]:
    for kind in kinds:
        if kind == "enemy_rampart":
            found = {r for s, p in enumerate(state["players"]) if s != seat
                     for r in p["ramparts"]}
        elif kind == "enemy_unit":
            found = {u[2] for u in state["units"] if u[0] != seat and u[1] in D.LAND}
        else:
            found = {r for r, (_, up) in state["sites"].items()
                     if not up and r not in state["blockers"]}
        if found:
            return found
    return set()


def _distance_to(state: MesopotamiaState, seat: Seat, region: str) -> int:
    """Steps from ``region`` to the nearest enemy land unit (0 when there is none)."""
    enemies = {u[2] for u in state["units"] if u[0] != seat and u[1] in D.LAND}
    return siege.distances(enemies).get(region, 99) if enemies else 0
