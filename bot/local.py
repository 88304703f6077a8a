"""Terminal play of any hosted game, in the same notation as the bot.

Usage::

    python -m bot.local GAME [--players N] [--seed S] [--ai 2,3 | --ai all]
                             [--option NAME=VALUE ...] [--script FILE] [--out DIR]
                             [--lang en|fr]

Seats are numbered from 1 on the command line and in the output. Whoever must
decide is named (several seats may have a decision at once: sealed bids, an
offer to answer; each is asked in turn); in a game with secrets, a seat is shown
what it alone may see when the decision is its own, and the steps of the others only as
that seat may know them (an AI's, as the one human seat may, without their notation).
A human seat types steps in the game's notation, or ``undo`` (take back your last step
of this turn), ``board`` (the board as text), ``help`` (list the legal steps again) or
``quit``. Each step is printed with what it did, and the board as text after
each turn. Steps come from
the terminal, from standard input when it is not a terminal (one per line), or
from ``--script FILE`` (one step per line, for whichever human seat is to play;
blank lines and ``#`` comments are ignored). AI seats play by :mod:`bot.ai`.
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
import json
import random
import secrets
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from bot import ai, chance, registry
from bot.engine import Action, Game, GameError, Outcome, Seat, State, Text
from bot.i18n import LANGUAGES, tr, translate
from bot.notation import localized, parse_typed
from bot.replay import Step, apply_steps
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


class LocalGame:
    """One game played in the terminal; the rules all come from the engine."""

    def __init__(
        self,
        game: Game,
        renderer: Renderer,
        n_players: int,
        state: State,
        ai_seats: frozenset[Seat],
        ai_rng: random.Random,
        lang: str,
        out: Path | None,
    ) -> None:
        self.game = game
        self.renderer = renderer
        self.state = state
        self.ai_seats = ai_seats
        self.ai_rng = ai_rng
        self.lang = lang
        self.out = out
        self.names = tuple(
            tr(lang, "local.ai_name" if s in ai_seats else "local.seat_name", n=s + 1)
            for s in range(n_players)
        )
        self.log: list[Step] = []
        self.turn_start = state
        self.turn_base = 0  # index in the log of the first step of this turn
        self.undo_floor = 0  # steps before this index can no longer be undone

    def say(self, key: str, **args: str | int | Text) -> None:
        """Print one catalogue message."""
        print(tr(self.lang, key, **args))

    def run(self, source: Source) -> int:
        """Play until the game ends or the steps run out; the exit status."""
        self.write_board(f"turn-{self.game.turn_number(self.state):03d}.png")
        prompted: tuple[State, Seat] | None = None
        while (outcome := self.game.outcome(self.state)) is None:
            active = self.game.active(self.state)
            seat = next((s for s in active if s in self.ai_seats), active[0] if active else -1)
            legal = self.game.legal(self.state, seat) if active else []
            if not legal:
                self.say("local.dead_end", name=self.names[seat] if active else "-")
                return EXIT_DEAD_END
            if seat in self.ai_seats:
                view = self.game.view(self.state, seat)
                self.play(seat, ai.choose(self.game, view, legal, seat, self.ai_rng))
                continue
            if prompted is None or prompted[0] is not self.state or prompted[1] != seat:
                prompted = (self.state, seat)
                self.show_turn(seat, legal)
            status = self.human(source, seat, legal)
            if status is not None:
                return status
        self.write_board("final.png")
        self.show_outcome(outcome)
        return EXIT_OK

    def text(self, text: Text) -> str:
        """``text`` in the game's language, seats written as their names."""
        return translate(text, self.lang, self.names)

    def show_turn(self, seat: Seat, legal: list[Action]) -> None:
        """Whose decision it is, what only that seat may see, what it is asked, and the
        legal steps with their notation and label."""
        self.say("local.turn_header", turn=self.game.turn_number(self.state) + 1,
                 name=self.names[seat])
        if self.game.meta.hidden_information:
            self.say("local.private_view", name=self.names[seat])
            print(self.board_text(seat))
        prompt = self.game.prompt(self.state, seat)
        if prompt is not None:
            print(self.text(prompt.text))
        self.show_legal(legal)

    def show_legal(self, legal: list[Action]) -> None:
        """The steps a player may choose, one a line: notation (in the player's language)
        then label."""
        self.say("local.legal_header")
        legal = [action for action in legal if action.offered]
        typed = [localized(self.game.meta.id, action.notation, self.lang) for action in legal]
        width = max(len(notation) for notation in typed)
        for notation, action in zip(typed, legal, strict=True):
            print(f"  {notation:<{width}}  {self.text(action.label)}")

    def board_text(self, seat: Seat | None = None) -> str:
        """The board as ``seat`` sees it (None: the public board), as text."""
        view = self.game.view(self.state, seat)
        return self.renderer.text(view, RenderContext(self.names, self.lang))

    def human(self, source: Source, seat: Seat, legal: list[Action]) -> int | None:
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
            print(self.board_text(seat if self.game.meta.hidden_information else None))
            return None
        try:
            if command == "undo":
                self.undo(seat)
            else:
                self.play(seat, parse_typed(self.game, self.state, seat, text, self.lang))
        except GameError as error:
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

    def play(self, seat: Seat, action: Action) -> None:
        """Apply one step, say what it did as the one at the keyboard may read it (in a
        game with secrets, another seat's step that some seats read otherwise without its
        notation, which may name a hidden card), and keep the turn bookkeeping (undo,
        board text and images)."""
        before = self.state
        self.state = self.game.apply(before, seat, action)
        self.log.append(Step(seat, action.notation))
        report = self.game.report(before, seat, action, self.state)
        reader = self.reader(seat)
        told = self.text(report.for_seat(reader))
        if self.game.meta.hidden_information and reader != seat and report.private:
            self.say("local.played_unseen", name=self.names[seat], label=told)
        else:
            self.say("local.played", name=self.names[seat],
                     notation=localized(self.game.meta.id, action.notation, self.lang),
                     label=told)
        if report.detail is not None:        # the whole story of a question answered
            print(self.text(report.detail))
        turn = self.game.turn_number(self.state)
        if turn != self.game.turn_number(before):
            self.turn_start = self.state
            self.turn_base = self.undo_floor = len(self.log)
            print(self.board_text())
            self.write_board(f"turn-{turn:03d}.png")
        elif not self.game.is_reversible(before, seat, action) or chance.drew(before, self.state):
            self.undo_floor = len(self.log)

    def undo(self, seat: Seat) -> None:
        """Take back ``seat``'s last step of this turn by replaying the turn without it."""
        if len(self.log) <= self.undo_floor or self.log[-1].seat != seat:
            irreversible = self.undo_floor > self.turn_base and self.log[-1].seat == seat
            key = "local.undo_irreversible" if irreversible else "local.undo_nothing"
            raise GameError(Text.of(key))
        undone = self.log.pop()
        self.state = apply_steps(self.game, self.turn_start, self.log[self.turn_base :])
        self.say("local.undone", notation=undone.notation)

    def write_board(self, filename: str) -> None:
        """Write the public board image to the output directory, if there is one."""
        if self.out is None:
            return
        view = self.game.view(self.state, None)
        path = self.out / filename
        path.write_bytes(self.renderer.png(view, RenderContext(self.names, self.lang)))
        self.say("local.board_written", path=str(path))

    def show_outcome(self, outcome: Outcome) -> None:
        """The result: ranking with scores, a shared result, tie-break, details, then the
        JSON line."""
        self.say("local.game_over")
        per_seat = len(outcome.details) == len(self.names)
        rank = 1
        for group in outcome.ranking:
            for entry in group:
                name = self.entry_name(outcome, entry)
                if per_seat and entry < len(self.names):    # the game's own ranking words
                    self.say("local.detail_rank", rank=rank, name=name,
                             detail=self.text(outcome.details[entry]))
                else:
                    self.say("local.rank_line", rank=rank, name=name, n=outcome.scores[entry])
            rank += len(group)
        if outcome.tiebreak is not None:
            self.say("local.tiebreak", reason=self.text(outcome.tiebreak))
        if not per_seat:
            for detail in outcome.details:
                print(self.text(detail))
        if outcome.together is not None:
            self.say(f"local.together_{outcome.together}",
                     n=outcome.team_score if outcome.team_score is not None else "-")
        else:
            winners = outcome.winners
            self.say("local.winners", n=len(winners),
                     names=", ".join(self.entry_name(outcome, e) for e in winners))
        print(json.dumps(result_json(outcome, self.lang)))

    def entry_name(self, outcome: Outcome, entry: int) -> str:
        """A seat's name, or a non-player side's."""
        side = outcome.side(entry)
        return self.text(side) if side is not None else self.names[entry]


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


def parse_options(game: Game, pairs: Sequence[str]) -> dict[str, str]:
    """The game options: defaults overridden by ``NAME=VALUE`` pairs; ValueError if invalid."""
    specs = {spec.name: spec for spec in game.meta.options}
    options = {spec.name: spec.default for spec in game.meta.options}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        spec = specs.get(name.strip())
        if not sep or spec is None or (spec.choices and value.strip() not in spec.choices):
            raise ValueError(pair)
        options[spec.name] = value.strip()
    return options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot.local", description="Play a Dingir game in the terminal."
    )
    parser.add_argument("game", help="game id: " + ", ".join(registry.ids()))
    parser.add_argument("--players", type=int, help="number of seats (default: the minimum)")
    parser.add_argument("--seed", type=int, help="setup seed (default: random, printed)")
    parser.add_argument("--ai", metavar="SEATS", help="AI seats, 1-based: 2,3 or all")
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
    entry = registry.get(args.game)
    game = entry.engine
    meta = game.meta
    players: int = args.players or meta.min_players
    if not meta.min_players <= players <= meta.max_players:
        parser.error(tr(lang, "local.bad_players", game=meta.name, min=meta.min_players,
                        max=meta.max_players))
    try:
        ai_seats = parse_ai(args.ai, players)
    except ValueError:
        parser.error(tr(lang, "local.bad_ai", text=args.ai, n=players))
    try:
        options = parse_options(game, args.option)
    except ValueError as error:
        parser.error(tr(lang, "local.bad_option", text=str(error)))
    seed: int = args.seed if args.seed is not None else secrets.randbits(63)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    print(tr(lang, "local.intro", game=meta.name, n=players, seed=seed))
    local = LocalGame(
        game, entry.renderer, players, game.setup(seed, players, options), ai_seats,
        random.Random(f"dingir-ai:{seed}"), lang, args.out,
    )
    return local.run(_source(args.script))


if __name__ == "__main__":
    sys.exit(main())
