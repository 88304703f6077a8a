"""Mesopotamia: the combat phase as steps (``battles.py``): the order of combats, the pairs of a
region with three sides, naval support, sealed bids, neutral tribes and their events, rams and
ramparts, colonies, the end of the round and of the game. Each test quotes the sentence it
checks (rulebook seed 004) and names the ruling of RULINGS.md it follows."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.engine import State
from bot.games.mesopotamia import battles, bids, combat, events
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.combat import TRIBE
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import PHASES, seal_order, unit_limit, units_of
from bot.i18n import translate
from bot.replay import Step, replay
from render.context import RenderContext
from render.mesopotamia import RENDERER
from tests.contract import NAMES
from tests.test_mesopotamia_end import bare, free_regions


def at_war(n: int, units: list[list[object]], mode: str = "simplified",
           phalanxes: int = 1) -> State:
    """A game in the combat phase of round 1 with ``units`` on the map (no event pending)."""
    state = bare(n)
    state["units"] = [list(u) for u in units]
    state["combat_mode"] = mode
    for player in state["players"]:
        player["res"]["phalanx"] = phalanxes
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    return state


def steps(state: State, seat: int) -> list[str]:
    return [a.notation for a in GAME.legal(state, seat)]


def seal(state: State, seat: int, *parts: int) -> State:
    for n in parts:
        state = GAME.apply(state, seat, f"bid {n}")
    return state


def no_tribe(state: State, k: int) -> list[str]:
    """``k`` free regions with no face-down event (so that no reveal interferes)."""
    return [r for r in free_regions(state, 40) if r not in state["sites"]][:k]


def test_no_combat_ends_the_round() -> None:
    """« Les Manches s'enchaînent jusqu'à la construction complète des Jardins suspendus. » —
    with no combat, the combat phase ends at once and the next round's action phase begins."""
    state = at_war(2, [])
    assert state["phase"] == "actions" and state["round"] == 2 and "battle" not in state


def test_the_event_leader_chooses_the_next_combat() -> None:
    """« Le joueur le plus avancé sur la piste Événement décide de l'ordre dans lequel tous
    les combats sont résolus. » — one ``fight <region>`` at a time; the last one left starts
    by itself."""
    probe = bare(3)
    one, two = no_tribe(probe, 2)
    state = at_war(3, [[0, "spearman", one], [1, "spearman", one],
                       [1, "archer", two], [2, "archer", two]])
    chooser = seal_order(state, "event")[0]
    assert GAME.active(state) == [chooser]
    assert steps(state, chooser) == [f"fight {one}", f"fight {two}"]
    state = GAME.apply(state, chooser, f"fight {two}")
    assert state["battle"]["region"] == two and GAME.active(state) == [1, 2]
    state = seal(state, 1, 0)
    after = seal(state, 2, 0)
    assert after["battle"]["region"] == one and after["log"] == [[chooser, f"fight {one}"]]
    assert GAME.active(after) == [0, 1]


def test_three_empires_fight_two_at_a_time() -> None:
    """« Après chaque combat, l'Empire perdant quitte la région. » — with three empires the
    chooser names the first two (Q-multi-empire (a): each pairwise combat is a whole combat);
    the winner then fights the third."""
    probe = bare(3)
    (region,) = no_tribe(probe, 1)
    state = at_war(3, [[0, "spearman", region], [1, "archer", region],
                       [2, "chariot", region]])
    chooser = seal_order(state, "event")[0]
    empires = [state["players"][s]["empire"] for s in range(3)]
    assert GAME.active(state) == [chooser]
    assert len(steps(state, chooser)) == 3
    state = GAME.apply(state, chooser, f"pair {empires[0]} {empires[1]}")
    assert state["battle"]["pair"] == [0, 1] and GAME.active(state) == [0, 1]
    state = seal(seal(state, 0, 0), 1, 0)        # 1 against 2: the archer wins
    assert [u[0] for u in state["units"] if u[2] == region] == [1, 2]
    assert state["battle"]["pair"] == [1, 2] and GAME.active(state) == [1, 2]
    state = seal(seal(state, 1, 0), 2, 0)        # 2 against 4: the chariot wins
    assert state["units"] == [[2, "chariot", region]] and state["phase"] == "actions"


def test_a_ship_supports_one_combat_with_a_phalanx_that_must_be_spent() -> None:
    """« Tout Navire adjacent à une région disputée appartenant à un Empire impliqué dans ce
    combat peut y participer. » « L'Élamite reçoit 1 Phalange bonus avant la Phase
    d'enchères, et doit la miser » — each ship once a round (Q-ship-support (a), R-ship-bonus:
    it always supports the first combat it borders)."""
    probe = bare(2)
    section = next(s for s in D.SECTIONS.values()
                   if all(b in free_regions(probe, 40) for b in s.banks))
    one, two = section.banks
    state = at_war(2, [[0, "spearman", one], [1, "spearman", one], [0, "archer", two],
                       [1, "archer", two], [0, "ship", section.id]])
    chooser = seal_order(state, "event")[0]
    state = GAME.apply(state, chooser, f"fight {one}")
    assert state["players"][0]["res"]["phalanx"] == 2
    assert state["bids"]["need"] == {"0": 1, "1": 0}
    assert steps(state, 0) == ["bid 1", "bid 2"] and steps(state, 1) == ["bid 0", "bid 1"]
    state = seal(seal(state, 0, 1), 1, 0)
    assert state["battle"]["region"] == two
    assert state["players"][0]["res"]["phalanx"] == 1     # the bonus spent; no second one
    assert state["bids"]["need"] == {"0": 0, "1": 0} and state["bids"]["stake"]["0"] == 1


def test_bids_are_secret_until_the_last_part_which_cannot_be_undone() -> None:
    """« vous décidez en secret du nombre de Phalanges à investir : aucune, une partie, ou
    tout. » — every side bids at once, a part at a time; nobody sees another's bid before the
    last part reveals them all (R-secret-bids), and that part cannot be undone."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "spearman", region]], phalanxes=3)
    assert GAME.active(state) == [0, 1]
    assert steps(state, 0) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert GAME.is_reversible(state, 0, GAME.parse(state, 0, "bid 2"))
    state = seal(state, 0, 2)
    assert GAME.active(state) == [1]
    assert GAME.view(state, 1)["bids"]["sealed"]["0"] is None
    assert GAME.view(state, None)["bids"]["sealed"]["0"] is None
    assert GAME.view(state, 0)["bids"]["sealed"]["0"] == [2]
    (secret,) = bids.secrets(state)
    assert secret.readers == frozenset({0}) and "2" in translate(secret.value, "en", NAMES)
    report = GAME.report(state, 1, GAME.parse(state, 1, "bid 1"), seal(state, 1, 1))
    assert not GAME.is_reversible(state, 1, GAME.parse(state, 1, "bid 1"))
    public = translate(report.for_seat(None), "en", NAMES)
    assert "Avery bids 2" in public and "Blake bids 1" in public
    guess = GAME.determinize(GAME.view(state, 1), 1, __import__("random").Random(1))
    assert steps(guess, 1) == steps(state, 1)


def test_the_standard_bid_has_three_compartments() -> None:
    """« Chaque Étendard d'Ur compte trois compartiments » — Force, Tactics, Mobility: three
    parts, each at most the stake left (R-secret-bids)."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "spearman", region]], mode="standard",
                   phalanxes=2)
    assert state["bids"]["parts"] == 3 and "fight" in state
    state = seal(state, 0, 1, 1)         # nothing left: the last part seals itself
    assert GAME.view(state, 0)["bids"]["sealed"]["0"] == [1, 1, 0]


def test_the_tribe_bids_all_its_phalanxes_through_its_controller() -> None:
    """« lancez un dé Événement ; ajoutez 2 pour chaque Unité que la Tribu neutre possède
    actuellement. » « Les Tribus neutres misent toujours TOUTES leurs Phalanges disponibles »
    « Si vous n'êtes pas dernier de la piste Événement, c'est le joueur derrière vous qui la
    contrôle. » — the controller seals the tribe's bid (Q-tribe-controller (a))."""
    probe = bare(3)
    region = next(r for r, t in probe["tribes"].items() if t)
    figures = sum(probe["tribes"][region].values())
    first = seal_order(probe, "event")[0]
    state = at_war(3, [[first, "chariot", region]], mode="simplified", phalanxes=1)
    controller = combat.tribe_controller(state, first)
    stake = state["bids"]["stake"][TRIBE]
    assert 2 * figures + 1 <= stake <= 2 * figures + 6
    assert state["bids"]["by"][TRIBE] == controller and state["bids"]["sealed"][TRIBE] == [stake]
    assert GAME.active(state) == [first]
    probe3 = at_war(3, [[first, "chariot", region]], mode="standard", phalanxes=1)
    assert GAME.active(probe3) == sorted({first, controller})
    assert steps(probe3, controller)[-1] == f"bid {stake}"


def test_a_beaten_tribe_reveals_its_event_before_the_next_combat() -> None:
    """« Une fois la Tribu vaincue, l'Événement doit être révélé puis résolu immédiatement,
    avant tout autre combat. » (Q-tribe-timing (a), R-tribe-event)"""
    probe = bare(2)
    region = next(r for r, t in probe["tribes"].items() if t and r in probe["sites"])
    other = no_tribe(probe, 1)[0]
    probe["tribes"][region] = {"spearman": 1}
    first = seal_order(probe, "event")[0]
    units = [[first, "chariot", region], [first, "chariot", region], [0, "spearman", other],
             [1, "spearman", other]]
    state = bare(2)
    state["tribes"][region] = {"spearman": 1}
    state["units"], state["combat_mode"] = units, "simplified"
    for player in state["players"]:
        player["res"]["phalanx"] = 9
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    state = GAME.apply(state, first, f"fight {region}")
    state = seal(state, first, 9)            # 9 + 8 beats at most 6 + 2 + 1
    assert state["tribes"][region] == {} and state["phase"] == "events"
    assert state["event"]["region"] == region and GAME.active(state) == [first]
    option = steps(state, first)[0]
    state = GAME.apply(state, first, option)
    assert state["phase"] == "combat" and state["battle"]["region"] == other


def test_simplified_winner_chooses_the_unit_it_loses() -> None:
    """« Le joueur remportant le combat perd toutes les Phalanges mises, et doit détruire l'une
    de ses Unités impliquées dans le combat, sauf s'il s'agit de sa dernière. » — his choice
    (R-simplified-combat): ``sacrifice <unit>``."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [0, "chariot", region],
                       [1, "spearman", region]])
    state = seal(seal(state, 0, 0), 1, 0)
    assert state["battle"]["stage"] == "sacrifice" and GAME.active(state) == [0]
    assert steps(state, 0) == ["sacrifice spearman", "sacrifice chariot"]
    state = GAME.apply(state, 0, "sacrifice chariot")
    assert state["units"] == [[0, "spearman", region]] and state["phase"] == "actions"


def test_the_attacker_is_the_last_empire_to_enter() -> None:
    """« L'attaquant choisit une région adjacente où les Unités vaincues battent en retraite. »
    — the attacker is the empire whose unit entered the region last (Q-rout (a),
    R-attacker); else the seat behind on the Event track."""
    probe = bare(3)
    (region,) = no_tribe(probe, 1)
    order = seal_order(probe, "event")
    probe["battle"] = {"ships": []}
    probe["entered"] = {region: order[0]}
    assert battles.attacker(probe, region, (order[0], order[1])) == order[0]
    assert battles.attacker(probe, region, (order[1], order[2])) == order[2]
    assert battles.attacker(probe, region, (TRIBE, order[1])) == order[1]


def test_war_and_moves_record_who_entered_last() -> None:
    """« L'Unité créée est placée dans votre Région de départ » and « Chaque Unité activée peut
    se déplacer » — a created or moved land unit is recorded as the last to enter its region
    this round (R-attacker); the record is emptied when a round begins."""
    from tests.test_mesopotamia_actions import play

    state = bare(2)
    seat = state["current"]
    state["players"][seat]["res"]["wood"] = 1
    start = state["players"][seat]["start"]
    state = play(state, "use war pawn", f"create spearman {start}")
    assert state["entered"] == {start: seat}
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert state["entered"] == {}


def test_siege_removes_a_ram_and_the_ramparts() -> None:
    """« À la fin d'un combat dans une région fortifiée : Le Bélier est retiré du plateau du
    jeu. Les Remparts sont détruits, quelle que soit l'issue du combat. » (Q-ram (a), R-ram)"""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = bare(2)
    state["players"][1]["ramparts"] = [region]
    state["units"] = [[0, "ram", region], [0, "ram", region], [0, "spearman", region]]
    battles.siege(state, region, 0)
    assert state["units"] == [[0, "ram", region], [0, "spearman", region]]
    assert state["players"][1]["ramparts"] == []
    state["units"] = [[0, "spearman", region], [0, "ram", region], [1, "archer", region]]
    state["players"][1]["ramparts"] = [region]
    state["entered"] = {region: 0}
    state["combat_mode"] = "simplified"
    for player in state["players"]:
        player["res"]["phalanx"] = 1
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    state = seal(seal(state, 0, 0), 1, 0)     # the archer wins; the ramparts fall all the same
    assert state["players"][1]["ramparts"] == [] and [0, "ram", region] not in state["units"]


def test_colonies_are_destroyed_taken_or_kept_after_the_combats() -> None:
    """« Si l'une de vos Unités occupe une région contenant une Colonie ennemie à la fin de la
    Manche, vous pouvez, une fois la Phase de combat résolue : 1. Détruire la Colonie … 2.
    Conquérir la Colonie » — in Event-track order (Q-colony-attack (a), R-colony-attack)."""
    probe = bare(3)
    one, two, three = no_tribe(probe, 3)
    first, second, third = seal_order(probe, "event")
    state = bare(3)
    state["players"][first]["colonies"] = [one]
    state["players"][second]["colonies"] = [two, three]
    state["units"] = [[third, "spearman", one], [first, "spearman", two],
                      [first, "archer", three], [third, "spearman", three]]
    state["units"] = [u for u in state["units"] if u != [third, "spearman", three]]
    state["combat_mode"] = "simplified"
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert state["battle"]["stage"] == "colonies" and GAME.active(state) == [first]
    assert steps(state, first) == [f"colony {c} {r}" for r in D.REGIONS if r in (two, three)
                                   for c in ("destroy", "take", "keep")]
    state = GAME.apply(state, first, f"colony take {two}")
    assert state["players"][first]["colonies"] == [one, two]
    assert state["players"][second]["colonies"] == [three]
    state = GAME.apply(state, first, f"colony keep {three}")
    assert GAME.active(state) == [third] and f"colony destroy {one}" in steps(state, third)
    state = GAME.apply(state, third, f"colony destroy {one}")
    assert state["players"][first]["colonies"] == [two] and state["round"] == 2


def test_the_end_of_the_round_turns_six_round_events() -> None:
    """« À la fin de chaque Manche, tournez le dé sur le chiffre suivant et résolvez l'effet
    pour cette Manche. »"""
    state = bare(2)
    card = next(c for c, v in events.CARDS.items()
                if any(o["kind"] == "control_6_rounds" for o in v["options"]))
    option = next(i for i, o in enumerate(events.CARDS[card]["options"])
                  if o["kind"] == "control_6_rounds")
    region = no_tribe(state, 1)[0]
    state["running"] = [{"seat": 0, "card": card, "option": option, "region": region,
                         "face": 1}]
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert state["running"][0]["face"] == 2 and state["round"] == 2


def test_the_game_ends_after_the_round_of_the_fifth_storey() -> None:
    """« Une fois les cinq étages des Jardins suspendus construits et la Manche actuelle
    terminée (permettant à tous les joueurs de finir leur Tour), la partie prend fin. »
    (R-game-end)"""
    state = bare(2)
    state["players"][0]["gardens"] = [tile for tile, _ in state["gardens"]]
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert state["phase"] == "over" and GAME.active(state) == []
    assert GAME.outcome(state) is not None


def test_reports_tell_the_revealed_bids_and_the_new_round() -> None:
    """« Quand les joueurs révèlent leur enchère » — the step that reveals the bids reports
    every bid, the winner and the loser to everyone; the end of the round is told."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = at_war(2, [[0, "spearman", region], [1, "archer", region]], phalanxes=1)
    state = seal(state, 0, 1)
    after = seal(state, 1, 0)
    text = translate(GAME.report(state, 1, GAME.parse(state, 1, "bid 0"), after)
                     .for_seat(None), "en", NAMES)
    assert "Avery bids 1" in text and "Blake bids 0" in text and "round 2" in text
    assert bids.revealed(after) is None


# -- whole random games ----------------------------------------------------------------------

MAX_STEPS = 60_000
"""Random games end in 3,000 to 19,000 steps (220 to 650 rounds): random seats rarely hold
at once the Architecture card, the clay and the Tablet that the fourth and fifth storeys ask
(Tablets come only from converting clay, and random seats spend them on rerolls and
discoveries). The cap only catches a game that would never end."""


def broken_caps(state: State) -> list[str]:
    """What breaks the caps in ``state``: a seat beyond its unit limit or its figures of a
    kind, a resource below zero, a tribe with a negative count."""
    found: list[str] = []
    for seat, player in enumerate(state["players"]):
        if len(units_of(state, seat)) > unit_limit(state, seat):
            found.append(f"seat {seat} beyond its unit limit")
        kinds = Counter(u[1] for u in units_of(state, seat))
        found += [f"seat {seat} has {n} {k}" for k, n in kinds.items() if n > D.FIGURES[k]]
        found += [f"seat {seat} has {v} {k}" for k, v in player["res"].items() if v < 0]
    found += [f"tribe {r}" for r, t in state["tribes"].items() if any(n < 0 for n in t.values())]
    return found


def random_game(seed: int) -> tuple[State, list[Step], int]:
    """A whole random game (2-4 players, both combat modes), its log and its rounds, checking
    at every step that some seat is active with a legal step and that the caps hold."""
    n, mode = 2 + seed % 3, battles.MODES[seed % 2]
    rng = random.Random(f"battles:{seed}")
    state = GAME.setup(seed, n, {"combat": mode})
    log: list[Step] = []
    while GAME.outcome(state) is None:
        assert len(log) < MAX_STEPS, f"seed {seed}: no end in {MAX_STEPS} steps"
        active = GAME.active(state)
        assert active, f"seed {seed}: nobody active at step {len(log)} ({state['phase']})"
        seat = rng.choice(active)
        action = rng.choice(GAME.legal(state, seat))
        state = GAME.apply(state, seat, action)
        log.append(Step(seat, action.notation))
        if state["phase"] not in PHASES:
            assert not broken_caps(state), (seed, len(log), broken_caps(state))
    return state, log, int(state["round"])


def check_random_games(seeds: range) -> None:
    """« Les Manches s'enchaînent jusqu'à la construction complète des Jardins suspendus. » —
    random games all end (phase ``over``, an outcome), never in a dead end, the unit limit,
    the figures and the resources kept; replaying a game's log gives its state."""
    for seed in seeds:
        state, log, rounds_ = random_game(seed)
        assert state["phase"] == "over" and rounds_ > 1
        if seed < 2:
            again = replay(GAME, seed, state["n"], {"combat": battles.MODES[seed % 2]}, log)
            assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)


@pytest.mark.slow
def test_random_games_end_with_the_caps_kept_and_replay_exactly() -> None:
    """A sample of :func:`check_random_games` (2, 3 and 4 players, both combat modes)."""
    check_random_games(range(6))


def test_the_board_draws_a_combat_under_way() -> None:
    """The picture of a view in the combat phase, bids sealed in part, does not fail."""
    probe = bare(2)
    (region,) = no_tribe(probe, 1)
    state = seal(at_war(2, [[0, "spearman", region], [1, "spearman", region]], phalanxes=2),
                 0, 1)
    for reader in (None, 0, 1):
        assert RENDERER.png(GAME.view(state, reader), RenderContext(NAMES, "en"))
