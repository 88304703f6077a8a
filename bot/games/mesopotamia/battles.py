"""The combat phase as steps, the colonies after it, and the end of the round.

« Après la Phase d'action survient la Phase de combat. » Once the pending events are resolved,
the combats (R-combat-detection) are fought one at a time:

- ``fight <region>``: « Le joueur le plus avancé sur la piste Événement décide de l'ordre dans
  lequel tous les combats sont résolus. » — he names the next combat (with one left, it starts
  by itself); in a region with three sides or more he also names the two that fight first,
  ``pair <side> <side>`` (an empire id, or ``tribe``; R-multi-empire);
- the naval support is counted (R-ship-bonus), then every side seals its bid in secret
  (:mod:`bot.games.mesopotamia.bids`, ``bid <n>`` per compartment); a tribe's bid is its die
  plus 2 per figure, sealed by its controller (R-tribe-controller, R-tribe-die);
- a seat against the Automaton fights « COMBAT EN SOLO » instead, without bids
  (:mod:`bot.games.mesopotamia.solo`, its own steps; R-solo-combat);
- the revealed bids settle the combat: the standard combat
  (:mod:`bot.games.mesopotamia.standard`, its own steps) or, with the option ``combat`` set
  to ``simplified``, the « Mode de combat
  simplifié », whose winner names the unit it loses, ``sacrifice <unit>``, when it has a choice;
- after a combat in a fortified region a ram of the attacker there is removed and the ramparts
  are destroyed (R-ram); a beaten tribe's event is revealed and resolved at once, before the
  next combat (R-tribe-event, :mod:`bot.games.mesopotamia.events`);
- after the last combat, in Event-track order, each seat with a land unit in a region holding an
  enemy colony says ``colony destroy|take|keep <region>`` (R-colony-attack);
- then a running event whose region another empire controls is reset, its new controller
  choosing an option (phase ``events``, :func:`bot.games.mesopotamia.events.take_over`,
  R-event-reset), the six-round events turn
  (:func:`bot.games.mesopotamia.events.end_of_round`) and the round ends
  (:func:`bot.games.mesopotamia.rounds.end_round`).

The phase's record is ``state["battle"]``: ``stage`` (``order``, ``pair``, ``bids``,
``sacrifice``, ``standard``, ``solo`` or ``colonies``), ``chooser`` (the first on the Event
track when the phase began: « l'ordre de résolution des combats reste inchangé » even if a
tribe's event moves the seals, R-combat-order), ``region``, ``pair`` (the two sides fighting),
``attacker``, ``ships`` (``[seat, section]`` of each ship that supported this round),
``kept`` (``[seat, region]`` colonies left standing), ``shown`` (the revealed bids of the
combat under way) and ``sums`` (their totals in the simplified combat, while the winner names
its loss); ``state["resolved"]`` lists the combats ended by the last step (region, bids,
winner, loser) for its report.
"""

from __future__ import annotations

from itertools import combinations

from bot import chance
from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import bids, combat, events, rounds, solo, standard
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE, Side
from bot.games.mesopotamia.state import MesopotamiaState, seal_order

VERBS = frozenset({"fight", "pair", "bid", "sacrifice", "colony"})
COLONY_CHOICES = ("destroy", "take", "keep")
MODES = ("standard", "simplified")


def _plays_standard(state: MesopotamiaState) -> bool:
    """Whether this game plays the standard combat (else the simplified one)."""
    return str(state.get("combat_mode", MODES[0])) == "standard"


# -- sides ---------------------------------------------------------------------------------


def token(state: MesopotamiaState, side_: Side) -> str:
    """A side in a notation: its empire id, or ``tribe``."""
    return TRIBE if side_ == TRIBE else str(state["players"][int(side_)]["empire"])


def side_of(state: MesopotamiaState, word: str) -> Side:
    """The side a notation's word names."""
    if word == TRIBE:
        return TRIBE
    return next(s for s, p in enumerate(state["players"]) if p["empire"] == word)


def attacker(state: MesopotamiaState, region: str, pair: tuple[Side, Side]) -> Seat:
    """Q-rout (a): the empire whose unit entered ``region`` last (``state["entered"]``); the
    empire against a tribe; else the seat of the pair behind on the Event track
    (R-attacker)."""
    seats = [int(s) for s in pair if s != TRIBE]
    last = state.get("entered", {}).get(region)
    if len(seats) == 1 or last in seats:
        return seats[0] if len(seats) == 1 else int(known(last))
    order = seal_order(state, "event")
    return max(seats, key=order.index)


def support(state: MesopotamiaState, region: str, seat: Seat) -> list[str]:
    """The sections of ``seat``'s ships that support its combat in ``region`` (R-ship-bonus):
    on a section bordering the region, each ship once a round."""
    used = [tuple(u) for u in state["battle"]["ships"]]
    out: list[str] = []
    for kind_seat, kind, at in state["units"]:
        if kind_seat == seat and kind == "ship" and region in D.SECTIONS[at].banks and \
                used.count((seat, at)) + out.count(at) < _ships(state, seat, at):
            out.append(at)
    return out


def _ships(state: MesopotamiaState, seat: Seat, section: str) -> int:
    return sum(1 for u in state["units"] if u == [seat, "ship", section])


# -- the phase -----------------------------------------------------------------------------


def resume(state: MesopotamiaState) -> None:
    """Enter or go on with the combat phase (after the events): play what needs no decision
    until a seat must decide, or the round ends."""
    state.setdefault("battle", {"stage": "order", "chooser": combat.order_chooser(state),
                                "region": None, "pair": None,
                                "attacker": None, "ships": [], "kept": [], "shown": None,
                                "sums": None})
    _next(state)


def _next(state: MesopotamiaState) -> None:
    """The next combat: the region under way while it is contested, else the chooser's."""
    battle = state["battle"]
    regions = rounds.contested(state)
    battle["pair"], battle["stage"] = None, "order"
    if battle["region"] in regions:
        _pairs(state)
        return
    battle["region"] = None
    if len(regions) == 1:
        state["log"].append([battle["chooser"], f"fight {regions[0]}"])
        _fight(state, regions[0])
    elif not regions:
        _colonies(state)


def _fight(state: MesopotamiaState, region: str) -> None:
    state["battle"]["region"] = region
    _pairs(state)


def _pairs(state: MesopotamiaState) -> None:
    """Two sides: they fight; more: the chooser names the first two (stage ``pair``)."""
    sides = list(combat.fighters(state, state["battle"]["region"]))
    if len(sides) == 2:
        _open(state, (sides[0], sides[1]))
    else:
        state["battle"]["stage"] = "pair"


def _open(state: MesopotamiaState, pair: tuple[Side, Side]) -> None:
    """Begin the combat of ``pair``: naval support, the tribe's phalanxes, the cards of the
    standard combat, then the sealed bids."""
    battle = state["battle"]
    region = battle["region"]
    battle["pair"], battle["stage"] = list(pair), "bids"
    battle["attacker"] = attacker(state, region, pair)
    stakes: dict[Side, int] = {}
    need: dict[Side, int] = {}
    for side_ in pair:
        if side_ == TRIBE:
            figures = sum(int(n) for n in state["tribes"][region].values())
            stakes[TRIBE] = combat.tribe_phalanxes(chance.Draw(state).die(), figures)
            need[TRIBE] = stakes[TRIBE]
            continue
        ships = support(state, region, int(side_))
        battle["ships"] += [[side_, s] for s in ships]
        res = state["players"][int(side_)]["res"]
        res["phalanx"] += len(ships)  # « reçoit 1 Phalange bonus avant la Phase d'enchères »
        stakes[side_], need[side_] = int(res["phalanx"]), len(ships)
    if solo.applies(state, pair):
        battle["stage"] = "solo"
        solo.open_combat(state, region, pair)
        _solo_over(state)
        return
    plays_standard = _plays_standard(state)
    if plays_standard:
        standard.draw(state, region, pair, battle["attacker"])
    by: dict[Side, Seat] = {TRIBE: combat.tribe_controller(state, battle["attacker"])}
    bids.open_bids(state, stakes, 3 if plays_standard else 1, need, by)
    _sealed(state)


def _sealed(state: MesopotamiaState) -> None:
    """Seal by itself every part that has a single choice; once all are sealed, settle."""
    bids.seal_forced(state)
    shown = bids.revealed(state)
    if shown is not None:
        _settle(state, shown)


def _settle(state: MesopotamiaState, shown: dict[Side, list[int]]) -> None:
    """The revealed bids decide the combat."""
    battle = state["battle"]
    battle["shown"] = {str(s): b for s, b in shown.items()}
    if _plays_standard(state):
        state.pop("bids")
        battle["stage"] = "standard"
        standard.settle(state, shown)
        _standard_over(state)
        return
    sums = {s: sum(b) for s, b in shown.items()}
    battle["sums"] = {str(s): n for s, n in sums.items()}
    if len(sacrifices(state)) > 1:
        battle["stage"] = "sacrifice"
        return
    _simplified(state, None)


def _pair(state: MesopotamiaState) -> tuple[Side, Side]:
    a, b = state["battle"]["pair"]
    return a, b


def _winner(state: MesopotamiaState) -> Side:
    battle = state["battle"]
    sums = {bids.side(k): int(n) for k, n in battle["sums"].items()}
    return combat.simplified_winner(state, battle["region"], sums, _pair(state))[0]


def sacrifices(state: MesopotamiaState) -> list[str]:
    """The kinds of unit the winner of the simplified combat may lose (R-simplified-combat:
    its choice; a tribe loses its weakest figure)."""
    winner = _winner(state)
    kinds = combat.fighters(state, state["battle"]["region"])[winner]
    if winner == TRIBE or len(kinds) < 2:
        return []
    return sorted(set(kinds), key=lambda k: combat.UNIT_VALUE[k])


def _simplified(state: MesopotamiaState, kind: str | None) -> None:
    battle = state["battle"]
    sums = {bids.side(k): int(n) for k, n in battle["sums"].items()}
    state.pop("bids")
    done = combat.resolve_simplified(state, battle["region"], sums, kind, _pair(state))
    battle["sums"] = None
    _over(state, done["winner"], done["loser"])


def _standard_over(state: MesopotamiaState) -> None:
    """End the standard combat once its steps are done."""
    result = standard.result(state)
    if result is not None:
        state.pop("fought", None)
        _over(state, result["winner"], result["loser"])


def _solo_over(state: MesopotamiaState) -> None:
    """End the combat against the Automaton once a side has no unit left in it (no bids to
    tell)."""
    result = solo.result(state)
    if result is not None:
        state["battle"]["shown"] = None
        _over(state, *result)


def _over(state: MesopotamiaState, winner: Side, loser: Side) -> None:
    """After a combat: the loser has left the region (« Après chaque combat, l'Empire perdant
    quitte la région. », R-multi-empire), the ram and ramparts (R-ram), a beaten tribe's event
    (R-tribe-event), then the next combat."""
    battle = state["battle"]
    region, attacker_ = battle["region"], battle["attacker"]
    combat.remove_side(state, region, loser)
    state.setdefault("resolved", []).append({"region": region, "bids": battle["shown"],
                                           "winner": winner, "loser": loser})
    siege(state, region, attacker_)
    site = state["sites"].get(region)
    if loser == TRIBE and not state["tribes"].get(region) and site and not site[1] and \
            region not in state["blockers"]:
        state["pending_events"].append([attacker_, region])
        events.begin(state)
        if state["phase"] == "events":
            return
    _next(state)


def siege(state: MesopotamiaState, region: str, attacker_: Seat) -> None:
    """« À la fin d'un combat dans une région fortifiée : Le Bélier est retiré du plateau du
    jeu. Les Remparts sont détruits, quelle que soit l'issue du combat. » (R-ram)."""
    if not any(region in p["ramparts"] for p in state["players"]):
        return
    ram = [attacker_, "ram", region]
    if ram in state["units"]:
        state["units"].remove(ram)
    for player in state["players"]:
        player["ramparts"] = [r for r in player["ramparts"] if r != region]


# -- colonies and the end of the round ---------------------------------------------------------


def colony_targets(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The regions where ``seat`` may act on an enemy colony (R-colony-attack): its land unit
    stands there, the colony is another seat's, and ``seat`` has not kept it standing."""
    held = {u[2] for u in state["units"] if u[0] == seat and u[1] in D.LAND}
    enemy = {r for s, p in enumerate(state["players"]) if s != seat for r in p["colonies"]}
    kept = {r for s, r in state["battle"]["kept"] if s == seat}
    return [r for r in D.REGIONS if r in held and r in enemy and r not in kept]


def _colony_seat(state: MesopotamiaState) -> Seat | None:
    """The seat deciding on colonies now: the first on the Event track with a target."""
    return next((s for s in seal_order(state, "event") if colony_targets(state, s)), None)


def _colonies(state: MesopotamiaState) -> None:
    """After the combats: the colonies, then the end of the round."""
    state["battle"]["stage"] = "colonies"
    if _colony_seat(state) is None:
        end_round(state)


def end_round(state: MesopotamiaState) -> None:
    """A running event whose region another empire controls is first reset, its new owner's
    step (R-event-reset); then the six-round events turn (and the finished ones give their
    final reward), then the next round or the end of the game."""
    if events.take_over(state):
        return
    for run in events.end_of_round(state):
        events.finish(state, run)
    state.pop("battle", None)
    rounds.end_round(state)


def _colony(state: MesopotamiaState, seat: Seat, choice: str, region: str) -> None:
    """``colony destroy|take|keep <region>`` (« Détruire la Colonie » / « Conquérir la
    Colonie »)."""
    if choice == "keep":
        state["battle"]["kept"].append([seat, region])
    else:
        for player in state["players"]:
            player["colonies"] = [r for r in player["colonies"] if r != region]
        if choice == "take":
            state["players"][seat]["colonies"].append(region)
    _colonies(state)


# -- the steps -------------------------------------------------------------------------------


def active(state: MesopotamiaState) -> list[Seat]:
    """The seats deciding now in the combat phase."""
    battle = state.get("battle")
    if state["phase"] != "combat" or not battle:
        return []
    stage = battle["stage"]
    if stage in ("order", "pair"):
        return [int(battle["chooser"])]
    if stage == "bids":
        return bids.active(state)
    if stage == "sacrifice":
        return [int(_winner(state))]
    if stage == "colonies":
        seat = _colony_seat(state)
        return [] if seat is None else [seat]
    if stage == "solo":
        return solo.active(state)
    return list(standard.active(state))


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Every step ``seat`` may take now in the combat phase."""
    if seat not in active(state):
        return []
    battle = state["battle"]
    stage = battle["stage"]
    if stage == "order":
        return [f"fight {r}" for r in rounds.contested(state)]
    if stage == "pair":
        sides = [token(state, s) for s in combat.fighters(state, battle["region"])]
        return [f"pair {a} {b}" for a, b in combinations(sides, 2)]
    if stage == "bids":
        return bids.legal(state, seat)
    if stage == "sacrifice":
        return [f"sacrifice {k}" for k in sacrifices(state)]
    if stage == "colonies":
        can_take = len(state["players"][seat]["colonies"]) < D.PIECES["colony"]
        return [f"colony {c} {r}" for r in colony_targets(state, seat) for c in COLONY_CHOICES
                if c != "take" or can_take]
    if stage == "solo":
        return solo.legal(state, seat)
    return list(standard.legal(state, seat))


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Play the legal step ``notation`` of ``seat``."""
    verb, *args = notation.split()
    if verb == "fight":
        _fight(state, args[0])
    elif verb == "pair":
        _open(state, (side_of(state, args[0]), side_of(state, args[1])))
    elif verb == "bid":
        bids.commit(state, seat, notation)
        _sealed(state)
    elif verb == "sacrifice":
        _simplified(state, args[0])
    elif verb == "colony":
        _colony(state, seat, args[0], args[1])
    elif "solo" in state:
        solo.apply(state, notation)
        _solo_over(state)
    else:
        standard.apply(state, seat, notation)
        _standard_over(state)

