"""Event cards: their options and effects, and the steps that reveal and resolve them.

« Donnez ensuite la carte Événement au joueur qui l'a révélé, qui doit choisir entre l'option 1
et 2. » An option is ``immediate`` (its effect, then the card and token leave), ``vp_token``
(its effect, and the token stays face up, worth ``token_vp`` to whoever controls the region at
the end, ``state["vp_tokens"]``), or ``control_6_rounds`` (an Event die beside the token on face
1, a per-round gain at each end of round, the final reward at the sixth, R-event-dice). Every
option advances its chooser on the Event track. Effects follow the rulings of RULINGS.md:
granted units, Colonies and Ramparts go to the event's region, each one that cannot be placed
gives 1 phalanx instead; a discovery is free, and ``any`` (or a technology already at its top)
lets the chooser name the technology (the ``techs`` argument).

The steps (:func:`reveal`, :func:`begin`, :func:`legal`, :func:`apply`): a unit that stops on a
face-down token records it in ``pending_events`` (:mod:`bot.games.mesopotamia.exploration`),
and the same step reveals it (:func:`reveal`, ``state["event"]``, R-reveal-timing): its
revealer chooses ``event <card> <option> [<technology> …] [abandon <card>]`` (R-event-step;
``abandon`` names the running event given up for a fourth six-round one, R-event-dice) before
going on with its turn.
A beaten tribe's event is revealed in the combat phase (:func:`begin`, phase ``events``,
R-tribe-event). Six-round events turn at the end of a round (:func:`end_of_round`,
:func:`finish`); a final reward that names a technology waits in ``state["finals"]`` for its
owner's step (:mod:`bot.games.mesopotamia.rounds`, R-round-end). Just before they turn, a
running event whose region another empire controls is reset (:func:`take_over`,
R-event-reset): its card goes to the controller, who chooses in phase ``events``
(``state["event"]`` then names the previous owner, ``from``).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import scoring
from bot.games.mesopotamia.actions import next_card
from bot.games.mesopotamia.construction import add_storey, storey_colours
from bot.games.mesopotamia.state import MesopotamiaState, advance_seal, pieces, unit_limit, units_of

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in D.EVENT_CARDS}
DICE_PER_EMPIRE = int(D.EVENT_DATA["rules"]["control_rounds"]["dice_per_empire"])
ROUNDS = int(D.EVENT_DATA["rules"]["control_rounds"]["rounds"])


def running(state: MesopotamiaState, seat: Seat) -> list[dict[str, Any]]:
    """``seat``'s six-round events under way (``state["running"]``)."""
    return [r for r in state.get("running", []) if r["seat"] == seat]


def can_choose(state: MesopotamiaState, seat: Seat, card: str, option: int) -> bool:
    """True when ``seat`` may choose ``option`` (0 or 1) of ``card``: its cost can be paid (a
    six-round option with no free Event die is still open: R-event-dice gives one up)."""
    pay = CARDS[card]["options"][option]["effect"].get("pay", {})
    res = state["players"][seat]["res"]
    return all(res[k] >= int(v) for k, v in pay.items())


def apply_effect(state: MesopotamiaState, seat: Seat, region: str, effect: dict[str, Any],
                 techs: list[str] | None = None) -> None:
    """Apply ``effect`` for ``seat`` at the event's ``region``; ``techs`` names the technology
    of each discovery, in order (needed for ``any`` or a technology already at its top), then
    the colour of a free Ziggurat storey's die when more than one is allowed."""
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
    for key, kind, piece in (("colony_here", "colonies", "colony"),
                             ("rampart_here", "ramparts", "rampart")):
        for _ in range(int(effect.get(key, 0))):
            taken = {r for p in state["players"] for r in pieces(p, kind)}
            enemy = any(u[0] != seat and u[2] == region and u[1] in D.LAND
                        for u in state["units"])     # a ram keeps nobody out (R-ram-unit)
            if len(pieces(player, kind)) < D.PIECES[piece] and region not in taken and not enemy:
                pieces(player, kind).append(region)
            else:
                res["phalanx"] += 1
    quests = state["quests"]
    for _ in range(int(effect.get("quest_cards", 0))):   # drawn from the deck and kept
        if quests["deck"]:
            quests["hands"][seat].append(quests["deck"].pop(0))
    chosen = [t for t in techs or [] if t not in D.COLOURS]
    colours = storey_colours(state, seat)
    for _ in range(int(effect.get("ziggurat_storey", 0))):
        named = [c for c in techs or [] if c in D.COLOURS]
        if colours:   # « … vous gagnez 1 Phalange à la place » when it cannot be built
            add_storey(state, seat, named[0] if named else colours[0])
        else:
            res["phalanx"] += 1
    for named in effect.get("discover", []):
        tech = named if named != "any" and next_card(state, seat, named) else \
            (chosen.pop(0) if chosen else None)
        card = None if tech is None else next_card(state, seat, tech)
        if card is not None:
            player["civ"].remove(card)
            player["tech"][known(tech)] = card


def choose(state: MesopotamiaState, seat: Seat, region: str, card: str, option: int,
           techs: list[str] | None = None, drop: str | None = None) -> None:
    """Resolve ``seat``'s choice of ``option`` of ``card`` revealed in ``region``; ``drop`` is
    the card of the running event it gives up for a six-round option (R-event-dice)."""
    opt = CARDS[card]["options"][option]
    apply_effect(state, seat, region, opt["effect"], techs)
    if opt["kind"] == "vp_token":
        state.setdefault("vp_tokens", {})[region] = int(opt["token_vp"])
    if opt["kind"] == "control_6_rounds":
        if drop is not None:
            given_up = next(r for r in running(state, seat) if r["card"] == drop)
            state["running"].remove(given_up)
            del state["sites"][given_up["region"]]  # its card and token leave the game
        state.setdefault("running", []).append(
            {"seat": seat, "card": card, "option": option, "region": region, "face": 1})
    else:
        for _ in range(int(opt["advance"])):
            advance_seal(state, "event", seat)
    player = state["players"][seat]
    player["events_resolved"] = int(player.get("events_resolved", 0)) + 1


def finish(state: MesopotamiaState, run: dict[str, Any], techs: list[str] | None = None) -> None:
    """The sixth end of round of ``run``: « gagnez la récompense finale » and the Event-track
    advance (Q-six-rounds (a)). Without ``techs``, a final reward that names a technology or the
    colour of a free Ziggurat storey's die waits in ``state["finals"]`` for its owner's step
    (R-round-end)."""
    opt = CARDS[run["card"]]["options"][run["option"]]
    final = opt.get("final", {})
    if techs is None and reward_choices(state, run["seat"], final) != [[]]:
        state.setdefault("finals", []).append(run)
        return
    apply_effect(state, run["seat"], run["region"], final, techs)
    for _ in range(int(opt["advance"])):
        advance_seal(state, "event", run["seat"])


def end_of_round(state: MesopotamiaState) -> list[dict[str, Any]]:
    """« À la fin de chaque Manche, tournez le dé sur le chiffre suivant et résolvez l'effet
    pour cette Manche. » Each running event gives its per-round gain; at the sixth end of round
    the die, the card and the token are removed and the event returned (its final reward and its
    advance to resolve, :func:`finish`)."""
    finished: list[dict[str, Any]] = []
    for run in list(state.get("running", [])):
        opt = CARDS[run["card"]]["options"][run["option"]]
        apply_effect(state, run["seat"], run["region"], opt.get("per_round", {}))
        if run["face"] >= ROUNDS:  # « retirez la carte et le jeton Événement du jeu »
            state["running"].remove(run)
            state["sites"].pop(run["region"], None)
            finished.append(run)
        else:
            run["face"] += 1
    return finished


# -- the event steps ----------------------------------------------------------------------------

VERBS = frozenset({"event"})


def reveal(state: MesopotamiaState) -> bool:
    """« celui-ci est immédiatement révélé »: reveal the first pending event (a token already
    revealed is skipped: two units stopped on it) for the seat whose unit stopped there
    (``state["event"]``); False when none is left."""
    pending = state.get("pending_events", [])
    while pending and not _face_down(state, pending[0][1]):
        pending.pop(0)
    state["event"] = None
    if not pending:
        return False
    seat, region = pending.pop(0)
    state["sites"][region][1] = True
    state["event"] = {"seat": int(seat), "region": region, "card": state["sites"][region][0]}
    return True


def begin(state: MesopotamiaState) -> None:
    """In the combat phase, a beaten tribe's event (R-tribe-event): reveal it and give its card
    to the attacker (phase ``events``); with none left, back to the combat phase
    (:mod:`bot.games.mesopotamia.battles` goes on with it)."""
    if reveal(state):
        state["phase"], state["current"] = "events", known(state["event"])["seat"]
    else:
        state["phase"], state["current"] = "combat", None


def take_over(state: MesopotamiaState) -> bool:
    """« Si, au cours des 6 Manches, un autre Empire prend le contrôle de la région :
    l'Événement est réinitialisé ; le nouveau propriétaire récupère la carte Événement ; puis il
    choisit l'une des deux options » (R-event-reset): the first running event whose region
    another empire controls (R-control) leaves its owner, who keeps what it gave; its card goes
    to the controller, who chooses as if he had revealed it (phase ``events``). False when no
    running event has changed hands (a region nobody controls keeps its die running)."""
    runs = state.get("running", [])
    owners = scoring.controllers(state, [r["region"] for r in runs])
    lost = next((r for r in runs if owners[r["region"]] not in (None, r["seat"])), None)
    if lost is None:
        return False
    runs.remove(lost)
    seat = owners[lost["region"]]
    state["event"] = {"seat": seat, "region": lost["region"], "card": lost["card"],
                      "from": lost["seat"]}
    state["phase"], state["current"] = "events", seat
    return True


def _face_down(state: MesopotamiaState, region: str) -> bool:
    site = state["sites"].get(region)
    return site is not None and not site[1]


def tech_choices(state: MesopotamiaState, seat: Seat, effect: dict[str, Any]) -> list[list[str]]:
    """The technology names a discovery effect asks (R-event discoveries), in order: one for
    each discovery of ``any`` or of a technology already at its top (« vous pouvez choisir une
    autre Technologie à améliorer à la place »), among those that can still go up a level once
    the earlier discoveries are taken; ``[[]]`` when none is asked."""
    room = _room(state, seat)
    found: list[tuple[list[str], list[str]]] = [([], [])]   # (names, technologies raised)
    for named in effect.get("discover", []):
        found = [pair for names, raised in found
                 for pair in _discovered(room, named, names, raised)]
    return [names for names, _ in found]


def reward_choices(state: MesopotamiaState, seat: Seat, effect: dict[str, Any]) -> list[list[str]]:
    """The names a final reward asks: its technologies (:func:`tech_choices`), then the colour
    of a free Ziggurat storey's die when more than one is allowed (R-new-die); ``[[]]`` when
    none is asked."""
    colours = storey_colours(state, seat) if effect.get("ziggurat_storey") else []
    dice = [[c] for c in colours] if len(colours) > 1 else [[]]
    return [t + d for t in tech_choices(state, seat, effect) for d in dice]


def _discovered(room: dict[str, int], named: str, names: list[str],
                raised: list[str]) -> list[tuple[list[str], list[str]]]:
    """The ways one discovery of ``named`` goes on after ``names`` (``raised`` so far)."""
    if named != "any" and room[named] > raised.count(named):
        return [(names, [*raised, named])]
    free = [a for a in D.ACTIONS if room[a] > raised.count(a)]
    return [([*names, a], [*raised, a]) for a in free] or [(names, raised)]


def _room(state: MesopotamiaState, seat: Seat) -> dict[str, int]:
    """How many levels each technology of ``seat`` can still go up (its next cards held)."""
    player = state["players"][seat]
    room: dict[str, int] = {}
    for action in D.ACTIONS:
        level = D.TECH_CARD[D.CIV_TECH[player["tech"][action]]][1]
        held = {D.TECH_CARD[D.CIV_TECH[c]][1] for c in player["civ"]
                if D.TECH_CARD[D.CIV_TECH[c]][0] == action}
        room[action] = next(k for k in range(len(held) + 1) if level + k + 1 not in held)
    return room


def _drops(state: MesopotamiaState, seat: Seat, option: dict[str, Any]) -> list[list[str]]:
    """R-event-dice: with every Event die in use, a six-round option names the running event
    it gives up (``abandon <card>``)."""
    mine = running(state, seat)
    if option["kind"] != "control_6_rounds" or len(mine) < DICE_PER_EMPIRE:
        return [[]]
    return [["abandon", run["card"]] for run in mine]


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """``event <card> <option> [<technology> …] [abandon <card>]`` for each option ``seat`` may
    choose, while an event revealed for ``seat`` waits."""
    event = state.get("event")
    if not event or seat != state["current"]:
        return []
    card = event["card"]
    out: list[str] = []
    for i, opt in enumerate(CARDS[card]["options"]):
        if can_choose(state, seat, card, i):
            out += [" ".join(["event", card, str(i + 1), *c, *d])
                    for c in tech_choices(state, seat, opt["effect"])
                    for d in _drops(state, seat, opt)]
    return out


def parse(notation: str) -> tuple[str, int, list[str], str | None]:
    """The card, the option (0 or 1), the named technologies and the given-up card of an
    ``event`` step."""
    _, card, option, *rest = notation.split()
    drop = rest[-1] if "abandon" in rest else None
    return card, int(option) - 1, rest[:rest.index("abandon")] if drop else rest, drop


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Resolve the chosen option, then reveal the next pending event: in the action phase the
    turn goes on; in the combat phase (:func:`begin`), the combats (or, after a reset, the end
    of the round) go on once none is left."""
    card, i, techs, drop = parse(notation)
    region = known(state["event"])["region"]
    choose(state, seat, region, card, i, techs, drop)
    if CARDS[card]["options"][i]["kind"] == "immediate":
        del state["sites"][region]  # « Défaussez la carte et retirez le jeton. »
    if state["phase"] == "events":
        begin(state)
    else:
        reveal(state)
