"""What the Defenders of Ur did in their turn, as the channel reads it after their name
("**Defenders of Ur** reveal War and Growth: they gain 2 Phalanxes and place an Archer in
Uruk; they reach Population box 4")."""

from __future__ import annotations

from typing import Any

from bot.engine import Text
from bot.games.mesopotamia.words import a_unit, amount, both, chain, in_region, t, to_region


def did(last: dict[str, Any]) -> Text:
    """The sentence of a ``defend`` step: the two cards, then each one's effect."""
    cards = both([card_name(c) for c in last["cards"]])
    return t("did.defend", cards=cards, effects=chain([effect(e) for e in last["did"]]))


def card_name(card: str) -> Text:
    """An Action card of the Defenders' deck by its name."""
    return t(f"siege.card.{card}")


def effect(done: dict[str, Any]) -> Text:
    """What one Action card did (:func:`.siege.play_card`'s record)."""
    card = done["card"]
    if card == "harvest_trade":
        token = done["token"]
        return t("siege.did.amphora", token=t(f"trade.{token}")) if token \
            else t("siege.did.no_amphora")
    if card == "war":
        got = amount("phalanx", int(done["phalanxes"]))
        if done["unit"] is None:
            return t("siege.did.war_only", got=got)
        return t("siege.did.war", got=got, unit=a_unit(done["unit"]),
                 where=in_region(done["region"]))
    if card == "exploration":
        if done["explore"] is not None:
            if done["moved"] is not None:
                return t("siege.did.explore_move", where=to_region(done["explore"]))
            return t("siege.did.explore", where=in_region(done["explore"]))
        if done["moved"] is not None:
            return t("siege.did.march", where=to_region(done["moved"][1]))
        return t("siege.did.no_explore")
    if card == "growth":
        return t("siege.did.growth", n=int(done["case"]))
    return t("siege.did.star")
