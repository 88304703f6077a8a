"""A game's history replays from its stored first state: a game started before its
contents changed (a card, the map: ``setup(seed)`` deals otherwise) still tells its log,
exports what a seat may see, shows its web page's boards and draws its replay."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bot.beginnings import Beginning, first_state
from bot.engine import Game, State
from bot.i18n import translate
from bot.records import GameRecord
from bot.replay import Step, apply_steps
from host import timeline
from host.workers import render_replay
from render.context import RenderContext
from tests.test_export import (
    HOSTED,
    OTHER,
    PLAYERS,
    civsets_played,
    document_of,
    full,
    played_out,
)
from tests.test_session import ANN, BOB, CHANNEL, GUILD, Env

__all__ = ["full"]          # the fixture, imported for these tests

GAME = "civsets"


@pytest.fixture
def changed() -> Iterator[Game]:
    """Civilizations' engine, whose ``setup`` is made to deal another game by the test that
    asks (as a change of its contents would), and given back after it."""
    engine = HOSTED.engine(GAME)
    yield engine
    vars(engine).pop("setup", None)


def change_contents(engine: Game) -> None:
    """From now on ``engine.setup(seed)`` deals what ``seed + 1`` dealt before."""
    original = type(engine).setup.__get__(engine)
    vars(engine)["setup"] = lambda seed, players, options: original(seed + 1, players, options)


def dealt(engine: Game, record: GameRecord) -> State:
    """What ``setup`` dealt ``record`` (its seed, seats and options) before any change."""
    return type(engine).setup(engine, record.seed, len(record.seats), record.options)


async def test_a_game_keeps_its_first_state_from_its_start(full: Env, changed: Game) -> None:
    lobby = await full.service.lobby.create(GUILD, CHANNEL, ANN, GAME, {})
    assert await full.store.start_state(lobby.id) is None
    record = await civsets_played(full, 0, lobby=False)
    assert record.id == lobby.id
    assert await full.store.start_state(record.id) == json.loads(
        json.dumps(dealt(changed, record)))


async def test_its_log_and_partial_export_survive_a_change_of_contents(
        full: Env, changed: Game) -> None:
    record = await civsets_played(full, 14)
    _, entries = await full.service.history.log(CHANNEL)
    before = [translate(r.public, "en") for r in await full.service.history.reports(record,
                                                                                    entries)]
    exported = await full.service.history.export(CHANNEL, BOB.user_id)
    change_contents(changed)
    assert changed.setup(record.seed, 3, record.options) != dealt(changed, record)
    after = [translate(r.public, "en") for r in await full.service.history.reports(record,
                                                                                   entries)]
    assert after == before and len(after) == 14
    assert await full.service.history.export(CHANNEL, BOB.user_id) == exported


async def test_its_web_page_and_replay_survive_a_change_of_contents(
        full: Env, changed: Game) -> None:
    record = await civsets_played(full, 14)
    _, entries = await full.service.history.log(CHANNEL)
    steps = [(e.seat, e.notation) for e in entries]
    change_contents(changed)
    beginning = await full.service.history.beginning(record)
    timeline._KEPT.clear()
    history = timeline.timeline(beginning, steps)
    assert timeline.board_after(beginning, steps, 0) == json.loads(
        json.dumps(changed.view(dealt(changed, record), None)))
    last = history.ends[-1]
    assert last > 0 and timeline.board_after(beginning, steps, last) == json.loads(json.dumps(
        changed.view(apply_steps(changed, dealt(changed, record),
                                 [Step(*step) for step in steps[:last]]), None)))
    ctx = RenderContext(tuple(name for name, _ in PLAYERS))
    assert render_replay(beginning, steps, ctx, 8_000_000)


async def test_a_game_stored_before_first_states_replays_from_its_seed(
        full: Env, changed: Game) -> None:
    record = await civsets_played(full, 10)
    _, entries = await full.service.history.log(CHANNEL)
    kept = await full.service.history.reports(record, entries)
    await full.store._write("DELETE FROM start_states WHERE game_id = ?", (record.id,))
    beginning = await full.service.history.beginning(record)
    assert beginning == Beginning(GAME, record.seed, 3, record.options)
    assert first_state(changed, beginning) == dealt(changed, record)
    assert await full.service.history.reports(record, entries) == kept


async def test_an_imported_game_keeps_the_first_state_of_its_document(full: Env) -> None:
    log, state = played_out("ur", 11)
    record = await full.service.history.import_game(
        GUILD, OTHER, ANN, document_of("ur", 11, log, state, PLAYERS))
    assert await full.store.start_state(record.id) == json.loads(
        json.dumps(HOSTED.engine("ur").setup(11, 3, {})))
