"""The map and the tables of After the Flood, read once from ``data/flood`` at import.

Every number the engine uses comes from here (``map.json`` and ``tables.json``): the
regions with their borders, arrows, trade goods and printed points, the worker boxes,
resource values, the Grain and Cloth tables, the Trade, Empires and City tables, the
opportunity cost and the bank. Names shown to players are catalogue keys
(``flood.region.<id>``, ``flood.res.<id>``, ``flood.empire.<id>``, ``flood.box.<id>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Text
from bot.games import content

MAP = content.load("flood", "map")
TABLES = content.load("flood", "tables")
RULES: dict[str, dict[str, Any]] = TABLES["rules"]


@dataclass(frozen=True)
class Region:
    """One region of the map."""

    id: str
    in_sumer: bool
    city_site: bool
    bonus: str | None
    invadable: bool
    vp: int
    trade: tuple[str, ...]
    neighbours: tuple[str, ...]
    x: float
    y: float


@dataclass(frozen=True)
class Empire:
    """One line of the Empires table."""

    id: str
    round: int
    armies: int
    starts: tuple[str, ...]
    in_sumer: bool


REGIONS: dict[str, Region] = {
    r["id"]: Region(
        r["id"], r["in_sumer"], r["city_site"],
        r["city_bonus"]["id"] if r["city_bonus"] else None, r["invadable"], r["vp"],
        tuple(r["trade"]), tuple(r["neighbours"]), r["x"], r["y"],
    )
    for r in MAP["regions"]
}
REGION_IDS: tuple[str, ...] = tuple(REGIONS)
SUMER: tuple[str, ...] = tuple(r for r in REGION_IDS if REGIONS[r].in_sumer)
OUTER: tuple[str, ...] = tuple(r for r in REGION_IDS if not REGIONS[r].in_sumer)
CITY_SITES: tuple[str, ...] = tuple(r for r in REGION_IDS if REGIONS[r].city_site)
INVADABLE: tuple[str, ...] = tuple(r for r in REGION_IDS if REGIONS[r].invadable)
ARROWS: frozenset[tuple[str, str]] = frozenset((a["from"], a["to"]) for a in MAP["arrows"])
SEA_BORDERS: frozenset[frozenset[str]] = frozenset(frozenset(p) for p in MAP["sea_borders"])
BOX_DATA: dict[str, dict[str, Any]] = {b["id"]: b for b in MAP["boxes"]}
BOXES: tuple[str, ...] = tuple(BOX_DATA)
PLACES: tuple[str, ...] = OUTER + BOXES
"""Where workers stand: every region outside Sumer and the four worker boxes."""
PLACE_VP: dict[str, int] = {**{r: REGIONS[r].vp for r in OUTER},
                            **{b: int(BOX_DATA[b]["vp"]) for b in BOXES}}


def _invasion_targets(rid: str) -> tuple[str, ...]:
    """Regions an army in ``rid`` may invade: a neighbour, invadable, not against an arrow."""
    return tuple(n for n in REGIONS[rid].neighbours
                 if REGIONS[n].invadable and (n, rid) not in ARROWS)


INVADES: dict[str, tuple[str, ...]] = {r: _invasion_targets(r) for r in REGION_IDS}

RESOURCES: tuple[str, ...] = tuple(TABLES["resources"])
VALUES: dict[str, int] = {k: int(v) for k, v in TABLES["resource_values"].items()
                          if k != "_source"}
LUXURIES: tuple[str, ...] = tuple(RULES["city_extension"]["luxuries"])
PAY_WITH: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in
                                        TABLES["trade_table"]["pay_with"].items()}
SUPPLY: dict[str, int] = {k: int(v) for k, v in TABLES["supply"].items() if k != "_source"}


def _by_rank(table: str) -> dict[int, int]:
    return {int(k): int(v) for k, v in TABLES[table]["by_rank"].items()}


GRAIN_BY_RANK = _by_rank("grain_table")
CLOTH_BY_RANK = _by_rank("cloth_table")
COLLECTION_MIN = int(RULES["collection_minimum"]["workers"])
CITY_VP: dict[int, int] = {int(k): int(v) for k, v in
                           TABLES["city_table"]["vp_by_luxuries"].items()}

EMPIRES: dict[str, Empire] = {
    e["id"]: Empire(e["id"], e["round"], e["armies"], tuple(e["start_regions"]),
                    e["rises_in_sumer"])
    for e in TABLES["empire_table"]["empires"]
}


def empires_of(round_: int) -> tuple[str, ...]:
    """The three empires of a round, in the table's order."""
    return tuple(e for e, data in EMPIRES.items() if data.round == round_)


RANKS: tuple[str, ...] = tuple(TABLES["equipment"]["ranks"])
OPPORTUNITY: dict[int, int] = {int(k): int(v) for k, v in
                               TABLES["opportunity_cost"]["items_by_players_passed"].items()}
START = TABLES["starting"]

# the numbers of the rules
PLAYERS = int(RULES["players"]["count"])
WORKERS = int(RULES["components"]["workers"])
ARMIES = int(RULES["components"]["armies"])
BASES = int(RULES["components"]["city_bases"])
ROUNDS = int(RULES["rounds"]["count"])
SETUP_BOXES: dict[str, int] = {k: int(v) for k, v in RULES["setup_boxes"].items()
                               if k != "_source"}
INCOME = int(RULES["workers_income"]["per_round"])
MAX_WORKERS = int(RULES["workers_income"]["max_in_play"])
DECLINE_ROUNDS: tuple[int, ...] = tuple(RULES["decline_rounds"]["rounds"])
DECLINE_ALL: str = RULES["decline_dilmun"]["region"]
DECLINE_OUTER = int(RULES["decline_outer"]["per_region"])
DECLINE_FIELDS: tuple[str, ...] = tuple(RULES["decline_fields"]["boxes"])
LEADER_KEEPS = int(RULES["decline_fields"]["leader_keeps"])
DECLINE_SCRIBES = int(RULES["decline_scribes"]["remove"])
DECLINE_TOOLS = int(RULES["decline_toolmaking"]["remove"])
SCRIBE_CAP = int(RULES["scribes_cap"]["max_per_player"])
PURCHASE: dict[str, int] = {k: int(v) for k, v in RULES["army_purchase"].items()
                            if k != "_source"}
ARMY_CAP = int(RULES["army_cap"]["max"])
INITIAL_MAX = int(RULES["initial_armies"]["max"])
DICE = int(RULES["combat_dice"]["dice"])
SIDES = int(RULES["combat_dice"]["sides"])
BETTER_ROLL = int(RULES["combat_better"]["min_roll"])
WORSE_ROLL = int(RULES["combat_worse"]["min_roll"])
DESTROY_COST = int(RULES["destroy_city"]["armies"])
REGION_ARMY_CAP = int(RULES["armies_per_region"]["max"])
REPEAT_COST = int(RULES["repeat_extend"]["armies"])
REGION_VP = int(RULES["region_vp"]["vp_per_region_with_army"])
EXTENSION_WOOD = int(RULES["city_extension"]["wood"])
MAX_LUXURIES = int(RULES["city_extension"]["max_luxuries"])

_BONUS = {r["id"]: r["city_bonus"] for r in MAP["regions"] if r["city_bonus"]}


def bonus_region(bonus: str) -> str:
    """The region whose city carries the particularity ``bonus``."""
    return next(str(r) for r, b in _BONUS.items() if b["id"] == bonus)


def bonus_number(region: str, key: str) -> int:
    """A number of a city's particularity (``workers``, ``cloth``, ``armies``...)."""
    return int(_BONUS[region][key])


SIPPAR = bonus_region("extra_trade")
BABYLON = bonus_region("extra_armies")
NIPPUR = bonus_region("sacred_city")
SHURUPPAK = bonus_region("walls")
URUK = bonus_region("extra_scribe")
UR = bonus_region("extra_cloth")
ERIDU = bonus_region("extra_toolmaker")
WALLS_COST = bonus_number(SHURUPPAK, "destroy_cost_armies")
WALLS_CITIES = bonus_number(SHURUPPAK, "min_owner_cities")
BUILD_BONUS: dict[str, str] = {URUK: str(_BONUS[URUK]["box"]), ERIDU: str(_BONUS[ERIDU]["box"])}
"""The cities that bring a worker when built, and the box it goes to."""


# -- names (catalogue keys) ------------------------------------------------------------


def region_name(rid: str) -> Text:
    """A region's name."""
    return Text.of(f"flood.region.{rid}")


def place_name(place: str) -> Text:
    """A region's or a worker box's name."""
    return Text.of(f"flood.box.{place}") if place in BOX_DATA else region_name(place)


def res_name(res: str) -> Text:
    """A resource's name."""
    return Text.of(f"flood.res.{res}")


def empire_name(empire: str) -> Text:
    """An empire's name."""
    return Text.of(f"flood.empire.{empire}")


def bonus_name(region: str) -> Text:
    """The name of a city's particularity."""
    return Text.of(f"flood.bonus.{region}")
