"""The Mesopotamia map's drawing geometry: where each region's label goes, each region's
polygon, each river section's line.

The label places are ``map.json``'s positions (``x``, ``y``) on the map's rectangle, moved
apart by :func:`render.maps.spread` so that no two labels (a name and a row of pieces)
overlap, and stored in ``data/render/mesopotamia.json`` (``points``) so that no picture pays for
the spreading; ``python -m render.mesopotamia_map`` prints them again after ``map.json``
changes (``tests/test_render_mesopotamia.py`` checks that the stored ones are those). A region
that ``map.json`` places where its neighbour lines would cross is nudged first
(``nudge``: Lagash, which the Tigris, Umma and Eridu surround).
"""

from __future__ import annotations

import json
from functools import cache

from bot.games.mesopotamia import data as D
from bot.i18n import LANGUAGES, catalogue, tr, translate
from render import fonts
from render.draw import load
from render.maps import Point, RegionMap, region_map, spread

SPEC = load("mesopotamia")["map"]
WIDTH = int(SPEC["width"])
HEIGHT = int(SPEC["height"])
LABEL: tuple[float, float] = (float(SPEC["label"][0]), float(SPEC["label"][1]))
"""The least box of a region's label (its name, its pieces) that no other label overlaps; a
longer name widens it."""
NAME_SIZE = 23
"""The size of the names on the map (:data:`render.mesopotamia.TEXT_MIN`)."""


def neighbours() -> dict[str, tuple[str, ...]]:
    """Region -> its neighbours (``map.json``)."""
    return {rid: region.neighbours for rid, region in D.REGIONS.items()}


def home_points() -> dict[str, Point]:
    """``map.json``'s positions on the map's rectangle (within its margin), nudged."""
    margin, nudge = float(SPEC["margin"]), SPEC["nudge"]
    found = {}
    for r in D.MAP["regions"]:
        dx, dy = nudge.get(r["id"], (0.0, 0.0))
        found[r["id"]] = (margin + (float(r["x"]) + dx) * (WIDTH - 2 * margin),
                          margin + (float(r["y"]) + dy) * (HEIGHT - 2 * margin))
    return found


def short_name(rid: str, lang: str) -> str:
    """A region's name as the map shows it: a shorter form where the full one is too long."""
    key = f"mesopotamia.render.short.{rid}"
    return tr(lang, key) if key in catalogue(lang) else translate(D.name("region", rid), lang)


def label_box(rid: str) -> tuple[float, float]:
    """The box of ``rid``'s label: :data:`LABEL`, or wider for its name (with its resource's
    symbol) in the longer of its languages."""
    face = fonts.font(NAME_SIZE, True)
    widest = max(face.getlength(short_name(rid, lang)) for lang in LANGUAGES)
    return max(LABEL[0], widest + (24 if D.REGIONS[rid].resource else 0) + 12), LABEL[1]


def spread_points() -> dict[str, Point]:
    """The label places: :func:`home_points` spread apart (see the module)."""
    boxes = {rid: label_box(rid) for rid in D.REGIONS}
    found = spread(home_points(), neighbours(), (WIDTH, HEIGHT), boxes)
    return found


@cache
def points() -> dict[str, Point]:
    """The stored label places (``data/render/mesopotamia.json``)."""
    return {r: (float(x), float(y)) for r, (x, y) in load("mesopotamia")["points"].items()}


@cache
def geometry() -> RegionMap:
    """Every region's polygon and border (:func:`render.maps.region_map`)."""
    return region_map(points(), neighbours(), (WIDTH, HEIGHT), float(SPEC["wobble"]))


def section_line(section: str) -> list[Point]:
    """The line a river section follows: the border of its two banks."""
    return geometry().borders[frozenset(D.SECTIONS[section].banks)]


def main() -> None:
    """Print the label places to store in ``data/render/mesopotamia.json``."""
    print(json.dumps(spread_points(), indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
