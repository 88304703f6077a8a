"""The action log, export and import of games."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, fields, replace
from typing import Any

from bot import export
from bot.beginnings import Beginning, first_state
from bot.catalogue import player_count
from bot.engine import Game, Outcome, Report, Seat
from bot.export import Document, SeatEntry
from bot.i18n import translate
from bot.records import (
    GameRecord,
    GameSettings,
    GameStatus,
    LogEntry,
    Player,
    SeatInfo,
    Waiting,
)
from bot.replay import Step, iter_reports
from bot.service.admin import validated_settings
from bot.service.core import Live, ServiceCore, check_options, fail
from bot.store import ActionRow


def export_document(record: GameRecord, log: list[LogEntry],
                    outcome: Outcome | None = None) -> dict[str, Any]:
    """The complete JSON export of a game: seed, options, seats, action log and, once it
    is over, its result (see :mod:`bot.export`)."""
    return export.build(
        game=record.game,
        options=record.options,
        seed=record.seed,
        seats=[export.SeatEntry(s.seat, s.name, s.user_id, s.resigned) for s in record.seats],
        settings=asdict(record.settings),
        lang=record.lang,
        status=record.status,
        log=[export.LogLine(e.seat, e.notation) for e in log],
        state=record.state,
        outcome=outcome.to_json() if outcome is not None else None,
    )


class History:
    """The history part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def latest(self, channel_id: int) -> GameRecord:
        """The channel's game: the active one, else the latest (ServiceError without one)."""
        game_id = await self.core.store.latest_game_id(channel_id)
        if game_id is None:
            raise fail("service.no_game")
        return (await self.core.live(game_id)).record

    async def log(self, channel_id: int) -> tuple[GameRecord, list[LogEntry]]:
        """The channel's game (the active one, else the latest) and its effective log."""
        record = await self.latest(channel_id)
        return record, await self.log_of(record.id)

    async def log_of(self, game_id: int) -> list[LogEntry]:
        """The effective log of the game ``game_id`` (a finished game's, even when its channel
        already holds the next one)."""
        rows = await self.core.store.actions(game_id)
        return [LogEntry(i, r.seat, r.notation, r.turn, r.at) for i, r in enumerate(rows)]

    async def beginning(self, record: GameRecord) -> Beginning:
        """Where ``record``'s log replays from: its first state as stored when it started."""
        return Beginning(record.game, record.seed, len(record.seats), record.options,
                         await self.core.store.start_state(record.id))

    async def reports(self, record: GameRecord, entries: Sequence[LogEntry]) -> list[Report]:
        """What each step of ``entries`` (``record``'s log) did, found by replaying the log
        from the game's beginning (in a thread: slow for a long game)."""
        beginning = await self.beginning(record)
        return await asyncio.to_thread(self._reports, beginning, entries)

    def _reports(self, beginning: Beginning, entries: Sequence[LogEntry]) -> list[Report]:
        engine = self.core.engine(beginning.game)
        steps = [Step(e.seat, e.notation) for e in entries]
        return [report for report, _ in
                iter_reports(engine, first_state(engine, beginning), steps)]

    async def export(self, channel_id: int, user_id: int | None = None) -> dict[str, Any]:
        """The export document of the channel's game (see :mod:`bot.export`): complete once
        the game has finished, when it hides nothing or when it never started; otherwise
        (running, paused or aborted) what ``user_id`` may see."""
        record, entries = await self.log(channel_id)
        engine = self.core.engine(record.game)
        if record.status == "finished" or not engine.meta.hidden_information \
                or record.state is None:
            return export_document(record, entries, self.core.outcome(record))
        seat = None if user_id is None else self.core.seat_of(record, user_id)
        beginning = await self.beginning(record)
        return await asyncio.to_thread(self._partial_export, engine, record, entries, seat,
                                       beginning)

    def _partial_export(self, engine: Game, record: GameRecord, entries: list[LogEntry],
                        seat: Seat | None, beginning: Beginning) -> dict[str, Any]:
        assert record.state is not None
        names = tuple(s.name for s in record.seats)
        log = []
        for entry, report in zip(entries, self._reports(beginning, entries), strict=True):
            line: dict[str, Any] = {"seat": entry.seat, "turn": entry.turn,
                                    "text": translate(report.for_seat(seat), record.lang, names)}
            if entry.seat == seat:
                line["notation"] = entry.notation
            log.append(line)
        return export.build_partial(
            game=record.game, options=record.options,
            seats=[export.SeatEntry(s.seat, s.name, s.user_id, s.resigned) for s in record.seats],
            settings=asdict(record.settings), lang=record.lang, status=record.status, log=log,
            view=engine.view(record.state, seat),
        )

    async def import_game(
        self, guild_id: int | None, channel_id: int, user: Player, document: Any,
        check_seats: Callable[[tuple[SeatEntry, ...]], Awaitable[None]] | None = None,
    ) -> GameRecord:
        """Create a game in ``channel_id`` from an export document, replayed through the
        engine (refused, naming the failing log line, if it does not replay to the same
        state). The importer becomes the creator; seats keep their exported user ids.
        ``check_seats`` (the front end's: may these users play here?) sees the seats of a
        well-formed document before its replay. The document is read and replayed in a
        thread: a long game does not hold up the event loop.

        Ruling: a game with hidden information whose log does not reach the game's end is
        refused whatever its ``status`` says: the seed and the log would let the importer
        play on knowing every hand and draw (and the exporter too, who had the file).
        """
        doc, engine, settings = await asyncio.to_thread(self._read_document, document)
        if check_seats is not None:
            await check_seats(doc.seats)
        replayed = await asyncio.to_thread(export.replay, engine, doc)
        state = replayed.state
        finished = engine.outcome(state) is not None or not engine.active(state)
        if engine.meta.hidden_information and not finished:
            raise fail("service.import_hidden_unfinished")
        if await self.core.channel_game(channel_id) is not None:
            raise fail("service.channel_busy")

        now = self.core.clock.now()
        status: GameStatus = "finished" if finished else "running"
        if doc.status == "aborted":
            status = "aborted"
        record = GameRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, game=doc.game, status=status,
            creator_id=user.user_id, options=doc.options, seed=doc.seed,
            seats=[SeatInfo(s.seat, s.user_id, s.name, s.resigned) for s in doc.seats],
            state=state, version=len(replayed.steps), settings=settings,
            lang=doc.lang if doc.lang in ("en", "fr") else "en", created_at=now,
            turn_started_at=now, turn=engine.turn_number(state), active=engine.active(state),
            ended_at=now if status != "running" else None,
            posted_turn=-1 if status == "running" else engine.turn_number(state),
        )
        record.waiting = {s: Waiting(record.version, now) for s in record.active}
        log = [ActionRow(i + 1, s.seat, s.action.notation, s.turn, s.reversible, now)
               for i, s in enumerate(replayed.steps)]
        record.id = await self.core.store.insert_game(record, replayed.turn_start_state, log,
                                                      replayed.start_state)
        self.core.remember(Live(record, replayed.turn_start_state), record)
        return record

    def _read_document(self, document: Any) -> tuple[Document, Game, GameSettings]:
        """The checked document (its options completed with the defaults), its engine and
        its settings; ServiceError naming what is wrong."""
        doc = export.parse(document)
        engine = self.core.engine(doc.game)
        meta = engine.meta
        if not meta.min_players <= len(doc.seats) <= meta.max_players:
            raise fail("service.import_players", players=player_count(meta))
        known = {f.name for f in fields(GameSettings)}
        settings = validated_settings(
            GameSettings(), {k: v for k, v in doc.settings.items() if k in known})
        return replace(doc, options=check_options(engine, doc.options)), engine, settings
