"""Maps drawn as maps, for any game whose board is regions with neighbours: label places
spread apart without changing who borders whom, then each region as a polygon whose
borders are exactly its neighbours'.

:func:`spread` moves region points (from a game's data, in pixels) apart until label boxes
of one size no longer overlap, never letting two borders cross (a move that would is not
made), so that the drawing keeps the map's neighbours. :func:`region_map` then takes the
points as a planar graph (region → its neighbours, straight lines between points): every
face of the graph (three regions or more around a point) becomes a corner where their
borders meet, and the outer face the frame of the picture; a border between two neighbours
is the line between the corners on either side of it, made a little irregular (seeded by
the two regions, so a picture is always the same), like a hand-drawn map. Rivers are then
drawn along the borders they follow.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]


def _turn(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """True when the segments p-q and r-s cross (not merely touch)."""
    if max(p[0], q[0]) < min(r[0], s[0]) or max(r[0], s[0]) < min(p[0], q[0]) or \
            max(p[1], q[1]) < min(r[1], s[1]) or max(r[1], s[1]) < min(p[1], q[1]):
        return False
    return _turn(p, q, r) * _turn(p, q, s) < 0 and _turn(r, s, p) * _turn(r, s, q) < 0


def edges(neighbours: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """Every pair of neighbours once, sorted."""
    return sorted({(a, b) if a < b else (b, a) for a, ns in neighbours.items() for b in ns})


def crossings(points: Mapping[str, Point], neighbours: Mapping[str, Sequence[str]]) -> int:
    """How many pairs of neighbour lines cross (0 for a map drawable as :func:`region_map`)."""
    found = edges(neighbours)
    return sum(1 for e, f in itertools.combinations(found, 2)
               if not set(e) & set(f) and _cross(points[e[0]], points[e[1]],
                                                 points[f[0]], points[f[1]]))


def spread(points: Mapping[str, Point], neighbours: Mapping[str, Sequence[str]],
           size: tuple[float, float], boxes: Mapping[str, tuple[float, float]],
           rounds: int = 400) -> dict[str, Point]:
    """``points`` moved apart until no two label boxes (``boxes``: each point's width and
    height, centred on it) overlap, inside ``size``: each overlapping pair is pushed apart
    along the axis where it overlaps less (else the other one, else by half or a quarter of
    the step, else one of them alone by the whole overlap); a move that would make two
    neighbour lines cross is not made."""
    found = dict(points)
    lines = edges(neighbours)
    touching = {r: [e for e in lines if r in e] for r in found}

    def crossing(moved: tuple[str, str]) -> bool:
        mine = {e for r in moved for e in touching[r]}
        return any(not set(e) & set(f) and _cross(found[e[0]], found[e[1]], found[f[0]],
                                                   found[f[1]]) for e in mine for f in lines)

    def inside(r: str, x: float, y: float) -> Point:
        w, h = boxes[r]
        return min(max(x, w / 2), size[0] - w / 2), min(max(y, h / 2), size[1] - h / 2)

    ids = sorted(found)
    for _ in range(rounds):
        moved = False
        for a, b in itertools.combinations(ids, 2):
            (x1, y1), (x2, y2) = found[a], found[b]
            ox = (boxes[a][0] + boxes[b][0]) / 2 - abs(x1 - x2)
            oy = (boxes[a][1] + boxes[b][1]) / 2 - abs(y1 - y2)
            if ox <= 0 or oy <= 0:
                continue
            across = ((ox / 2 + 0.5) * (1 if (x1, a) >= (x2, b) else -1), 0.0)
            down = (0.0, (oy / 2 + 0.5) * (1 if (y1, a) >= (y2, b) else -1))
            tries = (across, down) if ox < 2 * oy else (down, across)
            moves = [(dx, dy, k, k) for k in (1.0, 0.5, 0.25) for dx, dy in tries]
            moves += [(dx, dy, 2.0 * alone, 2.0 - 2.0 * alone) for alone in (1, 0)
                      for dx, dy in tries]
            old = found[a], found[b]
            for dx, dy, ka, kb in moves:
                found[a] = inside(a, x1 + dx * ka, y1 + dy * ka)
                found[b] = inside(b, x2 - dx * kb, y2 - dy * kb)
                if not crossing((a, b)):
                    moved = True
                    break
                found[a], found[b] = old
        if not moved:
            break
    return found


@dataclass(frozen=True)
class RegionMap:
    """A map's geometry: each region's polygon (a closed ring of points), and each border as
    the line shared by its two regions (``borders[frozenset({a, b})]``, from ``a``'s side)."""

    polygons: dict[str, list[Point]]
    borders: dict[frozenset[str], list[Point]]


def region_map(points: Mapping[str, Point], neighbours: Mapping[str, Sequence[str]],
               size: tuple[float, float], wobble: float = 6.0) -> RegionMap:
    """The polygons of a map of regions at ``points`` (a planar drawing: see
    :func:`crossings`) bordering exactly their ``neighbours``, filling ``size``; borders
    wander up to ``wobble`` px off their straight line. Raises ValueError when the neighbour
    lines cross."""
    order = {v: sorted(neighbours[v], key=lambda n: math.atan2(points[n][1] - points[v][1],
                                                             points[n][0] - points[v][0]))
             for v in points}
    face_of: dict[tuple[str, str], int] = {}
    faces: list[list[str]] = []
    for a in points:
        for b in order[a]:
            face: list[str] = []
            u, v = a, b
            while (u, v) not in face_of:
                face_of[(u, v)] = len(faces)
                face.append(u)
                around = order[v]
                u, v = v, around[(around.index(u) - 1) % len(around)]
            if face:
                faces.append(face)
    if len(points) - len(edges(neighbours)) + len(faces) != 2:
        raise ValueError("the neighbour lines cross: the map is not drawn flat")
    outer = max(range(len(faces)), key=lambda i: len(faces[i]))
    corner = {i: (sum(points[v][0] for v in f) / len(f), sum(points[v][1] for v in f) / len(f))
              for i, f in enumerate(faces) if i != outer}
    frame = _Frame(*size)

    def end(u: str, v: str) -> Point:
        """Where the border of ``u`` and ``v`` ends on the side of the face u→v."""
        i = face_of[(u, v)]
        if i != outer:
            return corner[i]
        return frame.towards(((points[u][0] + points[v][0]) / 2,
                              (points[u][1] + points[v][1]) / 2))

    borders: dict[frozenset[str], list[Point]] = {}
    for a, b in edges(neighbours):
        borders[frozenset((a, b))] = _wander(end(a, b), end(b, a), wobble, f"{a}:{b}")

    def from_side(r: str, n: str) -> list[Point]:
        line = borders[frozenset((r, n))]
        return line if r < n else line[::-1]

    polygons: dict[str, list[Point]] = {}
    for r in points:
        around = order[r]
        parts = [from_side(r, around[k]) for k in range(len(around) - 1, -1, -1)]
        ring: list[Point] = []
        for i, part in enumerate(parts):
            after = parts[(i + 1) % len(parts)]
            ring += part[:-1] if math.dist(part[-1], after[0]) < 0.5 else \
                [*part, *frame.corners_between(part[-1], after[0])]
        polygons[r] = ring
    return RegionMap(polygons, borders)


def _wander(a: Point, b: Point, wobble: float, seed: str) -> list[Point]:
    """The line from ``a`` to ``b`` as a hand would draw it: points every 12 px or so, off the
    straight line by up to ``wobble`` px (none at its ends)."""
    length = math.dist(a, b)
    steps = max(1, int(length // 12))
    if length == 0 or wobble <= 0:
        return [a, b]
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    rng = random.Random(seed)
    found, off = [a], 0.0
    for j in range(1, steps):
        t = j / steps
        off = max(-wobble, min(wobble, off + rng.uniform(-0.7, 0.7) * wobble))
        fade = min(1.0, 6 * t * (1 - t))
        found.append((a[0] + (b[0] - a[0]) * t + nx * off * fade,
                      a[1] + (b[1] - a[1]) * t + ny * off * fade))
    return [*found, b]


@dataclass(frozen=True)
class _Frame:
    """The picture's rectangle, walked clockwise from its top-left corner."""

    width: float
    height: float

    def towards(self, p: Point) -> Point:
        """Where the line from the centre through ``p`` meets the frame."""
        cx, cy = self.width / 2, self.height / 2
        dx, dy = p[0] - cx, p[1] - cy
        t = min(cx / abs(dx) if dx else math.inf, cy / abs(dy) if dy else math.inf)
        return cx + dx * t, cy + dy * t

    def _along(self, p: Point) -> float:
        x, y = p
        w, h = self.width, self.height
        if y <= 0.5:
            return x
        if x >= w - 0.5:
            return w + y
        if y >= h - 0.5:
            return w + h + (w - x)
        return 2 * w + h + (h - y)

    def corners_between(self, a: Point, b: Point) -> list[Point]:
        """The frame's corners met going from ``a`` to ``b`` on the frame, anticlockwise (the
        way a region's ring turns)."""
        w, h = self.width, self.height
        total = 2 * (w + h)
        start, span = self._along(a), (self._along(a) - self._along(b)) % total
        corners = ((0.0, (0.0, 0.0)), (w, (w, 0.0)), (w + h, (w, h)), (2 * w + h, (0.0, h)))
        return [c for s, c in sorted(corners, key=lambda sc: (start - sc[0]) % total)
                if 0 < (start - s) % total < span]
