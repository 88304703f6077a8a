"""The web page's link in Discord, end to end (the bot in its own process, against the
stand-in for Discord, with ``DINGIR_WEB_PORT`` set): a button under the board post,
a line of ``/game status``, ``/webpage`` to show it, and its creator alone turning it off
and giving it a new address."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from aiohttp import ClientSession

from tests.test_e2e_game import open_game, world

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def status_of(url: str) -> int:
    async with ClientSession() as http, http.get(url) as answer:
        return answer.status


async def test_the_link_under_the_board_and_the_creators_commands(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    async with world(tmp_path, DINGIR_WEB_PORT=str(port), DINGIR_WEB_URL=base) as w:
        ann, bob, cid = w.user("ann"), w.user("bob"), w.user("cid")
        post = await open_game(w, ann, [bob, cid])
        url = post.button("Web page")["url"]
        assert url.startswith(f"{base}/g/") and url.endswith("/")
        async with ClientSession() as http, http.get(url) as answer:
            assert answer.status == 200 and "Ur" in await answer.text()

        status = await (await bob.slash("game status", channel=w.channel)).final()
        assert url in status.text
        shown = await (await cid.slash("webpage", channel=w.channel)).final()
        assert url in shown.text and shown.ephemeral

        refused = await (await bob.slash("webpage", channel=w.channel, action="off")).final()
        assert refused.ephemeral and await status_of(url) == 200
        off = await (await ann.slash("webpage", channel=w.channel, action="off")).final()
        assert "turned off" in off.text and await status_of(url) == 404
        status = await (await bob.slash("game status", channel=w.channel)).final()
        assert f"{base}/g/" not in status.text

        renewed = await (await ann.slash("webpage", channel=w.channel, action="new")).final()
        new = next(word.strip("<>") for word in renewed.text.split() if "/g/" in word)
        assert new != url and await status_of(new) == 200 and await status_of(url) == 404
