"""The enemy's march in « MODE GARDIENS D'ASSUR »: which region each unit enters next (pure).

« L'ennemi se rapproche de votre Ziggurat d'une région par Manche. Il évite les Tribus neutres
si possible, et il évite les Remparts uniquement s'il n'a pas de Bélier. » A unit takes one of
the shortest ways to the target on the first :func:`tiers` that has one (R-guard-march); among
the first regions of those ways: « Priorisez celui où un Événement en 6 Manches est actif. »,
then by its kind (:func:`_kind_key`: Archers and Spearmen top to bottom, Chariots and Horsemen
bottom to top, a Ram the way nearest a Rampart, R-guard-order), then the region's id.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from bot.games.mesopotamia import data as D

XY: dict[str, tuple[float, float]] = {r["id"]: (float(r["x"]), float(r["y"]))
                                      for r in D.MAP["regions"]}
"""Each region's place on the map (0-1, top left first): « de haut en bas » is by ``y``."""
TOP_DOWN = ("spearman", "archer")
BOTTOM_UP = ("cavalry", "chariot")


@dataclass(frozen=True)
class Ground:
    """What the march avoids or seeks: blocked regions, tribes, your Ramparts, the regions of
    active six-round events, and whether the enemy has a Ram."""

    blockers: frozenset[str]
    tribes: frozenset[str]
    ramparts: frozenset[str]
    running: frozenset[str]
    ram: bool


def tiers(ground: Ground) -> list[frozenset[str]]:
    """The regions closed to the march, tier by tier: tribes and (without a Ram) Ramparts
    avoided; then the tribes crossed (« Si tous les itinéraires sont bloqués par un Rempart ou
    une Tribu neutre et que l'ennemi n'a aucun Bélier, ses Unités traversent la Tribu »); then
    only blocked regions closed (R-guard-march)."""
    walls = frozenset() if ground.ram else ground.ramparts
    return [ground.blockers | ground.tribes | walls, ground.blockers | walls, ground.blockers]


def distances(targets: Iterable[str], closed: frozenset[str] = frozenset()) -> dict[str, int]:
    """Steps from every region to the nearest of ``targets``, through regions not ``closed``
    (a target is always open)."""
    far = dict.fromkeys(targets, 0)
    queue = deque(far)
    while queue:
        region = queue.popleft()
        for n in D.REGIONS[region].neighbours:
            if n not in far and n not in closed:
                far[n] = far[region] + 1
                queue.append(n)
    return far


def step(kind: str, at: str, target: str, ground: Ground) -> str | None:
    """The region a unit of ``kind`` in ``at`` enters towards ``target`` (None: no way, or it
    is there)."""
    if at == target:
        return None
    for closed in tiers(ground):
        far = distances([target], closed)
        if at not in far:
            continue
        ways = [n for n in D.REGIONS[at].neighbours if far.get(n) == far[at] - 1]
        lively = _lively(far, ground.running)
        return min(ways, key=lambda n: (not lively[n], *_kind_key(kind, n, ground), n))
    return None


def _lively(far: dict[str, int], running: frozenset[str]) -> dict[str, bool]:
    """Whether a shortest way from each region to the target passes an active six-round
    event (the region itself included)."""
    out: dict[str, bool] = {}
    for region in sorted(far, key=far.__getitem__):
        out[region] = region in running or any(
            out.get(n, False) for n in D.REGIONS[region].neighbours
            if far.get(n) == far[region] - 1)
    return out


def _kind_key(kind: str, region: str, ground: Ground) -> tuple[float, ...]:
    """« Archer et Lancier : de haut en bas », « Char et Cavalier : de bas en haut », « Bélier :
    choisissez toujours le chemin le plus proche d'un Rempart » (then top to bottom)."""
    y = XY[region][1]
    if kind in BOTTOM_UP:
        return (-y,)
    if kind == "ram" and ground.ramparts:
        return (float(distances(ground.ramparts).get(region, 99)), y)
    return (y,)
