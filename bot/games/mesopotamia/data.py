"""The contents of Mesopotamia, read once from ``data/mesopotamia`` at import.

Every number the setup uses comes from here: the map (regions, start regions, ziggurat
tokens, event sites, tribes, blockers, trade slots, tracks), the empires (starting
technologies, resources, units, dice, track cases, civilization cards), the stacking order
of the seals, and the decks (events, quests, Hanging Gardens tiles, trade tokens). Names shown
to players are catalogue keys (``mesopotamia.region.<id>``, ``mesopotamia.empire.<id>``,
``mesopotamia.quest.<id>``, ``mesopotamia.colour.<id>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Text
from bot.games import content


def _load(name: str) -> dict[str, Any]:
    return content.load("mesopotamia", name)


MAP = _load("map")
EMPIRE_DATA = _load("empires")
TECH_DATA = _load("technologies")
DICE_DATA = _load("dice")
EVENT_DATA = _load("events")
QUEST_DATA = _load("quests")
GARDEN_DATA = _load("gardens")
TRADE_DATA = _load("trade_tokens")
COMBAT_DATA = _load("combat")
EXPANSION_DATA = _load("expansions")
EXPANSION_EVENT_DATA = _load("expansion_events")

MIN_PLAYERS = 2
MAX_PLAYERS = 6
"""2-4 players with the base game's empires, 5-6 with an expansion's (R-players-5-6)."""
ROLES: tuple[str, ...] = ("a", "b", "c", "d", "e", "f")
"""« Lors d'une partie à 4, les joueurs reçoivent un rôle de A à D. »; E and F at 5-6
players (R-players-5-6)."""


@dataclass(frozen=True)
class Region:
    """One region of the map."""

    id: str
    terrain: str
    start: int | None
    resource: str | None
    event_site: bool
    tribe: tuple[tuple[str, int], ...]
    blocker: str | None
    neighbours: tuple[str, ...]


def _tribe(raw: dict[str, Any] | None) -> tuple[tuple[str, int], ...]:
    if not raw:
        return ()
    return tuple((k, int(v)) for k, v in raw.items() if k != "grounding" and int(v))


REGIONS: dict[str, Region] = {
    r["id"]: Region(r["id"], r["terrain"], r["start"], r["resource"], r["event_site"],
                    _tribe(r["tribe"]), r["blocker"], tuple(r["neighbours"]))
    for r in MAP["regions"]
}
START_REGIONS: dict[int, str] = {int(k): v for k, v in MAP["start_regions"]["regions"].items()}
"""The four start regions a player may choose with 2-4 players, by number (1-4)."""
START_NUMBERS_BY_PLAYERS: dict[int, tuple[int, ...]] = {
    int(k): tuple(v) for k, v in MAP["start_regions"]["by_players"].items()}
"""Players (5, 6) -> the numbered regions open as start regions (R-players-5-6)."""
NUMBERED: dict[int, str] = {r.start: r.id for r in REGIONS.values() if r.start is not None}
"""Every numbered region (1-6), each with its ziggurat token's number."""
ZIGGURAT_ALWAYS: dict[int, str] = {int(k): v for k, v in
                                   MAP["ziggurat_tokens"]["always"].items()}
TERRAINS: tuple[str, ...] = tuple(k for k in MAP["terrains"] if not k.startswith("_"))
EVENT_SITES: dict[str, tuple[str, ...]] = {
    t: tuple(r.id for r in REGIONS.values() if r.event_site and r.terrain == t)
    for t in TERRAINS
}
"""The regions holding an event site, per terrain, in map order."""
TRIBE_FIGURES: dict[str, int] = {k: int(v) for k, v in MAP["neutral_tribes"]["figures"].items()}
BLOCKER_TOKENS = int(MAP["blockers"]["tokens"])
BLOCKERS_BY_PLAYERS: dict[int, tuple[int, tuple[str, ...]]] = {
    int(k): (int(v["tokens"]), tuple(v["symbols"]))
    for k, v in MAP["blockers"]["by_players"].items()
}
"""Players -> (blocker tokens placed, symbols whose regions receive them)."""

SLOT_LEVEL: dict[str, int] = {s["id"]: int(lv["level"]) for lv in MAP["trade_area"]["levels"]
                              for s in lv["slots"]}
SHIP_SLOTS: frozenset[str] = frozenset(s["id"] for lv in MAP["trade_area"]["levels"]
                                       for s in lv["slots"] if s["ship"])
USED_SLOTS: dict[int, tuple[str, ...]] = {
    int(k): tuple(v) for k, v in MAP["trade_area"]["used_slots"].items()}
TRADE_TOKENS: dict[int, tuple[str, ...]] = {
    level: tuple(t["id"] for t in TRADE_DATA["tokens"] if int(t["level"]) == level)
    for level in sorted({int(t["level"]) for t in TRADE_DATA["tokens"]})}
"""The trade tokens of each level."""

TRACKS: tuple[str, ...] = ("event", "population")
TRACK_CASES: dict[str, int] = {t: int(MAP["tracks"][t]["cases"]) for t in TRACKS}
UNIT_LIMIT: tuple[int, ...] = tuple(MAP["tracks"]["population"]["unit_limit"])
STACK_ORDER: dict[str, tuple[str, ...]] = {
    t: tuple(EMPIRE_DATA["rules"]["track_stack_order"][t]) for t in TRACKS}
"""The seals of each track's starting piles, top (most advanced) first."""

# -- technologies and empires --------------------------------------------------------------

ACTIONS: tuple[str, ...] = tuple(a["id"] for a in TECH_DATA["actions"])
TECH_CARD: dict[str, tuple[str, int]] = {
    t["id"]: (t["action"], int(t["level"])) for t in TECH_DATA["technologies"]}
"""Technology id -> (action, level)."""
SPEEDS: dict[str, int | None] = {k: v for k, v in EMPIRE_DATA["rules"]["speeds"].items()
                                 if not k.startswith("_")}
LAND: frozenset[str] = frozenset(k for k, v in SPEEDS.items() if v is not None and k != "ship")
"""The land units: they move, fight, block, occupy and harvest (not ships, nor rams, R-ram-unit)."""
FIGURES: dict[str, int] = {k: int(v) for k, v in
                           EMPIRE_DATA["rules"]["figures_per_empire"].items()
                           if k not in ("_source", "ruling")}
PIECES: dict[str, int] = {k: int(v) for k, v in
                          EMPIRE_DATA["rules"]["pieces_per_empire"].items() if k != "_source"}
COLOURS: tuple[str, ...] = tuple(DICE_DATA["rules"]["colours"]["ids"])


@dataclass(frozen=True)
class Empire:
    """One base empire's starting set-up."""

    id: str
    technologies: tuple[tuple[str, int], ...]
    resources: tuple[tuple[str, int], ...]
    units: tuple[tuple[str, int], ...]
    ziggurat: int
    dice: int
    track: tuple[tuple[str, int], ...]
    civilization: tuple[str, ...]
    """The civilization card ids, in the data's order."""
    card_tech: tuple[tuple[str, str], ...]
    """(civilization card id, technology id) pairs."""
    colony_rampart: bool
    """May place a Colony and a Rampart next to its start region (the Elamites)."""
    ship: bool = False
    """Starts with a Ship on a river next to its start region (the Eblaites)."""
    free_reroll: bool = False
    """May reroll any of its Dingir dice once a turn, free (the Hittites)."""


def _empire(e: dict[str, Any]) -> Empire:
    start = e["start"]
    effects = [b["effect"] for b in e["bonuses"]]
    placement = any("start_placement" in b for b in effects)
    return Empire(
        e["id"], tuple((k, int(v)) for k, v in start["technologies"].items()),
        tuple((k, int(v)) for k, v in start["resources"].items() if int(v)),
        tuple((k, int(v)) for k, v in start["units"].items() if int(v)),
        int(start["ziggurat_storeys"]), int(start["dingir_dice"]),
        tuple((t, int(start["track"][t])) for t in TRACKS),
        tuple(c["id"] for c in e["civilization_cards"]),
        tuple((c["id"], c["technology"]) for c in e["civilization_cards"]), placement,
        any("start_ship" in b for b in effects), any("free_reroll" in b for b in effects),
    )


EMPIRES: dict[str, Empire] = {e["id"]: _empire(e) for e in EMPIRE_DATA["empires"]}
"""The base game's four empires."""
EXPANSIONS: dict[str, tuple[str, ...]] = {
    k: tuple(v) for k, v in EXPANSION_DATA["rules"]["expansions"]["ids"].items()}
"""Each expansion -> its two empires (``expansions.json``)."""
EXPANSION_OPTIONS: tuple[str, ...] = tuple(EXPANSION_DATA["rules"]["expansions"]["options"])
"""The values of the ``expansions`` option: none, one expansion, or both."""
_EVERY_EMPIRE = [*EMPIRE_DATA["empires"], *EXPANSION_DATA["empires"]]
ALL_EMPIRES: dict[str, Empire] = {e["id"]: _empire(e) for e in _EVERY_EMPIRE}
"""Every empire, the base game's and the expansions' (a seat's empire is looked up here)."""
CIV_TECH: dict[str, str] = {card: tech for e in ALL_EMPIRES.values()
                            for card, tech in e.card_tech}
"""Civilization card id -> the technology it is."""
VARIANT_CARDS: frozenset[str] = frozenset(
    c["id"] for e in _EVERY_EMPIRE for c in e["civilization_cards"] if c["variant"])
"""The civilization cards whose effect is the empire's own, not the common card's."""
RESOURCES: tuple[str, ...] = (*MAP["resources"]["kinds"], "tablet", "phalanx")

# -- decks ----------------------------------------------------------------------------------

EVENTS: dict[str, tuple[str, ...]] = {
    t: tuple(c["id"] for c in EVENT_DATA["cards"] if c["terrain"] == t) for t in TERRAINS}
"""The event tokens (one per event card, same id) of each terrain."""
QUESTS: tuple[str, ...] = tuple(c["id"] for c in QUEST_DATA["cards"])
QUEST_DEALT = int(QUEST_DATA["rules"]["deal"]["dealt"])
QUEST_KEPT = int(QUEST_DATA["rules"]["deal"]["kept"])
GARDEN_STOREYS = int(GARDEN_DATA["rules"]["storeys"]["count"])
GARDEN_TILES: dict[int, tuple[str, ...]] = {
    s: tuple(t["id"] for t in GARDEN_DATA["tiles"] if int(t["storey"]) == s)
    for s in range(1, GARDEN_STOREYS + 1)}
GARDEN_FACE_UP = int(GARDEN_DATA["rules"]["first_face_up"]["storey"])

_DECKS: dict[str, dict[str, list[dict[str, Any]]]] = EXPANSION_DATA["decks"]
QUEST_CARDS: tuple[dict[str, Any], ...] = (
    *QUEST_DATA["cards"], *(c for x in _DECKS.values() for c in x["quests"]))
"""Every quest card, the base game's and the expansions' (designed, ``expansions.json``)."""
GARDEN_TILE_DATA: tuple[dict[str, Any], ...] = (
    *GARDEN_DATA["tiles"], *(t for x in _DECKS.values() for t in x["gardens"]))
TRADE_TOKEN_DATA: tuple[dict[str, Any], ...] = (
    *TRADE_DATA["tokens"], *(t for x in _DECKS.values() for t in x["trade_tokens"]))
COMBAT_CARDS: tuple[dict[str, Any], ...] = (
    *COMBAT_DATA["cards"], *(c for x in _DECKS.values() for c in x["combat_cards"]))
EXPANSION_COMBAT: dict[str, dict[str, tuple[str, ...]]] = {
    x: {kind: tuple(c["id"] for c in deck["combat_cards"] if c["unit"] == kind)
        for kind in COMBAT_DATA["decks"]} for x, deck in _DECKS.items()}
EXPANSION_QUESTS: dict[str, tuple[str, ...]] = {
    x: tuple(c["id"] for c in deck["quests"]) for x, deck in _DECKS.items()}
EXPANSION_GARDENS: dict[str, dict[int, tuple[str, ...]]] = {
    x: {s: tuple(t["id"] for t in deck["gardens"] if int(t["storey"]) == s)
        for s in range(1, GARDEN_STOREYS + 1)} for x, deck in _DECKS.items()}
EXPANSION_TRADE: dict[str, dict[int, tuple[str, ...]]] = {
    x: {lv: tuple(t["id"] for t in deck["trade_tokens"] if int(t["level"]) == lv)
        for lv in TRADE_TOKENS} for x, deck in _DECKS.items()}
"""Each expansion's combat cards by unit, quests, Gardens tiles by storey and trade tokens by
level."""
EVENT_CARDS: tuple[dict[str, Any], ...] = (*EVENT_DATA["cards"], *EXPANSION_EVENT_DATA["cards"])
"""Every event card, the base game's and the expansions' (designed, ``expansion_events.json``)."""
EXPANSION_EVENTS: dict[str, dict[str, tuple[str, ...]]] = {
    x: {t: tuple(c["id"] for c in EXPANSION_EVENT_DATA["cards"]
                 if c["expansion"] == x and c["terrain"] == t) for t in TERRAINS}
    for x in EXPANSIONS}
"""Each expansion's event tokens (one per event card, same id) by terrain."""


# -- names (catalogue keys) ----------------------------------------------------------------


def name(family: str, item: str) -> Text:
    """The catalogue name of ``item`` of ``family`` (``region``, ``empire``, ``quest``,
    ``quest_text``, ``colour``, ``event``, ``garden``, ``action``, ``tech``, ``tech_text``,
    ``card_text``, ``resource``, ``unit``, ``sign``)."""
    return Text.of(f"mesopotamia.{family}.{item}")


def card_text(card: str) -> Text:
    """What civilization card ``card`` does: its variant's text, or its technology's."""
    if card in VARIANT_CARDS:
        return name("card_text", card)
    return name("tech_text", CIV_TECH[card])


# -- the rounds: signs, dice and card effects -----------------------------------------------

STAR = "dingir"
"""The star face: « Il s'agit d'un signe joker pouvant activer n'importe quelle action. »"""
DIE_FACES: dict[str, tuple[str, ...]] = {d["id"]: tuple(d["faces"]) for d in DICE_DATA["dice"]}
MAX_REROLLS = int(DICE_DATA["rules"]["reroll"]["max_per_turn"])
REROLL_TABLETS = int(DICE_DATA["rules"]["reroll"]["cost"]["tablet"])
BASE_RESOURCES: tuple[str, ...] = tuple(MAP["resources"]["kinds"])
"""The four resources a harvest may give (« Les ressources spéciales … ne peuvent pas être
récoltées »)."""
TECH_SIGNS: dict[str, tuple[str, ...]] = {
    t["id"]: tuple(t["signs"]) for t in TECH_DATA["technologies"]}
TECH_AT: dict[tuple[str, int], str] = {v: k for k, v in TECH_CARD.items()}
"""(action, level) -> technology id."""
UNIT_WOOD = int(TECH_DATA["rules"]["unit_cost"]["cost"]["wood"])
DISCOVERY_TABLETS = int(TECH_DATA["rules"]["discovery"]["cost"]["tablet"])


def _card_effect(card: dict[str, Any]) -> dict[str, Any]:
    common = next(t for t in TECH_DATA["technologies"] if t["id"] == card["technology"])
    variant = card.get("variant") or {}
    return {**common["effect"], **variant.get("effect", {})}


CARD_EFFECT: dict[str, dict[str, Any]] = {
    c["id"]: _card_effect(c) for e in _EVERY_EMPIRE for c in e["civilization_cards"]}
"""Civilization card id -> its effect (the common technology's, with the empire's variant)."""


# -- rivers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One river section: the border between its two banks."""

    id: str
    river: str
    banks: tuple[str, str]
    ends: tuple[str, str]


SECTIONS: dict[str, Section] = {
    s["id"]: Section(s["id"], s["river"], (s["regions"][0], s["regions"][1]),
                     (s["ends"][0], s["ends"][1]))
    for s in MAP["river_sections"]}
_CROSSINGS = {j["id"] for j in MAP["junctions"] if j["kind"] != "end"}
SECTION_NEXT: dict[str, tuple[str, ...]] = {
    s.id: tuple(o.id for o in SECTIONS.values() if o.id != s.id
                and set(o.ends) & set(s.ends) & _CROSSINGS)
    for s in SECTIONS.values()}
"""« On considère qu'un Navire s'est déplacé lorsqu'il passe d'une section fluviale à une autre
en traversant un embranchement » — the sections one ship move reaches (never past an end)."""


def section_name(section: str) -> Text:
    """A river section, by its river and its banks."""
    s = SECTIONS[section]
    return Text.of("mesopotamia.section", river=Text.of(f"mesopotamia.river.{s.river}"),
                   a=name("region", s.banks[0]), b=name("region", s.banks[1]))
