"""Ratings per server and game from finished games: openskill's Plackett-Luce model,
which rates a whole ranking of several players at once (ties share a place).

Pure: the store keeps the ratings and results, the service decides when a game counts.
Only seated members are rated (AI seats are not; a player who resigned is ranked last),
games of one member and cooperative games change no rating, but they count as played; a
game one member plays alone against the game itself (a solo ladder) rates them against that
opponent, whose own rating stays fixed (:data:`GAME_ITSELF`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """One member's skill at one game on one server (``mu`` ± ``sigma``), and their
    record there."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The figure players see: a cautious estimate (``mu - 3 sigma``, openskill's
        ordinal), 0 for a newcomer, growing as they win."""
        return self.mu - 3 * self.sigma - (MODEL.mu - 3 * MODEL.sigma)


GAME_ITSELF = -1
"""The user id a solo ladder's opponent takes in :func:`rate`: the game itself, rated at a
newcomer's rating that never moves (each difficulty has its own ladder)."""


@dataclass(frozen=True)
class Place:
    """Where one rated member finished: ``place`` 1 is first, tied members share it."""

    user_id: int
    place: int
    won: bool


def rate(before: Mapping[int, Rating], places: Sequence[Place], *,
         together: bool = False) -> dict[int, Rating]:
    """The members' ratings after a game (``before``: their ratings so far, missing ones
    new). With fewer than two members, or ``together`` (all won or lost as one), only the
    games and wins are counted. A place of :data:`GAME_ITSELF` (a solo ladder's opponent)
    is rated as a newcomer and left out of the answer."""
    old = {p.user_id: Rating() if p.user_id == GAME_ITSELF else before.get(p.user_id, Rating())
           for p in places}
    skills = {uid: (r.mu, r.sigma) for uid, r in old.items()}
    if len(places) >= 2 and not together:
        teams = [[MODEL.rating(mu=old[p.user_id].mu, sigma=old[p.user_id].sigma)]
                 for p in places]
        rated = MODEL.rate(teams, ranks=[float(p.place) for p in places])
        skills = {p.user_id: (team[0].mu, team[0].sigma) for p, team in zip(places, rated,
                                                                          strict=True)}
    return {p.user_id: Rating(*skills[p.user_id], old[p.user_id].games + 1,
                              old[p.user_id].wins + p.won)
            for p in places if p.user_id != GAME_ITSELF}
