"""The games' web pages (:mod:`web`): every answer of the web server scanned for every seat's
secrets and the seed, the history against a fresh replay, one board drawn per version
however many readers, the links a creator turns off and renews, the reader's language."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

import pytest
from aiohttp import ClientSession

from bot.beginnings import Beginning
from bot.config import ConfigError, from_mapping
from bot.engine import Report, Seat, State
from bot.i18n import LANGUAGES, translate
from bot.records import GameRecord, ServiceError
from bot.replay import Step, iter_reports, iter_states
from bot.service import GameService
from host import registry, timeline
from host.workers import Workers
from tests import web_games
from tests.contract import hidden_from
from web import server

PNG = b"\x89PNG"
FLOOD = Beginning("flood", web_games.SEED, 3, {})
UR = Beginning("ur", 9, 3, {})


@dataclass
class Site:
    """A service and its web pages served on a free port of 127.0.0.1."""

    service: GameService
    pages: server.WebPages
    base: str
    http: ClientSession

    async def get(self, path: str, **headers: str) -> tuple[int, bytes, dict[str, str]]:
        async with self.http.get(self.base + path, headers=headers,
                                 allow_redirects=False) as answer:
            return answer.status, await answer.read(), dict(answer.headers)


@pytest.fixture
async def site(database: str) -> AsyncIterator[Site]:
    """The pages of a new store, on SQLite and on PostgreSQL."""
    service = await web_games.open_service(database)
    runner, pages = await server.start(service, Workers(0), "127.0.0.1", 0)
    port = runner.addresses[0][1]
    try:
        async with ClientSession() as http:
            yield Site(service, pages, f"http://127.0.0.1:{port}", http)
    finally:
        await runner.cleanup()
        await service.core.store.close()


def public_secrets(record: GameRecord, steps: list[Step]) -> set[str]:
    """The secret strings of every state of the game so far that the public could not
    read then, less those the engine showed the public at some point (in a public view
    or a public report, in either language: a card played face up)."""
    engine = registry.get(record.game).engine
    start = engine.setup(record.seed, len(record.seats), record.options)
    states = [start, *iter_states(engine, start, steps)]
    hidden = {t for state in states
              for t in hidden_from(engine.secrets(state), None, len(record.seats))}
    shown = [json.dumps(engine.view(state, None), ensure_ascii=False) for state in states]
    shown += [translate(report.public, lang, web_games.NAMES[:len(record.seats)])
              for report, _ in iter_reports(engine, start, steps) for lang in LANGUAGES]
    public = "\n".join(shown).lower()
    return {t for t in hidden if t not in public}


async def every_answer(site: Site, token: str, record: GameRecord, frames: int | None
                       ) -> list[str]:
    """Every text answer of the pages of the game (both languages; the boards fetched too,
    ``frames`` of them evenly spaced, None: all)."""
    texts = []
    for lang in ("en", "fr"):
        status, page, _ = await site.get(f"/g/{token}/", **{"Accept-Language": lang})
        assert status == 200
        texts.append(page.decode())
        status, data, _ = await site.get(f"/g/{token}/data.json?lang={lang}")
        assert status == 200
        texts.append(data.decode())
        sources = [f["src"] for f in json.loads(data)["frames"]]
        if frames is not None:
            sources = sources[::max(1, len(sources) // frames)] + sources[-1:]
        for src in sources:
            status, png, _ = await site.get(f"/g/{token}/{src}")
            assert status == 200 and png.startswith(PNG), src
        if record.status == "finished":
            status, gif, _ = await site.get(f"/g/{token}/replay.gif?lang={lang}")
            assert status == 200 and gif.startswith(b"GIF8")
    for path in ("/static/page.js", "/static/page.css", "/g/unknown/", f"/g/{token}"):
        texts.append((await site.get(path))[1].decode())
    return texts


@pytest.mark.parametrize(("game", "players", "steps"), [
    ("civsets", 4, 120), ("flood", 3, 120), ("mesopotamia", 3, 150), ("ur", 3, 80),
    pytest.param("civsets", 3, None, marks=pytest.mark.slow),
    pytest.param("flood", 3, None, marks=pytest.mark.slow),
])
async def test_no_answer_shows_a_secret_or_the_seed(site: Site, game: str, players: int,
                                                     steps: int | None) -> None:
    record = await web_games.start(site.service, game, players)
    record = await web_games.play(site.service, record, steps, random.Random(steps or 7))
    token = await site.service.web.token(record.id)
    assert token is not None and str(record.id) != token
    log = await site.service.history.log_of(record.id)
    forbidden = public_secrets(record, [Step(e.seat, e.notation) for e in log])
    assert forbidden or game in ("ur", "flood"), "the scan would find nothing"
    forbidden |= {str(record.seed)}
    for text in await every_answer(site, token, record, 3):
        lowered = text.lower()
        leaked = sorted(s for s in forbidden if s in lowered)
        assert not leaked, (leaked, text[:300])


def test_the_history_is_the_public_view_after_each_turn() -> None:
    record_steps: list[tuple[int, str]] = []
    engine = registry.get("flood").engine
    rng = random.Random(3)
    state = engine.setup(web_games.SEED, 3, {})
    states = [state]
    while len(record_steps) < 90:
        seat = rng.choice(engine.active(state))
        action = rng.choice(engine.legal(state, seat))
        record_steps.append((seat, action.notation))
        state = engine.apply(state, seat, action)
        states.append(state)
    history = timeline.timeline(FLOOD, record_steps[:40])
    history = timeline.timeline(FLOOD, record_steps)  # extended
    assert history.ends[0] == 0
    turns = [engine.turn_number(s) for s in states]
    assert list(history.ends) == [0] + [i for i in range(1, len(states))
                                        if turns[i] != turns[i - 1]]
    for played in history.ends:
        view = timeline.board_after(FLOOD, record_steps, played)
        assert view == json.loads(json.dumps(engine.view(states[played], None)))
    with pytest.raises(ValueError):
        timeline.board_after(FLOOD, record_steps,
                             next(n for n in range(90) if n not in history.ends))
    reports = [report for report, _ in iter_reports(
        engine, states[0], [Step(seat, notation) for seat, notation in record_steps])]
    seats, turns = [seat for seat, _ in record_steps], [(0, 40), (85, 90)]
    assert timeline.told(FLOOD, record_steps, turns, said) == tuple(
        said(state, list(zip(seats[a:b], reports[a:b], strict=True))) for a, b in turns)


def said(state: State, steps: Sequence[tuple[Seat, Report]]) -> str:
    """A :data:`host.timeline.Narrate` for the tests: the seats and public reports, and the
    turn of the latest state."""
    engine = registry.get("flood").engine
    return f"{engine.turn_number(state)}: " + " ".join(
        f"{seat}={translate(report.public, 'en')}" for seat, report in steps)


def test_an_undo_within_the_turn_is_replayed_from_the_turn_start() -> None:
    engine = registry.get("ur").engine
    rng = random.Random(5)
    state, steps = engine.setup(9, 3, {}), []
    while len(steps) < 30:
        seat = rng.choice(engine.active(state))
        action = rng.choice(engine.legal(state, seat))
        steps.append((seat, action.notation))
        state = engine.apply(state, seat, action)
    timeline.timeline(UR, steps)
    shorter = steps[:-1]

    def replayed() -> tuple[timeline.Timeline, tuple[str, ...]]:
        return timeline.timeline(UR, shorter), timeline.told(
            UR, shorter, [(0, len(shorter))], lambda *told: repr(told))

    kept = replayed()
    timeline._KEPT.clear()
    assert kept == replayed()


async def test_the_worker_processes_write_the_same_pages(site: Site) -> None:
    """The words of the turns come from a worker process (the narration travels to it by
    reference) exactly as from a thread of the bot."""
    record = await web_games.start(site.service, "mesopotamia", 3)
    record = await web_games.play(site.service, record, 60, random.Random(4))
    token = await site.service.web.token(record.id)
    workers = Workers(1)
    try:
        for lang in ("en", "fr"):
            pages = server.WebPages(site.service, workers)
            built = await pages._page(record, lang)
            assert built == await site.pages._page(record, lang)
            assert built.html.count(b'class="turn"') > 5 and token
    finally:
        await workers.close()


async def test_a_hundred_readers_cost_one_board_per_turn(site: Site,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    record = await web_games.start(site.service, "ur", 3)
    rng = random.Random(2)
    record = await web_games.play(site.service, record, 20, rng)
    token = await site.service.web.token(record.id)
    store, read = site.service.core.store, []
    first = store.start_state

    async def counted(game_id: int) -> State | None:
        read.append(game_id)
        return await first(game_id)

    monkeypatch.setattr(store, "start_state", counted)
    latest: set[str] = set()
    for _ in range(6):
        answers = await asyncio.gather(*(site.get(f"/g/{token}/") for _ in range(100)))
        assert {status for status, _, _ in answers} == {200}
        data = json.loads((await site.get(f"/g/{token}/data.json"))[1])
        assert data["version"] == record.version
        latest.add(data["frames"][-1]["src"])
        boards = await asyncio.gather(*(site.get(f"/g/{token}/{src}") for src in latest
                                        for _ in range(100)))
        assert {status for status, _, _ in boards} == {200}
        assert site.pages.renders == len(latest)       # one board per turn, never more
        record = await web_games.play(site.service, record, 1, rng)
    assert len(latest) < 6, "every step ended a turn: the test shows nothing"
    assert read == [record.id]          # the game's first state read from the store once
    status, _, _ = await site.get(f"/g/{token}/data.json?since={record.version}")
    assert status == 204


async def test_the_creator_turns_the_page_off_and_gives_it_a_new_address(site: Site) -> None:
    record = await web_games.start(site.service, "ur", 3)
    token = await site.service.web.token(record.id)
    other = await web_games.start(site.service, "ur", 3, channel=web_games.CHANNEL + 1)
    assert token is not None and token == await site.service.web.token(record.id)
    assert token != await site.service.web.token(other.id) and len(token) >= 24
    assert (await site.get(f"/g/{token}/"))[0] == 200
    assert (await site.get(f"/g/{token}"))[0] == 301
    with pytest.raises(ServiceError):
        await site.service.web.set_link(web_games.CHANNEL, 2, False, on=False)
    await site.service.web.set_link(web_games.CHANNEL, 1, False, on=False)
    assert await site.service.web.token(record.id) is None
    assert (await site.get(f"/g/{token}/"))[0] == 404
    _, new = await site.service.web.set_link(web_games.CHANNEL, 2, True, on=True)
    assert new is not None and new != token
    assert (await site.get(f"/g/{token}/data.json"))[0] == 404
    assert (await site.get(f"/g/{new}/"))[0] == 200


async def test_the_page_speaks_the_readers_language(site: Site) -> None:
    record = await web_games.start(site.service, "ur", 3)
    await web_games.play(site.service, record, 4, random.Random(1))
    token = await site.service.web.token(record.id)
    for header, lang in (("fr-CA,fr;q=0.9,en;q=0.8", "fr"), ("de-DE, fr;q=0.5", "fr"),
                         ("en-GB", "en"), ("", "en"), ("x;q=oops", "en")):
        status, page, headers = await site.get(f"/g/{token}/", **{"Accept-Language": header})
        assert status == 200 and f'<html lang="{lang}">' in page.decode()
        assert "script-src 'self'" in headers["Content-Security-Policy"]
    page = (await site.get(f"/g/{token}/?lang=fr"))[1].decode()
    assert "Ce qui s'est passé" in page.replace("&#x27;", "'")
    assert "http://" not in page and "https://" not in page


def test_the_port_is_off_by_default_and_checked() -> None:
    assert from_mapping({"DISCORD_TOKEN": "x"}).web_port is None
    settings = from_mapping({"DISCORD_TOKEN": "x", "DINGIR_WEB_PORT": "8080",
                             "DINGIR_WEB_URL": "https://dingir.example.org/"})
    assert settings.web_port == 8080 and settings.web_url == "https://dingir.example.org"
    with pytest.raises(ConfigError):
        from_mapping({"DISCORD_TOKEN": "x", "DINGIR_WEB_PORT": "70000"})
