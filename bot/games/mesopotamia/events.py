"""Event cards: their options and effects, and the ``events`` phase that resolves them.

« Donnez ensuite la carte Événement au joueur qui l'a révélé, qui doit choisir entre l'option 1
et 2. » An option is ``immediate`` (its effect, then the card and token leave), ``vp_token``
(its effect, and the token stays face up, worth ``token_vp`` to whoever controls the region at
the end, ``state["vp_tokens"]``), or ``control_6_rounds`` (an Event die beside the token on face
1, a per-round gain at each end of round, the final reward at the sixth, R-event-dice). Every
option advances its chooser on the Event track. Effects follow the rulings of RULINGS.md:
granted units, Colonies and Ramparts go to the event's region, each one that cannot be placed
gives 1 phalanx instead; a discovery is free, and ``any`` (or a technology already at its top)
lets the chooser name the technology (the ``techs`` argument).

The steps (:func:`begin`, :func:`legal`, :func:`apply`): when the action phase ends, each event
the action phase recorded in ``pending_events`` is revealed in turn (``state["event"]``) and its
revealer chooses ``event <card> <option> [<technology>]`` (R-event-step); then the combat phase.
Six-round events turn at the end of a round (:func:`end_of_round`, :func:`finish`, called by
:mod:`bot.games.mesopotamia.battles`).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.actions import next_card
from bot.games.mesopotamia.state import advance_seal, unit_limit, units_of

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in D.EVENT_DATA["cards"]}
DICE_PER_EMPIRE = int(D.EVENT_DATA["rules"]["control_rounds"]["dice_per_empire"])
ROUNDS = int(D.EVENT_DATA["rules"]["control_rounds"]["rounds"])


def running(state: State, seat: Seat) -> list[dict[str, Any]]:
    """``seat``'s six-round events under way (``state["running"]``)."""
    return [r for r in state.get("running", []) if r["seat"] == seat]


def can_choose(state: State, seat: Seat, card: str, option: int) -> bool:
    """True when ``seat`` may choose ``option`` (0 or 1) of ``card``: its cost can be paid (a
    six-round option with no free Event die is still open: R-event-dice gives one up)."""
    pay = CARDS[card]["options"][option]["effect"].get("pay", {})
    res = state["players"][seat]["res"]
    return all(res[k] >= int(v) for k, v in pay.items())


def apply_effect(state: State, seat: Seat, region: str, effect: dict[str, Any],
                 techs: list[str] | None = None) -> None:
    """Apply ``effect`` for ``seat`` at the event's ``region``; ``techs`` names the technology
    of each discovery, in order (needed for ``any`` or a technology already at its top)."""
    player = state["players"][seat]
    res = player["res"]
    for k, v in effect.get("pay", {}).items():
        res[k] -= int(v)
    for k, v in effect.get("gain", {}).items():
        res[k] += int(v)
    for kind, n in effect.get("units", {}).items():
        for _ in range(int(n)):
            if len(units_of(state, seat)) < unit_limit(state, seat) and \
                    len(units_of(state, seat, kind)) < D.FIGURES[kind]:
                state["units"].append([seat, kind, region])
            else:
                res["phalanx"] += 1
    for _ in range(int(effect.get("population", 0))):
        advance_seal(state, "population", seat)
    for key, pieces, piece in (("colony_here", "colonies", "colony"),
                               ("rampart_here", "ramparts", "rampart")):
        for _ in range(int(effect.get(key, 0))):
            taken = {r for p in state["players"] for r in p[pieces]}
            enemy = any(u[0] != seat and u[2] == region and u[1] != "ship"
                        for u in state["units"])
            if len(player[pieces]) < D.PIECES[piece] and region not in taken and not enemy:
                player[pieces].append(region)
            else:
                res["phalanx"] += 1
    chosen = list(techs or [])
    for named in effect.get("discover", []):
        tech = named if named != "any" and next_card(state, seat, named) else \
            (chosen.pop(0) if chosen else None)
        card = None if tech is None else next_card(state, seat, tech)
        if card is not None:
            player["civ"].remove(card)
            player["tech"][tech] = card


def choose(state: State, seat: Seat, region: str, card: str, option: int,
           techs: list[str] | None = None) -> None:
    """Resolve ``seat``'s choice of ``option`` of ``card`` revealed in ``region``."""
    opt = CARDS[card]["options"][option]
    apply_effect(state, seat, region, opt["effect"], techs)
    if opt["kind"] == "vp_token":
        state.setdefault("vp_tokens", {})[region] = int(opt["token_vp"])
    if opt["kind"] == "control_6_rounds":
        mine = running(state, seat)
        if len(mine) >= DICE_PER_EMPIRE:  # R-event-dice; which one: a step of the next slice
            state["running"].remove(mine[0])
        state.setdefault("running", []).append(
            {"seat": seat, "card": card, "option": option, "region": region, "face": 1})
    else:
        for _ in range(int(opt["advance"])):
            advance_seal(state, "event", seat)
    player = state["players"][seat]
    player["events_resolved"] = int(player.get("events_resolved", 0)) + 1


def finish(state: State, run: dict[str, Any], techs: list[str] | None = None) -> None:
    """The sixth end of round of ``run``: « gagnez la récompense finale » and the Event-track
    advance (Q-six-rounds (a)). A free Ziggurat storey (its die colour) and Quest cards are
    choices of the next slice."""
    opt = CARDS[run["card"]]["options"][run["option"]]
    apply_effect(state, run["seat"], run["region"], opt.get("final", {}), techs)
    for _ in range(int(opt["advance"])):
        advance_seal(state, "event", run["seat"])


def end_of_round(state: State) -> list[dict[str, Any]]:
    """« À la fin de chaque Manche, tournez le dé sur le chiffre suivant et résolvez l'effet
    pour cette Manche. » Each running event gives its per-round gain; at the sixth end of round
    the die is removed and the event returned (its final reward and its advance to resolve,
    which may need the owner's choices)."""
    finished: list[dict[str, Any]] = []
    for run in list(state.get("running", [])):
        opt = CARDS[run["card"]]["options"][run["option"]]
        apply_effect(state, run["seat"], run["region"], opt.get("per_round", {}))
        if run["face"] >= ROUNDS:
            state["running"].remove(run)
            finished.append(run)
        else:
            run["face"] += 1
    return finished


# -- the event steps ----------------------------------------------------------------------------

VERBS = frozenset({"event"})


def begin(state: State) -> None:
    """After the action phase: reveal the first pending event (R-reveal-timing; the action phase
    records them in ``pending_events``; a token already revealed is skipped) and give its card to
    the seat whose unit stopped there (phase ``events``); with none left, the combat phase
    (:mod:`bot.games.mesopotamia.battles` goes on with it; a beaten tribe's event comes here
    too, R-tribe-event)."""
    pending = state.get("pending_events", [])
    while pending and not _face_down(state, pending[0][1]):
        pending.pop(0)     # two units stopped on one token: it is revealed once
    if not pending:
        state["phase"], state["current"], state["event"] = "combat", None, None
        return
    seat, region = pending.pop(0)
    state["sites"][region][1] = True
    state["phase"], state["current"] = "events", int(seat)
    state["event"] = {"region": region, "card": state["sites"][region][0]}


def _face_down(state: State, region: str) -> bool:
    site = state["sites"].get(region)
    return site is not None and not site[1]


def _choices(state: State, seat: Seat, effect: dict[str, Any]) -> list[list[str]]:
    """The technology choices a discovery effect asks (R-event discoveries): none, or one
    technology to name among those that can still go up a level."""
    free = [a for a in D.ACTIONS if next_card(state, seat, a)]
    asks = [d for d in effect.get("discover", []) if d == "any" or not next_card(state, seat, d)]
    if not asks or not free:
        return [[]]
    return [[a] for a in free]


def legal(state: State, seat: Seat) -> list[str]:
    """``event <card> <option> [<technology>]`` for each option ``seat`` may choose."""
    if state["phase"] != "events" or seat != state["current"]:
        return []
    card = state["event"]["card"]
    out: list[str] = []
    for i, opt in enumerate(CARDS[card]["options"]):
        if can_choose(state, seat, card, i):
            out += [" ".join(["event", card, str(i + 1), *c])
                    for c in _choices(state, seat, opt["effect"])]
    return out


def apply(state: State, seat: Seat, notation: str) -> None:
    """Resolve the chosen option, then reveal the next pending event (or begin combat)."""
    _, card, option, *techs = notation.split()
    region = state["event"]["region"]
    i = int(option) - 1
    choose(state, seat, region, card, i, techs)
    if CARDS[card]["options"][i]["kind"] == "immediate":
        del state["sites"][region]  # « Défaussez la carte et retirez le jeton. »
    begin(state)
