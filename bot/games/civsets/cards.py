"""The Civilizations deck, the Bonus deck and the numbers of the rules, from ``data/civsets``.

Cards are known by their ids (``greeks-03``, ``wild-greeks``, ``bonus-spy``); their
words (names, questions, answers, explanations) are catalogue entries
``civsets.card.<id with _>...`` in ``data/locales``, so the engine only hands out
:class:`~bot.engine.Text` values.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Text
from bot.games import content


@dataclass(frozen=True)
class Card:
    """A card: its id, its civilization (None for the six non-wild Bonus cards), its kind
    (``civ``, ``wild`` or a bonus effect) and, for a Civilization card, the index of the
    right answer to its question."""

    id: str
    civ: str | None
    kind: str
    answer: int = -1

    @property
    def key(self) -> str:
        """The catalogue key of the card's name."""
        return "civsets.card." + self.id.replace("-", "_")

    @property
    def name(self) -> Text:
        """The card's name."""
        return Text.of(self.key)

    def question(self) -> Text:
        """Its quiz question."""
        return Text.of(self.key + ".q")

    def option(self, index: int) -> Text:
        """Answer option ``index`` (0-3)."""
        return Text.of(f"{self.key}.a{index}")

    def explanation(self) -> Text:
        """The sentence shown after the answer."""
        return Text.of(self.key + ".why")


_DECK = content.load("civsets", "cards")
_BONUS = content.load("civsets", "bonus")
RULES: dict[str, int] = {k: v for k, v in content.load("civsets", "rules").items()
                         if isinstance(v, int)}

CIVS: tuple[str, ...] = tuple(civ["id"] for civ in _DECK["civilizations"])
CARDS: dict[str, Card] = {
    card["id"]: Card(card["id"], civ["id"], "civ", card["answer"])
    for civ in _DECK["civilizations"] for card in civ["cards"]
}
CIV_CARDS: tuple[str, ...] = tuple(CARDS)
BONUS_CARDS: tuple[str, ...] = tuple(b["id"] for b in _BONUS["cards"])
CARDS.update({b["id"]: Card(b["id"], b.get("civ"), b["kind"]) for b in _BONUS["cards"]})
OPTIONS = 4


def civ_name(civ: str) -> Text:
    """A civilization's name, its people ("Greeks")."""
    return Text.of(f"civsets.civ.{civ}")


def civ_adj(civ: str, n: int = 1) -> Text:
    """A civilization as the adjective of ``n`` cards ("Greek"; « grecque », « grecques »)."""
    return Text.of(f"civsets.adj.{civ}", n=n)


def a_card(civ: str) -> Text:
    """One card of a civilization, with its article ("an Egyptian card")."""
    return Text.of(f"civsets.a_card.{civ}")


def territory(civ: str) -> Text:
    """A civilization's territory on the map, with its article ("the Greek territory")."""
    return Text.of(f"civsets.territory.{civ}")


def civ_of(card: str) -> str | None:
    """The civilization a card counts for (a wild card: its deity's), or None."""
    return CARDS[card].civ
