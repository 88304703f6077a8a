"""A game's web page in a real browser: Debian's Chromium, headless, driven by Playwright.

The page is opened on a game played through the service; the test steps through its
history with the buttons and the slider and checks each board and the log shown against
the game's log, takes screenshots at phone and desktop sizes and checks them (a board
drawn, text of a readable size, nothing wider than a phone), sees the page follow a new
step by itself, and that nothing was asked of any address but the bot's.
Without Chromium (``/usr/bin/chromium``) or Playwright, the tests say so and are skipped.
"""

from __future__ import annotations

import asyncio
import io
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.records import LogEntry
from tests import web_games
from tests.test_web import Site, site

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

__all__ = ["site"]


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium to run the browser "
                    "tests")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


async def until(page: Any, expression: str, seconds: float = 10.0) -> None:
    """Wait until ``expression`` is true in ``page`` (Playwright's own wait evaluates
    strings inside the page, which its Content Security Policy forbids)."""
    for _ in range(int(seconds * 10)):
        if await page.evaluate(expression):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"still false after {seconds} s: {expression}")


async def shown_turns(page: Any) -> list[str]:
    """The texts of the turns the log shows now."""
    found: list[str] = await page.eval_on_selector_all(
        "#log .turn:not([hidden])", "turns => turns.map(t => t.innerText)")
    return found


def turn_players(entries: list[LogEntry], names: tuple[str, ...]) -> dict[int, set[str]]:
    """The players who played in each turn of the log."""
    players: dict[int, set[str]] = {}
    for entry in entries:
        players.setdefault(entry.turn, set()).add(names[entry.seat])
    return players


async def check_screenshot(page: Any, path: Path, viewport: dict[str, int]) -> None:
    """A screenshot of the page and one of its board: drawn, and as wide as the screen
    allows."""
    await page.screenshot(path=str(path), full_page=True)
    shot = Image.open(path)
    assert shot.width == viewport["width"] and shot.height >= viewport["height"] // 2
    board = Image.open(io.BytesIO(await page.locator("#board").screenshot())).convert("RGB")
    colours = board.getcolors(1 << 20) or []
    assert len(colours) > 30, "the board looks empty"
    assert max(count for count, _ in colours) < 0.9 * board.width * board.height
    box = await page.locator("#board").bounding_box()
    assert box is not None and box["width"] >= min(viewport["width"] - 40, 500)
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], "the page is wider than the screen"
    sizes = await page.eval_on_selector_all(
        "#log p, #scores td, button, figcaption, h1",
        "all => all.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 14, sizes


@pytest.mark.sqlite_only
async def test_stepping_through_a_game_in_chromium(site: Site, browser: Any,
                                                   tmp_path: Path) -> None:
    record = await web_games.start(site.service, "ur", 3)
    rng = random.Random(4)
    record = await web_games.play(site.service, record, 40, rng)
    token = await site.service.web.token(record.id)
    entries = await site.service.history.log_of(record.id)
    names = tuple(s.name for s in record.seats)
    players = turn_players(entries, names)
    asked: list[str] = []

    context = await browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = await context.new_page()
    page.on("request", lambda request: asked.append(request.url))
    await page.goto(f"{site.base}/g/{token}/")
    await until(page, "document.getElementById('board').complete")
    assert await page.is_visible("#controls")
    frames = int(await page.get_attribute("#slider", "max")) + 1
    turns_done = len({e.turn for e in entries})
    assert frames in (turns_done, turns_done + 1)     # with a turn under way, or not
    await check_screenshot(page, tmp_path / "desktop.png", DESKTOP)
    board = await page.locator("#boardbox").bounding_box()
    aside = await page.locator("aside").bounding_box()
    assert board is not None and aside is not None and aside["x"] > board["x"] + 300

    await page.click("[data-step=first]")
    assert await page.inner_text("#caption") == "Start"
    assert await shown_turns(page) == []
    assert (await page.get_attribute("#board", "src") or "").startswith("board/0.png")
    for step in range(1, min(frames, 8)):
        await page.click("[data-step=next]")
        assert await page.inner_text("#caption") == f"After turn {step}"
        shown = await shown_turns(page)
        assert len(shown) == step
        assert shown[-1].startswith(f"Turn {step}")
        assert any(name in shown[-1] for name in players[step - 1])
        await until(page, "document.getElementById('board').complete")
        assert await page.evaluate("document.getElementById('board').naturalWidth") > 0
    await page.locator("#slider").fill("3")
    assert await page.inner_text("#caption") == "After turn 3"
    assert len(await shown_turns(page)) == 3
    await page.click("[data-step=last]")
    assert len(await shown_turns(page)) == len(players)

    before = await page.inner_text("#heading")
    record = await web_games.play(site.service, record, 3, rng)
    await until(page, f"document.getElementById('heading').textContent !== {before!r}", 15)
    assert await page.inner_text("#heading") == f"Ur: in progress, turn {record.turn + 1}"
    assert int(await page.get_attribute("#slider", "max")) + 1 >= frames

    phone = await browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True,
                                      has_touch=True)
    small = await phone.new_page()
    small.on("request", lambda request: asked.append(request.url))
    await small.goto(f"{site.base}/g/{token}/")
    await until(small, "document.getElementById('board').complete")
    assert (await small.inner_text("#logbox h2")) == "Ce qui s'est passé"
    await small.click("[data-step=first]")
    assert await small.inner_text("#caption") == "Début"
    await small.click("[data-step=last]")
    await check_screenshot(small, tmp_path / "phone.png", PHONE)
    board = await small.locator("#boardbox").bounding_box()
    aside = await small.locator("aside").bounding_box()
    assert board is not None and aside is not None and aside["y"] > board["y"]

    assert asked and all(url.startswith(site.base) for url in asked), asked
    await context.close()
    await phone.close()
