"""Mesopotamia: the events revealed during a turn, the choice of their options, the running
event given up for a fourth six-round one and the final reward that names a technology
(rulebook seed 004, « ÉVÉNEMENTS DANS MESOPOTAMIA »; RULINGS R-reveal-timing, R-event-step,
R-event-dice, R-round-end). Each test quotes the sentence it checks."""

from __future__ import annotations

import json
import random

from bot.engine import State
from bot.games.mesopotamia import battles, events, exploration
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.actions import next_card
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import seal_case, tech_level
from bot.i18n import translate
from tests.contract import NAMES
from tests.test_mesopotamia_actions import legal, play, ready, set_card
from tests.test_mesopotamia_end import bare, free_regions


def near_event(state: State, guarded: bool = False) -> tuple[str, str]:
    """The current seat's start region and a neighbour holding a face-down event token (with
    a tribe when ``guarded``), open to its units."""
    seat = state["current"]
    start = state["players"][seat]["start"]
    region = next(r for r in exploration.moves_from(state, seat, start)
                  if r in state["sites"] and r not in state["blockers"]
                  and bool(state["tribes"].get(r)) == guarded)
    return start, region


def stop_on(card: str, stone: int = 0) -> tuple[State, State, str]:
    """A game where the current seat (Exploration level 2: activations left; ``stone`` Stone)
    moves a spearman onto a face-down ``card``: the state before the move and after it, and
    the region."""
    state = ready(4)
    seat = state["current"]
    state["players"][seat]["res"]["stone"] = stone
    set_card(state, seat, "exploration", 2)
    start, region = near_event(state)
    state["sites"][region] = [card, False]
    state = play(state, "use exploration pawn", f"activate spearman {start}")
    return state, play(state, f"move {region}"), region


def test_a_unit_ending_its_move_reveals_the_event_at_once() -> None:
    """« Quand une Unité finit un déplacement sur une région contenant un jeton Événement face
    cachée, celui-ci est immédiatement révélé. » « Retournez-le face visible pour révéler un
    symbole et un chiffre. » — in the step of the move, before the turn goes on; the step is
    not undoable, and the turn is still the same turn (R-turn-count)."""
    before, after, region = stop_on("plain_01")
    seat = before["current"]
    assert after["sites"][region] == ["plain_01", True]
    assert after["event"] == {"seat": seat, "region": region, "card": "plain_01"}
    assert after["phase"] == "actions" and GAME.active(after) == [seat]
    assert legal(after) == ["event plain_01 1"]          # no Stone for option 2
    assert not GAME.is_reversible(before, seat, GAME.parse(before, seat, f"move {region}"))
    assert after["turn"] == before["turn"]
    report = GAME.report(before, seat, GAME.parse(before, seat, f"move {region}"), after)
    assert "reveals" in translate(report.public, "en", NAMES)
    prompt = GAME.prompt(after, seat)
    assert prompt is not None and "Euphrates Flood" in translate(prompt.text, "en", NAMES)
    step = GAME.ai_step(after, seat, GAME.legal(after, seat), random.Random(1))
    assert step is not None and step.notation == "event plain_01 1"


def test_passing_through_reveals_nothing_and_halting_there_reveals() -> None:
    """« Quand une Unité finit un déplacement sur une région contenant un jeton Événement face
    cachée, celui-ci est immédiatement révélé. » — a cavalry passing through (it could go
    on) reveals nothing; stopping there with ``halt`` reveals it (R-reveal-timing)."""
    state = ready(4)
    seat = state["current"]
    start, region = near_event(state)
    state["units"].append([seat, "cavalry", start])
    state = play(state, "use exploration pawn", f"activate cavalry {start}", f"move {region}")
    assert state["t"]["act"]["unit"] is not None and "halt" in legal(state)
    assert not state["sites"][region][1] and not state.get("event")
    state = play(state, "halt")
    assert state["sites"][region][1] and state["event"]["region"] == region


def test_a_tribe_region_keeps_its_event_face_down() -> None:
    """« Si la région est occupée par une Tribu neutre, celle-ci doit être vaincue pour
    révéler l'Événement. » — a unit stopping there reveals nothing (R-tribe-event: the
    combat does, ``test_a_beaten_tribe_reveals_its_event_before_the_next_combat``)."""
    state = ready(4)
    start, region = near_event(state, guarded=True)
    after = play(state, "use exploration pawn", f"activate spearman {start}", f"move {region}")
    assert not after["sites"][region][1] and not after.get("event")
    assert after["pending_events"] == []


def test_the_revealer_chooses_and_its_turn_goes_on_where_it_was() -> None:
    """« Donnez ensuite la carte Événement au joueur qui l'a révélé, qui doit choisir entre
    l'option 1 et 2. » « La carte Événement est défaussée et ne pourra plus être piochée. »
    « Le jeton Événement est retiré du plateau. » — then the Exploration under way goes on."""
    before, after, region = stop_on("plain_01")
    seat = before["current"]
    case = seal_case(after, "event", seat)
    res = dict(after["players"][seat]["res"])
    done = GAME.apply(after, seat, "event plain_01 1")
    assert region not in done["sites"] and not done["event"]
    gained = done["players"][seat]["res"]
    assert (gained["food"], gained["clay"]) == (res["food"] + 2, res["clay"] + 2)
    assert seal_case(done, "event", seat) == case + 1
    assert done["players"][seat]["events_resolved"] == 1
    assert done["t"] == after["t"] and done["t"]["act"]["activations"] > 0
    assert any(o.startswith("activate ") for o in legal(done)) and done["turn"] == after["turn"]


def test_a_vp_option_leaves_the_token_face_up_and_everyone_reads_it() -> None:
    """« La carte Événement est défaussée, mais le jeton Événement reste sur le plateau face
    visible. » « En fin de partie, le joueur qui contrôle cette région gagne les Points de
    victoire 🍌 indiqués sur le jeton. » — and the card is read by all (« Quand vous piochez
    une carte Événement, vous devez lire les éléments suivants à voix haute »)."""
    before, after, region = stop_on("plain_01", stone=1)
    seat = before["current"]
    for reader in (None, *range(4)):
        assert GAME.view(after, reader)["sites"][region]["token"] == "plain_01"
        assert GAME.view(after, reader)["event"]["card"] == "plain_01"
    assert legal(after) == ["event plain_01 1", "event plain_01 2"]
    done = GAME.apply(after, seat, "event plain_01 2")
    assert done["sites"][region] == ["plain_01", True] and done["vp_tokens"] == {region: 3}
    assert "plain_01" in json.dumps(GAME.view(done, None))


def running_three(state: State, seat: int) -> list[str]:
    """Give ``seat`` three running six-round events on face-up tokens of free regions; their
    cards."""
    cards = [c for c, v in events.CARDS.items() if c != "plain_09"
             and v["options"][1]["kind"] == "control_6_rounds"][:3]
    regions = [r for r in free_regions(state, 60) if r in state["sites"]][-3:]
    state["running"] = [{"seat": seat, "card": c, "option": 1, "region": r, "face": 2}
                        for c, r in zip(cards, regions, strict=True)]
    for c, r in zip(cards, regions, strict=True):
        state["sites"][r] = [c, True]
    return cards


def test_with_three_event_dice_used_the_seat_names_the_one_it_gives_up() -> None:
    """« Placez l'un de vos dés Événement à côté du jeton Événement sur la face 1 (1). » —
    « 3 dés Événement sumériens »: with the three in use, the six-round option names the
    running event given up; its die comes back, its card and token leave without the final
    reward (R-event-dice, Q-event-dice (a))."""
    state = ready(4)
    seat = state["current"]
    set_card(state, seat, "exploration", 2)
    start, region = near_event(state)
    cards = running_three(state, seat)
    state["sites"][region] = ["plain_09", False]
    after = play(state, "use exploration pawn", f"activate spearman {start}", f"move {region}")
    assert legal(after) == ["event plain_09 1", *(f"event plain_09 2 abandon {c}" for c in cards)]
    given_up = next(r for r in after["running"] if r["card"] == cards[1])
    done = GAME.apply(after, seat, f"event plain_09 2 abandon {cards[1]}")
    assert [r["card"] for r in events.running(done, seat)] == [cards[0], cards[2], "plain_09"]
    assert done["running"][-1] == {"seat": seat, "card": "plain_09", "option": 1,
                                   "region": region, "face": 1}
    assert given_up["region"] not in done["sites"] and done["sites"][region][1]
    label = GAME.legal(after, seat)[2].label
    assert "giving up" in translate(label, "en", NAMES)


def sixth_end(n: int, card: str, option: int) -> tuple[State, str]:
    """A game at the end of its first round (no combat) whose seat 0 runs ``card`` on its
    Event die's face 6."""
    state = bare(n)
    region = next(r for r in free_regions(state, 60) if r in state["sites"])
    state["sites"][region] = [card, True]
    state["running"] = [{"seat": 0, "card": card, "option": option, "region": region,
                         "face": 6}]
    state.update(phase="combat", current=None, t=None, log=[])
    return state, region


def test_a_final_discovery_of_any_technology_is_the_owner_step() -> None:
    """« À la fin de la Manche 6 : gagnez la récompense finale (par exemple, 1 Colonie et une
    Découverte) ; retirez la carte et le jeton Événement du jeu ; avancez sur la piste
    Événement du nombre de cases indiqué » — Shrine on Mount Ebih's final reward discovers any
    technology: its owner names it at the end of the round, then the next round begins
    (R-round-end)."""
    state, region = sixth_end(2, "mountain_05", 1)
    case = seal_case(state, "event", 0)
    battles.resume(state)
    assert state["phase"] == "end" and GAME.active(state) == [0] and state["round"] == 1
    assert region not in state["sites"] and state["running"] == []
    options = [a.notation for a in GAME.legal(state, 0)]
    assert options == [f"reward mountain_05 {a}" for a in D.ACTIONS
                       if next_card(state, 0, a)]
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and "Mount Ebih" in translate(prompt.text, "en", NAMES)
    war = state["players"][0]["tech"]["war"]
    done = GAME.apply(state, 0, "reward mountain_05 war")
    assert done["players"][0]["tech"]["war"] == next_card(state, 0, "war") != war
    assert done["players"][0]["res"]["tablet"] == 2 and done["players"][0]["res"]["food"] == 1
    assert seal_case(done, "event", 0) == case + 3
    assert done["phase"] == "actions" and done["round"] == 2 and "finals" not in done


def test_a_named_final_discovery_needs_no_step() -> None:
    """« Dans ce cas, vous gagnez le prochain niveau disponible de la Technologie indiquée. »
    — Hymn to Ninkasi's Growth Discovery is taken at the sixth end of round by itself."""
    state, _ = sixth_end(2, "plain_09", 1)
    growth = next_card(state, 0, "growth")
    battles.resume(state)
    assert state["phase"] == "actions" and state["round"] == 2
    assert state["players"][0]["tech"]["growth"] == growth


def to_top(state: State, seat: int, action: str) -> None:
    """Put ``seat``'s technology of ``action`` at its top level."""
    while next_card(state, seat, action):
        set_card(state, seat, action, tech_level(state, seat, action) + 1)


def test_at_the_top_level_the_owner_names_another_technology() -> None:
    """« Si vous êtes déjà au niveau maximum, vous pouvez choisir une autre Technologie à
    améliorer à la place. » — and the final reward of the last round comes before the final
    score (« la partie s'achève à la fin de la manche en cours »)."""
    state, _ = sixth_end(2, "plain_09", 1)
    to_top(state, 0, "growth")
    state["players"][0]["gardens"] = [tile for tile, _ in state["gardens"]]
    battles.resume(state)
    assert state["phase"] == "end" and GAME.outcome(state) is None
    assert "reward plain_09 growth" not in [a.notation for a in GAME.legal(state, 0)]
    done = GAME.apply(state, 0, "reward plain_09 research")
    assert done["phase"] == "over" and GAME.outcome(done) is not None


def test_two_discoveries_with_one_at_its_top_name_two_technologies() -> None:
    """« Si vous êtes déjà au niveau maximum, vous pouvez choisir une autre Technologie à
    améliorer à la place. » — Scribal School's final reward discovers Research and any
    technology: with Research at its top, its owner names two, in one step (R-round-end)."""
    state, _ = sixth_end(2, "plain_04", 1)
    assert events.CARDS["plain_04"]["options"][1]["final"]["discover"] == ["research", "any"]
    to_top(state, 0, "research")
    level = tech_level(state, 0, "war")
    battles.resume(state)
    options = [a.notation for a in GAME.legal(state, 0)]
    assert "reward plain_04 war war" in options and "reward plain_04 war growth" in options
    assert not [o for o in options if "research" in o] and len(options) <= 25
    label = GAME.legal(state, 0)[0].label
    assert translate(label, "en", NAMES).count(",") == 1
    done = GAME.apply(state, 0, "reward plain_04 war war")
    assert tech_level(done, 0, "war") == level + 2 and done["round"] == 2


# -- « Perte de contrôle » (R-event-reset) ------------------------------------------------------


def held_event(units: list[tuple[int, str, int]], face: int = 3,
               cards: tuple[str, ...] = ("plain_09",)) -> tuple[State, list[str]]:
    """A 2-seat game at the end of the action phase of round 1 (simplified combat) where seat
    0 runs the six-round option of each of ``cards`` (Event die on ``face``), each in a free
    region with its token face up; ``units`` are ``[seat, kind, i]`` (i: the event's index)."""
    state = bare(2)
    regions = [r for r in free_regions(state, 60) if r in state["sites"]][:len(cards)]
    for card, region in zip(cards, regions, strict=True):
        state["sites"][region] = [card, True]
    state["running"] = [{"seat": 0, "card": c, "option": 1, "region": r, "face": face}
                        for c, r in zip(cards, regions, strict=True)]
    state["units"] = [[s, k, regions[i]] for s, k, i in units]
    state.update(phase="combat", current=None, t=None, log=[], combat_mode="simplified")
    return state, regions


def test_an_empire_taking_the_region_resets_the_event_and_chooses() -> None:
    """« Si, au cours des 6 Manches, un autre Empire prend le contrôle de la région :
    l'Événement est réinitialisé ; le nouveau propriétaire récupère la carte Événement ; puis
    il choisit l'une des deux options de l'Événement. S'il choisit l'option sur 6 Manches, il
    place son propre dé Événement sur la face 1. » — checked at the end of the combat phase,
    before the dice turn: the winner of the combat chooses as its step, and its die, on face
    1, gives its first gain at this end of round (R-event-reset, Q-event-reset (a))."""
    state, (region,) = held_event([(0, "spearman", 0), (1, "spearman", 0), (1, "spearman", 0)])
    for player in state["players"]:
        player["res"]["phalanx"] = 1
    battles.resume(state)
    state = GAME.apply(state, 0, "bid 0")
    after = GAME.apply(state, 1, "bid 1")
    assert after["units"] == [[1, "spearman", region]] and after["running"] == []
    assert after["phase"] == "events" and GAME.active(after) == [1]
    assert after["event"] == {"seat": 1, "region": region, "card": "plain_09", "from": 0}
    assert GAME.view(after, None)["event"]["from"] == 0
    assert [a.notation for a in GAME.legal(after, 1)] == ["event plain_09 1", "event plain_09 2"]
    report = GAME.report(state, 1, GAME.parse(state, 1, "bid 1"), after)
    assert "Blake now controls" in translate(report.public, "en", NAMES)
    prompt = GAME.prompt(after, 1)
    assert prompt is not None and "is reset" in translate(prompt.text, "en", NAMES)
    assert "réinitialisé" in translate(prompt.text, "fr", NAMES)
    food, case = after["players"][1]["res"]["food"], seal_case(after, "event", 1)
    done = GAME.apply(after, 1, "event plain_09 2")
    assert done["running"] == [{"seat": 1, "card": "plain_09", "option": 1, "region": region,
                                "face": 2}]
    assert done["players"][1]["res"]["food"] == food + 2 and done["players"][0]["res"]["food"] == 0
    assert seal_case(done, "event", 1) == case and done["phase"] == "actions"
    assert done["round"] == 2 and done["sites"][region] == ["plain_09", True]


def test_the_previous_owner_keeps_what_the_event_gave() -> None:
    """« l'Événement est réinitialisé ; le nouveau propriétaire récupère la carte Événement »
    — the previous owner keeps its gains and its die comes back; the new one, controlling the
    region by its Colony (R-control), resolves the card as if he had revealed it: an immediate
    option's effect, its Event-track advance, the card and token leave (Q-event-reset (a))."""
    state, (region,) = held_event([], face=4)
    state["players"][0]["res"]["food"] = 6          # three rounds of « gagnez 2 Nourriture »
    state["players"][1]["colonies"] = [region]
    cases = [seal_case(state, "event", s) for s in (0, 1)]
    battles.resume(state)
    assert state["phase"] == "events" and events.running(state, 0) == []
    done = GAME.apply(state, 1, "event plain_09 1")
    assert done["players"][0]["res"]["food"] == 6 and seal_case(done, "event", 0) == cases[0]
    gained = done["players"][1]["res"]
    assert (gained["food"], gained["wood"], gained["stone"]) == (2, 1, 1)
    assert seal_case(done, "event", 1) == cases[1] + 1
    assert done["players"][1]["events_resolved"] == 1
    assert region not in done["sites"] and done["running"] == [] and done["round"] == 2


def test_the_previous_owner_retaking_the_region_resets_it_again() -> None:
    """« Si le propriétaire précédent reprend la région, l'Événement est à nouveau
    réinitialisé. » — a round later, seat 0 is back alone in the region seat 1 took: seat 1's
    die leaves and seat 0 chooses again, putting its die back on face 1 (R-event-reset)."""
    state, (region,) = held_event([(1, "spearman", 0)])
    battles.resume(state)
    state = GAME.apply(state, 1, "event plain_09 2")
    assert events.running(state, 1)[0]["face"] == 2 and state["round"] == 2
    state["units"] = [[0, "spearman", region]]
    state.update(phase="combat", current=None, t=None, log=[])
    battles.resume(state)
    assert state["event"] == {"seat": 0, "region": region, "card": "plain_09", "from": 1}
    assert events.running(state, 1) == [] and GAME.active(state) == [0]
    done = GAME.apply(state, 0, "event plain_09 2")
    assert done["running"] == [{"seat": 0, "card": "plain_09", "option": 1, "region": region,
                                "face": 2}]
    assert done["round"] == 3


def test_a_region_nobody_controls_keeps_its_die_running() -> None:
    """« Si, au cours des 6 Manches, un autre Empire prend le contrôle de la région » — with
    no unit and no Colony, nobody controls the region, so the die keeps turning for its owner
    (Q-event-reset (a)); another event of the same owner lost the same round is reset, then
    the dice turn (R-event-reset)."""
    state, (empty, taken) = held_event([(1, "archer", 1)], cards=("plain_09", "plain_02"))
    battles.resume(state)
    assert state["event"] == {"seat": 1, "region": taken, "card": "plain_02", "from": 0}
    assert [r["face"] for r in state["running"]] == [3]
    done = GAME.apply(state, 1, "event plain_02 1")
    assert done["running"] == [{"seat": 0, "card": "plain_09", "option": 1, "region": empty,
                                "face": 4}]
    assert done["players"][0]["res"]["food"] == 2 and done["round"] == 2


def test_an_enemy_ram_keeps_no_event_colony_or_rampart_out() -> None:
    """« placez 1 Colonie dans cette région » (plain 11) « Placez 1 Rempart dans cette région. »
    (mountain 4) — another empire's ram alone in the region is no enemy unit there: it keeps
    nobody from founding a Colony (R-ram-unit), so both pieces are placed; another empire's
    spearman keeps them out, « vous gagnez 1 Phalange à la place » for each."""
    pieces = [events.CARDS["plain_11"]["options"][1]["final"],
              events.CARDS["mountain_04"]["options"][1]["effect"]]
    for enemy, placed in (("ram", True), ("spearman", False)):
        state = bare(2)
        region = free_regions(state, 1)[0]
        state["units"] = [[1, enemy, region]]
        for effect in pieces:
            events.apply_effect(state, 0, region, effect)
        player = state["players"][0]
        assert (player["colonies"], player["ramparts"]) == (([region], [region]) if placed
                                                            else ([], []))
        assert player["res"]["phalanx"] == (0 if placed else 2)


def test_a_final_ziggurat_storey_is_built_with_the_die_its_owner_chooses() -> None:
    """« À la fin de la Manche 6 : gagnez la récompense finale » — a free Ziggurat storey comes
    with its Dingir die (« Vous gagnez un dé Dingir pour chaque étage construit »): its owner
    names the colour when the storey allows several, it is taken by itself when one only, and
    « Vous ne pouvez pas construire un nombre d'étages de Ziggurat supérieur à votre niveau sur
    la piste Population » gives 1 Phalanx instead (as the free pieces that cannot be placed)."""
    state, _ = sixth_end(2, "plain_06", 1)
    state["seals"]["population"] = [[0, 3], [1, 1]]
    player = state["players"][0]
    storeys, phalanxes = player["ziggurat"], player["res"]["phalanx"]
    battles.resume(state)
    assert state["phase"] == "end" and GAME.active(state) == [0]
    colours = [c for c in D.COLOURS if c not in player["dice"]]
    options = [a.notation for a in GAME.legal(state, 0)]
    assert len(colours) > 1 and options == [f"reward plain_06 {c}" for c in colours]
    label = translate(GAME.legal(state, 0)[0].label, "en", NAMES)
    assert "Ziggurat storey" in label and "die" in label
    done = GAME.apply(state, 0, f"reward plain_06 {colours[-1]}")
    built = done["players"][0]
    assert built["ziggurat"] == storeys + 1 and built["dice"][-1] == colours[-1]
    assert done["phase"] == "actions" and done["round"] == 2

    capped, _ = sixth_end(2, "plain_06", 1)
    capped["seals"]["population"] = [[1, 1], [0, 1]]
    capped["players"][0]["ziggurat"] = 1
    battles.resume(capped)
    assert capped["phase"] == "actions" and capped["players"][0]["ziggurat"] == 1
    assert capped["players"][0]["res"]["phalanx"] == phalanxes + 1


def test_a_final_quest_card_is_drawn_from_the_deck_and_kept() -> None:
    """« À la fin de la Manche 6 : gagnez la récompense finale » — the Quest card of a final
    reward is the top card of the Quest deck, kept in its owner's hand, which no other seat
    reads."""
    state, _ = sixth_end(2, "desert_06", 1)
    deck = list(state["quests"]["deck"])
    hand = list(state["quests"]["hands"][0])
    battles.resume(state)
    assert state["quests"]["hands"][0] == [*hand, deck[0]]
    assert state["quests"]["deck"] == deck[1:]
    assert GAME.view(state, 1)["quests"]["hand"] == state["quests"]["hands"][1]
    assert GAME.view(state, 0)["quests"]["hand"] == [*hand, deck[0]]
