"""The address of each game's web page: a random token stored with the game, made at the
first ask, which the game's creator may turn off or replace (see :mod:`web`).

The token is drawn from :mod:`secrets`: it is neither the game's id nor derived from its
seed, so a page's address tells nothing and cannot be guessed from another's.
"""

from __future__ import annotations

import secrets

from bot.records import GameRecord
from bot.service.core import ServiceCore, check_creator, fail

TOKEN_BYTES = 18
"""Random bytes of a token (24 characters in the address)."""
LINKS_KEPT = 10_000
"""Games whose token is remembered in memory (past this, all are read again as needed)."""


class WebLinks:
    """The web pages part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._web_links: dict[int, str | None] = {}
        """The known token of each game (None: turned off)."""
        self._web_games: dict[str, int] = {}
        """The game of each known token."""

    def _keep_link(self, game_id: int, token: str | None) -> None:
        if len(self._web_links) > LINKS_KEPT:
            self._web_links.clear()
            self._web_games.clear()
        old = self._web_links.get(game_id)
        if old is not None:
            self._web_games.pop(old, None)
        self._web_links[game_id] = token
        if token is not None:
            self._web_games[token] = game_id

    async def token(self, game_id: int) -> str | None:
        """The token of ``game_id``'s web page, made at the first ask; None when its
        creator turned the page off."""
        if game_id in self._web_links:
            return self._web_links[game_id]
        async with self.core.lock(game_id):
            found, token = await self.core.store.web_link(game_id)
            if not found:
                token = secrets.token_urlsafe(TOKEN_BYTES)
                await self.core.store.set_web_link(game_id, token)
        self._keep_link(game_id, token)
        return token

    async def set_link(self, channel_id: int, user_id: int, is_admin: bool, *,
                       on: bool) -> tuple[GameRecord, str | None]:
        """Turn the web page of the channel's game (the active one, else the latest) off,
        or (``on``) give it a new address, the old one answering no more (its creator,
        or a member with Manage Server). Returns the game and its new token."""
        game_id = await self.core.store.latest_game_id(channel_id)
        if game_id is None:
            raise fail("service.no_game")
        record = (await self.core.live(game_id)).record
        check_creator(record, user_id, is_admin)
        token = secrets.token_urlsafe(TOKEN_BYTES) if on else None
        async with self.core.lock(game_id):
            await self.core.store.set_web_link(game_id, token)
        self._keep_link(game_id, token)
        return record, token

    async def game(self, token: str) -> GameRecord | None:
        """The game whose web page has ``token`` (None for an unknown or withdrawn one)."""
        game_id = self._web_games.get(token)
        if game_id is None:
            game_id = await self.core.store.web_game(token)
            if game_id is None:
                return None
            self._keep_link(game_id, token)
        return await self.core.get_by_id(game_id)
