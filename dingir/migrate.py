"""``python -m dingir.migrate SOURCE TARGET``: copy a whole database into an empty one.

For moving from SQLite to PostgreSQL (``sqlite:var/dingir.sqlite3
postgresql://...``), or back: every game with its seats, log, turn-start snapshot and
clocks, every result, rating, follower, preference and absence, in one transaction of
the target. Both are held for the copy (the bot must be stopped: its lock or lease
refuses the command otherwise; every shard's, when the bot runs as several
processes), and the target must be empty: nothing is ever written over. Then it
checks: every table holds the same rows on both sides, every game reads
back the same, and every game's log replays to the state it had in the source (by the
SHA-256 of the state, as ``/game export`` does).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from bot.beginnings import Beginning, first_state
from bot.engine import Game
from bot.export import state_digest
from bot.instance import AlreadyRunning, every_shard, hold
from bot.records import StoreUnavailable
from bot.replay import ReplayError, apply_steps
from bot.store import SchemaTooNew, Store, is_postgres, open_store, shown
from host.registry import CATALOGUE

FIRST = "games"
"""The table the others refer to: copied first."""


class Refused(Exception):
    """The migration did not start (or its check failed); the message says why."""


@dataclass
class Report:
    """What was copied and what the check found."""

    counts: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    not_replayed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report, a line each."""
        copied = ", ".join(f"{table} {n:,}" for table, n in self.counts.items())
        lines = [f"copied: {copied}",
                 f"checked: the rows of {len(self.counts)} tables match; "
                 f"{self.replayed:,} games replay to their state"]
        lines += [f"  not replayed: {reason}" for reason in self.not_replayed]
        lines += [f"  MISMATCH: {problem}" for problem in self.problems]
        return lines


async def copy(source: Store, target: Store) -> dict[str, int]:
    """Copy every table of ``source`` into the empty ``target`` in one transaction; the
    rows copied per table. Raises Refused if ``target`` holds anything."""
    if await source.schema_version() != await target.schema_version():
        raise Refused("the two databases have different schema versions")
    tables = sorted((t for t in await source.tables() if t != "schema_version"),
                    key=lambda t: (t != FIRST, t))
    filled = [t for t in tables if (await target._fetchall(f"SELECT COUNT(*) FROM {t}"))[0][0]]
    if filled:
        raise Refused(f"the target is not empty ({', '.join(filled)}): migrate into a new, "
                      "empty database")
    counts: dict[str, int] = {}
    async with target._transaction() as tx:
        for table in tables:
            names = ", ".join(await source.columns(table))
            rows = [tuple(r) for r in await source._fetchall(f"SELECT {names} FROM {table}")]
            marks = ", ".join("?" for _ in names.split(", "))
            await tx.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
            counts[table] = len(rows)
        await target._after_copy(tx)
    return counts


async def check(source: Store, target: Store, tables: list[str],
                engines: Callable[[str], Game] = CATALOGUE.engine) -> Report:
    """Compare ``target`` with ``source``: the rows of ``tables`` (but the games, compared
    game by game), then every game, and its log replayed from its seed."""
    report = Report()
    for table in tables:
        names = ", ".join(await source.columns(table))
        sql = f"SELECT {names} FROM {table}"
        mine, theirs = await source._fetchall(sql), await target._fetchall(sql)
        report.counts[table] = len(theirs)
        if table != FIRST and Counter(map(tuple, mine)) != Counter(map(tuple, theirs)):
            report.problems.append(f"the rows of {table} differ")
    for (game_id,) in await source._fetchall("SELECT id FROM games ORDER BY id"):
        await _check_game(source, target, int(game_id), engines, report)
    return report


async def _check_game(source: Store, target: Store, game_id: int,
                      engines: Callable[[str], Game], report: Report) -> None:
    before, after = await source.load(game_id), await target.load(game_id)
    if before is None or after != before or after is None:
        report.problems.append(f"game {game_id} reads back differently")
        return
    record = after.record
    if record.state is None:
        return
    beginning = Beginning(record.game, record.seed, len(record.seats), record.options,
                          await target.start_state(game_id))
    try:
        engine = engines(record.game)
        state = apply_steps(engine, first_state(engine, beginning), await target.actions(game_id))
    except (KeyError, ReplayError) as error:
        report.not_replayed.append(f"game {game_id} ({record.game}): {error}")
        return
    if state_digest(state) == state_digest(record.state):
        report.replayed += 1
        return
    again = apply_steps(engine, first_state(engine, beginning), await source.actions(game_id))
    if state_digest(again) != state_digest(state):
        report.problems.append(f"game {game_id}: its log replays differently")
    else:  # the source's own log did not reach its state either: copied as it was
        report.not_replayed.append(f"game {game_id}: its log does not reach its stored "
                                   "state in the source either")


async def migrate(source: str, target: str,
                  engines: Callable[[str], Game] = CATALOGUE.engine) -> Report:
    """Copy ``source`` into the empty ``target`` and check the copy (see the module
    docstring). Raises Refused when it does not start or the check fails."""
    async with AsyncExitStack() as stack:
        stores: list[Store] = []
        for index, where in enumerate((source, target)):
            path = Path(where.removeprefix("sqlite:"))
            if not is_postgres(where):
                if index == 0 and not path.is_file():
                    raise Refused(f"there is no SQLite database at {path}")
                stack.callback(hold(path, every_shard(path), copying=True).close)
            store = await open_store(where, lease=(0,))
            stack.push_async_callback(store.close)
            if held := await store.other_leases():     # a bot on another shard
                shard, pid = held[0]
                raise AlreadyRunning(f"{shown(where)} (shard {shard})", pid,
                                     setting="DINGIR_DATABASE_URL")
            await store.fence()                        # and none starts while it copies
            stores.append(store)
        counts = await copy(stores[0], stores[1])
        report = await check(stores[0], stores[1], list(counts), engines)
        if report.problems:
            raise Refused("\n".join(report.lines()))
        return report


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m dingir.migrate", description="Copy a Dingir database into an empty one "
        "(SQLite to PostgreSQL or back) and check the copy. Stop the bot first.")
    parser.add_argument("source", help="sqlite:PATH or postgresql://...")
    parser.add_argument("target", help="postgresql://... (an empty database) or sqlite:PATH")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate(args.source, args.target))
    except (Refused, AlreadyRunning, SchemaTooNew) as error:
        print(f"dingir.migrate: {error}", file=sys.stderr)
        return 1
    except StoreUnavailable as error:
        print(f"dingir.migrate: cannot use the database ({error.detail})", file=sys.stderr)
        return 1
    print(f"{shown(args.source)} -> {shown(args.target)}")
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
