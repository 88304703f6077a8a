"""Export documents: export -> import gives the identical game; damaged documents are
refused; a game with hidden information can be neither exported complete nor imported
before its end (issue 24, item 4); junk is refused with a reason, and a long import leaves
the event loop free."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import export
from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.engine import Action, Seat, State
from bot.i18n import LANGUAGES, translate
from bot.records import GameRecord, ServiceError
from bot.service import GameService, in_thread
from bot.service.history import export_document
from bot.store import Store, open_store
from host import registry
from tests.test_session import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    ENGINES,
    GUILD,
    Env,
    current_user,
    first_legal,
    make_service,
    reason,
    started,
)
from tests.toy_game import GAME, RaceGame

OTHER = CHANNEL + 1


@pytest.fixture
async def env(database: str, tmp_path: Path) -> AsyncIterator[Env]:
    clock = FakeClock()
    store = await open_store(database)
    try:
        yield Env(clock, store, make_service(store, clock), tmp_path / "dingir.sqlite3",
                  database)
    finally:
        await store.close()


async def played(env: Env, steps: int = 7) -> GameRecord:
    """A three-player game a few steps in, ending mid-turn."""
    record = await started(env.service, (ANN, BOB, CID))
    for _ in range(steps):
        user = current_user(record)
        _, _, legal = await env.service.turns.legal(CHANNEL, user)
        record = (await env.service.turns.play(CHANNEL, user, legal[-1 if record.turn % 2 else 0]
                                               .notation)).record
    return record


async def test_export_then_import_gives_the_identical_game(env: Env) -> None:
    record = await played(env)
    document = await env.service.history.export(CHANNEL)
    document = json.loads(json.dumps(document))  # as a file would carry it
    assert document["format"] == "dingir-game" and document["format_version"] == 1
    assert document["seed"] == record.seed and len(document["log"]) == 7
    imported = await env.service.history.import_game(GUILD, OTHER, BOB, document)
    assert imported.state == record.state
    assert imported.turn == record.turn and imported.active == record.active
    assert [s.name for s in imported.seats] == [s.name for s in record.seats]
    assert imported.status == "running" and imported.creator_id == BOB.user_id
    _, log = await env.service.history.log(OTHER)
    _, original = await env.service.history.log(CHANNEL)
    assert [(e.seat, e.notation, e.turn) for e in log] == [
        (e.seat, e.notation, e.turn) for e in original
    ]
    assert await env.service.history.export(OTHER) == await env.service.history.export(CHANNEL)


async def test_an_imported_game_goes_on_with_undo(env: Env) -> None:
    record = await played(env)
    document = await env.service.history.export(CHANNEL)
    imported = await env.service.history.import_game(GUILD, OTHER, ANN, document)
    user = current_user(imported)
    await env.service.turns.play(OTHER, user, "add 1")
    undone = await env.service.turns.undo(OTHER, user)
    assert undone.state == record.state
    end = await env.service.turns.play(OTHER, user, "end")
    here = await env.service.turns.play(CHANNEL, user, "end")
    assert end.record.state == here.record.state
    assert [p.action for p in end.turn_steps] == [p.action for p in here.turn_steps]


async def test_a_log_line_that_does_not_replay_is_named(env: Env) -> None:
    await played(env)
    document = await env.service.history.export(CHANNEL)
    document["log"][4]["notation"] = "add 7"
    with pytest.raises(ServiceError) as error:
        await env.service.history.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) == "service.import_bad_step"
    assert error.value.reason.kwargs["line"] == 5
    assert await env.service.core.get(OTHER) is None


async def test_a_changed_seed_does_not_reach_the_exported_state(env: Env) -> None:
    await played(env, steps=2)
    document = await env.service.history.export(CHANNEL)
    document["seed"] += 1
    with pytest.raises(ServiceError) as error:
        await env.service.history.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) in ("service.import_digest", "service.import_bad_step")


@pytest.mark.parametrize(
    ("damage", "key"),
    [
        (lambda d: d.update(format="chess-pgn"), "service.import_not_export"),
        (lambda d: d.update(format_version=9), "service.import_version"),
        (lambda d: d.update(seed="12"), "service.import_bad_field"),
        (lambda d: d["log"].append({"seat": 5, "notation": "end"}), "service.import_bad_field"),
        (lambda d: d["log"].append({"seat": len(d["seats"]), "notation": "end"}),
         "service.import_bad_field"),                      # one past the last seat
        (lambda d: d["log"].append({"seat": -1, "notation": "end"}), "service.import_bad_field"),
        (lambda d: d["seats"][0].pop("name"), "service.import_bad_field"),
        (lambda d: d.update(seats=d["seats"][:1], log=[]), "service.import_players"),
        (lambda d: d.update(game="chess"), "service.unknown_game"),
        (lambda d: d.update(options={"target": "3"}), "service.bad_option"),
    ],
)
async def test_damaged_documents_are_refused(env: Env, damage: Any, key: str) -> None:
    await played(env, steps=3)
    document = copy.deepcopy(await env.service.history.export(CHANNEL))
    damage(document)
    with pytest.raises(ServiceError) as error:
        await env.service.history.import_game(GUILD, OTHER, ANN, document)
    assert reason(error) == key


async def test_import_needs_a_free_channel(env: Env) -> None:
    await played(env, steps=1)
    document = await env.service.history.export(CHANNEL)
    with pytest.raises(ServiceError) as error:
        await env.service.history.import_game(GUILD, CHANNEL, ANN, document)
    assert reason(error) == "service.channel_busy"


async def test_a_finished_game_imports_as_finished(env: Env) -> None:
    record = await started(env.service)
    while record.status == "running":
        user = current_user(record)
        _, _, legal = await env.service.turns.legal(CHANNEL, user)
        record = (await env.service.turns.play(CHANNEL, user, legal[1 if len(legal) > 1 else 0]
                                               .notation)).record
    document = await env.service.history.export(CHANNEL)
    assert document["status"] == "finished"
    imported = await env.service.history.import_game(GUILD, OTHER, ANN, document)
    assert imported.status == "finished" and imported.state == record.state
    assert await env.service.core.get(OTHER) is None


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


# -- games with hidden information (issue 24, item 4) ----------------------------------------


HOSTED = Catalogue({**registry.CATALOGUE.engines, **ENGINES}, registry.CATALOGUE.scripts)
"""The toy engines and the hosted games."""


@pytest.fixture
async def full(database: str, tmp_path: Path) -> AsyncIterator[Env]:
    """A service over the toy engines and every hosted game (on each store)."""
    clock = FakeClock()
    store = await open_store(database)
    service = GameService(store, clock, seed_source=lambda: 4321, catalogue=HOSTED,
                          ai_search=in_thread(first_legal))
    try:
        yield Env(clock, store, service, tmp_path / "dingir.sqlite3", database)
    finally:
        await store.close()


def played_out(game: str, seed: int, n_seats: int = 3,
               steps: int = 100_000) -> tuple[list[export.LogLine], State]:
    """Random legal steps of ``game`` from ``seed`` (``random.Random(seed)``) until it ends
    or ``steps`` were played: the log and the state."""
    engine, rng = HOSTED.engine(game), random.Random(seed)
    state = engine.setup(seed, n_seats, {})
    log: list[export.LogLine] = []
    while engine.active(state) and len(log) < steps:
        seat = engine.active(state)[0]
        action = rng.choice(engine.legal(state, seat))
        log.append(export.LogLine(seat, action.notation))
        state = engine.apply(state, seat, action)
    return log, state


def document_of(game: str, seed: int, log: list[export.LogLine], state: State | None,
                seats: Sequence[tuple[str, int | None]], status: str = "finished",
                lang: str = "en") -> dict[str, Any]:
    """A complete export document of a game played from ``seed``, as a file carries it."""
    return as_file(export.build(
        game=game, options={}, seed=seed,
        seats=[export.SeatEntry(i, name, user) for i, (name, user) in enumerate(seats)],
        settings={}, lang=lang, status=status, log=log, state=state))


def as_file(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` as a JSON file carries it."""
    copied: dict[str, Any] = json.loads(json.dumps(document))
    return copied


PLAYERS = [("Ann", ANN.user_id), ("Bob", BOB.user_id), ("Cid", CID.user_id)]


async def stored(store: Store) -> list[tuple[Any, ...]]:
    """Every game row and every action row of the database, as stored."""
    return [tuple(r) for r in [*await store._fetchall("SELECT * FROM games ORDER BY id"),
                               *await store._fetchall(
                                   "SELECT * FROM actions ORDER BY game_id, idx")]]


async def counts(store: Store) -> tuple[int, int]:
    """How many games and action rows the database holds."""
    return ((await store._fetchall("SELECT COUNT(*) FROM games"))[0][0],
            (await store._fetchall("SELECT COUNT(*) FROM actions"))[0][0])


async def civsets_played(env: Env, steps: int, lobby: bool = True) -> GameRecord:
    """A game of Civilizations seated Ann, Bob, Cid, ``steps`` random steps in (its lobby
    opened here unless ``lobby`` is False)."""
    if lobby:
        await env.service.lobby.create(GUILD, CHANNEL, ANN, "civsets", {})
    await env.service.lobby.join(CHANNEL, BOB)
    await env.service.lobby.join(CHANNEL, CID)
    record = await env.service.lobby.start(CHANNEL, ANN.user_id, order=[0, 1, 2])
    rng = random.Random(1)
    for _ in range(steps):
        seat = record.active[0]
        _, _, legal = await env.service.turns.legal(CHANNEL, PLAYERS[seat][1])
        record = (await env.service.turns.play(CHANNEL, PLAYERS[seat][1],
                                               rng.choice(legal).notation)).record
    return record


async def aborted_civsets(env: Env, steps: int = 12) -> GameRecord:
    """A game of Civilizations seated Ann, Bob, Cid, ``steps`` random steps in, aborted by
    its creator."""
    await civsets_played(env, steps)
    return await env.service.admin.abort(CHANNEL, ANN.user_id, False)


async def test_an_aborted_game_with_secrets_exports_what_its_caller_may_see(full: Env) -> None:
    record = await aborted_civsets(full)
    assert record.status == "aborted" and record.state is not None
    document = await full.service.history.export(CHANNEL, BOB.user_id)
    assert document["complete"] is False and document["status"] == "aborted"
    assert "seed" not in document and "state_sha256" not in document
    assert document["view"]["hand"] == record.state["hands"][1]
    with pytest.raises(ServiceError) as error:
        await full.service.history.import_game(GUILD, CHANNEL, ANN,
                                               dict(document, status="running"))
    assert reason(error) == "service.import_incomplete"


async def test_a_game_without_secrets_exports_complete_once_aborted(full: Env) -> None:
    await played(full, steps=3)
    await full.service.admin.abort(CHANNEL, ANN.user_id, False)
    document = await full.service.history.export(CHANNEL, BOB.user_id)
    assert document.get("complete", True) and document["status"] == "aborted"
    assert (await full.service.history.import_game(GUILD, OTHER, BOB, document)).status == "aborted"
    document["status"] = "running"         # nothing hidden: playing on gives nothing away
    assert (await full.service.history.import_game(GUILD, OTHER + 1, BOB, document)).status \
        == "running"


@pytest.mark.parametrize("status", ["running", "paused", "aborted", "finished"])
async def test_a_game_with_secrets_that_is_not_over_is_never_imported(
        full: Env, status: str) -> None:
    """The attack: the complete export an aborted game used to give, its status edited,
    imported where the game was; refused whatever the status says, nothing stored."""
    record = await aborted_civsets(full)
    _, entries = await full.service.history.log(CHANNEL)
    document = as_file(export_document(record, entries))
    document["status"] = status
    before = await stored(full.store)
    with pytest.raises(ServiceError) as error:
        await full.service.history.import_game(GUILD, CHANNEL, ANN, document)
    assert reason(error) == "service.import_hidden_unfinished"
    assert await stored(full.store) == before and await full.service.core.get(CHANNEL) is None


async def test_a_game_with_secrets_imports_only_to_its_end(full: Env) -> None:
    log, state = played_out("civsets", 5)
    document = document_of("civsets", 5, log, state, PLAYERS)
    imported = await full.service.history.import_game(GUILD, CHANNEL, ANN, document)
    assert imported.status == "finished" and imported.state == state
    cut = dict(document, log=document["log"][:-1], state_sha256=None)    # "finished", but
    made_up = dict(document, seed=77, log=[], state_sha256=None)         # not over
    for attempt in (cut, made_up):
        with pytest.raises(ServiceError) as error:
            await full.service.history.import_game(GUILD, OTHER, ANN, attempt)
        assert reason(error) == "service.import_hidden_unfinished"
    assert await full.service.core.get(OTHER) is None


# -- junk (issue 24, item 6) -----------------------------------------------------------------

JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 2**63, -(2**63) - 1, 10**30, 1.5, float("nan"),
    float("inf"), "", " ", "²", "12", "-1", "x" * 5000, "<@123456789012345678>", "@everyone",
    [], [None], [[[[]]]], {}, {"a": {"b": [1, "²"]}}, json.loads("[" * 500 + "]" * 500),
]
PATHS: list[tuple[Any, ...]] = [
    (), ("format",), ("format_version",), ("complete",), ("game",), ("options",),
    ("options", "quiz_seconds"), ("seed",), ("seats",), ("seats", 0), ("seats", 0, "seat"),
    ("seats", 1, "seat"), ("seats", 0, "name"), ("seats", 0, "user_id"),
    ("seats", 2, "user_id"), ("seats", 0, "resigned"), ("settings",),
    ("settings", "reminder_hours"), ("settings", "turn_limit_hours"),
    ("settings", "timeout_policy"), ("settings", "dm_reminders"), ("lang",), ("status",),
    ("log",), ("log", 0), ("log", 0, "seat"), ("log", 0, "notation"), ("log", -1, "seat"),
    ("log", -1, "notation"), ("state_sha256",), ("outcome",),
]


def damaged(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> Any:
    """``document`` with the value at ``path`` replaced by ``value`` (the whole of it for
    an empty path)."""
    if not path:
        return value
    copied = copy.deepcopy(document)
    parent = copied
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return copied


@pytest.mark.slow
@pytest.mark.parametrize("game", ["ur", "civsets"])
async def test_junk_in_any_field_is_refused_with_a_reason(full: Env, game: str) -> None:
    """Every field of a good document (a running game of Ur, a finished one of
    Civilizations) replaced by junk of every type: the import either succeeds or is refused
    with a message in both languages, never an unhandled error; a refusal stores nothing."""
    log, state = played_out(game, 9, steps=40 if game == "ur" else 100_000)
    good = document_of(game, 9, log, state, PLAYERS)
    channel = 1000
    for path in PATHS:
        for value in JUNK:
            document = damaged(good, path, value)
            before = await counts(full.store)
            channel += 1
            try:
                await full.service.history.import_game(GUILD, channel, ANN, document)
            except ServiceError as error:
                assert all(translate(error.reason, lang) for lang in LANGUAGES)
                assert await counts(full.store) == before, (path, value)


def test_junk_documents_and_long_logs_are_refused_by_the_parser() -> None:
    for value in (*JUNK, {"format": export.FORMAT}, {"format": export.FORMAT,
                                                       "format_version": "²"}):
        with pytest.raises(export.DocumentError):
            export.parse(value)
    log, state = played_out("ur", 2, steps=10)
    document = document_of("ur", 2, log, state, PLAYERS)
    document["log"] = [{"seat": 0, "notation": "place ²"}] * 100_000
    parsed = export.parse(document)
    with pytest.raises(export.DocumentError) as error:
        export.replay(registry.get("ur").engine, parsed)
    assert error.value.reason.key == "service.import_bad_step"
    assert error.value.reason.kwargs["line"] in (1, 2)


# -- a long import and the event loop (issue 24, item 7) ---------------------------------------


class SlowRace(RaceGame):
    """The toy game, each step taking a little time, and noting how many times the event
    loop's ticker had ticked when it was applied."""

    def __init__(self) -> None:
        self.ticks = 0
        self.seen: list[int] = []

    def apply(self, state: State, seat: Seat, action: Action | str) -> State:
        self.seen.append(self.ticks)
        time.sleep(0.0005)
        return super().apply(state, seat, action)


async def test_a_long_import_leaves_the_event_loop_free(tmp_path: Path) -> None:
    slow = SlowRace()
    store = await open_store(tmp_path / "dingir.sqlite3")
    service = GameService(store, FakeClock(), catalogue=Catalogue({"race": slow}))
    state = GAME.setup(3, 2, {})
    log = []
    for _ in range(400):                 # turns that add nothing: the race never ends
        log.append(export.LogLine(state["current"], "end"))
        state = GAME.apply(state, state["current"], "end")
    document = document_of("race", 3, log, state, [("Ann", 1), ("Bob", 2)], "running")

    async def ticker() -> None:
        while True:
            slow.ticks += 1
            await asyncio.sleep(0)

    ticking = asyncio.create_task(ticker())
    try:
        record = await service.history.import_game(GUILD, CHANNEL, ANN, document)
    finally:
        ticking.cancel()
        await store.close()
    assert record.state == state and len(slow.seen) >= 400
    # the loop ran while the log was replayed (on the loop it could not have ticked once)
    assert slow.seen[-1] - slow.seen[0] >= 3


async def test_a_game_of_fixed_size_names_its_one_count(full: Env) -> None:
    """After the Flood is played by 3 exactly: an export of 2 seats is refused with that
    count, not "3 to 3 players"."""
    document = document_of("flood", 5, [], None, PLAYERS[:2],
                           status="running")
    with pytest.raises(ServiceError) as error:
        await full.service.history.import_game(GUILD, OTHER, ANN, document)
    assert translate(error.value.reason, "en").endswith("the game needs 3 players.")
    assert translate(error.value.reason, "fr").endswith("le jeu demande 3 joueurs.")
