"""The Automaton's cards as data: the Strategy deck, the Action cards, the difficulty tables.

« Il existe 10 cartes Stratégie de base et 8 cartes spécifiques aux Empires. » Three cards are
the rulebook's (``origin`` « printed »), fifteen were designed for this project (« designed »).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine import Text

DATA = Path(__file__).resolve().parents[4] / "data" / "mesopotamia" / "automaton"


def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


STRATEGY_DATA = _load("strategy")
ACTION_DATA = _load("actions")


@dataclass(frozen=True)
class Slot:
    """One of a Strategy card's two actions: the engine action and how the Automaton plays it."""

    action: str
    plan: dict[str, Any]


@dataclass(frozen=True)
class Strategy:
    """A Strategy card: its condition, its priorities (condition true, false), its two actions."""

    id: str
    number: int
    empire: str | None
    replaces: str | None
    origin: str
    condition: dict[str, Any]
    high: int
    low: int
    slots: tuple[Slot, Slot]


def _strategy(raw: dict[str, Any]) -> Strategy:
    left, right = (Slot(a["action"], a["plan"]) for a in raw["actions"])
    return Strategy(raw["id"], int(raw["id"][2:]), raw["empire"], raw["replaces"],
                    raw["origin"], raw["condition"], int(raw["priority"]["true"]),
                    int(raw["priority"]["false"]), (left, right))


STRATEGIES: dict[str, Strategy] = {c["id"]: _strategy(c) for c in STRATEGY_DATA["cards"]}
BASE: tuple[str, ...] = tuple(c for c, s in STRATEGIES.items() if s.empire is None)
IN_PLAY = int(STRATEGY_DATA["in_play"]["count"])
"""« Piochez jusqu'à avoir 3 cartes Stratégie face visible en jeu. »"""

SUPPLIED: frozenset[str] = frozenset(STRATEGY_DATA["supply"]["actions"])
"""The actions whose costs the Automaton takes from the supply when it lacks them
(R-auto-supply)."""

STAR: str = ACTION_DATA["star"]
ACTION_CARDS: dict[str, str | None] = {c["id"]: c["action"] for c in ACTION_DATA["cards"]}
"""Action card -> the action it lets the Automaton take (None: the Star, a joker)."""
DRAWS: dict[str, tuple[int, ...]] = {d["id"]: tuple(d["cards"])
                                     for d in ACTION_DATA["draws"]["difficulties"]}
"""Difficulty -> Action cards drawn by Ziggurat storey (0 to 6), the bonus action on top."""
DIFFICULTIES: tuple[str, ...] = tuple(DRAWS)


def deck_for(empire: str) -> list[str]:
    """The 10-card Strategy deck against ``empire``: its 2 cards and the 8 base cards they do
    not replace (« gardez 8 cartes Stratégie de base ; ajoutez les 2 cartes spécifiques à
    l'Empire contre qui vous jouez. », R-auto-deck)."""
    own = [c for c, s in STRATEGIES.items() if s.empire == empire]
    replaced = {STRATEGIES[c].replaces for c in own}
    return sorted([*(c for c in BASE if c not in replaced), *own], key=number)


def number(card: str) -> int:
    """The printed number of a Strategy card (SC5 -> 5)."""
    return STRATEGIES[card].number


def draws(difficulty: str, storeys: int) -> int:
    """How many Action cards the Automaton draws with ``storeys`` Ziggurat storeys."""
    table = DRAWS[difficulty]
    return table[max(0, min(storeys, len(table) - 1))]


def title(card: str) -> Text:
    """A Strategy card's title."""
    return Text.of(f"mesopotamia.automaton.title.{card}")


def slot_name(card: str, slot: int) -> Text:
    """The name of a Strategy card's left (0) or right (1) action."""
    return Text.of(f"mesopotamia.automaton.slot.{card}_{('left', 'right')[slot]}")


def action_card(card: str) -> Text:
    """An Action card's name."""
    return Text.of(f"mesopotamia.automaton.card.{card}")
