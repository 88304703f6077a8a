"""The action phase of a round: the turn order, the Dingir dice and the activations.

« Pendant la Phase d'action, les joueurs jouent leur Tour dans l'ordre de la piste Population.
Le joueur le plus avancé commence, suivi des autres par ordre décroissant. » The order is taken
at the start of the round (« L'ordre des Tours est déterminé au début de chaque Manche, et reste
fixe pour toute sa durée. »). A turn begins with the roll of the player's dice (R-roll-timing),
or, in the no-chance variant, with ``set <sign>`` for each die (R-no-chance). Then, while no
action is under way:

- ``reroll <i> …``: any of the unused dice again, for 1 Tablet, 3 times a turn at most;
- ``freeroll <i> …``: the Hittites' free reroll, once a turn
  (:mod:`bot.games.mesopotamia.expansions`);
- ``use <action> pawn``: the action-selection pawn, once a turn, needs no sign (R-pawn);
- ``use <action> <i> [<j>]``: one unused die per sign of the action's card, a star standing
  for any one sign (R-star-one-sign); never an action already done this turn;
- ``end``: once at least one action was done (« Chaque Tour, vous choisissez toujours au moins
  une action à effectuer. »).

A unit that stops on a face-down event reveals it in the same step (R-reveal-timing): the seat
then chooses its option (``event …``, :mod:`bot.games.mesopotamia.events`) before its turn goes
on where it was.

The turn state is ``state["t"]``: ``dice`` (faces, None while unset), ``used``, ``rerolls``,
``pawn`` (still free), ``done`` (actions), ``act`` (the action under way,
:mod:`bot.games.mesopotamia.actions`) and ``closed`` (only in the state right after an
action that ended at once, having nothing to do: R-idle-action); ``state["entered"]``
(region -> the seat whose land unit entered it last this round, R-attacker) is emptied at the
start of a round. After the last
turn the phase is ``combat``: the combats and the end of the round
(:mod:`bot.games.mesopotamia.battles`).
"""

from __future__ import annotations

from itertools import combinations
from typing import cast

from bot import chance
from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import actions, events, expansions, modes, siege
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton import deck as automaton
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import MesopotamiaState, Turn, seal_order

VERBS = frozenset({"set", "reroll", "use", "end", "defend", "freeroll", "advance"}) | \
    actions.VERBS | events.VERBS


def begin_round(state: MesopotamiaState) -> None:
    """The action phase of the next round, its first turn begun."""
    state["phase"] = "actions"
    state["round"] = int(state.get("round", 0)) + 1
    state["order"] = seal_order(state, "population")
    if guardians.on(state):     # « Il agit toujours après vous »
        state["order"].append(int(state["guardians"]["seat"]))
    state["index"] = 0
    state.setdefault("pending_events", [])
    state.setdefault("amphorae", {})
    state["entered"] = {}
    _begin_turn(state)


def _begin_turn(state: MesopotamiaState) -> None:
    seat = state["order"][state["index"]]
    colours = state["players"][seat]["dice"]
    state["current"] = seat
    if modes.enemy(state, seat):    # no dice, no pawn: the Defenders reveal two Action cards,
        # the Guardians' enemy marches (« n'effectue aucune action »)
        state["t"] = {"dice": [], "used": [], "rerolls": 0, "pawn": False, "done": [],
                      "act": None}
        return
    if automaton.plays(state, seat):    # no dice, no pawn: its Action cards (R-auto-activation)
        state["t"] = {"dice": [], "used": [], "rerolls": 0, "pawn": False, "done": [],
                      "act": None, "cards": automaton.begin_turn(state, seat)}
        return
    state["t"] = {"dice": [None] * len(colours), "used": [False] * len(colours),
                  "rerolls": 0, "pawn": True, "done": [], "act": None}
    if not state["no_chance"]:
        _roll(state, list(range(len(colours))))


def _roll(state: MesopotamiaState, dice: list[int]) -> None:
    """Roll the dice ``dice`` of the current seat (nothing is drawn for no die)."""
    if not dice:
        return
    colours = state["players"][known(state["current"])]["dice"]
    values = chance.Draw(state).dice(len(dice))
    for i, value in zip(dice, values, strict=True):
        known(state["t"])["dice"][i] = D.DIE_FACES[colours[i]][value - 1]


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Every step ``seat`` may take now in the action phase."""
    if state["phase"] != "actions" or seat != state["current"]:
        return []
    t = known(state["t"])
    if state.get("event"):
        return events.legal(state, seat)
    if t["act"] is not None:
        return actions.legal(state, seat)
    player = state["players"][seat]
    if guardians.plays(state, seat):
        return ["advance"]
    if "cards" in t:
        return _card_steps(t)
    if siege.defends(state, seat):
        return ["end"] if t["done"] else ["defend"]
    if None in t["dice"]:
        colour = player["dice"][t["dice"].index(None)]
        return [f"set {s}" for s in dict.fromkeys(D.DIE_FACES[colour]) if s != D.STAR]
    out: list[str] = []
    for action in D.ACTIONS:
        if action in t["done"]:
            continue
        if t["pawn"]:
            out.append(f"use {action} pawn")
        signs = D.TECH_SIGNS[D.CIV_TECH[player["tech"][action]]]
        out += ["use " + " ".join([action, *(str(i + 1) for i in dice)])
                for dice in matching_dice(_set_dice(t), t["used"], signs)]
    if not state["no_chance"] and t["rerolls"] < D.MAX_REROLLS and \
            player["res"]["tablet"] >= D.REROLL_TABLETS:
        free = [i for i, used in enumerate(t["used"]) if not used]
        out += ["reroll " + " ".join(str(i + 1) for i in dice)
                for k in range(1, len(free) + 1) for dice in combinations(free, k)]
    out += expansions.free_rerolls(state, seat)
    if t["done"]:
        out.append("end")
    return out


def _card_steps(t: Turn) -> list[str]:
    """An Automaton's steps: its next planned action (``use <action> card``), else ``end``."""
    left = [a for a in t["cards"] if a not in t["done"]]
    return [f"use {left[0]} card"] if left else ["end"]


def more_actions(state: MesopotamiaState, seat: Seat) -> bool:
    """Whether ``seat`` could still take another action this turn with what it holds now (its
    pawn, or unused dice showing an untaken action's signs), or reroll."""
    t = known(state["t"])
    if guardians.plays(state, seat):
        return False
    if "cards" in t:
        return any(a not in t["done"] for a in t["cards"])
    if siege.defends(state, seat):
        return not t["done"]
    player = state["players"][seat]
    untaken = [a for a in D.ACTIONS if a not in t["done"]]
    if t["pawn"] and untaken:
        return True
    if any(matching_dice(_set_dice(t), t["used"], D.TECH_SIGNS[D.CIV_TECH[player["tech"][a]]])
           for a in untaken):
        return True
    return bool(expansions.free_rerolls(state, seat)) or (
        not state["no_chance"] and t["rerolls"] < D.MAX_REROLLS and
        player["res"]["tablet"] >= D.REROLL_TABLETS and not all(t["used"]))


def matching(face: str, sign: str) -> bool:
    """True when a die showing ``face`` pays ``sign``."""
    return face in (sign, D.STAR)


def _set_dice(t: Turn) -> list[str]:
    """The faces of the turn's dice, every one set (the choices of an action come after the
    dice are set)."""
    return cast(list[str], t["dice"])


def matching_dice(faces: list[str], used: list[bool],
                  signs: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The sets of unused dice (one per sign) that pay ``signs``; one set per distinct
    combination of faces, the lowest dice first."""
    free = [i for i, u in enumerate(used) if not u]
    found: dict[tuple[str, ...], tuple[int, ...]] = {}
    for dice in combinations(free, len(signs)):
        shown = [faces[i] for i in dice]
        if any(all(matching(f, s) for f, s in zip(order, signs, strict=True))
               for order in _orders(shown)):
            found.setdefault(tuple(sorted(shown)), dice)
    return sorted(found.values())


def _orders(faces: list[str]) -> list[list[str]]:
    return [faces] if len(faces) < 2 else [faces, faces[::-1]]


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Play the legal step ``notation`` of ``seat``."""
    verb, *args = notation.split()
    t = known(state["t"])
    t.pop("closed", None)
    if verb in events.VERBS:
        events.apply(state, seat, notation)
    elif verb in actions.VERBS:
        actions.apply(state, seat, notation)
        events.reveal(state)
    elif verb == "set":
        t["dice"][t["dice"].index(None)] = args[0]
    elif verb == "reroll":
        state["players"][seat]["res"]["tablet"] -= D.REROLL_TABLETS
        t["rerolls"] += 1
        _roll(state, [int(a) - 1 for a in args])
    elif verb == "freeroll":
        t["freeroll"] = True
        _roll(state, [int(a) - 1 for a in args])
    elif verb == "use":
        _use(state, seat, args[0], args[1:])
    elif verb == "defend":
        t["done"].append(verb)
        siege.defend(state, seat)
        events.reveal(state)
    elif verb == "advance":
        guardians.march(state)
        if state["phase"] != "over":
            _end_turn(state)
    else:
        _end_turn(state)


def _use(state: MesopotamiaState, seat: Seat, action: str, how: list[str]) -> None:
    t = known(state["t"])
    t["done"].append(action)
    if how == ["pawn"]:
        t["pawn"] = False
    elif how != ["card"]:
        for die in how:
            t["used"][int(die) - 1] = True
    t["act"] = actions.activate(state, seat, action)
    if actions.legal(state, seat) == ["stop"]:    # nothing to do: it ends at once (R-idle-action)
        t["act"], t["closed"] = None, True


def closed_stop(state: MesopotamiaState, seat: Seat, notation: str) -> bool:
    """True for a ``stop`` logged by the code before R-idle-action right after an action that
    now ends by itself: it is replayed as nothing (``stop_closed``)."""
    t = state.get("t")
    return notation.strip().lower() == "stop" and state["phase"] == "actions" and \
        seat == state["current"] and t is not None and bool(t.get("closed"))


def stop_closed(state: MesopotamiaState) -> None:
    """Replay :func:`closed_stop`'s ``stop``: the action it finished is already over."""
    known(state["t"]).pop("closed")


def _end_turn(state: MesopotamiaState) -> None:
    current = known(state["current"])
    if automaton.plays(state, current):
        automaton.end_turn(state, current)
    state["index"] += 1
    if state["index"] < len(state["order"]):
        _begin_turn(state)
        return
    state["phase"], state["current"], state["t"] = "combat", None, None
