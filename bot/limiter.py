"""A small rate limiter on the injected clock: at most one event per key in an interval.

The service keeps one per kind of public post a member can ask for again and again (the
board re-posted, a request to hand a seat over), keyed by member and channel; the
front end answers privately what the limiter refuses.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from bot.clock import Clock

KEYS_KEPT = 10_000
"""Keys remembered at most (the oldest are forgotten first: they have long expired)."""


class Limiter:
    """One event per key every ``interval`` seconds (0: no limit)."""

    def __init__(self, clock: Clock, interval: float) -> None:
        self.clock = clock
        self.interval = interval
        self._last: OrderedDict[Hashable, float] = OrderedDict()

    def take(self, key: Hashable) -> float:
        """0 and the event counted when ``key`` may act now; else the seconds to wait."""
        if self.interval <= 0:
            return 0.0
        now = self.clock.now()
        last = self._last.get(key)
        if last is not None and now < last + self.interval:
            return last + self.interval - now
        self._last[key] = now
        self._last.move_to_end(key)
        while len(self._last) > KEYS_KEPT:
            self._last.popitem(last=False)
        return 0.0
