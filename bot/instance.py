"""One bot per database and shard: an exclusive lock on a file beside it (SQLite;
PostgreSQL's lease is an advisory lock per shard, :mod:`bot.store.postgres`).

Two processes serving the same guilds of one database would both send the same reminders
and overwrite each other's settings. :func:`hold` takes an exclusive ``flock`` on a file
per shard the process serves, ``<database>.lock`` for shard 0 (the only one of a bot run as
one process) and ``<database>.shard-<n>.lock`` for shard n (released by the system when the
process ends, even killed), and writes the holder's pid into it: a second process on any of
these shards is refused, naming the first; processes on other shards are not.

Every bot also holds ``<database>.copy.lock`` shared, and a tool that copies the whole
database (:mod:`dingir.migrate`) holds it exclusively: the tool is refused while any bot runs,
and no bot starts while it copies, on any shard, even one that never ran before.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO

COPY_LOCK = ".copy.lock"
"""The suffix of the lock file every bot holds shared and a copying tool exclusively."""


class AlreadyRunning(Exception):
    """Another process holds the database."""

    def __init__(self, path: Path | str, pid: str, setting: str = "DINGIR_DB") -> None:
        super().__init__(f"another Dingir (pid {pid or 'unknown'}) is already using {path}: "
                         f"stop it first, or give this one its own {setting}")
        self.pid = pid


class Held:
    """The lock files a process holds (keep it until the end; :meth:`close` lets go)."""

    def __init__(self, handles: Sequence[IO[str]]) -> None:
        self._handles = tuple(handles)

    def close(self) -> None:
        """Release every lock."""
        for handle in self._handles:
            handle.close()


def lock_path(database: Path, shard: int = 0) -> Path:
    """The lock file of ``shard`` of ``database``."""
    suffix = ".lock" if shard == 0 else f".shard-{shard}.lock"
    return database.with_name(database.name + suffix)


def every_shard(database: Path) -> list[int]:
    """The shards of ``database`` that have a lock file (shard 0 always): what a tool that
    must have the database to itself holds (:mod:`dingir.migrate`)."""
    found = {0}
    for path in database.parent.glob(database.name + ".shard-*.lock"):
        number = path.name[len(database.name) + len(".shard-"):-len(".lock")]
        if number.isdigit():
            found.add(int(number))
    return sorted(found)


def hold(database: Path, shards: Sequence[int] = (0,), *, copying: bool = False) -> Held:
    """Take the database's lock of each of ``shards`` for this process, and its copy lock
    (shared; exclusive when ``copying`` the whole database); raises AlreadyRunning (holding
    none) if another process holds one of them."""
    handles: list[IO[str]] = []
    try:
        for shard in shards:
            handles.append(_lock(database, lock_path(database, shard)))
        fence = database.with_name(database.name + COPY_LOCK)
        handles.append(_lock(database, fence, exclusive=copying))
    except AlreadyRunning:
        Held(handles).close()
        raise
    return Held(handles)


def _lock(database: Path, path: Path, *, exclusive: bool = True) -> IO[str]:
    """``path`` locked (a shared lock leaves the pid written there alone)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        fence = path.name.endswith(COPY_LOCK)    # its pid is the copying tool's, if any
        pid = handle.read().strip() if exclusive != fence else ""
        handle.close()
        raise AlreadyRunning(database, pid) from None
    if not exclusive:
        return handle
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle
