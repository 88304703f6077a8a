"""The contract checks every registered game passes, written once for all games.

:func:`playout` plays one game from ``setup`` to its end with random legal steps (or
the AI's, for some seats) and checks, along the way:

- no crash, no dead end (every active seat has a legal step), and the game ends
  within ``max_steps``; turn numbers never go down;
- every legal step's notation parses back to itself; garbage text is ``BadNotation``;
- a decision's deadline default is one of its legal steps;
- no view holds the box of randomness or its seed; a game without hidden information
  shows every seat the public view; a view, a prompt, the labels of a seat's steps and
  what a report tells a reader (its detail, to the public) never contain a declared
  secret that reader may not read;
- ``determinize`` of a seat's view gives the same legal steps and another future;
- the views render within the image limits (and as text);
- replaying the log from ``setup`` reproduces the final state.

``tests/test_contract.py`` runs a sample of playouts for every game and player count;
``benchmarks/contract_playouts.py`` runs thousands and prints the figures.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from bot import ai, chance
from bot.engine import Action, BadNotation, Game, Outcome, Seat, Secret, State, Text
from bot.games.kit import DEFAULT_TUNING
from bot.i18n import LANGUAGES, translate
from bot.replay import Step, replay
from host.registry import GameEntry
from render.context import RenderContext

GARBAGE = ("", "   ", "xyzzy 42", "🎲🎲", "a" * 300, "\x00", "--", "undo undo")
MAX_IMAGE_BYTES = 250_000
MAX_IMAGE_SIDE = 2400
MAX_STEPS = DEFAULT_TUNING.max_steps
"""Steps a playout may take before it counts as endless, unless told otherwise."""
NAMES = ("Avery", "Blake", "Casey", "Devon", "Emery", "Finley")
"""Seat names for the checks: no card, good or place of any game is called like them."""


class ContractError(AssertionError):
    """A broken promise of the contract; the message names the game, seed and step."""


@dataclass
class Playout:
    """What one playout did (for the figures of the big runs)."""

    steps: int = 0
    turns: int = 0
    outcome: Outcome | None = None
    actions: dict[str, int] = field(default_factory=dict)
    images: list[int] = field(default_factory=list)
    final: State | None = None


Observer = Callable[[State, Seat, Action, State], None]
"""Called after every step of a playout with (state before, seat, action, state after)."""


@lru_cache(maxsize=4096)
def secret_texts(secret: Secret) -> list[str]:
    """The strings a secret may show as, lower-cased (a Text in every language)."""
    value = secret.value
    if isinstance(value, Text):
        return sorted({translate(value, lang, NAMES).lower() for lang in LANGUAGES})
    return [value.lower()]


def hidden_from(secrets: Iterable[Secret], reader: Seat | None, n: int) -> list[str]:
    """The secret strings ``reader`` may not read (None: the public, who may read only
    what all ``n`` seats may)."""
    everyone = frozenset(range(n))
    return [text for secret in secrets
            if (reader is None and not secret.readers >= everyone)
            or (reader is not None and reader not in secret.readers)
            for text in secret_texts(secret)]


def _leak(payload: str, forbidden: Sequence[str]) -> str | None:
    lowered = payload.lower()
    return next((text for text in forbidden if text in lowered), None)


class _Checker:
    """The checks of one playout; ``where`` names the step in every message."""

    def __init__(self, entry: GameEntry, n_players: int, seed: int, options: Mapping[str, str],
                 rng: random.Random) -> None:
        self.entry = entry
        self.game: Game = entry.engine
        self.n = n_players
        self.seed = seed
        self.options = dict(options)
        self.rng = rng
        self.names = NAMES[:n_players]
        self.where = ""

    def fail(self, message: str) -> ContractError:
        return ContractError(f"{self.game.meta.id} ({self.n} players, seed {self.seed})"
                             f" {self.where}: {message}")

    def texts(self, text: Text) -> list[str]:
        return [translate(text, lang, self.names) for lang in LANGUAGES]

    def no_leak(self, what: str, payloads: Iterable[str], forbidden: Sequence[str]) -> None:
        if not forbidden:
            return
        for payload in payloads:
            found = _leak(payload, forbidden)
            if found is not None:
                raise self.fail(f"{what} shows the secret {found!r}: {payload[:200]!r}")

    def forbidden(self, secrets: Sequence[Secret]) -> dict[Seat | None, list[str]]:
        """For each reader (None: the public), the secret strings it may not read."""
        return {reader: hidden_from(secrets, reader, self.n) for reader in (None, *range(self.n))}

    def views(self, state: State, forbidden: Mapping[Seat | None, list[str]]) -> None:
        box = state.get(chance.KEY)
        public = self.game.view(state, None)
        for reader in (None, *range(self.n)):
            view = public if reader is None else self.game.view(state, reader)
            dumped = json.dumps(view, ensure_ascii=False, sort_keys=True)
            seed = str(box["seed"]) if box is not None else ""
            if chance.KEY in view or (len(seed) >= 6 and seed in dumped):
                raise self.fail(f"the view of {reader} holds the randomness of the game")
            if not self.game.meta.hidden_information and view != public:
                raise self.fail(f"a game without hidden information shows seat {reader} "
                                "another view than the public one")
            self.no_leak(f"the view of seat {reader}", [dumped], forbidden[reader])

    def decisions(self, state: State, forbidden: Mapping[Seat | None, list[str]]) -> None:
        """Legal steps, notations, prompts and deadlines of every active seat."""
        for seat in self.game.active(state):
            legal = self.game.legal(state, seat)
            if not legal:
                raise self.fail(f"seat {seat} is active with no legal step (a dead end)")
            for action in legal:
                parsed = self.game.parse(state, seat, action.notation)
                if parsed != action:
                    raise self.fail(f"{action.notation!r} parses to {parsed.notation!r}")
                self.no_leak(f"the label of seat {seat}'s step", self.texts(action.label),
                             forbidden[seat])
            prompt = self.game.prompt(state, seat)
            if prompt is not None:
                shown = forbidden[None] if prompt.public else forbidden[seat]
                self.no_leak(f"the prompt of seat {seat}", self.texts(prompt.text), shown)
            deadline = self.game.deadline(state, seat)
            if deadline is not None and deadline.default not in legal:
                raise self.fail(f"the default {deadline.default.notation!r} of seat {seat}'s"
                                " decision is not one of its legal steps")
            guess = self.game.determinize(self.game.view(state, seat), seat,
                                          random.Random(self.rng.random()))
            if [a.notation for a in self.game.legal(guess, seat)] != [a.notation for a in legal]:
                raise self.fail(f"determinize changes the legal steps of seat {seat}")
            box, guessed = state.get(chance.KEY), guess.get(chance.KEY)
            if box is not None and guessed == box:
                raise self.fail("determinize knows the future draws")
        for text in GARBAGE:
            try:
                self.game.parse(state, self.game.active(state)[0], text)
            except BadNotation:
                continue
            except Exception as error:
                raise self.fail(f"garbage {text[:20]!r} raised {type(error).__name__}, "
                                "not BadNotation") from error
            raise self.fail(f"garbage {text[:20]!r} parsed as a step")

    def report(self, before: State, seat: Seat, action: Action, after: State,
               forbidden: Mapping[Seat | None, list[str]]) -> None:
        report = self.game.report(before, seat, action, after)
        for reader in (None, *range(self.n)):
            self.no_leak(f"the report of {action.notation!r} to {reader}",
                         self.texts(report.for_seat(reader)), forbidden[reader])
        if report.detail is not None:          # told in a public post
            self.no_leak(f"the detail of {action.notation!r}", self.texts(report.detail),
                         forbidden[None])

    def images(self, state: State, playout: Playout) -> None:
        ctx = RenderContext(self.names, "en")
        for reader in (None, *range(self.n)) if self.game.meta.hidden_information else (None,):
            view = self.game.view(state, reader)
            png = self.entry.renderer.png(view, ctx)
            width, height = Image.open(io.BytesIO(png)).size
            if len(png) > MAX_IMAGE_BYTES or max(width, height) > MAX_IMAGE_SIDE:
                raise self.fail(f"the image of {reader}'s view is {width}x{height}, "
                                f"{len(png)} bytes")
            playout.images.append(len(png))
            if not self.entry.renderer.text(view, ctx).strip():
                raise self.fail(f"the text board of {reader}'s view is empty")


def playout(entry: GameEntry, n_players: int, seed: int, *, options: Mapping[str, str] = {},
            ai_seats: Iterable[Seat] = (), density: float = 1.0, images: int = 2,
            max_steps: int = MAX_STEPS, budget: ai.Budget = ai.DEFAULT_BUDGET,
            observe: Observer | None = None) -> Playout:
    """Play one game with random steps (the AI for ``ai_seats``) and check the contract.

    ``budget``: the AI's look-ahead; ``observe``: told of every step. ``density``: the share of
    steps that get the thorough checks (views, every legal step parsed back, determinize);
    ``images``: how many states are rendered (the first, the last, and others at random).
    Raises :class:`ContractError` naming the game, seed and step.
    """
    game = entry.engine
    rng = random.Random(f"contract:{game.meta.id}:{n_players}:{seed}")
    check = _Checker(entry, n_players, seed, options, rng)
    setup_seed = random.Random(f"seed:{seed}").getrandbits(63)   # as large as the bot's
    state = game.setup(setup_seed, n_players, options)
    result = Playout()
    log: list[Step] = []
    render_at = {rng.randrange(1, 400) for _ in range(images - 2)}
    ai_seats = frozenset(ai_seats)
    if images > 0:
        check.images(state, result)
    while (outcome := game.outcome(state)) is None:
        check.where = f"at step {len(log)}"
        if len(log) >= max_steps:
            raise check.fail(f"the game did not end in {max_steps} steps")
        active = game.active(state)
        if not active:
            raise check.fail("nobody is active but the game has no outcome")
        thorough = rng.random() < density
        if thorough:
            forbidden = check.forbidden(list(game.secrets(state)))
            check.views(state, forbidden)
            check.decisions(state, forbidden)
        seat = rng.choice(active)
        legal = game.legal(state, seat)
        if not legal:
            raise check.fail(f"seat {seat} is active with no legal step (a dead end)")
        if entry.script is not None and entry.script.plays(state, seat):
            action = game.parse(state, seat, entry.script.step(state, seat))
        elif seat in ai_seats:
            action = ai.choose(game, game.view(state, seat), legal, seat, rng, budget)
        else:
            action = rng.choice(legal)
        after = game.apply(state, seat, action)
        if game.turn_number(after) < game.turn_number(state):
            raise check.fail("the turn number went down")
        if thorough:
            check.report(state, seat, action, after, check.forbidden(list(game.secrets(after))))
        if observe is not None:
            observe(state, seat, action, after)
        log.append(Step(seat, action.notation))
        result.actions[action.group or action.notation.split()[0]] = \
            result.actions.get(action.group or action.notation.split()[0], 0) + 1
        state = after
        if len(log) in render_at:
            check.images(state, result)
    check.where = "at the end"
    if images > 1:
        check.images(state, result)
    replayed = replay(game, setup_seed, n_players, options, log)
    if json.dumps(replayed, sort_keys=True) != json.dumps(state, sort_keys=True):
        raise check.fail("replaying the log does not reproduce the final state")
    result.steps, result.turns, result.outcome = len(log), game.turn_number(state), outcome
    result.final = state
    return result
