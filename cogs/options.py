"""What users type in options of ``/game``: ``key=value`` game options and seat orders."""

from __future__ import annotations

import re

from bot.engine import Text
from bot.records import ServiceError

OPTION = re.compile(r"([a-z_]+)\s*=\s*([^\s,;]+)")
ORDER = re.compile(r"<@!?([0-9]+)>|([0-9]+)|[\s,;]+")
MAX_SEATS = 99
"""Numbers up to this in a seat order are lobby positions, larger ones user ids."""


def parse_options(raw: str) -> dict[str, str]:
    """``key=value`` pairs (the service checks names and values); ServiceError on other text."""
    found = dict(OPTION.findall(raw.lower()))
    leftover = OPTION.sub("", raw.lower()).strip(" ,;")
    if leftover:
        raise ServiceError(Text.of("discord.bad_options", text=leftover))
    return found


def parse_order(raw: str) -> list[int] | None:
    """A seat order typed as mentions and/or lobby numbers (``@bob @alice`` or ``2 1``):
    user ids and 0-based lobby positions for the service; None when empty."""
    if ORDER.sub("", raw):
        raise ServiceError(Text.of("discord.bad_order", text=raw))
    found = [int(a or b) for a, b in ORDER.findall(raw) if a or b]
    return [n - 1 if n <= MAX_SEATS else n for n in found] or None
