"""The two expansions (« EXTENSION : ASSYRIENS ET HITTITES », « EXTENSION : MARIOTES ET
ÉBLAÏTES »): which empires a game drafts, which quests, Gardens tiles, trade and event tokens
it deals (:func:`quests`, :func:`garden_tiles`, :func:`trade_tokens`, :func:`event_tokens`:
R-expansion-decks, R-expansion-events), and the expansion empires' own setup and turn steps
(``expansions.json``):

- ``launch <section>``: the Eblaites' setup Ship (« Commence avec un Navire sur un fleuve près de
  sa Région de départ »), on a river section one bank of which is their start region
  (R-eblaite-ship), in the setup bonuses, in role order;
- ``freeroll <i> …``: the Hittites' reroll (« Peut relancer le nombre de dés Dingir qu'il
  souhaite, une fois par Tour »): any of their unused dice, free, once a turn, besides the
  three Tablet rerolls (R-hittite-reroll).

``state["expansions"]`` lists the expansions in play (absent: none, the base game).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState

VERBS = frozenset({"launch", "freeroll"})
NONE, BOTH = "none", "both"


def chosen(option: str) -> list[str]:
    """The expansions an ``expansions`` option value puts in play."""
    if option == BOTH:
        return list(D.EXPANSIONS)
    return [] if option == NONE else [option]


def empires(state: MesopotamiaState) -> list[str]:
    """The empires of the draft: the base game's, then those of the expansions in play."""
    extra = [e for x in state.get("expansions", []) for e in D.EXPANSIONS[x]]
    return [*D.EMPIRES, *extra]


def expansion_of(empire: str) -> str | None:
    """The expansion that brings ``empire`` (None for a base empire)."""
    return next((x for x, ids in D.EXPANSIONS.items() if empire in ids), None)


def event_tokens(terrain: str, extra: Sequence[str]) -> list[str]:
    """The event tokens of ``terrain`` in a game of the expansions ``extra``: the base game's,
    then each expansion's (R-expansion-events)."""
    return [*D.EVENTS[terrain], *(e for x in extra for e in D.EXPANSION_EVENTS[x][terrain])]


def quests(extra: Sequence[str]) -> list[str]:
    """The quest cards of a game of the expansions ``extra``: the base game's, then each
    expansion's (R-expansion-decks)."""
    return [*D.QUESTS, *(q for x in extra for q in D.EXPANSION_QUESTS[x])]


def garden_tiles(storey: int, extra: Sequence[str]) -> list[str]:
    """The Hanging Gardens tiles of ``storey`` in a game of the expansions ``extra``
    (R-expansion-decks)."""
    return [*D.GARDEN_TILES[storey], *(t for x in extra for t in D.EXPANSION_GARDENS[x][storey])]


def trade_tokens(level: int, extra: Sequence[str]) -> list[str]:
    """The trade tokens of ``level`` in a game of the expansions ``extra``
    (R-expansion-decks)."""
    return [*D.TRADE_TOKENS[level], *(t for x in extra for t in D.EXPANSION_TRADE[x][level])]


def launch_sections(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The river sections where the Eblaites may put their setup Ship: a bank is their start
    region (R-eblaite-ship)."""
    start = state["players"][seat]["start"]
    return [s.id for s in D.SECTIONS.values() if start in s.banks]


def launch(state: MesopotamiaState, seat: Seat, section: str) -> None:
    """The setup Ship afloat on ``section``."""
    state["units"].append([seat, "ship", section])


def free_rerolls(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The Hittites' free reroll steps now: every set of unused dice, once a turn, not in the
    no-chance variant (there is no roll to redo: R-hittite-reroll)."""
    empire = state["players"][seat]["empire"]
    t = known(state.get("t"))
    if state["no_chance"] or empire is None or not D.ALL_EMPIRES[empire].free_reroll or \
            t.get("freeroll"):
        return []
    free = [i for i, used in enumerate(t["used"]) if not used]
    return ["freeroll " + " ".join(str(i + 1) for i in dice)
            for k in range(1, len(free) + 1) for dice in combinations(free, k)]
