"""Bad input against the real bot: thousands of interactions nobody should send, per game.

Usage::

    python benchmarks/fuzz_interactions.py [--game ur|civsets|flood|mesopotamia|all]
                                           [--count N] [--seed X] [--concurrency C]
                                           [--tables T] [--steps S] [--json FILE]

Starts the stand-in for Discord and ``python -m dingir``, opens ``T`` tables of each chosen
game (every other one with an AI seat, one player in French) and one more left in its
lobby with all its seats taken, plays some steps on each running one
(by ``/play`` and by the turn panel; from ``--steps`` to 4 times as many, so that the tables
are at different stages of their games) so that there are old board posts and stale panels,
answers any question on a clock of seconds (so that no timer changes a game during the
run), snapshots the database, then sends ``N`` interactions per game drawn at random from:

- ``/play`` with bad notation, odd or oversized Unicode, the game's own steps with a word
  changed (a wrong target, ``²``, ``-1``, a huge number, a word of another game), steps
  of another table or game, each checked illegal for its sender with the engine before
  sending; a legal step of an active seat sent by someone else; ``/play`` where there is
  no game and in DMs; autocomplete with junk typed (``/play`` and the game's own options);
- the game's own commands (``/ur``, ``/flood``, ``/mesopotamia``, read from the synced
  schema) with odd values within Discord's limits (``²``, ``-1``, ``٣``, full-width and
  right-to-left text, the limits of every number);
- ``/game ...`` commands that must be refused (start with a junk seat order, join, leave,
  skip, abort, resign, settings, pause and replace by the wrong people, new with junk
  options, import of junk files, commands where there is no game or in DMs) and read-only
  ones (status, panel, log pages, help, stats, leaderboard);
- at the lobby: ``/game start`` by its creator with seat orders it refuses (``1 1``, ``²``,
  a member who is not seated...), start, join, leave, settings, abort, ``/play`` and the
  game's commands by the wrong people, its Join and Start buttons pressed by them;
- stale buttons (old "Take my turn" posts and questions, turn panels the board has moved
  past) and forged components: custom_ids of Dingir's form with unknown actions, malformed
  or huge arguments (``dg:5:3:thread:x``, ``dg:5:3:a²``, ``q99:0``), other tables' and
  games' ids, versions from the past or the future, select values that are not indices;
  each carried by a copy of a real message (Discord only sends a press of a component its
  message has), never one that would play a step;
- what Discord itself would never send (unknown commands, subcommands and options, wrong
  option types, numbers out of range, strings over the limits, values that are not among
  the choices, missing required options, guild-only commands in DMs, custom_ids outside
  Dingir's namespace): the stand-in's schema validation decides; these are sent anyway
  (``validate=False``) and may be ignored.

Checks, per game: the bot process never dies and answers every interaction Discord would
send within the time limit, privately (ephemeral) and not with the "something went wrong"
text (a refusal that came public because the bot was slow to answer a command whose
success is public, and had deferred it publicly, is counted apart); the games, seats and
action log are identical before and after; the bot log has no traceback while the valid
inputs run (tracebacks during the never-sent inputs are counted apart); afterwards every
table still answers. Prints a table per game, writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.community import (
    final_message,
    is_panel,
    parse_custom_id,
    percentiles,
    report,
)
from bot.engine import Action, Game, GameError
from bot.i18n import LANGUAGES, tr
from bot.notation import localized, parse_typed, whole_number
from bot.records import GameRecord, SeatInfo, ServiceError
from bot.service.lobby import seat_order
from cogs.buttons import TEMPLATE
from cogs.lobby import MAX_AI
from cogs.options import parse_options, parse_order
from host import registry
from tests.fakediscord import (
    EPHEMERAL,
    BotProcess,
    Channel,
    FakeUser,
    InteractionResult,
    Message,
    Upload,
    ValidationError,
)
from tests.fakediscord.load import LoadDiscord, Table

ANSWER_TIMEOUT = 10.0
IGNORED_WAIT = 3.0
SETTLE_SECONDS = 90.0
"""How long the setup waits for AI seats to play and the database to be quiet."""
ODD = [
    "", " ", "\u200b", "\u202eplace b3", "ｐｌａｃｅ Ｂ３", "place\u0000b3", "🏺" * 30,
    "place B3; DROP TABLE games;--", "%s%s%n", "{step}", "{0.__class__}", "\\", "'\"`",
    "place b3\nend", "\ud83d", "é" * 100, "א" * 50, "‮" * 20, "\t\r\n", "null", "None",
    "end " * 25, "-1", "9" * 100, "a" * 100, "<@123456789012345678>", "@everyone",
    "war b3>c3 move 999", "politics a1>a1 0", "exchange z9 face war", "place g7",
    "place a0", "bonus", "ziggurat", "actions", "action chess", "decline", "exchange spare",
    "war b3>c3 move ²", "agriculture b3 ٣", "bid ²", "bid -1", "bid 99999999999999999999",
    "answer ²", "pick ٣", "put ² 1", "march 9999999999999999999999", "undo ²", "annuler",
]
ODD_WORDS = [
    "²", "-1", "0", "99", "9" * 25, "٣", "Ｂ３", "🏺", "\u200b", "é", "x", "1.5", "1e9",
    "B3>", ">", "<@1>", "NaN", "-0", "+1", "0x10", "½", "Ⅻ", "൧", "𝟙",
]
ODD_VALUES = [
    "²", "-1", "²²", "٣", "٣٣", "Ｂ３", "Z9", "A0", "G7", "??", "🏺", "\u202eB3", "9" * 30,
    "-99999999999999999999", "<@1>", "@everyone", "null", "\u200b", "é" * 5, "Ⅻ", "½",
    "1e9", "0x1", "NaN", " ", "\t", "א" * 3,
]
"""Values of the games' own options that name no cell, region or player (nor a seat number,
which would be a real request)."""
JUNK_FILES = [
    b"", b"{", b"[]", b"null", b'{"game": "chess"}', b'{"game": "ur", "seed": "x"}',
    b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "🏺".encode() * 1000,
    json.dumps({"format": "dingir-export", "version": 99}).encode(),
]
GAME_SUBS_REFUSED = ("start", "join", "leave", "skip", "abort", "resign", "settings", "pause")
NO_GAME_SUBS = ("status", "board", "log", "start", "join", "leave", "resign", "abort", "skip",
                "settings", "export", "panel", "pause")
BIG = 10**18 - 1
"""The largest number Dingir's custom_id form carries (18 digits)."""
HUGE = 10**19
FORGED_ACTIONS = ("a", "sel", "pg", "undo", "board", "turn", "me", "q", "log", "join",
                  "start", "rematch", "thread", "zzz", "x", "ab", "selx")
FORGED_ARGS = ("", "0", "1", "7", str(BIG), ":", "1:2", "_", "x", "0:0", "99:1", ":ur",
               ":ur:", "::", "_1", "00000000000000000001")
STEP_ACTIONS = ("a", "sel", "q", "undo")
"""Pressed by the right player at the right version, these play (or take back) a step."""
FOREIGN_VALUES = ("²", "-1", "", "x", "٣", str(HUGE), "1.5", " 1", "1 ", "0x1", "½")
INTERNAL = tuple(tr(lang, "discord.internal_error")[:30] for lang in LANGUAGES)
"""How the internal-error answer begins, in every language."""
PUBLIC_WAIT = "public_after_public_wait"
"""Counts the refusals that came public because the bot, slow to answer a command whose
success is public (``/game start``, ``leave``...), had deferred it publicly: Discord makes
the first answer after a deferral as public as the deferral. Counted apart, not a problem
of reading input."""


def damaged(rng: random.Random, legal: Sequence[Action]) -> str:
    """One of the ``legal`` steps (``end`` if none) with a word changed, dropped or added
    (a wrong target, an odd number), or its verb kept and its last word odd, or a letter
    mistyped: what a hurried player types."""
    words = (rng.choice(legal).notation if legal else "end").split()
    verbs = sorted({a.notation.split()[0] for a in legal} or {"end"})
    roll = rng.random()
    if roll < 0.5 and len(words) > 1:
        words[rng.randrange(1, len(words))] = rng.choice(ODD_WORDS)
    elif roll < 0.65:
        words.append(rng.choice(ODD_WORDS))
    elif roll < 0.75 and len(words) > 1:
        words.pop(rng.randrange(1, len(words)))
    elif roll < 0.9:
        words[0] = rng.choice(verbs)
        if len(words) > 1:
            words[-1] = rng.choice(ODD_WORDS)
    else:
        i = rng.randrange(len(words))
        words[i] = words[i][:-1] + rng.choice("abcdefz0123456789>²٣ ")
    return " ".join(words)


@dataclass
class Live:
    """A table with its game as snapshotted: who plays, who decides, at which version."""

    table: Table
    game: str
    game_id: int
    version: int
    state: dict[str, Any]
    seats: dict[int, FakeUser]
    """The human seats, by seat number."""
    decisions: dict[int, int]
    """Each active seat and the version its decision was put at."""
    creator: FakeUser

    def seat_of(self, user: FakeUser) -> int | None:
        return next((s for s, u in self.seats.items() if u is user), None)

    @property
    def deciders(self) -> list[FakeUser]:
        """The people with a decision to make now."""
        return [self.seats[s] for s in self.decisions if s in self.seats]

    @property
    def people(self) -> list[FakeUser]:
        return [*self.table.players, *([self.table.bystander] if self.table.bystander else [])]


class Stored(NamedTuple):
    """A table's game as the fuzzer reads it from the database while setting up."""

    id: int
    status: str
    state: dict[str, Any]
    active: list[int]
    seats: dict[int, int | None]
    posted: bool
    """The channel was told of the current turn."""


@dataclass
class Lobby:
    """The table left in its lobby, as snapshotted."""

    table: Table
    record: GameRecord
    message: Message
    """The lobby message, with its Join and Start buttons."""

    @property
    def creator(self) -> FakeUser:
        return next(u for u in self.table.players if u.id == self.record.creator_id)


@dataclass
class Case:
    """One fuzz interaction: how to send it, and whether Discord would ever send it."""

    kind: str
    send: Callable[[bool], Awaitable[InteractionResult]]
    valid: bool = True


@dataclass
class Figures:
    """What one game's run found."""

    counts: Counter[str] = field(default_factory=Counter)
    latency: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Fuzzer:
    """Builds the world, the cases, sends them and checks the answers."""

    def __init__(self, opts: argparse.Namespace, workdir: Path) -> None:
        self.opts = opts
        self.games: list[str] = registry.ids() if opts.game == "all" else [opts.game]
        self.rng = random.Random(opts.seed)
        self.fake = LoadDiscord(history_limit=200)
        self.db_path = workdir / "dingir.sqlite3"
        self.bot = BotProcess(self.fake, db_path=self.db_path, log_path=workdir / "bot.log",
                              env={"DINGIR_LOG_LEVEL": "INFO"})
        self.tables: dict[str, list[Table]] = {}
        self.live: dict[str, list[Live]] = {}
        self.lobby_tables: dict[str, tuple[Table, Message]] = {}
        self.lobbies: dict[str, Lobby] = {}
        self.empty: Channel | None = None
        self.strangers: list[FakeUser] = []
        self.old_posts: dict[int, list[Message]] = {}
        """Bot posts with components, by channel."""
        self.stale_panels: list[tuple[FakeUser, Message]] = []
        self.commands: list[dict[str, Any]] = []
        self.figures: dict[str, Figures] = {g: Figures() for g in self.games}
        self.current = Figures()

    def engine(self, game: str) -> Game:
        return registry.get(game).engine

    def problem(self, text: str) -> None:
        self.current.counts["problems"] += 1
        if len(self.current.problems) < 40:
            self.current.problems.append(text[:300])

    # -- world --------------------------------------------------------------------------

    async def answer(self, sent: Awaitable[InteractionResult]) -> Message | None:
        result = await sent
        await result.response(ANSWER_TIMEOUT)
        await result.record.signal.wait_for(lambda: final_message(result.record), ANSWER_TIMEOUT,
                                            "the final answer")
        return final_message(result.record)

    async def setup(self) -> None:
        per_game = self.opts.tables + 1                 # the last one stays a lobby
        every = self.fake.community(per_game * len(self.games), per_guild=per_game * 4 + 1,
                                    ai_every=2, bystanders=True)
        guild = every[0].guild
        self.empty = self.fake.text_channel(guild, "no-game-here")
        self.strangers = [self.fake.user(f"stranger{i}", guild=guild) for i in range(2)]
        for i, game in enumerate(self.games):
            tables = every[i * per_game:(i + 1) * per_game]
            meta = self.engine(game).meta
            players = max(meta.min_players, min(3, meta.max_players))
            for table in tables:          # the community seats 3; fit the game's count
                while len(table.players) + table.ai > players:
                    table.players.pop()
                while len(table.players) + table.ai < players:
                    table.players.append(self.fake.user(f"extra{table.index}-{len(table.players)}",
                                                        guild=table.guild))
                table.players[-1].locale = "fr"
            self.tables[game] = tables[:-1]
        await self.bot.start(timeout=60)
        self.commands = list(await self.fake.wait_synced(timeout=60))
        for i, game in enumerate(self.games):
            table = every[(i + 1) * per_game - 1]
            self.lobby_tables[game] = table, await self.open_lobby(game, table)
        for game, tables in self.tables.items():
            for table in tables:
                await self.open_and_play(game, table)
        for game, tables in self.tables.items():
            for table in tables:
                await self.no_clock_running(game, table)

    def keep_posts(self) -> None:
        """The bot's posts with components at each table (once every turn is posted)."""
        for tables in self.tables.values():
            for table in tables:
                self.old_posts[table.channel.id] = [
                    m for m in self.fake.channel_messages(table.channel)
                    if any(parse_custom_id(c) for c in m.custom_ids)]

    def row(self, table: Table) -> Stored | None:
        """The game of ``table`` as stored."""
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            found = conn.execute("SELECT id, status, state, active, posted_turn >= turn"
                                 " FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                                 (table.channel.id,)).fetchone()
            if found is None:
                return None
            seats = conn.execute("SELECT seat, user_id FROM seats WHERE game_id = ?",
                                 (found[0],)).fetchall()
        finally:
            conn.close()
        game_id, status, state, active, posted = found
        return Stored(game_id, status, json.loads(state) if state else {},
                      json.loads(active), dict(seats), bool(posted))

    async def human_turn(self, table: Table, timed: Game | None = None
                         ) -> tuple[FakeUser, int, dict[str, Any]] | None:
        """A person with a decision in the running game of ``table`` (with ``timed``: a
        decision on a clock of seconds of that engine), their seat and the state, once there
        is one and the channel was told of the last turn (a person does not play faster than
        the board is posted); None when the game is over, or when no such decision comes
        (the AI seats play on; with ``timed``: none is left)."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            found = self.row(table)
            if found is None or found.status not in ("running", "lobby"):
                return None
            people = {u.id: u for u in table.players}
            deciding = found.active if found.status == "running" and found.posted else []
            if timed is not None:
                deciding = [s for s in deciding if (d := timed.deadline(found.state, s))
                            is not None and d.seconds is not None]
                if not deciding and found.status == "running" and found.posted:
                    return None
            humans = [(people[u], s) for s in deciding if (u := found.seats.get(s)) in people]
            if humans:
                user, seat = self.rng.choice(humans)
                return user, seat, found.state
            await asyncio.sleep(0.2)
        return None

    async def open_lobby(self, game: str, table: Table) -> Message:
        """Open a game at ``table`` and fill its seats; its lobby message."""
        ch = table.channel
        message = await self.answer(table.players[0].slash("game new", channel=ch, game=game,
                                                           ai=table.ai))
        assert message is not None
        for user in table.players[1:]:
            await self.answer(user.slash("game join", channel=ch))
        return message

    async def open_and_play(self, game: str, table: Table) -> None:
        """Open a game, play a few steps (with /play and with a panel), keep stale things."""
        ch = table.channel
        await self.open_lobby(game, table)
        await self.answer(table.players[0].slash("game start", channel=ch))
        for _ in range(self.opts.steps + self.rng.randrange(3 * self.opts.steps + 1)):
            turn = await self.human_turn(table)
            if turn is None:
                return
            user, _, _ = turn
            if self.rng.random() < 0.4 and await self.step_by_panel(user, table):
                continue
            choices = await user.autocomplete("play", "action", channel=ch)
            if not choices:
                await asyncio.sleep(0.2)
                continue
            await self.answer(user.slash("play", channel=ch,
                                         action=self.rng.choice(choices)["value"]))

    async def step_by_panel(self, user: FakeUser, table: Table) -> bool:
        """Open the player's panel from the newest turn message and press a step on it (the
        panel then goes stale); False when there is no such message or step."""
        posts = [m for m in self.fake.channel_messages(table.channel)
                 if any(c.endswith(":turn") for c in m.custom_ids)]
        if not posts:
            return False
        take = next(c for c in posts[-1].custom_ids if c.endswith(":turn"))
        panel = await self.answer(user.press(posts[-1], take))
        if panel is None or not is_panel(panel):
            return False
        self.stale_panels.append((user, panel))
        steps = [c for c in panel.custom_ids if (p := parse_custom_id(c)) and p[2].startswith("a")]
        if not steps:
            return False
        await self.answer(user.press(panel, self.rng.choice(steps)))
        return True

    async def no_clock_running(self, game: str, table: Table) -> None:
        """Answer every decision on a clock of seconds (a quiz) so that no timer changes the
        game while the fuzzer runs."""
        engine = self.engine(game)
        for _ in range(30):
            turn = await self.human_turn(table, timed=engine)
            if turn is None:
                return
            user, seat, state = turn
            legal = engine.legal(state, seat)
            if legal:
                await self.answer(user.slash("play", channel=table.channel,
                                             action=legal[0].notation))

    async def settle(self) -> None:
        """Wait until no AI seat is about to move, every turn is posted and the database is
        quiet."""
        previous = None
        for _ in range(int(SETTLE_SECONDS / 0.5)):
            snap = self.snapshot()
            ai_seats = {(r[0], r[1]) for r in snap["seats"] if r[2] is None}
            ai_turn = any(row[2] == "running" and any((row[0], s) in ai_seats
                                                      for s in json.loads(row[5]))
                          for row in snap["games"])
            if not ai_turn and not self.unposted() and snap == previous:
                return
            previous = snap
            await asyncio.sleep(0.5)

    def snapshot(self) -> dict[str, Any]:
        """Everything a bad input must not change."""
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            return {
                "games": conn.execute("SELECT id, channel_id, status, version, state, active,"
                                      " turn, settings, creator_id, waiting FROM games"
                                      " ORDER BY id").fetchall(),
                "seats": conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
                "actions": conn.execute("SELECT game_id, idx, seat, notation, undone FROM actions"
                                        " ORDER BY game_id, idx").fetchall(),
            }
        finally:
            conn.close()

    def unposted(self) -> bool:
        """Is a running game's current turn not yet posted in its channel?"""
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            return bool(conn.execute("SELECT COUNT(*) FROM games WHERE status = 'running'"
                                     " AND posted_turn < turn").fetchone()[0])
        finally:
            conn.close()

    def load_live(self, snap: dict[str, Any]) -> None:
        by_channel = {row[1]: row for row in snap["games"] if row[2] == "running"}
        seats: dict[int, dict[int, int | None]] = {}
        for game_id, seat, user_id, *_ in snap["seats"]:
            seats.setdefault(game_id, {})[seat] = user_id
        for game, (table, message) in self.lobby_tables.items():
            row = next(r for r in snap["games"] if r[1] == table.channel.id)
            taken = [SeatInfo(r[1], r[2], r[3]) for r in snap["seats"] if r[0] == row[0]]
            record = GameRecord(id=row[0], guild_id=None, channel_id=row[1], game=game,
                                status=row[2], creator_id=row[8], options={}, seed=0,
                                seats=taken, state=None, version=row[3])
            self.lobbies[game] = Lobby(table, record, message)
        for game, tables in self.tables.items():
            self.live[game] = []
            for table in tables:
                row = by_channel.get(table.channel.id)
                if row is None:
                    continue
                gid, _, _, version, state, active, _, _, creator_id, waiting = row
                people = {u.id: u for u in table.players}
                humans = {s: people[u] for s, u in seats.get(gid, {}).items() if u in people}
                waits = json.loads(waiting)
                decisions = {s: int(waits[str(s)][0]) if str(s) in waits else version
                             for s in json.loads(active)}
                self.live[game].append(Live(table, game, gid, version, json.loads(state), humans,
                                            decisions, people[creator_id]))

    def all_live(self) -> list[Live]:
        return [live for lives in self.live.values() for live in lives]

    def live_by_id(self, game_id: int) -> Live | None:
        return next((x for x in self.all_live() if x.game_id == game_id), None)

    # -- texts --------------------------------------------------------------------------

    def odd_text(self, live: Live, limit: int = 100) -> str:
        pick = self.rng.random()
        if pick < 0.35:
            return self.rng.choice(ODD)[:limit]
        if pick < 0.55:
            return "".join(chr(self.rng.choice([self.rng.randrange(32, 127),
                                                self.rng.randrange(0x80, 0x2FFF),
                                                self.rng.randrange(0x1F300, 0x1FAFF)]))
                           for _ in range(self.rng.randrange(1, limit + 1)))
        return self.mutated(live)[:limit]

    def legal_of(self, live: Live, seat: int | None = None) -> list[Action]:
        """The legal steps of ``seat`` (an active seat by default) in the snapshotted state."""
        if seat is None:
            if not live.decisions:
                return []
            seat = self.rng.choice(list(live.decisions))
        return self.engine(live.game).legal(live.state, seat)

    def mutated(self, live: Live) -> str:
        """A legal step of the game with a word changed, dropped or added (a wrong target,
        an odd number), in English or French; or a legal step of another table or game."""
        rng = self.rng
        if rng.random() < 0.2:
            other = rng.choice(self.all_live())
            legal = self.legal_of(other)
            if legal:
                return rng.choice(legal).notation
        text = damaged(rng, self.legal_of(live))
        return localized(live.game, text, "fr") if rng.random() < 0.3 else text

    def is_legal_for(self, live: Live, user: FakeUser, text: str) -> bool:
        """Would ``text`` by ``user`` be an accepted step (the fuzzer must never send one)?"""
        seat = live.seat_of(user)
        if seat is None:
            return False
        if text.strip().lower() in ("undo", "annuler"):
            return True                       # may take back a step of this turn
        if seat not in live.decisions:
            return False
        try:
            parse_typed(self.engine(live.game), live.state, seat, text, user.locale[:2])
        except GameError:
            return False
        except Exception:  # the bot must cope; the fuzzer only avoids real steps
            return False
        return True

    def someone(self, live: Live, *, not_deciding: bool = False) -> FakeUser:
        people = live.people
        if not_deciding:
            people = [p for p in people if p not in live.deciders]
        return self.rng.choice(people)

    # -- cases --------------------------------------------------------------------------

    def case(self, game: str) -> Case | None:
        """One random case for ``game`` (None when the draw would be a real step: skipped)."""
        rng = self.rng
        live = rng.choice(self.live[game])
        ch = live.table.channel
        empty = self.empty
        assert empty is not None
        roll = rng.random()
        if roll < 0.18:   # /play with bad or illegal text by anyone at the table
            user = self.someone(live) if rng.random() < 0.5 or not live.deciders else \
                rng.choice(live.deciders)
            text = self.odd_text(live)
            if self.is_legal_for(live, user, text):
                return None
            return Case("play_bad", lambda v: user.slash("play", channel=ch, action=text,
                                                        validate=v))
        if roll < 0.25:   # a legal step of a deciding seat, sent by somebody else
            legal = self.legal_of(live)
            text = rng.choice(legal).notation if legal else "end"
            user = self.someone(live, not_deciding=True)
            return Case("play_out_of_turn", lambda v: user.slash("play", channel=ch,
                                                                action=text, validate=v))
        if roll < 0.31:   # autocomplete with junk typed, anywhere
            return self.autocomplete_case(live)
        if roll < 0.40:   # /game commands that must be refused at a running game
            return self.refused_case(live)
        if roll < 0.46:   # commands where there is no game: an empty channel, or a DM
            return self.no_game_case(live)
        if roll < 0.56:   # the game's own commands with odd values
            return self.game_command_case(live) or self.read_only_case(live)
        if roll < 0.60:   # junk files for /game import
            user = self.someone(live)
            where = rng.choice([ch, empty])
            blob = rng.choice(JUNK_FILES)
            name = rng.choice(["game.json", "x.png", "🏺.json", "a" * 90 + ".json"])
            return Case("import_junk", lambda v: user.slash(
                "game import", channel=where, file=Upload(name, blob), validate=v))
        if roll < 0.70:   # stale buttons: old "Take my turn" posts, questions, stale panels
            return self.stale_case(live)
        if roll < 0.82:   # forged components of Dingir's form
            return self.forged_case(live)
        if roll < 0.86:   # valid read-only commands
            return self.read_only_case(live)
        if roll < 0.92:   # at the lobby
            return self.lobby_case(self.lobbies[game], live)
        return self.invalid_case(live)

    def lobby_case(self, lobby: Lobby, live: Live) -> Case | None:
        """Input a full lobby must refuse: a seat order it cannot follow, or anything by
        the wrong people (never a start by its creator with an order it follows, a join by
        someone not seated, a leave by someone seated)."""
        rng = self.rng
        ch, creator = lobby.table.channel, lobby.creator
        seated = [u for u in lobby.table.players if u is not creator]
        others = [*seated, *self.strangers, *([lobby.table.bystander]
                                               if lobby.table.bystander else [])]
        user = rng.choice(others)
        kind = rng.choice(["start_order", "start", "start_button", "join", "join_button",
                           "leave", "settings", "abort", "play", "game_command"])
        if kind == "start_order":
            order = rng.choice([
                "1 1", "0", "9", "-1", "²", "٣", str(HUGE), "1 2 3 4 5 6 7", "2 2 1",
                f"<@{self.strangers[0].id}>", f"<@{creator.id}> 1", "<@99999999999999999999>",
                " ".join(str(rng.randrange(12)) for _ in range(rng.randrange(1, 5)))])
            try:
                seat_order(lobby.record, parse_order(order), 0)
            except ServiceError:
                return Case("lobby_start_order", lambda v: creator.slash(
                    "game start", channel=ch, order=order, validate=v))
            return None                        # an order it follows: it would start
        if kind in ("start_button", "join_button"):
            wanted = "start" if kind == "start_button" else "join"
            pressed = next(c for c in lobby.message.custom_ids if c.endswith(f":{wanted}"))
            user = rng.choice(others if wanted == "start" else lobby.table.players)
            return Case(f"lobby_{kind}", lambda v: user.press(lobby.message, pressed,
                                                             validate=v))
        if kind == "join":
            user = rng.choice(lobby.table.players)
        if kind == "leave":
            user = rng.choice(self.strangers)
        options: dict[str, Any] = {
            "start": {"order": rng.choice(["", "1 2 3", "²"])},
            "settings": {"add_ai": 1} if rng.random() < 0.5 else {"reminder_hours": 2.0},
            "play": {"action": self.odd_text(live)},
        }.get(kind, {})
        if kind == "game_command":
            case = self.game_command_case(replace(live, table=lobby.table, decisions={}))
            if case is not None:
                return Case(f"lobby_{case.kind}", case.send)
            kind = "play"
            options = {"action": self.odd_text(live)}
        command = "play" if kind == "play" else f"game {kind}"
        return Case(f"lobby_{kind}", lambda v: user.slash(command, channel=ch, validate=v,
                                                         **options))

    def autocomplete_case(self, live: Live) -> Case:
        rng = self.rng
        user = self.someone(live)
        where = rng.choice([live.table.channel, live.table.channel, self.empty])
        assert where is not None
        typed = self.odd_text(live)
        own = [(f"{live.game} {sub['name']}", opt["name"]) for sub in self.group(live.game)
               for opt in sub.get("options", []) if opt.get("autocomplete")]
        command, option = rng.choice(own) if own and rng.random() < 0.4 else ("play", "action")
        return Case("autocomplete", lambda v: user.send_autocomplete(
            command, option, typed, channel=where, validate=v))

    def refused_case(self, live: Live) -> Case:
        rng = self.rng
        ch = live.table.channel
        sub = rng.choice((*GAME_SUBS_REFUSED, "replace", "new", "start_order"))
        user = self.someone(live)
        if sub in ("abort", "settings", "pause", "replace") and user is live.creator:
            user = live.table.bystander or self.strangers[0]
        if sub == "resign" and user in live.table.players:
            user = live.table.bystander or self.strangers[0]
        options: dict[str, Any] = {}
        if sub == "settings":
            options = {"reminder_hours": rng.choice([1.0, 720.0, 48.5])}
        elif sub == "replace":
            options = {"seat": rng.randint(1, 6)}
            if rng.random() < 0.5:
                options["player"] = rng.choice([*self.strangers, *live.table.players])
        elif sub == "new":
            options = {"game": rng.choice(registry.ids()), "options": self.odd_text(live, 50)}
        elif sub == "start_order":
            sub, user = "start", live.creator
            options = {"order": rng.choice([
                "²", "-1", "٣ ١", "1 1", "99", "0", str(HUGE), "<@²>", "<@99999999999999999999>",
                "@everyone", "1, 2; 3", " ".join(str(rng.randrange(9)) for _ in range(5)),
                self.odd_text(live, 40)])}
        return Case(f"game_{sub}", lambda v: user.slash(f"game {sub}", channel=ch,
                                                       validate=v, **options))

    def no_game_case(self, live: Live) -> Case:
        rng = self.rng
        empty = self.empty
        assert empty is not None
        user = rng.choice(self.strangers + live.table.players)
        if rng.random() < 0.3:
            return Case("dm", lambda v: user.slash(rng.choice(
                ["game status", "game board", "game log", "game list", "help", "mygames"]),
                channel=user.dm, validate=v))
        if rng.random() < 0.3:
            text = self.odd_text(live)
            return Case("play_no_game", lambda v: user.slash("play", channel=empty,
                                                            action=text, validate=v))
        options = self.bad_options(live.game)
        if options is not None and rng.random() < 0.3:
            return Case("game_new_bad_options", lambda v: user.slash(
                "game new", channel=empty, game=live.game, options=options, validate=v))
        groups = [f"{live.game} {sub['name']}" for sub in self.group(live.game)
                  if not any(o.get("required") for o in sub.get("options", []))]
        if groups and rng.random() < 0.3:
            command = rng.choice(groups)
            return Case("game_command_no_game", lambda v: user.slash(command, channel=empty,
                                                                    validate=v))
        sub = rng.choice(NO_GAME_SUBS)
        return Case("no_game", lambda v: user.slash(f"game {sub}", channel=empty, validate=v))

    def bad_options(self, game: str) -> str | None:
        """Game options for ``/game new`` that the game refuses (a name it does not have, a
        value not among its choices, text that is no ``name=value``), or None when the draw
        happens to be valid (it would open a game)."""
        rng = self.rng
        specs = {spec.name: spec for spec in self.engine(game).meta.options}
        name = rng.choice([*specs, "x", "seed", "ai", "é", "quiz_seconds", "dice"])
        values = [*ODD_WORDS, *(c for spec in specs.values() for c in spec.choices)]
        text = f"{name}={rng.choice(values)}"
        if rng.random() < 0.3:
            text += rng.choice([" ", ",", ";", " x", " =", " a=b=c"]) + rng.choice(ODD_WORDS)
        try:
            parsed = parse_options(text)
        except ServiceError:
            return text
        refused = any(k not in specs or (specs[k].choices and v not in specs[k].choices)
                      for k, v in parsed.items())
        return text if refused else None

    def group(self, game: str) -> list[dict[str, Any]]:
        """The subcommands of the game's own command group (``/ur``...), from the schema."""
        command = next((c for c in self.commands if c["name"] == game), None)
        return [] if command is None else [o for o in command.get("options", [])
                                           if o["type"] == 1]

    def option_value(self, option: dict[str, Any], *, odd_only: bool) -> Any:
        """A value Discord accepts for ``option``: an odd string within its lengths, a
        number at or within its limits, one of its choices."""
        rng = self.rng
        if option.get("choices"):
            return rng.choice(option["choices"])["value"]
        kind = option["type"]
        if kind in (4, 10):
            low, high = option.get("min_value", -(2**53) + 1), option.get("max_value", 2**53 - 1)
            value = rng.choice([low, high, rng.randint(int(low), int(high))])
            return float(value) if kind == 10 else int(value)
        if kind == 5:
            return rng.random() < 0.5
        low, high = option.get("min_length", 0), option.get("max_length", 100)
        pool = ODD_VALUES if odd_only else ODD_VALUES + ODD_WORDS + ODD
        text = rng.choice(pool) or "²"
        text = (text * (low // len(text) + 1))[:high] if len(text) < low else text[:high]
        return text if len(text) >= max(low, 1) else "²" * max(low, 1)

    def game_command_case(self, live: Live) -> Case | None:
        """A subcommand of the game's own group with odd values: by someone deciding, only
        values no step could be written with, and never a command without options (it may
        be a whole step, like ``/ur end``)."""
        subs = self.group(live.game)
        if not subs:
            return None
        rng = self.rng
        sub = rng.choice(subs)
        user = self.someone(live)
        deciding = user in live.deciders
        options = sub.get("options", [])
        if deciding and not any(o["type"] == 3 and not o.get("choices") for o in options):
            user = self.someone(live, not_deciding=True)
            deciding = False
        values = {o["name"]: self.option_value(o, odd_only=deciding) for o in options
                  if o.get("required") or (deciding and o["type"] == 3 and not o.get("choices"))
                  or rng.random() < 0.7}
        command, ch = f"{live.game} {sub['name']}", live.table.channel
        return Case(f"{live.game}_command", lambda v: user.slash(command, channel=ch,
                                                                 validate=v, **values))

    def read_only_case(self, live: Live) -> Case:
        rng = self.rng
        ch = live.table.channel
        user = self.someone(live)
        choices: list[tuple[str, dict[str, Any]]] = [
            ("game log", {"page": rng.choice([1, 9999, 10000, 2])}),
            ("game status", {}),
            ("game panel", {}),
            ("help", {"game": live.game}),
            ("stats", {"player": rng.choice(live.people)}),
            ("leaderboard", {"game": live.game}),
            ("mygames", {}),
        ]
        command, options = rng.choice(choices)
        return Case(command.replace(" ", "_"), lambda v: user.slash(command, channel=ch,
                                                                   validate=v, **options))

    def stale_case(self, live: Live) -> Case | None:
        rng = self.rng
        posts = self.old_posts.get(live.table.channel.id, [])
        if rng.random() < 0.5 and posts:
            post = rng.choice(posts)
            pressable = [c for c in post.custom_ids if parse_custom_id(c) is not None]
            if not pressable:
                return None
            custom_id = rng.choice(pressable)
            user = rng.choice(live.people)
            if self.could_play(user, custom_id, ()):
                return None
            return Case("stale_post", lambda v: user.press(post, custom_id, validate=v))
        mine = [(u, p) for u, p in self.stale_panels
                if p.channel.id == live.table.channel.id]
        if not mine:
            return None
        user, panel = rng.choice(mine)
        selects = [c for c in panel.iter_components() if c.get("type") == 3]
        if selects and rng.random() < 0.5:
            menu = rng.choice(selects)
            value = rng.choice(menu.get("options") or [{"value": "0"}])["value"]
            if self.could_play(user, menu["custom_id"], (value,)):
                return None
            return Case("stale_panel", lambda v: user.select(panel, menu["custom_id"], [value],
                                                            validate=v))
        steps = [c for c in panel.custom_ids if parse_custom_id(c) is not None
                 and not self.could_play(user, c, ())]
        if not steps:
            return None
        custom_id = rng.choice(steps)
        return Case("stale_panel", lambda v: user.press(panel, custom_id, validate=v))

    def could_play(self, user: FakeUser, custom_id: str, values: tuple[str, ...]) -> bool:
        """Might this press by ``user`` play or take back a step, or open a game? (Such
        presses are real ones: the fuzzer never sends them.)"""
        found = TEMPLATE.fullmatch(custom_id)
        if found is None:
            return False
        action, arg = found["action"], found["arg"]
        target = self.live_by_id(int(found["game"]))
        if action == "thread":
            game, _, ai = arg.removeprefix(":").partition(":")
            return game in registry.ids() and whole_number(ai, MAX_AI) is not None
        if action == "rematch":
            return target is None             # a finished game may be played again
        if action not in STEP_ACTIONS or target is None:
            return False
        seat = target.seat_of(user)
        if seat is None:
            return False
        return action == "undo" or target.decisions.get(seat) == int(found["version"])

    def forged_case(self, live: Live) -> Case | None:
        """A press of a component no Dingir message carries, on a copy of one of the
        table's messages that carries it instead."""
        rng = self.rng
        bases = [*self.old_posts.get(live.table.channel.id, []),
                 *[p for _, p in self.stale_panels if p.channel.id == live.table.channel.id]]
        if not bases:
            return None
        base = rng.choice(bases)
        g, v = live.game_id, rng.choice([live.version, *live.decisions.values()])
        k = len(self.legal_of(live)) + rng.randrange(50)
        other = rng.choice(self.all_live())
        select = rng.random() < 0.2
        if select:
            custom_id = rng.choice([f"dg:{g}:{v}:sel", f"dg:{other.game_id}:{v}:sel",
                                    f"dg:{g}:{max(0, v - 1)}:sel"])
            values = rng.choice([[rng.choice(FOREIGN_VALUES)], [], [str(k)],
                                 [rng.choice(FOREIGN_VALUES), "0"]])
        else:
            values = []
            action = rng.choice(FORGED_ACTIONS)
            custom_id = rng.choice([
                f"dg:{g}:{v}:a{k}", f"dg:{g}:{v}:a", f"dg:{g}:{v}:a1:2", f"dg:{g}:{v}:a²",
                f"dg:{g}:{v}:a{BIG}", f"dg:{g}:{v}:zzz", f"dg:{g}:{v}:thread:x",
                f"dg:{g}:{v}:thread", "dg:0:0:thread:chess:1", "dg:0:0:thread:ur:99",
                "dg:0:0:thread:ur:²", "dg:0:0:thread::1", f"dg:0:0:thread:{live.game}:",
                f"dg:{g}:{v}:q{BIG}:0", f"dg:{g}:{v}:q0", f"dg:{g}:{v}:q0:{BIG}",
                f"dg:{g}:{v}:q99:1", f"dg:{g}:{v}:pg{BIG}", f"dg:{g}:{v}:pg",
                f"dg:{g}:{v}:pg1:2", f"dg:{g}:{v}:undo{BIG}", f"dg:{g}:{v}:undo_",
                f"dg:{g}:0:log{BIG}", f"dg:{g}:0:log", f"dg:{g}:0:log1:1",
                f"dg:{other.game_id}:{v}:a{k}", f"dg:{other.game_id}:{other.version}:pg3",
                f"dg:{BIG}:0:turn", f"dg:{BIG}:{v}:a0", f"dg:{BIG}:0:log1", f"dg:{BIG}:0:join",
                f"dg:{HUGE}:0:turn", f"dg:{g}:{HUGE}:a0", "dg", "dg:", "dg:abc:1:a1",
                "dg:٣:1:turn", f"dg:{g}:{v}:a1\n", "dg:-1:0:turn", f"dg:{g}:{v}:A1",
                f"dg:{g}:{v}:join", f"dg:{g}:{v}:start", f"dg:{g}:{v}:me", f"dg:{g}:{v}:board",
                f"dg:{g}:{v}:turn", f"dg:{g}:{v}:{'x' * 80}",
                f"dg:{g}:{v}:{action}{rng.choice(FORGED_ARGS)}",
                f"dg:{other.game_id}:{rng.randrange(v + 2)}:{action}{rng.choice(FORGED_ARGS)}",
            ])
        user = rng.choice([*live.people, *self.strangers])
        if self.could_play(user, custom_id, tuple(values)):
            user = rng.choice(self.strangers)
            if self.could_play(user, custom_id, tuple(values)):
                return None
        forged = forged_message(base, custom_id, select=select)
        if select:
            return Case("forged_select", lambda v: user.select(forged, custom_id, values,
                                                              validate=False))
        return Case("forged_press", lambda v: user.press(forged, custom_id, validate=False))

    def invalid_case(self, live: Live) -> Case:
        """Something Discord would never send (schema or component validation fails)."""
        rng = self.rng
        ch = live.table.channel
        user = self.someone(live)
        text = self.odd_text(live)
        choices: list[tuple[str, Callable[[bool], Awaitable[InteractionResult]]]] = [
            ("unknown_command", lambda v: user.slash(rng.choice(["chess", "gam", "🏺", "x" * 40]),
                                                     channel=ch, validate=v)),
            ("unknown_sub", lambda v: user.slash(f"game {rng.choice(['frob', 'newx', ''])}",
                                                 channel=ch, validate=v)),
            ("unknown_option", lambda v: user.slash("play", channel=ch, action="end",
                                                    colour="red", validate=v)),
            ("wrong_type", lambda v: user.slash("play", channel=ch,
                                                action=rng.choice([5, 2.5, True]), validate=v)),
            ("wrong_type", lambda v: user.slash("game new", channel=ch, game=live.game,
                                                ai=rng.choice(["three", 2.5, -1, 6, 10**20]),
                                                validate=v)),
            ("bad_choice", lambda v: user.slash(
                rng.choice(["game new", "help", "leaderboard"]), channel=ch,
                game=rng.choice(["chess", "🏺", "UR", "", "x" * 200]), validate=v)),
            ("missing_required", lambda v: user.slash("play", channel=ch, validate=v)),
            ("oversized", lambda v: user.slash("play", channel=ch,
                                               action=text * (6001 // max(1, len(text)) + 1),
                                               validate=v)),
            ("out_of_range", lambda v: user.slash("game log", channel=ch,
                                                  page=rng.choice([0, -5, 10001]), validate=v)),
            ("out_of_range", lambda v: user.slash("away", channel=ch,
                                                  days=rng.choice([-1, 31, 10**20]), validate=v)),
            ("out_of_range", lambda v: user.slash("game replace", channel=ch,
                                                  seat=rng.choice([0, -1, 7, 10**20]),
                                                  validate=v)),
            ("dm_guild_only", lambda v: user.slash("play", channel=user.dm, action="end",
                                                   validate=v)),
            ("not_ours", lambda v: self.press_not_ours(user, live, v)),
        ]
        own = [sub for sub in self.group(live.game) if sub.get("options")]
        if own:
            sub = rng.choice(own)
            values = {o["name"]: self.out_of_bounds(o) for o in sub["options"]}
            stranger = self.someone(live, not_deciding=True)
            choices.append(("game_command_out_of_bounds", lambda v: stranger.slash(
                f"{live.game} {sub['name']}", channel=ch, validate=v, **values)))
        kind, send = rng.choice(choices)
        return Case(kind, send, valid=False)

    def out_of_bounds(self, option: dict[str, Any]) -> Any:
        """A value Discord refuses for ``option``."""
        rng = self.rng
        if option["type"] in (4, 10):
            return rng.choice([option.get("min_value", 0) - 1, option.get("max_value", 0) + 1,
                               10**20, -(10**20), "x"])
        if option.get("choices"):
            return rng.choice(["chess", "🏺", "", 5])
        return "²" * (option.get("max_length", 100) + 1 + rng.randrange(10))

    async def press_not_ours(self, user: FakeUser, live: Live, validate: bool
                             ) -> InteractionResult:
        """A component outside Dingir's namespace, on a copy of a message (Discord sends only
        presses of a message's own components): discord.py leaves it to nobody."""
        if validate:
            raise ValidationError("no message of the bot carries this component")
        bases = self.old_posts.get(live.table.channel.id) or [
            p for _, p in self.stale_panels]
        custom_id = self.rng.choice(["x" * 100, "dgx", "DG:1:1:a1", "game:1", "🏺", " dg:1:1:a1"])
        return await user.press(forged_message(self.rng.choice(bases), custom_id), custom_id,
                                validate=False)

    # -- sending ------------------------------------------------------------------------

    async def run_case(self, case: Case, sem: asyncio.Semaphore) -> None:
        async with sem:
            try:
                result = await case.send(True)
            except ValidationError:
                if case.valid:
                    self.current.counts["schema_refused_" + case.kind] += 1
                await self.run_invalid(case)
                return
            self.current.counts["sent_valid"] += 1
            self.current.counts[case.kind] += 1
            await self.check_answer(case, result)

    async def run_invalid(self, case: Case) -> None:
        """Discord would never send it: send it anyway, any reaction (or none) is fine."""
        self.current.counts["sent_never_from_discord"] += 1
        self.current.counts["invalid_" + case.kind] += 1
        try:
            result = await case.send(False)
        except (ValidationError, KeyError, TypeError, ValueError, IndexError):
            self.current.counts["not_sendable"] += 1
            return
        with contextlib.suppress(TimeoutError, Exception):
            await result.response(IGNORED_WAIT)
            self.current.counts["invalid_answered"] += 1

    async def check_answer(self, case: Case, result: InteractionResult) -> None:
        rec = result.record
        try:
            await result.response(ANSWER_TIMEOUT)
        except Exception as error:
            self.problem(f"{case.kind} {rec.name}: no answer ({error!r})")
            return
        self.current.latency.append(rec.latency or 0.0)
        if rec.callback_type == 8:
            self.current.counts["answered"] += 1
            return
        try:
            await rec.signal.wait_for(lambda: final_message(rec), ANSWER_TIMEOUT, "final")
        except TimeoutError:
            self.problem(f"{case.kind} {rec.name}: deferred but never answered")
            return
        message = final_message(rec)
        assert message is not None
        deferred_publicly = rec.callback_type == 5 and not int(
            (rec.callback_data or {}).get("flags") or 0) & EPHEMERAL
        if any(head in message.text for head in INTERNAL):
            self.problem(f"{case.kind} {rec.name}: internal error answer")
        elif not message.text.strip():
            self.problem(f"{case.kind} {rec.name}: empty answer")
        elif not message.flags & EPHEMERAL and deferred_publicly:
            self.current.counts[PUBLIC_WAIT] += 1
        elif not message.flags & EPHEMERAL:
            self.problem(f"{case.kind} {rec.name}: public answer {message.text[:100]!r}")
        else:
            self.current.counts["answered"] += 1

    async def fuzz(self, game: str, count: int, valid_phase: bool) -> int:
        """Send ``count`` cases of one game and phase (valid or never-from-Discord)."""
        sem = asyncio.Semaphore(self.opts.concurrency)
        tasks = []
        made = 0
        while made < count:
            case = self.case(game) if valid_phase else \
                self.invalid_case(self.rng.choice(self.live[game]))
            if case is None or case.valid != valid_phase:
                continue
            made += 1
            tasks.append(asyncio.create_task(self.run_case(case, sem)))
            if len(tasks) >= 200:
                await asyncio.gather(*tasks)
                tasks.clear()
                if not self.bot.running:
                    self.problem("the bot process died")
                    return made
        await asyncio.gather(*tasks)
        return made

    async def still_answers(self) -> int:
        """Every deciding player still gets their legal steps."""
        ok = 0
        for live in self.all_live():
            if not live.deciders:
                ok += 1
                continue
            user = live.deciders[0]
            choices = await user.autocomplete("play", "action", channel=live.table.channel)
            ok += bool(choices)
        return ok


def forged_message(base: Message, custom_id: str, *, select: bool = False) -> Message:
    """A copy of ``base`` whose one component is ``custom_id`` (a button, or a select menu
    whose options are the values the fuzzer sends)."""
    component: dict[str, Any] = (
        {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "0"}],
         "min_values": 0, "max_values": 25} if select else
        {"type": 2, "style": 2, "label": "x", "custom_id": custom_id})
    return replace(base, components=[{"type": 1, "components": [component]}])


def tracebacks(text: str) -> list[str]:
    """The last line of every traceback in a log."""
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            j = i + 1
            while j < len(lines) and (lines[j].startswith((" ", "\t")) or not lines[j].strip()
                                      or lines[j].startswith(("During", "The above"))):
                j += 1
            out.append(lines[j][:200] if j < len(lines) else "?")
    return out


def game_rows(snap: dict[str, Any], ids: set[int]) -> dict[str, list[Any]]:
    """The rows of ``snap`` that belong to the games ``ids``."""
    return {"games": [r for r in snap["games"] if r[0] in ids],
            "seats": [r for r in snap["seats"] if r[0] in ids],
            "actions": [r for r in snap["actions"] if r[0] in ids]}


async def run(opts: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dingir-fuzz-", dir=opts.workdir))
    fz = Fuzzer(opts, workdir)
    await fz.fake.start()
    result: dict[str, Any] = {"command": " ".join(sys.argv), "workdir": str(workdir),
                              "games": {}}
    try:
        started = time.monotonic()
        await fz.setup()
        await fz.settle()
        fz.keep_posts()
        before = fz.snapshot()
        fz.load_live(before)
        result["setup_seconds"] = time.monotonic() - started
        for game in fz.games:
            if not fz.live[game]:
                result["games"][game] = {"error": "no game of it was still running"}
                continue
            fz.current = fz.figures[game]
            log_start = len(fz.bot.output())
            started = time.monotonic()
            valid_count = int(opts.count * (1 - opts.invalid_share))
            sent_valid = await fz.fuzz(game, valid_count, True)
            log_mid = len(fz.bot.output())
            sent_invalid = await fz.fuzz(game, opts.count - valid_count, False)
            elapsed = time.monotonic() - started
            await asyncio.sleep(1.0)
            log_end = len(fz.bot.output())
            output = fz.bot.output()
            figures = fz.current
            result["games"][game] = {
                "tables": len(fz.live[game]),
                "interactions": sent_valid + sent_invalid,
                "valid_sent": figures.counts["sent_valid"],
                "never_from_discord_sent": figures.counts["sent_never_from_discord"],
                "answered": figures.counts["answered"],
                "seconds": elapsed,
                "counts": dict(figures.counts),
                "problems": figures.problems,
                "latency": percentiles(figures.latency),
                "tracebacks_valid_phase": tracebacks(output[log_start:log_mid]),
                "tracebacks_never_sent_phase": Counter(tracebacks(output[log_mid:log_end])),
            }
        after = fz.snapshot()
        alive = fz.bot.running
        answering = await fz.still_answers() if alive else 0
        for game, lives in fz.live.items():
            ids = {live.game_id for live in lives} | {fz.lobbies[game].record.id}
            old, new = game_rows(before, ids), game_rows(after, ids)
            changed = [name for name in old if old[name] != new[name]]
            entry = result["games"][game]
            entry["db_changed"] = changed
            if changed:
                entry["db_diff"] = {name: [str(row)[:300] for row in set(new[name])
                                           - set(old[name])][:10] for name in changed}
        result.update({
            "interactions": sum(g["interactions"] for g in result["games"].values()),
            "bot_alive": alive,
            "tables_answering": f"{answering}/{len(fz.all_live())}",
            "db_changed": [name for name in before if before[name] != after[name]],
            "stand_in": {"server_errors": fz.fake.server_errors[:5],
                         "unknown_routes": fz.fake.unknown_routes[:5]},
        })
    finally:
        await fz.bot.stop()
        await fz.fake.stop()
    return result


def game_table(game: str, r: dict[str, Any]) -> list[str]:
    c = r["counts"]
    lat = r["latency"]
    lines = [
        f"[{game}] {r['tables']} tables",
        f"interactions          {r['interactions']} in {r['seconds']:.0f}s: {r['valid_sent']} "
        f"Discord could send ({r['answered']} answered privately and clearly), "
        f"{r['never_from_discord_sent']} it would never send "
        f"(answered anyway: {c.get('invalid_answered', 0)})",
        f"answers               problems {c.get('problems', 0)} (no answer, public, internal "
        f"error, empty); first answer p50 {lat['p50_ms']:.1f} ms p99 {lat['p99_ms']:.1f} ms "
        f"max {lat['max_ms']:.1f} ms; refusals public after a slow public deferral "
        f"{c.get(PUBLIC_WAIT, 0)}",
        f"database              changed: {r['db_changed'] or 'nothing'}",
        f"bot log               tracebacks while valid input ran: "
        f"{len(r['tracebacks_valid_phase'])}; while never-sent input ran: "
        f"{sum(r['tracebacks_never_sent_phase'].values())} "
        f"{dict(r['tracebacks_never_sent_phase'])}",
        "kinds                 " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())
                                            if not k.startswith(("problems", "sent_",
                                                                 "answered", PUBLIC_WAIT))),
    ]
    lines += [f"  problem: {p}" for p in r["problems"][:15]]
    lines += [f"  traceback: {t}" for t in r["tracebacks_valid_phase"][:10]]
    return lines


def table(r: dict[str, Any]) -> str:
    lines = [f"fuzz run: {r['command']}",
             f"bot alive {r['bot_alive']}, tables still answering {r['tables_answering']}, "
             f"database changed: {r['db_changed'] or 'nothing'}"]
    for game, figures in r["games"].items():
        lines += game_table(game, figures)
    return "\n".join(lines)


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line options (also used by the smoke test)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*registry.ids(), "all"], default="all")
    parser.add_argument("--count", type=int, default=10_000, help="interactions per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--tables", type=int, default=6, help="tables per game")
    parser.add_argument("--steps", type=int, default=8,
                        help="steps played at each table before the run (up to 4 times as many:"
                             " the tables are at different stages of their games)")
    parser.add_argument("--invalid-share", type=float, default=0.15,
                        help="share of interactions Discord would never send")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path)
    return parser.parse_args(argv)


def passed(result: dict[str, Any]) -> bool:
    """Alive, every answer private and clear, nothing changed, no traceback, every game."""
    return bool(result["bot_alive"] and not result["db_changed"] and all(
        not g["problems"] and not g["tracebacks_valid_phase"] for g in result["games"].values()))


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    result = asyncio.run(run(opts))
    return report(result, table(result), passed(result), opts.json)


if __name__ == "__main__":
    sys.exit(main())
