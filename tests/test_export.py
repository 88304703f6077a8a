"""Export documents: export -> import gives the identical game; damaged documents are refused."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import export
from bot.clock import FakeClock
from bot.records import GameRecord, ServiceError
from bot.store import Store
from tests.test_session import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    GUILD,
    Env,
    current_user,
    make_service,
    reason,
    started,
)
from tests.toy_game import GAME

OTHER = CHANNEL + 1


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    clock = FakeClock()
    path = tmp_path / "dingir.sqlite3"
    store = await Store.open(path)
    try:
        yield Env(clock, store, make_service(store, clock), path)
    finally:
        await store.close()


async def played(env: Env, steps: int = 7) -> GameRecord:
    """A three-player game a few steps in, ending mid-turn."""
    record = await started(env.service, (ANN, BOB, CID))
    for _ in range(steps):
        user = current_user(record)
        _, _, legal = await env.service.legal(CHANNEL, user)
        record = (await env.service.play(CHANNEL, user, legal[-1 if record.turn % 2 else 0]
                                         .notation)).record
    return record


async def test_export_then_import_gives_the_identical_game(env: Env) -> None:
    record = await played(env)
    document = await env.service.export(CHANNEL)
    document = json.loads(json.dumps(document))  # as a file would carry it
    assert document["format"] == "dingir-game" and document["format_version"] == 1
    assert document["seed"] == record.seed and len(document["log"]) == 7
    imported = await env.service.import_game(GUILD, OTHER, BOB, document)
    assert imported.state == record.state
    assert imported.turn == record.turn and imported.active == record.active
    assert [s.name for s in imported.seats] == [s.name for s in record.seats]
    assert imported.status == "running" and imported.creator_id == BOB.user_id
    _, log = await env.service.log(OTHER)
    _, original = await env.service.log(CHANNEL)
    assert [(e.seat, e.notation, e.turn) for e in log] == [
        (e.seat, e.notation, e.turn) for e in original
    ]
    assert await env.service.export(OTHER) == await env.service.export(CHANNEL)


async def test_an_imported_game_goes_on_with_undo(env: Env) -> None:
    record = await played(env)
    document = await env.service.export(CHANNEL)
    imported = await env.service.import_game(GUILD, OTHER, ANN, document)
    user = current_user(imported)
    await env.service.play(OTHER, user, "add 1")
    undone = await env.service.undo(OTHER, user)
    assert undone.state == record.state
    end = await env.service.play(OTHER, user, "end")
    here = await env.service.play(CHANNEL, user, "end")
    assert end.record.state == here.record.state
    assert [p.action for p in end.turn_steps] == [p.action for p in here.turn_steps]


async def test_a_log_line_that_does_not_replay_is_named(env: Env) -> None:
    await played(env)
    document = await env.service.export(CHANNEL)
    document["log"][4]["notation"] = "add 7"
    with pytest.raises(ServiceError) as error:
        await env.service.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) == "service.import_bad_step"
    assert error.value.reason.kwargs["line"] == 5
    assert await env.service.get(OTHER) is None


async def test_a_changed_seed_does_not_reach_the_exported_state(env: Env) -> None:
    await played(env, steps=2)
    document = await env.service.export(CHANNEL)
    document["seed"] += 1
    with pytest.raises(ServiceError) as error:
        await env.service.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) in ("service.import_digest", "service.import_bad_step")


@pytest.mark.parametrize(
    ("damage", "key"),
    [
        (lambda d: d.update(format="chess-pgn"), "service.import_not_export"),
        (lambda d: d.update(format_version=9), "service.import_version"),
        (lambda d: d.update(seed="12"), "service.import_bad_field"),
        (lambda d: d["log"].append({"seat": 5, "notation": "end"}), "service.import_bad_field"),
        (lambda d: d["seats"][0].pop("name"), "service.import_bad_field"),
        (lambda d: d.update(seats=d["seats"][:1], log=[]), "service.import_players"),
        (lambda d: d.update(game="chess"), "service.unknown_game"),
        (lambda d: d.update(options={"target": "3"}), "service.bad_option"),
    ],
)
async def test_damaged_documents_are_refused(env: Env, damage: Any, key: str) -> None:
    await played(env, steps=3)
    document = copy.deepcopy(await env.service.export(CHANNEL))
    damage(document)
    with pytest.raises(ServiceError) as error:
        await env.service.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) == key


async def test_import_needs_a_free_channel(env: Env) -> None:
    await played(env, steps=1)
    document = await env.service.export(CHANNEL)
    with pytest.raises(ServiceError) as error:
        await env.service.import_game(GUILD, CHANNEL, ANN, document)
    assert reason(error) == "service.channel_busy"


async def test_a_finished_game_imports_as_finished(env: Env) -> None:
    record = await started(env.service)
    while record.status == "running":
        user = current_user(record)
        _, _, legal = await env.service.legal(CHANNEL, user)
        record = (await env.service.play(CHANNEL, user, legal[1 if len(legal) > 1 else 0]
                                         .notation)).record
    document = await env.service.export(CHANNEL)
    assert document["status"] == "finished"
    imported = await env.service.import_game(GUILD, OTHER, ANN, document)
    assert imported.status == "finished" and imported.state == record.state
    assert await env.service.get(OTHER) is None


def test_replay_reports_turns_and_turn_start() -> None:
    document = export.parse(export.build(
        game="race", options={"target": "10"}, seed=3,
        seats=[export.SeatEntry(0, "A", 1), export.SeatEntry(1, "B", 2)],
        settings={}, lang="en", status="running",
        log=[export.LogLine(s, n) for s, n in ((0, "add 1"), (0, "end"), (1, "add 2"))]
        if GAME.setup(3, 2, {})["current"] == 0 else
        [export.LogLine(s, n) for s, n in ((1, "add 1"), (1, "end"), (0, "add 2"))],
        state=None,
    ))
    replayed = export.replay(GAME, document)
    assert [s.turn for s in replayed.steps] == [0, 0, 1]
    assert replayed.turn_start_state["turn"] == 1 and replayed.turn_start_state["adds"] == 0
    assert replayed.state["adds"] == 1
    assert export.state_digest(replayed.state) == export.state_digest(
        json.loads(json.dumps(replayed.state))
    )
