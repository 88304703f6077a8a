"""« COMBAT EN SOLO » played through the engine (``solo.py``): a seat against the Automaton
fights without bids, its steps ``place``, ``reveal``, ``clash`` and ``fatigue``, the
Automaton's answers applied by the engine and told to the channel; the rulebook's worked
example (seed 004, p. 49) step by step with every number it gives, refusals that say why, the
Automaton's cards a secret until revealed, and random games against the Automaton that reach
such combats."""

from __future__ import annotations

import json
import random

import pytest

from bot import chance
from bot.engine import IllegalMove, State, Text
from bot.games.kit import clone
from bot.games.mesopotamia import battles, standard
from bot.games.mesopotamia.automaton import deck
from bot.games.mesopotamia.automaton import play as auto
from bot.games.mesopotamia.automaton.solo_combat import AUTOMATON, YOU
from bot.games.mesopotamia.combat import UNIT_VALUE
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import PHASES
from bot.i18n import translate
from render.context import RenderContext
from render.mesopotamia import RENDERER
from tests.contract import NAMES
from tests.test_mesopotamia_actions import check
from tests.test_mesopotamia_automaton_playout import invariant_view
from tests.test_mesopotamia_end import bare, free_regions

EXAMPLE = ("archer_01", "spearman_03", "archer_03", "spearman_02")
"""The example's cards, in unit order: yours, then the Automaton's (R-solo-example)."""


def against_automaton(yours: list[str], its: list[str], phalanxes: tuple[int, int],
                      you_lead: bool = True, seed: int | None = None) -> tuple[State, str]:
    """A two-seat game in the combat phase: seat 0 with ``yours`` against the Automaton (seat
    1) with ``its`` in a free region, the phalanx stocks ``phalanxes``; the combat opened (its
    cards drawn with the chance of ``seed``, when given)."""
    state = bare(2)
    if seed is not None:
        state[chance.KEY] = chance.start(seed)
    deck.enlist(state, 1, "igigi")
    region = next(r for r in free_regions(state, 40) if r not in state["sites"]
                  and min(len(standard.havens(state, r, s)) for s in (0, 1)) > 1)
    state["units"] = [[0, k, region] for k in yours] + [[1, k, region] for k in its]
    for seat, n in enumerate(phalanxes):
        state["players"][seat]["res"]["phalanx"] = n
    order = sorted(state["seals"]["event"], key=lambda s: s[0] != (0 if you_lead else 1))
    state["seals"]["event"] = order
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    return state, region


def with_cards(state: State, cards: tuple[str, ...]) -> State:
    """The combat's units given ``cards`` (as the draw might have dealt them)."""
    for unit, card in zip(state["solo"]["units"], cards, strict=True):
        unit["card"] = card
    return state


def play(state: State, *steps: str) -> State:
    """Each step applied by the engine for seat 0 (the only one deciding)."""
    for step in steps:
        assert GAME.active(state) == [0], (step, GAME.active(state))
        state = GAME.apply(state, 0, step)
    return state


def legal(state: State) -> list[str]:
    return [a.notation for a in GAME.legal(state, 0)]


def text(value: Text, lang: str = "en") -> str:
    return translate(value, lang, NAMES)


def example() -> tuple[State, str]:
    """« Vous contrôlez 1 Archer et 1 Lancier, et disposez de 7 Phalanges. Vous devancez
    l'Automate sur la piste Événement. L'Automate contrôle 1 Archer et 1 Lancier, et dispose de
    4 Phalanges. »"""
    state, region = against_automaton(["archer", "spearman"], ["archer", "spearman"], (7, 4))
    return with_cards(state, EXAMPLE), region


def test_a_combat_against_the_automaton_has_no_bids() -> None:
    """« Le combat est différent en mode solo. Il n'y a pas d'enchères » (R-solo-combat): the
    seat places phalanxes on its own cards, drawn face up; the Automaton decides nothing."""
    state, _ = example()
    assert state["battle"]["stage"] == "solo" and "bids" not in state and "fight" not in state
    assert GAME.active(state) == [0] and GAME.legal(state, 1) == []
    steps = legal(state)
    assert "reveal" in steps and "place 1 force" in steps and "place 3 force" not in steps
    assert [u["side"] for u in state["solo"]["units"]] == [YOU, YOU, AUTOMATON, AUTOMATON]


def test_the_automatons_cards_are_secret_until_revealed() -> None:
    """« Piochez 1 carte Combat au hasard face cachée pour chacune de ses Unités, puis
    retournez-les. »: no view shows them before ``reveal``; a secret until then, and the reveal
    cannot be undone."""
    state, _ = example()
    secrets = [s.value for s in GAME.secrets(state)]
    assert "archer_03" in secrets and "spearman_02" in secrets and "archer_01" not in secrets
    for seat in (None, 0, 1):
        seen = GAME.view(state, seat)["solo"]["units"]
        assert [u["card"] for u in seen] == ["archer_01", "spearman_03", None, None]
    reveal = next(a for a in GAME.legal(state, 0) if a.notation == "reveal")
    assert not GAME.is_reversible(state, 0, reveal)
    place = next(a for a in GAME.legal(state, 0) if a.notation == "place 1 force")
    assert GAME.is_reversible(state, 0, place)
    after = GAME.apply(state, 0, reveal)
    assert [u["card"] for u in GAME.view(after, None)["solo"]["units"]] == list(EXAMPLE)
    assert not [s for s in GAME.secrets(after) if s.value in EXAMPLE]
    told = text(GAME.report(state, 0, reveal, after).public)
    assert "the Automaton turns its cards face up" in told and "Archer (3)" in told


def test_the_worked_example_through_the_engine() -> None:
    """The example's three clashes, step by step, every number the book gives."""
    state, region = example()
    # « L'Archer a 3 en Force, 2 en Tactique et 1 en Mobilité. » « Le Lancier a 4 en Force et
    # 1 en Tactique. »
    state = play(state, "place 1 force", "place 1 tactic", "place 1 tactic",
                 "place 1 mobility", "place 2 force", "place 2 force", "reveal")
    solo = state["solo"]
    assert solo["placed"] == 6 and state["players"][0]["res"]["phalanx"] == 1
    assert solo["units"][0]["alloc"] == {"force": 1, "tactic": 2, "mobility": 1}
    # « Vous placez votre Archer face au Lancier de l'Automate pour commencer. »
    assert "clash 1 4" in legal(state)
    before, state = state, play(state, "clash 1 4")
    (one,) = state["clashed"]
    # « Votre Archer : Valeur de combat totale = 3 Force + 2 Tactique = 5 » « Lancier Automate :
    # Valeur de combat théorique maximum = 4 »
    assert one["your_total"] == 5 and one["response"]["maximum"] == 4
    # « il alloue 1 Phalange en Mobilité puisqu'il peut tout de même fuir. »
    answer = one["response"]
    assert (answer["force"], answer["tactic"], answer["mobility"]) == (0, 0, 1)
    # « Le Lancier parvient à s'échapper » — it leaves the region
    assert one["winner"] == YOU and one["loser_fate"] == "fled"
    assert [1, "spearman", region] not in state["units"]
    assert any(u[:2] == [1, "spearman"] for u in state["units"])
    assert state["players"][1]["res"]["phalanx"] == 3
    public = text(GAME.report(before, 0, GAME.parse(before, 0, "clash 1 4"), state).public)
    assert "the Automaton cannot win and places 1 Phalanx in Mobility to flee" in public
    assert "Archer beats the Automaton's Spearman 5 to 0: the Spearman flees" in public
    own = text(GAME.report(before, 0, GAME.parse(before, 0, "clash 1 4"), state).for_seat(0))
    assert "your Archer beats its Spearman 5 to 0: its Spearman flees" in own
    # « et vous défaussez la Phalange allouée en Tactique. »: yours to choose
    assert legal(state) == ["fatigue force", "fatigue tactic", "fatigue mobility"]
    state = play(state, "fatigue tactic")
    assert state["solo"]["units"][0]["alloc"]["tactic"] == 1

    # the third clash, the only one left, is fought at once (a single option)
    final = play(state, "clash 1 3")
    two, three = final["clashed"]
    # « Votre Archer : Valeur de combat totale = 3 Force » « L'Automate alloue 2 Phalanges en
    # Force pour tenter de gagner. »
    assert two["your_total"] == 3 and two["response"]["force"] == 2
    assert two["its_total"] == 4 and two["winner"] == AUTOMATON
    # « Il reste 1 Phalange à l'Automate, ce qui ne lui permet pas de gagner la Phase Mobilité
    # (il lui en faudrait 2), et votre Archer peut donc battre en retraite. »
    assert two["response"]["mobility"] == 0 and two["loser_fate"] == "fled"
    assert any(u[:2] == [0, "archer"] and u[2] != region for u in final["units"])
    # « L'Archer de l'Automate perd 1 Phalange allouée en Force, car il est fatigué. »
    assert two["fatigue"] == "force"
    # « Votre Lancier : Valeur de combat totale = 4 Force » « Archer Automate : Valeur de combat
    # totale = 3 Force » … « À la place, il l'alloue en Mobilité pour battre en retraite. »
    assert (three["you"], three["its"]) == (1, 2)
    assert three["your_total"] == 4 and three["its_total"] == 3
    assert three["response"]["maximum"] == 4 and three["response"]["mobility"] == 1
    assert three["winner"] == YOU and three["loser_fate"] == "fled"
    # « Vous gagnez le combat et prenez le contrôle de la région. Vous défaussez les 6
    # Phalanges utilisées. »
    assert "solo" not in final
    assert [u for u in final["units"] if u[2] == region] == [[0, "spearman", region]]
    assert final["players"][0]["res"]["phalanx"] == 1
    assert final["players"][1]["res"]["phalanx"] == 0


def test_refusals_say_why() -> None:
    """A phalanx on a full slot, on the Automaton's card, with none left; a clash with a unit
    already out: each refused with its reason."""
    state, _ = against_automaton(["archer"], ["archer", "spearman", "spearman"], (2, 0))
    state = with_cards(state, ("archer_06", "archer_01", "spearman_01", "spearman_04"))
    state = play(state, "place 1 force")
    with pytest.raises(IllegalMove) as full:
        GAME.apply(state, 0, "place 1 force")       # archer_06 has one Force slot
    assert "the Force row of your Archer (1) has no free slot left" in text(full.value.reason)
    with pytest.raises(IllegalMove) as theirs:
        GAME.apply(state, 0, "place 2 force")
    assert "2 is not the number of one of your units" in text(theirs.value.reason)
    state = play(state, "place 1 tactic")
    with pytest.raises(IllegalMove) as empty:
        GAME.apply(state, 0, "place 1 mobility")
    assert "placing Phalanxes on your cards for the combat" in text(empty.value.reason)
    assert "(0 left)" in text(empty.value.reason)
    assert "(0 restantes)" in text(empty.value.reason, "fr")
    state = play(state, "reveal")
    with pytest.raises(IllegalMove) as late:
        GAME.apply(state, 0, "place 1 mobility")
    assert "the Automaton's cards are revealed" in text(late.value.reason)
    state = play(state, "clash 1 3")            # its Spearman cannot win: it flees or falls
    assert state["solo"]["units"][2]["out"] is not None
    with pytest.raises(IllegalMove) as tired:
        GAME.apply(state, 0, "clash 1 2")
    assert "your winning unit 1 (Archer) first loses a Phalanx for fatigue" in \
        text(tired.value.reason)
    state = play(state, "fatigue force")
    with pytest.raises(IllegalMove) as out:
        GAME.apply(state, 0, "clash 1 3")
    assert "unit 3 (Spearman) is out of the combat" in text(out.value.reason)


def test_labels_and_prompt_read_well() -> None:
    """The panel lists clashes as « Your Archer (1) against its Spearman (4) » and the prompt
    shows every card face up (the Automaton's face down before the reveal)."""
    state, _ = example()
    prompt = GAME.prompt(state, 0)
    assert prompt is not None
    asked = text(prompt.text)
    assert "without bids" in asked and "its Archer (3): card face down" in asked
    assert "your Archer (1): Force 2, Tactics 0 against Spearman" in asked
    labels = {a.notation: text(a.label) for a in GAME.legal(state, 0)}
    assert labels["place 2 force"] == "1 Phalanx on Force of your Spearman (2)"
    state = play(state, "reveal")
    labels = {a.notation: text(a.label) for a in GAME.legal(state, 0)}
    assert labels["clash 1 4"] == "Your Archer (1) against its Spearman (4)"
    assert text(GAME.legal(state, 0)[0].label, "fr").startswith("Votre Archer (1) contre son")


def test_the_board_shows_the_combat_cards() -> None:
    """The board (its text and the region's caption) shows every card of the combat under way,
    the Automaton's face down until revealed."""
    state, _ = example()
    ctx = RenderContext(NAMES, "en")
    for reader in (None, 0, 1):
        assert RENDERER.png(GAME.view(state, reader), ctx)
    board = RENDERER.text(GAME.view(state, None), ctx)
    assert "Combat against the Automaton" in board
    assert f"{NAMES[0]}'s Archer (1): Force 2, Tactics 0 against Spearman" in board
    assert "the Automaton's Archer (3): card face down" in board
    revealed = RENDERER.text(GAME.view(play(state, "reveal"), None), ctx)
    assert "the Automaton's Spearman (4): Force 0" in revealed
    assert "l'Automate" in RENDERER.text(GAME.view(state, 1), RenderContext(NAMES, "fr"))


def test_a_tribe_or_two_seats_still_bid() -> None:
    """The solo combat is the seat's against the Automaton only: two players (R-auto-bids
    still for the Automaton against a tribe) seal bids as before."""
    for automaton in (False, True):
        state = bare(2)
        region = next(r for r in free_regions(state, 40) if r not in state["sites"])
        tribal = next(r for r, tribe in state["tribes"].items() if tribe)
        state["units"] = [[1, "archer", tribal] if automaton else [0, "archer", region],
                          [1, "archer", region if not automaton else tribal]]
        if automaton:
            deck.enlist(state, 1, "igigi")
        for player in state["players"]:
            player["res"]["phalanx"] = 2
        state.update(phase="combat", current=None, t=None, log=[])
        battles.resume(state)
        assert state["battle"]["stage"] == "bids" and "solo" not in state


def test_no_phalanx_plays_the_combat_by_itself_when_one_clash_is_possible() -> None:
    """A decision with a single option is taken at once: without phalanxes and with one unit
    each, the combat is fought as it opens, and the channel is told."""
    state, region = against_automaton(["cavalry"], ["spearman"], (0, 0))
    assert "solo" not in state and "battle" not in state      # the round is over
    (resolved,) = state["resolved"]
    assert resolved["bids"] is None and resolved["region"] == region


def check_solo(state: State) -> None:
    """While a combat against the Automaton runs: only its seat decides, every unit still in
    it stands in the region, no view shows the Automaton's face-down cards, the stocks are
    what was placed and spent."""
    solo = state["solo"]
    assert GAME.active(state) == [solo["you"]] and not deck.plays(state, solo["you"])
    assert deck.plays(state, solo["it"])
    for side, seat in ((YOU, solo["you"]), (AUTOMATON, solo["it"])):
        fighting = sorted(u["kind"] for u in solo["units"] if u["side"] == side and not u["out"])
        there = sorted(u[1] for u in state["units"] if u[0] == seat and u[2] == solo["region"]
                       and u[1] in UNIT_VALUE)
        assert there == fighting
    assert state["players"][solo["you"]]["res"]["phalanx"] == \
        solo["phalanxes"][YOU] - solo["placed"]
    hidden = [s.value for s in GAME.secrets(state) if s.value in standard.CARDS]
    assert len(hidden) == (0 if solo["shown"] else
                           sum(u["side"] == AUTOMATON for u in solo["units"]))
    for seat in (None, *range(state["n"])):
        seen = json.dumps(GAME.view(state, seat))
        assert not [h for h in hidden if f'"{h}"' in seen]


def random_solo_game(seed: int, players: int) -> tuple[int, int]:
    """A game of ``players`` seats, the last the Automaton, the others taking random legal
    steps; the invariants checked at every step and the log replayed to the state. Returns
    how many combats against the Automaton were fought, and how many clashes."""
    rng = random.Random(seed)
    state = GAME.setup(seed, players, {"automaton": "igigi"})
    first = clone(state)
    log: list[tuple[int, str]] = []
    combats = clashes = 0
    while GAME.outcome(state) is None:
        assert len(log) < 20_000
        seat = GAME.active(state)[0]
        if deck.plays(state, seat):
            step = auto.next_step(state, seat)
        else:
            step = rng.choice(GAME.legal(state, seat)).notation
        after = GAME.apply(state, seat, step)
        if "solo" in after:
            check_solo(after)
        if after["phase"] not in PHASES:
            report = GAME.report(state, seat, GAME.parse(state, seat, step), after)
            check(invariant_view(after, players - 1), int(after.get("round", 1)),
                  [report.for_seat(r) for r in (None, *range(players))])
        combats += sum(c["bids"] is None for c in after.get("resolved", []))
        clashes += len(after.get("clashed", []))
        log.append((seat, step))
        state = after
    again = first
    for seat, step in log:
        again = GAME.apply(again, seat, step)
    assert again == state
    return combats, clashes


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 16)])
def test_random_games_against_the_automaton_fight_solo_combats(players: int, seed: int) -> None:
    """Random games against the Automaton (alone, and as an extra opponent of two seats) reach
    combats against it, fought without bids, clash by clash; invariants hold and the logs
    replay to the states."""
    combats, clashes = random_solo_game(seed, players)
    assert combats > 0 and clashes >= combats


@pytest.mark.slow
def test_more_random_games_against_the_automaton() -> None:
    """The same over more games: combats against the Automaton happen, invariants hold."""
    found = [random_solo_game(seed, players) for players in (2, 3, 4) for seed in range(2, 8)]
    assert sum(c for c, _ in found) > 0 and sum(n for _, n in found) > 0
