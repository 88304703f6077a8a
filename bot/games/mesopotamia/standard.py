"""Mesopotamia's standard combat: one combat of two sides in one region, as a step machine.

« La résolution des combats de Mesopotamia dépend de cartes Combat, d'Enchères et d'allocation
de Force. » The combat phase (which combat is next, naval support, the sealed bids) calls:
:func:`draw` (« ÉTAPE 1 : PIOCHER DES CARTES COMBAT »), then :func:`settle` with the revealed
bids, then :func:`active` / :func:`legal` / :func:`apply` until :func:`result` is not None.

While it runs, ``state["fight"]`` holds (all public: « Placez les cartes piochées face visible »):

- ``region``, ``sides`` (``[a, b]``: a seat or ``"tribe"``), ``attacker`` (the side that chooses
  retreat regions) and ``controller`` (the seat deciding for a tribe: by default
  :func:`combat.tribe_controller` of the tribe's opponent; the caller may change it after
  :func:`draw`);
- ``units``: per unit number, its ``side``, ``kind``, ``card`` (a ``combat.json`` card id),
  ``alloc`` (row -> phalanxes placed on the card) and ``out`` (None while it fights, ``dead``,
  or ``fled``, with ``to``: the retreat region once chosen);
- ``lines``: per line, the queue of unit numbers of each side (``[queue of a, queue of b]``,
  front first), and ``moved`` (the units moved in the arrangement under way);
- ``stages``: what is left, first first: ``bids`` (until :func:`settle`), a row id (``force``,
  ``tactic``, ``mobility``: that compartment's winner places its bonus), ``lines`` (the arranger
  arranges the lines) and ``fight`` (the engagements);
- ``bonus`` (row -> ``[side, phalanxes left to place]`` or None), ``arranger`` (the side that
  arranges the lines), ``pending`` (decisions a clash left: ``["retreat", unit]`` for the
  attacker, then ``["fatigue", unit]`` for the winner's owner) and ``clashes`` (per clash:
  ``[unit, unit, total, total, winner unit]``).

Once the combat is over, ``state["fight"]`` is gone and ``state["fought"]`` holds ``region``,
``winner``, ``loser`` and ``clashes`` (the caller removes it once read; :func:`draw` drops a
stale one). The map (``state["units"]``, ``state["tribes"]``) is updated clash by clash.

Steps (one phalanx, one unit or one choice each; units and lines are numbered from 1 in the
steps, unit ``n`` being ``units[n - 1]``): ``place <unit> <row>``, ``line <unit> <line>``
(the unit goes to the back of that line's queue of its side; each unit moves at most once per
arrangement, so an arrangement takes at most one step per unit), ``lines done`` (once every
line holds both sides), ``retreat <region>`` and ``fatigue <row>``. A decision with a single
option is taken at once.
"""

from __future__ import annotations

from typing import Any

from bot.chance import Draw
from bot.engine import Seat, Text
from bot.games.mesopotamia import bids as B
from bot.games.mesopotamia import combat
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE, Side, remove_one
from bot.games.mesopotamia.exploration import closed
from bot.games.mesopotamia.state import MesopotamiaState

ROWS: tuple[str, ...] = B.ROWS
"""« Les cartes Combat comptent trois lignes » and the Standard of Ur's three compartments:
Force, Tactics, Mobility (Q-mobility-row, reading a)."""
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in D.COMBAT_CARDS}
DECKS: dict[str, tuple[str, ...]] = {
    kind: tuple(c["id"] for c in D.COMBAT_DATA["cards"] if c["unit"] == kind)
    for kind in D.COMBAT_DATA["decks"]}
VERBS = frozenset({"place", "line", "lines", "retreat", "fatigue"})


def draw(state: MesopotamiaState, region: str, sides: tuple[Side, Side], attacker: Side) -> None:
    """« Au début du combat, chaque Unité impliquée pioche une carte Combat correspondant à son
    type. » Every deck is shuffled whole for each combat (Q-combat-decks (b)), with the cards of
    the expansions in play (R-expansion-decks); the units are lined up in draw order
    (R-fight-lineup)."""
    state.pop("fought", None)
    kinds = combat.fighters(state, region)
    units = [{"side": side, "kind": kind, "card": "", "alloc": dict.fromkeys(ROWS, 0),
              "out": None} for side in sides for kind in kinds.get(side, [])]
    rng = Draw(state)
    for kind, deck in DECKS.items():
        drawing = [u for u in units if u["kind"] == kind]
        if drawing:
            cards = [*deck, *(c for x in state.get("expansions", [])
                              for c in D.EXPANSION_COMBAT[x][kind])]
            rng.shuffle(cards)
            for unit, card in zip(drawing, cards, strict=False):
                unit["card"] = card
    seats = [int(s) for s in sides if s != TRIBE]
    controller = combat.tribe_controller(state, seats[0]) if TRIBE in sides and seats else None
    state["fight"] = {"region": region, "sides": list(sides), "attacker": attacker,
                      "controller": controller, "units": units, "lines": [], "moved": [],
                      "stages": ["bids"], "bonus": dict.fromkeys(ROWS), "arranger": None,
                      "pending": [], "clashes": []}
    _form_lines(state["fight"])


def settle(state: MesopotamiaState, bids: dict[Side, list[int]]) -> None:
    """Resolve the three compartments of the revealed ``bids`` (side -> [force, tactics,
    mobility]): « Calculez la différence en soustrayant l'enchère la plus faible à la plus
    élevée » (the winner's bonus), « Le Sumérien remet la moitié de son enchère dans sa pile
    (arrondie à la baisse) » (the loser, in every compartment), « ils perdent chacun la totalité
    de leur mise, et aucune Unité n'est renforcée » (a tie). A seat pays from its phalanxes; a
    tribe pays nothing. Then the placements begin."""
    fight = state["fight"]
    a, b = fight["sides"]
    for i, row in enumerate(ROWS):
        x, y = bids.get(a, [0] * len(ROWS))[i], bids.get(b, [0] * len(ROWS))[i]
        winner = None if x == y else (a if x > y else b)
        for side, bid in ((a, x), (b, y)):
            refund = bid // 2 if winner is not None and side != winner else 0
            if side != TRIBE:
                state["players"][int(side)]["res"]["phalanx"] -= bid - refund
        fight["bonus"][row] = None if winner is None else [winner, abs(x - y)]
    tactic = fight["bonus"]["tactic"]
    fight["arranger"] = tactic[0] if tactic else combat.tie_winner(state, a, b)
    fight["stages"] = [ROWS[0], "lines", *ROWS[1:], "fight"]
    _run(state)


def active(state: MesopotamiaState) -> list[Seat]:
    """The seat deciding the combat's next step (a tribe's decisions are its controller's)."""
    fight = state.get("fight")
    side = None if fight is None else _decider(fight)
    return [] if fight is None or side is None else [_seat(fight, side)]


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Every step ``seat`` may take in the combat now."""
    return _options(state) if seat in active(state) else []


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Take ``seat``'s legal step ``notation``, then run the engagements as far as no decision
    is needed."""
    if notation not in legal(state, seat):
        raise ValueError(notation)
    _do(state, notation)
    _run(state)


def result(state: MesopotamiaState) -> dict[str, Side] | None:
    """Once the combat is over: its ``winner`` and ``loser`` sides, else None."""
    fought = state.get("fought")
    if "fight" in state or fought is None:
        return None
    return {"winner": fought["winner"], "loser": fought["loser"]}


def label(notation: str) -> Text:
    """How a step of the standard combat reads (units and lines numbered as in the notation)."""
    verb, *args = notation.split()
    if verb == "place":
        return Text.of("mesopotamia.fight.place", unit=int(args[0]), row=_row(args[1]))
    if verb == "line":
        return Text.of("mesopotamia.fight.line", unit=int(args[0]), line=int(args[1]))
    if verb == "retreat":
        return Text.of("mesopotamia.fight.retreat", region=D.name("region", args[0]))
    if verb == "fatigue":
        return Text.of("mesopotamia.fight.fatigue", row=_row(args[0]))
    return Text.of("mesopotamia.fight.lines_done")


def prompt(state: MesopotamiaState) -> Text | None:
    """What the combat's decision under way asks (None while there is none)."""
    fight = state.get("fight")
    if fight is None or _decider(fight) is None:
        return None
    region = Text.of(f"mesopotamia.in.{fight['region']}")
    if fight["pending"]:
        kind, n = fight["pending"][0]
        unit = fight["units"][n]
        return Text.of(f"mesopotamia.fight.prompt.{kind}", where=region, n=n + 1,
                       who=B.who(unit["side"]), unit=D.name("unit", unit["kind"]))
    stage = fight["stages"][0]
    if stage == "lines":
        return Text.of("mesopotamia.fight.prompt.lines", where=region)
    return Text.of("mesopotamia.fight.prompt.place", where=region, row=_row(stage),
                   n=int(fight["bonus"][stage][1]))


def _row(row: str) -> Text:
    return Text.of(f"mesopotamia.fight.row.{row}")


def _seat(fight: dict[str, Any], side: Side) -> Seat:
    return int(fight["controller"]) if side == TRIBE else int(side)


def _decider(fight: dict[str, Any]) -> Side | None:
    """The side deciding now, or None while nothing is to decide (bids, engagements)."""
    side: Side | None = None
    stage = fight["stages"][0]
    if fight["pending"]:
        kind, unit = fight["pending"][0]
        side = fight["attacker"] if kind == "retreat" else fight["units"][unit]["side"]
    elif stage in ROWS and fight["bonus"][stage]:
        side = fight["bonus"][stage][0]
    elif stage == "lines":
        side = fight["arranger"]
    return side


def _options(state: MesopotamiaState) -> list[str]:
    """The steps open now (the decider's)."""
    fight = state["fight"]
    if fight["pending"]:
        kind, unit = fight["pending"][0]
        if kind == "retreat":
            side = fight["units"][unit]["side"]
            return [f"retreat {r}" for r in havens(state, fight["region"], side)]
        return [f"fatigue {row}" for row in ROWS if fight["units"][unit]["alloc"][row]]
    stage = fight["stages"][0]
    if stage in ROWS and fight["bonus"][stage]:
        side = fight["bonus"][stage][0]
        return [f"place {i + 1} {stage}" for i, u in enumerate(fight["units"])
                if u["side"] == side and u["out"] is None and free(u, stage)]
    if stage == "lines":
        lines = fight["lines"]
        done = ["lines done"] if all(a and b for a, b in lines) else []
        return [*_line_moves(fight), *done]
    return []


def free(unit: dict[str, Any], row: str) -> int:
    """The empty slots left on ``row`` of ``unit``'s card: « Placez autant de Phalanges que
    vous souhaitez dans les emplacements libres de vos cartes Combat. »"""
    return int(CARDS[unit["card"]]["slots"][row]) - int(unit["alloc"][row])


def _line_moves(fight: dict[str, Any]) -> list[str]:
    """Each unit not yet moved in this arrangement may go to the back of any line, as long as
    every line can still get a unit of its side (R-fight-lineup)."""
    moves: list[str] = []
    lines, moved = fight["lines"], set(fight["moved"])
    for s in range(2):
        loose = [u for line in lines for u in line[s] if u not in moved]
        held = {j for j, line in enumerate(lines) if moved & set(line[s])}
        targets = [k for k in range(len(lines)) if len(lines) - len(held | {k}) < len(loose)]
        moves += [f"line {u + 1} {k + 1}" for u in loose for k in targets
                  if lines[k][s][-1:] != [u]]
    return sorted(moves, key=lambda m: [int(n) for n in m.split()[1:]])


def _do(state: MesopotamiaState, notation: str) -> None:
    """Carry out one step (legal, or the only option)."""
    fight = state["fight"]
    verb, *args = notation.split()
    if verb == "place":
        unit, row = int(args[0]) - 1, args[1]
        fight["units"][unit]["alloc"][row] += 1
        fight["bonus"][row][1] -= 1
        if not fight["bonus"][row][1]:
            fight["stages"].pop(0)
    elif verb == "line":
        _move_in_lines(fight, int(args[0]) - 1, int(args[1]) - 1)
    elif verb == "lines":
        fight["stages"].pop(0)
    elif verb == "retreat":
        _, unit = fight["pending"].pop(0)
        _flee(state, unit, args[0])
    else:
        _, unit = fight["pending"].pop(0)
        fight["units"][unit]["alloc"][args[0]] -= 1


def _skip(state: MesopotamiaState) -> None:
    """Nothing to choose: a rout with no retreat region destroys the unit (« Si aucune région
    n'est valide, les Unités en déroute sont détruites »), a bonus that fits no free slot is
    lost, fatigue without allocated phalanxes does nothing, a tie gives no bonus."""
    fight = state["fight"]
    if not fight["pending"]:
        fight["stages"].pop(0)
        return
    kind, unit = fight["pending"].pop(0)
    if kind == "retreat":
        fight["units"][unit]["out"] = "dead"
        _remove(state, unit)


def _run(state: MesopotamiaState) -> None:
    """Go on until a decision has two options or more, or the combat is over."""
    while "fight" in state and state["fight"]["stages"][0] != "bids":
        fight = state["fight"]
        if fight["pending"] or fight["stages"][0] != "fight":
            options = _options(state)
            if len(options) > 1:
                return
            if options:
                _do(state, options[0])
            else:
                _skip(state)
        else:
            _engage(state)


def _alive(fight: dict[str, Any], side: Side) -> list[int]:
    return [i for i, u in enumerate(fight["units"]) if u["side"] == side and u["out"] is None]


def _form_lines(fight: dict[str, Any]) -> None:
    """« Les Unités affronteront celles qui se trouvent sur leur ligne. »: one line per unit of
    the smaller side, the larger side's units dealt over the lines in turn (R-fight-lineup)."""
    queues = [_alive(fight, side) for side in fight["sides"]]
    n = max(1, min(len(q) for q in queues))
    fight["lines"] = [[q[j::n] for q in queues] for j in range(n)]
    fight["moved"] = []


def _move_in_lines(fight: dict[str, Any], unit: int, to: int) -> None:
    """``unit`` goes to the back of its side's queue on line ``to``, and stays there."""
    queue = next(q for line in fight["lines"] for q in line if unit in q)
    queue.remove(unit)
    side = fight["sides"].index(fight["units"][unit]["side"])
    fight["lines"][to][side].append(unit)
    fight["moved"].append(unit)


def _engage(state: MesopotamiaState) -> None:
    """The next clash; or, when every line has one side left, new lines (« le joueur qui avait
    gagné l'enchère Tactique réorganise les lignes »); or the end of the combat."""
    fight = state["fight"]
    if not all(_alive(fight, side) for side in fight["sides"]):
        _finish(state)
        return
    line = next((line for line in fight["lines"] if line[0] and line[1]), None)
    if line is None:
        _form_lines(fight)
        fight["stages"] = ["lines", "fight"]
        return
    _clash(state, line)


def total(unit: dict[str, Any], foe: dict[str, Any]) -> int:
    """« Additionnez le total de Force et de Tactique pour chaque Unité. » — Tactics only
    « si l'Unité a un avantage sur l'Unité ennemie »."""
    card = CARDS[unit["card"]]
    value = int(card["force"]) + int(unit["alloc"]["force"])
    if foe["kind"] in card["advantage_over"]:
        value += int(card["tactic"]) + int(unit["alloc"]["tactic"])
    return value


def mobility(unit: dict[str, Any]) -> int:
    """The unit's Mobility: printed (0) plus allocated (Q-mobility, reading a)."""
    return int(CARDS[unit["card"]]["mobility"]) + int(unit["alloc"]["mobility"])


def _beats(state: MesopotamiaState, value: int, other: int, side: Side, other_side: Side) -> bool:
    """True when ``value`` beats ``other``; a tie goes to the Event track (R-combat-tie)."""
    if value != other:
        return value > other
    return combat.tie_winner(state, side, other_side) == side


def _clash(state: MesopotamiaState, line: list[list[int]]) -> None:
    """One engagement at the front of ``line``: the beaten unit leaves the line, destroyed or
    routed (« Si le perdant a gagné la résolution, l'Unité fuit »); the winner is fatigued."""
    fight = state["fight"]
    units = fight["units"]
    one, two = line[0][0], line[1][0]
    v1, v2 = total(units[one], units[two]), total(units[two], units[one])
    won = one if _beats(state, v1, v2, units[one]["side"], units[two]["side"]) else two
    lost = two if won == one else one
    fight["clashes"].append([one, two, v1, v2, won])
    line[0 if lost == one else 1].pop(0)
    flees = units[lost]["side"] != TRIBE and _beats(
        state, mobility(units[lost]), mobility(units[won]), units[lost]["side"], units[won]["side"])
    units[lost]["out"] = "fled" if flees else "dead"
    if not flees:
        _remove(state, lost)
    fight["pending"] = [["retreat", lost]] if flees else []
    if _alive(fight, units[lost]["side"]):  # after the last clash, fatigue changes nothing
        fight["pending"].append(["fatigue", won])


def havens(state: MesopotamiaState, region: str, side: Side) -> list[str]:
    """Where a routed unit of ``side`` may retreat from ``region``: « une région adjacente » …
    « La région ne doit compter aucune Unité ennemie. » (nor a tribe), nor a region its units
    may not enter, nor an enemy Rampart (R-fight-retreat). A tribe never flees."""
    if side == TRIBE:
        return []
    seat = int(side)
    enemies = {at for s, kind, at in state["units"] if s != seat and kind in combat.UNIT_VALUE}
    enemies |= {r for r, figures in state["tribes"].items() if figures}
    enemies |= {r for s, p in enumerate(state["players"]) if s != seat for r in p["ramparts"]}
    return [r for r in D.REGIONS[region].neighbours
            if r not in enemies and not closed(state, seat, r)]


def _remove(state: MesopotamiaState, unit: int) -> None:
    fight = state["fight"]
    u = fight["units"][unit]
    remove_one(state, fight["region"], u["side"], u["kind"])


def _flee(state: MesopotamiaState, unit: int, to: str) -> None:
    """« vous battez en retraite, préservant les Unités vaincues »: the unit moves at once
    (Q-flee-line a); an event there stays hidden."""
    fight = state["fight"]
    u = fight["units"][unit]
    piece = next(p for p in state["units"]
                 if p[0] == u["side"] and p[1] == u["kind"] and p[2] == fight["region"])
    piece[2] = to
    u["to"] = to


def _finish(state: MesopotamiaState) -> None:
    """« jusqu'à ce que la région ne compte plus que des Unités d'un seul Empire »."""
    fight = state.pop("fight")
    a, b = fight["sides"]
    winner, loser = (a, b) if _alive(fight, a) else (b, a)
    state["fought"] = {"region": fight["region"], "winner": winner, "loser": loser,
                       "clashes": fight["clashes"]}
