"""How a game reads in its channel: posts, pings and text shapes per game and language.

Usage::

    python benchmarks/narration.py [--games ur,civsets,flood,mesopotamia] [--langs en,fr]
        [--turns 60] [--seed 7] [--minutes 6] [--out DIR] [--json FILE] [--panel 0.33]
        [--people N] [--ai N] [--options "name=value ..."]

For each game id and language it starts the local Discord stand-in and the real bot as a
subprocess (``world()`` of ``tests/test_e2e_game.py``, the bot given ``--seed`` for every
game), on a server whose preferred locale is the language, with members of that locale.
People open a game and fill a typical table with AI seats (ur 2 + 1 AI, civsets 3 + 1,
flood 2 + 1, mesopotamia 2 + 1; or ``--people`` and ``--ai``, with the game's ``--options``),
then play ``--turns`` turns (the game's own turn counter)
or to the end. A person acts whenever the bot's database says their decision is pending
and the channel has been quiet for a moment: they press one of the answer buttons of a
public question that mentions them (a civsets quiz), else, one step in three (``--panel``:
the share), take a random step from their private panel ("Take my turn", or "My panel" for a
decision out of turn), else pick a random step from ``/play``'s autocomplete.

Printed per game and language (and written with ``--json``):

* turns played; public posts per turn (every public message in the game channel from
  ``/game start`` on: turn messages, announcements, questions, replies);
* pings per turn. Counted as Discord notifies: the distinct members whose ``<@id>`` is in a
  post's *content* (mentions in embeds never notify) and whom the post's
  ``allowed_mentions`` lets through (no ``allowed_mentions``: everyone mentioned; else
  ``parse`` holding ``users``, or the id in ``users``), read from the payload that made the
  post (the first with content, for a deferred answer). Also the mention tokens written
  (content and embeds) and the "stray" pings: a pinged member whose decision was not
  pending when the channel next fell quiet;
* characters per post (median, p95, max; content and embeds);
* the distinct public text shapes. A post is cut into clauses (its lines, and a turn
  summary's steps between "; "); a clause's shape replaces mentions, member and AI names,
  Discord timestamps, the game's card, region, empire, resource... names (from its
  catalogue), board cells and numbers with placeholders, so that "alice places a token on
  E2" and "bob places a token on B3" are one shape. Each shape is flagged when it speaks
  to "you" in a public post (``you/your``, ``vous/votre/tu``...), names a command
  (``/play``), shows raw notation (``A2 0→2``, ``B3>C3``, a card id, a catalogue key, an
  unfilled ``{placeholder}``), or words of the other language (untranslated);
* lines said again word for word by a later post, up to the next turn message (a 📣 line
  told again by the turn message).

``--out DIR`` writes, per game and language, ``<game>-<lang>.md`` (every public post from
the lobby on, in order, with who was pinged, its buttons and files, then the shapes) and
``<game>-<lang>.private.md`` (every private answer one member, the game's creator, got).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.community import component, first_payload, question_ids
from benchmarks.wording import flags
from bot.i18n import catalogue, tr, translate
from host import registry
from tests.fakediscord import FakeUser, Message
from tests.test_e2e_game import World, click, is_panel, open_game, pick_component, world
from tests.test_e2e_mesopotamia import Snapshot, seats_of, snapshot

GAMES = ("ur", "civsets", "flood", "mesopotamia")
LANGS = ("en", "fr")


@dataclass(frozen=True)
class Table:
    """Who sits at a typical table of a game."""

    people: int
    ai: int


TABLES = {"ur": Table(2, 1), "civsets": Table(3, 1), "flood": Table(2, 1),
          "mesopotamia": Table(2, 1)}
PEOPLE = {"en": ("alice", "bob", "carol", "dave", "erin"),
          "fr": ("amélie", "bruno", "chloé", "david", "élodie")}
LOCALES = {"en": "en-US", "fr": "fr"}
PANEL_SHARE = 1 / 3
"""Steps a person takes from their private panel instead of ``/play`` (``--panel``)."""
QUIET = 0.3
"""Seconds without a new message after which the bot is taken to be done reacting."""
GRACE = 3.0
"""Seconds after which a person may act again on an unchanged game."""
REACT_TIMEOUT = 180.0
"""Seconds the bot (its AI seats) may take before a person's decision is pending again."""
MAX_STEPS_PER_TURN = 60

NAME_KINDS = {
    "ur": ("face",),
    "civsets": ("card", "civ"),
    "flood": ("region", "empire", "res", "bonus", "box"),
    "mesopotamia": ("region", "empire", "tech", "resource", "unit", "quest", "event", "garden",
                    "trade", "river", "action", "colour", "sign"),
}
"""Catalogue kinds of names (``<game>.<kind>.<id>``) that a shape replaces with
``<kind>``."""

MENTION = re.compile(r"<@!?(\d+)>")
TIMESTAMP = re.compile(r"<t:\d+(?::[a-zA-Z])?>")
CELL = re.compile(r"\b[A-F][1-6]\b")
NUMBER = re.compile(r"\d+")
CLAUSES = re.compile(r"\n|; ")
WORD = re.compile(r"\w+")


@dataclass
class Post:
    """One public message of the game channel, as the transcript and the figures see it."""

    seq: int
    text: str
    pinged: list[str]
    buttons: list[str]
    files: list[str]
    in_game: bool
    """Posted from ``/game start`` on."""
    mention_tokens: int = 0
    """Mentions written in it (content and embeds), pinging or not."""
    edited: str = ""
    """Its text once edited, when the bot edited it."""
    to_act: list[str] = field(default_factory=list)
    """The people whose decision was pending when the channel next fell quiet."""


@dataclass
class Run:
    """What one game in one language produced."""

    game: str
    lang: str
    seed: int
    turns: int = 0
    ended: bool = False
    steps: Counter[str] = field(default_factory=Counter)
    posts: list[Post] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    watched: str = ""
    table: list[str] = field(default_factory=list)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def pinged_ids(message: Message) -> set[int]:
    """The members Discord would notify for ``message`` (see the module docstring)."""
    payload = first_payload(message)
    written = {int(m) for m in MENTION.findall(payload.get("content") or "")}
    allowed = payload.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return written
    return written & {int(u) for u in allowed.get("users") or []}


def post_of(message: Message, names: dict[int, str], in_game: bool) -> Post:
    """``message`` as first posted, as a :class:`Post` (mentions written as ``@name``)."""
    payload = first_payload(message)
    first = Message(message.id, message.channel, message.author,
                    content=payload.get("content") or "", embeds=payload.get("embeds") or [],
                    components=payload.get("components") or [])

    def readable(text: str) -> str:
        return MENTION.sub(lambda m: "@" + names.get(int(m.group(1)), m.group(1)), text)

    return Post(
        seq=message.seq, text=readable(first.text),
        pinged=sorted(names.get(i, str(i)) for i in pinged_ids(message)),
        buttons=[b.get("label") or "" for b in first.buttons]
        + [o.get("placeholder") or "(select)" for o in first.iter_components()
           if o.get("type") == 3],
        files=[a.filename for a in message.attachments], in_game=in_game,
        mention_tokens=len(MENTION.findall(first.text)),
        edited=readable(message.text) if message.text != first.text else "")


# ------------------------------------------------------------------ shapes and flags


@cache
def game_names(game: str, lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, placeholder) for every name of ``game`` in ``lang``, longest first."""
    kinds = NAME_KINDS.get(game, ())
    found: dict[str, str] = {}
    for key, value in catalogue(lang).items():
        parts = key.split(".")
        if len(parts) == 3 and parts[0] == game and parts[1] in kinds \
                and isinstance(value, str) and "{" not in value and len(value) > 1:
            found.setdefault(value, f"<{parts[1]}>")
    ordered = sorted(found.items(), key=lambda item: -len(item[0]))
    return tuple((re.compile(rf"(?<!\w){re.escape(name)}(?!\w)"), holder)
                 for name, holder in ordered)


def member_names(people: Iterable[str], lang: str) -> list[str]:
    """The names a shape replaces with ``<name>``: the people's and the AI seats'."""
    ai = [tr(lang, "discord.ai_seat", n=n) for n in range(1, 7)]
    return sorted([*people, *ai], key=len, reverse=True)


def shape(clause: str, game: str, lang: str, names: Sequence[str]) -> str:
    """``clause`` with names, mentions, times, cells and numbers as placeholders."""
    text = TIMESTAMP.sub("<time>", clause)
    for name in names:
        text = re.sub(rf"@?(?<!\w){re.escape(name)}(?!\w)", "<name>", text)
    text = re.sub(r"@\d+", "<name>", text)
    for pattern, holder in game_names(game, lang):
        text = pattern.sub(holder, text)
    text = CELL.sub("<cell>", text)
    return NUMBER.sub("<n>", text).strip()


def clauses(text: str) -> list[str]:
    """The clauses of a post: its lines, and a turn summary's steps."""
    return [c.strip() for c in CLAUSES.split(text) if c.strip()]


def has_run(words: Sequence[str], run: Sequence[str]) -> bool:
    """Whether ``run`` occurs in ``words`` as consecutive words."""
    return f" {' '.join(run)} " in f" {' '.join(words)} "


def repeated_lines(posts: Sequence[Post], names: Sequence[str]) -> list[tuple[int, str]]:
    """(seq, line) of every line of a post that a later post says again word for word (the
    posts after it up to the next turn message, the next post with a board), markup, emoji
    and punctuation left out: the whole line (at least 4 words) in one line of a later
    post, or, for a line that begins with a name ("📣 **alice** answers right..."), the
    rest of it (at least 4 words) in a later line that names the same person ("🎲
    **alice**: challenges bob; answers right..."). A line that mentions someone is a call
    to act, renewed at each turn and counted as a ping, not here."""
    named = [WORD.findall(name) for name in names]
    found = []
    for index, post in enumerate(posts):
        window = []
        for later in posts[index + 1:]:
            window += [WORD.findall(line) for line in later.text.split("\n")]
            if later.files:
                break
        for line in post.text.split("\n"):
            if "@" in line:
                continue
            words = WORD.findall(line)
            who = next((n for n in named if n and words[:len(n)] == n), [])
            rest = words[len(who):]
            if len(rest) >= 4 and any(has_run(other, rest) and has_run(other, who)
                                      for other in window):
                found.append((post.seq, line))
    return found


def nearest_rank(values: Sequence[int], q: float) -> int:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def figures(run: Run) -> dict[str, Any]:
    """The run's figures (see the module docstring)."""
    posts = [p for p in run.posts if p.in_game]
    turns = max(run.turns, 1)
    names = member_names(run.table, run.lang)
    shapes: dict[str, dict[str, Any]] = {}
    for post in posts:
        for clause in clauses(post.text):
            entry = shapes.setdefault(shape(clause, run.game, run.lang, names),
                                      {"count": 0, "flags": set(), "example": clause})
            entry["count"] += 1
            entry["flags"] |= flags(clause, run.lang)
    chars = [len(p.text) for p in posts]
    pings = sum(len(p.pinged) for p in posts)
    stray = sum(1 for p in posts for who in p.pinged if who not in p.to_act)
    repeats = repeated_lines(posts, names)
    flagged = Counter(f for s in shapes.values() for f in s["flags"])
    return {
        "game": run.game, "lang": run.lang, "seed": run.seed, "turns": run.turns,
        "ended": run.ended, "steps": dict(run.steps), "seconds": round(run.seconds, 1),
        "posts": len(posts), "posts_per_turn": round(len(posts) / turns, 2),
        "pings": pings, "pings_per_turn": round(pings / turns, 2), "stray_pings": stray,
        "mention_tokens": sum(p.mention_tokens for p in posts),
        "chars": {"median": int(statistics.median(chars)) if chars else 0,
                  "p95": nearest_rank(chars, 0.95), "max": max(chars, default=0)},
        "shapes": len(shapes), "flagged_shapes": dict(flagged),
        "repeated_lines": len(repeats), "repeated_examples": [line for _, line in repeats[:5]],
        "problems": run.problems,
        "shape_list": [{"shape": s, "count": v["count"], "flags": sorted(v["flags"]),
                        "example": v["example"]}
                       for s, v in sorted(shapes.items(), key=lambda kv: -kv[1]["count"])],
    }


# ------------------------------------------------------------------ playing


class Player:
    """The people of one table and what they do when their decision is pending."""

    def __init__(self, w: World, tmp: Path, run: Run, people: list[FakeUser],
                 rng: random.Random, panel_share: float = PANEL_SHARE) -> None:
        self.w, self.tmp, self.run, self.people, self.rng = w, tmp, run, people, rng
        self.panel_share = panel_share
        self.engine = registry.get(run.game).engine
        self.watched = people[0]
        self.seats: dict[int, int] = {}
        self.moments: list[tuple[int, list[str]]] = []

    def pending(self, snap: Snapshot) -> list[FakeUser]:
        """The people whose decision is pending in ``snap``."""
        active = self.engine.active(snap.state)
        return [u for u in self.people if self.seats.get(u.id) in active]

    async def settle(self, version: int) -> Snapshot:
        """The game once the bot has reacted to the last step (its version no longer
        ``version``, unless :data:`GRACE` s passed: a refused step changes nothing), its
        AI seats played, its posts out, the channel quiet for :data:`QUIET` s."""
        start = time.monotonic()
        deadline = start + REACT_TIMEOUT
        mark, since = self.w.fake.mark(), start
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            if self.w.fake.mark() != mark:
                mark, since = self.w.fake.mark(), time.monotonic()
                continue
            snap = snapshot(self.tmp)
            over = self.engine.outcome(snap.state) is not None
            waiting = over or bool(self.pending(snap))
            moved = snap.version != version or time.monotonic() - start > GRACE
            if moved and snap.posted and waiting and time.monotonic() - since >= QUIET:
                self.moments.append((mark, [u.name for u in self.pending(snap)]))
                return snap
        raise TimeoutError(f"the game stayed at version {version} for {REACT_TIMEOUT} s")

    def latest(self, user: FakeUser, action: str) -> Message | None:
        """The newest public post with a component ``action`` ("Take my turn", which opens
        the panel of whoever presses it, or "My panel"); for another, one mentioning
        ``user``."""
        for message in reversed(self.w.posts()):
            if (message.mentions(user.id) or action in ("me", "turn")) \
                    and component(message, action):
                return message
        return None

    def question(self, user: FakeUser) -> Message | None:
        """A public question that mentions ``user`` and can still be answered."""
        for message in reversed(self.w.posts()):
            if message.mentions(user.id) and message.custom_ids:
                return message if question_ids(message) else None
        return None

    def note(self, user: FakeUser, message: Message | None) -> None:
        """Keep what the watched member was answered privately."""
        if user is self.watched and message is not None and message.ephemeral:
            self.run.private.append(message.text)

    async def act(self, user: FakeUser) -> None:
        """One step of ``user``: a public question's answer, a panel step or ``/play``."""
        question = self.question(user)
        if question is not None:
            pressed = await user.press(question, self.rng.choice(question.custom_ids))
            await pressed.response()
            self.note(user, pressed.message)
            self.run.steps["question"] += 1
            return
        if self.rng.random() < self.panel_share and await self.by_panel(user):
            self.run.steps["panel"] += 1
            return
        choices = await user.autocomplete("play", "action", "", channel=self.w.channel)
        if not choices:
            self.run.problems.append(f"{user.name}: /play offered nothing on a pending decision")
            return
        answer = await (await user.slash("play", channel=self.w.channel,
                                         action=self.rng.choice(choices)["value"])).final()
        self.note(user, answer)
        self.run.steps["play"] += 1

    async def by_panel(self, user: FakeUser) -> bool:
        """One random step from ``user``'s private panel; False when none opened."""
        found = [(post, action) for action in ("turn", "me")
                 if (post := self.latest(user, action)) is not None]
        if not found:
            return False
        post, action = found[0]
        custom_id = component(post, action)
        assert custom_id is not None
        panel = await (await user.press(post, custom_id)).final()
        self.note(user, panel)
        if not is_panel(panel):
            return False
        chosen, values = pick_component(panel, self.rng)
        await click(self.w, user, panel, chosen, values)
        self.note(user, panel)
        return True

    async def play(self, turns: int, seconds: float) -> None:
        """Play until ``turns`` turns are over, the game ends or ``seconds`` have passed."""
        self.seats = seats_of(self.tmp)[0]
        started, version = time.monotonic(), -1
        for _ in range(MAX_STEPS_PER_TURN * turns):
            snap = await self.settle(version)
            version = snap.version
            self.run.turns = self.engine.turn_number(snap.state)
            if self.engine.outcome(snap.state) is not None:
                self.run.ended = True
                await self.w.fake.wait_for_channel_message(
                    self.w.channel, lambda m: any(":rematch" in c for c in m.custom_ids),
                    timeout=REACT_TIMEOUT)
                return
            if self.run.turns >= turns or time.monotonic() - started > seconds:
                return
            for user in self.pending(snap):
                await self.act(user)
                if self.engine.active(snapshot(self.tmp).state) != \
                        self.engine.active(snap.state):
                    break


async def play_at(run: Run, tmp: Path, opts: argparse.Namespace) -> None:
    """Open a game of ``run.game`` in a ``run.lang`` server (its database and the bot's
    log under ``tmp``), play it and keep what was posted in ``run``."""
    game, lang = run.game, run.lang
    table = Table(opts.people or TABLES[game].people,
                  TABLES[game].ai if opts.ai is None else opts.ai)
    title = translate(registry.get(game).engine.meta.name, lang)
    rng = random.Random(f"{opts.seed}:{game}:{lang}")
    async with world(tmp, seed=opts.seed, locale=LOCALES[lang]) as w:
        people = [w.user(name, locale=LOCALES[lang]) for name in PEOPLE[lang][:table.people]]
        names = {u.id: u.name for u in people}
        await open_game(w, people[0], people[1:], ai=table.ai, game=game, title=title,
                        options=opts.options)
        start = next(m.seq for m in w.posts() if m.interaction is not None
                     and m.interaction.name == "game start")
        player = Player(w, tmp, run, people, rng, opts.panel)
        run.watched = people[0].name
        try:
            await player.play(opts.turns, opts.minutes * 60)
        except (TimeoutError, AssertionError) as error:
            run.problems.append(f"stopped: {error}")
        run.table = list(seats_of(tmp)[1])
        run.posts = [post_of(m, names, m.seq >= start) for m in w.posts()]
        for post in run.posts:
            post.to_act = next((who for mark, who in player.moments if mark >= post.seq), [])
        run.private += [f"(direct message) {m.text}" for m in people[0].dm.messages]


async def play_one(game: str, lang: str, opts: argparse.Namespace) -> Run:
    """Open a game of ``game`` in a ``lang`` server and play it (see the module docstring)."""
    run = Run(game, lang, opts.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"narration-{game}-{lang}-") as tmp:
        try:
            await play_at(run, Path(tmp), opts)
        except AssertionError as error:    # what world() checks when it closes
            run.problems.append(f"the stand-in or the bot's log: {error}"[:500])
    run.seconds = time.monotonic() - started
    return run


# ------------------------------------------------------------------ output


def transcript(run: Run, shape_list: Sequence[dict[str, Any]]) -> str:
    """The public transcript of ``run`` in Markdown, then its shapes."""
    title = translate(registry.get(run.game).engine.meta.name, run.lang)
    lines = [f"# {title} · {run.lang} · seed {run.seed} · {run.turns} turns"
             f"{' (game over)' if run.ended else ''}", "",
             f"Table: {', '.join(run.table)}. Every public post of the game channel, in "
             "order (mentions written @name; *pings* are the members Discord would "
             "notify). The game starts at the reply to `/game start`.", ""]
    for number, post in enumerate(run.posts, 1):
        head = [f"**#{number}**"]
        if not post.in_game:
            head.append("lobby")
        if post.pinged:
            head.append("pings " + ", ".join(f"@{p}" for p in post.pinged))
        if post.files:
            head.append("files: " + ", ".join(post.files))
        lines += [" · ".join(head), ""]
        lines += [f"> {line}" if line else ">" for line in post.text.split("\n")]
        if post.buttons:
            lines += ["", " ".join(f"`[{label}]`" for label in post.buttons)]
        if post.edited:
            lines += ["", "*edited later to:*", ""]
            lines += [f"> {line}" if line else ">" for line in post.edited.split("\n")]
        lines.append("")
    lines += ["## Shapes", "", "| count | flags | shape |", "|---|---|---|"]
    lines += [f"| {s['count']} | {' '.join(s['flags'])} | {s['shape'].replace('|', '/')} |"
              for s in shape_list]
    return "\n".join(lines) + "\n"


def private_transcript(run: Run) -> str:
    """Every private answer the watched member got, in order."""
    lines = [f"# {run.game} · {run.lang} · private answers of {run.watched}", ""]
    for number, text in enumerate(run.private, 1):
        lines += [f"**#{number}**", ""]
        lines += [f"> {line}" if line else ">" for line in text.split("\n")]
        lines.append("")
    return "\n".join(lines)


def table_row(fig: dict[str, Any]) -> str:
    """One line of the printed table."""
    chars = fig["chars"]
    flagged = fig["flagged_shapes"]
    return (f"{fig['game']:<12} {fig['lang']:<3} {fig['turns']:>5} {fig['posts_per_turn']:>6.2f}"
            f" {fig['pings_per_turn']:>6.2f} {fig['stray_pings']:>5}"
            f" {chars['median']:>5}/{chars['p95']:>4}/{chars['max']:>4} {fig['shapes']:>6}"
            f" {flagged.get('you', 0):>4} {flagged.get('command', 0):>4}"
            f" {flagged.get('notation', 0):>4} {flagged.get('untranslated', 0):>4}"
            f" {fig['repeated_lines']:>5}")


HEADER = (f"{'game':<12} {'lg':<3} {'turns':>5} {'posts':>6} {'pings':>6} {'stray':>5}"
          f" {'chars p50/p95/max':>15} {'shapes':>6} {'you':>4} {'cmd':>4} {'nota':>4}"
          f" {'lang':>4} {'rep':>5}")


async def main_async(opts: argparse.Namespace) -> list[dict[str, Any]]:
    """Play every requested game and language; print and write the figures."""
    results = []
    for game in opts.games.split(","):
        for lang in opts.langs.split(","):
            run = await play_one(game, lang, opts)
            fig = figures(run)
            results.append(fig)
            print(f"\n== {game} {lang}: {run.turns} turns in {run.seconds:.0f} s, steps "
                  f"{dict(run.steps)}{'; ' + '; '.join(run.problems) if run.problems else ''}")
            for item in fig["shape_list"]:
                print(f"  {item['count']:>4} {','.join(item['flags']):<22} {item['shape']}")
            if opts.out:
                out = Path(opts.out)
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{game}-{lang}.md").write_text(transcript(run, fig["shape_list"]))
                (out / f"{game}-{lang}.private.md").write_text(private_transcript(run))
    print("\n" + HEADER)
    print("(posts, pings: per turn; pings: members notified, mentions in the content that"
          " allowed_mentions lets through; stray: pinged but not to decide; shapes: distinct"
          " clause shapes and how many speak to you, name a command, show notation, mix"
          " languages; rep: lines a later post repeats, up to the next turn message)")
    for fig in results:
        print(table_row(fig))
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return results


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=6.0,
                        help="wall-clock cap of one game and language")
    parser.add_argument("--out", default="", help="folder for the Markdown transcripts")
    parser.add_argument("--json", default="", help="file for the figures")
    parser.add_argument("--panel", type=float, default=PANEL_SHARE,
                        help="share of a person's steps taken from their panel (0-1)")
    parser.add_argument("--people", type=int, default=0,
                        help=f"people at the table, at most {len(PEOPLE['en'])} (default: "
                             "a typical table per game)")
    parser.add_argument("--ai", type=int, default=None, help="AI seats at the table")
    parser.add_argument("--options", default="",
                        help="the game's options, as /game new takes them (expansions=both)")
    opts = parser.parse_args(argv)
    if not 0 <= opts.people <= len(PEOPLE["en"]):
        parser.error(f"--people: from 1 to {len(PEOPLE['en'])} (0: a typical table)")
    return opts


if __name__ == "__main__":
    asyncio.run(main_async(parse_args()))
