"""What each seat sees of a Mesopotamia state, the secrets it holds, and a state guessed
from a view for the AI.

Hidden: the face-down event tokens and Hanging Gardens tiles (from everyone), the Quest deck
(from everyone; a returned card from all but the seat that returned it), each hand of quest
cards (from all but its holder) and each sealed bid before the reveal (from all but the seat
sealing it, :mod:`bot.games.mesopotamia.bids`) and the Automaton's combat cards before they
are revealed (from everyone, :mod:`bot.games.mesopotamia.solo`). Secrets are declared by their
names and texts, and by the ids of tokens, tiles and combat cards; quest ids are not declared,
since several are words that other ids contain (``sailing`` in ``sumerian_sailing``), but no
view shows another seat's quests.
"""

from __future__ import annotations

import random
from typing import Any

from bot import chance
from bot.engine import Seat, Secret, State
from bot.games.kit import clone
from bot.games.mesopotamia import bids, expansions, focus, solo
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState

HIDDEN = ("sites", "gardens", "quests", "bids", chance.KEY)


def view(state: MesopotamiaState, seat: Seat | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (None: the public view)."""
    shown: dict[str, Any] = clone({k: v for k, v in state.items() if k not in HIDDEN})
    shown["sites"] = {r: {"terrain": D.REGIONS[r].terrain, "token": token if up else None,
                          "up": up} for r, (token, up) in state["sites"].items()}
    shown["gardens"] = [{"storey": i + 1, "tile": tile if up else None, "up": up}
                        for i, (tile, up) in enumerate(state["gardens"])]
    quests = state["quests"]
    shown["quests"] = {
        "deck_size": len(quests["deck"]),
        "hand_sizes": [len(h) for h in quests["hands"]],
        "chosen": [q is not None for q in quests["returned"]],
        "hand": None if seat is None else list(quests["hands"][seat]),
        "returned": None if seat is None else quests["returned"][seat],
    }
    if "bids" in state:
        shown["bids"] = bids.view(state, seat)
    if "solo" in state:
        shown["solo"] = solo.view(state["solo"])
    shown["focus"] = focus.focus_regions(state, (state.get("changed") or {}).get("regions", []))
    shown["you"] = seat
    return shown


def secrets(state: MesopotamiaState) -> list[Secret]:
    """The values only some seats (or nobody) may read now."""
    found: list[Secret] = []
    for token, up in state["sites"].values():
        if not up:
            found += [Secret(token), Secret(D.name("event", token))]
    for tile, up in state["gardens"]:
        if not up:
            found += [Secret(tile), Secret(D.name("garden", tile))]
    quests = state["quests"]
    for seat, hand in enumerate(quests["hands"]):
        found += [Secret(text, frozenset({seat})) for q in hand
                  for text in (D.name("quest", q), D.name("quest_text", q))]
    returner = {q: s for s, q in enumerate(quests["returned"]) if q is not None}
    aside = [q for q in returner if q not in quests["deck"]]
    for q in [*quests["deck"], *aside]:
        readers = frozenset({returner[q]}) if q in returner else frozenset()
        found += [Secret(D.name("quest", q), readers), Secret(D.name("quest_text", q), readers)]
    return found + bids.secrets(state) + solo.secrets(state)


def determinize(view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
    """A full state consistent with ``seat``'s view: unknown tokens, tiles and quest cards
    dealt at random from those the seat cannot place, and an unknown future."""
    state: State = clone({k: v for k, v in view_.items() if k not in ("you", *HIDDEN)})
    seen = {s["token"] for s in view_["sites"].values() if s["up"]}
    extra = view_.get("expansions", [])
    pools = {t: [e for e in expansions.event_tokens(t, extra) if e not in seen]
             for t in D.TERRAINS}
    for pool in pools.values():
        rng.shuffle(pool)
    state["sites"] = {r: [s["token"], True] if s["up"] else [pools[s["terrain"]].pop(), False]
                      for r, s in view_["sites"].items()}
    state["gardens"] = [[g["tile"], True] if g["up"]
                        else [rng.choice(expansions.garden_tiles(g["storey"], extra)), False]
                        for g in view_["gardens"]]
    state["quests"] = _guess_quests(view_["quests"], seat, rng, expansions.quests(extra))
    if "bids" in view_:
        state["bids"] = bids.guess(view_["bids"])
    if "solo" in view_:
        state["solo"] = solo.guess(view_["solo"], rng)
    state[chance.KEY] = chance.resample(rng)
    return state


def _guess_quests(shown: dict[str, Any], seat: Seat, rng: random.Random,
                  every: list[str]) -> dict[str, Any]:
    """Hands, returned cards and deck that fit what ``seat`` knows of the quests (``every``:
    the quest cards of the game, those of its expansions included)."""
    own = shown["returned"]
    pool = [q for q in every if q not in (shown["hand"] or ()) and q != own]
    rng.shuffle(pool)
    hands = [list(shown["hand"]) if s == seat else [pool.pop() for _ in range(size)]
             for s, size in enumerate(shown["hand_sizes"])]
    if all(shown["chosen"]):
        # the returned cards went back into the deck, from which events may draw them again:
        # another seat's returned card is any card ``seat`` does not hold
        unknown = [q for q in every if q not in shown["hand"] and q != own]
        others = iter(rng.sample(unknown, len(hands) - 1))
        returned = [own if s == seat else next(others) for s in range(len(hands))]
        deck = [*pool, own]
        rng.shuffle(deck)
        return {"deck": deck, "hands": hands, "returned": returned}
    waiting = iter(pool[::-1])
    returned = [own if s == seat else next(waiting) if chosen else None
                for s, chosen in enumerate(shown["chosen"])]
    deck = [q for q in pool if q not in returned]
    return {"deck": deck, "hands": hands, "returned": returned}
