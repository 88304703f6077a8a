"""A simulated community playing against the real bot: load, soak and faults, with figures.

Usage::

    python benchmarks/community.py --games N --concurrency C --duration S --seed X
        [--mix ur,civsets,flood,mesopotamia] [--pause human|none] [--think SECONDS]
        [--kills K] [--faults] [--operations] [--viewers V] [--json FILE]
    python benchmarks/community.py ... --kills K --processes P --database postgresql[://...]

What it does:

1. starts the local stand-in for Discord (``tests/fakediscord``) in this process and the
   real bot (``python -m dingir``) as a separate process pointed at it;
2. builds ``N`` tables (10 channels per guild) given in turn to the games of ``--mix``
   (Ur alone by default), with the seats of :data:`SEATS` (every 4th table of each game
   with an AI seat among them), and opens a game at each (``/game new``, ``/game join``,
   ``/game start``);
3. plays for ``S`` seconds: whoever a post of the bot mentions has a decision to take
   (the player of a turn message; a player a decision is put to, such as a trade offered
   to them; several at once for sealed bids; the player a public question asks): each
   acts once per call, several at the same time, until nothing is theirs to decide:
   they answer a public question with its buttons, or type their steps with ``/play``
   (choosing among what the bot's autocomplete offers), or open their private panel from
   the post ("Take my turn", "My panel") and press its buttons/select menu (its choices
   lead to the steps behind them); now and then someone asks ``/game board``,
   ``/game status``, ``/mygames`` or ``/stats``, and one game in ten is followed turn by
   turn (``/game follow``, a DM after each turn);
   ``--pause human`` waits a random think time (mean ``--think``) before each step,
   ``none`` goes flat out; at most ``C`` interactions are in flight; a finished game is
   followed by a new one;
4. faults: ``--kills K`` SIGKILLs the bot K times at random moments and restarts it;
   ``--faults`` also drops the gateway (the bot RESUMEs), answers some requests with
   429 and 500, locks the database from another process for a few seconds, and fills
   the disk for a few seconds (the database then lives on a small tmpfs mounted for
   the run; that needs root, and the table says when it was skipped); ``--operations``
   adds a worker stopped for 30 s, board posts refused (400, then 503 six times), a
   second bot started on the same database, the bot away 30 days, the database file
   replaced under it and a backup restored (each as an operator would handle it);
5. afterwards reads the SQLite database directly: every step the stand-in saw
   acknowledged (a ``/play`` or a button answered "played"; not choices, pages or
   **Board**) must be in the action log exactly once (at the index its answer shows,
   else as the player's first step after the decision it was played on), no game may be
   stuck and every game's log must replay to its stored state; with faults, reminders
   must still fire (the bot's clock is moved 25 h ahead at the end);
6. measures the same work in-process (``benchmarks/service_baseline.py``: service apply +
   persist + render, and the machine limits: bare PNG encode, bare SQLite round trip);
7. prints one table and writes it as JSON (``--json``), with the figures of each game of
   the mix apart (``games``).

Refused board posts (``--operations``) go to tables of Ur: elsewhere the next post may be
a decision put to a player, text alone, which a 400 answer pauses (as a channel that refuses
the text). The in-process figures (6.) are Ur's.

``--processes P --database postgresql`` (or an empty database's ``postgresql://...``
address) runs the bot as P processes, shards ``i/P``, on one PostgreSQL database (the
stand-in speaks the gateway to each shard; its guilds go to the shards in turn, and each
table waits only for its own process when one restarts; ``--kills`` hits the last one). It
first measures a bare move transaction on PostgreSQL and on SQLite, then makes the same run
with one process on SQLite, then on PostgreSQL; the PostgreSQL database is checked on a
SQLite copy made by ``dingir.migrate`` (which also replays every game's log), and the CPU
of a throwaway cluster's server is measured; both tables and a comparison are printed.
After the kills, every reminder must be sent once (``reminded_twice``).

``--viewers V`` turns the bot's web pages on and adds V readers who each follow a game's
page (the link under its board post), polling it every ``--viewer-poll`` seconds (5 on
average, as the page does): the ``web`` latency line, and what the readers cost the
players' ``/play``.

``--quiz-tables Q`` adds Q two-player tables of the test game Bazaar (the bot then hosts
it, ``DINGIR_EXTRA_GAMES=tests.bazaar``) where every turn takes a quiz on a 5-second
clock and lets it run out: how late each expiry is announced in the channel, under the
load of the Ur tables, is the deadline precision figure.

The harness moves its objects out of the garbage collector's sight every few seconds
(``gc.freeze``): its own full collections (over every message and record it keeps)
would otherwise stall the stand-in for a second at a time, and count against the bot.

Latency = interaction dispatched -> the bot's first answer (the callback), per kind;
"final" = until the message the user waits for (after a deferral); board = a turn's
last step sent -> its board message created. Timings use the wall clock (benchmarks
only; tests never time anything).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import service_baseline
from bot.i18n import tr
from bot.replay import Step, replay
from bot.shards import shard_of
from dingir.__main__ import event_loop_factory
from dingir.migrate import migrate
from host import registry
from tests import bazaar
from tests.fakediscord import (
    NO_LIMITS,
    BotProcess,
    Channel,
    FakeUser,
    InteractionResult,
    Message,
    ValidationError,
)
from tests.fakediscord.load import LoadDiscord, Table, is_board
from tests.fakediscord.model import InteractionRecord
from tests.test_e2e_game import named_to_play

FIRST_TIMEOUT = 10.0
"""Seconds to wait for the first answer before counting an interaction as failed."""
FINAL_TIMEOUT = 30.0
BOARD_TIMEOUT = 30.0
MAX_STEPS_PER_TURN = 80
QUERIES = ("game board", "game status", "mygames", "stats")
"""What players ask now and then between turns."""
SEATS = {"ur": 3, "civsets": 4, "flood": 3, "mesopotamia": 3}
"""Seats at a table of each game that ``--mix`` may name (an AI seat among them at every
``--ai-every``-th table of the game)."""
FIRST_KINDS = ("play", "autocomplete", "button", "command")
"""The kinds of interaction whose first answers are measured."""
GAME_KINDS = (*FIRST_KINDS, "play_final", "button_final", "command_final", "board")
"""The latencies reported for each game of the mix."""
FOLLOW_SHARE = 0.1
"""Games that a player follows turn by turn (a direct message after every turn)."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
OPERATIONS = ("stop_worker", "post400", "post5xx", "second_instance", "away_30_days",
              "replace_database", "restore_backup")
"""The faults of a bot's life beyond crashes (``--operations``): a worker stopped, posts
refused, a second instance, a month of downtime, the database file replaced, a backup
restored."""
LOCKER = (
    "import sqlite3, sys, time\n"
    "c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)\n"
    "c.execute('BEGIN EXCLUSIVE')\n"
    "print('locked', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
    "c.execute('COMMIT')\n"
    "print('released', flush=True)\n"
)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _head(key: str, **args: Any) -> str:
    """The fixed start of a catalogue text (before its first placeholder)."""
    blanks = {name: "\x00" for name in ("step", "steps", "mention", "n")}
    return tr("en", key, **{**blanks, **args}).split("\x00")[0]


AND_END = tr("en", "discord.and_end", step="\x00").split("\x00")[1]
"""How the label of a panel step that also ends the turn ends ("... and end the turn")."""
STEP_DONE = _head("discord.step_done")
TURN_DONE = _head("discord.turn_done")
MOVED_ON = _head("discord.moved_on")
STALE = (MOVED_ON, _head("service.stale_version"), _head("service.too_late"))
"""What a step on a decision that is over is answered (the board moved on, its clock ran
out)."""
BUSY = _head("discord.store_unavailable")
INTERNAL = _head("discord.internal_error")
GAME_OVER = _head("discord.game_over")
EXPIRED = "did not find"
"""What Bazaar announces when a quiz's clock ran out (tests/bazaar)."""
ANNOUNCED = "📣"
"""How the bot's announcements begin (a turn message may also tell of the expiry)."""
STATUS = {s: tr("en", f"discord.status.{s}") for s in ("lobby", "running", "finished",
                                                        "aborted", "paused")}
NO_GAME = _head("discord.no_game")
NOT_POSTED = tr("en", "discord.board_not_posted")
"""What ends a turn message whose board image was refused (it went out as text alone)."""


def is_turn_message(message: Message) -> bool:
    """A board post, or a turn message that went out as text alone."""
    return is_board(message) or (message.interaction is None and not message.ephemeral
                                 and NOT_POSTED in message.text)


def classify(text: str) -> str:
    """What an answer to a step says: turn_done, step, stale, busy, internal or other."""
    if INTERNAL in text:
        return "internal"
    if BUSY in text:
        return "busy"
    if any(stale in text for stale in STALE):
        return "stale"
    if TURN_DONE in text:
        return "turn_done"
    if text.startswith(STEP_DONE):
        return "step"
    return "other"


def parse_custom_id(custom_id: str) -> tuple[int, int, str] | None:
    """(game id, version, action) of a ``dg:`` custom_id."""
    parts = custom_id.split(":")
    if len(parts) < 4 or parts[0] != "dg" or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return int(parts[1]), int(parts[2]), parts[3]


def component(message: Message | None, action: str) -> str | None:
    """The custom_id of the first component of ``message`` whose action is ``action``."""
    for cid in message.custom_ids if message is not None else []:
        parsed = parse_custom_id(cid)
        if parsed is not None and parsed[2] == action:
            return cid
    return None


def question_ids(message: Message) -> list[str]:
    """The answer buttons of a public question (``q<seat>``) that can still be pressed, if
    ``message`` is one (an answered question keeps its buttons, disabled)."""
    return [c for b in message.buttons if not b.get("disabled") and (c := b.get("custom_id"))
            and (p := parse_custom_id(c)) is not None and re.fullmatch(r"q[0-9]+", p[2])]


def first_payload(message: Message) -> dict[str, Any]:
    """The payload that made ``message`` as members first saw it (for a deferred answer,
    the first edit with content)."""
    return next((p for p in message.history if p.get("content") or p.get("embeds")),
                message.history[0] if message.history else {})


def as_posted(message: Message) -> Message:
    """``message`` with its components as first posted (a public question loses its
    buttons once answered)."""
    return Message(message.id, message.channel, message.author,
                   components=first_payload(message).get("components") or [])


def is_bot_post(message: Message) -> bool:
    """A post of the bot in a channel (not an answer to an interaction)."""
    return not message.ephemeral and message.interaction is None and not message.loading


def panel_ids(message: Message | None) -> tuple[int | None, int | None]:
    """Game id and version carried by a message's components, if any."""
    for cid in message.custom_ids if message is not None else []:
        parsed = parse_custom_id(cid)
        if parsed is not None and parsed[0]:
            return parsed[0], parsed[1]
    return None, None


def is_panel(message: Message | None) -> bool:
    """A turn panel: it has step components (or choices that lead to steps)."""
    return message is not None and any(
        (p := parse_custom_id(c)) is not None and p[2].startswith(("a", "sel", "grp"))
        for c in message.custom_ids)


def is_choice(custom_id: str, values: list[str] | None) -> bool:
    """True for a panel component that opens a choice (the steps behind it), not a step."""
    parsed = parse_custom_id(custom_id)
    return parsed is not None and (parsed[2].startswith("grp") or bool(
        values and values[0].startswith("g")))


def percentiles(values: list[float]) -> dict[str, float]:
    """n, p50, p95, p99, max in milliseconds."""
    if not values:
        return {"n": 0, "p50_ms": 0.0, "p95_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {"n": len(ordered), "p50_ms": at(0.5), "p95_ms": at(0.95), "p99_ms": at(0.99),
            "max_ms": ordered[-1] * 1000}


class Lost(Exception):
    """An answer that never came (the bot was killed, or it timed out)."""


@dataclass
class Ack:
    """A step the stand-in saw the bot accept."""

    channel_id: int
    game_id: int | None
    user_id: int
    idx: int | None
    notation: str | None
    at: float
    game: str
    after: int | None = None
    """The version of the player's decision the step was played on: without ``idx``, the
    step is the player's first in the log after it."""
    and_end: bool = False
    """Pressed as "... and end the turn": the bot may have ended the turn with a second
    step (the row after this one)."""


@dataclass
class Answer:
    """An interaction and the message the user was waiting for."""

    result: InteractionResult
    message: Message | None

    @property
    def text(self) -> str:
        return self.message.text if self.message is not None else ""

    @property
    def choices(self) -> list[Any]:
        return self.result.choices


@dataclass
class Stats:
    """Everything the run counts."""

    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    busy_at: list[float] = field(default_factory=list)
    slow_finals: list[tuple[float, str]] = field(default_factory=list)  # final answers > 3 s

    def fail(self, what: str, game: str | None = None) -> None:
        self.counts["failed"] += 1
        if game is not None:
            self.counts[f"{game}:failed"] += 1
        if len(self.failures) < 40:
            self.failures.append(f"{game}: {what}" if game else what)

    def record(self, kind: str, seconds: float, game: str | None) -> None:
        """A latency of ``kind``, also counted for ``game`` (as ``<game>:<kind>``)."""
        self.latency[kind].append(seconds)
        if game is not None:
            self.latency[f"{game}:{kind}"].append(seconds)


def final_message(rec: InteractionRecord) -> Message | None:
    """The message the user waits for: the answer, the edited panel, or the follow-up."""
    if rec.callback_type == 4:
        return rec.original
    if rec.callback_type == 7 or (rec.edits and rec.type == 3 and rec.callback_type == 6):
        return rec.component_message
    if rec.edits:
        return rec.original
    if rec.followups:
        return rec.followups[0]
    return None


def family(pid: int) -> list[int]:
    """``pid`` and all its descendants (the bot and its workers), from /proc."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def server_cpu(pid: int | None) -> float:
    """CPU seconds of the database server ``pid`` and its children (0 without one)."""
    total = 0.0
    for member in family(pid) if pid else []:
        with contextlib.suppress(OSError):
            total += rss_and_cpu(member)[1]
    return total


def rss_and_cpu(pid: int) -> tuple[int, float]:
    """Resident kB and CPU seconds (user + system) of one process."""
    status = Path(f"/proc/{pid}/status").read_text()
    stat = Path(f"/proc/{pid}/stat").read_text()
    rss = next((int(line.split()[1]) for line in status.splitlines()
                if line.startswith("VmRSS:")), 0)
    fields = stat.rsplit(")", 1)[1].split()
    return rss, (int(fields[11]) + int(fields[12])) / CLK_TCK


async def keep_gc_quiet(stop: asyncio.Event, every: float = 5.0) -> None:
    """Freeze what this process holds every ``every`` seconds (see the module docstring)."""
    while not stop.is_set():
        gc.freeze()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)


class ProcWatch:
    """RSS and CPU of the bot processes (one, or one per range of shards) and their worker
    processes from /proc, sampled every second (across restarts)."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots
        self.samples: list[tuple[float, int, float]] = []   # (time, rss kB, cpu s total)
        self.bot_rss: list[int] = []    # the bot processes alone, same samples
        self.dead_cpu = [0.0] * len(bots)
        self.dead_own_cpu = [0.0] * len(bots)    # the bot processes alone (no workers)
        self._pid: list[int | None] = [None] * len(bots)
        self._last_cpu = [0.0] * len(bots)
        self._last_own_cpu = [0.0] * len(bots)

    def _one(self, index: int) -> tuple[int, int] | None:
        """Sample bot ``index``: its RSS with its workers and alone (None if it is down)."""
        bot = self.bots[index]
        pid = bot.pid if bot.running else None
        if pid is None:
            return None
        rss, cpu, own, own_cpu = 0, 0.0, 0, 0.0
        for member in family(pid):
            try:
                member_rss, member_cpu = rss_and_cpu(member)
            except OSError:
                if member == pid:
                    return None
                continue
            rss, cpu = rss + member_rss, cpu + member_cpu
            if member == pid:
                own, own_cpu = member_rss, member_cpu
        if pid != self._pid[index]:
            self.dead_cpu[index] += self._last_cpu[index]
            self.dead_own_cpu[index] += self._last_own_cpu[index]
            self._pid[index] = pid
        self._last_cpu[index], self._last_own_cpu[index] = cpu, own_cpu
        return rss, own

    def sample(self) -> tuple[int, float] | None:
        found = [self._one(i) for i in range(len(self.bots))]
        if all(f is None for f in found):
            return None
        rss = sum(f[0] for f in found if f is not None)
        cpu = self.cpu_now()[0]
        self.samples.append((time.monotonic(), rss, cpu))
        self.bot_rss.append(sum(f[1] for f in found if f is not None))
        return rss, cpu

    def cpu_now(self) -> tuple[float, float]:
        return (sum(self.dead_cpu) + sum(self._last_cpu),
                sum(self.dead_own_cpu) + sum(self._last_own_cpu))

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far: the bots with their workers, and the bot processes alone."""
        self.sample()
        return self.cpu_now()

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)

    def by_minute(self, start: float, end: float) -> dict[str, list[float]]:
        """RSS in MB at each minute of [start, end]: the bots with their workers, and the
        bot processes alone."""
        marks = [start + 60 * m for m in range(int((end - start) // 60) + 1)]
        picks = [min(range(len(self.samples)), key=lambda i: abs(self.samples[i][0] - t))
                 for t in marks] if self.samples else []
        return {"all": [round(self.samples[i][1] / 1024, 1) for i in picks],
                "bot": [round(self.bot_rss[i] / 1024, 1) for i in picks]}

    def rss_at(self, when: float) -> int | None:
        """The RSS sample nearest to ``when`` (monotonic)."""
        if not self.samples:
            return None
        return min(self.samples, key=lambda s: abs(s[0] - when))[1]


class Harness:
    """The stand-in, the bot process, the faults and the shared counters."""

    def __init__(self, opts: argparse.Namespace, workdir: Path) -> None:
        self.opts = opts
        self.workdir = workdir
        self.rng = random.Random(opts.seed)
        self.fake = LoadDiscord()
        self.disk = self.small_disk(workdir / "disk") if opts.faults else None
        self.db_path = (self.disk or workdir) / "dingir.sqlite3"
        self.clock_file = workdir / "clock"
        args: tuple[str, ...] = ("-m", "dingir")
        if opts.profile:
            args = ("-m", "cProfile", "-o", str(opts.profile), "-m", "dingir")
        env = {"DINGIR_LOG_LEVEL": "WARNING", "DINGIR_SCHEDULER_SECONDS": "10", **NO_LIMITS,
               # its clock file read twice a second, as a bot in production would (the
               # end-to-end tests read it at every reading, a cost here: 2% of the bot)
               "DINGIR_CLOCK_RECHECK": "0.5"}
        if opts.database:
            env["DINGIR_DATABASE_URL"] = opts.database
        if opts.viewers:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                env["DINGIR_WEB_PORT"] = str(probe.getsockname()[1])
        if opts.quiz_tables:
            env["DINGIR_EXTRA_GAMES"] = "tests.bazaar"
            registry.GAMES["bazaar"] = bazaar.ENTRY     # for the checks after the run
        count = opts.processes
        self.bots = [BotProcess(
            self.fake, db_path=self.db_path, clock_file=self.clock_file,
            log_path=workdir / (f"bot{i}.log" if count > 1 else "bot.log"), args=args,
            env=env | ({"DINGIR_SHARDS": f"{i}/{count}"} if count > 1 else {}),
        ) for i in range(count)]
        self.bot = self.bots[-1]
        """The bot process that kills and faults hit (with shards: the last one's)."""
        self.watch = ProcWatch(self.bots)
        self.stats = Stats()
        self.sem = asyncio.Semaphore(opts.concurrency)
        self.up = [asyncio.Event() for _ in self.bots]
        """Each bot process is up (the tables of its shard wait for it)."""
        self.generations = [0] * count
        self.stopping = asyncio.Event()
        self.generation = 0
        self.inflight: set[InteractionRecord] = set()
        self.kills: list[float] = []
        self.downtime = 0.0
        self.lock_windows: list[tuple[float, float]] = []
        self.full_windows: list[tuple[float, float]] = []
        self.gateway_drops = 0
        self.clock_offset = 0.0
        self.post_faulted: set[int] = set()      # channels whose next post was refused
        self.operations: dict[str, Any] = {}     # what each operator-level fault did
        self.drivers: list[Driver] = []

    # -- interactions -------------------------------------------------------------------

    def shard(self, channel: Channel) -> int:
        """The bot process that serves ``channel``'s guild."""
        return shard_of(channel.guild.id if channel.guild else None, len(self.bots))

    async def call(self, kind: str, send: Callable[[], Awaitable[InteractionResult]],
                   *, final: bool = True, game: str | None = None, shard: int = 0) -> Answer:
        """Send one interaction (to the process of ``shard``) and wait for its first answer
        (and the final message); its figures count for ``game`` too."""
        await self.up[shard].wait()
        async with self.sem:
            generation = self.generations[shard]
            result = await send()
            rec = result.record
            self.inflight.add(rec)
            try:
                await self._wait(rec, lambda: rec.callback_type is not None or rec.errors,
                                 (shard, generation), FIRST_TIMEOUT, kind, game)
                if rec.callback_type is None:
                    self.stats.fail(f"{kind} {rec.name}: refused {rec.errors}", game)
                    raise Lost("refused")
                latency = rec.latency or 0.0
                self.stats.record(kind, latency, game)
                self.stats.counts[f"{kind}"] += 1
                if latency > 3.0:
                    self.stats.counts["over_3s"] += 1
                if final and rec.callback_type not in (8, 9):
                    await self._wait(rec, lambda: final_message(rec) is not None,
                                     (shard, generation), FINAL_TIMEOUT, kind + " final", game)
                    assert rec.sent_at is not None
                    waited = time.monotonic() - rec.sent_at
                    self.stats.record(kind + "_final", waited, game)
                    if waited > 3.0:
                        answer = final_message(rec)
                        self.stats.slow_finals.append((time.monotonic(), (
                            f"{waited:.1f}s: {kind} {rec.name} "
                            f"{(answer.content if answer else '')[:100]!r}")))
            finally:
                self.inflight.discard(rec)
        return Answer(result, final_message(rec))

    async def _wait(self, rec: InteractionRecord, done: Callable[[], Any],
                    generation: tuple[int, int], timeout: float, what: str,
                    game: str | None) -> None:
        shard, number = generation
        try:
            await rec.signal.wait_for(lambda: done() or self.generations[shard] != number,
                                      timeout, what)
        except TimeoutError:
            self.stats.fail(f"timeout ({timeout:.0f}s): {what} {rec.name}", game)
            raise Lost("timeout") from None
        if not done():
            self.stats.counts["lost_to_kill"] += 1
            raise Lost("killed")

    # -- the bot and the faults ----------------------------------------------------------

    async def start_bot(self) -> None:
        for bot, up in zip(self.bots, self.up, strict=True):
            await bot.start(timeout=60)
            up.set()

    async def kill_and_restart(self) -> None:
        """SIGKILL the bot, let in-flight waits give up, start it again."""
        await self.restart(signal.SIGKILL)
        self.kills.append(time.monotonic())

    async def restart(self, sig: int, meanwhile: Callable[[], Awaitable[None]] | None = None
                      ) -> None:
        """Stop the bot with ``sig``, let in-flight waits give up, run ``meanwhile`` (what an
        operator does while it is down), start it again."""
        index = len(self.bots) - 1
        self.up[index].clear()
        self.watch.sample()
        started = time.monotonic()
        self.bot.kill(sig)
        await self.bot.wait(60)
        self.generation += 1
        self.generations[index] += 1
        for rec in list(self.inflight):
            rec.signal.notify()
        if meanwhile is not None:
            await meanwhile()
        await self.bot.start(timeout=60)
        self.downtime += time.monotonic() - started
        self.up[index].set()

    def set_clock(self, offset: float) -> None:
        """Move the bot's clock to ``offset`` seconds ahead of the real time."""
        self.clock_offset = offset
        self.clock_file.write_text(str(offset))

    async def stop_worker(self, seconds: float = 30.0) -> None:
        """SIGSTOP one of the bot's worker processes for ``seconds`` (then SIGCONT, if the
        bot did not replace it meanwhile): its job misses its deadline, the worker is
        replaced and the job done again."""
        await asyncio.sleep(10)          # a worker that is warming up is not the point
        workers = children(self.bot.pid or 0)
        if not workers:
            self.operations["worker_stopped"] = "no worker process found"
            return
        pid = self.rng.choice(workers)
        os.kill(pid, signal.SIGSTOP)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
        self.operations["worker_stopped"] = {
            "seconds": seconds, "replaced": pid not in children(self.bot.pid or 0)}

    def refuse_posts(self, status: int, count: int, tables: int) -> None:
        """The next turn message of ``tables`` running tables of Ur is answered ``status``,
        ``count`` times in a row (400: a locked thread or a file too large; 5xx: Discord
        failing). Ur's: in the other games the next post may be a decision put to a player,
        text alone, which a 400 pauses (as a channel that refuses the text)."""
        running = [d for d in self.drivers if d.phase == "play" and d.game == "ur" and
                   d.channel.id not in self.post_faulted]
        for driver in self.rng.sample(running, min(tables, len(running))):
            self.post_faulted.add(driver.channel.id)
            self.fake.fail_next(f"POST /channels/{driver.channel.id}/messages", status,
                                count=count)
        self.operations.setdefault("refused_posts", []).append(
            {"status": status, "times_in_a_row": count, "tables": tables})

    async def second_instance(self) -> None:
        """Start a second bot on the same database: it must exit at once, saying why, and
        leave the first one alone."""
        started = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "dingir", env=self.bot.environment(),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 60)
        except TimeoutError:
            proc.kill()
            err = b"still running after 60 s"
        self.operations["second_instance"] = {
            "exit_code": proc.returncode, "seconds": round(time.monotonic() - started, 1),
            "said": err.decode(errors="replace").strip().splitlines()[-1:]}

    async def away_30_days(self) -> None:
        """Stop the bot for 30 days (its clock jumps while it is down): nobody may lose a
        turn to it, no reminder flood."""
        posts = self.fake.counters.posts

        async def later() -> None:
            self.set_clock(self.clock_offset + 30 * 86400)

        await self.restart(signal.SIGTERM, later)
        await asyncio.sleep(15)
        self.operations["away_30_days"] = {
            "posts_in_15s_after": self.fake.counters.posts - posts}

    async def replace_database(self) -> None:
        """Move another database file to the bot's path while it runs: the bot must stop
        writing at once (players get "try again"); the operator puts the right file back
        and restarts it."""
        aside = self.db_path.with_name(self.db_path.name + ".aside")
        other = self.db_path.with_name("other.sqlite3")
        sqlite3.connect(other).close()
        start = time.monotonic()
        os.replace(self.db_path, aside)
        os.replace(other, self.db_path)
        noticed = await self.wait_log("deleted or replaced", 20)

        async def put_back() -> None:     # its -wal file stayed beside the path: keep it
            os.replace(aside, self.db_path)

        await self.restart(signal.SIGTERM, put_back)
        self.lock_windows.append((start, time.monotonic()))
        self.operations["database_replaced"] = {
            "noticed_after_s": noticed, "down_s": round(time.monotonic() - start, 1)}

    async def restore_backup(self) -> None:
        """Stop the bot (it makes a last backup), lose the database, restore the newest
        backup as README says, start again."""
        folder = self.db_path.parent / "backups"

        async def restore() -> None:
            newest = sorted(folder.glob("dingir-*.sqlite3"))[-1]
            for suffix in ("", "-wal", "-shm"):
                self.db_path.with_name(self.db_path.name + suffix).unlink(missing_ok=True)
            shutil.copy(newest, self.db_path)
            self.operations["backup_restored"] = {"from": newest.name}

        start = time.monotonic()
        await self.restart(signal.SIGTERM, restore)
        self.lock_windows.append((start, time.monotonic()))

    async def wait_log(self, text: str, timeout: float) -> float | None:
        """Seconds until the bot's log shows ``text`` (None if it did not in time)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if text in self.bot.output():
                return round(time.monotonic() - start, 2)
            await asyncio.sleep(0.2)
        return None

    async def drop_gateway(self) -> None:
        """Close the gateway (code 4000, then an abrupt TCP close, then op 7 RECONNECT in
        turn); the bot must RESUME and get the events sent meanwhile."""
        resumes = self.fake.resume_count
        how = self.gateway_drops % 3
        if how == 2:
            self.fake.request_reconnect()
        else:
            await self.fake.drop_gateway(4000 if how == 0 else None)
        self.gateway_drops += 1
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_resumed(resumes=resumes + 1, timeout=30)

    async def lock_database(self) -> None:
        """Another process holds an exclusive lock for --lock-seconds (default 8 s: longer
        than the bot's 5 s busy timeout, so a player must get "try again")."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LOCKER, str(self.db_path), str(self.opts.lock_seconds),
            stdout=asyncio.subprocess.PIPE)
        assert proc.stdout is not None
        await proc.stdout.readline()
        start = time.monotonic()
        await proc.wait()
        self.lock_windows.append((start, time.monotonic()))

    @staticmethod
    def small_disk(path: Path, megabytes: int = 256) -> Path | None:
        """A small tmpfs at ``path`` for the database (None when it cannot be mounted)."""
        path.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs",
                               str(path)], capture_output=True, check=False)
        return path if done.returncode == 0 else None

    def release_disk(self) -> None:
        """Keep a copy of the database next to the run, then unmount the small disk."""
        if self.disk is None:
            return
        for name in self.disk.glob(self.db_path.name + "*"):
            shutil.copy(name, self.workdir / name.name)
        subprocess.run(["umount", "-l", str(self.disk)], capture_output=True, check=False)

    async def fill_disk(self) -> None:
        """Fill the database's file system for --lock-seconds, then free the space: a
        step that cannot be written must get "try again", and nothing half-written."""
        assert self.disk is not None
        filler = self.disk / "filler"

        def fill() -> None:
            with filler.open("wb", buffering=0) as out:  # unbuffered: close cannot fail
                for size in (1 << 20, 1 << 12, 1):
                    with contextlib.suppress(OSError):
                        while True:
                            out.write(b"\0" * size)

        start = time.monotonic()
        await asyncio.to_thread(fill)
        await asyncio.sleep(self.opts.lock_seconds)
        filler.unlink()
        self.full_windows.append((start, time.monotonic()))

    def inject_http_faults(self) -> None:
        seed = self.opts.seed
        self.fake.fail_next("POST /channels/*/messages", 429, count=10**6, rate=0.03,
                            retry_after=0.3, seed=seed)
        self.fake.fail_next("POST /interactions/*", 500, count=10**6, rate=0.005, seed=seed + 1)
        self.fake.fail_next("PATCH /webhooks/*", 500, count=10**6, rate=0.005, seed=seed + 2)
        self.fake.fail_next("POST /webhooks/*", 429, count=10**6, rate=0.01,
                            retry_after=0.2, seed=seed + 3)

    def clear_http_faults(self) -> None:
        for fault in self.fake.faults:
            fault.count = 0

    async def fault_plan(self, start: float) -> None:
        """Kills (and with --faults: gateway drops, a DB lock, HTTP errors) at random times."""
        duration = self.opts.duration
        plan: list[tuple[float, str]] = []
        for _ in range(self.opts.kills):
            plan.append((self.rng.uniform(0.1, 0.85) * duration, "kill"))
        if self.opts.faults:
            self.inject_http_faults()
            plan += [(self.rng.uniform(0.1, 0.9) * duration, "drop") for _ in range(3)]
            plan.append((self.rng.uniform(0.3, 0.7) * duration, "lock"))
            if self.disk is not None:
                plan.append((self.rng.uniform(0.3, 0.8) * duration, "full"))
        if self.opts.operations:
            plan += [(self.rng.uniform(0.1, 0.9) * duration, what) for what in OPERATIONS]
        for offset, what in sorted(plan):
            delay = start + offset - time.monotonic()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), delay)
            if self.stopping.is_set():
                break
            if what == "kill":
                await self.kill_and_restart()
            elif what == "drop":
                await self.drop_gateway()
            elif what == "full":
                await self.fill_disk()
            elif what == "lock":
                await self.lock_database()
            elif what == "post400":
                self.refuse_posts(400, 1, 5)
            elif what == "post5xx":
                self.refuse_posts(503, 6, 3)
            else:
                await getattr(self, what)()

    def in_lock_window(self, when: float) -> bool:
        """Whether a "try again" at ``when`` is explained by a database lock or full disk."""
        return any(a - 1 <= when <= b + 12 for a, b in self.lock_windows + self.full_windows)


class Driver:
    """One table: its players open games of one kind and play them. Whoever a post of the
    bot mentions has a decision to take: they act (each once per call, several at the same
    time when several are called) until nothing is theirs to decide."""

    def __init__(self, harness: Harness, table: Table, game: str, seed: int) -> None:
        self.h = harness
        self.t = table
        self.game = game
        self.rng = random.Random(seed)
        self.game_id: int | None = None
        self.phase = "new"                     # new | play | over
        self.opened = 0
        self.ready = False                     # a first turn message was seen
        self.finished = 0
        self.seen = 0                          # the channel read up to this mark
        self.calls: dict[int, Message | None] = {}   # who was called, by which post
        self.requests: list[Message] = []      # decisions put to someone, still open
        self.turn_owner: int | None = None     # whom the last turn message called alone
        self.answered: dict[int, int] = {}     # the decision version each last played at
        self.turn_ended_at: float | None = None   # a turn's last step sent, until its post

    @property
    def channel(self) -> Channel:
        return self.t.channel

    def player(self, user_id: int) -> FakeUser:
        return next(u for u in self.t.players if u.id == user_id)

    async def call(self, kind: str, send: Callable[[], Awaitable[InteractionResult]],
                   *, final: bool = True) -> Answer:
        return await self.h.call(kind, send, final=final, game=self.game,
                                 shard=self.h.shard(self.channel))

    def fail(self, what: str) -> None:
        self.h.stats.fail(f"table {self.t.index}: {what}"[:300], self.game)

    def count(self, what: str) -> None:
        """Count ``what`` in all and for this table's game."""
        self.h.stats.counts[what] += 1
        self.h.stats.counts[f"{self.game}:{what}"] += 1

    async def think(self) -> None:
        if self.h.opts.pause == "human":
            delay = min(self.rng.expovariate(1 / self.h.opts.think), 5 * self.h.opts.think)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.h.stopping.wait(), delay)
        else:
            await asyncio.sleep(0)

    async def run(self) -> None:
        while not self.h.stopping.is_set():
            try:
                if self.phase == "new":
                    await self.open_game()
                elif self.phase == "over":
                    self.finished += 1
                    self.phase = "new"
                else:
                    await self.play()
            except Lost as lost:
                self.h.stats.counts[f"resync_after_{lost}"] += 1
                await self.resync()
            except (ValidationError, LookupError) as error:
                self.fail(repr(error))
                await self.resync()

    def start_reading(self, mark: int) -> None:
        """Follow the channel from ``mark`` on, for a game just opened (or found again)."""
        self.seen, self.calls, self.phase = mark, {}, "play"
        self.requests, self.turn_owner = [], None

    async def open_game(self) -> None:
        creator, others = self.t.players[0], self.t.players[1:]
        made = await self.call("command", lambda: creator.slash(
            "game new", channel=self.channel, game=self.game, ai=self.t.ai))
        if creator.mention not in made.text:
            raise Lost(f"game new: {made.text[:80]}")
        for user in others:
            await self.call("command", partial(user.slash, "game join", channel=self.channel))
        if self.rng.random() < FOLLOW_SHARE:       # a spectator told of every turn by DM
            await self.call("command", partial(self.t.players[-1].slash, "game follow",
                                               channel=self.channel, each_turn=True))
        mark = self.h.fake.mark()
        await self.call("command", lambda: creator.slash("game start", channel=self.channel))
        self.opened += 1
        self.answered, self.game_id = {}, None
        self.start_reading(mark)

    # -- reading the channel -------------------------------------------------------------

    def unread(self) -> bool:
        messages = self.channel.messages
        return bool(messages) and messages[-1].seq > self.seen

    def read_posts(self) -> None:
        """Read the bot's new posts: turn messages (the board figure, the game's end) and
        the players each one calls."""
        for message in list(self.channel.messages):
            if message.seq <= self.seen:
                continue
            self.seen = message.seq
            if is_bot_post(message):
                self.read(message)

    def read(self, post: Message) -> None:
        posted = as_posted(post)
        gid, _ = panel_ids(posted)
        self.game_id = gid or self.game_id
        if is_turn_message(post):
            self.ready = True
            self.h.stats.counts["boards_seen"] += 1
            if not post.pngs:
                self.h.stats.counts["turn_messages_as_text"] += 1
            elif self.turn_ended_at is not None and post.created_at > self.turn_ended_at:
                waited = post.created_at - self.turn_ended_at
                self.h.stats.record("board", waited, self.game)
                self.h.stats.record("board_ai" if self.t.ai else "board_people", waited, None)
                self.turn_ended_at = None
            if GAME_OVER in post.text:
                self.phase = "over"
        called = [user for user in self.t.players
                  if post.mentions(user.id) or named_to_play(post, user)]
        if is_turn_message(post):
            self.turn_owner = called[0].id if len(called) == 1 else None
        elif called and (component(posted, "me") is not None or (
                question_ids(posted) and self.turn_owner not in [u.id for u in called])):
            self.requests.append(post)      # put to another player: its answer pings nobody
        for user in called:
            self.calls[user.id] = post
            self.count("calls_by_" + ("turn_message" if is_turn_message(post) else
                                      "question" if question_ids(posted) else "decision"))
        if len(called) > 1:
            self.count("posts_calling_several")

    def requests_answered(self) -> bool:
        """True when a decision put to someone was answered (the post that asked lost its
        button): the player whose turn goes on, not pinged for it, watched for the answer
        and plays on (called as by a resync)."""
        answered = [post for post in self.requests if not post.custom_ids]
        for post in answered:
            self.requests.remove(post)
        if answered and self.turn_owner is not None:
            self.calls.setdefault(self.turn_owner, None)
            self.count("calls_by_answered_request")
        return bool(answered)

    def is_answered(self, user_id: int, post: Message | None) -> bool:
        """True when ``user_id`` already played on the decision ``post`` called them to
        (or a later one)."""
        _, version = panel_ids(as_posted(post) if post is not None else None)
        return version is not None and self.answered.get(user_id, -1) >= version

    def open_question(self, user: FakeUser) -> tuple[Message, list[str]] | None:
        """The public question (with its answer buttons) that last called ``user``, if
        they have not answered it yet."""
        for message in reversed(self.channel.messages):
            if is_bot_post(message) and message.mentions(user.id):
                answers = question_ids(message)
                return (message, answers) if answers and not self.is_answered(
                    user.id, message) else None
        return None

    # -- playing ------------------------------------------------------------------------

    async def play(self) -> None:
        """Let every player a post calls act, until the game is over (raises :class:`Lost`
        when nothing is posted for a while although nobody is acting)."""
        sessions: dict[int, asyncio.Task[None]] = {}
        try:
            while not self.h.stopping.is_set():
                self.read_posts()
                self.requests_answered()
                for user_id in [u for u in self.calls if u not in sessions]:
                    post = self.calls.pop(user_id)
                    if self.is_answered(user_id, post):
                        self.count("calls_already_answered")
                        continue
                    task = asyncio.create_task(self.session(self.player(user_id), post))
                    task.add_done_callback(lambda _: self.channel.signal.notify())
                    sessions[user_id] = task
                if not sessions and self.phase == "over":
                    return
                generation = self.h.generation
                try:
                    await self.channel.signal.wait_for(
                        lambda: self.unread() or any(t.done() for t in sessions.values())
                        or any(not post.custom_ids for post in self.requests),
                        BOARD_TIMEOUT, "a post or a player done")
                except TimeoutError:
                    if not sessions:
                        self.nothing_posted(generation)
                for user_id, task in list(sessions.items()):
                    if task.done():
                        del sessions[user_id]
                        task.result()
        finally:
            if sessions:
                await asyncio.gather(*sessions.values(), return_exceptions=True)

    def nothing_posted(self, generation: int) -> None:
        """Nobody acts and the bot posted nothing for :data:`BOARD_TIMEOUT` seconds."""
        if self.h.generation != generation:
            self.h.stats.counts["board_lost_to_kill"] += 1
        elif self.channel.id in self.h.post_faulted:
            self.h.stats.counts["board_late_after_refused_post"] += 1
        else:
            self.fail(f"nothing posted in {BOARD_TIMEOUT:.0f}s and nobody to play")
        raise Lost("board")

    async def session(self, user: FakeUser, post: Message | None) -> None:
        """What ``user`` does when ``post`` calls them (None: a resync found them): answer
        its question with a button, or open their panel from it ("Take my turn", "My
        panel") and press through it, or type their steps with ``/play``, until nothing
        is left for them to decide."""
        if self.rng.random() < self.h.opts.query_share:
            asker = self.rng.choice(self.t.players)
            command = self.rng.choice(QUERIES)
            await self.call("command", lambda: asker.slash(command, channel=self.channel))
        opener = (component(post, "turn") or component(post, "me")) if post else None
        by_panel = opener is not None and self.rng.random() < self.h.opts.button_share
        self.count("sessions_by_panel" if by_panel else "sessions_by_play")
        panel: Message | None = None
        for _ in range(MAX_STEPS_PER_TURN):
            await self.think()
            if self.h.stopping.is_set():
                return
            question = self.open_question(user)
            if question is not None:
                panel = await self.answer_question(user, *question)
                if panel is None:
                    return
            elif by_panel:
                if panel is None:
                    assert post is not None and opener is not None
                    panel = await self.open_panel(user, post, opener)
                    if panel is None:
                        return
                panel = await self.panel_step(user, panel)
                if panel is None:
                    return
            elif not await self.play_step(user):
                return
        raise Lost("turn too long")

    def ack(self, user_id: int, game_id: int | None, idx: int | None, notation: str | None,
            after: int | None, and_end: bool) -> None:
        """A step the bot said it played: found in the log by ``idx`` when the answer
        gave it, else as the player's first step after their decision's version."""
        self.game_id = game_id or self.game_id
        self.h.stats.acks.append(Ack(self.channel.id, self.game_id, user_id, idx, notation,
                                     time.time(), self.game, after, and_end))

    async def _busy(self, answer_sent: float) -> None:
        self.h.stats.counts["busy_answers"] += 1
        self.h.stats.busy_at.append(answer_sent)
        await asyncio.sleep(1.0)

    async def outcome(self, kind: str, user: FakeUser, answer: Answer, what: str,
                      notation: str | None, after: int | None, and_end: bool = False) -> str:
        """Count what the answer to a step says (and acknowledge a played step); raises
        :class:`Lost` on a refusal."""
        sent = answer.result.record.sent_at or time.monotonic()
        said = classify(answer.text)
        if after is not None and said in ("step", "turn_done", "stale"):
            self.answered[user.id] = max(self.answered.get(user.id, -1), after)
        if said in ("step", "turn_done"):
            gid, version = panel_ids(answer.message)
            self.ack(user.id, gid, version, notation, after, and_end)
            if said == "turn_done":
                self.turn_ended_at = sent
        elif said == "busy":
            await self._busy(sent)
        else:
            self.h.stats.counts[f"{kind}_{said}"] += 1
            if said != "stale":
                self.fail(f"{what}: {said}: {answer.text[:120]}")
                raise Lost(said)
        return said

    async def play_step(self, user: FakeUser) -> bool:
        """One typed step: autocomplete, pick one of its choices, ``/play`` it. False when
        there is nothing (more) to decide: the answer shows no panel (a member whose step
        hands them the turn again is named, not pinged: the panel in the answer is their
        call)."""
        answer = await self.call("autocomplete", lambda: user.send_autocomplete(
            "play", "action", "", channel=self.channel), final=False)
        if not answer.choices:
            self.count("play_without_choices")
            return False
        value = self.rng.choice(answer.choices)["value"]
        played = await self.call("play", partial(
            user.slash, "play", channel=self.channel, action=value))
        notation, _, version = value.rpartition(" #v")
        said = await self.outcome("play", user, played, f"/play {value!r}", notation,
                                  int(version))
        if said in ("step", "turn_done"):      # a panel after it: theirs again (a turn won back)
            return is_panel(played.message)
        return True

    @staticmethod
    def next_panel(said: str, answer: Answer) -> Message | None:
        """The panel an answer shows (None: nothing left to decide); raises :class:`Lost`
        for a busy answer without one (who must decide is then found again)."""
        if is_panel(answer.message):
            return answer.message
        if said == "busy":
            raise Lost("busy")
        return None

    async def answer_question(self, user: FakeUser, question: Message,
                              answers: list[str]) -> Message | None:
        """Press one of the answer buttons of a public question; the panel it answers with
        (None when nothing is left to decide)."""
        custom_id = self.rng.choice(answers)
        self.count("questions_answered")
        pressed = await self.call("button", partial(user.press, question, custom_id))
        parsed = parse_custom_id(custom_id)
        assert parsed is not None
        said = await self.outcome("button", user, pressed, f"question {custom_id}", None,
                                  parsed[1])
        return self.next_panel(said, pressed)

    async def open_panel(self, user: FakeUser, post: Message, opener: str) -> Message | None:
        """The private panel opened from ``post`` (None when it offers nothing)."""
        opened = await self.call("button", partial(user.press, post, opener))
        if not is_panel(opened.message):
            self.count("panel_without_steps")
            return None
        return opened.message

    async def panel_step(self, user: FakeUser, panel: Message) -> Message | None:
        """One press on the panel (a step, or a choice that leads to steps; now and then
        **Board** first); the panel it leads to, None when nothing is left to decide."""
        board = next((c for c in panel.custom_ids if c.endswith(":board")), None)
        if board is not None and not panel.shows_image and \
                self.rng.random() < self.h.opts.board_share:
            looked = await self.call("button", partial(user.press, panel, board))
            if is_panel(looked.message):
                assert looked.message is not None
                panel = looked.message
        custom_id, values = self.pick(panel)
        parsed = parse_custom_id(custom_id)
        assert parsed is not None
        if values is None:
            notation = None
            label = next(b.get("label", "") for b in panel.buttons
                         if b.get("custom_id") == custom_id)
        else:
            option = next(o for c in panel.iter_components() for o in c.get("options", [])
                          if o.get("value") == values[0])
            notation, label = option.get("description"), option.get("label", "")

        def press(cid: str = custom_id, vals: list[str] | None = values,
                  on: Message = panel) -> Awaitable[InteractionResult]:
            if vals is None:
                return user.press(on, cid)
            return user.select(on, cid, vals)

        pressed = await self.call("button", press)
        if is_choice(custom_id, values):        # the steps behind a choice: no step yet
            if not is_panel(pressed.message):
                raise Lost("no panel behind a choice")
            return pressed.message
        said = await self.outcome("button", user, pressed, f"button {custom_id}", notation,
                                  parsed[1], label.endswith(AND_END))
        return self.next_panel(said, pressed)

    def pick(self, panel: Message) -> tuple[str, list[str] | None]:
        """A random step of the panel: a step button or a value of its select menu."""
        steps = [c for c in panel.custom_ids if (p := parse_custom_id(c))
                 and p[2].startswith(("a", "grp")) and p[2] != "grp"]   # not Back to the top
        for comp in panel.iter_components():
            if comp.get("type") == 3:
                if steps and self.rng.random() < 0.15:
                    return self.rng.choice(steps), None
                return comp["custom_id"], [self.rng.choice(comp["options"])["value"]]
        if not steps:
            raise Lost("no step on the panel")
        return self.rng.choice(steps), None

    async def resync(self) -> None:
        """Find out again who must decide (autocomplete of each player; /game status)."""
        self.h.stats.counts["resyncs"] += 1
        for attempt in range(30):
            if self.h.stopping.is_set():
                return
            await asyncio.sleep(min(0.5 + attempt * 0.5, 3.0))
            mark = self.h.fake.mark()
            try:
                found = []
                for user in self.t.players:
                    answer = await self.call("autocomplete", partial(
                        user.send_autocomplete, "play", "action", "", channel=self.channel),
                        final=False)
                    if answer.choices:
                        found.append(user.id)
                if found:
                    self.start_reading(mark)
                    self.calls = dict.fromkeys(found)
                    return
                status = await self.call("command", lambda: self.t.players[0].slash(
                    "game status", channel=self.channel))
            except Lost:
                continue
            text = status.text
            if NO_GAME in text or STATUS["finished"] in text or STATUS["aborted"] in text:
                self.phase = "over" if self.phase == "play" else "new"
                return
            if STATUS["lobby"] in text:
                await self._finish_lobby()
                return
        self.fail("could not find who plays")
        self.h.stats.counts["stuck_tables"] += 1
        await self.h.stopping.wait()

    async def _finish_lobby(self) -> None:
        """A lobby left behind by a kill: everyone joins (errors ignored), the creator starts."""
        for user in self.t.players[1:]:
            with contextlib.suppress(Lost):
                await self.call("command", partial(user.slash, "game join",
                                                   channel=self.channel))
        mark = self.h.fake.mark()
        with contextlib.suppress(Lost):
            await self.call("command", lambda: self.t.players[0].slash(
                "game start", channel=self.channel))
            self.opened += 1
        self.answered = {}
        self.start_reading(mark)


def is_expiry(message: Message) -> bool:
    """The bot's announcement that a quiz's clock ran out."""
    return message.text.startswith(ANNOUNCED) and EXPIRED in message.text


class QuizDriver:
    """A table of Bazaar where every turn takes a quiz on a 5-second clock and lets it run
    out: it measures how late the bot announces each expiry. The game is aborted before
    its last auction and a new one opened: a finished game's message (a replay drawn by
    the bot) would weigh on the measure far more often than finished games do in play."""

    SECONDS = 5.0
    ROUNDS = 3

    def __init__(self, harness: Harness, table: Table) -> None:
        self.h = harness
        self.t = table
        self.game_id: int | None = None
        self.ready = False

    async def play(self, user: FakeUser, notation: str) -> Answer:
        answer = await self.h.call("play", partial(user.slash, "play",
                                                   channel=self.t.channel, action=notation))
        if classify(answer.text) not in ("step", "turn_done"):
            raise Lost(f"quiz table: {notation}: {answer.text[:80]}")
        gid, _ = panel_ids(answer.message)
        self.game_id = gid or self.game_id
        self.h.stats.acks.append(Ack(self.t.channel.id, self.game_id, user.id, None, notation,
                                     time.time(), "bazaar"))
        return answer

    async def run(self) -> None:
        while not self.h.stopping.is_set():
            try:
                await self.one_game()
            except Lost as lost:
                self.h.stats.counts["quiz_table_lost"] += 1
                self.h.stats.fail(f"quiz table {self.t.index}: {lost}")
                with contextlib.suppress(Lost):
                    await self.h.call("command", lambda: self.t.players[0].slash(
                        "game abort", channel=self.t.channel))

    async def one_game(self) -> None:
        creator, other = self.t.players
        await self.h.call("command", lambda: creator.slash(
            "game new", channel=self.t.channel, game="bazaar",
            options=f"rounds={self.ROUNDS} quiz_seconds={self.SECONDS:.0f}"))
        await self.h.call("command", partial(other.slash, "game join", channel=self.t.channel))
        await self.h.call("command", lambda: creator.slash(
            "game start", channel=self.t.channel, order="1 2"))
        self.ready = True
        for played in range(self.ROUNDS):
            for user in (creator, other):
                if self.h.stopping.is_set():
                    return
                await self.play(user, "roll")
                mark = self.h.fake.mark()
                asked = await self.play(user, "quiz")
                sent = asked.result.record.sent_at or time.monotonic()
                try:
                    expired = await self.h.fake.wait_for_channel_message(
                        self.t.channel, is_expiry, timeout=self.SECONDS + 20, after=mark)
                except TimeoutError:
                    raise Lost("no expiry announced") from None
                self.h.stats.latency["deadline_announced_late"].append(
                    expired.created_at - (sent + self.SECONDS))
                self.h.stats.acks.append(Ack(self.t.channel.id, self.game_id, user.id, None,
                                             "skip", time.time(), "bazaar"))
                await self.play(user, "end")
            if played + 1 == self.ROUNDS:
                await self.h.call("command", lambda: creator.slash(
                    "game abort", channel=self.t.channel))
                return
            for user in (creator, other):
                await self.play(user, "bid 0")


# -- after the run -----------------------------------------------------------------------


def _safe(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``fn(*args)``, or the error it raised (a figure lost, never the whole run)."""
    try:
        return fn(*args)
    except Exception as error:
        return {"error": repr(error)}


def _route_kind(hit: str) -> str:
    """"429 POST /channels/1/messages" -> "429 POST /channels"."""
    status, method, path = hit.split(" ", 2)
    return f"{status} {method} /{path.split('/')[1]}"


Row = tuple[int, int, str, int, float]
"""A row of the action log: idx, seat, notation, undone, at."""


class StoredLog:
    """The action log and the seats as stored, to find the row of each acknowledged step."""

    def __init__(self, rows: dict[int, list[Row]], seats: dict[tuple[int, int], int],
                 channels: dict[int, list[int]]) -> None:
        self.seats = seats
        self.channels = channels
        self.by_seat: dict[tuple[int, int], list[Row]] = defaultdict(list)
        for gid, items in rows.items():
            for row in items:
                if not row[3]:
                    self.by_seat[(gid, row[1])].append(row)
        self.matched: dict[tuple[int, int], Ack] = {}
        self.floor: dict[tuple[int, int], int] = defaultdict(int)

    def find(self, ack: Ack) -> tuple[int, int] | None:
        """(game id, idx) of the step ``ack`` acknowledged: the row ``ack.idx``, else the
        player's first row after ``ack.after`` (also when the answer showed a later index:
        a panel shown after an AI's answer to the step), else the first of its notation
        not yet matched after the last one matched for that seat; None if there is none."""
        candidates = [ack.game_id] if ack.game_id else sorted(self.channels[ack.channel_id])
        for gid in candidates:
            seat = self.seats.get((gid, ack.user_id))
            if seat is None:
                continue
            mine = self.by_seat[(gid, seat)]
            row = None
            if ack.idx is not None:
                start = bisect.bisect_left(mine, ack.idx, key=lambda r: r[0])
                row = mine[start] if start < len(mine) and mine[start][0] == ack.idx else None
            if row is None and ack.after is not None:
                start = bisect.bisect_right(mine, ack.after, key=lambda r: r[0])
                row = mine[start] if start < len(mine) else None
            elif ack.idx is None:
                start = bisect.bisect_right(mine, self.floor[(gid, seat)], key=lambda r: r[0])
                row = next((r for r in mine[start:] if r[2] == ack.notation
                            and (gid, r[0]) not in self.matched), None)
            if row is not None and (ack.notation is None or row[2] == ack.notation):
                return gid, row[0]
        return None

    def match(self, ack: Ack) -> str:
        """``in_log_once``, ``doubled`` (its row was matched already) or ``lost``."""
        found = self.find(ack)
        if found is None:
            return "lost"
        if found in self.matched:
            return "doubled"
        self.matched[found] = ack
        seat = self.seats[(found[0], ack.user_id)]
        self.floor[(found[0], seat)] = max(self.floor[(found[0], seat)], found[1])
        return "in_log_once"


def verify(db_path: Path, acks: list[Ack], end_wall: float) -> dict[str, Any]:
    """Check the database against what the stand-in saw acknowledged (in all, and per game
    in ``by_game``)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        games = {row[0]: row for row in conn.execute(
            "SELECT id, channel_id, status, active, seed, options, state, game FROM games")}
        seats: dict[tuple[int, int], int] = {}
        ai_seats: set[tuple[int, int]] = set()
        seat_count: Counter[int] = Counter()
        for gid, seat, user, resigned in conn.execute(
                "SELECT game_id, seat, user_id, resigned FROM seats"):
            seat_count[gid] += 1
            if user is None or resigned:
                ai_seats.add((gid, seat))
            else:
                seats[(gid, user)] = seat
        rows: dict[int, list[Row]] = defaultdict(list)
        for row in conn.execute(
                "SELECT game_id, idx, seat, notation, undone, at FROM actions"
                " ORDER BY game_id, idx"):
            rows[row[0]].append(row[1:])
    finally:
        conn.close()
    by_channel: dict[int, list[int]] = defaultdict(list)
    for gid, row in games.items():
        by_channel[row[1]].append(gid)
    log = StoredLog(rows, seats, by_channel)
    per_game: dict[str, Counter[str]] = defaultdict(Counter)
    lost: list[str] = []
    for ack in acks:
        found = log.match(ack)
        per_game[ack.game].update(("acknowledged", found))
        if found == "lost":
            lost.append(f"{ack}")
    unacked, ended = [], 0
    for gid, items in rows.items():
        for idx, seat, notation, undone, _ in items:
            if (gid, seat) in ai_seats or undone or (gid, idx) in log.matched:
                continue
            pair = [log.matched.get((gid, idx - 1)), log.matched.get((gid, idx + 1))]
            if any(ack is not None and ack.and_end and seats.get((gid, ack.user_id)) == seat
                   for ack in pair):
                ended += 1          # the other step of a "... and end the turn" press
                continue
            unacked.append(f"game {gid} step {idx} seat {seat}: {notation}")
            per_game[games[gid][7]]["applied_without_ack"] += 1
    stuck, corrupt = [], []
    for gid, (_, _, status, active, seed, options, state, game) in games.items():
        engine = registry.get(game).engine
        kept = [r for r in rows[gid] if not r[3]]
        per_game[game].update(("games", status))
        if status == "running":
            ai_turn = any((gid, s) in ai_seats for s in json.loads(active))
            last = kept[-1][4] if kept else 0.0
            if ai_turn and end_wall - last > 15:
                stuck.append(gid)
                per_game[game]["stuck"] += 1
        elif status == "paused":         # nobody pauses in the run: a refused channel did
            stuck.append(gid)
            per_game[game]["stuck"] += 1
        if state is None:
            continue
        try:
            rebuilt = replay(engine, seed, seat_count[gid], json.loads(options),
                             [Step(r[1], r[2]) for r in kept])
        except Exception as error:  # a log that does not replay is corruption
            corrupt.append(f"{gid}: {error}")
            per_game[game]["corrupt"] += 1
            continue
        if rebuilt != json.loads(state):
            corrupt.append(f"{gid}: replay differs from the stored state")
            per_game[game]["corrupt"] += 1
    return {
        "acknowledged": len(acks), "in_log_once": len(log.matched), "lost": len(lost),
        "lost_examples": lost[:5],
        "doubled": sum(tally["doubled"] for tally in per_game.values()),
        "applied_without_ack": len(unacked), "unacked_examples": unacked[:10],
        "turns_ended_with_a_step": ended,
        "stuck_games": stuck,
        "corrupt_games": corrupt[:10], "games": len(games),
        "finished": sum(1 for g in games.values() if g[2] == "finished"),
        "steps_logged": sum(len(v) for v in rows.values()),
        "by_game": {game: dict(tally) for game, tally in per_game.items()},
    }


def full_game_steps(games: int = 20) -> float:
    """The mean number of steps of a random 3-player game of Ur (for the size estimate)."""
    engine = registry.get("ur").engine
    total = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(seed, 3, {})
        while active := engine.active(state):
            state = engine.apply(state, active[0], rng.choice(engine.legal(state, active[0])))
            total += 1
    return total / games


def db_figures(db_path: Path) -> dict[str, Any]:
    """File size; bytes per action row and per game (pages from SQLite's dbstat, tables
    and their indexes); the size of a finished game from those."""
    size = sum(p.stat().st_size for p in db_path.parent.glob(db_path.name + "*"))
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
        finished = conn.execute(
            "SELECT count(*), (SELECT count(*) FROM actions WHERE game_id IN"
            " (SELECT id FROM games WHERE status = 'finished'))"
            " FROM games WHERE status = 'finished'").fetchone()
        pages = dict(conn.execute(
            "SELECT coalesce(i.tbl_name, d.name), sum(d.pgsize) FROM dbstat d"
            " LEFT JOIN sqlite_schema i ON i.name = d.name GROUP BY 1").fetchall())
    finally:
        conn.close()
    action_bytes = pages.pop("actions", 0) / actions if actions else 0.0
    game_bytes = sum(v for k, v in pages.items() if k not in ("sqlite_schema",
                                                              "schema_version")) / max(1, games)
    steps = finished[1] / finished[0] if finished[0] else full_game_steps()
    return {
        "file_bytes": size, "games": games, "actions": actions,
        "bytes_per_1000_steps": 1000 * size / actions if actions else 0.0,
        "file_bytes_per_game": size / games if games else 0,
        "bytes_per_action": action_bytes, "bytes_per_game_rows": game_bytes,
        "finished_games": finished[0], "steps_per_finished_game": steps,
        "steps_from": "finished games" if finished[0] else "random playouts (none finished)",
        "bytes_per_finished_game": game_bytes + steps * action_bytes,
    }


async def waiting_channels(h: Harness) -> set[int]:
    """The channels of the running games whose player to move is a person (read while the
    bots run: from the SQLite file, or from PostgreSQL)."""
    if h.opts.database:
        conn = await asyncpg.connect(h.opts.database)
        try:
            return {int(row[0]) for row in await conn.fetch(
                "SELECT g.channel_id FROM games g JOIN seats s ON s.game_id = g.id"
                " AND s.seat = (g.active::json->>0)::bigint"
                " WHERE g.status = 'running' AND s.user_id IS NOT NULL")}
        finally:
            await conn.close()
    conn = sqlite3.connect(f"file:{h.db_path}?mode=ro", uri=True)
    try:
        return {row[0] for row in conn.execute(
            "SELECT g.channel_id FROM games g JOIN seats s ON s.game_id = g.id"
            " AND s.seat = json_extract(g.active, '$[0]')"
            " WHERE g.status = 'running' AND s.user_id IS NOT NULL")}
    finally:
        conn.close()


async def pg_size(url: str) -> dict[str, Any]:
    """The bytes of the PostgreSQL database's tables (with their indexes and TOAST), and
    per 1,000 steps of its log (replaces the SQLite copy's file figures)."""
    conn = await asyncpg.connect(url)
    try:
        size = await conn.fetchval(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n"
            " ON n.oid = c.relnamespace WHERE c.relkind = 'r'"
            " AND n.nspname = current_schema()")
        actions = await conn.fetchval("SELECT count(*) FROM actions")
    finally:
        await conn.close()
    return {"file_bytes": int(size or 0),
            "bytes_per_1000_steps": 1000 * int(size or 0) / actions if actions else 0.0,
            "where": "PostgreSQL tables and indexes"}


async def reminders_check(h: Harness, tables: list[Table]) -> dict[str, Any]:
    """Move the bot's clock 25 h ahead: the channel of every running game whose player to
    move is a person should get a reminder mentioning them (50 channels checked), and only
    one (counted after two more scheduler rounds)."""
    running = await waiting_channels(h)
    sample = [t for t in tables if t.channel.id in running][:50]
    mark = h.fake.mark()
    h.set_clock(h.clock_offset + 25 * 3600)
    got = 0
    for table in sample:
        def reminder(m: Message, players: list[FakeUser] = table.players) -> bool:
            return m.interaction is None and not m.pngs and not m.custom_ids and any(
                m.mentions(p.id) for p in players)
        with contextlib.suppress(TimeoutError):
            await h.fake.wait_for_channel_message(table.channel, reminder, timeout=40,
                                                  after=mark)
            got += 1
    await asyncio.sleep(25)                 # two more rounds of every scheduler (10 s)
    twice = 0
    for table in sample:
        told = [m for m in h.fake.channel_messages(table.channel) if m.seq > mark
                and m.interaction is None and not m.pngs and not m.custom_ids
                and any(m.mentions(p.id) for p in table.players)]
        twice += len(told) > 1
    return {"channels_checked": len(sample), "reminded": got, "reminded_twice": twice}


# -- the run ------------------------------------------------------------------------------


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late the harness's own event loop wakes from 10 ms sleeps (s), until ``stop``:
    the part of every latency figure that is the stand-in's delay, not the bot's."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - before - 0.01)


async def view_pages(h: Harness, rng: random.Random) -> None:
    """A reader of the games' web pages (``--viewers``): follows the page of a game linked
    under a board post for 30 polls, polling it every ``--viewer-poll`` seconds (its page
    does every 5 s), and reads the page and its newest board when the game moved; then
    another game. The time of each of these requests is the ``web`` latency."""
    async with aiohttp.ClientSession() as http:
        while not h.stopping.is_set():
            links = [b["url"] for m in list(h.fake.messages.values()) for b in m.buttons
                     if b.get("url")]
            if not links:
                await asyncio.sleep(1.0)
                continue
            url, version = rng.choice(links), -1
            for _ in range(30):
                await asyncio.sleep(h.opts.viewer_poll * (0.5 + rng.random()))
                if h.stopping.is_set():
                    return
                try:
                    started = time.monotonic()
                    async with http.get(f"{url}data.json?since={version}") as answer:
                        body = await answer.read()
                    h.stats.latency["web"].append(time.monotonic() - started)
                    if answer.status != 200:
                        continue
                    data = json.loads(body)
                    version = data["version"]
                    for part in ("", data["frames"][-1]["src"]):
                        started = time.monotonic()
                        async with http.get(url + part) as answer:
                            await answer.read()
                        h.stats.latency["web"].append(time.monotonic() - started)
                except (aiohttp.ClientError, ValueError):
                    h.stats.counts["web_failed"] += 1   # the bot was killed: it comes back


async def run(opts: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dingir-community-", dir=opts.workdir))
    h = Harness(opts, workdir)
    await h.fake.start()
    mix = opts.mix.split(",")
    tables = h.fake.community(opts.games, players=[SEATS[g] for g in mix],
                              ai_every=opts.ai_every, shards=opts.processes)
    stop_watch = asyncio.Event()
    result: dict[str, Any] = {"command": " ".join(sys.argv), "workdir": str(workdir)}
    try:
        await h.start_bot()
        await h.fake.wait_synced(syncs=opts.processes, timeout=60)
        watcher = asyncio.create_task(h.watch.run(stop_watch))
        quiet = asyncio.create_task(keep_gc_quiet(stop_watch))
        lags: list[float] = []
        lagging = asyncio.create_task(loop_lag(stop_watch, lags))
        await asyncio.sleep(1.0)
        rss_start = h.watch.sample()
        drivers = h.drivers = [Driver(h, t, mix[t.index % len(mix)],
                                      opts.seed * 100_003 + t.index) for t in tables]
        quizzes = [QuizDriver(h, t) for t in h.fake.community(opts.quiz_tables, players=2)]
        setup_started = time.monotonic()
        tasks = [asyncio.create_task(d.run()) for d in drivers]
        tasks += [asyncio.create_task(q.run()) for q in quizzes]
        tasks += [asyncio.create_task(view_pages(h, random.Random(opts.seed * 7 + i)))
                  for i in range(opts.viewers)]
        # The measured window starts once every table has opened its first game.
        while sum(1 for d in drivers if d.ready) < len(drivers) and \
                time.monotonic() - setup_started < max(60, opts.games * 0.2):
            await asyncio.sleep(0.5)
        setup_seconds = time.monotonic() - setup_started
        start, start_wall = time.monotonic(), time.time()
        (cpu_start, main_start), harness_cpu_start = h.watch.cpu(), time.process_time()
        server_start = server_cpu(opts.server_pid)
        acks_start, boards_start = len(h.stats.acks), len(h.fake.counters.board_posts)
        pngs_start = h.fake.counters.pngs
        lat_start = {k: len(v) for k, v in h.stats.latency.items()}
        lag_start = len(lags)
        faults = asyncio.create_task(h.fault_plan(start))
        await asyncio.sleep(opts.duration)
        end, end_wall = time.monotonic(), time.time()
        (cpu_end, main_end), harness_cpu_end = h.watch.cpu(), time.process_time()
        server_end = server_cpu(opts.server_pid)
        acks_end, boards_end = len(h.stats.acks), len(h.fake.counters.board_posts)
        pngs_end = h.fake.counters.pngs
        lat_end = {k: len(v) for k, v in h.stats.latency.items()}
        lag_end = len(lags)
        rss_end = h.watch.sample()
        h.stopping.set()
        await faults
        h.clear_http_faults()
        done, pending = await asyncio.wait(tasks, timeout=FINAL_TIMEOUT + 5)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                h.stats.fail(f"driver crashed: {task.exception()!r}")
        reminders: dict[str, Any] | None = None
        if opts.kills or opts.faults:
            try:
                reminders = await reminders_check(h, tables)
            except Exception as error:  # a figure lost, never the whole run
                reminders = {"error": repr(error)}
        stop_watch.set()
        await watcher
        await quiet
        await lagging
        log_text = "".join(bot.output() for bot in h.bots)
        for bot in h.bots:
            await bot.stop()
        shutdown_text = "".join(bot.output() for bot in h.bots)[len(log_text):]
        db_file = h.db_path
        if opts.database:               # checked on a copy, made and checked by the migration
            db_file = workdir / "copy.sqlite3"
            copied = await migrate(opts.database, f"sqlite:{db_file}")
            result["migration_check"] = copied.lines()
        conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
        try:
            steps_by_game = dict(conn.execute(
                "SELECT g.game, count(*) FROM actions a JOIN games g ON g.id = a.game_id"
                " WHERE a.at BETWEEN ? AND ? GROUP BY g.game", (start_wall, end_wall)))
        finally:
            conn.close()
        steps_window = sum(steps_by_game.values())
        checks = _safe(verify, db_file, h.stats.acks, end_wall)
        window = end - start
        peak = max((s[1] for s in h.watch.samples), default=0)
        rss_minute2 = h.watch.rss_at(start + min(120, window * 0.2))
        latency: dict[str, Any] = {}
        for kind, values in h.stats.latency.items():
            latency[kind] = percentiles(values[lat_start.get(kind, 0):lat_end.get(kind, 0)])
        busy_outside = [t for t in h.stats.busy_at if not h.in_lock_window(t)]
        result.update({
            "options": vars(opts) | {"workdir": str(opts.workdir)},
            "setup_seconds": setup_seconds,
            "window_seconds": window,
            "steps_per_s": steps_window / window,
            "human_steps_acked_per_s": (acks_end - acks_start) / window,
            "turns_per_s": (boards_end - boards_start) / window,
            "pngs_uploaded_per_step": (pngs_end - pngs_start) / max(1, steps_window),
            "latency": latency,
            "rss_kb": {"start": rss_start[0] if rss_start else None, "peak": peak,
                       "at_20pct_or_2min": rss_minute2,
                       "end": rss_end[0] if rss_end else None},
            "rss_growth_after_2min": (rss_end[0] / rss_minute2 - 1)
            if rss_end and rss_minute2 else None,
            "rss_mb_by_minute": h.watch.by_minute(start, end),
            "bot_cpu_s": cpu_end - cpu_start,
            "bot_process_cpu_s": main_end - main_start,
            "bot_cpu_ms_per_step": 1000 * (cpu_end - cpu_start) / max(1, steps_window),
            "database_server_cpu_ms_per_step": 1000 * (server_end - server_start)
            / max(1, steps_window) if opts.server_pid else None,
            "harness_cpu_share": (harness_cpu_end - harness_cpu_start) / window,
            "harness_loop_lag_ms": percentiles(lags[lag_start:lag_end]),
            "db": _safe(db_figures, db_file) | (await pg_size(opts.database)
                                                 if opts.database else {}),
            "counts": dict(h.stats.counts),
            "failed_interactions": h.stats.counts["failed"],
            "failures": h.stats.failures,
            "final_answers_over_3s": [what for at, what in h.stats.slow_finals
                                      if start <= at <= end],
            "verify": checks,
            "faults": {
                "kills": len(h.kills), "downtime_s": h.downtime,
                "gateway_drops": h.gateway_drops, "resumes": h.fake.resume_count,
                "identifies": h.fake.identify_count,
                "http_fault_hits": Counter(_route_kind(x) for x in h.fake.fault_hits),
                "lock_windows_s": [b - a for a, b in h.lock_windows],
                "disk_full_s": [b - a for a, b in h.full_windows] if h.disk is not None
                else "skipped: cannot mount a small file system (needs root)" if opts.faults
                else "not asked (--faults)",
                "busy_answers": h.stats.counts["busy_answers"],
                "busy_outside_lock": len(busy_outside),
                "acks_during_lock": sum(1 for a in h.stats.acks
                                        for lo, hi in h.lock_windows + h.full_windows
                                        if lo <= a.at - start_wall + start <= hi),
                "reminders": reminders,
                "operations": h.operations,
            },
            "bot_log": {"tracebacks": log_text.count("Traceback"),
                        "errors": log_text.count("ERROR"),
                        "tracebacks_at_shutdown": shutdown_text.count("Traceback")},
            "stand_in": {"server_errors": len([e for e in h.fake.server_errors
                                               if "ConnectionResetError" not in e]),
                         "uploads_cut_by_kills": len([e for e in h.fake.server_errors
                                                      if "ConnectionResetError" in e]),
                         "unknown_routes": len(h.fake.unknown_routes),
                         "refused": len([r for r in h.fake.refused if not r.startswith("404")]),
                         "requests": dict(h.fake.requests.most_common())},
            "drivers": {"games_opened": sum(d.opened for d in drivers),
                        "games_finished": sum(d.finished for d in drivers)},
            "games": {game: per_game(game, latency, steps_by_game.get(game, 0) / window,
                                     checks, h.stats.counts,
                                     [d for d in drivers if d.game == game])
                      for game in mix},
        })
    finally:
        for bot in h.bots:
            if bot.running:
                await bot.stop()
        await h.fake.stop()
        h.release_disk()
    if not opts.no_baseline:
        try:
            result["in_process"] = await service_baseline.measure(
                games=min(50, opts.games), steps=opts.baseline_steps, seed=opts.seed,
                workdir=workdir)
        except Exception as error:  # a figure lost, never the whole run
            result["in_process_error"] = repr(error)
            return result
        per_step = result["in_process"]["per_step_ms"]
        result["discord_vs_in_process"] = {
            "bot_cpu_ms_per_step_over_in_process_ms": result["bot_cpu_ms_per_step"] / per_step,
            "play_final_p50_over_in_process": latency.get("play_final", {}).get("p50_ms", 0)
            / per_step,
        }
    return result


def per_game(game: str, latency: dict[str, Any], steps_per_s: float,
             checks: dict[str, Any], counts: Counter[str], drivers: list[Driver]
             ) -> dict[str, Any]:
    """The figures of one game of the mix."""
    found = checks.get("by_game", {}).get(game, {})
    return {
        "tables": len(drivers), "steps_per_s": steps_per_s,
        "latency": {kind: latency.get(f"{game}:{kind}", percentiles([]))
                    for kind in GAME_KINDS},
        **{key: found.get(key, 0) for key in ("acknowledged", "in_log_once", "lost",
                                              "doubled", "applied_without_ack", "stuck",
                                              "corrupt")},
        "games_opened": sum(d.opened for d in drivers),
        "games_finished": sum(d.finished for d in drivers),
        "failed_interactions": counts.get(f"{game}:failed", 0),
        "counts": {key.split(":", 1)[1]: n for key, n in counts.items()
                   if key.startswith(f"{game}:")},
    }


def _section_throughput(r: dict[str, Any]) -> list[str]:
    return [f"{'throughput':<34}{r['steps_per_s']:10.1f} steps/s (all seats, from the log)"
            f"  {r['human_steps_acked_per_s']:.1f} human steps acked/s"
            f"  {r['turns_per_s']:.2f} board posts/s  window {r['window_seconds']:.0f}s"
            f"  ({r['pngs_uploaded_per_step']:.2f} PNGs uploaded per step)"]


def _section_latency(r: dict[str, Any]) -> list[str]:
    lines = [f"{'latency (ms)':<34}{'n':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>10}"]
    for kind in ("play", "autocomplete", "button", "command", "play_final", "button_final",
                 "command_final", "board", "board_ai", "board_people",
                 "deadline_announced_late", "web"):
        s = r["latency"].get(kind)
        if s:
            lines.append(f"  {kind:<32}{s['n']:8d}{s['p50_ms']:9.1f}{s['p95_ms']:9.1f}"
                         f"{s['p99_ms']:9.1f}{s['max_ms']:10.1f}")
    return lines


def _section_games(r: dict[str, Any]) -> list[str]:
    lines = [f"{'per game':<34}first answer p50/p95/p99/max ms: /play | autocomplete | "
             "buttons | commands"]
    for game, g in r["games"].items():
        lat = g["latency"]

        def ms(kind: str, keys: tuple[str, ...] = ("p50", "p95", "p99", "max"),
               lat: dict[str, Any] = lat) -> str:
            return "/".join(f"{lat[kind][k + '_ms']:.0f}" for k in keys)

        lines += [
            f"  {game:<12}{g['tables']:5d} tables{g['steps_per_s']:8.1f} steps/s  "
            + " | ".join(ms(kind) for kind in FIRST_KINDS),
            f"  {'':<34}final p99 /play {ms('play_final', ('p99',))}, buttons "
            f"{ms('button_final', ('p99',))}, commands {ms('command_final', ('p99',))} ms; "
            f"board p50/p95/p99 {ms('board', ('p50', 'p95', 'p99'))} ms",
            f"  {'':<34}acked {g['acknowledged']}, in log once {g['in_log_once']}, lost "
            f"{g['lost']}, doubled {g['doubled']}, applied w/o ack {g['applied_without_ack']}, "
            f"stuck {g['stuck']}, corrupt {g['corrupt']}; "
            f"games finished {g['games_finished']} of {g['games_opened']}; interactions "
            f"failed {g['failed_interactions']}"]
    return lines


def _section_process(r: dict[str, Any]) -> list[str]:
    mb = {k: (v or 0) / 1024 for k, v in r["rss_kb"].items()}
    lag = r["harness_loop_lag_ms"]
    return [f"{'bot RSS (MB)':<34}start {mb['start']:.1f}  peak {mb['peak']:.1f}  "
            f"at 20%/2min {mb['at_20pct_or_2min']:.1f}  end {mb['end']:.1f}  growth "
            f"{100 * (r['rss_growth_after_2min'] or 0):+.1f}% (goal < 10%, without kills)",
            f"{'RSS by minute (MB)':<34}with workers {r['rss_mb_by_minute']['all']}; "
            f"bot alone {r['rss_mb_by_minute']['bot']}",
            f"{'bot CPU':<34}{r['bot_cpu_s']:.1f} s = {r['bot_cpu_ms_per_step']:.2f} ms/step"
            f" (the bot process {r['bot_process_cpu_s']:.1f} s, its workers the rest;"
            f" harness used {100 * r['harness_cpu_share']:.0f}% of a core)",
            f"{'harness loop late (ms)':<34}p50 {lag['p50_ms']:.1f}  p99 {lag['p99_ms']:.1f}  "
            f"max {lag['max_ms']:.1f}  (part of every latency above is the stand-in's)"]


def _section_db(r: dict[str, Any]) -> list[str]:
    db = r["db"]
    return [f"{'database':<34}{db['file_bytes'] / 1e6:.1f} MB for {db['games']} games and "
            f"{db['actions']} steps: {db['bytes_per_1000_steps'] / 1e6:.2f} MB per 1,000 steps"
            f" ({db.get('where', 'SQLite file with its WAL')})",
            f"{'':<34}(rows, SQLite) {db['bytes_per_action']:.0f} B/step, "
            f"{db['bytes_per_game_rows'] / 1024:.1f} KB/game rows -> a finished game of "
            f"{db['steps_per_finished_game']:.0f} steps ~ "
            f"{db['bytes_per_finished_game'] / 1024:.1f} KB ({db['steps_from']})"]


def _section_checks(r: dict[str, Any]) -> list[str]:
    v, c, f = r["verify"], r["counts"], r["faults"]
    return [
        f"{'nothing lost':<34}acked {v['acknowledged']}, in log once {v['in_log_once']}, lost "
        f"{v['lost']}, doubled {v['doubled']}, applied w/o ack {v['applied_without_ack']} "
        f"(besides {v['turns_ended_with_a_step']} steps of '... and end the turn' presses), "
        f"stuck {len(v['stuck_games'])}, corrupt {len(v['corrupt_games'])}",
        f"{'interactions':<34}failed {r['failed_interactions']}, over 3 s "
        f"{c.get('over_3s', 0)} (final answers {len(r['final_answers_over_3s'])}), lost to "
        f"kills {c.get('lost_to_kill', 0)}, resyncs "
        f"{c.get('resyncs', 0)} (after an empty autocomplete for the player to move: "
        f"{c.get('resync_after_no choices', 0)}), stale "
        f"{c.get('play_stale', 0)}+{c.get('button_stale', 0)}",
        f"{'faults':<34}kills {f['kills']} (down {f['downtime_s']:.1f}s), gateway drops "
        f"{f['gateway_drops']} -> resumes {f['resumes']}, http {dict(f['http_fault_hits'])}, "
        f"db locks {[round(x, 1) for x in f['lock_windows_s']]}, disk full "
        f"{f['disk_full_s']} -> busy answers "
        f"{f['busy_answers']} ({f['busy_outside_lock']} outside), acks during lock "
        f"{f['acks_during_lock']}, reminders {f['reminders']}",
        f"{'bot log':<34}tracebacks {r['bot_log']['tracebacks']} (at shutdown "
        f"{r['bot_log']['tracebacks_at_shutdown']}), ERROR lines {r['bot_log']['errors']}; "
        f"stand-in { {k: v for k, v in r['stand_in'].items() if k != 'requests'} }",
        f"{'Discord requests per logged step':<34}"
        + _requests_per_step(r["stand_in"]["requests"], r["verify"].get("steps_logged", 0)),
    ]


def _requests_per_step(requests: dict[str, int], steps: int) -> str:
    """The requests the bot made to the stand-in (the whole run's, lobbies included) per step
    of the log: in all, then the five most frequent routes."""
    if not steps:
        return "no step logged"
    top = ", ".join(f"{name} {count / steps:.2f}" for name, count in list(requests.items())[:5])
    return f"{sum(requests.values()) / steps:.2f} ({top})"


def _section_in_process(r: dict[str, Any]) -> list[str]:
    if "in_process" not in r:
        return []
    d = r["discord_vs_in_process"]
    return [service_baseline.table(r["in_process"]),
            f"{'via Discord / in-process':<34}bot CPU per step "
            f"{d['bot_cpu_ms_per_step_over_in_process_ms']:.2f}x the in-process wall time per "
            f"step; /play final p50 {d['play_final_p50_over_in_process']:.1f}x"]


def table(r: dict[str, Any]) -> str:
    """The one table the run prints (a section whose figures are missing says so)."""
    lines = [f"community run: {r['command']}", ""]
    for section in (_section_throughput, _section_latency, _section_games, _section_process,
                    _section_db, _section_checks, _section_in_process):
        try:
            lines += section(r)
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
            lines.append(f"{section.__name__[9:]:<34}figures missing: {error!r}")
    lines += [f"  failure: {failure}" for failure in r.get("failures", [])[:10]]
    return "\n".join(lines)


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line options (also used by the smoke test)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=0,
                        help="interactions in flight at most (default: one per game)")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pause", choices=("human", "none"), default="human")
    parser.add_argument("--think", type=float, default=4.0, help="mean think time (human)")
    parser.add_argument("--kills", type=int, default=0)
    parser.add_argument("--viewers", type=int, default=0,
                        help="readers of the games' web pages (the bot serves them)")
    parser.add_argument("--viewer-poll", type=float, default=5.0,
                        help="mean seconds between two polls of a reader (its page: 5)")
    parser.add_argument("--quiz-tables", type=int, default=0,
                        help="Bazaar tables whose timed quizzes run out (deadline precision)")
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--operations", action="store_true",
                        help="also the faults of a bot's life (a stopped worker, refused "
                             "posts, a second instance, 30 days away, the database file "
                             "replaced, a backup restored); a run of a few minutes")
    parser.add_argument("--mix", default="ur",
                        help="the games played, tables given to each in turn (a comma list "
                             f"of {', '.join(SEATS)})")
    parser.add_argument("--ai-every", type=int, default=4,
                        help="an AI seat at every N-th table of each game")
    parser.add_argument("--button-share", type=float, default=0.5)
    parser.add_argument("--query-share", type=float, default=0.08)
    parser.add_argument("--board-share", type=float, default=0.1,
                        help="share of panel steps preceded by a press on Board")
    parser.add_argument("--baseline-steps", type=int, default=2000)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--lock-seconds", type=float, default=8.0,
                        help="how long another process locks the database (--faults)")
    parser.add_argument("--profile", type=Path,
                        help="run the bot under cProfile, writing the stats to this file "
                             "(the last start's only when --kills is used)")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, each serving its range of shards (the "
                             "stand-in's guilds go to the shards in turn); with more than "
                             "one, --database is required")
    parser.add_argument("--database", default="",
                        help="a postgresql://... address (an empty database), or "
                             "'postgresql' for a throwaway cluster with PostgreSQL's "
                             "defaults: the run is then made twice, first with one process "
                             "on SQLite, then on PostgreSQL, after a bare PostgreSQL move "
                             "transaction is measured; both sets of figures are printed")
    parser.add_argument("--json", type=Path)
    parser.set_defaults(server_pid=None)   # the throwaway cluster's (its CPU is measured)
    opts = parser.parse_args(argv)
    if opts.processes > 1 and not opts.database:
        parser.error("--processes needs --database (processes share a PostgreSQL database)")
    if opts.database and (opts.faults or opts.operations or opts.viewers or
                          opts.quiz_tables or opts.profile):
        parser.error("--database runs --kills only (not --faults, --operations, --viewers, "
                     "--quiz-tables, --profile)")
    opts.concurrency = opts.concurrency or opts.games
    unknown = set(opts.mix.split(",")) - set(SEATS)
    if unknown:
        parser.error(f"--mix: no such game {', '.join(sorted(unknown))} (of {', '.join(SEATS)})")
    return opts


def passed(result: dict[str, Any]) -> bool:
    """Zero failed interactions, nothing lost or doubled, no stuck or corrupt game."""
    v = result["verify"]
    return bool(result["failed_interactions"] == 0 and v.get("lost") == 0
                and v.get("doubled") == 0 and v.get("stuck_games") == []
                and v.get("corrupt_games") == [])


def report(result: dict[str, Any], text: str, ok: bool, json_path: Path | None) -> int:
    """Print a run's table, write its JSON if asked; the exit status (0 when ``ok``)."""
    print(text)
    if json_path:
        json_path.write_text(json.dumps(result, indent=2, default=str))
    return 0 if ok else 1


async def bare_moves(url: str, folder: Path, count: int = 1000) -> dict[str, Any]:
    """A bare move transaction (``BEGIN``, the 5 KB state ``UPDATE``d, a log row
    ``INSERT``ed, ``COMMIT``), ``count`` times one after the other, on PostgreSQL at
    ``url`` (with asyncpg) and on a SQLite file (WAL, synchronous=FULL): per second and
    ms each, as :mod:`benchmarks.bench_store` measures them."""
    from benchmarks.bench_store import bare_postgres, bare_sqlite
    state = json.dumps({"board": "x" * 5000})
    found: dict[str, Any] = {}
    for name in ("postgresql", "sqlite"):
        async with contextlib.AsyncExitStack() as stack:
            one = await (bare_postgres(stack, url) if name == "postgresql"
                         else bare_sqlite(stack, folder / "bare.sqlite3"))
            started = time.perf_counter()
            for idx in range(count):
                await one(state, idx)
            seconds = time.perf_counter() - started
        found[name] = {"per_s": count / seconds, "ms": 1000 * seconds / count}
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("DROP TABLE bare_games, bare_log")   # the bot's database, after
    finally:
        await conn.close()
    return found


async def compared(opts: argparse.Namespace) -> dict[str, Any]:
    """The bare move transactions, then the same run on SQLite with one process, then on
    PostgreSQL with ``--processes`` (see ``--database``)."""
    cluster = None
    if opts.database == "postgresql":
        from tests.pgcluster import Cluster
        cluster = Cluster.start(durable=True)
        opts.database = await cluster.create_database()
        pid_file = cluster.folder / "data" / "postmaster.pid"
        opts.server_pid = int(pid_file.read_text().split()[0])
    try:
        result: dict[str, Any] = {"command": " ".join(sys.argv)}
        with tempfile.TemporaryDirectory() as folder:
            result["bare"] = await bare_moves(opts.database, Path(folder))
        result["sqlite"] = await run(argparse.Namespace(**vars(opts) | {
            "processes": 1, "database": "", "server_pid": None}))
        result["postgresql"] = await run(argparse.Namespace(**vars(opts) | {
            "no_baseline": True}))
        return result
    finally:
        if cluster is not None:
            cluster.stop()


def comparison(r: dict[str, Any]) -> str:
    """The two runs side by side, with the bare transactions."""
    runs = {"SQLite, 1 process": r["sqlite"],
            f"PostgreSQL, {r['postgresql']['options']['processes']} processes": r["postgresql"]}
    bare = r["bare"]
    names = list(runs)
    lines = [f"compared: {r['command']}",
             f"bare move transaction: PostgreSQL {bare['postgresql']['per_s']:.0f}/s "
             f"({bare['postgresql']['ms']:.2f} ms), SQLite {bare['sqlite']['per_s']:.0f}/s "
             f"({bare['sqlite']['ms']:.2f} ms)", "",
             f"{'':<36}{names[0]:>24}{names[1]:>28}"]

    def row(label: str, value: Callable[[dict[str, Any]], str]) -> None:
        cells = []
        for one in runs.values():
            try:
                cells.append(value(one))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                cells.append("-")
        lines.append(f"{label:<36}{cells[0]:>24}{cells[1]:>28}")

    row("steps per second", lambda x: f"{x['steps_per_s']:.1f}")
    for kind in FIRST_KINDS:
        row(f"first answer p99: {kind} (ms)", lambda x, k=kind: f"{x['latency'][k]['p99_ms']:.0f}")
    row("final answer p99: /play (ms)", lambda x: f"{x['latency']['play_final']['p99_ms']:.0f}")
    row("board post p99 (s)", lambda x: f"{x['latency']['board']['p99_ms'] / 1000:.2f}")
    row("CPU per step, bots + workers (ms)", lambda x: f"{x['bot_cpu_ms_per_step']:.2f}")
    row("CPU per step, PostgreSQL's server (ms)",
        lambda x: f"{x['database_server_cpu_ms_per_step']:.2f}")
    row("database per 1,000 steps (MB)",
        lambda x: f"{x['db']['bytes_per_1000_steps'] / 1e6:.2f}")
    row("acked / in log once", lambda x: f"{x['verify']['acknowledged']}/"
        f"{x['verify']['in_log_once']}")
    row("lost / doubled / stuck / corrupt", lambda x: f"{x['verify']['lost']}/"
        f"{x['verify']['doubled']}/{len(x['verify']['stuck_games'])}/"
        f"{len(x['verify']['corrupt_games'])}")
    row("failed interactions / over 3 s", lambda x: f"{x['failed_interactions']}/"
        f"{x['counts'].get('over_3s', 0)}")
    row("kills (down s)", lambda x: f"{x['faults']['kills']} "
        f"({x['faults']['downtime_s']:.1f})")
    row("reminded / checked / twice", lambda x: f"{x['faults']['reminders']['reminded']}/"
        f"{x['faults']['reminders']['channels_checked']}/"
        f"{x['faults']['reminders']['reminded_twice']}")
    row("tracebacks in the bots' logs", lambda x: f"{x['bot_log']['tracebacks']}")
    pg = r["postgresql"]
    with contextlib.suppress(KeyError, ZeroDivisionError):
        lines += ["", f"PostgreSQL run vs a bare PostgreSQL move transaction: "
                  f"{pg['steps_per_s'] / bare['postgresql']['per_s']:.2f}x its rate in steps "
                  f"per second (group commit shares a commit); /play final p50 "
                  f"{pg['latency']['play_final']['p50_ms'] / bare['postgresql']['ms']:.1f}x "
                  f"its time"]
    lines += [f"  migration check of the PostgreSQL database: {line}"
              for line in pg.get("migration_check", [])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:  # the bot's loop
        if opts.database:
            both = runner.run(compared(opts))
            text = "\n\n".join([table(both["sqlite"]), table(both["postgresql"]),
                                comparison(both)])
            return report(both, text, passed(both["sqlite"]) and passed(both["postgresql"]),
                          opts.json)
        result = runner.run(run(opts))
    return report(result, table(result), passed(result), opts.json)


if __name__ == "__main__":
    sys.exit(main())
