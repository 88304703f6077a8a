"""The web server of the games' pages (aiohttp, in the bot's process and event loop).

``<token>`` is a game's random page token (:mod:`bot.service.weblinks`):

- ``GET /g/<token>/``: the page, in the reader's language (``Accept-Language``, or
  ``?lang=en|fr``); every address in it is relative, so that the pages may be served
  under any path of a reverse proxy;
- ``GET /g/<token>/data.json?lang=&since=<version>``: the page's moving parts (204 while
  the game is still at ``since``): what ``page.js`` polls;
- ``GET /g/<token>/board/<n>.png?lang=``: the public board after ``n`` steps (the start
  or the end of a turn);
- ``GET /g/<token>/replay.gif?lang=``: a finished game's replay animation;
- ``GET /static/page.js``, ``/static/page.css``.

Everything served is the public view: the engines' ``view(state, None)``, their public
reports and the texts the channel reads. Pages are kept per game version and language,
boards per game, turn and language, and a replay per game: however many readers, a new
step costs one page and a new turn one board. The replay of the
history, the words of its turns and every drawing run in the bot's worker processes.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import web

from bot.beginnings import Beginning
from bot.engine import Report, Seat, State
from bot.i18n import LANGUAGES, tr, translate
from bot.records import GameRecord, LogEntry, Played
from cogs.common import game_title, listed, seat_name
from cogs.posting import MAX_UPLOAD, final_text, render_context, steps_text
from host.registry import CATALOGUE
from host.timeline import Timeline
from web import page

if TYPE_CHECKING:
    from bot.service import GameService
    from host.workers import Workers

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
ASSETS = {"page.js": "text/javascript", "page.css": "text/css"}
PAGE_BYTES = 16 << 20
"""Bytes of pages (HTML and JSON, per game version and language) kept."""
TIMELINES_KEPT = 16
"""Games whose history (their log and turns, at their latest version) is kept."""
IMAGE_BYTES = 48 << 20
"""Bytes of boards and replays kept."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; script-src 'self'; "
                               "style-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class _Told(Played):
    """A step of the history whose public report is already known (the worker replayed
    it): what :func:`cogs.posting.steps_text` narrates."""

    def __init__(self, seat: Seat, report: Report) -> None:
        self.seat = seat
        self._report = report
        self._states = None


def turn_lines(record: GameRecord, lang: str, state: State,
               steps: Sequence[tuple[Seat, Report]]) -> str:
    """The HTML words of a turn's steps (seats and public reports) in the channel's turn
    messages, ``record`` at ``state``: a :data:`host.timeline.Narrate`, run by a worker
    (which imports this module the first time)."""
    told = [_Told(seat, report) for seat, report in steps]
    return page.lines_html(steps_text(replace(record, state=state), told, lang))


def language(request: web.Request) -> str:
    """``?lang=``, else the first of the reader's ``Accept-Language`` that Dingir speaks,
    else English."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    ranked = []
    for part in request.headers.get("Accept-Language", "").split(","):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            continue
        ranked.append((-q, tag.split("-")[0].strip().lower()))
    return next((tag for _, tag in sorted(ranked) if tag in LANGUAGES), "en")


class _Kept(OrderedDict[Hashable, Any]):
    """A least-recently-used map, bounded by entries or by the bytes of its values."""

    def __init__(self, entries: int = 0, size: int = 0) -> None:
        super().__init__()
        self.entries, self.size, self.used = entries, size, 0

    def get_kept(self, key: Hashable) -> Any:
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
        return found

    def keep(self, key: Hashable, value: Any) -> None:
        if key in self:
            self.used -= len(self.pop(key)) if self.size else 0
        self[key] = value
        self.used += len(value) if self.size else 0
        while len(self) > 1 and ((self.entries and len(self) > self.entries)
                                 or (self.size and self.used > self.size)):
            _, old = self.popitem(last=False)
            self.used -= len(old) if self.size else 0


@dataclass(frozen=True)
class _Page:
    html: bytes
    data: bytes

    def __len__(self) -> int:
        return len(self.html) + len(self.data)


class WebPages:
    """The web pages of the games of one bot (``service``'s games, drawn by ``workers``)."""

    def __init__(self, service: GameService, workers: Workers) -> None:
        self.service = service
        self.workers = workers
        self.renders = 0
        """Boards and replays drawn so far (the benchmark and the tests count them)."""
        self._pages = _Kept(size=PAGE_BYTES)
        self._timelines = _Kept(entries=TIMELINES_KEPT)
        self._images = _Kept(size=IMAGE_BYTES)
        self._narrated = _Kept(entries=TIMELINES_KEPT)
        self._beginnings = _Kept(entries=TIMELINES_KEPT)
        self._running: dict[Hashable, asyncio.Future[Any]] = {}
        self._assets = {name: (STATIC / name).read_bytes() for name in ASSETS}
        self.assets_version = hashlib.sha256(
            b"".join(self._assets.values())).hexdigest()[:12]

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(middlewares=[_headers])
        app.add_routes([
            web.get("/g/{token}", self.slash),
            web.get("/g/{token}/", self.serve_page),
            web.get("/g/{token}/data.json", self.data),
            web.get(r"/g/{token}/board/{played:\d+}.png", self.board),
            web.get("/g/{token}/replay.gif", self.replay),
            web.get("/static/{name}", self.asset),
        ])
        return app

    # -- requests -------------------------------------------------------------------------

    async def slash(self, request: web.Request) -> web.StreamResponse:
        """``/g/<token>`` is ``/g/<token>/``: the page's parts are addressed from it."""
        raise web.HTTPMovedPermanently(f"{request.match_info['token']}/")

    async def serve_page(self, request: web.Request) -> web.StreamResponse:
        """The page of a game."""
        lang = language(request)
        record = await self.service.web.game(request.match_info["token"])
        if record is None:
            return self._not_found(lang)
        built = await self._page(record, lang)
        return web.Response(body=built.html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache", "Content-Language": lang,
                                     "Vary": "Accept-Language"})

    async def data(self, request: web.Request) -> web.StreamResponse:
        """The moving parts of a page, unless the game is still at ``since``."""
        lang = language(request)
        record = await self.service.web.game(request.match_info["token"])
        if record is None:
            return self._not_found(lang)
        if request.query.get("since") == str(record.version):
            return web.Response(status=204, headers={"Cache-Control": "no-store"})
        built = await self._page(record, lang)
        return web.Response(body=built.data, content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def board(self, request: web.Request) -> web.StreamResponse:
        """The public board after ``played`` steps."""
        lang = language(request)
        record = await self.service.web.game(request.match_info["token"])
        if record is None or record.state is None:
            return self._not_found(lang)
        played = int(request.match_info["played"])
        entries, history = await self._timeline(record)
        if played not in history.ends:
            raise web.HTTPNotFound()
        ctx = render_context(record, lang)

        async def draw() -> bytes:
            self.renders += 1
            return await self.workers.frame(
                await self._beginning(record),
                [(e.seat, e.notation) for e in entries], played, ctx)

        png = await self._kept(self._images, ("board", record.id, played, ctx), draw)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=3600"})

    async def replay(self, request: web.Request) -> web.StreamResponse:
        """The replay animation of a finished game."""
        lang = language(request)
        record = await self.service.web.game(request.match_info["token"])
        if record is None or record.status != "finished":
            return self._not_found(lang)

        async def draw() -> bytes:
            self.renders += 1
            entries = await self.service.history.log_of(record.id)
            gif = await self.workers.replay(
                await self._beginning(record),
                [(e.seat, e.notation) for e in entries], render_context(record, lang),
                MAX_UPLOAD)
            return gif or b""

        gif = await self._kept(self._images, ("replay", record.id, lang), draw)
        if not gif:
            raise web.HTTPNotFound()
        return web.Response(body=gif, content_type="image/gif",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """The page's script and style sheet."""
        name = request.match_info["name"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        return web.Response(body=self._assets[name], content_type=ASSETS[name],
                            headers={"Cache-Control": "public, max-age=86400"})

    def _not_found(self, lang: str) -> web.Response:
        text = page.message(lang, tr(lang, "web.not_found"), self.assets_version)
        return web.Response(status=404, text=text, content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _narration(self, record: GameRecord, lang: str, entries: list[LogEntry],
                         history: Timeline, known: dict[tuple[int, int], str]
                         ) -> list[page.TurnLog]:
        """The public log, one entry per turn, in the words of the channel's turn messages
        (:func:`turn_lines`, told by the workers), each with the board it leads to. The
        words of the turns that ended are kept in ``known`` (by their steps): a new step
        only tells the turn under way again."""
        spans, start = [], 0
        while start < len(entries):
            end = start
            while end < len(entries) and entries[end].turn == entries[start].turn:
                end += 1
            spans.append((start, end))
            start = end
        words = dict(known)
        if missing := [span for span in spans if span not in known]:
            words.update(zip(missing, await self.workers.told(
                await self._beginning(record),
                [(e.seat, e.notation) for e in entries], missing,
                partial(turn_lines, replace(record, state=None), lang)), strict=True))
            ends = set(history.ends)
            known.update((span, words[span]) for span in missing if span[1] in ends)
        last = len(history.ends) - 1        # a turn under way: shown with the latest board
        return [page.TurnLog(entries[start].turn, words[start, end],
                             min(bisect.bisect_left(history.ends, end), last))
                for start, end in spans]

    # -- caches ---------------------------------------------------------------------------

    async def _kept(self, kept: _Kept, key: Hashable,
                    make: Callable[[], Awaitable[Any]]) -> Any:
        """``kept[key]``, else made by ``make`` once however many ask at the same time."""
        found = kept.get_kept(key)
        if found is not None:
            return found

        async def made() -> Any:
            value = await make()
            kept.keep(key, value)
            return value

        return await self._once(key, made)

    async def _once(self, key: Hashable, make: Callable[[], Awaitable[Any]]) -> Any:
        """``make()``, run once for all who ask for ``key`` while it runs."""
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(make())
            running.add_done_callback(lambda _: self._running.pop(key, None))
            running.add_done_callback(lambda done: done.cancelled() or done.exception())
        return await asyncio.shield(running)

    async def _beginning(self, record: GameRecord) -> Beginning:
        """Where the game's log replays from, read from the store once (it never changes once
        the game has started, its seed drawn)."""
        found: Beginning = await self._kept(self._beginnings,
                                            ("beginning", record.id, record.seed),
                                            lambda: self.service.history.beginning(record))
        return found

    async def _timeline(self, record: GameRecord) -> tuple[list[LogEntry], Timeline]:
        """The game's log and public history at ``record``'s version."""
        async def replay() -> tuple[int, list[LogEntry], Timeline]:
            entries = await self.service.history.log_of(record.id)
            history = await self.workers.history(
                await self._beginning(record),
                [(e.seat, e.notation) for e in entries])
            return record.version, entries, history

        found = self._timelines.get_kept(record.id)
        if found is None or found[0] != record.version:
            found = await self._once(("timeline", record.id, record.version), replay)
            if (kept := self._timelines.get_kept(record.id)) is None or kept[0] < found[0]:
                self._timelines.keep(record.id, found)
        return found[1], found[2]

    async def _page(self, record: GameRecord, lang: str) -> _Page:
        async def build() -> _Page:
            parts = await self._parts(record, lang)
            replay = f"replay.gif?lang={lang}" \
                if record.status == "finished" else None
            title = game_title(record, lang)
            html = page.document(lang, title, parts, self.assets_version, replay)
            return _Page(html.encode(), orjson.dumps(parts.data()))

        found: _Page = await self._kept(self._pages, ("page", record.id, record.version, lang),
                                        build)
        return found

    async def _parts(self, record: GameRecord, lang: str) -> page.Parts:
        """The moving parts of the page of ``record`` in ``lang``."""
        title = game_title(record, lang)
        heading = page.inline(tr(lang, "web.heading", game=title, turn=record.turn + 1,
                                 status=tr(lang, f"discord.status.{record.status}")))
        if record.state is None:
            lobby = page.lines_html(tr(lang, "web.lobby"))
            return page.Parts(record.version, record.status == "aborted", heading, lobby, "",
                              "", "", (page.Frame(0, tr(lang, "web.frame_start"), ""),))
        entries, history = await self._timeline(record)
        frames = frames_of(lang, entries, history)
        names = tuple((s.user_id, s.name, s.resigned) for s in record.seats)
        known = self._narrated.get_kept((record.id, lang, names))
        if known is None:
            known = {}
            self._narrated.keep((record.id, lang, names), known)
        turns = await self._narration(record, lang, entries, history, known)
        standing = CATALOGUE.standing(record)
        scores = page.scores_html(lang, [
            (seat_name(record, s.seat, lang, raw=True), translate(standing[s.seat], lang))
            for s in record.seats if s.seat < len(standing)])
        now = ""
        if record.status == "running" and record.active:
            now = page.inline(tr(lang, "web.now", names=listed(
                lang, [seat_name(record, s, lang) for s in record.active])))
        outcome = self.service.core.outcome(record) if record.status == "finished" else None
        result = "" if outcome is None else (
            f"<h2>{page.inline(tr(lang, 'web.result'))}</h2>"
            + page.lines_html(final_text(record, outcome, lang)))
        return page.Parts(record.version, record.status in ("finished", "aborted"), heading,
                          now, scores, page.log_html(lang, turns), result, tuple(frames))


def frames_of(lang: str, entries: list[LogEntry], history: Timeline) -> list[page.Frame]:
    """The boards a page steps through: the start and the end of each turn (the boards the
    channel sees)."""
    return [page.Frame(played, tr(lang, "web.frame_start") if played == 0 else
                       tr(lang, "web.frame_turn", turn=entries[played - 1].turn + 1),
                       f"board/{played}.png?lang={lang}") for played in history.ends]


@web.middleware
async def _headers(request: web.Request,
                   handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                   ) -> web.StreamResponse:
    """The security headers on every answer; a failure is logged and answered with a 500
    that says nothing more."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        error.headers.update(SECURITY_HEADERS)
        raise
    except Exception:
        log.exception("web page request %s failed", request.path)
        raise web.HTTPInternalServerError(headers=SECURITY_HEADERS) from None
    response.headers.update(SECURITY_HEADERS)
    return response


async def start(service: GameService, workers: Workers, host: str, port: int
                ) -> tuple[web.AppRunner, WebPages]:
    """Serve the games' pages on ``host``:``port`` until the runner is cleaned up."""
    pages = WebPages(service, workers)
    runner = web.AppRunner(pages.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("web pages served on %s:%s", host, port)
    return runner, pages
