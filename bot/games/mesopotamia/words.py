"""The small grammar of Mesopotamia's texts: amounts with their plural, a unit with its
article, a region after "in" or "to", lists joined with "and", clauses joined with "; ".
Only :class:`~bot.engine.Text` values; the catalogue holds the words of each language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import Text, TextArg
from bot.games.mesopotamia import data as D


def t(key: str, **args: TextArg) -> Text:
    """The catalogue text ``mesopotamia.<key>``."""
    return Text.of(f"mesopotamia.{key}", **args)


both = Text.list_and
"""``items`` read as one list: "A", "A and B", "A, B and C" (:meth:`Text.list_and`)."""


def either(items: Sequence[Text]) -> Text:
    """``items`` read as alternatives: "A", "A or B", "A, B or C"."""
    if len(items) == 1:
        return items[0]
    return t("or", head=tuple(items[:-1]), last=items[-1])


def chain(clauses: Sequence[Text]) -> Text:
    """``clauses`` one after the other, separated as the language separates clauses ("; ")."""
    found = clauses[-1]
    for clause in reversed(clauses[:-1]):
        found = t("report.then", step=clause, then=found)
    return found


def side_name(word: str) -> Text:
    """A side named in a notation: an empire, or the neutral tribe."""
    return t("tribe") if word == "tribe" else D.name("empire", word)


def amount(resource: str, n: int) -> Text:
    """``n`` of ``resource``: "1 Tablet", "2 Tablets", "2 Stone"."""
    return t(f"amount.{resource}", n=n)


def amounts(counts: Mapping[str, int]) -> Text | None:
    """The positive ``counts`` (resource -> how many) as one list, in resource order."""
    found = [amount(k, int(counts[k])) for k in D.RESOURCES if int(counts.get(k, 0)) > 0]
    return both(found) if found else None


def a_unit(kind: str) -> Text:
    """One unit of ``kind`` with its article: "a Spearman", "an Archer"."""
    return t(f"a_unit.{kind}")


def units(kind: str, n: int) -> Text:
    """``n`` units of ``kind``: "1 Spearman", "2 Spearmen"."""
    return t(f"units.{kind}", n=n)


def in_region(region: str) -> Text:
    """Where a thing happens: "in Ur", "in the Hamad Desert"."""
    return t(f"in.{region}")


def to_region(region: str) -> Text:
    """Where a unit goes: "to Ur", "to the Hamad Desert"."""
    return t(f"to.{region}")


def dice_numbers(dice: Sequence[int]) -> Text:
    """Dice by their numbers (1-based): "die 2", "dice 1 and 3"."""
    return t("dice_numbers", n=len(dice), dice=both([t("number", n=d) for d in dice]))
