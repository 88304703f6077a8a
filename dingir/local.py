"""Terminal play of any hosted game, in the same notation as the bot.

Usage::

    python -m dingir.local GAME [--players N] [--seed S] [--ai 2,3 | --ai all]
                             [--mode VALUE] [--option NAME=VALUE ...] [--script FILE]
                             [--out DIR] [--lang en|fr]

Seats are numbered from 1 on the command line and in the output. ``--players`` counts the
seats of people and of the AI; a game's own opponent, seated by an option, takes one more, the
last (alone against Mesopotamia's Automaton: ``mesopotamia --players 1``, at the level for one
person, or ``--option automaton=anunnaki``; ``--mode siege`` or ``--mode guardians``, short for
``--option mode=VALUE``, for a game with the option ``mode``). Whoever must
decide is named (several seats may have a decision at once: sealed bids, an
offer to answer; each is asked in turn); in a game with secrets, a seat is shown
what it alone may see when the decision is its own, and the steps of the others only as
that seat may know them (an AI's, as the one human seat may, without their notation).
A human seat types steps in the game's notation, or ``undo`` (take back your last step
of this turn, by the bot's rule: :meth:`bot.service.turns.Turns.undo`), ``board`` (the
board as text), ``help`` (list the legal steps again) or ``quit``. Each step is printed
with what it did, and the board as text after each turn. The game runs on a game service
of its own, as in the bot (its turn loop plays the AI seats; the end of the game is told
in the same lines). Steps come from the terminal, from standard input when it is not a
terminal (one per line), or from ``--script FILE`` (one step per line, for whichever human
seat is to play; blank lines and ``#`` comments are ignored). AI seats play by :mod:`bot.ai`.
With ``--out DIR`` the public board is written as ``DIR/turn-NNN.png`` whenever
a turn ends, and ``DIR/final.png`` at the end.

The last line printed at the end is one JSON object, seats 1-based, ``ranking`` best
first by the game's own rule (groups of tied seats)::

    {"scores": {"1": 23, "2": 17, "3": 20}, "winners": [1], "ranking": [[1], [3], [2]]}

A game with a non-player side (an automaton) adds ``"sides"`` (its score under its
name in ``scores``, and in ``winners`` if it won); a cooperative result adds
``"together": "won"`` or ``"lost"`` and ``"team_score"``.

Exit status: 0 the game ended; 1 a script line was refused (the message names
the line and the reason); 2 bad command line; 3 the steps ran out (end of the
script or of the input) or ``quit``; 4 the engine offered no step (a bug).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bot import ai
from bot.catalogue import player_count
from bot.clock import FakeClock
from bot.engine import Action, Game, GameError, GameMeta, Outcome, Seat, Text
from bot.i18n import LANGUAGES, tr, translate
from bot.notation import localized
from bot.records import GameRecord, Played, Player, ServiceError, StepResult
from bot.service import GameService, Searcher
from bot.service.final import final_lines
from bot.store import open_store
from host import registry
from host.registry import CATALOGUE
from render.context import RenderContext, Renderer

EXIT_OK = 0
EXIT_SCRIPT_ERROR = 1
EXIT_USAGE = 2
EXIT_STOPPED = 3
EXIT_DEAD_END = 4



class Source:
    """Where human steps come from: numbered lines, skipping blanks and ``#`` comments."""

    def __init__(self, lines: Iterator[str], name: str, script: bool, tty: bool) -> None:
        self.lines = lines
        self.name = name
        self.script = script
        self.tty = tty
        self.line = 0

    def next(self, prompt: str) -> str | None:
        """The next step text (prompting on a terminal), or None when the input is over."""
        while True:
            try:
                raw = input(prompt) if self.tty else next(self.lines)
            except (EOFError, StopIteration, KeyboardInterrupt):
                return None
            self.line += 1
            text = raw.split("#", 1)[0].strip()
            if text:
                return text


CHANNEL = 1
"""The one "channel" of the terminal's service: one game at a time."""


class LocalGame:
    """One game played in the terminal: a front end of the game service (its turn loop,
    undo rule and end-of-game text), as the Discord channel is; the rules all come from
    the engine, through the service."""

    def __init__(self, service: GameService, record: GameRecord, renderer: Renderer,
                 ai_seats: frozenset[Seat], lang: str, out: Path | None) -> None:
        self.service = service
        self.record = record
        self.renderer = renderer
        self.ai_seats = ai_seats
        self.lang = lang
        self.out = out
        self.hidden = CATALOGUE.meta(record.game).hidden_information
        self.names = tuple(       # a seat no person nor AI plays: the game's own opponent's
            translate(CATALOGUE.scripted_name(record, s) or Text.of("local.seat_name", n=s + 1),
                      lang) if s not in ai_seats else tr(lang, "local.ai_name", n=s + 1)
            for s in range(len(record.seats))
        )
        self.shown: int | None = None
        """The turn whose board was shown last."""
        self.turn: list[Played] = []
        """The steps of the current turn (the one an undo takes back is among them)."""

    def say(self, key: str, **args: str | int | Text) -> None:
        """Print one catalogue message."""
        print(tr(self.lang, key, **args))

    async def run(self, source: Source) -> int:
        """Play until the game ends or the steps run out; the exit status."""
        await self.service.loop.move_on(self.record.id, self)    # the AI may move first
        prompted: tuple[int, Seat] | None = None
        while (record := await self.latest()).status == "running":
            seat = next((s for s in record.active if not self.service.core.is_ai(record, s)), None)
            if seat is None:                  # the service's seats play on (a long run)
                if not await self.service.loop.move_on(record.id, self):
                    return self.dead_end(None)
                continue
            legal = CATALOGUE.legal_steps(record, seat)
            if not legal:
                return self.dead_end(seat)
            if prompted != (record.version, seat):
                prompted = (record.version, seat)
                self.show_turn(seat, legal)
            status = await self.human(source, seat, legal)
            if status is not None:
                return status
        outcome = self.service.core.outcome(record)
        if outcome is None:
            return self.dead_end(None)
        self.write_board("final.png")
        for line in final_lines(outcome, "local"):
            print(self.text(line))
        print(json.dumps(result_json(outcome, self.lang)))
        return EXIT_OK

    async def latest(self) -> GameRecord:
        """The game as the service has it now."""
        self.record = await self.service.core.get_by_id(self.record.id) or self.record
        return self.record

    def dead_end(self, seat: Seat | None) -> int:
        """Say that the engine offers no step (a bug in the game)."""
        self.say("local.dead_end", name="-" if seat is None else self.names[seat])
        return EXIT_DEAD_END

    def text(self, text: Text) -> str:
        """``text`` in the game's language, seats written as their names."""
        return translate(text, self.lang, self.names)

    def show_turn(self, seat: Seat, legal: list[Action]) -> None:
        """Whose decision it is, what only that seat may see, what it is asked, and the
        legal steps with their notation and label."""
        self.say("local.turn_header", turn=self.record.turn + 1, name=self.names[seat])
        if self.hidden:
            self.say("local.private_view", name=self.names[seat])
            print(self.board_text(seat))
        prompt = CATALOGUE.prompt(self.record, seat)
        if prompt is not None:
            print(self.text(prompt.text))
        self.show_legal(legal)

    def show_legal(self, legal: list[Action]) -> None:
        """The steps a player may choose, one a line: notation (in the player's language)
        then label."""
        self.say("local.legal_header")
        legal = [action for action in legal if action.offered]
        typed = [localized(self.record.game, action.notation, self.lang) for action in legal]
        width = max(len(notation) for notation in typed)
        for notation, action in zip(typed, legal, strict=True):
            print(f"  {notation:<{width}}  {self.text(action.label)}")

    def board_text(self, seat: Seat | None = None) -> str:
        """The board as ``seat`` sees it (None: the public board), as text."""
        return self.renderer.text(CATALOGUE.view(self.record, seat),
                                  RenderContext(self.names, self.lang))

    async def human(self, source: Source, seat: Seat, legal: list[Action]) -> int | None:
        """Read and apply one human input; an exit status if play must stop."""
        name = self.names[seat]
        text = source.next(tr(self.lang, "local.prompt", name=name))
        if text is None:
            key = "local.script_ended" if source.script else "local.input_ended"
            self.say(key, file=source.name, line=source.line, name=name)
            return EXIT_STOPPED
        command = text.lower()
        if command == "quit":
            self.say("local.quit")
            return EXIT_STOPPED
        if command == "help":
            self.show_legal(legal)
            return None
        if command == "board":
            print(self.board_text(seat if self.hidden else None))
            return None
        try:
            if command == "undo":
                await self.undo(seat)
            else:
                result = await self.service.turns.play_by_id(self.record.id, user_of(seat), text,
                                                             lang=self.lang)
                await self.service.loop.move_on(self.record.id, self, result)
        except (GameError, ServiceError) as error:
            return self.refuse(source, text, error.reason)
        return None

    def refuse(self, source: Source, text: str, reason: Text) -> int | None:
        """Report a refused input: fatal in a script, a new try otherwise."""
        if source.script:
            message = tr(
                self.lang, "local.script_error", file=source.name, line=source.line,
                text=text, reason=self.text(reason),
            )
            print(message, file=sys.stderr)
            return EXIT_SCRIPT_ERROR
        self.say("local.refused", text=text, reason=self.text(reason))
        return None

    def reader(self, seat: Seat) -> Seat | None:
        """Who reads ``seat``'s steps at this keyboard: a human seat itself; an AI seat's,
        the one human seat when there is one (None: only what everyone may know)."""
        humans = [s for s in range(len(self.names)) if s not in self.ai_seats]
        if seat in humans:
            return seat
        return humans[0] if len(humans) == 1 else None

    async def show_missing(self, record: GameRecord) -> None:
        """The board that was never shown (the start's): its image."""
        self.record = record
        if self.shown != record.turn:
            self.write_board(f"turn-{record.turn:03d}.png")

    async def tell(self, steps: Sequence[StepResult]) -> None:
        """Say what each step did as the one at the keyboard may read it (in a game with
        secrets, another seat's step that some seats read otherwise without its notation,
        which may name a hidden card), and the board (text and image) after each turn."""
        for result in steps:
            self.record = result.record
            report, seat = result.report, result.seat
            reader = self.reader(seat)
            told = self.text(report.for_seat(reader))
            if self.hidden and reader != seat and report.private:
                self.say("local.played_unseen", name=self.names[seat], label=told)
            else:
                self.say("local.played", name=self.names[seat], label=told,
                         notation=localized(result.record.game, result.action.notation,
                                            self.lang))
            if report.detail is not None:        # the whole story of a question answered
                print(self.text(report.detail))
            self.turn = [] if result.turn_ended else list(result.turn_steps)
            if result.turn_ended:
                print(self.board_text())
                self.write_board(f"turn-{result.record.turn:03d}.png")

    async def undo(self, seat: Seat) -> None:
        """Take back ``seat``'s last step of this turn (the service's undo rule)."""
        await self.service.turns.undo(CHANNEL, user_of(seat))
        undone = next(p for p in reversed(self.turn) if p.seat == seat)
        self.turn.remove(undone)
        self.say("local.undone", notation=undone.action.notation)

    def write_board(self, filename: str) -> None:
        """Write the public board image to the output directory, if there is one."""
        self.shown = self.record.turn
        if self.out is None:
            return
        path = self.out / filename
        path.write_bytes(self.renderer.png(CATALOGUE.view(self.record),
                                           RenderContext(self.names, self.lang)))
        self.say("local.board_written", path=str(path))


def user_of(seat: Seat) -> int:
    """The member id the terminal gives a human seat."""
    return seat + 1


def one_generator(rng: random.Random) -> Searcher:
    """The terminal's AI: :func:`bot.ai.choose` drawing from one generator seeded by the
    game's seed (not one per decision, as in the bot), so that a game replays as it always
    did in the terminal."""
    async def search(game: str, engine: Game, view: dict[str, Any], legal: list[Action],
                     seat: Seat, seed: str) -> Action:
        return ai.choose(engine, view, legal, seat, rng)
    return search


async def play(game: str, renderer: Renderer, players: int, options: dict[str, str],
               seed: int, ai_seats: frozenset[Seat], lang: str, out: Path | None,
               source: Source) -> int:
    """Play one game on a game service of its own (a database in a temporary folder, a
    clock that stands still: no decision's clock runs out at the keyboard); the exit
    status."""
    with tempfile.TemporaryDirectory(prefix="dingir-local-") as folder:
        store = await open_store(Path(folder) / "local.sqlite3", durable=False)
        try:
            service = GameService(store, FakeClock(), seed_source=lambda: seed,
                                  catalogue=CATALOGUE,
                                  ai_search=one_generator(random.Random(f"dingir-ai:{seed}")))
            seats = [None if s in ai_seats else Player(user_of(s), f"Seat {s + 1}")
                     for s in range(players)]
            try:
                record = await service.lobby.open_table(CHANNEL, game, options, seats, lang)
            except (GameError, ServiceError) as error:     # a table the rules refuse
                print(tr(lang, "local.table_refused", reason=translate(error.reason, lang)),
                      file=sys.stderr)
                return EXIT_USAGE
            return await LocalGame(service, record, renderer, ai_seats, lang, out).run(source)
        finally:
            await store.close()


def result_json(outcome: Outcome, lang: str = "en") -> dict[str, object]:
    """The final JSON line: scores by 1-based seat (as strings) and 1-based winners; a
    non-player side scores under its name and wins as its name; a shared result says so."""
    def key(entry: int) -> str:
        side = outcome.side(entry)
        return translate(side, lang) if side is not None else str(entry + 1)

    def name(entry: int) -> int | str:
        return entry + 1 if outcome.side(entry) is None else key(entry)

    data: dict[str, object] = {
        "scores": {key(entry): score for entry, score in enumerate(outcome.scores)},
        "winners": [name(entry) for entry in outcome.winners],
        "ranking": [[name(entry) for entry in group] for group in outcome.ranking],
    }
    if outcome.sides:
        data["sides"] = [translate(side, lang) for side in outcome.sides]
    if outcome.together is not None:
        data["together"] = outcome.together
        data["team_score"] = outcome.team_score
    return data


def parse_ai(text: str | None, n_players: int) -> frozenset[Seat]:
    """The 0-based AI seats from ``--ai`` (``2,3`` or ``all``); ValueError if malformed."""
    if not text:
        return frozenset()
    if text.strip().lower() == "all":
        return frozenset(range(n_players))
    seats = {int(part) - 1 for part in text.split(",")}
    if not all(0 <= seat < n_players for seat in seats):
        raise ValueError(text)
    return frozenset(seats)


def parse_options(meta: GameMeta, pairs: Sequence[str], lang: str) -> dict[str, str]:
    """The game options: defaults overridden by ``NAME=VALUE`` pairs; ValueError saying what
    is wrong with a pair and what the game allows (its options, or the option's values)."""
    specs = {spec.name: spec for spec in meta.options}
    options = {spec.name: spec.default for spec in meta.options}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        spec = specs.get(name.strip())
        if not sep or spec is None:
            raise ValueError(tr(lang, "local.bad_option", text=pair, game=meta.name,
                                names=", ".join(specs) or "-"))
        if spec.choices and value.strip() not in spec.choices:
            raise ValueError(tr(lang, "local.bad_value", text=pair, name=spec.name,
                                values=", ".join(spec.choices)))
        options[spec.name] = value.strip()
    return options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dingir.local", description="Play a Dingir game in the terminal."
    )
    parser.add_argument("game", help="game id: " + ", ".join(registry.ids()))
    parser.add_argument("--players", type=int, help="number of seats (default: the minimum)")
    parser.add_argument("--seed", type=int, help="setup seed (default: random, printed)")
    parser.add_argument("--ai", metavar="SEATS", help="AI seats, 1-based: 2,3 or all")
    parser.add_argument("--mode", metavar="VALUE",
                        help="the game option mode (--option mode=VALUE)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable)")
    parser.add_argument("--script", type=Path, metavar="FILE",
                        help="read the human steps from FILE, one a line")
    parser.add_argument("--out", type=Path, metavar="DIR", help="write board PNGs to DIR")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the texts")
    return parser


def _source(script: Path | None) -> Source:
    if script is not None:
        lines = script.read_text(encoding="utf-8").splitlines()
        return Source(iter(lines), str(script), script=True, tty=False)
    tty = sys.stdin.isatty()
    return Source(iter(()) if tty else iter(sys.stdin), "-", script=False, tty=tty)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (see the module docstring)."""
    parser = _parser()
    args = parser.parse_args(argv)
    lang: str = args.lang
    if args.game not in registry.GAMES:
        known = ", ".join(registry.ids())
        parser.error(tr(lang, "local.unknown_game", game=args.game, known=known))
    meta = CATALOGUE.meta(args.game)
    pairs = [*args.option, *([] if args.mode is None else [f"mode={args.mode}"])]
    try:
        options = parse_options(meta, pairs, lang)
    except ValueError as error:
        parser.error(str(error))
    script = next((s for s in CATALOGUE.scripts if s.game == args.game), None)
    if script is not None and args.players and args.players < meta.min_players \
            and not script.seats(options):         # too few people: its opponent plays
        options[script.option] = script.solo
    added = script.seats(options) if script is not None else 0
    players: int = args.players or meta.min_players - added
    if not meta.min_players <= players + added <= meta.max_players:
        parser.error(tr(lang, "local.bad_players", game=meta.name, players=player_count(meta)))
    try:
        ai_seats = parse_ai(args.ai, players)
    except ValueError:
        parser.error(tr(lang, "local.bad_ai", text=args.ai, n=players))
    seed: int = args.seed if args.seed is not None else secrets.randbits(63)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    print(tr(lang, "local.intro", game=meta.name, n=players, seed=seed))
    renderer = registry.get(args.game).renderer
    return asyncio.run(play(args.game, renderer, players, options, seed, ai_seats, lang,
                            args.out, _source(args.script)))


if __name__ == "__main__":
    sys.exit(main())
