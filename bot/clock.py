"""Injectable clocks: every timing decision of the core reads one of these.

- :class:`SystemClock`: the real time (UTC epoch seconds).
- :class:`FakeClock`: a settable clock for unit tests (``set``, ``advance``).
- :class:`OffsetClock`: another clock plus an offset in seconds that is read
  from a small text file, so a separate bot process can be time-travelled by an
  end-to-end test: write e.g. ``90000`` into the file named by the environment
  variable ``DINGIR_CLOCK_FILE`` and the bot's clock jumps 25 hours ahead (the
  file is re-read when its modification time changes, looked at no more than
  twice a second, or every ``DINGIR_CLOCK_RECHECK`` seconds; a missing or empty file
  means no offset). :func:`clock_from_env` builds the clock the bot should use.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Protocol

CLOCK_FILE_ENV = "DINGIR_CLOCK_FILE"
"""Environment variable naming the offset file of :class:`OffsetClock`."""
RECHECK_ENV = "DINGIR_CLOCK_RECHECK"
"""Environment variable: how often :class:`OffsetClock` looks at its file (0: at every read,
so a test's time travel needs no wait)."""


class Clock(Protocol):
    """A source of the current time."""

    def now(self) -> float:
        """Seconds since the UTC epoch."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Seconds since the UTC epoch, from the system."""
        return time.time()


class FakeClock:
    """A clock that only moves when told to (tests)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        """The current fake time."""
        return self._now

    def set(self, when: float) -> None:
        """Jump to ``when`` (epoch seconds)."""
        self._now = when

    def advance(self, seconds: float = 0.0, *, hours: float = 0.0) -> float:
        """Move forward by ``seconds`` plus ``hours``; returns the new time."""
        self._now += seconds + hours * 3600.0
        return self._now


class OffsetClock:
    """``base`` plus an offset in seconds read from ``path`` (see the module docstring)."""

    def __init__(self, base: Clock, path: str | Path, recheck: float | None = None) -> None:
        self._base = base
        self._path = Path(path)
        self._recheck = float(os.environ.get(RECHECK_ENV) or 0.5) if recheck is None else recheck
        self._checked = float("-inf")
        self._stamp: tuple[int, int] | None = None
        self._offset = 0.0

    @property
    def offset(self) -> float:
        """The offset currently applied, re-read if the file changed (the file is looked at
        once per ``recheck`` seconds at most: a busy bot reads the time very often)."""
        if time.monotonic() - self._checked < self._recheck:
            return self._offset
        self._checked = time.monotonic()
        try:
            info = self._path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
            if stamp != self._stamp:
                text = self._path.read_text(encoding="utf-8").strip()
                self._offset = float(text) if text else 0.0
                self._stamp = stamp
        except (OSError, ValueError):
            self._stamp, self._offset = None, 0.0
        return self._offset

    def now(self) -> float:
        """The base time plus the offset."""
        return self._base.now() + self.offset


def clock_from_env() -> Clock:
    """An :class:`OffsetClock` over the system time if ``DINGIR_CLOCK_FILE`` is set, else a
    :class:`SystemClock`."""
    path = os.environ.get(CLOCK_FILE_ENV)
    return OffsetClock(SystemClock(), path) if path else SystemClock()
