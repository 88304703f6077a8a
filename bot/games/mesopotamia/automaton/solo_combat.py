"""« COMBAT EN SOLO »: a combat between a player and the Automaton, without bids.

« 1. Piochez 1 carte Combat au hasard face visible pour chacune de vos Unités. 2. Placez autant
de Phalanges que vous souhaitez dans les emplacements libres de vos cartes Combat. 3. Piochez
pour l'Automate. […] 4. Assignez des Unités au combat. […] 5. Réponse de l'Automate ». A
:class:`SoloCombat` holds both sides' units (a combat card each, ``combat.json``), the player's
placements (:meth:`SoloCombat.place`, before the first clash), and the clashes the player
orders (:meth:`SoloCombat.clash`, the Automaton answering each by :func:`response`, rules A-E);
:meth:`SoloCombat.winner` and :meth:`SoloCombat.losses` close it. Pure: the cards come from
:func:`draw_cards` (through :mod:`bot.chance`) or from a test.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.chance import Draw
from bot.games.mesopotamia.standard import CARDS, DECKS, ROWS

YOU, AUTOMATON = "you", "automaton"
FATIGUE_ORDER = ("mobility", "tactic", "force")
"""The row the Automaton's winning unit loses a phalanx from (R-solo-fatigue)."""


def draw_cards(rng: Draw, kinds: list[str]) -> list[str]:
    """One random combat card per unit of ``kinds``, in order, from its type's deck (shuffled
    whole; an emptied deck is shuffled again whole, R-solo-draw)."""
    decks: dict[str, list[str]] = {kind: [] for kind in DECKS}
    drawn = []
    for kind in kinds:
        if not decks[kind]:
            decks[kind] = list(DECKS[kind])
            rng.shuffle(decks[kind])
        drawn.append(decks[kind].pop(0))
    return drawn


@dataclass
class Unit:
    """A unit in the combat: its side, kind, combat card, allocated phalanxes, fate."""

    side: str
    kind: str
    card: str
    alloc: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROWS, 0))
    out: str | None = None      # None while it fights, "fled" or "dead"

    def value(self, row: str) -> int:
        """Printed plus allocated phalanxes on ``row``."""
        return int(CARDS[self.card][row]) + self.alloc[row]

    def free(self, row: str) -> int:
        """Empty slots left on ``row``."""
        return int(CARDS[self.card]["slots"][row]) - self.alloc[row]

    def beats_type(self, other: Unit) -> bool:
        """True when this card's Tactics row counts against ``other``."""
        return other.kind in CARDS[self.card]["advantage_over"]

    def total(self, other: Unit) -> int:
        """« Additionnez le total de Force et de Tactique » (Tactics only with the advantage)."""
        return self.value("force") + (self.value("tactic") if self.beats_type(other) else 0)


@dataclass(frozen=True)
class Response:
    """The Automaton's answer to one clash (rules A-E) and why (``rule``: a letter)."""

    force: int
    tactic: int
    mobility: int
    discard: int
    rule: str
    maximum: int


@dataclass(frozen=True)
class Clash:
    """One clash: the units, their totals, the winner, what became of the loser and the
    winner's fatigue (None when none applied)."""

    you: int
    its: int
    your_total: int
    its_total: int
    response: Response
    winner: str
    loser_fate: str
    fatigue: str | None


def response(you: Unit, its: Unit, phalanxes: int, automaton_leads: bool,
             line: list[Unit] | None = None, holds: bool = False) -> Response:
    """« Réponse de l'Automate » for ``its`` facing ``you`` with ``phalanxes`` in stock.

    A: enough to win (more than your total, or as much while it leads the Event track): the
    fewest phalanxes that win, in Tactics first only with a type advantage over every unit of
    the line (``line``: your units on it), else in Force first. B: the rest in Mobility only if
    it is enough to destroy your unit. C, D: cannot win: nothing in Force and Tactics; the fewest
    phalanxes (at least 1) that flee. E: cannot flee: no Mobility, 1 phalanx discarded, the unit
    destroyed (R-solo-response, R-solo-mobility). ``holds``: the Guardians' enemy, which « n'utilise
    jamais sa Mobilité pour fuir »: when it cannot win it spends nothing (R-guard-combat)."""
    foes = line or [you]
    need = you.total(its) + (0 if automaton_leads else 1) - its.total(you)
    rows = ["force"] + (["tactic"] if its.beats_type(you) else [])
    if its.beats_type(you) and all(its.beats_type(f) for f in foes):
        rows = ["tactic", "force"]
    room = sum(its.free(r) for r in rows)
    maximum = its.total(you) + min(phalanxes, room)
    if need <= min(phalanxes, room):
        spend = {"force": 0, "tactic": 0}
        left = max(need, 0)
        for row in rows:
            put = min(left, its.free(row))
            spend[row], left = put, left - put
        rest = phalanxes - sum(spend.values())
        chase = you.value("mobility") + 1 - its.value("mobility")
        mobility = chase if you.value("mobility") > 0 and 0 < chase <= min(
            rest, its.free("mobility")) else 0
        return Response(spend["force"], spend["tactic"], mobility, 0,
                        "B" if mobility else "A", maximum)
    if holds:
        return Response(0, 0, 0, 0, "E", maximum)
    flee = max(1, you.value("mobility") - its.value("mobility"))
    if flee <= min(phalanxes, its.free("mobility")):
        return Response(0, 0, flee, 0, "D", maximum)
    return Response(0, 0, 0, min(1, phalanxes), "E", maximum)


@dataclass
class SoloCombat:
    """A solo combat under way: ``units`` (yours and the Automaton's), each side's phalanx
    stock, whether you lead the Event track, the clashes so far."""

    units: list[Unit]
    phalanxes: dict[str, int]
    you_lead: bool
    clashes: list[Clash] = field(default_factory=list)
    placed: int = 0
    tiring: int | None = None
    """Your winning unit whose fatigue row you are to choose (:meth:`tire`), or None."""
    holds: bool = False
    """The other side never flees: its beaten units are destroyed (the Guardians' enemy,
    R-guard-combat)."""

    def place(self, unit: int, row: str, count: int = 1) -> None:
        """« Placez autant de Phalanges que vous souhaitez dans les emplacements libres de vos
        cartes Combat. » (your units only, before the first clash)."""
        target = self.units[unit]
        if target.side != YOU or self.clashes:
            raise ValueError("you place phalanxes on your cards before the first clash")
        if count > min(target.free(row), self.phalanxes[YOU] - self.placed):
            raise ValueError("no free slot or no phalanx left")
        target.alloc[row] += count
        self.placed += count

    def fighting(self, side: str) -> list[int]:
        """The units of ``side`` still in the combat."""
        return [i for i, u in enumerate(self.units) if u.side == side and u.out is None]

    def clash(self, you: int, its: int, fatigue: str | None = None) -> Clash:
        """Your unit ``you`` against the Automaton's ``its``, as you order (« Vous décidez
        quelles Unités combattent, et dans quel ordre. »); ``fatigue``: the row your winning
        unit loses a phalanx from (R-fight-fatigue); without it, when your unit wins holding
        phalanxes on several rows, the row is yours to choose next (:meth:`tire`)."""
        mine, theirs = self.units[you], self.units[its]
        if mine.side != YOU or theirs.side != AUTOMATON or mine.out or theirs.out or \
                self.tiring is not None:
            raise ValueError("a clash is one of your units against one of the Automaton's")
        answer = response(mine, theirs, self.phalanxes[AUTOMATON], not self.you_lead,
                          holds=self.holds)
        theirs.alloc["force"] += answer.force
        theirs.alloc["tactic"] += answer.tactic
        theirs.alloc["mobility"] += answer.mobility
        self.phalanxes[AUTOMATON] -= answer.force + answer.tactic + answer.mobility + \
            answer.discard
        ours, its_total = mine.total(theirs), theirs.total(mine)
        you_win = ours > its_total or (ours == its_total and self.you_lead)
        winner, loser = (mine, theirs) if you_win else (theirs, mine)
        if answer.rule == "E" or (self.holds and loser is theirs):
            fate = "dead"
        else:
            flees = loser.value("mobility") >= max(1, winner.value("mobility"))
            fate = "fled" if flees else "dead"
        loser.out = fate
        tired = None
        held = [r for r in ROWS if winner.alloc[r] > 0]
        if self.fighting(loser.side):       # no fatigue after the combat's last clash
            if winner is mine and fatigue is None and len(held) > 1:
                self.tiring = you
            else:
                tired = self._fatigue(winner, fatigue)
        record = Clash(you, its, ours, its_total, answer, winner.side, fate, tired)
        self.clashes.append(record)
        return record

    def tire(self, row: str) -> None:
        """Your winning unit's fatigue, from ``row``, when :meth:`clash` left it to you."""
        if self.tiring is None or self.units[self.tiring].alloc[row] <= 0:
            raise ValueError("fatigue takes a phalanx placed on your winning unit")
        self.units[self.tiring].alloc[row] -= 1
        self.clashes[-1] = replace(self.clashes[-1], fatigue=row)
        self.tiring = None

    def _fatigue(self, unit: Unit, row: str | None) -> str | None:
        """« Le joueur qui la contrôle doit retirer l'une des Phalanges qu'il lui avait
        attribuées. » Yours from ``row`` (else the first row holding one), the Automaton's in
        :data:`FATIGUE_ORDER` (R-solo-fatigue)."""
        held = [r for r in (FATIGUE_ORDER if unit.side == AUTOMATON else ROWS)
                if unit.alloc[r] > 0]
        if not held:
            return None
        chosen = row if row in held else held[0]
        unit.alloc[chosen] -= 1
        return chosen

    def winner(self) -> str | None:
        """The side that won (the other has no unit left in the combat), or None."""
        if not self.fighting(AUTOMATON):
            return YOU
        if not self.fighting(YOU):
            return AUTOMATON
        return None

    def losses(self) -> dict[str, int]:
        """« Vous perdez toutes les Phalanges allouées en combat. »: every phalanx you placed
        (fatigue included); the Automaton's were spent as it allocated them (R-solo-losses)."""
        return {YOU: self.placed, AUTOMATON: 0}

    def settle(self) -> dict[str, int]:
        """Both stocks after the combat."""
        return {YOU: self.phalanxes[YOU] - self.placed, AUTOMATON: self.phalanxes[AUTOMATON]}
