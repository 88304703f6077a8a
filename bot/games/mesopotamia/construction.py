"""The Construction action: Ramparts, Ziggurat storeys, Colonies, Rams, Ships and Gardens.

« L'action Construction permet de bâtir l'une des Structures ou Unités disponibles, à condition
d'avoir les ressources nécessaires (qui sont alors dépensées). » Each build is one step (a
« Construction 2 » card allows two, R-build-count), of a structure the card's level unlocks,
at the designed cost of ``technologies.json`` (R-build-costs):

- ``build rampart <region>`` (R-rampart-place);
- ``build storey <colour>``: the next Ziggurat storey, in the start region, never above the
  Population level, with its Dingir die of a colour the storey allows (R-dice-colours); the
  new die is first rolled at the player's next turn (R-new-die);
- ``build colony <region>`` (R-colony-place);
- ``build ship <section>``: « Navire : constructible sur toute section fluviale adjacente à
  votre Région de départ, ou à une région dans laquelle vous contrôlez une Colonie », within the
  unit limit and the seat's 3 ship figures (R-ship-build), never on a section holding one of
  its ships (R-ship-stack);
- ``build ram <region>``: « Après avoir construit un Bélier, placez-le dans une région où vous
  possédez une Colonie, ou dans votre Région de départ. », within the unit limit and the seat's
  2 ram figures (R-ram-build); a unit standing there may take it along (R-ram-bind).

- ``build garden <tile>``: the next Hanging Gardens storey, whose tile is face up, with a card
  that unlocks it (« vous devez avoir découvert la Technologie Architecture »), paying the
  tile's cost and meeting its conditions, which are not spent (R-garden-build). The seat keeps
  the tile (``players[s]["gardens"]``, scored at the end) and the next tile is turned face up.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import MesopotamiaState, pieces, seal_case, unit_limit, units_of

VERBS = frozenset({"build"})
COST: dict[str, dict[str, int]] = {s["id"]: s["cost"] for s in D.TECH_DATA["structures"]
                                   if isinstance(s["cost"], dict)}
STOREYS: list[dict[str, Any]] = D.DICE_DATA["rules"]["colour_per_storey"]["storeys"]
PIECE_LIST = {"rampart": "ramparts", "colony": "colonies"}


def _affords(state: MesopotamiaState, seat: Seat, structure: str) -> bool:
    res = state["players"][seat]["res"]
    return all(res[k] >= v for k, v in COST[structure].items())


def legal(state: MesopotamiaState, seat: Seat, act: dict[str, Any]) -> list[str]:
    """The builds ``seat`` may make now with the card of ``act``."""
    if not act["builds"]:
        return []
    can = D.CARD_EFFECT[act["card"]]["can_build"]
    out: list[str] = []
    if "rampart" in can and _affords(state, seat, "rampart"):
        out += [f"build rampart {r}" for r in rampart_regions(state, seat)]
    if "ziggurat_storey" in can and _affords(state, seat, "ziggurat_storey"):
        out += [f"build storey {c}" for c in storey_colours(state, seat)]
    if "colony" in can and _affords(state, seat, "colony"):
        out += [f"build colony {r}" for r in colony_regions(state, seat)]
    if "ship" in can and _affords(state, seat, "ship"):
        out += [f"build ship {s}" for s in ship_sections(state, seat)]
    if "ram" in can and _affords(state, seat, "ram"):
        out += [f"build ram {r}" for r in ram_regions(state, seat)]
    if "hanging_gardens_storey" in can and not guardians.on(state):    # R-guard-gardens
        tile = garden_tile(state, seat)
        out += [] if tile is None else [f"build garden {tile}"]
    return out


GARDEN: dict[str, dict[str, Any]] = {t["id"]: t for t in D.GARDEN_TILE_DATA}


def garden_tile(state: MesopotamiaState, seat: Seat) -> str | None:
    """The next Hanging Gardens tile, if ``seat`` may build it now: face up, its cost held, its
    conditions met (« ces conditions doivent être remplies, mais n'impliquent aucune
    dépense »): Population and Event cases, Colonies controlled (R-control)."""
    built = sum(len(p.get("gardens", [])) for p in state["players"])
    if built >= len(state["gardens"]):
        return None
    tile, up = state["gardens"][built]
    if not up:
        return None
    rule = GARDEN[tile]
    res = state["players"][seat]["res"]
    if any(res[k] < int(v) for k, v in rule["cost"].items()):
        return None
    have = {"population": seal_case(state, "population", seat),
            "event_track": seal_case(state, "event", seat),
            "colonies": sum(1 for r in state["players"][seat]["colonies"]
                            if _colony_held(state, seat, r))}
    return tile if all(have[k] >= int(v) for k, v in rule["conditions"].items()) else None


def _colony_held(state: MesopotamiaState, seat: Seat, region: str) -> bool:
    """R-control for a Colony: no land unit of another empire in its region."""
    return not any(u[0] != seat and u[2] == region and u[1] in D.LAND
                   for u in state["units"])


def apply(state: MesopotamiaState, seat: Seat, act: dict[str, Any], args: list[str]) -> None:
    """Play ``build <structure> <where>``."""
    player = state["players"][seat]
    what, where = args
    if what == "garden":
        _build_garden(state, seat, where)
        act["builds"] -= 1
        return
    structure = "ziggurat_storey" if what == "storey" else what
    for k, v in COST[structure].items():
        player["res"][k] -= v
    if what == "storey":
        add_storey(state, seat, where)
    elif what in ("ship", "ram"):
        state["units"].append([seat, what, where])
    else:
        pieces(player, PIECE_LIST[what]).append(where)
    act["builds"] -= 1


def _held(state: MesopotamiaState, seat: Seat) -> set[str]:
    return {u[2] for u in units_of(state, seat) if u[1] in D.LAND}


def _buildable(state: MesopotamiaState, region: str) -> bool:
    return D.REGIONS[region].start is None and region not in state["blockers"] \
        and region not in state["ziggurats"]


def rampart_regions(state: MesopotamiaState, seat: Seat) -> list[str]:
    """R-rampart-place: a region holding the seat's unit or Colony, not a start region nor a
    blocker region, without a Rampart yet; none once the seat's 3 Ramparts are placed."""
    player = state["players"][seat]
    if len(player["ramparts"]) >= D.PIECES["rampart"]:
        return []
    taken = {r for p in state["players"] for r in p["ramparts"]}
    wanted = _held(state, seat) | set(player["colonies"])
    return [r for r in D.REGIONS if r in wanted and r not in taken and _buildable(state, r)]


def colony_regions(state: MesopotamiaState, seat: Seat) -> list[str]:
    """R-colony-place: a region holding the seat's land unit, no enemy land unit (a ram never
    counts, R-ram-unit), no tribe, no Colony, not a start region nor a blocker region; none
    once its 3 Colonies are placed."""
    player = state["players"][seat]
    if len(player["colonies"]) >= D.PIECES["colony"]:
        return []
    taken = {r for p in state["players"] for r in p["colonies"]}
    enemy = {u[2] for u in state["units"] if u[0] != seat and u[1] in D.LAND}
    return [r for r in D.REGIONS if r in _held(state, seat) and r not in taken
            and r not in enemy and not state["tribes"].get(r) and _buildable(state, r)]


def add_storey(state: MesopotamiaState, seat: Seat, colour: str) -> None:
    """``seat``'s next Ziggurat storey, with its Dingir die of ``colour`` (R-new-die)."""
    player = state["players"][seat]
    player["ziggurat"] += 1
    player["dice"].append(colour)


def storey_colours(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The colours the next storey's die may take, or none when the storey cannot be built:
    « Vous ne pouvez pas construire un nombre d'étages de Ziggurat supérieur à votre niveau
    sur la piste Population. »"""
    player = state["players"][seat]
    storey = player["ziggurat"] + 1
    top = min(len(STOREYS), D.PIECES["ziggurat_storeys"], seal_case(state, "population", seat))
    if storey > top:
        return []
    rule = STOREYS[storey - 1]
    if rule["choose"] == "not_owned":
        return [c for c in D.COLOURS if c not in player["dice"]]
    if rule["choose"] == "differs_from_storeys":
        chosen = {player["dice"][s - 1] for s in rule["storeys"] if s <= len(player["dice"])}
        return [c for c in D.COLOURS if c not in chosen]
    return list(D.COLOURS)


def _homes(state: MesopotamiaState, seat: Seat, kind: str) -> list[str]:
    """The start region and the regions holding ``seat``'s Colony, where it builds a unit of
    ``kind``; none beyond its unit limit or its figures of ``kind``."""
    player = state["players"][seat]
    if len(units_of(state, seat)) >= unit_limit(state, seat) or \
            len(units_of(state, seat, kind)) >= D.FIGURES[kind]:
        return []
    return list(dict.fromkeys([known(player["start"]), *player["colonies"]]))


def ship_sections(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The river sections where ``seat`` may build a ship: one bank is its start region or a
    region holding its Colony, and none of its ships is there (R-ship-stack); none beyond its
    unit limit or its ship figures."""
    home = set(_homes(state, seat, "ship"))
    afloat = {u[2] for u in units_of(state, seat, "ship")}
    return [s.id for s in D.SECTIONS.values() if home & set(s.banks) and s.id not in afloat]


def ram_regions(state: MesopotamiaState, seat: Seat) -> list[str]:
    """R-ram-build: the start region and each region holding ``seat``'s Colony, in map order;
    none beyond its unit limit or its 2 ram figures."""
    home = set(_homes(state, seat, "ram"))
    return [r for r in D.REGIONS if r in home]


def _build_garden(state: MesopotamiaState, seat: Seat, tile: str) -> None:
    player = state["players"][seat]
    for k, v in GARDEN[tile]["cost"].items():
        player["res"][k] -= int(v)
    player.setdefault("gardens", []).append(tile)
    built = sum(len(p.get("gardens", [])) for p in state["players"])
    if built < len(state["gardens"]):
        state["gardens"][built][1] = True
