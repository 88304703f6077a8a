"""One bot per database: an exclusive lock on a file beside it (SQLite; PostgreSQL's
lease is an advisory lock, :mod:`bot.store.postgres`).

Two processes on one database would both send the same reminders and overwrite each
other's settings. :func:`hold` takes an exclusive ``flock`` on ``<database>.lock``
(released by the system when the process ends, even killed) and writes the holder's
pid into it; a second process is refused, naming the first.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class AlreadyRunning(Exception):
    """Another process holds the database."""

    def __init__(self, path: Path | str, pid: str, setting: str = "DINGIR_DB") -> None:
        super().__init__(f"another Dingir (pid {pid or 'unknown'}) is already using {path}: "
                         f"stop it first, or give this one its own {setting}")
        self.pid = pid


def hold(database: Path) -> IO[str]:
    """Take the database's lock for this process (keep the returned file open)."""
    path = database.with_name(database.name + ".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        pid = handle.read().strip()
        handle.close()
        raise AlreadyRunning(database, pid) from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle
