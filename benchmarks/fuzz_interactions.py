"""Bad input against the real bot: thousands of interactions nobody should send.

Usage::

    python benchmarks/fuzz_interactions.py [--count N] [--seed X] [--concurrency C]
                                           [--tables T] [--json FILE]

Starts the stand-in for Discord and ``python -m bot``, opens ``T`` games of Ur (two of
them with an AI seat), plays a few steps so that there are old board posts and stale
turn panels, snapshots the database, then sends ``N`` interactions drawn at random from:

- ``/play`` with bad notation, odd or oversized Unicode, legal-looking but illegal
  steps (checked illegal with the engine before sending), steps of the active seat sent
  by another player or by a member who is not seated; ``/play`` in a channel without a
  game and in DMs; autocomplete with junk typed;
- ``/game ...`` and ``/ur ...`` commands that must be refused (start/join/leave a
  running game, abort/settings by non-creators, resign/skip by the wrong people, import
  of junk files, commands in a channel without a game or in DMs);
- stale buttons (old "Take my turn" posts, turn panels the board has moved past),
  fabricated custom_ids and select values;
- what Discord itself would never send (unknown commands, subcommands and options,
  wrong option types, out-of-range numbers, strings over the limits, missing required
  options, guild-only commands in DMs): the stand-in's schema validation decides; these
  are sent anyway (``validate=False``) and may be ignored.

Checks: the bot process never dies and answers every interaction Discord would send
within the time limit, privately (ephemeral) and not with the "something went wrong"
text; the games, seats and action log are identical before and after; the bot log has
no traceback while the valid inputs run (tracebacks during the never-sent inputs are
counted apart); afterwards every table still answers. Prints a table, writes JSON.
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.community import (
    INTERNAL,
    final_message,
    is_panel,
    parse_custom_id,
    percentiles,
    report,
)
from bot import registry
from bot.engine import GameError
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
from tests.fakediscord.load import LoadDiscord, Table, is_board

ANSWER_TIMEOUT = 10.0
IGNORED_WAIT = 3.0
ODD = [
    "", " ", "\u200b", "\u202eplace b3", "ｐｌａｃｅ Ｂ３", "place\u0000b3", "🏺" * 30,
    "place B3; DROP TABLE games;--", "%s%s%n", "{step}", "{0.__class__}", "\\", "'\"`",
    "place b3\nend", "\ud83d", "é" * 100, "א" * 50, "‮" * 20, "\t\r\n", "null", "None",
    "end " * 25, "-1", "9" * 100, "a" * 100, "<@123456789012345678>", "@everyone",
    "war b3>c3 move 999", "politics a1>a1 0", "exchange z9 face war", "place g7",
    "place a0", "bonus", "ziggurat", "actions", "action chess", "decline", "exchange spare",
]
JUNK_FILES = [
    b"", b"{", b"[]", b"null", b'{"game": "chess"}', b'{"game": "ur", "seed": "x"}',
    b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "🏺".encode() * 1000,
    json.dumps({"format": "dingir-export", "version": 99}).encode(),
]
GAME_SUBS_REFUSED = ("start", "join", "leave", "skip", "abort", "resign", "settings")
NO_GAME_SUBS = ("status", "board", "log", "start", "join", "leave", "resign", "abort", "skip",
                "settings", "export")


@dataclass
class Live:
    """A table with its game as snapshotted: who plays, and with which notation."""

    table: Table
    game_id: int
    version: int
    state: dict[str, Any]
    active_user: FakeUser | None
    active_seat: int | None
    creator: FakeUser


@dataclass
class Case:
    """One fuzz interaction: how to send it, and whether Discord would ever send it."""

    kind: str
    send: Callable[[bool], Awaitable[InteractionResult]]
    valid: bool = True


class Fuzzer:
    """Builds the world, the cases, sends them and checks the answers."""

    def __init__(self, opts: argparse.Namespace, workdir: Path) -> None:
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.fake = LoadDiscord(history_limit=200)
        self.db_path = workdir / "dingir.sqlite3"
        self.bot = BotProcess(self.fake, db_path=self.db_path, log_path=workdir / "bot.log",
                              env={"DINGIR_LOG_LEVEL": "INFO"})
        self.engine = registry.get("ur").engine
        self.tables: list[Table] = []
        self.live: list[Live] = []
        self.empty: Channel | None = None
        self.strangers: list[FakeUser] = []
        self.old_posts: list[Message] = []
        self.stale_panels: list[tuple[FakeUser, Message, int]] = []
        self.counts: Counter[str] = Counter()
        self.latency: list[float] = []
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.counts["problems"] += 1
        if len(self.problems) < 40:
            self.problems.append(text[:300])

    # -- world --------------------------------------------------------------------------

    async def answer(self, sent: Awaitable[InteractionResult]) -> Message | None:
        result = await sent
        await result.response(ANSWER_TIMEOUT)
        await result.record.signal.wait_for(lambda: final_message(result.record), ANSWER_TIMEOUT,
                                            "the final answer")
        return final_message(result.record)

    async def setup(self) -> None:
        self.tables = self.fake.community(self.opts.tables, per_guild=self.opts.tables + 1,
                                          ai_every=max(2, self.opts.tables // 2),
                                          bystanders=True)
        guild = self.tables[0].guild
        self.empty = self.fake.text_channel(guild, "no-game-here")
        self.strangers = [self.fake.user(f"stranger{i}", guild=guild) for i in range(2)]
        await self.bot.start(timeout=60)
        await self.fake.wait_synced(timeout=60)
        for table in self.tables:
            await self.open_and_play(table)

    async def open_and_play(self, table: Table) -> None:
        """Open a game, play a few steps (with /play and with a panel), keep stale things."""
        ch, creator = table.channel, table.players[0]
        await self.answer(creator.slash("game new", channel=ch, game="ur", ai=table.ai))
        for user in table.players[1:]:
            await self.answer(user.slash("game join", channel=ch))
        mark = self.fake.mark()
        await self.answer(creator.slash("game start", channel=ch))

        async def next_post(after: int) -> Message:
            return await self.fake.wait_for_channel_message(
                ch, lambda m: is_board(m) and any(m.mentions(u.id) for u in table.players),
                timeout=30, after=after)

        post = await next_post(mark)
        for _ in range(4 + self.rng.randrange(6)):
            self.old_posts.append(post)
            user = next(u for u in table.players if post.mentions(u.id))
            take = next(c for c in post.custom_ids if c.endswith(":turn"))
            panel = await self.answer(user.press(post, take))
            if panel is not None and is_panel(panel):
                parsed = parse_custom_id(panel.custom_ids[0])
                assert parsed is not None
                self.stale_panels.append((user, panel, parsed[1]))
            mark = self.fake.mark()
            for _ in range(1 + self.rng.randrange(3)):   # steps by /play: the panel goes stale
                choices = await user.autocomplete("play", "action", channel=ch)
                if not choices:
                    break
                done = await self.answer(user.slash("play", channel=ch,
                                                    action=self.rng.choice(choices)["value"]))
                if done is None or not is_panel(done):
                    post = await next_post(mark)
                    break

    async def settle(self) -> None:
        """Wait until no AI seat is about to move and the database is quiet."""
        previous = None
        for _ in range(120):
            snap = self.snapshot()
            ai_turn = any(
                row[2] == "running" and any(
                    (row[0], s) in {(r[0], r[1]) for r in snap["seats"] if r[2] is None}
                    for s in json.loads(row[5]))
                for row in snap["games"])
            if not ai_turn and snap == previous:
                return
            previous = snap
            await asyncio.sleep(0.5)

    def snapshot(self) -> dict[str, Any]:
        """Everything a bad input must not change."""
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            return {
                "games": conn.execute("SELECT id, channel_id, status, version, state, active,"
                                      " turn, settings, creator_id FROM games ORDER BY id"
                                      ).fetchall(),
                "seats": conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
                "actions": conn.execute("SELECT game_id, idx, seat, notation, undone FROM actions"
                                        " ORDER BY game_id, idx").fetchall(),
            }
        finally:
            conn.close()

    def load_live(self, snap: dict[str, Any]) -> None:
        by_channel = {row[1]: row for row in snap["games"] if row[2] == "running"}
        seats = {(r[0], r[1]): r[2] for r in snap["seats"]}
        for table in self.tables:
            row = by_channel.get(table.channel.id)
            if row is None:
                continue
            gid, _, _, version, state, active, *_ = row
            seat = json.loads(active)[0] if json.loads(active) else None
            user_id = seats.get((gid, seat)) if seat is not None else None
            user = next((u for u in table.players if u.id == user_id), None)
            self.live.append(Live(table, gid, version, json.loads(state), user,
                                  seat if user else None, table.players[0]))

    # -- cases --------------------------------------------------------------------------

    def odd_text(self, limit: int = 100) -> str:
        pick = self.rng.random()
        if pick < 0.5:
            return self.rng.choice(ODD)[:limit]
        if pick < 0.8:
            return "".join(chr(self.rng.choice([self.rng.randrange(32, 127),
                                                self.rng.randrange(0x80, 0x2FFF),
                                                self.rng.randrange(0x1F300, 0x1FAFF)]))
                           for _ in range(self.rng.randrange(1, limit + 1)))
        return self.mutated(self.rng.choice(self.live)) if self.live else "place b3"

    def mutated(self, live: Live) -> str:
        """A legal notation of the active seat with one character changed, or a legal
        notation of another game."""
        seat = live.active_seat if live.active_seat is not None else 0
        legal = self.engine.legal(live.state, seat)
        text = self.rng.choice(legal).notation if legal else "place b3"
        if self.rng.random() < 0.3 and len(self.live) > 1:
            other = self.rng.choice(self.live)
            other_legal = self.engine.legal(other.state, other.active_seat or 0)
            if other_legal:
                return self.rng.choice(other_legal).notation
        i = self.rng.randrange(len(text))
        return text[:i] + self.rng.choice("abcdefz0123456789> ") + text[i + 1:]

    def legal_of(self, live: Live) -> list[Any]:
        """The active seat's legal steps in the snapshotted state."""
        return [] if live.active_seat is None else self.engine.legal(live.state,
                                                                      live.active_seat)

    def is_legal_for(self, live: Live, user: FakeUser, text: str) -> bool:
        """Would ``text`` by ``user`` be an accepted step (the fuzzer must never send one)?"""
        if user is not live.active_user or live.active_seat is None:
            return False
        try:
            self.engine.parse(live.state, live.active_seat, text)
        except GameError:
            return False
        except Exception:  # the bot must cope; the fuzzer only avoids real steps
            return False
        return True

    def someone(self, live: Live, *, not_active: bool = False) -> FakeUser:
        people = [*live.table.players, *([live.table.bystander] if live.table.bystander else [])]
        if not_active:
            people = [p for p in people if p is not live.active_user]
        return self.rng.choice(people)

    def case(self) -> Case | None:
        """One random case (None when the draw would be a real step: skipped)."""
        rng = self.rng
        live = rng.choice(self.live)
        ch = live.table.channel
        empty = self.empty
        assert empty is not None
        roll = rng.random()
        if roll < 0.22:   # /play with bad or illegal text by anyone at the table
            user = self.someone(live) if rng.random() < 0.5 else live.active_user or \
                self.someone(live)
            text = self.odd_text()
            if self.is_legal_for(live, user, text):
                return None
            return Case("play_bad", lambda v: user.slash("play", channel=ch, action=text,
                                                        validate=v))
        if roll < 0.32:   # a legal step of the active seat, sent by somebody else
            if live.active_seat is None:
                return None
            legal = self.engine.legal(live.state, live.active_seat)
            text = rng.choice(legal).notation if legal else "end"
            user = self.someone(live, not_active=True)
            return Case("play_out_of_turn", lambda v: user.slash("play", channel=ch,
                                                                action=text, validate=v))
        if roll < 0.40:   # autocomplete with junk typed, anywhere
            user = self.someone(live)
            where = rng.choice([ch, ch, empty])
            typed = self.odd_text()
            return Case("autocomplete", lambda v: user.send_autocomplete(
                "play", "action", typed, channel=where, validate=v))
        if roll < 0.50:   # /game commands that must be refused at a running game
            sub = rng.choice(GAME_SUBS_REFUSED)
            user = self.someone(live)
            if sub in ("abort", "settings") and user is live.creator:
                user = live.table.bystander or user
            if sub == "resign" and user in live.table.players:
                user = live.table.bystander or self.strangers[0]
            options: dict[str, Any] = {}
            if sub == "settings":
                options = {"reminder_hours": rng.choice([1.0, 720.0, 48.5])}
            return Case(f"game_{sub}", lambda v: user.slash(f"game {sub}", channel=ch,
                                                           validate=v, **options))
        if roll < 0.58:   # commands where there is no game: an empty channel, or a DM
            user = rng.choice(self.strangers + live.table.players)
            if rng.random() < 0.3:
                return Case("dm", lambda v: user.slash(rng.choice(
                    ["game status", "game board", "game log", "game list", "help"]),
                    channel=user.dm, validate=v))
            sub = rng.choice(NO_GAME_SUBS)
            if rng.random() < 0.3:
                text = self.odd_text()
                return Case("play_no_game", lambda v: user.slash("play", channel=empty,
                                                                action=text, validate=v))
            return Case("no_game", lambda v: user.slash(f"game {sub}", channel=empty,
                                                       validate=v))
        if roll < 0.64:   # /ur commands with impossible cells, or by the wrong people
            user = self.someone(live, not_active=True) if rng.random() < 0.6 else \
                live.active_user or self.someone(live)
            cell = rng.choice(["Z9", "A0", "G7", "??", "a1", "F6"])
            if user is live.active_user:
                cell = rng.choice(["Z9", "A0", "G7", "??"])
            ur_cases: list[tuple[str, dict[str, Any]]] = [
                ("ur place", {"cell": cell}),
                ("ur war", {"from": cell, "to": "B2", "tokens": rng.randrange(10)}),
                ("ur politics", {"from": "B2", "to": cell, "tokens": rng.randrange(10)}),
                ("ur exchange", {"tile": cell, "face": "war"}),
            ]
            sub, opts = rng.choice(ur_cases)
            return Case("ur", lambda v: user.slash(sub, channel=ch, validate=v, **opts))
        if roll < 0.70:   # junk files for /game import
            user = self.someone(live)
            where = rng.choice([ch, empty])
            blob = rng.choice(JUNK_FILES)
            name = rng.choice(["game.json", "x.png", "🏺.json", "a" * 90 + ".json"])
            return Case("import_junk", lambda v: user.slash(
                "game import", channel=where, file=Upload(name, blob), validate=v))
        if roll < 0.80:   # stale buttons: old "Take my turn" posts and stale panels
            return self.stale_case()
        if roll < 0.84:   # log pages and /help, valid but odd
            user = self.someone(live)
            page = rng.choice([1, 9999, 10000, 2])
            return Case("log_page", lambda v: user.slash("game log", channel=ch, page=page,
                                                        validate=v))
        return self.invalid_case(live)

    def stale_case(self) -> Case | None:
        rng = self.rng
        current = {live.game_id: live.version for live in self.live}
        if rng.random() < 0.5 and self.old_posts:
            post = rng.choice(self.old_posts)
            take = next((c for c in post.custom_ids if c.endswith(":turn")), None)
            parsed = parse_custom_id(take or "")
            if take is None or parsed is None or current.get(parsed[0]) == parsed[1]:
                return None
            table = next(t for t in self.tables if t.channel.id == post.channel.id)
            user = rng.choice([*table.players, *([table.bystander] if table.bystander else [])])
            return Case("stale_post", lambda v: user.press(post, take, validate=v))
        stale = [(u, p, ver) for u, p, ver in self.stale_panels
                 if all((x := parse_custom_id(c)) is None or current.get(x[0]) != x[1]
                        for c in p.custom_ids)]
        if not stale:
            return None
        user, panel, _ = rng.choice(stale)
        steps = [c for c in panel.custom_ids
                 if (x := parse_custom_id(c)) is not None and x[2] in ("a", "undo", "pg")]
        selects = [c for c in panel.iter_components() if c.get("type") == 3]
        if selects and rng.random() < 0.5:
            menu = rng.choice(selects)
            value = rng.choice(menu.get("options") or [{"value": "0"}])["value"]
            return Case("stale_panel", lambda v: user.select(panel, menu["custom_id"], [value],
                                                            validate=v))
        if not steps:
            return None
        return Case("stale_panel", lambda v: user.press(panel, rng.choice(steps), validate=v))

    def invalid_case(self, live: Live) -> Case:
        """Something Discord would never send (schema or component validation fails)."""
        rng = self.rng
        ch = live.table.channel
        user = self.someone(live)
        text = self.odd_text()
        choices: list[tuple[str, Callable[[bool], Awaitable[InteractionResult]]]] = [
            ("unknown_command", lambda v: user.slash(rng.choice(["chess", "gam", "🏺", "x" * 40]),
                                                     channel=ch, validate=v)),
            ("unknown_sub", lambda v: user.slash(f"game {rng.choice(['frob', 'newx', ''])}",
                                                 channel=ch, validate=v)),
            ("unknown_option", lambda v: user.slash("play", channel=ch, action="end",
                                                    colour="red", validate=v)),
            ("wrong_type", lambda v: user.slash("play", channel=ch,
                                                action=rng.choice([5, 2.5, True]), validate=v)),
            ("wrong_type", lambda v: user.slash("game new", channel=ch, game="ur",
                                                ai=rng.choice(["three", 2.5, -1, 6, 10**20]),
                                                validate=v)),
            ("bad_choice", lambda v: user.slash("game new", channel=ch, game="chess",
                                                validate=v)),
            ("missing_required", lambda v: user.slash("play", channel=ch, validate=v)),
            ("oversized", lambda v: user.slash("play", channel=ch,
                                               action=text * (6001 // max(1, len(text)) + 1),
                                               validate=v)),
            ("out_of_range", lambda v: user.slash("game log", channel=ch,
                                                  page=rng.choice([0, -5, 10001]), validate=v)),
            ("dm_guild_only", lambda v: user.slash("play", channel=user.dm, action="end",
                                                   validate=v)),
            ("bad_custom_id", lambda v: self.press_fabricated(user, ch, v)),
        ]
        kind, send = rng.choice(choices)
        return Case(kind, send, valid=False)

    def press_fabricated(self, user: FakeUser, ch: Channel, validate: bool
                         ) -> Awaitable[InteractionResult]:
        """A custom_id that no message carries (on a stale panel if there is one)."""
        rng = self.rng
        live = rng.choice(self.live)
        custom_id = rng.choice([
            "dg", "dg:", "dg:abc:1:a1", f"dg:{live.game_id}:{live.version}:zzz",
            f"dg:{live.game_id}:{10**12}:a0", f"dg:{10**15}:0:a0", "x" * 100,
            f"dg:{live.game_id}:{max(0, live.version - 1)}:a{rng.randrange(99)}",
            f"dg:{live.game_id}:{live.version}:a{len(self.legal_of(live)) + rng.randrange(99)}",
        ])
        target = rng.choice(self.stale_panels)[1] if self.stale_panels else None
        if target is None:
            target = rng.choice(self.old_posts)
        return user.press(target, custom_id, validate=validate)

    # -- sending ------------------------------------------------------------------------

    async def run_case(self, case: Case, sem: asyncio.Semaphore) -> None:
        async with sem:
            try:
                result = await case.send(True)
            except ValidationError:
                if case.valid:
                    self.counts["schema_refused_" + case.kind] += 1
                await self.run_invalid(case)
                return
            self.counts["sent_valid"] += 1
            self.counts[case.kind] += 1
            await self.check_answer(case, result)

    async def run_invalid(self, case: Case) -> None:
        """Discord would never send it: send it anyway, any reaction (or none) is fine."""
        self.counts["sent_never_from_discord"] += 1
        self.counts["invalid_" + case.kind] += 1
        try:
            result = await case.send(False)
        except (ValidationError, KeyError, TypeError, ValueError) as error:
            self.counts["not_sendable"] += 1
            del error
            return
        with contextlib.suppress(TimeoutError, Exception):
            await result.response(IGNORED_WAIT)
            self.counts["invalid_answered"] += 1

    async def check_answer(self, case: Case, result: InteractionResult) -> None:
        rec = result.record
        try:
            await result.response(ANSWER_TIMEOUT)
        except Exception as error:
            self.problem(f"{case.kind} {rec.name}: no answer ({error!r})")
            return
        self.latency.append(rec.latency or 0.0)
        if rec.callback_type == 8:
            return
        try:
            await rec.signal.wait_for(lambda: final_message(rec), ANSWER_TIMEOUT, "final")
        except TimeoutError:
            self.problem(f"{case.kind} {rec.name}: deferred but never answered")
            return
        message = final_message(rec)
        assert message is not None
        if not message.flags & EPHEMERAL:
            self.problem(f"{case.kind} {rec.name}: public answer {message.text[:100]!r}")
        if INTERNAL in message.text:
            self.problem(f"{case.kind} {rec.name}: internal error answer")
        if not message.text.strip():
            self.problem(f"{case.kind} {rec.name}: empty answer")

    async def fuzz(self, count: int, valid_phase: bool) -> int:
        """Send ``count`` cases of one phase (valid or never-from-Discord)."""
        sem = asyncio.Semaphore(self.opts.concurrency)
        tasks = []
        made = 0
        while made < count:
            case = self.case() if valid_phase else self.invalid_case(self.rng.choice(self.live))
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
        """Every active player still gets their legal steps."""
        ok = 0
        for live in self.live:
            if live.active_user is None:
                ok += 1
                continue
            choices = await live.active_user.autocomplete("play", "action",
                                                          channel=live.table.channel)
            ok += bool(choices)
        return ok


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


async def run(opts: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dingir-fuzz-", dir=opts.workdir))
    fz = Fuzzer(opts, workdir)
    await fz.fake.start()
    result: dict[str, Any] = {"command": " ".join(sys.argv), "workdir": str(workdir)}
    try:
        await fz.setup()
        await fz.settle()
        before = fz.snapshot()
        fz.load_live(before)
        log_start = len(fz.bot.output())
        started = time.monotonic()
        valid_count = int(opts.count * (1 - opts.invalid_share))
        sent_valid = await fz.fuzz(valid_count, True)
        log_mid = len(fz.bot.output())
        sent_invalid = await fz.fuzz(opts.count - valid_count, False)
        elapsed = time.monotonic() - started
        await asyncio.sleep(1.0)
        after = fz.snapshot()
        alive = fz.bot.running
        answering = await fz.still_answers() if alive else 0
        output = fz.bot.output()
        changed = [name for name in before if before[name] != after[name]]
        if changed:
            result["db_diff"] = {name: [str(row)[:300] for row in set(after[name])
                                        - set(before[name])][:10] for name in changed}
        result.update({
            "interactions": sent_valid + sent_invalid,
            "valid_sent": sent_valid, "never_from_discord_sent": sent_invalid,
            "seconds": elapsed,
            "counts": dict(fz.counts),
            "problems": fz.problems,
            "latency": percentiles(fz.latency),
            "bot_alive": alive,
            "tables_answering": f"{answering}/{len(fz.live)}",
            "db_changed": changed,
            "tracebacks_valid_phase": tracebacks(output[log_start:log_mid]),
            "tracebacks_never_sent_phase": Counter(tracebacks(output[log_mid:])),
            "stand_in": {"server_errors": fz.fake.server_errors[:5],
                         "unknown_routes": fz.fake.unknown_routes[:5]},
        })
    finally:
        await fz.bot.stop()
        await fz.fake.stop()
    return result


def table(r: dict[str, Any]) -> str:
    c = r["counts"]
    lat = r["latency"]
    lines = [
        f"fuzz run: {r['command']}",
        f"interactions          {r['interactions']} in {r['seconds']:.0f}s: {r['valid_sent']} "
        f"Discord could send, {r['never_from_discord_sent']} it would never send "
        f"(answered anyway: {c.get('invalid_answered', 0)})",
        f"answers               problems {c.get('problems', 0)} (no answer, public, internal "
        f"error, empty); first answer p50 {lat['p50_ms']:.1f} ms p99 {lat['p99_ms']:.1f} ms "
        f"max {lat['max_ms']:.1f} ms",
        f"bot                   alive {r['bot_alive']}, tables still answering "
        f"{r['tables_answering']}",
        f"database              changed: {r['db_changed'] or 'nothing'}",
        f"bot log               tracebacks while valid input ran: "
        f"{len(r['tracebacks_valid_phase'])}; while never-sent input ran: "
        f"{sum(r['tracebacks_never_sent_phase'].values())} "
        f"{dict(r['tracebacks_never_sent_phase'])}",
        "kinds                 " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())
                                            if not k.startswith(("problems", "sent_"))),
    ]
    lines += [f"  problem: {p}" for p in r["problems"][:15]]
    lines += [f"  traceback: {t}" for t in r["tracebacks_valid_phase"][:10]]
    return "\n".join(lines)


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line options (also used by the smoke test)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--invalid-share", type=float, default=0.15,
                        help="share of interactions Discord would never send")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path)
    return parser.parse_args(argv)


def passed(result: dict[str, Any]) -> bool:
    """Alive, every answer private and clear, nothing changed, no traceback."""
    return bool(result["bot_alive"] and not result["db_changed"] and not result["problems"]
                and not result["tracebacks_valid_phase"])


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    result = asyncio.run(run(opts))
    return report(result, table(result), passed(result), opts.json)


if __name__ == "__main__":
    sys.exit(main())
