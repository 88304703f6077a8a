"""Games of 5 and 6 players (« Les règles de mise en place pour 5 et 6 joueurs sont les mêmes
que celles pour 4 joueurs. », R-players-5-6): the start regions open at each player count, and
the check that there are enough empires for the players.

- With 2-4 players the start regions are 1-4 (« quatre Régions de départ possibles (1 à 4) »)
  and regions 5 and 6 hold their ziggurat tokens; with 5 or 6 players all six numbered regions
  are start regions (Q-start-regions (a)), and a numbered region nobody chose gets its token.
- Roles A-F, blockers, tribes and trade slots are those of 4 players (``map.json``).
- Every player drafts an empire of his own. The ``expansions`` option's default, ``auto``,
  plays the base game's four empires with 2-4 players and both expansions (eight empires) with
  5-6; a game of more players than the empires its option puts in play (4 with ``none``, 6
  with one expansion, 8 with both) is refused at its start, naming what is allowed.
"""

from __future__ import annotations

from bot.engine import IllegalMove, Text
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import expansions

AUTO = "auto"
"""The default of the ``expansions`` option: the expansions a game of its player count needs."""


def start_regions(n_players: int) -> dict[int, str]:
    """The start regions of a game of ``n_players``, by number."""
    numbers = D.START_NUMBERS_BY_PLAYERS.get(n_players)
    if numbers is None:
        return D.START_REGIONS
    return {n: D.NUMBERED[n] for n in numbers}


def ziggurats_always(n_players: int) -> dict[int, str]:
    """The numbered regions that hold their ziggurat token whatever the players choose: those
    that are no start region at this count (regions 5 and 6 with 2-4 players)."""
    starts = start_regions(n_players)
    return {n: r for n, r in sorted(D.NUMBERED.items()) if n not in starts}


def chosen(option: str, n_players: int) -> tuple[str, ...]:
    """The expansions in play in a game of ``n_players`` whose ``expansions`` option is
    ``option`` (:data:`AUTO`: none with 2-4 players, both with 5-6)."""
    if option == AUTO:
        option = expansions.NONE if n_players <= len(D.EMPIRES) else expansions.BOTH
    return tuple(expansions.chosen(option))


def check_empires(n_players: int, extra: tuple[str, ...]) -> None:
    """Refuse a game of more players than empires in play (R-players-5-6), naming what is
    allowed."""
    empires = len(D.EMPIRES) + sum(len(D.EXPANSIONS[x]) for x in extra)
    if n_players > empires:
        raise IllegalMove(Text.of("mesopotamia.large.too_few_empires", n=n_players,
                                  empires=empires, base=len(D.EMPIRES)))
