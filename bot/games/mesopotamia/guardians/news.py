"""What the Guardians' enemy did in the last step, as short third-person sentences for the
channel (``state["guardians"]["news"]``, :mod:`.mode`): a wave begun, each unit's move, a
tribe or an event destroyed on its way, a wave repelled, the end of the game."""

from __future__ import annotations

from typing import Any

from bot.engine import Text, seat_ref
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import MesopotamiaState

MARCH = frozenset({"move", "tribe", "event"})
"""The news of the enemy's march (told right after its step, before the combats it begins)."""


def told(state: MesopotamiaState, march: bool) -> list[Text]:
    """The sentences of the last step's news (none outside the Guardians): those of the march
    (``march``) or the others (a wave, the end of the game)."""
    box = state.get("guardians")
    if not box:
        return []
    you = seat_ref(1 - int(box["seat"]))
    return [_sentence(key, args, you) for key, args in box["news"]
            if (key in MARCH) == march]


def _sentence(key: str, args: dict[str, Any], you: Text) -> Text:
    words: dict[str, Any] = dict(args)
    if "kind" in words:
        words["kind"] = D.name("unit", args["kind"])
    for field in ("from", "to", "region"):
        if field in words:
            words[field] = D.name("region", args[field])
    if "tile" in words:
        words["tile"] = D.name("garden", args["tile"])
    if "card" in words:
        words["card"] = D.name("event", args["card"])
    return Text.of(f"mesopotamia.guardians.news.{key}", who=you, **words)
