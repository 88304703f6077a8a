"""The regions a turn message zooms on: those a step changed, and the contested ones.

A picture of the whole map is small on a phone; the turn message adds zoomed crops of a few
regions (:func:`render.mesopotamia.crop_pngs`): the regions where a combat happens first
(:func:`bot.games.mesopotamia.rounds.contested`), then those whose pieces changed, at most
:data:`MAX_FOCUS`.
"""

from __future__ import annotations

from typing import Any

from bot.engine import State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.rounds import contested

MAX_FOCUS = 4
"""Crops a turn message carries at most."""


def _pieces(state: State, region: str) -> tuple[Any, ...]:
    """What a region holds that a picture shows: units, tribe, colonies, ramparts, ziggurat
    token, blocker, event token (a face-down token's identity is secret: not compared)."""
    players = state["players"]
    site = state["sites"].get(region)
    return (
        sorted((int(u[0]), str(u[1])) for u in state["units"] if u[2] == region),
        sorted((k, int(n)) for k, n in state["tribes"].get(region, {}).items() if n),
        [s for s, p in enumerate(players) if region in p["colonies"]],
        [s for s, p in enumerate(players) if region in p["ramparts"]],
        state["ziggurats"].get(region),
        region in state["blockers"],
        None if site is None else (site[0] if site[1] else None, bool(site[1])),
    )


def changed_regions(before: State, after: State) -> list[str]:
    """The regions whose units, tribe, colonies, ramparts, ziggurat token, blocker or event
    token differ between ``before`` and ``after``, in map order."""
    return [r for r in D.REGIONS if _pieces(before, r) != _pieces(after, r)]


def focus_regions(state: State, changed: list[str]) -> list[str]:
    """The regions to zoom on: the contested ones first, then ``changed``, at most
    :data:`MAX_FOCUS`, each once."""
    found = list(dict.fromkeys([*contested(state), *changed]))
    return [r for r in found if r in D.REGIONS][:MAX_FOCUS]


def gather(before: State, seat: int, after: State) -> dict[str, Any]:
    """``after``'s record of the regions changed by ``seat``'s run of steps: the regions this
    step changed, added to those of the previous steps while the same seat goes on deciding
    (so that the turn message after a whole turn zooms on all that turn changed)."""
    last = before.get("changed") or {"seat": None, "regions": []}
    regions = list(last["regions"]) if last["seat"] == seat else []
    regions += [r for r in changed_regions(before, after) if r not in regions]
    return {"seat": seat, "regions": regions}
