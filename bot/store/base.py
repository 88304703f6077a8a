"""The store's contract: :class:`Store`, what every backend offers the service.

A backend (:mod:`.sqlite`, the default, or :mod:`.postgres`) supplies the connections
(see :class:`~bot.store.commit.StoreCore`) and opening, closing and backing up; games,
clocks and players are written once, in SQL both databases run, with the few
differences kept in the backend's :class:`~bot.store.commit.Dialect`.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.clocks import ClocksMixin
from bot.store.commit import Tx
from bot.store.games import GamesMixin
from bot.store.players import PlayersMixin
from bot.store.processes import ProcessesMixin
from bot.store.schema import SchemaMixin
from bot.store.weblinks import WebLinksMixin


class Store(SchemaMixin, GamesMixin, ClocksMixin, PlayersMixin, WebLinksMixin,
            ProcessesMixin):
    """The database of one bot process. Open with :func:`~bot.store.open_store` (by
    address), close with :meth:`close`."""

    async def close(self) -> None:
        """Close the connections (pending work finishes first)."""
        raise NotImplementedError

    async def backup(self, target: Path) -> None:
        """An online copy of the database to ``target`` (a SQLite file)."""
        raise NotImplementedError

    async def tables(self) -> list[str]:
        """The names of the tables (``schema_version`` among them), sorted."""
        raise NotImplementedError

    async def columns(self, table: str) -> list[str]:
        """The names of ``table``'s columns, in their order."""
        raise NotImplementedError

    async def _after_copy(self, tx: Tx) -> None:
        """What a database needs after rows were copied in with their ids
        (:mod:`dingir.migrate`)."""
