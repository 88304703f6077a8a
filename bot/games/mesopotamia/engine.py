"""``GAME``: Mesopotamia behind the engine contract of :mod:`bot.engine`: the setup, then the
rounds: the action phase (:mod:`bot.games.mesopotamia.turn`, the events revealed in it:
:mod:`bot.games.mesopotamia.events`); entering the combat phase removes clashing ships
(R-ship-clash); then the combats (a beaten tribe's event: phase ``events``), the colonies and
the end of the round (:mod:`bot.games.mesopotamia.battles`, phase ``combat``; the final rewards
to name: :mod:`bot.games.mesopotamia.rounds`, phase ``end``), until the final score and the
outcome (:mod:`bot.games.mesopotamia.scoring`) once a game is ``over``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot import chance
from bot.engine import (
    Action,
    GameMeta,
    IllegalMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Prompt,
    Report,
    Seat,
    Secret,
    State,
    Text,
    checked_notation,
)
from bot.games.kit import ContractTuning, RulesGame, clone
from bot.games.mesopotamia import (
    battles,
    bids,
    checks,
    effects,
    focus,
    heuristic,
    narration,
    options,
    rounds,
    scoring,
    setup,
    standard,
    texts,
    turn,
    view,
)
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.state import PHASES

VERBS = setup.VERBS | turn.VERBS | rounds.VERBS | battles.VERBS | standard.VERBS
"""Every step verb of the game."""
KEEP_ACTIONS = frozenset({"harvest", "phalanx", "create", "grow", "activate", "move", "halt",
                          "drop", "convert", "stop"})
"""Parts of an action that take no other action away (no die, pawn, card or Tablet spent): while
another action can be taken (:func:`turn.more_actions`), none of them closes the turn."""


class MesopotamiaGame(RulesGame[State, str]):
    """Mesopotamia for 2 to 4 players (seed 004); see :mod:`bot.games.mesopotamia.setup`."""

    meta = GameMeta(
        id="mesopotamia",
        name=Text.of("mesopotamia.name"),
        min_players=D.MIN_PLAYERS,
        max_players=D.MAX_PLAYERS,
        rules_summary=Text.of("mesopotamia.rules"),
        options=(OptionSpec("dice", Text.of("mesopotamia.option.dice"),
                            ("chance", "no_chance"), "chance"),
                 OptionSpec("combat", Text.of("mesopotamia.option.combat"), battles.MODES,
                            battles.MODES[0])),
        hidden_information=True,
    )
    tuning = ContractTuning(playouts=1, density=0.02, ai_games=1, ai_seats=1, fast_ai=True,
                            max_steps=60_000)
    """Random games last hundreds of rounds (``tests/test_mesopotamia_battles.py`` plays more
    of them)."""

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        state = setup.new_state(seed, n_players)
        state["no_chance"] = options.get("dice", "chance") == "no_chance"
        state["combat_mode"] = options.get("combat", battles.MODES[0])
        return state

    def active(self, state: State) -> list[Seat]:
        if state["phase"] == "combat":
            return battles.active(state)
        return setup.active(state)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        """Every step ``seat`` may take, each with the choices that lead to it in a panel and
        whether only ending the turn can follow it."""
        notations = options.legal(state, seat)
        closing = self._may_close(state, seat)
        later = closing and turn.more_actions(state, seat)
        return [texts.action(n, state, closing and not (later and n.split()[0] in KEEP_ACTIONS)
                             and self._closes(state, seat, n)) for n in notations]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        if turn.closed_stop(state, seat, text):
            return texts.action("stop")
        notation = self.checked(state, seat, text)
        return texts.action(notation, state,
                            self._may_close(state, seat) and self._closes(state, seat, notation))

    def checked(self, state: State, seat: Seat, text: str) -> str:
        """The canonical notation of the legal step ``text``, or the error that says why it is
        not one (:mod:`bot.games.mesopotamia.checks`); an old log's ``stop`` after an action
        that ended by itself is taken as it is (:func:`turn.closed_stop`)."""
        if turn.closed_stop(state, seat, text):
            return text
        active = self.active(state)
        try:
            return checked_notation("mesopotamia", text, VERBS, seat in active,
                                    options.legal(state, seat))
        except NotYourTurn as error:
            raise NotYourTurn(checks.not_yours(active)) from error
        except IllegalMove as error:
            raise IllegalMove(checks.why(state, seat, text, options.legal)) from error

    def perform(self, before: State, seat: Seat, step: str, after: State) -> None:
        """Carry out the checked step, the turn counted and the regions it changed gathered
        (an old log's closed ``stop`` does nothing else than :func:`turn.stop_closed`)."""
        if turn.closed_stop(before, seat, step):
            turn.stop_closed(after)
        else:
            self._carry_out(before, seat, step, after)

    @staticmethod
    def _may_close(state: State, seat: Seat) -> bool:
        """False when no step of ``seat`` can end its turn: outside its action-phase turn."""
        return state["phase"] == "actions" and seat == state.get("current") and \
            not state.get("event")

    def _closes(self, state: State, seat: Seat, notation: str) -> bool:
        """True when after ``notation`` ending the turn is all ``seat`` may do (never while
        its pawn is left for an action not taken yet)."""
        t = state["t"]
        pawn = t["pawn"] and not notation.endswith(" pawn")
        if notation == "end" or (pawn and len(t["done"]) + notation.startswith("use ")
                                 < len(D.ACTIONS)):
            return False
        after = _played(state, seat, notation)
        t = after.get("t") or {}
        return after["phase"] == "actions" and after["current"] == seat and \
            not after.get("event") and t["act"] is None and bool(t["done"]) and \
            None not in t["dice"] and not turn.more_actions(after, seat)

    def _advance(self, state: State, seat: Seat, checked: str) -> State:
        """The state after ``seat`` plays the legal step ``checked``, its turn counted and the
        regions it changed gathered."""
        new: State = clone(state)
        self._carry_out(state, seat, checked, new)
        return new

    def _carry_out(self, before: State, seat: Seat, checked: str, after: State) -> None:
        """Play the legal step ``checked`` on ``after``, a copy of ``before``: the rules
        (:func:`bot.games.mesopotamia.effects.apply`), then the turn counter and the regions
        changed."""
        effects.apply(after, seat, checked)
        if self._ends_turn(before, seat, checked, after):
            after["turn"] += 1
        after["changed"] = focus.gather(before, after)

    def _ends_turn(self, before: State, seat: Seat, notation: str, after: State) -> bool:
        """R-turn-count: a turn ends when the phase or the round changes, when the sealed bids are
        revealed, or when the seats deciding change otherwise than by ``seat`` leaving a
        decision others still have to take (a seat's whole action-phase turn is one turn)."""
        if (after["phase"], after.get("round")) != (before["phase"], before.get("round")):
            return True
        if notation.startswith("bid ") and bids.reveals(before, seat, notation):
            return True
        was, now = self.active(before), self.active(after)
        return now != was and not (now and set(now) == set(was) - {seat})

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """The final score once the game is over (R-tie-break: never a tie left)."""
        if state["phase"] != "over":
            return None
        totals = scoring.scores(state)
        ranked = scoring.ranking(state)
        tied = len(set(totals)) < len(totals)
        tiebreak = Text.of("mesopotamia.tiebreak") if tied else None
        details = tuple(Text.of("mesopotamia.detail", vp=totals[s],
                                **scoring.breakdown(state, s))
                        for s in range(state["n"]))
        return Outcome(tuple(totals), tuple(tuple(g) for g in ranked), tiebreak, details)

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """False for the step that deals the quest cards (it reveals hands), for a step that
        rolls dice (the end of a turn rolls the next player's dice), for a Hanging Gardens
        storey (it turns the next tile face up), for a step that reveals an event and for the
        last part of the last sealed bid (it reveals them all)."""
        after = self.apply(state, seat, action)
        dealt = after["phase"] == "quests" and state["phase"] != "quests"
        revealed = after["gardens"] != state["gardens"] or after["sites"] != state["sites"]
        bid = action.notation.startswith("bid ") and bids.reveals(state, seat, action.notation)
        return not (dealt or revealed or bid or chance.drew(state, after))

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        """See :func:`bot.games.mesopotamia.heuristic.heuristic`."""
        return heuristic.heuristic(state, seat)

    def ai_step(self, state: State, seat: Seat, legal: list[Action],
                rng: random.Random) -> Action | None:
        """The step after which :meth:`heuristic` values the position most (ties drawn with
        ``rng``): the heuristic judges an action under way by its best parts
        (``heuristic.action_gain``), which the search's short rollouts of random steps to the
        end of a turn would undervalue (its AI then ended turns early)."""
        values = [self.heuristic(self._advance(state, seat, a.notation), seat) for a in legal]
        top = max(values)
        best = [a for a, v in zip(legal, values, strict=True) if v >= top - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        if turn.closed_stop(before, seat, action.notation):
            return Report(narration.simple("stop"), quiet=True)
        return narration.report(before, seat, action.notation, after)

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """What ``seat``'s decision asks; for a seat whose bid is sealed while others still
        seal theirs, that it is sealed."""
        if seat in self.active(state):
            return texts.prompt(state, seat)
        return texts.waiting(state, seat)

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's VP if the game ended now, from what everyone sees (the quests, secret
        until the final score, are left out)."""
        if state["phase"] in PHASES:
            return ()
        return tuple(Text.of("mesopotamia.standing", vp=vp) for vp in scoring.public(state))

    def secrets(self, state: State) -> list[Secret]:
        return view.secrets(state)


GAME = MesopotamiaGame()


def _played(state: State, seat: Seat, checked: str) -> State:
    """The state after ``seat`` plays the legal step ``checked`` (the rules alone: the turn
    counter and the regions changed are the engine's, :meth:`MesopotamiaGame._advance`)."""
    new: State = clone(state)
    effects.apply(new, seat, checked)
    return new
