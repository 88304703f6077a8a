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
from typing import Any, Literal

from bot import chance
from bot.engine import (
    Action,
    GameMeta,
    IllegalMove,
    Ladder,
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
from bot.games.kit import ContractTuning, RulesGame, clone, known, plain, typed
from bot.games.mesopotamia import (
    battles,
    bids,
    checks,
    effects,
    expansions,
    focus,
    heuristic,
    large,
    modes,
    narration,
    options,
    rounds,
    scoring,
    setup,
    siege,
    solo,
    solo_policy,
    standard,
    texts,
    turn,
    view,
)
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import deck
from bot.games.mesopotamia.automaton.cards import DIFFICULTIES
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import PHASES, MesopotamiaState

VERBS = setup.VERBS | turn.VERBS | rounds.VERBS | battles.VERBS | standard.VERBS | solo.VERBS | \
    expansions.VERBS
"""Every step verb of the game."""
NO_AUTOMATON = "none"
"""The ``automaton`` option of a game without the Automaton; its other values are the
difficulties (R-auto-draws): the Automaton then takes the last seat (« MODE SOLO »)."""
KEEP_ACTIONS = frozenset({"harvest", "phalanx", "create", "grow", "activate", "move", "halt",
                          "drop", "convert", "stop"})
"""Parts of an action that take no other action away (no die, pawn, card or Tablet spent): while
another action can be taken (:func:`turn.more_actions`), none of them closes the turn."""


class MesopotamiaGame(RulesGame[MesopotamiaState, str]):
    """Mesopotamia for 2 to 6 players (seed 004; 5-6: :mod:`bot.games.mesopotamia.large`); see
    :mod:`bot.games.mesopotamia.setup`."""

    meta = GameMeta(
        id="mesopotamia",
        name=Text.of("mesopotamia.name"),
        min_players=D.MIN_PLAYERS,
        max_players=D.MAX_PLAYERS,
        rules_summary=Text.of("mesopotamia.rules"),
        options=(OptionSpec("dice", Text.of("mesopotamia.option.dice"),
                            ("chance", "no_chance"), "chance"),
                 OptionSpec("combat", Text.of("mesopotamia.option.combat"), battles.MODES,
                            battles.MODES[0]),
                 OptionSpec("automaton", Text.of("mesopotamia.option.automaton"),
                            (NO_AUTOMATON, *DIFFICULTIES), NO_AUTOMATON),
                 OptionSpec("team", Text.of("mesopotamia.option.team"), ("no", "yes"), "no"),
                 OptionSpec("mode", Text.of("mesopotamia.option.mode"),
                            modes.MODES, modes.DUEL),
                 OptionSpec("expansions", Text.of("mesopotamia.option.expansions"),
                            (large.AUTO, *D.EXPANSION_OPTIONS), large.AUTO)),
        hidden_information=True,
        ladders=(*(Ladder(m, Text.of(f"mesopotamia.ladder.{m}"), (("mode", m),))
                   for m in modes.MODES[1:]),
                 *(Ladder(f"duel-{level}", Text.of(f"mesopotamia.ladder.duel-{level}"),
                          (("mode", "duel"), ("automaton", level))) for level in DIFFICULTIES)),
    )
    tuning = ContractTuning(playouts=1, density=0.02, ai_games=1, ai_seats=1, fast_ai=True,
                            max_steps=60_000, variants=((("automaton", "igigi"),),
                                                        *((("mode", m),)
                                                          for m in modes.MODES[1:])))
    """Random games last hundreds of rounds (``tests/test_mesopotamia_battles.py`` plays more
    of them); the variants are a game against the Automaton, the Siege of Ur and the Guardians
    of Assur."""

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        mode = options.get("mode", modes.DUEL)
        chosen = large.chosen(options.get("expansions", large.AUTO), n_players)
        state = setup.new_state(seed, n_players, chosen)
        state["no_chance"] = options.get("dice", "chance") == "no_chance"
        state["combat_mode"] = options.get("combat", battles.MODES[0])
        if chosen:
            state["expansions"] = list(chosen)
        if mode != modes.DUEL:
            modes.enlist(state, mode)
            return plain(state)
        for seat in automaton_seats(n_players, options):
            deck.enlist(state, seat, options["automaton"])
        state["team"] = options.get("team") == "yes" and bool(state.get("automata"))
        return plain(state)

    def active(self, state: State) -> list[Seat]:
        ms = typed(MesopotamiaState, state)
        if ms["phase"] == "combat":
            return battles.active(ms)
        return setup.active(ms)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        """Every step ``seat`` may take, each with the choices that lead to it in a panel and
        whether only ending the turn can follow it."""
        ms = typed(MesopotamiaState, state)
        notations = options.legal(ms, seat)
        closing = self._may_close(ms, seat)
        later = closing and turn.more_actions(ms, seat)
        return [texts.action(n, ms, closing and not (later and n.split()[0] in KEEP_ACTIONS)
                             and self._closes(ms, seat, n)) for n in notations]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        ms = typed(MesopotamiaState, state)
        if turn.closed_stop(ms, seat, text):
            return texts.action("stop")
        notation = self.checked(ms, seat, text)
        return texts.action(notation, ms,
                            self._may_close(ms, seat) and self._closes(ms, seat, notation))

    def checked(self, state: MesopotamiaState, seat: Seat, text: str) -> str:
        """The canonical notation of the legal step ``text``, or the error that says why it is
        not one (:mod:`bot.games.mesopotamia.checks`); an old log's ``stop`` after an action
        that ended by itself is taken as it is (:func:`turn.closed_stop`)."""
        if turn.closed_stop(state, seat, text):
            return text
        active = self.active(plain(state))
        try:
            return checked_notation("mesopotamia", text, VERBS, seat in active,
                                    options.legal(state, seat))
        except NotYourTurn as error:
            raise NotYourTurn(checks.not_yours(active)) from error
        except IllegalMove as error:
            raise IllegalMove(checks.why(state, seat, text, options.legal)) from error

    def perform(self, before: MesopotamiaState, seat: Seat, step: str,
                after: MesopotamiaState) -> None:
        """Carry out the checked step, the turn counted and the regions it changed gathered
        (an old log's closed ``stop`` does nothing else than :func:`turn.stop_closed`)."""
        if turn.closed_stop(before, seat, step):
            turn.stop_closed(after)
        else:
            self._carry_out(before, seat, step, after)

    @staticmethod
    def _may_close(state: MesopotamiaState, seat: Seat) -> bool:
        """False when no step of ``seat`` can end its turn: outside its action-phase turn."""
        return state["phase"] == "actions" and seat == state.get("current") and \
            not state.get("event")

    def _closes(self, state: MesopotamiaState, seat: Seat, notation: str) -> bool:
        """True when after ``notation`` ending the turn is all ``seat`` may do (never while
        its pawn is left for an action not taken yet)."""
        t = known(state["t"])
        pawn = t["pawn"] and not notation.endswith(" pawn")
        if notation == "end" or (pawn and len(t["done"]) + notation.startswith("use ")
                                 < len(D.ACTIONS)):
            return False
        after = _played(state, seat, notation)
        now = known(after["t"]) if after["phase"] == "actions" else None
        return now is not None and after["current"] == seat and \
            not after.get("event") and now["act"] is None and bool(now["done"]) and \
            None not in now["dice"] and not turn.more_actions(after, seat)

    def _advance(self, state: MesopotamiaState, seat: Seat, checked: str) -> MesopotamiaState:
        """The state after ``seat`` plays the legal step ``checked``, its turn counted and the
        regions it changed gathered."""
        new = clone(state)
        self._carry_out(state, seat, checked, new)
        return new

    def _carry_out(self, before: MesopotamiaState, seat: Seat, checked: str,
                   after: MesopotamiaState) -> None:
        """Play the legal step ``checked`` on ``after``, a copy of ``before``: the rules
        (:func:`bot.games.mesopotamia.effects.apply`), then the turn counter and the regions
        changed."""
        effects.apply(after, seat, checked)
        if self._ends_turn(before, seat, checked, after):
            after["turn"] += 1
        after["changed"] = focus.gather(before, after)

    def _ends_turn(self, before: MesopotamiaState, seat: Seat, notation: str,
                   after: MesopotamiaState) -> bool:
        """R-turn-count: a turn ends when the phase or the round changes, when the sealed bids are
        revealed, or when the seats deciding change otherwise than by ``seat`` leaving a
        decision others still have to take (a seat's whole action-phase turn is one turn)."""
        if (after["phase"], after.get("round")) != (before["phase"], before.get("round")):
            return True
        if notation.startswith("bid ") and bids.reveals(before, seat, notation):
            return True
        was, now = self.active(plain(before)), self.active(plain(after))
        return now != was and not (now and set(now) == set(was) - {seat})

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(typed(MesopotamiaState, state), seat)

    def outcome(self, state: State) -> Outcome | None:
        """The final score once the game is over (R-tie-break: never a tie left)."""
        ms = typed(MesopotamiaState, state)
        if ms["phase"] != "over":
            return None
        if guardians.on(ms):
            return _guardians_outcome(ms)
        totals = scoring.scores(ms)
        ranked = siege.ranking(ms) or scoring.ranking(ms)
        tied = len(set(totals)) < len(totals)
        tiebreak = Text.of("mesopotamia.tiebreak") if tied else None
        details = tuple(Text.of("mesopotamia.detail", vp=totals[s],
                                **scoring.breakdown(ms, s))
                        for s in range(ms["n"]))
        together: Literal["won", "lost"] | None = None
        if ms.get("team"):          # R-solo-team
            together = "lost" if any(deck.plays(ms, s) for s in ranked[0]) else "won"
        return Outcome(tuple(totals), tuple(tuple(g) for g in ranked), tiebreak, details,
                       together=together)

    def turn_number(self, state: State) -> int:
        return int(typed(MesopotamiaState, state)["turn"])

    def is_reversible(self, state: State, seat: Seat, action: Action) -> bool:
        """False for the step that deals the quest cards (it reveals hands), for a step that
        rolls dice (the end of a turn rolls the next player's dice), for a Hanging Gardens
        storey (it turns the next tile face up), for a step that reveals an event and for the
        last part of the last sealed bid (it reveals them all) and for ``reveal`` (it turns the
        Automaton's combat cards face up)."""
        ms = typed(MesopotamiaState, state)
        after = typed(MesopotamiaState, self.apply(state, seat, action))
        dealt = after["phase"] == "quests" and ms["phase"] != "quests"
        revealed = after["gardens"] != ms["gardens"] or after["sites"] != ms["sites"] or \
            action.notation == "reveal"
        bid = action.notation.startswith("bid ") and bids.reveals(ms, seat, action.notation)
        return not (dealt or revealed or bid or chance.drew(ms, after))

    def determinize(self, view_: dict[str, Any], seat: Seat, rng: random.Random) -> State:
        return view.determinize(view_, seat, rng)

    def heuristic(self, state: State, seat: Seat) -> float:
        """See :func:`bot.games.mesopotamia.heuristic.heuristic`."""
        return heuristic.heuristic(typed(MesopotamiaState, state), seat)

    def ai_step(self, state: State, seat: Seat, legal: list[Action],
                rng: random.Random) -> Action | None:
        """The step after which :meth:`heuristic` values the position most (ties drawn with
        ``rng``): the heuristic judges an action under way by its best parts
        (``heuristic.action_gain``), which the search's short rollouts of random steps to the
        end of a turn would undervalue (its AI then ended turns early). In a combat against
        the Automaton, :func:`.solo_policy.choose`, from what the seat sees of it."""
        ms = typed(MesopotamiaState, state)
        if "solo" in ms and seat in solo.active(ms):
            chosen = solo_policy.choose(solo.view(ms["solo"]), [a.notation for a in legal])
            return next(a for a in legal if a.notation == chosen)
        values = [heuristic.heuristic(self._advance(ms, seat, a.notation), seat) for a in legal]
        top = max(values)
        best = [a for a, v in zip(legal, values, strict=True) if v >= top - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def report(self, before: State, seat: Seat, action: Action, after: State) -> Report:
        ms_before = typed(MesopotamiaState, before)
        if turn.closed_stop(ms_before, seat, action.notation):
            return Report(narration.simple("stop"), quiet=True)
        return narration.report(ms_before, seat, action.notation, typed(MesopotamiaState, after))

    def prompt(self, state: State, seat: Seat) -> Prompt | None:
        """What ``seat``'s decision asks; for a seat whose bid is sealed while others still
        seal theirs, that it is sealed."""
        ms = typed(MesopotamiaState, state)
        if seat in self.active(state):
            return texts.prompt(ms, seat)
        return texts.waiting(ms, seat)

    def standing(self, state: State) -> tuple[Text, ...]:
        """Each seat's VP if the game ended now, from what everyone sees (the quests, secret
        until the final score, are left out)."""
        ms = typed(MesopotamiaState, state)
        if ms["phase"] in PHASES:
            return ()
        if guardians.on(ms):
            mine = scoring.breakdown(ms, guardians.you(ms))
            vp = sum(v for k, v in mine.items() if k != "quests")
            return (Text.of("mesopotamia.standing", vp=vp),
                    Text.of("mesopotamia.guardians.standing", n=ms["guardians"]["wave"]))
        return tuple(Text.of("mesopotamia.standing", vp=vp) for vp in scoring.public(ms))

    def secrets(self, state: State) -> list[Secret]:
        return view.secrets(typed(MesopotamiaState, state))


GAME = MesopotamiaGame()


def automaton_seats(n_players: int, options: Mapping[str, str]) -> list[Seat]:
    """The seats the game itself plays in a game of ``n_players`` with ``options``: the last
    one, when the ``automaton`` option names a difficulty or in a solo mode (the Defenders of
    Ur, the Guardians' enemy; the ``automaton`` option then seats nobody)."""
    if options.get("mode", modes.DUEL) != modes.DUEL:
        return [n_players - 1]
    return [] if options.get("automaton", NO_AUTOMATON) == NO_AUTOMATON else [n_players - 1]


def _guardians_outcome(state: MesopotamiaState) -> Outcome:
    """You win or lose against the waves (R-guard-waves): your score, the enemy's 0; ranked
    first when you won (one person against the game: not a team, R-solo-one)."""
    mine = guardians.you(state)
    won = state["guardians"]["result"] == "won"
    vp = sum(scoring.breakdown(state, mine).values())
    totals = [0, 0]
    totals[mine] = vp
    ranked = ((mine,), (1 - mine,)) if won else ((1 - mine,), (mine,))
    detail = Text.of("mesopotamia.detail", vp=vp, **scoring.breakdown(state, mine))
    return Outcome(tuple(totals), ranked, None, (detail, Text.of("mesopotamia.guardians.detail",
                                                                 n=state["guardians"]["wave"])))


def _played(state: MesopotamiaState, seat: Seat, checked: str) -> MesopotamiaState:
    """The state after ``seat`` plays the legal step ``checked`` (the rules alone: the turn
    counter and the regions changed are the engine's, :meth:`MesopotamiaGame._advance`)."""
    new = clone(state)
    effects.apply(new, seat, checked)
    return new
