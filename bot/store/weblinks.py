"""Web links: the random token of each game's web page (see :mod:`web`)."""

from __future__ import annotations

from bot.store.commit import StoreCore


class WebLinksMixin(StoreCore):
    """The web page tokens of :class:`~bot.store.Store`."""

    async def web_link(self, game_id: int) -> tuple[bool, str | None]:
        """Whether ``game_id`` has a web link row, and its token (None: turned off)."""
        rows = await self._fetchall("SELECT token FROM web_links WHERE game_id = ?", (game_id,))
        return (True, rows[0][0]) if rows else (False, None)

    async def set_web_link(self, game_id: int, token: str | None) -> None:
        """Give ``game_id`` the web page ``token`` (None: no page)."""
        await self._write("INSERT INTO web_links (game_id, token) VALUES (?, ?)"
                          " ON CONFLICT (game_id) DO UPDATE SET token = excluded.token",
                          (game_id, token))

    async def web_game(self, token: str) -> int | None:
        """The game whose web page has ``token``, or None."""
        rows = await self._fetchall("SELECT game_id FROM web_links WHERE token = ?", (token,))
        return int(rows[0][0]) if rows else None
