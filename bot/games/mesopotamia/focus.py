"""The regions a turn message zooms on: those a step changed, and the contested ones.

A picture of the whole map is small on a phone; the turn message adds zoomed crops of a few
regions (:func:`render.mesopotamia.crop_pngs`): the regions where a combat happens first
(:func:`bot.games.mesopotamia.rounds.contested`), then those whose pieces changed, at most
:data:`MAX_FOCUS`.
"""

from __future__ import annotations

from typing import Any

from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.rounds import contested
from bot.games.mesopotamia.state import MesopotamiaState

MAX_FOCUS = 4
"""Crops a turn message carries at most."""


def _pieces(state: MesopotamiaState) -> list[dict[str, Any]]:
    """What the regions hold that a picture shows, one map region -> pieces per kind: units
    (rams included: a ram that moved, was built or was removed changes its regions), tribe,
    colonies, ramparts, ziggurat token, blocker, event token (a face-down token's identity is
    secret: not compared); a region holding none of a kind is not in its map."""
    units: dict[str, list[tuple[int, str]]] = {}
    for u in state["units"]:
        units.setdefault(str(u[2]), []).append((int(u[0]), str(u[1])))
    colonies: dict[str, list[int]] = {}
    ramparts: dict[str, list[int]] = {}
    for seat, player in enumerate(state["players"]):
        for region in player["colonies"]:
            colonies.setdefault(region, []).append(seat)
        for region in player["ramparts"]:
            ramparts.setdefault(region, []).append(seat)
    tribes = {r: sorted((k, int(n)) for k, n in t.items() if n)
              for r, t in state["tribes"].items()}
    return [
        {r: sorted(found) for r, found in units.items()},
        {r: t for r, t in tribes.items() if t},
        colonies, ramparts, dict(state["ziggurats"]), dict.fromkeys(state["blockers"], True),
        {r: (site[0] if site[1] else None, bool(site[1]))
         for r, site in state["sites"].items() if site is not None},
    ]


def changed_regions(before: MesopotamiaState, after: MesopotamiaState) -> list[str]:
    """The regions whose units, tribe, colonies, ramparts, ziggurat token, blocker or event
    token differ between ``before`` and ``after``, in map order."""
    was, now = _pieces(before), _pieces(after)
    diff = {r for a, b in zip(was, now, strict=True)
            for r in a.keys() | b.keys() if a.get(r) != b.get(r)}
    return [r for r in D.REGIONS if r in diff]


def focus_regions(state: MesopotamiaState, changed: list[str]) -> list[str]:
    """The regions to zoom on: the contested ones first, then ``changed``, at most
    :data:`MAX_FOCUS`, each once."""
    found = list(dict.fromkeys([*contested(state), *changed]))
    return [r for r in found if r in D.REGIONS][:MAX_FOCUS]


def gather(before: MesopotamiaState, after: MesopotamiaState) -> dict[str, Any]:
    """``after``'s record of the regions changed during the turn (R-turn-count) its step
    belongs to: the regions this step changed, added to those of the turn's earlier steps (so
    that the turn message after a whole turn zooms on all that turn changed)."""
    last: dict[str, Any] = before.get("changed") or {"turn": None, "regions": []}
    regions = list(last["regions"]) if last.get("turn") == before["turn"] else []
    regions += [r for r in changed_regions(before, after) if r not in regions]
    return {"turn": before["turn"], "regions": regions}
