"""Online backups of the database, on a schedule, the latest few kept.

Every ``hours`` (``DINGIR_BACKUP_HOURS``, 24 by default; 0 turns backups off) the
reminders loop asks :meth:`Backups.maybe_run` for a copy: SQLite's backup API copies
the live database to ``DINGIR_BACKUP_DIR/dingir-<UTC time>.sqlite3`` while the bot
keeps playing, and only the ``keep`` newest copies stay (``DINGIR_BACKUP_KEEP``, 7).
The newest copy's time on disk tells when the last one was made, so a restart does
not make a copy at once; a clean stop makes one last copy, so restoring the newest copy
after a stop loses no step. README says how to restore one.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from bot.clock import Clock
from bot.store import Store

log = logging.getLogger(__name__)

PATTERN = "dingir-*.sqlite3"


class Backups:
    """The backup schedule of one store."""

    def __init__(self, store: Store, clock: Clock, folder: Path, hours: float,
                 keep: int) -> None:
        self.store = store
        self.clock = clock
        self.folder = folder
        self.hours = hours
        self.keep = max(1, keep)

    def copies(self) -> list[Path]:
        """The backups kept, oldest first."""
        return sorted(self.folder.glob(PATTERN))

    def due(self) -> bool:
        """True when backups are on and the newest copy is older than the interval."""
        if self.hours <= 0:
            return False
        copies = self.copies()
        return not copies or copies[-1].stat().st_mtime + self.hours * 3600 <= time.time()

    async def run(self) -> Path:
        """Make a copy now and drop the oldest beyond ``keep``; the copy's path."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.clock.now()))
        target = self.folder / f"dingir-{stamp}.sqlite3"
        await self.store.backup(target)
        for old in self.copies()[:-self.keep]:
            old.unlink(missing_ok=True)
        log.info("database backed up to %s", target)
        return target

    async def at_stop(self) -> Path | None:
        """A last copy when the bot stops cleanly (backups on, the file still its own), so
        that restoring the newest copy after a stop loses nothing; None if none was made."""
        if self.hours <= 0 or not self.store.check_file():
            return None
        try:
            return await self.run()
        except Exception:
            log.exception("the last database backup (at stop) failed")
            return None

    async def maybe_run(self) -> Path | None:
        """A copy if one is due (see :meth:`due`), else None."""
        return await self.run() if self.due() else None
