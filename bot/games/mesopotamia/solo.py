"""« COMBAT EN SOLO » in the combat phase: a combat between a seat and the Automaton, as steps.

« Le combat est différent en mode solo. Il n'y a pas d'enchères » (R-solo-combat): when the two
sides of a combat are a seat and an Automaton, :func:`open_combat` draws every unit's combat
card (« 1. Piochez 1 carte Combat au hasard face visible pour chacune de vos Unités. » … « 3.
Piochez pour l'Automate […] face cachée »: from the same decks, the Automaton's face down,
R-solo-draw), then the seat's steps, one phalanx, one clash or one choice each (units numbered
from 1, the seat's first, then the Automaton's):

- ``place <unit> <row>``: « 2. Placez autant de Phalanges que vous souhaitez dans les
  emplacements libres de vos cartes Combat. » (one phalanx from the seat's stock);
- ``reveal``: placing is over, the Automaton's cards are turned face up;
- ``clash <unit> <unit>``: « 4. Assignez des Unités au combat. Vous décidez quelles Unités
  combattent, et dans quel ordre. » — the Automaton answers at once (« 5. Réponse de
  l'Automate », :func:`~.automaton.solo_combat.response`), the beaten unit is destroyed or
  flees (to the first region it may retreat to, R-solo-retreat);
- ``fatigue <row>``: the row the seat's winning unit loses a placed phalanx from, when it holds
  some on several rows (R-solo-fatigue).

A step with a single option is taken at once (but ``reveal`` once the seat has placed a
phalanx: it may still take it back). ``state["solo"]`` holds ``region``, ``you`` (the seat),
``it`` (the Automaton's seat), ``shown`` (its cards face up) and the
:class:`~.automaton.solo_combat.SoloCombat` (``units``, ``phalanxes``, ``you_lead``,
``clashes``, ``placed``, ``tiring``); ``state["clashed"]`` the clashes of the last step and
``state["solo_over"]`` the combats it ended, for its report. Phalanxes leave the stocks as
they are placed (R-solo-losses).
"""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

from bot.chance import Draw
from bot.engine import Seat, Secret, Text, seat_ref
from bot.games.kit import known
from bot.games.mesopotamia import combat, modes, standard
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.automaton.solo_combat import (
    AUTOMATON,
    YOU,
    Clash,
    Response,
    SoloCombat,
    Unit,
    draw_cards,
)
from bot.games.mesopotamia.combat import TRIBE, Side
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import MesopotamiaState
from bot.games.mesopotamia.words import amount, both, chain, in_region, t

VERBS = frozenset({"place", "reveal", "clash", "fatigue"})
ROWS = standard.ROWS


def applies(state: MesopotamiaState, pair: tuple[Side, Side]) -> bool:
    """True when ``pair`` is a seat against an Automaton or a mode's enemy (R-solo-combat; the
    Siege: « en suivant les règles de combat en solo »; the Guardians: « Le combat fonctionne
    comme pour l'Automate en mode solo »)."""
    seats = [int(s) for s in pair if s != TRIBE]
    return len(seats) == 2 and sum(modes.scripted(state, s) for s in seats) == 1


def open_combat(state: MesopotamiaState, region: str, pair: tuple[Side, Side]) -> None:
    """Draw the cards of both sides in ``region`` (the seat's first, from the same decks), the
    Automaton's face down, and begin the placements."""
    you, it = sorted((int(s) for s in pair), key=lambda s: modes.scripted(state, s))
    kinds = combat.fighters(state, region)
    cards = iter(draw_cards(Draw(state), [*kinds[you], *kinds[it]]))
    units = [Unit(side, kind, next(cards))
             for side, seat in ((YOU, you), (AUTOMATON, it)) for kind in kinds[seat]]
    stocks = {side: int(state["players"][seat]["res"]["phalanx"])
              for side, seat in ((YOU, you), (AUTOMATON, it))}
    fight = SoloCombat(units, stocks, combat.tie_winner(state, you, it) == you,
                       holds=guardians.plays(state, it))
    state["solo"] = {"region": region, "you": you, "it": it, "shown": False, **asdict(fight)}
    _run(state)


def load(solo: dict[str, Any]) -> SoloCombat:
    """The :class:`SoloCombat` that ``solo`` (the state's record or a view's) holds."""
    clashes = [Clash(**{**c, "response": Response(**c["response"])}) for c in solo["clashes"]]
    return SoloCombat([Unit(**u) for u in solo["units"]], dict(solo["phalanxes"]),
                      bool(solo["you_lead"]), clashes, int(solo["placed"]), solo["tiring"],
                      bool(solo.get("holds", False)))


def _save(state: MesopotamiaState, fight: SoloCombat) -> None:
    solo = state["solo"]
    solo.update(asdict(fight))
    state["players"][solo["you"]]["res"]["phalanx"] = fight.phalanxes[YOU] - fight.placed
    state["players"][solo["it"]]["res"]["phalanx"] = fight.phalanxes[AUTOMATON]


def active(state: MesopotamiaState) -> list[Seat]:
    """The seat of the combat under way (the Automaton decides nothing: the engine answers)."""
    solo = state.get("solo")
    return [] if solo is None else [int(solo["you"])]


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """The steps open to ``seat`` in the combat under way."""
    solo = state.get("solo")
    if solo is None or seat != solo["you"]:
        return []
    fight = load(solo)
    if fight.tiring is not None:
        return [f"fatigue {r}" for r in ROWS if fight.units[fight.tiring].alloc[r] > 0]
    if not solo["shown"]:
        left = fight.phalanxes[YOU] - fight.placed > 0
        return [*(f"place {i + 1} {row}" for i in fight.fighting(YOU) for row in ROWS
                  if left and fight.units[i].free(row) > 0), "reveal"]
    return [f"clash {i + 1} {j + 1}" for i in fight.fighting(YOU)
            for j in fight.fighting(AUTOMATON)]


def apply(state: MesopotamiaState, notation: str) -> None:
    """Take the seat's legal step ``notation``, then every step that has a single option."""
    _do(state, notation)
    _run(state)


def _do(state: MesopotamiaState, notation: str) -> None:
    solo = state["solo"]
    fight = load(solo)
    verb, *args = notation.split()
    if verb == "place":
        fight.place(int(args[0]) - 1, args[1])
    elif verb == "reveal":
        solo["shown"] = True
    elif verb == "fatigue":
        fight.tire(args[0])
    else:
        record = fight.clash(int(args[0]) - 1, int(args[1]) - 1)
        _on_map(state, fight, record)
        state.setdefault("clashed", []).append(
            {**asdict(record), "seat": solo["you"], "holds": fight.holds,
             "your_kind": fight.units[record.you].kind,
             "its_kind": fight.units[record.its].kind})
    _save(state, fight)


def _on_map(state: MesopotamiaState, fight: SoloCombat, record: Clash) -> None:
    """The beaten unit leaves the region: destroyed, or to the first region it may retreat to
    (R-solo-retreat; none: destroyed)."""
    solo = state["solo"]
    beaten = fight.units[record.its if record.winner == YOU else record.you]
    seat = solo["you"] if beaten.side == YOU else solo["it"]
    region = solo["region"]
    havens = standard.havens(state, region, seat) if beaten.out == "fled" else []
    if not havens:
        combat.remove_one(state, region, seat, beaten.kind)
        return
    piece = next(p for p in state["units"] if p == [seat, beaten.kind, region])
    piece[2] = havens[0]


def _run(state: MesopotamiaState) -> None:
    """Take the steps that have a single option (not ``reveal`` after a placement)."""
    while True:
        solo = state["solo"]
        if load(solo).winner() is not None:
            return
        options = legal(state, solo["you"])
        if len(options) > 1 or (options == ["reveal"] and solo["placed"]):
            return
        _do(state, options[0])


def result(state: MesopotamiaState) -> tuple[Seat, Seat] | None:
    """Once the combat is over: its winner's and its loser's seats (the record moves to
    ``state["solo_over"]``, for the step's report)."""
    solo = state.get("solo")
    side = None if solo is None else load(solo).winner()
    if solo is None or side is None:
        return None
    state.setdefault("solo_over", []).append(state.pop("solo"))
    you, it = int(solo["you"]), int(solo["it"])
    return (you, it) if side == YOU else (it, you)


# -- what the seats see ------------------------------------------------------------------------


def view(solo: dict[str, Any]) -> dict[str, Any]:
    """The combat as everyone sees it: the Automaton's cards face down until revealed."""
    hidden = not solo["shown"]
    return {**solo, "units": [{**u, "card": None if hidden and u["side"] == AUTOMATON
                               else u["card"]} for u in solo["units"]]}


def guess(shown: dict[str, Any], draw: random.Random) -> dict[str, Any]:
    """A combat consistent with a view: face-down cards dealt from the cards of their decks
    not seen."""
    seen = {u["card"] for u in shown["units"]}
    units = []
    for u in shown["units"]:
        card = u["card"]
        if card is None:
            card = draw.choice([c for c in standard.DECKS[u["kind"]] if c not in seen]
                               or standard.DECKS[u["kind"]])
            seen.add(card)
        units.append({**u, "card": card})
    return {**shown, "units": units}


def secrets(state: MesopotamiaState) -> list[Secret]:
    """The Automaton's face-down cards (nobody reads them before ``reveal``)."""
    solo = state.get("solo")
    if solo is None or solo["shown"]:
        return []
    return [Secret(u["card"]) for u in solo["units"] if u["side"] == AUTOMATON]


# -- words ---------------------------------------------------------------------------------------


def _as(record: dict[str, Any], key: str) -> str:
    """``key``, or its words for the Guardians' enemy (``<key>_enemy``) when ``record`` (a
    combat or a clash) is one against it (R-guard-combat)."""
    return f"{key}_enemy" if record.get("holds") else key


def _unit(solo: dict[str, Any], n: int, public: bool = False) -> Text:
    """Unit ``n`` (from 1) of the combat: "your Archer (1)" or "its Spearman (4)" (``public``:
    "Alice's Archer (1)", "the Automaton's Spearman (4)")."""
    unit = solo["units"][n - 1]
    mine = unit["side"] == YOU
    if public:
        key = "solo.whose" if mine else _as(solo, "solo.automatons")
    else:
        key = "solo.yours" if mine else "solo.its"
    return t(key, unit=D.name("unit", unit["kind"]), n=n, who=seat_ref(solo["you"]))


def label(state: MesopotamiaState, notation: str) -> Text:
    """How a step of the combat under way reads in the seat's panel."""
    solo = state["solo"]
    verb, *args = notation.split()
    if verb == "place":
        return t("act.solo_place", unit=_unit(solo, int(args[0])),
                 row=t(f"fight.row.{args[1]}"))
    if verb == "clash":
        a, b = int(args[0]), int(args[1])
        return t("act.clash", yours=D.name("unit", solo["units"][a - 1]["kind"]), a=a,
                 its=D.name("unit", solo["units"][b - 1]["kind"]), b=b)
    if verb == "fatigue":
        return standard.label(notation)
    return t("act.reveal")


def prompt(state: MesopotamiaState) -> Text:
    """What the combat asks now, with every card on the table."""
    solo = state["solo"]
    fight = load(solo)
    where = in_region(solo["region"])
    cards = both(cards_of(solo))
    if fight.tiring is not None:
        return t(_as(solo, "solo.prompt.fatigue"), where=where, unit=_unit(solo, fight.tiring + 1),
                 cards=cards)
    if not solo["shown"]:
        return t(_as(solo, "solo.prompt.place"), where=where, cards=cards,
                 n=fight.phalanxes[YOU] - fight.placed)
    return t(_as(solo, "solo.prompt.clash"), where=where, cards=cards)


def cards_of(solo: dict[str, Any], public: bool = False) -> list[Text]:
    """Every unit's card in the combat (``solo``: the state's or a view's), as
    :func:`_card` reads it."""
    return [_card(solo, i + 1, public) for i in range(len(solo["units"]))]


def _card(solo: dict[str, Any], n: int, public: bool = False) -> Text:
    """Unit ``n``'s card: its values, free slots and fate (face down: only its kind)."""
    u = solo["units"][n - 1]
    unit = Unit(**u)
    if u["card"] is None or (u["side"] == AUTOMATON and not solo["shown"]):
        return t("solo.card_hidden", unit=_unit(solo, n, public))
    fate = t(f"solo.out.{unit.out}") if unit.out else t("solo.out.in")
    advantage = both([D.name("unit", k)
                      for k in standard.CARDS[unit.card]["advantage_over"]])
    return t("solo.card", unit=_unit(solo, n, public), force=unit.value("force"),
             tactic=unit.value("tactic"), mobility=unit.value("mobility"),
             free=sum(unit.free(r) for r in ROWS), over=advantage, fate=fate)


def did(before: MesopotamiaState, notation: str) -> Text:
    """What the seat's step did, read after its player's name (the clash's outcome is told
    by :func:`told`)."""
    solo = before["solo"]
    verb, *args = notation.split()
    kind = [D.name("unit", u["kind"]) for u in solo["units"]]
    if verb == "place":
        return t("did.solo_place", unit=kind[int(args[0]) - 1], n=int(args[0]),
                 row=t(f"fight.row.{args[1]}"))
    if verb == "fatigue":
        n = int(solo["tiring"])
        return t("did.fatigue", unit=kind[n], n=n + 1, row=t(f"fight.row.{args[0]}"))
    if verb == "clash":
        return t(_as(solo, "did.clash"), yours=kind[int(args[0]) - 1], its=kind[int(args[1]) - 1])
    return t("did.reveal")


def told(before: MesopotamiaState, after: MesopotamiaState, own: bool) -> list[Text]:
    """What followed by itself: a combat against the Automaton begun (its cards drawn), its
    cards revealed, the clashes and the Automaton's answers (``own``: as the seat's player
    reads them); also of a combat that began or was revealed and ended within the step."""
    found: list[Text] = []
    was = before.get("solo")
    now = after.get("solo")
    for fight in [*after.get("solo_over", []), *([now] if now is not None else [])]:
        opened = was is None or was["region"] != fight["region"]
        if opened:
            found.append(t(_as(fight, "report.solo_open"), who=seat_ref(fight["you"]),
                           where=in_region(fight["region"])))
        if fight["shown"] and (opened or not known(was)["shown"]):
            its = [_card(fight, i + 1, True) for i, u in enumerate(fight["units"])
                   if u["side"] == AUTOMATON]
            found.append(t(_as(fight, "report.solo_reveal"), cards=both(its)))
        was = fight
    return found + [clash_text(c, own) for c in after.get("clashed", [])]


def clash_text(record: dict[str, Any], own: bool) -> Text:
    """One clash: the Automaton's answer, the winner and what became of the beaten unit, the
    fatigue (public in the third person; ``own`` to the seat's player)."""
    answer = record["response"]
    placed = [t("solo.in", phalanxes=amount("phalanx", answer[row]), row=t(f"fight.row.{row}"))
              for row in ROWS if answer[row]]
    if answer["rule"] in "AB":
        said = t(_as(record, "solo.answer.win"), phalanxes=both(placed)) if placed else \
            t(_as(record, "solo.answer.strong"))
    elif answer["rule"] == "D":
        said = t("solo.answer.flee", phalanxes=both(placed))
    else:
        said = t(_as(record, "solo.answer.none"), phalanxes=amount("phalanx", answer["discard"]))
    person = "own" if own else "public"
    key = "won" if record["winner"] == YOU else "lost"
    outcome = t(_as(record, f"solo.clash.{person}.{key}") if person == "public"
                else f"solo.clash.{person}.{key}", who=seat_ref(record["seat"]),
                yours=D.name("unit", record["your_kind"]),
                its=D.name("unit", record["its_kind"]),
                a=record["your_total"], b=record["its_total"],
                fate=t(f"solo.fate.{record['loser_fate']}"))
    tired = [t("solo.tired", row=t(f"fight.row.{record['fatigue']}"))] \
        if record["fatigue"] else []
    return chain([said, outcome, *tired])
