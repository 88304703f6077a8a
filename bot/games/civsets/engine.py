"""``GAME``: Civilizations behind the engine contract of :mod:`bot.engine`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import (
    Action,
    BadNotation,
    Deadline,
    GameMeta,
    OptionSpec,
    Outcome,
    Prompt,
    Report,
    Seat,
    Secrets,
    State,
    Text,
)
from bot.games.civsets import checks, effects, heuristic, narration, options, texts, view
from bot.games.civsets.cards import CARDS, OPTIONS, RULES
from bot.games.civsets.state import CivsetsState, new_state, score_key
from bot.games.kit import ContractTuning, RulesGame, known, plain, typed

VERBS = frozenset({"place", "wild", "sell", "pay", "play", "draw", "trade", "offer", "give",
                   "decline", "buy", "accept", "refuse", "challenge", "pick", "answer", "skip",
                   "end"})
REVEALING = frozenset({"place", "wild", "draw", "offer", "give", "accept", "buy", "sell",
                       "pick", "answer", "skip"})
"""Steps that show a card someone could not see before, or ask another player: no undo."""


class CivilizationsGame(RulesGame[CivsetsState, str]):
    """Civilizations for 3-6 players (seed 003); see :mod:`bot.games.civsets`."""

    meta = GameMeta(
        id="civsets",
        name=Text.of("civsets.name"),
        min_players=3,
        max_players=6,
        rules_summary=Text.of("civsets.rules"),
        options=(
            OptionSpec("quiz_seconds", Text.of("civsets.option.quiz_seconds"),
                       ("60", "30", "90", "120", "10"), str(RULES["quiz_seconds"])),
            OptionSpec("ai_skill", Text.of("civsets.option.ai_skill"),
                       ("60", "40", "80", "100"), "60"),
        ),
        hidden_information=True,
    )
    tuning = ContractTuning(density=0.03, ai_games=2, fast_ai=True)

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        if not self.meta.min_players <= n_players <= self.meta.max_players:
            raise ValueError(f"Civilizations is played by 3 to 6 players, not {n_players}")
        return plain(new_state(seed, n_players, int(options.get("quiz_seconds", "60")),
                               int(options.get("ai_skill", "60"))))

    def active(self, state: State) -> list[Seat]:
        cs = typed(CivsetsState, state)
        if cs["over"]:
            return []
        if cs["step"] in ("trade", "buy", "sale"):
            return [known(cs["pending"])["to"]]
        return [cs["current"]]

    def legal(self, state: State, seat: Seat) -> list[Action]:
        cs = typed(CivsetsState, state)
        return [texts.action(cs, seat, n) for n in options.legal(cs, seat)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        """The legal step ``text``; else BadNotation for words that are no step, or the
        rule that forbids the step now (:mod:`bot.games.civsets.checks`)."""
        cs = typed(CivsetsState, state)
        words = text.strip().lower().split()
        if not words or words[0] not in VERBS:
            raise BadNotation(Text.of("civsets.err.notation", text=text[:100]))
        notation = " ".join(words)
        if seat in self.active(state) and notation in options.legal(cs, seat):
            return texts.action(cs, seat, notation)
        raise checks.refusal(cs, seat, notation)

    def checked(self, state: CivsetsState, seat: Seat, text: str) -> str:
        """The canonical notation of the legal step ``text`` (see :meth:`parse`)."""
        return self.parse(plain(state), seat, text).notation

    def perform(self, before: CivsetsState, seat: Seat, step: str, after: CivsetsState) -> None:
        """Carry out the checked step (:func:`bot.games.civsets.effects.apply`)."""
        effects.apply(after, seat, step)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(typed(CivsetsState, state), seat)

    def outcome(self, state: State) -> Outcome | None:
        cs = typed(CivsetsState, state)
        if not cs["over"]:
            return None
        n = cs["n"]
        keys = sorted({score_key(cs, s) for s in range(n)}, reverse=True)
        ranking = tuple(tuple(s for s in range(n) if score_key(cs, s) == k) for k in keys)
        best_sets = keys[0][0]
        tied = [s for s in range(n) if len(cs["sets"][s]) == best_sets]
        tiebreak = None
        if len(ranking[0]) > 1:
            tiebreak = Text.of("civsets.tiebreak.shared", sets=best_sets, n=best_sets,
                               points=keys[0][1])
        elif len(tied) > 1:
            tiebreak = Text.of("civsets.tiebreak.points", sets=best_sets, n=best_sets) \
                if best_sets else Text.of("civsets.tiebreak.no_sets")
        return Outcome(tuple(cs["points"]), ranking, tiebreak, self.standing(state))

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's completed sets and points (sets rank first)."""
        cs = typed(CivsetsState, state)
        return tuple(Text.of("civsets.detail", n=len(sets), sets=len(sets), points=points)
                     for sets, points in zip(cs["sets"], cs["points"], strict=True))

    def turn_number(self, state: State) -> int:
        return int(typed(CivsetsState, state)["turn"])

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """Steps that show a hidden card (placing, drawing, offering, answering, picking)
        or ask another player cannot be taken back; nor can a spy's look or a library."""
        words = action.notation.split()
        return words[0] not in REVEALING and words[:2] not in (["play", "spy"],
                                                                ["play", "library"])

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        return heuristic.heuristic(typed(CivsetsState, state), seat)

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """For a skipped turn: decline what is asked, else draw (or the first action), end."""
        cs = typed(CivsetsState, state)
        legal = options.legal(cs, seat)
        for notation in ("decline", "refuse", "skip", "draw", "end"):
            if notation in legal:
                return texts.action(cs, seat, notation)
        actions = options.action_steps(cs, seat)
        return texts.action(cs, seat, actions[0] if actions else legal[0]) if legal else None

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        return narration.report(typed(CivsetsState, before), seat, action.notation,
                                typed(CivsetsState, after))

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        return texts.prompt(typed(CivsetsState, state), seat)

    def deadline(self, state: State, seat: Seat) -> Deadline | None:
        """A quiz answer on the game's clock (60 s by default; no answer counts as wrong);
        an offer or a purchase waits for the turn limit, then is declined."""
        cs = typed(CivsetsState, state)
        step = cs["step"]
        if step == "quiz" and seat == cs["current"]:
            return Deadline(texts.action(cs, seat, "skip"), float(cs["quiz_seconds"]))
        if step in ("trade", "buy", "sale") and seat == known(cs["pending"])["to"]:
            return Deadline(texts.action(cs, seat, "decline" if step == "trade"
                                         else "refuse"))
        return None

    def secrets(self, state: State) -> Secrets:
        return view.secrets(typed(CivsetsState, state))

    def ai_step(self, state: State, seat: Seat, legal: list[Action],
                rng: random.Random) -> Action | None:
        """An AI answers a quiz right with the game's ``ai_skill`` chance (60% by default),
        else picks one of the wrong answers; the AI's search decides the rest."""
        cs = typed(CivsetsState, state)
        if cs["step"] != "quiz" or seat != cs["current"]:
            return None
        right = CARDS[known(cs["pending"])["card"]].answer
        if rng.random() * 100 < cs["ai_skill"]:
            choice = right
        else:
            choice = rng.choice([k for k in range(OPTIONS) if k != right])
        return texts.action(cs, seat, f"answer {choice + 1}")


GAME = CivilizationsGame()
