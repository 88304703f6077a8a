"""Why the Automaton does what it does: its turn's record read aloud (for the channel).

The record is :func:`.deck.begin_turn`'s ``turn`` (``order``, ``values``, ``conditions``,
``drawn``, ``assigned``, ``bonus``, ``plan``), kept as ``last`` once the turn is over.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Text
from bot.games.mesopotamia.automaton.cards import action_card, slot_name, title
from bot.games.mesopotamia.words import amounts


def _t(key: str, **args: Any) -> Text:
    return Text.of(f"mesopotamia.automaton.{key}", **args)


def card_priority(record: dict[str, Any], card: str) -> Text:
    """« Development (priority 8: it has fewer than 2 Colonies) »: the card's condition as a
    clause (``reason.<card>``), not its printed sentence."""
    if record["conditions"][card]:
        return _t("priority_true", title=title(card), priority=record["values"][card],
                  condition=_t(f"reason.{card}"))
    return _t("priority_false", title=title(card), priority=record["values"][card])


def turn_summary(record: dict[str, Any]) -> Text:
    """The whole turn: its Strategy cards by priority, the Action cards drawn and where they
    went, the bonus action, what it took from the supply (R-auto-supply)."""
    strategy = _t("strategy", cards=tuple(card_priority(record, c) for c in record["order"]))
    drawn = record["drawn"]
    drew = _t("drew", n=len(drawn), cards=tuple(action_card(c) for c in drawn)) if drawn \
        else _t("drew_none")
    plays: list[Text] = []
    for card, place in record["assigned"]:
        if place is None:
            plays.append(_t("lost", card=action_card(card)))
        else:
            plays.append(_t("assigned", card=action_card(card), slot=slot_name(*place),
                            title=title(place[0])))
    bonus = record["bonus"]
    plays.append(_t("bonus", slot=slot_name(*bonus), title=title(bonus[0])) if bonus
                 else _t("no_bonus"))
    taken = amounts(record.get("taken") or {})
    if taken is not None:
        plays.append(_t("supply", resources=taken))
    return _t("turn", strategy=strategy, drew=drew, plays=Text.list_and(plays))


def step_reason(own: dict[str, Any], action: str) -> Text | None:
    """Why the Automaton takes ``action`` now: the Strategy action it was planned for."""
    record = own.get("turn")
    if not record:
        return None
    for planned, card, slot in record["plan"]:
        if planned == action:
            return _t("because", slot=slot_name(card, slot), card=card_priority(record, card))
    return None
